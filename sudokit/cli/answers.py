"""The one writer of ``solve`` and ``count`` results: :class:`AnswerWriter` turns each
part's :class:`~sudokit.batch.Answers` into lines, byte tables, JSON lines or the
``--summary`` table, whichever road answered it.

A part is a list of records (any input) or a column chunk (one-line puzzles as arrays); a
column chunk's lines are built as one byte table where every answer fits one (all solved; all
counts one digit), and are byte for byte what the records' lines would be.

Examples
--------
>>> import io
>>> import numpy as np
>>> from sudokit.batch import Answers
>>> from sudokit.formats.columns import ColumnChunk
>>> chunk = ColumnChunk(np.zeros((1, 81), np.uint8), np.array([3]), "sudoku", (3, 3))
>>> found = Answers(np.array([0], np.int8), np.array([2]), None, np.array([0.5]))
>>> out = io.StringIO()
>>> writer = AnswerWriter(out, "count", limit=2)
>>> writer.write(chunk, found)
>>> out.getvalue().endswith(". 2\\n")
True
"""

from __future__ import annotations

import json
from collections import Counter
from typing import IO, Any

import numpy as np

from .._signals import signals_deferred
from ..batch import Answers
from ..counting.methods import json_int
from ..formats import format_instance, format_no_solution, format_solution
from ..formats.columns import ColumnChunk, puzzle_text_rows
from ..formats.puzzle_write import SYMBOL_BYTES, VariantHeaders
from ..formats.styles import output_style
from .output import written_value

__all__ = ["AnswerWriter", "SUMMARY_CLASSES", "estimate_text", "table_text"]

#: the columns of ``count --summary``: what is known of each instance's number of solutions
SUMMARY_CLASSES = {"0": "0 solutions", "1": "1 solution", "2+": "2+ solutions",
                   "unknown": "unknown"}

_WORDS = {1: b"no solution", 2: b"unknown"}


class AnswerWriter:
    """Writes each part's answers to ``out`` (see the module).

    Parameters
    ----------
    task : {"solve", "count"}
    as_json : bool
        One JSON object per instance.
    summary : bool
        Only the table of how many instances have 0, 1 and 2+ solutions (:meth:`close`).
    limit : int, optional
        ``count``'s limit (an answer below it is complete).
    source : str
        The input's name, for ``count``'s ``FILE:LINE`` labels (``-``: ``<stdin>``).
    """

    def __init__(self, out: IO, task: str, *, as_json: bool = False, summary: bool = False,
                 limit: int | None = None, source: str = "-"):
        self.out, self.task, self.as_json, self.summary = out, task, as_json, summary
        self.limit = limit
        self.source = "<stdin>" if source == "-" else source
        self.done = 0             # instances written so far
        self.tally: Counter = Counter()
        self.unknown = False      # some budget ran out
        self.headers = VariantHeaders()  # '# variant:' and 'regions:' lines: output reads back

    def write(self, part: Any, found: Answers) -> None:
        """Write the answers of ``part`` (records or a column chunk), the next instances."""
        self.tally.update(found.tally())
        self.unknown |= bool(found.unknown.any())
        if not self.summary:
            if self.as_json:
                self._write_text(self._json(part, found))
            elif self.task == "solve":
                self._solved(part, found)
            else:
                self._counted(part, found)
        self.done += len(found)

    def close(self) -> None:
        """Write the ``--summary`` table (when asked for)."""
        if self.summary:
            heads = ["instances", *SUMMARY_CLASSES.values()]
            values = [str(sum(self.tally.values())),
                      *(str(self.tally[name]) for name in SUMMARY_CLASSES)]
            self.out.write(table_text(heads, values) + "\n")

    # -- solve ------------------------------------------------------------------------------
    def _solved(self, part: Any, found: Answers) -> None:
        if isinstance(part, ColumnChunk):
            self._write_bytes(_solution_lines(found, part.values.shape[1]))
            return
        out = self.out
        for row, record in enumerate(part):
            style = output_style(record.style)
            if self.done + row > 0:
                out.write(style.between)  # grids apart, as in the input: the output reads back
            out.write(self.headers.before(record.instance, record.style))
            code = int(found.codes[row])
            if code == 0:
                out.write(format_solution(record, found.solution(row)) + "\n")
                out.write(style.after_solution)  # Knuth's programs: a blank line after a cover
            else:
                out.write(format_no_solution(record, ("sat", "unsat", "unknown")[code]) + "\n")

    # -- count ------------------------------------------------------------------------------
    def _counted(self, part: Any, found: Answers) -> None:
        if found.extras and any("decomposition" in extra for extra in found.extras):
            self._explained(part, found)
            return
        if isinstance(part, ColumnChunk):
            self._write_bytes(_count_lines(part, found))
            return
        texts = _count_texts(found)
        self.out.write("".join(
            f"{self._label(record)} {text}\n" for record, text in zip(part, texts, strict=True)))

    def _explained(self, part: Any, found: Answers) -> None:
        """Each count's line, then its decomposition's lines (``count --explain``), indented."""
        if isinstance(part, ColumnChunk):
            labels = [row.decode("ascii") for row in puzzle_text_rows(part.values)]
        else:
            labels = [self._label(record) for record in part]
        extras = found.extras or [{}] * len(found)
        for label, text, extra in zip(labels, _count_texts(found), extras, strict=True):
            self.out.write(f"{label} {text}\n")
            if "decomposition" in extra:
                self.out.write("".join(f"  {line}\n" for line in extra["decomposition"].lines()))

    def _label(self, record: Any) -> str:
        if output_style(record.style).one_line:
            return format_instance(record, record.style)
        return f"{self.source}:{record.line}"

    # -- JSON -------------------------------------------------------------------------------
    def _json(self, part: Any, found: Answers) -> str:
        lines = part.lines.tolist() if isinstance(part, ColumnChunk) else [r.line for r in part]
        statuses = found.statuses()
        seconds = [round(s, 6) for s in found.seconds.tolist()]
        first = self.done + 1
        if self.task == "solve":
            solutions = [self._solution_json(part, found, row) for row in range(len(found))]
            return "".join(_dumps({"index": first + row, "line": line, "status": status,
                                   "solution": solution, "seconds": second})
                           for row, (line, status, solution, second) in enumerate(
                               zip(lines, statuses, solutions, seconds, strict=True)))
        counts = found.counts.tolist()
        extras = found.extras or [{}] * len(found)
        rows = []
        for row, (line, status, count, second, extra) in enumerate(
                zip(lines, statuses, counts, seconds, extras, strict=True)):
            complete = status != "unknown" and (self.limit is None or count < self.limit)
            rows.append(_dumps({"index": first + row, "line": line, "status": status,
                                "count": json_int(count), "complete": complete,
                                "seconds": second, **_json_extra(extra)}))
        return "".join(rows)

    def _solution_json(self, part: Any, found: Answers, row: int) -> Any:
        """A solution as JSON, its values numbered as the input numbers them (.pls: from 0)."""
        solution = found.solution(row)
        if solution is None:
            return None
        if isinstance(part, ColumnChunk):
            return np.asarray(solution, np.int64).reshape(part.n, part.n).tolist()
        return written_value(part[row].style, solution).tolist()

    # -- output -----------------------------------------------------------------------------
    # A Ctrl-C that lands inside a write would leave half a line on the pipe (a write larger
    # than the buffer goes to the file in pieces): the answers of one part are written whole.
    def _write_text(self, text: str) -> None:
        with signals_deferred():
            self.out.write(text)

    def _write_bytes(self, data: bytes) -> None:
        """Write ASCII ``data`` (to the stream's buffer when it has one)."""
        buffer = getattr(self.out, "buffer", None)
        with signals_deferred():
            if buffer is None:
                self.out.write(data.decode("ascii"))
                return
            self.out.flush()
            buffer.write(data)


def _json_extra(extra: dict) -> dict:
    """A count's extra facts as JSON takes them (a decomposition as its object)."""
    return {key: value.as_json() if hasattr(value, "as_json") else value
            for key, value in extra.items()}


def _dumps(obj: dict) -> str:
    return json.dumps(obj, separators=(",", ":")) + "\n"


def _count_texts(found: Answers) -> list[str]:
    """Each count, ``unknown (at least K)`` for a budget that ran out after K solutions,
    or a model counter's estimate with its guarantee."""
    texts = []
    extras = found.extras or [{}] * len(found)
    for code, count, extra in zip(found.codes.tolist(), found.counts.tolist(), extras,
                                  strict=True):
        if extra.get("exact", True) is False:
            texts.append("unknown" if code == 2 else
                         estimate_text(count, extra["epsilon"], extra["delta"]))
        elif code == 2:
            texts.append(f"unknown (at least {count})" if count else "unknown")
        else:
            texts.append(str(count))
    return texts


def estimate_text(count: int, epsilon: float, delta: float) -> str:
    """An estimate with its guarantee.

    Examples
    --------
    >>> estimate_text(272, 0.8, 0.2)
    '~272 (epsilon 0.8, delta 0.2: within a factor 1.8 of the count with probability >= 0.8)'
    """
    return (f"~{count} (epsilon {epsilon:g}, delta {delta:g}: within a factor "
            f"{1 + epsilon:g} of the count with probability >= {1 - delta:g})")


def _solution_lines(found: Answers, cells: int) -> bytes:
    """``solve``'s lines for a column chunk: each solution as a one-line grid, or ``no
    solution`` / ``unknown``."""
    solutions = found.solution_rows(cells)
    if len(found) and (found.codes == 0).all():   # every puzzle solved: one table
        return _byte_lines(solutions)
    texts = puzzle_text_rows(solutions)
    return b"".join((text if code == 0 else _WORDS[code]) + b"\n"
                    for text, code in zip(texts, found.codes.tolist(), strict=True))


def _count_lines(chunk: ColumnChunk, found: Answers) -> bytes:
    """``count``'s lines for a column chunk: the puzzle, then its count."""
    counts = found.counts
    if len(counts) and not found.unknown.any() and found.extras is None and counts.max() < 10:
        # the common case, one digit per line: the lines as one byte table
        return _byte_lines(chunk.values, ord(" "), ord("0") + counts)
    labels = puzzle_text_rows(chunk.values)
    return b"".join(label + b" " + word.encode() + b"\n"
                    for label, word in zip(labels, _count_texts(found), strict=True))


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


def table_text(heads: list[str], values: list[str]) -> str:
    """A two-row table, each column right-aligned to its widest cell (``--summary``).

    Examples
    --------
    >>> print(table_text(["instances", "FC"], ["3", "66.67"]))
    instances     FC
            3  66.67
    """
    widths = [max(len(h), len(v)) for h, v in zip(heads, values, strict=True)]
    return "\n".join("  ".join(cell.rjust(width) for cell, width in zip(row, widths,
                                                                        strict=True))
                     for row in (heads, values))
