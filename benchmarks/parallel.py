"""Parallel and distributed batches (issue 14, part 1): serial against ``--jobs N``.

Rows, each a whole ``sudokit`` process as a user runs it (so ``--jobs`` pays for starting its
LocalCluster), in one run:

* uniqueness (``count --limit 2``) of all 49,158 17-clue puzzles: serial, ``--jobs 1``,
  ``--jobs 2`` (and 4 where ``os.cpu_count()`` has them);
* ``grade`` of the first 10,000 of them (``--grade-count``): the same.

Then the steady state, in one process: a LocalCluster of one worker started once (its start
timed on its own), ``run_batch`` against ``run_batch_parallel`` on the 49,158 puzzles, both
warm: the overhead of the Dask path at N = 1 without the cluster's start.

Every parallel output is compared byte for byte with the serial one (``verified``). Speed-up
is serial wall time / this row's; efficiency is speed-up / N. The machine is shared: the load
average is printed before and after.

Run::

    python benchmarks/parallel.py                 # about 6 minutes on 2 shared cores
    python benchmarks/parallel.py --grade-count 2000
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SEVENTEEN = ROOT.parent / "shared" / "data" / "sudoku" / "9x9-tdoku" / "puzzles2_17_clue"


def run(sudokit: str, args: list[str]) -> tuple[float, str]:
    """Wall time of one whole process and its stdout (a failure stops the benchmark)."""
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1")
    start = time.monotonic()
    done = subprocess.run([sudokit, *args], capture_output=True, text=True, env=env)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}")
    return seconds, done.stdout


def rows_for(label: str, sudokit: str, args: list[str], jobs: list[int], items: int) -> list:
    # untimed warm-up: numba's disk cache, the page cache
    run(sudokit, args[:-1] + [_head(args[-1], 200)])
    serial, expected = run(sudokit, args)
    rows = [(label, "serial", serial, items, 1.0, None, True)]
    for n in jobs:
        seconds, out = run(sudokit, [*args, "--jobs", str(n)])
        rows.append((label, f"--jobs {n}", seconds, items, serial / seconds,
                     serial / seconds / n, out == expected))
    return rows


_TEMP = Path(tempfile.mkdtemp(prefix="sudokit-parallel-"))


def _head(path: str, count: int) -> str:
    """A file of the first ``count`` puzzles of ``path`` (comment lines dropped)."""
    target = _TEMP / f"head{count}.txt"
    if not target.exists():
        with open(path) as source:
            lines = [line for line in source if line.strip() and not line.startswith("#")]
        target.write_text("".join(lines[:count]))
    return str(target)


def steady_state() -> list:
    """The Dask path at N = 1 against run_batch, in one process, the cluster already up."""
    from sudokit.formats import read_instances
    from sudokit.parallel import dask_client, run_batch_parallel
    from sudokit.solvers import run_batch

    problems = [r.instance for r in read_instances(str(SEVENTEEN))]
    list(run_batch(problems[:200], task="count", limit=2))
    start = time.perf_counter()
    serial = [r.count for r in run_batch(problems, task="count", limit=2)]
    serial_seconds = time.perf_counter() - start
    start = time.perf_counter()
    with dask_client(jobs=1) as client:
        started = time.perf_counter() - start
        list(run_batch_parallel(client, problems[:200], task="count", limit=2))
        start = time.perf_counter()
        counts = [r.count for r in run_batch_parallel(client, problems, task="count",
                                                      limit=2)]
        dask_seconds = time.perf_counter() - start
    return [("in-process", "run_batch", serial_seconds, len(problems), 1.0, None, True),
            ("in-process", "dask N=1 (cluster up)", dask_seconds, len(problems),
             serial_seconds / dask_seconds, serial_seconds / dask_seconds,
             counts == serial),
            ("in-process", "LocalCluster(1) start", started, 0, None, None, True)]


def table(rows: list) -> str:
    heads = ["task", "mode", "wall s", "items/s", "speed-up", "efficiency", "verified"]
    body = [[task, mode, f"{seconds:.2f}", f"{items / seconds:,.0f}" if items else "-",
             "-" if speed is None else f"{speed:.2f}x",
             "-" if eff is None else f"{eff:.0%}", "yes" if ok else "NO"]
            for task, mode, seconds, items, speed, eff, ok in rows]
    widths = [max(len(r[i]) for r in [heads, *body]) for i in range(len(heads))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True))
                     for r in [heads, *body])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sudokit", default=str(ROOT / ".venv" / "bin" / "sudokit"))
    parser.add_argument("--grade-count", type=int, default=10_000)
    options = parser.parse_args()
    if not SEVENTEEN.exists():
        sys.exit(f"missing data: {SEVENTEEN}")
    jobs = [1, 2] + ([4] if (os.cpu_count() or 1) >= 4 else [])
    print(f"cores: {os.cpu_count()}; load average before: {os.getloadavg()}")
    rows = rows_for("count --limit 2, 49,158 17-clue", options.sudokit,
                    ["count", "--limit", "2", str(SEVENTEEN)], jobs, 49_158)
    graded = _head(str(SEVENTEEN), options.grade_count)
    rows += rows_for(f"grade, {options.grade_count:,} 17-clue", options.sudokit,
                     ["grade", graded], jobs, options.grade_count)
    rows += steady_state()
    print(table(rows))
    whole = rows[1][2] / rows[0][2] - 1
    steady = rows[-3][2] / rows[-2][2]
    print(f"Dask overhead at N=1 on the 49,158: whole process {whole:+.0%}, "
          f"cluster up {1 / steady - 1:+.0%} (goal: under 10%)")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":  # the LocalCluster's worker processes import this module
    main()
