"""How much of the next step a hint reveals: the registry behind ``sudokit hint --level``.

- ``technique``: only the technique's name (and its rating);
- ``houses``: the technique and where to look (its units, or its cells when it names no
  unit);
- ``step``: the whole step, as ``explain`` prints it.

Examples
--------
>>> from .step import Step
>>> step = Step("hidden-single-box", 1.2, placements=((2, 4, 7),), pattern=((2, 4, 7),),
...             houses=("box 2",), text="r3c5 = 7 (hidden single in box 2)")
>>> for name in REVEAL:
...     print(REVEAL[name].show(step, 9))
hidden single (box) (rating 1.2)
hidden single (box): look at box 2
r3c5 = 7 (hidden single in box 2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .board import cells_text
from .step import Step

__all__ = ["Reveal", "REVEAL", "technique_words"]


def technique_words(name: str) -> str:
    """A registry name in words: ``hidden-single-box`` -> ``hidden single (box)``.

    Examples
    --------
    >>> technique_words("xy-wing"), technique_words("aic")
    ('XY-wing', 'alternating inference chain')
    """
    special = {"xy-wing": "XY-wing", "xyz-wing": "XYZ-wing", "w-wing": "W-wing",
               "x-wing": "X-wing", "x-chain": "X-chain", "xy-chain": "XY-chain",
               "aic": "alternating inference chain", "bug": "bivalue universal grave",
               "hidden-single-box": "hidden single (box)"}
    return special.get(name, name.replace("-", " "))


def _technique(step: Step, n: int) -> str:
    return f"{technique_words(step.technique)} (rating {step.rating})"


def _houses(step: Step, n: int) -> str:
    if step.houses:
        where = ", ".join(step.houses)
    else:
        where = cells_text(n, {row * n + col for row, col, _ in step.pattern})
    return f"{technique_words(step.technique)}: look at {where}"


def _step(step: Step, n: int) -> str:
    return step.text


@dataclass(frozen=True)
class Reveal:
    """One level of ``hint --level``: its name, what it shows, and the function that
    writes it for a step and the grid's side."""

    name: str
    description: str
    show: Callable[[Step, int], str]


#: hint levels, least revealing first
REVEAL: dict[str, Reveal] = {r.name: r for r in (
    Reveal("technique", "only the technique to use and its rating", _technique),
    Reveal("houses", "the technique and the units (or cells) to look at", _houses),
    Reveal("step", "the whole step: what it places or removes and why", _step),
)}
