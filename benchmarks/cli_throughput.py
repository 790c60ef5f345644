"""Whole-process throughput of the sudokit command line, next to in-process calls and peers.

Issue 12's benchmark. Every row runs the command line as a user types it, through the
installed ``sudokit`` entry point of a venv (default ``.venv/bin/sudokit`` of this checkout;
``--sudokit PATH``), as a new process per run; next to it the in-process library call doing
the same work by the road the command takes (the file a chunk at a time with
``read_instance_chunks(..., columns=True)``, one-line puzzles answered as arrays by
``ArrayBatch``, anything else through ``run_batch``; ``PuzzleGenerator.make``), run by that
venv's interpreter, and the peers in the same run:

* tdoku (C++, SIMD; ``tdoku_count``: a small driver over tdoku's solver with limit 2, its
  in-process rate from tdoku's own ``run_benchmark``) and QQwing 1.3 (C++; ``--solve
  --count-solutions`` and ``--generate N``), built by ``benchmarks/peers_setup.sh`` outside the
  repository (``--peers-dir``, default ``../peers``);
* xcover (numba) and exact-cover (C extension), from the peers' venv
  (``benchmarks/.venv-peers``, ``--peers-python``), each run as a whole process of this script
  in driver mode (``--driver xcover-unique FILE`` etc.; the process time includes its imports).

Timing: wall time of each whole process (spawn to exit), its CPU time (user + sys) and peak
RSS (``os.wait4``); ``--repeat`` runs (default 3), min and median, the runs of one row
interleaved (repeat-major) so the peers share the machine's state. Before timing, each
program runs once untimed (numba's on-disk cache, page cache): the same command, but the SAT
rows over all 17-clue puzzles on a 5,000 slice and the Python peers on 20 puzzles. In-process:
the sudokit driver imports sudokit (untimed), warms up on a small input, then times the call
``--repeat`` times in one process; whole/in-process is min over min. The Python peers time
their own work after imports and a warm-up puzzle (reading the file included, printing not).
A missing peer prints ``n/a (run benchmarks/peers_setup.sh)``; a failed command shows its
exit code and its counts are not trusted (column ``verified``). Outputs are checked: every
uniqueness count, the Latin count 161,280, the generated puzzles (line format; with tdoku
built, each one re-counted as unique), every 64x64 solution.

Goals (issue 12; judged on the min wall time of whole processes, with the verdict by CPU
time added when it differs - the machine is shared):

* 49,158 17-clue uniqueness, default back end: <= 4x tdoku, >= 5x faster than xcover and QQwing;
  ``--solver dlx`` >= 10,000 puzzles/s, cadical195 >= 3,000/s; whole/in-process < 1.3;
* Latin squares of order 5, ``count --solver dlx``: whole process no slower than exact-cover's;
  counting runs no Python per solution (Python-level calls during the in-process count,
  counted with ``sys.setprofile``, stay below the 161,280 solutions);
* ``generate sudoku --size 9 --minimal --count 2000``: >= 500/s and >= 2x QQwing's rate;
* ``solve`` of an empty or sparse (1 % givens) 64x64 grid: under 10 s and under 1 GB;
* ``--version``, ``--help`` under 0.15 s; one-puzzle solve/count with a SAT solver under 0.4 s,
  with dlx under 0.8 s (cache warm); the first run with a cold numba cache (``NUMBA_CACHE_DIR``
  a new empty folder) says exactly once on stderr that it is compiling, a warm run never.

Run::

    bash benchmarks/peers_setup.sh              # once: peers venv, tdoku and QQwing in ../peers
    python benchmarks/cli_throughput.py         # about 30 minutes on 2 shared cores
    python benchmarks/cli_throughput.py --quick --only u17-dlx,latin5,startup
    python benchmarks/cli_throughput.py --list  # the rows and groups for --only
"""

from __future__ import annotations

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SELF = os.path.abspath(__file__)
SETUP_HINT = "n/a (run benchmarks/peers_setup.sh)"
LATIN5_COUNT = 161_280
COMPILING = "compil"          # a stderr line containing this (any case) is a compiling notice


# =============================================================================== drivers
# ``cli_throughput.py --driver NAME ...`` runs one measured program: the Python peers (run
# by the peers' venv: their whole process is this driver) and sudokit's in-process calls (run
# by sudokit's venv). Only the standard library is imported before the driver's own imports.

def _emit(tag: str, payload: dict) -> None:
    print(f"{tag} {json.dumps(payload)}", file=sys.stderr, flush=True)


def _read_9x9(path: str):
    """(N, 81) uint8 array of 0..9 from a one-puzzle-per-line file (``#`` comments, CR,
    blank lines skipped; ``.``, ``0``, ``-`` empty), and the puzzle lines."""
    import numpy as np
    with open(path, encoding="ascii", errors="replace") as handle:
        lines = [s for s in (raw.strip() for raw in handle) if s and not s.startswith("#")]
    if not lines:
        return np.zeros((0, 81), np.uint8), lines
    table = np.full(256, 255, np.uint8)
    for sym in b".0-":
        table[sym] = 0
    for i, sym in enumerate(b"123456789"):
        table[sym] = i + 1
    grid = table[np.frombuffer("".join(lines).encode("ascii"), np.uint8)]
    if grid.size != 81 * len(lines) or (grid == 255).any():
        raise SystemExit(f"{path}: not 9x9 one-line puzzles")
    return grid.reshape(-1, 81), lines


def _sudoku_options():
    """Knuth's 4n^2 exact cover of the 9x9 Sudoku: option r*81 + c*9 + v covers cell (r, c),
    row r value v, column c value v and box b value v (items 0..323)."""
    import numpy as np
    r, c, v = np.meshgrid(np.arange(9), np.arange(9), np.arange(9), indexing="ij")
    b = (r // 3) * 3 + c // 3
    return np.stack([r * 9 + c, 81 + r * 9 + v, 162 + c * 9 + v, 243 + b * 9 + v],
                    axis=-1).reshape(729, 4).astype(np.int64)


def _reduced_cover(puzzle, table):
    """The puzzle's exact cover without what the givens settle (as dlx_peers.py's reduced
    encoding and Knuth's sudoku-dlx): (options x 4 item ids renumbered 0..items-1, items),
    or None when the givens clash."""
    import numpy as np
    cells = np.flatnonzero(puzzle)
    given = table[cells * 9 + puzzle[cells].astype(np.int64) - 1].ravel()
    covered = np.zeros(324, bool)
    covered[given] = True
    if covered.sum() != len(given):
        return None
    allowed = table[~covered[table].any(axis=1)]
    renumber = np.cumsum(~covered) - 1
    return renumber[allowed], int((~covered).sum())


def _latin_options(n: int):
    import numpy as np
    r, c, v = np.meshgrid(np.arange(n), np.arange(n), np.arange(n), indexing="ij")
    return np.stack([r * n + c, n * n + r * n + v, 2 * n * n + c * n + v],
                    axis=-1).reshape(n ** 3, 3).astype(np.int64), 3 * n * n


def _peer_solver(name: str):
    """(count_upto(options, items, limit), count_all(options, items)) for a Python peer;
    options is an (options x k) array of item ids, every item primary."""
    import itertools

    import numpy as np
    if name == "xcover":
        import xcover

        def args(options, items):
            flat = options.ravel().astype(np.uint32)
            starts = np.arange(0, flat.size + 1, options.shape[1], dtype=np.uint32)
            return flat, starts, np.zeros(flat.size, np.uint32), np.uint32(items), np.uint32(0)

        def upto(options, items, limit):
            return sum(1 for _ in itertools.islice(xcover.algorithm_c(*args(options, items)),
                                                   limit))

        def count_all(options, items):
            return sum(1 for _ in xcover.algorithm_c(*args(options, items)))
        return upto, count_all
    if name == "exact-cover":
        import exact_cover
        from exact_cover.error import NoSolution

        def dense(options, items):
            matrix = np.zeros((len(options), items), dtype=bool)
            matrix[np.arange(len(options))[:, None], options] = True
            return matrix

        def upto(options, items, limit):
            try:
                return len(exact_cover.get_all_solutions(dense(options, items), limit))
            except NoSolution:
                return 0

        def count_all(options, items):
            return int(exact_cover.get_solution_count(dense(options, items)))
        return upto, count_all
    raise SystemExit(f"unknown peer {name}")


WARMUP_9X9 = ("4.....8.5.3..........7......2.....6.....8.4......1......."
              "6.3.7.5..2.....1.4......")


def driver_peer_unique(peer: str, path: str) -> int:
    """Uniqueness (count up to 2) of every puzzle of ``path``; one ``puzzle count`` line each."""
    import numpy as np
    upto, _ = _peer_solver(peer)
    table = _sudoku_options()
    warm = np.frombuffer(WARMUP_9X9.replace(".", "0").encode(), np.uint8) - ord("0")
    upto(*_reduced_cover(warm, table), 2)                 # warm-up (numba cache load)
    wall, cpu = time.perf_counter(), time.process_time()
    grids, lines = _read_9x9(path)
    counts = []
    for grid in grids:
        cover = _reduced_cover(grid, table)
        counts.append(0 if cover is None else upto(cover[0], cover[1], 2))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    sys.stdout.write("".join(f"{line} {count}\n"
                             for line, count in zip(lines, counts, strict=True)))
    _emit("INPROCESS", {"wall": wall, "cpu": cpu})
    return 0


def driver_peer_latin(peer: str, n: int) -> int:
    """Count every Latin square of order ``n`` (the full 3n^2-item exact cover)."""
    _, count_all = _peer_solver(peer)
    count_all(*_latin_options(2))                          # warm-up
    wall, cpu = time.perf_counter(), time.process_time()
    count = count_all(*_latin_options(n))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(count)
    _emit("INPROCESS", {"wall": wall, "cpu": cpu})
    return 0


def _count_python_calls(function) -> int:
    """Python-level function calls (``call`` events) made while ``function()`` runs."""
    calls = 0

    def profile(frame, event, arg):
        nonlocal calls
        if event == "call":
            calls += 1
    sys.setprofile(profile)
    try:
        function()
    finally:
        sys.setprofile(None)
    return calls


def driver_sudokit(argv: list[str]) -> int:
    """In-process sudokit: ``TASK [--file F] [--warmup F] [--solver S] [--limit N]
    [--problem P] [--count N] [--seed S] [--repeat R] [--count-calls]``; prints one JSON
    line (times of each run, a summary of the results, peak RSS)."""
    import argparse
    import resource
    parser = argparse.ArgumentParser(prog="cli_throughput.py --driver sudokit")
    parser.add_argument("task", choices=["count", "solve", "generate", "info"])
    parser.add_argument("--file")
    parser.add_argument("--warmup")
    parser.add_argument("--solver")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--problem")
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--count-calls", action="store_true")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    import sudokit
    import_seconds = time.perf_counter() - start
    if args.task == "info":
        import platform
        from importlib.metadata import PackageNotFoundError, version
        out = {"python": platform.python_version(), "executable": sys.executable,
               "sudokit": sudokit.__version__, "sudokit_file": sudokit.__file__}
        for dist in ("numpy", "numba", "python-sat", "click"):
            try:
                out[dist] = version(dist)
            except PackageNotFoundError:
                out[dist] = "not installed"
        print(json.dumps(out))
        return 0

    def call(path):
        if args.task in ("count", "solve"):
            return read_and_answer(path)
        from sudokit.generators import PuzzleGenerator
        count = 1 if path == "warmup" else args.count
        seed = args.seed + 1000 if path == "warmup" else args.seed
        with PuzzleGenerator(9, (3, 3), seed) as gen:   # the default checker, as the CLI
            return None, [gen.make("minimal") for _ in range(count)]

    def read_and_answer(path):
        """The library road the command takes: the file a chunk at a time, answered by
        ``sudokit.batch.answer_chunks`` (one-line puzzles as arrays by one engine call,
        anything else instance by instance); a checkout from before the batch road
        (``ArrayBatch``/``run_batch``) is driven the old way. Results as ``(instances or
        None, [(count, status, solution)])``."""
        import numpy as np

        from sudokit.formats.stream import read_instance_chunks
        chunks = read_instance_chunks(path, args.problem, columns=True)
        try:
            from sudokit.batch import RunSpec, answer_chunks
        except ImportError:
            return old_road(chunks)
        from sudokit.formats.columns import ColumnChunk
        answers, instances = [], []
        spec = RunSpec.of(args.task, args.limit, args.solver)
        for part, found in answer_chunks(spec, chunks):
            if isinstance(part, ColumnChunk):
                solutions = (np.zeros((len(part), part.n, part.n), np.int32)
                             if found.solutions is None
                             else np.asarray(found.solutions).reshape(-1, part.n, part.n))
                part_instances = ([part.instance(i) for i in range(len(part))]
                                  if args.task == "solve" else [None] * len(part))
            else:
                part_instances = [r.instance for r in part]
                solutions = (found.solutions if found.solutions is not None
                             else [None] * len(part))
            instances += part_instances
            answers += zip(found.counts.tolist(), found.statuses(), solutions, strict=True)
        return instances, answers

    def old_road(chunks):
        from sudokit.formats.columns import ColumnChunk
        from sudokit.solvers import ArrayBatch
        answers, instances = [], []
        with ArrayBatch(args.solver) as batch:
            for chunk in chunks:
                if isinstance(chunk, ColumnChunk) and batch.takes(
                        chunk.values, chunk.kind, chunk.box, args.task):
                    found = batch.count(chunk.values, chunk.kind, chunk.box, args.limit,
                                        task=args.task)
                    n = chunk.n
                    answers += zip(found.counts.tolist(), found.statuses().tolist(),
                                   found.solutions.reshape(-1, n, n), strict=True)
                    instances += [chunk.instance(i) for i in range(len(chunk))] \
                        if args.task == "solve" else [None] * len(chunk)
                    continue
                if isinstance(chunk, ColumnChunk):
                    chunk = chunk.records()
                part = [r.instance for r in chunk]
                instances += part
                answers += [(res.count, res.status, res.solution) for res in sudokit.run_batch(
                    part, task=args.task, limit=args.limit, solver=args.solver)]
        return instances, answers

    warm = time.perf_counter()
    call(args.warmup if args.task != "generate" else "warmup")
    warm = time.perf_counter() - warm
    runs = []
    for _ in range(args.repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        instances, results = call(args.file if args.task != "generate" else "timed")
        runs.append({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu})
    summary: dict = {"instances": len(results)}
    if args.task == "count":
        tally: dict = {}
        for count, status, _ in results:
            key = count if status != "unknown" else "unknown"
            tally[str(key)] = tally.get(str(key), 0) + 1
        summary["counts"] = tally
    elif args.task == "solve":
        summary["valid"] = sum(status == "sat" and inst.is_solution(solution)
                               for inst, (_, status, solution) in zip(instances, results,
                                                                      strict=True))
    else:
        summary["unique"] = sum(bool(getattr(p, "unique", True)) for p in results)
        summary["minimal"] = sum(bool(getattr(p, "minimal", False)) for p in results)
    if args.count_calls:
        summary["python_calls"] = _count_python_calls(lambda: call(args.file))
    print(json.dumps({"import": import_seconds, "warmup": warm, "runs": runs,
                      "summary": summary,
                      "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
    return 0


def driver_main(argv: list[str]) -> int:
    if not argv:
        raise SystemExit("--driver needs a name")
    name, rest = argv[0], argv[1:]
    if name in ("xcover-unique", "exact-cover-unique"):
        return driver_peer_unique(name.rsplit("-", 1)[0], rest[0])
    if name in ("xcover-latin", "exact-cover-latin"):
        return driver_peer_latin(name.rsplit("-", 1)[0], int(rest[0]))
    if name == "peers-info":
        from importlib.metadata import PackageNotFoundError, version
        out = {}
        for dist in ("exact-cover", "xcover", "numba", "numpy"):
            try:
                out[dist] = version(dist)
            except PackageNotFoundError:
                out[dist] = "not installed"
        print(json.dumps(out))
        return 0
    if name == "sudokit":
        return driver_sudokit(rest)
    raise SystemExit(f"unknown driver {name}")


# =============================================================================== harness
class Entry:
    """One program of a row: its whole-process command line, how to warm it up, how to check
    its output, and where its in-process time comes from."""

    def __init__(self, name, argv, *, stdin=None, warmup=None, check=None, inproc=None,
                 missing=None, cold=False, kind="sudokit", shown=None):
        self.name, self.argv, self.stdin, self.check = name, argv, stdin, check
        self.warmup = warmup          # argv of the untimed run (None: none)
        self.inproc = inproc          # "self" (the process reports it), a callable, or None
        self.missing = missing        # a reason when the program is not available
        self.cold = cold              # a new empty NUMBA_CACHE_DIR per run
        self.kind = kind              # "sudokit" or "peer"
        self.shown = shown            # the command as printed (default argv)
        self.whole: list[dict] = []
        self.inproc_runs: list[dict] = []
        self.inproc_note = ""
        self.failures: list[str] = []
        self.notes: list[str] = []
        self.extra: dict = {}


class Row:
    def __init__(self, key, group, label, entries, *, size=None, unit="puzzles"):
        self.key, self.group, self.label, self.entries = key, group, label, entries
        self.size, self.unit = size, unit

    def entry(self, name):
        return next((e for e in self.entries if e.name == name), None)


def _environment(cold_dir=None):
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    # as a user's shell: Python keeps the bytecode of what it imports (some sandboxes set
    # this, and then every run compiles the package's modules again, about 0.1 s)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONUNBUFFERED", None)  # (set here too: every write of stdout a system call)
    env.pop("NUMBA_CACHE_DIR", None)
    if cold_dir is not None:
        env["NUMBA_CACHE_DIR"] = cold_dir
    return env


_GNU_TIME: list = []


def gnu_time():
    """``/usr/bin/time`` when it is GNU time (it reports its child's own peak RSS), else None."""
    if not _GNU_TIME:
        import subprocess
        path = "/usr/bin/time"
        found = None
        if os.access(path, os.X_OK):
            try:
                done = subprocess.run([path, "--version"], capture_output=True, text=True,
                                      timeout=10)
                found = path if "GNU" in done.stdout + done.stderr else None
            except (OSError, subprocess.SubprocessError):
                found = None
        _GNU_TIME.append(found)
    return _GNU_TIME[0]


def run_process(argv, *, stdin=None, env=None, timeout=1800.0, pin=None, workdir=None):
    """Run ``argv`` once; ``{"wall", "cpu", "rss_kb", "rc", "stdout", "stderr"}`` (stdout is a
    file path, stderr the text).

    Wall time from spawn to exit; CPU time (user + sys) from ``os.wait4``. Peak RSS comes from
    GNU time wrapped around the command when there is one: a process forked from this script
    inherits this script's own peak RSS as a floor of its ``ru_maxrss`` (Linux keeps the
    pre-exec high-water mark), while GNU time's child is forked from a 2 MB process. Without
    GNU time ``rss_kb`` is that floored ``ru_maxrss`` (``rss_floored`` True). The process
    gets its own session, so a timeout kills it with everything it started."""
    import signal
    import subprocess
    import tempfile
    import threading
    out = tempfile.NamedTemporaryFile(prefix="cli-throughput-", suffix=".out", delete=False,
                                      dir=workdir)
    err = tempfile.TemporaryFile(dir=workdir)
    timer_path = None
    wrapper = gnu_time()
    if wrapper:
        handle, timer_path = tempfile.mkstemp(prefix="cli-throughput-", suffix=".time",
                                              dir=workdir)
        os.close(handle)
        argv = [wrapper, "-f", "%M", "-o", timer_path, *argv]
    stdin_handle = open(stdin, "rb") if stdin else subprocess.DEVNULL
    preexec = (lambda: os.sched_setaffinity(0, {pin})) if pin is not None else None
    killed = []

    def kill(proc):
        killed.append(True)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=stdin_handle, stdout=out, stderr=err, env=env,
                                cwd=workdir, preexec_fn=preexec, start_new_session=True)
        timer = threading.Timer(timeout, kill, (proc,))
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdin_handle is not subprocess.DEVNULL:
            stdin_handle.close()
        out.close()
    err.seek(0)
    stderr = err.read().decode("utf-8", "replace")
    err.close()
    rss, floored = usage.ru_maxrss, True
    if timer_path:
        lines = _read(timer_path).split()
        os.unlink(timer_path)
        if lines and lines[-1].isdigit():
            rss, floored = int(lines[-1]), False
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_kb": rss,
            "rss_floored": floored, "rc": "timeout" if killed else proc.returncode,
            "stdout": out.name, "stderr": stderr}


def _tail(text, lines=3):
    return " | ".join(text.strip().splitlines()[-lines:])


# ------------------------------------------------------------------------------- checks
def _read(path):
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def check_counts(expected_total, value="1"):
    """Every output line ends with ``value`` (``puzzle count`` lines), ``expected_total`` of
    them."""
    def check(stdout, stderr):
        last = [line.rsplit(None, 1)[-1] for line in _read(stdout).splitlines() if line.strip()]
        good = sum(v == value for v in last)
        if len(last) == expected_total and good == expected_total:
            return True, f"all {expected_total:,} counts {value}"
        return False, f"{good:,} of {len(last):,} lines count {value} (expected {expected_total:,})"
    return check


def check_qqwing_unique(expected_total):
    def check(stdout, stderr):
        text = _read(stdout)
        good = text.count("The solution to the puzzle is unique.")
        if good == expected_total:
            return True, f"all {expected_total:,} unique"
        return False, f"{good:,} of {expected_total:,} reported unique"
    return check


def check_value(expected):
    def check(stdout, stderr):
        words = _read(stdout).split()
        if words and words[-1] == str(expected):
            return True, f"count {expected:,}"
        return False, f"output ends {words[-1:]!r}, expected {expected}"
    return check


def check_contains(text):
    def check(stdout, stderr):
        ok = text in _read(stdout)
        return ok, ("output as expected" if ok else f"{text!r} not in the output")
    return check


def check_generated(count, tdoku):
    """``count`` lines of 81 cells with at least 17 clues; with tdoku built, each re-counted
    (unique)."""
    def check(stdout, stderr):
        lines = [s.strip() for s in _read(stdout).splitlines() if s.strip()]
        shape_ok = len(lines) == count and all(
            len(s) == 81 and set(s) <= set(".0123456789") and sum(ch in "123456789" for ch in s)
            >= 17 for s in lines)
        if not shape_ok:
            return False, f"{len(lines)} lines, expected {count} puzzles of 81 cells"
        if tdoku is None:
            return True, f"{count} puzzles (uniqueness not re-checked: no tdoku)"
        done = run_process([tdoku, stdout], timeout=120)
        os.unlink(done["stdout"])
        if "with 1, 0 with 2+" in done["stderr"] and f": {count} puzzles: 0 with 0" in \
                done["stderr"]:
            return True, f"{count} puzzles, all unique (tdoku)"
        return False, f"tdoku re-count: {_tail(done['stderr'], 1)}"
    return check


def check_grid_solution(puzzle_path, n):
    """The output is an n x n grid of integers (or one line of n*n symbols) solving the
    puzzle in ``puzzle_path``."""
    def check(stdout, stderr):
        import numpy as np
        text = _read(stdout)
        if n <= 35 and len(text.split()) == 1:
            symbols = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
            values = [symbols.index(ch) + 1 for ch in text.strip()]
        else:
            values = [int(tok) for tok in text.replace("|", " ").split() if tok.isdigit()]
        if len(values) != n * n:
            return False, f"{len(values)} values in the output, expected {n * n}"
        grid = np.array(values).reshape(n, n)
        givens = _puzzle_values(puzzle_path, n)
        box = int(round(n ** 0.5))
        full = set(range(1, n + 1))
        units = ([set(grid[i]) for i in range(n)] + [set(grid[:, i]) for i in range(n)]
                 + [set(grid[r:r + box, c:c + box].ravel()) for r in range(0, n, box)
                    for c in range(0, n, box)])
        if any(u != full for u in units):
            return False, "a row, column or box is not all different"
        if ((givens > 0) & (givens != grid)).any():
            return False, "a given was changed"
        return True, f"valid {n}x{n} solution"
    return check


def _puzzle_values(path, n):
    import numpy as np
    text = _read(path)
    if n <= 35:
        lines = [s.strip() for s in text.splitlines() if s.strip() and not s.startswith("#")]
        return np.array([0 if ch in ".0-" else int(ch) for ch in lines[0]]).reshape(n, n)
    return np.array([int(tok) for tok in text.split()]).reshape(n, n)


def compiling_lines(stderr):
    """The stderr lines that say something is being compiled."""
    return [s for s in stderr.splitlines() if COMPILING in s.lower()]


# ------------------------------------------------------------------------------ data
def write_inputs(workdir, source, quick):
    """Every input file of the run in ``workdir``; returns their paths and sizes."""
    import numpy as np
    with open(source, encoding="ascii", errors="replace") as handle:
        puzzles = [s for s in (raw.strip() for raw in handle) if s and not s.startswith("#")]
    paths = {"all_count": len(puzzles)}

    def slice_file(name, count):
        path = os.path.join(workdir, name)
        with open(path, "w") as handle:
            handle.write("\n".join(puzzles[:count]) + "\n")
        return path

    big = 5000 if quick else len(puzzles)
    paths["big"] = source if not quick else slice_file("p17_5000.txt", big)
    paths["big_count"] = big
    # QQwing reads every digit and '.' of its input, comments included: a clean copy
    paths["big_clean"] = slice_file("p17_clean.txt", big)
    small = 1000 if quick else 5000
    paths["small"] = slice_file(f"p17_{small}.txt", small)
    paths["small_count"] = small
    paths["warm"] = slice_file("p17_20.txt", 20)
    paths["puzzle17"] = os.path.join(ROOT, "sudokit", "instances", "examples", "puzzle17.txt")
    paths["empty5"] = os.path.join(ROOT, "sudokit", "instances", "examples", "empty5.txt")
    paths["empty64"] = os.path.join(workdir, "empty64.txt")
    with open(paths["empty64"], "w") as handle:
        handle.write("\n".join(" ".join(["0"] * 64) for _ in range(64)) + "\n")
    paths["sparse64"] = os.path.join(workdir, "sparse64.txt")
    with open(paths["sparse64"], "w") as handle:
        grid = _sparse_grid(64, 8, 0.01, np.random.default_rng(12))
        handle.write("\n".join(" ".join(f"{v:2d}" for v in row) for row in grid) + "\n")
    return paths


def _sparse_grid(n, b, share, rng):
    """A random valid n x n grid (the band pattern, shuffled by value, rows within bands,
    bands, columns within stacks and stacks) keeping ``share`` of its cells as givens."""
    import numpy as np
    r, c = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    grid = (b * (r % b) + r // b + c) % n
    rows = np.concatenate([band * b + rng.permutation(b) for band in rng.permutation(b)])
    cols = np.concatenate([stack * b + rng.permutation(b) for stack in rng.permutation(b)])
    grid = rng.permutation(n)[grid][rows][:, cols] + 1
    keep = np.zeros(n * n, bool)
    keep[rng.choice(n * n, int(round(share * n * n)), replace=False)] = True
    return np.where(keep.reshape(n, n), grid, 0)


# ------------------------------------------------------------------------------ rows
def build_rows(ctx):
    """Every row of the benchmark (see the module docstring)."""
    p, sk, repeat = ctx["paths"], ctx["sudokit"], ctx["repeat"]
    peers_py, bins = ctx["peers_python"], ctx["bins"]
    big, big_n = p["big"], p["big_count"]
    quick = ctx["quick"]

    def sudokit_inproc(task, file, warmup, **kw):
        argv = [ctx["sudokit_python"], SELF, "--driver", "sudokit", task, "--repeat",
                str(repeat)]
        if file:
            argv += ["--file", file]
        if warmup:
            argv += ["--warmup", warmup]
        for key, value in kw.items():
            if value is True:
                argv.append("--" + key.replace("_", "-"))
            elif value is not None:
                argv += ["--" + key.replace("_", "-"), str(value)]
        return argv

    def py_peer(name, driver, arg, warm_arg, check):
        missing = ctx["peers_missing"].get(name)
        return Entry(name, [peers_py, SELF, "--driver", driver, arg], check=check,
                     warmup=[peers_py, SELF, "--driver", driver, warm_arg], inproc="self",
                     missing=missing, kind="peer",
                     shown=f"{_short(peers_py)} benchmarks/cli_throughput.py --driver {driver} "
                           f"{_short(arg)}")

    def native(name, binary, argv, **kw):
        return Entry(name, [bins[binary]] + argv if bins.get(binary) else [binary] + argv,
                     missing=None if bins.get(binary) else SETUP_HINT, kind="peer", **kw)

    def tdoku_inproc(file, count):
        if not bins.get("tdoku_run_benchmark"):
            return None
        return [bins["tdoku_run_benchmark"], "-s", "tdoku", "-n", str(count), "-r0", "-w1",
                "-t1", file]

    def uniqueness_peers(file, clean, count, warm):
        tdoku = native("tdoku", "tdoku_count", [file], warmup=[bins.get("tdoku_count", ""), warm],
                       check=check_counts(count), inproc=tdoku_inproc(file, count))
        qq_count = native("QQwing (count only)", "qqwing",
                          ["--solve", "--nosolution", "--count-solutions", "--one-line"],
                          stdin=clean, check=check_qqwing_unique(count))
        qq_both = native("QQwing (count + solution)", "qqwing",
                         ["--solve", "--count-solutions", "--one-line"], stdin=clean,
                         check=check_qqwing_unique(count))
        return [tdoku, qq_count, qq_both,
                py_peer("xcover", "xcover-unique", file, warm, check_counts(count)),
                py_peer("exact-cover", "exact-cover-unique", file, warm, check_counts(count))]

    rows = []
    label_n = f"{big_n:,}"
    rows.append(Row("u17-default", "u17", f"17-clue uniqueness, {label_n} puzzles, default solver",
                    [Entry("sudokit", [sk, "count", "--limit", "2", big],
                           warmup=[sk, "count", "--limit", "2", p["small"]],
                           check=check_counts(big_n),
                           inproc=sudokit_inproc("count", big, p["warm"], limit=2))]
                    + uniqueness_peers(big, p["big_clean"], big_n, p["warm"]), size=big_n))
    rows.append(Row("u17-dlx", "u17", f"17-clue uniqueness, {label_n} puzzles, --solver dlx",
                    [Entry("sudokit", [sk, "count", "--limit", "2", "--solver", "dlx", big],
                           warmup=[sk, "count", "--limit", "2", "--solver", "dlx", big],
                           check=check_counts(big_n),
                           inproc=sudokit_inproc("count", big, p["warm"], limit=2,
                                                 solver="dlx"))], size=big_n))
    rows.append(Row("u17-cadical", "u17",
                    f"17-clue uniqueness, {label_n} puzzles, --solver cadical195",
                    [Entry("sudokit", [sk, "count", "--limit", "2", "--solver", "cadical195", big],
                           warmup=[sk, "count", "--limit", "2", "--solver", "cadical195",
                                   p["small"]],
                           check=check_counts(big_n),
                           inproc=sudokit_inproc("count", big, p["warm"], limit=2,
                                                 solver="cadical195"))], size=big_n))
    small, small_n = p["small"], p["small_count"]
    rows.append(Row("u5k-dlx", "u17", f"17-clue uniqueness, first {small_n:,}, --solver dlx",
                    [Entry("sudokit", [sk, "count", "--limit", "2", "--solver", "dlx", small],
                           warmup=[sk, "count", "--limit", "2", "--solver", "dlx", small],
                           check=check_counts(small_n),
                           inproc=sudokit_inproc("count", small, p["warm"], limit=2,
                                                 solver="dlx")),
                     native("tdoku", "tdoku_count", [small], check=check_counts(small_n),
                            warmup=[bins.get("tdoku_count", ""), p["warm"]],
                            inproc=tdoku_inproc(small, small_n))], size=small_n))
    rows.append(Row("latin5", "latin5", "Latin squares of order 5, count all (161,280)",
                    [Entry("sudokit", [sk, "count", "--solver", "dlx", "--problem", "latin",
                                       p["empty5"]],
                           warmup=[sk, "count", "--solver", "dlx", "--problem", "latin",
                                   p["empty5"]],
                           check=check_value(LATIN5_COUNT),
                           inproc=sudokit_inproc("count", p["empty5"], p["empty5"],
                                                 solver="dlx", problem="latin",
                                                 count_calls=True)),
                     py_peer("exact-cover", "exact-cover-latin", "5", "3",
                             check_value(LATIN5_COUNT)),
                     py_peer("xcover", "xcover-latin", "5", "3", check_value(LATIN5_COUNT))],
                    size=LATIN5_COUNT, unit="squares"))
    gen_n = 200 if quick else 2000
    tdoku_bin = bins.get("tdoku_count")
    rows.append(Row("gen-minimal", "gen", f"generate {gen_n:,} minimal 9x9 puzzles",
                    [Entry("sudokit", [sk, "generate", "sudoku", "--size", "9", "--minimal",
                                       "--count", str(gen_n), "--seed", "1"],
                           warmup=[sk, "generate", "sudoku", "--size", "9", "--minimal",
                                   "--count", str(gen_n), "--seed", "1"],
                           check=check_generated(gen_n, tdoku_bin),
                           inproc=sudokit_inproc("generate", None, None, count=gen_n, seed=1)),
                     native("QQwing", "qqwing", ["--generate", str(gen_n), "--difficulty", "any",
                                                 "--one-line"],
                            check=check_generated(gen_n, tdoku_bin))], size=gen_n))
    for key, name in (("solve64-empty", "empty64"), ("solve64-sparse", "sparse64")):
        what = "empty" if name == "empty64" else "sparse (41 givens, 1 %)"
        rows.append(Row(key, "solve64", f"solve a 64x64 grid, {what}, default settings",
                        [Entry("sudokit", [sk, "solve", p[name]],
                               warmup=[sk, "solve", p[name]],
                               check=check_grid_solution(p[name], 64),
                               inproc=sudokit_inproc("solve", p[name], p["puzzle17"]))],
                        size=1, unit="grids"))
    rows.append(Row("version", "startup", "sudokit --version",
                    [Entry("sudokit", [sk, "--version"], warmup=[sk, "--version"],
                           check=check_contains("version"))], unit=None))
    rows.append(Row("help", "startup", "sudokit --help",
                    [Entry("sudokit", [sk, "--help"], warmup=[sk, "--help"],
                           check=check_contains("Usage"))], unit=None))
    py = ctx["sudokit_python"]
    rows.append(Row("python", "startup", "reference: python -c pass",
                    [Entry("python", [py, "-c", "pass"], warmup=[py, "-c", "pass"],
                           kind="reference")], unit=None))
    rows.append(Row("import", "startup", "reference: python -c 'import sudokit'",
                    [Entry("python", [py, "-c", "import sudokit"],
                           warmup=[py, "-c", "import sudokit"], kind="reference")], unit=None))
    one = p["puzzle17"]
    for key, label, argv, inproc in (
            ("one-sat-solve", "one puzzle: solve --solver cadical195",
             ["solve", "--solver", "cadical195", one],
             sudokit_inproc("solve", one, one, solver="cadical195")),
            ("one-sat-count", "one puzzle: count --limit 2 --solver cadical195",
             ["count", "--limit", "2", "--solver", "cadical195", one],
             sudokit_inproc("count", one, one, limit=2, solver="cadical195")),
            ("one-default-solve", "one puzzle: solve (default: takano, numba)", ["solve", one],
             sudokit_inproc("solve", one, one)),
            ("one-default-count", "one puzzle: count --limit 2 (default: takano, numba)",
             ["count", "--limit", "2", one], sudokit_inproc("count", one, one, limit=2)),
            ("one-dlx-solve", "one puzzle: solve --solver dlx", ["solve", "--solver", "dlx", one],
             sudokit_inproc("solve", one, one, solver="dlx")),
            ("one-dlx-count", "one puzzle: count --limit 2 --solver dlx",
             ["count", "--limit", "2", "--solver", "dlx", one],
             sudokit_inproc("count", one, one, limit=2, solver="dlx"))):
        check = check_counts(1) if "count" in key else check_grid_solution(one, 9)
        rows.append(Row(key, "one", label, [Entry("sudokit", [sk] + argv, warmup=[sk] + argv,
                                                  check=check, inproc=inproc)], size=1))
    rows.append(Row("cold", "cold", "one puzzle, count --solver dlx, cold numba cache",
                    [Entry("sudokit", [sk, "count", "--limit", "2", "--solver", "dlx", one],
                           check=check_counts(1), cold=True)], size=1))
    return rows


def _short(path):
    """A path relative to the checkout when inside it."""
    path = str(path)
    return os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path


# ------------------------------------------------------------------------------ running
def run_row(row, ctx):
    from _data import log
    runnable = [e for e in row.entries if not e.missing]
    for entry in runnable:
        if entry.warmup:
            log(f"{row.key}: {entry.name}: warm-up (untimed)")
            done = run_process(entry.warmup, env=_environment(), timeout=ctx["timeout"],
                               pin=ctx["pin"], workdir=ctx["workdir"])
            os.unlink(done["stdout"])
            if done["rc"] != 0:
                entry.notes.append(f"warm-up exit {done['rc']}: {_tail(done['stderr'], 1)}")
    for r in range(ctx["repeat"]):
        for entry in runnable:
            import tempfile
            cold = tempfile.mkdtemp(prefix="numba-cold-", dir=ctx["workdir"]) \
                if entry.cold else None
            done = run_process(entry.argv, stdin=entry.stdin, env=_environment(cold),
                               timeout=ctx["timeout"], pin=ctx["pin"], workdir=ctx["workdir"])
            if cold:
                import shutil
                shutil.rmtree(cold, ignore_errors=True)
            ok, note = (True, "")
            if done["rc"] != 0:
                ok, note = False, f"exit {done['rc']}: {_tail(done['stderr'])}"
            elif entry.check is not None:
                ok, note = entry.check(done["stdout"], done["stderr"])
            os.unlink(done["stdout"])
            if entry.inproc == "self":
                for line in done["stderr"].splitlines():
                    if line.startswith("INPROCESS "):
                        entry.inproc_runs.append(json.loads(line.split(" ", 1)[1]))
            entry.whole.append({"wall": done["wall"], "cpu": done["cpu"],
                                "rss_kb": done["rss_kb"], "rss_floored": done["rss_floored"],
                                "rc": done["rc"], "ok": ok,
                                "note": note, "compiling": compiling_lines(done["stderr"])})
            log(f"{row.key}: {entry.name}: run {r + 1}/{ctx['repeat']}: {done['wall']:.3f} s "
                f"wall, {done['cpu']:.3f} s cpu, {done['rss_kb'] / 1024:.0f} MB"
                + ("" if ok else f"  FAILED: {note}"))
    for entry in runnable:
        if isinstance(entry.inproc, list):
            run_inprocess(row, entry, ctx)


def run_inprocess(row, entry, ctx):
    from _data import log
    shown = " ".join(_short(a) for a in entry.inproc[:6])
    log(f"{row.key}: {entry.name}: in-process ({shown} ...)")
    if entry.kind == "peer":          # tdoku's run_benchmark: one rate per run
        for _ in range(ctx["repeat"]):
            done = run_process(entry.inproc, env=_environment(), timeout=ctx["timeout"],
                               pin=ctx["pin"], workdir=ctx["workdir"])
            text = _read(done["stdout"])
            os.unlink(done["stdout"])
            rate = None
            for line in text.splitlines():
                if line.startswith("|tdoku"):
                    rate = float(line.split("|")[2].replace(",", "").replace("'", ""))
            if done["rc"] != 0 or not rate:
                entry.inproc_note = f"run_benchmark exit {done['rc']}: {_tail(text, 1)}"
                return
            entry.inproc_runs.append({"wall": row.size / rate, "cpu": row.size / rate})
        entry.inproc_note = "tdoku run_benchmark rate"
        return
    done = run_process(entry.inproc, env=_environment(), timeout=ctx["timeout"] * ctx["repeat"],
                       pin=ctx["pin"], workdir=ctx["workdir"])
    text = _read(done["stdout"])
    os.unlink(done["stdout"])
    if done["rc"] != 0:
        entry.inproc_note = f"in-process driver exit {done['rc']}: {_tail(done['stderr'])}"
        log(f"{row.key}: {entry.name}: {entry.inproc_note}")
        return
    report = json.loads(text.strip().splitlines()[-1])
    entry.inproc_runs = report["runs"]
    entry.extra.update(report["summary"])
    entry.extra["inproc_rss_kb"] = report["maxrss_kb"]
    entry.extra["import"] = report["import"]
    log(f"{row.key}: {entry.name}: in-process runs "
        + ", ".join(f"{r['wall']:.3f}" for r in report["runs"]) + f" s; {report['summary']}")


# ------------------------------------------------------------------------------ report
def stats(values):
    import statistics
    return (min(values), statistics.median(values)) if values else (None, None)


def whole_stats(entry, key="wall"):
    good = [r[key] for r in entry.whole]
    return stats(good)


def fmt_s(value):
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 100 else f"{value:.1f}"


def fmt_rate(row, seconds):
    if not row.unit or not row.size or not seconds:
        return "-"
    rate = row.size / seconds
    return f"{rate:,.0f}/s" if rate >= 10 else f"{rate:.2f}/s"


def table_rows(rows):
    out = []
    for row in rows:
        out.append([f"[{row.key}] {row.label}"] + [""] * 12)
        for entry in row.entries:
            if entry.missing:
                out.append(["  " + entry.name, "-"] + ["-"] * 10 + [entry.missing])
                continue
            if not entry.whole:
                out.append(["  " + entry.name, "0", "not run"] + ["-"] * 10)
                continue
            wmin, wmed = whole_stats(entry)
            cmin, _ = whole_stats(entry, "cpu")
            rss = max(r["rss_kb"] for r in entry.whole) / 1024
            imin, imed = stats([r["wall"] for r in entry.inproc_runs])
            ratio = f"{wmin / imin:.2f}" if imin else "-"
            icpu = stats([r["cpu"] for r in entry.inproc_runs])[0]
            ratio_cpu = f"{cmin / icpu:.2f}" if icpu and entry.kind == "sudokit" else "-"
            bad = [r for r in entry.whole if not r["ok"]]
            verified = "yes" if not bad and entry.check else ("-" if not bad else
                                                               f"NO ({len(bad)})")
            if bad and any(r["rc"] != 0 for r in bad):
                rcs = sorted({str(r["rc"]) for r in bad if r["rc"] != 0})
                verified = f"exit {','.join(rcs)}"
            out.append(["  " + entry.name, str(len(entry.whole)), fmt_s(wmin), fmt_s(wmed),
                        fmt_s(cmin), f"{rss:,.0f}",
                        fmt_s(imin) if imin else (entry.inproc_note[:20] or "-"),
                        fmt_s(imed) if imin else "-", ratio, ratio_cpu,
                        fmt_rate(row, wmin) if len(bad) < len(entry.whole) else "-",
                        fmt_rate(row, imin) if imin else "-", verified])
    return out


def evaluate_goals(rows_by_key):
    """``(verdict, text)`` per goal: verdict True/False, or None when it cannot be judged."""
    goals = []

    def get(key, name="sudokit"):
        row = rows_by_key.get(key)
        entry = row.entry(name) if row else None
        if entry is None or entry.missing or not entry.whole:
            return None
        if not all(r["ok"] for r in entry.whole):
            return "failed"
        return entry

    def t(entry, key="wall"):
        return whole_stats(entry, key)[0]

    def add(ok_wall, ok_cpu, text):
        if ok_wall is None:
            goals.append((None, text))
            return
        if ok_cpu is not None and ok_cpu != ok_wall:
            text += f" (by CPU time: {'met' if ok_cpu else 'missed'})"
        goals.append((ok_wall, text))

    def compare(key, name, peer, factor, text, peer_faster_by=None):
        """sudokit <= factor * peer (factor >= 1: at most factor times slower), or with
        ``peer_faster_by``: sudokit * peer_faster_by <= peer."""
        ours, theirs = get(key, name), get(key, peer)
        if ours is None or theirs is None or "failed" in (ours, theirs):
            add(None, None, f"{text}: not judged ({peer}: "
                            f"{'failed' if theirs == 'failed' or ours == 'failed' else 'not run'})")
            return
        verdicts = []
        for k in ("wall", "cpu"):
            a, b = t(ours, k), t(theirs, k)
            verdicts.append(a * peer_faster_by <= b if peer_faster_by else a <= factor * b)
        a, b = t(ours), t(theirs)
        add(verdicts[0], verdicts[1], f"{text}: sudokit {a:.3f} s, {peer} {b:.3f} s "
                                      f"({b / a:.2f}x)" if a <= b else
            f"{text}: sudokit {a:.3f} s, {peer} {b:.3f} s ({a / b:.2f}x slower)")

    row = rows_by_key.get("u17-default")
    if row:
        n = row.size
        compare("u17-default", "sudokit", "tdoku", 4,
                f"{n:,} uniqueness, default back end, at most 4x tdoku's time")
        for peer in ("xcover", "QQwing (count only)", "QQwing (count + solution)"):
            compare("u17-default", "sudokit", peer, None,
                    f"{n:,} uniqueness, default back end, >= 5x faster than {peer}",
                    peer_faster_by=5)
    for key, goal in (("u17-dlx", 10_000), ("u17-cadical", 3_000)):
        entry = get(key)
        row = rows_by_key.get(key)
        if entry is None or entry == "failed":
            if row:
                add(None, None, f"{row.label}: >= {goal:,} puzzles/s: not judged ({entry})")
            continue
        rate_w, rate_c = row.size / t(entry), row.size / t(entry, "cpu")
        add(rate_w >= goal, rate_c >= goal, f"{row.label}: {rate_w:,.0f} puzzles/s whole "
                                            f"process (goal >= {goal:,})")
    for key in ("u17-default", "u17-dlx", "u17-cadical"):
        entry = get(key)
        if entry is None or entry == "failed":
            continue
        imin = stats([r["wall"] for r in entry.inproc_runs])[0]
        icpu = stats([r["cpu"] for r in entry.inproc_runs])[0]
        if not imin:
            add(None, None, f"{rows_by_key[key].label}: whole/in-process < 1.3: no in-process "
                            f"time ({entry.inproc_note})")
            continue
        ratio = t(entry) / imin
        add(ratio < 1.3, t(entry, "cpu") / icpu < 1.3 if icpu else None,
            f"{rows_by_key[key].label}: whole/in-process {ratio:.2f} (goal < 1.3)")
    if "latin5" in rows_by_key:
        compare("latin5", "sudokit", "exact-cover", 1,
                "Latin 5 count --solver dlx: whole process no slower than exact-cover's")
        entry = get("latin5")
        if entry not in (None, "failed"):
            calls = entry.extra.get("python_calls")
            add(None if calls is None else calls < LATIN5_COUNT, None,
                f"Latin 5: no Python per solution: {calls:,} Python calls during the in-process "
                f"count of {LATIN5_COUNT:,} squares" if calls is not None else
                "Latin 5: Python calls not counted (no in-process run)")
    row = rows_by_key.get("gen-minimal")
    entry = get("gen-minimal")
    if row and entry not in (None, "failed"):
        rate_w, rate_c = row.size / t(entry), row.size / t(entry, "cpu")
        add(rate_w >= 500, rate_c >= 500,
            f"generate --minimal: {rate_w:,.0f} puzzles/s whole process (goal >= 500)")
        qq = get("gen-minimal", "QQwing")
        if qq not in (None, "failed"):
            q_w, q_c = row.size / t(qq), row.size / t(qq, "cpu")
            add(rate_w >= 2 * q_w, rate_c >= 2 * q_c,
                f"generate --minimal: {rate_w / q_w:.2f}x QQwing's {q_w:,.0f}/s (goal >= 2x)")
        else:
            add(None, None, f"generate --minimal vs QQwing: not judged ({qq})")
    for key in ("solve64-empty", "solve64-sparse"):
        entry = get(key)
        if key not in rows_by_key:
            continue
        if entry in (None, "failed"):
            add(False if entry == "failed" else None, None,
                f"{rows_by_key[key].label}: under 10 s and 1 GB: {entry or 'not run'}")
            continue
        rss = max(r["rss_kb"] for r in entry.whole) / 1024
        add(t(entry) < 10 and rss < 1024, t(entry, "cpu") < 10 and rss < 1024,
            f"{rows_by_key[key].label}: {t(entry):.1f} s, peak {rss:,.0f} MB "
            "(goal < 10 s and < 1,024 MB)")
    for key, limit in (("version", 0.15), ("help", 0.15), ("one-sat-solve", 0.4),
                       ("one-sat-count", 0.4), ("one-default-solve", 0.8),
                       ("one-default-count", 0.8), ("one-dlx-solve", 0.8),
                       ("one-dlx-count", 0.8)):
        entry = get(key)
        if key not in rows_by_key:
            continue
        if entry in (None, "failed"):
            add(False if entry == "failed" else None, None,
                f"{rows_by_key[key].label}: {entry or 'not run'}")
            continue
        add(t(entry) < limit, t(entry, "cpu") < limit,
            f"{rows_by_key[key].label}: {t(entry):.3f} s (goal < {limit} s)")
    if "cold" in rows_by_key:
        entry = rows_by_key["cold"].entry("sudokit")
        if entry.whole:
            said = [len(r["compiling"]) for r in entry.whole]
            first = next((r["compiling"][0] for r in entry.whole if r["compiling"]), None)
            add(all(n == 1 for n in said), None,
                "cold numba cache: says exactly once on stderr that it is compiling: "
                + ", ".join(f"{n} line(s)" for n in said) + " in the runs"
                + (f" ({first.strip()[:80]!r})" if first else "")
                + f"; {t(entry):.2f} s")
    warm = [(row, r) for row in rows_by_key.values() if row.key != "cold"
            for e in row.entries if e.kind == "sudokit" for r in e.whole if r["rc"] == 0]
    if warm:
        noisy = sorted({row.key for row, r in warm if r["compiling"]})
        add(not noisy, None, f"warm cache: no compiling notice in {len(warm)} sudokit runs"
            if not noisy else f"warm cache: compiling notices in rows {', '.join(noisy)}")
    return goals


def git_state():
    """``HEAD (short hash and subject)`` and the number of uncommitted paths (read only)."""
    import subprocess
    try:
        head = subprocess.run(["git", "-C", ROOT, "log", "-1", "--format=%h %s"],
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain"],
                               capture_output=True, text=True).stdout.splitlines()
    except OSError:
        return "unknown (no git)"
    return f"{head[:70]}; " + (f"{len(dirty)} uncommitted path(s)" if dirty else "clean")


def header(ctx, rows):
    import platform
    info = ctx["info"]
    lines = ["sudokit command line vs in-process calls vs peers (whole processes; "
             f"min and median of {ctx['repeat']} runs)"]
    lines.append(f"sudokit {info.get('sudokit', '?')} ({_short(ctx['sudokit'])}), python "
                 f"{info.get('python', '?')}, numpy {info.get('numpy', '?')}, numba "
                 f"{info.get('numba', '?')}, pysat {info.get('python-sat', '?')}, click "
                 f"{info.get('click', '?')}")
    start, end = ctx["git_start"], git_state()
    if start == end:
        lines.append(f"checkout {start}")
    else:
        lines.append(f"checkout at the start: {start}")
        lines.append(f"checkout at the end:   {end}")
    lines.append(f"run from {ctx['started']} to {time.strftime('%H:%M:%S')} "
                 f"({time.strftime('%Z')})")
    pv = ctx["peer_versions"]
    nv = ctx["native_versions"]
    native = (f"tdoku {nv.get('tdoku_commit', '?')[:12]}, QQwing {nv.get('qqwing_version', '?')} "
              f"({nv.get('qqwing_commit', '?')[:12]}), {nv.get('compiler', '?')}" if nv
              else f"tdoku, QQwing {SETUP_HINT}")
    python_peers = (f"exact-cover {pv.get('exact-cover')}, xcover {pv.get('xcover')} (numba "
                    f"{pv.get('numba')})" if pv else f"exact-cover, xcover {SETUP_HINT}")
    lines.append(f"peers: {native}; {python_peers}")
    lines.append(f"{os.cpu_count()} CPUs, {platform.machine()}; load average "
                 f"{', '.join(f'{x:.2f}' for x in ctx['load_start'])} at the start, "
                 f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} at the end"
                 + (f"; every process pinned to CPU {ctx['pin']}" if ctx["pin"] is not None
                    else ""))
    return "\n".join(lines)


def dump_json(path, ctx, rows):
    """Every measurement, for later analysis."""
    data = {"started": ctx["started"], "git_start": ctx["git_start"], "git_end": git_state(),
            "load_start": ctx["load_start"], "load_end": os.getloadavg(), "info": ctx["info"],
            "peers": {**ctx["peer_versions"], **ctx["native_versions"]},
            "repeat": ctx["repeat"], "rows": []}
    for row in rows:
        data["rows"].append({"key": row.key, "label": row.label, "size": row.size,
                             "entries": [{"name": e.name, "argv": e.argv, "missing": e.missing,
                                          "whole": e.whole, "inprocess": e.inproc_runs,
                                          "inprocess_note": e.inproc_note, "extra": e.extra}
                                         for e in row.entries]})
    with open(path, "w") as handle:
        json.dump(data, handle, indent=1)


def report(ctx, rows):
    from _data import format_table
    print(header(ctx, rows))
    print()
    heads = ["row / program", "runs", "whole s min", "whole s med", "cpu s min", "peak MB",
             "in-proc s min", "in-proc s med", "whole/in", "cpu whole/in", "rate whole",
             "rate in-proc",
             "verified"]
    print(format_table(heads, table_rows(rows), right=set(range(1, 12))))
    print()
    floored = any(r.get("rss_floored") for row in rows for e in row.entries for r in e.whole)
    print("whole: wall time of the whole process (spawn to exit); cpu: its user + sys time; "
          "peak MB: max RSS over the runs"
          + (" (no GNU time: ru_maxrss, at least this script's own RSS)." if floored
             else " (GNU time's %M)."))
    print("in-proc: sudokit's library call in a warmed-up process (file reading included); "
          "xcover/exact-cover: their own work\nafter imports and a warm-up puzzle; tdoku: "
          "its run_benchmark rate (same puzzles, limit 2). whole/in = min over min (wall time);\n"
          "cpu whole/in: the same with CPU times (less sensitive to a loaded machine).")
    for row in rows:
        for entry in row.entries:
            extra = {k: v for k, v in entry.extra.items() if k in ("counts", "valid", "unique",
                                                                  "minimal", "python_calls")}
            if extra:
                print(f"  [{row.key}] {entry.name} in-process results: {extra}")
            notes = sorted({r["note"] for r in entry.whole if not r["ok"]}) + entry.notes
            if entry.inproc_note and not entry.inproc_runs:
                notes.append(entry.inproc_note)
            for note in notes:
                print(f"  [{row.key}] {entry.name}: {note}")
    print()
    goals = evaluate_goals({r.key: r for r in rows})
    for verdict, text in goals:
        word = {True: "goal met", False: "goal MISSED", None: "goal not judged"}[verdict]
        print(f"{word}: {text}")
    print()
    print("commands (whole processes; FILE inputs prepared in a temporary folder):")
    for row in rows:
        for entry in row.entries:
            shown = entry.shown or " ".join(_short(a) for a in entry.argv)
            if entry.stdin:
                shown += f" < {_short(entry.stdin)}"
            if entry.cold:
                shown = "NUMBA_CACHE_DIR=<new empty folder> " + shown
            print(f"  [{row.key}] {entry.name}: {shown}")
            if isinstance(entry.inproc, list) and entry.kind == "peer":
                print(f"  [{row.key}] {entry.name} in-process: "
                      + " ".join(_short(a) for a in entry.inproc))
    return 0 if all(v is not False for v, _ in goals) else 1


# -------------------------------------------------------------------------- baseline
BASELINE = " (baseline)"

#: how much slower than the baseline a row may be (median wall or CPU time)
BASELINE_TOLERANCE = 0.05


def add_baseline(rows, sudokit_bin, baseline_bin):
    """Each whole-process sudokit entry gets a twin run by ``baseline_bin`` (same input,
    same check), placed right after it so that the runs interleave."""
    def swap(argv):
        return None if argv is None else [baseline_bin if a == sudokit_bin else a for a in argv]

    for row in rows:
        twins = []
        for entry in row.entries:
            twins.append(entry)
            if entry.kind == "sudokit" and sudokit_bin in entry.argv:
                twins.append(Entry(entry.name + BASELINE, swap(entry.argv), stdin=entry.stdin,
                                   warmup=swap(entry.warmup), check=entry.check,
                                   cold=entry.cold, shown=" ".join(
                                       _short(a) for a in swap(entry.argv))))
        row.entries = twins


def report_baseline(rows):
    """The sudokit entries against their baseline twins: median wall and CPU time, and the
    verdict (within :data:`BASELINE_TOLERANCE` on wall or CPU time)."""
    from _data import format_table
    table, slower = [], []
    for row in rows:
        for entry in row.entries:
            twin = row.entry(entry.name + BASELINE)
            if twin is None or not entry.whole or not twin.whole:
                continue
            now = [stats([r[k] for r in entry.whole])[1] for k in ("wall", "cpu")]
            then = [stats([r[k] for r in twin.whole])[1] for k in ("wall", "cpu")]
            ratios = [a / b if b else float("nan") for a, b in zip(now, then, strict=True)]
            within = min(ratios) <= 1 + BASELINE_TOLERANCE
            if not within:
                slower.append(row.key)
            table.append([row.key, entry.name, f"{then[0]:.3f}", f"{now[0]:.3f}",
                          f"{ratios[0]:.3f}", f"{then[1]:.3f}", f"{now[1]:.3f}",
                          f"{ratios[1]:.3f}", "yes" if within else "NO"])
    print()
    print("against the baseline (median whole-process times, same run, interleaved):")
    print(format_table(["row", "program", "base wall", "wall", "ratio", "base cpu", "cpu",
                        "ratio", f"within {BASELINE_TOLERANCE:.0%}"], table,
                       right=set(range(2, 8))))
    if slower:
        print(f"slower than the baseline by more than {BASELINE_TOLERANCE:.0%} (wall and "
              f"CPU): {', '.join(slower)}")
    return 1 if slower else 0


# ------------------------------------------------------------------------------ main
def _entry_point(path):
    """The interpreter of a console script (its shebang), else sys.executable."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline().decode("utf-8", "replace").strip()
        if first.startswith("#!"):
            interpreter = first[2:].split()[0]
            if os.path.exists(interpreter):
                return interpreter
    except OSError:
        pass
    return sys.executable


def _native_versions(peers_dir):
    versions = {}
    try:
        with open(os.path.join(peers_dir, "VERSIONS")) as handle:
            for line in handle:
                key, _, value = line.rstrip("\n").partition("=")
                versions[key] = value
    except OSError:
        pass
    return versions


def main(argv=None) -> int:
    import argparse
    import shutil
    import subprocess
    import tempfile
    sys.path.insert(0, HERE)
    from _data import SUDOKU17, log

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--sudokit", default=os.path.join(ROOT, ".venv", "bin", "sudokit"),
                        help="the sudokit entry point to run (default: %(default)s); its "
                             "venv's interpreter runs the in-process calls")
    parser.add_argument("--baseline", metavar="SUDOKIT",
                        help="another sudokit entry point (a checkout of an earlier version): "
                             "every sudokit command runs with it too, interleaved, and a last "
                             "table compares the two row by row (median wall and CPU time)")
    parser.add_argument("--peers-python",
                        default=os.path.join(HERE, ".venv-peers", "bin", "python"),
                        help="interpreter with xcover and exact-cover (default: %(default)s)")
    parser.add_argument("--peers-dir",
                        default=os.environ.get("PEERS_DIR",
                                               os.path.join(os.path.dirname(ROOT), "peers")),
                        help="where peers_setup.sh built tdoku and QQwing (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=None,
                        help="runs per program and row (default 3; 1 with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help="1 run, the first 5,000 17-clue puzzles instead of all, a 1,000 "
                             "slice instead of 5,000, 200 generated puzzles instead of 2,000")
    parser.add_argument("--only", help="comma-separated rows or groups (see --list)")
    parser.add_argument("--list", action="store_true", help="list the rows and exit")
    parser.add_argument("--data", default=str(SUDOKU17),
                        help="the 17-clue file (default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=1800.0,
                        help="seconds before a process is killed (default: %(default)s)")
    parser.add_argument("--json", metavar="OUT",
                        help="also write every measurement (each run of each program) to OUT")
    parser.add_argument("--pin", type=int, default=None, metavar="CPU",
                        help="pin every measured process to this CPU (default: no pinning)")
    args = parser.parse_args(argv)
    args.repeat = args.repeat or (1 if args.quick else 3)

    sudokit_bin = os.path.abspath(args.sudokit) if os.path.exists(args.sudokit) else \
        shutil.which(args.sudokit)
    if not sudokit_bin:
        parser.error(f"no sudokit entry point at {args.sudokit}")
    bins = {name: os.path.join(args.peers_dir, "bin", name)
            for name in ("tdoku_count", "tdoku_run_benchmark", "qqwing")}
    bins = {k: v for k, v in bins.items() if os.access(v, os.X_OK)}
    workdir = tempfile.mkdtemp(prefix="cli-throughput-")
    ctx = {"sudokit": sudokit_bin, "sudokit_python": _entry_point(sudokit_bin),
           "peers_python": args.peers_python, "bins": bins, "repeat": args.repeat,
           "quick": args.quick, "timeout": args.timeout, "pin": args.pin, "workdir": workdir,
           "load_start": os.getloadavg(), "git_start": git_state(),
           "started": time.strftime("%H:%M:%S")}
    try:
        if not os.path.exists(args.data):
            parser.error(f"{args.data}: missing (see ../shared/data/README.md)")
        ctx["paths"] = write_inputs(workdir, args.data, args.quick)
        peers_ok = os.access(args.peers_python, os.X_OK)
        ctx["peer_versions"] = {}
        if peers_ok:
            done = subprocess.run([args.peers_python, SELF, "--driver", "peers-info"],
                                  capture_output=True, text=True)
            ctx["peer_versions"] = json.loads(done.stdout) if done.returncode == 0 else {}
        ctx["peers_missing"] = {
            name: None if ctx["peer_versions"].get(name, "not installed") != "not installed"
            else SETUP_HINT for name in ("xcover", "exact-cover")}
        ctx["native_versions"] = _native_versions(args.peers_dir)
        info = subprocess.run([ctx["sudokit_python"], SELF, "--driver", "sudokit", "info"],
                              capture_output=True, text=True)
        ctx["info"] = json.loads(info.stdout) if info.returncode == 0 else {}
        rows = build_rows(ctx)
        if args.list:
            for row in rows:
                print(f"{row.key:16} group {row.group:8} {row.label}")
            return 0
        if args.only:
            wanted = {w.strip() for w in args.only.split(",") if w.strip()}
            unknown = wanted - {r.key for r in rows} - {r.group for r in rows}
            if unknown:
                parser.error(f"unknown rows {', '.join(sorted(unknown))} (see --list)")
            rows = [r for r in rows if r.key in wanted or r.group in wanted]
        if args.baseline:
            add_baseline(rows, sudokit_bin, os.path.abspath(args.baseline))
        for row in rows:
            run_row(row, ctx)
        if args.json:
            dump_json(args.json, ctx, rows)
        verdict = report(ctx, rows)
        if args.baseline:
            verdict = max(verdict, report_baseline(rows))
        return verdict
    finally:
        log(f"removing {workdir}")
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--driver":
        sys.exit(driver_main(sys.argv[2:]))
    sys.exit(main())
