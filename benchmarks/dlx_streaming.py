"""When the answers of a hard chunk come out with ``--solver dlx``, before and after DLX
answered in parts (issue 29 item 4), beside the CP family's parts road (``--solver takano``).

The code of this checkout ("after") against that of a git revision (``--before``, unpacked
by ``git archive`` into a temporary folder):

* **hard chunks**: the QCP squares (``latin/qcp_csp2009_minizinc``, file order, one-line)
  of orders 10, 15 and 20 in one file (three shapes: a chunk of records, the instance road
  with a shared engine per shape) and of order 20 alone (one shape: a column chunk, the
  array road), counted to 2 with ``T`` seconds each, in a child process of each code's own,
  kernels loaded first, by ``answer_chunks`` (road ``pieces``: the serial road of ``sudokit
  count``, pieces sized by the time measured, one instance first; where it cuts depends on
  the times measured, so on the machine's load) or by one ``answer_parts`` call a chunk
  (road ``one call``: as ``sudokit.answer`` and each task of a Dask run): the wall and CPU
  seconds of that process from the start of the run to the first answer, the first and the
  eighth of order 20 and the last (CPU seconds do not stretch with the machine's load: they
  say how much work an answer waited for);
* **easy set**: whole processes of ``sudokit count --limit 2`` of the 17-clue puzzles
  (``9x9-royle17``) into /dev/null, best wall of ``--repeat`` consecutive runs of each code
  after an untimed one, with its CPU seconds (two trees' kernels of one name evict each
  other from the kernel cache, so runs that alternate trees compile on every run);

and in-process, this checkout's ``DLXEngine.count_arrays`` against ``count_array_parts``
on the same 17-clue array (best of ``--repeat``, wall and CPU).

    python benchmarks/dlx_streaming.py --before 40c5cc3 [--repeat 3] [--time-limit 10]
        [--easy-only]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))   # after PYTHONPATH: a child runs the code it names

from benchmarks._data import DATA  # noqa: E402

QCP = DATA / "latin" / "qcp_csp2009_minizinc"
ROYLE17 = DATA / "sudoku" / "9x9-royle17" / "sudoku17.txt"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _command(tree: Path, *args: str) -> tuple[list[str], dict[str, str]]:
    env = dict(os.environ, PYTHONPATH=str(tree), SUDOKIT_NO_PROGRESS="1")
    return [sys.executable, "-m", "sudokit", "count", "--quiet", *args], env


def served(tree: Path, path: Path, solver: str, seconds: float, road: str
           ) -> list[tuple[float, float, bool]]:
    """Per instance of ``path`` (one-line Latin squares): the wall and CPU seconds from the
    start of the run at which its answer came, and whether it was decided; in a child
    process running ``tree``'s code (:func:`child`)."""
    env = dict(os.environ, PYTHONPATH=str(tree), SUDOKIT_NO_PROGRESS="1",
               SUDOKIT_DATA=str(DATA))
    done = subprocess.run([sys.executable, __file__, "--child", str(path), solver,
                           str(seconds), road], env=env, cwd=tree, capture_output=True,
                          text=True, check=True)
    return [(float(wall), float(cpu), decided == "1")
            for wall, cpu, decided in (line.split() for line in done.stdout.splitlines())]


def child(path: str, solver: str, seconds: str, road: str) -> None:
    """:func:`served` in the child: the kernels loaded on a small chunk first, then ``path``
    answered on ``road``, a line per answer: ``pieces``, ``answer_chunks`` (the serial road
    of ``count``: pieces sized by the time measured, one instance first); ``one call``,
    ``answer_parts`` of each chunk whole (one engine call a chunk, as ``sudokit.answer`` and
    each task of a Dask run)."""
    from sudokit.batch import RunSpec, answer_chunks
    from sudokit.batch.run import EngineCache, answer_parts
    from sudokit.formats.stream import read_instance_chunks
    from sudokit.solvers.budget import Budget

    warm = RunSpec.of("count", limit=2, solver=solver)
    lines = ROYLE17.read_text().splitlines(keepends=True)[:200]
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as handle:
        handle.write("".join(lines))
        handle.flush()
        list(answer_chunks(warm, read_instance_chunks(handle.name, columns=True)))
    spec = RunSpec.of("count", limit=2, solver=solver, budget=Budget(seconds=float(seconds)))
    chunks = read_instance_chunks(path, problem="latin", columns=True)
    wall, cpu = time.perf_counter(), time.process_time()
    with EngineCache() as engines:
        parts = (answer_chunks(spec, chunks) if road == "pieces" else
                 ((None, found) for chunk in chunks
                  for found in answer_parts(spec, chunk, engines)))
        for _, found in parts:
            at = f"{time.perf_counter() - wall:.3f} {time.process_time() - cpu:.3f}"
            for unknown in found.unknown:
                print(at, 0 if unknown else 1, flush=True)


def whole_run(tree: Path, *args: str) -> tuple[float, float]:
    """Wall and CPU seconds of one run, output discarded."""
    command, env = _command(tree, *args)
    cpu, wall = _children_cpu(), time.perf_counter()
    # run in the tree: ``python -m`` puts the working folder first on the path
    subprocess.run(command, stdout=subprocess.DEVNULL, env=env, cwd=tree, check=True)
    return time.perf_counter() - wall, _children_cpu() - cpu


def in_process(puzzles: Path, repeat: int) -> dict[str, tuple[float, float]]:
    """Best wall (with its CPU) of ``count_arrays`` and of ``count_array_parts`` on the
    puzzles' givens, this checkout's DLX engine."""
    import numpy as np

    from sudokit.instances import sudoku
    from sudokit.solvers.dlx_engine import DLXEngine

    rows = [[0 if c in ".0" else int(c) for c in line.strip()]
            for line in puzzles.read_text().splitlines() if line.strip()]
    givens = np.array(rows, dtype=np.int32)
    engine = DLXEngine(shape=sudoku(np.zeros((9, 9), dtype=int)))
    engine.count_arrays(givens[:100], 2)                  # kernels loaded before timing
    list(engine.count_array_parts(givens[:100], 2))
    roads = {"count_arrays": lambda: [engine.count_arrays(givens, 2)],
             "count_array_parts": lambda: list(engine.count_array_parts(givens, 2))}
    best: dict[str, tuple[float, float]] = {}
    for _ in range(repeat):
        for name, road in roads.items():
            wall, cpu = time.perf_counter(), time.process_time()
            found = road()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            assert sum(int((part.counts == 1).sum()) for part in found) == len(givens)
            if name not in best or wall < best[name][0]:
                best[name] = (wall, cpu)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="main", help="git revision of the code before")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--easy-only", action="store_true", help="skip the hard chunks")
    args = parser.parse_args()
    from sudokit.formats import format_instance, read_instances

    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        before = base / "before"
        before.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.before],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
        trees = {"before": before, "after": ROOT}
        files = {"qcp 10-20": [f for order in (10, 15, 20)
                               for f in sorted(QCP.glob(f"qcp-{order}-*.pls"))],
                 "qcp 20": sorted(QCP.glob("qcp-20-*.pls"))}
        hard_sets = {}
        for name, squares in files.items():
            hard_sets[name] = base / f"{name.replace(' ', '')}.txt"
            hard_sets[name].write_text("".join(
                format_instance(read_instances(f)[0].instance, "line") + "\n" for f in squares))
        easy_args = ("--limit", "2", str(ROYLE17))
        # the peer with this checkout's code only: its kernels did not change, and two trees'
        # kernels of one name take turns in the kernel cache (each run of the other tree's
        # compiles them again: takano "before" took 3.7 CPU s on the 17-clue set, 0.85 after)
        runs = [("before", "dlx"), ("after", "dlx"), ("after", "takano")]
        warm = base / "warm.txt"
        warm.write_text("".join(ROYLE17.read_text().splitlines(keepends=True)[:100]))
        for code, solver in runs:                 # compile each tree's kernels, untimed
            whole_run(trees[code], "--solver", solver, "--limit", "2", str(warm))
        if not args.easy_only:
            print("hard chunks: the QCP squares of orders 10, 15 and 20 in one file (45, three "
                  "shapes: the instance road) and the 15 of order 20 alone (one shape: the array "
                  f"road), one-line; --limit 2, {args.time_limit:g} s each; road pieces: "
                  "answer_chunks as `count` runs it, one call: one answer_parts call a chunk; "
                  "in a process of each code's own (kernels loaded first); wall / CPU seconds "
                  "of that process from the start of the run to the answer named")
            print("| set | road | solver | code | 1st answer | 1st order-20 | 8th order-20 | "
                  "total | decided |")
            print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
        for name, road in () if args.easy_only else (
                ("qcp 20", "one call"), ("qcp 20", "pieces"), ("qcp 10-20", "pieces")):
            first20 = len(files[name]) - len(files["qcp 20"])
            for code, solver in runs:
                done = served(trees[code], hard_sets[name], solver, args.time_limit, road)
                shown = [done[k] for k in (0, first20, first20 + 7, len(done) - 1)]
                cells = " | ".join(f"{wall:.2f} / {cpu:.2f}" for wall, cpu, _ in shown)
                decided = sum(decided for _, _, decided in done)
                print(f"| {name} | {road} | {solver} | {code} | {cells} | "
                      f"{decided}/{len(done)} |", flush=True)
        count = sum(1 for line in ROYLE17.read_text().splitlines() if line.strip())
        print(f"\neasy set: {count:,} 17-clue puzzles, --limit 2, best wall of "
              f"{args.repeat} consecutive runs after one untimed (the kernels cached again)")
        print("| solver | code | wall s | CPU s | puzzles/s (wall) |")
        print("| --- | --- | ---: | ---: | ---: |")
        for code, solver in runs:
            whole_run(trees[code], "--solver", solver, "--limit", "2", str(warm))
            wall, cpu = min(whole_run(trees[code], "--solver", solver, *easy_args)
                            for _ in range(args.repeat))
            print(f"| {solver} | {code} | {wall:.2f} | {cpu:.2f} | {count / wall:,.0f} |",
                  flush=True)
        print(f"\nin-process, this checkout's DLXEngine on the {count:,} puzzles, best of "
              f"{args.repeat}")
        print("| call | wall s | CPU s |")
        print("| --- | ---: | ---: |")
        for name, (wall, cpu) in in_process(ROYLE17, args.repeat).items():
            print(f"| {name} | {wall:.3f} | {cpu:.3f} |")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(*sys.argv[2:6])
    else:
        main()
