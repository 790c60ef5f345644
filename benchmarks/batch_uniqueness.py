"""Uniqueness-check throughput: one shared incremental solver vs. a new solver per puzzle.

Each puzzle is counted with limit 2 (count == 1 means "unique"). Two methods are compared:

shared    ``run_batch(puzzles, task="count", limit=2, solver=...)``: the empty 9x9 grid's CNF is
          loaded once into one incremental solver; each puzzle's givens are assumptions.
baseline  ``count_solutions(grid_to_cnf(p), limit=2, solver=...)`` in a loop: encode the puzzle
          and build (and load) a fresh solver for every puzzle. Run on a smaller slice
          (``--baseline-count``); puzzles/s makes the two comparable.

Every count must be 1 and every returned solution must pass ``puzzle.is_solution`` (checked
after timing, outside the timed loop). Puzzles are parsed and turned into ``sudoku`` objects
before timing too, so the times are encode + solve only.

Sets: the first ``--count`` puzzles of the 49,158 17-clue puzzles (tdoku puzzles2_17_clue) and
all 1,465 of magictour top1465. Goal: >= 2,000 puzzles/s on the 17-clue set with cadical195 on
one core (the script is single-threaded; the machine may be shared, see the load average line).

Run from the repository root::

    python benchmarks/batch_uniqueness.py                        # 5000 + 1465 puzzles, 3 solvers
    python benchmarks/batch_uniqueness.py --count 49158 --solvers cadical195
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # sudokit from this checkout

from _data import SUDOKU17, TOP1465, Timer, format_table, log, machine_note, read_puzzles  # noqa: E402

from sudokit.batch import run_batch  # noqa: E402
from sudokit.encoders import grid_to_cnf  # noqa: E402
from sudokit.instances import sudoku  # noqa: E402
from sudokit.solvers import count_solutions  # noqa: E402

GOAL = 2000.0  # puzzles/s, 17-clue set, cadical195, shared solver


def run_shared(puzzles, solver: str):
    """``(seconds, results)`` for the shared incremental solver."""
    step = max(1000, len(puzzles) // 4)

    def progress(done):
        if done % step == 0 or done == len(puzzles):
            log(f"    {done}/{len(puzzles)}")

    with Timer() as timer:
        results = list(run_batch(puzzles, task="count", limit=2, solver=solver, progress=progress))
    return timer.seconds, results


def run_baseline(puzzles, solver: str):
    """``(seconds, counts)`` for encode + new solver per puzzle."""
    counts = []
    step = max(1000, len(puzzles) // 4)
    with Timer() as timer:
        for i, puzzle in enumerate(puzzles, start=1):
            counts.append(count_solutions(grid_to_cnf(puzzle), limit=2, solver=solver))
            if i % step == 0 or i == len(puzzles):
                log(f"    {i}/{len(puzzles)}")
    return timer.seconds, counts


def verify_shared(puzzles, results) -> list[str]:
    """Problems with the shared-solver results (empty list if all are unique and valid)."""
    errors = []
    if len(results) != len(puzzles):
        errors.append(f"{len(results)} results for {len(puzzles)} puzzles")
    for i, (puzzle, result) in enumerate(zip(puzzles, results, strict=False)):
        if result.index != i:
            errors.append(f"puzzle {i + 1}: result index {result.index}")
        if result.count != 1:
            errors.append(f"puzzle {i + 1}: count {result.count} (status {result.status})")
        elif result.solution is None or not puzzle.is_solution(result.solution):
            errors.append(f"puzzle {i + 1}: returned grid is not a solution")
    return errors


def segment_rates(results, size: int) -> tuple[str, str]:
    """Puzzles/s over the first and the last ``size`` results (sum of per-puzzle seconds)."""
    if not results:
        return "-", "-"
    def rate(chunk):
        spent = sum(r.seconds for r in chunk)
        return f"{len(chunk) / spent:,.0f}" if spent > 0 else "-"
    return rate(results[:size]), rate(results[-size:])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--count", type=int, default=5000,
                        help="first N puzzles of the 17-clue set "
                             "(default: %(default)s; 49158 = all)")
    parser.add_argument("--top-count", type=int, default=None,
                        help="first N puzzles of top1465 (default: all 1465)")
    parser.add_argument("--baseline-count", type=int, default=1000,
                        help="puzzles per set for the new-solver-per-puzzle baseline "
                             "(default: %(default)s; 0 skips it)")
    parser.add_argument("--solvers", default="cadical195,glucose4,minisat22",
                        help="comma-separated PySAT solver names (default: %(default)s)")
    parser.add_argument("--segment", type=int, default=1000,
                        help="size of the first/last segments whose rates are shown "
                             "(default: %(default)s)")
    parser.add_argument("--sets", default="17-clue,top1465",
                        help="which sets to run: 17-clue, top1465 (default: %(default)s)")
    args = parser.parse_args(argv)

    solvers = [s.strip() for s in args.solvers.split(",") if s.strip()]
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
    sources = {"17-clue": (SUDOKU17, args.count), "top1465": (TOP1465, args.top_count)}
    unknown = [s for s in wanted if s not in sources]
    if unknown:
        parser.error(f"unknown set(s) {', '.join(unknown)}; choose from {', '.join(sources)}")

    rows, failures, goal_rate, goal_segments = [], [], None, None
    for set_name in wanted:
        path, limit = sources[set_name]
        with Timer() as timer:
            grids = read_puzzles(path, limit)
            puzzles = [sudoku(g) for g in grids]
        log(f"{set_name}: {len(puzzles)} puzzles read and validated in {timer.seconds:.2f}s")
        base_slice = puzzles[:max(0, args.baseline_count)]
        for solver in solvers:
            base_rate = None
            if base_slice:
                log(f"  {set_name} {solver} baseline (new solver per puzzle), "
                    f"{len(base_slice)} puzzles")
                seconds, counts = run_baseline(base_slice, solver)
                bad = [i + 1 for i, c in enumerate(counts) if c != 1]
                if bad:
                    failures.append(f"{set_name} {solver} baseline: counts != 1 "
                                    f"at puzzles {bad[:10]}")
                base_rate = len(base_slice) / seconds
                rows.append([set_name, solver, "new solver per puzzle", len(base_slice),
                             f"{seconds:.2f}", f"{base_rate:,.0f}", "1.0x", "-", "-",
                             "yes" if not bad else f"NO ({len(bad)})"])
            log(f"  {set_name} {solver} shared incremental solver, {len(puzzles)} puzzles")
            seconds, results = run_shared(puzzles, solver)
            errors = verify_shared(puzzles, results)
            failures.extend(f"{set_name} {solver} shared: {e}" for e in errors[:10])
            rate = len(puzzles) / seconds
            slowest = max((r.seconds for r in results), default=0.0)
            first, last = segment_rates(results, args.segment)
            rows.append([set_name, solver, "shared (run_batch)", len(puzzles), f"{seconds:.2f}",
                         f"{rate:,.0f}", f"{rate / base_rate:.1f}x" if base_rate else "-",
                         first, last, "yes" if not errors else f"NO ({len(errors)})"])
            if set_name == "17-clue" and solver == "cadical195":
                goal_segments = (first, last)
            log(f"    {rate:,.0f} puzzles/s, slowest puzzle {slowest * 1000:.1f} ms")
            if set_name == "17-clue" and solver == "cadical195":
                goal_rate = rate

    print("Uniqueness check (count with limit 2), 9x9, encoding extended, amo pairwise")
    print(machine_note() + f"; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print(format_table(["set", "solver", "method", "puzzles", "seconds", "puzzles/s",
                        "speed-up", f"first {args.segment}/s", f"last {args.segment}/s",
                        "verified"], rows, right={3, 4, 5, 6, 7, 8}))
    print(f"(first/last {args.segment}/s: puzzles/s over the first and the last {args.segment} "
          "puzzles of a shared run, from per-puzzle times)")
    print()
    if goal_rate is None:
        print("goal not checked (run the 17-clue set with cadical195)")
    else:
        verdict = "goal met" if goal_rate >= GOAL else "goal missed"
        print(f"{verdict}: 17-clue, cadical195, shared solver: {goal_rate:,.0f} puzzles/s "
              f"(goal >= {GOAL:,.0f} puzzles/s on one core)")
        if goal_segments is not None:
            print(f"  throughput over the run: first {args.segment} at {goal_segments[0]} "
                  f"puzzles/s, "
                  f"last {args.segment} at {goal_segments[1]} puzzles/s")
    if failures:
        print()
        print("VERIFICATION FAILURES:")
        for line in failures:
            print("  " + line)
        return 1
    print("all counts == 1 and all solutions verified with is_solution")
    return 0


if __name__ == "__main__":
    sys.exit(main())
