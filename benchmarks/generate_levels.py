"""Generation by level: ``sudokit generate sudoku --level L`` against QQwing's ``--difficulty``.

For each level the script runs the command line as a user does (one process per level,
``--count N --seed S``) and measures wall and CPU seconds of the whole process (user + system
of the child, from ``resource.getrusage``); then, untimed, it checks every puzzle: distinct,
unique (DLX count, and again by a second counter, the SAT engine), minimal (each clue
removed gives several solutions) and rated in the level's band by
:func:`sudokit.human.rate`, and graded by :func:`sudokit.grading.grade` (the hardest grade
of each row is shown). The hardest targets run with ``--count 1`` under a
time limit: Simonis grade ``search`` (``--grade search``) and an SE rating of 10 or more
(``--rating 10:``); a limit that runs out is a row with exit code 5.

Peer in the same run: QQwing 1.3.4 (C++, built from github.com/stephenostermiller/qqwing
outside this repository, see benchmarks/README.md), ``--generate N --difficulty D
--one-line`` for its levels simple, easy, intermediate and expert (its own rating: the
techniques its solver needs, not SE's scale), wall and CPU of the process.

Run: ``python benchmarks/generate_levels.py [--count 100] [--levels easy,medium,hard,expert]
[--diabolical 10] [--hardest-limit 300] [--hardest search,10]
[--qqwing /tmp/qqwing-build/qqwing] [--jobs 1]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
QQWING_LEVELS = ("simple", "easy", "intermediate", "expert")


#: the error line of each row that failed (printed under the table)
ERRORS: dict[str, str] = {}


def timed(args: list[str], env=None) -> tuple[int, str, float, float]:
    """``(exit code, stdout, wall s, CPU s)`` of one child process (its last stderr line
    goes to :data:`ERRORS` when it fails)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode and done.stderr.strip():
        ERRORS[" ".join(args[3:])] = done.stderr.strip().splitlines()[-1]
    return done.returncode, done.stdout, wall, cpu


def sudokit_row(label: str, options: list[str], count: int, seed: int, jobs: int,
                limit: float | None, band: tuple[float, float] | None):
    env = dict(os.environ, PYTHONPATH=ROOT, SUDOKIT_NO_PROGRESS="1")
    args = [sys.executable, "-m", "sudokit", "generate", "sudoku", "--size", "9",
            "--count", str(count), "--seed", str(seed), *options]
    if jobs > 1:
        args += ["--jobs", str(jobs)]
    if limit is not None:
        args += ["--time-limit", str(limit)]
    code, out, wall, cpu = timed(args, env)
    puzzles = [line.strip() for line in out.splitlines() if line.strip()
               and not line.startswith("#")]
    return (label, code, len(puzzles), wall, cpu) + check(puzzles, band)


def check(puzzles: list[str], band: tuple[float, float] | None):
    """``(distinct, unique, unique by SAT, minimal, in band, lowest, highest rating,
    hardest Simonis grade)`` of the puzzles (the grade and the rating computed afresh)."""
    from sudokit.formats import parse_puzzles
    from sudokit.generators import PuzzleGenerator
    from sudokit.grading import ORDER, grade
    from sudokit.human import rate

    if not puzzles:
        return (0, 0, 0, 0, 0, float("nan"), float("nan"), "-")
    ranks = (*ORDER, "search")
    grades = []
    gen = PuzzleGenerator(9, (3, 3), seed=0)
    unique = unique_sat = minimal = inside = 0
    ratings = []
    for text in puzzles:
        instance = parse_puzzles(text)[0].instance
        grid = np.asarray(instance.givens)
        unique += gen.count(grid, "dlx") == 1
        unique_sat += gen.count(grid, "sat") == 1
        flat = grid.reshape(-1)
        needed = True
        for cell in np.flatnonzero(flat).tolist():
            trial = flat.copy()
            trial[cell] = 0
            if gen.count(trial.reshape(9, 9), "dlx") == 1:
                needed = False
                break
        minimal += needed
        value = rate(instance).value
        ratings.append(value)
        grades.append(grade(instance))
        inside += band is None or band[0] <= value <= band[1]
    return (len(set(puzzles)), unique, unique_sat, minimal, inside, min(ratings), max(ratings),
            max(grades, key=ranks.index))


def qqwing_row(binary: str, level: str, count: int):
    code, out, wall, cpu = timed([binary, "--generate", str(count), "--difficulty", level,
                                  "--one-line", "--symmetry", "none"])
    puzzles = [line.strip() for line in out.splitlines() if line.strip()]
    return (f"qqwing {level}", code, len(puzzles), wall, cpu) + check(puzzles, None)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--levels", default="easy,medium,hard,expert")
    parser.add_argument("--diabolical", type=int, default=10,
                        help="puzzles of level diabolical (0: none)")
    parser.add_argument("--hardest-limit", type=float, default=300,
                        help="seconds for one puzzle of grade search and one rated 10+ "
                             "(0: skip them)")
    parser.add_argument("--hardest", default="search,10",
                        help="which of the hardest rows: search (grade), 10 (rating 10+)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--qqwing", default=os.environ.get("QQWING") or
                        shutil.which("qqwing") or "/tmp/qqwing-build/qqwing")
    args = parser.parse_args(argv)
    from sudokit.human import LEVELS

    rows = []
    for level in [name for name in args.levels.split(",") if name]:
        print(f"level {level} ...", file=sys.stderr, flush=True)
        rows.append(sudokit_row(f"sudokit {level}", ["--level", level], args.count, args.seed,
                                args.jobs, None, LEVELS[level]))
    if args.diabolical:
        print("level diabolical ...", file=sys.stderr, flush=True)
        rows.append(sudokit_row("sudokit diabolical", ["--level", "diabolical"],
                                args.diabolical, args.seed, args.jobs, None,
                                LEVELS["diabolical"]))
    hardest = {name for name in args.hardest.split(",") if name}
    if args.hardest_limit and "search" in hardest:
        print("grade search ...", file=sys.stderr, flush=True)
        rows.append(sudokit_row("sudokit grade search", ["--grade", "search"], 1, args.seed,
                                1, args.hardest_limit, None))
    if args.hardest_limit and "10" in hardest:
        print("rating 10+ ...", file=sys.stderr, flush=True)
        rows.append(sudokit_row("sudokit rating 10:", ["--rating", "10:"], 1, args.seed, 1,
                                args.hardest_limit, (10.0, 99.9)))
    if os.path.exists(args.qqwing):
        for level in QQWING_LEVELS:
            print(f"qqwing {level} ...", file=sys.stderr, flush=True)
            rows.append(qqwing_row(args.qqwing, level, args.count))
    else:
        print(f"QQwing not found at {args.qqwing}: no peer rows", file=sys.stderr)
    print(f"9x9 generation by level, --seed {args.seed}, --jobs {args.jobs}; "
          f"python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f}")
    print()
    head = ("generator", "exit", "made", "wall s", "CPU s", "per s (wall)", "distinct",
            "unique", "unique (SAT)", "minimal", "in band", "SE min", "SE max", "hardest grade")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for label, code, made, wall, cpu, distinct, unique, unique_sat, minimal, inside, low, \
            high, hardest in rows:
        print(f"| {label} | {code} | {made} | {wall:.1f} | {cpu:.1f} | "
              f"{made / wall if wall else 0:.2f} | {distinct} | {unique} | {unique_sat} | "
              f"{minimal} | "
              f"{inside} | {low:.1f} | {high:.1f} | {hardest} |")
    for command, line in ERRORS.items():
        print(f"\n`{command}`: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
