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
from ..instances.formula import CNFFormula
from ..protocols import Composable, full_model

__all__ = ["FormulaEncoding", "formula_to_cnf"]


@dataclass(frozen=True, eq=False)
class FormulaEncoding(Composable):
    """A formula as its own encoding; solutions are projected models (signed literals)."""

    source: CNFFormula
    encoding: str = "dimacs"
    amo: str = "none"
    parsimonious: bool = True

    name = "cnf2sat"

    @property
    def cnf(self) -> CNF:
        return self.source.cnf

    @property
    def target(self) -> CNFFormula:
        return self.source

    def projection(self) -> np.ndarray:
        return self.source.projection

    def given_literals(self) -> list[int]:
        return []

    def decode(self, model) -> np.ndarray:
        """The model's literals on the projection variables (missing variables are false)."""
        lits = full_model(model, self.cnf.num_vars)
        projection = self.source.projection
        return np.where(lits[projection - 1] > 0, projection, -projection)

    def encode(self, model) -> np.ndarray:
        return full_model(model, self.cnf.num_vars)

    def blocking_clause(self, model) -> list[int]:
        """Not this assignment of the projection (every projected literal negated)."""
        return (-self.decode(model)).tolist()

    def explain(self) -> str:
        return (f"{self.name}: the formula itself ({self.cnf.num_vars} variables, "
                f"{self.cnf.num_clauses} clauses), projected on {len(self.projection())} "
                "variables.")


def formula_to_cnf(problem: CNFFormula, encoding: str | None = None, amo: str = "pairwise",
                   include_givens: bool = True, symmetry_breaking: bool = False,
                   max_bytes: int | None = None) -> FormulaEncoding:
    """The ``cnf`` kind's CNF encoding: the formula itself (the encoding options do not
    apply to a formula and are not used)."""
    return FormulaEncoding(problem)
