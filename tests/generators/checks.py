"""Checks the generator tests share: every generated puzzle unique under the library's DLX
and a shared SAT solver, and minimal when asked."""

import numpy as np

from sudokit.encoders import completion_to_exact_cover
from sudokit.instances import sudoku
from sudokit.solvers import DancingLinks, SATEngine


def _dlx_for(n, box):
    enc = completion_to_exact_cover(sudoku(np.zeros((n, n), int), box), "full")
    return DancingLinks.from_problem(enc.xc), enc.option_lookup()


def _clue_options(grid, lookup):
    flat = grid.reshape(-1)
    cells = np.flatnonzero(flat)
    return cells, lookup[cells, flat[cells] - 1]


def check_batch(puzzles, n, box, minimal):
    """Unique under DLX (library DancingLinks) and SAT (shared solver); minimal if asked."""
    links, lookup = _dlx_for(n, box)
    sets = [_clue_options(p.puzzle, lookup)[1] for p in puzzles]
    starts = np.concatenate([[0], np.cumsum([len(s) for s in sets])])
    counts, firsts, _ = links.count_many(starts, np.concatenate(sets), limit=2)
    assert counts.tolist() == [1] * len(puzzles)
    template = sudoku(np.zeros((n, n), int), box)
    with SATEngine(shape=template) as sat:
        for p in puzzles:
            count, solution = sat.count(template.with_givens(p.puzzle), 2)
            assert count == 1 and np.array_equal(solution, p.solution)
            assert template.is_solution(p.solution)
            assert np.array_equal(np.where(p.puzzle > 0, p.solution, 0), p.puzzle)
            assert p.clues == np.count_nonzero(p.puzzle)
    if minimal:  # removing any single clue gives several solutions
        for p, opts in zip(puzzles, sets, strict=True):
            drop = [np.delete(opts, k) for k in range(len(opts))]
            starts = np.concatenate([[0], np.cumsum([len(s) for s in drop])])
            counts, _, _ = links.count_many(starts, np.concatenate(drop), limit=2)
            assert counts.min() >= 2
            assert p.minimal
