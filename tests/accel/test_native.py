"""sudokit._accel.native: kernels linked from their object code, without numba.

takano's batch count gives the same counts, first solutions and node counts as the numba
kernel on real puzzles, and DLX's counts (one instance, or many by preselection) the same
counts, covers and budgets; a bad
cache file or a symbol that cannot be resolved leaves the kernel to numba; and the command
line builds the files once, then counts without importing numba.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numba
import numpy as np
import pytest

from sudokit._accel import native as _native
from sudokit.encoders import to_exact_cover
from sudokit.errors import BudgetExhausted
from sudokit.instances import latin_square, sudoku
from sudokit.solvers import cp_engine, dlx
from sudokit.solvers.budget import Budget
from sudokit.solvers.cp_engine import CPEngine
from sudokit.solvers.dlx import DancingLinks

from ..helpers import data_path, loaded_after

ROOT = Path(__file__).resolve().parents[2]
TAKANO = _native.KERNELS["takano-batch"]
EMPTY9 = sudoku(np.zeros((9, 9), dtype=int))


def _puzzles(name: str, count: int) -> np.ndarray:
    lines = [line.strip()[:81] for line in data_path("sudoku", "9x9-tdoku", name).open()
             if line.strip() and not line.startswith("#")][:count]
    return np.array([[0 if ch in ".0" else int(ch) for ch in line] for line in lines])


@pytest.fixture(scope="module")
def linked(tmp_path_factory):
    """The kernel run through numba (which gives its signature), built into a fresh folder
    and linked from it."""
    CPEngine("takano", shape=EMPTY9).count_givens(_puzzles("puzzles2_17_clue", 2), 2)
    assert _native.signature(TAKANO) is not None
    folder = tmp_path_factory.mktemp("native")
    assert _native.build(TAKANO, root=folder) is not None
    function = _native.load(TAKANO, root=folder)
    assert function is not None
    return folder, function


def test_the_linked_kernel_counts_as_numba_does(linked, monkeypatch):
    _, function = linked
    puzzles = np.concatenate([_puzzles("puzzles2_17_clue", 2000),
                              _puzzles("puzzles5_forum_hardest_1905_11+", 300)])
    monkeypatch.setattr(cp_engine, "native_kernel", lambda name: None)
    by_numba = CPEngine("takano", shape=EMPTY9).count_givens(puzzles, 2)
    monkeypatch.setattr(cp_engine, "native_kernel", lambda name: function)
    engine = CPEngine("takano", shape=EMPTY9)
    assert engine._batch_kernel() is function
    linked_result = engine.count_givens(puzzles, 2)
    for field in ("counts", "firsts", "unknown", "nodes"):
        assert np.array_equal(getattr(linked_result, field), getattr(by_numba, field)), field
    assert linked_result.counts.tolist() == [1] * len(puzzles)


def test_the_linked_kernel_refuses_arrays_it_would_misread(linked):
    _, function = linked
    with pytest.raises(TypeError, match="argument 0 must be a C-contiguous int64 array"):
        function(*[np.zeros((2, 2), dtype=np.int32)] * len(function.params))
    with pytest.raises(TypeError, match="takes 26 arguments"):
        function(1, 2)


@numba.njit
def _probe(values, scale):
    return values[0] * scale


def test_the_signature_is_read_from_numba_once_the_kernel_ran(tmp_path):
    probe = _native.NativeKernel("probe", f"{__name__}:_probe")
    assert _native.signature(probe) is None                 # not compiled yet
    assert _native.build(probe, root=tmp_path) is None
    _probe(np.ones(3, dtype=np.int32), 2)
    assert _native.signature(probe) == (["int32:1", "int"], True)
    assert _native.build(probe, root=tmp_path) is not None
    function = _native.load(probe, root=tmp_path)
    assert function.params == ("int32:1", "int")
    assert function(np.full(3, 7, dtype=np.int32), 3) == 21
    _probe(np.ones(3), 2)                                   # a float array: no C signature
    assert _native.signature(probe) == (["int32:1", "int"], True)
    _probe(np.ones(3, dtype=np.int64), 2)                   # two: which one? none is built
    assert _native.signature(probe) is None
    assert _native.signature(TAKANO) is None or len(_native.signature(TAKANO)[0]) == 26


def test_a_damaged_or_foreign_cache_file_is_not_loaded(linked, tmp_path):
    folder, _ = linked
    (good,) = folder.glob("takano-batch-*.bin")
    assert good.name.startswith(f"takano-batch-{_native._cpu_tag()}-")
    data = good.read_bytes()
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / good.name).write_bytes(data[:-1] + bytes([data[-1] ^ 0xFF]))  # checksum fails
    assert _native.load(TAKANO, root=damaged) is None
    header, _, obj = data[len(_native._MAGIC):].partition(b"\n")
    meta = json.loads(header)
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / good.name).write_bytes(_native._MAGIC + json.dumps(
        {**meta, "key": "0" * 64}).encode() + b"\n" + obj)  # built for something else
    assert _native.load(TAKANO, root=foreign) is None
    bad = tmp_path / "bad-params"
    bad.mkdir()
    (bad / good.name).write_bytes(_native._MAGIC + json.dumps(
        {**meta, "params": ["float64:1"] * 26}).encode() + b"\n" + obj)  # not what it takes
    assert _native.load(TAKANO, root=bad) is None
    assert _native.load(TAKANO, root=tmp_path / "nothing") is None


def test_an_unresolvable_symbol_is_never_linked(linked):
    folder, _ = linked
    (good,) = folder.glob("takano-batch-*.bin")
    header, _, obj = good.read_bytes()[len(_native._MAGIC):].partition(b"\n")
    import llvmlite.binding as llvm

    # MCJIT would stop the whole process on a symbol it cannot resolve: never asked to
    assert _native._link(llvm, obj, json.loads(header)["symbol"],
                         ["sudokit_no_such_symbol"]) is None
    assert _native._externals("declare i64 @f(i64)\n@PyExc_X = external global ptr\n"
                              "declare void @llvm.memset.p0.i64(ptr)\n") == {"f", "PyExc_X"}


@pytest.fixture(scope="module")
def dlx_linked(tmp_path_factory):
    """The DLX kernels of one count, run through numba, built into a fresh folder and
    linked from it."""
    _dlx_answers(latin_square(np.zeros((4, 4), dtype=int)), False)
    _batch_answers(_puzzles("puzzles2_17_clue", 2))
    folder = tmp_path_factory.mktemp("native-dlx")
    linked = {}
    for kernel, name in dlx._NATIVE.items():
        assert _native.build(_native.KERNELS[name], root=folder) is not None
        linked[name] = _native.load(_native.KERNELS[name], root=folder)
        assert linked[name] is not None, kernel
    return linked


def _dlx_answers(grid, preselect: bool, budget=None):
    """``(count, first)`` of ``grid``'s exact cover (its givens preselected, or encoded)."""
    if preselect:
        shared = to_exact_cover(grid.with_givens(np.zeros_like(grid.givens)))
        cells = np.flatnonzero(grid.givens.ravel())
        options = cells * grid.n + grid.givens.ravel()[cells] - 1
        return DancingLinks.from_problem(shared.xc).count_first(options, 3, budget)
    return DancingLinks.from_problem(to_exact_cover(grid).xc).count_first((), None, budget)


def test_the_linked_dlx_kernels_count_as_numba_does(dlx_linked, monkeypatch):
    puzzles = _puzzles("puzzles5_forum_hardest_1905_11+", 20)
    cases = [(latin_square(np.zeros((4, 4), dtype=int)), False),
             (sudoku(np.zeros((4, 4), dtype=int)), False),
             *[(sudoku(row.reshape(9, 9)), True) for row in puzzles]]
    monkeypatch.setattr(dlx.native, "native_kernel", lambda name: None)
    expected = [_dlx_answers(grid, pre) for grid, pre in cases]
    with pytest.raises(BudgetExhausted) as by_numba:
        _dlx_answers(latin_square(np.zeros((5, 5), dtype=int)), False, Budget(nodes=5000))
    monkeypatch.setattr(dlx.native, "native_kernel", dlx_linked.get)
    assert dlx._kernel("count_slice") is dlx_linked["dlx-count-slice"]
    found = [_dlx_answers(grid, pre) for grid, pre in cases]
    assert [count for count, _ in found] == [576, 288] + [1] * 20
    for (count, first), (want_count, want_first) in zip(found, expected, strict=True):
        assert count == want_count and np.array_equal(first, want_first)
    with pytest.raises(BudgetExhausted) as linked:  # slices and budgets as through numba
        _dlx_answers(latin_square(np.zeros((5, 5), dtype=int)), False, Budget(nodes=5000))
    assert linked.value.found == by_numba.value.found > 0


def _batch_answers(puzzles: np.ndarray, budget=None):
    """:meth:`DancingLinks.count_many` of the puzzles' givens on the empty grid's cover."""
    shared = to_exact_cover(EMPTY9)
    cells = [np.flatnonzero(row) for row in puzzles]
    options = np.concatenate([c * 9 + row[c] - 1 for c, row in zip(cells, puzzles,
                                                                   strict=True)])
    starts = np.concatenate(([0], np.cumsum([len(c) for c in cells])))
    return DancingLinks.from_problem(shared.xc).count_many(starts, options, 2, budget)


def test_the_linked_dlx_batch_counts_as_numba_does(dlx_linked, monkeypatch):
    puzzles = np.concatenate([_puzzles("puzzles2_17_clue", 300),
                              _puzzles("puzzles5_forum_hardest_1905_11+", 50)])
    monkeypatch.setattr(dlx.native, "native_kernel", lambda name: None)
    expected = _batch_answers(puzzles)
    tight = _batch_answers(puzzles, Budget(nodes=50))  # some sets run out of nodes
    monkeypatch.setattr(dlx.native, "native_kernel", dlx_linked.get)
    assert dlx._kernel("solve_batch") is dlx_linked["dlx-solve-batch"]
    for found, want in ((_batch_answers(puzzles), expected),
                        (_batch_answers(puzzles, Budget(nodes=50)), tight)):
        for field in ("counts", "firsts", "unknown"):
            assert np.array_equal(getattr(found, field), getattr(want, field)), field
    assert expected.counts.tolist() == [1] * len(puzzles) and tight.unknown.any()


def _run(env: dict, args: list[str], stdin: str | None = None) -> dict:
    """``sudokit ARGS`` in a new interpreter: its output and whether it imported numba."""
    return loaded_after(args, ("numba",), env, stdin)


@pytest.mark.slow
def test_the_command_line_builds_once_then_counts_without_numba(tmp_path):
    path = tmp_path / "puzzles.txt"
    path.write_text("".join("".join("." if v == 0 else str(v) for v in row) + "\n"
                            for row in _puzzles("puzzles2_17_clue", 500)))
    env = {key: value for key, value in os.environ.items() if key != "SUDOKIT_NATIVE"}
    env["SUDOKIT_CACHE_DIR"] = str(tmp_path / "cache")  # cold: the families compile first
    count = ["count", "--limit", "2", str(path)]
    latin = ["count", "--solver", "dlx", "--problem", "latin", "-"]
    first = _run(env, count)
    first_latin = _run(env, latin, "." * 16 + "\n")
    assert len(list((tmp_path / "cache" / "native").glob("*.bin"))) == 7
    second, second_latin = _run(env, count), _run(env, latin, "." * 16 + "\n")
    assert not second["numba"] and not second_latin["numba"], second["stderr"]
    assert second["stdout"] == first["stdout"] and first["stdout"].count(" 1\n") == 500
    assert second_latin["stdout"] == first_latin["stdout"] == "." * 16 + " 576\n"
    off = _run({**env, "SUDOKIT_NATIVE": "0"}, count)
    assert off["numba"] and off["stdout"] == first["stdout"]
    solved = _run(env, ["solve", "--solver", "dlx", str(path)])  # DLX's batch: no numba
    assert not solved["numba"] and solved["stdout"].count("\n") == 500
    plain = _run({**env, "NUMBA_DISABLE_JIT": "1"}, latin, "." * 16 + "\n")  # plain Python
    assert plain["numba"] and plain["stdout"] == first_latin["stdout"]
