"""Encoders: every problem kind to CNF and to exact cover.

Each encoder is a reduction (:mod:`sudokit.protocols`): it returns the target with its way
back. :func:`to_cnf` and :func:`to_exact_cover` pick the encoder of an instance's kind from
the registry in :mod:`sudokit.problems`.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> to_cnf(latin_square(np.zeros((3, 3), dtype=int))).encoding
'extended'
>>> to_exact_cover(latin_square(np.zeros((3, 3), dtype=int))).xc.num_items
27
"""

from ..problems import problem_kind, user_instance
from .amo import AMO_METHODS, at_most_one
from .completion_cnf import (
    ENCODINGS,
    CNFEncoding,
    candidate_mask,
    coloring_to_cnf,
    completion_to_cnf,
    grid_to_cnf,
)
from .completion_xc import (
    XC_ENCODINGS,
    ExactCoverEncoding,
    OwnCover,
    coloring_to_exact_cover,
    completion_to_exact_cover,
    grid_to_exact_cover,
    own_cover,
)
from .exact_cover_cnf import ExactCoverCNF, exact_cover_to_cnf
from .formula_cnf import FormulaEncoding, formula_to_cnf

__all__ = ["AMO_METHODS", "CNFEncoding", "ENCODINGS", "ExactCoverCNF", "ExactCoverEncoding",
           "FormulaEncoding", "OwnCover", "XC_ENCODINGS", "at_most_one", "candidate_mask",
           "completion_to_cnf", "completion_to_exact_cover", "exact_cover_to_cnf",
           "formula_to_cnf", "grid_to_cnf", "grid_to_exact_cover", "own_cover",
           "coloring_to_cnf", "coloring_to_exact_cover", "to_cnf", "to_exact_cover"]


def to_cnf(problem, encoding=None, amo="pairwise", include_givens=True,
           symmetry_breaking=False, max_bytes=None):
    """Encode any instance as CNF with the encoder its kind registers (``max_bytes``: refuse
    what would not fit; default the available memory). ``problem`` is anything
    :func:`~sudokit.solvers.solve` takes (an encoding gives its source instance).

    Examples
    --------
    >>> to_cnf("1234" + "." * 12).cnf.num_vars
    64
    """
    problem = user_instance(problem, taker="to_cnf")
    encoder = problem_kind(problem).load("to_cnf")
    return encoder(problem, encoding, amo, include_givens, symmetry_breaking, max_bytes)


def to_exact_cover(problem, encoding=None, max_bytes=None):
    """Encode any instance as exact cover with the encoder its kind registers (``problem``:
    anything :func:`~sudokit.solvers.solve` takes).

    Examples
    --------
    >>> to_exact_cover("1234" + "." * 12).xc.num_options
    52
    """
    problem = user_instance(problem, taker="to_exact_cover")
    return problem_kind(problem).load("to_exact_cover")(problem, encoding, max_bytes)
