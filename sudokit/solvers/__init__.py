"""Solvers: PySAT back ends by name, counting and uniqueness, batch runs (DLX comes later)."""

from .batch import InstanceResult, SharedSolver, run_batch
from .registry import DEFAULT_SOLVER, SOLVERS, resolve_solver, supports_budget
from .sat import (Budget, count_solutions, is_unique, load_cnf, open_solver, run_solver,
                  solutions, solve)

__all__ = ["Budget", "DEFAULT_SOLVER", "InstanceResult", "SOLVERS", "SharedSolver",
           "count_solutions", "is_unique", "load_cnf", "open_solver", "resolve_solver",
           "run_batch", "run_solver", "solutions", "solve", "supports_budget"]
