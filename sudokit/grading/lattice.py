"""Scheme names, their propagator flags and the lattice of Simonis (2005), figure 5.

Names: ``FC``, ``FCI``, ``BC``, ``BCI``, ``HAC``, ``HAC`` plus any of ``S`` (same), ``C``
(colored matrix), ``3`` (line x box matchings) in that order (``HACS``, ``HACSC``,
``HACSC3``, ...), and the shaving schemes ``FCV``, ``BCV``, ``HACV``.

:data:`STRONGER` lists the direct edges of the lattice (weaker -> stronger); each holds for
every puzzle because the stronger scheme runs a superset of propagators, or a propagator that
subsumes one (HAC subsumes FC, BC and hidden singles on a unit of ``n`` cells over ``n``
values, and BC on the dual model too, as every sound inference from one unit; shaving with a
stronger base is stronger). BC depends on the order of events (see
:mod:`~sudokit.grading.bounds`), so BC -> BCI holds because BCI starts its channeling only at
BC's own fixpoint. :data:`ORDER` is a linear extension used
for the grade: the shaving schemes (trial and error, one level deep) come after every pure
inference scheme, and otherwise, between schemes the lattice does not order, the one that
solved fewer of the paper's 17-clue puzzles comes first.

Examples
--------
>>> scheme_flags("HACSC3") == HAC | S | C | T
True
>>> is_weaker("BC", "HACV"), is_weaker("FCI", "BC")
(True, False)
>>> ORDER[:5]
('FC', 'BC', 'FCI', 'BCI', 'HAC')
"""

from __future__ import annotations

from ..errors import SudokitError
from .engine import BC, FC, HAC, C, I, S, T, V

__all__ = ["SCHEMES", "ORDER", "STRONGER", "TABLE_SCHEMES", "scheme_flags", "is_weaker",
           "parse_schemes", "PAPER_17_CLUE", "PAPER_TOP100", "DEFAULT_NODES_SCHEME"]

_REDUNDANT = {"S": S, "C": C, "3": T}

SCHEMES = {
    "FC": FC, "FCI": FC | I, "BC": FC | BC, "BCI": FC | BC | I, "HAC": HAC,
    "HACS": HAC | S, "HACC": HAC | C, "HAC3": HAC | T, "HACSC": HAC | S | C,
    "HACS3": HAC | S | T, "HACC3": HAC | C | T, "HACSC3": HAC | S | C | T,
    "FCV": FC | V, "BCV": FC | BC | V, "HACV": HAC | V,
}

#: the grade order (a linear extension of the lattice), weakest first
ORDER = ("FC", "BC", "FCI", "BCI", "HAC", "HACC", "HAC3", "HACS", "HACC3", "HACSC", "HACS3",
         "HACSC3", "FCV", "BCV", "HACV")

#: the columns of the paper's Tables 4 and 5
TABLE_SCHEMES = ("FC", "FCI", "BC", "BCI", "HAC", "HACS", "HACC", "HACSC", "HAC3", "FCV",
                 "BCV", "HACV")

#: direct edges weaker -> stronger of figure 5
STRONGER = {
    "FC": ("FCI", "BC", "FCV"), "FCI": ("BCI",), "BC": ("BCI", "BCV"), "FCV": ("BCV",),
    "BCI": ("HAC",), "BCV": ("HACV",), "HAC": ("HACS", "HACC", "HAC3", "HACV"),
    "HACS": ("HACSC", "HACS3"), "HACC": ("HACSC", "HACC3"), "HAC3": ("HACS3", "HACC3"),
    "HACSC": ("HACSC3",), "HACS3": ("HACSC3",), "HACC3": ("HACSC3",), "HACSC3": (),
    "HACV": (),
}

#: the scheme the node-count tiebreaker propagates with (the strongest without shaving)
DEFAULT_NODES_SCHEME = "HACSC3"

#: percent search free in Simonis (2005), Table 4 (17-clue, 7,611 puzzles) and Table 5 (top 100)
PAPER_17_CLUE = {"FC": 0.00, "FCI": 48.69, "BC": 29.01, "BCI": 69.82, "HAC": 70.28,
                 "HACS": 85.51, "HACC": 75.27, "HACSC": 85.55, "HAC3": 85.51, "FCV": 0.62,
                 "BCV": 99.89, "HACV": 100.00}
PAPER_TOP100 = {"FC": 0, "FCI": 0, "BC": 3, "BCI": 5, "HAC": 5, "HACS": 14, "HACC": 10,
                "HAC3": 14, "FCV": 4, "BCV": 93, "HACV": 100}


def scheme_flags(name: str, shave_passes: int | None = None) -> int:
    """The propagator flags of a scheme name (case-insensitive).

    ``shave_passes`` limits the shaving schemes (FCV, BCV, HACV) to that many rounds over the
    cells, carried in bits 8 and up (``None``: shave to the fixpoint); other schemes ignore it.

    >>> scheme_flags("BCV") & 128, scheme_flags("BCV", 1) >> 8, scheme_flags("HAC", 1) >> 8
    (128, 1, 0)
    """
    key = name.strip().upper()
    if key not in SCHEMES:
        raise SudokitError(f"unknown scheme {name!r}; choose from {', '.join(ORDER)}")
    flags = SCHEMES[key]
    if shave_passes is not None and flags & V:
        if int(shave_passes) < 1:
            raise SudokitError(f"shaving passes must be at least 1, got {shave_passes}")
        flags |= int(shave_passes) << 8
    return flags


def parse_schemes(text: str | None) -> tuple[str, ...]:
    """A comma-separated list of scheme names (``None`` or ``"all"``: every scheme, in
    :data:`ORDER`)."""
    if text is None or text.strip().lower() == "all":
        return ORDER
    names = tuple(part.strip().upper() for part in text.split(",") if part.strip())
    for name in names:
        scheme_flags(name)
    if not names:
        raise SudokitError("no scheme named; choose from " + ", ".join(ORDER))
    return names


def is_weaker(weak: str, strong: str) -> bool:
    """Whether the lattice puts ``weak`` at or below ``strong``."""
    weak, strong = weak.upper(), strong.upper()
    seen, todo = set(), [weak]
    while todo:
        name = todo.pop()
        if name == strong:
            return True
        if name not in seen:
            seen.add(name)
            todo.extend(STRONGER[name])
    return False
