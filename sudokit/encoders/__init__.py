"""Encoders: completion problems (and DIMACS formulas) to CNF; exact cover comes later."""

from .amo import AMO_METHODS, at_most_one
from .completion_cnf import (DEFAULT_ENCODING, ENCODINGS, CNFEncoding, candidates,
                             completion_to_cnf, grid_to_cnf, precoloring_to_cnf)

from .completion_xc import (XC_ENCODINGS, ExactCoverEncoding, OwnCover, ReducedCover,
                            completion_to_exact_cover, grid_to_exact_cover,
                            precoloring_to_exact_cover)
from .exact_cover_cnf import ExactCoverCNF, exact_cover_to_cnf
from .formula_cnf import FormulaEncoding, formula_to_cnf
from ..errors import EncodingError

#: the CNF encoder of each problem kind; all take (problem, encoding, amo, include_givens,
#: symmetry_breaking) and return an encoding with ``cnf``, ``projection``, ``decode``,
#: ``blocking_clause`` and ``given_literals``
_TO_CNF = {"sudoku": completion_to_cnf, "latin": completion_to_cnf,
           "coloring": completion_to_cnf, "cnf": formula_to_cnf, "xc": exact_cover_to_cnf}

#: the exact cover encoder of each problem kind: (problem, encoding) -> an encoding with
#: ``xc``, ``decode`` and ``given_options``
def _formula_to_exact_cover(problem, encoding=None):
    """A CNF formula through sat2xc: covers decode to models (not one to one)."""
    from ..reductions import sat_to_exact_cover

    reduced = sat_to_exact_cover(problem)
    return ReducedCover(reduced.target, reduced.decode)


_TO_EXACT_COVER = {"sudoku": completion_to_exact_cover, "latin": completion_to_exact_cover,
                   "coloring": completion_to_exact_cover,
                   "xc": lambda problem, encoding=None: OwnCover(problem),
                   "cnf": _formula_to_exact_cover}


def to_cnf(problem, encoding=None, amo="pairwise", include_givens=True,
           symmetry_breaking=False):
    """Encode any instance as CNF with the encoder of its kind."""
    return _TO_CNF[problem.kind](problem, encoding, amo, include_givens, symmetry_breaking)


def to_exact_cover(problem, encoding=None):
    """Encode any instance as exact cover with the encoder of its kind."""
    if problem.kind not in _TO_EXACT_COVER:
        raise EncodingError(f"no exact cover encoding for a {problem.kind} instance; "
                            "use a SAT solver")
    return _TO_EXACT_COVER[problem.kind](problem, encoding)


__all__ = ["ExactCoverCNF", "ExactCoverEncoding", "FormulaEncoding", "OwnCover", "ReducedCover",
           "XC_ENCODINGS",
           "completion_to_exact_cover", "exact_cover_to_cnf", "formula_to_cnf",
           "grid_to_exact_cover", "precoloring_to_exact_cover", "to_cnf", "to_exact_cover", "AMO_METHODS", "CNFEncoding", "DEFAULT_ENCODING", "ENCODINGS", "at_most_one",
           "candidates", "completion_to_cnf", "grid_to_cnf", "precoloring_to_cnf"]
