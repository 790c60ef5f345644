"""One budget type for every engine: wall-clock seconds, SAT conflicts, search nodes.

A :class:`Budget` is what a caller allows one instance; :meth:`Budget.start` turns it into a
running :class:`Meter` that engines consult between bounded slices of work. An engine that
runs out raises :class:`~sudokit.errors.BudgetExhausted` (the status ``unknown``).

Examples
--------
>>> Budget().unlimited, Budget(seconds=2).unlimited
(True, False)
>>> meter = Budget(nodes=10).start()
>>> meter.nodes_left(3), meter.exhausted()
(7, False)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

__all__ = ["Budget", "Meter", "UNLIMITED"]


@dataclass(frozen=True)
class Budget:
    """Limits for one instance (None = unlimited).

    Attributes
    ----------
    seconds : float, optional
        Wall-clock time.
    conflicts : int, optional
        SAT conflicts (CDCL engines).
    nodes : int, optional
        Search-tree nodes (DLX and the other search engines).
    memory : int, optional
        Bytes an instance's formula or cover may take (default: the available memory; a
        larger one is refused before it is built, :class:`~sudokit.errors.ResourceError`).
    """

    seconds: float | None = None
    conflicts: int | None = None
    nodes: int | None = None
    memory: int | None = None

    @property
    def unlimited(self) -> bool:
        """No limit on time or search (memory is always bounded)."""
        return self.seconds is None and self.conflicts is None and self.nodes is None

    def start(self) -> Meter:
        """A running meter for this budget, its clock started now."""
        return Meter(self, time.monotonic())


#: the budget of a caller that gives none
UNLIMITED = Budget()


@dataclass
class Meter:
    """A running budget: what is left of it since :meth:`Budget.start`."""

    budget: Budget
    started: float
    conflicts_used: int = 0

    def seconds_left(self) -> float | None:
        if self.budget.seconds is None:
            return None
        return self.budget.seconds - (time.monotonic() - self.started)

    def nodes_left(self, used: int) -> int | None:
        return None if self.budget.nodes is None else self.budget.nodes - used

    def late(self) -> bool:
        left = self.seconds_left()
        return left is not None and left <= 0

    def exhausted(self) -> bool:
        spent = self.budget.conflicts is not None and self.conflicts_used >= self.budget.conflicts
        return self.late() or spent
