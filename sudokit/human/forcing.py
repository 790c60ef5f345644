"""Forcing chains and forcing nets: the last resort.

- Forcing chain (Sudoku Explainer's Nishio forcing chains, 7.5 and up by length): assume
  a candidate true and follow the links as they are (a true candidate makes the candidates
  it sees false; a false one makes its strong partner true); a candidate that ends both
  true and false proves the assumption false.
- Cell and unit forcing chains (7.9 plus the length bonus of all the branches' candidates;
  SE's table says 8.2-8.7, common 8.2-8.5, which 7.9 matched best on SE-rated puzzles):
  every candidate of a cell, or every place of a value in a unit, leads by those links to
  the same candidate true (it is placed) or false (it is removed).
- Forcing net (Sudoku Explainer's dynamic forcing chains, 8.5 and up): assume a candidate
  true, place it and go on placing singles on the changed grid; a cell with no candidate
  or a value with no place proves the assumption false. When no such contradiction
  follows from singles, the net also uses locked candidates and pairs as it goes (9.0 and
  up, SE's "dynamic forcing chains (+)").

The length bonus (:func:`~sudokit.human.links.length_bonus`) counts the candidates of the
chains or the deductions of the net, the shortest found is reported.

Examples
--------
>>> from sudokit.formats import parse_puzzles
>>> from .board import Board
>>> p = parse_puzzles("4.....8.5.3..........7......2.....6.....8.4......1......."
...                   "6.3.7.5..2.....1.4......")[0].instance
>>> step = forcing_net(Board.of(p))
>>> step.technique, step.rating >= 8.5, len(step.eliminations)
('forcing-net', True, 1)
"""

from __future__ import annotations

from collections import deque

from .board import Board, cell_text
from .chain_kernel import (
    cands_array,
    cell_forcing_kernel,
    forcing_chain_kernel,
    peer_table,
    strong_rows,
    unit_table,
)
from .chain_kernel import implications as kernel_implications
from .links import Links, length_bonus
from .step import Step, elimination_step, make_step

__all__ = ["forcing_chain", "cell_forcing_chain", "forcing_net", "implications", "propagate"]


def implications(links: Links, start: int, true: bool = True
                 ) -> tuple[dict[int, int], dict[int, int], int | None]:
    """What follows from ``start`` being ``true`` by the links as they stand: the
    candidates made true and made false, each with the number of candidates on its chain,
    and a candidate found both (None if none)."""
    weak_of = links.weak_of
    strong_of = links.strong_list(True, True)
    on: dict[int, int] = {}
    off: dict[int, int] = {}
    (on if true else off)[start] = 1
    queue = deque([(start, true)])
    while queue:
        nd, value = queue.popleft()
        depth = (on if value else off)[nd]
        if value:
            for other in weak_of(nd):
                if other in on:
                    return on, off, other
                if other not in off:
                    off[other] = depth + 1
                    queue.append((other, False))
        else:
            for other in strong_of(nd):
                if other in off:
                    return on, off, other
                if other not in on:
                    on[other] = depth + 1
                    queue.append((other, True))
    return on, off, None


def _implied(links: Links, start: int) -> tuple[dict[int, int], dict[int, int], int | None]:
    """:func:`implications` of ``start`` true, by the compiled walk, kept with ``links``
    (the forcing chains of one board ask the same ones; callers must not change the
    dicts, which hold the nodes in the order :func:`implications` reaches them)."""
    kept = links.kept.setdefault(("implications",), {})
    found = kept.get(start)
    if found is None:
        peers, npeers = peer_table(links.board.layout)
        sptr, sdat = strong_rows(links, True, True)
        on, on_depth, off, off_depth, clash = kernel_implications(
            cands_array(links), links.n, peers, npeers, sptr, sdat, start)
        found = kept[start] = (dict(zip(on.tolist(), on_depth.tolist(), strict=True)),
                               dict(zip(off.tolist(), off_depth.tolist(), strict=True)),
                               None if clash < 0 else int(clash))
    return found


def forcing_chain(board: Board) -> Step | None:
    """The shortest contradiction of a candidate by the links (see the module)."""
    links = Links.of(board)
    peers, npeers = peer_table(board.layout)
    sptr, sdat = strong_rows(links, True, True)
    best = forcing_chain_kernel(cands_array(links), board.n, peers, npeers, sptr, sdat)
    if best[1] < 0:
        return None
    length, start, clash = (int(x) for x in best)
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
            known[nd] = _implied(links, nd)
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
    links = Links.of(board)
    n, cands, layout = board.n, board.cands, board.layout
    peers, npeers = peer_table(layout)
    table, sizes = unit_table(layout)
    length, unit, index = (int(x) for x in cell_forcing_kernel(
        cands_array(links), n, peers, npeers, *strong_rows(links, True, True), table, sizes))
    if not length:
        return None
    # the group the kernel found shortest: what it proves, picked as the Python sets do
    if unit < 0:
        branches = [index * n + v for v in range(n) if cands[index] >> v & 1]
        what = f"cell {cell_text(n, index)}"
    else:
        branches = [c * n + index for c in layout.units[unit] if cands[c] >> index & 1]
        what = f"{index + 1} in {layout.unit_names[unit]}"
    found = _common(links, branches, {})
    best = None if found is None else (found[0], found[1], found[2], branches, what)
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


def propagate(board: Board, strong: bool = False, limit: int = 10_000) -> tuple[bool, int]:
    """Place singles on ``board`` (changed in place) until none is left: ``(contradiction,
    deductions made)``. ``strong`` also applies locked candidates and pairs."""
    from .intersections import claiming, pointing
    from .subsets import hidden_pair, naked_pair

    layout, cands, values = board.layout, board.cands, board.values
    full = layout.full
    count = 0
    while count < limit:
        progress = False
        for cell in range(len(cands)):
            mask = cands[cell]
            if values[cell]:
                continue
            if not mask:
                return True, count
            if not mask & (mask - 1):
                board.place(cell, mask.bit_length())
                count += 1
                progress = True
        for unit in layout.units:
            once = twice = placed = 0
            for cell in unit:
                mask = cands[cell]
                twice |= once & mask
                once |= mask
                if values[cell]:
                    bit = 1 << (values[cell] - 1)
                    if placed & bit:
                        return True, count
                    placed |= bit
            if (once | placed) != full and len(unit) == board.n:
                return True, count
            single = once & ~twice & ~placed
            while single:
                low = single & -single
                single ^= low
                cell = next((c for c in unit if cands[c] & low), -1)
                if cell < 0:           # two values with one place, the same cell
                    return True, count
                board.place(cell, low.bit_length())
                count += 1
                progress = True
        if progress:
            continue
        if strong:
            for find in (pointing, claiming, naked_pair, hidden_pair):
                step = find(board)
                if step is not None:
                    for row, col, value in step.eliminations:
                        board.eliminate(row * board.n + col, value)
                    count += 1
                    progress = True
                    break
        if not progress:
            return False, count
    return False, count


def forcing_net(board: Board) -> Step | None:
    """The shortest forcing net that removes a candidate (see the module)."""
    n = board.n
    for strong, base in ((False, 8.5), (True, 9.0)):
        best = None
        for cell, mask in enumerate(board.cands):
            if not mask & (mask - 1):
                continue
            for value0 in range(n):
                if not mask >> value0 & 1:
                    continue
                trial = board.copy()
                trial.place(cell, value0 + 1)
                clash, count = propagate(trial, strong,
                                         limit=best[0] if best is not None else 10_000)
                if clash and (best is None or count + 1 < best[0]):
                    best = (count + 1, cell, value0 + 1)
        if best is not None:
            length, cell, value = best
            word = "forcing net" if not strong else "forcing net (with locked candidates " \
                "and pairs)"
            return elimination_step(
                board, "forcing-net", base + length_bonus(length), [(cell, value)],
                [(cell, value)], (),
                f"{word}: {value}{cell_text(n, cell)} true leads to a contradiction in "
                f"{length} deductions")
    return None
