"""The finders of singles, locked candidates, subsets and fish as they were before the
speed work of issue 30 (sudokit a87728e): straightforward loops over the board, kept as the
reference the fast finders must agree with (tests/test_human_speed.py)."""

from __future__ import annotations

from collections import deque
from itertools import combinations

from sudokit.human.board import Board, bits, cell_text, cells_text
from sudokit.human.chains import STRONG_LINK_BASE, strong_link_rating
from sudokit.human.links import Links, length_bonus
from sudokit.human.step import Step, elimination_step, make_step, placement_text
from sudokit.human.wings import ALS_WING_RATING

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


# ---- chains, ALS wings, aligned pair exclusion and forcing chains before the speed work
# (main 256aae4, with Links.strong_of / weak_of as they were; the kept tables aside)

def chain_search(board: Board, technique: str, base: float, name: str, *,
                 single_value: bool, cell_strong: bool, unit_strong: bool,
                 cell_weak: bool, unit_weak: bool, same_ends: bool,
                 max_nodes: int = 24, rating=None) -> Step | None:
    """The shortest alternating chain (by candidates, at most ``max_nodes``) of the links
    allowed that removes a candidate; ``same_ends``: both ends hold the same value. The
    step is rated ``base`` plus the length bonus of its candidates, or ``rating(board,
    chain)`` when given."""
    links = Links(board)
    n = board.n
    starts = sorted(set(links.strong_cell) if cell_strong and not unit_strong else
                    set(links.strong_unit) if unit_strong and not cell_strong else
                    set(links.strong_cell) | set(links.strong_unit))
    best: tuple[int, list[int], list[tuple[int, int]]] | None = None
    for start in starts:
        value0 = start % n
        start_weak = set(links.weak_of(start))
        # state: (node, True) = node reached true (after a strong link); False after weak
        parent: dict[tuple[int, bool], tuple[int, bool] | None] = {(start, False): None}
        queue = deque([(start, False, 1)])
        while queue:
            nd, true, depth = queue.popleft()
            if best is not None and depth >= best[0]:
                break
            if true and nd != start and depth >= 4:
                if not same_ends or nd % n == start % n:
                    victims = [v for v in links.weak_of(nd) if v in start_weak and v != start]
                    if victims:
                        chain = _unwind(parent, (nd, True))
                        best = (depth, chain, [links.pair(v) for v in victims])
                        break
            if depth >= max_nodes:
                continue
            if true:
                nexts = links.weak_of(nd, cells=cell_weak, units=unit_weak)
            else:
                nexts = list(links.strong_of(nd, cells=cell_strong, units=unit_strong))
            for nx in nexts:
                if single_value and nx % n != value0:
                    continue
                key = (nx, not true)
                if key not in parent:
                    parent[key] = (nd, true)
                    queue.append((nx, not true, depth + 1))
    if best is None:
        return None
    depth, chain, removed = best
    text = "".join(("" if i == 0 else ("=" if i % 2 else "-")) + links.label(nd)
                   for i, nd in enumerate(chain))
    pattern = [links.pair(nd) for nd in chain]
    value = base + length_bonus(len(chain)) if rating is None else rating(board, chain)
    return elimination_step(board, technique, value, removed, pattern, (), f"{name} {text}")


def _unwind(parent, key) -> list[int]:
    chain = []
    while key is not None:
        chain.append(key[0])
        key = parent[key]
    return chain[::-1]


def x_chain(board: Board) -> Step | None:
    return chain_search(board, "x-chain", 6.6, "X-chain", single_value=True,
                        cell_strong=False, unit_strong=True, cell_weak=False, unit_weak=True,
                        same_ends=True)


def xy_chain(board: Board) -> Step | None:
    return chain_search(board, "xy-chain", 7.0, "XY-chain", single_value=False,
                        cell_strong=True, unit_strong=False, cell_weak=False, unit_weak=True,
                        same_ends=True)


def aic(board: Board) -> Step | None:
    return chain_search(board, "aic", 7.0, "AIC", single_value=False, cell_strong=True,
                        unit_strong=True, cell_weak=True, unit_weak=True, same_ends=False)


def _strong_links(board: Board, links: int, technique: str, name: str) -> Step | None:
    return chain_search(board, technique, STRONG_LINK_BASE[links], name, single_value=True,
                        cell_strong=False, unit_strong=True, cell_weak=False, unit_weak=True,
                        same_ends=True, max_nodes=2 * links, rating=strong_link_rating)


def turbot_fish(board: Board) -> Step | None:
    return _strong_links(board, 2, "turbot-fish", "turbot fish")


def three_strong_links(board: Board) -> Step | None:
    return _strong_links(board, 3, "three-strong-links", "3 strong links")


def _pair(mask: int) -> str:
    return ",".join(map(str, bits(mask)))


def _almost_locked_sets(board: Board, size: int):
    """Each set of ``size`` empty cells of one unit holding ``size + 1`` values together,
    once: ``(cells, union mask)``."""
    cands, layout = board.cands, board.layout
    seen: set[tuple[int, ...]] = set()
    for unit in layout.units:
        small = [c for c in unit if 2 <= cands[c].bit_count() <= size + 1]
        if len(small) < size:
            continue
        for group in combinations(small, size):
            union = 0
            for c in group:
                union |= cands[c]
            if union.bit_count() == size + 1 and group not in seen:
                seen.add(group)
                yield group, union


def _seeing_all(board: Board, cells, exclude) -> set[int]:
    """The cells outside ``exclude`` that see every cell of ``cells``."""
    peers = board.layout.peers
    common: set[int] | None = None
    for c in cells:
        common = set(peers[c]) if common is None else common & peers[c]
    return (common or set()) - set(exclude)


def als_wing(board: Board, size: int) -> Step | None:
    """The easiest almost-locked-set wing of ``size`` cells and a bivalue cell (see the
    module): lowest rating first, then the most eliminations."""
    technique, rating_of = ALS_WING_RATING[size]
    cands, peers = board.cands, board.layout.peers
    n = board.n
    bivalue = [c for c in range(n * n) if cands[c].bit_count() == 2]
    best = None
    for group, union in _almost_locked_sets(board, size):
        members = set(group)
        holders = {v: [c for c in group if cands[c] >> (v - 1) & 1] for v in bits(union)}
        for pivot in bivalue:
            pm = cands[pivot]
            if pm & ~union or pivot in members:
                continue
            near = peers[pivot]
            restricted = [v for v in bits(pm) if all(c in near for c in holders[v])]
            if not restricted:
                continue
            removed = set()
            for x in restricted:
                z = (pm & ~(1 << (x - 1))).bit_length()
                removed |= {(c, z) for c in _seeing_all(board, holders[z] + [pivot],
                                                        group + (pivot,))
                            if cands[c] >> (z - 1) & 1}
            if len(restricted) == 2:                 # doubly linked: every value locked
                for w in bits(union & ~pm):
                    removed |= {(c, w) for c in _seeing_all(board, holders[w],
                                                            group + (pivot,))
                                if cands[c] >> (w - 1) & 1}
            if not removed:
                continue
            biggest = max(cands[c].bit_count() for c in group)
            key = (round(rating_of(biggest), 1), -len(removed))
            if best is None or key < best[0]:
                best = (key, group, pivot, sorted(removed), len(restricted) == 2)
    if best is None:
        return None
    (rating, _), group, pivot, victims, double = best
    pattern = [(c, v) for c in group + (pivot,) for v in bits(cands[c])]
    name = technique.upper().replace("-WING", "-wing")
    what = ", ".join(f"{cell_text(n, c)} ({_pair(cands[c])})" for c in group)
    link = "doubly linked to" if double else "and"
    return elimination_step(board, technique, rating, victims, pattern, (),
                            f"{name} {what} {link} {cell_text(n, pivot)} "
                            f"({_pair(cands[pivot])})")


def wxyz_wing(board: Board) -> Step | None:
    return als_wing(board, 3)


def vwxyz_wing(board: Board) -> Step | None:
    return als_wing(board, 4)


def aligned_pair_exclusion(board: Board) -> Step | None:
    """The first aligned pair exclusion that removes a candidate (see the module)."""
    cands, peers = board.cands, board.layout.peers
    n = board.n
    bivalue = [mask.bit_count() == 2 for mask in cands]
    for a in range(n * n):
        ma = cands[a]
        if ma.bit_count() < 2:
            continue
        near = [c for c in peers[a] if bivalue[c]]
        for b in sorted(peers[a]):
            mb = cands[b]
            if b < a or mb.bit_count() < 2:
                continue
            seen = peers[b]
            blockers = [cands[c] for c in near if c in seen]
            if not blockers:
                continue            # every value of one keeps a partner in the other
            allowed_a = allowed_b = 0
            for x in bits(ma):
                for y in bits(mb):
                    if x == y:
                        continue
                    pair = (1 << (x - 1)) | (1 << (y - 1))
                    if any(m & ~pair == 0 for m in blockers):
                        continue
                    allowed_a |= 1 << (x - 1)
                    allowed_b |= 1 << (y - 1)
            removed = [(a, v) for v in bits(ma & ~allowed_a)] + \
                [(b, v) for v in bits(mb & ~allowed_b)]
            if removed:
                pattern = [(c, v) for c in (a, b) for v in bits(cands[c])]
                return elimination_step(board, "aligned-pair-exclusion", 6.2, removed,
                                        pattern, (),
                                        f"aligned pair exclusion {cells_text(n, (a, b))}")
    return None


def implications(links: Links, start: int, true: bool = True
                 ) -> tuple[dict[int, int], dict[int, int], int | None]:
    """What follows from ``start`` being ``true`` by the links as they stand: the
    candidates made true and made false, each with the number of candidates on its chain,
    and a candidate found both (None if none)."""
    on: dict[int, int] = {}
    off: dict[int, int] = {}
    (on if true else off)[start] = 1
    queue = deque([(start, true)])
    while queue:
        nd, value = queue.popleft()
        depth = (on if value else off)[nd]
        if value:
            for other in links.weak_of(nd):
                if other in on:
                    return on, off, other
                if other not in off:
                    off[other] = depth + 1
                    queue.append((other, False))
        else:
            for other in links.strong_of(nd):
                if other in off:
                    return on, off, other
                if other not in on:
                    on[other] = depth + 1
                    queue.append((other, True))
    return on, off, None


def forcing_chain(board: Board) -> Step | None:
    """The shortest contradiction of a candidate by the links (see the module)."""
    links = Links(board)
    n = board.n
    best: tuple[int, int, int] | None = None
    for cell, mask in enumerate(board.cands):
        for value0 in range(n):
            if not mask >> value0 & 1 or mask == 1 << value0:
                continue
            start = cell * n + value0
            on, off, clash = implications(links, start)
            if clash is not None:
                length = on.get(clash, 0) + off.get(clash, 0)
                if best is None or length < best[0]:
                    best = (length, start, clash)
    if best is None:
        return None
    length, start, clash = best
    cell, value = links.pair(start)
    return elimination_step(
        board, "forcing-chain", 7.5 + length_bonus(length), [(cell, value)],
        [(cell, value), links.pair(clash)], (),
        f"forcing chain: {links.label(start)} true makes {links.label(clash)} both true "
        f"and false")


def _common(links: Links, branches: list[int], known: dict) -> tuple[int, list, list] | None:
    """What every branch makes true or false: (length, placed, removed); ``known`` keeps
    each node's implications for the next call."""
    results = []
    for nd in branches:
        if nd not in known:
            known[nd] = implications(links, nd)
        on, off, clash = known[nd]
        if clash is not None:
            return None        # a contradiction: the forcing chain's business
        results.append((on, off))
    ons = set(results[0][0]).intersection(*(set(r[0]) for r in results[1:]))
    offs = set(results[0][1]).intersection(*(set(r[1]) for r in results[1:]))
    cands = links.board.cands
    ons = {nd for nd in ons if cands[nd // links.n] & (cands[nd // links.n] - 1)}
    offs -= set(branches) if len(branches) == 1 else set()
    if not ons and not offs:
        return None
    def length(nd, side):
        return sum(r[side][nd] for r in results)
    pick_on = min(ons, key=lambda nd: length(nd, 0), default=None)
    pick_off = min(offs, key=lambda nd: length(nd, 1), default=None)
    if pick_on is not None and (pick_off is None or length(pick_on, 0) <= length(pick_off, 1)):
        return length(pick_on, 0), [pick_on], []
    assert pick_off is not None
    return length(pick_off, 1), [], [pick_off]


def cell_forcing_chain(board: Board) -> Step | None:
    """The shortest cell or unit forcing chain (see the module)."""
    links = Links(board)
    n, cands, layout = board.n, board.cands, board.layout
    best = None
    known: dict = {}
    for cell, mask in enumerate(cands):
        if mask & (mask - 1):
            branches = [cell * n + v for v in range(n) if mask >> v & 1]
            found = _common(links, branches, known)
            if found and (best is None or found[0] < best[0]):
                best = (found[0], found[1], found[2], branches, f"cell {cell_text(n, cell)}")
    for index, unit in enumerate(layout.units):
        for value0 in range(n):
            places = [c for c in unit if cands[c] >> value0 & 1]
            if len(places) < 2:
                continue
            branches = [c * n + value0 for c in places]
            found = _common(links, branches, known)
            if found and (best is None or found[0] < best[0]):
                best = (found[0], found[1], found[2], branches,
                        f"{value0 + 1} in {layout.unit_names[index]}")
    if best is None:
        return None
    length, placed, removed, branches, what = best
    rating = 7.9 + length_bonus(length)
    pattern = [links.pair(nd) for nd in branches]
    if placed:
        cell, value = links.pair(placed[0])
        return make_step(board, "cell-forcing-chain", rating, place=[(cell, value)],
                         pattern=pattern, text=f"{cell_text(n, cell)} = {value} (forcing "
                         f"chains from every candidate of {what})")
    return elimination_step(board, "cell-forcing-chain", rating,
                            [links.pair(nd) for nd in removed], pattern, (),
                            f"forcing chains from every candidate of {what}")


def _rectangles(board: Board):
    """Each rectangle of empty cells in two boxes: ``(corners, pair mask)`` for each pair of
    values all four corners still have."""
    n = board.n
    cands, box_of = board.cands, board.layout.box_of
    for r1, r2 in combinations(range(n), 2):
        for c1, c2 in combinations(range(n), 2):
            corners = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
            common = cands[corners[0]] & cands[corners[1]] & cands[corners[2]] & \
                cands[corners[3]]
            if common.bit_count() < 2 or len({box_of[c] for c in corners}) != 2:
                continue
            for x, y in combinations(bits(common), 2):
                yield corners, (1 << (x - 1)) | (1 << (y - 1))


def unique_rectangle(board: Board) -> Step | None:
    """A unique rectangle of type 1, 2 or 4 (see the module)."""
    cands, layout = board.cands, board.layout
    n = board.n
    for corners, pair in _rectangles(board):
        values = ",".join(map(str, bits(pair)))
        where = f"on {values} at {cells_text(n, corners)}"
        pattern = [(c, v) for c in corners for v in bits(pair)]
        exact = [c for c in corners if cands[c] == pair]
        if len(exact) == 3:
            extra = next(c for c in corners if c not in exact)
            removed = [(extra, v) for v in bits(pair)]
            return elimination_step(board, "unique-rectangle", 4.5, removed, pattern, (),
                                    f"unique rectangle type 1 {where}")
        if len(exact) != 2:
            continue
        roof = [c for c in corners if c not in exact]
        shared = set(layout.cell_units[roof[0]]) & set(layout.cell_units[roof[1]])
        if not any(layout.kind[u] in ("row", "column") for u in shared):
            continue
        extra_a, extra_b = cands[roof[0]] & ~pair, cands[roof[1]] & ~pair
        if extra_a == extra_b and extra_a.bit_count() == 1:
            z = extra_a.bit_length()
            removed = [(c, z) for c in layout.peers[roof[0]] & layout.peers[roof[1]]
                       if cands[c] & extra_a]
            if removed:
                return elimination_step(board, "unique-rectangle", 4.6, removed,
                                        pattern + [(c, z) for c in roof], (),
                                        f"unique rectangle type 2 {where}")
        for unit in sorted(shared):
            for strong in bits(pair):
                if len(board.cells_with(unit, strong)) == 2:
                    other = (pair & ~(1 << (strong - 1))).bit_length()
                    removed = [(c, other) for c in roof]
                    return elimination_step(
                        board, "unique-rectangle", 4.5, removed, pattern,
                        (layout.unit_names[unit],),
                        f"unique rectangle type 4 {where} ({strong} only there in "
                        f"{layout.unit_names[unit]})")
    return None


# -- chains.py: the Y-cycles before they were compiled (sudokit 40c5cc3) --------------

def y_cycle(board: Board, max_cells: int = 8) -> Step | None:
    """The shortest loop of bivalue cells, each seeing the next and sharing with it the
    value it does not share with the one before (Sudoku Explainer's bidirectional
    Y-cycle, 6.5 plus the length bonus of its candidates but two): the loop holds one way
    round or the other, so on each link one of its two cells holds its value, and a cell
    that sees both loses it."""
    cands, peers = board.cands, board.layout.peers
    n = board.n
    bivalue = [c for c in range(n * n) if cands[c].bit_count() == 2]
    near = {c: [d for d in bivalue if d in peers[c]] for c in bivalue}
    for size in range(4, max_cells + 1):
        for first in bivalue:
            for leave in bits(cands[first]):
                enter = (cands[first] & ~(1 << (leave - 1))).bit_length()
                found = _y_loop(board, near, [first], [leave], enter, size)
                if found is not None:
                    cells, out, removed = found
                    return _y_step(board, cells, out, removed)
    return None


def _y_loop(board: Board, near, cells: list[int], out: list[int], close: int, size: int):
    """Extend the path ``cells`` (each left on the value in ``out``) to a loop of ``size``
    cells back to its first cell on ``close`` that removes something."""
    cands = board.cands
    last, value = cells[-1], out[-1]
    bit = 1 << (value - 1)
    for cell in near[last]:
        if not cands[cell] & bit or cell < cells[0]:
            continue
        if len(cells) == size - 1 or cell == cells[0]:
            if cell in cells or len(cells) != size - 1:
                continue
            other = (cands[cell] & ~bit).bit_length()
            if other != close or cells[0] not in board.layout.peers[cell]:
                continue
            loop, leaves = cells + [cell], out + [other]
            removed = _y_removed(board, loop, leaves)
            if removed:
                return loop, leaves, removed
            continue
        if cell in cells:
            continue
        found = _y_loop(board, near, cells + [cell], out + [(cands[cell] & ~bit).bit_length()],
                        close, size)
        if found is not None:
            return found
    return None


def _y_removed(board: Board, loop: list[int], leaves: list[int]) -> list[tuple[int, int]]:
    """What a Y-cycle removes: on each link between two cells of the loop, the value they
    share, from every other cell that sees both."""
    cands, peers = board.cands, board.layout.peers
    inside = set(loop)
    removed = set()
    for i, cell in enumerate(loop):
        after, value = loop[(i + 1) % len(loop)], leaves[i]
        bit = 1 << (value - 1)
        removed |= {(c, value) for c in peers[cell] & peers[after]
                    if c not in inside and cands[c] & bit}
    return sorted(removed)


def _y_step(board: Board, loop: list[int], leaves: list[int], removed) -> Step:
    n = board.n
    cands = board.cands
    text = "-".join(f"{cell_text(n, c)} ({','.join(map(str, bits(cands[c])))})" for c in loop)
    pattern = [(c, v) for c in loop for v in bits(cands[c])]
    return elimination_step(board, "y-cycle", 6.5 + length_bonus(2 * len(loop) - 2), removed,
                            pattern, (), f"Y-cycle {text}")


# -- colouring.py: simple colouring before it was compiled (sudokit 40c5cc3) -----------

def _parts(board: Board, value: int) -> list[tuple[list[int], list[int]]]:
    """Each connected part of the value's conjugate graph as its two colours."""
    bit = 1 << (value - 1)
    layout, cands = board.layout, board.cands
    edges: dict[int, set[int]] = {}
    for unit in layout.units:
        places = [c for c in unit if cands[c] & bit]
        if len(places) == 2:
            a, b = places
            edges.setdefault(a, set()).add(b)
            edges.setdefault(b, set()).add(a)
    colour: dict[int, int] = {}
    parts = []
    for root in sorted(edges):
        if root in colour:
            continue
        colour[root] = 0
        stack, members = [root], [root]
        while stack:
            cell = stack.pop()
            for other in edges[cell]:
                if other not in colour:
                    colour[other] = 1 - colour[cell]
                    stack.append(other)
                    members.append(other)
        parts.append(([c for c in members if colour[c] == 0],
                      [c for c in members if colour[c] == 1]))
    return parts


def simple_colouring(board: Board) -> Step | None:
    """The first colour wrap or colour trap (see the module)."""
    layout, cands = board.layout, board.cands
    n = board.n
    for value in range(1, n + 1):
        bit = 1 << (value - 1)
        for green, blue in _parts(board, value):
            size = len(green) + len(blue)
            if size < 4:
                continue
            pattern = [(c, value) for c in green + blue]
            where = f"({cells_text(n, green)} | {cells_text(n, blue)})"
            rating = 6.5 + length_bonus(size)
            for colour in (green, blue):
                inside = set(colour)
                if any(layout.peers[c] & inside for c in colour):
                    return elimination_step(board, "simple-colouring", rating,
                                            [(c, value) for c in colour], pattern, (),
                                            f"simple colouring on {value}, colour wrap {where}")
            members = set(green) | set(blue)
            removed = [(c, value) for c in range(n * n) if cands[c] & bit and c not in members
                       and layout.peers[c] & set(green) and layout.peers[c] & set(blue)]
            if removed:
                return elimination_step(board, "simple-colouring", rating, removed, pattern,
                                        (), f"simple colouring on {value}, colour trap {where}")
    return None
