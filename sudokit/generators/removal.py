"""Clue removal on a shared dancing-links structure, in bounded slices of work.

A removal pass (see :mod:`sudokit.generators.puzzles`) tests one symmetry orbit after another:
take its clues out, count the covers of the puzzle that is left up to 2, keep the removal when
there is exactly one. Python sees a ``KeyboardInterrupt`` only when a numba call returns, so the
pass runs as a resumable kernel (:func:`removal_slice`): each call works through tests until
a bound on its work is reached (link updates, and the scan of the primary items at each search
node; the bound adapts so that a call takes about :data:`SLICE_SECONDS`), then returns with
its position in ``pos``. A test that needs more work than one slice stays *open* (its clues
covered, its search stopped at X2 of Knuth's Algorithm X, see
:mod:`sudokit.solvers.dlx_kernel`) and goes on in the next call; the smallest step is one
test's preselection (covering the remaining clues: ``O(n^3)`` link updates, about 50 ms at
64x64). Between calls the caller reads the clock, reports progress and lets Ctrl-C through.
Slicing does not change what is searched: every node bound is an absolute count of nodes, so
a pass cut into many slices makes exactly the same decisions as one long call.

After the last orbit the kernel counts the finished puzzle once more (the *check*). The same
kernel, started at the check with a mask of givens, counts any puzzle of the shape in slices
(:class:`RemovalPass` with ``check_only=True``).

:class:`BaseRemovalPass` is what this pass and the takano pass
(:mod:`sudokit.generators.cp_removal`) share: the orbits and kept clues, the fields of the
position array both kernels keep, the progress read from it, and the slicing.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from sudokit.solvers.registry import open_engine
>>> solution = np.array([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]])
>>> engine = open_engine("dlx", shape=sudoku(np.zeros((4, 4), int)))
>>> starts, cells = np.arange(17, dtype=np.int64), np.arange(16, dtype=np.int64)
>>> run = RemovalPass(engine, solution, starts, cells, target=0, test_nodes=-1)
>>> while not run.step():
...     pass
>>> run.final, run.tests, int(run.keep.sum()) < 16
(1, 16, True)
"""

from __future__ import annotations

import time

import numpy as np

from .._accel.numba_cache import njit
from ..solvers import dlx_kernel as _k

__all__ = ["BaseRemovalPass", "RemovalPass", "SLICE_WORK", "SLICE_SECONDS", "rescaled_work"]

#: work units of a first kernel call (later ones adapt, and a generator carries the adapted
#: value from pass to pass): a unit is one primary item scanned when a search node chooses its
#: item, and a link update counts :data:`UPDATE_COST` units (it misses the cache: 10 ns at
#: 25x25, 50 ns at 64x64, where a scanned item costs 0.4 ns)
SLICE_WORK = 20_000_000
UPDATE_COST = 16
#: wall-clock seconds a slice aims at; :meth:`RemovalPass.step` adapts its work to the
#: measured speed (the cost of a unit grows with the grid), keeping slices well under 0.1 s
SLICE_SECONDS = 0.03
_MIN_WORK, _MAX_WORK = 100_000, 2_000_000_000


def rescaled_work(work: int, seconds: float) -> int:
    """The work of the next slice after one of ``work`` units took ``seconds``: rescaled
    towards :data:`SLICE_SECONDS`, by a factor of 1/2 to 2 at a time, within 100,000 and
    2,000,000,000 units (shared by every removal pass).

    Examples
    --------
    >>> rescaled_work(1_000_000, 0.015), rescaled_work(1_000_000, 0.3)
    (2000000, 500000)
    """
    factor = SLICE_SECONDS / max(seconds, 1e-6)
    return int(min(max(work * min(max(factor, 0.5), 2.0), _MIN_WORK), _MAX_WORK))


#: the fields of the position array ``pos`` that every removal pass keeps (see
#: :class:`BaseRemovalPass`); each pass's own fields follow, up to :data:`POS_SIZE`
ORBIT, KEPT, TESTS, UNDECIDED, OPEN, PHASE, FINAL = range(7)
POS_SIZE = 10
#: the phases of a pass, ``pos[PHASE]``: the removal tests, the final check, done
REMOVING, CHECKING, FINISHED = 0, 1, 2
# the fields of the DLX pass: the options preselected, the covers found, the test's node bound
_M, _FOUND, _LIMIT = 7, 8, 9


@njit
def _kept_options(keep, clue_option, pre):
    """Write the options of the kept clues into ``pre``; return how many."""
    m = 0
    for cell in range(len(keep)):
        if keep[cell]:
            pre[m] = clue_option[cell]
            m += 1
    return m


@njit
def _record(pos, keep, orbit_starts, orbit_cells, count, undecided):
    """The end of a test: keep the removal (exactly one cover, proved) or restore the orbit;
    the end of the check: its count is the result."""
    if pos[PHASE] == CHECKING:
        pos[FINAL] = count
        pos[PHASE] = FINISHED
        return
    o = pos[ORBIT]
    if count == 1 and undecided == 0:
        pos[KEPT] -= orbit_starts[o + 1] - orbit_starts[o]
    else:
        pos[UNDECIDED] += undecided
        for t in range(orbit_starts[o], orbit_starts[o + 1]):
            keep[orbit_cells[t]] = True
    pos[ORBIT] = o + 1


@njit
def removal_slice(llink, rlink, top, ulink, dlink, spacers, x, state, stats, mark,
                  clue_option, orbit_starts, orbit_cells, keep, target, test_nodes, pre, pos,
                  stop_nodes, work):
    """Go on with the removal pass at ``pos`` for about ``work`` units; 1 when it is done.

    Returns 0 when ``work`` is spent or ``stats[0]`` (nodes) reached ``stop_nodes`` (-1: no
    bound); a test may then be open (``pos[OPEN]``), to be resumed by the next call or
    abandoned by :func:`close_test`. ``test_nodes`` is the node budget of each removal test
    (-1: none); a test that runs out keeps its orbit and counts as undecided.
    """
    n1 = max(top[0], 1)
    cells = len(keep)
    nodes0 = stats[0]
    updates0 = stats[1]
    spent = 0                                 # building the preselected sets
    norbits = len(orbit_starts) - 1
    while pos[PHASE] != FINISHED:
        used = (stats[1] - updates0 + spent) * UPDATE_COST + (stats[0] - nodes0) * n1
        if used >= work or (stop_nodes >= 0 and stats[0] >= stop_nodes):
            return 0
        if pos[OPEN] == 0:                   # start the next test (or the check)
            if pos[PHASE] == REMOVING:
                o = pos[ORBIT]
                if o >= norbits or pos[KEPT] <= target:
                    pos[PHASE] = CHECKING
                    continue
                if pos[KEPT] - (orbit_starts[o + 1] - orbit_starts[o]) < target:
                    pos[ORBIT] = o + 1
                    continue
                for t in range(orbit_starts[o], orbit_starts[o + 1]):
                    keep[orbit_cells[t]] = False
                pos[_LIMIT] = -1 if test_nodes < 0 else stats[0] + test_nodes
                pos[TESTS] += 1
            else:
                pos[_LIMIT] = -1
            m = _kept_options(keep, clue_option, pre)
            spent += cells + m
            pos[_M] = m
            pos[_FOUND] = 0
            done = _k.cover_preselected(llink, rlink, top, ulink, dlink, spacers, pre[:m],
                                        mark)
            if done == 0:                     # clashing clues: no cover
                _record(pos, keep, orbit_starts, orbit_cells, 0, 0)
                continue
            stats[1] += done - 1
            state[0] = 0
            state[1] = _k.STEP_ENTER
            state[2] = 0
            pos[OPEN] = 1
            continue
        cap = stats[0] + max(1, (work - used) // n1)
        limit = pos[_LIMIT]
        if 0 <= limit < cap:
            cap = limit
        if 0 <= stop_nodes < cap:
            cap = stop_nodes
        result = _k.search(llink, rlink, top, ulink, dlink, x, state, stats, cap)
        if result == 1:
            pos[_FOUND] += 1
            if pos[_FOUND] < 2:
                continue
            count, undecided = 2, 0
        elif result == 0:
            count, undecided = pos[_FOUND], 0
        elif limit >= 0 and stats[0] >= limit:
            count, undecided = pos[_FOUND], 1
        else:
            continue                          # a bound of this slice: the loop returns
        _k.unwind(llink, rlink, top, ulink, dlink, x, state)
        _k.uncover_preselected(llink, rlink, top, ulink, dlink, spacers, pre[:pos[_M]])
        pos[OPEN] = 0
        _record(pos, keep, orbit_starts, orbit_cells, count, undecided)
    return 1


@njit
def close_test(llink, rlink, top, ulink, dlink, spacers, x, state, keep, orbit_starts,
               orbit_cells, pre, pos):
    """Abandon an open test: restore the links; a removal test keeps its orbit."""
    if pos[OPEN] == 0:
        return
    _k.unwind(llink, rlink, top, ulink, dlink, x, state)
    _k.uncover_preselected(llink, rlink, top, ulink, dlink, spacers, pre[:pos[_M]])
    pos[OPEN] = 0
    if pos[PHASE] == REMOVING:
        o = pos[ORBIT]
        for t in range(orbit_starts[o], orbit_starts[o + 1]):
            keep[orbit_cells[t]] = True


class BaseRemovalPass:
    """What every removal pass shares (:class:`RemovalPass` on DLX,
    :class:`~sudokit.generators.cp_removal.CPRemovalPass` on the takano kernels): the orbits,
    the clues kept, the position array ``pos`` (fields :data:`ORBIT` ... :data:`FINAL`, then
    the pass's own) that its resumable kernel works on, and the slices of :attr:`work` units
    rescaled towards :data:`SLICE_SECONDS`.

    A pass says how one slice runs (:meth:`_slice`), how many search nodes it has spent
    (:attr:`nodes`) and how an open test is abandoned (:meth:`close`). Call :meth:`step`
    until it returns True; :attr:`final` is then the count of the finished puzzle (up to 2).

    Parameters
    ----------
    keep : ndarray of bool
        The clues present at the start, one per cell (the pass's own: it changes them).
    starts, cells : ndarray of int64
        The orbits in removal order: orbit ``k`` is ``cells[starts[k]:starts[k + 1]]``.
    target : int
        Stop removing at this many clues (0: remove what uniqueness allows).
    test_nodes : int
        Node budget of each removal test, -1 for none (the test then runs to the end).
    work : int
        Work units of the first slice (:attr:`work` of an earlier pass).
    """

    #: whether an open test holds the engine's own structure (the DLX links): a pass
    #: interrupted between slices leaves that engine unusable
    holds_engine = False

    def __init__(self, keep: np.ndarray, starts, cells, target: int, test_nodes: int,
                 work: int):
        self.keep = keep
        self.size = keep.size
        self.starts = np.asarray(starts, dtype=np.int64)
        self.cells = np.asarray(cells, dtype=np.int64)
        self.target, self.test_nodes = int(target), int(test_nodes)
        self.pos = np.zeros(POS_SIZE, np.int64)
        self.pos[KEPT] = int(keep.sum())
        #: work units of the next slice (carry it over to the next pass of the same shape)
        self.work = int(work)

    @property
    def nodes(self) -> int:
        """Search nodes spent by this pass so far."""
        raise NotImplementedError

    @property
    def tests(self) -> int:
        return int(self.pos[TESTS])

    @property
    def undecided(self) -> int:
        return int(self.pos[UNDECIDED])

    @property
    def kept(self) -> int:
        return int(self.pos[KEPT])

    @property
    def removing(self) -> bool:
        """Still in the removal tests (not yet at the final check)."""
        return bool(self.pos[PHASE] == REMOVING)

    @property
    def removal_done(self) -> bool:
        """Every orbit tested, or the target reached (the final check may still be due)."""
        pos = self.pos
        return bool(pos[PHASE] != REMOVING or pos[ORBIT] >= len(self.starts) - 1
                    or pos[KEPT] <= self.target)

    @property
    def open(self) -> bool:
        """A test is under way (its orbit out of :attr:`keep`)."""
        return bool(self.pos[OPEN])

    @property
    def final(self) -> int | None:
        """The count of the finished puzzle (up to 2), None before the pass is done."""
        return int(self.pos[FINAL]) if self.pos[PHASE] == FINISHED else None

    def step(self, max_nodes: int | None = None) -> bool:
        """One slice of work (:attr:`work` units); True when the pass is done. With
        ``max_nodes`` the slice also stops when the pass has spent that many search nodes.

        A slice that stops on its work bound rescales :attr:`work` towards
        :data:`SLICE_SECONDS` (by a factor of 1/2 to 2 at a time).
        """
        started = time.perf_counter()
        done = self._slice(max_nodes)
        if not done and (max_nodes is None or self.nodes < int(max_nodes)):
            self.work = rescaled_work(self.work, time.perf_counter() - started)
        return done

    def _slice(self, max_nodes: int | None) -> bool:
        """One call of the pass's kernel, about :attr:`work` units (and stopping when the pass
        has spent ``max_nodes`` search nodes); True when the pass is done."""
        raise NotImplementedError

    def close(self) -> None:
        """Abandon the open test, if any (its orbit stays)."""
        raise NotImplementedError


class RemovalPass(BaseRemovalPass):
    """One removal pass over a full grid on a DLX engine opened for the grid's shape.

    Parameters
    ----------
    engine : DLXEngine
        Opened with ``shape=`` (its links and ``option_lookup`` are used in place).
    solution : ndarray
        The full grid, ``(n, n)``.
    starts, cells, target, test_nodes, work
        As for :class:`BaseRemovalPass`.
    keep : ndarray of bool, optional
        The clues present at the start (default: all).
    check_only : bool
        Skip the removal and only count the puzzle ``keep`` leaves (up to 2).

    Call :meth:`step` until it returns True; :attr:`final` is then the count of the finished
    puzzle. While a test is open (:attr:`open`) the engine's links are in use: finish the pass
    or call :meth:`close` before anything else counts on that engine.
    """

    holds_engine = True

    def __init__(self, engine, solution, starts, cells, target: int, test_nodes: int,
                 keep=None, check_only: bool = False, work: int = SLICE_WORK):
        flat = np.asarray(solution).reshape(-1)
        self.args = engine.links.kernel_args()
        self.stats = self.args[8]
        lookup = engine.option_lookup
        self.clue_option = lookup[np.arange(flat.size), flat - 1].astype(np.int64)
        super().__init__(np.ones(flat.size, np.bool_) if keep is None else
                         np.ascontiguousarray(keep, dtype=np.bool_).reshape(-1).copy(),
                         starts, cells, target, test_nodes, work)
        self.pre = np.empty(flat.size, np.int64)
        if check_only:
            self.pos[PHASE] = CHECKING
        self.nodes_at_start = int(self.stats[0])

    @property
    def nodes(self) -> int:
        """Search nodes spent by this pass so far."""
        return int(self.stats[0]) - self.nodes_at_start

    def _slice(self, max_nodes: int | None) -> bool:
        stop = -1 if max_nodes is None else self.nodes_at_start + int(max_nodes)
        return bool(removal_slice(*self.args, self.clue_option, self.starts, self.cells,
                                  self.keep, self.target, self.test_nodes, self.pre, self.pos,
                                  stop, self.work))

    def close(self) -> None:
        """Abandon the open test, if any (its orbit stays), leaving the engine's links as
        they were before the test."""
        llink, rlink, top, ulink, dlink, spacers, x, state = self.args[:8]
        close_test(llink, rlink, top, ulink, dlink, spacers, x, state, self.keep,
                   self.starts, self.cells, self.pre, self.pos)
