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

import numpy as np
import pytest

from sudokit.batch import RunSpec, answer, answer_chunks
from sudokit.batch.sizing import PIECE_SECONDS, TaskSizer
from sudokit.formats import read_instances
from sudokit.formats.columns import ColumnChunk
from sudokit.solvers.cp_engine import CPEngine
from sudokit.solvers.dlx_engine import DLXEngine

from ..helpers import data_path

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
    """Records the rows of every array call of an engine class; ``seconds``: what each row
    reports having cost (None: the real time)."""

    def __init__(self, monkeypatch, engine_class, seconds: float | None = None):
        self.sizes: list[int] = []
        original = engine_class.count_arrays
        calls = self

        def count_arrays(engine, givens, limit=None, budget=None, **kw):
            calls.sizes.append(len(givens))
            found = original(engine, givens, limit, budget, **kw)
            if seconds is not None:
                found = replace(found, seconds=seconds * len(givens))
            return found

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
    original = CPEngine.count_many

    def count_many(engine, instances, limit=None, budget=None):
        sizes.append(len(instances))
        return original(engine, instances, limit, budget)

    monkeypatch.setattr(CPEngine, "count_many", count_many)
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
