"""Time to build and solve large single instances: an empty 64x64 Sudoku and the 25x25 Gecode set.

For each instance and encoding: variables and clauses of the CNF, seconds to build it
(``grid_to_cnf``), seconds for ``solve(encoding, solver=..., budget=Budget(seconds=...))``
(which creates the solver, loads the clauses and searches), and whether the returned grid passes
``puzzle.is_solution``. A ``BudgetExhausted`` from the time limit is reported as "unknown".
Note that ``solve`` starts its clock before loading the clauses, so the time limit covers the
load as well as the search.

``--split`` times the two halves of ``solve`` separately instead (``open_solver`` +
``load_cnf``, then ``run_solver``), using the same public pieces ``solve`` is made of; the
limit then covers the search only.

Instances: the empty ``--empty-size`` grid (default 64, square boxes) with each of
``--encodings`` (default extended; reduced on an empty grid equals extended), and the 18 25x25
puzzles of gecode-9-16-25/sudoku25_gecode.txt with each of ``--puzzle-encodings`` (default
extended,reduced).

Run from the repository root::

    python benchmarks/solve_time.py
    python benchmarks/solve_time.py --encodings minimal,efficient,extended --time-limit 300
    python benchmarks/solve_time.py --split --skip-empty
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # sudokit from this checkout

from _data import GECODE25, Timer, format_table, log, machine_note, read_puzzles  # noqa: E402

from sudokit.encoders import grid_to_cnf  # noqa: E402
from sudokit.errors import BudgetExhausted  # noqa: E402
from sudokit.instances import sudoku  # noqa: E402
from sudokit.solvers import Budget, load_cnf, open_solver, run_solver, solve  # noqa: E402


def solve_split(encoded, solver: str, budget: Budget):
    """``(load_seconds, search_seconds, solution)``; raises BudgetExhausted like ``solve``."""
    with Timer() as load:
        sat = open_solver(solver)
        load_cnf(sat, encoded.cnf)
    try:
        with Timer() as search:
            found = run_solver(sat, [], budget.start())
        solution = encoded.decode(sat.get_model()) if found else None
    except BudgetExhausted:
        sat.delete()
        raise
    sat.delete()
    return load.seconds, search.seconds, solution


def measure(label: str, puzzle, encoding: str, solver: str, budget: Budget, split: bool):
    """One table row for ``puzzle`` under ``encoding``."""
    gc.collect()
    log(f"{label} {encoding}: building ...")
    with Timer() as build:
        encoded = grid_to_cnf(puzzle, encoding)
    cnf = encoded.cnf
    log(f"  {cnf.num_vars:,} vars, {cnf.num_clauses:,} clauses in {build.seconds:.2f}s; "
        "solving ...")
    load_s = search_s = None
    with Timer() as total:
        try:
            if split:
                load_s, search_s, solution = solve_split(encoded, solver, budget)
            else:
                solution = solve(encoded, solver=solver, budget=budget)
            status = "sat" if solution is not None else "unsat"
        except BudgetExhausted:
            solution, status = None, "unknown"
    if status == "sat":
        verified = "yes" if puzzle.is_solution(solution) else "NO"
    else:
        verified = status  # "unsat" or "unknown": nothing to verify
    log(f"  {status} in {total.seconds:.2f}s, verified: {verified}")
    row = [label, encoding, f"{cnf.num_vars:,}", f"{cnf.num_clauses:,}", f"{build.seconds:.3f}"]
    if split:
        row += [f"{load_s:.3f}" if load_s is not None else "-",
                f"{search_s:.3f}" if status != "unknown" else "unknown"]
    else:
        row += [f"{total.seconds:.3f}" if status != "unknown" else f"unknown ({total.seconds:.1f})"]
    row.append(verified)
    del encoded, cnf
    return row, status, verified, total.seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--empty-size", type=int, default=64,
                        help="side of the empty Sudoku (a perfect square; default: %(default)s)")
    parser.add_argument("--encodings", default="extended",
                        help="encodings for the empty grid, comma-separated (default: %(default)s)")
    parser.add_argument("--puzzle-encodings", default="extended,reduced",
                        help="encodings for the 25x25 puzzles (default: %(default)s)")
    parser.add_argument("--solver", default="cadical195",
                        help="PySAT solver (default: %(default)s)")
    parser.add_argument("--time-limit", type=float, default=180.0,
                        help="seconds per instance and encoding, 0 = none (default: %(default)s)")
    parser.add_argument("--puzzles", type=int, default=None,
                        help="only the first N 25x25 puzzles (default: all 18)")
    parser.add_argument("--skip-empty", action="store_true", help="skip the empty grid")
    parser.add_argument("--skip-puzzles", action="store_true", help="skip the 25x25 puzzles")
    parser.add_argument("--split", action="store_true",
                        help="report load (open_solver + load_cnf) and search (run_solver) "
                             "seconds separately instead of calling solve()")
    args = parser.parse_args(argv)

    timed = args.time_limit and args.time_limit > 0
    budget = Budget(seconds=args.time_limit) if timed else Budget()
    rows, failures = [], []
    totals: dict[str, float] = {}
    if not args.skip_empty:
        n = args.empty_size
        empty = sudoku(np.zeros((n, n), dtype=np.int32))
        for encoding in [e.strip() for e in args.encodings.split(",") if e.strip()]:
            row, status, verified, _ = measure(f"empty {n}x{n}", empty, encoding, args.solver,
                                               budget, args.split)
            rows.append(row)
            if verified == "NO" or status == "unsat":
                failures.append(f"empty {n}x{n} {encoding}: {status}, verified {verified}")
    if not args.skip_puzzles:
        grids = read_puzzles(GECODE25, args.puzzles)
        log(f"{len(grids)} 25x25 puzzles from {GECODE25.name}")
        for encoding in [e.strip() for e in args.puzzle_encodings.split(",") if e.strip()]:
            for i, grid in enumerate(grids, start=1):
                puzzle = sudoku(grid)
                label = f"25x25 #{i} ({puzzle.num_givens} givens)"
                row, status, verified, seconds = measure(label, puzzle, encoding, args.solver,
                                                         budget, args.split)
                rows.append(row)
                totals[encoding] = totals.get(encoding, 0.0) + seconds
                if verified == "NO" or status == "unsat":
                    failures.append(f"{label} {encoding}: {status}, verified {verified}")

    limit = f"{args.time_limit:g} s" if budget.seconds else "none"
    print(f"Single-instance solve time, solver {args.solver}, amo pairwise, time limit {limit}")
    print(machine_note() + f"; load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    times = ["load s", "search s"] if args.split else ["solve s"]
    print(format_table(["instance", "encoding", "variables", "clauses", "build s"] + times
                       + ["verified"], rows, right={2, 3, 4, 5, 6} if args.split else {2, 3, 4, 5}))
    print()
    if not args.split:
        print("solve s = solve(): new solver + loading the clauses + search (see --split)")
    for encoding, seconds in totals.items():
        print(f"25x25 set, {encoding}: {seconds:.2f} s in total (solver time, excluding build)")
    if failures:
        print()
        print("FAILURES:")
        for line in failures:
            print("  " + line)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
