"""The compiled set searches (sudokit.human.set_kernel) find the steps the Python finders did.

Each finder that runs a kernel is compared, step for step (text included), with its code as
it was before (tests/human/set_reference.py, human_reference.py) on the boards of real
paths (puzzles of diabolical.txt, every board on the way), on random candidates of every
layout (hypothesis), and with its own plain loops (what runs past the kernel's largest
side).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.formats import parse_puzzles
from sudokit.human import TECHNIQUES, exclusion, fish, intersections, solve_path, subsets, wings
from sudokit.human.board import Board
from sudokit.human.path import apply_step
from sudokit.human.set_kernel import direct_hidden_find
from sudokit.human.tables import cands_array, layout_arrays

from ..helpers import data_path
from . import human_reference as old
from . import set_reference as before
from .random_boards import LAYOUTS, random_board

#: the cheap finders (tried at almost every step), by technique name, with their reference
CHEAP = {
    "direct-pointing": before.direct_pointing, "direct-claiming": before.direct_claiming,
    "direct-hidden-pair": before.direct_hidden_pair,
    "direct-hidden-triple": before.direct_hidden_triple,
    "pointing": old.pointing, "claiming": old.claiming,
    "naked-pair": old.naked_pair, "naked-triple": old.naked_triple,
    "naked-quad": old.naked_quad, "hidden-pair": old.hidden_pair,
    "hidden-triple": old.hidden_triple, "hidden-quad": old.hidden_quad,
    "x-wing": old.x_wing, "swordfish": old.swordfish, "jellyfish": old.jellyfish,
}

#: the slower ones (checked on fewer boards)
SLOW = {
    "wxyz-wing": old.wxyz_wing, "vwxyz-wing": old.vwxyz_wing,
    "aligned-pair-exclusion": old.aligned_pair_exclusion,
}

#: the module whose MAX_SIDE sends each finder to its plain loops
MODULES = {"direct-pointing": intersections, "direct-claiming": intersections,
           "direct-hidden-pair": subsets, "direct-hidden-triple": subsets,
           "pointing": intersections, "claiming": intersections,
           "x-wing": fish, "swordfish": fish, "jellyfish": fish,
           **{f"{kind}-{size}": subsets for kind in ("naked", "hidden")
              for size in ("pair", "triple", "quad")},
           "wxyz-wing": wings, "vwxyz-wing": wings, "aligned-pair-exclusion": exclusion}

BOXED = ("direct-pointing", "direct-claiming", "pointing", "claiming")


def _same(board: Board, name: str, monkeypatch=None) -> None:
    """The finder, its reference and (with ``monkeypatch``) its plain loops agree."""
    fast = TECHNIQUES[name].find(board)
    slow = {**CHEAP, **SLOW}[name](board)
    assert fast == slow, name
    assert (fast and fast.text) == (slow and slow.text), name
    if monkeypatch is not None:
        with monkeypatch.context() as patched:
            patched.setattr(MODULES[name], "MAX_SIDE", 0)
            loops = TECHNIQUES[name].find(board)
        assert loops == slow and (loops and loops.text) == (slow and slow.text), name


def _paths(every: int, start: int):
    """Puzzles of diabolical.txt (every ``every``-th from ``start``) and their paths."""
    lines = data_path("sudoku", "9x9-sudokuexchange", "diabolical.txt").read_text().splitlines()
    for line in lines[start::every]:
        puzzle = parse_puzzles(line.split()[1])[0].instance
        yield puzzle, solve_path(puzzle).steps


def test_the_cheap_finders_agree_with_the_python_ones_on_real_paths():
    """Every board of 40 paths (about 2,700 boards)."""
    found = dict.fromkeys(CHEAP, 0)
    for puzzle, steps in _paths(1000, 11):
        board = Board.of(puzzle)
        for step in steps:
            for name in CHEAP:
                _same(board, name)
                found[name] += TECHNIQUES[name].find(board) is not None
            apply_step(board, step)
    assert all(found.values()), found            # each finder found steps on the way


def test_the_wings_and_exclusion_agree_with_the_python_ones_on_real_paths():
    """Every 3rd board of 12 paths, and every board past the basic techniques."""
    found = dict.fromkeys(SLOW, 0)
    for puzzle, steps in _paths(3300, 5):
        board = Board.of(puzzle)
        for number, step in enumerate(steps):
            if number % 3 == 0 or step.rating >= 4.0:
                for name in SLOW:
                    _same(board, name)
                    found[name] += TECHNIQUES[name].find(board) is not None
            apply_step(board, step)
    assert all(found.values()), found


def test_the_plain_loops_agree_on_a_real_path(monkeypatch):
    """What runs past the kernels' largest side: the same steps (one path, every board)."""
    puzzle, steps = next(_paths(1, 1234))
    board = Board.of(puzzle)
    for step in steps:
        for name in {**CHEAP, **SLOW}:
            _same(board, name, monkeypatch)
        apply_step(board, step)


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(sorted(LAYOUTS)), seed=st.integers(0, 2**32 - 1),
       density=st.floats(0.1, 0.7), empty=st.floats(0.0, 0.05))
def test_the_cheap_finders_agree_on_random_candidates(name, seed, density, empty):
    """Random candidates over the givens of every layout (broken boards included)."""
    board = random_board(name, seed, density, empty)
    for technique in CHEAP:
        if technique in BOXED and not board.layout.has_boxes:
            continue
        _same(board, technique)


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(["x9", "six", "jigsaw9", "sudoku9", "latin5"]),
       seed=st.integers(0, 2**32 - 1), density=st.floats(0.15, 0.5),
       empty=st.floats(0.0, 0.03))
def test_the_wings_and_exclusion_agree_on_random_candidates(name, seed, density, empty):
    """As above, 16x16 left out (the references are slow there)."""
    board = random_board(name, seed, density, empty)
    for technique in SLOW:
        _same(board, technique)


@pytest.mark.parametrize("name", ["x9", "jigsaw9", "latin5", "janko16"])
def test_the_plain_loops_agree_on_random_candidates_of_every_layout(name, monkeypatch):
    for seed in range(15):
        board = random_board(name, seed, 0.2 + 0.03 * seed, 0.02)
        for technique in CHEAP if name == "janko16" else {**CHEAP, **SLOW}:
            if technique in BOXED and not board.layout.has_boxes:
                continue
            _same(board, technique, monkeypatch)


def test_a_value_left_without_a_place_reads_the_unit_s_last_cell():
    """On a broken unit (three values in two cells) the Python finder placed the value in
    the unit's last cell (``unit[-1]``); the kernel answers the same."""
    board = Board.of(LAYOUTS["latin5"])
    for cell in range(2, 5):
        board.cands[cell] = 0b11000
    board.cands[0] = board.cands[1] = 0b00111          # 1,2 in r1c1 r1c2; 3 there too
    found = direct_hidden_find(board.kept(cands_array), layout_arrays(board.layout).units,
                               5, 2).tolist()
    assert found == [0, 0b11, 0b11, 3, 4]
    assert TECHNIQUES["direct-hidden-pair"].find(board) == before.direct_hidden_pair(board)


def test_the_layout_arrays_are_the_layout_s():
    for name, puzzle in LAYOUTS.items():
        layout = Board.of(puzzle).layout
        arrays = layout_arrays(layout)
        assert layout_arrays(layout) is arrays, name
        assert arrays.units.tolist() == [list(u) for u in layout.units]
        for cell, units in enumerate(layout.cell_units):
            assert [u for u in arrays.cell_units[cell] if u >= 0] == list(units)
            assert set(np.flatnonzero(arrays.peer[cell])) == layout.peers[cell]
            assert set(np.flatnonzero(arrays.member[:, cell])) == set(units)
        assert len(set(arrays.kind.tolist())) == len(set(layout.kind))
