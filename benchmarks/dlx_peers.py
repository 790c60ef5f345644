"""sudokit's DLX against two exact-cover solvers from PyPI: exact-cover (C) and xcover (numba).

Three tasks, every solver fed the same exact cover matrix (sudokit's ``ExactCover``):

(a) count all Latin squares of order 5 (161,280; 75 items cell/row-value/column-value,
    125 options), best of ``--repeat``;
(b) count all 4x4 Sudoku grids (288; 64 items, 64 options), best of ``--repeat``;
(c) solve plus uniqueness (count with limit 2, keep the first solution) on the 1,465 magictour
    top1465 puzzles, one reduced exact cover per puzzle
    (``completion_to_exact_cover(p, "reduced")``, built once for all solvers and not timed).
    sudokit runs twice: per puzzle (``DancingLinks.from_problem(xc)``, then one kernel call
    that counts with limit 2 and returns the first cover: ``count_many`` with the single
    empty preselection, i.e. ``count(limit=2)`` plus the solution) and as a batch
    (``run_batch(puzzles, task="count", limit=2, solver="dlx")``, which is
    timed end to end from the puzzle objects: its own encoding, search and decoding).

Every timed region starts from the ``ExactCover`` object and includes the conversion into the
solver's own input (sudokit: the dancing-links arrays; exact-cover: a dense bool matrix;
xcover: uint32 CSR arrays), which the table also shows separately as "prep s" for (c).
Each solver is run once before timing (numba compilation, caches). Counts are checked against
the known totals and against sudokit; every (c) solution is decoded and checked with
``puzzle.is_solution``. A timing only counts as valid when the checks pass (column "ok").

The peers are not sudokit dependencies: install them into their own venv first::

    bash benchmarks/dlx_setup.sh && benchmarks/.venv-peers/bin/python benchmarks/dlx_peers.py
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import TOP1465, format_table, log  # noqa: E402

from sudokit.batch import run_batch  # noqa: E402
from sudokit.encoders import completion_to_exact_cover  # noqa: E402
from sudokit.formats import parse_instances  # noqa: E402
from sudokit.instances import latin_square, sudoku  # noqa: E402
from sudokit.solvers.dlx import DancingLinks  # noqa: E402

try:
    import exact_cover
    from exact_cover.error import NoSolution
except ImportError:  # pragma: no cover - reported in the table
    exact_cover = None
try:
    import xcover
except ImportError:  # pragma: no cover
    xcover = None

LATIN5_COUNT = 161_280
SUDOKU4_COUNT = 288
LATIN5_GOAL_SECONDS = 0.200
TIE = 1.05   # within 5 % of the fastest counts as tied


# ----------------------------------------------------------------------------- solvers
# Each solver: prep(xc) -> its input; count_all(input) -> int;
# first_two(input) -> (count up to 2, first cover as option indices or None).

class Sudokit:
    name = "sudokit DLX"

    @staticmethod
    def prep(xc):
        return DancingLinks.from_problem(xc)

    @staticmethod
    def count_all(links):
        return links.count()

    @staticmethod
    def first_two(links):
        # count(limit=2) and first() as two calls would search twice; count_many returns the
        # count and the first cover of one preselected (empty) set in one kernel call.
        counts, firsts, _ = links.count_many([0, 0], [], limit=2)
        row = firsts[0]
        return int(counts[0]), (row[row >= 0] if counts[0] else None)


class ExactCoverC:
    name = "exact-cover (C)"

    @staticmethod
    def prep(xc):
        # exact_cover works on a dense bool matrix (rows = options) and treats every column as
        # primary; the problems here have only primary items (checked in _check_primary).
        return np.ascontiguousarray(xc.to_dense().astype(np.bool_))

    @staticmethod
    def count_all(dense):
        return int(exact_cover.get_solution_count(dense))

    @staticmethod
    def first_two(dense):
        # get_all_solutions(matrix, max_count=2) stops after 2 covers; it returns a *set* of
        # tuples (so "first" is whichever it returns; with one cover there is no choice) and
        # raises NoSolution when there is none.
        try:
            found = exact_cover.get_all_solutions(dense, 2)
        except NoSolution:
            return 0, None
        first = min(found) if found else None
        return len(found), (np.asarray(first, dtype=np.int64) if first is not None else None)


class XCover:
    name = "xcover (numba)"

    @staticmethod
    def prep(xc):
        options = xc.option_items.astype(np.uint32)
        return (options, xc.option_starts.astype(np.uint32),
                np.zeros(len(options), dtype=np.uint32), np.uint32(xc.num_items),
                np.uint32(xc.num_items - xc.num_primary))

    @staticmethod
    def count_all(args):
        # algorithm_c is a numba generator yielding each cover as a list of option indices
        count = 0
        for _ in xcover.algorithm_c(*args):
            count += 1
        return count

    @staticmethod
    def first_two(args):
        found = list(itertools.islice(xcover.algorithm_c(*args), 2))
        return len(found), (np.asarray(found[0], dtype=np.int64) if found else None)


def available_solvers():
    solvers = [Sudokit]
    missing = []
    (solvers if exact_cover is not None else missing).append(ExactCoverC)
    (solvers if xcover is not None else missing).append(XCover)
    return solvers, missing


def _check_primary(xc, what):
    if xc.num_primary != xc.num_items:
        raise SystemExit(f"{what}: has secondary items; exact-cover needs all items primary")


# ----------------------------------------------------------------------------- tasks
def count_task(label, problem, expected, solvers, repeat):
    """Rows for counting all covers of ``problem`` (full exact cover)."""
    xc = completion_to_exact_cover(problem, "full").xc
    _check_primary(xc, label)
    rows = []
    reference = None
    for solver in solvers:
        log(f"{label}: {solver.name}: warm-up")
        solver.count_all(solver.prep(xc))
        best, count = float("inf"), None
        for r in range(repeat):
            start = time.perf_counter()
            count = solver.count_all(solver.prep(xc))
            seconds = time.perf_counter() - start
            best = min(best, seconds)
            log(f"{label}: {solver.name}: run {r + 1}/{repeat}: {count:,} in {seconds:.4f} s")
        if solver is Sudokit:
            reference = count
        ok = count == expected and count == reference
        rows.append(dict(task=label, solver=solver.name, method="count all", items=xc.num_items,
                         options=xc.num_options, instances=1, count=f"{count:,}",
                         seconds=best, prep=None, ok=ok))
    return rows


def load_top1465(limit):
    text = TOP1465.read_text(encoding="ascii", errors="replace")
    records = parse_instances(text, str(TOP1465))
    return [r.instance for r in records][:limit]


def unique_task(label, puzzles, solvers, repeat):
    """Rows for solve + uniqueness per puzzle (reduced exact cover) and sudokit's batch."""
    log(f"{label}: building {len(puzzles)} reduced exact covers (not timed)")
    start = time.perf_counter()
    encodings = [completion_to_exact_cover(p, "reduced") for p in puzzles]
    encode_seconds = time.perf_counter() - start
    for enc in encodings:
        _check_primary(enc.xc, label)
    items = sum(e.xc.num_items for e in encodings) / len(encodings)
    options = sum(e.xc.num_options for e in encodings) / len(encodings)
    rows = []
    reference = None
    for solver in solvers:
        log(f"{label}: {solver.name}: warm-up")
        solver.first_two(solver.prep(encodings[0].xc))
        best = best_prep = float("inf")
        for r in range(repeat):
            counts, firsts = [], []
            prep_seconds = 0.0
            start = time.perf_counter()
            for enc in encodings:
                t0 = time.perf_counter()
                data = solver.prep(enc.xc)
                prep_seconds += time.perf_counter() - t0
                count, first = solver.first_two(data)
                counts.append(count)
                firsts.append(first)
            seconds = time.perf_counter() - start
            if seconds < best:
                best, best_prep = seconds, prep_seconds
            log(f"{label}: {solver.name}: run {r + 1}/{repeat}: {seconds:.3f} s "
                f"(prep {prep_seconds:.3f} s)")
        ok = all(c == 1 for c in counts) and all(
            f is not None and p.is_solution(e.decode(f))
            for p, e, f in zip(puzzles, encodings, firsts, strict=True))
        if solver is Sudokit:
            reference = counts
        ok = ok and counts == reference
        rows.append(dict(task=label, solver=solver.name, method="per puzzle, reduced XC",
                         items=f"{items:.0f}", options=f"{options:.0f}", instances=len(puzzles),
                         count="all 1" if ok else _summary(counts), seconds=best,
                         prep=best_prep, ok=ok))

    log(f"{label}: sudokit run_batch(solver='dlx'): warm-up")
    list(run_batch(puzzles[:2], task="count", limit=2, solver="dlx"))
    best = float("inf")
    for r in range(repeat):
        start = time.perf_counter()
        results = list(run_batch(puzzles, task="count", limit=2, solver="dlx"))
        seconds = time.perf_counter() - start
        best = min(best, seconds)
        log(f"{label}: sudokit run_batch: run {r + 1}/{repeat}: {seconds:.3f} s")
    counts = [res.count for res in results]
    ok = all(c == 1 for c in counts) and all(
        res.solution is not None and p.is_solution(res.solution)
        for p, res in zip(puzzles, results, strict=True))
    rows.append(dict(task=label, solver="sudokit DLX", method="run_batch (end to end)",
                     items=324, options=729, instances=len(puzzles),
                     count="all 1" if ok else _summary(counts), seconds=best, prep=None, ok=ok))
    return rows, encode_seconds


def _summary(counts):
    values, freq = np.unique(np.asarray(counts), return_counts=True)
    return ", ".join(f"{v}:{f}" for v, f in zip(values.tolist(), freq.tolist(), strict=True))


# ----------------------------------------------------------------------------- report
def rank_rows(rows):
    """Rank within each task by seconds (1 = fastest); a row within TIE of the best shares
    rank 1. Returns {task: (sudokit_best, peer_best)}."""
    verdict = {}
    for task in dict.fromkeys(r["task"] for r in rows):
        group = sorted((r for r in rows if r["task"] == task), key=lambda r: r["seconds"])
        best = group[0]["seconds"]
        for position, row in enumerate(group, start=1):
            row["rank"] = 1 if row["seconds"] <= best * TIE else position
        ours = min(r["seconds"] for r in group if r["solver"].startswith("sudokit"))
        peers = [r["seconds"] for r in group if not r["solver"].startswith("sudokit")]
        verdict[task] = (ours, min(peers) if peers else None)
    return verdict


def version(dist):
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as v
    try:
        return v(dist)
    except PackageNotFoundError:
        return "not installed"


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Run under the peers' venv: bash benchmarks/dlx_setup.sh && "
               "benchmarks/.venv-peers/bin/python benchmarks/dlx_peers.py")
    parser.add_argument("--repeat", type=int, default=3,
                        help="timed runs per solver and task, best reported (default 3)")
    parser.add_argument("--top-count", type=int, default=None,
                        help="use only the first N top1465 puzzles (default all 1465)")
    args = parser.parse_args(argv)

    solvers, missing = available_solvers()
    if missing:
        log("peers not importable: " + ", ".join(s.name for s in missing)
            + " (run bash benchmarks/dlx_setup.sh and use benchmarks/.venv-peers/bin/python)")

    rows = []
    rows += count_task("latin 5", latin_square(np.zeros((5, 5), dtype=int)), LATIN5_COUNT,
                       solvers, args.repeat)
    rows += count_task("sudoku 4x4", sudoku(np.zeros((4, 4), dtype=int)), SUDOKU4_COUNT,
                       solvers, args.repeat)
    puzzles = load_top1465(args.top_count)
    unique_rows, encode_seconds = unique_task("top1465", puzzles, solvers, args.repeat)
    rows += unique_rows
    verdict = rank_rows(rows)

    print(f"DLX against peer exact-cover solvers (best of {args.repeat}, one core)")
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"numba {version('numba')}, exact-cover {version('exact-cover')}, "
          f"xcover {version('xcover')}, {os.cpu_count()} CPUs, {platform.machine()}; "
          f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    headers = ["task", "solver", "method", "items", "options", "instances", "count",
               "prep s", "search s", "seconds", "per instance", "rank", "ok"]
    table = []
    for r in rows:
        per = r["seconds"] / r["instances"]
        table.append([r["task"], r["solver"], r["method"], r["items"], r["options"],
                      r["instances"], r["count"],
                      "-" if r["prep"] is None else f"{r['prep']:.3f}",
                      "-" if r["prep"] is None else f"{r['seconds'] - r['prep']:.3f}",
                      f"{r['seconds']:.4f}",
                      f"{per * 1e3:.3f} ms" if r["instances"] > 1 else "-",
                      r["rank"], "yes" if r["ok"] else "NO"])
    print(format_table(headers, table, right=set(range(3, len(headers) - 1))))
    print()
    print("items/options for top1465 per puzzle: mean over the puzzles; run_batch uses the full\n"
          "9x9 structure (324 items, 729 options) once and preselects each puzzle's givens.\n"
          "seconds: from the ExactCover object (per-puzzle rows: reduced encodings built once,\n"
          f"untimed, {encode_seconds:.2f} s in all) or, for run_batch, from the puzzle objects;\n"
          "prep s: the part of it spent converting the matrix into the solver's input\n"
          "(sudokit: building the DancingLinks arrays), search s: the rest (seconds - prep s).\n"
          f"rank: 1 = fastest; rows within {round((TIE - 1) * 100)} % of the fastest share rank 1.")
    for s in missing:
        print(f"{s.name}: not installed in this interpreter (see benchmarks/dlx_setup.sh)")
    print()

    all_ok = all(r["ok"] for r in rows)
    latin = min(r["seconds"] for r in rows if r["task"] == "latin 5"
                and r["solver"].startswith("sudokit"))
    print(("goal met" if latin <= LATIN5_GOAL_SECONDS else "goal missed")
          + f": latin 5 counted by sudokit DLX in {latin * 1e3:.0f} ms "
            f"(goal <= {LATIN5_GOAL_SECONDS * 1e3:.0f} ms; Knuth's DLX1 in C: about 130 ms)")
    for task, (ours, peer) in verdict.items():
        if peer is None:
            print(f"goal missed: {task}: no peer ran, ranking not possible")
            continue
        met = ours <= peer * TIE
        print(("goal met" if met else "goal missed")
              + f": {task}: sudokit first or tied: sudokit {ours:.4f} s, best peer {peer:.4f} s "
                f"({peer / ours:.2f}x)")
    per_puzzle = [r for r in rows if r["method"].startswith("per puzzle")]
    ours = [r for r in per_puzzle if r["solver"].startswith("sudokit")]
    peers = [r for r in per_puzzle if not r["solver"].startswith("sudokit")]
    if ours and peers:
        mine, best = ours[0], min(peers, key=lambda r: r["seconds"])
        first = mine["seconds"] <= best["seconds"] * TIE
        print(f"note: top1465 per puzzle only: sudokit {mine['seconds']:.3f} s vs {best['solver']} "
              f"{best['seconds']:.3f} s: sudokit {'first or tied' if first else 'behind'}; "
              f"without prep: sudokit {mine['seconds'] - mine['prep']:.3f} s vs "
              f"{best['seconds'] - best['prep']:.3f} s")
    print("all counts and solutions verified" if all_ok
          else "VERIFICATION FAILED: rows with ok = NO are not valid timings")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
