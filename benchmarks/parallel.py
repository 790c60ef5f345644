"""Parallel and distributed batches (issue 14, part 1): serial against ``--jobs N``.

Rows, each a whole ``sudokit`` process as a user runs it (so ``--jobs`` pays for starting its
LocalCluster), in one run:

* uniqueness (``count --limit 2``) of all 49,158 17-clue puzzles: serial, ``--jobs 1``,
  ``--jobs 2`` (and 4 where ``os.cpu_count()`` has them), best of ``--repeats`` runs;
* the same on the 49,158 repeated ``--copies`` times (default 20: 983,160 lines), where
  the fixed cost of starting the cluster is spread over some ten seconds of work: the best
  of two runs;
* ``grade`` of the first 10,000 of them (``--grade-count``): the same, once.

Then the steady state, in one process: a LocalCluster of one worker started once (its start
timed on its own); ``count``'s array path (the file read as column chunks, counted, its
lines made) serially against :func:`sudokit.batch.dask.answer_on_cluster`, both warm, best of
``--repeats``: the overhead of the Dask path at N = 1 without the cluster's start (and the
same on a worker thread of this process, ``processes=False``, for comparison); then the
object path, ``answer_chunks`` against ``answer_on_cluster`` on instances; then the cost
of importing ``distributed``, whole processes.

Every parallel output is compared byte for byte with the serial one (``verified``). Speed-up
is serial wall time / this row's; efficiency is speed-up / N. The machine is shared: the load
average is printed before and after.

Run::

    python benchmarks/parallel.py                 # about 8 minutes on 2 shared cores
    python benchmarks/parallel.py --grade-count 0 --jobs 1   # the N = 1 overhead only
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
    for variable in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"):  # as a user's shell
        env.pop(variable, None)
    start = time.monotonic()
    done = subprocess.run([sudokit, *args], capture_output=True, text=True, env=env)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)}: exit {done.returncode}: {done.stderr.strip()}")
    return seconds, done.stdout


def rows_for(label: str, sudokit: str, args: list[str], jobs: list[int], items: int,
             repeats: int) -> list:
    """Serial, then ``--jobs N`` for each N: the best of ``repeats`` runs each, the runs
    alternated (a burst of load from the machine's other users hits every row)."""
    # untimed warm-up: numba's disk cache, the page cache
    run(sudokit, args[:-1] + [_head(args[-1], 200)])
    run(sudokit, [*args[:-1], _head(args[-1], 200), "--jobs", "1"])
    modes = [args] + [[*args, "--jobs", str(n)] for n in jobs]
    best: list[tuple[float, str]] = [(float("inf"), "")] * len(modes)
    for _ in range(repeats):
        for i, mode in enumerate(modes):
            seconds, out = run(sudokit, mode)
            best[i] = min(best[i], (seconds, out))
    serial, expected = best[0]
    rows: list[tuple] = [(label, "serial", serial, items, 1.0, None, True)]
    for n, (seconds, out) in zip(jobs, best[1:], strict=True):
        rows.append(("", f"--jobs {n}", seconds, items, serial / seconds,
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


def _copies(path: str, copies: int) -> str:
    """A file of ``copies`` copies of the puzzles of ``path`` (comment lines dropped)."""
    target = _TEMP / f"copies{copies}.txt"
    if not target.exists():
        with open(path) as source:
            lines = [line for line in source if line.strip() and not line.startswith("#")]
        target.write_text("".join(lines) * copies)
    return str(target)


def _count_text(part, found) -> bytes:
    """``count --limit 2``'s lines for one part, as the CLI's writer makes them."""
    import io

    from sudokit.cli.answers import AnswerWriter

    out = io.BytesIO()
    stream = io.TextIOWrapper(out, encoding="ascii")
    AnswerWriter(stream, "count", limit=2).write(part, found)
    stream.flush()
    return out.getvalue()


def _array_serial(path: str) -> tuple[float, bytes]:
    """``count --limit 2``'s serial road, in this process: the file read as column chunks,
    each answered by :func:`sudokit.batch.answer_chunks` (engines kept open), its lines
    made (what the CLI writes)."""
    from sudokit.batch import RunSpec, answer_chunks
    from sudokit.formats.stream import read_instance_chunks

    start = time.perf_counter()
    out = []
    for part, found in answer_chunks(RunSpec.of("count", limit=2),
                                     read_instance_chunks(path, columns=True)):
        if isinstance(part, list):
            sys.exit(f"{path} does not read as column chunks")
        out.append(_count_text(part, found))
    return time.perf_counter() - start, b"".join(out)


def _array_dask(client, path: str) -> tuple[float, bytes]:
    """The same on the cluster (:func:`sudokit.batch.dask.answer_on_cluster`, what
    ``--jobs`` and ``--scheduler`` run): chunks go out as uint8 arrays while the next are
    read."""
    from sudokit.batch import RunSpec
    from sudokit.batch.dask import answer_on_cluster
    from sudokit.formats.stream import read_instance_chunks

    start = time.perf_counter()
    out = []
    for part, found in answer_on_cluster(client, RunSpec.of("count", limit=2),
                                         read_instance_chunks(path, columns=True)):
        out.append(_count_text(part, found))
    return time.perf_counter() - start, b"".join(out)


def _threads_worker(path: str, repeats: int, expected: bytes) -> tuple[float, float, bool]:
    """The array path on a LocalCluster whose one worker is a thread of this process
    (``processes=False``; not what ``--jobs 1`` starts): best time, start time, same output."""
    import logging

    from distributed import Client, LocalCluster

    start = time.perf_counter()
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address=None, silence_logs=logging.CRITICAL) as cluster, \
            Client(cluster, set_as_default=False) as client:
        started = time.perf_counter() - start
        _array_dask(client, _head(path, 2000))
        runs = [_array_dask(client, path) for _ in range(repeats)]
    return min(runs)[0], started, all(out == expected for _, out in runs)


def steady_state(repeats: int) -> list:
    """The Dask path at N = 1 against the serial path, in one process, the cluster already
    up (the ``--scheduler`` case without the process start): the array path both ways (what
    ``count`` runs on a file of one-line puzzles), best of ``repeats``; then the object path
    (``answer_chunks`` against ``answer_on_cluster`` on instances, what engines without an
    array call take), once."""
    from sudokit.batch import RunSpec, answer_chunks
    from sudokit.batch.cluster import dask_client
    from sudokit.batch.dask import answer_on_cluster
    from sudokit.formats import read_instances

    path = str(SEVENTEEN)
    head = _head(path, 2000)
    _array_serial(head)
    start = time.perf_counter()
    with dask_client(jobs=1) as client:
        started = time.perf_counter() - start
        _array_dask(client, head)  # the worker's engine opens (numba's cache loads)
        serial_runs, dask_runs = [], []
        for _ in range(repeats):  # alternated, so that a burst of load hits both
            serial_runs.append(_array_serial(path))
            dask_runs.append(_array_dask(client, path))
        serial_seconds, expected = min(serial_runs)
        dask_seconds, text = min(dask_runs)
        same = all(out == expected for _, out in [*serial_runs, *dask_runs])
        problems = [r.instance for r in read_instances(path)]
        list(answer_chunks(RunSpec.of("count", limit=2), [problems[:200]]))
        start = time.perf_counter()
        counts = [count for _, found in answer_chunks(RunSpec.of("count", limit=2),
                                                      [problems])
                  for count in found.counts.tolist()]
        objects_serial = time.perf_counter() - start
        spec = RunSpec.of("count", limit=2)
        list(answer_on_cluster(client, spec, [problems[:200]]))
        start = time.perf_counter()
        on_dask = [count for _, found in answer_on_cluster(client, spec, [problems])
                   for count in found.counts.tolist()]
        objects_dask = time.perf_counter() - start
    threads, threads_start, threads_same = _threads_worker(path, repeats, expected)
    items = len(problems)
    return [("in-process arrays, 49,158", "serial (answer_chunks)", serial_seconds, items, 1.0,
             None, True),
            ("", "dask N=1 (cluster up)", dask_seconds, items, serial_seconds / dask_seconds,
             serial_seconds / dask_seconds, same),
            ("", "dask N=1, worker thread", threads, items, serial_seconds / threads,
             serial_seconds / threads, threads_same),
            ("", "its LocalCluster start", threads_start, 0, None, None, True),
            ("in-process objects, 49,158", "answer_chunks", objects_serial, items, 1.0, None,
             True),
            ("", "dask N=1 (cluster up)", objects_dask, items, objects_serial / objects_dask,
             objects_serial / objects_dask, on_dask == counts),
            ("", "LocalCluster(1) start", started, 0, None, None, True)]


def import_floor(repeats: int) -> list:
    """What any Dask run pays before its first task: ``import distributed`` on top of the
    serial command's imports (whole processes, best of ``repeats``)."""
    def best(code: str) -> float:
        times = []
        for _ in range(repeats):
            start = time.monotonic()
            subprocess.run([sys.executable, "-c", code], check=True)
            times.append(time.monotonic() - start)
        return min(times)

    plain = best("import sudokit.cli")
    dask = best("import sudokit.cli, distributed")
    return [("imports (whole process)", "import sudokit.cli", plain, 0, None, None, True),
            ("", "+ import distributed", dask, 0, None, None, True)]


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
    parser.add_argument("--sudokit", default=str(Path(sys.executable).parent / "sudokit"),
                        help="the sudokit command (default: next to this Python)")
    parser.add_argument("--grade-count", type=int, default=10_000,
                        help="puzzles graded (0: no grade rows)")
    parser.add_argument("--jobs", type=int, nargs="*", default=None,
                        help="the --jobs rows (default 1 2, and 4 with 4 cores)")
    parser.add_argument("--copies", type=int, default=20,
                        help="copies of the 49,158 in the large count row (0: no such row)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="runs of each count row, the best kept (default 3)")
    options = parser.parse_args()
    if not SEVENTEEN.exists():
        sys.exit(f"missing data: {SEVENTEEN}")
    jobs = options.jobs if options.jobs is not None else (
        [1, 2] + ([4] if (os.cpu_count() or 1) >= 4 else []))
    print(f"cores: {os.cpu_count()}; load average before: {os.getloadavg()}")
    rows = rows_for("count --limit 2, 49,158 17-clue", options.sudokit,
                    ["count", "--limit", "2", str(SEVENTEEN)], jobs, 49_158,
                    options.repeats)
    whole = rows[1][2] / rows[0][2] - 1 if 1 in jobs else None
    large = None
    if options.copies:
        copies = _copies(str(SEVENTEEN), options.copies)
        items = 49_158 * options.copies
        rows += rows_for(f"count --limit 2, {items:,} (x{options.copies})", options.sudokit,
                         ["count", "--limit", "2", copies], jobs, items,
                         min(2, options.repeats))
        serial_large = rows[-len(jobs) - 1][2]
        large = (rows[-len(jobs) + jobs.index(1)][2] / serial_large - 1 if 1 in jobs
                 else None)
    if options.grade_count:
        graded = _head(str(SEVENTEEN), options.grade_count)
        rows += rows_for(f"grade, {options.grade_count:,} 17-clue", options.sudokit,
                         ["grade", graded], jobs, options.grade_count, 1)
    steady = steady_state(options.repeats)
    rows += steady + import_floor(options.repeats)
    print(table(rows))
    up = steady[0][2] / steady[1][2]
    threads = steady[0][2] / steady[2][2]
    print(f"import distributed: {rows[-1][2] - rows[-2][2]:+.2f} s per process")
    if whole is not None:
        print(f"Dask overhead at N=1 on the 49,158 (count): whole process {whole:+.0%} "
              f"({rows[1][2] - rows[0][2]:+.2f} s)")
    if large is not None:
        print(f"Dask overhead at N=1 on {49_158 * options.copies:,} lines (count): whole "
              f"process {large:+.0%}")
    print(f"Dask overhead at N=1 on the 49,158 (count), cluster up: {1 / up - 1:+.0%} "
          f"(goal: under 10%); with the worker a thread of this process {1 / threads - 1:+.0%}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":  # the LocalCluster's worker processes import this module
    main()
