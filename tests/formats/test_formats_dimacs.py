"""Reading DIMACS CNF as a formula instance: projection lines, limits, located errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.errors import ParseError
from sudokit.formats import dimacs, parse_instances
from sudokit.formats.dimacs import MAX_FORMULA_VARS, MAX_VARS, parse_dimacs

BODY = "p cnf 3 2\n1 2 0\n-3 0\n"


def projection(text: str) -> list[int]:
    return parse_instances(text, "f.cnf", "cnf")[0].instance.projection.tolist()


def error(text: str, reader=None) -> str:
    with pytest.raises(ParseError) as info:
        (reader or (lambda t: parse_instances(t, "f.cnf", "cnf")))(text)
    return str(info.value)


# -- projection lines ---------------------------------------------------------------------------

def test_projection_lines_in_both_conventions_and_wrapped():
    assert projection(BODY) == [1, 2, 3]
    assert projection("c p show 1 0\nc p show 3 0\n" + BODY) == [1, 3]
    assert projection("c ind 2 0\n" + BODY) == [2]
    assert projection(BODY + "c ind 3 1 0\n") == [1, 3]
    assert projection("cp show 2 0\ncind 3 0\n" + BODY) == [2, 3]
    assert projection("c p show 0\n" + BODY) == []


@pytest.mark.parametrize("line, message", [
    ("c p show 1 x 0", "f.cnf:1:12: projection variable 'x' is not an integer"),
    ("c p show 1 2", "f.cnf:1:13: a projection line must end with 0"),
    ("c ind 1 2", "f.cnf:1:10: a projection line must end with 0"),
    ("c ind", "f.cnf:1:6: a projection line must end with 0"),
    ("c p show 4 0", "f.cnf:1:10: projection variable 4 is outside 1..3"),
    ("c ind -1 0", "f.cnf:1:7: projection variable -1 is outside 1..3"),
    ("c ind 1 0 2 0", "f.cnf:1:9: projection variable 0 is outside 1..3"),
    ("  c ind 1 \u00b2 0", "f.cnf:1:11: projection variable '\u00b2' is not an integer"),
])
def test_a_malformed_projection_line_is_an_error(line, message):
    assert error(line + "\n" + BODY) == message


def test_a_projection_error_after_the_header_has_its_own_line():
    assert error(BODY + "c p show 1 x 0\n") == "f.cnf:4:12: projection variable 'x' is not an " \
                                              "integer"


@pytest.mark.parametrize("comment", ["c pshow 1 x", "c p showing 1 x", "c index 1 x",
                                     "c independent set", "c p", "c show 1 x 0", "c"])
def test_other_comments_stay_comments(comment):
    assert projection(comment + "\n" + BODY) == [1, 2, 3]


# -- sizes and literals -------------------------------------------------------------------------

def test_too_many_variables_is_a_located_error():
    assert error("p cnf 99999999999 1\n1 0\n") == (
        "f.cnf:1:7: the header declares 99999999999 variables; a literal must fit a signed "
        f"32-bit integer, so at most {MAX_VARS}")
    assert error(f"c x\np  cnf {MAX_VARS + 1} 0\n", parse_dimacs).startswith("<string>:2:8: ")
    assert parse_dimacs(f"p cnf {MAX_VARS} 1\n1 -{MAX_VARS} 0\n").num_vars == MAX_VARS


def test_a_formula_instance_has_a_memory_bound():
    assert error(f"p cnf {MAX_FORMULA_VARS + 1} 0\n") == (
        f"f.cnf:1:7: the header declares {MAX_FORMULA_VARS + 1} variables; a formula may have "
        f"at most {MAX_FORMULA_VARS} (each takes memory, used or not)")


@pytest.mark.parametrize("clauses, message", [
    ("1 0\n2 99999999999999999999 0", "f.cnf:3:3: literal 99999999999999999999 exceeds the 3 "
                                      "variables of the header"),
    ("1 -9223372036854775808 0\n2 0", "f.cnf:2:3: literal -9223372036854775808 exceeds"),
    ("1 0\n  -4 0", "f.cnf:3:3: literal -4 exceeds the 3 variables of the header"),
    ("1 \u00b2 0\n2 0", "f.cnf:2:3: not an integer literal: '\u00b2'"),
    ("1 +-3 0\n2 0", "f.cnf:2:3: not an integer literal: '+-3'"),
    ("1 0\x0c2 x 0", "f.cnf:2:7: not an integer literal: 'x'"),
])
def test_bad_literals_are_located(clauses, message):
    assert error("p cnf 3 2\n" + clauses + "\n").startswith(message)


def test_form_feed_does_not_end_a_line():
    assert parse_dimacs("p cnf 2 1\n1\x0c2 0\n").clauses() == [[1, 2]]


# -- the fast reader agrees with the line reader --------------------------------------------

_TOKENS = st.sampled_from(["1", "-1", "2", "-3", "0", "+2", "-0", "3", "-", "x", "1.5", "4",
                           "99999999999999999999", "-9223372036854775808", "c", "%", "p"])
_SPACE = st.sampled_from([" ", "  ", "\t", "\n", "\r\n", "\n\n", "\v", " \n "])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_TOKENS, _SPACE), max_size=30),
       st.sampled_from(["p cnf 3 2\n", "c x\np cnf 4 3\n", "p cnf 3 0\n", ""]))
def test_the_fast_reader_agrees_with_the_line_reader(pairs, head):
    """Whatever the clause text, the fast road gives the line reader's formula, or leaves
    the text to it (which then says where it is wrong)."""
    text = head + "".join(token + space for token, space in pairs)
    try:
        slow = dimacs._read_lines(text, "f.cnf")
    except ParseError as err:
        slow = err
    try:
        fast = dimacs._read_fast(text, "f.cnf")
    except ParseError as err:
        assert isinstance(slow, ParseError) and str(err) == str(slow)
        return
    if fast is None:
        return
    assert not isinstance(slow, ParseError), (text, slow)
    assert fast.cnf.clauses() == slow.cnf.clauses() and fast.header == slow.header


def test_a_plain_formula_takes_the_fast_road():
    """What encoders and solvers write (comments, then the header, then clauses) is read in
    one C tokenising pass (benchmarks/dimacs_read.py: on par with PySAT's reader)."""
    text = "c made by sudokit\nc p show 1 2 0\np cnf 3 2\n1 -2 0\n2 3 -1\n0\n"
    read = dimacs._read_fast(text, "f.cnf")
    assert read is not None and read.cnf.clauses() == [[1, -2], [2, 3, -1]]
    assert read.projection == [(2, "c p show 1 2 0")]
    assert dimacs._read_fast("p cnf 2 1\nc late comment\n1 0\n", "f.cnf") is None
