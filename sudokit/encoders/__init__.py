"""Encoders: completion problems to CNF (and, later, to exact cover)."""

from .amo import AMO_METHODS, at_most_one
from .completion_cnf import (DEFAULT_ENCODING, ENCODINGS, CNFEncoding, candidates,
                             completion_to_cnf, grid_to_cnf, precoloring_to_cnf)

__all__ = ["AMO_METHODS", "CNFEncoding", "DEFAULT_ENCODING", "ENCODINGS", "at_most_one",
           "candidates", "completion_to_cnf", "grid_to_cnf", "precoloring_to_cnf"]
