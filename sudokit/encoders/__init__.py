"""Encoders: completion problems (and DIMACS formulas) to CNF; exact cover comes later."""

from .amo import AMO_METHODS, at_most_one
from .completion_cnf import (DEFAULT_ENCODING, ENCODINGS, CNFEncoding, candidates,
                             completion_to_cnf, grid_to_cnf, precoloring_to_cnf)

from .formula_cnf import FormulaEncoding, formula_to_cnf

#: the CNF encoder of each problem kind; all take (problem, encoding, amo, include_givens,
#: symmetry_breaking) and return an encoding with ``cnf``, ``projection``, ``decode``,
#: ``blocking_clause`` and ``given_literals``
_TO_CNF = {"sudoku": completion_to_cnf, "latin": completion_to_cnf,
           "coloring": completion_to_cnf, "cnf": formula_to_cnf}


def to_cnf(problem, encoding=None, amo="pairwise", include_givens=True,
           symmetry_breaking=False):
    """Encode any instance as CNF with the encoder of its kind."""
    return _TO_CNF[problem.kind](problem, encoding, amo, include_givens, symmetry_breaking)


__all__ = ["FormulaEncoding", "formula_to_cnf", "to_cnf", "AMO_METHODS", "CNFEncoding", "DEFAULT_ENCODING", "ENCODINGS", "at_most_one",
           "candidates", "completion_to_cnf", "grid_to_cnf", "precoloring_to_cnf"]
