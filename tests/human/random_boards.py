"""Boards the human-technique tests share: a puzzle of every layout the techniques take
(classic, X-Sudoku, 6x6, jigsaw, 16x16, an empty 9x9 and a Latin square) and random
candidates on one of them."""

from __future__ import annotations

import json

import numpy as np

from sudokit.formats import parse_puzzles
from sudokit.human.board import Board
from sudokit.instances import latin_square, sudoku

from ..helpers import EXAMPLES

__all__ = ["LAYOUTS", "random_board"]


def _layouts():
    index = json.loads((EXAMPLES / "index.json").read_text())
    out = {name: parse_puzzles((EXAMPLES / index[name]["file"]).read_text())[0].instance
           for name in ("x9", "six", "jigsaw9", "janko16")}
    out["sudoku9"] = sudoku(np.zeros((9, 9), dtype=int))
    out["latin5"] = latin_square(np.zeros((5, 5), dtype=int))
    return out


LAYOUTS = _layouts()


def random_board(name, seed, density, empty):
    """The givens of layout ``name`` with random candidates in every open cell (each value
    kept with probability ``density``; none at all with probability ``empty``)."""
    rng = np.random.default_rng(seed)
    board = Board.of(LAYOUTS[name])
    n = board.n
    for cell in range(n * n):
        if not board.values[cell]:
            keep = rng.random(n) < density
            if rng.random() < empty:
                keep[:] = False
            board.cands[cell] = int(sum(1 << v for v in range(n) if keep[v]))
    return board
