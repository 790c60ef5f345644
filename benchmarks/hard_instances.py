"""Hard instances against the world (issue 29): sudokit's default and engines beside a direct
OR-Tools CP-SAT model (1 and 2 workers) and PySAT CaDiCaL on a plain CNF, same run.

Sets (``--sets``): ``g16`` and ``g25`` (gecode's 55 16x16 and 18 25x25 Sudoku), ``qwh30``
(Zanarini and Pesant's 39 order-30 squares at the phase transition), ``qcp`` (60, orders
10-25), ``pls`` (gomes_lsencode's 26, orders 5-100), ``gen36`` and ``gen49`` (Sudoku made by
sudokit's generator, unique, seeded: ``--gen-seed``, ``--gen-count``; the seeds are printed).
Tasks (``--tasks``): ``solve`` and ``count`` (to 2: uniqueness); by default both on every set.

Engines (``--engines``): ``cpsat-1``, ``cpsat-2`` (benchmarks/hard_peers.py: IntVar per cell,
AllDifferent per unit, ``num_workers`` 1 and 2), ``cadical-cnf`` (hard_peers.py: PySAT CaDiCaL
1.9.5, plain CNF), ``default`` (sudokit's engine when none is named, ``default_solver``), any
sudokit engine by name (``takano``, ``cadical195``, ``cpsat``, ``cp``, ``dlx`` ...) in-process
(``race``: the two-engine race of sudokit/solvers/race.py, to compare with ``cpsat-2``: both
use 2 cores), and ``cli`` (the default through the command line, whole processes: one per set
file, one per .pls file, as a user runs it). Each in-process cell (set, task, engine) runs in a
fresh worker process on one core, instances one after the other, each within ``--seconds``
(default 60); after ``--max-timeouts`` undecided instances (default 3) the rest of the set is
cut (said in the table). ``cli`` on a Sudoku set is one process for the whole file and is
never cut: its row says so when it has more timeouts than that, and compares with the
in-process rows only when they were not cut either (``--max-timeouts`` above the set's
size). Figures: decided, median and max seconds per instance (over the instances run, an
undecided one at its time), total CPU seconds of the instances (in-process:
the worker's CPU time around the loop, its child processes' included; cli: the processes' whole
CPU time, start-up included) and peak RSS of the process. Every solution is checked by
``is_solution``; every count to 2 decided by two engines is compared, and so is satisfiability:
a disagreement is printed loudly and the exit code is 1.

Run: ``python benchmarks/hard_instances.py`` (every set, every engine, 60 s each: well over
an hour on a 2-core machine shared at load 15, where each process gets a quarter of a core).
What fits in about 30 minutes there: ``--sample 6 --seconds 30 --max-timeouts 1`` (every
6th instance, cut at the first timeout), the gecode sets whole; ``--save FILE`` keeps the
cells, so runs of parts add up to one table (``--sets g16,qcp --engines default,cpsat-1``
for a slice).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import DATA, format_table, log  # noqa: E402

GECODE = DATA / "sudoku" / "gecode-9-16-25"
LATIN = DATA / "latin"
SET_NAMES = ["g16", "g25", "qwh30", "qcp", "pls", "gen36", "gen49"]
DEFAULT_TASKS = {name: ("solve", "count") for name in SET_NAMES}
DEFAULT_ENGINES = ("cpsat-1,cpsat-2,cadical-cnf,default,cli,race,takano,cpsat,cadical195,cp")
PEERS = ("cpsat-1", "cpsat-2", "cadical-cnf")
SCRATCH = Path(tempfile.gettempdir()) / "sudokit-hard-instances"


# the sets ------------------------------------------------------------------------------------
def pls_files(name: str) -> list[Path]:
    folder = {"qwh30": "qwh30_42pct_zanarini_pesant", "qcp": "qcp_csp2009_minizinc",
              "pls": "gomes_lsencode_PLS"}[name]

    def key(path: Path):
        return [int(part) if part.isdigit() else part
                for part in path.stem.replace(".", "-").split("-")]
    return sorted((LATIN / folder).glob("*.pls"), key=key)


def generated_file(size: int, seed: int, count: int) -> Path:
    return SCRATCH / f"gen{size}-seed{seed}-count{count}.json"


def generate(size: int, seed: int, count: int) -> tuple[Path, float]:
    """``count`` unique puzzles of side ``size`` from ``sudokit generate sudoku --seed``
    (kept in the scratch folder: the same seed gives the same puzzles)."""
    path = generated_file(size, seed, count)
    if path.exists():
        return path, 0.0
    SCRATCH.mkdir(exist_ok=True)
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "sudokit", "generate", "sudoku", "--size",
                          str(size), "--count", str(count), "--seed", str(seed), "--json"],
                         capture_output=True, text=True, env=child_env(), check=True).stdout
    path.write_text(out)
    return path, time.perf_counter() - started


def load_set(name: str, args) -> list[tuple[str, object, Path | None]]:
    """``(label, instance, file it was read from or None)`` of each instance of set ``name``."""
    from sudokit.formats import read_instances
    from sudokit.instances import sudoku

    if name in ("g16", "g25"):
        path = GECODE / ("sudoku16_janko_via_gecode.txt" if name == "g16"
                         else "sudoku25_gecode.txt")
        return [(f"{name}#{k}", r.instance, None)
                for k, r in enumerate(read_instances(str(path)), start=1)]
    if name in ("gen36", "gen49"):
        path = generated_file(int(name[3:]), args.gen_seed, args.gen_count)
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        side = int(name[3:])
        return [(f"{name}#{k}", sudoku(np.array(row["puzzle"].split(), dtype=np.int32)
                                       .reshape(side, side)), None)
                for k, row in enumerate(rows, start=1)]
    return [(path.name, read_instances(str(path))[0].instance, path)
            for path in pls_files(name)]


def sample(name: str, args) -> list[tuple[str, object, Path | None]]:
    """Every ``--sample``-th instance of set ``name`` (all with 1), from the first."""
    return load_set(name, args)[::args.sample]


# one cell in a worker --------------------------------------------------------------------
def sudokit_runner(engine: str, task: str):
    """A function ``(instance, seconds) -> (count, solution, decided)`` through a sudokit
    engine opened as the batch road opens it: for the shape when the engine ``shares``
    (the CP family; SAT up to 16x16), else for any instance (``default``: the engine
    ``default_solver`` picks)."""
    from sudokit.errors import BudgetExhausted
    from sudokit.problems import resolve
    from sudokit.solvers import ENGINES, Budget, open_engine
    from sudokit.solvers.registry import default_solver

    opened: dict = {}

    def run(instance, seconds):
        name = default_solver(instance, task=task) if engine == "default" else engine
        key = (name, instance.kind, instance.n, instance.box)
        if key not in opened:   # shared by the shape where the batch road shares it
            shares = resolve(ENGINES[name].engine).shares(instance, None)
            opened[key] = open_engine(name, shape=instance if shares else None)
        budget = Budget(seconds=seconds)
        try:
            if task == "solve":
                solution = opened[key].solve(instance, budget)
                return int(solution is not None), solution, True
            count, first = opened[key].count(instance, 2, budget)
            return count, first, True
        except BudgetExhausted as err:
            return err.found or 0, None, False
    return run


def peer_runner(engine: str, task: str):
    from hard_peers import cadical_count, cpsat_count
    limit = 1 if task == "solve" else 2

    def run(instance, seconds):
        if engine == "cadical-cnf":
            return cadical_count(instance.givens, instance.box, limit, seconds)
        return cpsat_count(instance.givens, instance.box, limit, seconds,
                           workers=int(engine.split("-")[1]))
    return run


def warm(run, instances) -> None:
    """Compile and load what the engine needs, outside the clock: the smallest instance of
    each shape, solved within one second."""
    seen = set()
    by_size = sorted(instances, key=lambda item: item[1].num_cells - item[1].num_givens)
    for _, instance, _ in by_size:
        key = (instance.n, instance.box)
        if key not in seen:
            seen.add(key)
            try:
                run(instance, 1.0)
            except Exception:   # noqa: BLE001 - refused here, it is refused in the loop too
                pass


def worker(cell: dict) -> dict:
    """Run one cell (see the module): each instance's record, the CPU time of the loop."""
    from sudokit.errors import SudokitError

    instances = sample(cell["set"], argparse.Namespace(**cell["args"]))
    maker = peer_runner if cell["engine"] in PEERS else sudokit_runner
    run = maker(cell["engine"], cell["task"])
    warm(run, instances)
    records, timeouts = [], 0
    cpu = time.process_time()
    reaped = os.times()       # the children's CPU too (race, cpsat's big models)
    for label, instance, _ in instances:
        if timeouts >= cell["max_timeouts"]:
            records.append(dict(label=label, status="cut"))
            continue
        started = time.perf_counter()
        try:
            count, solution, decided = run(instance, cell["seconds"])
        except SudokitError as err:     # an engine refusing an instance (> 64 values ...)
            records.append(dict(label=label, status="refused", reason=str(err),
                                seconds=time.perf_counter() - started))
            continue
        seconds = time.perf_counter() - started
        ok = None if solution is None else bool(instance.is_solution(np.asarray(solution)))
        timeouts += not decided
        records.append(dict(label=label, status="decided" if decided else "timeout",
                            count=int(count), seconds=seconds, ok=ok))
    now = os.times()
    children = (now.children_user - reaped.children_user
                + now.children_system - reaped.children_system)
    return dict(records=records, cpu=time.process_time() - cpu + children)


def child_env() -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("OMP_NUM_THREADS", None)
    return env


def waited(argv: list[str], stdin: str | None, timeout: float) -> tuple[str, float, float, bool]:
    """Run ``argv``; its output, CPU seconds, peak RSS (MB) and whether it was killed."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as given:
        if stdin is not None:
            given.write(stdin)
            given.seek(0)
        process = subprocess.Popen(argv, stdin=given, stdout=out, stderr=subprocess.DEVNULL,
                                   env=child_env(), start_new_session=True)
        killed = False
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline and not killed:
                os.killpg(process.pid, signal.SIGKILL)
                killed = True
            time.sleep(0.05)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        return (out.read(), usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, killed)


def run_cell(set_name: str, task: str, engine: str, args, size: int) -> dict:
    cell = dict(set=set_name, task=task, engine=engine, seconds=args.seconds,
                max_timeouts=args.max_timeouts,
                args=dict(gen_seed=args.gen_seed, gen_count=args.gen_count,
                          sample=args.sample))
    guard = size * (args.seconds * (2 if task == "count" else 1) + 15) + 120
    text, cpu, rss, killed = waited([sys.executable, __file__, "--worker"], json.dumps(cell),
                                    guard)
    if killed or not text.strip():
        return dict(records=[], cpu=cpu, rss=rss, failed="worker killed or crashed")
    result = json.loads(text.strip().splitlines()[-1])
    result["rss"] = rss
    return result


def run_cli(set_name: str, task: str, args, instances) -> dict:
    """The default through ``sudokit solve|count --json --time-limit``, whole processes."""
    from sudokit.formats import format_instance

    command = [sys.executable, "-m", "sudokit", task, "--json", "--time-limit",
               str(args.seconds)] + (["--limit", "2"] if task == "count" else [])
    groups: list[tuple[list, list[str], str | None]] = []
    if instances[0][2] is None:       # a Sudoku set: one file, one process
        text = "".join(format_instance(instance).rstrip("\n") + "\n"
                       for _, instance, _ in instances)
        groups.append((instances, command + ["-"], text))
    else:                             # .pls files: one process each
        groups += [([item], command + [str(item[2])], None) for item in instances]
    first = groups[0]   # the first run of a command may compile kernels: not measured
    waited(first[1], first[2] and first[2].split("\n", 1)[0] + "\n", args.seconds + 60)
    records, cpu, rss, timeouts = [], 0.0, 0.0, 0
    for members, argv, stdin in groups:
        if timeouts >= args.max_timeouts:
            records += [dict(label=label, status="cut") for label, _, _ in members]
            continue
        started = time.perf_counter()
        out, used, peak, killed = waited(argv, stdin, len(members) * (args.seconds + 15) + 60)
        wall = time.perf_counter() - started
        cpu, rss = cpu + used, max(rss, peak)
        answers = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        for k, (label, instance, _) in enumerate(members):
            if k >= len(answers):
                records.append(dict(label=label, status="timeout", count=0,
                                    seconds=args.seconds, ok=None))
                timeouts += 1
                continue
            answer = answers[k]
            decided = answer["status"] != "unknown"
            count = answer.get("count", 1 if answer["status"] == "sat" else 0)
            solution = answer.get("solution")
            if solution is not None and argv[-1].endswith(".pls"):
                solution = np.array(solution) + 1     # .pls answers count values from 0
            ok = None if solution is None else bool(instance.is_solution(np.array(solution)))
            timeouts += not decided
            records.append(dict(label=label, status="decided" if decided else "timeout",
                                count=int(count or 0), ok=ok,
                                seconds=wall if len(members) == 1 else answer["seconds"]))
    return dict(records=records, cpu=cpu, rss=rss)


# the table ----------------------------------------------------------------------------------
def row_of(set_name: str, task: str, engine: str, result: dict, args) -> list:
    records = result["records"]
    run = [r for r in records if r["status"] not in ("cut", "refused")]
    refused = sum(r["status"] == "refused" for r in records)
    decided = [r for r in run if r["status"] == "decided" and r["seconds"] <= args.seconds]
    times = [r["seconds"] for r in run]
    cut = len(records) - len(run)
    wrong = sum(r.get("ok") is False for r in run)
    note = []
    if cut:
        note.append(f"cut after {args.max_timeouts} timeouts ({cut} not run)")
    timeouts = sum(r["status"] == "timeout" for r in run)
    if engine == "cli" and timeouts > args.max_timeouts:
        # one process answers a whole set file: it cannot be cut, the in-process rows are
        note.append(f"one process for the set: not cut ({timeouts} timeouts)")
    if refused:
        note.append(f"{refused} refused ({records_reason(records)})")
    if wrong:
        note.append(f"{wrong} WRONG SOLUTIONS")
    if result.get("failed"):
        note.append(result["failed"])
    how = "whole process" if engine == "cli" else "in-process"
    return [set_name, task, engine, how, f"{len(decided)}/{len(records)}",
            f"{statistics.median(times):.2f}" if times else "-",
            f"{max(times):.2f}" if times else "-", f"{result['cpu']:.1f}",
            f"{result['rss']:.0f}", f"{result.get('load', 0):.1f}", "; ".join(note)]


def records_reason(records: list[dict]) -> str:
    """The first refusal's reason, shortened."""
    reason = next(r["reason"] for r in records if r["status"] == "refused")
    return reason.split(":")[-1].strip()[:40] if "64 values" not in reason else "> 64 values"


def disagreements(results: dict) -> list[str]:
    """Instances where two engines decided different counts (count: to 2; solve: sat or
    not)."""
    found = []
    by_instance: dict = {}
    for (set_name, task, engine), result in results.items():
        for record in result["records"]:
            if record["status"] == "decided":
                by_instance.setdefault((set_name, task, record["label"]), {})[engine] = \
                    record["count"]
    for (set_name, task, label), counts in sorted(by_instance.items()):
        if len(set(counts.values())) > 1:
            found.append(f"{set_name} {task} {label}: {counts}")
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=",".join(SET_NAMES))
    parser.add_argument("--engines", default=DEFAULT_ENGINES)
    parser.add_argument("--tasks", help="solve,count for every set (default: per set)")
    parser.add_argument("--seconds", type=float, default=60.0, help="per instance (60)")
    parser.add_argument("--max-timeouts", type=int, default=3,
                        help="cut a cell after this many undecided instances (3)")
    parser.add_argument("--sample", type=int, default=1,
                        help="every K-th instance of each set (1: all; K > 1 for a quicker "
                             "run on a loaded machine, said in the table)")
    parser.add_argument("--gen-seed", type=int, default=1)
    parser.add_argument("--gen-count", type=int, default=4)
    parser.add_argument("--save", type=Path, help="append each cell's records to this JSON "
                        "lines file as it ends; cells already in it are not run again (a "
                        "run cut short goes on where it stopped)")
    parser.add_argument("--saved-only", action="store_true", help="print the table of the "
                        "cells already in --save, run nothing (a cell not there: 'not run')")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        if sys.platform.startswith("linux"):    # no worker outlives a killed benchmark
            import ctypes
            ctypes.CDLL(None).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        print(json.dumps(worker(json.loads(sys.stdin.read()))))
        return 0

    sets = args.sets.split(",")
    engines = args.engines.split(",")
    started = time.perf_counter()
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print("Hard instances: sudokit against a direct CP-SAT model and CaDiCaL on a plain CNF")
    print(f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC; python "
          f"{platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}; load "
          f"average at start {load}")
    print("command: python benchmarks/hard_instances.py " + " ".join(argv or sys.argv[1:]))
    for name in sets:
        if name.startswith("gen"):
            path, took = generate(int(name[3:]), args.gen_seed, args.gen_count)
            print(f"{name}: {args.gen_count} puzzles of 'sudokit generate sudoku --size "
                  f"{name[3:]} --count {args.gen_count} --seed {args.gen_seed}'"
                  + (f" (made in {took:.0f} s)" if took else f" (kept in {path})"))
    results: dict = {}
    counted: dict = {}
    kept: dict = {}
    if args.save and args.save.exists():
        for line in args.save.read_text().splitlines():
            cell = json.loads(line)
            kept[tuple(cell["cell"])] = cell["result"]
    rows = []
    for name in sets:
        instances = sample(name, args)
        givens = [i.num_givens / i.num_cells for _, i, _ in instances]
        log(f"{name}: {len(instances)} instances, {min(givens):.0%}-{max(givens):.0%} given")
        counted[name] = len(instances)
        for task in (args.tasks.split(",") if args.tasks else DEFAULT_TASKS[name]):
            for engine in engines:
                key = (name, task, engine, args.seconds, args.max_timeouts, args.sample)
                log(f"  {name} {task} {engine} ...")
                if key in kept:
                    result = kept[key]
                elif args.saved_only:
                    rows.append([name, task, engine, "-", "not run"] + ["-"] * 5 + [""])
                    continue
                else:
                    result = (run_cli(name, task, args, instances) if engine == "cli"
                              else run_cell(name, task, engine, args, len(instances)))
                    result["load"] = os.getloadavg()[0]
                    if args.save:
                        with args.save.open("a") as out:
                            out.write(json.dumps({"cell": key, "result": result}) + "\n")
                results[(name, task, engine)] = result
                rows.append(row_of(name, task, engine, result, args))
                log("    " + "  ".join(rows[-1][4:]))
    print()
    print(f"decided = within {args.seconds:g} s each (count: to 2); median and max seconds "
          "per instance run; CPU = seconds of the instances (whole process: start-up too); "
          "RSS = peak MB of the process; load = the machine's load average as the cell ended")
    print(format_table(["set", "task", "engine", "how", "decided", "median s", "max s",
                        "CPU s", "RSS MB", "load", "note"], rows))
    wrong = disagreements(results)
    print()
    if wrong:
        print(f"DISAGREEMENT between engines on {len(wrong)} instance(s):")
        for line in wrong:
            print("  " + line)
    else:
        print("every count decided by two or more engines agrees; every solution checked")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average at end {load}; {time.perf_counter() - started:.0f} s in all")
    bad = any("WRONG" in row[-1] for row in rows)
    return 1 if wrong or bad else 0


if __name__ == "__main__":
    sys.exit(main())
