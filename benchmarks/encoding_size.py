"""Size of the CNF encodings and speed of building them and of writing DIMACS.

For each grid side n (``--sizes``) and each encoding (minimal, efficient, extended, reduced),
print the number of variables and clauses, the seconds to build the CNF, the seconds to write
it as DIMACS (to a temporary file in /tmp, deleted afterwards) and the megabytes written.

``reduced`` depends on the givens: on the empty grid it equals ``extended``. Where a real puzzle
of that size is at hand it is used for ``reduced`` instead (9: a 17-clue puzzle; 16 and 25: the
first Gecode instance of that size); the ``instance`` column says which grid each row encodes.

Baseline for the DIMACS writer: a naive pure-Python writer
(``"".join(" ".join(map(str, c)) + " 0\\n" for c in cnf.clauses())``), run on the extended
encoding of the empty grid for every size except 64 (too slow and memory hungry; ``--naive-all``
runs it there too). Its output is checked byte for byte against sudokit's writer.

Run from the repository root::

    python benchmarks/encoding_size.py                 # n = 9, 16, 25, 36, 64
    python benchmarks/encoding_size.py --sizes 9,16,25 --repeat 3
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # sudokit from this checkout

from _data import DATA, Timer, format_table, log, machine_note, parse_line, read_puzzles  # noqa: E402

from sudokit.encoders import ENCODINGS, grid_to_cnf  # noqa: E402
from sudokit.formats.dimacs import write_dimacs  # noqa: E402
from sudokit.instances import sudoku  # noqa: E402

GRID_ENCODINGS = [name for name in ("minimal", "efficient", "extended", "reduced")
                  if name in ENCODINGS]
PUZZLE_17 = ("4.....8.5.3..........7......2.....6.....8.4......1......."
             "6.3.7.5..2.....1.4......")
KNOWN_CLAUSES = {(36, "extended"): 3_271_104, (9, "extended"): 11_988, (9, "minimal"): 8_829}


def puzzle_with_givens(n: int):
    """``(label, givens)`` of a real puzzle of side ``n``, or None."""
    if n == 9:
        return "17-clue", parse_line(PUZZLE_17)
    files = {16: DATA / "sudoku" / "gecode-9-16-25" / "sudoku16_janko_via_gecode.txt",
             25: DATA / "sudoku" / "gecode-9-16-25" / "sudoku25_gecode.txt"}
    path = files.get(n)
    if path is None or not path.exists():
        return None
    grid = read_puzzles(path, limit=1)[0]
    return f"{path.name.split('_')[0]} #1", grid


def _timed_to_file(write, cnf, repeat: int) -> tuple[float, int, str]:
    """Best-of-``repeat`` seconds for ``write(cnf, stream)`` into a temp file; bytes; sha1."""
    best, size, digest = float("inf"), 0, ""
    for attempt in range(repeat):
        handle, path = tempfile.mkstemp(prefix="sudokit-bench-", suffix=".cnf", dir="/tmp")
        try:
            with os.fdopen(handle, "wb") as stream, Timer() as timer:
                write(cnf, stream)
            best = min(best, timer.seconds)
            size = os.path.getsize(path)
            if attempt == 0:
                with open(path, "rb") as f:
                    digest = hashlib.sha1(f.read()).hexdigest()
        finally:
            os.remove(path)
        gc.collect()
    return best, size, digest


def _naive_dimacs(cnf, stream) -> None:
    """The pure-Python baseline: clauses() then one str per literal; same header as sudokit."""
    head = "".join(f"c {line}\n" for line in cnf.all_comments())
    head += f"p cnf {cnf.num_vars} {cnf.num_clauses}\n"
    body = "".join(" ".join(map(str, c)) + " 0\n" for c in cnf.clauses())
    stream.write((head + body).encode())


def time_write(cnf, repeat: int) -> tuple[float, int, str]:
    """sudokit's vectorised writer."""
    return _timed_to_file(write_dimacs, cnf, repeat)


def naive_write(cnf, repeat: int) -> tuple[float, int, str]:
    """The naive Python writer, for the speed-up column."""
    return _timed_to_file(_naive_dimacs, cnf, repeat)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--sizes", default="9,16,25,36,64",
                        help="comma-separated grid sides, each a perfect square "
                             "(default: %(default)s)")
    parser.add_argument("--encodings", default=",".join(GRID_ENCODINGS),
                        help="comma-separated encodings (default: %(default)s)")
    parser.add_argument("--amo", default="pairwise",
                        help="at-most-one method (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time each build/write this many times, keep the best (default: 1)")
    parser.add_argument("--naive-all", action="store_true",
                        help="run the naive writer baseline for n=64 too (slow, several GB of RAM)")
    parser.add_argument("--naive-max", type=int, default=36,
                        help="largest n for the naive baseline without --naive-all (default: 36)")
    parser.add_argument("--no-naive", action="store_true", help="skip the naive writer baseline")
    args = parser.parse_args(argv)

    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    encodings = [e.strip() for e in args.encodings.split(",") if e.strip()]
    rows, naive_rows, checks = [], [], []
    for n in sizes:
        empty = sudoku(np.zeros((n, n), dtype=np.int32))
        real = puzzle_with_givens(n) if "reduced" in encodings else None
        for name in encodings:
            if name == "reduced" and real is not None:
                label = f"{real[0]} ({int(np.count_nonzero(real[1]))} givens)"
                puzzle = sudoku(real[1])
            else:
                label, puzzle = ("empty*" if name == "reduced" else "empty"), empty
            log(f"n={n} {name} on {label}: building ...")
            build = float("inf")
            for _ in range(max(1, args.repeat)):
                encoded = None
                gc.collect()
                with Timer() as timer:
                    encoded = grid_to_cnf(puzzle, name, amo=args.amo)
                build = min(build, timer.seconds)
            cnf = encoded.cnf
            log(f"  {cnf.num_vars:,} vars, {cnf.num_clauses:,} clauses, built in {build:.2f}s; "
                f"writing ...")
            write, size, digest = time_write(cnf, max(1, args.repeat))
            rows.append([n, name, label, f"{cnf.num_vars:,}", f"{cnf.num_clauses:,}",
                         f"{cnf.num_literals:,}", f"{build:.3f}", f"{write:.3f}",
                         f"{size / 1e6:.1f}", f"{size / 1e6 / write:.0f}" if write > 0 else "-"])
            expected = KNOWN_CLAUSES.get((n, name))
            if expected is not None and label == "empty":
                ok = cnf.num_clauses == expected
                checks.append(f"{n}x{n} {name}: {cnf.num_clauses:,} clauses "
                              f"(expected {expected:,}) -> {'OK' if ok else 'MISMATCH'}")
            naive_here = (name == "extended" and label == "empty" and not args.no_naive
                          and (n <= args.naive_max or args.naive_all))
            if naive_here:
                log(f"  naive Python writer on {n}x{n} extended ...")
                naive, naive_size, naive_digest = naive_write(cnf, max(1, args.repeat))
                same = "yes" if naive_digest == digest else "NO"
                naive_rows.append([n, f"{cnf.num_clauses:,}", f"{naive:.3f}", f"{write:.3f}",
                                   f"{naive / write:.1f}x" if write > 0 else "-", same])
            del encoded, cnf
            gc.collect()

    print(f"CNF encoding size, build time and DIMACS write time (amo={args.amo}, "
          f"best of {max(1, args.repeat)})")
    print(machine_note())
    print()
    print(format_table(["n", "encoding", "instance", "variables", "clauses", "literals",
                        "build s", "write s", "MB", "MB/s"], rows, right={0, 3, 4, 5, 6, 7, 8, 9}))
    print()
    print("* reduced on the empty grid has exactly the size of extended (no givens to eliminate);")
    print("  where a real puzzle of that size exists it is used instead (its givens are listed).")
    print("  minimal/efficient/extended rows use the empty grid; a puzzle adds one unit clause")
    print("  per given to those encodings and nothing else.")
    if naive_rows:
        print()
        print("DIMACS writer: sudokit (vectorised numpy) vs naive Python join, extended, "
              "empty grid")
        print(format_table(["n", "clauses", "naive s", "sudokit s", "speed-up", "identical bytes"],
                           naive_rows))
        skipped = [n for n in sizes if n > args.naive_max and not args.naive_all]
        if skipped and not args.no_naive:
            print(f"(naive writer skipped for n = {', '.join(map(str, skipped))}; use --naive-all)")
    if checks:
        print()
        print("Known sizes:")
        for line in checks:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
