"""A cheap hardness proxy: the candidates that survive singleton tests.

Simonis's hardest grade, ``search``, is a puzzle that HACV (singleton arc consistency:
assume a candidate, propagate hyper-arc consistency, drop the candidate on a wipe-out)
does not solve. :func:`survivors` measures how far a puzzle is from that: it propagates
HAC to its fixpoint, then tests every open candidate once (one singleton test each, on the
fixpoint, without cascading) and counts the candidates no test refutes. An easy puzzle
has none open; the forum's hardest (SE 11+, all graded ``search``) keep 95% or more of
150 to 180 open candidates; the puzzles graded BCV that a climb meets keep 60 to 80%. It
costs one HAC propagation per open candidate (numba), far less than the Sudoku Explainer
rating of a hard puzzle (0.4 s for one of the forum's hardest), so a search for the
hardest puzzles climbs on it and rates only the puzzles it finds promising
(:mod:`~sudokit.generators.graded`).

Examples
--------
>>> from sudokit.formats import parse_puzzles
>>> easy = parse_puzzles("..3.2.6..9..3.5..1..18.64....81.29..7......."
...                      "8..67.82....26.95..8..2.3..9..5.1.3..")[0].instance
>>> survivors(easy)
Survivors(open=0, refuted=0)
>>> hard = parse_puzzles("98.7..6..75..4......3..8.7.5....7.3...94.........2.1.."
...                      "3.......1.9...5.8...52....6")[0].instance      # SE 11+
>>> s = survivors(hard)
>>> s.open > 150, s.kept > 150
(True, True)
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import NamedTuple

import numpy as np

from .._accel.numba_cache import njit
from ..grading.domains import grid_tables, initial_domains
from ..grading.engine import HAC, propagate

__all__ = ["Survivors", "survivors", "singleton_tests", "hard_patterns"]


class Survivors(NamedTuple):
    """The open candidates at the HAC fixpoint and how many of them one singleton test
    refutes; ``kept`` are the rest."""

    open: int
    refuted: int

    @property
    def kept(self) -> int:
        return self.open - self.refuted


@njit
def singleton_tests(dom, flags, units, cell_units, seg_cells, same_pairs, line_units,
                    box_units, n, full):
    """Propagate ``dom`` in place to the fixpoint of ``flags``, then assume each open
    candidate on a copy and propagate again: ``(open candidates, refuted ones)``; ``(0, 0)``
    when the propagation alone solves the puzzle or fails."""
    r = propagate(dom, flags, units, cell_units, seg_cells, same_pairs, line_units,
                  box_units, n, full)
    if r != 0:
        return 0, 0
    work = np.empty_like(dom)
    one = np.int64(1)
    opened = 0
    refuted = 0
    for cell in range(dom.shape[0]):
        d = dom[cell]
        if d & (d - 1) == 0:
            continue
        for v in range(n):
            bit = one << v
            if d & bit == 0:
                continue
            opened += 1
            work[:] = dom
            work[cell] = bit
            if propagate(work, flags, units, cell_units, seg_cells, same_pairs, line_units,
                         box_units, n, full, cell) < 0:
                refuted += 1
    return opened, refuted


def survivors(puzzle) -> Survivors:
    """:class:`Survivors` of ``puzzle`` (a :class:`~sudokit.instances.GridPuzzle`) under
    HAC (see the module)."""
    tables = grid_tables(puzzle)
    dom = initial_domains(puzzle)
    opened, refuted = singleton_tests(dom, np.int64(HAC), *tables.kernel_args(), tables.n,
                                      tables.full)
    return Survivors(int(opened), int(refuted))



@cache
def hard_patterns() -> np.ndarray:
    """The clue patterns shipped in ``patterns/hardest9.txt`` (of the forum's hardest 9x9
    puzzles, SE 11+: only which cells are givens), as an ``(m, 81)`` bool array.

    Examples
    --------
    >>> masks = hard_patterns()
    >>> masks.shape[1], len(masks) > 400, bool(masks.sum(axis=1).min() >= 20)
    (81, True, True)
    """
    text = resources.files(__package__).joinpath("patterns/hardest9.txt").read_text()
    rows = [line.strip() for line in text.splitlines()
            if line.strip() and not line.startswith("#")]
    bits = [format(int(row, 16), "081b") for row in rows]
    return np.array([[ch == "1" for ch in row] for row in bits], dtype=bool)
