"""Wings: XY-wing, XYZ-wing and W-wing.

XY-wing (Sudoku Explainer 4.2): a pivot with candidates ``xy`` sees two pincers ``xz`` and
``yz``; one pincer is ``z`` whatever the pivot holds, so the cells that see both pincers
lose ``z``. XYZ-wing (4.4): the pivot is ``xyz``, so the cells that see the pivot and both
pincers lose ``z``. W-wing: two cells ``xy`` that do not see each other, joined by a unit
where ``y`` has only two places, one seen by each: one of the two cells is ``x``, so the
cells that see both lose ``x`` (Sudoku Explainer has no W-wing: it finds it as a chain of
six candidates over cells and units, so it is rated as that AIC is, 7.0 + 0.1).

The bigger wings are Sukaku Explainer's (the Sudoku Explainer fork that rated Sudoku
Exchange's puzzle bank): an almost locked set of ``k`` cells of one unit holding ``k + 1``
values, and a bivalue cell ``xz`` outside it such that every cell of the set holding ``x``
sees it (``x`` is a restricted common value). Either the bivalue cell is ``z`` or the set
is, so a cell that sees the bivalue cell and every ``z`` of the set loses ``z``. When ``z``
is restricted too (doubly linked), every value of the set is locked in the set and the
bivalue cell. ``k`` = 3, 4 are the WXYZ- and VWXYZ-wing; their ratings are in
:data:`ALS_WING_RATING` (by the largest number of candidates of a cell of the set: a
middling size is the harder). The fork's later UVWXYZ- and TUVWXYZ-wings (five and six
cells) were not among the techniques that rated the puzzle bank, and are left out.

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

import functools

import numpy as np

from .board import Board, bits, cell_text
from .set_kernel import MAX_SIDE, als_wing_find
from .step import Step, elimination_step
from .tables import cands_array, layout_arrays

__all__ = ["xy_wing", "xyz_wing", "w_wing", "als_wing", "wxyz_wing", "vwxyz_wing",
           "ALS_WING_RATING"]


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


def _wxyz_rating(biggest: int) -> float:
    return 5.5 + (1 - abs(3 - biggest)) * 0.1


def _vwxyz_rating(biggest: int) -> float:
    return 6.2 + (2 - abs(3 - biggest)) * 0.1


#: cells of the almost locked set -> (technique, rating from the set's largest cell size)
ALS_WING_RATING = {
    3: ("wxyz-wing", _wxyz_rating),
    4: ("vwxyz-wing", _vwxyz_rating),
}


def _almost_locked_sets(board: Board, size: int):
    """Each set of ``size`` empty cells of one unit holding ``size + 1`` values together,
    once: ``(cells, union mask)``."""
    cands, layout = board.cands, board.layout
    seen: set[tuple[int, ...]] = set()
    limit = size + 1
    for unit in layout.units:
        small = [c for c in unit if 2 <= cands[c].bit_count() <= limit]
        if len(small) < size:
            continue
        # the groups in the order of combinations(small, size), a prefix dropped as soon
        # as its values are more than size + 1
        stack: list[tuple[int, tuple[int, ...], int]] = [(0, (), 0)]
        while stack:
            start, group, union = stack.pop()
            if len(group) == size:
                if union.bit_count() == limit and group not in seen:
                    seen.add(group)
                    yield group, union
                continue
            last = len(small) - (size - len(group))
            for i in range(last, start - 1, -1):        # pushed backwards: popped in order
                joined = union | cands[small[i]]
                if joined.bit_count() <= limit:
                    stack.append((i + 1, group + (small[i],), joined))


def _seeing_all(board: Board, cells, exclude) -> set[int]:
    """The cells outside ``exclude`` that see every cell of ``cells``."""
    peers = board.layout.peers
    common: set[int] | None = None
    for c in cells:
        common = set(peers[c]) if common is None else common & peers[c]
    return (common or set()) - set(exclude)


def als_wing(board: Board, size: int) -> Step | None:
    """The easiest almost-locked-set wing of ``size`` cells and a bivalue cell (see the
    module): lowest rating first, then the most eliminations. The search is compiled
    (:func:`~sudokit.human.set_kernel.als_wing_find`; plain loops past
    :data:`~sudokit.human.set_kernel.MAX_SIDE`), the step built here."""
    technique, rating_of = ALS_WING_RATING[size]
    cands = board.cands
    n = board.n
    if n <= MAX_SIDE:
        arrays = layout_arrays(board.layout)
        found = als_wing_find(board.kept(cands_array), arrays.units, arrays.peer, size,
                              _ratings(size, n)).tolist()
        if found[0] < 0:
            return None
        pivot, group = found[0], tuple(found[1:])
    else:
        best = _als_wing_loops(board, size)
        if best is None:
            return None
        group, pivot = best
    rating = round(rating_of(max(cands[c].bit_count() for c in group)), 1)
    union = 0
    for c in group:
        union |= cands[c]
    victims, double = _wing_removals(board, group, union, pivot)
    pattern = [(c, v) for c in group + (pivot,) for v in bits(cands[c])]
    name = technique.upper().replace("-WING", "-wing")
    what = ", ".join(f"{cell_text(n, c)} ({_pair(cands[c])})" for c in group)
    link = "doubly linked to" if double else "and"
    return elimination_step(board, technique, rating, sorted(victims), pattern, (),
                            f"{name} {what} {link} {cell_text(n, pivot)} "
                            f"({_pair(cands[pivot])})")


@functools.cache
def _ratings(size: int, n: int) -> np.ndarray:
    """The rating of a wing of ``size`` cells by the largest number of candidates of a cell
    of its set (0 to ``n``), as the kernel compares them."""
    _, rating_of = ALS_WING_RATING[size]
    return np.array([round(rating_of(biggest), 1) for biggest in range(n + 1)])


def _wing_removals(board: Board, group: tuple[int, ...], union: int, pivot: int
                   ) -> tuple[set[tuple[int, int]], bool]:
    """What the set ``group`` (holding ``union``) and the bivalue cell ``pivot`` remove, and
    whether they are doubly linked (nothing when no value of the pivot is restricted)."""
    cands, peers = board.cands, board.layout.peers
    pm = cands[pivot]
    near = peers[pivot]
    holders = {v: [c for c in group if cands[c] >> (v - 1) & 1] for v in bits(union)}
    restricted = [v for v in bits(pm) if all(c in near for c in holders[v])]
    removed: set[tuple[int, int]] = set()
    for x in restricted:
        z = (pm & ~(1 << (x - 1))).bit_length()
        removed |= {(c, z) for c in _seeing_all(board, holders[z] + [pivot], group + (pivot,))
                    if cands[c] >> (z - 1) & 1}
    if len(restricted) == 2:                 # doubly linked: every value locked
        for w in bits(union & ~pm):
            removed |= {(c, w) for c in _seeing_all(board, holders[w], group + (pivot,))
                        if cands[c] >> (w - 1) & 1}
    return removed, len(restricted) == 2


def _als_wing_loops(board: Board, size: int) -> tuple[tuple[int, ...], int] | None:
    """:func:`als_wing`'s search in Python, for sides the kernel's masks do not hold: the
    best ``(set, pivot)``."""
    _, rating_of = ALS_WING_RATING[size]
    cands = board.cands
    n = board.n
    bivalue = [c for c in range(n * n) if cands[c].bit_count() == 2]
    best = None
    for group, union in _almost_locked_sets(board, size):
        rating = round(rating_of(max(cands[c].bit_count() for c in group)), 1)
        if best is not None and rating > best[0][0]:
            continue                                 # cannot beat the best found
        for pivot in bivalue:
            if cands[pivot] & ~union or pivot in group:
                continue
            removed, _ = _wing_removals(board, group, union, pivot)
            if not removed:
                continue
            key = (rating, -len(removed))
            if best is None or key < best[0]:
                best = (key, group, pivot)
    return None if best is None else (best[1], best[2])


def wxyz_wing(board: Board) -> Step | None:
    """Three cells of a unit holding four values and a bivalue cell (Sukaku Explainer
    5.5-5.6)."""
    return als_wing(board, 3)


def vwxyz_wing(board: Board) -> Step | None:
    """Four cells of a unit holding five values and a bivalue cell (6.2-6.4)."""
    return als_wing(board, 4)

