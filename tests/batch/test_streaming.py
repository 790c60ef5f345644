"""The serial road answers each instance of a hard chunk as soon as it is decided (issue 27
item 13): array calls and shared-engine calls get pieces sized by the work measured so far,
one instance first, so a slow instance holds back only itself; easy chunks still go
thousands to a call; the answers do not depend on where the pieces were cut.

Checked by the calls made (how many instances each engine call got, and that the first answer
is out before the next instance is looked at), never by the clock of this machine: the
"slow" engine reports the seconds a hard instance would take.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sudokit.batch import RunSpec, answer, answer_chunks
from sudokit.batch.sizing import PIECE_SECONDS, TaskSizer
from sudokit.formats import read_instances
from sudokit.formats.columns import ColumnChunk
from sudokit.solvers.cp_engine import CPEngine
from sudokit.solvers.dlx_engine import DLXEngine

from ..helpers import data_path, interrupt, needs_proc

ROOT = Path(__file__).resolve().parents[2]

SEVENTEEN = "sudoku/9x9-royle17/sudoku17.txt"


def _givens(count: int) -> np.ndarray:
    rows = []
    with open(data_path(SEVENTEEN)) as handle:
        for line in handle:
            rows.append([0 if c in ".0" else int(c) for c in line.strip()])
            if len(rows) == count:
                break
    return np.array(rows, dtype=np.uint8)


class _Calls:
    """Records the rows of every array call of an engine class (its ``count_array_parts``
    where it has one, else ``count_arrays``); ``seconds``: what each row reports having cost
    (None: the real time)."""

    def __init__(self, monkeypatch, engine_class, seconds: float | None = None):
        self.sizes: list[int] = []
        calls = self

        def cost(found):
            return found if seconds is None else replace(
                found, seconds=seconds * len(found.counts))

        if hasattr(engine_class, "count_array_parts"):
            parts = engine_class.count_array_parts

            def count_array_parts(engine, givens, limit=None, budget=None):
                calls.sizes.append(len(givens))
                for found in parts(engine, givens, limit, budget):
                    yield cost(found)

            monkeypatch.setattr(engine_class, "count_array_parts", count_array_parts)
            return
        original = engine_class.count_arrays

        def count_arrays(engine, givens, limit=None, budget=None, **kw):
            calls.sizes.append(len(givens))
            return cost(original(engine, givens, limit, budget, **kw))

        monkeypatch.setattr(engine_class, "count_arrays", count_arrays)


@pytest.mark.parametrize("engine_class,solver", [(CPEngine, "takano"), (DLXEngine, "dlx")])
def test_hard_instances_are_answered_one_call_each(monkeypatch, engine_class, solver):
    calls = _Calls(monkeypatch, engine_class, seconds=30.0)  # each "takes" 30 s
    chunk = ColumnChunk(_givens(12), np.arange(1, 13), "sudoku", (3, 3))
    spec = RunSpec.of("count", limit=2, solver=solver)
    parts = answer_chunks(spec, [chunk])
    first_part, first_answers = next(parts)
    # the first answer is out after one instance was looked at, not the chunk
    assert calls.sizes == [1] and len(first_answers) == 1 and len(first_part) == 1
    rest = list(parts)
    assert calls.sizes == [1] * 12
    counts = np.concatenate([first_answers.counts] + [found.counts for _, found in rest])
    assert counts.tolist() == answer(spec, chunk).counts.tolist() == [1] * 12


def test_easy_instances_still_go_thousands_to_a_call(monkeypatch):
    calls = _Calls(monkeypatch, CPEngine, seconds=1e-5)  # 10 µs each, whatever the load
    givens = _givens(16384)
    chunk = ColumnChunk(givens, np.arange(1, len(givens) + 1), "sudoku", (3, 3))
    spec = RunSpec.of("solve")
    streamed = [found for _, found in answer_chunks(spec, [chunk])]
    assert calls.sizes[0] == 1 and sum(calls.sizes) == len(givens)
    assert max(calls.sizes) >= 10000 and len(calls.sizes) <= 4
    calls.sizes.clear()
    whole = answer(spec, chunk)   # answer() (a Dask task) is one call
    assert calls.sizes == [len(givens)]
    assert np.array_equal(np.concatenate([f.codes for f in streamed]), whole.codes)
    assert np.array_equal(np.concatenate([f.solutions for f in streamed]), whole.solutions)


def test_a_shared_engine_takes_pieces_too(monkeypatch):
    """Grid files (not one-line chunks) go instance by instance to a shared engine: its
    ``count_many`` calls get the same pieces."""
    sizes: list[int] = []
    original = CPEngine.count_parts

    def count_parts(engine, instances, limit=None, budget=None):
        sizes.append(len(instances))
        return original(engine, instances, limit, budget)

    monkeypatch.setattr(CPEngine, "count_parts", count_parts)
    puzzles = [record.instance for record in read_instances(data_path(SEVENTEEN))[:64]]
    spec = RunSpec.of("count", limit=2, solver="takano")
    found = [f for _, f in answer_chunks(spec, [puzzles])]
    assert sizes[0] == 1 and sum(sizes) == 64
    assert np.concatenate([f.counts for f in found]).tolist() == [1] * 64


def test_pieces_follow_the_measured_work():
    pieces = TaskSizer(first=1, seconds=PIECE_SECONDS)
    assert pieces.size(16384) == 1
    pieces.measured(1, 60.0)
    assert pieces.size(16384) == 1          # hard: one at a time
    easy = TaskSizer(first=1, seconds=PIECE_SECONDS)
    easy.measured(1, 0.01)                  # the first call also loads the kernels
    easy.measured(8, 8 * 5e-5)              # then 50 µs an instance
    assert abs(easy.size(16384) - PIECE_SECONDS / 5e-5) <= 1
    assert easy.size(100) == 100


# within one engine call: a hard row holds back none before it (issue 29 item 4) ------------
#: counting to this many solutions takes more nodes than takano's slice on a 6x6 grid
#: (2**21 // 36 = 58,254), so the empty grid (28,200,960 solutions) needs a search of its
#: own; a full grid less one cell has exactly one solution, found in the batch pass
HARD_LIMIT = 100_000


def _six_by_six(pattern: str) -> np.ndarray:
    """Rows of 6x6 givens, ``e`` an easy one (a full grid less one cell), ``H`` the empty
    grid."""
    from sudokit.instances import sudoku
    empty = sudoku(np.zeros((6, 6), dtype=int), box=(2, 3))
    with CPEngine("takano", shape=empty) as engine:
        full = engine.solve(empty).reshape(-1)
    rows = []
    for k, kind in enumerate(pattern):
        row = np.zeros(36, dtype=np.int32) if kind == "H" else full.copy()
        if kind == "e":
            row[k % 36] = 0
        rows.append(row)
    return np.array(rows, dtype=np.int32)


def test_the_rows_before_a_hard_row_come_before_it_is_searched():
    from sudokit.instances import sudoku
    engine = CPEngine("takano", shape=sudoku(np.zeros((6, 6), dtype=int), box=(2, 3)))
    givens = _six_by_six("eeeHeHe")
    parts = engine.count_givens_parts(givens, HARD_LIMIT)
    start, first = next(parts)
    # the generator stops at its yield: the hard row's own search has not started yet
    assert (start, first.counts.tolist()) == (0, [1, 1, 1])
    rest = list(parts)
    assert [(s, len(p.counts)) for s, p in rest] == [(3, 1), (4, 1), (5, 1), (6, 1)]
    whole = engine.count_givens(givens, HARD_LIMIT)
    streamed = [first] + [p for _, p in rest]
    for field in ("counts", "firsts", "unknown", "nodes"):   # the same work, the same answers
        assert np.array_equal(np.concatenate([getattr(p, field) for p in streamed]),
                              getattr(whole, field)), field
    assert whole.counts.tolist() == [1, 1, 1, HARD_LIMIT, 1, HARD_LIMIT, 1]
    assert whole.nodes[3] > 2 ** 21 // 36 and not whole.unknown.any()


def test_a_node_budget_the_kernel_holds_needs_no_search_alone():
    from sudokit.instances import sudoku
    from sudokit.solvers import Budget
    engine = CPEngine("takano", shape=sudoku(np.zeros((6, 6), dtype=int), box=(2, 3)))
    parts = list(engine.count_givens_parts(_six_by_six("eHe"), HARD_LIMIT, Budget(nodes=500)))
    assert len(parts) == 1 and parts[0][1].unknown.tolist() == [False, True, False]


@pytest.mark.parametrize("solver", ["takano", "dlx"])
@pytest.mark.parametrize("road", ["arrays", "instances"])
def test_the_serial_road_writes_easy_answers_before_the_hard_one_is_done(road, solver):
    """answer_parts over one engine call (no pieces): the easy rows before the hard one form
    a part of their own, given out before the hard row's search; progress counts each."""
    from sudokit.batch.run import EngineCache, answer_parts
    from sudokit.instances.grid import grids_from_rows
    givens = _six_by_six("eeHe")
    chunk = ColumnChunk(givens.astype(np.uint8), np.arange(1, 5), "sudoku", (2, 3))
    if road == "instances":
        chunk = grids_from_rows(chunk.values, chunk.box)
    spec = RunSpec.of("count", limit=HARD_LIMIT, solver=solver)
    with EngineCache() as engines:
        parts = [found.counts.tolist() for found in answer_parts(spec, chunk, engines)]
    assert parts == [[1, 1], [HARD_LIMIT], [1]]
    done = []
    streamed = [found for _, found in answer_chunks(spec, [chunk], done.append)]
    assert np.concatenate([f.counts for f in streamed]).tolist() == [1, 1, HARD_LIMIT, 1]
    assert done == list(np.cumsum([len(f.counts) for f in streamed]))
    assert [len(f.counts) for f in streamed if HARD_LIMIT in f.counts] == [1]


def test_progress_counts_the_easy_instances_while_a_hard_one_searches(monkeypatch):
    """The serial run with pieces (as the command line runs it) of [easy, ..., hard, easy]:
    the progress callback hears of every easy instance before the hard one is decided.
    Checked by the nodes DLX has spent when each count is heard."""
    from sudokit.batch.run import EngineCache

    spent: list[int] = []
    engines: list[DLXEngine] = []
    original = EngineCache.for_arrays

    def for_arrays(cache, spec, name, first):
        engine = original(cache, spec, name, first)
        engines.append(engine)
        return engine

    monkeypatch.setattr(EngineCache, "for_arrays", for_arrays)
    givens = _six_by_six("eeeeeHe")
    chunk = ColumnChunk(givens.astype(np.uint8), np.arange(1, 8), "sudoku", (2, 3))
    spec = RunSpec.of("count", limit=HARD_LIMIT, solver="dlx")
    done: list[int] = []

    def progress(count: int) -> None:
        done.append(count)
        spent.append(engines[-1].links.nodes)

    found = [f for _, f in answer_chunks(spec, [chunk], progress)]
    assert np.concatenate([f.counts for f in found]).tolist() == [1] * 5 + [HARD_LIMIT, 1]
    before_hard = done.index(5)     # all five easy ones heard of, as a count of their own
    assert spent[-1] - spent[before_hard] >= HARD_LIMIT   # the hard one searched after


@needs_proc
def test_the_command_line_shows_the_easy_ones_done_while_the_last_searches(tmp_path):
    """``count --solver dlx --progress`` of three easy puzzles and the empty grid (counted
    without a limit: a search that never ends): the progress line reaches 3/4 while the
    process is still running (``interrupt`` fails if it ends first), then Ctrl-C stops it
    within a slice (exit 130), the three answers written."""
    import os
    import subprocess
    import sys

    lines = _givens(3).tolist() + [[0] * 81]
    path = tmp_path / "puzzles.txt"
    path.write_text("".join("".join(map(str, row)) + "\n" for row in lines))
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1", PYTHONPATH=str(ROOT))
    process = subprocess.Popen([sys.executable, "-m", "sudokit", "count", "--solver", "dlx",
                                "--progress", str(path)], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    run = interrupt(process, lambda out, err: " 3/4 " in err)
    assert run.code == 130, run.err
    assert run.err.strip().splitlines()[-1] == "sudokit: interrupted"
    assert [line.split()[-1] for line in run.out.splitlines()] == ["1", "1", "1"]


@needs_proc
def test_the_answers_before_a_search_that_never_ends_reach_the_pipe(tmp_path):
    """200 easy puzzles and the empty grid, stdout a pipe: the 200 answers are readable
    while the empty grid is still searched (each part is flushed as written, so no answer
    waits in the buffer for a search that never ends)."""
    import os
    import subprocess
    import sys

    lines = _givens(200).tolist() + [[0] * 81]
    path = tmp_path / "puzzles.txt"
    path.write_text("".join("".join(map(str, row)) + "\n" for row in lines))
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1", PYTHONPATH=str(ROOT))
    process = subprocess.Popen([sys.executable, "-m", "sudokit", "count", "--solver", "dlx",
                                str(path)], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    run = interrupt(process, lambda out, err: out.count("\n") >= 200)
    assert run.code == 130, run.err
    assert [line.split()[-1] for line in run.out.splitlines()] == ["1"] * 200
