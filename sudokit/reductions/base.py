"""What every reduction returns: the target, the way back, the way forward, and its honesty.

A reduction maps a *source* instance to a *target* instance so that the source has a solution
exactly when the target has one. :class:`Reduced` carries the target together with

- ``decode(target_solution) -> source_solution`` (the way back),
- ``encode(source_solution) -> target_solution`` (the way forward, for round-trip tests),
- ``parsimonious``: whether solutions correspond one to one (then counts are equal),
- ``explain()``: a short account of the construction, for teaching.

Reductions compose: ``a.then(b)`` reduces ``a``'s target with ``b`` and decodes back through
both.

Examples
--------
>>> import numpy as np
>>> from sudokit.reductions import reduce
>>> from sudokit.instances import latin_square
>>> square = latin_square(np.array([[1, 0], [0, 0]]))
>>> chain = reduce("latin2sudoku", square).then("sudoku2xc")
>>> type(chain.target).__name__, chain.parsimonious
('ExactCover', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

__all__ = ["Reduced", "ReductionSpec"]


@dataclass(frozen=True)
class ReductionSpec:
    """A named reduction: what it maps to what, and where it comes from."""

    name: str
    source: str
    target: str
    parsimonious: bool
    reference: str
    build: Callable[[object], "Reduced"]


@dataclass(frozen=True, eq=False)
class Reduced:
    """The result of one reduction (or a chain of them)."""

    name: str
    source: object
    target: object
    parsimonious: bool
    decode: Callable[[object], object]
    encode: Callable[[object], object]
    explain: Callable[[], str]

    def then(self, name: str) -> "Reduced":
        """Reduce this target further with reduction ``name``; decoding goes back through both."""
        from . import reduce

        second = reduce(name, self.target)
        return Reduced(
            name=f"{self.name}+{second.name}",
            source=self.source,
            target=second.target,
            parsimonious=self.parsimonious and second.parsimonious,
            decode=lambda solution: self.decode(second.decode(solution)),
            encode=lambda solution: second.encode(self.encode(solution)),
            explain=lambda: self.explain() + "\n\n" + second.explain(),
        )
