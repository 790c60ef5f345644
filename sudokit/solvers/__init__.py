"""Solvers: PySAT back ends by name, DLX for exact cover, counting, uniqueness, batch runs."""

from .batch import InstanceResult, SharedSolver, run_batch
from .dlx import DancingLinks, dlx_count, dlx_first, dlx_solutions
from .exact import SharedDLX, SingleDLX
from .registry import DEFAULT_SOLVER, EXACT_SOLVERS, SOLVERS, resolve_solver, supports_budget
from .sat import (Budget, count_solutions, is_unique, load_cnf, open_solver, run_solver,
                  solutions, solve)

__all__ = ["Budget", "DEFAULT_SOLVER", "DancingLinks", "EXACT_SOLVERS", "InstanceResult",
           "SOLVERS", "SharedDLX", "SharedSolver", "SingleDLX", "dlx_count", "dlx_first",
           "dlx_solutions",
           "count_solutions", "is_unique", "load_cnf", "open_solver", "resolve_solver",
           "run_batch", "run_solver", "solutions", "solve", "supports_budget"]
