"""The human-technique rating (sudokit.human) against Sudoku Explainer's, and Simonis's grade.

Three measurements, one table each (and, for the first, where the ratings differ):

1. Sudoku Exchange ``diabolical.txt`` (39,719 puzzles rated by Sukaku Explainer, SE 5.0-9.3):
   the share of puzzles whose rating equals SE's exactly, within 0.1 and within 0.5, the
   Spearman correlation, and puzzles per second (whole process: reading, rating, wall and
   CPU of every process) against the peer of the same run, Simonis's propagation grade
   (``sudokit.grading.grade_table``) on the same puzzles;
2. tdoku's ``puzzles5_forum_hardest_1905_11+`` (SE 11 and up): how many are rated below 10.0
   and how many the technique set does not finish (rated :data:`~sudokit.human.BEYOND`);
3. Simonis's claim: Spearman between his grade order (FC < ... < search) and SE's rating.

    python benchmarks/human_rating.py [--every K] [--jobs J] [--hardest N] [--time-limit S]
                                      [--without-nested] [--grade-cli]

``--every K`` takes every K-th puzzle of diabolical.txt (default 1: all); ``--jobs`` rates in
J processes. ``--without-nested`` rates without the dynamic and nested forcing chains
(:mod:`sudokit.human.nested`), as the rating was before them. ``--grade-cli`` also times
``sudokit grade --rating`` on the same puzzles as a user runs it (one process, then ``--jobs
J`` on the batch road: a Dask cluster of J workers), whole process, and checks that its
ratings are the ones of table 1. Progress goes to stderr, the tables to stdout.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import DATA, format_table, log, machine_note  # noqa: E402

DIABOLICAL = DATA / "sudoku" / "9x9-sudokuexchange" / "diabolical.txt"
HARDEST = DATA / "sudoku" / "9x9-tdoku" / "puzzles5_forum_hardest_1905_11+"
_STARTED = time.perf_counter()


def _cpu() -> float:
    """CPU seconds of this process and of its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def spearman(x, y) -> float:
    """Spearman's rho with average ranks for ties (numpy only)."""
    def ranks(a):
        a = np.asarray(a, dtype=float)
        order = np.argsort(a, kind="mergesort")
        r = np.empty(len(a))
        r[order] = np.arange(1, len(a) + 1)
        _, inverse, counts = np.unique(a, return_inverse=True, return_counts=True)
        return (np.bincount(inverse, weights=r) / counts)[inverse]
    return float(np.corrcoef(ranks(x), ranks(y))[0, 1])


def _rate_chunk(args):
    """Ratings of a chunk of puzzle lines: (rating or nan, hardest, solved, seconds)."""
    lines, seconds, without = args
    from sudokit.errors import BudgetExhausted
    from sudokit.formats import parse_puzzles
    from sudokit.human import rate
    from sudokit.human.techniques import ORDER, TECHNIQUES
    from sudokit.solvers.budget import Budget

    techniques = [name for name in ORDER if TECHNIQUES[name].family not in without]

    out = []
    cpu = time.process_time()
    for line in lines:
        puzzle = parse_puzzles(line)[0].instance
        start = time.perf_counter()
        try:
            rated = rate(puzzle, Budget(seconds=seconds), techniques=techniques)
            out.append((rated.value, rated.hardest, rated.solved,
                        time.perf_counter() - start))
        except BudgetExhausted:
            out.append((float("nan"), "unknown", False, time.perf_counter() - start))
    return out, time.process_time() - cpu


def rate_all(lines, jobs: int, seconds, label: str, without: tuple[str, ...] = ()):
    """Rate every line (in ``jobs`` processes, chunks of 25; the technique families
    ``without`` left out), with progress."""
    chunks = [(lines[i:i + 25], seconds, without) for i in range(0, len(lines), 25)]
    results = []
    cpu = 0.0
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for done, (part, used) in enumerate(pool.map(_rate_chunk, chunks), 1):
            results.extend(part)
            cpu += used
            if done % 10 == 0 or done == len(chunks):
                rate = len(results) / (time.perf_counter() - start)
                log(f"{label}: {len(results):,}/{len(lines):,} rated, {rate:.1f}/s")
    return results, cpu


def confusion(se, ours, hardest) -> list[list[str]]:
    """One row per SE rating: puzzles, share rated the same, and our commonest (rating,
    technique of the hardest step) pairs."""
    rows = []
    for value in np.unique(se):
        pick = se == value
        pairs = Counter(f"{o:.1f} {h}" for o, h, p in zip(ours, hardest, pick, strict=True)
                        if p)
        same = np.mean(np.abs(ours[pick] - value) < 0.05)
        rows.append([f"{value:.1f}", str(int(pick.sum())), f"{100 * same:.0f}%",
                     ", ".join(f"{k} {c}" for k, c in pairs.most_common(3))])
    return rows


def read_diabolical(every: int):
    lines, ratings = [], []
    with open(DIABOLICAL) as handle:
        for number, line in enumerate(handle):
            parts = line.split()
            if len(parts) == 3 and number % every == 0:
                lines.append(parts[1])
                ratings.append(float(parts[2]))
    return lines, np.array(ratings)


def simonis_grades(lines):
    """Grade index in ORDER (len(ORDER) for 'search') of each puzzle, and the seconds."""
    from sudokit.formats import parse_puzzles
    from sudokit.grading import ORDER, grade_table
    from sudokit.instances import sudoku

    grade_table([sudoku(np.zeros((9, 9), dtype=int))], ORDER)       # compiled or loaded
    start, cpu = time.perf_counter(), time.process_time()
    puzzles = [parse_puzzles(line)[0].instance for line in lines]
    table = grade_table(puzzles, ORDER).search_free
    level = np.full(len(lines), len(ORDER))
    for rank in reversed(range(len(ORDER))):
        level[table[:, rank]] = rank
    return level, time.perf_counter() - start, time.process_time() - cpu


def grade_cli(lines, jobs: int, expected) -> tuple[float, float]:
    """Wall and CPU seconds (the command and every process it waited for) of ``sudokit grade
    --rating --schemes FC --no-nodes`` on ``lines`` (``--jobs J`` when J > 1); its ratings
    must be ``expected``."""
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "puzzles.txt"
        source.write_text("\n".join(lines) + "\n")
        command = [sys.executable, "-m", "sudokit", "grade", "--rating", "--schemes", "FC",
                   "--no-nodes", str(source)] + (["--jobs", str(jobs)] if jobs > 1 else [])
        env = dict(os.environ, SUDOKIT_NO_PROGRESS="1", PYTHONPATH=str(root))
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    got = [float(line.split()[1]) for line in done.stdout.splitlines()]
    if got != [float(e) for e in expected]:
        raise SystemExit("sudokit grade --rating disagrees with rate() on the same puzzles")
    return wall, (after.ru_utime + after.ru_stime) - (kids.ru_utime + kids.ru_stime)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, metavar="K",
                        help="every K-th puzzle of diabolical.txt (default: all 39,719)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--hardest", type=int, default=200, metavar="N",
                        help="puzzles of the forum's hardest (SE 11+) to rate, evenly spaced "
                             "(0: all 48,766)")
    parser.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                        help="seconds per puzzle (past it: 'unknown')")
    parser.add_argument("--without-nested", action="store_true",
                        help="rate without the dynamic and nested forcing chains (family "
                             "'nested', SE levels 1-3): the rating as it was before them, "
                             "for a before/after in one session")
    parser.add_argument("--grade-cli", action="store_true",
                        help="also time 'sudokit grade --rating' on the same puzzles, in one "
                             "process and with --jobs J")
    args = parser.parse_args(argv)
    print("Human-technique rating against Sudoku Explainer (SE)")
    without = ("nested",) if args.without_nested else ()
    print(machine_note() + f", {args.jobs} rating processes"
          + (", without the nested forcing chains" if without else ""))
    print()

    lines, se = read_diabolical(args.every)
    log(f"diabolical: {len(lines):,} puzzles (every {args.every})")
    wall0, cpu0 = time.perf_counter(), _cpu()
    rated, rating_cpu = rate_all(lines, args.jobs, args.time_limit, "diabolical", without)
    wall, cpu = time.perf_counter() - wall0, _cpu() - cpu0
    ours = np.array([r[0] for r in rated])
    known = ~np.isnan(ours)
    diff = np.abs(ours[known] - se[known])
    level, grade_wall, grade_cpu = simonis_grades(lines)
    print(f"1. diabolical.txt: {len(lines):,} of 39,719 puzzles (every {args.every}), SE "
          f"{se.min():.1f}-{se.max():.1f}; whole process {time.perf_counter() - _STARTED:.0f} s")
    rows = [
        ["puzzles rated", f"{known.sum():,} ({(~known).sum()} past {args.time_limit:g} s)"],
        ["equal to SE", f"{100 * np.mean(diff < 0.05):.1f}%"],
        ["within 0.1", f"{100 * np.mean(diff < 0.15):.1f}%"],
        ["within 0.5", f"{100 * np.mean(diff < 0.55):.1f}%"],
        ["Spearman (ours, SE)", f"{spearman(ours[known], se[known]):+.3f}"],
        ["mean (ours - SE)", f"{np.mean(ours[known] - se[known]):+.2f}"],
        ["rating, whole run: wall, CPU (all processes)", f"{wall:.1f} s, {cpu:.1f} s"],
        ["rating, in-process CPU (the rate calls)", f"{rating_cpu:.1f} s"],
        ["rating: puzzles/s wall, per CPU s", f"{len(lines) / wall:.1f}, "
                                              f"{len(lines) / max(cpu, rating_cpu):.1f}"],
        ["peer, Simonis grade (15 schemes): wall, CPU",
         f"{grade_wall:.1f} s, {grade_cpu:.1f} s ({len(lines) / grade_wall:.0f}/s)"],
    ]
    if args.grade_cli:
        for jobs in sorted({1, args.jobs}):
            log(f"sudokit grade --rating{f' --jobs {jobs}' if jobs > 1 else ''}")
            cli_wall, cli_cpu = grade_cli(lines, jobs, ours)
            rows.append([f"sudokit grade --rating{f' --jobs {jobs}' if jobs > 1 else ''} "
                         "(FC, no nodes): wall, CPU",
                         f"{cli_wall:.1f} s, {cli_cpu:.1f} s ({len(lines) / cli_wall:.1f}/s "
                         f"wall, {len(lines) / cli_cpu:.1f}/CPU s)"])
    print(format_table(["measure", "value"], rows, right={1}))
    print()
    hardest = Counter(r[1] for r in rated)
    print("hardest technique of the path: " + ", ".join(
        f"{name} {count}" for name, count in hardest.most_common()))
    print()
    print("where the ratings differ: each SE rating, the share we rate the same, and our "
          "commonest (rating, hardest technique)")
    print(format_table(["SE", "puzzles", "same", "ours (rating technique count)"],
                       confusion(se, ours, [r[1] for r in rated]), right={1, 2}))
    print()

    every = [line.strip() for line in open(HARDEST) if line.strip() and line[0] != "#"]
    step = 1 if args.hardest == 0 else max(1, len(every) // args.hardest)
    sample = every[::step][:args.hardest or None]
    log(f"hardest: {len(sample):,} puzzles")
    wall0 = time.perf_counter()
    top_cpu0 = _cpu()
    top, top_rating_cpu = rate_all(sample, args.jobs, args.time_limit, "hardest", without)
    top_cpu = _cpu() - top_cpu0
    top_wall = time.perf_counter() - wall0
    values = np.array([r[0] for r in top])
    beyond = sum(1 for r in top if not r[2] and r[1] == "beyond")
    unknown = sum(1 for r in top if r[1] == "unknown")
    solved = np.array([r[2] for r in top])
    print(f"2. forum's hardest (SE 11+): {len(sample):,} of {len(every):,} (every {step})")
    rows = [
        ["rated below 10.0", str(int(np.sum(values[~np.isnan(values)] < 10.0)))],
        ["solved by the technique set (rated, >= 10.0)",
         str(int(np.sum(solved & (values >= 10.0))))],
        ["beyond the technique set (rated 11.0, marked)", str(beyond)],
        [f"past the time limit ({args.time_limit:g} s)", str(unknown)],
        ["wall seconds; CPU seconds (all processes, in-process)",
         f"{top_wall:.0f}; {top_cpu:.0f}, {top_rating_cpu:.0f}"],
    ]
    print(format_table(["measure", "count"], rows, right={1}))
    print("hardest technique: " + ", ".join(
        f"{name} {count}" for name, count in Counter(r[1] for r in top).most_common()))
    print("ratings: " + ", ".join(f"{value:.1f} {count}" for value, count in sorted(
        Counter(float(v) for v in values if not np.isnan(v)).items())))
    low = Counter(r[1] for r in top if r[2] and r[0] < 10.0)
    if low:
        print("hardest technique of those below 10.0: " + ", ".join(
            f"{name} {count}" for name, count in low.most_common()))
    print()

    print("3. Simonis's claim, same diabolical puzzles: Spearman of the grade order "
          "(FC < ... < HACV < search) with SE")
    from sudokit.grading import ORDER
    names = list(ORDER) + ["search"]
    counts = Counter(level.tolist())
    rows = [["Spearman (Simonis grade, SE)", f"{spearman(level, se):+.3f}"],
            ["Spearman (Simonis grade, ours)", f"{spearman(level[known], ours[known]):+.3f}"],
            ["grades", ", ".join(f"{names[k]} {c}" for k, c in sorted(counts.items()))]]
    print(format_table(["measure", "value"], rows, right=set()))


if __name__ == "__main__":
    main()
