"""The encoders as reductions, so that everything composes: sudoku2sat, latin2sat,
coloring2sat (the default CNF encodings; parsimonious on the cell variables) and sudoku2xc,
latin2xc, coloring2xc (the exact cover constructions; parsimonious).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> reduced = to_sat(latin_square(np.zeros((2, 2), dtype=int)), "latin")
>>> reduced.target.cnf.num_vars, reduced.decode(reduced.encode([[1, 2], [2, 1]])).tolist()
(8, [[1, 2], [2, 1]])
"""

from __future__ import annotations

import numpy as np

from ..encoders import completion_to_cnf, completion_to_exact_cover
from ..errors import InstanceError
from ..instances.formula import formula
from .base import Reduced
from .sat_xc import full_model

__all__ = ["to_sat", "to_xc"]


def _check(problem, kind: str, name: str) -> None:
    if problem.kind != kind:
        raise InstanceError(f"{name} needs a {kind} instance, got a {problem.kind} instance")


def to_sat(problem, kind: str) -> Reduced:
    """``<kind>2sat``: the default CNF encoding, decoded on the cell variables."""
    name = f"{kind}2sat"
    _check(problem, kind, name)
    encoded = completion_to_cnf(problem)
    target = formula(encoded.cnf, encoded.projection())

    def encode(solution):
        literals = np.asarray(encoded.solution_literals(solution), dtype=np.int64)
        return full_model(literals, encoded.cnf.num_vars)

    def explain():
        return (f"{name}: the {encoded.name} encoding: {encoded.cnf.num_vars} variables "
                f"(variable (cell-1)*{problem.num_values} + value says 'cell holds value') and "
                f"{encoded.cnf.num_clauses} clauses; the projection is the cell variables.")

    return Reduced(name, problem, target, True,
                   decode=lambda model: encoded.decode(full_model(model, encoded.cnf.num_vars)),
                   encode=encode, explain=explain)


def to_xc(problem, kind: str) -> Reduced:
    """``<kind>2xc``: the full exact cover construction (option per allowed cell value)."""
    name = f"{kind}2xc"
    _check(problem, kind, name)
    encoded = completion_to_exact_cover(problem)
    lookup = encoded.option_lookup()

    def encode(solution):
        values = np.asarray(solution).reshape(-1)
        return np.sort(lookup[np.arange(values.size), values - 1])

    def explain():
        xc = encoded.xc
        return (f"{name}: one option per allowed (cell, value), {xc.num_options} in all, "
                f"covering {xc.num_items} items: the cell, and (unit, value) for each unit "
                f"through the cell ({xc.num_primary} primary, {xc.num_secondary} secondary).")

    return Reduced(name, problem, encoded.xc, True, decode=encoded.decode, encode=encode,
                   explain=explain)
