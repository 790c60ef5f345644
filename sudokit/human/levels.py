"""Named difficulty levels and the band of Sudoku Explainer ratings each one covers.

| level | SE rating | what it takes |
| --- | --- | --- |
| easy | 1.0 - 2.5 | singles only |
| medium | 2.6 - 3.9 | locked candidates, naked and hidden pairs, X-wing, naked triples, swordfish |
| hard | 4.0 - 5.9 | hidden triples, turbot fish, XY- to WXYZ-wings, unique rectangles, BUG |
| expert | 6.0 - 7.9 | VWXYZ-wings, Y-cycles, X-chains, colouring, XY-chains, AIC, forcing chains |
| diabolical | 8.0 - 8.9 | cell and unit forcing chains, the first forcing nets |
| extreme | 9.0 and up | forcing nets; 11 and up: beyond (puzzles for the forum's hardest lists) |

Examples
--------
>>> level_of(1.2), level_of(3.2), level_of(7.2), level_of(11.5)
('easy', 'medium', 'expert', 'extreme')
>>> LEVELS["hard"]
(4.0, 5.9)
"""

from __future__ import annotations

__all__ = ["LEVELS", "level_of", "parse_rating_range"]

#: level -> (lowest, highest) SE rating, both included (ratings have one decimal)
LEVELS: dict[str, tuple[float, float]] = {
    "easy": (1.0, 2.5),
    "medium": (2.6, 3.9),
    "hard": (4.0, 5.9),
    "expert": (6.0, 7.9),
    "diabolical": (8.0, 8.9),
    "extreme": (9.0, 99.9),
}


def level_of(rating: float) -> str:
    """The level whose band holds ``rating`` (below 1.0: easy)."""
    value = round(rating, 1)
    for name, (_, high) in LEVELS.items():
        if value <= high:
            return name
    return "extreme"


def parse_rating_range(text: str) -> tuple[float, float]:
    """``MIN:MAX`` (either side may be empty) as a pair of ratings.

    Examples
    --------
    >>> parse_rating_range("6.5:"), parse_rating_range(":3")
    ((6.5, 99.9), (1.0, 3.0))
    """
    low, sep, high = text.partition(":")
    if not sep:
        raise ValueError(f"rating range {text!r} is not of the form MIN:MAX")
    try:
        pair = (float(low) if low.strip() else 1.0, float(high) if high.strip() else 99.9)
    except ValueError:
        raise ValueError(f"rating range {text!r} is not of the form MIN:MAX (numbers)") \
            from None
    if pair[0] > pair[1]:
        raise ValueError(f"rating range {text!r} has MIN above MAX")
    return pair
