"""Solvers: PySAT back ends by name, DLX for exact cover, counting, uniqueness, batch runs."""

from importlib import import_module

from .batch import InstanceResult, SharedSolver, run_batch
from .registry import DEFAULT_SOLVER, EXACT_SOLVERS, SOLVERS, resolve_solver, supports_budget
from .sat import (Budget, count_solutions, is_unique, load_cnf, open_solver, run_solver,
                  solutions, solve)

__all__ = ["Budget", "DEFAULT_SOLVER", "DancingLinks", "EXACT_SOLVERS", "InstanceResult",
           "SOLVERS", "SharedDLX", "SharedSolver", "SingleDLX", "dlx_count", "dlx_first",
           "dlx_solutions",
           "count_solutions", "is_unique", "load_cnf", "open_solver", "resolve_solver",
           "run_batch", "run_solver", "solutions", "solve", "supports_budget"]


#: the DLX names load numba, so they are imported on first use (SAT-only runs skip it)
_LAZY = {"DancingLinks": ".dlx", "dlx_count": ".dlx", "dlx_first": ".dlx",
         "dlx_solutions": ".dlx", "SharedDLX": ".exact", "SingleDLX": ".exact"}


def __getattr__(name):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
