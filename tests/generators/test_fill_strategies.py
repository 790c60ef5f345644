"""Fill strategies (issue 13): every strategy's grids checked by an independent validator,
determinism, restarts instead of invalid grids, budgets, and the registry the CLI reads."""

import numpy as np
import pytest

from sudokit.errors import BudgetExhausted, InstanceError, MissingExtraError
from sudokit.generators import fill_backtrack
from sudokit.generators.fills import FILLS, fill_grid, fill_strategy, prepare_fill
from sudokit.generators.grids import random_grid
from sudokit.solvers.budget import Budget

from ..helpers import budget_cpu_bound, cpu_seconds, requires, with_extra

#: the fills that need an optional extra (their tests skip without it)
FILL_EXTRAS = {"ilp": "ilp"}
needs_ilp = requires("ilp")


def fill_param(name, *rest):
    """A test parameter of fill ``name`` (and ``rest``), skipped when its extra is missing."""
    if name in FILL_EXTRAS:
        return with_extra(FILL_EXTRAS[name], name, *rest)
    return (name, *rest) if rest else name

SHAPES = [(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (12, (3, 4)), (16, (4, 4))]
#: what each strategy is meant to reach beyond 16x16 in a test's time (grasp stops at 12x12)
LARGER = {"auto": [25, 36], "search": [25], "sat": [25, 36], "product": [25, 64],
          "prune": [25], "weighted-prune": [25, 36], "backtrack": [], "ilp": [25, 36], "grasp": []}
#: a seed per (strategy, side) known to finish fast where a strategy has a heavy tail
SEEDS = {("weighted-prune", 36): 1}


def valid_grid(grid, r, c):
    """Independent of the package: every row, column and r x c box holds 1..n once."""
    grid = np.asarray(grid)
    n = r * c
    want = list(range(1, n + 1))
    if grid.shape != (n, n):
        return False
    rows = all(sorted(row.tolist()) == want for row in grid)
    cols = all(sorted(col.tolist()) == want for col in grid.T)
    boxes = all(sorted(grid[i:i + r, j:j + c].ravel().tolist()) == want
                for i in range(0, n, r) for j in range(0, n, c))
    return rows and cols and boxes


def cases():
    for name in FILLS:
        shapes = [s for s in SHAPES if name != "grasp" or s[0] <= 12]
        shapes += [(n, (int(n ** 0.5), int(n ** 0.5))) for n in LARGER[name]]
        for n, box in shapes:
            yield fill_param(name, n, box)


@pytest.mark.parametrize("name, n, box", list(cases()))
def test_every_strategy_gives_valid_grids(name, n, box):
    seed = SEEDS.get((name, n), 0)
    stats = {}
    grid = fill_grid(name, n, box, np.random.default_rng(seed), stats=stats,
                     meter=Budget(seconds=120).start())
    assert valid_grid(grid, *box)
    assert stats["strategy"] == name and stats["restarts"] >= 0 and stats["nodes"] >= 0
    assert stats["seconds"] >= 0


@pytest.mark.parametrize("name", [fill_param(name) for name in FILLS])
def test_same_seed_same_grid(name):
    n, box = (9, (3, 3)) if name != "sat" else (16, (4, 4))
    first = fill_grid(name, n, box, np.random.default_rng(11))
    again = fill_grid(name, n, box, np.random.default_rng(11))
    assert (first == again).all()
    others = [fill_grid(name, n, box, np.random.default_rng(s)) for s in (12, 13)]
    assert any((first != o).any() for o in others)


def test_valid_grid_catches_a_broken_grid():
    grid = fill_grid("prune", 6, (2, 3), np.random.default_rng(0))
    assert valid_grid(grid, 2, 3)
    swapped = grid.copy()
    swapped[0, [0, 3]] = swapped[0, [3, 0]]      # the row stays a permutation, a box breaks
    assert not valid_grid(swapped, 2, 3)
    assert not valid_grid(grid, 3, 2)


def test_prune_restarts_rather_than_return_an_invalid_grid():
    """alpha 0 tries one value per cell: most descents fail and restart; every grid returned
    is valid, and many seeds needed restarts."""
    restarts = []
    for seed in range(20):
        stats = {}
        for name in ("prune", "weighted-prune"):
            grid = fill_grid(name, 9, (3, 3), np.random.default_rng(seed), alpha=0.0,
                             stats=stats)
            assert valid_grid(grid, 3, 3)
            restarts.append(stats["restarts"])
    assert sum(r > 0 for r in restarts) >= 20 and max(restarts) >= 5


def test_prune_with_few_restarts_gives_up_cleanly():
    found = []
    for seed in range(10):
        try:
            found.append(fill_grid("prune", 9, (3, 3), np.random.default_rng(seed), alpha=0.0,
                                   max_restarts=0))
        except BudgetExhausted as err:
            assert "after 0 restarts" in str(err)
    assert len(found) < 10 and all(valid_grid(g, 3, 3) for g in found)


def test_backtrack_fills_the_diagonal_boxes_first():
    box = fill_backtrack.diagonal_boxes(9, (3, 3), np.random.default_rng(5)).reshape(9, 9)
    assert (box[3:6, :3] == 0).all() and int((box > 0).sum()) == 27
    for d in range(3):
        assert sorted(box[3 * d:3 * d + 3, 3 * d:3 * d + 3].ravel().tolist()) == list(
            range(1, 10))
    rng = np.random.default_rng(5)
    grid = fill_backtrack.backtrack_fill(9, (3, 3), np.random.default_rng(5))
    first = fill_backtrack.diagonal_boxes(9, (3, 3), rng).reshape(9, 9)
    assert (grid[:3, :3] == first[:3, :3]).all()     # no restart: its own diagonal boxes


def _kernel_run(flat, n, box, mode=fill_backtrack.MODE_ALL, alpha=1.0):
    """Run the Raggi kernel on the flat grid ``flat`` (changed in place): (result, nodes)."""
    arrays = fill_backtrack._state(flat, n, box)
    st = np.zeros(2, dtype=np.int64)
    result = fill_backtrack.raggi_kernel(flat, n, *box, *arrays, mode, alpha,
                                         np.array([12345], dtype=np.int64), st, 10**6)
    return result, int(st[1])


def test_a_dead_cell_is_found_when_its_row_starts():
    """Algorithm 1 refreshes a row's candidate lists when the row starts: cell (0, 3) of this
    4x4 has no candidate (column 3 holds 2, 3, 4, its box 1, 2), so the search gives up before
    placing anything in row 0, rather than filling (0, 0)..(0, 2) first."""
    flat = np.zeros(16, dtype=np.int32)
    flat[[6, 7, 11, 15]] = [1, 2, 3, 4]
    assert _kernel_run(flat, 4, (2, 2)) == (0, 0)
    assert (flat[[6, 7, 11, 15]] == [1, 2, 3, 4]).all() and (flat[:4] == 0).all()
    flat = np.zeros(16, dtype=np.int32)
    flat[[6, 7, 11]] = [1, 2, 3]                     # (0, 3) may hold 4: a completion exists
    result, nodes = _kernel_run(flat, 4, (2, 2))
    assert result == 1 and nodes >= 13 and valid_grid(flat.reshape(4, 4), 2, 2)


@pytest.mark.parametrize("mode", [fill_backtrack.MODE_PRUNE, fill_backtrack.MODE_WEIGHTED])
def test_alpha_zero_tries_one_value_per_cell(mode):
    """x = 1 at every cell with alpha 0 (Algorithms 2 and 3): one descent, each empty cell
    placed at most once, then success or (about 6,000 times in 6,001 at 9x9) a failure that
    makes the caller restart, never a second value at a cell."""
    deepest = 0
    for seed in range(100):
        flat = fill_backtrack.diagonal_boxes(9, (3, 3), np.random.default_rng(seed))
        size = int((flat == 0).sum())
        result, nodes = _kernel_run(flat, 9, (3, 3), mode, 0.0)
        assert nodes <= size and (result == 1) == (nodes == size)
        assert result == 0 or valid_grid(flat.reshape(9, 9), 3, 3)
        deepest = max(deepest, nodes)
    assert deepest >= size // 2


@pytest.mark.parametrize("name", [fill_param(name) for name in
                                  ("backtrack", "prune", "weighted-prune", "ilp", "grasp")])
def test_time_budget_holds(name):
    """A fill that cannot finish in its budget raises BudgetExhausted soon after it (CPU
    seconds within :func:`~.helpers.budget_cpu_bound`)."""
    n, box = {"grasp": (16, (4, 4))}.get(name, (49, (7, 7)))
    prepare_fill(name)          # kernels compiled before the clock starts, as the CLI does
    started = cpu_seconds()
    with pytest.raises(BudgetExhausted, match="time budget ran out"):
        fill_grid(name, n, box, np.random.default_rng(0), meter=Budget(seconds=0.5).start())
    assert cpu_seconds() - started < budget_cpu_bound(0.5)


@needs_ilp
def test_ilp_fill_in_a_child_process_equals_the_one_in_process():
    """The child process (from CHILD_MIN_SIDE up) gets the same job: same seed, same grid;
    its first row is the random fixed row drawn from the generator."""
    from sudokit.generators.fill_ilp import CHILD_MIN_SIDE, ilp_fill

    assert 9 < CHILD_MIN_SIDE <= 36
    here = ilp_fill(9, (3, 3), np.random.default_rng(8), child=False)
    there = ilp_fill(9, (3, 3), np.random.default_rng(8), child=True)
    assert valid_grid(here, 3, 3) and (here == there).all()
    assert here[0].tolist() == (np.random.default_rng(8).permutation(9) + 1).tolist()


@needs_ilp
def test_ilp_fill_with_the_papers_random_objective():
    from sudokit.generators.fill_ilp import ilp_fill

    grids = [ilp_fill(9, (3, 3), np.random.default_rng(s), random_objective=True)
             for s in (1, 1, 2)]
    assert all(valid_grid(g, 3, 3) for g in grids)
    assert (grids[0] == grids[1]).all() and (grids[0] != grids[2]).any()


@needs_ilp
def test_ilp_budget_holds_in_the_child_process():
    """A budget too short for a 36x36 kills the child: BudgetExhausted, soon after (CPU
    seconds of this process and the child within :func:`~.helpers.budget_cpu_bound`)."""
    started = cpu_seconds()
    with pytest.raises(BudgetExhausted, match="time budget ran out"):
        fill_grid("ilp", 36, (6, 6), np.random.default_rng(0),
                  meter=Budget(seconds=0.3).start())
    assert cpu_seconds() - started < budget_cpu_bound(0.3)


@needs_ilp
def test_ilp_budget_holds_in_process():
    """In this process (below CHILD_MIN_SIDE, or child=False) the meter cancels HiGHS: the
    paper's random objective keeps a 25x25 in its root LP for seconds, a 0.3 s budget ends
    it soon after or it ended sooner with a valid grid (CPU seconds within
    :func:`~.helpers.budget_cpu_bound` either way), and the same fill with time enough gives
    a valid grid."""
    from sudokit.generators.fill_ilp import ilp_fill

    started = cpu_seconds()
    try:
        quick = ilp_fill(25, (5, 5), np.random.default_rng(0), random_objective=True,
                         child=False, meter=Budget(seconds=0.3).start())
    except BudgetExhausted as err:
        assert "time budget ran out" in str(err)
    else:   # HiGHS left its root LP early this time (seen once on a loaded machine)
        assert valid_grid(quick, 5, 5)
    assert cpu_seconds() - started < budget_cpu_bound(0.3)
    grid = ilp_fill(16, (4, 4), np.random.default_rng(0), random_objective=True,
                    child=False, meter=Budget(seconds=60).start())
    assert valid_grid(grid, 4, 4)


@needs_ilp
def test_ilp_fill_respects_its_budget_and_reports_nodes():
    stats = {}
    grid = fill_grid("ilp", 12, (3, 4), np.random.default_rng(3), stats=stats,
                     meter=Budget(seconds=60).start())
    assert valid_grid(grid, 3, 4) and stats["nodes"] >= 0 and stats["seconds"] >= 0


@pytest.mark.parametrize("name, alpha", [("prune", -0.1), ("prune", 1.01),
                                         ("weighted-prune", 2.0), ("grasp", -1.0),
                                         ("prune", float("nan")), ("ilp", 0.5),
                                         ("backtrack", 0.5)])
def test_bad_alpha_is_refused(name, alpha):
    with pytest.raises(InstanceError, match="alpha"):
        fill_grid(name, 9, (3, 3), np.random.default_rng(0), alpha=alpha)


def test_registry_entries():
    for strategy in FILLS.values():
        assert strategy.description and strategy.source
        if strategy.takes_alpha:
            low, high = strategy.alpha
            assert low <= strategy.alpha_default <= high
    assert FILLS["prune"].alpha_default == 0.7 and FILLS["weighted-prune"].alpha_default == 1.0
    with pytest.raises(InstanceError, match="choose one of auto, search"):
        fill_strategy("annealing")


def test_random_grid_routes_through_the_registry():
    a = random_grid(9, (3, 3), np.random.default_rng(4), method="weighted-prune", alpha=0.5)
    b = fill_grid("weighted-prune", 9, (3, 3), np.random.default_rng(4), alpha=0.5)
    assert (a == b).all()
    givens = np.zeros((9, 9), dtype=int)
    givens[0, 0] = 5
    assert random_grid(9, (3, 3), np.random.default_rng(0), givens=givens,
                       method="sat")[0, 0] == 5              # givens: searched, as before
    with pytest.raises(InstanceError, match="empty Sudoku grids only"):
        random_grid(9, (3, 3), np.random.default_rng(0), givens=givens, method="prune")
    with pytest.raises(InstanceError, match="empty Sudoku grids only"):
        random_grid(5, None, np.random.default_rng(0), method="grasp")


def test_missing_highspy_is_one_clean_line(monkeypatch):
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda mod, *a: None if mod == "highspy" else found(mod, *a))
    with pytest.raises(MissingExtraError, match=r'pip install "sudokit\[ilp\]"'):
        fill_grid("ilp", 9, (3, 3), np.random.default_rng(0))
