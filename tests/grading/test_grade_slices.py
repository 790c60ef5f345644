"""Grading in bounded slices (sudokit.grading.runs): the kernels return to Python between
slices of work, give the same answers as one uninterrupted call, and a per-puzzle time limit
gives up one puzzle while the others go on."""

from __future__ import annotations

import numpy as np
import pytest

import sudokit.grading.runs as runs
from sudokit.formats import parse_puzzles
from sudokit.grading import ORDER, grade_table, label_nodes, search_free_table
from sudokit.grading.domains import grid_tables, initial_domains
from sudokit.grading.lattice import scheme_flags
from sudokit.grading.search import label_count, status_batch

from ..helpers import data_path

HARD9 = "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5...."
EASY9 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


def _puzzles(*lines):
    return [r.instance for r in parse_puzzles("\n".join(lines))]


@pytest.fixture
def counted(monkeypatch):
    """One propagation (or node) per kernel call, and the calls counted."""
    calls = {"status": 0, "label": 0}
    status, label = runs.status_slice, runs.label_slice

    def status_slice(*args):
        calls["status"] += 1
        return status(*args)

    def label_slice(*args):
        calls["label"] += 1
        return label(*args)
    monkeypatch.setattr(runs, "SLICE_WORK", 1)
    monkeypatch.setattr(runs, "status_slice", status_slice)
    monkeypatch.setattr(runs, "label_slice", label_slice)
    return calls


def test_the_kernels_return_between_slices_with_the_answers_of_one_call(counted):
    puzzles = _puzzles(HARD9, EASY9)
    tables = grid_tables(puzzles[0])
    flags = np.array([scheme_flags(s) for s in ORDER], dtype=np.int64)
    whole = np.zeros((2, len(ORDER)), dtype=np.int8)
    status_batch(np.stack([initial_domains(p) for p in puzzles]), flags,
                 *tables.kernel_args(), tables.n, tables.full, whole)
    assert search_free_table(puzzles).tolist() == (whole == 1).tolist()
    # far more calls than (puzzle, scheme) pairs: the shaving schemes stop mid-way
    assert counted["status"] > 3 * whole.size
    nodes, _ = label_count(initial_domains(puzzles[0]), scheme_flags("HACSC3"),
                           *tables.kernel_args(), tables.n, tables.full, 10**7)
    assert label_nodes(puzzles[0]) == nodes
    assert counted["label"] >= nodes


def test_a_node_limit_still_holds_in_slices(counted):
    empty = _puzzles("." * 81)[0]
    assert label_nodes(empty, "FC", limit=5) == 5


def test_a_puzzle_past_its_time_limit_is_unknown_and_the_others_go_on():
    path = data_path("sudoku", "gecode-9-16-25", "sudoku25_gecode.txt")
    big = next(line for line in path.read_text().splitlines() if not line.startswith("#"))
    puzzles = _puzzles(EASY9, HARD9)
    puzzles[1:1] = _puzzles(big)
    # the 25x25 puzzle's node count runs for hours; its schemes take seconds
    graded = [grade_table([p], nodes=True, seconds=0.5) for p in puzzles]
    assert [g.unknown.tolist() for g in graded] == [[False], [True], [False]]
    assert graded[1].nodes.tolist() == [runs.NODES_UNKNOWN]
    assert not graded[1].decided.all()
    assert graded[0].nodes.tolist() == [1] and graded[0].search_free.all()
    assert graded[2].nodes.tolist() == [label_nodes(puzzles[2])]


def test_the_time_limit_is_per_puzzle_in_one_chunk():
    """Three hard 9x9 puzzles under a limit none of them needs: all decided."""
    puzzles = _puzzles(HARD9, HARD9, HARD9)
    graded = grade_table(puzzles, nodes=True, seconds=60)
    assert not graded.unknown.any()
    assert graded.search_free.tolist() == search_free_table(puzzles).tolist()
