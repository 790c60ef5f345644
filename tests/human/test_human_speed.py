"""The fast finders of sudokit.human (issue 30) give the answers of the straightforward ones.

Three guards: the solving paths of 80 puzzles of diabolical.txt are the ones main found
before the speed work (tests/human/human_paths.json, every field of every step); the
singles, locked candidates, subsets and fish agree step by step with the old loops
(tests/human/human_reference.py) on every board of real paths; and they agree on random
candidates (broken boards included, as forcing nets make them) of every layout: boxes,
Latin squares, a diagonal variant, a jigsaw, 6x6 and 16x16.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.formats import parse_puzzles
from sudokit.human import TECHNIQUES, solve_path
from sudokit.human.board import Board
from sudokit.human.facts import unit_facts
from sudokit.human.path import apply_step
from sudokit.instances import sudoku

from ..helpers import data_path
from . import human_reference as old
from .random_boards import LAYOUTS, random_board

FIXTURES = Path(__file__).resolve().parent

#: the finders this work changed, by technique name, with their reference
CHANGED = {
    "full-house": old.full_house, "hidden-single-box": old.hidden_single_box,
    "hidden-single": old.hidden_single, "naked-single": old.naked_single,
    "pointing": old.pointing, "claiming": old.claiming,
    "naked-pair": old.naked_pair, "naked-triple": old.naked_triple,
    "naked-quad": old.naked_quad, "hidden-pair": old.hidden_pair,
    "hidden-triple": old.hidden_triple, "hidden-quad": old.hidden_quad,
    "x-wing": old.x_wing, "swordfish": old.swordfish, "jellyfish": old.jellyfish,
}

#: the slower finders the chain speed work changed (checked on fewer boards)
CHAINS = {
    "turbot-fish": old.turbot_fish, "three-strong-links": old.three_strong_links,
    "x-chain": old.x_chain, "xy-chain": old.xy_chain, "aic": old.aic,
    "wxyz-wing": old.wxyz_wing, "vwxyz-wing": old.vwxyz_wing,
    "aligned-pair-exclusion": old.aligned_pair_exclusion,
    "forcing-chain": old.forcing_chain, "cell-forcing-chain": old.cell_forcing_chain,
    "unique-rectangle": old.unique_rectangle,
}


def _fixture():
    data_path("sudoku", "9x9-sudokuexchange", "diabolical.txt")    # the data it came from
    return json.loads((FIXTURES / "human_paths.json").read_text())


def _digest(steps) -> str:
    sys.path.insert(0, str(FIXTURES))
    try:
        from make_human_paths import digest
    finally:
        sys.path.remove(str(FIXTURES))
    return digest(steps)


def _same(board: Board, name: str) -> None:
    """The fast finder and the reference find the same step (text included)."""
    fast = TECHNIQUES[name].find(board)
    slow = {**CHANGED, **CHAINS}[name](board)
    assert fast == slow, name
    assert (fast and fast.text) == (slow and slow.text), name


def test_the_paths_of_80_diabolical_puzzles_are_main_s():
    paths = _fixture()
    assert len(paths) == 80
    for item in paths:
        path = solve_path(parse_puzzles(item["puzzle"])[0].instance)
        got = [f"{s.technique} {s.rating} {s.text}" for s in path.steps]
        assert got == item["steps"], item["puzzle"]
        assert path.solved == item["solved"]
        assert _digest(path.steps) == item["sha256"], item["puzzle"]


def test_the_changed_finders_agree_with_the_old_loops_on_real_paths():
    for item in _fixture()[::4]:                               # 20 puzzles, ~1,300 boards
        puzzle = parse_puzzles(item["puzzle"])[0].instance
        board = Board.of(puzzle)
        for step in solve_path(puzzle).steps:
            for name in CHANGED:
                _same(board, name)
            apply_step(board, step)


def test_the_chains_wings_and_forcing_chains_agree_with_the_old_loops_on_real_paths():
    """Every 4th board of 10 paths (the chains' boards are the late ones, so all of those)."""
    for item in _fixture()[2::8]:
        puzzle = parse_puzzles(item["puzzle"])[0].instance
        board = Board.of(puzzle)
        for number, step in enumerate(solve_path(puzzle).steps):
            if number % 4 == 0 or step.rating >= 4.0:
                for name in CHAINS:
                    _same(board, name)
            apply_step(board, step)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(["x9", "six", "jigsaw9", "sudoku9", "latin5"]),
       seed=st.integers(0, 2**32 - 1), density=st.floats(0.15, 0.5),
       empty=st.floats(0.0, 0.03))
def test_the_chains_wings_and_forcing_chains_agree_with_the_old_loops_on_random_boards(
        name, seed, density, empty):
    """Random candidates over the givens, as the test above (16x16 left out: slow)."""
    board = random_board(name, seed, density, empty)
    for technique in CHAINS:
        _same(board, technique)


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(sorted(LAYOUTS)), seed=st.integers(0, 2**32 - 1),
       density=st.floats(0.1, 0.7), empty=st.floats(0.0, 0.05))
def test_the_changed_finders_agree_with_the_old_loops_on_random_candidates(
        name, seed, density, empty):
    """Random candidates over the givens (a cell may have none: a broken board)."""
    board = random_board(name, seed, density, empty)
    for technique in CHANGED:
        if technique in ("pointing", "claiming") and not board.layout.has_boxes:
            continue
        _same(board, technique)


def test_facts_are_kept_for_the_candidates_and_dropped_when_they_change():
    board = Board.of(sudoku(np.zeros((9, 9), dtype=int)))
    first = board.kept(Board.unit_facts)
    assert board.kept(Board.unit_facts) is first
    board.eliminate(0, 5)
    again = board.kept(Board.unit_facts)
    assert again is not first
    assert again[0].places[4] == first[0].places[4] & ~1          # row 1 lost 5 at r1c1
    assert again[3] is first[3]             # row 4 did not change: the same facts, shared
    board.cands[80] = 0b11                  # written directly, as tests and nets do
    assert board.kept(Board.unit_facts)[8].cands[8] == 0b11


def test_unit_facts_tables_are_emptied_past_their_size(monkeypatch):
    from sudokit.human import facts

    monkeypatch.setattr(facts, "KEPT", 3)
    table: dict = {}
    for k in range(5):
        unit_facts(table, 4, (1 << (k % 4), 0b1111, 0b1111, 0b1111))
        assert len(table) <= 3


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_layouts_know_their_lines_and_each_unit_s_cells(name):
    layout = Board.of(LAYOUTS[name]).layout
    assert set(layout.lines) | set(layout.boxes) == set(range(len(layout.units)))
    assert not set(layout.lines) & set(layout.boxes)
    cands = list(range(layout.n * layout.n))
    assert all(get(cands) == unit for get, unit in zip(layout.unit_of, layout.units,
                                                        strict=True))
