"""DLX exact cover: known counts, preselection and restoration, batches, laziness, brute force."""

import itertools
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import BudgetExhausted, SolverError
from sudokit.solvers.budget import Budget
from sudokit.solvers.dlx import DancingLinks, dlx_count, dlx_first, dlx_solutions

from ..helpers import HANG_GUARD

PUZZLE17 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


# -- local problem builders (arrays only) ----------------------------------------------------
def grid_problem(n, r=None, c=None):
    """Sudoku (boxes r x c) or Latin square (no boxes) of order n as exact-cover arrays.

    Items: cell, row-value, column-value[, box-value]; option (row, col, value) has index
    (row * n + col) * n + value and lists its items in that order.
    """
    row, col, val = (a.ravel() for a in np.meshgrid(*(np.arange(n),) * 3, indexing="ij"))
    parts = [row * n + col, n * n + row * n + val, 2 * n * n + col * n + val]
    if r is not None:
        box = (row // r) * (n // c) + col // c
        parts.append(3 * n * n + box * n + val)
    items = np.stack(parts, axis=1)
    num_items = len(parts) * n * n
    starts = np.arange(len(items) + 1) * len(parts)
    return num_items, num_items, starts, items.ravel()


def queens_problem(n):
    """n queens: ranks and files primary, the 2n-1 diagonals and anti-diagonals secondary."""
    rank, file = (a.ravel() for a in np.meshgrid(np.arange(n), np.arange(n), indexing="ij"))
    items = np.stack([rank, n + file, 2 * n + rank + file, 4 * n - 1 + rank - file + n - 1],
                     axis=1)
    return 6 * n - 2, 2 * n, np.arange(n * n + 1) * 4, items.ravel()


def givens(line, n=9):
    """Option indices (r, c, v) of the givens of a one-line puzzle."""
    return [i * n + int(ch, 36) - 1 for i, ch in enumerate(line.strip()) if ch not in ".0"]


def to_grid(options, n):
    grid = np.zeros(n * n, dtype=int)
    options = np.asarray(options)
    grid[options // n] = options % n + 1
    return grid.reshape(n, n)


def is_sudoku(grid, r, c):
    n = len(grid)
    want = list(range(1, n + 1))
    boxes = grid.reshape(n // r, r, n // c, c).transpose(0, 2, 1, 3).reshape(n, n)
    return all(sorted(unit) == want for block in (grid, grid.T, boxes) for unit in block)


def is_exact_cover(problem, options):
    num_items, num_primary, starts, items = problem
    hits = np.zeros(num_items, dtype=int)
    for k in options:
        hits[items[starts[k]:starts[k + 1]]] += 1
    return bool(np.all(hits[:num_primary] == 1) and np.all(hits[num_primary:] <= 1))


def read_puzzles(path, count):
    lines = [ln.strip() for ln in path.read_text().splitlines()]
    return [ln for ln in lines if ln and not ln.startswith("#")][:count]


SUDOKU4 = grid_problem(4, 2, 2)
SUDOKU9 = grid_problem(9, 3, 3)


@pytest.fixture(scope="module")
def dlx4():
    return DancingLinks(*SUDOKU4)


@pytest.fixture(scope="module")
def dlx9():
    return DancingLinks(*SUDOKU9)


# -- known counts ----------------------------------------------------------------------------
def test_empty_4x4_sudoku(dlx4):
    assert dlx4.count() == 288
    assert dlx_count(SUDOKU4, limit=10) == 10


@pytest.mark.parametrize("n, expected", [(1, 1), (2, 2), (3, 12), (4, 576), (5, 161280)])
def test_latin_squares(n, expected):
    assert dlx_count(grid_problem(n)) == expected


@pytest.mark.parametrize("n, expected", [(1, 1), (2, 0), (3, 0), (4, 2), (6, 4), (8, 92)])
def test_queens(n, expected):
    assert dlx_count(queens_problem(n)) == expected


def test_from_problem_accepts_attributes():
    class XC:
        num_items, num_primary, option_starts, option_items = SUDOKU4

    dlx = DancingLinks.from_problem(XC())
    assert dlx.count() == 288
    assert DancingLinks.from_problem(dlx) is dlx
    with pytest.raises(SolverError, match="exact-cover problem"):
        DancingLinks.from_problem(object())


# -- preselection and restoration ------------------------------------------------------------
def test_17_clue_puzzle_is_unique(dlx9):
    pre = givens(PUZZLE17)
    assert dlx9.count(pre, limit=2) == 1
    solution = dlx9.first(pre)
    assert len(solution) == 81 and set(pre) <= set(solution.tolist())
    grid = to_grid(solution, 9)
    assert is_sudoku(grid, 3, 3)
    assert all(grid.flat[o // 9] == o % 9 + 1 for o in pre)
    assert is_exact_cover(SUDOKU9, solution)


def test_clashing_preselection_counts_zero(dlx4):
    assert dlx4.count([0, 1]) == 0           # two values in cell (0, 0)
    assert dlx4.count([0, 4]) == 0           # value 1 twice in row 0
    assert dlx4.count([3, 3]) == 0           # the same option twice
    assert dlx4.first([0, 1]) is None
    assert list(dlx4.solutions([0, 1])) == []
    assert dlx4.count([0]) == 288 // 4


def test_structure_restored_after_many_calls():
    dlx = DancingLinks(*SUDOKU4)
    fresh = DancingLinks(*SUDOKU4).links()
    rng = np.random.default_rng(1)
    for _ in range(300):
        pre = rng.choice(64, size=rng.integers(0, 6), replace=False)
        dlx.count(pre, limit=int(rng.integers(0, 4)))
        dlx.first(pre)
        gen = dlx.solutions(pre)
        next(gen, None)                       # abandoned mid-search: works on a copy
    dlx.count_many([0, 2, 2, 5], [0, 5, 0, 1, 2], limit=1)
    with pytest.raises(BudgetExhausted):
        dlx.count(budget=Budget(nodes=3))
    for now, then in zip(dlx.links(), fresh, strict=True):
        np.testing.assert_array_equal(now, then)
    assert dlx.count() == 288


def test_bad_calls_raise_solver_error(dlx4):
    with pytest.raises(SolverError, match="out of range"):
        dlx4.count([64])
    with pytest.raises(SolverError, match="out of range"):
        dlx4.first([-1])
    with pytest.raises(SolverError, match="out of range"):
        dlx4.solutions([1000])
    with pytest.raises(SolverError, match="option indices"):
        dlx4.count([0.5])
    with pytest.raises(SolverError, match="limit"):
        dlx4.count(limit=-1)
    with pytest.raises(SolverError, match="pre_starts"):
        dlx4.count_many([0, 3], [1, 2])
    with pytest.raises(SolverError, match="out of range"):
        dlx4.count_many([0, 1], [99])
    with pytest.raises(SolverError, match="same item twice"):
        DancingLinks(2, 2, [0, 2], [1, 1])
    with pytest.raises(SolverError, match="num_primary"):
        DancingLinks(2, 3, [0, 1], [0])


def test_node_budget():
    dlx = DancingLinks(*SUDOKU4)
    with pytest.raises(BudgetExhausted, match="budget"):
        dlx.count(budget=Budget(nodes=10))
    assert dlx.count(budget=Budget(nodes=10**6)) == 288
    assert dlx.first(budget=Budget(nodes=10**6)) is not None


# -- batch -----------------------------------------------------------------------------------
def test_count_many_on_17_clue_puzzles(data_dir, dlx9):
    puzzles = read_puzzles(data_dir / "sudoku" / "9x9-tdoku" / "puzzles2_17_clue", 200)
    assert len(puzzles) == 200
    sets = [givens(p) for p in puzzles]
    starts = np.concatenate(([0], np.cumsum([len(s) for s in sets])))
    counts, firsts, _ = dlx9.count_many(starts, np.concatenate(sets), limit=2)
    assert counts.dtype == np.int64 and firsts.dtype == np.int32
    assert firsts.shape == (200, 81)
    assert np.all(counts == 1)
    for pre, row in zip(sets[:50], firsts, strict=False):  # the first 50 only
        assert dlx9.count(pre, limit=2) == 1
        np.testing.assert_array_equal(row, dlx9.first(pre))
        assert is_sudoku(to_grid(row, 9), 3, 3)


def test_count_many_pads_and_handles_empty_batches(dlx4):
    counts, firsts, _ = dlx4.count_many([0], [], limit=2)
    assert counts.shape == (0,) and firsts.shape[0] == 0
    counts, firsts, _ = dlx4.count_many([0, 0, 2], [0, 1], limit=None)
    assert counts.tolist() == [288, 0]
    assert is_exact_cover(SUDOKU4, firsts[0]) and np.all(firsts[1] == -1)


# -- lazy solutions --------------------------------------------------------------------------
def test_solutions_are_288_distinct_exact_covers(dlx4):
    covers = [tuple(s.tolist()) for s in dlx4.solutions()]
    assert len(covers) == len(set(covers)) == 288
    assert all(is_exact_cover(SUDOKU4, c) for c in covers)
    assert all(is_sudoku(to_grid(c, 4), 2, 2) for c in covers)


def test_solutions_are_lazy(dlx4):
    dlx4.reset_counters()
    taken = list(itertools.islice(dlx_solutions(dlx4), 5))
    assert len(taken) == 5
    assert dlx4.nodes < 100                   # far fewer than the whole tree (over 288)
    assert dlx_first(dlx4).tolist() == taken[0].tolist()


def test_queens_solutions_respect_secondary_items():
    problem = queens_problem(6)
    covers = list(dlx_solutions(problem))
    assert len(covers) == 4 and all(is_exact_cover(problem, c) for c in covers)


def test_counters(dlx4):
    dlx4.reset_counters()
    assert (dlx4.nodes, dlx4.updates) == (0, 0)
    dlx4.count()
    assert dlx4.nodes > 288 and dlx4.updates > dlx4.nodes
    dlx4.reset_counters()
    assert (dlx4.nodes, dlx4.updates) == (0, 0)


# -- differential against brute force --------------------------------------------------------
def brute_force(num_items, num_primary, options, pre=()):
    """Exact covers containing ``pre``, by trying every subset of the options (bit masks).

    As in Algorithm X, an option without primary items is never chosen unless preselected.
    """
    masks = np.array([sum(1 << i for i in opt) for opt in options], dtype=np.int64)
    m = len(options)
    chosen = (np.arange(1 << m)[:, None] >> np.arange(m)) & 1
    picked = np.where(chosen == 1, masks, 0)
    union = np.bitwise_or.reduce(picked, axis=1) if m else np.zeros(1, dtype=np.int64)
    disjoint = np.bitwise_count(picked).sum(axis=1) == np.bitwise_count(union)
    primary = (1 << num_primary) - 1
    ok = disjoint & ((union & primary) == primary)
    for k in pre:
        ok &= chosen[:, k] == 1
    for k, mask in enumerate(masks):
        if mask & primary == 0 and k not in pre:
            ok &= chosen[:, k] == 0
    return int(ok.sum())


@st.composite
def small_problems(draw):
    num_primary = draw(st.integers(0, 8))
    num_items = num_primary + draw(st.integers(0, 3))
    if num_items == 0:
        return 0, 0, []
    option = st.lists(st.integers(0, num_items - 1), min_size=1, max_size=4, unique=True)
    return num_items, num_primary, draw(st.lists(option, max_size=14))


def csr(options):
    starts = np.concatenate(([0], np.cumsum([len(o) for o in options]))).astype(np.int64)
    items = np.array([i for o in options for i in o], dtype=np.int32)
    return starts, items


@settings(max_examples=200, deadline=None)
@given(small_problems(), st.data())
def test_dlx_count_equals_brute_force(problem, data):
    num_items, num_primary, options = problem
    dlx = DancingLinks(num_items, num_primary, *csr(options))
    expected = brute_force(num_items, num_primary, options)
    assert dlx.count() == expected
    covers = list(dlx.solutions())
    assert len(covers) == expected
    assert all(is_exact_cover((num_items, num_primary, *csr(options)), c) for c in covers)
    assert (dlx.first() is None) == (expected == 0)
    if options:
        pre = data.draw(st.lists(st.integers(0, len(options) - 1), max_size=3, unique=True))
        want = brute_force(num_items, num_primary, options, pre)
        assert dlx.count(pre) == want
        counts, _, _ = dlx.count_many([0, len(pre)], pre)
        assert counts.tolist() == [want]


# -- pure Python mode ------------------------------------------------------------------------
def test_runs_without_jit():
    code = textwrap.dedent("""
        import numpy as np
        from sudokit.solvers import dlx_kernel
        from sudokit.solvers.dlx import dlx_count
        assert not hasattr(dlx_kernel.search, "py_func")    # really plain Python
        n = 6
        rank, file = (a.ravel() for a in np.meshgrid(np.arange(n), np.arange(n), indexing="ij"))
        items = np.stack([rank, n + file, 2 * n + rank + file, 5 * n - 2 + rank - file], axis=1)
        print(dlx_count((6 * n - 2, 2 * n, np.arange(n * n + 1) * 4, items.ravel())))
    """)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=HANG_GUARD)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "4"


# -- time budgets cover the setup and a slice is bounded by work (issue 32.4) -----------------

def test_a_slice_is_bounded_by_item_reads_not_nodes():
    """Under a time budget the clock is read between slices; a node's MRV choice reads every
    active primary item, so a slice of a fixed 65,536 nodes took 3 CPU seconds on a 200x200
    Sudoku (a 10 s limit overran by 1.3x to 1.6x). An empty 49x49 one (9,604 primary items):
    a spent budget stops after one slice of at most ``slice_work`` item reads."""
    dlx = DancingLinks(*grid_problem(49, 7, 7))
    assert dlx.slice_nodes * dlx.num_primary <= DancingLinks.slice_work
    with pytest.raises(BudgetExhausted):
        dlx.count_first((), None, Budget(seconds=1e-9))
    assert 0 < dlx.nodes <= dlx.slice_nodes
    assert dlx.nodes * dlx.num_primary <= DancingLinks.slice_work
    assert DancingLinks(*grid_problem(9, 3, 3)).slice_nodes == DancingLinks.slice_nodes


def test_the_budget_is_read_after_the_links_are_built(monkeypatch):
    """A budget spent while the links were built (made so here: the build waits it out)
    ends the count before any node is entered."""
    import time

    from sudokit.instances import sudoku
    from sudokit.solvers import dlx_engine

    built = []
    build = DancingLinks.from_problem

    def slow_build(problem):
        links = build(problem)
        built.append(links)
        time.sleep(0.3)
        return links

    monkeypatch.setattr(dlx_engine.DancingLinks, "from_problem", staticmethod(slow_build))
    engine = dlx_engine.DLXEngine()
    with pytest.raises(BudgetExhausted):
        engine.count(sudoku(np.zeros((9, 9), dtype=int)), None, Budget(seconds=0.2))
    assert len(built) == 1 and built[0].nodes == 0


def test_the_budget_is_read_between_the_encoding_steps(monkeypatch):
    """A budget spent inside the exact cover encoding (made so here: its first step waits
    it out) ends the count there: no unit group's columns are built and no links made."""
    import time

    from sudokit.encoders import completion_xc
    from sudokit.instances import sudoku
    from sudokit.solvers import dlx_engine

    tables, links = [], []
    mask = completion_xc.cell_unit_table
    build = DancingLinks.from_problem
    slow_nonzero = np.nonzero

    def waiting_nonzero(array):
        time.sleep(0.3)
        return slow_nonzero(array)

    monkeypatch.setattr(completion_xc, "cell_unit_table",
                        lambda *a: tables.append(1) or mask(*a))
    monkeypatch.setattr(dlx_engine.DancingLinks, "from_problem",
                        staticmethod(lambda problem: links.append(1) or build(problem)))
    monkeypatch.setattr(completion_xc.np, "nonzero", waiting_nonzero)
    engine = dlx_engine.DLXEngine()
    with pytest.raises(BudgetExhausted, match="while encoding"):
        engine.count(sudoku(np.zeros((9, 9), dtype=int)), None, Budget(seconds=0.2))
    assert tables == [] and links == []
