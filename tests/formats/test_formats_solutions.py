"""Candidate solutions of every kind, and Knuth's DLX text: located errors, editor line numbers."""

from __future__ import annotations

import numpy as np
import pytest

from sudokit.errors import ParseError
from sudokit.formats import parse_dlx, parse_instances, parse_solutions
from sudokit.formats.textio import MAX_INT

GRAPH = parse_instances("p edge 3 2\nc colors 2\ne 1 2\ne 2 3\n", "g.col", "coloring")[0].instance
FORMULA = parse_instances("p cnf 2 1\n1 2 0\n", "f.cnf", "cnf")[0].instance
COVER = parse_dlx("a b\na\nb\na b\n").instance


def error(text: str, instance) -> str:
    with pytest.raises(ParseError) as info:
        parse_solutions(text, "s.txt", instance)
    return str(info.value)


def test_colorings_and_models_are_read():
    assert [c.tolist() for c in parse_solutions("# c\n1 2 1\n\n2 1 2\n", "s", GRAPH)] == \
        [[1, 2, 1], [2, 1, 2]]
    (model,) = parse_solutions("s SATISFIABLE\nv 1 -2\nv 0\n", "s", FORMULA)
    assert model.tolist() == [1, -2, 0]


@pytest.mark.parametrize("text, message", [
    ("1 \u00b2 1", "s.txt:1:3: not an integer: '\u00b2'"),
    ("1 --2 1", "s.txt:1:3: not an integer: '--2'"),
    ("# c\n1 2 99999999999999999999", f"s.txt:2:5: 99999999999999999999 is outside "
                                     f"-{MAX_INT}..{MAX_INT}"),
    ("1 2\x0c3\n1 x", "s.txt:2:3: not an integer: 'x'"),
])
def test_bad_colorings_are_located(text, message):
    assert error(text, GRAPH) == message


def test_bad_model_lines_keep_their_own_line_and_column():
    assert error("c solver\ns SATISFIABLE\nv 1 x 0\n", FORMULA) == \
        "s.txt:3:5: not an integer: 'x'"
    assert error("s SATISFIABLE\nv 1 -2\nv 9223372036854775808 0\n", FORMULA).startswith(
        "s.txt:3:3: 9223372036854775808 is outside")


def test_covers_count_lines_as_an_editor_does():
    covers = parse_solutions("a\x0cb\n\na\nb\n", "s", COVER)
    assert [c.tolist() for c in covers] == [[2], [0, 1]]
    assert error("a\x0cb\nb a c\n", COVER) == "s.txt:2:1: no option covers exactly the items b a c"


def test_dlx_errors_count_lines_as_an_editor_does():
    with pytest.raises(ParseError) as info:
        parse_dlx("a b\x0c| c\na\nz\n", "k.dlx")
    assert str(info.value) == "k.dlx:3:1: unknown item 'z'"
    assert np.array_equal(parse_dlx("a b\r\na\r\n").instance.option_items, [0])
