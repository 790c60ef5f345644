"""latin2sudoku: partial Latin squares of order k as Sudoku of order n = k^2 with k x k boxes.

The construction behind the NP-completeness of Sudoku (Takano et al., section 3, after
Colbourn 1984, "The complexity of completing partial Latin squares"; the same embedding is
used by Yato and Seta 2003). The paper's printed formula is garbled; this is the working form.

Construction (0-based rows ``i``, columns ``j`` and values):

- Start from the Sudoku pattern ``P(i, j) = ((i mod k) * k + floor(i / k) + j) mod n``, a
  valid solution of the n x n Sudoku with k x k boxes.
- The Latin cell ``(a, b)`` sits at Sudoku cell ``(a, b*k)``: the first band, columns
  ``0, k, 2k, ...``. A given Latin value ``l`` becomes the Sudoku given ``l * k``; a Latin
  hole stays empty. Every other Sudoku cell is given its pattern value.

Why it is correct. In the pattern, the Latin positions hold ``P(a, b*k) = k * ((a + b) mod k)``:
multiples of k, and no other cell of the first band does. So

- row ``a`` (a < k) has every non-multiple of k among its fixed cells: its k Latin cells must
  hold the k multiples of k, each once;
- column ``b*k`` has the multiples of k in the first band only (the pattern column is a
  permutation), so its fixed cells in the other bands hold every non-multiple: again its
  k Latin cells must hold the multiples of k, each once;
- the box of band 0 and stack b meets the Latin cells in exactly that column, so it adds
  nothing new.

Dividing the Latin cells by k therefore gives a Latin square extending the givens, and every
completion of the Latin square, multiplied by k, fills the Sudoku (all other cells are fixed
and agree with the pattern). Completions correspond one to one: the reduction is parsimonious,
and the Sudoku is solvable exactly when the partial Latin square is completable.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square
>>> reduced = latin_to_sudoku(latin_square(np.array([[1, 0], [0, 0]])))
>>> reduced.target.givens
array([[1, 2, 0, 4],
       [0, 4, 0, 2],
       [2, 3, 4, 1],
       [4, 1, 2, 3]], dtype=int32)
>>> reduced.decode(reduced.encode(np.array([[1, 2], [2, 1]]))).tolist()
[[1, 2], [2, 1]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import InstanceError
from ..instances import GridPuzzle, sudoku
from ..problems import problem_kind
from ..protocols import Composable

__all__ = ["LatinToSudoku", "latin_to_sudoku", "sudoku_pattern"]


def sudoku_pattern(k: int) -> np.ndarray:
    """The 0-based pattern ``((i mod k) k + floor(i / k) + j) mod k^2`` (a valid Sudoku)."""
    n = k * k
    i, j = np.indices((n, n))
    return ((i % k) * k + i // k + j) % n


@dataclass(frozen=True, eq=False)
class LatinToSudoku(Composable):
    """``latin2sudoku`` applied to one square (see the module); parsimonious."""

    source: GridPuzzle
    target: GridPuzzle

    name = "latin2sudoku"
    parsimonious = True

    @property
    def k(self) -> int:
        return self.source.n

    def _cells(self):
        k = self.k
        return np.arange(k)[:, None], (np.arange(k) * k)[None, :]

    def decode(self, grid) -> np.ndarray:
        k = self.k
        rows, cols = self._cells()
        values = np.asarray(grid).reshape(k * k, k * k)[rows, cols] - 1
        return (values // k + 1).astype(np.int32)

    def encode(self, solution) -> np.ndarray:
        k = self.k
        rows, cols = self._cells()
        grid = sudoku_pattern(k) + 1
        grid[rows, cols] = (np.asarray(solution) - 1) * k + 1
        return grid.astype(np.int32)

    def explain(self) -> str:
        k = self.k
        n = k * k
        holes = int(np.count_nonzero(self.source.givens == 0))
        return (f"latin2sudoku: a {k}x{k} partial Latin square ({holes} holes) becomes a "
                f"{n}x{n} Sudoku with {k}x{k} boxes.\n"
                f"Latin cell (r, c) sits at Sudoku cell (r, {k}*(c-1)+1) in the first band "
                f"(1-based); Latin value v becomes {k}*(v-1)+1.\n"
                f"The other {n * n - k * k} cells hold the pattern "
                f"((i mod {k})*{k} + floor(i/{k}) + j) mod {n} (+1), which leaves the Latin "
                f"cells exactly the multiples of {k} in each of their rows and columns, so "
                f"the {holes} empty Sudoku cells are the Latin holes and completions "
                "correspond one to one.")


def latin_to_sudoku(square) -> LatinToSudoku:
    """Reduce a partial Latin square of order k to a Sudoku of order k^2 (see the module)."""
    kind = problem_kind(square)
    if kind.family != "grid" or "box" in kind.options:   # a grid of rows and columns only
        raise InstanceError(f"latin2sudoku needs a Latin square, got a {square.kind} instance")
    if getattr(square, "variants", ()):
        raise InstanceError("latin2sudoku keeps rows and columns only; the "
                            f"{' and '.join(square.variants)} units of this square would be "
                            "lost (use latin2sat, latin2xc or latin2coloring)")
    k = square.n
    givens = sudoku_pattern(k) + 1
    rows, cols = np.arange(k)[:, None], (np.arange(k) * k)[None, :]
    latin = square.givens
    givens[rows, cols] = np.where(latin > 0, (latin - 1) * k + 1, 0)
    return LatinToSudoku(square, sudoku(givens, (k, k)))
