"""How much memory a generator request needs, checked before anything is built.

``generate coloring --vertices 1e9`` once allocated 11 GB in 30 s before failing. Each
generator estimates the bytes its request needs from the numbers it is asked for alone (no
array of that size is made) and refuses with :class:`~sudokit.errors.ResourceError` (exit 8)
when they exceed the limit (``--max-memory``, else the available memory,
:func:`~sudokit.resources.available_memory`). The figures are calibrated on peak resident
memory above the interpreter's own: 255 bytes per edge of ``generate coloring`` (3.3 M edges,
850 MB), 33 bytes per cell of the Jacobson-Matthews incidence cube (order 200, 290 MB).

Examples
--------
>>> coloring_bytes(1000, 3, 0.1) > 255 * 0.1 * 1000 * 999 / 2 * 2 / 3
True
>>> check_request("a 10-vertex coloring", coloring_bytes(10, 3, 0.5), limit=10**6)
>>> try:
...     check_request("a latin square of order 255", latin_bytes(255), limit=2**20)
... except ResourceError as err:
...     print(err)
a latin square of order 255 needs about 525.8 MiB but 1.0 MiB is allowed
"""

from __future__ import annotations

from ..errors import ResourceError
from ..resources import BYTES_PER_ENTRY, available_memory, format_bytes

__all__ = ["check_request", "coloring_bytes", "latin_bytes", "sudoku_bytes"]

#: bytes per edge of a planted coloring: the edge pairs as drawn, joined and held by the
#: instance, and the DIMACS text (measured: 255)
BYTES_PER_EDGE = 256
#: bytes per vertex: a row of random draws, the planted colors, the precolors and their lines
BYTES_PER_VERTEX = 64
#: bytes per cell of the Jacobson-Matthews chain: the int8 incidence cube and four float64
#: random draws per step (``n**3`` steps)
BYTES_PER_CUBE_CELL = 33
#: bytes per cell of a square drawn without the cube (its grids, units and text)
BYTES_PER_CELL = 64


def coloring_bytes(vertices: int, colors: int, density: float, precolored: float = 0.0) -> int:
    """Bytes :func:`~sudokit.generators.coloring.planted_precoloring` and the DIMACS text of
    its graph need: the expected edges (``density`` of the pairs of differently planted
    colors) and the vertices."""
    vertices = max(int(vertices), 0)
    pairs = vertices * (vertices - 1) / 2
    edges = density * pairs * (1 - 1 / max(int(colors), 1))
    return int(BYTES_PER_EDGE * edges + BYTES_PER_VERTEX * vertices)


def latin_bytes(order: int, method: str = "jacobson-matthews") -> int:
    """Bytes a random Latin square of ``order`` needs, drawn by ``method``
    (:data:`~sudokit.generators.latin.LATIN_METHODS`)."""
    n = int(order)
    cube = BYTES_PER_CUBE_CELL * n ** 3 if method == "jacobson-matthews" and n > 1 else 0
    search = sudoku_bytes(n) if method == "search" else 0
    return cube + search + BYTES_PER_CELL * n * n


def sudoku_bytes(size: int) -> int:
    """Bytes a ``size x size`` puzzle needs: the exact cover of its grid (``4 n**3`` entries),
    kept by the fill and the uniqueness checker, twice over, and the grids."""
    n = int(size)
    return 2 * BYTES_PER_ENTRY * 4 * n ** 3 + BYTES_PER_CELL * n * n


def check_request(what: str, needed: int, limit: int | None = None) -> None:
    """Raise :class:`~sudokit.errors.ResourceError` naming ``what``, the bytes ``needed`` and
    the limit when ``needed`` exceeds ``limit`` (default: the available memory)."""
    allowed = available_memory() if limit is None else int(limit)
    if needed > allowed:
        raise ResourceError(f"{what} needs about {format_bytes(needed)} but "
                            f"{format_bytes(allowed)} is allowed")
