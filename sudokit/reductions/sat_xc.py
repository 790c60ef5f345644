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

import numpy as np

from ..encoders import exact_cover_to_cnf
from ..errors import DecodeError, InstanceError
from ..exact_cover import ExactCover
from ..instances.formula import formula
from .base import Reduced

__all__ = ["exact_cover_to_sat", "sat_to_exact_cover", "full_model"]


def full_model(literals, num_vars: int) -> np.ndarray:
    """Signed literals for variables ``1..num_vars`` from any list of literals (others false)."""
    lits = np.asarray(literals, dtype=np.int64).reshape(-1)
    lits = lits[(lits != 0) & (np.abs(lits) <= num_vars)]
    model = -np.arange(1, num_vars + 1)
    model[np.abs(lits) - 1] = lits
    return model


def exact_cover_to_sat(xc) -> Reduced:
    """Exact cover to CNF (parsimonious): variable k+1 is option k."""
    if xc.kind != "xc":
        raise InstanceError(f"xc2sat needs an exact cover problem, got a {xc.kind} instance")
    encoded = exact_cover_to_cnf(xc)
    target = formula(encoded.cnf, np.arange(1, xc.num_options + 1))

    def encode(cover):
        chosen = np.zeros(xc.num_options, dtype=bool)
        chosen[np.asarray(cover, dtype=np.int64)] = True
        return np.where(chosen, 1, -1) * np.arange(1, xc.num_options + 1)

    def explain():
        return (f"xc2sat: {xc.num_options} options become variables 1..{xc.num_options}; each "
                f"of the {xc.num_primary} primary items gets 'at least one' and 'at most one' "
                f"clauses over the options covering it, each of the {xc.num_secondary} "
                f"secondary items only 'at most one': {encoded.cnf.num_clauses} clauses.")

    return Reduced("xc2sat", xc, target, True,
                   decode=lambda model: encoded.decode(full_model(model, xc.num_options)),
                   encode=encode, explain=explain)


def sat_to_exact_cover(problem) -> Reduced:
    """CNF to exact cover by variable and clause gadgets (see the module; not parsimonious)."""
    if problem.kind != "cnf":
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
    b36 = lambda x: np.base_repr(int(x), 36).lower()  # noqa: E731 - names stay within 8 chars
    names = ([f"x{b36(v + 1)}" for v in range(num_vars)]
             + [f"c{b36(j + 1)}" for j in range(len(clauses))]
             + [f"l{b36(j + 1)}.{b36(p + 1)}" for j, p in zip(clause_of, position)])
    target = ExactCover(tuple(names), len(names), all_starts.astype(np.int64), flat)
    first_witness = 2 * num_vars

    def decode(cover):
        chosen = np.asarray(cover, dtype=np.int64)
        chosen = chosen[chosen < first_witness]
        true = np.zeros(num_vars, dtype=bool)
        true[chosen[chosen % 2 == 0] // 2] = True
        return np.where(true, 1, -1) * np.arange(1, num_vars + 1)

    def encode(model):
        truth = full_model(model, num_vars) > 0
        options = list(np.where(truth, 0, 1) + 2 * np.arange(num_vars))
        lit_true = truth[np.abs(lits) - 1] == (lits > 0)
        for j in range(len(clauses)):
            mine = np.flatnonzero((clause_of == j) & lit_true)
            if mine.size == 0:
                raise DecodeError(f"the assignment falsifies clause {j + 1}")
            options.append(first_witness + mine[0])
            options.extend((first_witness + len(lits) + mine[1:]).tolist())
        return np.sort(np.asarray(options, dtype=np.int64))

    def explain():
        return (f"sat2xc: {num_vars} variables and {len(clauses)} clauses with {len(lits)} "
                f"literal occurrences become {len(names)} primary items (x<v>, c<j>, l<j>.<p>) "
                f"and {target.num_options} options: 2 per variable (true takes the occurrences "
                "of its negation, false those of the variable), and per occurrence a witness "
                "{c<j>, l<j>.<p>} and a filler {l<j>.<p>}. Covers are models with one chosen "
                "true literal per clause, so counts are not preserved.")

    return Reduced("sat2xc", problem, target, False, decode, encode, explain)
