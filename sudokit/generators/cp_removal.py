"""Clue removal on the ``takano`` CP kernels: the whole pass of a puzzle in one kernel call.

The removal pass of :mod:`sudokit.generators.puzzles` with the ``takano`` checker (Takano et
al.'s propagation on bit vectors, :mod:`sudokit.solvers.takano`): the removal order, every
uniqueness test, the minimality that follows from one pass, and the final check all run
inside :func:`cp_removal_slice`, with no Python per test (a 9x9 puzzle is one call). Like the
DLX pass (:mod:`sudokit.generators.removal`) the kernel is resumable: a call stops after
about a bounded amount of work with its position in ``pos`` (an open search stays in the
takano kernels' ``state`` and levels) and the next call goes on exactly there, so the caller
reads the clock and lets Ctrl-C through between calls; :class:`CPRemovalPass` aims each call
at :data:`~.removal.SLICE_SECONDS`, its work counted in the units of the DLX pass (so one
adapted value serves a generator's passes of both kinds). Slicing changes nothing: the node
bounds are absolute.

**Each test looks for a second solution only.** The puzzle before a test has exactly one
solution, ``S`` (the full grid at the start; every removal kept after that was proved).
Taking the clues of an orbit ``O = (o_1, ..., o_k)`` out, any solution other than ``S`` must
differ from ``S`` in some ``o_i`` (one that agrees on all of ``O`` solves the puzzle before
the test, whose only solution is ``S``). So the test is ``k`` searches for *one* solution:
search ``i`` has the kept clues and ``o_1..o_{i-1}`` as in ``S``, and branches first on
``o_i`` over its candidates other than ``S``'s value (:func:`_open_search`). The puzzle stays
unique exactly when no search finds a solution: the same decision as counting the solutions
up to 2, so the puzzles are those of any other exact checker (DLX, SAT), for about half the
work of a count (which must find ``S`` and then exhaust the rest). When the remaining clues
alone force ``o_i`` to its value (a naked or hidden single, :func:`_forced`), the search is
not even set up: nearly half the tests of a 9x9 minimal puzzle end there.

The final check counts the finished puzzle up to 2 with plain
:func:`~sudokit.solvers.takano.start` and :func:`~sudokit.solvers.takano.run`: an independent
confirmation that it has exactly one solution.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.solvers.unit_model import unit_model
>>> solution = np.array([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]])
>>> model = unit_model(sudoku(np.zeros((4, 4), int)))
>>> starts, cells = np.arange(17, dtype=np.int64), np.arange(16, dtype=np.int64)
>>> run = CPRemovalPass(CPScratch(model), solution, starts, cells, target=0, test_nodes=-1)
>>> while not run.step():
...     pass
>>> run.final, run.tests, int(run.keep.sum()) < 16
(1, 16, True)
"""

from __future__ import annotations

import numpy as np

from .._accel.numba_cache import njit
from ..errors import ResourceError
from ..resources import available_memory, format_bytes
from ..solvers import takano as _t
from ..solvers.cp_search import DONE, NEXT
from .removal import (
    CHECKING,
    FINAL,
    FINISHED,
    KEPT,
    OPEN,
    ORBIT,
    PHASE,
    REMOVING,
    SLICE_WORK,
    TESTS,
    UNDECIDED,
    BaseRemovalPass,
)

__all__ = ["CPRemovalPass", "CPScratch", "cp_removal_slice", "NODE_COST", "START_COST",
           "SMALL_FLAGS", "FLAGS", "SINGLES_MAX_CELLS"]

#: work units (those of :mod:`~sudokit.generators.removal`) of one search node, per cell of
#: the grid: a takano node copies a level and propagates, about a pass over the cells, and
#: measured at 9x9 and 16x16 one node per cell costs about what 8 DLX units do, so that a
#: slice of :data:`~.removal.SLICE_WORK` units takes a few tens of milliseconds either way
NODE_COST = 8
#: search nodes' worth of setting up one search (level 0 from the givens, propagated)
START_COST = 2
#: the takano options of the tests up to :data:`SINGLES_MAX_CELLS` cells: naked and hidden
#: singles only. Measured on 9x9 minimal puzzles: 0.29 ms a puzzle against 0.42 ms with every
#: rule (most searches end in the propagation of their first level, where the extra rules
#: only cost time); 12x12 about even
SMALL_FLAGS = 0
#: the options on larger grids: every rule and the bucket heap (16x16 minimal puzzles: 81 ms
#: against 255 ms with singles only). The options change the work, never the decisions
FLAGS = _t.ALL
SINGLES_MAX_CELLS = 144

# the fields of the takano pass in ``pos`` (after those every pass keeps, see
# BaseRemovalPass): the search of the open test, the nodes of the test, the nodes of the pass
_SUB, _TNODES, _NODES = 7, 8, 9
# results of a call
SLICE_BOUND, PASS_DONE, NEED_LEVELS = 0, 1, 2


@njit
def _forced(givens, cell, bit, num_values, peer_starts, peers, hidden_units, cell_hidden,
            umask):
    """Whether the givens alone force ``cell`` to the value ``bit`` by a naked single (its
    peers hold every other value) or a hidden single (in one of its complete units, every
    other empty cell sees that value in one of its own complete units).

    Then no solution gives ``cell`` another value, and :func:`~sudokit.solvers.takano.start`
    would fix ``cell`` by the same single in the propagation of its first level (singles are
    always on), leaving :func:`_open_search` nothing to try: one node, no solution. The kernel
    skips that set-up and counts the same node, so the node counts (and the decisions under
    a node budget) are those of the full search. Nearly half the tests of a 9x9 minimal puzzle
    end here. ``umask`` is scratch, one mask per complete unit."""
    full = np.int64(-1) if num_values == 64 else (np.int64(1) << num_values) - 1
    seen = np.int64(0)
    for t in range(peer_starts[cell], peer_starts[cell + 1]):
        g = givens[peers[t]]
        if g > 0:
            seen |= np.int64(1) << (g - 1)
    if (full & ~seen) == bit:
        return True
    width = hidden_units.shape[1]
    if hidden_units.shape[0] == 0:
        return False
    for u in range(hidden_units.shape[0]):
        m = np.int64(0)
        for k in range(width):
            g = givens[hidden_units[u, k]]
            if g > 0:
                m |= np.int64(1) << (g - 1)
        umask[u] = m
    for j in range(cell_hidden.shape[1]):
        unit = cell_hidden[cell, j]
        if unit < 0:
            break
        alone = True
        for k in range(width):
            other = hidden_units[unit, k]
            if other == cell or givens[other] > 0:
                continue
            sees = False
            for j2 in range(cell_hidden.shape[1]):
                u2 = cell_hidden[other, j2]
                if u2 < 0:
                    break
                if umask[u2] & bit:
                    sees = True
                    break
            if not sees:
                alone = False
                break
        if alone:
            return True
    return False


@njit
def _close_orbit(pos, keep, orbit_starts, orbit_cells, unique, undecided):
    """The end of a removal test: drop the orbit (unique, proved) or put its clues back."""
    o = pos[ORBIT]
    if unique:
        pos[KEPT] -= orbit_starts[o + 1] - orbit_starts[o]
    else:
        pos[UNDECIDED] += undecided
        for t in range(orbit_starts[o], orbit_starts[o + 1]):
            keep[orbit_cells[t]] = True
    pos[ORBIT] = o + 1
    pos[_SUB] = 0
    pos[OPEN] = 0


@njit
def _open_search(work, margs, num_values, flags, givens, cell, bit, state):
    """Set up the search for a solution of ``givens`` whose ``cell`` does not hold the value
    ``bit``: level 0 from the givens (:func:`~sudokit.solvers.takano.start`), then its
    branching cell set to ``cell`` with every candidate but that value left to try, so that
    :func:`~sudokit.solvers.takano.run` goes on from there (``state``: depth 0, phase NEXT; or
    DONE when the propagation already fixed ``cell`` to that value, or failed)."""
    args = work + margs + (num_values, flags, givens, state)
    _t.start(*args)
    if state[1] == DONE:
        return
    rest = work[0][0, cell] & ~bit           # cst[0, cell]
    state[0] = 0
    if rest == 0:
        state[1] = DONE
        return
    work[3][0] = cell                         # bcell[0]
    work[4][0] = rest                         # brest[0]
    state[1] = NEXT


@njit
def cp_removal_slice(work, margs, num_values, flags, peer_starts, peers, hidden_units,
                     cell_hidden, solution, orbit_starts, orbit_cells, keep, target,
                     test_nodes, givens, first, umask, state, pos, stop_nodes, max_nodes):
    """Go on with the removal pass at ``pos`` for about ``max_nodes`` search nodes (the
    set-up of a search counting :data:`START_COST`).

    ``work`` and ``margs`` are the takano kernels' scratch and model arrays (as
    :func:`~sudokit.solvers.takano.work` and :func:`~sudokit.solvers.takano.model_args` make
    them), passed through to its ``start`` and ``run``; ``peer_starts``, ``peers``,
    ``hidden_units`` and ``cell_hidden`` are the unit model's own tables (for
    :func:`_forced`). Returns :data:`PASS_DONE` (1) when the pass and its check are done (the
    check's count in ``pos``), :data:`SLICE_BOUND` (0) when the nodes are spent or the pass
    has spent ``stop_nodes`` search nodes (-1: no bound), :data:`NEED_LEVELS` (2) when the
    search needs more levels than ``work`` has (grow them with
    :func:`~sudokit.solvers.takano.grow` and call again). ``test_nodes`` is the node budget of
    each removal test (-1: none); a test that runs out keeps its orbit and counts as
    undecided. ``solution`` is the full grid (flat), ``givens`` and ``first`` scratch rows of
    its size, ``umask`` one per complete unit.
    """
    cells = len(keep)
    norbits = len(orbit_starts) - 1
    used = 0
    while pos[PHASE] != FINISHED:
        spent = pos[_NODES] + (state[3] if pos[OPEN] else 0)
        if used >= max_nodes or (stop_nodes >= 0 and spent >= stop_nodes):
            return SLICE_BOUND
        removing = pos[PHASE] == REMOVING
        if pos[OPEN] == 0:                   # set up the next search
            if removing:
                o = pos[ORBIT]
                if o >= norbits or pos[KEPT] <= target:
                    pos[PHASE] = CHECKING
                    continue
                begin = orbit_starts[o]
                size = orbit_starts[o + 1] - begin
                if pos[KEPT] - size < target:
                    pos[ORBIT] = o + 1
                    continue
                if pos[_SUB] == 0:            # a new test: the orbit's clues go
                    for t in range(begin, begin + size):
                        keep[orbit_cells[t]] = False
                    pos[TESTS] += 1
                    pos[_TNODES] = 0
                sub = pos[_SUB]
                for c in range(cells):
                    givens[c] = solution[c] if keep[c] else 0
                for t in range(begin, begin + sub):
                    givens[orbit_cells[t]] = solution[orbit_cells[t]]
                cell = orbit_cells[begin + sub]
                bit = np.int64(1) << (solution[cell] - 1)
                if _forced(givens, cell, bit, num_values, peer_starts, peers, hidden_units,
                           cell_hidden, umask):
                    state[1] = DONE        # as the propagation of level 0 would end
                    state[2] = 0
                    state[3] = 1
                else:
                    _open_search(work, margs, num_values, flags, givens, cell, bit, state)
            else:
                for c in range(cells):
                    givens[c] = solution[c] if keep[c] else 0
                args = work + margs + (num_values, flags, givens, state)
                _t.start(*args)
            used += START_COST
            pos[OPEN] = 1
            continue
        before = state[3]
        stop = before + max(1, max_nodes - used)    # the nearest bound, in this search's nodes
        if removing and test_nodes >= 0 and test_nodes - pos[_TNODES] < stop:
            stop = test_nodes - pos[_TNODES]
        if stop_nodes >= 0 and stop_nodes - pos[_NODES] < stop:
            stop = stop_nodes - pos[_NODES]
        args = work + margs + (num_values, flags, state, 1 if removing else 2, stop, first)
        result = _t.run(*args)
        used += state[3] - before
        if result == -2:
            return NEED_LEVELS
        if result == -1:
            if removing and test_nodes >= 0 and pos[_TNODES] + state[3] >= test_nodes:
                pos[_NODES] += state[3]       # the test's budget ran out: undecided
                _close_orbit(pos, keep, orbit_starts, orbit_cells, False, 1)
            continue                          # else a bound of this call: the loop returns
        pos[_NODES] += state[3]
        if not removing:
            pos[FINAL] = min(state[2], 2)
            pos[OPEN] = 0
            pos[PHASE] = FINISHED
            break
        pos[_TNODES] += state[3]
        if result == 1:                       # a second solution: the orbit stays
            _close_orbit(pos, keep, orbit_starts, orbit_cells, False, 0)
            continue
        pos[OPEN] = 0
        pos[_SUB] += 1
        o = pos[ORBIT]
        if pos[_SUB] == orbit_starts[o + 1] - orbit_starts[o]:
            _close_orbit(pos, keep, orbit_starts, orbit_cells, True, 0)
    return PASS_DONE


@njit
def cp_close_test(keep, orbit_starts, orbit_cells, pos):
    """Abandon an open test: a removal test keeps its orbit."""
    if pos[OPEN] == 0 and pos[_SUB] == 0:
        return
    if pos[PHASE] == REMOVING:
        o = pos[ORBIT]
        for t in range(orbit_starts[o], orbit_starts[o + 1]):
            keep[orbit_cells[t]] = True
        pos[_SUB] = 0
    pos[OPEN] = 0


class CPScratch:
    """What every removal pass of one shape shares: the unit model's tables, the takano
    kernels' levels and scratch rows. The levels grow on demand (twice as many at a time, the
    memory they would take checked first); small grids get every level they could need at
    once (83 levels, 68 KB at 9x9)."""

    def __init__(self, model):
        self.model = model
        self.margs = tuple(_t.model_args(model))
        #: the tables of :func:`_forced`, from the unit model itself
        self.tables = (model.peer_starts, model.peers, model.hidden_units, model.cell_hidden)
        deepest = model.num_cells + 2
        self.depth = deepest if int(_t.level_bytes(model)) * deepest <= 1 << 22 else 64
        self.work = tuple(_t.work(model, self.depth))
        self.flags = SMALL_FLAGS if model.num_cells <= SINGLES_MAX_CELLS else FLAGS
        self.givens = np.zeros(model.num_cells, np.int32)
        self.first = np.zeros(model.num_cells, np.int32)
        self.umask = np.zeros(max(len(model.hidden_units), 1), np.int64)

    def grow(self) -> None:
        """Twice the levels (up to the deepest search possible)."""
        depth = min(2 * self.depth, self.model.num_cells + 2)
        need = depth * int(_t.level_bytes(self.model))
        allowed = available_memory()
        if need > allowed:
            raise ResourceError(f"takano may need {format_bytes(need)} for its search stack "
                                f"({depth} levels) but {format_bytes(allowed)} is allowed")
        self.work = tuple(_t.grow(self.work, depth))
        self.depth = depth


class CPRemovalPass(BaseRemovalPass):
    """One removal pass over a full grid on the takano kernels (a
    :class:`~sudokit.generators.removal.BaseRemovalPass`, as the DLX pass is).

    Parameters
    ----------
    scratch : CPScratch
        Made once for the grid's shape and shared by the passes (one pass at a time).
    solution : ndarray
        The full grid, ``(n, n)``.
    starts, cells, target, work
        As for :class:`~sudokit.generators.removal.BaseRemovalPass`.
    keep : ndarray of bool, optional
        The clues present at the start (default: every cell), to reduce a puzzle of this
        grid rather than the whole grid.
    test_nodes : int
        Node budget of each removal test (takano nodes: the searches of the test together),
        -1 for none (the test then runs to the end).

    Call :meth:`step` until it returns True; :attr:`final` is then the count of the finished
    puzzle (up to 2).
    """

    def __init__(self, scratch: CPScratch, solution, starts, cells, target: int,
                 test_nodes: int, work: int = SLICE_WORK, keep=None):
        self.scratch = scratch
        flat = np.ascontiguousarray(solution, dtype=np.int32).reshape(-1)
        self.solution = flat
        super().__init__(np.ones(flat.size, np.bool_) if keep is None else
                         np.ascontiguousarray(keep, dtype=np.bool_).reshape(-1).copy(),
                         starts, cells, target, test_nodes, work)
        self.state = np.zeros(6, np.int64)

    @property
    def nodes(self) -> int:
        """Search nodes spent by this pass so far."""
        return int(self.pos[_NODES]) + (int(self.state[3]) if self.pos[OPEN] else 0)

    @property
    def open(self) -> bool:
        """A test is under way (its orbit out of :attr:`keep`)."""
        return bool(self.pos[OPEN] or self.pos[_SUB])

    def _slice(self, max_nodes: int | None) -> bool:
        """One kernel call of about :attr:`work` units (in search nodes of
        :data:`NODE_COST` units a cell), the levels grown as the search needs them."""
        stop = -1 if max_nodes is None else int(max_nodes)
        scratch = self.scratch
        nodes = max(1, self.work // (NODE_COST * self.size))
        while True:
            result = cp_removal_slice(scratch.work, scratch.margs, scratch.model.num_values,
                                      scratch.flags, *scratch.tables, self.solution,
                                      self.starts, self.cells, self.keep, self.target,
                                      self.test_nodes, scratch.givens, scratch.first,
                                      scratch.umask, self.state, self.pos, stop, nodes)
            if result != NEED_LEVELS:
                return result == PASS_DONE
            scratch.grow()

    def close(self) -> None:
        """Abandon the open test, if any (its orbit stays)."""
        cp_close_test(self.keep, self.starts, self.cells, self.pos)
