"""Grading in bounded slices: the clock of a time limit, and Ctrl-C, between kernel calls.

The propagation kernels (:func:`~sudokit.grading.search.status_slice`,
:func:`~sudokit.grading.search.label_slice`) run resumably, as the search kernels of
:mod:`sudokit.solvers.slicing` do: each call does at most one slice of work (about
:data:`SLICE_WORK` / ``n**3`` propagations, or as many labelling nodes) and returns to Python,
so a signal is seen within a slice (a 25x25 puzzle's BCV took seconds in one call, the node
count of a hard one hours). With ``seconds``, a puzzle that is not done within that many
seconds is given up: its undecided schemes and its node count are unknown, and the other
puzzles go on.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.grading.domains import grid_tables, initial_domains
>>> from sudokit.grading.lattice import scheme_flags
>>> p = sudoku(np.zeros((4, 4), dtype=int))
>>> t = grid_tables(p)
>>> doms = np.stack([initial_domains(p)] * 2)
>>> out, spent = status_rows(doms, np.array([scheme_flags("FC"), scheme_flags("HACV")]), t)
>>> out.tolist()
[[0, 0], [0, 0]]
>>> label_run(doms[0].copy(), scheme_flags("FC"), t, 10**6)      # (nodes, solved)
(8, 1)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .domains import GridTables
from .search import (
    ALL_DONE,
    LABEL_STATE,
    PUZZLE_DONE,
    STATUS_STATE,
    label_slice,
    status_slice,
)
from .shaving import SUSPENDED

__all__ = ["Grades", "SLICE_WORK", "UNDECIDED", "NODES_UNKNOWN", "grade_rows", "label_run",
           "slice_size", "stacked", "status_rows"]

#: work of one kernel call, in cell-value steps: ``n**3`` per propagation (a few tens of
#: milliseconds a slice, 9x9 to 25x25)
SLICE_WORK = 600_000
#: a scheme's entry of :func:`status_rows` when its puzzle ran out of time
UNDECIDED = 2
#: the node count of a puzzle that ran out of time
NODES_UNKNOWN = -1


def slice_size(n: int) -> int:
    """Propagations (or labelling nodes) per kernel call on an ``n x n`` grid."""
    return max(1, SLICE_WORK // max(n, 1) ** 3)


@dataclass(frozen=True)
class Grades:
    """What grading a list of puzzles found.

    Attributes
    ----------
    search_free : numpy.ndarray
        ``(puzzles, schemes)`` bool: the scheme solved the puzzle search free.
    decided : numpy.ndarray
        ``(puzzles, schemes)`` bool: the scheme ran to its end (False past the time limit).
    nodes : numpy.ndarray or None
        Node counts (:data:`NODES_UNKNOWN` past the time limit); None when not counted.
    """

    search_free: np.ndarray
    decided: np.ndarray
    nodes: np.ndarray | None = None

    @property
    def unknown(self) -> np.ndarray:
        """Per puzzle: some scheme or its node count ran out of time."""
        out = np.asarray(~self.decided.all(axis=1))
        return out if self.nodes is None else np.asarray(out | (self.nodes == NODES_UNKNOWN))


def status_rows(doms: np.ndarray, flags: np.ndarray, tables: GridTables,
                seconds: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Run every scheme of ``flags`` on every row of ``doms``, a slice at a time.

    Returns
    -------
    out : numpy.ndarray
        ``(rows, schemes)`` int8: -1 (failed), 0 (open), 1 (solved), or :data:`UNDECIDED`
        where the puzzle ran out of ``seconds``.
    spent : numpy.ndarray
        Seconds each puzzle took.
    """
    count = len(flags)
    out = np.full((len(doms), count), UNDECIDED, dtype=np.int8)
    spent = np.zeros(len(doms))
    if out.size == 0:
        return out, spent
    cur = np.empty(doms.shape[1], dtype=np.int64)
    state = np.zeros(STATUS_STATE, dtype=np.int64)
    step = slice_size(tables.n)
    started = time.monotonic()
    while True:
        result = status_slice(doms, flags, *tables.kernel_args(), tables.n, tables.full,
                              out, cur, state, state[-1] + step, seconds is not None)
        if result == ALL_DONE and seconds is None:
            return out, spent
        now = time.monotonic()
        puzzle = int(state[0] - 1) // count if result != SUSPENDED else int(state[0]) // count
        spent[puzzle] = now - started
        if result == SUSPENDED and seconds is not None and now - started > seconds:
            state[0] = (puzzle + 1) * count    # give the puzzle up: on to the next one
            state[1:-1] = 0
            result = PUZZLE_DONE
        if result != SUSPENDED:
            started = now
            if state[0] >= len(doms) * count:
                return out, spent


def label_run(dom: np.ndarray, flags: int, tables: GridTables, limit: int,
              seconds: float | None = None) -> tuple[int, int]:
    """The fixed labelling of :func:`~sudokit.grading.search.label_count`, a slice of nodes
    at a time: ``(nodes, status)``, status 1 solved, 0 no solution, -1 node limit reached,
    :data:`~sudokit.grading.shaving.SUSPENDED` out of ``seconds``."""
    size = dom.shape[0]
    stack = np.empty((size + 1, size), dtype=np.int64)
    branch = np.empty(size + 1, dtype=np.int64)
    tried = np.empty(size + 1, dtype=np.int64)
    state = np.zeros(LABEL_STATE, dtype=np.int64)
    step = slice_size(tables.n)
    started = time.monotonic()
    while True:
        status = label_slice(dom, flags, *tables.kernel_args(), tables.n, tables.full,
                             int(limit), stack, branch, tried, state, state[2] + step)
        if status != SUSPENDED:
            return int(state[2]), int(status)
        if seconds is not None and time.monotonic() - started > seconds:
            return int(state[2]), SUSPENDED


def grade_rows(doms: np.ndarray, flags: np.ndarray, tables: GridTables,
               nodes: Callable[[np.ndarray, float | None], int] | None = None,
               seconds: float | None = None) -> Grades:
    """:class:`Grades` of the puzzles whose initial domains are the rows of ``doms``;
    ``nodes(dom, seconds_left)`` counts one puzzle's nodes (:data:`NODES_UNKNOWN` out of
    time). The time limit covers a puzzle's schemes and its node count together."""
    out, spent = status_rows(doms, flags, tables, seconds)
    decided = out != UNDECIDED
    counts = None
    if nodes is not None:
        counts = np.full(len(doms), NODES_UNKNOWN, dtype=np.int64)
        for p in np.flatnonzero(decided.all(axis=1)):
            left = None if seconds is None else max(seconds - spent[p], 0.0)
            counts[p] = nodes(doms[p].copy(), left)
    return Grades(out == 1, decided, counts)


def stacked(grades: Sequence[Grades], schemes: int) -> Grades:
    """One :class:`Grades` of consecutive parts."""
    if not grades:
        empty = np.zeros((0, schemes), dtype=bool)
        return Grades(empty, empty.copy())
    counts = [g.nodes for g in grades if g.nodes is not None]
    return Grades(np.concatenate([g.search_free for g in grades]),
                  np.concatenate([g.decided for g in grades]),
                  np.concatenate(counts) if counts else None)
