"""How the CP and DLX engines count a batch within a budget: kernel calls of bounded work
first, then the rare rows that need more, each alone, in slices with the clock read between.

A batch kernel gives every row at most one slice of search nodes (:func:`batch_cap`), so no
kernel call runs long and Ctrl-C lands between calls; nearly every row is decided there.
The few that are not start again alone (:func:`count_batch`) in a resumable search that
:func:`in_slices` calls one slice of nodes at a time, reading the clock of a time budget
between slices: the budget holds, however long a search finds nothing.

Examples
--------
>>> import numpy as np
>>> from sudokit.solvers.budget import Budget
>>> def batch(cap):         # row 1 needs more than one slice
...     return np.array([1, 0]), np.array([0, OUT_OF_NODES], dtype=np.int8)
>>> counts, unknown = count_batch(batch, lambda p: (2, False), 100, Budget())
>>> counts.tolist(), unknown.tolist()
([1, 2], [False, False])
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from ..progress import tell_found
from .budget import Budget, Meter

__all__ = ["DECIDED", "OUT_OF_NODES", "RETRY", "batch_cap", "count_batch", "decided_parts",
           "in_slices"]

#: what a batch call tells of a row: decided; out of nodes (undecided); to run alone whatever
#: the budget (the CP methods that ran out of levels)
DECIDED, OUT_OF_NODES, RETRY = 0, 1, 2


def batch_cap(slice_nodes: int, budget: Budget) -> int:
    """The nodes each row gets in the batch call: one slice, or the budget's ``nodes`` when
    fewer."""
    return slice_nodes if budget.nodes is None else min(slice_nodes, int(budget.nodes))


def count_batch(batch: Callable[[int], tuple[np.ndarray, np.ndarray]],
                alone: Callable[[int], tuple[int, bool]], slice_nodes: int,
                budget: Budget) -> tuple[np.ndarray, np.ndarray]:
    """Counts of a batch: ``batch(cap)`` first, then row by row ``alone`` what it left.

    Parameters
    ----------
    batch : callable
        ``batch(cap)`` counts every row with at most ``cap`` nodes each (kernel calls):
        ``(counts, lost)``, ``lost`` a code per row (:data:`DECIDED`, :data:`OUT_OF_NODES`,
        :data:`RETRY`), both arrays this function updates.
    alone : callable
        ``alone(p)`` counts row ``p`` again from the start, within the budget, in slices with
        the clock read between (:func:`in_slices`): ``(count, budget ran out)``; it keeps
        whatever else it finds (a first solution, nodes) itself.
    slice_nodes : int
        Nodes per row in the batch call (fewer with a smaller ``nodes`` budget).
    budget : Budget
        The budget of each row.

    Returns
    -------
    counts, unknown : ndarray
        The counts (a lower bound where unknown) and whether the budget ran out (bool).
    """
    cap = batch_cap(slice_nodes, budget)
    counts, lost = batch(cap)
    held = budget.nodes is not None and budget.nodes <= cap   # the kernel held it all
    for p in np.flatnonzero((lost == RETRY) | ((lost == OUT_OF_NODES) & (not held))):
        count, out = alone(int(p))
        counts[p] = max(count, int(counts[p])) if out else count
        lost[p] = out
    return counts, lost != DECIDED


def decided_parts(step: Callable[[int, int], int], alone: Callable[[int], tuple[int, bool]],
                  counts: np.ndarray, lost: np.ndarray, slice_nodes: int,
                  budget: Budget) -> Iterator[int]:
    """:func:`count_batch` in order, row by row: the end of each run of rows decided for good,
    as soon as it is (the rows before a row that needs more than its slice, before that row
    runs alone; that row, once it has).

    ``step(cap, begin)`` is one call of the batch kernel from row ``begin`` (each row at most
    ``cap`` nodes, a bounded amount of work in all): it fills ``counts`` and ``lost`` for the
    rows it did and returns the next row. ``alone`` is :func:`count_batch`'s. Each row is
    counted as :func:`count_batch` counts it (the same nodes, the same answers); only the
    order of the work changes, so no row waits for a hard row after it.

    Examples
    --------
    >>> counts, lost = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int8)
    >>> def step(cap, begin):        # one row a call; row 1 needs more than its slice
    ...     counts[begin], lost[begin] = 1, OUT_OF_NODES if begin == 1 else DECIDED
    ...     return begin + 1
    >>> list(decided_parts(step, lambda p: (2, False), counts, lost, 100, Budget()))
    [1, 2, 3]
    >>> counts.tolist(), lost.tolist()
    ([1, 2, 1], [0, 0, 0])
    """
    cap = batch_cap(slice_nodes, budget)
    held = budget.nodes is not None and budget.nodes <= cap   # the kernel held it all
    size, begin, done = len(counts), 0, 0
    while begin < size:
        end = step(cap, begin)
        for p in range(begin, end):
            if lost[p] == RETRY or (lost[p] == OUT_OF_NODES and not held):
                if p > done:
                    yield p
                count, out = alone(p)
                counts[p] = max(count, int(counts[p])) if out else count
                lost[p] = out
                done = p + 1
                yield done
        begin = end
    if done < size:
        yield size


def in_slices(step: Callable[[int], int], nodes: Callable[[], int], slice_nodes: int,
              budget: Budget, meter: Meter, found: Callable[[], int] | None = None) -> bool:
    """Run a resumable search to its end or the end of the budget; whether the budget ran
    out.

    ``step(stop)`` searches on until its node count (``nodes()``) reaches ``stop``: it
    returns a number >= 0 when the search is over, -1 when it stopped at ``stop``, any other
    negative number to be called again at once (after growing its scratch, say). ``found()``,
    when given, is the number of solutions found so far, told to the progress line between
    slices (:func:`~sudokit.progress.tell_found`).
    """
    while True:
        stop = nodes() + slice_nodes
        if budget.nodes is not None:
            stop = min(stop, int(budget.nodes))
        result = step(stop)
        if result >= 0:
            return False
        if found is not None:
            tell_found(found())
        if result == -1 and (meter.late() or (budget.nodes is not None
                                              and nodes() >= budget.nodes)):
            return True
