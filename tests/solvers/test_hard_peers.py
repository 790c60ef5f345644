"""The peers of benchmarks/hard_instances.py (a direct CP-SAT model, CaDiCaL on a plain CNF)
answer what sudokit's engines answer: the benchmark's comparisons rest on them."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from sudokit.instances import latin_square, sudoku
from sudokit.solvers import open_engine

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
hard_peers = pytest.importorskip("hard_peers")

CASES = [
    (np.zeros((3, 3), dtype=int), None),                       # 12 Latin squares
    (np.array([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]]), (2, 2)),
    (np.array([[1, 0], [0, 2]]), None),                        # no solution
]


@pytest.mark.parametrize("givens,box", CASES)
@pytest.mark.parametrize("limit", [1, 2])
def test_the_peers_count_to_the_limit_as_sudokit_does(givens, box, limit):
    pytest.importorskip("ortools")
    instance = latin_square(givens) if box is None else sudoku(givens)
    with open_engine("dlx") as dlx:
        expected = min(dlx.count(instance)[0], limit)
    for peer in (hard_peers.cadical_count(givens, box, limit, 60.0),
                 hard_peers.cpsat_count(givens, box, limit, 60.0, workers=1)):
        count, first, decided = peer
        assert decided and count == expected
        assert (first is None) == (expected == 0)
        if first is not None:
            assert instance.is_solution(first)
