"""The chromatic number of a graph: bounds from a clique and DSatur, SAT calls in between.

1. **Lower bound**: a large clique (:func:`~sudokit.graphs.large_clique`, greedy from every
   start vertex that could still improve it, within a tenth of the time budget).
2. **Upper bound**: a DSatur coloring (:func:`~sudokit.graphs.dsatur`).
3. **Core**: vertices of degree below the lower bound are peeled off (:func:`~sudokit.graphs.peel`);
   every ``k`` tried below is at least the lower bound, so the graph is ``k``-colorable exactly
   when its core is, and a coloring of the core extends greedily. The sparse
   register-allocation graphs (``mulsol``, ``zeroin``, ``fpsol2``) shrink to almost nothing.
4. **One formula**: the core is encoded once, with ``upper - 1`` colors, in the direct
   encoding with symmetry breaking (:mod:`~sudokit.encoders.coloring_symmetry`: the clique's
   colors fixed, the other colors ordered by first use), and loaded into one incremental
   solver; a call with ``k`` colors forbids the colors above ``k``. A model is a coloring,
   checked proper, whose number of colors becomes the new upper bound.
5. **Probe, then descend**: when the bounds are two or more apart, ``k = lower`` is tried
   first (the colors above it as assumptions), within a quarter of the time left: on the
   DIMACS graphs the clique bound is often the answer, and a coloring with that many colors
   ends the search at once (CaDiCaL 5-colors ``le450_5a`` in a tenth of a second, but finds
   no 7-coloring in 20 seconds); each refutation raises the lower bound by one and probes
   again. Then the search descends: ``k = upper - 1`` (the colors above it forbidden by unit
   clauses, which only ever accumulate), until a refutation proves ``chi = upper``.

Why descending rather than bisection: a proof needs one refutation, at ``chi - 1``, and
descending makes exactly that one; the other calls are satisfiable, near ``chi`` from above,
and each may drop the bound by several colors at once (the coloring found often uses fewer
than ``k``). Bisection makes refutations below ``chi - 1`` that the final proof does not need
(each a pigeonhole-like search), and moving the bound up again would need assumptions instead
of the unit clauses that let the solver keep everything it learnt. The probe is the one
exception, a bounded bet on the clique bound being tight. When the budget runs out, the
answer is the interval ``lower..upper`` with a coloring for ``upper``: never a wrong value.

Why the clique fixing keeps satisfiability when colors above ``k`` are forbidden: the
relabeling of :mod:`~sudokit.encoders.coloring_symmetry`, applied to a ``k``-coloring (no
precolors, so every color is free), puts the clique on colors ``1..m`` and every other color
on the smallest index not yet used, so it uses exactly colors ``1..t`` with ``t <= k``.

Examples
--------
>>> from sudokit.instances import precoloring
>>> five_wheel = precoloring(6, [(0, i) for i in range(1, 6)]
...                          + [(i, i % 5 + 1) for i in range(1, 6)], 1)
>>> result = chromatic_number(five_wheel)
>>> result.status, result.value, result.lower, result.upper
('proved', 4, 4, 4)
>>> from sudokit.graphs import is_proper_coloring
>>> is_proper_coloring(6, five_wheel.edges, result.coloring), int(result.coloring.max())
(True, 4)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .encoders import coloring_to_cnf
from .encoders.coloring_symmetry import CLIQUE_STARTS
from .encoders.size import completion_cnf_size
from .errors import BudgetExhausted, ResourceError, SolverError
from .graphs import (
    adjacency,
    dsatur,
    extend_greedily,
    is_proper_coloring,
    large_clique,
    peel,
)
from .instances.precoloring import Precoloring
from .solvers.budget import UNLIMITED, Budget, Meter
from .solvers.pysat_solver import open_solver, read_model, run_solver
from .solvers.registry import DEFAULT_SOLVER, SOLVERS, resolve_solver

__all__ = ["ChromaticResult", "ChromaticStep", "chromatic_number", "CLIQUE_SHARE",
           "CLIQUE_SECONDS", "LOAD_RATE", "PROBE_SHARE", "PROBE_SECONDS"]

#: the clique search may take this share of a time budget ...
CLIQUE_SHARE = 0.1
#: ... and this many seconds without one
CLIQUE_SECONDS = 10.0
#: the probe of the lower bound may take this share of the time left after encoding ...
PROBE_SHARE = 0.25
#: ... and this many seconds without a time budget
PROBE_SECONDS = 30.0
#: clauses per second that are encoded and loaded into a solver, optimistically (about twice
#: what a 2024 laptop core does): a formula that would take longer than the time left is not
#: built, since building it cannot be interrupted
LOAD_RATE = 400_000


@dataclass(frozen=True)
class ChromaticStep:
    """One step of the procedure.

    Attributes
    ----------
    what : str
        ``clique`` (a lower bound), ``dsatur`` (an upper bound), ``core`` (the vertices left
        after peeling; ``colors`` is their number), ``encode`` (the formula, ``colors`` the
        number of colors in it), ``probe`` (a SAT call with ``colors`` colors, the lower
        bound) or ``sat`` (a SAT call of the descent).
    colors : int
    status : str
        ``sat``, ``unsat`` or ``unknown`` for SAT calls; ``done`` for the others.
    seconds : float
    conflicts : int
        SAT conflicts of the step (SAT calls only).
    """

    what: str
    colors: int
    status: str = "done"
    seconds: float = 0.0
    conflicts: int = 0

    def describe(self) -> str:
        """One line, e.g. ``sat 48 colors: unsat (0.01 s, 0 conflicts)``."""
        if self.what in ("sat", "probe"):
            return (f"{self.what} {self.colors} colors: {self.status} ({self.seconds:.2f} s, "
                    f"{self.conflicts} conflicts)")
        labels = {"clique": "clique of {} vertices", "dsatur": "DSatur coloring with {} colors",
                  "core": "core of {} vertices", "encode": "formula with {} colors"}
        text = labels.get(self.what, self.what + " {}").format(self.colors)
        return f"{text} ({self.seconds:.2f} s)" + ("" if self.status == "done"
                                                   else f": {self.status}")


@dataclass(frozen=True, eq=False)
class ChromaticResult:
    """What is known of a graph's chromatic number.

    Attributes
    ----------
    lower, upper : int
        ``lower <= chi <= upper``; equal when ``status`` is ``proved``.
    coloring : numpy.ndarray
        A proper coloring with colors ``1..upper`` (vertex order).
    clique : numpy.ndarray
        The clique found (0-based vertices; its size is the first lower bound).
    status : str
        ``proved`` or ``unknown``.
    reason : str or None
        Why the result is unknown: ``time limit``, ``conflict limit`` or ``memory``.
    seconds : float
    steps : tuple of ChromaticStep
    """

    lower: int
    upper: int
    coloring: np.ndarray
    clique: np.ndarray
    status: str
    reason: str | None
    seconds: float
    steps: tuple[ChromaticStep, ...] = field(default=())

    @property
    def value(self) -> int | None:
        """The chromatic number when proved, else None."""
        return self.upper if self.status == "proved" else None


def _compact(colors: np.ndarray) -> np.ndarray:
    """The same partition with colors renumbered ``1..t`` in order of the old numbers."""
    _, compact = np.unique(colors, return_inverse=True)
    return (compact.reshape(-1) + 1).astype(np.int32)


class _Run:
    """The state of one :func:`chromatic_number` call."""

    def __init__(self, graph, solver: str, budget: Budget,
                 progress: Callable[[ChromaticStep], None] | None):
        self.n = int(graph.num_vertices)
        self.edges = np.asarray(graph.edges, dtype=np.int64).reshape(-1, 2)
        self.solver, self.budget = solver, budget
        self.meter: Meter = budget.start()
        self.progress = progress
        self.steps: list[ChromaticStep] = []
        self.reason: str | None = None

    def note(self, step: ChromaticStep) -> None:
        self.steps.append(step)
        if self.progress is not None:
            self.progress(step)

    def clique_seconds(self) -> float:
        if self.budget.seconds is None:
            return CLIQUE_SECONDS
        return min(CLIQUE_SECONDS, CLIQUE_SHARE * self.budget.seconds)

    def out_of_budget(self) -> str:
        spent = (self.budget.conflicts is not None
                 and self.meter.conflicts_used >= self.budget.conflicts)
        return "conflict limit" if spent else "time limit"

    def result(self, lower: int, upper: int, coloring: np.ndarray,
               clique: np.ndarray) -> ChromaticResult:
        if not is_proper_coloring(self.n, self.edges, coloring) or \
                int(coloring.max(initial=0)) != upper or lower > upper:
            raise RuntimeError(f"the bounds {lower}..{upper} and their coloring do not agree")
        status = "proved" if lower == upper else "unknown"
        return ChromaticResult(lower, upper, coloring, clique, status,
                               None if status == "proved" else self.reason or "time limit",
                               time.monotonic() - self.meter.started, tuple(self.steps))


def chromatic_number(graph, solver: str = DEFAULT_SOLVER, budget: Budget = UNLIMITED,
                     progress: Callable[[ChromaticStep], None] | None = None
                     ) -> ChromaticResult:
    """Bound, and within the budget prove, the chromatic number of ``graph``.

    Parameters
    ----------
    graph : Precoloring
        Any object with ``num_vertices`` and ``edges`` (``(m, 2)``, 0-based, each edge
        once); the number of colors and the precolors of a :class:`Precoloring` are ignored.
    solver : str
        A PySAT solver that takes a budget (``sudokit solvers``).
    budget : Budget
        One budget for everything: seconds, conflicts over all SAT calls, formula memory.
        Running out gives ``status="unknown"`` with the bounds reached, never an error.
    progress : callable, optional
        Called with each :class:`ChromaticStep` as it is done.

    Returns
    -------
    ChromaticResult
    """
    name = resolve_solver(solver)
    if name not in SOLVERS:
        raise SolverError(f"the chromatic number needs a SAT solver, not {name}; choose one "
                          f"of {', '.join(SOLVERS)}")
    run = _Run(graph, name, budget, progress)
    n, edges = run.n, run.edges
    if n == 0 or len(edges) == 0:
        clique = np.arange(min(n, 1), dtype=np.int64)
        return run.result(min(n, 1), min(n, 1), np.ones(n, dtype=np.int32), clique)
    adj = adjacency(n, edges)
    began = time.monotonic()
    clique = large_clique(n, edges, seconds=run.clique_seconds(), adj=adj)
    lower = len(clique)
    run.note(ChromaticStep("clique", lower, seconds=time.monotonic() - began))
    began = time.monotonic()
    coloring = _compact(dsatur(n, edges, adj=adj))
    upper = int(coloring.max())
    run.note(ChromaticStep("dsatur", upper, seconds=time.monotonic() - began))
    if lower < upper:
        lower, upper, coloring = _descend(run, adj, clique, lower, upper, coloring)
    return run.result(lower, upper, coloring, clique)


def _descend(run: _Run, adj, clique: np.ndarray, lower: int, upper: int,
             coloring: np.ndarray) -> tuple[int, int, np.ndarray]:
    """Steps 3 to 5 of the module notes: ``(lower, upper, coloring)`` at the end."""
    n, edges = run.n, run.edges
    began = time.monotonic()
    core, removed = peel(n, edges, lower, adj=adj)
    run.note(ChromaticStep("core", int(core.sum()), seconds=time.monotonic() - began))
    if not core.any():  # every vertex has fewer than `lower` neighbors when colored
        return lower, lower, _compact(extend_greedily(n, edges, np.zeros(n), removed, adj))
    search = _CoreSearch(run, adj, core, removed, clique, upper - 1)
    if search.sat is None:
        return lower, upper, coloring
    with search.sat:
        if upper - lower >= 2:          # probe: is the lower bound the answer?
            lower, upper, coloring = search.probe(lower, upper, coloring)
        while upper > lower:            # descend
            k = upper - 1
            found = search.call(k, permanent=True, meter=run.meter)
            if found is None:
                break
            if found is False:
                lower = k + 1
                break
            coloring, upper = found, int(found.max())
    return lower, upper, coloring


class _CoreSearch:
    """The core's formula, with ``top`` colors, in one incremental solver (``sat`` is None
    when building or loading it ran out of time or memory)."""

    def __init__(self, run: _Run, adj, core: np.ndarray, removed: np.ndarray,
                 clique: np.ndarray, top: int):
        self.run, self.adj, self.core, self.removed, self.top = run, adj, core, removed, top
        self.forbidden = top            # colors above this one are forbidden for good
        self.sat: Any = None
        edges = run.edges
        index = np.cumsum(core) - 1
        size = int(core.sum())
        core_edges = index[edges[core[edges].all(axis=1)]]
        fixed = index[clique[core[clique]]]
        again = large_clique(size, core_edges, starts=CLIQUE_STARTS)  # peeling may cut it
        fixed = again if len(again) > len(fixed) else fixed
        problem = Precoloring(size, core_edges, top, np.zeros(size, dtype=np.int32))
        began = time.monotonic()
        clauses = completion_cnf_size(problem, "direct", "pairwise").clauses
        left = run.meter.seconds_left()
        if left is not None and clauses > left * LOAD_RATE:   # it could not be used in time
            run.reason = "time limit"
            run.note(ChromaticStep("encode", top, "unknown"))
            return
        try:
            self.encoded = coloring_to_cnf(problem, "direct", symmetry_breaking=True,
                                           max_bytes=run.budget.memory, clique=fixed)
            if run.meter.late():
                raise BudgetExhausted("the time budget ran out while encoding")
            self.sat = open_solver(run.solver, self.encoded.cnf, run.meter)
        except (ResourceError, BudgetExhausted) as err:
            run.reason = "memory" if isinstance(err, ResourceError) else run.out_of_budget()
            run.note(ChromaticStep("encode", top, "unknown", time.monotonic() - began))
            return
        run.note(ChromaticStep("encode", top, seconds=time.monotonic() - began))

    def probe(self, lower: int, upper: int, coloring: np.ndarray):
        """Try ``k = lower`` (colors above it assumed away), raising ``lower`` on each
        refutation, within :data:`PROBE_SHARE` of the time left (:data:`PROBE_SECONDS`
        without a time budget); ``(lower, upper, coloring)`` after."""
        run = self.run
        left = run.meter.seconds_left()
        seconds = PROBE_SECONDS if left is None else PROBE_SHARE * left
        conflicts = (None if run.budget.conflicts is None
                     else run.budget.conflicts - run.meter.conflicts_used)
        meter = Budget(seconds=seconds, conflicts=conflicts).start()
        try:
            while upper - lower >= 2:
                found = self.call(lower, permanent=False, meter=meter)
                if found is None:
                    run.reason = None   # the descent goes on with the whole budget
                    break
                if found is False:
                    lower += 1
                    continue
                return lower, int(found.max()), found
            return lower, upper, coloring
        finally:
            run.meter.conflicts_used += meter.conflicts_used

    def call(self, k: int, permanent: bool, meter: Meter):
        """One SAT call with ``k`` colors: a coloring of the graph, False (refuted) or None
        (out of budget). ``permanent`` forbids the colors above ``k`` for good (unit
        clauses), else only for this call (assumptions)."""
        run = self.run
        ids = self.encoded.cell_vars[:, k:self.forbidden]
        assumptions = (-ids.reshape(-1)).tolist()
        if permanent:
            for lit in assumptions:
                self.sat.add_clause([lit])
            self.forbidden, assumptions = k, []
        what = "sat" if permanent else "probe"
        began, before = time.monotonic(), meter.conflicts_used
        try:
            found = _solve_by_deadline(self.sat, assumptions, meter)
        except BudgetExhausted:
            run.reason = run.out_of_budget()
            run.note(ChromaticStep(what, k, "unknown", time.monotonic() - began,
                                   meter.conflicts_used - before))
            return None
        run.note(ChromaticStep(what, k, "sat" if found else "unsat",
                               time.monotonic() - began, meter.conflicts_used - before))
        if not found:
            return False
        n, edges = run.n, run.edges
        colors = np.zeros(n, dtype=np.int32)
        colors[self.core] = self.encoded.decode(read_model(self.sat, self.encoded.cnf.num_vars))
        colors = _compact(extend_greedily(n, edges, colors, self.removed, self.adj))
        if not is_proper_coloring(n, edges, colors) or colors.max() > k:
            raise RuntimeError(f"the coloring the solver found with {k} colors is not proper")
        return colors


#: conflicts of the first piece of a search; the pieces double up to the most, and are cut to
#: what the measured rate of conflicts says fits in the time left, and in a second (the rate
#: drifts as the search goes: a piece sized for half a minute once took 25 s more)
_FIRST_PIECE, _MAX_PIECE, _MIN_PIECE = 2_000, 100_000, 200
_PIECE_SECONDS = 1.0


def _solve_by_deadline(sat, assumptions: list[int], meter: Meter) -> bool:
    """:func:`~sudokit.solvers.pysat_solver.run_solver` in pieces of conflicts sized so that
    each ends near the deadline: a piece of 100,000 conflicts on a large formula takes many
    seconds, which a time budget of a few seconds must not overshoot."""
    piece = _FIRST_PIECE
    while True:
        allowed = piece
        if meter.budget.conflicts is not None:
            allowed = min(allowed, meter.budget.conflicts - meter.conflicts_used)
        if allowed <= 0 or meter.late():
            raise BudgetExhausted("budget exhausted: unknown")
        part = Budget(conflicts=allowed).start()
        try:
            return run_solver(sat, assumptions, part)
        except BudgetExhausted:
            pass
        finally:
            meter.conflicts_used += part.conflicts_used
        elapsed = time.monotonic() - part.started
        piece = min(2 * piece, _MAX_PIECE)
        left = meter.seconds_left()
        if left is not None and part.conflicts_used:
            rate = part.conflicts_used / max(elapsed, 1e-6)
            piece = max(_MIN_PIECE, min(piece, int(rate * min(left, _PIECE_SECONDS)) + 1))
