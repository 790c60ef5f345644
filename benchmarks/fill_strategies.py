"""Fill strategies against the seed papers (issue 13): Raggi et al.'s Figures 3-7 rerun.

Parts (each prints a table; seconds are wall clock of ``fill_grid`` after a warm-up fill):

``compare``  Raggi Figures 5-7: ILP against the weighted prune heuristic (and the others
             named by ``--strategies``) on 9x9, 16x16, 25x25 and 36x36, ``--seeds`` seeds each,
             each fill under ``--budget`` seconds (the paper: 30 seeds, a 600 s budget).
``alpha``    Raggi Figures 3-4: prune and weighted prune over a sweep of alpha at
             ``--alpha-size`` (the paper: 25x25 or 36x36).
``large``    49x49 and 64x64 for every strategy, next to ``auto`` (the paper: 10,000-20,000 s
             per 64x64 grid by weighted prune).

A fill that runs out of its budget counts as ``timeout`` (its seconds are the budget, shown
at the budget in the plots). With matplotlib (``pip install "sudokit[plot]"``) the script
writes log-scale strip/box plots of seconds per size to ``benchmarks/figures/``.

Run: ``python benchmarks/fill_strategies.py --quick`` (about ten minutes) or
``python benchmarks/fill_strategies.py --seeds 30 --budget 600`` (the paper's protocol;
hours).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

from sudokit.errors import BudgetExhausted  # noqa: E402
from sudokit.generators.fills import fill_grid  # noqa: E402
from sudokit.instances import sudoku  # noqa: E402
from sudokit.solvers.budget import Budget  # noqa: E402

FIGURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "figures")


def _box(n):
    r = int(round(n ** 0.5))
    return (r, n // r)


def measure(name, n, seeds, budget, alpha=None):
    """``[(seconds, restarts, nodes, ok)]`` for ``seeds`` fills (timeouts: seconds = budget)."""
    fill_grid(name, 4, (2, 2), np.random.default_rng(0), alpha=alpha)      # warm-up
    template = sudoku(np.zeros((n, n), dtype=int), _box(n))
    rows = []
    for seed in range(seeds):
        stats: dict = {}
        started = time.perf_counter()
        try:
            grid = fill_grid(name, n, _box(n), np.random.default_rng(seed), alpha=alpha,
                             stats=stats, meter=Budget(seconds=budget).start())
            if not template.is_solution(grid):
                raise SystemExit(f"{name} made an invalid {n}x{n} grid (seed {seed})")
            rows.append((time.perf_counter() - started, stats["restarts"], stats["nodes"],
                         True))
        except BudgetExhausted:
            rows.append((budget, stats.get("restarts", 0), stats.get("nodes", 0), False))
    return rows


def summary(label, n, rows):
    ok = [s for s, _, _, good in rows if good]
    secs = np.array([s for s, _, _, _ in rows])
    med = f"{np.median(ok):10.4f}" if ok else f"{'-':>10}"
    top = f"{max(ok):10.4f}" if ok else f"{'-':>10}"
    spread = f"{max(ok) / max(min(ok), 1e-6):9.0f}x" if len(ok) > 1 else f"{'-':>10}"
    print(f"{label:<22}{n:>4}x{n:<4}{len(ok):>4}/{len(rows):<4}{med}{top}{spread}"
          f"{np.mean([r for _, r, _, _ in rows]):9.1f}{secs.sum():10.1f}")


def header():
    print(f"{'strategy':<22}{'size':>9}{'done':>9}{'median s':>10}{'max s':>10}"
          f"{'max/min':>10}{'restarts':>9}{'total s':>10}")


def plot(results, title, filename, budget):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no matplotlib: pip install \"sudokit[plot]\" for the figures)")
        return
    labels = list(results)
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(labels) + 2), 4))
    data = [[max(s, 1e-4) for s, _, _, _ in results[k]] for k in labels]
    ax.boxplot(data, showfliers=False)
    rng = np.random.default_rng(0)
    for i, (k, values) in enumerate(zip(labels, data, strict=True), start=1):
        done = [ok for _, _, _, ok in results[k]]
        x = i + rng.uniform(-0.15, 0.15, len(values))
        ax.scatter(x, values, s=12, c=["tab:blue" if d else "tab:red" for d in done], zorder=3)
    ax.axhline(budget, color="tab:red", lw=0.8, ls="--")
    ax.set_yscale("log")
    ax.set_xticks(range(1, len(labels) + 1), labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("seconds per grid (log)")
    ax.set_title(title + "  (red: out of budget)", fontsize=9)
    fig.tight_layout()
    os.makedirs(FIGURES, exist_ok=True)
    fig.savefig(os.path.join(FIGURES, filename), dpi=110)
    plt.close(fig)
    print(f"(figure: benchmarks/figures/{filename})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="5 seeds, 10 s budget, 36x36 and the large sizes with 2 seeds")
    ap.add_argument("--seeds", type=int, default=30)
    ap.add_argument("--budget", type=float, default=600.0, help="seconds per fill")
    ap.add_argument("--strategies", default="ilp,weighted-prune,prune,backtrack,search,auto")
    ap.add_argument("--alpha-size", type=int, default=25)
    ap.add_argument("--parts", default="compare,alpha,large")
    args = ap.parse_args()
    if args.quick:
        args.seeds, args.budget = 5, 10.0
    big_seeds = 2 if args.quick else min(args.seeds, 3)
    names = args.strategies.split(",")
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, "
          f"{args.seeds} seeds, budget {args.budget:g} s per fill")
    parts = args.parts.split(",")
    if "compare" in parts:
        print("\n## Raggi Figures 5-7: seconds per full grid")
        header()
        results = {}
        for n in (9, 16, 25, 36):
            for name in names:
                rows = measure(name, n, args.seeds if n < 36 else big_seeds, args.budget)
                summary(name, n, rows)
                results[f"{name} {n}"] = rows
        plot(results, "full grids: seconds per size and strategy", "fill_compare.png",
             args.budget)
    if "alpha" in parts:
        n = args.alpha_size
        print(f"\n## Raggi Figures 3-4: alpha sweeps at {n}x{n}")
        header()
        results = {}
        for name in ("prune", "weighted-prune"):
            for alpha in (0.1, 0.3, 0.5, 0.7, 0.9, 1.0):
                rows = measure(name, n, args.seeds, args.budget, alpha)
                summary(f"{name} a={alpha:g}", n, rows)
                results[f"{name[:1]}{'w' if name != 'prune' else ''} {alpha:g}"] = rows
        plot(results, f"alpha sweeps at {n}x{n} (p: prune, ww: weighted prune)",
             "fill_alpha.png", args.budget)
    if "large" in parts:
        print("\n## 49x49 and 64x64 (Raggi: 10,000-20,000 s per 64x64 grid)")
        header()
        results = {}
        for n in (49, 64):
            for name in names + [s for s in ("sat", "product") if s not in names]:
                rows = measure(name, n, big_seeds, args.budget)
                summary(name, n, rows)
                results[f"{name} {n}"] = rows
        plot(results, "49x49 and 64x64", "fill_large.png", args.budget)


if __name__ == "__main__":
    main()
