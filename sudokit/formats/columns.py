"""Files of one-line puzzles as arrays: a chunk of lines in, ``(N, n*n)`` values out.

The common large input (tdoku's and Sudoku Exchange's collections, a generator's output) is
one puzzle per line, with ``#`` comments and blank lines between. :func:`column_chunk` reads
a piece of such a file with a handful of numpy operations, never a Python object per puzzle,
and checks every puzzle's givens at once. It answers None for anything else in the piece (a
header, a ``# variant:`` line, a grid, a second field on a line, a bad symbol, a repeated
given, a line that is not UTF-8): the general reader (:mod:`~sudokit.formats.puzzle_text`)
then reads it, with its messages, so the fast path never changes what a file means or what
an error says.

Only lines of more than :data:`~sudokit.formats.stream.MIN_CUT_WIDTH` characters (grids from
9x9 up) are read here: no multi-line grid has rows that long, so such a line is a puzzle
wherever it stands.

Examples
--------
>>> line = b"1" + b"." * 80
>>> chunk = column_chunk([b"# two\\n", line + b"\\n", b"\\n", line + b"\\r\\n"], 0, 81,
...                      "sudoku", (3, 3))
>>> chunk.values.shape, chunk.lines.tolist(), chunk.values[0, :3].tolist()
((2, 81), [2, 4], [1, 0, 0])
>>> column_chunk([b"1 2\\n"], 0, 81, "sudoku", (3, 3)) is None
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..instances.grid import grids_from_rows, latin_square, repeated_in_lines, sudoku
from .puzzle_grids import LUT
from .puzzle_text import VARIANT_HEADER
from .puzzle_write import MAX_CHAR_N, SYMBOL_BYTES
from .record import Record

__all__ = ["ColumnChunk", "column_chunk", "column_width", "puzzle_text_rows"]

_NEWLINE, _RETURN, _HASH = ord("\n"), ord("\r"), ord("#")


@dataclass(frozen=True)
class ColumnChunk:
    """Puzzles of one shape as arrays.

    Attributes
    ----------
    values : ndarray of uint8, ``(N, n*n)``
        The givens, row-major, 0 for an empty cell.
    lines : ndarray of int64, ``(N,)``
        Each puzzle's 1-based line in the whole file.
    kind : str
        ``"sudoku"`` or ``"latin"``.
    box : tuple of int or None
        The Sudoku box shape (None for a Latin square).
    """

    values: np.ndarray
    lines: np.ndarray
    kind: str
    box: tuple[int, int] | None

    @property
    def n(self) -> int:
        return math.isqrt(self.values.shape[1])

    def __len__(self) -> int:
        return len(self.values)

    def instance(self, index: int):
        """Puzzle ``index`` as a :class:`~sudokit.instances.GridPuzzle`."""
        n = self.n
        givens = self.values[index].reshape(n, n).astype(np.int32)
        return sudoku(givens, self.box) if self.kind == "sudoku" else latin_square(givens)

    def records(self) -> list[Record]:
        """The chunk as the general reader's records (style ``"line"``)."""
        grids = grids_from_rows(self.values, self.box)
        if grids is None:  # checked when the chunk was read
            raise RuntimeError("a column chunk holds an invalid puzzle (a bug)")
        return [Record(grid, line, "line")
                for grid, line in zip(grids, self.lines.tolist(), strict=True)]


def column_width(line: str) -> int | None:
    """The cell count of ``line`` when it reads as a one-line puzzle the fast path takes
    (one field of ``n*n`` symbols, ``9 <= n <= 35``), else None.

    Examples
    --------
    >>> column_width("." * 81), column_width("." * 16), column_width(". " * 81)
    (81, None, None)
    """
    field = line.strip()
    n = math.isqrt(len(field))
    if n * n != len(field) or not 9 <= n <= MAX_CHAR_N:
        return None
    values = LUT[np.frombuffer(field.encode("latin-1", "replace"), dtype=np.uint8)]
    return len(field) if (values <= n).all() else None


def column_chunk(lines: list[bytes], offset: int, width: int, kind: str,
                 box: tuple[int, int] | None) -> ColumnChunk | None:
    """The puzzles of ``lines`` (raw lines with their line breaks, the first being line
    ``offset + 1`` of the file), or None when any line is something else than a valid puzzle
    of ``width`` cells, a ``#`` comment or a blank line (see the module).

    Parameters
    ----------
    width : int
        ``n*n``, the cells of every puzzle (:func:`column_width` of the first one).
    kind, box
        ``"sudoku"`` with its box shape, or ``"latin"`` with None.
    """
    if not lines:
        return None
    data = b"".join(lines)
    raw = np.frombuffer(data, dtype=np.uint8)
    if (raw >= 0x80).any():
        try:
            data.decode("utf-8")   # a comment may hold any text, if it is UTF-8
        except UnicodeDecodeError:
            return None
    lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
    starts = np.zeros(len(lines), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    ends = starts + lengths                  # past each line's last byte
    # drop the line break: "\n", "\r\n", or nothing on a last line
    ends = ends - (raw[ends - 1] == _NEWLINE)
    has_return = (ends > starts) & (raw[np.maximum(ends - 1, 0)] == _RETURN)
    ends = ends - has_return
    sizes = ends - starts
    first = raw[np.minimum(starts, len(raw) - 1)]
    comments = (sizes > 0) & (first == _HASH)
    if any(VARIANT_HEADER.fullmatch(lines[row].decode("utf-8").strip())
           for row in np.flatnonzero(comments).tolist()):
        return None  # a '# variant:' header: the puzzles after it have more units
    skipped = (sizes == 0) | comments
    puzzles = ~skipped
    if not puzzles.any() or (sizes[puzzles] != width).any():
        return None
    cells = starts[puzzles][:, None] + np.arange(width)
    values = LUT[raw[cells]]
    n = math.isqrt(width)
    if (values > n).any():
        return None
    if repeated_in_lines(values, box).any():
        return None
    numbers = np.flatnonzero(puzzles).astype(np.int64) + offset + 1
    return ColumnChunk(values, numbers, kind, box)


def puzzle_text_rows(values: np.ndarray) -> list[bytes]:
    """Each row of ``values`` (``(N, n*n)``, ``n <= 35``) as its one-line puzzle, the way
    :func:`~sudokit.formats.format_puzzle` writes it (``.`` for 0), without line breaks.

    Examples
    --------
    >>> puzzle_text_rows(np.array([[1, 0, 0, 2]]))
    [b'1..2']
    """
    values = np.ascontiguousarray(values)
    text = SYMBOL_BYTES[values].tobytes()
    width = values.shape[1]
    return [text[start:start + width] for start in range(0, len(text), width)]
