"""Wings: XY-wing, XYZ-wing and W-wing.

XY-wing (Sudoku Explainer 4.2): a pivot with candidates ``xy`` sees two pincers ``xz`` and
``yz``; one pincer is ``z`` whatever the pivot holds, so the cells that see both pincers
lose ``z``. XYZ-wing (4.4): the pivot is ``xyz``, so the cells that see the pivot and both
pincers lose ``z``. W-wing: two cells ``xy`` that do not see each other, joined by a unit
where ``y`` has only two places, one seen by each: one of the two cells is ``x``, so the
cells that see both lose ``x`` (Sudoku Explainer has no W-wing: it finds it as a chain of
six candidates over cells and units, so it is rated as that AIC is, 7.0 + 0.1).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from .board import Board
>>> board = Board.of(latin_square(np.zeros((4, 4), dtype=int)))
>>> board.cands[0], board.cands[1], board.cands[4] = 0b0011, 0b0101, 0b0110
>>> xy_wing(board).text
'XY-wing r1c1 (pivot 1,2), r1c2 (1,3), r2c1 (2,3): -3 r2c2'
"""

from __future__ import annotations

from .board import Board, bits, cell_text
from .step import Step, elimination_step

__all__ = ["xy_wing", "xyz_wing", "w_wing"]


def _pair(mask: int) -> str:
    return ",".join(map(str, bits(mask)))


def xy_wing(board: Board) -> Step | None:
    """A bivalue pivot and two bivalue pincers that share the third value."""
    cands, peers = board.cands, board.layout.peers
    n = board.n
    bivalue = [c for c in range(n * n) if cands[c].bit_count() == 2]
    for pivot in bivalue:
        pm = cands[pivot]
        wings = [c for c in bivalue if c in peers[pivot] and (cands[c] & pm).bit_count() == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1:]:
                ma, mb = cands[a], cands[b]
                z = ma & mb & ~pm
                if not z or (ma & pm) == (mb & pm) or z.bit_count() != 1:
                    continue
                zv = z.bit_length()
                removed = [(c, zv) for c in peers[a] & peers[b] if cands[c] & z and c != pivot]
                if removed:
                    pattern = [(c, v) for c in (pivot, a, b) for v in bits(cands[c])]
                    return elimination_step(
                        board, "xy-wing", 4.2, removed, pattern, (),
                        f"XY-wing {cell_text(n, pivot)} (pivot {_pair(pm)}), "
                        f"{cell_text(n, a)} ({_pair(ma)}), {cell_text(n, b)} ({_pair(mb)})")
    return None


def xyz_wing(board: Board) -> Step | None:
    """A trivalue pivot xyz and two bivalue pincers xz, yz it sees."""
    cands, peers = board.cands, board.layout.peers
    n = board.n
    for pivot in range(n * n):
        pm = cands[pivot]
        if pm.bit_count() != 3:
            continue
        wings = [c for c in peers[pivot] if cands[c].bit_count() == 2 and cands[c] & ~pm == 0]
        for i, a in enumerate(wings):
            for b in wings[i + 1:]:
                ma, mb = cands[a], cands[b]
                if ma == mb:
                    continue
                z = ma & mb
                zv = z.bit_length()
                removed = [(c, zv) for c in peers[a] & peers[b] & peers[pivot]
                           if cands[c] & z]
                if removed:
                    pattern = [(c, v) for c in (pivot, a, b) for v in bits(cands[c])]
                    return elimination_step(
                        board, "xyz-wing", 4.4, removed, pattern, (),
                        f"XYZ-wing {cell_text(n, pivot)} (pivot {_pair(pm)}), "
                        f"{cell_text(n, a)} ({_pair(ma)}), {cell_text(n, b)} ({_pair(mb)})")
    return None


def w_wing(board: Board) -> Step | None:
    """Two equal bivalue cells joined by a strong link on one of their values."""
    cands, layout = board.cands, board.layout
    peers = layout.peers
    n = board.n
    bivalue = [c for c in range(n * n) if cands[c].bit_count() == 2]
    for i, a in enumerate(bivalue):
        for b in bivalue[i + 1:]:
            if cands[a] != cands[b] or b in peers[a]:
                continue
            common = [c for c in peers[a] & peers[b]]
            for y in bits(cands[a]):
                x = (cands[a] & ~(1 << (y - 1))).bit_length()
                xbit = 1 << (x - 1)
                removed = [(c, x) for c in common if cands[c] & xbit]
                if not removed:
                    continue
                for unit in range(len(layout.units)):
                    places = board.cells_with(unit, y)
                    if len(places) != 2 or a in places or b in places:
                        continue
                    c, d = places
                    if not ((c in peers[a] and d in peers[b]) or (d in peers[a] and c in peers[b])):
                        continue
                    pattern = [(a, x), (a, y), (b, x), (b, y), (c, y), (d, y)]
                    return elimination_step(
                        board, "w-wing", 7.1, removed, pattern, (layout.unit_names[unit],),
                        f"W-wing {cell_text(n, a)}, {cell_text(n, b)} ({_pair(cands[a])}) "
                        f"joined by {y} in {layout.unit_names[unit]}")
    return None
