"""Solvers: engines by name (PySAT's CDCL solvers, DLX, the CP search family), counting,
uniqueness (batch runs: :mod:`sudokit.batch`).

Every back end is an engine (:mod:`sudokit.solvers.engine`) in one registry
(:data:`ENGINES`, ``sudokit solvers``), opened with :func:`open_engine`; budgets are one
:class:`Budget`.
"""

from importlib import import_module

from .budget import UNLIMITED, Budget
from .engine import Engine, EngineBase, Outcome
from .registry import (
    DEFAULT_SOLVER,
    ENGINES,
    EXACT_SOLVERS,
    SOLVERS,
    EngineSpec,
    default_solver,
    open_engine,
    resolve_solver,
    supports_budget,
)
from .sat import (
    SATEngine,
    count_solutions,
    is_unique,
    load_cnf,
    open_solver,
    run_solver,
    solutions,
    solve,
)

__all__ = ["Budget", "CPEngine", "DEFAULT_SOLVER", "DLXEngine", "DancingLinks",
           "ENGINES", "EXACT_SOLVERS", "Engine", "EngineBase", "EngineSpec",
           "Outcome", "SATEngine", "SOLVERS", "UNLIMITED", "count_solutions",
           "default_solver", "dlx_count", "dlx_first", "dlx_solutions", "is_unique", "load_cnf",
           "open_engine", "open_solver", "resolve_solver", "run_solver", "solutions",
           "solve", "supports_budget"]


#: the DLX names load numba, so they are imported on first use (SAT-only runs skip it)
_LAZY = {"DancingLinks": ".dlx", "dlx_count": ".dlx", "dlx_first": ".dlx",
         "dlx_solutions": ".dlx", "DLXEngine": ".dlx_engine", "CPEngine": ".cp_engine"}


def __getattr__(name):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
