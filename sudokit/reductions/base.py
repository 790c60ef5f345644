"""A named reduction in the registry: what it maps to what, and where it comes from.

Applying one returns a :class:`~sudokit.protocols.Reduction` (the target with its way back);
the result types live beside each construction and are plain dataclasses of arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ReductionSpec"]


@dataclass(frozen=True)
class ReductionSpec:
    """A named reduction.

    ``build`` is a ``"module:function"`` reference (loaded on first use, see
    :func:`sudokit.problems.resolve`) taking the source instance and returning a
    :class:`~sudokit.protocols.Reduction`.
    """

    name: str
    source: str
    target: str
    parsimonious: bool
    reference: str
    build: str
