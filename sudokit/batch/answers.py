"""What a chunk's answer is: :class:`Answers`, arrays with one row per instance.

Whatever answered the chunk (an engine's array call, an engine instance by instance, a model
counter, a Dask worker), the result is the same columns: a status code, a count, a solution
(or none kept), the seconds spent and, for a model counter, its extra facts (an estimate's
guarantee). The command line's writer reads nothing else.

Examples
--------
>>> import numpy as np
>>> from sudokit.solvers.engine import ArrayOutcome
>>> found = ArrayOutcome(np.array([1, 0, 2]), np.zeros((3, 4), np.int32),
...                      np.array([False, False, True]), 0.3)
>>> answers = Answers.from_arrays(found, keep_solutions=False)
>>> answers.statuses(), answers.counts.tolist(), answers.solutions is None
(['sat', 'unsat', 'unknown'], [1, 0, 2], True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..solvers.engine import ArrayOutcome, Outcome

__all__ = ["Answers", "STATUSES"]

#: the status of each code in :attr:`Answers.codes`
STATUSES = ("sat", "unsat", "unknown")
_SAT, _UNSAT, _UNKNOWN = range(3)


@dataclass
class Answers:
    """The answers of consecutive instances, one row each.

    Attributes
    ----------
    codes : ndarray of int8
        Index into :data:`STATUSES`: ``sat``, ``unsat`` or ``unknown`` (a budget ran out).
    counts : ndarray
        Solutions counted (a lower bound where unknown; 0 where none is known; to solve: 1
        or 0). int64, or object for counts past 2**63 (a model counter's).
    solutions : ndarray, list[Any] or None
        ``(N, cells)`` values of grids answered as arrays, else one array (or None) per
        instance in its own shape; None when the task does not keep them (counting).
    seconds : ndarray of float
        Time spent on each instance (an array call's time shared out evenly).
    extras : list[Any] of dict, optional
        Per instance, what a model counter adds (``counter``, ``exact``, ``epsilon``,
        ``delta``).
    """

    codes: np.ndarray
    counts: np.ndarray
    solutions: np.ndarray | list[Any] | None
    seconds: np.ndarray
    extras: list[dict[str, Any]] | None = None

    def __len__(self) -> int:
        return len(self.codes)

    @property
    def unknown(self) -> np.ndarray:
        """Where a budget ran out."""
        return np.asarray(self.codes == _UNKNOWN)

    def statuses(self) -> list[str]:
        """Each row's status name."""
        return [STATUSES[code] for code in self.codes.tolist()]

    def solution(self, row: int) -> Any:
        """Row ``row``'s solution (None when it has none or none is kept)."""
        if self.solutions is None or self.codes[row] != _SAT:
            return None
        return self.solutions[row]

    def solution_rows(self, cells: int) -> np.ndarray:
        """The solutions as ``(N, cells)`` values, zeros where a row has none (grids).

        Examples
        --------
        >>> found = Answers(np.array([0, 1], np.int8), np.array([1, 0]),
        ...                 [np.ones((2, 2), int), None], np.zeros(2))
        >>> found.solution_rows(4).tolist()
        [[1, 1, 1, 1], [0, 0, 0, 0]]
        """
        if isinstance(self.solutions, np.ndarray):
            return self.solutions.reshape(len(self), cells)
        rows = np.zeros((len(self), cells), dtype=np.int32)
        for row, solution in enumerate(self.solutions or ()):
            if solution is not None:
                rows[row] = np.asarray(solution).reshape(-1)
        return rows

    def tally(self) -> Counter[Any]:
        """How many rows have 0, 1 or 2+ solutions or are unknown (with 2 or more found, a
        row is known not to be unique even when its budget ran out)."""
        counts, unknown = self.counts, self.unknown
        return Counter({"0": int(((counts == 0) & ~unknown).sum()),
                        "1": int(((counts == 1) & ~unknown).sum()),
                        "2+": int((counts >= 2).sum()),
                        "unknown": int((unknown & (counts < 2)).sum())})

    @classmethod
    def from_arrays(cls, found: ArrayOutcome, keep_solutions: bool) -> Answers:
        """From an engine's array call."""
        counts = np.asarray(found.counts, dtype=np.int64)
        codes = np.where(found.unknown, _UNKNOWN, np.where(counts > 0, _SAT, _UNSAT))
        each = found.seconds / max(len(counts), 1)
        return cls(codes.astype(np.int8), counts,
                   found.solutions if keep_solutions else None,
                   np.full(len(counts), each))

    @classmethod
    def from_outcomes(cls, outcomes: Sequence[Outcome], keep_solutions: bool) -> Answers:
        """From an engine's outcomes, one per instance."""
        return cls(np.array([STATUSES.index(o.status) for o in outcomes], dtype=np.int8),
                   _counts([o.count or 0 for o in outcomes]),
                   [o.solution for o in outcomes] if keep_solutions else None,
                   np.array([o.seconds for o in outcomes], dtype=float))

    @classmethod
    def from_counts(cls, results: Sequence[Any], counter: str) -> Answers:
        """From a model counter's :class:`~sudokit.counting.CountResult` list."""
        extras = []
        for result in results:
            extra: dict[Any, Any] = {"counter": counter}
            if not result.exact:
                extra.update(exact=False, epsilon=result.epsilon, delta=result.delta)
            extras.append(extra)
        return cls(np.array([STATUSES.index(r.status) for r in results], dtype=np.int8),
                   _counts([r.count or 0 for r in results]), None,
                   np.array([r.seconds for r in results], dtype=float), extras)

    @classmethod
    def concat(cls, parts: Sequence[Answers]) -> Answers:
        """The rows of ``parts``, in order."""
        if len(parts) == 1:
            return parts[0]
        solutions: np.ndarray | list[Any] | None = None
        if all(p.solutions is not None for p in parts):
            solutions = [row for p in parts for row in p.solutions]  # type: ignore[union-attr]
        extras = ([e for p in parts for e in (p.extras or [{}] * len(p))]
                  if any(p.extras for p in parts) else None)
        return cls(np.concatenate([p.codes for p in parts]) if parts
                   else np.zeros(0, np.int8),
                   _counts([c for p in parts for c in p.counts.tolist()]),
                   solutions,
                   np.concatenate([p.seconds for p in parts]) if parts else np.zeros(0),
                   extras)

    def compact(self) -> Answers:
        """The same answers in fewer bytes, for the trip back from a worker: grid solutions
        as uint8 when their values fit."""
        solutions = self.solutions
        if isinstance(solutions, np.ndarray) and solutions.size and solutions.max() < 256:
            solutions = solutions.astype(np.uint8)
        return Answers(self.codes, self.counts, solutions, self.seconds, self.extras)


def _counts(values: list[Any]) -> np.ndarray:
    """int64 counts, or object when one does not fit."""
    if values and max(values) >= 2**63:
        return np.array(values, dtype=object)
    return np.array(values, dtype=np.int64)
