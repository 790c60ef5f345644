"""Tiny shared helpers for the benchmark scripts (kept independent of sudokit.formats).

``read_puzzles`` reads one-puzzle-per-line files: ``#`` comments and blank lines are skipped,
CR is stripped, ``.``, ``0`` and ``-`` are empty cells, ``1``-``9`` are 1..9 and ``A``-``Z``
(either case) are 10..35. Each line of ``n*n`` symbols becomes an ``(n, n)`` int32 array.
"""

from __future__ import annotations

import math
import os
import sys
import time
from pathlib import Path

import numpy as np

#: the shared public data: $SUDOKIT_DATA, else ../shared/data beside the checkout
DATA = Path(os.environ.get("SUDOKIT_DATA")
            or Path(__file__).resolve().parents[2] / "shared" / "data")
if not DATA.is_dir():
    print(f"{Path(sys.argv[0]).name}: the shared data is not at {DATA}; set SUDOKIT_DATA to "
          "its folder (the scripts that read it will find nothing)", file=sys.stderr)
SUDOKU17 = DATA / "sudoku" / "9x9-tdoku" / "puzzles2_17_clue"
TOP1465 = DATA / "sudoku" / "9x9-tdoku" / "puzzles3_magictour_top1465"
GECODE25 = DATA / "sudoku" / "gecode-9-16-25" / "sudoku25_gecode.txt"

# symbol byte -> value (0 = empty, -1 = invalid)
_VALUE = np.full(256, -1, dtype=np.int32)
for _sym in b".0-":
    _VALUE[_sym] = 0
for _i, _sym in enumerate(b"123456789"):
    _VALUE[_sym] = _i + 1
for _i in range(26):
    _VALUE[ord("A") + _i] = 10 + _i
    _VALUE[ord("a") + _i] = 10 + _i


def parse_line(line: str, source: str = "<string>", number: int = 0) -> np.ndarray:
    """One puzzle line -> ``(n, n)`` int32 array (raises ValueError on a bad line)."""
    raw = line.strip().encode("ascii", errors="replace")
    n = math.isqrt(len(raw))
    if n * n != len(raw) or n == 0:
        raise ValueError(f"{source}:{number}: line of {len(raw)} symbols is not n*n")
    values = _VALUE[np.frombuffer(raw, dtype=np.uint8)]
    if (values < 0).any() or (values > n).any():
        col = int(np.flatnonzero((values < 0) | (values > n))[0])
        raise ValueError(f"{source}:{number}:{col + 1}: bad symbol {chr(raw[col])!r} for n={n}")
    return values.reshape(n, n)


def read_puzzles(path: Path, limit: int | None = None) -> list[np.ndarray]:
    """The first ``limit`` puzzles (all if None) of a one-line-per-puzzle file."""
    puzzles: list[np.ndarray] = []
    with open(path, encoding="ascii", errors="replace", newline="") as handle:
        for number, line in enumerate(handle, start=1):
            line = line.replace("\r", "").strip()
            if not line or line.startswith("#"):
                continue
            puzzles.append(parse_line(line, str(path), number))
            if limit is not None and len(puzzles) >= limit:
                break
    return puzzles


def log(*parts) -> None:
    """Progress to stderr (the table goes to stdout)."""
    print(*parts, file=sys.stderr, flush=True)


def format_table(headers: list[str], rows: list[list], right: set[int] | None = None) -> str:
    """A plain-text table; columns in ``right`` (all but the first by default) align right."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    right = set(range(1, len(headers))) if right is None else right

    def fmt(row):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(row, widths, strict=False))).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([fmt(cells[0]), rule] + [fmt(r) for r in cells[1:]])


class Timer:
    """``with Timer() as t: ...`` then ``t.seconds``."""

    def __enter__(self):
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self._start
        return False


def machine_note() -> str:
    """One line describing the interpreter and PySAT version."""
    import platform
    try:
        import pysat
        pysat_version = pysat.__version__
    except Exception:  # pragma: no cover
        pysat_version = "?"
    import os
    return (f"python {platform.python_version()}, numpy {np.__version__}, pysat {pysat_version}, "
            f"{os.cpu_count()} CPUs, {platform.machine()}")
