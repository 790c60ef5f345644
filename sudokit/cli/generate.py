"""``sudokit generate``: unique Sudoku puzzles, Latin square instances and coloring instances.

Results go to stdout, progress to stderr; ``--seed`` makes every run repeatable.
"""

from __future__ import annotations

import click
import numpy as np

from ..errors import InstanceError, SudokitError
from ..formats import format_col, format_pls, format_puzzle
from ..generators import (
    CHECKERS,
    LATIN_METHODS,
    SYMMETRIES,
    PuzzleGenerator,
    planted_precoloring,
    qcp,
    qwh,
)
from ..grading import grade
from ..grading.lattice import ORDER as GRADES
from ..instances import default_box, parse_box
from .common import Progress, SudokitGroup, emit_json

__all__ = ["generate"]


def _box(size: int, box: str | None) -> tuple[int, int]:
    try:
        shape = parse_box(box) if box else default_box(size)
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--box") from None
    if shape[0] * shape[1] != size:
        raise click.BadParameter(f"box {shape[0]}x{shape[1]} does not tile a {size}x{size} "
                                 "grid", param_hint="--box")
    return shape


def _style(n: int, layout: str) -> str:
    if layout == "grid":
        return "grid"
    return "line" if n <= 35 else "ints-line"


#: puzzles tried per wanted puzzle before --grade gives up
GRADE_ATTEMPTS = 2000


def _make_graded(gen, mode, clues, wanted, index):
    """The next puzzle, or with ``wanted`` the next one whose grade is ``wanted``."""
    if wanted is None:
        return gen.make(mode, clues)
    try:
        return gen.make_where(lambda made: grade(gen.template.with_givens(made.puzzle))
                              == wanted, mode, clues, GRADE_ATTEMPTS)
    except InstanceError:
        raise InstanceError(f"no puzzle of grade {wanted} in {GRADE_ATTEMPTS} tries (puzzle "
                            f"{index + 1}); try another grade, --minimal or a different "
                            "size") from None


def _puzzle_json(made, index: int, with_solution: bool) -> dict:
    """A JSON-ready record of a generated puzzle (``--json``)."""
    style = "line" if made.puzzle.shape[0] <= 35 else "ints-line"
    out = {"index": index, "puzzle": format_puzzle(made.puzzle, style), "clues": made.clues,
           "seconds": round(made.seconds, 6),
           "checks": {"checker": made.checker, "tests": made.checks,
                      "check_seconds": round(made.check_seconds, 6), "unique": made.unique,
                      "minimal": made.minimal, "verified": made.verified}}
    if with_solution:
        out["solution"] = format_puzzle(made.solution, style)
    return out


@click.group(cls=SudokitGroup)
def generate():
    """Generate puzzles and instances (results on stdout, progress on stderr).

    \b
    Example:
      sudokit generate sudoku --size 9 --count 10 --seed 1 --minimal
      sudokit generate latin --order 30 --holes 0.42 --balanced --seed 2 --format pls
      sudokit generate coloring --vertices 100 --colors 4 --density 0.2 --precolored 0.1
    """


@generate.command()
@click.option("--size", "-n", type=click.IntRange(1, 64), required=True, metavar="N",
              help="Side of the grid (4, 6, 9, 12, 16, ... up to 64).")
@click.option("--box", metavar="RxC", help="Box shape: R rows and C columns (default square).")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True,
              metavar="N", help="How many puzzles.")
@click.option("--seed", type=click.IntRange(min=0), metavar="S",
              help="Random seed; the same seed and options give the same output.")
@click.option("--minimal", is_flag=True,
              help="Locally minimal: removing any clue gives several solutions (proved).")
@click.option("--clues", type=click.IntRange(min=0), metavar="K",
              help="Stop removing at K clues (exit 4 if uniqueness does not allow it).")
@click.option("--symmetry", type=click.Choice(SYMMETRIES), default="none", show_default=True,
              help="Symmetric clue pattern (clues are removed one orbit at a time).")
@click.option("--full", is_flag=True, help="Print full random grids, no clue removal.")
@click.option("--fill", type=click.Choice(["auto", "search", "sat", "product"]),
              default="auto", show_default=True,
              help="How full grids are made: backtracking search; random matchings for all "
                   "bands but the last two, which CDCL search completes; or the randomized "
                   "construction (auto: search up to 25, sat beyond).")
@click.option("--grade", "wanted_grade", type=click.Choice(list(GRADES) + ["search"]),
              metavar="G", help="Keep only puzzles of this difficulty grade (see 'sudokit "
                                "grade'): a scheme name such as FCI or HAC, or 'search'.")
@click.option("--checker", type=click.Choice(CHECKERS), default="dlx", show_default=True,
              help="Back end that proves uniqueness at every step.")
@click.option("--verify", is_flag=True, help="Re-check every puzzle with the other back end.")
@click.option("--solution", is_flag=True, help="Print the solution beside each puzzle.")
@click.option("--format", "layout", type=click.Choice(["line", "grid"]), default="line",
              show_default=True, help="One line per puzzle, or a grid with box separators.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per puzzle: puzzle, clues, seconds and the checks made.")
def sudoku(size, box, count, seed, minimal, clues, symmetry, full, fill, wanted_grade, checker,
           verify, solution, layout, as_json):
    """Generate Sudoku puzzles with a unique solution (or full grids with --full).

    A random full grid (randomized search with restarts up to 25x25; random Latin squares
    of the box structure above) loses clues in random order, each removal kept only when
    the checker proves the puzzle still has one solution. Without --minimal or --clues each
    test has a node budget and a clue whose test runs out stays: unique, maybe not minimal.

    \b
    Example:
      sudokit generate sudoku --size 9 --count 100 --seed 7 --minimal
      sudokit generate sudoku --size 6 --box 2x3 --clues 12 --symmetry rotational --json
      sudokit generate sudoku --size 16 --verify --solution
      sudokit generate sudoku --size 9 --minimal --grade HAC --count 5 --seed 1
    """
    shape = _box(size, box)
    if sum([minimal, clues is not None, full]) > 1:
        raise click.UsageError("choose at most one of --minimal, --clues and --full")
    if clues is not None and clues > size * size:
        raise click.BadParameter(f"a {size}x{size} grid has {size * size} cells",
                                 param_hint="--clues")
    mode = "full" if full else "minimal" if minimal else "clues" if clues is not None \
        else "unique"
    style = _style(size, layout)
    progress = Progress(count, "generating")
    try:
        with PuzzleGenerator(size, shape, seed, checker=checker, verify=verify,
                             symmetry=symmetry, fill=fill) as gen:
            for index in range(count):
                made = _make_graded(gen, mode, clues, wanted_grade, index)
                if as_json:
                    emit_json(_puzzle_json(made, index + 1, solution))
                elif solution and not full:
                    sep = "\n\n" if style == "grid" else " "
                    click.echo(format_puzzle(made.puzzle, style, shape) + sep
                               + format_puzzle(made.solution, style, shape)
                               + ("\n" if style == "grid" else ""))
                else:
                    click.echo(format_puzzle(made.puzzle, style, shape)
                               + ("\n" if style == "grid" else ""))
                progress(index + 1)
    finally:
        progress.close()


@generate.command()
@click.option("--order", "-n", type=click.IntRange(1, 255), required=True, metavar="N",
              help="Order of the Latin square.")
@click.option("--holes", type=click.FloatRange(min=0), default=0, show_default=True,
              metavar="H", help="Number of holes, or a share of the cells when below 1.")
@click.option("--balanced", is_flag=True,
              help="Spread the holes evenly over rows and columns (Kautz et al. 2001).")
@click.option("--qcp", "as_qcp", is_flag=True,
              help="Quasigroup completion: a random partial square that may have no "
                   "completion (default: QWH, holes in a full square, always solvable).")
@click.option("--method", type=click.Choice(LATIN_METHODS),
              default="jacobson-matthews", show_default=True,
              help="How the full square is drawn (search: randomized search, order <= 64).")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True,
              metavar="N", help="How many instances.")
@click.option("--seed", type=click.IntRange(min=0), metavar="S",
              help="Random seed; the same seed and options give the same output.")
@click.option("--format", "layout", type=click.Choice(["grid", "pls"]), default="grid",
              show_default=True, help="A plain grid with '.' holes, or .pls (-1 holes).")
def latin(order, holes, balanced, as_qcp, method, count, seed, layout):
    """Generate quasigroup-with-holes (QWH) or quasigroup-completion (QCP) instances.

    Instances are separated by a blank line.

    \b
    Example:
      sudokit generate latin --order 10 --holes 42 --seed 1
      sudokit generate latin --order 30 --holes 0.42 --balanced --format pls
    """
    if as_qcp and balanced:
        raise click.UsageError("--balanced applies to QWH instances, not --qcp")
    if method == "search" and order > 64:
        raise click.BadParameter("search fills go up to order 64", param_hint="--method")
    if holes >= 1 and holes != int(holes):
        raise click.BadParameter("a hole count must be a whole number (or a ratio below 1)",
                                 param_hint="--holes")
    if holes > order * order:
        raise click.BadParameter(f"an order-{order} square has {order * order} cells",
                                 param_hint="--holes")
    rng = np.random.default_rng(seed)
    for index in range(count):
        instance = qcp(order, holes, rng) if as_qcp else qwh(order, holes, rng, balanced, method)
        text = format_pls(instance) if layout == "pls" else format_puzzle(instance, "grid")
        click.echo(("\n" if index else "") + text)


@generate.command()
@click.option("--vertices", "-v", type=click.IntRange(min=1), required=True, metavar="V",
              help="Number of vertices.")
@click.option("--colors", "-k", type=click.IntRange(min=1), required=True, metavar="K",
              help="Number of colors (of the planted coloring).")
@click.option("--density", type=click.FloatRange(0, 1), required=True, metavar="P",
              help="Edge probability between differently colored vertices.")
@click.option("--precolored", type=click.FloatRange(0, 1), default=0.0, show_default=True,
              metavar="F", help="Share of the vertices that keep their planted color.")
@click.option("--seed", type=click.IntRange(min=0), metavar="S",
              help="Random seed; the same seed and options give the same output.")
@click.option("--planted", is_flag=True,
              help="Add a 'c planted C1 C2 ...' comment with the planted coloring.")
def coloring(vertices, colors, density, precolored, seed, planted):
    """Generate a precoloring-extension instance with a planted coloring (always solvable).

    Output is DIMACS .col with 'c colors K' and 'c precolor V C' lines.

    \b
    Example:
      sudokit generate coloring --vertices 200 --colors 5 --density 0.1 --precolored 0.2 --seed 3
    """
    rng = np.random.default_rng(seed)
    graph, colors_planted = planted_precoloring(vertices, colors, density, precolored, rng)
    text = format_col(graph)
    if planted:
        head, rest = text.split("\n", 1)
        text = head + "\nc planted " + " ".join(map(str, colors_planted.tolist())) + "\n" + rest
    click.echo(text)
