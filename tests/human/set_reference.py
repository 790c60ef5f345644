"""The finders that sudokit.human.set_kernel compiled, as they were before (sudokit 40c5cc3):
the reference the compiled searches must agree with (tests/human/test_set_kernels.py). The
ALS wings and aligned pair exclusion's references are in human_reference.py."""

from __future__ import annotations

from itertools import combinations

from sudokit.human.board import Board, cells_text
from sudokit.human.step import Step, make_step, placement_text

_SIZE_NAMES = {2: "pair", 3: "triple", 4: "quad"}

# -- subsets.py --------------------------------------------------------------------------

def direct_hidden(board: Board, size: int, rating: float) -> Step | None:
    """A hidden subset of ``size`` values after which another value of its unit has one
    place left, outside the subset's cells: that value is placed (Sudoku Explainer's direct
    hidden pair 2.0 and triple 2.5)."""
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
                cell = unit[left.bit_length() - 1]
                cells = [unit[p] for p in range(len(unit)) if union >> p & 1]
                name = layout.unit_names[index]
                pattern = [(c, v) for c in cells for v in group if cands[c] >> (v - 1) & 1]
                return make_step(
                    board, f"direct-hidden-{_SIZE_NAMES[size]}", rating,
                    place=[(cell, other)], pattern=pattern, houses=(name,),
                    text=f"{placement_text(n, cell, other)} (hidden {_SIZE_NAMES[size]} "
                         f"{','.join(map(str, group))} in {name} ({cells_text(n, cells)}), "
                         f"then hidden single)")
    return None


def direct_hidden_pair(board: Board) -> Step | None:
    return direct_hidden(board, 2, 2.0)


def direct_hidden_triple(board: Board) -> Step | None:
    return direct_hidden(board, 3, 2.5)


# -- intersections.py ----------------------------------------------------------------------

def _direct(board: Board, first_kinds: tuple[str, ...], technique: str, rating: float,
            name: str) -> Step | None:
    """A locked candidate whose removals leave the value one place in another unit of the
    first unit's kind that crosses the second unit: that hidden single is placed (Sudoku
    Explainer's direct pointing and claiming)."""
    layout, cands = board.layout, board.cands
    n = board.n
    for index, unit in enumerate(layout.units):
        if layout.kind[index] not in first_kinds:
            continue
        present = 0
        for cell in unit:
            present |= cands[cell]
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
            inside = set(unit)
            for other in sorted(shared):
                removed = {c for c in layout.units[other] if c not in inside and cands[c] & low}
                if not removed:
                    continue
                kind = layout.kind[index]
                crossed = {u for c in removed for u in layout.cell_units[c]
                           if u != index and layout.kind[u] == kind}
                for third in sorted(crossed):
                    places = board.cells_with(third, value)
                    left = [c for c in places if c not in removed]
                    if len(places) > 1 and len(left) == 1 and len(places) > len(left):
                        names = (layout.unit_names[index], layout.unit_names[other],
                                 layout.unit_names[third])
                        return make_step(
                            board, technique, rating, place=[(left[0], value)],
                            pattern=[(c, value) for c in cells], houses=names,
                            text=f"{placement_text(n, left[0], value)} ({name} {value} in "
                                 f"{names[0]} on {names[1]}, then hidden single in "
                                 f"{names[2]})")
    return None


def direct_pointing(board: Board) -> Step | None:
    return _direct(board, ("box", "region"), "direct-pointing", 1.7, "pointing")


def direct_claiming(board: Board) -> Step | None:
    kinds = tuple(k for k in set(board.layout.kind) if k not in ("box", "region"))
    return _direct(board, kinds, "direct-claiming", 1.9, "claiming")
