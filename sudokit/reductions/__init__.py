"""The reductions between the problems, each with its way back (Takano et al., section 3).

:func:`reduce` applies a reduction by name; :data:`REDUCTIONS` lists them (name, source,
target, parsimonious or not, reference). The encoders are reductions too (``sudoku2sat``,
``latin2xc`` ...): every one returns a :class:`~sudokit.protocols.Reduction`.

Examples
--------
>>> sorted(REDUCTIONS)[:3]
['coloring2sat', 'coloring2xc', 'latin2coloring']
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> reduce("latin2sat", latin_square(np.zeros((2, 2), dtype=int))).target.cnf.num_vars
8
"""

from __future__ import annotations

from ..errors import EncodingError, InstanceError, described
from ..problems import resolve, user_problem
from ..protocols import Reduction, chain
from ..refs import closest
from .base import ReductionSpec
from .grid_to_coloring import grid_to_coloring, latin_to_coloring, sudoku_to_coloring
from .latin_to_sudoku import latin_to_sudoku
from .sat_xc import exact_cover_to_sat, sat_to_exact_cover

__all__ = ["REDUCTIONS", "ReductionSpec", "chain", "reduce", "latin_to_sudoku",
           "grid_to_coloring", "latin_to_coloring", "sudoku_to_coloring",
           "exact_cover_to_sat", "sat_to_exact_cover"]

_LYNCE = "Lynce and Ouaknine 2006 (default encoding), projection on cell variables"
_XC = "Knuth, TAOCP 7.2.2.1 (4n^2 construction, generalised to units)"
_HERE = "sudokit.reductions."
_TO_CNF = "sudokit.encoders.completion_cnf:completion_to_cnf"
_TO_XC = "sudokit.encoders.completion_xc:completion_to_exact_cover"

REDUCTIONS: dict[str, ReductionSpec] = {spec.name: spec for spec in (
    ReductionSpec("latin2sudoku", "latin", "sudoku", True,
                  "Takano et al. section 3, after Colbourn 1984",
                  _HERE + "latin_to_sudoku:latin_to_sudoku"),
    ReductionSpec("sudoku2coloring", "sudoku", "coloring", True,
                  "Takano et al. section 2.1 (Sudoku graph)",
                  _HERE + "grid_to_coloring:sudoku_to_coloring"),
    ReductionSpec("latin2coloring", "latin", "coloring", True,
                  "Takano et al. section 2.1 (rook's graph)",
                  _HERE + "grid_to_coloring:latin_to_coloring"),
    ReductionSpec("xc2sat", "xc", "cnf", True,
                  "exactly one option per primary item, at most one per secondary",
                  _HERE + "sat_xc:exact_cover_to_sat"),
    ReductionSpec("sat2xc", "cnf", "xc", False,
                  "variable and clause gadgets (Karp 1972 style)",
                  _HERE + "sat_xc:sat_to_exact_cover"),
    ReductionSpec("sudoku2sat", "sudoku", "cnf", True, _LYNCE, _TO_CNF),
    ReductionSpec("latin2sat", "latin", "cnf", True, _LYNCE, _TO_CNF),
    ReductionSpec("coloring2sat", "coloring", "cnf", True, _LYNCE, _TO_CNF),
    ReductionSpec("sudoku2xc", "sudoku", "xc", True, _XC, _TO_XC),
    ReductionSpec("latin2xc", "latin", "xc", True, _XC, _TO_XC),
    ReductionSpec("coloring2xc", "coloring", "xc", True, _XC, _TO_XC),
)}


def reduce(name: str, instance) -> Reduction:
    """Apply reduction ``name`` to ``instance`` (see :data:`REDUCTIONS`): anything
    :func:`~sudokit.solvers.solve` takes but a reduction (reduce its target further with
    ``result.then(name)``).

    Examples
    --------
    >>> reduce("latin2sudoku", "12.." + "." * 12, ).target.n
    Traceback (most recent call last):
    ...
    sudokit.errors.InstanceError: latin2sudoku needs a latin instance, got a sudoku instance
    >>> reduce("latin2sudoku", [[1, 0, 0], [0, 0, 0], [0, 0, 0]]).target.n
    Traceback (most recent call last):
    ...
    sudokit.errors.InstanceError: a 3x3 grid has no box shape (n is prime); read it as a \
Latin square or give the box shape (1, 3)
    >>> from sudokit.instances import latin_square
    >>> reduce("latin2sudoku", latin_square("1........")).target.n
    9
    """
    if not isinstance(name, str):
        raise EncodingError(f"a reduction is named by a string, not {described(name)}; "
                            "'sudokit reduce --list' lists them")
    spec = REDUCTIONS.get(name)
    if spec is None:
        raise EncodingError(f"unknown reduction {name!r}; {closest(name, REDUCTIONS)}"
                            "'sudokit reduce --list' lists them")
    instance = user_problem(instance)
    if hasattr(instance, "target") and hasattr(instance, "decode"):
        raise InstanceError(f"{name} takes an instance, not a reduction's result; reduce its "
                            f"target further with result.then({name!r})")
    if instance.kind != spec.source:
        raise InstanceError(f"{name} needs a {spec.source} instance, got a {instance.kind} "
                            "instance")
    return resolve(spec.build)(instance)  # type: ignore[no-any-return]
