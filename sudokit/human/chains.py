"""Chains: X-chains, XY-chains and alternating inference chains (AIC).

A chain alternates strong links (not both false) and weak links (not both true), starting
and ending with a strong link: one of its two ends is true, so a candidate that sees both
ends is false. The search is breadth-first from each candidate, so the shortest chain that
removes something is found first.

- X-chain: one value, strong links are a unit's two places of the value (Sudoku Explainer
  rates a forcing X-chain 6.6 and up; Sukaku Explainer finds those of two, three and four
  strong links first, as "strong-linked fishes": :func:`turbot_fish` 4.0-4.2 and
  :func:`three_strong_links` 5.4-5.6, by the kinds of unit their strong links lie in);
- XY-chain: bivalue cells, strong links within a cell, weak links between cells on one
  value, both ends the same value (7.0 and up: SE's forcing Y-chains do not exist, it
  finds these as forcing chains over cells and units; only Y-cycles rate less);
- AIC: any strong and weak links (7.0 and up).

Each adds :func:`~sudokit.human.links.length_bonus` of its number of candidates.

Examples
--------
>>> from sudokit.formats import parse_puzzles
>>> from .path import solve_path, apply_step
>>> from .techniques import ORDER, SE_121
>>> p = parse_puzzles("2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...2"
...                   "1.......5.6.9.2.1...3.6.2..")[0].instance
>>> board = Board.of(p)
>>> before = [name for name in ORDER[:ORDER.index("x-chain")] if name in SE_121]
>>> for step in solve_path(p, techniques=before).steps:
...     apply_step(board, step)
>>> x_chain(board).text
'X-chain 4r5c1=4r6c2-4r9c2=4r9c8: -4 r5c8'
>>> turbot_fish(board).text, turbot_fish(board).rating
('turbot fish 4r5c1=4r6c2-4r9c2=4r9c8: -4 r5c8', 4.2)
>>> xy_chain(board) is None, aic(board).rating
(True, 7.0)
"""

from __future__ import annotations

from itertools import product

import numpy as np

from .board import Board, bits, cell_text
from .chain_kernel import (
    cands_array,
    chain_search_kernel,
    peer_table,
    sees_table,
    strong_rows,
    y_cycle_kernel,
)
from .links import Links, length_bonus
from .step import Step, elimination_step

__all__ = ["x_chain", "xy_chain", "aic", "chain_search", "turbot_fish", "three_strong_links",
           "STRONG_LINK_BASE", "y_cycle"]


def chain_search(board: Board, technique: str, base: float, name: str, *,
                 single_value: bool, cell_strong: bool, unit_strong: bool,
                 cell_weak: bool, unit_weak: bool, same_ends: bool,
                 max_nodes: int = 24, rating=None) -> Step | None:
    """The shortest alternating chain (by candidates, at most ``max_nodes``) of the links
    allowed that removes a candidate; ``same_ends``: both ends hold the same value. The
    step is rated ``base`` plus the length bonus of its candidates, or ``rating(board,
    chain)`` when given."""
    links = Links.of(board)
    peers, npeers = peer_table(board.layout)
    sptr, sdat = strong_rows(links, cell_strong, unit_strong)
    found, victims = chain_search_kernel(cands_array(links), board.n, peers, npeers, sptr, sdat,
                                         single_value, cell_weak, unit_weak, same_ends,
                                         max_nodes)
    if not len(found):
        return None
    chain = found.tolist()
    removed = [links.pair(v) for v in victims.tolist()]
    text = "".join(("" if i == 0 else ("=" if i % 2 else "-")) + links.label(nd)
                   for i, nd in enumerate(chain))
    pattern = [links.pair(nd) for nd in chain]
    value = base + length_bonus(len(chain)) if rating is None else rating(board, chain)
    return elimination_step(board, technique, value, removed, pattern, (), f"{name} {text}")


def x_chain(board: Board) -> Step | None:
    """The shortest single-value chain of conjugate pairs that removes a candidate."""
    return chain_search(board, "x-chain", 6.6, "X-chain", single_value=True,
                        cell_strong=False, unit_strong=True, cell_weak=False, unit_weak=True,
                        same_ends=True)


def xy_chain(board: Board) -> Step | None:
    """The shortest chain of bivalue cells that removes a candidate."""
    return chain_search(board, "xy-chain", 7.0, "XY-chain", single_value=False,
                        cell_strong=True, unit_strong=False, cell_weak=False, unit_weak=True,
                        same_ends=True)


def aic(board: Board) -> Step | None:
    """The shortest alternating inference chain that removes a candidate."""
    return chain_search(board, "aic", 7.0, "AIC", single_value=False, cell_strong=True,
                        unit_strong=True, cell_weak=True, unit_weak=True, same_ends=False)


#: Sukaku Explainer's base rating of a single-value chain of k strong links ("fish")
STRONG_LINK_BASE = {2: 4.0, 3: 5.4}


def _link_kinds(board: Board, a: int, b: int, value: int) -> set[str]:
    """The kinds of unit (row, column, box, ...) where ``value``'s only places are a, b."""
    layout = board.layout
    shared = set(layout.cell_units[a]) & set(layout.cell_units[b])
    return {layout.kind[u] for u in shared if len(board.cells_with(u, value)) == 2}


def strong_link_rating(board: Board, chain: list[int]) -> float:
    """Sukaku Explainer's rating of a chain of one value's strong links: the base of its
    number of links, plus 0.1 for links in both rows and columns or in a box (0.2 for both,
    three or more links); two links: rows or columns 4.0, a row and a column 4.1, a box 4.2.
    Each link counts in the kind of unit that rates the chain lowest."""
    n = board.n
    value = chain[0] % n + 1
    options = [_link_kinds(board, chain[i] // n, chain[i + 1] // n, value)
               for i in range(0, len(chain), 2)]
    count = len(options)
    best = None
    for kinds in product(*[sorted(o) or ["other"] for o in options]):
        lines = {k for k in kinds if k in ("row", "column")}
        boxy = any(k not in ("row", "column") for k in kinds)
        extra = 0.2 if boxy and len(lines) == 2 else 0.1 if boxy or len(lines) == 2 else 0.0
        if count == 2:
            extra = 0.2 if boxy else 0.1 if len(lines) == 2 else 0.0
        best = extra if best is None else min(best, extra)
    return STRONG_LINK_BASE[count] + (best or 0.0)


def _strong_links(board: Board, links: int, technique: str, name: str) -> Step | None:
    return chain_search(board, technique, STRONG_LINK_BASE[links], name, single_value=True,
                        cell_strong=False, unit_strong=True, cell_weak=False, unit_weak=True,
                        same_ends=True, max_nodes=2 * links, rating=strong_link_rating)


def turbot_fish(board: Board) -> Step | None:
    """Two strong links of one value joined by a weak link (skyscraper, two-string kite,
    turbot fish)."""
    return _strong_links(board, 2, "turbot-fish", "turbot fish")


def three_strong_links(board: Board) -> Step | None:
    """A single-value chain of three strong links."""
    return _strong_links(board, 3, "three-strong-links", "3 strong links")



def y_cycle(board: Board, max_cells: int = 8) -> Step | None:
    """The shortest loop of bivalue cells, each seeing the next and sharing with it the
    value it does not share with the one before (Sudoku Explainer's bidirectional
    Y-cycle, 6.5 plus the length bonus of its candidates but two): the loop holds one way
    round or the other, so on each link one of its two cells holds its value, and a cell
    that sees both loses it."""
    peers, npeers = peer_table(board.layout)
    loop, leaves, removed = y_cycle_kernel(np.array(board.cands, dtype=np.int64), board.n,
                                           peers, npeers, sees_table(board.layout),
                                           max_cells)
    if not len(loop):
        return None
    n = board.n
    return _y_step(board, loop.tolist(), leaves.tolist(),
                   [(v // n, v % n + 1) for v in sorted(removed.tolist())])


def _y_step(board: Board, loop: list[int], leaves: list[int], removed) -> Step:
    n = board.n
    cands = board.cands
    text = "-".join(f"{cell_text(n, c)} ({','.join(map(str, bits(cands[c])))})" for c in loop)
    pattern = [(c, v) for c in loop for v in bits(cands[c])]
    return elimination_step(board, "y-cycle", 6.5 + length_bonus(2 * len(loop) - 2), removed,
                            pattern, (), f"Y-cycle {text}")
