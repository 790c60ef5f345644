"""Generation rates: unique and minimal puzzles per size, and random full grids.

For each row the script generates puzzles (or full grids) with ``PuzzleGenerator`` from one
seed, after a warm-up (numba compilation), and prints puzzles (or grids) per second, the
mean clue count, and the share of the time spent in uniqueness checks (the removal passes
and the final proof; the rest is filling the grid and Python glue). Every puzzle is checked
once more with the DLX library counter afterwards (not timed); the script exits 1 if any is
not unique. Goals (issue): minimal 9x9 >= 500/s on one core, unique 16x16 >= 5/s, a unique
25x25 <= 30 s, a random 25x25 grid <= 2 s, a random 64x64 grid <= 10 s.

Baseline in the same run: for 36, 49 and 64 the script also fills one grid the way sudokit did
before the band matchings (random permutations in the diagonal boxes, then CaDiCaL on the
whole rest), capped at ``--baseline-conflicts`` conflicts.

Reference figures (not measured here): Raggi et al. report 10,000-20,000 s for filling one
random 64x64 grid; QQwing generates about 235 minimal 9x9 puzzles per second on this machine
(figure supplied with the issue).

Run: ``python benchmarks/generate_rate.py [--seconds 5] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

from sudokit.generators import PuzzleGenerator  # noqa: E402
from sudokit.generators.grids import SEARCH_MAX_SIDE  # noqa: E402
from sudokit.instances import sudoku  # noqa: E402

PUZZLE_ROWS = [(9, "minimal", None), (9, "unique", None), (16, "unique", None),
               (16, "minimal", None), (25, "unique", 2)]
GRID_ROWS = [9, 16, 25, 36, 49, 64]


def _box(n):
    r = int(round(n ** 0.5))
    return (r, n // r)


def puzzle_row(n, mode, limit, seconds, seed):
    gen = PuzzleGenerator(n, _box(n), seed=seed)
    gen.make(mode)                                 # warm-up
    made, started = [], time.perf_counter()
    while time.perf_counter() - started < seconds and (limit is None or len(made) < limit):
        made.append(gen.make(mode))
    elapsed = time.perf_counter() - started
    bad = sum(gen.count(p.puzzle, "dlx") != 1 for p in made)
    check = sum(p.check_seconds for p in made)
    return (f"{n}x{n}", mode, len(made), elapsed, len(made) / elapsed,
            max(p.seconds for p in made), np.mean([p.clues for p in made]), check / elapsed,
            bad)


def grid_row(n, seconds, seed):
    gen = PuzzleGenerator(n, _box(n), seed=seed)
    gen.make("full")
    grids, started = [], time.perf_counter()
    while time.perf_counter() - started < seconds or not grids:
        t0 = time.perf_counter()
        grids.append((gen.full_grid(), time.perf_counter() - t0))
    elapsed = time.perf_counter() - started
    template = sudoku(np.zeros((n, n), int), _box(n))
    bad = sum(not template.is_solution(g) for g, _ in grids)
    method = "search" if n <= SEARCH_MAX_SIDE else "bands+CDCL"
    return (f"{n}x{n}", f"full ({method})", len(grids), elapsed, len(grids) / elapsed,
            max(s for _, s in grids), float("nan"), 0.0, bad)


def diagonal_boxes_row(n, conflicts, seed):
    """Baseline: independent random diagonal boxes, CaDiCaL completes the whole rest."""
    from sudokit.encoders import completion_to_cnf
    from sudokit.solvers.sat import open_solver

    r, c = _box(n)
    rng = np.random.default_rng(seed)
    seeds = np.zeros((n, n), dtype=np.int32)
    for b in range(min(r, c)):
        seeds[b * r:(b + 1) * r, b * c:(b + 1) * c] = (rng.permutation(n) + 1).reshape(r, c)
    started = time.perf_counter()
    encoded = completion_to_cnf(sudoku(seeds, (r, c)), "reduced", "seqcounter")
    with open_solver("cadical195", encoded.cnf) as sat:
        sat.conf_budget(conflicts)
        found = sat.solve_limited()
    elapsed = time.perf_counter() - started
    kind = "baseline: diag" if found else f"baseline: diag>{conflicts // 1000}k"
    return (f"{n}x{n}", kind, int(bool(found)), elapsed, float(bool(found)) / elapsed, elapsed,
            float("nan"), 0.0, 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="Time per row.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline-conflicts", type=int, default=30_000,
                        help="Conflict cap of the diagonal-box baseline fills (0: skip them).")
    args = parser.parse_args()
    rows = []
    for n, mode, limit in PUZZLE_ROWS:
        print(f"{n}x{n} {mode} ...", file=sys.stderr, flush=True)
        rows.append(puzzle_row(n, mode, limit, args.seconds, args.seed))
    for n in GRID_ROWS:
        print(f"{n}x{n} full grids ...", file=sys.stderr, flush=True)
        rows.append(grid_row(n, min(args.seconds, 2.0), args.seed))
        if n >= 36 and args.baseline_conflicts:
            print(f"{n}x{n} baseline fill ...", file=sys.stderr, flush=True)
            rows.append(diagonal_boxes_row(n, args.baseline_conflicts, args.seed))
    print(f"Generation rate (one process, one core; checker dlx; seed {args.seed})")
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"{os.cpu_count()} CPUs, {platform.machine()}\n")
    head = ("size", "kind", "made", "seconds", "per s", "max s", "clues", "check share")
    print(f"{head[0]:<6} {head[1]:<18} {head[2]:>5} {head[3]:>8} {head[4]:>9} {head[5]:>7} "
          f"{head[6]:>6} {head[7]:>11}")
    failed = 0
    for size, kind, made, secs, rate, worst, clues, share, bad in rows:
        clue_text = "-" if np.isnan(clues) else f"{clues:.1f}"
        print(f"{size:<6} {kind:<18} {made:>5} {secs:>8.2f} {rate:>9.1f} {worst:>7.3f} "
              f"{clue_text:>6} {share:>10.0%}")
        failed += bad
    print("\nReference: Raggi et al., one random 64x64 fill: 10,000-20,000 s; "
          "QQwing: 235 minimal 9x9 puzzles/s on this machine.")
    if failed:
        print(f"FAILED: {failed} puzzles or grids did not check", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
