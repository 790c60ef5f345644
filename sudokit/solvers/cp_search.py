"""The search frame the CP family shares: a method's steps in, its three kernels out.

Every method of :mod:`sudokit.solvers.cp_engine` runs the same depth-first search: levels of
one cell each, the cell's values tried in turn, resumable between calls through ``state =
[depth, phase, solutions, nodes, open]``. What differs is how a method keeps a level and
chooses, tries and places a value. A method module writes only that, as numba functions of
``head`` (the tuple ``(*work, *model, num_values, flags)`` of the engine's calling
convention) and a level ``d``, and :func:`search_kernels` makes its ``start``, ``run`` and
``batch`` kernels of them:

``setup(head, givens, state)``
    level 0 from one row of givens (0 = empty); False when the givens clash already. A
    method that keeps its open cells in a list keeps their number in ``state[4]`` (the
    ``size`` below).
``solved(head, d, size)``
    whether level ``d`` is a solution.
``record(head, d, first)``
    level ``d``'s values (a solution) into ``first``.
``choose(head, d, size)``
    pick the cell level ``d`` branches on.
``pick(head, d)``
    undo the value of level ``d`` tried last and return the next one, nonzero (0: none
    left). It may not change the level otherwise: a call stopped after ``pick`` calls it
    again when it resumes.
``crowded(head, d, x)``
    whether placing ``x`` needs a level that is not allocated (``run`` returns -2, the engine
    grows the levels and calls again); by default never.
``place(head, d, x)``
    place value ``x`` of level ``d``'s cell: the child's level (``d + 1``, or ``d`` for a
    method that reuses the level for its last value), or -1 when the child fails at once.

The steps are inlined into the frame (``inline="always"``), so a method's kernels compile to
what a hand-written loop would; the frame's two loops, level 0 and the search, are kernels of
``head`` as one tuple that ``start``, ``run`` and ``batch`` call.

Examples
--------
>>> import numpy as np
>>> from sudokit.solvers import backtrack
>>> from sudokit.solvers.unit_model import unit_model
>>> from sudokit.instances import latin_square
>>> model = unit_model(latin_square(np.zeros((3, 3), dtype=int)))
>>> state = np.zeros(6, dtype=np.int64)
>>> first = np.zeros(9, dtype=np.int32)
>>> head = (*backtrack.work(model, 11), *backtrack.model_args(model), 3, 0)
>>> backtrack.start(*head, np.zeros(9, dtype=np.int32), state)
>>> int(backtrack.run(*head, state, 100, 10**6, first)), int(state[2]), first.tolist()
(0, 12, [1, 2, 3, 2, 3, 1, 3, 1, 2])
"""

from __future__ import annotations

from .._accel.numba_cache import njit

__all__ = ["DONE", "EXPAND", "NEXT", "never", "search_kernels"]

#: the phases of ``state[1]``: branch on the level, try the level's next value, finished
EXPAND = 1
NEXT = 2
DONE = 0


@njit(inline="always")
def never(head, d, x):
    """The ``crowded`` of a method whose levels are all allocated at the start."""
    return False


def search_kernels(module, setup, solved, record, choose, pick, place, crowded=never,
                   **options):
    """``start``, ``run`` and ``batch`` of a method made of its steps (see the module).

    Parameters
    ----------
    module : str
        The method's module (its kernels are named and cached as its own).
    setup, solved, record, choose, pick, place, crowded
        The method's steps, ``njit(inline="always")`` functions.
    **options
        Passed on to ``njit`` for the three kernels, which run without numba's reference
        counting (``_nrt=False``) unless told otherwise: they allocate nothing (so a step
        copies arrays in loops, not by slice assignment), and the counting costs fcmrv and
        bitset half their speed once their steps are inlined.

    Returns
    -------
    tuple
        ``(start, run, batch)`` with the calling convention of
        :mod:`sudokit.solvers.cp_engine`.
    """

    def first_level(head, givens, state):
        """Level 0 of one puzzle."""
        ok = setup(head, givens, state)
        state[0] = 0
        state[1] = EXPAND if ok else DONE
        state[2] = 0
        state[3] = 1

    def search(head, state, limit, stop, first):
        """The search from ``state``: 1 at ``limit`` solutions, 0 at the end, -1 at ``stop``
        nodes, -2 out of levels."""
        d = state[0]
        phase = state[1]
        found = state[2]
        nodes = state[3]
        size = state[4]
        result = 0
        while True:
            if phase == EXPAND:
                if solved(head, d, size):
                    found += 1
                    if found == 1:
                        record(head, d, first)
                    if found >= limit:
                        phase = DONE
                        result = 1
                        break
                    if d == 0:           # a solution's level has no value left to try
                        phase = DONE
                        break
                    d -= 1
                    phase = NEXT
                    continue
                choose(head, d, size)
                phase = NEXT
            elif phase == NEXT:
                x = pick(head, d)
                if x == 0:
                    if d == 0:
                        phase = DONE
                        break
                    d -= 1
                    continue
                if crowded(head, d, x):
                    result = -2
                    break
                if nodes >= stop:
                    result = -1
                    break
                nodes += 1
                child = place(head, d, x)
                if child >= 0:
                    d = child
                    phase = EXPAND
            else:
                break
        state[0] = d
        state[1] = phase
        state[2] = found
        state[3] = nodes
        return result

    # first_level and search take ``head`` as one tuple, not ``*args``: the same code in a
    # kernel of ``*args`` ran 2 % slower (takano, 1,000 of the forum's hardest puzzles)
    def start(*args):
        """:func:`first_level` as ``start(*head, givens, state)``."""
        first_level_(args[:-2], args[-2], args[-1])

    def run(*args):
        """:func:`search` as ``run(*head, state, limit, stop, first)``."""
        return search_(args[:-4], args[-4], args[-3], args[-2], args[-1])

    def batch(*args):
        """Rows ``begin, ...`` of ``givens``, ``cap_each`` nodes each, until ``cap_call``
        nodes are spent: ``batch(*head, givens, begin, limit, cap_each, cap_call, counts,
        firsts, unknown, nodes, state)``; returns the next row."""
        head = args[:-10]
        givens, begin, limit, cap_each, cap_call, counts, firsts, unknown, nodes, state = \
            args[-10:]
        spent = 0
        p = begin
        while p < givens.shape[0]:
            first_level_(head, givens[p], state)
            result = search_(head, state, limit, cap_each, firsts[p])
            counts[p] = state[2]
            nodes[p] = state[3]
            unknown[p] = -result if result < 0 else 0
            spent += state[3]
            p += 1
            if spent >= cap_call:
                break
        return p

    options.setdefault("_nrt", False)
    kernels = []
    for function in (first_level, search, start, run, batch):
        function.__module__ = module          # named, announced and cached as the method's
        function.__qualname__ = function.__name__
        kernels.append(njit(function, **options))
    first_level_, search_, start_, run_, batch_ = kernels
    return start_, run_, batch_
