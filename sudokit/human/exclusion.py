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
from .set_kernel import MAX_SIDE, aligned_pair_find
from .step import Step, elimination_step
from .tables import cands_array, layout_arrays

__all__ = ["aligned_pair_exclusion"]


def aligned_pair_exclusion(board: Board) -> Step | None:
    """The first aligned pair exclusion that removes a candidate (see the module). The
    search is compiled (:func:`~sudokit.human.set_kernel.aligned_pair_find`; plain loops
    past :data:`~sudokit.human.set_kernel.MAX_SIDE`), the step built here."""
    if board.n <= MAX_SIDE:
        a, b = aligned_pair_find(board.kept(cands_array),
                                 layout_arrays(board.layout).peer).tolist()
        if a < 0:
            return None
        removed = _removed(board, a, b)
    else:
        found = _aligned_pair_loops(board)
        if found is None:
            return None
        a, b, removed = found
    cands = board.cands
    pattern = [(c, v) for c in (a, b) for v in bits(cands[c])]
    return elimination_step(board, "aligned-pair-exclusion", 6.2, removed, pattern, (),
                            f"aligned pair exclusion {cells_text(board.n, (a, b))}")


def _removed(board: Board, a: int, b: int) -> list[tuple[int, int]]:
    """The candidates the aligned pair ``a``, ``b`` excludes."""
    cands, peers = board.cands, board.layout.peers
    blocked = {cands[c] for c in peers[a] & peers[b] if cands[c].bit_count() == 2}
    ma, mb = cands[a], cands[b]
    return [(a, v) for v in bits(ma & ~_allowed(ma, mb, blocked))] + \
        [(b, v) for v in bits(mb & ~_allowed(mb, ma, blocked))]


def _aligned_pair_loops(board: Board) -> tuple[int, int, list[tuple[int, int]]] | None:
    """:func:`aligned_pair_exclusion`'s search in Python, for sides the kernel's masks do
    not hold: ``(a, b, removed)``."""
    cands, peers = board.cands, board.layout.peers
    n = board.n
    bivalue = {c for c in range(n * n) if cands[c].bit_count() == 2}
    for a in range(n * n):
        if cands[a].bit_count() < 2 or not peers[a] & bivalue:
            continue                # no blocker for any pair of a's
        for b in sorted(peers[a]):
            if b < a or cands[b].bit_count() < 2 or not peers[a] & peers[b] & bivalue:
                continue            # every value of one keeps a partner in the other
            removed = _removed(board, a, b)
            if removed:
                return a, b, removed
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
