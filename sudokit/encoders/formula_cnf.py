"""The identity encoding of a DIMACS formula, so formulas go through the same solvers.

Examples
--------
>>> from sudokit.cnf import CNF
>>> from sudokit.instances.formula import formula
>>> from sudokit.solvers import count_solutions
>>> cnf = CNF(num_vars=3)
>>> cnf.add_clauses("input", [[1, 2, 3]])
>>> count_solutions(formula_to_cnf(formula(cnf)))
7
>>> count_solutions(formula_to_cnf(formula(cnf, [1])))      # projected on variable 1
2
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cnf import CNF

__all__ = ["FormulaEncoding", "formula_to_cnf"]


@dataclass(frozen=True, eq=False)
class FormulaEncoding:
    """A formula as its own encoding; solutions are projected models (signed literals)."""

    problem: object
    cnf: CNF
    name: str = "dimacs"
    amo: str = "none"
    parsimonious: bool = True

    def projection(self) -> np.ndarray:
        return self.problem.projection

    def given_literals(self) -> list[int]:
        return []

    def decode(self, model) -> np.ndarray:
        """The model's literals on the projection variables."""
        lits = np.asarray(model, dtype=np.int64)
        projection = self.problem.projection
        return np.where(lits[projection - 1] > 0, projection, -projection)

    def blocking_clause(self, model) -> list[int]:
        """Not this assignment of the projection (every projected literal negated)."""
        return (-self.decode(model)).tolist()


def formula_to_cnf(problem, *options, **keywords) -> FormulaEncoding:
    """Wrap a :class:`~sudokit.instances.formula.CNFFormula` (encoding options do not apply)."""
    return FormulaEncoding(problem, problem.cnf)
