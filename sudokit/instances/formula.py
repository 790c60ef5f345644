"""A CNF formula read from DIMACS, as an instance like any other (kind ``"cnf"``).

Its solutions are models restricted to the *projection*: the variables named on
``c p show ... 0`` lines (model counting competition format) or ``c ind ... 0`` lines (older
tools), else every variable. Counting a formula counts its projected models.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cnf import CNF
from ..errors import InstanceError

__all__ = ["CNFFormula", "formula"]


@dataclass(frozen=True, eq=False)
class CNFFormula:
    """A DIMACS formula and its projection variables.

    Examples
    --------
    >>> from sudokit.cnf import CNF
    >>> cnf = CNF(num_vars=2)
    >>> cnf.add_clauses("input", [[1, 2], [-1, -2]])
    >>> f = formula(cnf)
    >>> f.is_solution([1, -2]), f.violations([1, 2])
    (True, ['clause 2 (-1 -2) is not satisfied'])
    """

    cnf: CNF
    projection: np.ndarray

    kind = "cnf"

    def violations(self, model) -> list[str]:
        """The first clause ``model`` (signed literals; missing variables unassigned) falsifies."""
        truth = np.zeros(2 * self.cnf.num_vars + 1, dtype=bool)  # index lit + num_vars
        lits = np.asarray(model, dtype=np.int64).reshape(-1)
        lits = lits[(lits != 0) & (np.abs(lits) <= self.cnf.num_vars)]
        truth[lits + self.cnf.num_vars] = True
        clash = np.intersect1d(lits, -lits)
        if clash.size:
            return [f"the model sets variable {abs(int(clash[0]))} both true and false"]
        number = 0
        for _, block in self.cnf.blocks:
            satisfied = truth[block.astype(np.int64) + self.cnf.num_vars].any(axis=1)
            if not satisfied.all():
                row = int(np.flatnonzero(~satisfied)[0])
                clause = " ".join(map(str, block[row].tolist()))
                return [f"clause {number + row + 1} ({clause}) is not satisfied"]
            number += block.shape[0]
        return []

    def is_solution(self, model) -> bool:
        return not self.violations(model)


def formula(cnf: CNF, projection=None) -> CNFFormula:
    """A :class:`CNFFormula`; the projection defaults to every variable."""
    if projection is None:
        projection = np.arange(1, cnf.num_vars + 1)
    projection = np.unique(np.asarray(projection, dtype=np.int64))
    bad = projection[(projection < 1) | (projection > cnf.num_vars)]
    if bad.size:
        raise InstanceError(f"projection variable {bad[0]} is outside 1..{cnf.num_vars}")
    return CNFFormula(cnf, projection)
