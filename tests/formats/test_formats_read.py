"""Reading files and stdin, problem detection, dispatch and writing solutions back."""

from __future__ import annotations

import io
import os
import sys

import numpy as np
import pytest

from sudokit.errors import EncodingError, InstanceError, ParseError, UnreadableFileError
from sudokit.formats import (
    Record,
    format_instance,
    format_solution,
    parse_instances,
    read_instances,
    read_text,
)
from sudokit.instances import GridPuzzle, precoloring
from sudokit.problems import sniff_kind

from ..helpers import data_path

TOP1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLVED4 = np.array([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]])


# -- read_text --------------------------------------------------------------------------

def test_read_text_file(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text(TOP1 + "\n")
    assert read_text(str(path)) == (TOP1 + "\n", str(path))


def test_missing_file(tmp_path):
    path = tmp_path / "nope.txt"
    with pytest.raises(UnreadableFileError) as info:
        read_text(str(path))
    assert str(info.value) == f"cannot read {path}: no such file"
    assert info.value.exit_code == 3


def test_directory(tmp_path):
    with pytest.raises(UnreadableFileError, match="is a directory"):
        read_text(str(tmp_path))


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root can read anything")
def test_permission_denied(tmp_path):
    path = tmp_path / "secret.txt"
    path.write_text(TOP1)
    path.chmod(0)
    with pytest.raises(UnreadableFileError, match="permission denied"):
        read_text(str(path))


def test_not_utf8(tmp_path):
    path = tmp_path / "bin.txt"
    path.write_bytes(b"ok\nab\xff\n")
    with pytest.raises(ParseError) as info:
        read_text(str(path))
    assert str(info.value) == f"{path}:2:3: not UTF-8 text (byte 0xff)"


def test_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((TOP1 + "\n").encode())))
    assert read_text("-") == (TOP1 + "\n", "<stdin>")


def test_stdin_instances(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"order 1\n-1\n")))
    (rec,) = read_instances("-", problem="latin")
    assert rec.style == "pls"


# -- detection and dispatch -------------------------------------------------------------

@pytest.mark.parametrize("name,problem,expected", [
    ("a.pls", None, "latin"), ("dir/A.PLS", None, "latin"), ("g.col", None, "coloring"),
    ("p.txt", None, "sudoku"), ("-", None, "sudoku"), ("<stdin>", None, "sudoku"),
    ("noext", None, "sudoku"), ("g.col", "sudoku", "sudoku"), ("p.txt", "latin", "latin"),
])
def test_sniff_kind_by_name(name, problem, expected):
    assert sniff_kind(name, "", problem) == expected


@pytest.mark.parametrize("text, expected", [
    ("c hi\np cnf 1 1\n1 0\n", "cnf"), ("order 2\n-1 -1\n-1 -1\n", "latin"),
    ("p edge 2 1\ne 1 2\n", "coloring"), ("# x\n1...\n", "sudoku")])
def test_sniff_kind_of_stdin_by_first_line(text, expected):
    assert sniff_kind("-", text) == sniff_kind("<stdin>", text) == expected


def test_sniff_kind_rejects_unknown():
    with pytest.raises(EncodingError):
        sniff_kind("a.txt", "", "kakuro")


@pytest.mark.parametrize("problem", ["sudoku", "latin", "coloring"])
@pytest.mark.parametrize("text", ["", " \n\t\n"])
def test_empty_input_every_problem(problem, text):
    with pytest.raises(ParseError) as info:
        parse_instances(text, "e.in", problem)
    assert str(info.value) == "e.in: empty input, no instance found"


def test_latin_from_plain_text_and_pls():
    plain = parse_instances("1.3..2...\n", problem="latin")[0]
    assert plain.instance.box is None and plain.style == "line"
    pls = parse_instances("order 3\n0 -1 2\n-1 1 -1\n-1 -1 -1\n", problem="latin")[0]
    assert pls.style == "pls" and pls.instance.givens[0].tolist() == [1, 0, 3]


def test_box_and_colors_are_passed_through():
    assert parse_instances("." * 36, box=(2, 3))[0].instance.box == (2, 3)
    rec = parse_instances("p edge 2 1\ne 1 2\n", problem="coloring", colors=4)[0]
    assert rec.instance.num_colors == 4


def test_read_instances_by_extension(tmp_path):
    (tmp_path / "a.pls").write_text("order 2\n0 -1\n-1 -1\n")
    (tmp_path / "g.col").write_text("p edge 2 1\nc colors 2\ne 1 2\n")
    (tmp_path / "p.txt").write_text(TOP1 + "\n" + TOP1 + "\n")
    assert read_instances(str(tmp_path / "a.pls"))[0].style == "pls"
    assert read_instances(str(tmp_path / "g.col"))[0].instance.num_colors == 2
    assert len(read_instances(str(tmp_path / "p.txt"))) == 2
    with pytest.raises(ParseError, match=r"g.col: number of colors unknown"):
        (tmp_path / "g.col").write_text("p edge 2 1\ne 1 2\n")
        read_instances(str(tmp_path / "g.col"))
    with pytest.raises(UnreadableFileError):
        read_instances(str(tmp_path / "missing.txt"))


def test_errors_name_the_file(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("# c\n" + TOP1[:-1] + "\n")
    with pytest.raises(ParseError) as info:
        read_instances(str(path))
    assert str(info.value).startswith(f"{path}:2: line has 80 cells")
    path.write_text("55" + TOP1[2:] + "\n")
    with pytest.raises(InstanceError, match=rf"^{path}:1: given 5 .* repeats in row 1"):
        read_instances(str(path))


def test_on_bad_is_passed_to_the_line_formats(tmp_path):
    text = f"{TOP1}\nnot a puzzle\n{TOP1}\n"
    for problem in ("sudoku", "latin"):
        skipped: list[ParseError] = []
        recs = parse_instances(text, "b.txt", problem, on_bad=skipped.append)
        assert [r.line for r in recs] == [1, 3] and [e.line for e in skipped] == [2]
        with pytest.raises(ParseError, match=r"^b.txt:2: line has 3 fields"):
            parse_instances(text, "b.txt", problem)
    path = tmp_path / "b.txt"
    path.write_text(text)
    skipped = []
    assert len(read_instances(str(path), on_bad=skipped.append)) == 2
    assert str(skipped[0]).startswith(f"{path}:2: line has 3 fields")


@pytest.mark.parametrize("problem, text", [
    ("latin", "order 2\n0 0\n-1 -1\n"), ("coloring", "p edge 2 1\ne 1 3\nc colors 2\n"),
    ("cnf", "p cnf 2 1\n1 3 0\n"), ("xc", "a b\na c\n")])
def test_files_of_one_instance_raise_even_with_on_bad(problem, text):
    skipped: list[ParseError] = []
    with pytest.raises((ParseError, InstanceError)):
        parse_instances(text, "one", problem, on_bad=skipped.append)
    assert skipped == []


# -- writing back -----------------------------------------------------------------------

def _record(text, **kwargs):
    return parse_instances(text, **kwargs)[0]


def test_solution_in_each_grid_style():
    line = _record("1..." + "." * 12 + "\n")
    assert format_solution(line, SOLVED4) == "1234341221434321"
    ints_line = _record("1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n")
    assert format_solution(ints_line, SOLVED4) == " ".join(map(str, SOLVED4.reshape(-1)))
    grid = _record("1 . | . .\n. . | . .\n----+----\n. . | . .\n. . | . .\n")
    assert format_solution(grid, SOLVED4).splitlines() == [
        "1 2 | 3 4", "3 4 | 1 2", "----+----", "2 1 | 4 3", "4 3 | 2 1"]
    latin_grid = _record("1 . . .\n. . . .\n. . . .\n. . . .\n", problem="latin")
    assert format_solution(latin_grid, SOLVED4).splitlines()[0] == "1 2 3 4"
    ints_grid = _record("10 " + "0 " * 9 + "\n" + ("0 " * 10 + "\n") * 9, problem="latin")
    assert ints_grid.style == "ints-grid"
    i, j = np.indices((10, 10))
    full = (i + j) % 10 + 1
    out = format_solution(ints_grid, full)
    assert out.splitlines()[0] == " 1  2  3  4  5  6  7  8  9 10"
    assert _record(out, problem="latin").instance.givens.tolist() == full.tolist()


def test_solution_pls_and_coloring():
    pls = _record("order 2\n0 -1\n-1 -1\n", problem="latin")
    assert format_solution(pls, [[1, 2], [2, 1]]) == "order 2\n   0   1\n   1   0"
    col = _record("p edge 3 2\nc colors 2\ne 1 2\ne 2 3\n", problem="coloring")
    assert format_solution(col, np.array([1, 2, 1])) == "1 2 1"


def test_format_instance():
    rec = _record(TOP1)
    assert format_instance(rec) == TOP1
    assert format_instance(rec.instance) == TOP1
    assert format_instance(rec, "grid").splitlines()[3] == "------+-------+------"
    assert format_instance(rec, "pls").startswith("order 9\n   3  -1")
    graph = precoloring(2, [(0, 1)], 2, {1: 2})
    assert format_instance(graph) == "p edge 2 1\nc colors 2\nc precolor 2 2\ne 1 2"
    assert format_instance(Record(graph, 1, "col"), None) == format_instance(graph)
    with pytest.raises(ValueError):
        format_instance(graph, "line")


def test_record_is_frozen():
    rec = _record(TOP1)
    assert isinstance(rec.instance, GridPuzzle)
    with pytest.raises(AttributeError):
        rec.line = 3


def test_read_real_files_by_extension():
    pls = data_path("latin", "gomes_lsencode_PLS", "qwh.order5.holes10.pls")
    col = data_path("coloring", "original_trick_rzepinskip", "myciel3.col")
    grids = data_path("sudoku", "9x9-norvig", "sudoku.txt")
    assert read_instances(str(pls))[0].instance.n == 5
    assert read_instances(str(col), colors=4)[0].instance.num_vertices == 11
    assert len(read_instances(str(grids))) == 50
