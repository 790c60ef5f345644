"""DLX answers a chunk in parts, each as soon as it is decided (issue 29 item 4).

``DancingLinks.count_many_parts`` and ``DLXEngine.count_array_parts`` give the rows decided
so far before a row that needs more than its slice of nodes starts its search alone; the
answers are those of the one-call path (``count_many``, ``count_arrays``): checked on real
sets, against brute force on small grids, and by the nodes the search has spent at each part
(never by the clock).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit.formats import read_instances
from sudokit.instances import latin_square, sudoku
from sudokit.solvers.budget import Budget
from sudokit.solvers.dlx_engine import DLXEngine

from ..helpers import brute_force_count, data_path, partial_grids

#: counting the empty 6x6 Sudoku (28,200,960 grids) to this many takes more nodes than the
#: 65,536 of DLX's slice there (one node at least a grid), so that row searches alone; a full
#: grid less one cell has one solution, found in a few nodes of the batch call
HARD_LIMIT = 100_000
EMPTY6 = sudoku(np.zeros((6, 6), dtype=int), box=(2, 3))


def _six_by_six(engine: DLXEngine, pattern: str) -> np.ndarray:
    """Rows of 6x6 givens: ``e`` an easy one (a full grid less one cell), ``H`` the empty
    grid."""
    full = engine.solve(EMPTY6).reshape(-1)
    rows = []
    for k, kind in enumerate(pattern):
        row = np.zeros(36, dtype=np.int32) if kind == "H" else full.copy()
        if kind == "e":
            row[k % 36] = 0
        rows.append(row)
    return np.array(rows, dtype=np.int32)


def _joined(parts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return tuple(np.concatenate([getattr(p, f) for p in parts])  # type: ignore[return-value]
                 for f in ("counts", "solutions", "unknown"))


def _same(parts, whole) -> None:
    counts, solutions, unknown = _joined(parts)
    assert np.array_equal(counts, whole.counts)
    assert np.array_equal(solutions, whole.solutions)
    assert np.array_equal(unknown, whole.unknown)


def test_the_rows_before_a_hard_row_come_before_its_search():
    """Each part is given out before any work on the rows after it: the nodes spent when
    the first part comes are those of the batch call, far fewer than the hard row's own
    search spends before the next part."""
    engine = DLXEngine(shape=EMPTY6)
    links = engine.links
    givens = _six_by_six(engine, "eeeHeHe")
    links.reset_counters()
    seen = []
    for part in engine.count_array_parts(givens, HARD_LIMIT):
        seen.append((part.counts.tolist(), links.nodes))
    assert [counts for counts, _ in seen] == [[1, 1, 1], [HARD_LIMIT], [1], [HARD_LIMIT], [1]]
    nodes = [spent for _, spent in seen]
    # the first part: one batch call (each row at most a slice, the call two slices); the
    # hard row alone then searches at least HARD_LIMIT nodes more before its part
    assert nodes[0] <= 3 * links.slice_nodes
    assert nodes[1] - nodes[0] >= HARD_LIMIT
    assert nodes[2] == nodes[1]            # the easy row after it was done in the batch call
    assert nodes[3] - nodes[2] >= HARD_LIMIT
    whole = engine.count_arrays(givens, HARD_LIMIT)
    _same([engine.count_arrays(givens, HARD_LIMIT)], whole)
    _same(list(engine.count_array_parts(givens, HARD_LIMIT)), whole)
    assert whole.counts.tolist() == [1, 1, 1, HARD_LIMIT, 1, HARD_LIMIT, 1]


def test_a_hard_first_row_holds_back_only_itself():
    """[hard, easy ...]: the hard row's part first, then the easy ones, which the first
    batch call already decided (no node spent on them after the hard row's search)."""
    engine = DLXEngine(shape=EMPTY6)
    givens = _six_by_six(engine, "Heeee")
    parts = engine.count_array_parts(givens, HARD_LIMIT)
    first = next(parts)
    assert first.counts.tolist() == [HARD_LIMIT]
    spent = engine.links.nodes
    assert [p.counts.tolist() for p in parts] == [[1, 1, 1, 1]]
    assert engine.links.nodes == spent


def test_a_node_budget_the_kernel_holds_needs_no_search_alone():
    engine = DLXEngine(shape=EMPTY6)
    parts = list(engine.count_array_parts(_six_by_six(engine, "eHe"), HARD_LIMIT,
                                          Budget(nodes=500)))
    assert len(parts) == 1 and parts[0].unknown.tolist() == [False, True, False]
    assert 0 < parts[0].counts[1] < HARD_LIMIT   # its first solution kept, as count_arrays does
    assert EMPTY6.is_solution(parts[0].solutions[1].reshape(6, 6))


def test_a_time_budget_ends_the_hard_row_alone_and_the_rest_goes_on():
    """The empty grid counted without a limit never ends: the budget ends it between its
    slices, unknown, and the rows after it are answered."""
    engine = DLXEngine(shape=EMPTY6)
    parts = list(engine.count_array_parts(_six_by_six(engine, "eHe"), None,
                                          Budget(seconds=0.2)))
    counts, solutions, unknown = _joined(parts)
    assert unknown.tolist() == [False, True, False]
    assert counts[[0, 2]].tolist() == [1, 1] and counts[1] > 0
    assert [len(p.counts) for p in parts] == [1, 1, 1]


def test_a_batch_call_stops_after_its_nodes():
    """The batch kernel from row ``begin`` stops after the row at which its call has spent
    ``max_call`` nodes (-1: every row), so no call runs long and the rows it did can go out."""
    from sudokit.solvers.dlx import _kernel

    engine = DLXEngine(shape=EMPTY6)
    links = engine.links
    starts, options = engine._preselected(_six_by_six(engine, "eeeeee"))
    counts, unknown = np.zeros(6, np.int64), np.zeros(6, np.int8)
    firsts = np.full((6, 36), -1, np.int32)
    args = (*links._links, links._spacers, links._x, links._stats, links._mark, starts,
            options)

    def call(begin, max_call):
        before = links.nodes
        end = _kernel("solve_batch")(*args, begin, 2, -1, max_call, counts, firsts, unknown,
                                     np.zeros(3, np.int64))
        return end, links.nodes - before

    end, spent = call(0, 1)
    assert end == 1 and spent > 0 and counts.tolist() == [1, 0, 0, 0, 0, 0]
    end, spent = call(1, 2 * spent + 1)
    assert 2 <= end < 6
    assert call(end, -1)[0] == 6 and counts.tolist() == [1] * 6 and not unknown.any()


@pytest.mark.parametrize("path, limit, budget, decided", [
    ("sudoku/9x9-tdoku/puzzles3_magictour_top1465", 2, None, 1465),
    ("sudoku/9x9-norvig/top95.txt", None, None, 95),
    ("sudoku/gecode-9-16-25/sudoku16_janko_via_gecode.txt", 2, Budget(nodes=200_000), 1),
    ("latin/qwh30_42pct_zanarini_pesant", 2, Budget(nodes=100_000), 0),
])
def test_parts_give_the_one_call_answers_on_real_sets(path, limit, budget, decided,
                                                      monkeypatch):
    """The same counts, solutions and unknowns as one ``count_arrays`` call; with a small
    slice, many rows go alone (and the node budget still holds the same). ``decided``: at
    least that many are decided (the qwh30 squares none in 100,000 nodes: all unknown, the
    budget held alike on both roads)."""
    found = data_path(*path.split("/"))
    files = sorted(found.glob("*.pls"))[:6] if found.is_dir() else [found]
    instances = [r.instance for f in files for r in read_instances(f)]
    givens = np.stack([p.flat_givens for p in instances])
    budget = budget or Budget()
    engine = DLXEngine(shape=instances[0])
    whole = engine.count_arrays(givens, limit, budget)
    assert (~whole.unknown).sum() >= decided
    _same(list(engine.count_array_parts(givens, limit, budget)), whole)
    monkeypatch.setattr(engine.links, "slice_nodes", 64)
    sliced = list(engine.count_array_parts(givens, limit, budget))
    _same(sliced, engine.count_arrays(givens, limit, budget))
    if budget.nodes is None:
        _same(sliced, whole)
    solved = whole.counts > 0
    for instance, solution, ok in zip(instances, whole.solutions, solved, strict=True):
        assert not ok or instance.is_solution(solution.reshape(instance.solution_shape))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(partial_grids(), min_size=1, max_size=6), st.integers(1, 40),
       st.sampled_from([None, 1, 2, 5]))
def test_parts_count_small_grids_as_brute_force(grids, slice_nodes, limit):
    """Grids of one shape (the first one's) in a chunk, counted in parts with a tiny slice
    (so rows go alone at random places): brute force's counts, and each solution checks."""
    shape = grids[0]
    same = [g for g in grids if g.kind == shape.kind and g.box == shape.box
            and g.givens.shape == shape.givens.shape]
    givens = np.stack([g.flat_givens for g in same])
    engine = DLXEngine(shape=shape)
    engine.links.slice_nodes = slice_nodes
    parts = list(engine.count_array_parts(givens, limit))
    counts, solutions, unknown = _joined(parts)
    assert not unknown.any()
    for grid, count, solution in zip(same, counts, solutions, strict=True):
        exact = brute_force_count(grid)
        assert count == (exact if limit is None else min(exact, limit))
        if count:
            assert grid.is_solution(solution.reshape(grid.solution_shape))
    _same(parts, engine.count_arrays(givens, limit))


def test_count_parts_and_solve_parts_of_instances():
    """The instance road: a shared engine's parts are the arrays' parts, as outcomes; an
    unshared one answers all at once."""
    engine = DLXEngine(shape=EMPTY6)
    rows = _six_by_six(engine, "eeHe")
    instances = [EMPTY6.with_givens(row.reshape(6, 6)) for row in rows]
    counted = [[o.count for o in part] for part in engine.count_parts(instances, HARD_LIMIT)]
    assert counted == [[1, 1], [HARD_LIMIT], [1]]
    solved = [[o.status for o in part] for part in engine.solve_parts(instances)]
    assert sum(solved, []) == ["sat"] * 4
    latin = latin_square(np.zeros((3, 3), dtype=int))
    with DLXEngine() as alone:
        assert [[o.count for o in part] for part in alone.count_parts([latin])] == [[12]]
        assert [[o.status for o in part] for part in alone.solve_parts([latin])] == [["sat"]]
