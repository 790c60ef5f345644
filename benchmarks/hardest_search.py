"""Where the searches for grade ``search`` stop: the clue-set climb against the pattern game.

Both searches of :func:`sudokit.generators.graded.climb` run in this process for the same
wall-clock budget, one after the other, with the same seed and target (Simonis grade
``search``): the hill climb over clue sets from hard patterns (``pattern_game=False``, the
search before the pattern game) and the pattern game (:mod:`sudokit.generators.pattern_game`).
For each: wall and CPU seconds (in-process, ``time.process_time``), puzzles scored (the
last progress report), the restarts, and, computed afterwards and untimed, the grade and the
survivors share (:func:`sudokit.generators.hardness.survivors`) of the highest puzzle of
each restart, as a histogram. The forum's hardest keep 95% or more of their candidates.

Run: ``python benchmarks/hardest_search.py [--seconds 300] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import collections
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from sudokit.errors import BudgetExhausted  # noqa: E402
from sudokit.generators import PuzzleGenerator  # noqa: E402
from sudokit.generators.graded import GRADES, climb, grade_target  # noqa: E402
from sudokit.generators.hardness import survivors  # noqa: E402
from sudokit.grading import grade  # noqa: E402
from sudokit.solvers.budget import Budget  # noqa: E402

BINS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.01)
PAIRS = list(zip(BINS[:-1], BINS[1:], strict=True))


def run(seed: int, seconds: float, game: bool) -> dict:
    ends: list = []
    tried = [0]

    def progress(status) -> None:
        tried[0] = status.tried

    wall, cpu = time.perf_counter(), time.process_time()
    found = None
    with PuzzleGenerator(9, (3, 3), seed) as gen:
        try:
            made = climb(gen, grade_target("search"), Budget(seconds=seconds), progress,
                         ends=ends, pattern_game=game)
            found = made.puzzle
            tried[0] = made.extra["search"]["tried"]
        except BudgetExhausted:
            pass
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    shares, grades = [], collections.Counter()
    for puzzle in ends:
        kept = survivors(puzzle)
        shares.append(kept.kept / kept.open if kept.open else 0.0)
        grades[grade(puzzle)] += 1
    return {"wall": wall, "cpu": cpu, "tried": tried[0], "restarts": len(ends),
            "found": found, "shares": shares, "grades": grades}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows = {}
    for label, game in (("clue-set climb", False), ("pattern game", True)):
        print(f"{label} ...", file=sys.stderr, flush=True)
        rows[label] = run(args.seed, args.seconds, game)
    print(f"grade search, --seed {args.seed}, {args.seconds:g} s each; python "
          f"{platform.python_version()}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f}")
    print()
    head = ["search", "found", "wall s", "CPU s", "scored", "CPU ms / scored", "restarts",
            *[f"share {lo:.2f}-{min(hi, 1.0):.2f}" for lo, hi in PAIRS],
            "best share", "grades of the restarts' best"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for label, row in rows.items():
        shares = row["shares"]
        counts = [sum(lo <= s < hi for s in shares) for lo, hi in PAIRS]
        grades = ", ".join(f"{g} {row['grades'][g]}" for g in reversed(GRADES)
                           if row["grades"][g])
        per = 1000 * row["cpu"] / row["tried"] if row["tried"] else float("nan")
        print(f"| {label} | {'yes' if row['found'] is not None else 'no'} | "
              f"{row['wall']:.0f} | {row['cpu']:.1f} | {row['tried']:,} | {per:.1f} | "
              f"{row['restarts']} | " + " | ".join(map(str, counts)) +
              f" | {max(shares, default=0.0):.3f} | {grades} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
