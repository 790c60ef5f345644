"""At-most-one constraints over many groups of literals at once, selectable by name.

Every method takes a 2-D array ``lits`` (one group of equal size per row) and adds clauses to a
:class:`~sudokit.cnf.CNF`. ``pairwise`` and ``seqcounter`` are vectorised over all groups;
the other names delegate to :class:`pysat.card.CardEnc` one group at a time.

- ``pairwise``: the binomial encoding, one binary clause per pair (no auxiliary variables).
- ``seqcounter``: the sequential counter of Sinz, "Towards an Optimal CNF Encoding of Boolean
  Cardinality Constraints", CP 2005: ``3w - 4`` clauses and ``w - 1`` auxiliaries per group.
- ``ladder``, ``bitwise``, ``totalizer``, ``sortnetwrk``, ``cardnetwrk``, ``mtotalizer``,
  ``kmtotalizer``: PySAT's encodings of the same names (:mod:`pysat.card`).

Examples
--------
>>> from sudokit.cnf import CNF
>>> cnf = CNF(num_vars=3)
>>> at_most_one(cnf, np.array([[1, 2, 3]]), "amo", method="pairwise")
>>> cnf.clauses()
[[-1, -2], [-1, -3], [-2, -3]]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from pysat.card import CardEnc, EncType

from ..cnf import CNF
from ..errors import EncodingError

__all__ = ["AMO_METHODS", "at_most_one"]


def _pairwise(cnf: CNF, lits: np.ndarray, group: str) -> None:
    first, second = np.triu_indices(lits.shape[1], k=1)
    pairs = np.stack([-lits[:, first], -lits[:, second]], axis=-1)
    cnf.add_block(group, pairs.reshape(-1, 2))


def _seqcounter(cnf: CNF, lits: np.ndarray, group: str) -> None:
    groups, width = lits.shape
    if width <= 2:  # a single binary clause is already optimal
        _pairwise(cnf, lits, group)
        return
    first = cnf.new_vars(groups * (width - 1), group)
    s = first + np.arange(groups * (width - 1), dtype=np.int32).reshape(groups, width - 1)
    x = lits
    middle_x, middle_s, prev_s = x[:, 1:-1], s[:, 1:], s[:, :-1]
    blocks = [
        np.stack([-x[:, 0], s[:, 0]], axis=-1),                               # x1 -> s1
        np.stack([-middle_x, middle_s], axis=-1).reshape(-1, 2),              # xi -> si
        np.stack([-prev_s, middle_s], axis=-1).reshape(-1, 2),                # s(i-1) -> si
        np.stack([-middle_x, -prev_s], axis=-1).reshape(-1, 2),               # not both
        np.stack([-x[:, -1], -s[:, -1]], axis=-1),                            # xw -> not s(w-1)
    ]
    cnf.add_block(group, np.concatenate(blocks))


def _pysat_method(kind: int) -> Callable[[CNF, np.ndarray, str], None]:
    def encode(cnf: CNF, lits: np.ndarray, group: str) -> None:
        clauses = []
        for row in lits.tolist():
            enc = CardEnc.atmost(lits=row, bound=1, top_id=cnf.num_vars, encoding=kind)
            if enc.nv > cnf.num_vars:
                cnf.new_vars(enc.nv - cnf.num_vars, group)
            clauses.extend(enc.clauses)
        cnf.add_clauses(group, clauses)
    return encode


AMO_METHODS: dict[str, Callable[[CNF, np.ndarray, str], None]] = {
    "pairwise": _pairwise,
    "seqcounter": _seqcounter,
    **{name: _pysat_method(getattr(EncType, name))
       for name in ("ladder", "bitwise", "totalizer", "sortnetwrk", "cardnetwrk",
                    "mtotalizer", "kmtotalizer")},
}


def at_most_one(cnf: CNF, lits: np.ndarray, group: str, method: str = "pairwise") -> None:
    """Add "at most one literal of each row of ``lits`` is true" to ``cnf``.

    Parameters
    ----------
    cnf : CNF
        Receives the clauses (and any auxiliary variables, counted under ``group``).
    lits : numpy.ndarray
        ``(groups, width)`` literals; rows of width 0 or 1 need no clause.
    group : str
        Constraint group name for :meth:`CNF.stats`.
    method : str
        A key of :data:`AMO_METHODS`.
    """
    try:
        encode = AMO_METHODS[method]
    except KeyError:
        raise EncodingError(f"unknown at-most-one method {method!r}; choose one of "
                            + ", ".join(AMO_METHODS)) from None
    lits = np.asarray(lits, dtype=np.int32)
    if lits.ndim == 2 and lits.shape[0] and lits.shape[1] >= 2:
        encode(cnf, lits, group)
