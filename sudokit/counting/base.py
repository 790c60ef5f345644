"""What every counter returns, the formula it counts, and the child process that counts it
(:func:`run_counter`, on the shared runner :func:`sudokit.child.run_child`).

A counter (:mod:`sudokit.counting.registry`) takes one instance of any kind and a
:class:`~sudokit.solvers.Budget`, and returns a :class:`CountResult`: an exact count, an
estimate with its (epsilon, delta) guarantee, or ``unknown`` when the budget ran out.

The formula counted is the instance's own CNF (:func:`counted_formula`: the kind's
single-instance encoding unless one is named), projected on the variables that define a
solution (the cell values, a graph's colors, a DIMACS file's ``c p show``/``c ind`` lines), so
auxiliary variables never multiply the count.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> formula = counted_formula(latin_square(np.array([[1, 0], [0, 0]])))
>>> formula.num_vars >= len(formula.projection), formula.trivial
(True, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..child import run_child
from ..encoders import to_cnf
from ..errors import SolverError
from ..problems import problem_kind
from ..solvers.budget import UNLIMITED, Budget
from .symmetry import find_symmetry

__all__ = ["CountResult", "CountedFormula", "counted_formula", "run_counter"]


@dataclass(frozen=True)
class CountResult:
    """One instance's count.

    Attributes
    ----------
    status : {"sat", "unsat", "unknown"}
        ``unknown``: the budget ran out (``count`` is then what was known, or None).
    count : int or None
        The exact count, or the estimate (``exact`` False).
    exact : bool
        False for an estimate, which lies within a factor ``1 + epsilon`` of the true count
        with probability at least ``1 - delta``.
    epsilon, delta : float or None
        The guarantee of an estimate.
    seconds : float
    complete : bool
        False when a limit stopped the count (the count is then at least ``count``).
    decomposition : Decomposition or None
        How a counting method (:mod:`~sudokit.counting.methods`) split the count.
    """

    status: str
    count: int | None
    exact: bool = True
    epsilon: float | None = None
    delta: float | None = None
    seconds: float = 0.0
    complete: bool = True
    decomposition: Any = None


@dataclass(frozen=True)
class CountedFormula:
    """A formula as a counter takes it: clause blocks, variables, projection.

    ``trivial`` is the count when no counter is needed (0 for a formula with an empty
    clause), else None. ``factor``: each model counted stands for this many solutions (with
    the symmetry broken, :mod:`~sudokit.counting.symmetry`; else 1).
    """

    num_vars: int
    blocks: tuple[np.ndarray, ...]
    projection: np.ndarray
    trivial: int | None = None
    factor: int = 1


def counted_formula(instance: Any, encoding: str | None = None, amo: str | None = None,
                    max_bytes: int | None = None, symmetry: bool = False) -> CountedFormula:
    """The projected CNF of ``instance`` that a model counter counts.

    Parameters
    ----------
    encoding, amo : str, optional
        The CNF encoding and at-most-one method (default: the kind's single-instance encoding,
        pairwise). Every encoding sudokit has is parsimonious on the projection.
    max_bytes : int, optional
        Refuse a formula larger than this (:class:`~sudokit.errors.ResourceError`).
    symmetry : bool
        Break the symmetry of a completion problem (:mod:`~sudokit.counting.symmetry`): the
        formula then has ``1 / factor`` of the models; other instances are unchanged.
    """
    encoded = to_cnf(instance, encoding or problem_kind(instance).solo_cnf_encoding,
                     amo or "pairwise", max_bytes=max_bytes)
    if not encoded.parsimonious:
        raise SolverError(f"{encoded.name} does not count solutions one to one; choose "
                          "another encoding to count")
    cnf = encoded.cnf
    projection = np.asarray(encoded.projection(), dtype=np.int64)
    blocks = tuple(np.ascontiguousarray(block, dtype=np.int32) for _, block in cnf.blocks
                   if block.shape[0])
    trivial = 0 if cnf.has_empty_clause else None
    found = find_symmetry(encoded) if symmetry else None
    if found is None:
        return CountedFormula(int(cnf.num_vars), blocks, projection, trivial)
    extra = tuple(block for block in found.blocks(encoded.cell_vars) if block.shape[0])
    return CountedFormula(int(cnf.num_vars), blocks + extra, projection, trivial, found.factor)


def run_counter(counter: str, formula: CountedFormula, budget: Budget = UNLIMITED,
                **options: Any) -> dict[str, Any] | None:
    """Run ``counter`` (``"ganak"`` or ``"approxmc"``) on ``formula`` in a child process
    (:func:`sudokit.child.run_child`).

    Returns the child's answer (see :mod:`sudokit.child_main`), or None when
    ``budget.seconds`` ran out first (the child is killed). Ctrl-C kills the child too and
    propagates. A child that fails raises :class:`~sudokit.errors.SolverError`.
    """
    job = {"task": counter, "num_vars": formula.num_vars, "blocks": formula.blocks,
           "projection": formula.projection, **options}
    return run_child(job, budget.seconds)
