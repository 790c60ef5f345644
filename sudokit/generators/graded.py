"""Puzzles of a wanted grade: generate, grade, keep the first that matches.

The serial ``generate sudoku --grade G`` and each Dask worker's chunk make their puzzles
through :func:`make_graded`, so both give the same puzzles for the same seed.

Examples
--------
>>> from sudokit.generators import PuzzleGenerator
>>> with PuzzleGenerator(4, None, 1) as gen:
...     made = make_graded(gen, "minimal", None, None, index=0, budget=None, progress=None)
>>> int((made.puzzle > 0).sum()) >= 4
True
"""

from __future__ import annotations

from typing import Any

from ..errors import InstanceError
from ..grading import grade
from .puzzles import PuzzleGenerator

__all__ = ["GRADE_ATTEMPTS", "make_graded"]

#: puzzles tried per wanted puzzle before a wanted grade gives up
GRADE_ATTEMPTS = 2000


def make_graded(gen: PuzzleGenerator, mode: str, clues: int | None, wanted: str | None,
                index: int, budget: Any, progress: Any, best_effort: bool = False) -> Any:
    """The next puzzle of ``gen`` (``mode``, ``clues``, ``budget``, ``progress`` and
    ``best_effort`` as :meth:`PuzzleGenerator.make` takes them), or with ``wanted`` the next
    one whose grade is ``wanted``; ``index`` (0-based) names the puzzle in the error when
    none of :data:`GRADE_ATTEMPTS` tries has that grade."""
    if wanted is None:
        return gen.make(mode, clues, budget=budget, progress=progress, best_effort=best_effort)
    try:
        return gen.make_where(lambda made: grade(gen.template.with_givens(made.puzzle))
                              == wanted, mode, clues, GRADE_ATTEMPTS, budget=budget,
                              progress=progress, best_effort=best_effort)
    except InstanceError:
        raise InstanceError(f"no puzzle of grade {wanted} in {GRADE_ATTEMPTS} tries (puzzle "
                            f"{index + 1}); try another grade, --minimal or a different "
                            "size") from None
