"""The .pls partial Latin square format."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import InstanceError, ParseError
from sudokit.formats import format_pls, parse_pls
from sudokit.instances import latin_square

from ..helpers import data_path

SMALL = "order 3\n 0 -1 2\n-1 -1 -1\n 2  0 -1\n"


def test_parse_small():
    rec = parse_pls(SMALL, "s.pls")
    assert rec.style == "pls" and rec.line == 1 and rec.instance.box is None
    assert rec.instance.givens.tolist() == [[1, 0, 3], [0, 0, 0], [3, 1, 0]]


def test_leading_blank_lines_and_crlf():
    rec = parse_pls("\r\n\r\n" + SMALL.replace("\n", "\r\n") + "\r\n", "s.pls")
    assert rec.line == 3 and rec.instance.n == 3


def test_format_matches_data_layout():
    assert format_pls(parse_pls(SMALL).instance) == (
        "order 3\n   0  -1   2\n  -1  -1  -1\n   2   0  -1")


@pytest.mark.parametrize("text,message", [
    ("", "s.pls: empty input, no instance found"),
    ("  \n \n", "s.pls: empty input, no instance found"),
    ("size 3\n0 1 2\n", "s.pls:1:1: expected 'order N' as the first line, got 'size 3'"),
    ("order\n0\n", "s.pls:1:1: expected 'order N' as the first line, got 'order'"),
    ("order x\n0\n", "s.pls:1:7: order must be a positive integer, got 'x'"),
    ("order 0\n", "s.pls:1:7: order must be a positive integer, got '0'"),
    ("order 2\n0 1\n", "s.pls:2: order 2 needs 2 rows, found 1"),
    ("order 2\n0 1\n1 0\n-1 -1\n", "s.pls:4: order 2 needs 2 rows, found 3"),
    ("order 2\n0 1\n1\n", "s.pls:3: row has 1 entries; order 2 needs 2"),
    ("order 2\n0 1\n1 a\n", "s.pls:3:3: 'a' is not an integer"),
    ("order 2\n0 1\n1 2\n", "s.pls:3:3: value 2 is outside -1..1 (-1 is a hole)"),
    ("order 2\n0 -2\n1 0\n", "s.pls:2:3: value -2 is outside -1..1 (-1 is a hole)"),
])
def test_errors(text, message):
    with pytest.raises(ParseError) as info:
        parse_pls(text, "s.pls")
    assert str(info.value) == message


def test_repeat_is_instance_error_in_the_files_numbering():
    with pytest.raises(InstanceError) as info:
        parse_pls("order 2\n0 -1\n0 -1\n", "r.pls")
    assert str(info.value) == ("r.pls:3:1: value 0 at row 2, column 1 repeats in column 1 "
                               "(also at row 1, column 1)")
    with pytest.raises(InstanceError) as info:
        parse_pls("order 3\n-1 -1 -1\n 2 -1  2\n-1 -1 -1\n", "r.pls")
    assert str(info.value) == ("r.pls:3:8: value 2 at row 2, column 3 repeats in row 2 "
                               "(also at row 2, column 1)")


def test_repeat_of_the_tester():
    with pytest.raises(InstanceError, match=r"^x.pls:2:3: value 0 at row 1, column 2 repeats"):
        parse_pls("order 2\n0 0\n-1 -1\n", "x.pls")


def test_repeats_are_fine_in_a_candidate_solution():
    rec = parse_pls("order 2\n0 0\n1 1\n", validate=False)
    assert rec.instance.givens.tolist() == [[1, 1], [2, 2]]


@pytest.mark.parametrize("text, message", [
    ("order \u00b2\n0\n", "x.pls:1:7: order must be a positive integer, got '\u00b2'"),
    ("order 1\n\u0663\n", "x.pls:2:1: '\u0663' is not an integer"),
    ("order order\n0\n", "x.pls:1:7: order must be a positive integer, got 'order'"),
])
def test_odd_tokens_are_parse_errors(text, message):
    with pytest.raises(ParseError) as info:
        parse_pls(text, "x.pls")
    assert str(info.value) == message


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(0, 2**32 - 1), st.floats(0, 1))
def test_round_trip(n, seed, density):
    rng = np.random.default_rng(seed)
    i, j = np.indices((n, n))
    full = rng.permutation(n)[(i + j) % n] + 1
    puzzle = latin_square(np.where(rng.random((n, n)) < density, full, 0))
    assert parse_pls(format_pls(puzzle) + "\n").instance == puzzle


def _folder(name: str) -> Path:
    return data_path("latin", name)


@pytest.mark.parametrize("name", ["qwh30_42pct_zanarini_pesant", "qcp_csp2009_minizinc"])
def test_data_with_index(name):
    folder = _folder(name)
    with open(folder / "index.csv", newline="") as handle:
        index = {row["file"]: (int(row["order"]), int(row["holes"]))
                 for row in csv.DictReader(handle)}
    files = sorted(folder.glob("*.pls"))
    assert len(files) == len(index) > 0
    for path in files:
        puzzle = parse_pls(path.read_text(), path.name).instance
        order, holes = index[path.name]
        assert (puzzle.n, puzzle.n * puzzle.n - puzzle.num_givens) == (order, holes), path.name


def test_gomes_data():
    files = sorted(_folder("gomes_lsencode_PLS").glob("*.pls"))
    assert len(files) == 26
    for path in files:
        text = path.read_text()
        puzzle = parse_pls(text, path.name).instance
        assert puzzle.n == int(text.split()[1])
        assert puzzle.n * puzzle.n - puzzle.num_givens == text.split().count("-1")
    # the header wins over the file name
    header_wins = _folder("gomes_lsencode_PLS") / "qwh.order10.holes10.pls"
    assert parse_pls(header_wins.read_text()).instance.n == 5
