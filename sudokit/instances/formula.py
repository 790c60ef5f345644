"""A CNF formula read from DIMACS, as an instance like any other (kind ``"cnf"``).

Its solutions are models restricted to the *projection*: the variables named on
``c p show ... 0`` lines (model counting competition format) or ``c ind ... 0`` lines (older
tools), else every variable. Counting a formula counts its projected models.

A model read from a solver (:func:`read_model`) is taken in one of three conventions, and the
one assumed is said (:attr:`ModelReading.note`):

- *complete*: every variable listed with its sign (SAT-competition output);
- *true literals only*: no negative literal at all and some variables missing: the missing
  ones are false (what many tools print when asked for "the model");
- *partial*: signed literals but some variables missing: those stay unassigned, and a clause
  counts as satisfied only through the variables that are assigned.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cnf import CNF
from ..displayed import HTMLDisplay
from ..errors import InstanceError

__all__ = ["CNFFormula", "ModelReading", "formula", "read_model"]


@dataclass(frozen=True, eq=False)
class ModelReading:
    """A model as truth values (index = variable), and the convention it was read in."""

    truth: np.ndarray
    assigned: np.ndarray
    convention: str
    #: variables the model did not list (with either sign)
    unlisted: int = 0
    clash: int = 0

    @property
    def note(self) -> str | None:
        """A sentence saying what was assumed, or None for a complete model."""
        missing = self.unlisted
        if self.convention == "true literals only":
            return (f"the model lists only true literals; its {missing} unlisted variable(s) "
                    "were taken as false")
        if self.convention == "partial":
            return (f"the model lists {missing} variable(s) with neither sign; they were left "
                    "unassigned")
        return None


def read_model(model, num_vars: int) -> ModelReading:
    """Read signed literals (``0`` and variables above ``num_vars`` ignored) as truth values.

    Examples
    --------
    >>> reading = read_model([2, 0], 3)
    >>> reading.convention, reading.truth.tolist()
    ('true literals only', [False, False, True, False])
    >>> print(reading.note)
    the model lists only true literals; its 2 unlisted variable(s) were taken as false
    >>> read_model([1, -2, 3], 3).convention
    'complete'
    """
    lits = np.asarray(model, dtype=np.int64).reshape(-1)
    lits = lits[(lits != 0) & (np.abs(lits) <= num_vars)]
    truth = np.zeros(num_vars + 1, dtype=bool)
    truth[lits[lits > 0]] = True
    assigned = np.zeros(num_vars + 1, dtype=bool)
    assigned[np.abs(lits)] = True
    assigned[0] = True
    clash = np.intersect1d(lits[lits > 0], -lits[lits < 0])
    unlisted = int((~assigned).sum())
    if not unlisted:
        convention = "complete"
    elif (lits > 0).all():
        convention = "true literals only"
        assigned[:] = True
    else:
        convention = "partial"
    return ModelReading(truth, assigned, convention, unlisted, int(clash[0]) if clash.size else 0)


@dataclass(frozen=True, eq=False)
class CNFFormula(HTMLDisplay):
    """A DIMACS formula and its projection variables.

    In Jupyter it shows its size, its constraint groups and its first clauses
    (``_repr_html_``, :mod:`sudokit.draw.display`).

    Examples
    --------
    >>> from sudokit.cnf import CNF
    >>> cnf = CNF(num_vars=2)
    >>> cnf.add_clauses("input", [[1, 2], [-1, -2]])
    >>> f = formula(cnf)
    >>> f.is_solution([1, -2]), f.violations([1, 2]), f.is_solution([1])
    (True, ['clause 2 (-1 -2) is not satisfied'], True)
    """

    cnf: CNF
    projection: np.ndarray

    kind = "cnf"
    _html = "formula_html"

    def violations(self, model) -> list[str]:
        """The first clause ``model`` falsifies (its convention: :func:`read_model`)."""
        reading = read_model(model, self.cnf.num_vars)
        if reading.clash:
            return [f"the model sets variable {reading.clash} both true and false"]
        n = self.cnf.num_vars
        # literal -> satisfied, indexed by lit + n: a literal holds when its variable is
        # assigned and has the literal's sign
        holds = np.concatenate([reading.assigned[::-1] & ~reading.truth[::-1],
                                reading.truth[1:]])
        number = 0
        for _, block in self.cnf.blocks:
            satisfied = holds[block.astype(np.int64) + n].any(axis=1)
            if not satisfied.all():
                row = int(np.flatnonzero(~satisfied)[0])
                clause = block[row].astype(np.int64)
                text = f"clause {number + row + 1} ({' '.join(map(str, clause.tolist()))})"
                unassigned = np.abs(clause)[~reading.assigned[np.abs(clause)]]
                if unassigned.size:
                    names = " ".join(map(str, unassigned.tolist()))
                    return [f"{text} is not satisfied: the model leaves variable(s) {names} "
                            "unassigned"]
                return [f"{text} is not satisfied"]
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
