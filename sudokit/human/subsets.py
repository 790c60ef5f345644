"""Naked and hidden subsets: pairs, triples and quads in a unit.

Naked: ``k`` cells of a unit whose candidates together are ``k`` values; the unit's other
cells lose those values. Hidden: ``k`` values whose places in a unit are ``k`` cells; those
cells lose every other value. Sudoku Explainer: naked pair 3.0, hidden pair 3.4, naked
triple 3.6, hidden triple 4.0, naked quad 5.0, hidden quad 5.4. The direct forms (a hidden
pair 2.0 or triple 2.5 after which another value of the unit has one place left, placed
there) are tried with the singles.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from .board import Board
>>> board = Board.of(latin_square(np.zeros((4, 4), dtype=int)))
>>> board.cands[0] = board.cands[1] = 0b0011
>>> naked_pair(board).text
'naked pair 1,2 in row 1 (r1c1 r1c2): -1 r1c3 r1c4; -2 r1c3 r1c4'
"""

from __future__ import annotations

from itertools import combinations

from .board import Board, bits, cells_text
from .set_kernel import MAX_SIDE, direct_hidden_find, hidden_find, naked_find
from .step import Step, elimination_step, make_step, placement_text
from .tables import cands_array, layout_arrays

__all__ = ["naked_pair", "naked_triple", "naked_quad", "hidden_pair", "hidden_triple",
           "hidden_quad", "direct_hidden", "direct_hidden_pair", "direct_hidden_triple"]

_SIZE_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def naked(board: Board, size: int, rating: float) -> Step | None:
    """The first naked subset of ``size`` cells that removes a candidate (compiled:
    :func:`~sudokit.human.set_kernel.naked_find`; the unit facts' search past
    :data:`~sudokit.human.set_kernel.MAX_SIDE`)."""
    cands = board.cands
    layout = board.layout
    if board.n <= MAX_SIDE:
        index, where, union = naked_find(board.kept(cands_array), layout_arrays(layout).units,
                                         size).tolist()
        if index < 0:
            return None
        positions = bits0(where)
    else:
        facts = board.kept(Board.unit_facts)
        index, found = next(((i, f) for i, f in enumerate(facts)
                             if f.naked(size) is not None), (-1, None))
        if found is None:
            return None
        positions, union = found.naked(size)      # type: ignore[misc]
    unit = layout.units[index]
    group = [unit[p] for p in positions]
    removed = [(c, v) for c in unit if c not in group and cands[c] & union
               for v in bits(cands[c] & union)]
    name = layout.unit_names[index]
    kind = f"naked-{_SIZE_NAMES[size]}"
    pattern = [(c, v) for c in group for v in bits(cands[c])]
    return elimination_step(
        board, kind, rating, removed, pattern, (name,),
        f"naked {_SIZE_NAMES[size]} {','.join(map(str, bits(union)))} in {name} "
        f"({cells_text(board.n, group)})")


def hidden(board: Board, size: int, rating: float) -> Step | None:
    """The first hidden subset of ``size`` values that removes a candidate (compiled:
    :func:`~sudokit.human.set_kernel.hidden_find`; the unit facts' search past
    :data:`~sudokit.human.set_kernel.MAX_SIDE`)."""
    cands = board.cands
    layout = board.layout
    n = board.n
    if n <= MAX_SIDE:
        index, keep, where = hidden_find(board.kept(cands_array),
                                         layout_arrays(layout).units, n, size).tolist()
        if index < 0:
            return None
        group, positions = bits(keep), bits0(where)
    else:
        facts = board.kept(Board.unit_facts)
        index, found = next(((i, f) for i, f in enumerate(facts)
                             if f.hidden(size) is not None), (-1, None))
        if found is None:
            return None
        group, positions = found.hidden(size)     # type: ignore[misc]
        keep = 0
        for v in group:
            keep |= 1 << (v - 1)
    unit = layout.units[index]
    cells = [unit[p] for p in positions]
    removed = [(c, v) for c in cells for v in bits(cands[c] & ~keep)]
    name = layout.unit_names[index]
    pattern = [(c, v) for c in cells for v in group if cands[c] >> (v - 1) & 1]
    return elimination_step(
        board, f"hidden-{_SIZE_NAMES[size]}", rating, removed, pattern, (name,),
        f"hidden {_SIZE_NAMES[size]} {','.join(map(str, group))} in {name} "
        f"({cells_text(n, cells)})")


def bits0(mask: int) -> tuple[int, ...]:
    """The positions (0-based) of a mask's bits, smallest first.

    Examples
    --------
    >>> bits0(0b10110)
    (1, 2, 4)
    """
    return tuple(v - 1 for v in bits(mask))


def naked_pair(board: Board) -> Step | None:
    """Two cells of a unit with the same two candidates."""
    return naked(board, 2, 3.0)


def naked_triple(board: Board) -> Step | None:
    """Three cells of a unit with three candidates between them."""
    return naked(board, 3, 3.6)


def naked_quad(board: Board) -> Step | None:
    """Four cells of a unit with four candidates between them."""
    return naked(board, 4, 5.0)


def hidden_pair(board: Board) -> Step | None:
    """Two values with the same two places in a unit."""
    return hidden(board, 2, 3.4)


def hidden_triple(board: Board) -> Step | None:
    """Three values with three places between them in a unit."""
    return hidden(board, 3, 4.0)


def hidden_quad(board: Board) -> Step | None:
    """Four values with four places between them in a unit."""
    return hidden(board, 4, 5.4)


def direct_hidden(board: Board, size: int, rating: float) -> Step | None:
    """A hidden subset of ``size`` values after which another value of its unit has one
    place left, outside the subset's cells: that value is placed (Sudoku Explainer's direct
    hidden pair 2.0 and triple 2.5). The search is compiled
    (:func:`~sudokit.human.set_kernel.direct_hidden_find`; plain loops past
    :data:`~sudokit.human.set_kernel.MAX_SIDE`), the step built here."""
    if board.n <= MAX_SIDE:
        index, group_mask, union, other, cell = (int(x) for x in direct_hidden_find(
            board.kept(cands_array), layout_arrays(board.layout).units, board.n, size))
        if index < 0:
            return None
        group = bits(group_mask)
    else:
        found = _direct_hidden_loops(board, size)
        if found is None:
            return None
        index, group, union, other, cell = found
    cands = board.cands
    layout = board.layout
    n = board.n
    unit = layout.units[index]
    cells = [unit[p] for p in range(len(unit)) if union >> p & 1]
    name = layout.unit_names[index]
    pattern = [(c, v) for c in cells for v in group if cands[c] >> (v - 1) & 1]
    return make_step(
        board, f"direct-hidden-{_SIZE_NAMES[size]}", rating,
        place=[(cell, other)], pattern=pattern, houses=(name,),
        text=f"{placement_text(n, cell, other)} (hidden {_SIZE_NAMES[size]} "
             f"{','.join(map(str, group))} in {name} ({cells_text(n, cells)}), "
             f"then hidden single)")


def _direct_hidden_loops(board: Board, size: int
                         ) -> tuple[int, tuple[int, ...], int, int, int] | None:
    """:func:`direct_hidden`'s search in Python, for sides the kernel's masks do not hold:
    ``(unit, values, positions mask, value placed, cell)``."""
    cands = board.cands
    for index, unit in enumerate(board.layout.units):
        places: dict[int, int] = {}          # value -> mask of positions in the unit
        for pos, cell in enumerate(unit):
            mask = cands[cell]
            while mask:
                low = mask & -mask
                mask ^= low
                value = low.bit_length()
                places[value] = places.get(value, 0) | (1 << pos)
        values = [v for v, m in places.items() if 2 <= m.bit_count() <= size]
        if len(values) < size:
            continue
        for group in combinations(sorted(values), size):
            union = 0
            for v in group:
                union |= places[v]
            if union.bit_count() != size:
                continue
            for other, where in sorted(places.items()):
                left = where & ~union
                if other in group or where == left or left & (left - 1):
                    continue
                return index, group, union, other, unit[left.bit_length() - 1]
    return None


def direct_hidden_pair(board: Board) -> Step | None:
    """A hidden pair that leaves a hidden single in its unit (SE 2.0)."""
    return direct_hidden(board, 2, 2.0)


def direct_hidden_triple(board: Board) -> Step | None:
    """A hidden triple that leaves a hidden single in its unit (SE 2.5)."""
    return direct_hidden(board, 3, 2.5)
