"""Uniqueness throughput of the DLX solver on the 17-clue Sudoku set, with SAT as reference.

For the first ``--count`` puzzles of tdoku's ``puzzles2_17_clue`` (49,158 puzzles) this counts
solutions with limit 2 (one solution and "is there a second?") in three ways:

* ``run_batch(puzzles, task="count", limit=2, solver="dlx")``, timed end to end from the
  puzzle objects (one shared dancing-links structure of the empty 9x9 grid, givens
  preselected, ``count_many`` in chunks of 4,096, solutions decoded to grids);
* ``DancingLinks.count_many`` directly: the structure of the empty grid built once, the givens'
  option indices gathered into one CSR batch, then a single kernel call for all puzzles
  ("kernel s" is that call alone, "seconds" adds building the batch and decoding the first
  covers to grids);
* as a reference, the SAT path ``run_batch(..., solver="cadical195")`` (shared incremental
  solver, givens as assumptions) on the first ``--sat-count`` puzzles.

Puzzles are parsed with ``sudokit.formats.parse_instances`` before any timing. Every solver is
warmed up first (numba compilation). Afterwards every count must be 1 and every solution must
pass ``puzzle.is_solution``; the script exits 1 otherwise. "cpu s" is the process CPU time of
the timed region: about equal to "seconds" means one core was used. Goal: >= 10,000 puzzles/s
with DLX (run_batch, end to end) on one core.

Run: ``python benchmarks/dlx_throughput.py [--count 49158] [--sat-count 10000]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import SUDOKU17, format_table, log  # noqa: E402

from sudokit.batch import run_batch  # noqa: E402
from sudokit.encoders import completion_to_exact_cover  # noqa: E402
from sudokit.formats import parse_instances  # noqa: E402
from sudokit.instances import sudoku  # noqa: E402
from sudokit.solvers.dlx import DancingLinks  # noqa: E402

GOAL = 10_000  # puzzles/s


def load(path: Path, limit: int | None):
    text = path.read_text(encoding="ascii", errors="replace")
    if limit is not None:
        # parse only what is needed: keep comment lines, cut after `limit` puzzle lines
        kept, n = [], 0
        for line in text.splitlines():
            kept.append(line)
            if line.strip() and not line.lstrip().startswith("#"):
                n += 1
                if n >= limit:
                    break
        text = "\n".join(kept) + "\n"
    return [r.instance for r in parse_instances(text, str(path))][:limit]


class Clock:
    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.wall
        self.cpu_seconds = time.process_time() - self.cpu
        return False


def verify(puzzles, counts, solutions) -> tuple[bool, str]:
    counts = np.asarray(counts)
    bad_count = np.flatnonzero(counts != 1)
    if bad_count.size:
        i = int(bad_count[0])
        return False, f"{bad_count.size} counts != 1 (first: puzzle {i + 1}, count {counts[i]})"
    for i, (p, s) in enumerate(zip(puzzles, solutions, strict=True)):
        if s is None or not p.is_solution(s):
            return False, f"puzzle {i + 1}: solution fails is_solution"
    return True, "all counts 1, all solutions verified"


def progress_logger(label, total, every=10_000):
    def report(done):
        if done % every == 0 or done == total:
            log(f"{label}: {done:,}/{total:,}")
    return report


def via_run_batch(puzzles, solver):
    label = f"run_batch(solver={solver!r})"
    log(f"{label}: warm-up")
    list(run_batch(puzzles[:2], task="count", limit=2, solver=solver))
    log(f"{label}: {len(puzzles):,} puzzles")
    with Clock() as clock:
        results = list(run_batch(puzzles, task="count", limit=2, solver=solver,
                                 progress=progress_logger(label, len(puzzles))))
    ok, note = verify(puzzles, [r.count for r in results], [r.solution for r in results])
    return dict(method="run_batch (end to end)", solver=solver, puzzles=len(puzzles),
                kernel=None, seconds=clock.seconds, cpu=clock.cpu_seconds, ok=ok, note=note)


def via_count_many(puzzles):
    label = "DancingLinks.count_many"
    empty = sudoku(np.zeros((9, 9), dtype=np.int32))
    with Clock() as build:
        encoding = completion_to_exact_cover(empty, "full")
        links = DancingLinks.from_problem(encoding.xc)
    log(f"{label}: structure of the empty grid built in {build.seconds:.4f} s "
        f"({encoding.xc.num_items} items, {encoding.xc.num_options} options); warm-up")
    links.count_many([0, 0], [], limit=2)
    log(f"{label}: {len(puzzles):,} puzzles in one call")
    links.reset_counters()
    with Clock() as clock:
        lookup = encoding.option_lookup()                      # (81, 9) option per cell/value
        givens = np.stack([p.flat_givens for p in puzzles])   # (P, 81)
        rows, cells = np.nonzero(givens)
        options = lookup[cells, givens[rows, cells] - 1]
        starts = np.concatenate(([0], np.cumsum(np.count_nonzero(givens, axis=1))))
        with Clock() as kernel:
            counts, firsts, _ = links.count_many(starts, options, limit=2)
        solutions = [_decode(encoding, p, row) for p, row in zip(puzzles, firsts, strict=True)]
    ok, note = verify(puzzles, counts, solutions)
    note += f"; {links.nodes / len(puzzles):,.0f} nodes per puzzle"
    return dict(method="count_many (one call)", solver="dlx", puzzles=len(puzzles),
                kernel=kernel.seconds, seconds=clock.seconds, cpu=clock.cpu_seconds, ok=ok,
                note=note)


def _decode(encoding, puzzle, row):
    row = row[row >= 0]
    return replace(encoding, source=puzzle).decode(row) if row.size else None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=None,
                        help="first N 17-clue puzzles for DLX (default all 49,158)")
    parser.add_argument("--sat-count", type=int, default=10_000,
                        help="first N puzzles for the cadical195 reference (default 10,000; "
                             "0 skips it)")
    parser.add_argument("--sat-solver", default="cadical195",
                        help="PySAT solver of the reference run (default cadical195)")
    args = parser.parse_args(argv)

    need = max(args.count or 0, args.sat_count) if args.count is not None else None
    log(f"parsing {SUDOKU17}")
    start = time.perf_counter()
    puzzles = load(SUDOKU17, need)
    log(f"{len(puzzles):,} puzzles parsed in {time.perf_counter() - start:.1f} s")
    dlx_puzzles = puzzles if args.count is None else puzzles[:args.count]

    rows = [via_run_batch(dlx_puzzles, "dlx"), via_count_many(dlx_puzzles)]
    if args.sat_count > 0:
        rows.append(via_run_batch(puzzles[:args.sat_count], args.sat_solver))

    print("Uniqueness throughput (count with limit 2), 17-clue 9x9 puzzles "
          "(tdoku puzzles2_17_clue)")
    print(f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} CPUs, "
          f"{platform.machine()}; load average "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    headers = ["solver", "method", "puzzles", "kernel s", "seconds", "cpu s", "puzzles/s",
               "us/puzzle", "verified"]
    table = []
    for r in rows:
        table.append([r["solver"], r["method"], f"{r['puzzles']:,}",
                      "-" if r["kernel"] is None else f"{r['kernel']:.3f}",
                      f"{r['seconds']:.3f}", f"{r['cpu']:.3f}",
                      f"{r['puzzles'] / r['seconds']:,.0f}",
                      f"{r['seconds'] / r['puzzles'] * 1e6:.1f}", "yes" if r["ok"] else "NO"])
    print(format_table(headers, table, right=set(range(2, len(headers) - 1))))
    print()
    for r in rows:
        print(f"{r['solver']}, {r['method']}: {r['note']}")
    kernel_row = rows[1]
    print(f"count_many kernel alone: {kernel_row['puzzles'] / kernel_row['kernel']:,.0f} "
          "puzzles/s (seconds = kernel + gathering givens + decoding the grids)")
    print()
    rate = rows[0]["puzzles"] / rows[0]["seconds"]
    print(("goal met" if rate >= GOAL else "goal missed")
          + f": DLX run_batch {rate:,.0f} puzzles/s on one core (goal >= {GOAL:,} puzzles/s)")
    if len(rows) > 2:
        sat = rows[2]["puzzles"] / rows[2]["seconds"]
        print(f"DLX run_batch vs {args.sat_solver} run_batch: {rate / sat:.1f}x")
    all_ok = all(r["ok"] for r in rows)
    print("all counts == 1 and all solutions verified with is_solution" if all_ok
          else "VERIFICATION FAILED")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
