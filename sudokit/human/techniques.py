"""The registry of human techniques: name -> :class:`Technique`.

Each entry names its family (the module its finder lives in), its difficulty on Sudoku
Explainer's scale (the base rating: chains add to it for their length), the finder (a
``"module:function"`` reference, imported on first use) and what it needs of a grid:
boxes, or a grid with no variant and a unique solution (the uniqueness techniques). The
solver tries them in order of rating (:data:`ORDER`).

Examples
--------
>>> TECHNIQUES["x-wing"].se_rating, TECHNIQUES["x-wing"].family
(3.2, 'fish')
>>> ORDER[:4]
('full-house', 'hidden-single-box', 'hidden-single', 'naked-single')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..problems import resolve

__all__ = ["Technique", "TECHNIQUES", "ORDER", "FAMILIES", "technique", "not_applying"]


@dataclass(frozen=True)
class Technique:
    """One technique of the registry.

    Attributes
    ----------
    name, family, description : str
    se_rating : float
        Sudoku Explainer's rating (the base rating of a chain, which adds its length).
    finder : str
        ``"module:function"``: ``function(board) -> Step | None``, the easiest step the
        technique finds that makes progress.
    needs_boxes : bool
        Reasons on boxes meeting lines (no use on a Latin square).
    classic_only : bool
        Holds only for Sudoku and Latin squares without variants (the uniqueness patterns:
        a variant's units break the swap they rely on).
    needs_unique : bool
        Assumes the puzzle has one solution.
    """

    name: str
    family: str
    se_rating: float
    finder: str
    description: str
    needs_boxes: bool = False
    classic_only: bool = False
    needs_unique: bool = False
    _resolved: list = field(default_factory=list, repr=False, compare=False)

    @property
    def find(self) -> Callable[..., Any]:
        """The finder function itself."""
        if not self._resolved:
            self._resolved.append(resolve(self.finder))
        return self._resolved[0]

    def why_not(self, puzzle) -> str | None:
        """Why the technique does not apply to ``puzzle`` (None: it does)."""
        if self.needs_boxes and puzzle.box is None and puzzle.regions is None:
            return "no boxes"
        if self.classic_only and puzzle.variants:
            return "variant " + ",".join(puzzle.variants)
        return None


def _t(name, family, rating, function, description, **needs) -> Technique:
    return Technique(name, family, rating, f"sudokit.human.{family}:{function}", description,
                     **needs)


#: every technique, by name
TECHNIQUES: dict[str, Technique] = {t.name: t for t in (
    _t("full-house", "singles", 1.0, "full_house", "the last empty cell of a unit"),
    _t("hidden-single-box", "singles", 1.2, "hidden_single_box",
       "a value with one place left in a box"),
    _t("hidden-single", "singles", 1.5, "hidden_single",
       "a value with one place left in a row, column or other unit"),
    _t("naked-single", "singles", 2.3, "naked_single", "a cell with one candidate left"),
    _t("pointing", "intersections", 2.6, "pointing",
       "a box's places of a value on one line: the rest of the line loses it",
       needs_boxes=True),
    _t("claiming", "intersections", 2.8, "claiming",
       "a line's places of a value in one box: the rest of the box loses it",
       needs_boxes=True),
    _t("naked-pair", "subsets", 3.0, "naked_pair", "two cells of a unit, two candidates"),
    _t("x-wing", "fish", 3.2, "x_wing", "a value's places in two rows in two columns"),
    _t("hidden-pair", "subsets", 3.4, "hidden_pair", "two values, two places in a unit"),
    _t("naked-triple", "subsets", 3.6, "naked_triple",
       "three cells of a unit, three candidates"),
    _t("swordfish", "fish", 3.8, "swordfish", "a value's places in three rows in three "
       "columns"),
    _t("hidden-triple", "subsets", 4.0, "hidden_triple", "three values, three places in a unit"),
    _t("xy-wing", "wings", 4.2, "xy_wing",
       "a bivalue pivot xy and two bivalue pincers xz, yz: their common peers lose z"),
    _t("xyz-wing", "wings", 4.4, "xyz_wing",
       "a pivot xyz and pincers xz, yz: the peers of all three lose z"),
    _t("unique-rectangle", "uniqueness", 4.5, "unique_rectangle",
       "four cells in two rows, two columns, two boxes that would hold the same pair: "
       "one solution forbids the deadly pattern", needs_boxes=True, classic_only=True,
       needs_unique=True),
    _t("naked-quad", "subsets", 5.0, "naked_quad", "four cells of a unit, four candidates"),
    _t("jellyfish", "fish", 5.2, "jellyfish", "a value's places in four rows in four columns"),
    _t("hidden-quad", "subsets", 5.4, "hidden_quad", "four values, four places in a unit"),
    _t("bug", "uniqueness", 5.6, "bug",
       "bivalue universal grave + 1: every empty cell but one has two candidates",
       needs_boxes=True, classic_only=True, needs_unique=True),
    _t("aligned-pair-exclusion", "exclusion", 6.2, "aligned_pair_exclusion",
       "two cells that see each other: the pairs of values that would empty a cell both see "
       "are excluded; a value left in no pair is removed"),
    _t("x-chain", "chains", 6.5, "x_chain",
       "one value: strong and weak links alternate; the chain's ends' common peers lose it"),
    _t("simple-colouring", "colouring", 6.5, "simple_colouring",
       "one value's conjugate pairs coloured in two colours: a colour twice in a unit is "
       "false; a cell seeing both colours loses the value"),
    _t("w-wing", "wings", 7.1, "w_wing",
       "two bivalue cells xy joined by a strong link on y: their common peers lose x"),
    _t("xy-chain", "chains", 6.6, "xy_chain",
       "bivalue cells linked by shared values; the ends' common peers lose the end value"),
    _t("aic", "chains", 7.0, "aic",
       "an alternating inference chain over cells and units"),
    _t("forcing-chain", "forcing", 7.0, "forcing_chain",
       "a candidate that, assumed true, makes another both true and false by the links is "
       "false"),
    _t("cell-forcing-chain", "forcing", 7.9, "cell_forcing_chain",
       "every candidate of a cell (or every place of a value in a unit) implies the same "
       "result"),
    _t("forcing-net", "forcing", 8.5, "forcing_net",
       "a candidate that, placed, leads by singles (then also locked candidates and pairs) "
       "to a contradiction is false"),
)}

#: the order the solver tries them: rating, then registry order
ORDER: tuple[str, ...] = tuple(sorted(TECHNIQUES, key=lambda name: TECHNIQUES[name].se_rating))

#: the technique families, in order of their first technique
FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(TECHNIQUES[name].family for name in ORDER))


def technique(name: str) -> Technique:
    """The registry entry of a technique; KeyError naming the known ones otherwise."""
    try:
        return TECHNIQUES[name]
    except KeyError:
        raise KeyError(f"unknown technique {name!r}; expected one of "
                       + ", ".join(TECHNIQUES)) from None


def not_applying(puzzle) -> tuple[str, ...]:
    """The techniques that do not apply to ``puzzle`` (its kind or variants)."""
    return tuple(name for name in ORDER if TECHNIQUES[name].why_not(puzzle) is not None)
