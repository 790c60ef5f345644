"""Model counting: time to the exact count of the 6x6 Sudoku grids, the Latin squares of
orders 5, 6 and 7 and the 9x9 Sudoku grids, by Ganak and by DLX enumeration; ApproxMC's
estimate of the 6x6, 9x9 and 16x16 grids.

Every row runs one empty grid under a stated budget (``--budget`` seconds, default 300;
``--quick``: 30) and prints the count (or the estimate), the time, and whether it agrees with
the known value (GROUND_TRUTH.md in the shared data; 16x16: the published estimate
5.96e98, no exact count is known):

ganak           ``sudokit count --counter ganak --json --time-limit B FILE``, the command a user
                types, timed as a whole process (interpreter start, encoding, the Ganak child);
                Ganak counts the canonical solutions (value symmetry, and the row symmetry of
                a Latin square, broken; :mod:`sudokit.counting.symmetry`) and multiplies.
ganak, plain    ``count_models(grid, "ganak", symmetry=False)`` in this process: Ganak on the
                instance's own CNF, to show what breaking the symmetry buys. Not run on a
                grid with at least 1000x the solutions of one it already failed to count.
dlx             ``sudokit count --solver dlx --json --time-limit B FILE``: enumeration by the
                DLX kernel. A row whose known count would take the rate measured on the
                earlier rows more than 10x the budget is not run (``est.`` gives that time).
approxmc        ``sudokit count --counter approxmc --epsilon 0.8 --delta 0.2 --seed 1 --json
                --time-limit B FILE``; "within" says whether the known value lies within the
                factor 1 + epsilon of the estimate (which the guarantee promises with
                probability at least 1 - delta).

Run from the repository root (``sudokit`` from this checkout's venv, or ``python -m sudokit``)::

    python benchmarks/model_counting.py            # budget 300 s per row: about 40 minutes
    python benchmarks/model_counting.py --quick    # budget 30 s per row: about 5 minutes
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # sudokit from this checkout

import numpy as np  # noqa: E402
from _data import format_table, log, machine_note  # noqa: E402

from sudokit.counting import count_models  # noqa: E402
from sudokit.instances import latin_square, sudoku  # noqa: E402
from sudokit.solvers.budget import Budget  # noqa: E402


@dataclass(frozen=True)
class Grid:
    """One empty grid: its name, side, box shape (None: a Latin square), known count."""

    name: str
    n: int
    box: tuple[int, int] | None
    known: int | float
    exact: bool = True

    def args(self) -> list[str]:
        """The ``count`` options that read the one-line file as this grid."""
        if self.box is None:
            return ["--problem", "latin"]
        return ["--box", f"{self.box[0]}x{self.box[1]}"]

    def instance(self):
        grid = np.zeros((self.n, self.n), dtype=int)
        return latin_square(grid) if self.box is None else sudoku(grid, self.box)


EXACT_ROWS = [
    Grid("Latin 5", 5, None, 161_280),
    Grid("Sudoku 6x6 (2x3)", 6, (2, 3), 28_200_960),
    Grid("Latin 6", 6, None, 812_851_200),
    Grid("Latin 7", 7, None, 61_479_419_904_000),
    Grid("Sudoku 9x9", 9, (3, 3), 6_670_903_752_021_072_936_960),
]
APPROX_ROWS = [
    Grid("Sudoku 6x6 (2x3)", 6, (2, 3), 28_200_960),
    Grid("Sudoku 9x9", 9, (3, 3), 6_670_903_752_021_072_936_960),
    Grid("Sudoku 16x16", 16, (4, 4), 5.96e98, exact=False),
]
EPSILON, DELTA, SEED = 0.8, 0.2, 1


def sudokit_command() -> list[str]:
    """The ``sudokit`` script beside this interpreter, else ``python -m sudokit``."""
    script = Path(sys.executable).with_name("sudokit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "sudokit"]


def run_cli(grid: Grid, options: list[str], budget: float, folder: Path) -> tuple[dict, float]:
    """``(the JSON answer, whole-process seconds)`` of ``sudokit count OPTIONS FILE``."""
    path = folder / f"empty{grid.n}.txt"
    path.write_text("." * (grid.n * grid.n) + "\n")
    command = [*sudokit_command(), "count", "--json", "--time-limit", f"{budget:g}",
               *grid.args(), *options, str(path)]
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1")
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env,
                          timeout=budget + 120)
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 5):
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1]), seconds


def number(value: int | float) -> str:
    """Exact integers up to 20 digits with separators, else in scientific notation."""
    if isinstance(value, int) and value < 10**20:
        return f"{value:,}"
    return f"{float(value):.3e}"


def span(seconds: float) -> str:
    """A long time in the largest sensible unit."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.1f} s"


def exact_row(grid: Grid, method: str, answer: dict | None, seconds: float, budget: float,
              note: str = "") -> list[str]:
    if answer is None or answer.get("status") == "unknown":
        found = answer.get("count") if answer else None
        text = f"(at least {found:,})" if found else "-"
        return [grid.name, method, text, f"over budget ({budget:g} s)", "-", note]
    count = int(answer["count"])
    return [grid.name, method, number(count), f"{seconds:.1f}", "yes" if count == grid.known
            else "NO", note]


def bench_exact(budget: float, folder: Path, plain: bool, dlx: bool) -> list[list[str]]:
    rows: list[list[str]] = []
    rate = None  # DLX solutions per second, from the rows run so far
    plain_over: list[Grid] = []  # grids Ganak without the symmetry did not count in time
    for grid in EXACT_ROWS:
        log(f"{grid.name}: ganak (CLI)")
        answer, seconds = run_cli(grid, ["--counter", "ganak"], budget, folder)
        rows.append(exact_row(grid, "ganak", answer, seconds, budget, "whole command"))
        hopeless = [other for other in plain_over if grid.known >= 1000 * other.known]
        if plain and hopeless:
            rows.append([grid.name, "ganak, plain", "-", "not run", "-",
                         f"{hopeless[0].name} was over budget"])
        elif plain:
            log(f"{grid.name}: ganak without the symmetry (library)")
            start = time.perf_counter()
            result = count_models(grid.instance(), "ganak", budget=Budget(seconds=budget),
                                  symmetry=False)
            seconds = time.perf_counter() - start
            plain_answer = {"status": result.status, "count": result.count}
            rows.append(exact_row(grid, "ganak, plain", plain_answer, seconds, budget,
                                  "in process"))
            if result.status == "unknown":
                plain_over.append(grid)
        if not dlx:
            continue
        if rate is not None and grid.known / rate > 10 * budget:
            rows.append([grid.name, "dlx", "-", f"not run (est. {span(grid.known / rate)})",
                         "-", f"at {rate:,.0f} solutions/s"])
            continue
        log(f"{grid.name}: dlx (CLI)")
        answer, seconds = run_cli(grid, ["--solver", "dlx"], budget, folder)
        found = answer.get("count") or 0
        if found:
            rate = max(rate or 0.0, found / seconds)
        rows.append(exact_row(grid, "dlx", answer, seconds, budget, "whole command"))
    return rows


def bench_approx(budget: float, folder: Path) -> list[list[str]]:
    rows = []
    options = ["--counter", "approxmc", "--epsilon", f"{EPSILON:g}", "--delta", f"{DELTA:g}",
               "--seed", str(SEED)]
    for grid in APPROX_ROWS:
        log(f"{grid.name}: approxmc (CLI)")
        answer, seconds = run_cli(grid, options, budget, folder)
        known = number(grid.known) + ("" if grid.exact else " (est.)")
        if answer.get("status") == "unknown":
            rows.append([grid.name, "-", f"over budget ({budget:g} s)", known, "-", "-"])
            continue
        estimate = int(answer["count"])
        ratio = estimate / grid.known
        within = 1 / (1 + EPSILON) <= ratio <= 1 + EPSILON
        rows.append([grid.name, number(estimate), f"{seconds:.1f}", known, f"{ratio:.3f}",
                     "yes" if within else "no"])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, help="seconds per row (default 300; --quick 30)")
    parser.add_argument("--quick", action="store_true", help="a 30 s budget per row")
    parser.add_argument("--no-plain", action="store_true",
                        help="skip Ganak without the symmetry")
    parser.add_argument("--no-dlx", action="store_true", help="skip DLX enumeration")
    parser.add_argument("--no-approx", action="store_true", help="skip ApproxMC")
    args = parser.parse_args(argv)
    budget = args.budget or (30.0 if args.quick else 300.0)
    if budget <= 0:
        parser.error("--budget must be positive")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        exact = bench_exact(budget, folder, not args.no_plain, not args.no_dlx)
        approx = [] if args.no_approx else bench_approx(budget, folder)
    print(f"Model counting on empty grids, budget {budget:g} s per row")
    print(machine_note())
    print(f"load average at the end: {os.getloadavg()[0]:.2f} (1 min), "
          f"{os.getloadavg()[1]:.2f} (5 min); whole run {time.perf_counter() - started:.0f} s")
    print()
    print("Exact counts (agrees: equals the known count)")
    print(format_table(["grid", "method", "count", "seconds", "agrees", "note"], exact,
                       right={2, 3}))
    if approx:
        print()
        print(f"ApproxMC estimates (epsilon {EPSILON:g}, delta {DELTA:g}, seed {SEED}: within a "
              f"factor {1 + EPSILON:g} with probability >= {1 - DELTA:g})")
        print(format_table(["grid", "estimate", "seconds", "known", "estimate/known",
                            "within"], approx, right={1, 2, 3, 4}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
