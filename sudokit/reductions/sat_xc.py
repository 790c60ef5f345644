"""xc2sat and sat2xc: exact cover and CNF satisfiability reduced to each other.

``xc2sat`` (parsimonious): one variable per option; exactly one option per primary item and
at most one per secondary item (:func:`sudokit.encoders.exact_cover_to_cnf`, pairwise).

``sat2xc`` (not parsimonious), the textbook gadget construction (as in the proofs that exact
cover is NP-complete, e.g. Karp 1972 via 3-dimensional matching, here without the detour).
All items are primary:

- ``x<v>`` for each variable, ``c<j>`` for each clause, ``l<j>.<p>`` for each literal
  occurrence (literal p of clause j).
- Variable options ``x<v> = true``: ``x<v>`` plus every occurrence of ``-v`` (setting v true
  makes those occurrences false, and a false occurrence is used up here); ``x<v> = false``:
  ``x<v>`` plus every occurrence of ``v``.
- For each occurrence, a *witness* option ``{c<j>, l<j>.<p>}`` and a *filler* option
  ``{l<j>.<p>}``.

An occurrence item is left for a witness or a filler exactly when its literal is true, and
each clause item needs one witness: covers are satisfying assignments together with a choice
of one true literal per clause. So the target is solvable exactly when the formula is, but a
model with t_j true literals in clause j gives prod(t_j) covers: not parsimonious.

Examples
--------
>>> from sudokit.cnf import CNF
>>> from sudokit.instances.formula import formula
>>> cnf = CNF(num_vars=2)
>>> cnf.add_clauses("input", [[1, 2], [-1]])
>>> reduced = sat_to_exact_cover(formula(cnf))
>>> reduced.target.num_items, reduced.target.num_options
(7, 10)
>>> reduced.encode([-1, 2]).tolist()   # x1 false, x2 true, a witness per clause
[1, 2, 4, 6]
>>> reduced.decode([1, 2, 4, 6]).tolist()
[-1, 2]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..encoders import ExactCoverCNF, exact_cover_to_cnf
from ..errors import DecodeError, InstanceError
from ..exact_cover import DeferredNames, ExactCover
from ..instances.formula import CNFFormula
from ..problems import problem_kind
from ..protocols import Composable, full_model

__all__ = ["SatToExactCover", "exact_cover_to_sat", "sat_to_exact_cover"]


def exact_cover_to_sat(xc) -> ExactCoverCNF:
    """Exact cover to CNF (parsimonious): variable k+1 is option k."""
    if problem_kind(xc).family != "cover":
        raise InstanceError(f"xc2sat needs an exact cover problem, got a {xc.kind} instance")
    return exact_cover_to_cnf(xc)


@dataclass(frozen=True, eq=False)
class SatToExactCover(Composable):
    """``sat2xc`` applied to one formula (see the module); not parsimonious.

    ``lits`` are the formula's literal occurrences in clause order and ``clause_of`` the
    clause of each; options ``2v`` / ``2v+1`` set variable ``v+1`` true / false, then come
    one witness and one filler option per occurrence.
    """

    source: CNFFormula
    target: ExactCover
    lits: np.ndarray
    clause_of: np.ndarray

    name = "sat2xc"
    parsimonious = False
    encoding = "sat2xc"

    @property
    def xc(self) -> ExactCover:
        return self.target

    @property
    def num_vars(self) -> int:
        return self.source.cnf.num_vars

    def given_options(self, problem) -> np.ndarray:
        return np.zeros(0, dtype=np.int64)

    def decode(self, cover) -> np.ndarray:
        first_witness = 2 * self.num_vars
        chosen = np.asarray(cover, dtype=np.int64)
        chosen = chosen[chosen < first_witness]
        true = np.zeros(self.num_vars, dtype=bool)
        true[chosen[chosen % 2 == 0] // 2] = True
        return np.where(true, 1, -1) * np.arange(1, self.num_vars + 1)

    def encode(self, model) -> np.ndarray:
        num_vars, lits, clause_of = self.num_vars, self.lits, self.clause_of
        first_witness = 2 * num_vars
        truth = full_model(model, num_vars) > 0
        options = list(np.where(truth, 0, 1) + 2 * np.arange(num_vars))
        lit_true = truth[np.abs(lits) - 1] == (lits > 0)
        for j in range(self.source.cnf.num_clauses):
            mine = np.flatnonzero((clause_of == j) & lit_true)
            if mine.size == 0:
                raise DecodeError(f"the assignment falsifies clause {j + 1}")
            options.append(first_witness + mine[0])
            options.extend((first_witness + len(lits) + mine[1:]).tolist())
        return np.sort(np.asarray(options, dtype=np.int64))

    def explain(self) -> str:
        return (f"sat2xc: {self.num_vars} variables and {self.source.cnf.num_clauses} clauses "
                f"with {len(self.lits)} literal occurrences become {self.target.num_items} "
                f"primary items (x<v>, c<j>, l<j>.<p>) and {self.target.num_options} options: "
                "2 per variable (true takes the occurrences of its negation, false those of "
                "the variable), and per occurrence a witness {c<j>, l<j>.<p>} and a filler "
                "{l<j>.<p>}. Covers are models with one chosen true literal per clause, so "
                "counts are not preserved.")


def sat_to_exact_cover(problem, encoding: str | None = None,
                       max_bytes: int | None = None) -> SatToExactCover:
    """CNF to exact cover by variable and clause gadgets (see the module; not parsimonious).

    This is also the ``cnf`` kind's exact cover encoding (``encoding`` is not used).
    """
    if problem_kind(problem).family != "formula":
        raise InstanceError(f"sat2xc needs a CNF formula, got a {problem.kind} instance")
    cnf = problem.cnf
    num_vars = cnf.num_vars
    clauses = cnf.clauses()
    lengths = np.array([len(c) for c in clauses], dtype=np.int64)
    lits = np.array([lit for c in clauses for lit in c], dtype=np.int64)
    clause_of = np.repeat(np.arange(len(clauses)), lengths)
    position = np.arange(len(lits)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    occ_item = num_vars + len(clauses) + np.arange(len(lits))

    # variable options: 2v is "v true" (takes the occurrences of -v), 2v+1 is "v false"
    key = 2 * (np.abs(lits) - 1) + (lits > 0)
    order = np.argsort(key, kind="stable")
    per_option = np.bincount(key, minlength=2 * num_vars) + 1
    starts = np.concatenate([[0], np.cumsum(per_option)])
    var_items = np.empty(starts[-1], dtype=np.int64)
    var_items[starts[:-1]] = np.repeat(np.arange(num_vars), 2)
    slots = np.ones(starts[-1], dtype=bool)
    slots[starts[:-1]] = False
    var_items[slots] = occ_item[order]
    witness = np.stack([num_vars + clause_of, occ_item], axis=1).reshape(-1)
    flat = np.concatenate([var_items, witness, occ_item]).astype(np.int32)
    all_starts = np.concatenate([starts, starts[-1] + 2 * np.arange(1, len(lits) + 1),
                                 starts[-1] + 2 * len(lits) + np.arange(1, len(lits) + 1)])
    count = num_vars + len(clauses) + len(lits)
    names = DeferredNames(count, _GadgetNames(num_vars, len(clauses), clause_of, position))
    target = ExactCover(names, count, all_starts.astype(np.int64), flat,
                        validate_on_init=False)
    return SatToExactCover(problem, target, lits, clause_of)


@dataclass(frozen=True, eq=False)
class _GadgetNames:
    """``x<v>``, ``c<j>`` and ``l<j>.<p>`` in base 36, so names stay within Knuth's eight
    characters for large formulas; made when the problem is written."""

    num_vars: int
    num_clauses: int
    clause_of: np.ndarray
    position: np.ndarray

    def __call__(self) -> tuple[str, ...]:
        return tuple([f"x{_base36(v + 1)}" for v in range(self.num_vars)]
                     + [f"c{_base36(j + 1)}" for j in range(self.num_clauses)]
                     + [f"l{_base36(j + 1)}.{_base36(p + 1)}"
                        for j, p in zip(self.clause_of, self.position, strict=True)])


def _base36(x) -> str:
    return np.base_repr(int(x), 36).lower()
