"""The reductions between the problems, each with its way back (Takano et al., section 3).

:func:`reduce` applies a reduction by name; :data:`REDUCTIONS` lists them (name, source,
target, parsimonious or not, reference).

Examples
--------
>>> sorted(REDUCTIONS)[:3]
['coloring2sat', 'coloring2xc', 'latin2coloring']
"""

from __future__ import annotations

from ..errors import EncodingError
from .base import Reduced, ReductionSpec
from .encodings import to_sat, to_xc
from .grid_to_coloring import grid_to_coloring
from .latin_to_sudoku import latin_to_sudoku
from .sat_xc import exact_cover_to_sat, sat_to_exact_cover

__all__ = ["REDUCTIONS", "Reduced", "ReductionSpec", "reduce", "latin_to_sudoku",
           "grid_to_coloring", "exact_cover_to_sat", "sat_to_exact_cover", "to_sat", "to_xc"]

_LYNCE = "Lynce and Ouaknine 2006 (default encoding), projection on cell variables"
_XC = "Knuth, TAOCP 7.2.2.1 (4n^2 construction, generalised to units)"

REDUCTIONS: dict[str, ReductionSpec] = {spec.name: spec for spec in (
    ReductionSpec("latin2sudoku", "latin", "sudoku", True,
                  "Takano et al. section 3, after Colbourn 1984", latin_to_sudoku),
    ReductionSpec("sudoku2coloring", "sudoku", "coloring", True,
                  "Takano et al. section 2.1 (Sudoku graph)",
                  lambda p: grid_to_coloring(p, "sudoku")),
    ReductionSpec("latin2coloring", "latin", "coloring", True,
                  "Takano et al. section 2.1 (rook's graph)",
                  lambda p: grid_to_coloring(p, "latin")),
    ReductionSpec("xc2sat", "xc", "cnf", True,
                  "exactly one option per primary item, at most one per secondary",
                  exact_cover_to_sat),
    ReductionSpec("sat2xc", "cnf", "xc", False,
                  "variable and clause gadgets (Karp 1972 style)", sat_to_exact_cover),
    *(ReductionSpec(f"{kind}2sat", kind, "cnf", True, _LYNCE,
                    lambda p, kind=kind: to_sat(p, kind))
      for kind in ("sudoku", "latin", "coloring")),
    *(ReductionSpec(f"{kind}2xc", kind, "xc", True, _XC,
                    lambda p, kind=kind: to_xc(p, kind))
      for kind in ("sudoku", "latin", "coloring")),
)}


def reduce(name: str, instance) -> Reduced:
    """Apply reduction ``name`` to ``instance`` (see :data:`REDUCTIONS`)."""
    spec = REDUCTIONS.get(name)
    if spec is None:
        raise EncodingError(f"unknown reduction {name!r}; 'sudokit reduce --list' lists them")
    return spec.build(instance)
