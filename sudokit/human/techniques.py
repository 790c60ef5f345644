"""The registry of human techniques: name -> :class:`Technique`.

Each entry names its family (the module its finder lives in), its difficulty on Sudoku
Explainer's scale (the base rating: a step may rate more, for a chain's length or a
pattern's shape, and carries its own rating), the finder (a ``"module:function"``
reference, imported on first use) and what it needs of a grid: boxes, or a grid with no
variant and a unique solution (the uniqueness techniques). The solver tries them in the
registry's order (:data:`ORDER`), which is Sukaku Explainer's as it rated Sudoku
Exchange's puzzles (late 2019: Sudoku Explainer 1.2.1's, with the fork's turbot fish,
three strong links, WXYZ- and VWXYZ-wings where it tries them), the chains of one
``group`` together (:func:`stages`).

Examples
--------
>>> TECHNIQUES["x-wing"].se_rating, TECHNIQUES["x-wing"].family
(3.2, 'fish')
>>> ORDER[:5]
('full-house', 'hidden-single-box', 'hidden-single', 'direct-pointing', 'direct-claiming')
>>> TECHNIQUES["wxyz-wing"].source, "wxyz-wing" in SE_121
('sukaku', False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..problems import resolve

__all__ = ["Technique", "TECHNIQUES", "ORDER", "FAMILIES", "SE_121", "technique",
           "not_applying", "stages"]


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
    spread : float or None
        How much a step may rate above ``se_rating`` (a pattern's shape: 0.1, 0.2, ...;
        None: without bound, a chain's length); :meth:`rates` checks a step's rating.
    group : str
        Techniques of one group are tried together, the easiest step of any of them taken
        (Sudoku Explainer's chains: :func:`stages`).
    source : str
        ``"se"``: Sudoku Explainer 1.2.1's technique and rating; ``"sukaku"``: added by
        Sukaku Explainer, the fork that rated Sudoku Exchange's puzzles; ``"sudokit"``.
    """

    name: str
    family: str
    se_rating: float
    finder: str
    description: str
    needs_boxes: bool = False
    classic_only: bool = False
    needs_unique: bool = False
    spread: float | None = 0.0
    group: str = ""
    source: str = "se"
    _resolved: list = field(default_factory=list, repr=False, compare=False)

    @property
    def find(self) -> Callable[..., Any]:
        """The finder function itself."""
        if not self._resolved:
            self._resolved.append(resolve(self.finder))
        return self._resolved[0]

    def rates(self, rating: float) -> bool:
        """Whether a step of this technique may be rated ``rating``."""
        low = self.se_rating
        return low - 1e-9 <= rating and (self.spread is None
                                         or rating <= low + self.spread + 1e-9)

    def why_not(self, puzzle) -> str | None:
        """Why the technique does not apply to ``puzzle`` (None: it does)."""
        if self.needs_boxes and puzzle.box is None and puzzle.regions is None:
            return "no boxes"
        if self.classic_only and puzzle.variants:
            return "variant " + ",".join(puzzle.variants)
        return None


def _t(name, family, rating, function, description, **more) -> Technique:
    return Technique(name, family, rating, f"sudokit.human.{family}:{function}", description,
                     **more)


#: every technique, by name, in the order the solver tries them (Sukaku Explainer's order of
#: producers, which is SE's with its additions placed by rating)
TECHNIQUES: dict[str, Technique] = {t.name: t for t in (
    _t("full-house", "singles", 1.0, "full_house", "the last empty cell of a unit",
       source="sudokit"),
    _t("hidden-single-box", "singles", 1.2, "hidden_single_box",
       "a value with one place left in a box"),
    _t("hidden-single", "singles", 1.5, "hidden_single",
       "a value with one place left in a row, column or other unit"),
    _t("direct-pointing", "intersections", 1.7, "direct_pointing",
       "a pointing whose removals leave the value one place in another box: placed there",
       needs_boxes=True),
    _t("direct-claiming", "intersections", 1.9, "direct_claiming",
       "a claiming whose removals leave the value one place in another line: placed there",
       needs_boxes=True),
    _t("direct-hidden-pair", "subsets", 2.0, "direct_hidden_pair",
       "a hidden pair after which another value of its unit has one place: placed there"),
    _t("naked-single", "singles", 2.3, "naked_single", "a cell with one candidate left"),
    _t("direct-hidden-triple", "subsets", 2.5, "direct_hidden_triple",
       "a hidden triple after which another value of its unit has one place: placed there"),
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
    _t("turbot-fish", "chains", 4.0, "turbot_fish",
       "one value: two strong links joined by a weak link (skyscraper, two-string kite); "
       "4.0-4.2 by the kinds of unit", source="sukaku", spread=0.2),
    _t("xy-wing", "wings", 4.2, "xy_wing",
       "a bivalue pivot xy and two bivalue pincers xz, yz: their common peers lose z"),
    _t("xyz-wing", "wings", 4.4, "xyz_wing",
       "a pivot xyz and pincers xz, yz: the peers of all three lose z"),
    _t("unique-rectangle", "uniqueness", 4.5, "unique_rectangle",
       "four cells in two rows, two columns, two boxes that would hold the same pair: "
       "one solution forbids the deadly pattern", needs_boxes=True, classic_only=True,
       needs_unique=True, spread=0.1),
    _t("naked-quad", "subsets", 5.0, "naked_quad", "four cells of a unit, four candidates"),
    _t("jellyfish", "fish", 5.2, "jellyfish", "a value's places in four rows in four columns"),
    _t("hidden-quad", "subsets", 5.4, "hidden_quad", "four values, four places in a unit"),
    _t("three-strong-links", "chains", 5.4, "three_strong_links",
       "one value: three strong links joined by weak links; 5.4-5.6 by the kinds of unit",
       source="sukaku", spread=0.2),
    _t("wxyz-wing", "wings", 5.5, "wxyz_wing",
       "three cells of a unit holding four values and a bivalue cell xz that every x of them "
       "sees: what sees the bivalue cell and every z of the three loses z; 5.5-5.6",
       source="sukaku", spread=0.1),
    _t("bug", "uniqueness", 5.6, "bug",
       "bivalue universal grave + 1: every empty cell but one has two candidates",
       needs_boxes=True, classic_only=True, needs_unique=True),
    _t("vwxyz-wing", "wings", 6.2, "vwxyz_wing",
       "four cells of a unit holding five values and a bivalue cell (as the WXYZ-wing); "
       "6.2-6.4", source="sukaku", spread=0.2),
    _t("aligned-pair-exclusion", "exclusion", 6.2, "aligned_pair_exclusion",
       "two cells that see each other: the pairs of values that would empty a cell both see "
       "are excluded; a value left in no pair is removed"),
    _t("simple-colouring", "colouring", 6.5, "simple_colouring",
       "one value's conjugate pairs coloured in two colours: a colour twice in a unit is "
       "false; a cell seeing both colours loses the value; SE's X-cycle, 6.5 + length",
       group="chains", spread=None),
    _t("y-cycle", "chains", 6.5, "y_cycle",
       "a loop of bivalue cells, each sharing a value with the next: on each link one of the "
       "two cells holds the shared value, so what sees both loses it; SE's Y-cycle, 6.5 + "
       "length", group="chains", spread=None),
    _t("x-chain", "chains", 6.6, "x_chain",
       "one value: strong and weak links alternate; the chain's ends' common peers lose it; "
       "SE's forcing X-chain, 6.6 + length", group="chains", spread=None),
    _t("xy-chain", "chains", 7.0, "xy_chain",
       "bivalue cells linked by shared values; the ends' common peers lose the end value; "
       "SE finds it as a forcing chain over cells and units, 7.0 + length", group="chains",
       spread=None),
    _t("aic", "chains", 7.0, "aic",
       "an alternating inference chain over cells and units; SE's forcing chain, 7.0 + "
       "length", group="chains", spread=None),
    _t("w-wing", "wings", 7.1, "w_wing",
       "two bivalue cells xy joined by a strong link on y: their common peers lose x (SE "
       "finds it as a chain of six candidates)", group="chains"),
    _t("forcing-chain", "forcing", 7.5, "forcing_chain",
       "a candidate that, assumed true, makes another both true and false by the links is "
       "false (SE's Nishio forcing chain); 7.5 + length", spread=None),
    _t("cell-forcing-chain", "forcing", 7.9, "cell_forcing_chain",
       "every candidate of a cell (or every place of a value in a unit) implies the same "
       "result; 7.9 + length of all the chains", spread=None),
    _t("forcing-net", "forcing", 8.5, "forcing_net",
       "a candidate that, placed, leads by singles (then also locked candidates and pairs) "
       "to a contradiction is false; 8.5 (9.0 with them) + length", spread=None),
    _t("dynamic-forcing-chain", "nested", 9.0, "dynamic_forcing_chain",
       "SE's dynamic forcing chain (+): a candidate assumed true or false leads by singles, "
       "locked candidates, pairs and X-wings to a candidate both true and false; rated by "
       "SE's measure of the contradiction (the forcing net's count of deductions, which "
       "it follows, rates otherwise); 9.0 + length", spread=None),
    _t("nested-forcing-chain", "nested", 9.5, "nested_forcing_chain",
       "a forcing net that also uses locked candidates, pairs, X-wings and forcing chains "
       "as it goes (SE's dynamic forcing chains with forcing chains nested, level 2); 9.5 + "
       "length, nested chains included", spread=None),
    _t("nested-multiple-forcing-chain", "nested", 10.0, "nested_multiple_forcing_chain",
       "a nested forcing chain that also uses cell and unit forcing chains as it goes (SE's "
       "level 3); 10.0 + length, nested chains included", spread=None),
)}

#: the order the solver tries them (the registry's)
ORDER: tuple[str, ...] = tuple(TECHNIQUES)

#: the techniques of Sudoku Explainer 1.2.1 (and sudokit's full house), without Sukaku
#: Explainer's additions: ``rate(puzzle, techniques=SE_121)`` rates as the original does
SE_121: tuple[str, ...] = tuple(name for name in ORDER if TECHNIQUES[name].source != "sukaku")

#: the technique families, in order of their first technique
FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(TECHNIQUES[name].family for name in ORDER))


def stages(names) -> list[list[str]]:
    """``names`` (in :data:`ORDER`) cut into what the solver tries at once: a technique on
    its own, or the techniques of one ``group`` together (the easiest step of any of them
    is taken, as Sudoku Explainer sorts the chains it finds by rating).

    Examples
    --------
    >>> [s for s in stages(ORDER) if len(s) > 1]
    [['simple-colouring', 'y-cycle', 'x-chain', 'xy-chain', 'aic', 'w-wing']]
    """
    out: list[list[str]] = []
    for name in names:
        group = TECHNIQUES[name].group
        if group and out and TECHNIQUES[out[-1][0]].group == group:
            out[-1].append(name)
        else:
            out.append([name])
    return out


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
