"""Aligned pair exclusion (Sudoku Explainer 6.2).

Two cells that see each other cannot hold the same value, nor a pair of values that would
leave a cell seeing both of them without a candidate (a cell whose candidates are among
the two). A candidate of one of the two cells that takes part in no allowed pair is false.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> from .board import Board
>>> board = Board.of(sudoku(np.zeros((4, 4), dtype=int)))
>>> board.cands[0], board.cands[1] = 0b0011, 0b0111
>>> board.cands[5], board.cands[4] = 0b0101, 0b0110   # box 1: r2c1 2,3, r2c2 1,3
>>> aligned_pair_exclusion(board).text
'aligned pair exclusion r1c1 r1c2: -3 r1c2'
"""

from __future__ import annotations

from .board import Board, bits, cells_text
from .step import Step, elimination_step

__all__ = ["aligned_pair_exclusion"]


def aligned_pair_exclusion(board: Board) -> Step | None:
    """The first aligned pair exclusion that removes a candidate (see the module)."""
    cands, peers = board.cands, board.layout.peers
    n = board.n
    bivalue = {c for c in range(n * n) if cands[c].bit_count() == 2}
    for a in range(n * n):
        ma = cands[a]
        if ma.bit_count() < 2:
            continue
        near = peers[a] & bivalue
        if not near:
            continue                # no blocker for any pair of a's
        for b in sorted(peers[a]):
            mb = cands[b]
            if b < a or mb.bit_count() < 2:
                continue
            # a blocker is bivalue, so it forbids exactly the pair of its own two values
            blocked = {cands[c] for c in near & peers[b]}
            if not blocked:
                continue            # every value of one keeps a partner in the other
            allowed_a = _allowed(ma, mb, blocked)
            allowed_b = _allowed(mb, ma, blocked)
            removed = [(a, v) for v in bits(ma & ~allowed_a)] + \
                [(b, v) for v in bits(mb & ~allowed_b)]
            if removed:
                pattern = [(c, v) for c in (a, b) for v in bits(cands[c])]
                return elimination_step(board, "aligned-pair-exclusion", 6.2, removed,
                                        pattern, (),
                                        f"aligned pair exclusion {cells_text(n, (a, b))}")
    return None


def _allowed(mine: int, other: int, blocked: set[int]) -> int:
    """The values of ``mine`` that some different value of ``other`` pairs with, the pairs
    in ``blocked`` (two-bit masks) aside."""
    allowed = 0
    for x in bits(mine):
        bit = 1 << (x - 1)
        rest = other & ~bit
        for pair in blocked:
            if pair & bit:
                rest &= ~(pair ^ bit)
        if rest:
            allowed |= bit
    return allowed
