"""The numpy CNF type and the DIMACS writer/reader."""

import io

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.cnf import CNF
from sudokit.encoders import grid_to_cnf
from sudokit.errors import ParseError
from sudokit.formats.dimacs import format_dimacs, parse_dimacs, write_dimacs
from sudokit.instances import sudoku


def test_var_block_maps_both_ways():
    cnf = CNF()
    cnf.new_vars(5)
    block = cnf.new_block("x", (3, 4, 2))
    assert block.first == 6 and block.last == 29 and cnf.num_vars == 29
    assert block[2, 3, 1] == 29
    assert block.index_of(-29) == (2, 3, 1)
    rows, cols, vals = block.index_of(np.array([6, 7]))
    assert rows.tolist() == [0, 0] and vals.tolist() == [0, 1]


def test_stats_per_group():
    cnf = grid_to_cnf(sudoku(np.zeros((4, 4), dtype=int)), "extended", "seqcounter").cnf
    stats = cnf.stats()
    assert stats["cell values"]["variables"] == 64
    assert stats["cell definedness"] == {"variables": 0, "clauses": 16, "literals": 64}
    assert sum(s["clauses"] for s in stats.values()) == cnf.num_clauses
    assert sum(s["variables"] for s in stats.values()) == cnf.num_vars


clause_lists = st.lists(st.lists(st.integers(1, 30).flatmap(
    lambda v: st.sampled_from([v, -v])), max_size=6), max_size=40)


@settings(max_examples=60, deadline=None)
@given(clause_lists)
def test_dimacs_round_trip(clauses):
    cnf = CNF(num_vars=30, comments=["made by a test"])
    cnf.add_clauses("g", clauses)
    text = format_dimacs(cnf)
    assert text.count("\n") == 2 + len(clauses)
    back = parse_dimacs(text)
    assert back.num_vars == 30 and back.comments == ["made by a test"]
    assert sorted(back.clauses()) == sorted(clauses)


def test_writer_matches_naive_rendering_on_a_real_encoding():
    cnf = grid_to_cnf(sudoku(np.zeros((9, 9), dtype=int)), "extended", "seqcounter").cnf
    buffer = io.BytesIO()
    write_dimacs(cnf, buffer, chunk_rows=1000)
    body = buffer.getvalue().decode().split("\n", len(cnf.all_comments()) + 1)[-1]
    naive = "".join(" ".join(map(str, c)) + " 0\n" for c in cnf.clauses())
    assert body == naive


def test_reader_accepts_other_tools_dimacs():
    text = "c from elsewhere\np cnf 3 3\n1 -2\n 3 0 -1 0\n\nc mid\n2 3 0\n%\n0\n"
    assert sorted(parse_dimacs(text).clauses()) == [[-1], [1, -2, 3], [2, 3]]
    assert parse_dimacs("p cnf 2 1\n1 2").clauses() == [[1, 2]]


@pytest.mark.parametrize("text, message", [
    ("1 2 0\n", "before the 'p cnf' header"),
    ("p cnf x 1\n", "malformed header"),
    ("p cnf 2 1\n1 a 0\n", "not an integer literal: 'a'"),
    ("p cnf 2 1\n1 3 0\n", "exceeds the 2 variables"),
    ("p cnf 2 2\n1 2 0\n", "announces 2 clauses, found 1"),
    ("c nothing\n", "no 'p cnf' header"),
])
def test_reader_errors_name_the_problem(text, message):
    with pytest.raises(ParseError, match=message):
        parse_dimacs(text, "f.cnf")


def test_reader_error_has_line_and_column():
    with pytest.raises(ParseError) as info:
        parse_dimacs("p cnf 2 1\n1 zz 0\n", "f.cnf")
    assert str(info.value).startswith("f.cnf:2:3:")


def test_empty_clause_is_written_and_read():
    cnf = CNF(num_vars=1)
    cnf.add_clauses("g", [[1], []])
    assert parse_dimacs(format_dimacs(cnf)).has_empty_clause
