"""The fill strategy ``product``: random Sudoku grids from products of random Latin squares.

Takano et al.'s ``"blocks"`` construction (section 5.1, :func:`~.grids.pattern_grid`) builds
a grid from one cyclic list of the symbols; here every band and every stack gets a random
Latin square of its own (:func:`~.latin.random_latin_square`) and the product of the two is
shuffled (:func:`~.grids.shuffle_grid`). Polynomial time, so it serves sides above 25 where
the backtracking search has a heavy tail, but it does not reach every grid.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import sudoku
>>> g = product_grid(6, (2, 3), np.random.default_rng(0))
>>> sudoku(g, (2, 3)).is_solution(g)
True
"""

from __future__ import annotations

import numpy as np

from ..instances.patterns import check_shape
from .grids import shuffle_grid
from .latin import random_latin_square

__all__ = ["product_grid", "product_fill"]


def product_grid(n: int, box: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A random grid from random Latin squares of the box structure (polynomial time).

    Cell (row ``a`` of band ``B``, column ``b`` of stack ``S``) holds
    ``c * L_B[a, S] + M_S[b, B] + 1``, where each band ``B`` has its own random ``r x r``
    Latin square ``L_B`` and each stack ``S`` its own random ``c x c`` Latin square ``M_S``;
    the ``"blocks"`` construction is the case of cyclic squares. Then :func:`~.grids.shuffle_grid`.
    A much larger family than the shuffled patterns, but still not every grid (used for
    sides above 25, where the search has a heavy tail).

    Examples
    --------
    >>> from sudokit.instances import sudoku
    >>> g = product_grid(36, (6, 6), np.random.default_rng(0))
    >>> sudoku(g).is_solution(g)
    True
    """
    check_shape(n, box)
    r, c = box
    band_squares = np.array([random_latin_square(r, rng) - 1 for _ in range(c)])   # L_B
    stack_squares = np.array([random_latin_square(c, rng) - 1 for _ in range(r)])  # M_S
    i = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    band, a = divmod(i, r)
    stack, b = divmod(j, c)
    grid = c * band_squares[band, a, stack] + stack_squares[stack, b, band]
    return shuffle_grid(grid + 1, box, rng)


def product_fill(n: int, box: tuple[int, int], rng: np.random.Generator, **_) -> np.ndarray:
    """The fill strategy ``product`` (:func:`product_grid`)."""
    return product_grid(n, box, rng)
