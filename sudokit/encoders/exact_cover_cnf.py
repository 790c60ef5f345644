"""Exact cover as CNF: one variable per option, exactly one per primary item, at most one per
secondary item. This lets any SAT back end solve Knuth-format problems and gives the DLX solver
an independent peer to be tested against.

Examples
--------
>>> from sudokit.exact_cover import exact_cover
>>> from sudokit.solvers import count_solutions
>>> xc = exact_cover([["a", "b"], ["a"], ["b"], ["b", "s"]], primary=["a", "b"], secondary=["s"])
>>> count_solutions(exact_cover_to_cnf(xc))
3
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cnf import CNF, ProjectionLines
from ..exact_cover import ExactCover
from ..instances.formula import CNFFormula, formula
from ..problems import user_instance
from ..protocols import Composable, full_model
from .amo import at_most_one

__all__ = ["ExactCoverCNF", "exact_cover_to_cnf"]


@dataclass(frozen=True, eq=False)
class ExactCoverCNF(Composable):
    """An exact cover problem as CNF (``xc2sat``); a model decodes to the chosen options."""

    source: ExactCover
    cnf: CNF
    encoding: str = "exact cover"
    amo: str = "pairwise"
    parsimonious: bool = True

    name = "xc2sat"

    @property
    def target(self) -> CNFFormula:
        return formula(self.cnf, self.projection())

    def projection(self) -> np.ndarray:
        return np.arange(1, self.source.num_options + 1)

    def given_literals(self) -> list[int]:
        return []

    def decode(self, model) -> np.ndarray:
        """Indices of the options set true (missing variables are false)."""
        return np.flatnonzero(full_model(model, self.source.num_options) > 0)

    def encode(self, cover) -> np.ndarray:
        """The model that sets exactly the options of ``cover`` true."""
        chosen = np.zeros(self.source.num_options, dtype=bool)
        chosen[np.asarray(cover, dtype=np.int64)] = True
        return np.where(chosen, 1, -1) * np.arange(1, self.source.num_options + 1)

    def blocking_clause(self, model) -> list[int]:
        """Not this cover. Negating its options suffices: a different cover cannot contain all
        of them, since every option covers a primary item and no item is covered twice."""
        return (-(self.decode(model) + 1)).tolist()

    def explain(self) -> str:
        xc = self.source
        return (f"xc2sat: {xc.num_options} options become variables 1..{xc.num_options}; each "
                f"of the {xc.num_primary} primary items gets 'at least one' and 'at most one' "
                f"clauses over the options covering it, each of the {xc.num_secondary} "
                f"secondary items only 'at most one': {self.cnf.num_clauses} clauses.")


def _groups_by_item(xc) -> list[np.ndarray]:
    """For each item, the variables (option index + 1) of the options that cover it."""
    order = np.argsort(xc.option_items, kind="stable")
    options = xc.option_rows()[order] + 1
    counts = np.bincount(xc.option_items, minlength=xc.num_items)
    return np.split(options.astype(np.int32), np.cumsum(counts)[:-1])


def exact_cover_to_cnf(xc, encoding: str | None = None, amo: str = "pairwise",
                       include_givens: bool = True, symmetry_breaking: bool = False,
                       max_bytes: int | None = None):
    """Encode an :class:`~sudokit.exact_cover.ExactCover` (the extra options are ignored);
    ``xc`` may be a scipy sparse matrix or DLX text (:func:`~sudokit.interop.convert.as_problem`).
    """
    xc = user_instance(xc, ("cover",), "exact_cover_to_cnf")
    cnf = CNF()
    cnf.new_block("options", (xc.num_options,))
    groups = _groups_by_item(xc)
    primary = groups[: xc.num_primary]
    cnf.add_clauses("primary items covered", [g.tolist() for g in primary])
    for width in sorted({len(g) for g in groups}):
        rows = [g for g in groups if len(g) == width]
        if width >= 2:
            at_most_one(cnf, np.stack(rows), "items covered at most once", amo)
    cnf.comments.append(f"exact cover: {xc.num_options} options, {xc.num_primary} primary and "
                        f"{xc.num_secondary} secondary items; variable k = option k")
    if cnf.num_vars > xc.num_options:  # auxiliary variables: declare what to count
        cnf.deferred_comments.append(ProjectionLines(np.arange(1, xc.num_options + 1)))
    return ExactCoverCNF(xc, cnf, amo=amo)
