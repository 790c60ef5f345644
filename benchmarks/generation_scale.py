"""Puzzle generation at scale and by difficulty (issue 13; Takano sec. 5, Simonis sec. 8).

Everything here runs the commands a user types, in subprocesses, and reads what they print.

``unique``  unique-puzzle generation at 16x16 (``--minimal``) and 25x25 (unique, the default
            mode) with every fill strategy that reaches the size: ``sudokit generate sudoku
            --size N [--minimal] --fill F --seed S --json --time-limit T``, one process per
            seed; per puzzle the seconds (from ``--json``: fill plus clue removal, without
            the interpreter's start), the fill's share and the clues.
``grades``  the share of 9x9 minimal puzzles per Simonis grade, from ``sudokit generate
            sudoku --size 9 --minimal --count N --seed S | sudokit grade --no-nodes -``
            (N = ``--count``, 10,000 by default); also when generate's first puzzle comes
            out (it streams: long before the batch is done) and when grade's first line
            does (grade reads standard input in chunks of 16,384 lines, so a smaller batch
            is graded only at its end).

``--save FILE`` keeps the measurements (JSON) as they come; ``--load FILE`` reprints them and
measures only what the file lacks.

Run: ``python benchmarks/generation_scale.py`` (about 20 minutes on 2 cores) or
``python benchmarks/generation_scale.py --seeds 1 --count 500`` (a quick look).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from sudokit.grading.lattice import ORDER  # noqa: E402

SUDOKIT = [sys.executable, "-m", "sudokit"]
ENV = dict(os.environ, SUDOKIT_NO_PROGRESS="1")
#: (size, mode, the fills that reach it): grasp stops at 12x12, backtrack is hit and miss at
#: 25x25 (3 of 5 in 10 s, see fill_strategies.py)
CASES = ((16, "minimal", ("auto", "search", "sat", "product", "backtrack", "prune",
                          "weighted-prune", "ilp")),
         (25, "unique", ("auto", "search", "sat", "product", "prune", "weighted-prune",
                         "ilp")))


def one_puzzle(n, mode, fill, seed, limit):
    """The ``--json`` record of one puzzle, or None when ``--time-limit`` ran out (exit 5)."""
    args = [*SUDOKIT, "generate", "sudoku", "--size", str(n), "--fill", fill, "--seed",
            str(seed), "--json", "--time-limit", str(limit)]
    args += ["--minimal"] if mode == "minimal" else []
    done = subprocess.run(args, capture_output=True, env=ENV, text=True)
    if done.returncode == 5:
        return None
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[2:])}: exit {done.returncode}: {done.stderr.strip()}")
    record = json.loads(done.stdout.splitlines()[0])
    return {"seconds": record["seconds"], "fill_seconds": record["fill"]["seconds"],
            "clues": record["clues"], "unique": record["checks"]["unique"],
            "minimal": record["checks"]["minimal"]}


def unique_part(results, seeds, limit, save):
    part = results.setdefault("unique", {})
    print("\n## Unique puzzles at 16x16 (minimal) and 25x25 (unique), by fill strategy")
    print(f"{'fill':<16}{'size':>7}{'mode':>9}{'done':>7}{'median s':>10}{'max s':>9}"
          f"{'fill s':>9}{'clues':>14}")
    for n, mode, fills in CASES:
        for fill in fills:
            key = f"{n} {fill}"
            if key not in part:
                part[key] = [one_puzzle(n, mode, fill, seed, limit) for seed in range(seeds)]
                save(results)
            rows = part[key]
            ok = [r for r in rows if r is not None]
            if any(not r["unique"] or (mode == "minimal" and not r["minimal"]) for r in ok):
                raise SystemExit(f"{fill} {n}x{n}: a puzzle without its checks")
            secs = sorted(r["seconds"] for r in ok)
            med = (f"{statistics.median(secs):10.2f}{secs[-1]:9.2f}" if ok
                   else f"{'-':>10}{'-':>9}")
            fill_s = f"{max(r['fill_seconds'] for r in ok):9.3f}" if ok else f"{'-':>9}"
            clues = sorted(r["clues"] for r in ok)
            spread = f"{clues[0]}-{clues[-1]}" if ok else "-"
            print(f"{fill:<16}{n:>4}x{n:<2}{mode:>9}{len(ok):>4}/{len(rows):<2}{med}{fill_s}"
                  f"{spread:>14}")


def _relay(source, sink, made, started):
    """Copy generate's output to grade's input, noting when the first puzzle came."""
    for line in source:
        if not made:
            made.append(time.perf_counter() - started)
        sink.write(line.decode())
    sink.close()


def grades_part(results, count, seed, save):
    key = f"{count} {seed}"
    part = results.setdefault("grades", {})
    if key not in part:
        started = time.perf_counter()
        gen = subprocess.Popen([*SUDOKIT, "generate", "sudoku", "--size", "9", "--minimal",
                                "--count", str(count), "--seed", str(seed)],
                               stdout=subprocess.PIPE, env=ENV)
        grade = subprocess.Popen([*SUDOKIT, "grade", "--no-nodes", "-"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=ENV,
                                 text=True)
        made: list[float] = []           # when generate's first puzzle came out
        relay = threading.Thread(target=_relay, args=(gen.stdout, grade.stdin, made, started))
        relay.start()
        first, tally = None, collections.Counter()
        for line in grade.stdout:
            first = first or time.perf_counter() - started
            tally[line.split()[0]] += 1
        relay.join()
        if grade.wait() != 0 or gen.wait() != 0:
            raise SystemExit(f"generate | grade failed (exit {gen.returncode}, "
                             f"{grade.returncode})")
        part[key] = {"made": made[0] if made else None, "first": first,
                     "total": time.perf_counter() - started, "tally": dict(tally)}
        save(results)
    run = part[key]
    tally = run["tally"]
    total = sum(tally.values())
    print(f"\n## Simonis grades of {total:,} generated 9x9 minimal puzzles (seed {seed})")
    print(f"sudokit generate sudoku --size 9 --minimal --count {count} --seed {seed} "
          "| sudokit grade --no-nodes -")
    print(f"first puzzle out of generate after {run['made']:.2f} s, first graded line after "
          f"{run['first']:.2f} s, all {total:,} after {run['total']:.0f} s (both processes "
          "side by side on 2 cores)")
    print(f"{'grade':<8}{'puzzles':>9}{'share':>9}{'cumulative':>12}")
    running = 0
    for name in [*ORDER, "search"]:
        if name in tally:
            running += tally[name]
            print(f"{name:<8}{tally[name]:>9,}{100 * tally[name] / total:8.2f}%"
                  f"{100 * running / total:11.2f}%")
    unknown = set(tally) - set(ORDER) - {"search"}
    if unknown:
        raise SystemExit(f"grades outside the lattice: {sorted(unknown)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--parts", default="unique,grades")
    ap.add_argument("--seeds", type=int, default=3, help="puzzles per size and fill")
    ap.add_argument("--time-limit", type=float, default=300.0,
                    help="--time-limit of each puzzle of part unique")
    ap.add_argument("--count", type=int, default=10_000, help="9x9 puzzles graded")
    ap.add_argument("--seed", type=int, default=1, help="--seed of the graded batch")
    ap.add_argument("--save", help="write the measurements to this JSON file as they come")
    ap.add_argument("--load", help="reprint from this JSON file (measure what it lacks)")
    args = ap.parse_args()
    results = {}
    if args.load:
        with open(args.load) as f:
            results = json.load(f)

    def save(data):
        if args.save:
            with open(args.save, "w") as f:
                json.dump(data, f)

    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    parts = args.parts.split(",")
    if "unique" in parts:
        unique_part(results, args.seeds, args.time_limit, save)
    if "grades" in parts:
        grades_part(results, args.count, args.seed, save)


if __name__ == "__main__":
    main()
