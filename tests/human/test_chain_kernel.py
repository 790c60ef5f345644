"""The compiled chain kernels (sudokit/human/chain_kernel.py) find what the Python finders
they replaced found, step for step and text for text.

The references are the Python finders kept in tests/human/human_reference.py (the chain
search, the forcing chains and their implications, the Y-cycles, simple colouring). Two
sources of boards: real ones, every other board of the late part of the paths of 8
diabolical.txt puzzles that the 80 fixture paths do not hold (chains only show there), and
random candidates over the givens of every layout (boxes, Latin squares, a diagonal
variant, a jigsaw, 6x6, 16x16), broken boards included.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit.formats import parse_puzzles
from sudokit.human import TECHNIQUES, solve_path
from sudokit.human.board import Board
from sudokit.human.chain_kernel import (
    cands_array,
    peer_table,
    set_order_holds,
    strong_rows,
    strong_rows_kernel,
    unit_table,
)
from sudokit.human.chains import chain_search
from sudokit.human.forcing import _implied  # noqa: PLC2701 - the kept walk under test
from sudokit.human.links import Links
from sudokit.human.path import apply_step

from ..helpers import data_path
from . import human_reference as old
from .random_boards import LAYOUTS, random_board

#: each technique moved to a kernel, with the Python finder it replaced
KERNELS = {
    "turbot-fish": old.turbot_fish, "three-strong-links": old.three_strong_links,
    "x-chain": old.x_chain, "xy-chain": old.xy_chain, "aic": old.aic,
    "y-cycle": old.y_cycle, "forcing-chain": old.forcing_chain,
    "cell-forcing-chain": old.cell_forcing_chain, "simple-colouring": old.simple_colouring,
}


def _same(board: Board, name: str) -> None:
    fast = TECHNIQUES[name].find(board)
    slow = KERNELS[name](board)
    assert fast == slow, name
    assert (fast and fast.text) == (slow and slow.text), name


def _same_implications(board: Board, starts) -> None:
    """The kernel's implications, kept as dicts, hold the nodes of the Python walk in its
    order (the cell forcing chains pick among them in that order)."""
    links = Links(board)
    for start in starts:
        on, off, clash = _implied(links, start)
        ref_on, ref_off, ref_clash = old.implications(links, start)
        assert list(on.items()) == list(ref_on.items())
        assert list(off.items()) == list(ref_off.items())
        assert clash == ref_clash


def _real_boards():
    """Boards of the late part of 8 paths of diabolical.txt, not the fixture's."""
    path = data_path("sudoku", "9x9-sudokuexchange", "diabolical.txt")
    lines = path.read_text().splitlines()[1013::4001][:8]
    for line in lines:
        puzzle = parse_puzzles(line.split()[1])[0].instance
        board = Board.of(puzzle)
        steps = solve_path(puzzle).steps
        late = next((k for k, s in enumerate(steps) if s.rating >= 4.0), len(steps))
        for number, step in enumerate(steps):
            if number >= late and number % 2 == 0:
                yield board
            apply_step(board, step)


def test_the_kernels_agree_with_the_python_finders_on_real_boards():
    boards = 0
    for board in _real_boards():
        boards += 1
        for name in KERNELS:
            _same(board, name)
        n = board.n
        _same_implications(board, [c * n + v for c, m in enumerate(board.cands)
                                   for v in range(n) if m >> v & 1][::3])
    assert boards >= 60


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(["x9", "six", "jigsaw9", "sudoku9", "latin5"]),
       seed=st.integers(0, 2**32 - 1), density=st.floats(0.15, 0.5),
       empty=st.floats(0.0, 0.03))
def test_the_kernels_agree_with_the_python_finders_on_random_boards(name, seed, density,
                                                                    empty):
    board = random_board(name, seed, density, empty)
    for technique in KERNELS:
        _same(board, technique)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), density=st.floats(0.1, 0.3))
def test_the_kernels_agree_on_16x16_boards(seed, density):
    board = random_board("janko16", seed, density, 0.0)
    for technique in ("x-chain", "xy-chain", "turbot-fish", "y-cycle", "simple-colouring"):
        _same(board, technique)
    n = board.n
    _same_implications(board, [c * n + v for c, m in enumerate(board.cands)
                               for v in range(n) if m >> v & 1][::7])


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_strong_rows_hold_each_node_s_links_in_the_python_order(name):
    assert set_order_holds() or sys.implementation.name != "cpython"   # the kernel's rows
    board = random_board(name, 7, 0.35, 0.0)
    links = Links(board)
    nodes = len(board.cands) * board.n
    for cells, units in ((True, False), (False, True), (True, True)):
        sptr, sdat = strong_rows(links, cells, units)
        assert len(sptr) == nodes + 1
        of = links.strong_list(cells, units)
        for nd in range(nodes):
            assert sdat[sptr[nd]:sptr[nd + 1]].tolist() == of(nd)
    assert cands_array(links).tolist() == board.cands
    peers, npeers = peer_table(board.layout)
    assert [peers[c, :npeers[c]].tolist() for c in range(len(board.cands))] == \
        [list(p) for p in board.layout.peers]


def test_a_chain_search_counts_its_nodes_up_to_the_bound():
    """``max_nodes`` bounds the chain: the turbot fish of the doctest is not found with
    three candidates, and is with four."""
    p = parse_puzzles("2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...2"
                      "1.......5.6.9.2.1...3.6.2..")[0].instance
    board = Board.of(p)
    for step in solve_path(p, techniques=[n for n in TECHNIQUES
                                          if TECHNIQUES[n].se_rating < 4.0]).steps:
        apply_step(board, step)
    kinds = dict(single_value=True, cell_strong=False, unit_strong=True, cell_weak=False,
                 unit_weak=True, same_ends=True)
    assert chain_search(board, "x-chain", 6.6, "X-chain", max_nodes=3, **kinds) is None
    found = chain_search(board, "x-chain", 6.6, "X-chain", max_nodes=4, **kinds)
    assert found is not None and found.text.count("=") == 2
    assert np.array_equal(np.array(board.cands), cands_array(Links.of(board)))


def test_the_strong_rows_fall_back_to_the_python_sets(monkeypatch):
    """Where the kernel cannot order a node's strong links as the sets do (five or more of
    them: the centre of an X-Sudoku; another Python's sets), they are read from the sets,
    with the same steps."""
    from sudokit.human import chain_kernel

    boards = [random_board("x9", seed, 0.25, 0.0) for seed in range(24)]
    overflow = []
    for board in boards:
        table, sizes = unit_table(board.layout)
        if not strong_rows_kernel(cands_array(Links(board)), board.n, table, sizes, True,
                                  True)[2]:
            overflow.append(board)
    assert overflow, "some board has a node with five strong links"
    for board in overflow[:4]:
        for name in ("aic", "forcing-chain", "cell-forcing-chain"):
            _same(board, name)
    monkeypatch.setattr(chain_kernel, "set_order_holds", lambda: False)
    for board in boards[:4]:
        board = board.copy()               # new links: none kept from the kernel's rows
        for name in ("aic", "xy-chain", "x-chain", "forcing-chain", "cell-forcing-chain"):
            _same(board, name)
