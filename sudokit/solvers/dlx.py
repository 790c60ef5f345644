"""Exact cover by dancing links (Knuth's Algorithm X, DLX1 layout) with numba kernels.

The structure is built once from the CSR arrays of an exact-cover problem and reused: every
call may *preselect* options (cover them before the search: the givens of a puzzle) and the
structure is restored exactly afterwards. So batch uniqueness checking builds the empty
grid's options once and preselects each puzzle's givens, all in one kernel call
(:meth:`DancingLinks.count_many`). Branching picks the active primary item with the fewest
remaining options (Knuth's MRV rule, first on ties). As in Algorithm X, an option without
primary items is never part of a cover unless it is preselected.

Reference: D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, Section 7.2.2.1
("Dancing links"), Algorithm X and the program DLX1. The kernels are in
:mod:`sudokit.solvers.dlx_kernel`.

Examples
--------
Knuth's example (7.2.2.1-(6)): items ``a..g``; the options are ``c e``, ``a d g``,
``b c f``, ``a d f``, ``b g`` and ``d e g``.

>>> import numpy as np
>>> starts = np.array([0, 2, 5, 8, 11, 13, 16])
>>> items = np.array([2, 4, 0, 3, 6, 1, 2, 5, 0, 3, 5, 1, 6, 3, 4, 6])
>>> dlx = DancingLinks(7, 7, starts, items)
>>> dlx.first()
array([0, 3, 4])
>>> dlx.count(), dlx.count(preselected=[1])
(1, 0)
>>> dlx_count((7, 7, starts, items), limit=5)
1
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

from .._accel import native
from ..errors import BudgetExhausted, SolverError
from ..exact_cover import ExactCover
from .budget import Budget
from .dlx_layout import COVERED, STEP_ENTER, build_links, primary_counts
from .slicing import DECIDED, count_batch, decided_parts, in_slices

__all__ = ["BatchCount", "DancingLinks", "dlx_first", "dlx_solutions", "dlx_count",
           "load_kernels", "slice_for"]


class BatchCount(NamedTuple):
    """What :meth:`DancingLinks.count_many` returns: arrays over the batch."""

    counts: np.ndarray
    firsts: np.ndarray
    unknown: np.ndarray

_NO_LIMIT = np.iinfo(np.int64).max


class DancingLinks:
    """An exact-cover problem laid out for dancing links, reusable across searches.

    Parameters
    ----------
    num_items : int
        Number of items.
    num_primary : int
        Items ``0..num_primary-1`` must be covered exactly once; the others at most once.
    option_starts : array_like of int, length ``num_options + 1``
        CSR offsets: option ``k`` is ``option_items[option_starts[k]:option_starts[k + 1]]``.
    option_items : array_like of int
        0-based item indices; no item twice within one option.
    validate : bool
        Check the arrays (offsets, item range, no item twice in an option); skipped for an
        :class:`~sudokit.exact_cover.ExactCover`, validated where it was read or built right.

    Attributes
    ----------
    nodes : int
        Search-tree nodes entered (step X2) since the last :meth:`reset_counters`.
    updates : int
        Link updates made by cover and hide since the last :meth:`reset_counters`.

    Notes
    -----
    Not thread-safe: :meth:`first`, :meth:`count` and :meth:`count_many` modify the shared
    links in place (and restore them). :meth:`solutions` works on its own copy, so any number
    of its generators may be alive at once.

    Examples
    --------
    Two items, options ``{0, 1}``, ``{0}`` and ``{1}``:

    >>> dlx = DancingLinks(2, 2, [0, 2, 3, 4], [0, 1, 0, 1])
    >>> [s.tolist() for s in dlx.solutions()]
    [[0], [1, 2]]
    >>> dlx.count(preselected=[2]), dlx.nodes > 0
    (1, True)
    """

    def __init__(self, num_items: int, num_primary: int, option_starts: Any,
                 option_items: Any, *, validate: bool = True):
        starts = np.asarray(option_starts)
        items = np.asarray(option_items)
        if validate:
            _check_problem(num_items, num_primary, starts, items)
        if items.size + len(starts) + int(num_items) + 2 >= COVERED:
            raise SolverError(f"the problem is too large for DLX ({items.size} item entries)")
        self.num_items = int(num_items)
        self.num_primary = int(num_primary)
        self.num_options = len(starts) - 1
        built = build_links(self.num_items, self.num_primary, starts, items,
                            _kernel("_fill_links"))
        self._links = built[:5]
        self._spacers = built[5]
        self._x = np.zeros(self.num_primary + 1, dtype=np.int32)
        self._mark = np.zeros(self.num_items + 2, dtype=np.int8)
        self._stats = np.zeros(2, dtype=np.int64)
        # Bound on the length of a solution: options without primary items only enter one
        # as preselected; the others are disjoint, each with >= min_primary primary items.
        primary = primary_counts(self._links[2], self._spacers, self.num_primary)
        self._secondary_only = primary == 0
        min_primary = int(primary[primary > 0].min()) if np.any(primary > 0) else 1
        self._width = self.num_primary // min_primary
        self.slice_nodes = slice_for(self.num_primary, type(self).slice_nodes, self.slice_work)

    @classmethod
    def from_problem(cls, problem: Any) -> DancingLinks:
        """Build from an object with ``num_items``, ``num_primary``, ``option_starts`` and
        ``option_items`` (such as an ``ExactCover``), or from a tuple of those four values.

        Examples
        --------
        >>> from types import SimpleNamespace
        >>> xc = SimpleNamespace(num_items=1, num_primary=1, option_starts=[0, 1, 2],
        ...                      option_items=[0, 0])
        >>> DancingLinks.from_problem(xc).count()
        2
        """
        if isinstance(problem, DancingLinks):
            return problem
        if isinstance(problem, ExactCover):  # validated where it was read, or built right
            return cls(problem.num_items, problem.num_primary, problem.option_starts,
                       problem.option_items, validate=False)
        if isinstance(problem, tuple) and len(problem) == 4:
            return cls(*problem)
        try:
            fields = (problem.num_items, problem.num_primary, problem.option_starts,
                      problem.option_items)
        except AttributeError:
            raise SolverError(
                "DLX needs an exact-cover problem: an object with num_items, num_primary, "
                "option_starts and option_items, or a tuple of those four "
                f"(got {type(problem).__name__})") from None
        return cls(*fields)

    # counters -------------------------------------------------------------------------
    @property
    def nodes(self) -> int:
        return int(self._stats[0])

    @property
    def updates(self) -> int:
        return int(self._stats[1])

    def reset_counters(self) -> None:
        """Set :attr:`nodes` and :attr:`updates` back to 0."""
        self._stats[:] = 0

    def kernel_args(self) -> tuple[np.ndarray, ...]:
        """The arrays a kernel that drives :func:`~sudokit.solvers.dlx_kernel.solve_one`
        itself needs: ``(llink, rlink, top, ulink, dlink, spacers, x, state, stats, mark)``
        (live links and scratch, not copies; ``state`` is fresh)."""
        return (*self._links, self._spacers, self._x, np.zeros(3, dtype=np.int64),
                self._stats, self._mark)

    def links(self) -> tuple[np.ndarray, ...]:
        """Copies of the link arrays ``(LLINK, RLINK, TOP, ULINK, DLINK)`` (for inspection)."""
        return tuple(a.copy() for a in self._links)

    # searches -------------------------------------------------------------------------
    def count(self, preselected: Any = (), limit: int | None = None, *,
              budget: Budget | None = None) -> int:
        """Count the exact covers that contain the ``preselected`` options.

        Parameters
        ----------
        preselected : sequence of int, optional
            Options forced into the solution. Overlapping ones give a count of 0.
        limit : int, optional
            Stop counting at this many (``limit=2`` answers "unique?").
        budget : Budget, optional
            Search-tree ``nodes`` and wall-clock ``seconds``;
            :class:`~sudokit.errors.BudgetExhausted` when spent.

        Examples
        --------
        >>> DancingLinks(1, 1, [0, 1, 2, 3], [0, 0, 0]).count(limit=2)
        2
        """
        return self.count_first(preselected, limit, budget)[0]

    def first(self, preselected: Any = (), *, budget: Budget | None = None
              ) -> np.ndarray | None:
        """The first exact cover found (sorted option indices, int64), or None if none.

        Examples
        --------
        >>> DancingLinks(2, 1, [0, 1, 3], [1, 0, 1]).first()
        array([1])
        >>> DancingLinks(2, 1, [0, 1, 3], [1, 0, 1]).first(preselected=[0]) is None
        True
        """
        return self.count_first(preselected, 1, budget)[1]

    def solutions(self, preselected: Any = ()) -> Iterator[np.ndarray]:
        """Lazily generate every exact cover containing ``preselected`` (sorted, int64).

        The generator searches on its own copy of the links; stopping early is fine.

        Examples
        --------
        >>> gen = DancingLinks(1, 1, [0, 1, 2, 3], [0, 0, 0]).solutions()
        >>> next(gen), next(gen)
        (array([0]), array([1]))
        """
        pre = self._check_pre(preselected)
        return (cover for cover in self._generate(pre) if cover is not None)

    def count_first(self, preselected: Any = (), limit: int | None = None,
                    budget: Budget | None = None) -> tuple[int, np.ndarray | None]:
        """Count covers (up to ``limit``) and return the first, within a budget.

        The search runs in slices of :attr:`slice_nodes` nodes inside the kernel (no Python
        per solution); between slices the clock of a time budget is read and a Ctrl-C is
        delivered, so both hold even when no cover turns up for a long while.

        Returns
        -------
        count : int
        first : ndarray or None
            The first cover found (sorted option indices).

        Raises
        ------
        BudgetExhausted
            When the budget runs out first (its message gives the count so far).

        Examples
        --------
        >>> from sudokit.solvers.budget import Budget
        >>> DancingLinks(1, 1, [0, 1, 2, 3], [0, 0, 0]).count_first(limit=5,
        ...                                                           budget=Budget(seconds=10))
        (3, array([0]))
        """
        pre = self._check_pre(preselected)
        count, first, out = self._count_sliced(pre, _limit(limit), budget or Budget())
        if out:
            raise BudgetExhausted(f"DLX budget ran out after {count} solution(s)", count)
        return count, first

    #: most nodes per kernel call between clock readings under a time budget
    slice_nodes = 1 << 16
    #: item reads per kernel call between clock readings (about 10-50 ms): a node's MRV
    #: choice reads every active primary item, so a big problem gets fewer nodes a slice
    #: (:func:`slice_for`; a 200x200 Sudoku's first slice of 65,536 nodes took 3 CPU s)
    slice_work = 1 << 25

    def _count_sliced(self, pre: np.ndarray, limit: int,
                      budget: Budget) -> tuple[int, np.ndarray | None, bool]:
        """``(count, first cover or None, the budget ran out)``: the first cover is kept
        when the budget ends the count after it."""
        meter = budget.start()
        count_slice = _kernel("count_slice")
        done = _kernel("cover_preselected")(*self._links, self._spacers, pre, self._mark)
        if done == 0:
            return 0, None, False
        self._stats[1] += done - 1
        state = np.array([0, STEP_ENTER, 0], dtype=np.int64)
        row = np.full(len(self._x), -1, dtype=np.int64)
        found = np.zeros(1, dtype=np.int64)
        start_nodes = self.nodes

        def step(stop: int) -> int:
            return int(count_slice(*self._links, self._x, state, self._stats, limit,
                                   start_nodes + stop, row, found))

        try:
            out = in_slices(step, lambda: self.nodes - start_nodes, self.slice_nodes, budget,
                            meter, found=lambda: int(found[0]))
        finally:
            _kernel("unwind")(*self._links, self._x, state)
            _kernel("uncover_preselected")(*self._links, self._spacers, pre)
        native.after_numba(*_NATIVE.values())
        count = int(found[0])
        first = np.sort(np.concatenate((pre, row[row >= 0]))) if count else None
        return count, first, out

    def _generate(self, pre: np.ndarray, slice_nodes: int = -1) -> Iterator[np.ndarray | None]:
        """Covers containing ``pre``, searched on a copy of the links; with ``slice_nodes``,
        also ``None`` each time that many nodes pass without a cover (a chance to stop)."""
        links = [a.copy() for a in self._links]
        x = np.zeros_like(self._x)
        stats = np.zeros(2, dtype=np.int64)
        mark = np.zeros_like(self._mark)
        done = _kernel("cover_preselected")(*links, self._spacers, pre, mark)
        if done == 0:
            return
        self._stats[1] += done - 1
        state = np.array([0, STEP_ENTER, 0], dtype=np.int64)
        out = np.zeros(len(x), dtype=np.int64)
        search, options_of = _kernel("search"), _kernel("options_of")
        while True:
            stats[:] = 0
            found = search(*links, x, state, stats, slice_nodes)
            self._stats += stats
            if found == 0:
                return
            if found == -1:  # a slice of nodes ended; the search resumes at X2
                yield None
                continue
            size = options_of(x, state[0], links[2], out)
            yield np.sort(np.concatenate((pre, out[:size])))

    def count_many(self, pre_starts: Any, pre_options: Any, limit: int | None = None,
                   budget: Budget | None = None) -> BatchCount:
        """Count many preselected sets at once, in one kernel call (batch uniqueness).

        Parameters
        ----------
        pre_starts : array_like of int, length ``P + 1``
            CSR offsets: set ``p`` is ``pre_options[pre_starts[p]:pre_starts[p + 1]]``.
        pre_options : array_like of int
            Option indices.
        limit : int, optional
            Count each set up to this many (2 for uniqueness).
        budget : Budget, optional
            Per set: ``nodes`` bounds each set inside the kernel; with ``seconds``, each set
            first gets :attr:`slice_nodes` nodes in the batch call, and the few that need more
            go on alone in clock-checked slices (:meth:`count_first`).

        Every set gets at most :attr:`slice_nodes` nodes in the batch call (fewer with a
        smaller ``nodes`` budget); the rare ones that need more go on alone in sliced searches
        (:meth:`count_first`), so no kernel call runs long and Ctrl-C is always delivered.

        Returns
        -------
        BatchCount
            ``counts`` (int64, ``(P,)``; a lower bound where ``unknown``), ``firsts`` (int32,
            ``(P, width)``: each row the sorted options of the first cover found, padded with
            -1, all -1 when the count is 0) and ``unknown`` (bool, ``(P,)``: the budget ran
            out).

        Examples
        --------
        >>> dlx = DancingLinks(2, 2, [0, 2, 3, 4], [0, 1, 0, 1])
        >>> counts, firsts, unknown = dlx.count_many([0, 0, 1, 3], [1, 0, 1])
        >>> counts.tolist(), firsts.tolist(), unknown.tolist()
        ([2, 1, 0], [[0, -1], [1, 2], [-1, -1]], [False, False, False])
        """
        starts, options = self._check_batch(pre_starts, pre_options)
        width = self._batch_width(starts, options)
        limit = _limit(limit)
        budget = budget or Budget()
        firsts = np.zeros((0, width), dtype=np.int32)

        def batch(cap: int) -> tuple[np.ndarray, np.ndarray]:
            nonlocal firsts
            counts, firsts, lost = self._run_csr(starts, options, limit, width, cap)
            return counts, lost

        def alone(p: int) -> tuple[int, bool]:
            return self._alone(options[starts[p]:starts[p + 1]], limit, budget, firsts[p])

        counts, unknown = count_batch(batch, alone, self.slice_nodes, budget)
        return BatchCount(counts, firsts, unknown)

    def count_many_parts(self, pre_starts: Any, pre_options: Any, limit: int | None = None,
                         budget: Budget | None = None) -> Iterator[tuple[int, BatchCount]]:
        """:meth:`count_many` in consecutive parts, in order, each as soon as its sets are
        decided: ``(start, counts of sets start, start+1, ...)``.

        The batch kernel runs in calls of at most two slices of nodes, each set with at most
        one slice as in :meth:`count_many`; a set that needs more comes in a part of its own,
        after the part of the sets before it, which is given out before that set's search
        alone starts (:func:`~sudokit.solvers.slicing.decided_parts`). Each set is counted
        with the same nodes as by :meth:`count_many`: the same counts, first covers and
        unknowns, only sooner.

        Examples
        --------
        >>> dlx = DancingLinks(2, 2, [0, 2, 3, 4], [0, 1, 0, 1])
        >>> [(start, part.counts.tolist(), part.firsts.tolist()) for start, part in
        ...  dlx.count_many_parts([0, 0, 1, 3], [1, 0, 1])]
        [(0, [2, 1, 0], [[0, -1], [1, 2], [-1, -1]])]
        """
        starts, options = self._check_batch(pre_starts, pre_options)
        width = self._batch_width(starts, options)
        limit = _limit(limit)
        budget = budget or Budget()
        size = len(starts) - 1
        counts = np.zeros(size, dtype=np.int64)
        firsts = np.full((size, width), -1, dtype=np.int32)
        lost = np.zeros(size, dtype=np.int8)
        scratch = np.zeros(3, dtype=np.int64)
        kernel = _kernel("solve_batch")
        per_call = 2 * int(self.slice_nodes)

        def step(cap: int, begin: int) -> int:
            end = int(kernel(*self._links, self._spacers, self._x, self._stats, self._mark,
                             starts, options, begin, limit, cap, per_call, counts, firsts,
                             lost, scratch))
            native.after_numba(*_NATIVE.values())
            return end

        def alone(p: int) -> tuple[int, bool]:
            return self._alone(options[starts[p]:starts[p + 1]], limit, budget, firsts[p])

        start = 0
        for stop in decided_parts(step, alone, counts, lost, self.slice_nodes, budget):
            yield start, BatchCount(counts[start:stop], _sorted_covers(firsts[start:stop]),
                                    lost[start:stop] != DECIDED)
            start = stop

    def _alone(self, pre: np.ndarray, limit: int, budget: Budget,
               first: np.ndarray) -> tuple[int, bool]:
        """One preselected set counted again from the start in clock-read slices
        (:meth:`count_first`): ``(count, the budget ran out)``; its first cover, sorted, into
        ``first`` (-1 padded), also when the budget ran out after it."""
        count, found, out = self._count_sliced(pre, limit, budget)
        first[:] = -1
        if found is not None:
            first[:len(found)] = found
        return count, out

    def _batch_width(self, starts: np.ndarray, options: np.ndarray) -> int:
        """The most options a cover of any set of the batch may have."""
        extra = np.concatenate(([0], np.cumsum(self._secondary_only[options])))[starts]
        return self._width + (int(np.diff(extra).max()) if len(starts) > 1 else 0)

    # internals ------------------------------------------------------------------------
    def _run_csr(self, starts, options, limit, width, max_nodes=-1):
        counts = np.zeros(len(starts) - 1, dtype=np.int64)
        firsts = np.full((len(counts), width), -1, dtype=np.int32)
        unknown = np.zeros(len(counts), dtype=np.int8)
        _kernel("solve_batch")(*self._links, self._spacers, self._x, self._stats, self._mark,
                               starts, options, 0, limit, max_nodes, -1, counts, firsts,
                               unknown, np.zeros(3, dtype=np.int64))
        native.after_numba(*_NATIVE.values())
        return counts, _sorted_covers(firsts), unknown

    def _check_pre(self, preselected: Any) -> np.ndarray:
        pre = np.asarray(preselected)
        if pre.size == 0:
            return np.zeros(0, dtype=np.int64)
        if pre.ndim != 1 or pre.dtype.kind not in "iu":
            raise SolverError("preselected options must be a 1-D sequence of option "
                              f"indices (got dtype {pre.dtype}, shape {pre.shape})")
        self._check_range(pre)
        return pre.astype(np.int64)

    def _check_range(self, options: np.ndarray) -> None:
        bad = (options < 0) | (options >= self.num_options)
        if np.any(bad):
            raise SolverError(f"preselected option {int(options[bad][0])} is out of range: "
                              f"the problem has {self.num_options} options "
                              f"(0..{self.num_options - 1})")

    def _check_batch(self, pre_starts: Any, pre_options: Any):
        starts = np.asarray(pre_starts)
        options = np.asarray(pre_options)
        if options.size == 0:
            options = np.zeros(0, dtype=np.int64)
        for name, arr in (("pre_starts", starts), ("pre_options", options)):
            if arr.ndim != 1 or arr.dtype.kind not in "iu":
                raise SolverError(f"{name} must be a 1-D integer array")
        if (len(starts) == 0 or starts[0] != 0 or starts[-1] != len(options)
                or np.any(np.diff(starts) < 0)):
            raise SolverError("pre_starts must rise from 0 to len(pre_options) "
                              f"(got {len(starts)} offsets for {len(options)} options)")
        self._check_range(options)
        return starts.astype(np.int64), options.astype(np.int64)


#: the kernels that run without numba where :mod:`sudokit._accel.native` has them: what counting
#: one instance takes (``count --solver dlx`` of one problem) and counting many by
#: preselection (``solve``/``count --solver dlx`` of puzzles)
_NATIVE = {"_fill_links": "dlx-fill-links", "cover_preselected": "dlx-cover-preselected",
           "count_slice": "dlx-count-slice", "unwind": "dlx-unwind",
           "uncover_preselected": "dlx-uncover-preselected", "solve_batch": "dlx-solve-batch"}


def _kernel(name: str) -> Any:
    """The kernel ``name`` of :mod:`sudokit.solvers.dlx_kernel`, or its numba-free copy."""
    if name in _NATIVE:
        found = native.native_kernel(_NATIVE[name])
        if found is not None:
            return found
    from . import dlx_kernel  # numba: imported when a kernel first runs through it

    return getattr(dlx_kernel, name)


def dlx_first(problem: Any, preselected: Any = ()) -> np.ndarray | None:
    """The first exact cover of ``problem`` (sorted option indices), or None.

    ``problem`` is a :class:`DancingLinks`, an object with ``num_items``, ``num_primary``,
    ``option_starts`` and ``option_items``, or a tuple of those four.

    Examples
    --------
    >>> dlx_first((2, 2, [0, 1, 2], [0, 1]))
    array([0, 1])
    """
    return DancingLinks.from_problem(problem).first(preselected)


def dlx_solutions(problem: Any, preselected: Any = ()) -> Iterator[np.ndarray]:
    """Lazily generate the exact covers of ``problem`` (see :func:`dlx_first`).

    Examples
    --------
    >>> [s.tolist() for s in dlx_solutions((1, 1, [0, 1, 2], [0, 0]))]
    [[0], [1]]
    """
    return DancingLinks.from_problem(problem).solutions(preselected)


def dlx_count(problem: Any, limit: int | None = None, preselected: Any = ()) -> int:
    """Count the exact covers of ``problem``, stopping at ``limit`` (see :func:`dlx_first`).

    Examples
    --------
    >>> dlx_count((1, 1, [0, 1, 2, 3], [0, 0, 0]), limit=2)
    2
    """
    return DancingLinks.from_problem(problem).count(preselected, limit)


def _sorted_covers(firsts: np.ndarray) -> np.ndarray:
    """Each row's options sorted, the -1 padding after them.

    >>> _sorted_covers(np.array([[5, 2, -1], [-1, -1, -1]], dtype=np.int32)).tolist()
    [[2, 5, -1], [-1, -1, -1]]
    """
    big = np.iinfo(np.int32).max
    ordered = np.sort(np.where(firsts < 0, big, firsts), axis=1)
    ordered[ordered == big] = -1
    return ordered


def _limit(limit: int | None) -> int:
    if limit is None:
        return int(_NO_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 0:
        raise SolverError(f"limit must be a non-negative integer or None (got {limit!r})")
    return int(limit)


def load_kernels() -> None:
    """Load the kernels a count runs (from the cache), by counting a one-item problem: an
    engine does it when it opens, so the first instance's budget does not pay for it (1.5 s
    of wall time on a busy machine, three times a 0.5 s budget)."""
    DancingLinks(1, 1, [0, 1], [0]).count()


def slice_for(num_primary: int, most: int = DancingLinks.slice_nodes,
              work: int = DancingLinks.slice_work) -> int:
    """Nodes per slice of a problem of ``num_primary`` primary items: ``work`` item reads at
    ``num_primary`` a node, at most ``most`` and at least 16.

    Examples
    --------
    >>> slice_for(324), slice_for(4 * 200 * 200)     # a 9x9 Sudoku, a 200x200 one
    (65536, 209)
    """
    return max(16, min(int(most), int(work) // max(int(num_primary), 1)))


def _check_problem(num_items, num_primary, starts, items) -> None:
    """Cheap structural checks (the caller validated the content); SolverError if broken."""
    try:
        n, n1 = int(num_items), int(num_primary)
    except (TypeError, ValueError):
        raise SolverError("num_items and num_primary must be integers") from None
    if not 0 <= n1 <= n:
        raise SolverError(f"need 0 <= num_primary <= num_items (got {n1} and {n})")
    if starts.ndim != 1 or len(starts) == 0 or (starts.size and starts.dtype.kind not in "iu"):
        raise SolverError("option_starts must be a 1-D integer array of length num_options+1")
    if items.size and (items.ndim != 1 or items.dtype.kind not in "iu"):
        raise SolverError("option_items must be a 1-D integer array")
    if starts[0] != 0 or starts[-1] != items.size or np.any(np.diff(starts) < 0):
        raise SolverError("option_starts must rise from 0 to len(option_items)")
    if items.size and (items.min() < 0 or items.max() >= n):
        raise SolverError(f"option items must lie in 0..{n - 1}")
    if items.size:
        owner = np.repeat(np.arange(len(starts) - 1), np.diff(starts.astype(np.int64)))
        key = np.sort(owner * np.int64(n) + items.astype(np.int64))
        if np.any(key[1:] == key[:-1]):
            raise SolverError("an option lists the same item twice")
