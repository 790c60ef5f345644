"""Compiled kernels of the chain techniques: the breadth-first chain search (X-chains,
XY-chains, AICs, turbot fish, three strong links), the forcing chains' implications, the
cell and unit forcing chains, the Y-cycles and simple colouring, over arrays of a board's
candidates and links.

A candidate is a node ``cell * n + value - 1`` (as in :mod:`~sudokit.human.links`). The
kernels read:

- ``cands``: each cell's candidate mask (``int64``, a board's ``cands``);
- ``peers``, ``npeers``: each cell's peers, in the order the board's layout iterates them
  (``layout.peers[cell]``: the weak links of a node come in that order, and the order
  decides which of two chains of one length a search meets first), padded with -1;
- ``sptr``, ``sdat``: each node's strong links in compressed rows (node ``x``'s partners
  are ``sdat[sptr[x]:sptr[x + 1]]``), in the order of
  :meth:`~sudokit.human.links.Links.strong_list`, which is a Python set's
  (:func:`strong_rows`: a kernel orders them as CPython's small sets do, else they are read
  from the sets), so the kernels walk them as the Python finders did.

The weak links of a node (every candidate false when it is true) are the other candidates
of its cell, in value order (``cell`` links), then its value in the cell's peers (``unit``
links). The Python side (:mod:`~sudokit.human.chains`, :mod:`~sudokit.human.forcing`,
:mod:`~sudokit.human.colouring`) builds the steps from what the kernels return, so a step
is the one the Python search found, candidate for candidate
(``tests/human/test_chain_kernel.py`` checks each kernel against the Python finder it
replaced, kept in ``tests/human/human_reference.py``).

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> from .board import Board
>>> from .links import Links
>>> board = Board.of(latin_square(np.array([[1, 0, 0], [0, 0, 0], [0, 0, 0]])))
>>> links = Links(board)
>>> peers, npeers = peer_table(board.layout)
>>> sptr, sdat = strong_rows(links, True, True)
>>> [int(x) for x in sdat[sptr[3 * 1 + 1]:sptr[3 * 1 + 2]]]   # 2r1c2: 3r1c2, 2r1c3 (set order)
[5, 7]
>>> on, on_depth, off, off_depth, clash = implications(
...     cands_array(links), 3, peers, npeers, sptr, sdat, 3 * 1 + 1)
>>> [int(x) for x in on], [int(x) for x in off_depth], int(clash)   # 2r1c2 true: 3r1c3 too
([4, 8], [2, 2, 2, 2, 4, 4], -1)
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from .._accel.numba_cache import njit
from ..solvers.cp_bits import popcount
from .board import Layout
from .links import Links
from .tables import layout_arrays

__all__ = ["peer_table", "sees_table", "unit_table", "cands_array", "strong_rows",
           "set_order_holds", "small_set_order", "strong_rows_kernel", "chain_search_kernel",
           "implications", "forcing_chain_kernel", "cell_forcing_kernel", "y_cycle_kernel",
           "simple_colouring_kernel"]

def peer_table(layout: Layout) -> tuple[np.ndarray, np.ndarray]:
    """``(peers, npeers)`` of a layout: each cell's peers in ``layout.peers`` order, padded
    with -1 (:func:`~sudokit.human.tables.layout_arrays`, kept while the layout lives)."""
    arrays = layout_arrays(layout)
    return arrays.peers, arrays.npeers


def sees_table(layout: Layout) -> np.ndarray:
    """``sees[a, b]``: cells ``a`` and ``b`` of a layout are peers (kept while it lives)."""
    return layout_arrays(layout).peer


def unit_table(layout: Layout) -> tuple[np.ndarray, np.ndarray]:
    """``(units, sizes)``: each unit's cells in order, padded with -1, and its size (kept
    while the layout lives)."""
    arrays = layout_arrays(layout)
    return arrays.units, arrays.sizes


def cands_array(links: Links) -> np.ndarray:
    """The candidate masks of the links' board as an ``int64`` array (kept with ``links``:
    the board must not change while they are in use)."""
    found = links.kept.get(("cands",))
    if found is None:
        found = links.kept[("cands",)] = np.array(links.board.cands, dtype=np.int64)
    return found


def strong_rows(links: Links, cells: bool, units: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(sptr, sdat)``: the strong links of the kinds asked of every node, in compressed
    rows, each node's in :meth:`~sudokit.human.links.Links.strong_list` order (kept with
    ``links``): by the kernel :func:`strong_rows_kernel` where it can order them as
    CPython's sets do (:func:`set_order_holds`), else from the links' Python sets."""
    key = ("strong-rows", cells, units)
    found = links.kept.get(key)
    if found is None:
        board = links.board
        sptr = sdat = None
        if set_order_holds():
            table, sizes = unit_table(board.layout)
            sptr, sdat, ok = strong_rows_kernel(cands_array(links), links.n, table, sizes,
                                                cells, units)
            if not ok:            # a node with more than four strong links
                sptr = sdat = None
        if sptr is None or sdat is None:
            sptr, sdat = _strong_rows_of_sets(links, cells, units)
        found = links.kept[key] = (sptr, sdat)
    return found


def _strong_rows_of_sets(links: Links, cells: bool, units: bool
                         ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`strong_rows` read from the links' Python sets."""
    nodes = len(links.board.cands) * links.n
    starts = sorted(set(links.strong_cell) if cells and not units else
                    set(links.strong_unit) if units and not cells else
                    set(links.strong_cell) | set(links.strong_unit))
    strong_list = links.strong_list(cells, units)
    rows = [strong_list(nd) for nd in starts]
    sizes = np.zeros(nodes + 1, dtype=np.int64)
    sizes[np.array(starts, dtype=np.int64) + 1] = [len(r) for r in rows]
    return np.cumsum(sizes), np.array([x for r in rows for x in r], dtype=np.int64)


@functools.cache
def set_order_holds() -> bool:
    """Whether :func:`small_set_order` gives the order in which this Python iterates a set
    of up to four non-negative ints built by adding them one by one, and a union of two
    such sets of four at most (CPython's eight-slot tables, the case of a node's strong
    links; checked once per process on every ordering of sets of nodes that collide)."""
    for values in itertools.permutations((0, 8, 16, 3, 11, 731, 19), 4):
        for keep in range(1, 5):
            adds = np.array(values[:keep], dtype=np.int64)
            built: set[int] = set()
            for value in values[:keep]:
                built.add(value)
            if small_set_order(adds, -1).tolist() != list(built):
                return False
            if keep < 4:
                union = {values[keep]}
                union |= built
                if small_set_order(adds, values[keep]).tolist() != list(union):
                    return False
    return True


@njit(cache=True)
def _slot_insert(table, key):
    """Add ``key`` (>= 0) to an eight-slot open-addressing table as CPython's
    ``set_add_entry`` does (``-1``: empty)."""
    i = key & 7
    perturb = key
    while True:
        if table[i] < 0:
            table[i] = key
            return
        if table[i] == key:
            return
        perturb >>= 5
        i = (i * 5 + 1 + perturb) & 7


@njit(cache=True)
def small_set_order(adds, first):
    """The iteration order of ``s = set(); s.add(a) for a in adds`` (up to four
    non-negative ints), or, when ``first >= 0``, of ``u = {first}; u |= s``."""
    table = np.full(8, -1, dtype=np.int64)
    for a in adds:
        _slot_insert(table, a)
    if first >= 0:
        union = np.full(8, -1, dtype=np.int64)
        _slot_insert(union, first)
        for i in range(8):
            if table[i] >= 0:
                _slot_insert(union, table[i])
        table = union
    count = 0
    for i in range(8):
        if table[i] >= 0:
            count += 1
    out = np.empty(count, dtype=np.int64)
    count = 0
    for i in range(8):
        if table[i] >= 0:
            out[count] = table[i]
            count += 1
    return out


@njit(cache=True)
def strong_rows_kernel(cands, n, units, sizes, cell_links, unit_links):
    """``(sptr, sdat, ok)``: :func:`strong_rows` built from the candidates as
    :class:`~sudokit.human.links.Links` builds its sets (a bivalue cell's two candidates;
    a value's two places in a unit, unit by unit), each node's row in its set's order
    (:func:`small_set_order`); ``ok`` is False when a node has more than four strong
    links (a larger table: the caller reads the Python sets)."""
    cells = cands.shape[0]
    nodes = cells * n
    partners = np.full((nodes, 4), -1, dtype=np.int64)
    count = np.zeros(nodes, dtype=np.int64)
    ok = True
    if unit_links:
        for u in range(units.shape[0]):
            once = 0
            twice = 0
            thrice = 0
            for k in range(sizes[u]):
                mask = cands[units[u, k]]
                thrice |= twice & mask
                twice |= once & mask
                once |= mask
            pairs = twice & ~thrice
            value0 = 0
            while pairs:
                if pairs & 1:
                    a = -1
                    b = -1
                    for k in range(sizes[u]):
                        c = units[u, k]
                        if cands[c] >> value0 & 1:
                            if a < 0:
                                a = c
                            else:
                                b = c
                    for x, y in ((a, b), (b, a)):
                        nd = x * n + value0
                        other = y * n + value0
                        repeat = False
                        for j in range(count[nd]):
                            if partners[nd, j] == other:
                                repeat = True
                        if not repeat:
                            if count[nd] == 3 + (not cell_links):
                                ok = False
                            else:
                                partners[nd, count[nd]] = other
                                count[nd] += 1
                pairs >>= 1
                value0 += 1
    sptr = np.zeros(nodes + 1, dtype=np.int64)
    sdat = np.empty(5 * nodes, dtype=np.int64)
    at = 0
    for nd in range(nodes):
        sptr[nd] = at
        cell = nd // n
        mask = cands[cell]
        first = -1
        if cell_links and mask >> (nd % n) & 1 and mask & (mask - 1) and \
                not (mask & (mask - 1)) & ((mask & (mask - 1)) - 1):
            rest = mask & ~(1 << (nd % n))
            v = 0
            while rest > 1:
                rest >>= 1
                v += 1
            first = cell * n + v
            if count[nd] == 4:
                ok = False
        if count[nd] == 0:
            if first >= 0:
                sdat[at] = first
                at += 1
            continue
        row = small_set_order(partners[nd, :count[nd]], first)
        for x in row:
            sdat[at] = x
            at += 1
    sptr[nodes] = at
    return sptr, sdat[:at].copy(), ok


@njit(cache=True)
def _weak(cands, n, peers, npeers, nd, cell_links, unit_links, out):
    """The weak links of ``nd`` of the kinds asked, in their order, into ``out``; how many."""
    cell = nd // n
    value0 = nd % n
    count = 0
    if cell_links:
        mask = cands[cell] & ~(1 << value0)
        v = 0
        while mask:
            if mask & 1:
                out[count] = cell * n + v
                count += 1
            mask >>= 1
            v += 1
    if unit_links:
        bit = 1 << value0
        for k in range(npeers[cell]):
            p = peers[cell, k]
            if cands[p] & bit:
                out[count] = p * n + value0
                count += 1
    return count


@njit(cache=True)
def chain_search_kernel(cands, n, peers, npeers, sptr, sdat, single_value, cell_weak,
                        unit_weak, same_ends, max_nodes):
    """The breadth-first search of :func:`sudokit.human.chains.chain_search`: ``(chain,
    victims)``, the nodes of the shortest chain that removes something (empty when none)
    and the nodes it removes, in the Python search's order."""
    nodes = cands.shape[0] * n
    width = n + peers.shape[1]
    is_start = np.zeros(nodes, dtype=np.bool_)
    for x in range(nodes):
        is_start[x] = sptr[x + 1] > sptr[x]
    seen = np.zeros(2 * nodes, dtype=np.int64)       # the start's stamp when reached
    parent = np.zeros(2 * nodes, dtype=np.int64)
    marked = np.zeros(nodes, dtype=np.int64)          # the start's stamp: a start's weak link
    level = np.empty(nodes, dtype=np.int64)
    nxt = np.empty(nodes, dtype=np.int64)
    around = np.empty(width, dtype=np.int64)
    victims = np.empty(width, dtype=np.int64)
    best_chain = np.empty(0, dtype=np.int64)
    best_victims = np.empty(0, dtype=np.int64)
    best_depth = -1
    stamp = 0
    for start in range(nodes):
        if not is_start[start]:
            continue
        stamp += 1
        value0 = start % n
        k = _weak(cands, n, peers, npeers, start, True, True, around)
        for i in range(k):
            marked[around[i]] = stamp
        seen[2 * start] = stamp
        parent[2 * start] = -1
        level[0] = start
        size, depth, true = 1, 1, False
        found, found_victims = -1, 0
        while size:
            if best_depth >= 0 and depth >= best_depth:
                break
            if true and depth >= 4:
                for i in range(size):
                    nd = level[i]
                    if nd == start or (same_ends and nd % n != value0):
                        continue
                    k = _weak(cands, n, peers, npeers, nd, True, True, around)
                    count = 0
                    for j in range(k):
                        if marked[around[j]] == stamp and around[j] != start:
                            victims[count] = around[j]
                            count += 1
                    if count:
                        found, found_victims = nd, count
                        break
                if found >= 0:
                    break
            if depth >= max_nodes:
                break
            flag = 0 if true else 1
            count = 0
            for i in range(size):
                nd = level[i]
                here = 2 * nd + (1 - flag)
                if true:
                    k = _weak(cands, n, peers, npeers, nd, cell_weak, unit_weak, around)
                    for j in range(k):
                        nx = around[j]
                        if not is_start[nx] or (single_value and nx % n != value0):
                            continue
                        key = 2 * nx + flag
                        if seen[key] != stamp:
                            seen[key] = stamp
                            parent[key] = here
                            nxt[count] = nx
                            count += 1
                else:
                    for j in range(sptr[nd], sptr[nd + 1]):
                        nx = sdat[j]
                        if single_value and nx % n != value0:
                            continue
                        key = 2 * nx + flag
                        if seen[key] != stamp:
                            seen[key] = stamp
                            parent[key] = here
                            nxt[count] = nx
                            count += 1
            level, nxt = nxt, level
            size, depth, true = count, depth + 1, not true
        if found >= 0:
            best_depth = depth
            best_chain = np.empty(depth, dtype=np.int64)
            key = 2 * found + 1
            i = depth
            while key >= 0:
                i -= 1
                best_chain[i] = key >> 1
                key = parent[key]
            best_victims = victims[:found_victims].copy()
    return best_chain, best_victims


@njit(cache=True)
def _implications(cands, n, peers, npeers, sptr, sdat, start, on, off, queue, around):
    """The breadth-first walk of :func:`implications` into ``on`` and ``off`` (each node's
    depth, 0 when not reached; reset by the caller) and ``queue`` (the states reached, in
    order: ``2 * node + 1`` true, ``2 * node`` false); ``(states, clash)``."""
    on[start] = 1
    queue[0] = 2 * start + 1
    head, tail = 0, 1
    while head < tail:
        state = queue[head]
        head += 1
        nd = state >> 1
        if state & 1:
            depth = on[nd]
            k = _weak(cands, n, peers, npeers, nd, True, True, around)
            for j in range(k):
                other = around[j]
                if on[other]:
                    return tail, other
                if not off[other]:
                    off[other] = depth + 1
                    queue[tail] = 2 * other
                    tail += 1
        else:
            depth = off[nd]
            for j in range(sptr[nd], sptr[nd + 1]):
                other = sdat[j]
                if off[other]:
                    return tail, other
                if not on[other]:
                    on[other] = depth + 1
                    queue[tail] = 2 * other + 1
                    tail += 1
    return tail, -1


@njit(cache=True)
def implications(cands, n, peers, npeers, sptr, sdat, start):
    """What follows from node ``start`` true (:func:`sudokit.human.forcing.implications`):
    ``(on, on_depth, off, off_depth, clash)``, the nodes made true and false in the order
    they were reached with their depths, and the node found both (-1 if none)."""
    nodes = cands.shape[0] * n
    on = np.zeros(nodes, dtype=np.int64)
    off = np.zeros(nodes, dtype=np.int64)
    queue = np.empty(2 * nodes, dtype=np.int64)
    around = np.empty(n + peers.shape[1], dtype=np.int64)
    tail, clash = _implications(cands, n, peers, npeers, sptr, sdat, start, on, off, queue,
                                around)
    trues = 0
    for i in range(tail):
        trues += queue[i] & 1
    on_nodes = np.empty(trues, dtype=np.int64)
    on_depth = np.empty(trues, dtype=np.int64)
    off_nodes = np.empty(tail - trues, dtype=np.int64)
    off_depth = np.empty(tail - trues, dtype=np.int64)
    a = b = 0
    for i in range(tail):
        nd = queue[i] >> 1
        if queue[i] & 1:
            on_nodes[a] = nd
            on_depth[a] = on[nd]
            a += 1
        else:
            off_nodes[b] = nd
            off_depth[b] = off[nd]
            b += 1
    return on_nodes, on_depth, off_nodes, off_depth, clash


@njit(cache=True)
def forcing_chain_kernel(cands, n, peers, npeers, sptr, sdat):
    """The search of :func:`sudokit.human.forcing.forcing_chain`: ``(length, start,
    clash)`` of the shortest contradiction (the first of that length, by start), or
    ``(0, -1, -1)``."""
    cells = cands.shape[0]
    nodes = cells * n
    on = np.zeros(nodes, dtype=np.int64)
    off = np.zeros(nodes, dtype=np.int64)
    queue = np.empty(2 * nodes, dtype=np.int64)
    around = np.empty(n + peers.shape[1], dtype=np.int64)
    best, best_start, best_clash = 0, -1, -1
    for cell in range(cells):
        mask = cands[cell]
        for value0 in range(n):
            if not mask >> value0 & 1 or mask == 1 << value0:
                continue
            start = cell * n + value0
            tail, clash = _implications(cands, n, peers, npeers, sptr, sdat, start, on, off,
                                        queue, around)
            if clash >= 0:
                length = on[clash] + off[clash]
                if best == 0 or length < best:
                    best, best_start, best_clash = length, start, clash
            for i in range(tail):
                nd = queue[i] >> 1
                on[nd] = 0
                off[nd] = 0
    return best, best_start, best_clash


@njit(cache=True)
def _y_removed(cands, n, peers, npeers, loop, leaves, size, inside, out):
    """What a Y-cycle of ``size`` cells removes, as ``cell * n + value - 1`` nodes into
    ``out`` (unsorted, no repeats); how many. ``inside`` marks the loop's cells."""
    count = 0
    for i in range(size):
        cell = loop[i]
        after = loop[(i + 1) % size]
        value0 = leaves[i] - 1
        bit = 1 << value0
        for k in range(npeers[cell]):
            c = peers[cell, k]
            if inside[c] or not cands[c] & bit:
                continue
            common = False
            for m in range(npeers[after]):
                if peers[after, m] == c:
                    common = True
                    break
            if not common:
                continue
            node = c * n + value0
            repeat = False
            for m in range(count):
                if out[m] == node:
                    repeat = True
                    break
            if not repeat:
                out[count] = node
                count += 1
    return count


@njit(cache=True)
def _other_value(mask, bit):
    """The value (1-based) of the highest candidate of ``mask`` without ``bit``."""
    rest = mask & ~bit
    value = 0
    while rest:
        rest >>= 1
        value += 1
    return value


@njit(cache=True)
def y_cycle_kernel(cands, n, peers, npeers, sees, max_cells):
    """The search of :func:`sudokit.human.chains.y_cycle`: ``(loop, leaves, removed)``, the
    cells of the first loop found that removes something, the value each leaves on, and the
    nodes removed (empty arrays when none). ``sees[a, b]``: cells a and b are peers."""
    cells = cands.shape[0]
    bivalue = np.empty(cells, dtype=np.int64)
    nb = 0
    for c in range(cells):
        if popcount(cands[c]) == 2:
            bivalue[nb] = c
            nb += 1
    near_ptr = np.zeros(cells + 1, dtype=np.int64)
    near = np.empty(nb * nb + 1, dtype=np.int64)
    count = 0
    for c in range(cells):
        near_ptr[c] = count
        if popcount(cands[c]) == 2:
            for i in range(nb):
                if sees[c, bivalue[i]]:
                    near[count] = bivalue[i]
                    count += 1
    near_ptr[cells] = count
    loop = np.empty(max_cells + 1, dtype=np.int64)
    leaves = np.empty(max_cells + 1, dtype=np.int64)
    at = np.zeros(max_cells + 1, dtype=np.int64)      # the next neighbour to try, per depth
    inside = np.zeros(cells, dtype=np.bool_)
    removed = np.empty(cells * n, dtype=np.int64)
    for size in range(4, max_cells + 1):
        for f in range(nb):
            first = bivalue[f]
            for leave in range(1, n + 1):
                if not cands[first] >> (leave - 1) & 1:
                    continue
                close = _other_value(cands[first], 1 << (leave - 1))
                loop[0], leaves[0] = first, leave
                inside[first] = True
                depth = 1                 # cells on the path
                at[1] = near_ptr[first]
                while depth >= 1:
                    last = loop[depth - 1]
                    bit = 1 << (leaves[depth - 1] - 1)
                    if at[depth] >= near_ptr[last + 1]:
                        depth -= 1        # back: this path has no more neighbours
                        if depth >= 1:
                            inside[loop[depth]] = False
                        continue
                    cell = near[at[depth]]
                    at[depth] += 1
                    if not cands[cell] & bit or cell < first:
                        continue
                    if depth == size - 1 or cell == first:
                        if inside[cell] or depth != size - 1:
                            continue
                        other = _other_value(cands[cell], bit)
                        if other != close or not sees[cell, first]:
                            continue
                        loop[depth], leaves[depth] = cell, other
                        inside[cell] = True
                        k = _y_removed(cands, n, peers, npeers, loop, leaves, size, inside,
                                       removed)
                        inside[cell] = False
                        if k:
                            return loop[:size].copy(), leaves[:size].copy(), \
                                removed[:k].copy()
                        continue
                    if inside[cell]:
                        continue
                    loop[depth], leaves[depth] = cell, _other_value(cands[cell], bit)
                    inside[cell] = True
                    depth += 1
                    at[depth] = near_ptr[cell]
                inside[first] = False
    empty = np.empty(0, dtype=np.int64)
    return empty, empty, empty


@njit(cache=True)
def _group_length(cands, n, peers, npeers, sptr, sdat, branches, count, on, off, queue,
                  around, on_hits, on_sum, off_hits, off_sum):
    """The length :func:`sudokit.human.forcing.cell_forcing_chain` gives one group of
    branches (what all of them make true, or else false, with the least sum of chain
    lengths; a true one wins a tie), 0 when they share nothing or one of them clashes."""
    nodes = cands.shape[0] * n
    on_hits[:] = 0
    on_sum[:] = 0
    off_hits[:] = 0
    off_sum[:] = 0
    for b in range(count):
        tail, clash = _implications(cands, n, peers, npeers, sptr, sdat, branches[b], on, off,
                                    queue, around)
        for i in range(tail):
            nd = queue[i] >> 1
            if queue[i] & 1:
                on_hits[nd] += 1
                on_sum[nd] += on[nd]
            else:
                off_hits[nd] += 1
                off_sum[nd] += off[nd]
            on[nd] = 0
            off[nd] = 0
        if clash >= 0:
            return 0
    best_on = 0
    best_off = 0
    for nd in range(nodes):
        if on_hits[nd] == count:
            mask = cands[nd // n]
            if mask & (mask - 1) and (best_on == 0 or on_sum[nd] < best_on):
                best_on = on_sum[nd]
        if off_hits[nd] == count:
            alone = False
            if count == 1 and nd == branches[0]:
                alone = True
            if not alone and (best_off == 0 or off_sum[nd] < best_off):
                best_off = off_sum[nd]
    if best_on and (best_off == 0 or best_on <= best_off):
        return best_on
    return best_off


@njit(cache=True)
def cell_forcing_kernel(cands, n, peers, npeers, sptr, sdat, units, sizes):
    """The search of :func:`sudokit.human.forcing.cell_forcing_chain`: ``(length, unit,
    index)`` of the first group of branches with the least length, ``unit`` -1 for a
    cell's candidates (``index``: the cell), else the unit and ``index`` the value (0-based);
    ``(0, -1, -1)`` when none. The caller works out what the group proves."""
    cells = cands.shape[0]
    nodes = cells * n
    on = np.zeros(nodes, dtype=np.int64)
    off = np.zeros(nodes, dtype=np.int64)
    queue = np.empty(2 * nodes, dtype=np.int64)
    around = np.empty(n + peers.shape[1], dtype=np.int64)
    on_hits = np.zeros(nodes, dtype=np.int64)
    on_sum = np.zeros(nodes, dtype=np.int64)
    off_hits = np.zeros(nodes, dtype=np.int64)
    off_sum = np.zeros(nodes, dtype=np.int64)
    branches = np.empty(max(n, units.shape[1]), dtype=np.int64)
    best, best_unit, best_index = 0, -1, -1
    for cell in range(cells):
        mask = cands[cell]
        if not mask & (mask - 1):
            continue
        count = 0
        for v in range(n):
            if mask >> v & 1:
                branches[count] = cell * n + v
                count += 1
        length = _group_length(cands, n, peers, npeers, sptr, sdat, branches, count, on, off,
                               queue, around, on_hits, on_sum, off_hits, off_sum)
        if length and (best == 0 or length < best):
            best, best_unit, best_index = length, -1, cell
    for u in range(units.shape[0]):
        for value0 in range(n):
            count = 0
            for k in range(sizes[u]):
                c = units[u, k]
                if cands[c] >> value0 & 1:
                    branches[count] = c * n + value0
                    count += 1
            if count < 2:
                continue
            length = _group_length(cands, n, peers, npeers, sptr, sdat, branches, count, on,
                                   off, queue, around, on_hits, on_sum, off_hits, off_sum)
            if length and (best == 0 or length < best):
                best, best_unit, best_index = length, u, value0
    return best, best_unit, best_index


@njit(cache=True)
def simple_colouring_kernel(cands, n, units, sizes, sees):
    """The search of :func:`sudokit.human.colouring.simple_colouring`: ``(value, wrap,
    colour, removed)``, the value (0 when nothing is found), whether it is a colour wrap,
    the colour of every cell of the part (0 green, 1 blue, -1 outside) and the cells that
    lose the value (the wrap's colour, or the trap's cells). ``value`` is -1 when a part
    is not two-coloured (a broken board: the caller colours it as the Python finder does,
    in the order of its sets)."""
    cells = cands.shape[0]
    degree = np.zeros(cells, dtype=np.int64)
    edges = np.empty((cells, units.shape[0]), dtype=np.int64)
    colour = np.full(cells, -1, dtype=np.int64)
    stack = np.empty(cells, dtype=np.int64)
    members = np.empty(cells, dtype=np.int64)
    removed = np.empty(cells, dtype=np.int64)
    for value0 in range(n):
        bit = 1 << value0
        degree[:] = 0
        for u in range(units.shape[0]):
            a = -1
            b = -1
            places = 0
            for k in range(sizes[u]):
                c = units[u, k]
                if cands[c] & bit:
                    places += 1
                    if a < 0:
                        a = c
                    else:
                        b = c
            if places == 2:
                for x, y in ((a, b), (b, a)):
                    repeat = False
                    for j in range(degree[x]):
                        if edges[x, j] == y:
                            repeat = True
                    if not repeat:
                        edges[x, degree[x]] = y
                        degree[x] += 1
        colour[:] = -1
        for root in range(cells):
            if degree[root] == 0 or colour[root] >= 0:
                continue
            colour[root] = 0
            stack[0] = root
            top = 1
            size = 0
            members[size] = root
            size += 1
            while top:
                top -= 1
                cell = stack[top]
                for j in range(degree[cell]):
                    other = edges[cell, j]
                    if colour[other] < 0:
                        colour[other] = 1 - colour[cell]
                        stack[top] = other
                        top += 1
                        members[size] = other
                        size += 1
                    elif colour[other] == colour[cell]:
                        return -1, False, colour, removed[:0].copy()
            if size < 4:
                continue
            for side in range(2):
                for i in range(size):
                    a = members[i]
                    if colour[a] != side:
                        continue
                    for j in range(size):
                        b = members[j]
                        if colour[b] == side and b != a and sees[a, b]:
                            count = 0
                            for c in range(cells):
                                if colour[c] == side:
                                    inside = False
                                    for m in range(size):
                                        if members[m] == c:
                                            inside = True
                                    if inside:
                                        removed[count] = c
                                        count += 1
                            return value0 + 1, True, _part(colour, members, size, cells), \
                                removed[:count].copy()
            count = 0
            for c in range(cells):
                if not cands[c] & bit:
                    continue
                inside = False
                for m in range(size):
                    if members[m] == c:
                        inside = True
                if inside:
                    continue
                green = False
                blue = False
                for m in range(size):
                    if sees[c, members[m]]:
                        if colour[members[m]] == 0:
                            green = True
                        else:
                            blue = True
                if green and blue:
                    removed[count] = c
                    count += 1
            if count:
                return value0 + 1, False, _part(colour, members, size, cells), \
                    removed[:count].copy()
    return 0, False, colour, removed[:0].copy()


@njit(cache=True)
def _part(colour, members, size, cells):
    """The colours of one part's cells (-1 for every other cell)."""
    out = np.full(cells, -1, dtype=np.int64)
    for m in range(size):
        out[members[m]] = colour[members[m]]
    return out
