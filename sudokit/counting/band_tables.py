"""The completions below a first band of a three-band grid (``r x 3`` boxes, ``r <= 3``:
6x6 of 2x3 boxes, 9x9), from a table of band counts by column sets (Felgenhauer & Jarvis'
second step), where the engines would enumerate billions of grids (9x9: about 7 x 10^9 per
first band).

The rows below band 1 see only its column sets ``S`` (:func:`~.bands.column_sets`).
Band 2's column sets ``T`` must avoid ``S`` column by column, and band 3's are then the
complements ``U``; so the completions are ``sum over T of g(T) g(U)``, where ``g`` counts
the bands with given column sets. In each box the choice of ``T`` is one of the ways to
split the symbols not in each column of ``S`` (56 per box on 9x9), so ``T`` ranges over
``56^3`` tuples.

``g`` is read from a table. Relabelling maps the first box's column sets onto those of the
fixed first box (``1, 4, 7 | 2, 5, 8 | 3, 6, 9`` on 9x9), after which ``g`` depends on the
partitions of the symbols made by the other boxes' columns (:func:`band_table`). The table
comes from the listed first bands (:func:`~.bands.first_bands`): every band whose first
box has the fixed column sets is a listed band with its other boxes' columns and the boxes
permuted, relabelled within the first box's columns.

Examples
--------
>>> from sudokit.counting.bands import band_classes, first_bands
>>> classes, table = band_classes(2, 3), band_table(first_bands(2, 3), 2)
>>> [completions(key, 2, table) for key in classes.keys]
[928, 1088, 1408]
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, permutations, product

import numpy as np

__all__ = ["band_table", "bands_with_columns", "completions", "partitions"]

#: three bands of r x 3 boxes: the shapes whose tables this module builds
COLUMNS = 3


def partitions(r: int) -> list[tuple[int, ...]]:
    """The partitions of symbols ``1 .. 3r`` into three sets of ``r``, as sorted bit masks.

    Examples
    --------
    >>> len(partitions(2)), len(partitions(3))
    (15, 280)
    """
    n = COLUMNS * r
    everything = sum(1 << v for v in range(1, n + 1))
    found = set()
    for first in combinations(range(1, n + 1), r):
        a = sum(1 << v for v in first)
        for second in combinations([v for v in range(1, n + 1) if not a >> v & 1], r):
            b = sum(1 << v for v in second)
            found.add(tuple(sorted((a, b, everything ^ a ^ b))))
    return sorted(found)


@cache
def _index(r: int) -> np.ndarray:
    """Partition index by code (:func:`_codes`): ``-1`` for no partition."""
    n = COLUMNS * r
    table = np.full(1 << (2 * (n + 1)), -1, dtype=np.int32)
    for i, blocks in enumerate(partitions(r)):
        table[_codes(np.array([blocks], dtype=np.int64), n)[0]] = i
    return table


def _codes(blocks: np.ndarray, n: int) -> np.ndarray:
    """A code for each partition ``blocks[..., 3]`` (bit masks) that does not depend on the
    blocks' order: the block holding symbol 1, then the one holding the least symbol of
    the others."""
    holds_one = (blocks & 2) != 0
    first = np.where(holds_one, blocks, 0).sum(axis=-1)
    others = np.where(holds_one, 1 << (n + 1), blocks)      # never the least
    lowest = others & -others
    second = np.take_along_axis(others, np.argmin(lowest, axis=-1)[..., None], axis=-1)[..., 0]
    return first << (n + 1) | second


def _relabelled(masks: np.ndarray, relabel: np.ndarray) -> np.ndarray:
    """Bit masks with each symbol ``v`` replaced by ``relabel[..., v]`` (``relabel``
    broadcasts against ``masks`` with one more axis)."""
    n = relabel.shape[-1] - 1
    out = np.zeros(masks.shape, dtype=np.int64)
    for v in range(1, n + 1):
        has = (masks >> v) & 1
        out |= has << relabel[..., v]
    return out


def _first_columns(r: int) -> np.ndarray:
    """The column sets of the fixed first box (rows ``1 2 3 | 4 5 6 | ...``)."""
    values = np.arange(1, COLUMNS * r + 1).reshape(r, COLUMNS)
    return np.array([sum(1 << int(v) for v in values[:, j]) for j in range(COLUMNS)],
                    dtype=np.int64)


def band_table(listed: np.ndarray, r: int) -> np.ndarray:
    """``g`` by partitions: entry ``[q_2, ..., q_r]`` (indices of :func:`partitions`) is the
    number of bands whose first box has the fixed column sets in order and whose box ``s``
    has the columns of partition ``q_s`` in one given order.

    ``listed``: the first bands listed (:func:`~sudokit.counting.bands.first_bands`).

    Examples
    --------
    >>> from sudokit.counting.bands import first_bands
    >>> int(band_table(first_bands(2, 3), 2).sum())  # (2!)^3 relabellings x 6 listed bands
    48
    """
    n = COLUMNS * r
    listed = listed.astype(np.int64)
    masks = np.bitwise_or.reduce(np.int64(1) << listed, axis=1)[:, COLUMNS:]
    codes = _codes(masks.reshape(len(listed), r - 1, COLUMNS), n)
    distinct, members = np.unique(codes, axis=0, return_counts=True)
    blocks = np.array(partitions(r), dtype=np.int64)[_index(r)[distinct]]  # (D, r-1, 3)
    table = np.zeros((len(partitions(r)),) * (r - 1), dtype=np.int64)
    for relabel in _column_relabellings(r):
        moved = _index(r)[_codes(_relabelled(blocks, relabel), n)]
        for order in permutations(range(r - 1)):
            np.add.at(table, tuple(moved[:, list(order)].T), members)
    return table


def _column_relabellings(r: int) -> list[np.ndarray]:
    """The relabellings that keep each column set of the fixed first box."""
    n = COLUMNS * r
    columns = np.arange(1, n + 1).reshape(r, COLUMNS).T
    found = []
    for images in product(*(permutations(col.tolist()) for col in columns)):
        relabel = np.zeros(n + 1, dtype=np.int64)
        for col, image in zip(columns, images, strict=True):
            relabel[col] = image
        found.append(relabel)
    return found


def _splits(avoid: np.ndarray, n: int, r: int) -> np.ndarray:
    """The ordered triples of disjoint ``r``-sets covering ``1 .. n``, the ``j``-th
    missing ``avoid[j]``: a box's columns in the next band, ``(K, 3)`` masks."""
    everything = sum(1 << v for v in range(1, n + 1))
    found = []
    for first in combinations([v for v in range(1, n + 1) if not avoid[0] >> v & 1], r):
        a = sum(1 << v for v in first)
        free = [v for v in range(1, n + 1) if not (a | int(avoid[1])) >> v & 1]
        for second in combinations(free, r):
            b = sum(1 << v for v in second)
            c = everything ^ a ^ b
            if not c & int(avoid[2]):
                found.append((a, b, c))
    return np.array(found, dtype=np.int64).reshape(-1, COLUMNS)


def _onto_first(columns: np.ndarray, r: int) -> np.ndarray:
    """For each row of ``columns`` (``(K, 3)`` masks, a first box's column sets), a
    relabelling onto the fixed first box's columns: ``(K, n + 1)``."""
    n = COLUMNS * r
    target = np.arange(1, n + 1).reshape(r, COLUMNS).T            # [column, row]
    relabel = np.zeros((len(columns), n + 1), dtype=np.int64)
    bits = (columns[:, :, None] >> np.arange(n + 1)) & 1           # [K, column, symbol]
    for j in range(COLUMNS):
        symbols = np.nonzero(bits[:, j])[1].reshape(len(columns), r)
        relabel[np.arange(len(columns))[:, None], symbols] = target[j]
    return relabel


def bands_with_columns(columns: np.ndarray, r: int, table: np.ndarray) -> int:
    """``g``: how many bands of ``r x 3`` boxes have the column sets ``columns`` (``(3r,)``
    bit masks, column by column), read from ``table`` (:func:`band_table`).

    Examples
    --------
    >>> from sudokit.counting.bands import first_bands
    >>> listed = first_bands(2, 3)
    >>> columns = np.bitwise_or.reduce(np.int64(1) << listed[0].astype(np.int64), axis=0)
    >>> bands_with_columns(columns, 2, band_table(listed, 2))
    8
    """
    n = COLUMNS * r
    stacks = np.asarray(columns, dtype=np.int64).reshape(r, COLUMNS)
    relabel = _onto_first(stacks[:1], r)[0]
    index = _index(r)
    at = tuple(int(index[_codes(_relabelled(stacks[s:s + 1], relabel), n)[0]])
               for s in range(1, r))
    return int(table[at]) if min(at, default=0) >= 0 else 0


def completions(band: np.ndarray, r: int, table: np.ndarray) -> int:
    """The number of ways to fill the two bands below ``band`` (an ``r x 3r`` first band of
    ``r x 3`` boxes), by the table (see the module).

    ``table``: :func:`band_table` of the listed first bands.

    Examples
    --------
    >>> from sudokit.counting.bands import first_bands
    >>> listed = first_bands(2, 3)
    >>> completions(listed[0], 2, band_table(listed, 2))
    1408
    """
    n = COLUMNS * r
    everything = (1 << (n + 1)) - 2
    index = _index(r)
    below = np.bitwise_or.reduce(np.int64(1) << band.astype(np.int64), axis=0)
    stacks = below.reshape(r, COLUMNS)
    second = [_splits(stacks[s], n, r) for s in range(r)]
    third = [everything ^ stacks[s] ^ second[s] for s in range(r)]
    total = 0
    onto2, onto3 = _onto_first(second[0], r), _onto_first(third[0], r)
    for a in range(len(second[0])):
        g2 = table[np.ix_(*(index[_codes(_relabelled(second[s], onto2[a]), n)]
                            for s in range(1, r)))]
        g3 = table[np.ix_(*(index[_codes(_relabelled(third[s], onto3[a]), n)]
                            for s in range(1, r)))]
        total += int((g2 * g3).sum())
    return total
