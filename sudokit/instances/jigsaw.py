"""Jigsaw (irregular) Sudoku: region maps, their checks, and how they are written.

A jigsaw grid has ``n`` regions of ``n`` cells each in place of the boxes; a *region map*
gives each cell's region as a symbol (letters, usually). Regions are numbered ``0..n-1`` in
the order their symbols first appear, row by row, so two maps that draw the same regions with
other letters are equal. The regions are one more unit list (the ``jigsaw`` variant of
:mod:`~sudokit.instances.variants`): nothing else changes for an encoder or a solver.

Examples
--------
>>> regions = parse_region_map("AABB AABB CCDD CCDD", 4)
>>> regions.tolist()
[[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]]
>>> format_region_map(regions)
'AABBAABBCCDDCCDD'
>>> parse_region_map("AAAB AABB CCDD CCDD", 4)
Traceback (most recent call last):
...
sudokit.errors.InstanceError: region A has 5 cells (row 1, column 1 ...); each of the 4 \
regions needs 4
"""

from __future__ import annotations

import numpy as np

from ..errors import InstanceError

__all__ = ["REGION_SYMBOLS", "check_regions", "parse_region_map", "format_region_map",
           "region_rows"]

#: the symbols a written region map uses, region 0 first; maps of more regions are written
#: as whitespace-separated integers from 1
REGION_SYMBOLS = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def parse_region_map(text: str | list[str], n: int) -> np.ndarray:
    """The ``(n, n)`` region numbers of a map: ``n*n`` symbols (one character per cell,
    whitespace ignored) or ``n*n`` whitespace-separated tokens (for large grids), as one
    string or a list of row strings.

    Raises
    ------
    InstanceError
        A map of the wrong size, or regions that are not ``n`` of ``n`` cells each.
    """
    joined = text if isinstance(text, str) else "\n".join(text)
    tokens = joined.split()
    chars = "".join(tokens)
    if len(chars) == n * n:
        symbols = list(chars)
    elif len(tokens) == n * n:
        symbols = tokens
    else:
        raise InstanceError(f"a region map of a {n}x{n} grid needs {n * n} symbols, got "
                            f"{len(chars)}" + (f" ({len(tokens)} fields)"
                                               if len(tokens) not in (1, len(chars)) else ""))
    numbers: dict[str, int] = {}
    regions = np.array([numbers.setdefault(s, len(numbers)) for s in symbols],
                       dtype=np.int64).reshape(n, n)
    return check_regions(regions, n, names=list(numbers))


def check_regions(regions, n: int, names: list[str] | None = None) -> np.ndarray:
    """``regions`` as ``(n, n)`` region numbers ``0..n-1`` in order of first appearance,
    after checking that there are ``n`` regions of ``n`` cells.

    Examples
    --------
    >>> check_regions([[5, 5], [2, 2]], 2).tolist()
    [[0, 0], [1, 1]]
    """
    given = np.asarray(regions)
    if given.shape != (n, n):
        raise InstanceError(f"a region map of a {n}x{n} grid must be {n}x{n}, got shape "
                            f"{given.shape}")
    flat = given.reshape(-1)
    _, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")     # regions by their first cell
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    numbers = rank[inverse.reshape(-1)].reshape(n, n).astype(np.int64)
    label = names if names is not None else [str(flat[first[k]]) for k in order]
    counts = np.bincount(numbers.reshape(-1), minlength=len(order))
    for region in range(len(order)):
        if counts[region] != n:
            cell = int(first[order[region]])
            raise InstanceError(
                f"region {label[region]} has {counts[region]} cell"
                f"{'s' if counts[region] != 1 else ''} (row {cell // n + 1}, column "
                f"{cell % n + 1} ...); each of the {n} regions needs {n}")
    if len(order) != n:   # unreachable once every region has n cells, kept for clarity
        raise InstanceError(f"a {n}x{n} jigsaw needs {n} regions, the map has {len(order)}")
    numbers.flags.writeable = False
    return numbers


def region_rows(regions: np.ndarray) -> list[str]:
    """The map as ``n`` text rows (symbols, or integers from 1 for more than 62 regions)."""
    n = regions.shape[0]
    if n > len(REGION_SYMBOLS):
        width = len(str(n))
        return [" ".join(str(v + 1).rjust(width) for v in row) for row in regions.tolist()]
    return ["".join(REGION_SYMBOLS[v] for v in row) for row in regions.tolist()]


def format_region_map(regions: np.ndarray) -> str:
    """The map on one line, as a ``regions:`` line holds it."""
    rows = region_rows(regions)
    return " ".join(rows) if regions.shape[0] > len(REGION_SYMBOLS) else "".join(rows)
