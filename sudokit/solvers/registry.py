"""The engine registry: every solver back end by name (``sudokit solvers``).

One :class:`EngineSpec` per back end: PySAT's CDCL solvers by PySAT's own names (only those
PySAT bundles *and* that solve incrementally under assumptions: counting and batch checking
depend on both; Kissat takes no assumptions, CryptoMiniSat and MiniSat-GH are not in the
wheels), and ``dlx``. A new back end is one module with an engine class
(:mod:`sudokit.solvers.engine`) plus one entry here.

Examples
--------
>>> "cadical195" in SOLVERS, ENGINES["dlx"].budgets
(True, ('seconds', 'nodes'))
>>> resolve_solver("g4")
'glucose4'
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pysat.solvers import SolverNames

from .._accel import mode
from ..errors import MissingExtraError, ResourceError, SolverError, UnsupportedTaskError
from ..problems import PROBLEMS, kinds_where, problem_kind, resolve
from ..refs import closest, first_line, is_ref, load_ref, registry_entry
from .budget import Budget
from .engine import Engine
from .portfolio import portfolio_solver

__all__ = ["BUDGET_FIELDS", "run_needs", "SOLVERS", "EXACT_SOLVERS", "CP_SOLVERS",
           "DEFAULT_SOLVER", "ENGINES", "ALL_KINDS",
           "EngineSpec", "FAST_GRID_MAX_SIDE", "FAST_GRID_SOLVER", "check_engine", "default_solver",
           "engine_spec", "grid_solver", "open_engine", "resolve_solver", "shares_within",
           "supports_budget", "usable"]

_KNOWN: dict[str, str] = {
    "cadical195": "CaDiCaL 1.9.5 (Biere et al.): modern CDCL",
    "cadical153": "CaDiCaL 1.5.3: earlier CaDiCaL release",
    "cadical103": "CaDiCaL 1.0.3: first CaDiCaL release in PySAT",
    "cadical300": "CaDiCaL 3.0.0: newest CaDiCaL release in PySAT",
    "glucose3": "Glucose 3.0 (Audemard and Simon): LBD-based clause deletion",
    "glucose4": "Glucose 4.1: Glucose with improved restarts",
    "glucose42": "Glucose 4.2.1: latest Glucose",
    "gluecard3": "Gluecard 3.0: Glucose with native cardinality constraints",
    "gluecard4": "Gluecard 4.1: Glucose 4 with native cardinality constraints",
    "lingeling": "Lingeling (Biere): inprocessing CDCL; no time or conflict budgets",
    "maplechrono": "MapleLCMDistChronoBT: chronological backtracking, SAT Race 2018 winner",
    "maplecm": "MapleCM: Maple with clause minimisation",
    "maplesat": "MapleSAT: learning-rate branching heuristic",
    "mergesat3": "MergeSat 3: MiniSat descendant merging several techniques",
    "minicard": "Minicard: MiniSat with native cardinality constraints",
    "minisat22": "MiniSat 2.2 (Een and Sorensson): the classic CDCL reference",
    "minisatep": "MiniSat with external propagation hooks",
    "ergo": "Ergo: a CDCL solver bundled with recent PySAT development releases",
}

# the installed PySAT decides which of these exist
SOLVERS: dict[str, str] = {name: text for name, text in _KNOWN.items()
                           if hasattr(SolverNames, name)}

DEFAULT_SOLVER = "cadical195"

#: solvers that work on the exact cover form instead of CNF
EXACT_SOLVERS: dict[str, str] = {
    "dlx": "Knuth's Algorithm X with dancing links (DLX1 layout, numba): exact cover",
}


#: the exact search methods Takano, de Freitas and Sa compare (section 4), on the unit model
#: (grids and graphs, up to 64 values: one bit mask per cell)
CP_SOLVERS: dict[str, str] = {
    "backtrack": "pure backtracking: cells and values in order, no pruning (Takano et al., "
                 "sec. 4); give it a budget; <= 64 values",
    "fcmrv": "backtracking with forward checking and minimum remaining values (Skiena, "
             "Algorithm Design Manual 7.3); <= 64 values",
    "bitset": "backtracking on bit-mask candidate sets, fewest candidates first (Takano et "
              "al., sec. 4); <= 64 values",
    "norvig": "constraint propagation, naked + hidden singles, MRV search (Norvig 2006); "
              "<= 64 values",
    "takano": "Norvig's propagation on bit vectors, O(1) MRV bucket heap, naked pairs, locked "
              "candidates (Takano et al., sec. 4); <= 64 values",
}


#: every problem kind (:data:`sudokit.problems.PROBLEMS`); an engine takes these unless it says
ALL_KINDS = tuple(PROBLEMS)


class NeedsExtra:
    """What a registry entry with optional modules (``requires``, installed by the ``extra``)
    reports: which are missing, and the command that installs them."""

    requires: tuple[str, ...]
    extra: str | None

    @property
    def missing(self) -> list[str]:
        """The modules of ``requires`` that are not installed."""
        return [module for module in self.requires if importlib.util.find_spec(module) is None]

    @property
    def install(self) -> str:
        """The command that installs what it needs."""
        return f'pip install "sudokit[{self.extra}]"' if self.extra else "pip install sudokit"


@dataclass(frozen=True)
class EngineSpec(NeedsExtra):
    """A solver back end in the registry.

    ``engine`` is a ``"module:Class"`` reference (imported on first use, so numba loads only
    for the engines that need it); the class is built as ``Class(name, shape, **options)``
    (see :mod:`sudokit.solvers.engine`). ``budgets`` names the :class:`Budget` fields it
    honours; ``kinds`` the problem kinds it takes; ``counts`` whether it can count (an
    incomplete method such as GRASP only solves, and cannot prove unsatisfiability);
    ``requires``/``extra`` the optional modules it imports and the ``pip install
    "sudokit[extra]"`` that brings them.
    """

    name: str
    description: str
    engine: str
    budgets: tuple[str, ...]
    counts: bool = True
    #: the options it takes (a CNF engine: the encoding and at-most-one method; grasp: seed,
    #: alpha); a run hands each engine only its own
    options: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ALL_KINDS
    requires: tuple[str, ...] = ()
    extra: str | None = None
    #: the compiled kernel family it runs (:mod:`sudokit._accel.families`), if any
    kernels: str | None = None
    #: whether, opened for a grid shape, it answers ``count_arrays`` (an
    #: :class:`~sudokit.solvers.engine.ArrayEngine`: one call for a whole array of givens)
    arrays: bool = False


_ALL_BUDGETS = ("seconds", "conflicts")
_NO_BUDGET = {"lingeling"}

ENGINES: dict[str, EngineSpec] = {
    **{name: EngineSpec(name, text, "sudokit.solvers.sat:SATEngine",
                        () if name in _NO_BUDGET else _ALL_BUDGETS,
                        options=("encoding", "amo"))
       for name, text in SOLVERS.items()},
    "dlx": EngineSpec("dlx", EXACT_SOLVERS["dlx"], "sudokit.solvers.dlx_engine:DLXEngine",
                      ("seconds", "nodes"), kernels="dlx", arrays=True),
    # the CP search family (sudokit.solvers.cp_engine), one module per method
    **{name: EngineSpec(name, text, "sudokit.solvers.cp_engine:CPEngine", ("seconds", "nodes"),
                        kinds=kinds_where(has_cells=True), kernels=name, arrays=True)
       for name, text in CP_SOLVERS.items()},
}

#: the model-based back ends (issue 11): an integer program, a CP model, a metaheuristic; on
#: the unit model, so grids of any box shape, Latin squares and graphs, never CNF or xc
_UNIT_KINDS = kinds_where(has_cells=True)
ENGINES.update({
    "ilp": EngineSpec("ilp", "binary integer program (Bartlett et al. 2008), branch and cut "
                      "with HiGHS", "sudokit.solvers.ilp:ILPEngine", ("seconds",),
                      kinds=_UNIT_KINDS, requires=("highspy",), extra="ilp"),
    "cpsat": EngineSpec("cpsat", "AllDifferent per unit (Simonis 2005), OR-Tools CP-SAT with "
                        "one worker", "sudokit.solvers.cpsat:CPSATEngine",
                        ("seconds", "conflicts"), kinds=_UNIT_KINDS, requires=("ortools",),
                        extra="cp"),
    "grasp": EngineSpec("grasp", "GRASP: randomized greedy construction and hill climbing "
                        "(Takano, de Freitas and Sa); --nodes counts iterations; 10 s default",
                        "sudokit.solvers.grasp:GRASPEngine", ("seconds", "nodes"), counts=False,
                        options=("seed", "alpha"), kinds=_UNIT_KINDS, kernels="grasp"),
    # issue 29: one hard instance at a time (25x25, 36x36, Latin squares at the phase
    # transition), not many easy ones
    "cp": EngineSpec("cp", "CP search for large hard grids: AllDifferent by matching (Regin), "
                     "maxSD branching (Zanarini and Pesant), dom/wdeg, Luby restarts; "
                     "<= 64 values", "sudokit.solvers.hard_engine:HardCPEngine",
                     ("seconds", "nodes"), options=("seed",), kinds=_UNIT_KINDS, kernels="cp"),
    # issue 29: the portfolio's engine alone for a first slice, then it and its rule's rival
    # in two child processes, the first decided answer wins
    "race": EngineSpec("race", "two engines on two cores, first decided answer wins: the "
                       "portfolio's engine for 1 s, then it and a rival (cp, cadical195) in "
                       "two processes", "sudokit.solvers.race:RaceEngine", ("seconds",),
                       options=("seed",), kinds=_UNIT_KINDS),
})


def resolve_solver(name: str | EngineSpec | type[Any]) -> str:
    """Canonical name: ``dlx``, or the PySAT name for it or any of PySAT's aliases (``g4``...).

    An :class:`EngineSpec`, an engine class or a ``"module:attribute"`` string naming either
    (:func:`engine_spec`) gives the name of its entry in :data:`ENGINES`; one that is not
    there has no name to look up, and is a :class:`~sudokit.errors.SolverError` (hand it to
    :func:`open_engine` or :func:`check_engine`, which take it as it is).

    Examples
    --------
    >>> resolve_solver("g4"), resolve_solver(ENGINES["dlx"])
    ('glucose4', 'dlx')
    """
    unknown = (f"unknown solver {name!r}; {closest(name, ENGINES)}run 'sudokit solvers' to "
               "list them")
    if not isinstance(name, str) or is_ref(name):
        try:
            spec = engine_spec(name)
            if ENGINES.get(spec.name) != spec:
                raise SolverError(f"solver {spec.name!r} is not in the registry, so it has no "
                                  "name; open_engine and check_engine take it as it is")
        except SolverError as err:
            if isinstance(name, str):       # the command line's --solver: as for any name
                err.with_cli(unknown)
            raise
        return spec.name
    wanted = name.strip().lower()
    if wanted in ENGINES:
        return wanted
    for canonical in SOLVERS:
        if wanted in getattr(SolverNames, canonical, ()):
            return canonical
    raise SolverError(unknown)


def engine_spec(engine: str | EngineSpec | type[Any]) -> EngineSpec:
    """The registry entry of a solver, however it is named: what every lookup function takes.

    Parameters
    ----------
    engine : str, EngineSpec or class
        A name of :data:`ENGINES` or one of PySAT's aliases (``"g4"``); an
        :class:`EngineSpec` (returned as it is, registered or not); an engine class (see
        :mod:`sudokit.solvers.engine`, built as ``Class(name, shape, **options)``); or a
        ``"module:attribute"`` string naming a spec or a class. A class gets a spec of its
        own, named by its ``"module:Class"`` and described by its docstring's first line;
        the class attributes ``budgets``, ``counts``, ``options`` and ``kinds``, where it
        sets them, say what it honours (by default: no budgets, it counts, no options, every
        kind).

    Raises
    ------
    SolverError
        An unknown name, a reference that names nothing (one line: why), or an object that
        is neither a spec nor a class.

    Examples
    --------
    >>> engine_spec("g4").name, engine_spec(ENGINES["dlx"]) is ENGINES["dlx"]
    ('glucose4', True)
    >>> from sudokit.solvers.engine import EngineBase
    >>> class Mine(EngineBase):
    ...     "Tries every grid."
    ...     budgets = ("seconds",)
    >>> spec = engine_spec(Mine)
    >>> spec.name.endswith(":Mine"), spec.description, spec.budgets, spec.counts
    (True, 'Tries every grid.', ('seconds',), True)
    """
    return registry_entry(engine, EngineSpec, _is_class, _class_spec, _named_engine, "engine",
                          "an engine class", SolverError)


def _is_class(engine: object) -> bool:
    return isinstance(engine, type)


def _named_engine(engine: object) -> EngineSpec:
    if not isinstance(engine, str):
        raise SolverError(f"expected a solver name, an EngineSpec or an engine class, got "
                          f"{engine!r}")
    return ENGINES[resolve_solver(engine)]


def _class_spec(engine: type[Any], ref: str) -> EngineSpec:
    """The ad hoc spec of engine class ``engine``, named ``ref`` (see :func:`engine_spec`)."""
    return EngineSpec(ref, first_line(engine, ref), ref,
                      tuple(getattr(engine, "budgets", ())),
                      counts=bool(getattr(engine, "counts", True)),
                      options=tuple(getattr(engine, "options", ())),
                      kinds=tuple(getattr(engine, "kinds", ALL_KINDS)))


def supports_budget(name: str | EngineSpec | type[Any]) -> bool:
    """Whether the solver honours time budgets (SAT: through conflict-bounded slices)."""
    return "seconds" in engine_spec(name).budgets


def check_engine(name: str | EngineSpec | type[Any], kind: str | None = None,
                 task: str = "solve") -> EngineSpec:
    """The spec of engine ``name`` (anything :func:`engine_spec` takes) after checking that it
    is installed, takes ``kind`` and can do ``task`` (``"solve"`` or ``"count"``).

    Raises
    ------
    MissingExtraError
        Its optional dependency is not installed (the message names the install command).
    UnsupportedTaskError
        It does not take that kind of problem, or cannot count.

    Examples
    --------
    >>> check_engine("dlx", "sudoku", "count").name
    'dlx'
    """
    spec = engine_spec(name)
    missing = spec.missing
    if missing:
        raise MissingExtraError(f"solver {spec.name} needs {', '.join(missing)}, which is not "
                                f"installed: {spec.install}")
    if kind is not None and kind not in spec.kinds:
        raise UnsupportedTaskError(f"solver {spec.name} does not take {kind} instances (it "
                                   f"takes {', '.join(spec.kinds)})")
    if task == "count" and not spec.counts:
        raise UnsupportedTaskError(f"solver {spec.name} cannot count or prove that no "
                                   "solution exists; it only solves (use dlx or a SAT solver)")
    return spec


#: grids up to this side go to the CP kernel below when no solver is named: in
#: benchmarks/solver_family.py it beats dlx and every SAT solver on 9x9 and 16x16 (uniqueness of
#: the 49,158 17-clue puzzles: takano 86,000/s, dlx 21,000/s, cadical195 5,700/s in-process);
#: beyond, the portfolio (:mod:`sudokit.solvers.portfolio`) picks by family and side
FAST_GRID_MAX_SIDE = 16
FAST_GRID_SOLVER = "takano"


def usable(name: str) -> bool:
    """Whether engine ``name`` is in the registry and installed.

    >>> usable("dlx"), usable("nosuch")
    (True, False)
    """
    spec = ENGINES.get(name)
    return spec is not None and not spec.missing


def grid_solver(grid: Any, task: str = "solve") -> str:
    """The engine for a grid when none is named (the grid kinds' ``solver_rule``): the
    portfolio's choice for its family, side and ``task`` (``"solve"`` or ``"count"``:
    :func:`~sudokit.solvers.portfolio.portfolio_solver`, among the :func:`usable` engines),
    else :data:`DEFAULT_SOLVER`.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import sudoku
    >>> [grid_solver(sudoku(np.zeros((n, n), dtype=int))) for n in (9, 100)]
    ['takano', 'cadical195']
    >>> grid_solver(sudoku(np.zeros((25, 25), dtype=int)))
    'cadical195'
    """
    return portfolio_solver(grid, usable, task) or DEFAULT_SOLVER


#: the :class:`Budget` fields an engine may honour (its ``budgets``)
BUDGET_FIELDS = ("seconds", "conflicts", "nodes")


def run_needs(budget: Budget, **options: Any) -> frozenset[str]:
    """What a run asks of its engine, for :func:`default_solver`: the budget fields set and
    the options given (not None), whether the command line or a library call
    made the run.

    Examples
    --------
    >>> sorted(run_needs(Budget(conflicts=10), encoding="reduced", amo=None))
    ['conflicts', 'encoding']
    """
    needs = {name for name in BUDGET_FIELDS if getattr(budget, name) is not None}
    needs.update(name for name, value in options.items() if value is not None)
    return frozenset(needs)


def default_solver(instance: Any, needs: Iterable[str] = (), task: str = "solve") -> str:
    """The engine used when none is named: the kind's rule for this instance (grids: by side,
    :func:`grid_solver`), else the kind's own (dlx for exact cover), else
    :data:`DEFAULT_SOLVER`.

    ``needs`` are the options and :class:`Budget` fields the user set (``"encoding"``,
    ``"conflicts"`` ...): a rule's choice that does not take them all gives way to the kind's
    static default, so ``--conflicts`` or ``--encoding`` alone still mean a SAT solver.
    ``instance`` may also be a kind name (then no rule applies). ``task`` (``"solve"`` or
    ``"count"``) goes to the rule: the portfolio may pick another engine to count.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import sudoku
    >>> empty = sudoku(np.zeros((9, 9), dtype=int))
    >>> default_solver(empty), default_solver(empty, {"conflicts"}), default_solver("xc")
    ('takano', 'cadical195', 'dlx')
    """
    kind = problem_kind(instance)
    fallback = kind.default_solver or DEFAULT_SOLVER
    if kind.solver_rule is None or isinstance(instance, str):
        return fallback
    chosen = resolve(kind.solver_rule)(instance, task)
    spec = ENGINES[chosen]
    if any(need not in spec.options and need not in spec.budgets for need in needs):
        return fallback
    return chosen  # type: ignore[no-any-return]


def open_engine(name: str | EngineSpec | type[Any] | None = None, shape: Any = None,
                **options: Any) -> Engine:
    """Open an engine by name (see :mod:`sudokit.solvers.engine`); use it in a ``with`` block.

    Parameters
    ----------
    name : str, EngineSpec or class, optional
        A name from :data:`ENGINES` or a PySAT alias; default :data:`DEFAULT_SOLVER`. Also
        a spec, an engine class or a ``"module:attribute"`` string naming either
        (:func:`engine_spec`): a user's own engine, not in the registry.
    shape : instance, optional
        Share one solver among instances of this instance's shape (their givens change).
    **options
        ``encoding`` and ``amo`` for the CNF or exact cover the engine builds.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import sudoku
    >>> empty = sudoku(np.zeros((4, 4), dtype=int))
    >>> with open_engine("dlx", shape=empty) as dlx:
    ...     [outcome.count for outcome in dlx.count_many([empty, empty], limit=300)]
    [288, 288]
    """
    spec = check_engine(name or DEFAULT_SOLVER, None if shape is None else shape.kind)
    mode.prepare(spec.kernels)   # the command line compiles a missing family first
    engine_class = name if isinstance(name, type) else load_ref(spec.engine, "engine",
                                                                 SolverError)
    return engine_class(spec.name, shape, **options)  # type: ignore[no-any-return]


def shares_within(engine_class: Any, instance: Any, encoding: str | None, budget: Budget,
                  amo: str | None = None) -> bool:
    """Whether instances like ``instance`` should share one engine of ``engine_class`` opened
    for their shape: the engine says sharing pays (``shares``) and what it builds for the
    shape fits in the budget's ``memory`` (its ``check_memory``, when it has one). When that
    does not fit, the instances go one by one, each refused or answered as one instance on
    its own is (the one-instance road builds a smaller structure: DLX's reduced cover).

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import sudoku
    >>> from sudokit.solvers.dlx_engine import DLXEngine
    >>> empty = sudoku(np.zeros((9, 9), dtype=int))
    >>> [shares_within(DLXEngine, empty, None, Budget(memory=m)) for m in (None, 1024)]
    [True, False]
    """
    if not engine_class.shares(instance, encoding):
        return False
    check = getattr(engine_class, "check_memory", None)
    if check is None:
        return True
    try:
        check(instance, budget, encoding, amo)
    except ResourceError:
        return False
    return True
