"""CNF files with auxiliary variables declare their projection, so other tools count right.

Every encoding x at-most-one method is written as DIMACS, read back as a plain formula (as
another tool would) and counted projected on what the file declares: 288 for the empty 4x4
Sudoku, 576 for the Latin squares of order 4.
"""

from __future__ import annotations

import numpy as np
import pytest

from sudokit.encoders import (
    AMO_METHODS,
    completion_to_cnf,
    exact_cover_to_cnf,
    to_cnf,
    to_exact_cover,
)
from sudokit.formats import format_dimacs, parse_instances
from sudokit.instances import latin_square, sudoku
from sudokit.solvers import count_solutions

EMPTY4 = sudoku(np.zeros((4, 4), dtype=int))
LATIN4 = latin_square(np.zeros((4, 4), dtype=int))


def count_file(text: str) -> int:
    (record,) = parse_instances(text, "written.cnf", "cnf")
    return count_solutions(to_cnf(record.instance))


def declared(text: str, head: str) -> list[int]:
    lines = [line.split()[len(head.split()) + 1:] for line in text.splitlines()
             if line.startswith(f"c {head} ")]
    assert all(fields[-1] == "0" for fields in lines)
    return [int(v) for fields in lines for v in fields[:-1]]


@pytest.mark.parametrize("amo", list(AMO_METHODS))
@pytest.mark.parametrize("encoding", ["minimal", "efficient", "extended", "reduced"])
def test_written_sudoku_counts_288_under_every_encoding(encoding, amo):
    encoded = completion_to_cnf(EMPTY4, encoding, amo)
    text = format_dimacs(encoded.cnf)
    has_auxiliaries = encoded.cnf.num_vars > len(encoded.projection())
    assert ("c p show" in text) == has_auxiliaries == ("c ind" in text)
    if has_auxiliaries:
        assert declared(text, "p show") == declared(text, "ind") \
            == sorted(encoded.projection().tolist())
        assert max(len(line) for line in text.splitlines() if line.startswith("c ")) <= 110
    assert count_file(text) == 288


@pytest.mark.parametrize("amo", list(AMO_METHODS))
def test_written_latin_squares_count_576(amo):
    assert count_file(format_dimacs(completion_to_cnf(LATIN4, "extended", amo).cnf)) == 576


def test_written_exact_cover_cnf_declares_options():
    xc = to_exact_cover(LATIN4).xc
    text = format_dimacs(exact_cover_to_cnf(xc, amo="seqcounter").cnf)
    assert declared(text, "p show") == list(range(1, xc.num_options + 1))
    assert count_file(text) == 576

