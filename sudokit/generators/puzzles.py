"""Unique puzzles by removing clues from a full grid, proving uniqueness at every step.

This is approach 3 of Simonis ("Sudoku as a constraint problem", section 8): start from a
full grid and remove clues one at a time (or one symmetry orbit at a time) in random order,
keeping a removal only when the puzzle still has exactly one solution. One pass over all the
clues gives a *locally minimal* puzzle: removing any remaining clue (orbit) gives several
solutions, since a clue that could not go earlier cannot go later either (fewer clues, more
solutions). With a symmetry that proves only that no whole orbit can go
(``extra["symmetric_minimal"]``); ``minimal`` is then True only when each clue, tested
alone after the pass, is needed too (the puzzle is never changed by that test).

Uniqueness checks (``checker``): every engine of the engine registry
(:data:`~sudokit.solvers.registry.ENGINES`) that counts Sudoku puzzles, opened through its
entry, which also says what its budget per test counts (:func:`per_test_budget`); dlx and
takano run their passes as kernels of their own (:data:`KERNEL_PASSES`):

``"auto"`` (the default)
    ``"takano"`` for the modes whose tests all run to the end (``"minimal"``, ``"clues"``:
    every exact checker proves the same removals there, so the puzzles are those ``"dlx"``
    makes) up to :data:`AUTO_TAKANO_MAX_SIDE` (measured on minimal puzzles: at 9x9 about 5
    times as many puzzles a second as DLX, at 16x16 about 30 times; at 25x25 and 36x36 both
    get through tests at about the same rate); ``"dlx"`` otherwise: for ``"unique"`` (whose
    test budget is in DLX nodes), for any puzzle with a node budget, and for larger grids.
``"dlx"``
    One dancing-links structure per grid shape, built once from the empty grid's exact cover;
    every test preselects the remaining clues and counts covers up to 2. The removal pass runs
    on the DLX engine's structure in a resumable numba kernel, a bounded slice of work per call
    (:mod:`sudokit.generators.removal`), so the clock and Ctrl-C are seen every few tens of
    milliseconds whatever the grid size.
``"sat"``
    One incremental SAT solver per shape (the default SAT engine opened for the shape,
    :class:`~sudokit.solvers.sat.SATEngine`), the clues passed as assumptions.
``"takano"``
    The whole removal pass of a puzzle in one resumable kernel on the takano CP kernels
    (:mod:`sudokit.generators.cp_removal`): no Python per test, each test a search for a
    second solution only, in bounded slices like the DLX pass (the test budget of
    ``"unique"`` mode is in takano search nodes).
``"norvig"``, ``"bitset"``, ``"fcmrv"``, ``"backtrack"``
    The CP search engine of that name opened for the shape
    (:mod:`sudokit.solvers.cp_engine`), each test one count to 2 (as with ``"sat"``; the test
    budget of ``"unique"`` mode is in search nodes).

Modes: ``"minimal"`` (every test runs to the end, so minimality is proved), ``"clues"`` (stop
at a target clue count) and ``"unique"`` (the default: each test gets a node or conflict
budget; a clue whose test runs out is kept, so the puzzle is unique but maybe not minimal).

Time budgets (``make(budget=Budget(seconds=...))``, per puzzle; the clock starts when the
puzzle's generation starts, so it covers the full grid too): in ``"unique"`` mode, running out
stops the removal and the puzzle found so far is returned; it is still unique (every kept
removal was proved) but not minimal; so it is with a best-effort clue target
(``make("clues", k, best_effort=True)``), which returns the puzzle with the fewest clues so
far. In ``"minimal"``, ``"clues"`` and ``"full"`` modes the promise cannot be kept and
:class:`~sudokit.errors.BudgetExhausted` is raised, as in every mode when no full grid was
made in time. Without a budget, ``"unique"`` puzzles above 25x25 get
:func:`~.budgets.default_time_limit` (``n^2 / 100`` seconds: 13 s at 36x36, 41 s at 64x64),
since a full removal pass there takes many minutes.

Examples
--------
>>> gen = PuzzleGenerator(4, (2, 2), seed=1)
>>> p = gen.make(mode="minimal")
>>> p.clues == int((p.puzzle > 0).sum()), p.unique, p.minimal
(True, True, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..errors import BudgetExhausted, InstanceError, SolverError
from ..instances import GridPuzzle
from ..instances.variants import parse_variants
from ..problems import option_kinds
from ..solvers.budget import Budget, Meter
from ..solvers.registry import (
    DEFAULT_SOLVER,
    ENGINES,
    SOLVERS,
    EngineSpec,
    engine_spec,
    open_engine,
)
from .budgets import GenerationStatus, PuzzleClock, default_time_limit
from .cp_removal import CPRemovalPass, CPScratch
from .fills import FillLike, fill_strategy, prepare_fill
from .grids import SEARCH_MAX_SIDE, check_shape, random_grid
from .removal import SLICE_WORK, BaseRemovalPass, RemovalPass
from .variant_grids import random_regions, random_variant_grid

__all__ = ["SYMMETRIES", "MODES", "CHECKERS", "GeneratedPuzzle", "PuzzleGenerator",
           "checker_spec", "per_test_budget", "symmetry_orbits", "generate_puzzles"]

SYMMETRIES = ("none", "rotational", "quarter", "diagonal", "antidiagonal", "horizontal",
              "vertical", "dihedral")
MODES = ("unique", "minimal", "clues", "full")


def _checkers() -> tuple[str, ...]:
    """The checkers: ``"auto"``, and every engine of the registry that counts Sudoku puzzles,
    PySAT's solvers as one, ``"sat"`` (the default SAT solver), which ``--checker`` lists
    after dlx."""
    boxed = option_kinds("box")  # the kinds of puzzles with boxes: what `generate sudoku` makes
    engines = [name for name, spec in ENGINES.items()
               if spec.counts and set(boxed) & set(spec.kinds) and name not in SOLVERS]
    after = engines.index("dlx") + 1
    return ("auto", *engines[:after], "sat", *engines[after:])


#: the back ends that can prove uniqueness (see the module): read from the engine registry
CHECKERS = _checkers()
#: the modes whose removal tests all run to the end: any exact checker removes the same clues
EXACT_MODES = ("minimal", "clues")
#: the largest side on which checker ``"auto"`` uses takano (see the module)
AUTO_TAKANO_MAX_SIDE = 16


def checker_spec(checker: str) -> EngineSpec:
    """The engine registry's entry for a checker of :data:`CHECKERS` (``"sat"``: the default
    SAT solver; ``"auto"`` is resolved per puzzle first, by
    :meth:`PuzzleGenerator.checker_for`).

    Examples
    --------
    >>> checker_spec("sat").name, checker_spec("norvig").budgets
    ('cadical195', ('seconds', 'nodes'))
    """
    return engine_spec(DEFAULT_SOLVER if checker == "sat" else checker)


def per_test_budget(spec: EngineSpec) -> str | None:
    """The :class:`~sudokit.solvers.budget.Budget` field of a checker's budget per removal
    test in ``"unique"`` mode: search nodes where its engine counts them, else conflicts,
    else None (it honours time only).

    Examples
    --------
    >>> [per_test_budget(checker_spec(c)) for c in ("norvig", "sat", "cpsat", "ilp")]
    ['nodes', 'conflicts', 'conflicts', None]
    """
    return next((name for name in ("nodes", "conflicts") if name in spec.budgets), None)


def _dlx_pass(gen: PuzzleGenerator, solution, starts, cells, target: int, test_nodes: int,
              work: int, keep=None) -> RemovalPass:
    return RemovalPass(gen._engine("dlx"), solution, starts, cells, target, test_nodes,
                       keep=keep, work=work)


def _takano_pass(gen: PuzzleGenerator, solution, starts, cells, target: int,
                 test_nodes: int, work: int, keep=None) -> CPRemovalPass:
    return CPRemovalPass(gen._scratch(), solution, starts, cells, target, test_nodes,
                         work=work, keep=keep)


#: the checkers whose removal pass is one resumable kernel (:mod:`.removal` on the DLX
#: engine's links, :mod:`.cp_removal` on the takano kernels), each opening a pass for a
#: generator; every other checker counts with its engine, one test at a time
KERNEL_PASSES: dict[str, Callable[..., BaseRemovalPass]] = {"dlx": _dlx_pass,
                                                            "takano": _takano_pass}


def _images(i, j, n, symmetry: str):
    m = n - 1
    ops = {
        "none": [(i, j)],
        "rotational": [(i, j), (m - i, m - j)],
        "quarter": [(i, j), (j, m - i), (m - i, m - j), (m - j, i)],
        "diagonal": [(i, j), (j, i)],
        "antidiagonal": [(i, j), (m - j, m - i)],
        "horizontal": [(i, j), (i, m - j)],
        "vertical": [(i, j), (m - i, j)],
    }
    ops["dihedral"] = ops["quarter"] + [(j, i), (m - j, m - i), (i, m - j), (m - i, j)]
    return ops[symmetry]


def symmetry_orbits(n: int, symmetry: str = "none") -> list[np.ndarray]:
    """The cells (flat indices) that a symmetric clue pattern keeps or removes together.

    Examples
    --------
    >>> [o.tolist() for o in symmetry_orbits(2, "rotational")]
    [[0, 3], [1, 2]]
    """
    if symmetry not in SYMMETRIES:
        raise InstanceError(f"unknown symmetry {symmetry!r}; choose one of "
                            + ", ".join(SYMMETRIES))
    i, j = np.divmod(np.arange(n * n), n)
    images = np.array([a * n + b for a, b in _images(i, j, n, symmetry)])  # (ops, cells)
    lead = images.min(axis=0)
    return [np.unique(images[:, cell]) for cell in np.flatnonzero(lead == np.arange(n * n))]


#: the kernel groups already compiled or loaded in this process (see _prepare_kernels)
_kernels_ready: set[str] = set()


def _prepare_kernels(*backends: str, bands: bool = False) -> None:
    """Compile (or load from numba's cache) the kernels a puzzle uses, once per process, by
    making 4x4 puzzles: a puzzle's time budget is then not spent compiling, which after an
    upgrade takes seconds (the kernels' types do not depend on the grid size). Always the
    search fill; the removal passes of the ``backends`` among ``"dlx"`` and ``"takano"``
    (a ``"dlx"`` count is a pass too); with ``bands`` the random matchings of the SAT fill.
    Only what is asked for: loading a cached kernel costs milliseconds, and a process that
    makes minimal 9x9 puzzles needs neither DLX nor the matchings."""
    wanted = {"fill", *(b for b in backends if b in KERNEL_PASSES)}
    if bands:
        wanted.add("bands")
    todo = wanted - _kernels_ready
    if not todo:
        return
    _kernels_ready.update(todo)                          # (the 4x4 makes below come back here)
    if "bands" in todo:
        from .bands import random_bands

        random_bands(4, (2, 2), 1, np.random.default_rng(0))
    if "dlx" in todo:                                    # (each make fills a grid too)
        with PuzzleGenerator(4, (2, 2), seed=0, checker="dlx", fill="search") as gen:
            gen.make("minimal", budget=Budget())
            gen.make(budget=Budget(nodes=1))             # a pass cut short: close_test
    if "takano" in todo:
        with PuzzleGenerator(4, (2, 2), seed=0, checker="takano", fill="search") as gen:
            gen.make("minimal", budget=Budget())
            assert gen._cp is not None
            starts, cells = gen._order()
            CPRemovalPass(gen._cp, gen.full_grid(), starts, cells, 0, -1).close()
    if todo == {"fill"}:
        random_grid(4, (2, 2), np.random.default_rng(0), method="search")


@dataclass
class GeneratedPuzzle:
    """A generated puzzle with its solution and the record of the checks that proved it.

    ``budget_exhausted`` says that the budget stopped the removal early (``"unique"`` mode:
    the puzzle is unique, but not minimal). ``minimal``: removing any single clue gives
    several solutions (proved); with a symmetry, ``extra["symmetric_minimal"]`` says
    whether removing any whole orbit does.
    """

    puzzle: np.ndarray
    solution: np.ndarray
    box: tuple[int, int] | None       #: None for a jigsaw (its regions replace the boxes)
    clues: int
    seconds: float
    check_seconds: float
    checks: int
    checker: str
    unique: bool
    minimal: bool
    verified: str | None = None
    extra: dict = field(default_factory=dict)
    budget_exhausted: bool = False
    variants: tuple[str, ...] = ()    #: the puzzle's variants (``jigsaw`` with ``regions``)
    regions: np.ndarray | None = None

    @property
    def instance(self) -> GridPuzzle:
        """The puzzle as a :class:`~sudokit.instances.GridPuzzle` (variants and regions
        included)."""
        return GridPuzzle(self.puzzle, self.box, variants=self.variants, regions=self.regions)


@dataclass(frozen=True)
class _Plan:
    """What the removal of one puzzle aims at (:meth:`PuzzleGenerator.make`'s request)."""

    mode: str
    clues: int | None
    attempts: int         #: removal orders to try (towards a clue target; else one)
    target: int           #: stop removing at this many clues (0: what uniqueness allows)
    test_budget: int      #: the budget of each removal test ("unique" mode; else -1, none)
    stoppable: bool       #: a budget that runs out ends the removal, not the puzzle
    best_effort: bool
    reserve: float        #: seconds kept for verify's re-check from a stoppable removal

    @classmethod
    def of(cls, mode: str, clues: int | None, attempts: int, best_effort: bool,
           test_budget: int, verify_seconds: float | None) -> _Plan:
        """The plan of a request; ``verify_seconds``: the time budget when ``verify`` is on."""
        stoppable = mode == "unique" or best_effort and mode == "clues"
        return cls(mode, clues, attempts if mode == "clues" else 1,
                   clues if mode == "clues" and clues is not None else 0,
                   test_budget if mode == "unique" else -1, stoppable, best_effort,
                   0.2 * verify_seconds if stoppable and verify_seconds else 0.0)


@dataclass
class _Removals:
    """The removal passes of one puzzle so far: the clues of the best (fewest kept) with its
    full grid and fill statistics, and the totals (tests, seconds of checking)."""

    keep: np.ndarray | None = None
    solution: np.ndarray | None = None
    fill: dict = field(default_factory=dict)
    tests: int = 0
    seconds: float = 0.0
    undecided: int = 0          #: tests of the last pass that ran out of their budget
    exhausted: bool = False     #: the puzzle's budget ended the removal early

    @property
    def fewest(self) -> int:
        """Clues kept by the best pass."""
        assert self.keep is not None
        return int(self.keep.sum())

    def puzzle(self, n: int) -> np.ndarray:
        """The best pass's puzzle: the clues it kept of its full grid, ``(n, n)``."""
        assert self.keep is not None and self.solution is not None
        return np.where(self.keep, self.solution.reshape(-1), 0).reshape(n, n)

    def offer(self, keep: np.ndarray, solution: np.ndarray, fill: dict) -> None:
        """Keep a pass's clues when they are fewer than the best so far."""
        if self.keep is None or keep.sum() < self.keep.sum():
            self.keep, self.solution, self.fill = keep, solution, fill


def _orbit_minimal(plan: _Plan, found: _Removals) -> bool:
    """Every removal test of the best pass ran to the end, not towards a clue target: no
    clue (no orbit, with a symmetry) can go without a second solution."""
    return plan.mode != "clues" and found.undecided == 0 and not found.exhausted


class PuzzleGenerator:
    """Generate unique Sudoku puzzles of one shape, deterministically from a seed.

    Parameters
    ----------
    n : int
        Side of the grid.
    box : tuple of int
        ``(r, c)`` box shape.
    seed : int, optional
        Seed of :func:`numpy.random.default_rng`; the same seed and options give the same
        puzzles (unless a time budget cuts a removal short: then the result depends on the
        machine's speed).
    checker : str
        Back end that proves uniqueness at every step: one of :data:`CHECKERS` (``"auto"``:
        takano in the modes whose tests run to the end, dlx otherwise; see the module).
    verify : bool
        Re-check every finished puzzle with the other back end (SAT, or DLX after SAT or a
        CP checker).
    symmetry : str
        One of :data:`SYMMETRIES`.
    budget : int, optional
        Per-test budget in ``"unique"`` mode: DLX or CP search nodes, or SAT conflicts
        (default ``20 n^2``).
        (The budget of a whole puzzle is :meth:`make`'s ``budget``.)
    fill : str, FillStrategy or callable
        How full grids are made: a strategy of :data:`~sudokit.generators.fills.FILLS`
        (:func:`~sudokit.generators.grids.random_grid`), or a user's own (anything
        :func:`~sudokit.generators.fills.fill_strategy` takes).
    alpha : float, optional
        The fill strategy's parameter, where it takes one (its default when None). What the
        last fill reported (strategy, restarts, nodes, seconds) is in ``fill_stats`` and in
        each puzzle's ``extra["fill"]``.
    variants : tuple of str
        Puzzle variants (:mod:`~sudokit.instances.variants`): their units join the grid's,
        so every check proves uniqueness of the variant puzzle; full grids then come from
        :func:`~sudokit.generators.variant_grids.random_variant_grid` (``fill`` must be
        ``"auto"``). ``jigsaw`` takes ``regions``, or draws a random map from the seed
        (:func:`~sudokit.generators.variant_grids.random_regions`), which every puzzle of
        the generator shares; ``box`` is then None.
    regions : array_like, optional
        A jigsaw's ``(n, n)`` region map.

    Examples
    --------
    >>> gen = PuzzleGenerator(9, (3, 3), seed=5, verify=True)
    >>> p = gen.make(mode="clues", clues=40)
    >>> p.clues, p.unique, p.verified
    (40, True, 'sat')
    >>> x = PuzzleGenerator(9, (3, 3), seed=2, variants=["x"]).make(mode="minimal")
    >>> x.instance.variants, x.instance.is_solution(x.solution), x.minimal
    (('diagonal',), True, True)
    """

    def __init__(self, n: int, box: tuple[int, int] | None, seed: int | None = None,
                 checker: str = "auto", verify: bool = False, symmetry: str = "none",
                 budget: int | None = None, fill: FillLike = "auto", alpha: float | None = None,
                 variants=(), regions=None):
        variants = parse_variants(variants)
        jigsaw = "jigsaw" in variants or regions is not None
        if not jigsaw:
            check_shape(n, box)
        elif not 1 <= n <= 64:
            raise InstanceError(f"a jigsaw side must lie in 1..64, got {n}")
        named = fill if isinstance(fill, str) else fill_strategy(fill).name
        if variants and named != "auto":
            raise InstanceError(f"the {named} fill builds classic grids; a variant grid is "
                                "filled through its units (leave the fill at auto)").with_cli(
                f"--fill {named} builds classic grids; a variant grid is filled through its "
                "units (leave --fill out)")
        self.fill, self._strategy = fill, fill_strategy(fill)
        self.alpha = self._strategy.check_alpha(alpha)
        self.fill_stats: dict = {}
        if checker not in CHECKERS:
            raise SolverError(f"unknown checker {checker!r}; choose one of "
                              + ", ".join(CHECKERS))
        self.n, self.checker, self.verify = n, checker, verify
        self.box = None if jigsaw or box is None else (int(box[0]), int(box[1]))
        self.rng = np.random.default_rng(seed)
        self.orbits = symmetry_orbits(n, symmetry)
        # the orbits as a -1 padded table, for drawing removal orders without Python loops
        sizes = np.array([len(o) for o in self.orbits], dtype=np.int64)
        self._orbit_sizes = sizes
        self._orbit_table = np.full((len(sizes), int(sizes.max())), -1, dtype=np.int64)
        for k, orbit in enumerate(self.orbits):
            self._orbit_table[k, :len(orbit)] = orbit
        self.budget = budget if budget is not None else 20 * n * n
        self._engines: dict = {}
        self._work = SLICE_WORK          # learnt by the removal passes (see removal.py)
        self._cp: CPScratch | None = None  # what the takano passes share (cp_removal.py)
        self.template = GridPuzzle(np.zeros((n, n), dtype=np.int32), self.box,
                                   variants=tuple(v for v in variants if v != "jigsaw"),
                                   regions=regions if regions is not None or not jigsaw
                                   else self._random_map(n, variants))
        self.variants, self.regions = self.template.variants, self.template.regions

    def _random_map(self, n: int, variants, tries: int = 20) -> np.ndarray:
        """A random jigsaw map (from the seed) whose grid can be completed with the other
        ``variants``."""
        others = tuple(v for v in variants if v != "jigsaw")
        for _ in range(tries):
            regions = random_regions(n, self.rng)
            template = GridPuzzle(np.zeros((n, n), dtype=np.int32), None, variants=others,
                                  regions=regions)
            try:
                random_variant_grid(template, np.random.default_rng(0), attempts=3)
            except BudgetExhausted:
                continue
            return regions
        raise InstanceError(f"no {n}x{n} jigsaw region map with a completion was found in "
                            f"{tries} tries")

    # -- back ends --------------------------------------------------------------------
    def _engine(self, backend: str):
        """The engine of ``backend`` (a name of :data:`CHECKERS`), opened once for this
        shape (:func:`checker_spec`)."""
        if backend not in self._engines:
            self._engines[backend] = open_engine(checker_spec(backend), shape=self.template)
        return self._engines[backend]

    def checker_for(self, mode: str, budget: Budget | None = None) -> str:
        """The checker that proves a puzzle of ``mode`` (``"auto"`` resolved).

        Examples
        --------
        >>> gen = PuzzleGenerator(9, (3, 3))
        >>> gen.checker_for("minimal"), gen.checker_for("unique")
        ('takano', 'dlx')
        >>> gen.checker_for("minimal", Budget(nodes=100))
        'dlx'
        """
        if self.checker != "auto":
            return self.checker
        exact = mode in EXACT_MODES and (budget is None or budget.nodes is None)
        return "takano" if exact and self.n <= AUTO_TAKANO_MAX_SIDE else "dlx"

    def _drop(self, backend: str) -> None:
        """Forget an engine whose state cannot be trusted (reopened on next use)."""
        engine = self._engines.pop(backend, None)
        if engine is not None:
            engine.close()

    def count(self, givens, backend: str, limit: int = 2, budget: Budget | None = None) -> int:
        """Count the solutions of ``givens`` up to ``limit`` with ``backend`` (dlx or sat).

        DLX counts up to 2 run in bounded slices (the clock of ``budget`` is read between
        them); :class:`~sudokit.errors.BudgetExhausted` when the budget runs out.
        """
        givens = np.asarray(givens, dtype=np.int32)
        budget = budget if budget is not None else Budget()
        if backend == "dlx" and limit <= 2:
            return min(self._count_dlx(givens, budget.start(), budget.nodes), limit)
        puzzle = self.template.with_givens(givens)
        return int(self._engine(backend).count(puzzle, limit, budget)[0])

    def _count_dlx(self, givens: np.ndarray, meter: Meter, nodes: int | None = None) -> int:
        """Count up to 2 on the shared DLX structure, one bounded slice per kernel call."""
        run = RemovalPass(self._engine("dlx"), np.where(givens > 0, givens, 1),
                          np.zeros(1, np.int64), np.zeros(0, np.int64), 0, -1,
                          keep=givens > 0, check_only=True, work=self._work)
        try:
            while not run.step(nodes):
                if meter.late() or (nodes is not None and run.nodes >= nodes):
                    run.close()
                    raise BudgetExhausted("the budget ran out while counting the solutions")
        finally:
            if run.open:          # interrupted between slices: never reuse these links
                self._drop("dlx")
        return int(run.final or 0)

    # -- generation -------------------------------------------------------------------
    def full_grid(self, meter: Meter | None = None,
                  progress: Callable[[], None] | None = None) -> np.ndarray:
        """A random full grid (:func:`~sudokit.generators.grids.random_grid`, ``fill`` method);
        ``meter`` and ``progress`` as there."""
        self.fill_stats = {}
        if self.variants:
            self.fill_stats = {"strategy": "variant"}
            engine = self._engine("takano" if self.n <= AUTO_TAKANO_MAX_SIDE else "sat")
            return random_variant_grid(self.template, self.rng, meter, engine=engine)
        return random_grid(self.n, self.box, self.rng, method=self._strategy, meter=meter,
                           progress=progress, alpha=self.alpha, stats=self.fill_stats)

    def _order(self):
        """A random removal order of the orbits: ``(starts, cells)``, orbit ``k`` of the order
        being ``cells[starts[k]:starts[k + 1]]``."""
        order = self.rng.permutation(len(self.orbits))
        sizes = self._orbit_sizes[order]
        starts = np.zeros(len(order) + 1, dtype=np.int64)
        np.cumsum(sizes, out=starts[1:])
        cells = self._orbit_table[order].reshape(-1)
        if self._orbit_table.shape[1] > 1:
            cells = cells[cells >= 0]
        return starts, cells

    def _scratch(self) -> CPScratch:
        """What the takano passes of this shape share (made once, by :meth:`_set_up`)."""
        if self._cp is None:
            self._cp = CPScratch(self._engine("takano").model)
        return self._cp

    def _remove_clues(self, checker: str, solution, target: int, test_budget: int,
                      clock: PuzzleClock, reserve: float):
        """One removal pass over ``solution`` with ``checker``, in a random order of the
        orbits: ``(keep, tests, undecided, final count or None, complete)``. A checker of
        :data:`KERNEL_PASSES` runs its resumable kernel (:meth:`_run_pass`); any other counts
        with its engine, one test at a time (:meth:`_remove_clues_engine`)."""
        open_pass = KERNEL_PASSES.get(checker)
        if open_pass is None:
            return self._remove_clues_engine(checker, solution, target, test_budget, clock,
                                             reserve)
        starts, cells = self._order()
        run = open_pass(self, solution, starts, cells, target, test_budget, work=self._work)
        return self._run_pass(run, checker, clock, reserve)

    def _run_pass(self, run: BaseRemovalPass, backend: str, clock: PuzzleClock,
                  reserve: float):
        """Step a kernel pass to its end, or until the clock (``reserve`` seconds before the
        budget's end) or the puzzle's node budget runs out; reported between slices."""
        cap = clock.nodes_left()
        complete = True
        try:
            while not run.step(cap):
                clock.report("remove" if run.removing else "check", run.size - run.kept,
                             run.tests)
                if clock.out(reserve) or (cap is not None and run.nodes >= cap):
                    complete = run.removal_done
                    run.close()
                    break
        finally:
            clock.nodes_used += run.nodes
            self._work = run.work
            if run.open and run.holds_engine:   # interrupted between slices: never reuse
                self._drop(backend)             # the engine's links
        return run.keep, run.tests, run.undecided, run.final, complete

    def _remove_clues_engine(self, checker: str, solution, target: int, test_conflicts: int,
                             clock: PuzzleClock, reserve: float):
        """The removal pass of a checker without a kernel of its own: one count to 2 by its
        engine per test, the clues passed as givens (for SAT: as assumptions)."""
        solver = self._engine(checker)
        flat = solution.reshape(-1)
        keep = np.ones(flat.size, dtype=bool)
        starts, cells = self._order()
        # the per-test budget: SAT and CP-SAT count conflicts, the CP family nodes, HiGHS
        # only time (as their registry entries say)
        field = per_test_budget(checker_spec(checker))

        def count(seconds, conflicts=None):
            givens = np.where(keep, flat, 0).reshape(self.n, self.n)
            limits = {field: conflicts} if field else {}
            return solver.count(self.template.with_givens(givens), 2,
                                Budget(seconds=seconds, **limits))[0]

        tests = undecided = 0
        complete = True
        for o in range(len(starts) - 1):
            kept = int(keep.sum())
            orbit = cells[starts[o]:starts[o + 1]]
            if kept <= target:
                break
            if kept - len(orbit) < target:
                continue
            if clock.out(reserve):
                complete = False
                break
            keep[orbit] = False
            tests += 1
            try:
                found = count(clock.left(reserve), test_conflicts if test_conflicts >= 0
                              else None)
            except BudgetExhausted:
                if clock.out(reserve):
                    keep[orbit] = True
                    complete = False
                    break
                found, undecided = 2, undecided + 1
            if found != 1:
                keep[orbit] = True
            clock.report("remove", flat.size - int(keep.sum()), tests)
        final = None
        if not clock.out(reserve):
            clock.report("check", flat.size - int(keep.sum()), tests)
            try:
                final = count(clock.left(reserve))
            except BudgetExhausted:
                if not clock.out(reserve):
                    raise
        return keep, tests, undecided, final, complete

    def _budget(self, mode: str, budget: Budget | None) -> Budget:
        """The budget of one puzzle: the caller's (checked) or :func:`default_time_limit`."""
        if budget is None:
            return Budget(seconds=default_time_limit(self.n, mode))
        seconds = budget.seconds
        if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
            raise InstanceError(f"the time budget must be a finite positive number of "
                                f"seconds, got {seconds}")
        if budget.conflicts is not None:
            raise SolverError("a puzzle's budget is in seconds (and nodes with the dlx "
                              "checker), not in conflicts")
        if budget.nodes is not None and (self.checker not in ("dlx", "auto")
                                         or budget.nodes < 0):
            raise SolverError("a node budget needs the dlx checker and a count of at least 0")
        return budget

    def make(self, mode: str = "unique", clues: int | None = None, attempts: int = 20, *,
             budget: Budget | None = None,
             progress: Callable[[GenerationStatus], None] | None = None,
             best_effort: bool = False) -> GeneratedPuzzle:
        """One puzzle: ``mode`` is ``"unique"``, ``"minimal"``, ``"clues"`` or ``"full"``.

        With ``"clues"``, up to ``attempts`` removal orders (a new grid every fifth) are tried;
        if none reaches ``clues``, :class:`~sudokit.errors.InstanceError` says how close the
        best came, or with ``best_effort`` the puzzle with the fewest clues is returned
        (``extra["target_clues"]`` holds the target). With ``best_effort`` a time budget that
        runs out during the removal ends the attempts like a ``"unique"`` removal: the
        puzzle with the fewest clues so far is returned (unique, ``budget_exhausted`` set).

        Parameters
        ----------
        budget : Budget, optional
            For this puzzle, from the start of its generation: ``seconds`` (wall clock; the
            full grid, the removal, the final check and the re-check of ``verify`` together)
            and, with the dlx checker, ``nodes`` (search nodes of the uniqueness tests).
            Running out stops a ``"unique"`` removal (the puzzle so far is returned, unique
            but not minimal, ``budget_exhausted`` set; the final re-count is skipped, every
            kept removal having been proved) and raises
            :class:`~sudokit.errors.BudgetExhausted` in the other modes. With ``verify``,
            a ``"unique"`` removal leaves a fifth of the time to the re-check. Default:
            :func:`default_time_limit`.
        progress : callable, optional
            Called with a :class:`GenerationStatus` between bounded slices of the work
            (every few tens of milliseconds during a long puzzle).

        Examples
        --------
        >>> from sudokit.solvers.budget import Budget
        >>> gen = PuzzleGenerator(9, (3, 3), seed=1)
        >>> p = gen.make(budget=Budget(nodes=100))       # too few nodes for a full pass
        >>> p.unique, p.minimal, p.budget_exhausted, p.clues > 30
        (True, False, True, True)
        """
        self._check_request(mode, clues)
        budget = self._budget(mode, budget)
        checker = self.checker_for(mode, budget)
        other = self._verifier(checker)
        self._set_up(mode, checker, other)
        clock = PuzzleClock(budget, progress, self.n * self.n)
        started = time.perf_counter()
        solution = self._fill(clock)
        if mode == "full":
            return GeneratedPuzzle(solution, solution, self.box, solution.size,
                                   time.perf_counter() - started, 0.0, 0, checker,
                                   True, False, extra={"fill": dict(self.fill_stats)},
                                   variants=self.variants, regions=self.regions)
        plan = _Plan.of(mode, clues, attempts, best_effort, self.budget,
                        clock.budget.seconds if self.verify else None)
        found = self._attempts(plan, checker, solution, clock)
        puzzle = found.puzzle(self.n)
        single = None
        if _orbit_minimal(plan, found) and self._orbit_sizes.max() > 1:
            single = self._single_clues_needed(puzzle, clock, found)
        verified = self._verify(puzzle, other, clock, found) if self.verify else None
        return self._puzzle(puzzle, found, plan, checker, verified, started, single)

    # -- the steps of make ------------------------------------------------------------
    def _check_request(self, mode: str, clues: int | None) -> None:
        """:class:`~sudokit.errors.InstanceError` for an unknown mode or a clue target that
        does not fit the grid."""
        if mode not in MODES:
            raise InstanceError(f"unknown mode {mode!r}; choose one of " + ", ".join(MODES))
        cells = self.n * self.n
        if mode == "clues" and (clues is None or not 0 <= clues <= cells):
            raise InstanceError(f"the clue count must lie in 0..{cells}, got {clues}")

    def _verifier(self, checker: str) -> str:
        """The other back end that re-checks a finished puzzle (``verify``): SAT after DLX
        (or whatever ``"auto"`` chose), DLX after SAT or a CP checker."""
        return "sat" if checker == "dlx" or self.checker == "auto" else "dlx"

    def _set_up(self, mode: str, checker: str, other: str) -> None:
        """Everything set up once per process or shape, before the puzzle's clock starts: the
        kernels (:func:`_prepare_kernels`), the fill, the engines of the checker and of
        ``verify``."""
        backends = () if mode == "full" else (checker, other) if self.verify else (checker,)
        _prepare_kernels(*backends, bands=self._strategy.name == "sat" or (
            self._strategy.name == "auto" and self.n > SEARCH_MAX_SIDE))
        prepare_fill(self._strategy)
        if mode == "full":
            return
        self._engine(checker)
        if checker == "takano":
            self._scratch()
        if self.verify:
            self._engine(other)

    def _fill(self, clock: PuzzleClock) -> np.ndarray:
        """A full grid (:meth:`full_grid`) on the puzzle's clock; running out of time is the
        puzzle's :class:`~sudokit.errors.BudgetExhausted`."""
        clock.report("fill")
        try:
            return self.full_grid(clock.meter, lambda: clock.report("fill"))
        except BudgetExhausted:
            if not clock.out():
                raise
            raise clock.exhausted(f"the {self.n}x{self.n} grid was filled") from None

    def _attempts(self, plan: _Plan, checker: str, solution: np.ndarray,
                  clock: PuzzleClock) -> _Removals:
        """The removal passes of one puzzle: one, or towards a clue target up to
        ``plan.attempts`` (a new grid every fifth) until one reaches it; the best kept."""
        found = _Removals()
        fill_stats = dict(self.fill_stats)
        for attempt in range(plan.attempts):
            if attempt and attempt % 5 == 0:
                try:
                    solution = self._fill(clock)
                except BudgetExhausted:
                    if not plan.stoppable:
                        raise
                    found.exhausted = True          # (found holds a whole attempt's puzzle)
                    break
                fill_stats = dict(self.fill_stats)
            keep = self._attempt(plan, checker, solution, clock, found)
            found.offer(keep, solution, fill_stats)
            if keep.sum() <= plan.target or plan.mode != "clues" or found.exhausted:
                break
        else:
            if not plan.best_effort:
                fewest = found.fewest if found.keep is not None else self.n * self.n
                raise InstanceError(f"could not reach {plan.clues} clues in {plan.attempts} "
                                    f"attempts on a {self.n}x{self.n} grid; the fewest found "
                                    f"was {fewest}")
        if found.keep is None:
            raise InstanceError(f"attempts must be at least 1, got {plan.attempts}")
        return found

    def _attempt(self, plan: _Plan, checker: str, solution: np.ndarray, clock: PuzzleClock,
                 found: _Removals) -> np.ndarray:
        """One removal pass (:meth:`_remove_clues`), counted into ``found``: the clues it
        kept. A pass the budget cut short ends the puzzle unless the plan may stop."""
        started = time.perf_counter()
        keep, tests, undecided, final, complete = self._remove_clues(
            checker, solution, plan.target, plan.test_budget, clock, plan.reserve)
        found.seconds += time.perf_counter() - started
        found.tests += tests + (final is not None)
        found.undecided, found.exhausted = undecided, not complete
        if not complete and not plan.stoppable:
            fewest = int(keep.sum()) if found.keep is None else min(int(keep.sum()),
                                                                     found.fewest)
            raise clock.exhausted("a minimal puzzle was found" if plan.mode == "minimal" else
                                  f"a puzzle with {plan.clues} clues was found (the fewest so "
                                  f"far: {fewest})")
        if final is not None and final != 1:
            raise SolverError(f"internal check failed: the puzzle has {final} solutions")
        return keep

    def _single_clues_needed(self, puzzle: np.ndarray, clock: PuzzleClock,
                             found: _Removals) -> bool:
        """Whether every clue of a symmetric puzzle is needed on its own, not only with its
        orbit: the orbit removal proved that removing any whole orbit gives several
        solutions, so each clue of an orbit of two or more cells is tested alone (a count
        to 2 on DLX; a one-cell orbit is proved already). The first clue that can go
        answers False. The tests are counted into ``found``; the puzzle is unchanged."""
        flat = puzzle.reshape(-1)
        started = time.perf_counter()
        try:
            for orbit in self.orbits:
                if len(orbit) < 2 or not flat[orbit[0]]:      # kept or removed whole
                    continue
                for cell in orbit.tolist():
                    trial = flat.copy()
                    trial[cell] = 0
                    found.tests += 1
                    count = self.count(trial.reshape(puzzle.shape), "dlx",
                                       budget=Budget(seconds=clock.left()))
                    if count == 1:
                        return False
            return True
        except BudgetExhausted:
            raise clock.exhausted("a minimal puzzle was found") from None
        finally:
            found.seconds += time.perf_counter() - started

    def _verify(self, puzzle: np.ndarray, other: str, clock: PuzzleClock,
                found: _Removals) -> str:
        """Re-count the finished puzzle with ``other`` (``verify``), its time counted into
        ``found``; a count other than 1 is a :class:`~sudokit.errors.SolverError`."""
        clock.report("verify", puzzle.size - found.fewest, found.tests)
        started = time.perf_counter()
        try:
            count = self.count(puzzle, other, budget=Budget(seconds=clock.left()))
        except BudgetExhausted:
            raise clock.exhausted(f"the puzzle was re-checked with {other}") from None
        found.seconds += time.perf_counter() - started
        if count != 1:
            raise SolverError(f"{other} disagrees: the puzzle has {count} solutions")
        return other

    def _puzzle(self, puzzle: np.ndarray, found: _Removals, plan: _Plan, checker: str,
                verified: str | None, started: float, single: bool | None = None
                ) -> GeneratedPuzzle:
        """The :class:`GeneratedPuzzle` of the best removal: minimal when every test ran to
        the end (not towards a clue target) and, with a symmetry, when ``single`` (every
        clue is needed on its own, :meth:`_single_clues_needed`) holds too; with a symmetry
        ``extra["symmetric_minimal"]`` says whether no whole orbit can go."""
        assert found.solution is not None
        minimal = _orbit_minimal(plan, found)
        extra: dict = {"fill": found.fill}
        if self._orbit_sizes.max() > 1:
            extra["symmetric_minimal"] = minimal
            minimal = minimal and bool(single)
        if plan.mode == "clues":
            extra["target_clues"] = plan.clues
        return GeneratedPuzzle(puzzle.astype(np.int32), found.solution.astype(np.int32),
                               self.box, found.fewest, time.perf_counter() - started,
                               found.seconds, found.tests, checker, True, minimal, verified,
                               budget_exhausted=found.exhausted, extra=extra,
                               variants=self.variants, regions=self.regions)

    def reduce(self, puzzle, solution, *, budget: Budget | None = None
               ) -> GeneratedPuzzle | None:
        """``puzzle`` (clues of the full grid ``solution``) made minimal: its clues tested in
        a random order of whole orbits, each removal kept when the puzzle stays unique; None
        when ``puzzle`` itself has several solutions. The neighbourhood moves of a search
        for a wanted difficulty (:mod:`~sudokit.generators.graded`) end here.

        Examples
        --------
        >>> gen = PuzzleGenerator(9, (3, 3), seed=4)
        >>> made = gen.make("minimal")
        >>> again = gen.reduce(made.solution, made.solution)     # from the full grid
        >>> again.minimal, again.unique, bool((again.puzzle > 0).sum() < 30)
        (True, True, True)
        >>> gen.reduce(np.zeros((9, 9), int), made.solution) is None
        True
        """
        budget = self._budget("minimal", budget)
        checker = self.checker_for("minimal", budget)
        open_pass = KERNEL_PASSES.get(checker)
        if open_pass is None:
            raise SolverError(f"reducing a puzzle needs a checker with a removal kernel "
                              f"({', '.join(KERNEL_PASSES)}), not {checker}")
        self._set_up("minimal", checker, checker)
        clock = PuzzleClock(budget, None, self.n * self.n)
        started = time.perf_counter()
        flat = np.asarray(puzzle, dtype=np.int32).reshape(-1)
        full = np.asarray(solution, dtype=np.int32).reshape(self.n, self.n)
        keep = flat > 0
        starts, cells = self._order()
        whole = np.logical_and.reduceat(keep[cells], starts[:-1]) if len(cells) else keep[:0]
        chosen = [cells[starts[k]:starts[k + 1]] for k in np.flatnonzero(whole).tolist()]
        sizes = np.array([len(orbit) for orbit in chosen], dtype=np.int64)
        starts = np.zeros(len(chosen) + 1, dtype=np.int64)
        np.cumsum(sizes, out=starts[1:])
        cells = np.concatenate(chosen) if chosen else np.zeros(0, dtype=np.int64)
        run = open_pass(self, full, starts, cells, 0, -1, work=self._work, keep=keep)
        found = _Removals()
        kept, tests, undecided, final, complete = self._run_pass(run, checker, clock, 0.0)
        if not complete:
            raise clock.exhausted("the puzzle was reduced to a minimal one")
        if final != 1:          # several solutions: every removal test failed, and the check
            return None
        found.offer(kept, full, {})
        found.tests, found.undecided = tests + 1, undecided
        found.seconds = time.perf_counter() - started
        return self._puzzle(found.puzzle(self.n), found, _Plan.of("minimal", None, 1, False,
                                                                   -1, None),
                            checker, None, started, self._single_clues(found, clock))

    def _single_clues(self, found: _Removals, clock: PuzzleClock) -> bool | None:
        """:meth:`_single_clues_needed` of a reduced symmetric puzzle (None: no symmetry)."""
        if self._orbit_sizes.max() <= 1:
            return None
        return self._single_clues_needed(found.puzzle(self.n), clock, found)

    def make_where(self, accept, mode: str = "unique", clues: int | None = None,
                   attempts: int = 2000, *, budget: Budget | None = None,
                   progress: Callable[[GenerationStatus], None] | None = None,
                   best_effort: bool = False) -> GeneratedPuzzle:
        """The next puzzle that ``accept(puzzle)`` takes (e.g. one of a wanted grade); each
        puzzle made gets its own ``budget`` (see :meth:`make`, also for ``best_effort``).

        Raises :class:`~sudokit.errors.InstanceError` after ``attempts`` puzzles refused.
        """
        for _ in range(attempts):
            made = self.make(mode, clues, budget=budget, progress=progress,
                             best_effort=best_effort)
            if accept(made):
                return made
        raise InstanceError(f"none of {attempts} generated puzzles was accepted")

    def close(self) -> None:
        """Release the engines (the SAT solver holds native memory)."""
        for engine in self._engines.values():
            engine.close()
        self._engines.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def generate_puzzles(n: int, box: tuple[int, int], count: int, seed: int | None = None,
                     mode: str = "unique", clues: int | None = None, **options):
    """Yield ``count`` :class:`GeneratedPuzzle` objects (see :class:`PuzzleGenerator`).

    Examples
    --------
    >>> [p.clues > 0 for p in generate_puzzles(4, (2, 2), 3, seed=2, mode="minimal")]
    [True, True, True]
    """
    with PuzzleGenerator(n, box, seed, **options) as gen:
        for _ in range(count):
            yield gen.make(mode, clues)
