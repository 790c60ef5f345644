"""``solve`` and ``count`` on files of one-line puzzles as arrays, from the file to the output.

The general path builds a record, a puzzle object, an outcome and an output line per instance:
on the 49,158 17-clue puzzles that Python costs more than the search. Here a clean piece of
the file (:class:`~sudokit.formats.columns.ColumnChunk`) goes to an engine's array call
(``count_arrays``, :mod:`sudokit.solvers.engine`) and its lines are written in one piece.
What comes out is byte for byte what the general path writes; a chunk the array path cannot
take (an engine without ``count_arrays``, such as the SAT solvers) becomes records and takes
the general path.

Examples
--------
>>> import numpy as np
>>> from sudokit.formats.columns import ColumnChunk
>>> from sudokit.solvers.budget import UNLIMITED
>>> from sudokit.solvers.engine import ArrayOutcome
>>> chunk = ColumnChunk(np.zeros((1, 81), np.uint8), np.array([3]), "sudoku", (3, 3))
>>> found = ArrayOutcome(np.array([2]), np.zeros((1, 81), np.int32), np.array([False]), 0.5)
>>> ColumnResults(chunk, found, 0).count_text(2).endswith(b". 2\\n")
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..formats.columns import ColumnChunk, puzzle_text_rows
from ..formats.puzzle_write import SYMBOL_BYTES
from ..formats.record import Record
from ..solvers.arrays import ArrayBatch
from ..solvers.budget import Budget
from ..solvers.engine import ArrayOutcome
from .common import check_budgets

__all__ = ["ArrayRunner", "ColumnResults", "check_chunk_budgets"]


@dataclass
class ColumnResults:
    """The results of one :class:`ColumnChunk`; ``start``: the 0-based index of its first
    instance in the whole input."""

    chunk: ColumnChunk
    found: ArrayOutcome
    start: int

    def __len__(self) -> int:
        return len(self.chunk)

    def _seconds(self) -> float:
        return round(self.found.seconds / max(len(self.chunk), 1), 6)

    def count_text(self, limit: int | None) -> bytes:
        """``count``'s lines: the puzzle, then its count or ``unknown (at least K)``."""
        found = self.found
        if len(found.counts) and not found.unknown.any() and found.counts.max() < 10:
            # the common case, one digit per line: the lines as one byte table
            return _byte_lines(self.chunk.values, ord(" "), ord("0") + found.counts)
        counts = found.counts.tolist()
        words = [str(count) for count in counts]
        for row in np.flatnonzero(self.found.unknown).tolist():
            words[row] = f"unknown (at least {counts[row]})" if counts[row] else "unknown"
        labels = puzzle_text_rows(self.chunk.values)
        return b"".join(label + b" " + word.encode() + b"\n"
                        for label, word in zip(labels, words, strict=True))

    def count_json(self, limit: int | None) -> bytes:
        """``count --json``'s objects, as :func:`~sudokit.cli.output.emit_json` writes them."""
        seconds = repr(self._seconds())
        rows = []
        statuses = self.found.statuses().tolist()
        for offset, (line, status, count, lost) in enumerate(zip(
                self.chunk.lines.tolist(), statuses, self.found.counts.tolist(),
                self.found.unknown.tolist(), strict=True)):
            complete = not lost and (limit is None or count < limit)
            rows.append(f'{{"index":{self.start + offset + 1},"line":{line},"status":'
                        f'"{status}","count":{count},"complete":{"true" if complete else "false"}'
                        f',"seconds":{seconds}}}\n')
        return "".join(rows).encode()

    def solve_text(self) -> bytes:
        """``solve``'s lines: each solution as a one-line grid, or ``no solution`` /
        ``unknown``."""
        statuses = self.found.statuses()
        if len(statuses) and (statuses == "sat").all():   # every puzzle solved: one table
            return _byte_lines(self.found.solutions)
        texts = puzzle_text_rows(self.found.solutions)
        words = {"unsat": b"no solution", "unknown": b"unknown"}
        return b"".join((text if status == "sat" else words[status]) + b"\n"
                        for text, status in zip(texts, statuses.tolist(), strict=True))

    def tally(self) -> Counter:
        """How many instances have 0, 1, 2+ solutions or are unknown (``count --summary``;
        as :func:`~sudokit.cli.solve._solution_class` sorts one)."""
        counts, unknown = self.found.counts, self.found.unknown
        return Counter({"0": int(((counts == 0) & ~unknown).sum()),
                        "1": int(((counts == 1) & ~unknown).sum()),
                        "2+": int((counts >= 2).sum()),
                        "unknown": int((unknown & (counts < 2)).sum())})


def _byte_lines(grids: np.ndarray, *tail: Any) -> bytes:
    """One line per row of ``grids`` (``(N, cells)`` values): its symbols, then the ``tail``
    columns (a byte each, or an array of N bytes), then a line break; built as one table.

    Examples
    --------
    >>> _byte_lines(np.array([[1, 0], [2, 3]]), ord(" "), ord("0") + np.array([1, 2]))
    b'1. 1\\n23 2\\n'
    """
    width = grids.shape[1]
    table = np.empty((len(grids), width + len(tail) + 1), dtype=np.uint8)
    table[:, :width] = SYMBOL_BYTES[grids]
    for column, value in enumerate(tail, start=width):
        table[:, column] = value
    table[:, -1] = ord("\n")
    return table.tobytes()


def check_chunk_budgets(chunk: ColumnChunk, solver: str | None, budget: Budget,
                        checked: set) -> None:
    """:func:`~.common.check_budgets` for the first chunk of each shape (the budget options
    that shape's engine honours); ``checked``: the shapes seen so far, updated."""
    shape = (chunk.kind, chunk.n, chunk.box)
    if shape not in checked:
        check_budgets([Record(chunk.instance(0), int(chunk.lines[0]), "line")], solver,
                      budget)
        checked.add(shape)


class ArrayRunner:
    """Runs column chunks through the engine each shape gets, when that engine takes arrays
    (:class:`~sudokit.solvers.arrays.ArrayBatch`); the engines stay open from chunk to chunk
    (close with :meth:`close`)."""

    def __init__(self, task: str, limit: int | None, solver: str | None, budget: Budget,
                 encoding: str | None, amo: str | None, options: dict[str, Any]):
        self.task, self.limit, self.solver, self.budget = task, limit, solver, budget
        self.batch = ArrayBatch(solver, encoding, amo, options)
        self.checked: set = set()

    def run(self, chunk: ColumnChunk, start: int) -> ColumnResults | None:
        """The chunk's results, or None when its engine does not take arrays."""
        check_chunk_budgets(chunk, self.solver, self.budget, self.checked)
        if not self.batch.takes(chunk.values, chunk.kind, chunk.box, self.task, self.budget):
            return None
        found = self.batch.count(chunk.values, chunk.kind, chunk.box, self.limit, self.budget,
                                 self.task)
        return ColumnResults(chunk, found, start)

    def close(self) -> None:
        self.batch.close()
