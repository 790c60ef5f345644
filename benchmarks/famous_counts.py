"""Famous counts by the counting methods (issue 31): Latin squares by reduced forms, Sudoku
grids by bands, each timed as the command a user types, and an estimate of L(8) from a
measured share of its classes.

Exact rows: ``sudokit count --json --explain [--problem latin | --box RxC] FILE`` on one
empty grid (``--method auto`` picks ``reduced`` or ``bands``), timed as a whole process
(interpreter start, the first-band classes, the completions: wall and CPU seconds, peak
resident memory), with the number of classes,
the engine that counted the completions and whether the count equals the known one
(GROUND_TRUTH.md in the shared data).

L(8) share: for each of the 7 cycle types of the reduced second row of order 8, the third
rows (first cell 3) are listed and ``--share K`` of them, drawn at random (seed 31), are
completed by takano; each class's completions are estimated as (third rows) x (mean
completions of those drawn), and ``L(8) = 8! 7! sum(size x completions)``. The row prints
the estimate, its ratio to the known L(8) and the share of the completions actually counted.

Run from the repository root::

    python benchmarks/famous_counts.py               # every row: a few minutes
    python benchmarks/famous_counts.py --quick       # no 8x8, no L(8) share
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from itertools import permutations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # sudokit from this checkout

import numpy as np  # noqa: E402
from _data import format_table, log, machine_note  # noqa: E402

from sudokit.counting.completions import count_completions  # noqa: E402
from sudokit.counting.reduced_latin import cycle_types, second_row, type_size  # noqa: E402
from sudokit.instances import latin_square  # noqa: E402

#: (name, side, box or None for a Latin square, known count)
GRIDS = [
    ("Latin 5", 5, None, 161280),
    ("Latin 6", 6, None, 812851200),
    ("Latin 7", 7, None, 61479419904000),
    ("Sudoku 4x4", 4, (2, 2), 288),
    ("Sudoku 6x6 (2x3)", 6, (2, 3), 28200960),
    ("Sudoku 6x6 (3x2)", 6, (3, 2), 28200960),
    ("Sudoku 8x8 (2x4)", 8, (2, 4), 29136487207403520),
    ("Sudoku 9x9", 9, (3, 3), 6670903752021072936960),
]
LATIN_8 = 108776032459082956800


def run_row(name: str, n: int, box: tuple[int, int] | None, known: int, folder: Path
            ) -> list[str]:
    """One exact row: the command, timed as a whole process."""
    path = folder / f"empty{n}.txt"
    path.write_text("." * (n * n) + "\n")
    shape = ["--problem", "latin"] if box is None else ["--box", f"{box[0]}x{box[1]}"]
    command = [sys.executable, "-m", "sudokit", "count", "--json", "--explain", *shape,
               str(path)]
    env = dict(os.environ, PYTHONPATH=str(ROOT), SUDOKIT_NO_PROGRESS="1")
    usage = folder / "usage.json"
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _MEASURED, str(usage), *command],
                          capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - start
    cpu, peak_kib = json.loads(usage.read_text())
    measured = [f"{seconds:.1f}", f"{cpu:.1f}", f"{peak_kib / 1024:.0f}"]
    if done.returncode:
        return [name, "-", "-", "-", *measured, "no", done.stderr.strip()[:60]]
    answer = json.loads(done.stdout)
    count = int(answer["count"])
    split = answer["decomposition"]
    return [name, f"{count:,}", answer["method"], str(len(split["classes"])), *measured,
            "yes" if count == known else "NO", split["engine"]]


#: runs a command and writes its CPU seconds (user + system, its children included) and
#: peak resident memory (KiB) to the file named first
_MEASURED = """\
import json, resource, subprocess, sys
code = subprocess.run(sys.argv[2:]).returncode
use = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write(json.dumps([use.ru_utime + use.ru_stime, use.ru_maxrss]))
sys.exit(code)
"""


def third_rows(first: np.ndarray, second: np.ndarray) -> list[tuple[int, ...]]:
    """The rows that can follow ``first`` and ``second`` with 3 in the first cell."""
    n = len(first)
    rows = []
    for tail in permutations([v for v in range(1, n + 1) if v != 3]):
        row = (3, *tail)
        if all(row[j] != first[j] and row[j] != second[j] for j in range(n)):
            rows.append(row)
    return rows


def latin8_share(per_class: int) -> list[str]:
    """The L(8) estimate from ``per_class`` third rows of each class (see the module)."""
    n, rng = 8, np.random.default_rng(31)
    start = time.perf_counter()
    total, counted, estimated = 0, 0, 0.0
    for cycle_type in cycle_types(n):
        grid = np.zeros((n, n), dtype=np.int64)
        grid[0] = grid[:, 0] = np.arange(1, n + 1)
        grid[1] = second_row(cycle_type)
        rows = third_rows(grid[0], grid[1])
        drawn = rng.choice(len(rows), size=min(per_class, len(rows)), replace=False)
        grids = []
        for index in drawn:
            g = grid.copy()
            g[2] = rows[index]
            grids.append(latin_square(g))
        counts = count_completions(grids, "takano").counts or []
        counted += sum(counts)
        mean = sum(counts) / len(counts)
        estimated += type_size(cycle_type) * len(rows) * mean
        log(f"  L(8) class {'+'.join(map(str, cycle_type))}: {len(rows)} third rows, "
            f"mean {mean:,.0f} completions")
        total += type_size(cycle_type) * len(rows)
    estimate = math.factorial(n) * math.factorial(n - 1) * estimated
    seconds = time.perf_counter() - start
    share = counted / estimated
    return ["Latin 8 (share)", f"~{estimate:.4e}", "reduced", "7",
            f"{seconds:.1f}", "-", "-", f"ratio {estimate / LATIN_8:.4f}",
            f"{share:.4%} of the reduced squares counted"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="no 8x8 grid, no L(8) share")
    parser.add_argument("--share", type=int, default=6, metavar="K",
                        help="third rows drawn per class of L(8) (default 6; 0: skip)")
    args = parser.parse_args()
    rows = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for name, n, box, known in GRIDS:
            if args.quick and n == 8:
                continue
            log(f"{name} ...")
            rows.append(run_row(name, n, box, known, Path(folder)))
            log("  " + "  ".join(rows[-1]))
    if args.share and not args.quick:
        log("Latin 8 share ...")
        rows.append(latin8_share(args.share))
    load = os.getloadavg()
    print("Famous counts by the counting methods (sudokit count --method auto)")
    print(machine_note())
    print(f"load average at the end: {load[0]:.2f} (1 min), {load[1]:.2f} (5 min); whole run "
          f"{time.perf_counter() - started:.0f} s\n")
    print(format_table(["grid", "count", "method", "classes", "wall s", "CPU s", "peak MiB",
                        "agrees", "completions by"], rows, right={1, 3, 4, 5, 6}))


if __name__ == "__main__":
    main()
