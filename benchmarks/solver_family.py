"""The exact methods of Takano, de Freitas and Sá (section 4) side by side, with DLX and SAT.

For each back end (backtrack, fcmrv, bitset, norvig, takano; dlx and cadical195 as references)
and each data set (Norvig's top95; the first 5,000 of tdoku's 49,158 17-clue puzzles; the
first 1,000 of forum_hardest_1905_11+; Gecode's 16x16 and 25x25 sets; the first qwh30 .pls
squares) it prints, in one run on one machine:

* ``solved``: instances decided (counted to 2: solution plus uniqueness) within the budget of
  one instance, each through the engine protocol (``engine.count(instance, 2, budget)`` on an
  engine opened for the shape);
* the median and maximum time of one such call, and the mean search nodes (the search-tree
  nodes of each method; DLX: its Algorithm X nodes; SAT: none);
* ``uniq/s``: uniqueness throughput of the whole set in one batch call (CP methods:
  ``CPEngine.count_givens``; DLX: ``DancingLinks.count_many`` through the engine's
  ``count_many``; SAT: the shared incremental solver's ``count_many``), only where every
  instance was decided.

Then takano's ablation (each propagation case and the heap on and off: nodes and time on the
9x9 sets), and the uniqueness throughput on all 49,158 17-clue puzzles for takano, norvig,
DLX and SAT (``--full``), CPU seconds of the process next to wall seconds (the machine may be
shared: CPU time is what one core spends). Budgets: ``--budget9`` seconds per 9x9 instance
(default 0.02), ``--budget-big`` for 16x16, 25x25 and qwh30 (default 2).

Run: ``python benchmarks/solver_family.py [--full] [--quick]`` (about 20 minutes; ``--quick``
takes smaller slices).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import DATA, SUDOKU17, format_table, log, read_puzzles  # noqa: E402

from sudokit.errors import BudgetExhausted  # noqa: E402
from sudokit.formats import read_instances  # noqa: E402
from sudokit.instances import sudoku  # noqa: E402
from sudokit.solvers import Budget, open_engine  # noqa: E402
from sudokit.solvers import takano as tk  # noqa: E402
from sudokit.solvers.cp_engine import METHODS, CPEngine  # noqa: E402
from sudokit.solvers.unit_model import unit_model  # noqa: E402

CP = list(METHODS)
REFERENCES = ["dlx", "cadical195"]
TOP95 = DATA / "sudoku" / "9x9-norvig" / "top95.txt"
FORUM = DATA / "sudoku" / "9x9-tdoku" / "puzzles5_forum_hardest_1905_11+"
GECODE = DATA / "sudoku" / "gecode-9-16-25"
QWH30 = DATA / "latin" / "qwh30_42pct_zanarini_pesant"


class Clock:
    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.wall
        self.cpu_seconds = time.process_time() - self.cpu
        return False


def grids(path: Path, limit: int | None) -> list:
    return [sudoku(g) for g in read_puzzles(path, limit)]


def squares(count: int) -> list:
    paths = sorted(QWH30.glob("*.pls"), key=lambda p: int(p.stem.split("-")[-1]))[:count]
    return [read_instances(str(p))[0].instance for p in paths]


def data_sets(args) -> list[tuple[str, list, float]]:
    small = 500 if args.quick else 5000
    hard = 200 if args.quick else 1000
    sets = [("top95", grids(TOP95, None), args.budget9),
            (f"17-clue {small:,}", grids(SUDOKU17, small), args.budget9),
            (f"forum hardest {hard:,}", grids(FORUM, hard), args.budget9),
            ("gecode 16x16", grids(GECODE / "sudoku16_janko_via_gecode.txt", None),
             args.budget_big),
            ("gecode 25x25", grids(GECODE / "sudoku25_gecode.txt", None), args.budget_big),
            (f"qwh30 ({args.qwh})", squares(args.qwh), args.budget_big)]
    if args.sets:
        wanted = {int(k) for k in args.sets.split(",")}
        sets = [entry for k, entry in enumerate(sets, start=1) if k in wanted]
    return sets


def one_by_one(name: str, instances: list, seconds: float) -> dict:
    """Each instance through ``engine.count(instance, 2, budget)``: times, nodes (of the
    decided instances, and all of them), decided."""
    times, nodes, all_nodes, decided, wrong = [], [], [], 0, 0
    budget = Budget(seconds=seconds)
    with open_engine(name, shape=instances[0]) as engine:
        try:
            engine.count(instances[0], 1, Budget(seconds=seconds))      # compiled, warmed
        except BudgetExhausted:
            pass
        cp = isinstance(engine, CPEngine)
        for instance in instances:
            started = time.perf_counter()
            try:
                if cp:
                    model = unit_model(instance)
                    result = engine.count_givens(model.givens_of([instance]), 2, budget,
                                                 model)
                    count, lost = int(result.counts[0]), bool(result.unknown[0])
                    first = result.firsts[0].reshape(model.solution_shape) if count else None
                    used = int(result.nodes[0])
                else:
                    used = None
                    count, first = engine.count(instance, 2, budget)
                    lost = False
            except BudgetExhausted:
                count, first, lost = 0, None, True
            times.append(time.perf_counter() - started)
            if name == "dlx":
                used = engine.links.nodes
                engine.links.reset_counters()
            if used is not None:
                all_nodes.append(used)
            if not lost:
                decided += 1
                wrong += first is None or not instance.is_solution(first)
                if used is not None:
                    nodes.append(used)
    return dict(times=times, nodes=nodes, all_nodes=all_nodes, decided=decided, wrong=wrong)


def batch_rate(name: str, instances: list, seconds: float) -> tuple[float, float, int]:
    """Instances per second of one batch count to 2 (wall, CPU), and how many were decided."""
    with open_engine(name, shape=instances[0]) as engine:
        engine.count_many(instances[:2], 2, Budget(seconds=seconds))
        with Clock() as clock:
            outcomes = engine.count_many(instances, 2, Budget(seconds=seconds))
    decided = sum(o.status != "unknown" for o in outcomes)
    return len(instances) / clock.seconds, len(instances) / clock.cpu_seconds, decided


def comparison(args) -> list[list]:
    rows = []
    for label, instances, seconds in data_sets(args):
        for name in CP + REFERENCES:
            log(f"{label}: {name} ({len(instances)} instances, {seconds} s each)")
            run = one_by_one(name, instances, seconds)
            rate = "-"
            if run["decided"] == len(instances):
                wall, cpu, _ = batch_rate(name, instances, seconds)
                rate = f"{wall:,.0f} ({cpu:,.0f})"
            times = run["times"]
            nodes = f"{statistics.fmean(run['nodes']):,.0f}" if run["nodes"] else "-"
            speed = (f"{sum(run['all_nodes']) / sum(times):,.0f}" if run["all_nodes"] else "-")
            rows.append([label, name, len(instances), run["decided"],
                         f"{statistics.median(times) * 1e3:.2f}", f"{max(times) * 1e3:.1f}",
                         nodes, speed, rate, run["wrong"]])
    return rows


def ablation(args) -> list[list]:
    cases = [("norvig", "norvig", None), ("singles (bits)", "takano", 0),
             ("+ heap", "takano", tk.HEAP), ("+ locked", "takano", tk.LOCKED),
             ("+ naked pairs", "takano", tk.NAKED_PAIRS),
             ("+ locked + pairs", "takano", tk.LOCKED | tk.NAKED_PAIRS),
             ("+ reach tie-break", "takano", tk.REACH),
             ("all but the tie-break", "takano", tk.ALL & ~tk.REACH),
             ("takano (all)", "takano", tk.ALL)]
    small = 500 if args.quick else 5000
    hard = 200 if args.quick else 1000
    sets = [("top95", read_puzzles(TOP95)), (f"17-clue {small:,}", read_puzzles(SUDOKU17, small)),
            (f"forum hardest {hard:,}", read_puzzles(FORUM, hard))]
    rows = []
    empty = sudoku(np.zeros((9, 9), dtype=int))
    for label, puzzles in sets:
        givens = np.stack([p.reshape(-1) for p in puzzles]).astype(np.int32)
        for case, name, flags in cases:
            engine = CPEngine(name, shape=empty, flags=flags)
            engine.count_givens(givens[:2], 2)
            best = None
            for _ in range(args.repeat):
                with Clock() as clock:
                    result = engine.count_givens(givens, 2)
                best = clock if best is None or clock.cpu_seconds < best.cpu_seconds else best
            assert result.counts.tolist() == [1] * len(givens), (label, case)
            rows.append([label, case, f"{result.nodes.sum():,}", f"{result.nodes.mean():.2f}",
                         f"{best.cpu_seconds / len(givens) * 1e6:.1f}",
                         f"{len(givens) / best.seconds:,.0f}"])
    return rows


def full_throughput(args) -> list[list]:
    """All 49,158 17-clue puzzles: takano, norvig (count_givens), DLX, SAT (count_many)."""
    puzzles = read_puzzles(SUDOKU17)
    givens = np.stack([p.reshape(-1) for p in puzzles]).astype(np.int32)
    instances = [sudoku(p) for p in puzzles]
    empty = instances[0].with_givens(np.zeros((9, 9), dtype=int))
    rows = []
    for name in ("takano", "norvig", "bitset"):
        engine = CPEngine(name, shape=empty)
        engine.count_givens(givens[:2], 2)
        if name == "bitset":   # no propagation: its 17-clue searches take up to ~1e7 nodes
            continue
        best = None
        for _ in range(args.repeat):
            with Clock() as clock:
                result = engine.count_givens(givens, 2)
            best = clock if best is None or clock.cpu_seconds < best.cpu_seconds else best
        ok = result.counts.tolist() == [1] * len(givens)
        rows.append([name, "count_givens (kernel calls)", best.seconds, best.cpu_seconds, ok])
        with Clock() as clock:
            outcomes = engine.count_many(instances, 2)
        rows.append([name, "count_many (Outcome objects)", clock.seconds, clock.cpu_seconds,
                     all(o.count == 1 for o in outcomes)])
    for name in REFERENCES:
        with open_engine(name, shape=empty) as engine:
            engine.count_many(instances[:2], 2)
            subset = instances if name == "dlx" else instances[:10_000]
            with Clock() as clock:
                outcomes = engine.count_many(subset, 2)
            rows.append([name, f"count_many ({len(subset):,})", clock.seconds * len(instances)
                         / len(subset), clock.cpu_seconds * len(instances) / len(subset),
                         all(o.count == 1 for o in outcomes)])
    table = []
    for name, how, wall, cpu, ok in rows:
        table.append([name, how, f"{wall:.2f}", f"{cpu:.2f}", f"{len(givens) / wall:,.0f}",
                      f"{len(givens) / cpu:,.0f}", f"{cpu / len(givens) * 1e6:.1f}",
                      "yes" if ok else "NO"])
    return table


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget9", type=float, default=0.02,
                        help="seconds per 9x9 instance (default 0.02)")
    parser.add_argument("--budget-big", type=float, default=2.0,
                        help="seconds per 16x16, 25x25 and qwh30 instance (default 2)")
    parser.add_argument("--qwh", type=int, default=10, help="qwh30 squares (default 10)")
    parser.add_argument("--repeat", type=int, default=3, help="best of N for batch timings")
    parser.add_argument("--quick", action="store_true", help="smaller 9x9 slices")
    parser.add_argument("--full", action="store_true",
                        help="also the throughput on all 49,158 17-clue puzzles")
    parser.add_argument("--sets", help="comma-separated numbers of the data sets to compare "
                        "(1 top95, 2 17-clue, 3 forum hardest, 4 16x16, 5 25x25, 6 qwh30)")
    parser.add_argument("--skip-comparison", action="store_true")
    args = parser.parse_args(argv)

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print("The exact methods of Takano, de Freitas and Sa (section 4), DLX and SAT: "
          "uniqueness (count to 2)")
    print(f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} CPUs, "
          f"{platform.machine()}; load average at start {load}")
    print()
    if not args.skip_comparison:
        rows = comparison(args)
        print(f"Per instance through the engine (budget {args.budget9} s per 9x9 instance, "
              f"{args.budget_big} s per larger one); uniq/s = one batch count of the set, wall "
              "(CPU), where every instance was decided")
        print(format_table(["set", "solver", "n", "solved", "median ms", "max ms", "nodes",
                            "nodes/s", "uniq/s", "wrong"], rows))
        print("nodes: mean over the solved instances; nodes/s: all nodes over all the time "
              "(search speed); wrong: solutions failing is_solution")
        print()
    rows = ablation(args)
    print("takano's parts, one batch count of each 9x9 set (best of "
          f"{args.repeat} by CPU time): nodes, CPU microseconds per puzzle, puzzles/s (wall)")
    print(format_table(["set", "method", "nodes", "nodes/puzzle", "cpu us", "puzzles/s"], rows))
    print()
    if args.full:
        rows = full_throughput(args)
        print("All 49,158 17-clue puzzles, uniqueness in-process on one core (SAT: "
              "extrapolated from 10,000)")
        print(format_table(["solver", "how", "wall s", "cpu s", "puzzles/s wall",
                            "puzzles/s cpu", "cpu us/puzzle", "all unique"], rows))
        print()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average at end {load}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
