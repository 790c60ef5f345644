"""--jobs and --scheduler (sudokit.batch.dask): the same output as the serial run on real data,
generate's seeds per chunk, the missing extra, a worker that dies, Ctrl-C, and a cluster
started the multi-machine way (dask scheduler + dask worker) as subprocesses.

A Dask cluster costs seconds to start: the library tests share one (two workers); each CLI
test starts its own, as a user's run does. The tests that start clusters beyond the default
run's few (solve, generate, a killed worker, a hand-started cluster) are marked heavy:
``pytest -m heavy tests/batch/test_parallel.py``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from ..helpers import HANG_GUARD, assert_cli_error, cli_run, data_path, import_extra

import_extra("distributed", "dask")

import psutil  # noqa: E402  (a dependency of distributed)

from sudokit.batch import (  # noqa: E402
    RunSpec,
    answer,
    answer_chunks,
    count_arrays,
    run_batch,
    tasks,  # noqa: E402
)
from sudokit.batch.cluster import dask_client  # noqa: E402
from sudokit.batch.dask import (  # noqa: E402
    TaskSizer,
    answer_on_cluster,
    chunk_seed,
    grade_on_cluster,
    puzzles_on_cluster,
)
from sudokit.formats import parse_puzzles, read_instances  # noqa: E402
from sudokit.formats.columns import ColumnChunk  # noqa: E402
from sudokit.formats.stream import read_instance_chunks  # noqa: E402
from sudokit.generators import PuzzleGenerator  # noqa: E402
from sudokit.grading import label_nodes, search_free_table  # noqa: E402
from sudokit.human import rating_row  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SEVENTEEN = ("sudoku", "9x9-tdoku", "puzzles2_17_clue")


def _env(**extra: str) -> dict:
    return dict(os.environ, SUDOKIT_NO_PROGRESS="1", **extra)


def sudokit(*args, env=None, check=True, timeout=300):
    """Run ``python -m sudokit ARGS`` (a real process: its workers are real processes)."""
    done = subprocess.run([sys.executable, "-m", "sudokit", *map(str, args)], cwd=ROOT,
                          env=env or _env(), capture_output=True, text=True, timeout=timeout)
    assert "Traceback" not in done.stderr, done.stderr
    if check:
        assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def slice_file(tmp_path_factory):
    """3,000 of the 17-clue puzzles (with the file's comment header)."""
    lines = data_path(*SEVENTEEN).read_text().splitlines(keepends=True)
    path = tmp_path_factory.mktemp("parallel") / "seventeen3000.txt"
    path.write_text("".join(lines[:3004]))
    return path


@pytest.fixture(scope="module")
def client():
    with dask_client(jobs=2) as shared:
        yield shared


# -- the library: the same results as the serial functions ---------------------------------

def test_the_cluster_gives_the_serial_answers_of_object_chunks(client, slice_file):
    problems = [r.instance for r in read_instances(slice_file)][:1500]
    chunks = [problems[:700], problems[700:]]  # tasks cut inside chunks, never across
    spec = RunSpec.of("count", limit=2)
    serial = [found for _, found in answer_chunks(spec, chunks)]
    parallel = list(answer_on_cluster(client, spec, chunks, task_size=256))
    assert [len(part) for part, _ in parallel] == [256, 256, 188, 256, 256, 256, 32]
    assert np.concatenate([f.counts for _, f in parallel]).tolist() == \
        np.concatenate([f.counts for f in serial]).tolist()
    solved = list(answer_on_cluster(client, RunSpec.of("solve"), [problems[:300]],
                                    task_size=64))
    mine = [s for _, found in solved for s in found.solutions]
    for grid, theirs in zip(mine, run_batch(problems[:300]), strict=True):
        assert np.array_equal(np.asarray(grid).reshape(9, 9), theirs.solution)


def test_the_cluster_gives_the_serial_answers_of_mixed_chunks_in_order(client, slice_file):
    pieces = list(read_instance_chunks(slice_file, columns=True, chunk_lines=700))
    assert {type(piece).__name__ for piece in pieces} == {"ColumnChunk"}
    records = pieces[1].records()[:50]  # a chunk of objects between the arrays
    pieces = [pieces[0], records, *pieces[1:]]
    values = np.concatenate([p.values for p in pieces if isinstance(p, ColumnChunk)])
    expected = count_arrays(values, "sudoku", (3, 3), 2)
    counts, first, kinds = [], 0, []
    for part, found in answer_on_cluster(client, RunSpec.of("count", limit=2), pieces):
        kinds.append(type(part).__name__)
        assert found.solutions is None  # count: no solutions travel back
        if isinstance(part, ColumnChunk):
            counts += found.counts.tolist()
        else:
            assert found.counts.tolist() == \
                [r.count for r in run_batch([r.instance for r in part], task="count",
                                            limit=2)]
        first += len(part)
    assert first == 3050 and kinds.count("list") == 1
    assert counts == expected.counts.tolist()
    solved = list(answer_on_cluster(client, RunSpec.of("solve"), [pieces[0]], task_size=128))
    sizes = [len(part) for part, _ in solved]
    assert sizes[:-1] == [128] * (len(sizes) - 1) and sum(sizes) == len(pieces[0])
    expected = count_arrays(pieces[0].values, "sudoku", (3, 3), task="solve")
    assert np.array_equal(np.concatenate([a.solutions for _, a in solved]),
                          expected.solutions)


def test_tasks_grow_to_the_measured_work_and_share_a_window_among_workers():
    sizer = TaskSizer(first=2048, workers=2, seconds=0.5)
    # before any measure: doubling, within the window (and a worker's share, past first)
    assert [sizer.size(16384) for _ in range(4)] == [2048, 4096, 8192, 8192]
    assert sizer.size(100) == 100
    sizer.measured(2048, 0.5)  # a fresh worker's first task: its kernels load
    assert sizer.size(16384) == 2048
    sizer.measured(2048, 2048 * 100e-6)  # then 100 µs an instance: 5,000 in 0.5 s
    assert sizer.size(16384) == 5000
    sizer.measured(100_000, 0.0)  # faster still: a worker's share of the window, at most
    assert sizer.size(16384) == 8192 and sizer.size(301) == 151
    slow = TaskSizer(first=2048, workers=1, seconds=0.5)
    slow.measured(10, 10.0)  # a second an instance: never below first // 8
    assert slow.size(16384) == 256


def test_a_worker_keeps_its_engines_open_from_one_task_to_the_next():
    chunk = ColumnChunk(np.zeros((3, 16), dtype=np.uint8), np.arange(1, 4), "sudoku", (2, 2))
    spec = RunSpec.of("count", limit=3)
    first = tasks.answer_task(tasks.AnswerTask(spec, chunk))
    kept = tasks._kept_arrays(spec)
    engines = dict(kept)
    assert [engine is not None for engine in engines.values()] == [True]
    assert tasks.answer_task(tasks.AnswerTask(spec, chunk)).counts.tolist() == [3, 3, 3]
    assert first.counts.tolist() == [3, 3, 3] and first.solutions is None
    assert tasks._kept_arrays(spec) is kept and kept == engines
    other = RunSpec.of("count", limit=3, solver="dlx")
    assert tasks._kept_arrays(other) is not kept  # other run settings, other engines
    assert answer(spec, chunk).counts.tolist() == [3, 3, 3]


def test_grade_on_the_cluster_equals_the_serial_grading(client, slice_file):
    puzzles = [r.instance for r in read_instances(slice_file)][:24]
    names = ["FC", "FCI", "HAC"]
    parts = list(grade_on_cluster(client, [puzzles[:10], puzzles[10:]], names, True, None,
                                  task_size=4))
    assert [len(grades.search_free) for _, grades, _ in parts] == [4, 4, 2, 4, 4, 4, 2]
    table = np.concatenate([grades.search_free for _, grades, _ in parts])
    assert np.array_equal(table, search_free_table(puzzles, names))
    assert all(grades.decided.all() for _, grades, _ in parts)
    nodes = np.concatenate([grades.nodes for _, grades, _ in parts]).tolist()
    assert nodes == [label_nodes(p) for p in puzzles]
    assert all(rated is None for *_, rated in parts)


def test_grade_on_the_cluster_takes_a_time_limit_per_puzzle(client):
    """A 25x25 whose node count runs for hours is unknown past the limit; the 9x9 puzzles
    around it are graded as without one."""
    easy = parse_puzzles("..3.2.6..9..3.5..1..18.64....81.29..7......."
                         "8..67.82....26.95..8..2.3..9..5.1.3..")[0].instance
    path = data_path("sudoku", "gecode-9-16-25", "sudoku25_gecode.txt")
    big = read_instances(path)[0].instance
    parts = list(grade_on_cluster(client, [[easy], [big], [easy]], ["FC"], True, None,
                                  seconds=0.5, rating=True))
    nodes = np.concatenate([grades.nodes for _, grades, _ in parts]).tolist()
    assert nodes == [1, -1, 1]
    assert [rated[0][1] for *_, rated in parts] == ["easy", "unknown", "easy"]


def test_grade_on_the_cluster_rates_with_the_human_techniques_there(client):
    """--rating --jobs: the ratings are worked out on the workers, as rating_row does here
    (diabolical.txt: SE 5.0-9.0, chains and forcing)."""
    lines = data_path("sudoku", "9x9-sudokuexchange", "diabolical.txt").read_text()
    puzzles = [parse_puzzles(line.split()[1])[0].instance
               for line in lines.splitlines()[::3000]]                   # 14 puzzles
    parts = list(grade_on_cluster(client, [puzzles], ["FC"], False, None, task_size=5,
                                  rating=True))
    assert [len(rated) for *_, rated in parts] == [5, 5, 4]
    assert sum((rated for *_, rated in parts), []) == [rating_row(p) for p in puzzles]


def test_generate_chunks_are_seeded_from_the_seed_and_the_chunk_index(client):
    make = {"mode": "minimal", "clues": None, "wanted": None, "budget": None,
            "best_effort": False}
    made = list(puzzles_on_cluster(client, 7, 11, 4, (2, 2), {}, make, per_task=3))
    expected = []
    for index, count in enumerate([3, 3, 1]):  # the documented recipe, done by hand
        with PuzzleGenerator(4, (2, 2), np.random.SeedSequence(11, spawn_key=(index,))) as gen:
            expected += [gen.make("minimal").puzzle for _ in range(count)]
    assert [m.puzzle.tolist() for m in made] == [p.tolist() for p in expected]
    assert chunk_seed(11, 2).spawn_key == (2,)


def test_fifty_runs_on_the_cluster_all_give_the_serial_answers(client, slice_file):
    """Issue 27 item 5: a chunk's result was taken with future.result(timeout=...), which
    races with the task finishing (dask/distributed#8514) and failed about one run in five
    with "cannot access local variable 'result'". Many short tasks, fifty times over."""
    chunk = next(read_instance_chunks(slice_file, columns=True, chunk_lines=200))
    spec = RunSpec.of("count", limit=5)
    expected = answer(spec, chunk).counts.tolist()
    for _ in range(50):
        found = [f for _, f in answer_on_cluster(client, spec, [chunk], task_size=25)]
        assert np.concatenate([f.counts for f in found]).tolist() == expected


# -- the command line: byte-identical output, any N ---------------------------------------

def test_count_and_solve_jobs_are_byte_identical_to_the_serial_run(slice_file):
    serial = sudokit("count", "--limit", "2", slice_file).stdout
    assert serial.count("\n") == 3000 and " 2" not in serial  # all unique, none missing
    assert sudokit("count", "--limit", "2", "--jobs", "2", slice_file).stdout == serial
    assert sudokit("count", "--limit", "2", "--jobs", "1", slice_file).stdout == serial


def test_count_jobs_on_an_engine_without_arrays_is_byte_identical(tmp_path, slice_file):
    lines = slice_file.read_text().splitlines(keepends=True)
    small = tmp_path / "sixty.txt"
    small.write_text("".join(lines[:64]))
    args = ("count", "--limit", "2", "--solver", "minisat22", small)
    serial = sudokit(*args).stdout
    assert serial.count("\n") == 60
    assert sudokit(*args, "--jobs", "2").stdout == serial


@pytest.mark.heavy
def test_count_jobs_2_is_byte_identical_in_fifty_runs(tmp_path, slice_file):
    """Issue 27 item 5, as users ran it: ``count --limit 5 --jobs 2``, fifty times."""
    serial = sudokit("count", "--limit", "5", slice_file).stdout
    for _ in range(50):
        assert sudokit("count", "--limit", "5", "--jobs", "2", slice_file).stdout == serial


@pytest.mark.heavy
def test_solve_jobs_is_byte_identical_to_the_serial_run(slice_file):
    solved = sudokit("solve", "--jobs", "2", slice_file).stdout
    assert solved == sudokit("solve", slice_file).stdout


def test_grade_jobs_is_byte_identical_to_the_serial_run(tmp_path, slice_file):
    lines = slice_file.read_text().splitlines(keepends=True)
    small = tmp_path / "forty.txt"
    small.write_text("".join(lines[:44]))
    serial = sudokit("grade", "--json", "--rating", small).stdout
    out = tmp_path / "graded.jsonl"
    sudokit("grade", "--json", "--rating", "--jobs", "2", small, "-o", out)
    strip = [line.split(',"seconds"')[0] for line in serial.splitlines()]
    assert [line.split(',"seconds"')[0] for line in out.read_text().splitlines()] == strip
    assert len(strip) == 40


@pytest.mark.heavy
def test_generate_seed_gives_the_same_puzzles_whatever_the_jobs():
    args = ("generate", "sudoku", "--size", "4", "--count", "40", "--seed", "5", "--minimal")
    one = sudokit(*args, "--jobs", "1").stdout
    assert one.count("\n") == 40
    assert sudokit(*args, "--jobs", "2").stdout == one


# -- errors ----------------------------------------------------------------------------------

def test_missing_dask_is_one_line_with_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # find_spec: not installed
    top3 = ROOT / "sudokit" / "instances" / "examples" / "top3.txt"
    for args in (("count", "--jobs", "2", top3), ("grade", "--jobs", "2", top3),
                 ("generate", "sudoku", "--size", "4", "--jobs", "2")):
        result = cli_run(*args)
        assert_cli_error(result, 6, 'pip install "sudokit[dask]"', "--jobs")
        assert result.stdout == ""


def test_jobs_usage_errors():
    top3 = ROOT / "sudokit" / "instances" / "examples" / "top3.txt"
    assert_cli_error(cli_run("count", "--jobs", "2", "--scheduler", "tcp://x:1", top3), 2,
                     "--jobs and --scheduler")
    assert_cli_error(cli_run("count", "--counter", "ganak", "--jobs", "2", top3), 2,
                     "--jobs does not apply to --counter ganak")
    assert_cli_error(cli_run("solve", "--jobs", "0", top3), 2, "--jobs")


def test_an_unreachable_scheduler_is_one_line():
    top3 = ROOT / "sudokit" / "instances" / "examples" / "top3.txt"
    assert_cli_error(cli_run("count", "--cluster-timeout", "1", "--scheduler",
                             "tcp://127.0.0.1:9", top3), 6,
                     "cannot connect to the Dask scheduler at tcp://127.0.0.1:9")


# -- workers that die, Ctrl-C ----------------------------------------------------------------

@pytest.mark.heavy
def test_a_worker_killed_mid_run_is_retried(tmp_path, slice_file):
    marker = tmp_path / "killed-once"
    env = _env(SUDOKIT_TEST_KILL_WORKER=f"once:{marker}")
    out = sudokit("count", "--limit", "2", "--jobs", "2", slice_file, env=env).stdout
    assert marker.exists()  # a worker did die
    assert out == sudokit("count", "--limit", "2", slice_file).stdout


def test_a_chunk_that_cannot_finish_is_named_and_fails_the_run(tmp_path, slice_file):
    env = _env(SUDOKIT_TEST_KILL_WORKER="always",
               DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="0")
    out = tmp_path / "counts.txt"
    done = sudokit("count", "--limit", "2", "--jobs", "2", slice_file, "-o", out, env=env,
                   check=False)
    assert done.returncode == 6, done.stderr
    assert "the chunk of instances 1..2048 failed on the Dask cluster: KilledWorker" \
        in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert not out.exists()


def _cpu(process: psutil.Process) -> float:
    try:
        times = process.cpu_times()
    except psutil.NoSuchProcess:
        return 0.0
    return times.user + times.system


def _workers(process: psutil.Process, wanted: int, cpu: float = 0.0) -> list:
    """``process``'s descendants once there are ``wanted`` of them and each has computed
    ``cpu`` CPU seconds (the workers are working: load does not change how much they must
    compute to get there, only how long it takes)."""
    deadline = time.monotonic() + HANG_GUARD
    while time.monotonic() < deadline and process.is_running():
        children = process.children(recursive=True)
        if len(children) >= wanted and sorted(map(_cpu, children))[-wanted] >= cpu:
            return children
        time.sleep(0.1)
    pytest.fail(f"fewer than {wanted} worker processes that computed {cpu} s")


def test_ctrl_c_stops_the_workers_and_leaves_no_output(tmp_path, slice_file):
    out = tmp_path / "grades.txt"
    scratch = tmp_path / "tmp"  # $TMPDIR: the workers' scratch folder is removed too
    scratch.mkdir()
    process = subprocess.Popen([sys.executable, "-m", "sudokit", "grade", "--jobs", "2",
                                slice_file, "-o", out], cwd=ROOT, env=_env(TMPDIR=str(scratch)),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _interrupt_when_working(process, 2, 1.0, out)  # the workers are grading
    assert list(scratch.iterdir()) == []


def _interrupt_when_working(process, workers: int, cpu: float, out,
                            group: bool = False) -> None:
    """Ctrl-C ``process`` (``group``: its whole process group, as a terminal does) once its
    ``workers`` have each computed ``cpu`` CPU seconds (a forked worker starts in far less):
    exit 130 with one line, no ``-o`` file nor temporary left, no worker left running."""
    children = _workers(psutil.Process(process.pid), workers, cpu)
    if group:
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=HANG_GUARD)
    assert process.returncode == 130, err
    assert err.strip().splitlines()[-1] == "sudokit: interrupted", err
    assert not out.exists() and not list(out.parent.glob(".sudokit-*"))
    gone, alive = psutil.wait_procs(children, timeout=HANG_GUARD)
    assert not alive, alive


def test_ctrl_c_stops_the_worker_of_jobs_1_counting(tmp_path, slice_file):
    out = tmp_path / "counts.txt"
    # 150,000 puzzles: tasks of 0.5 s of work, many of them (30,000 once ended, exit 0, in
    # CI before the worker had counted 1.5 CPU-s: minisat22's CPU-paced slices count faster)
    big = tmp_path / "big.txt"
    big.write_text("".join(slice_file.read_text().splitlines(keepends=True)[4:]) * 50)
    process = subprocess.Popen([sys.executable, "-m", "sudokit", "count", "--limit", "2",
                                "--solver", "minisat22", "--jobs", "1", big, "-o", out],
                               cwd=ROOT, env=_env(), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    # the worker is counting; Ctrl-C at a terminal reaches the worker process too
    _interrupt_when_working(process, 1, 1.5, out, group=True)


# -- how local workers start: forked on Linux (sudokit.batch.cluster) --------------------

def _in_a_fork(code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``code`` after ``worker_start_method()`` in a fresh Python; ``child()`` there
    forks, runs its argument in the child, and waits for it."""
    prelude = ("import os, signal, sys\n"
               "from sudokit.batch.cluster import worker_start_method\n"
               "method = worker_start_method()\n"
               "def child(work):\n"
               "    pid = os.fork()\n"
               "    if pid == 0:\n"
               "        work(); sys.stdout.flush(); os._exit(0)\n"
               "    os.waitpid(pid, 0)\n")
    env = dict(env or _env())
    env.pop("PYTHONUNBUFFERED", None)  # buffered, as a pipe is by default
    return subprocess.run([sys.executable, "-c", prelude + code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=HANG_GUARD, check=True)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is used on Linux")
def test_local_workers_fork_without_repeating_buffered_output_or_taking_ctrl_c():
    # stdout is a pipe here (block-buffered): without the flush before the fork, the child's
    # exit would write the parent's pending line a second time
    done = _in_a_fork("print(method)\nsys.stdout.write('pending\\n')\n"
                      "child(lambda: print(signal.getsignal(signal.SIGINT) is signal.SIG_IGN, "
                      "signal.getsignal(signal.SIGTERM) is signal.SIG_DFL))\n")
    assert done.stdout.splitlines() == ["fork", "pending", "True True"]


def test_the_environment_chooses_how_workers_start(slice_file):
    spawn = _env(DASK_DISTRIBUTED__WORKER__MULTIPROCESSING_METHOD="spawn")
    assert _in_a_fork("print(method)", spawn).stdout == "None\n"
    serial = sudokit("count", "--limit", "2", slice_file).stdout
    assert sudokit("count", "--limit", "2", "--jobs", "1", slice_file, env=spawn).stdout \
        == serial


# -- a cluster started by hand: dask scheduler + dask worker + --scheduler ------------------

@pytest.mark.heavy
def test_scheduler_option_runs_on_a_cluster_started_by_hand(tmp_path, slice_file):
    bin_dir = Path(sys.executable).parent
    address_file = tmp_path / "scheduler.json"
    scheduler = subprocess.Popen([bin_dir / "dask", "scheduler", "--host", "127.0.0.1",
                                  "--port", "0", "--no-dashboard",
                                  "--scheduler-file", address_file],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not address_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        import json

        address = json.loads(address_file.read_text())["address"]
        worker = subprocess.Popen([bin_dir / "dask", "worker", address, "--nthreads", "1",
                                   "--no-dashboard"], cwd=ROOT,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        counted = sudokit("count", "--limit", "2", "--scheduler", address, slice_file).stdout
        assert counted == sudokit("count", "--limit", "2", slice_file).stdout
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.terminate()
                process.wait(timeout=HANG_GUARD)
