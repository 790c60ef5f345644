"""Fill strategies against the seed papers (issue 13): Raggi et al.'s Figures 3-7 rerun.

Parts (each prints a table; seconds are wall clock of ``fill_grid`` after a warm-up fill):

``compare``  Raggi Figures 5-7: ILP against the weighted prune heuristic (``--paper``,
             ``--seeds`` seeds per size, ``--budget`` seconds per fill; the paper: 30 seeds, a
             600 s budget) on 9x9, 16x16, 25x25 and 36x36, and the others named by
             ``--others`` (``--other-seeds`` seeds up to 25x25, ``--big-seeds`` at 36x36,
             ``--other-budget`` seconds). ``ilp-objective`` is the paper's ILP: a random
             objective, the first feasible solution (``ilp_fill(random_objective=True)``);
             ``ilp-in-process`` the ILP fill without its child process (from 25x25 up the
             registered ``ilp`` starts one, about 1 s).
``alpha``    Raggi Figures 3-4: prune and weighted prune over a sweep of alpha at
             ``--alpha-size`` (the paper: 25x25 or 36x36), ``--alpha-seeds`` seeds,
             ``--other-budget`` seconds.
``large``    49x49 and 64x64 for every strategy, ``--big-seeds`` seeds, ``--large-budget``
             seconds, next to ``auto`` (the paper: 10,000-20,000 s per 64x64 grid by weighted
             prune).

Every row says its seeds and budget. ``--save FILE`` writes the measurements as JSON;
``--load FILE`` reprints the tables and redraws the figures from such a file, measuring only
the rows it lacks (``--load F --save F`` resumes or extends a run).

A fill that runs out of its budget counts as ``timeout`` (its seconds are the budget, shown
at the budget in the plots). With matplotlib (``pip install "sudokit[plot]"``) the script
writes log-scale strip/box plots of seconds per size to ``benchmarks/figures/``.

Run: ``python benchmarks/fill_strategies.py --quick`` (about ten minutes) or
``python benchmarks/fill_strategies.py --seeds 30 --budget 600 --other-seeds 30
--other-budget 600 --big-seeds 30 --alpha-seeds 30 --large-budget 600`` (the paper's protocol
everywhere: days, for the timeouts of backtracking at 36x36 and beyond). The figures in
benchmarks/README.md: ``--seeds 30 --budget 120 --other-seeds 10 --other-budget 10
--big-seeds 3 --alpha-seeds 10 --large-budget 20`` (about 35 minutes).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

from sudokit.errors import BudgetExhausted  # noqa: E402
from sudokit.generators.fill_ilp import ilp_fill  # noqa: E402
from sudokit.generators.fills import fill_grid  # noqa: E402
from sudokit.instances import sudoku  # noqa: E402
from sudokit.solvers.budget import Budget  # noqa: E402

FIGURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "figures")


def _box(n):
    r = int(round(n ** 0.5))
    return (r, n // r)


def _objective_fill(n, box, rng, *, alpha=None, stats=None, meter=None):
    """The paper's ILP: a random objective, the first feasible solution."""
    return ilp_fill(n, box, rng, meter=meter, stats=stats, random_objective=True)


def _in_process_fill(n, box, rng, *, alpha=None, stats=None, meter=None):
    """The ILP fill without its child process (what the child costs: about 1 s)."""
    return ilp_fill(n, box, rng, meter=meter, stats=stats, child=False)


#: measured variants that are not registered strategies
VARIANTS = {"ilp-objective": _objective_fill, "ilp-in-process": _in_process_fill}


def _filler(name):
    return VARIANTS.get(name) or functools.partial(fill_grid, name)


def measure(name, n, seeds, budget, alpha=None):
    """``[(seconds, restarts, nodes, ok)]`` for ``seeds`` fills (timeouts: seconds = budget)."""
    fill = _filler(name)
    fill(4, (2, 2), np.random.default_rng(0), alpha=alpha)      # warm-up
    template = sudoku(np.zeros((n, n), dtype=int), _box(n))
    rows = []
    for seed in range(seeds):
        stats: dict = {"restarts": 0, "nodes": 0}
        started = time.perf_counter()
        try:
            grid = fill(n, _box(n), np.random.default_rng(seed), alpha=alpha,
                        stats=stats, meter=Budget(seconds=budget).start())
            if not template.is_solution(grid):
                raise SystemExit(f"{name} made an invalid {n}x{n} grid (seed {seed})")
            rows.append((time.perf_counter() - started, stats["restarts"], stats["nodes"],
                         True))
        except BudgetExhausted:
            rows.append((budget, stats.get("restarts", 0), stats.get("nodes", 0), False))
    return rows


def summary(label, n, rows, budget):
    ok = [s for s, _, _, good in rows if good]
    secs = np.array([s for s, _, _, _ in rows])
    med = f"{np.median(ok):10.4f}" if ok else f"{'-':>10}"
    top = f"{max(ok):10.4f}" if ok else f"{'-':>10}"
    spread = f"{max(ok) / max(min(ok), 1e-6):9.0f}x" if len(ok) > 1 else f"{'-':>10}"
    print(f"{label:<22}{n:>4}x{n:<4}{len(ok):>4}/{len(rows):<4}{med}{top}{spread}"
          f"{np.mean([r for _, r, _, _ in rows]):9.1f}{secs.sum():10.1f}{budget:8g}")


def header():
    print(f"{'strategy':<22}{'size':>9}{'done':>9}{'median s':>10}{'max s':>10}"
          f"{'max/min':>10}{'restarts':>9}{'total s':>10}{'budget':>8}")


def plot(part, title, filename):
    """One panel per size (as Raggi's Figures 5-7), a box and the points of each strategy, log
    scale; a fill out of budget is a red point at its budget (the short dashed mark)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no matplotlib: pip install \"sudokit[plot]\" for the figures)")
        return
    sizes: dict[str, list[str]] = {}
    for key in part:
        label, size = key.rsplit(" ", 1)
        sizes.setdefault(size, []).append(label)
    fig, axes = plt.subplots(1, len(sizes), squeeze=False, sharey=True,
                             figsize=(max(6, 0.55 * len(part) + 1.5 * len(sizes)), 4.2))
    rng = np.random.default_rng(0)
    for ax, (size, labels) in zip(axes[0], sizes.items(), strict=True):
        for i, label in enumerate(labels, start=1):
            entry = part[f"{label} {size}"]
            values = [max(s, 1e-4) for s, _, _, _ in entry["rows"]]
            done = [ok for _, _, _, ok in entry["rows"]]
            ax.boxplot([values], positions=[i], widths=0.6, showfliers=False)
            x = i + rng.uniform(-0.18, 0.18, len(values))
            ax.scatter(x, values, s=10, zorder=3,
                       c=["tab:blue" if d else "tab:red" for d in done])
            ax.hlines(entry["budget"], i - 0.35, i + 0.35, colors="tab:red", lw=0.8,
                      linestyles="dashed")
        ax.set_yscale("log")
        ax.set_xticks(range(1, len(labels) + 1), labels, rotation=40, ha="right", fontsize=8)
        ax.set_title(f"{size}x{size}", fontsize=9)
    axes[0][0].set_ylabel("seconds per grid (log)")
    fig.suptitle(title + "  (red: out of budget; dashed: the budget)", fontsize=9)
    fig.tight_layout()
    os.makedirs(FIGURES, exist_ok=True)
    fig.savefig(os.path.join(FIGURES, filename), dpi=110)
    plt.close(fig)
    print(f"(figure: benchmarks/figures/{filename})")


def run_part(title, jobs, results, figure, save):
    """Measure (or, from ``results``, reprint) each ``(label, name, n, seeds, budget, alpha)``
    job and plot the part."""
    print(f"\n## {title}")
    header()
    part = results.setdefault(figure, {})
    for label, name, n, seeds, budget, alpha in jobs:
        key = f"{label} {n}"
        if key not in part:
            part[key] = {"budget": budget, "rows": measure(name, n, seeds, budget, alpha)}
            save(results)
        summary(label, n, part[key]["rows"], part[key]["budget"])
    plot(part, title, figure)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="5 seeds, 10 s budget, 36x36 and the large sizes with 2 seeds")
    ap.add_argument("--seeds", type=int, default=30, help="seeds per size for --paper")
    ap.add_argument("--budget", type=float, default=600.0, help="seconds per --paper fill")
    ap.add_argument("--paper", default="ilp,weighted-prune",
                    help="the strategies of Raggi's Figures 5-7")
    ap.add_argument("--others",
                    default="prune,backtrack,search,auto,ilp-objective,ilp-in-process")
    ap.add_argument("--other-seeds", type=int, default=None, help="default: --seeds")
    ap.add_argument("--other-budget", type=float, default=None, help="default: --budget")
    ap.add_argument("--big-seeds", type=int, default=3,
                    help="seeds of --others at 36x36 and of every strategy at 49x49, 64x64")
    ap.add_argument("--large-budget", type=float, default=None,
                    help="seconds per fill at 49x49 and 64x64 (default: --other-budget)")
    ap.add_argument("--alpha-size", type=int, default=25)
    ap.add_argument("--alpha-seeds", type=int, default=None, help="default: --other-seeds")
    ap.add_argument("--parts", default="compare,alpha,large")
    ap.add_argument("--save", help="write the measurements to this JSON file as they come")
    ap.add_argument("--load", help="reprint and redraw from this JSON file (measure only "
                    "what it lacks)")
    args = ap.parse_args()
    if args.quick:
        args.seeds, args.budget, args.big_seeds = 5, 10.0, 2
    other_seeds = args.seeds if args.other_seeds is None else args.other_seeds
    other_budget = args.budget if args.other_budget is None else args.other_budget
    large_budget = other_budget if args.large_budget is None else args.large_budget
    alpha_seeds = other_seeds if args.alpha_seeds is None else args.alpha_seeds
    results = {}
    if args.load:
        with open(args.load) as f:
            results = json.load(f)

    def save(data):
        if args.save:
            with open(args.save, "w") as f:
                json.dump(data, f)

    paper = [s for s in args.paper.split(",") if s]
    others = [s for s in args.others.split(",") if s]
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    parts = args.parts.split(",")
    if "compare" in parts:
        jobs = [(name, name, n, args.seeds, args.budget, None)
                for n in (9, 16, 25, 36) for name in paper]
        jobs += [(name, name, n, other_seeds if n < 36 else args.big_seeds, other_budget, None)
                 for n in (9, 16, 25, 36) for name in others]
        jobs.sort(key=lambda job: job[2])
        run_part("Raggi Figures 5-7: seconds per full grid", jobs, results,
                 "fill_compare.png", save)
    if "alpha" in parts:
        n = args.alpha_size
        jobs = [(f"{name} a={alpha:g}", name, n, alpha_seeds, other_budget, alpha)
                for name in ("prune", "weighted-prune")
                for alpha in (0.1, 0.3, 0.5, 0.7, 0.9, 1.0)]
        run_part(f"Raggi Figures 3-4: alpha sweeps at {n}x{n}", jobs, results,
                 "fill_alpha.png", save)
    if "large" in parts:
        names = paper + [s for s in others if s not in paper and s not in VARIANTS]
        names += [s for s in ("sat", "product") if s not in names]   # (not ilp-objective:
        # its root LP alone outlasts any budget here)
        jobs = [(name, name, n, args.big_seeds, large_budget, None)
                for n in (49, 64) for name in names]
        run_part("49x49 and 64x64 (Raggi: 10,000-20,000 s per 64x64 grid)", jobs, results,
                 "fill_large.png", save)


if __name__ == "__main__":
    main()
