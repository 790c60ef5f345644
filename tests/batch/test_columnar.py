"""The array path of ``solve`` and ``count`` (sudokit.batch.run, sudokit.cli.answers,
sudokit.formats.columns): the same bytes as the record path, on real files, clean or not,
whole or in chunks."""

from __future__ import annotations

import re

import numpy as np
import pytest

from sudokit.batch.run import EngineCache
from sudokit.cli import solve as solve_module
from sudokit.formats import parse_instances, read_instances
from sudokit.formats import stream as stream_module
from sudokit.formats.columns import ColumnChunk, column_chunk, puzzle_text_rows
from sudokit.formats.stream import read_instance_chunks

from ..helpers import EXAMPLES, cli_run, data_path

TOP3 = (EXAMPLES / "top3.txt").read_text().splitlines()


def _records_only(monkeypatch):
    """Force the record path: no column chunk is answered as arrays, and each is written as
    the records it holds."""
    road = solve_module.answer_chunks

    def records_road(spec, chunks, progress=None, apart=None):
        for part, found in road(spec, chunks, progress, apart):
            yield (part.records() if isinstance(part, ColumnChunk) else part), found

    monkeypatch.setattr(EngineCache, "for_arrays", lambda *args: None)
    monkeypatch.setattr(solve_module, "answer_chunks", records_road)


def _timeless(text: str) -> str:
    return re.sub(r'"seconds":[0-9.e-]+', '"seconds":S', text)


def _both(monkeypatch, *args, input=None):
    """``(array path run, record path run)`` of one command, with a spy that says, for each
    column chunk, whether an engine answered it as arrays."""
    answered = []
    for_arrays = EngineCache.for_arrays

    def spy(self, spec, name, first):
        engine = for_arrays(self, spec, name, first)
        answered.append(engine is not None)
        return engine

    with monkeypatch.context() as patch:
        patch.setattr(EngineCache, "for_arrays", spy)
        fast = cli_run(*args, input=input)
    with monkeypatch.context() as patch:
        _records_only(patch)
        slow = cli_run(*args, input=input)
    return fast, slow, answered


def _17_clue_slice(tmp_path, lines=3000, extra=()):
    source = data_path("sudoku", "9x9-tdoku", "puzzles2_17_clue").read_text().splitlines()
    path = tmp_path / "slice.txt"
    path.write_text("\n".join([*source[:lines], *extra]) + "\n")
    return path


@pytest.mark.parametrize("args", [
    ["count", "--limit", "2"], ["count", "--limit", "2", "--solver", "dlx"],
    ["count", "--json"], ["count", "--json", "--solver", "dlx", "--limit", "3"],
    ["count", "--summary", "--require-unique"], ["solve"], ["solve", "--solver", "dlx"],
    ["count", "--limit", "2", "--solver", "cadical195"],
])
def test_array_path_writes_what_the_record_path_writes(args, tmp_path, monkeypatch):
    path = _17_clue_slice(tmp_path, 1500)
    monkeypatch.setattr(stream_module, "CHUNK_LINES", 400)   # several chunks
    fast, slow, answered = _both(monkeypatch, *args, path)
    assert fast.exit_code == slow.exit_code == 0, fast.stderr
    assert _timeless(fast.stdout) == _timeless(slow.stdout) and fast.stdout
    # the SAT solver takes no arrays: its chunks go the record path
    assert answered and all(answered) == ("cadical195" not in args)


def test_hard_puzzles_with_no_solution_and_several(tmp_path, monkeypatch):
    """top95 (hard), a puzzle with no solution and one with many: counts, statuses and the
    verdict agree, with the Takano kernel and DLX."""
    top95 = data_path("sudoku", "9x9-norvig", "top95.txt").read_text().splitlines()
    many = "." * 81
    none = "12345678." + "........9" + "." * 63  # row 1 needs the 9 its column holds
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(["# top95 and friends", *top95, many, "", none]) + "\n")
    for args in (["count", "--limit", "3"], ["count", "--limit", "3", "--solver", "dlx"],
                 ["count", "--limit", "12"],   # a two-digit count: the lines one by one
                 ["count", "--require-unique", "--summary"], ["solve"]):
        fast, slow, answered = _both(monkeypatch, *args, path)
        assert fast.exit_code == slow.exit_code, fast.stderr
        assert fast.stdout == slow.stdout and all(answered)
    assert "........ 3\n" in cli_run("count", "--limit", "3", path).stdout


def test_a_budget_holds_on_the_array_path(tmp_path, monkeypatch):
    top95 = data_path("sudoku", "9x9-norvig", "top95.txt").read_text().splitlines()
    path = tmp_path / "top95.txt"
    path.write_text("\n".join(top95) + "\n")
    fast, slow, answered = _both(monkeypatch, "count", "--nodes", "3", "--json", path)
    assert fast.exit_code == slow.exit_code == 5 and all(answered)
    assert _timeless(fast.stdout) == _timeless(slow.stdout)
    assert '"status":"unknown"' in fast.stdout and '"complete":false' in fast.stdout
    fast, slow, answered = _both(monkeypatch, "count", "--nodes", "3", path)
    assert fast.exit_code == slow.exit_code == 5 and all(answered)
    assert fast.stdout == slow.stdout and " unknown" in fast.stdout


def test_a_bad_line_after_clean_chunks_is_reported_as_before(tmp_path, monkeypatch):
    """The clean chunks are answered, then the general reader takes over and gives its own
    message (file:line:column) and exit code."""
    path = _17_clue_slice(tmp_path, 900, extra=["1" * 2 + "." * 79])
    monkeypatch.setattr(stream_module, "CHUNK_LINES", 200)
    fast, slow, answered = _both(monkeypatch, "count", "--limit", "2", path)
    assert fast.exit_code == slow.exit_code == 4   # an invalid instance
    assert fast.stderr == slow.stderr and f"{path}:901:" in fast.stderr
    assert fast.stdout == slow.stdout and answered and all(answered)


def test_mixed_files_switch_to_records_and_keep_order(tmp_path, monkeypatch):
    """One-line 9x9 puzzles, then a multi-line grid and more one-liners: the array path
    answers the clean chunks, the rest goes through the records, in file order."""
    grid = (EXAMPLES / "six.txt").read_text()
    lines = TOP3 * 30 + ["", grid.strip(), ""] + TOP3 * 5
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(stream_module, "CHUNK_LINES", 16)
    for args in (["count", "--limit", "2", "--json"], ["solve"]):
        fast, slow, answered = _both(monkeypatch, *args, path)
        assert fast.exit_code == slow.exit_code == 0, fast.stderr
        assert _timeless(fast.stdout) == _timeless(slow.stdout)
        assert True in answered


def test_chunks_as_arrays_hold_the_records_of_one_read(tmp_path):
    """CRLF line ends, comments, blank lines, lower-case letters in 16x16 puzzles: the
    arrays say what the general reader says."""
    rows16 = ["".join("123456789abcdefg"[(r * 4 + r // 4 + c) % 16] if (r + c) % 3 else "."
                      for c in range(16)) for r in range(16)]
    one16 = "".join(rows16)
    text = "# header\r\n" + "\r\n".join([one16, "", "# c", one16.upper()]) + "\r\n"
    path = tmp_path / "sixteen.txt"
    path.write_bytes(text.encode())
    chunks = list(read_instance_chunks(str(path), columns=True))
    assert [type(chunk) for chunk in chunks] == [ColumnChunk]
    records = read_instances(str(path))
    assert chunks[0].lines.tolist() == [r.line for r in records] == [2, 5]
    for values, record in zip(chunks[0].values, records, strict=True):
        assert values.tolist() == record.instance.flat_givens.tolist()
    assert [r.instance for r in chunks[0].records()] == [r.instance for r in records]


@pytest.mark.parametrize("bad", [
    [b"1" + b"." * 80 + b" 5\n"],                  # a second field
    [b"Grid 01\n", b"." * 81 + b"\n"],              # a header
    [b"11" + b"." * 79 + b"\n"],                   # a repeated given
    [b"# caf\xe9\n", b"." * 81 + b"\n"],            # a comment that is not UTF-8
    [b"." * 80 + b"\n"],                           # a short line
    [b"x" * 81 + b"\n"],                           # no symbols
    [b"# only a comment\n"],
])
def test_anything_else_is_left_to_the_general_reader(bad):
    assert column_chunk(bad, 0, 81, "sudoku", (3, 3)) is None


def test_puzzle_text_rows_write_as_format_puzzle():
    records = read_instances(str(EXAMPLES / "top3.txt"))
    values = np.stack([r.instance.flat_givens for r in records])
    assert [row.decode() for row in puzzle_text_rows(values)] == TOP3


def test_array_batch_counts_as_every_engine_does():
    """The array call (takano, dlx) and the instance fallback (a SAT solver) agree on real
    puzzles, for counting and solving; Latin squares and an empty batch too."""
    from sudokit.batch import count_arrays

    top95 = data_path("sudoku", "9x9-norvig", "top95.txt").read_text().split()
    puzzles = [r.instance for r in parse_instances("\n".join(top95[:20]))]
    values = np.stack([p.flat_givens for p in puzzles] + [np.zeros(81, np.int32)])
    found = {}
    for solver in ("takano", "dlx", "cadical195"):
        found[solver] = count_arrays(values, "sudoku", (3, 3), limit=2, solver=solver)
        solved = count_arrays(values, "sudoku", (3, 3), solver=solver, task="solve")
        assert found[solver].counts.tolist() == [1] * 20 + [2]
        grids = solved.solutions.reshape(-1, 9, 9)
        assert all(puzzles[k].is_solution(grids[k]) for k in range(20))
    assert count_arrays(np.zeros((1, 16), np.uint8), "latin").counts.tolist() == [576]
    assert len(count_arrays(np.zeros((0, 81), np.uint8)).counts) == 0


@pytest.mark.parametrize("n, box", [(4, (2, 2)), (5, None), (6, (2, 3)), (9, (3, 3)),
                                    (12, (3, 4)), (16, (4, 4)), (25, (5, 5)), (30, None)])
def test_the_fast_repeat_check_agrees_with_the_units_table(n, box):
    """repeated_in_lines (views of the grid, sums against ORs of bits in the narrowest type
    that cannot overflow) flags exactly the rows repeated_givens flags through the units
    table, on random partial grids dense enough to hold both kinds of rows."""
    from sudokit.instances.grid import _grid_units, repeated_givens, repeated_in_lines

    rng = np.random.default_rng(n)
    rows = rng.integers(0, n + 1, size=(400, n * n)) * (rng.random((400, n * n)) < 0.6 / n)
    rows[::3] = 0
    rows[::3, :n] = np.arange(1, n + 1)          # a valid first row
    rows[1::3, 0] = rows[1::3, 1] = n            # a repeat in row 1 of every third grid
    expected = repeated_givens(rows, _grid_units(n, box))
    assert expected.any() and not expected.all()
    assert repeated_in_lines(rows, box).tolist() == expected.tolist()
    assert repeated_in_lines(rows.astype(np.uint8), box).tolist() == expected.tolist()
