"""The portfolio: which engine answers a grid when no solver is named, by the grid's family
and side, from the measurements of ``benchmarks/hard_instances.py`` (issue 29).

A grid's family is what its units are, not its kind's name: ``boxes`` (rows, columns and
boxes or regions: Sudoku and its variants) or ``rows and columns`` (Latin square
completion). Each :class:`Rule` of :data:`PORTFOLIO` covers one family and a range of sides
and names its engines in order of preference: the first one that is installed and in the
registry answers (so a missing optional extra such as OR-Tools falls back to the next). A
grid no rule covers gets none (the registry's default then answers). The figures that
justify each rule are in its ``measured`` text and, in full, in ``benchmarks/README.md``
(section ``hard_instances.py``) and ``docs/guide/portfolio.md``.

Examples
--------
>>> import numpy as np
>>> from sudokit.instances import latin_square, sudoku
>>> portfolio_solver(sudoku(np.zeros((9, 9), dtype=int)))
'takano'
>>> portfolio_solver(latin_square(np.zeros((30, 30), dtype=int)))
'cp'
>>> portfolio_solver(latin_square(np.zeros((70, 70), dtype=int))) is None   # no rule
True
>>> family_of(latin_square(np.zeros((5, 5), dtype=int)))
'rows and columns'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["BOXES", "LINES", "PORTFOLIO", "RIVALS", "Rule", "defaults_of", "family_of",
           "portfolio_solver", "rule_for", "sides_of", "summary"]

#: the families: grids with boxes (or regions) besides rows and columns, and grids of rows
#: and columns only
BOXES, LINES = "boxes", "rows and columns"
#: the tasks a rule may cover
TASKS = ("solve", "count")


@dataclass(frozen=True)
class Rule:
    """Grids of ``family`` with a side in ``smallest..largest`` go to the first usable
    engine of ``engines``; ``measured`` says why (the benchmark's figures)."""

    family: str
    smallest: int
    largest: int
    engines: tuple[str, ...]
    measured: str
    #: the engines that race the first one in ``--solver race`` (:mod:`sudokit.solvers.race`),
    #: first installed one first
    rivals: tuple[str, ...] = ()
    #: the tasks it covers: ``"solve"`` (one solution) and ``"count"`` (to a limit: proving
    #: uniqueness is a proof that no second solution exists, where CDCL often wins)
    tasks: tuple[str, ...] = TASKS

    def covers(self, family: str, side: int, task: str = "solve") -> bool:
        """Whether a grid of ``family`` and ``side`` falls under this rule for ``task``.

        >>> Rule(BOXES, 1, 16, ("takano",), "").covers(BOXES, 9)
        True
        >>> Rule(BOXES, 1, 16, ("takano",), "", tasks=("count",)).covers(BOXES, 9, "solve")
        False
        """
        return (family == self.family and self.smallest <= side <= self.largest
                and task in self.tasks)


#: the rules, from benchmarks/hard_instances.py (see the module)
PORTFOLIO: tuple[Rule, ...] = (
    Rule(BOXES, 1, 16, ("takano",),
         "2026-11-26 23:20-00:10 UTC, load 11-16, 60 s each: gecode 16x16, 55 puzzles, "
         "solve and count to 2: takano 55/55 in 0.0 CPU-s, cp 0.0, cadical195 0.1, CP-SAT "
         "(1 worker) 0.4-0.6, CaDiCaL on a plain CNF 0.5; solver_family.py: 17-clue "
         "uniqueness 86,000/s against dlx 21,000/s and cadical195 5,700/s",
         rivals=("cadical195",)),
    Rule(BOXES, 17, 64, ("cadical195",),
         "2026-11-26 23:20-00:10 UTC, load 11-16, 60 s each, cut after 3 timeouts: gecode "
         "25x25, 18 puzzles, solve: cadical195 18/18 in 43 CPU-s, CP-SAT (1 worker) 16 in "
         "91, CaDiCaL on a plain CNF 16 in 75, cp 1 (cut); count to 2: cadical195 7 (cut "
         "at the 10th), CP-SAT 5 (cut at the 8th), CaDiCaL on a plain CNF 12 (cut at the "
         "15th), cp 2 (cut at the 5th); generated 36x36 and 49x49 (4 each, seed 1), solve "
         "and count: every engine 4/4, cadical195 0.1-0.2 CPU-s, CP-SAT 0.1-0.6; "
         "2026-11-27 02:30-03:20 UTC, load 12, 60 s each, not cut: count to 2, cadical195 "
         "with CPU-paced slices and the sat configuration 18/18 in 68 CPU-s (16 in 96 "
         "before), CP-SAT (1 worker) 11 in 162, CaDiCaL on a plain CNF 16 in 94",
         rivals=("cpsat", "cp")),
    Rule(LINES, 1, 16, ("takano",),
         "2026-11-26 23:50-00:10 UTC, load 12-16: qcp orders 10 and 15 (30 squares), solve: "
         "takano, cp and cadical195 30/30, 0.1, 0.0 and 0.2 s in all",
         rivals=("cadical195",)),
    Rule(LINES, 17, 25, ("cadical195",),
         "2026-11-26 23:50-00:10 UTC, load 12-16, 60 s each: qcp orders 20 and 25 (30 "
         "squares, 5 of them unsatisfiable), solve: cadical195 30/30 in 16 s in all, cp "
         "29/30 in 137 (qcp-25-264-8 undecided, 3 others 6-36 s), takano 29/30 in 273",
         rivals=("cp",)),
    Rule(LINES, 26, 64, ("cp",),
         "2026-11-26 23:20-00:10 UTC, load 7-15, 60 s each: qwh30 (39 squares at the phase "
         "transition), solve: cp 39/39 in 22 CPU-s, CP-SAT (1 worker) 39/39 in 68, CaDiCaL "
         "on a plain CNF 39/39 in 82, cadical195 25 (cut at the 28th); count to 2: cp 38/39 "
         "in 87, CP-SAT 39/39 in 91, cadical195 25 (cut), CaDiCaL on a plain CNF 4 (cut); "
         "2026-11-27 05:48 UTC, load 4, count to 2 with blocking nogoods: cp 39/39 in 52 "
         "CPU-s, CP-SAT (1 worker) 39/39 in 72; 2026-11-27 08:45-09:30 UTC, load 1-2, "
         "restarts every 100 failures, counts solution-guided: qwh30 solve 39/39 in 18.5 "
         "CPU-s, CP-SAT (1 worker) 52.9; count to 2 39/39 in 18.7, CP-SAT 66.5; PLS "
         "orders 33-40 (6 squares) solve and count 6/6, CP-SAT 6/6, the balanced squares "
         "of order 50 and 60 (4) neither",
         rivals=("cadical195",)),
)


#: the rivals of a race on an instance whose rule names none (or no rule covers), in order
RIVALS: tuple[str, ...] = ("cadical195", "cp")


def family_of(grid: Any) -> str:
    """The family of a grid (see the module): :data:`BOXES` or :data:`LINES`."""
    has_boxes = getattr(grid, "box", None) is not None or getattr(grid, "regions",
                                                                   None) is not None
    return BOXES if has_boxes else LINES


def rule_for(grid: Any, task: str = "solve") -> Rule | None:
    """The rule covering ``grid`` (its family and side ``grid.n``) for ``task``, or None."""
    family = family_of(grid)
    return next((rule for rule in PORTFOLIO if rule.covers(family, grid.n, task)), None)


def portfolio_solver(grid: Any, usable: Callable[[str], bool] = lambda name: True,
                     task: str = "solve") -> str | None:
    """The engine the portfolio picks for ``grid`` and ``task`` (``"solve"`` or
    ``"count"``): the first of its rule's engines that ``usable`` accepts (the registry
    passes: registered and installed), or None when no rule covers the grid or none of its
    engines is usable.

    Examples
    --------
    >>> import numpy as np
    >>> from sudokit.instances import sudoku
    >>> portfolio_solver(sudoku(np.zeros((4, 4), dtype=int)), lambda name: False) is None
    True
    """
    rule = rule_for(grid, task)
    if rule is None:
        return None
    return next((name for name in rule.engines if usable(name)), None)


def sides_of(rule: Rule) -> str:
    """The sides of a rule in words, and its task when it covers one only.

    >>> sides_of(Rule(BOXES, 17, 36, ("cadical195",), ""))
    'from 17x17 to 36x36'
    >>> sides_of(Rule(BOXES, 1, 9, ("dlx",), "", tasks=("count",)))
    'up to 9x9, to count'
    """
    if rule.smallest <= 1:
        sides = f"up to {rule.largest}x{rule.largest}"
    else:
        sides = f"from {rule.smallest}x{rule.smallest} to {rule.largest}x{rule.largest}"
    if set(rule.tasks) != set(TASKS):
        sides += ", to " + " and ".join(rule.tasks)
    return sides


def summary(usable: Callable[[str], bool] = lambda name: True) -> str:
    """The rules in one phrase, for help texts: each rule's first ``usable`` engine.

    >>> summary().startswith("takano for grids with boxes up to 16x16")
    True
    """
    parts = []
    for rule in PORTFOLIO:
        name = next((engine for engine in rule.engines if usable(engine)), None)
        if name is not None:
            parts.append(f"{name} for grids with {rule.family} {sides_of(rule)}")
    return "; ".join(parts)


def defaults_of(name: str) -> list[str]:
    """What engine ``name`` is the portfolio's first choice for, one phrase per rule.

    >>> defaults_of("takano")[0]
    'grids with boxes up to 16x16'
    """
    return [f"grids with {rule.family} {sides_of(rule)}" for rule in PORTFOLIO
            if rule.engines[0] == name]
