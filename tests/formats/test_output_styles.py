"""The output styles registry (``sudokit.formats.styles``): one entry per layout, read by the
formats and the command line."""

from __future__ import annotations

import numpy as np
import pytest

from sudokit.cli.output import ZERO_BASED_STYLES, speak_values, written_value
from sudokit.formats import (
    STYLES,
    Record,
    format_instance,
    format_no_solution,
    format_solution,
    output_style,
    parse_instances,
)
from sudokit.formats.puzzle_write import VariantHeaders
from sudokit.instances import latin_square, sudoku
from sudokit.problems import PROBLEMS, resolve

SQUARE = latin_square(np.array([[1, 0], [0, 0]]))


def test_every_writer_reference_resolves():
    for style in STYLES.values():
        assert callable(resolve(style.writer)) and callable(resolve(style.solution_writer))


def test_every_kind_writes_in_a_registered_style():
    for kind in PROBLEMS.values():
        assert kind.default_style in STYLES and kind.target_style in STYLES


@pytest.mark.parametrize("text, problem, style", [
    ("1...\n", "latin", "line"), ("1 0 0 0\n", "latin", "ints-line"),
    ("1 .\n. .\n", "latin", "grid"), ("order 2\n0 -1\n-1 -1\n", "latin", "pls"),
    ("p edge 2 1\nc colors 2\ne 1 2\n", "coloring", "col"), ("p cnf 1 1\n1 0\n", "cnf", "dimacs"),
    ("| a\na\n", "xc", "dlx"),
])
def test_parsers_report_registered_styles(text, problem, style):
    record = parse_instances(text, problem=problem)[0]
    assert record.style == style and record.style in STYLES


def test_fields_say_what_the_writers_of_answers_need():
    assert [name for name, style in STYLES.items() if style.between] == ["grid", "ints-grid"]
    assert [name for name, style in STYLES.items() if style.after_solution] == ["dlx"]
    assert [name for name, style in STYLES.items() if style.one_line] == ["line", "ints-line"]
    assert ZERO_BASED_STYLES == {"pls"}
    assert format_no_solution(Record(None, 1, "dimacs"), "unknown") == "s UNKNOWN"
    assert format_no_solution(Record(None, 1, "col"), "unsat") == "no solution"


def test_values_are_numbered_as_the_style_numbers_them():
    assert written_value("pls", np.array([1, 3])).tolist() == [0, 2]
    assert written_value("line", 3) == 3
    assert speak_values("value 3 repeats in row 1", "pls") == "value 2 repeats in row 1"


def test_only_puzzle_text_takes_variant_headers():
    x = sudoku(np.zeros((4, 4), dtype=int), variants=["x"])
    assert VariantHeaders().before(x, "grid") == "# variant: diagonal\n"
    assert VariantHeaders().before(x, "pls") == ""


def test_a_style_sudokit_does_not_know_is_refused_by_its_writers():
    odd = output_style("odd")
    assert odd.name == "odd" and not odd.zero_based and not odd.headers and not odd.between
    with pytest.raises(ValueError, match="unknown puzzle style 'odd'"):
        format_instance(SQUARE, "odd")
    with pytest.raises(ValueError, match="unknown puzzle style 'odd'"):
        format_solution(Record(SQUARE, 1, "odd"), [[1, 2], [2, 1]])
    assert format_no_solution(Record(SQUARE, 1, "odd"), "unsat") == "no solution"
    with pytest.raises(ValueError, match="is for grid puzzles"):
        format_instance(parse_instances("| a\na\n", problem="xc")[0].instance, "grid")
