"""The finders of singles, locked candidates, subsets and fish as they were before the
speed work of issue 30 (sudokit a87728e): straightforward loops over the board, kept as the
reference the fast finders must agree with (tests/test_human_speed.py)."""

from __future__ import annotations

from itertools import combinations

from sudokit.human.board import Board, bits, cells_text
from sudokit.human.step import Step, elimination_step, make_step, placement_text

# -- singles.py ------------------------------------------------------------------------

def _single(board: Board, technique: str, rating: float, cell: int, value: int,
            unit: int | None, what: str) -> Step:
    houses = () if unit is None else (board.layout.unit_names[unit],)
    where = f" in {houses[0]}" if houses else ""
    return make_step(board, technique, rating, place=[(cell, value)],
                     pattern=[(cell, value)], houses=houses,
                     text=f"{placement_text(board.n, cell, value)} ({what}{where})")


def full_house(board: Board) -> Step | None:
    """The one empty cell left in a unit."""
    values = board.values
    for index, unit in enumerate(board.layout.units):
        empty = [c for c in unit if not values[c]]
        if len(empty) == 1 and len(unit) == board.n:
            cell = empty[0]
            missing = board.layout.full
            for c in unit:
                if values[c]:
                    missing &= ~(1 << (values[c] - 1))
            if missing & board.cands[cell] and missing & (missing - 1) == 0:
                return _single(board, "full-house", 1.0, cell, missing.bit_length(), index,
                               "full house")
    return None


def _hidden(board: Board, units, technique: str, rating: float) -> Step | None:
    cands = board.cands
    all_units = board.layout.units
    for index in units:
        once = twice = 0
        unit = all_units[index]
        for cell in unit:
            mask = cands[cell]
            twice |= once & mask
            once |= mask
        single = once & ~twice
        if single:
            low = single & -single
            value = low.bit_length()
            cell = next(c for c in unit if cands[c] & low)
            return _single(board, technique, rating, cell, value, index, "hidden single")
    return None


def hidden_single_box(board: Board) -> Step | None:
    """A value with one place left in a box (or a jigsaw's region)."""
    return _hidden(board, board.layout.boxes, "hidden-single-box", 1.2)


def hidden_single(board: Board) -> Step | None:
    """A value with one place left in a row, a column or a variant's unit."""
    layout = board.layout
    boxes = set(layout.boxes)
    return _hidden(board, [u for u in range(len(layout.units)) if u not in boxes],
                   "hidden-single", 1.5)


def naked_single(board: Board) -> Step | None:
    """A cell with one candidate left."""
    for cell, mask in enumerate(board.cands):
        if mask and mask & (mask - 1) == 0:
            return _single(board, "naked-single", 2.3, cell, mask.bit_length(), None,
                           "naked single")
    return None


# -- intersections.py ------------------------------------------------------------------

def _locked(board: Board, first_kinds: tuple[str, ...], technique: str,
            rating: float, name: str) -> Step | None:
    layout = board.layout
    cands = board.cands
    for index, unit in enumerate(layout.units):
        if layout.kind[index] not in first_kinds:
            continue
        present = 0
        for cell in unit:
            present |= cands[cell]
        value = 0
        while present:
            low = present & -present
            present ^= low
            value = low.bit_length()
            cells = [c for c in unit if cands[c] & low]
            if len(cells) < 2:
                continue
            shared = set(layout.cell_units[cells[0]])
            for cell in cells[1:]:
                shared.intersection_update(layout.cell_units[cell])
            shared.discard(index)
            for other in sorted(shared):
                inside = set(unit)
                removed = [(c, value) for c in layout.units[other]
                           if c not in inside and cands[c] & low]
                if removed:
                    names = (layout.unit_names[index], layout.unit_names[other])
                    return elimination_step(
                        board, technique, rating, removed, [(c, value) for c in cells], names,
                        f"{name} {value} in {names[0]} on {names[1]}")
    return None


def pointing(board: Board) -> Step | None:
    """A box's places of a value on one line (or in another unit): the rest of it loses it."""
    return _locked(board, ("box", "region"), "pointing", 2.6, "pointing")


def claiming(board: Board) -> Step | None:
    """A line's places of a value in one box (or another unit): the rest of it loses it."""
    kinds = tuple(k for k in set(board.layout.kind) if k not in ("box", "region"))
    return _locked(board, kinds, "claiming", 2.8, "claiming")


# -- subsets.py ------------------------------------------------------------------------

_SIZE_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def naked(board: Board, size: int, rating: float) -> Step | None:
    """The first naked subset of ``size`` cells that removes a candidate."""
    cands = board.cands
    layout = board.layout
    for index, unit in enumerate(layout.units):
        small = [c for c in unit if 2 <= cands[c].bit_count() <= size]
        if len(small) < size:
            continue
        for group in combinations(small, size):
            union = 0
            for c in group:
                union |= cands[c]
            if union.bit_count() != size:
                continue
            removed = [(c, v) for c in unit if c not in group and cands[c] & union
                       for v in bits(cands[c] & union)]
            if removed:
                name = layout.unit_names[index]
                kind = f"naked-{_SIZE_NAMES[size]}"
                pattern = [(c, v) for c in group for v in bits(cands[c])]
                return elimination_step(
                    board, kind, rating, removed, pattern, (name,),
                    f"naked {_SIZE_NAMES[size]} {','.join(map(str, bits(union)))} in {name} "
                    f"({cells_text(board.n, group)})")
    return None


def hidden(board: Board, size: int, rating: float) -> Step | None:
    """The first hidden subset of ``size`` values that removes a candidate."""
    cands = board.cands
    layout = board.layout
    n = board.n
    for index, unit in enumerate(layout.units):
        places: dict[int, int] = {}          # value -> mask of positions in the unit
        for pos, cell in enumerate(unit):
            mask = cands[cell]
            while mask:
                low = mask & -mask
                mask ^= low
                places[low.bit_length()] = places.get(low.bit_length(), 0) | (1 << pos)
        values = [v for v, m in places.items() if 2 <= m.bit_count() <= size]
        if len(values) < size or len([c for c in unit if cands[c]]) <= size:
            continue
        for group in combinations(sorted(values), size):
            union = 0
            for v in group:
                union |= places[v]
            if union.bit_count() != size:
                continue
            keep = 0
            for v in group:
                keep |= 1 << (v - 1)
            cells = [unit[p] for p in range(len(unit)) if union >> p & 1]
            removed = [(c, v) for c in cells for v in bits(cands[c] & ~keep)]
            if removed:
                name = layout.unit_names[index]
                pattern = [(c, v) for c in cells for v in group if cands[c] >> (v - 1) & 1]
                return elimination_step(
                    board, f"hidden-{_SIZE_NAMES[size]}", rating, removed, pattern, (name,),
                    f"hidden {_SIZE_NAMES[size]} {','.join(map(str, group))} in {name} "
                    f"({cells_text(n, cells)})")
    return None


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


# -- fish.py ---------------------------------------------------------------------------

_NAMES = {2: ("X-wing", "x-wing"), 3: ("swordfish", "swordfish"), 4: ("jellyfish", "jellyfish")}


def fish(board: Board, size: int, rating: float) -> Step | None:
    """The first basic fish of ``size`` lines that removes a candidate."""
    n = board.n
    cands = board.cands
    word, technique = _NAMES[size]
    for value in range(1, n + 1):
        bit = 1 << (value - 1)
        for by_rows in (True, False):
            lines = []     # (line, mask of cross positions)
            for line in range(n):
                mask = 0
                for k in range(n):
                    cell = line * n + k if by_rows else k * n + line
                    if cands[cell] & bit:
                        mask |= 1 << k
                if 2 <= mask.bit_count() <= size:
                    lines.append((line, mask))
            if len(lines) < size:
                continue
            for group in combinations(lines, size):
                union = 0
                for _, mask in group:
                    union |= mask
                if union.bit_count() != size:
                    continue
                base = {line for line, _ in group}
                cross = [k for k in range(n) if union >> k & 1]

                def at(line, k, by_rows=by_rows):
                    return line * n + k if by_rows else k * n + line
                removed = [(at(line, k), value) for k in cross for line in range(n)
                           if line not in base and cands[at(line, k)] & bit]
                if removed:
                    pattern = [(at(line, k), value) for line in base for k in cross
                               if cands[at(line, k)] & bit]
                    first, second = ("rows", "columns") if by_rows else ("columns", "rows")
                    one = first[:-1]
                    other = second[:-1]
                    houses = tuple(f"{one} {line + 1}" for line in sorted(base)) + tuple(
                        f"{other} {k + 1}" for k in cross)
                    return elimination_step(
                        board, technique, rating, removed, pattern, houses,
                        f"{word} on {value} in {first} "
                        f"{','.join(str(line + 1) for line in sorted(base))}, {second} "
                        f"{','.join(str(k + 1) for k in cross)}")
    return None


def x_wing(board: Board) -> Step | None:
    """A value's places in two rows in two columns (or the other way round)."""
    return fish(board, 2, 3.2)


def swordfish(board: Board) -> Step | None:
    """A value's places in three rows in three columns (or the other way round)."""
    return fish(board, 3, 3.8)


def jellyfish(board: Board) -> Step | None:
    """A value's places in four rows in four columns (or the other way round)."""
    return fish(board, 4, 5.2)
