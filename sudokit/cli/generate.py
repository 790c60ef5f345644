"""``sudokit generate``: unique Sudoku puzzles, Latin square instances and coloring instances.

Results go to stdout (or atomically to ``-o OUT``, each as it is made), progress to stderr;
``--seed`` makes every run repeatable. Every long step runs in bounded slices (see
:mod:`sudokit.generators.removal`), so ``--time-limit`` holds and Ctrl-C ends a run at once.
"""

from __future__ import annotations

import contextlib

import click
import numpy as np

from .._accel import mode as accel_mode
from ..errors import InstanceError, SudokitError
from ..formats import format_col, format_pls, format_puzzle
from ..formats.puzzle_write import VariantHeaders
from ..generators import (
    CHECKERS,
    LATIN_METHODS,
    SYMMETRIES,
    GenerationStatus,
    PuzzleGenerator,
    planted_precoloring,
    qcp,
    qwh,
)
from ..generators.budgets import DEFAULT_LIMIT_ABOVE
from ..generators.fills import FILLS
from ..generators.graded import (
    GRADES,
    Target,
    grade_target,
    level_target,
    make_graded,
    rating_target,
)
from ..generators.sizes import check_request, sudoku_bytes
from ..human.levels import LEVELS, parse_rating_range
from ..instances import default_box, parse_box
from ..instances.jigsaw import format_region_map
from ..instances.variants import ALIASES, VARIANTS, parse_variants
from ..progress import Progress
from ..solvers.budget import Budget
from . import kernels
from .choices import Choice
from .common import ByteSize, FiniteFloat, FinitePositiveFloat, IntBelow
from .group import SudokitGroup
from .jobs import cluster_client, jobs_options, on_cluster, starting_workers
from .output import emit_json, output_option, output_stream, progress_option

__all__ = ["generate"]


def max_memory_option(func):
    """``--max-memory SIZE``: the request is checked against it (default: the available
    memory) before anything is built (exit 8)."""
    return click.option("--max-memory", type=ByteSize(), metavar="SIZE",
                        help="Refuse a size that would need more memory than SIZE (e.g. "
                             "500M; default: the memory available), before building "
                             "anything (exit 8).")(func)


def _box(size: int, box: str | None) -> tuple[int, int]:
    try:
        shape = parse_box(box) if box else \
            default_box(size, latin_hint=f"'generate latin --order {size}'")
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


def _puzzles(count, seed, size, shape, generator, make, progress):
    """The puzzles of a serial run: one generator seeded with ``seed`` makes them all."""
    with PuzzleGenerator(size, shape, seed, **generator) as gen:
        for index in range(count):
            yield make_graded(gen, index=index, progress=progress.status, **make)


class _PuzzleProgress(Progress):
    """:class:`~sudokit.progress.Progress` of a batch of puzzles that also tells, inside a
    long puzzle, how its generation stands (its phase: filling the grid, removing clues,
    re-checking)."""

    def __init__(self, total: int):
        super().__init__(total, "generating", noun="puzzles")

    def status(self, st: GenerationStatus) -> None:
        """Where the puzzle being made stands (called between slices of its work)."""
        if st.phase == "search":
            rate = self.rate(st.tried, st.seconds)
            closest = f", closest so far {st.closest}" if st.closest else ""
            doing = f"searching {st.goal}: {st.tried:,} puzzles tried{rate}{closest}"
        elif st.phase == "fill":
            doing = "filling the grid"
        elif st.phase == "verify":
            doing = "re-checking the puzzle"
        else:
            doing = f"{st.removed:,}/{st.cells:,} clues removed, {st.tests:,} tests"
            if st.phase == "check":
                doing += ", final check"
        where = f"puzzle {self.done + 1}/{self.total}: " if self.total and self.total > 1 \
            else ""
        self.phase(f"{where}{doing}, {st.seconds:.0f} s")


def _fill_json(stats: dict) -> dict:
    """The fill statistics of a puzzle's grid (``--json``)."""
    return {"strategy": stats.get("strategy"), "alpha": stats.get("alpha"),
            "restarts": stats.get("restarts", 0), "nodes": stats.get("nodes", 0),
            "seconds": round(stats.get("seconds", 0.0), 6)}


def _puzzle_json(made, index: int, with_solution: bool) -> dict:
    """A JSON-ready record of a generated puzzle (``--json``)."""
    style = "line" if made.puzzle.shape[0] <= 35 else "ints-line"
    out = {"index": index, "puzzle": format_puzzle(made.puzzle, style), "clues": made.clues,
           "seconds": round(made.seconds, 6),
           "checks": {"checker": made.checker, "tests": made.checks,
                      "check_seconds": round(made.check_seconds, 6), "unique": made.unique,
                      "minimal": made.minimal, "verified": made.verified},
           "fill": _fill_json(made.extra.get("fill", {}))}
    if "symmetric_minimal" in made.extra:   # --symmetry: no whole orbit can go
        out["checks"]["symmetric_minimal"] = made.extra["symmetric_minimal"]
    target = made.extra.get("target_clues")
    if target is not None:
        out["target_clues"] = target
        out["clues_over_target"] = made.clues - target
    if with_solution:
        out["solution"] = format_puzzle(made.solution, style)
    if "search" in made.extra:     # --grade, --level, --rating: what the search found
        out["difficulty"] = made.extra["search"]
    if made.variants:
        out["variants"] = list(made.variants)
    if made.regions is not None:
        out["regions"] = format_region_map(made.regions)
    return out


def _variants(size: int, box: str | None, names) -> tuple[tuple[str, ...], tuple | None]:
    """``--variant`` parsed, and the box shape (None for a jigsaw, whose regions replace
    the boxes)."""
    try:
        variants = parse_variants(names)
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--variant") from None
    if "jigsaw" not in variants:
        return variants, _box(size, box)
    if box is not None:
        raise click.UsageError("--box does not apply to a jigsaw: its regions replace the boxes")
    boxed = [name for name in variants if VARIANTS[name].needs_box]
    if boxed:
        raise click.UsageError(f"--variant {boxed[0]} needs boxes; a jigsaw has regions "
                               "instead")
    return variants, None


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
@click.option("--size", type=click.IntRange(1, 64), required=True, metavar="N",
              help="Side of the grid (4, 6, 9, 12, 16, ... up to 64).")
@click.option("--box", metavar="RxC", help="Box shape: R rows and C columns (default square).")
@click.option("--count", type=IntBelow(1, 63), default=1, show_default=True,
              metavar="N", help="How many puzzles.")
@click.option("--seed", type=IntBelow(0, 32), metavar="S",
              help="Random seed; the same seed and options give the same output.")
@click.option("--minimal", is_flag=True,
              help="Locally minimal: removing any clue gives several solutions (proved). "
                   "With --symmetry the puzzle stays symmetric and is minimal for removing "
                   "a whole orbit; --json then says \"symmetric_minimal\": true and "
                   "\"minimal\" only when every single clue is needed too (each tested).")
@click.option("--clues", type=IntBelow(0, 63), metavar="K",
              help="Stop removing at K clues (exit 4 if uniqueness does not allow it).")
@click.option("--symmetry", type=Choice(SYMMETRIES), default="none", show_default=True,
              help="Symmetric clue pattern (clues are removed one orbit at a time; see "
                   "--minimal for what minimal means then).")
@click.option("--full", is_flag=True, help="Print full random grids, no clue removal.")
@click.option("--fill", type=Choice(list(FILLS)), default="auto", show_default=True,
              help="How full grids are made (see 'Fill strategies' in the puzzle author's "
                   "tutorial, docs/tutorials/puzzle-author.md): "
                   + "; ".join(strategy.help_line() for strategy in FILLS.values()) + ".")
@click.option("--alpha", type=FiniteFloat(), metavar="A",
              help="The parameter of a --fill strategy that takes one (prune, "
                   "weighted-prune, grasp; default: the strategy's).")
@click.option("--target-clues", type=IntBelow(0, 63), metavar="K",
              help="Aim for K clues, best effort: the puzzle with the fewest clues found "
                   "(by the end of --time-limit, if given) is written, and how close it came "
                   "is reported (stderr, or --json).")
@click.option("--grade", "wanted_grade", type=Choice(list(GRADES)),
              metavar="G", help="Puzzles of this Simonis grade (see 'sudokit grade'): a "
                                "scheme name such as FCI or HAC, or 'search'.")
@click.option("--level", type=Choice(list(LEVELS)), metavar="LEVEL",
              help="Puzzles of this level: "
                   + ", ".join(f"{name} (SE {low:g}-{high:g})" if high < 99 else
                               f"{name} (SE {low:g}+)" for name, (low, high) in LEVELS.items())
                   + ", rated as 'sudokit grade' rates them. Found by hill climbing over "
                     "clue sets (minimal puzzles); --time-limit bounds each puzzle.")
@click.option("--rating", "rating_range", metavar="MIN:MAX",
              help="Puzzles whose Sudoku Explainer rating lies in MIN:MAX (either side may "
                   "be left out), found as --level finds them.")
@click.option("--checker", type=Choice(CHECKERS), default="auto", show_default=True,
              help="Back end that proves uniqueness at every step (auto: takano with "
                   "--minimal or --clues up to 16x16, where every checker proves the same "
                   "removals, else dlx).")
@click.option("--verify", is_flag=True, help="Re-check every puzzle with the other back end.")
@click.option("--time-limit", type=FinitePositiveFloat(), metavar="SECONDS",
              help="Time budget of each puzzle, from the start of its generation (default: "
                   f"none up to {DEFAULT_LIMIT_ABOVE}x{DEFAULT_LIMIT_ABOVE}, N*N/100 for "
                   "larger unique puzzles, e.g. 41 s at 64x64). When it runs out a unique "
                   "puzzle, or one aiming at --target-clues, stops losing clues (still "
                   "unique, not minimal); with --minimal, --clues or --full it is an error "
                   "(exit 5), as is a grid not filled in time.")
@click.option("--solution", is_flag=True, help="Print the solution beside each puzzle.")
@click.option("--format", "layout", type=Choice(["line", "grid"]), default="line",
              show_default=True, help="One line per puzzle, or a grid with box separators.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per puzzle: puzzle, clues, seconds and the checks made.")
@click.option("--variant", "variant_names", multiple=True, metavar="NAME",
              help="A puzzle variant (repeatable, they combine): " + ", ".join(VARIANTS)
                   + " (aliases " + ", ".join(sorted(ALIASES)) + "). jigsaw draws a random "
                   "region map from the seed (one per run, or per --jobs chunk); the output "
                   "starts with a '# variant:' line (and a 'regions:' line) so it reads back.")
@max_memory_option
@jobs_options
@output_option
@progress_option
def sudoku(size, box, count, seed, minimal, clues, symmetry, full, fill, alpha, target_clues,
           wanted_grade, level, rating_range, checker, verify, time_limit, solution, layout,
           as_json, variant_names, max_memory, output, **cluster):
    """Generate Sudoku puzzles with a unique solution (or full grids with --full).

    A random full grid (randomized search with restarts up to 25x25; random matchings and
    CDCL search above) loses clues in random order, each removal kept only when the checker
    proves the puzzle still has one solution. Without --minimal or --clues each test has a
    node budget and a clue whose test runs out stays: unique, maybe not minimal. Puzzles are
    written as they are made.

    \b
    Example:
      sudokit generate sudoku --size 9 --count 100 --seed 7 --minimal
      sudokit generate sudoku --size 6 --box 2x3 --clues 12 --symmetry rotational --json
      sudokit generate sudoku --size 16 --verify --solution
      sudokit generate sudoku --size 9 --minimal --grade FCI --count 5 --seed 1
      sudokit generate sudoku --size 9 --level hard --count 5 --seed 1
      sudokit generate sudoku --size 9 --rating 6.5:7.5 --seed 2 --json
      sudokit generate sudoku --size 36 --time-limit 1 --seed 1
      sudokit generate sudoku --size 16 --full --fill weighted-prune --alpha 0.9 --json
      sudokit generate sudoku --size 9 --variant x --minimal --seed 3
      sudokit generate sudoku --size 9 --variant jigsaw --minimal --seed 1 --format grid
    """
    variants, shape = _variants(size, box, variant_names)
    check_request(f"a {size}x{size} Sudoku", sudoku_bytes(size), max_memory)
    if variants and fill != "auto":
        raise click.UsageError(f"--fill {fill} builds classic grids; a variant grid is filled "
                               "through its units (leave --fill out)")
    if sum([minimal, clues is not None, full, target_clues is not None]) > 1:
        raise click.UsageError("choose at most one of --minimal, --clues, --target-clues "
                               "and --full")
    for option, value in (("--clues", clues), ("--target-clues", target_clues)):
        if value is not None and value > size * size:
            raise click.BadParameter(f"a {size}x{size} grid has {size * size} cells",
                                     param_hint=option)
    try:
        alpha = FILLS[fill].check_alpha(alpha)
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--alpha") from None
    wanted = _wanted(wanted_grade, level, rating_range, full, target_clues)
    if target_clues is not None:
        clues = target_clues
    mode = "full" if full else "minimal" if minimal else "clues" if clues is not None \
        else "unique"
    style = _style(size, layout)
    budget = None if time_limit is None else Budget(seconds=time_limit)
    kernels.time_limit(time_limit)
    progress = _PuzzleProgress(count)
    cut_short = 0
    try:
        accel_mode.prepare("generate")   # compiled first where none is cached, within the limit
        if level is not None or rating_range is not None:   # targets the human rating
            accel_mode.prepare("human")
        generator = {"checker": checker, "verify": verify, "symmetry": symmetry, "fill": fill,
                     "alpha": alpha}
        if variants:
            generator["variants"] = variants
        headers = VariantHeaders()   # '# variant:' and 'regions:' lines: the file reads back
        make = {"mode": mode, "clues": clues, "wanted": wanted, "budget": budget,
                "best_effort": target_clues is not None}
        with output_stream(output) as out, contextlib.ExitStack() as stack:
            if on_cluster(cluster):  # --jobs: seeded per chunk (sudokit.batch.dask)
                from ..batch.dask import puzzles_on_cluster

                progress.phase(starting_workers(cluster))
                client = stack.enter_context(cluster_client(cluster, ("generate",)))
                progress.phase(None)
                made_all = puzzles_on_cluster(client, count, seed, size, shape, generator,
                                              make, progress)
            else:
                made_all = _puzzles(count, seed, size, shape, generator, make, progress)
            for index, made in enumerate(made_all):
                cut_short += made.budget_exhausted
                if not as_json:
                    out.write(headers.before(made.instance, style))
                if as_json:
                    emit_json(_puzzle_json(made, index + 1, solution), file=out)
                elif solution and not full:
                    sep = "\n\n" if style == "grid" else " "
                    click.echo(format_puzzle(made.puzzle, style, shape) + sep
                               + format_puzzle(made.solution, style, shape)
                               + ("\n" if style == "grid" else ""), file=out)
                else:
                    click.echo(format_puzzle(made.puzzle, style, shape)
                               + ("\n" if style == "grid" else ""), file=out)
                out.flush()                      # each puzzle goes out as it is made
                if target_clues is not None and not as_json:
                    progress.note(f"puzzle {index + 1}: {made.clues} clues (target "
                                  f"{target_clues}, {made.clues - target_clues} over)")
                progress(index + 1)
        if cut_short:
            which = "the puzzle" if count == 1 else "every puzzle" if cut_short == count \
                else f"{cut_short} of the {count} puzzles"
            short = "unique, but more clues might go" if target_clues is not None \
                else "unique, but not minimal"
            progress.note(f"note: the time budget ran out before the clue removal of {which} "
                          f"was done: {short} (--time-limit allows more time)")
    finally:
        progress.close()


def _wanted(grade: str | None, level: str | None, rating: str | None, full: bool,
            target_clues: int | None) -> Target | None:
    """The wanted difficulty of ``--grade``, ``--level`` or ``--rating`` (usage errors for
    more than one, or with ``--full`` or ``--target-clues``)."""
    given = [name for name, value in (("--grade", grade), ("--level", level),
                                      ("--rating", rating)) if value is not None]
    if len(given) > 1:
        raise click.UsageError(f"{' and '.join(given)} do not go together; choose one")
    if not given:
        return None
    for other, on in (("--full", full), ("--target-clues", target_clues is not None)):
        if on:
            raise click.UsageError(f"{given[0]} applies to puzzles with clues removed, not "
                                   f"to {other}")
    if grade is not None:
        return grade_target(grade)
    if level is not None:
        return level_target(level)
    try:
        low, high = parse_rating_range(str(rating))
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--rating") from None
    return rating_target(low, high)


@generate.command()
@click.option("--order", type=click.IntRange(1, 255), required=True, metavar="N",
              help="Order of the Latin square.")
@click.option("--holes", type=FiniteFloat(min=0), default=0, show_default=True,
              metavar="H", help="Number of holes, or a share of the cells when below 1.")
@click.option("--balanced", is_flag=True,
              help="Spread the holes evenly over rows and columns (Kautz et al. 2001).")
@click.option("--qcp", "as_qcp", is_flag=True,
              help="Quasigroup completion: a random partial square that may have no "
                   "completion (default: QWH, holes in a full square, always solvable).")
@click.option("--method", type=Choice(LATIN_METHODS),
              default="jacobson-matthews", show_default=True,
              help="How the full square is drawn (search: randomized search, order <= 64).")
@click.option("--count", type=IntBelow(1, 63), default=1, show_default=True,
              metavar="N", help="How many instances.")
@click.option("--seed", type=IntBelow(0, 32), metavar="S",
              help="Random seed; the same seed and options give the same output.")
@click.option("--format", "layout", type=Choice(["grid", "pls"]), default="grid",
              show_default=True, help="A plain grid with '.' holes, or .pls (-1 holes).")
@click.option("--variant", "variant_names", multiple=True, metavar="NAME",
              help="diagonal (alias x): diagonal Latin squares, both main diagonals "
                   "all-different (order 1 or 4 up, at most 64); the square is drawn through "
                   "the units, and the output starts with a '# variant:' line so it reads "
                   "back (grid format only).")
@max_memory_option
@output_option
@click.pass_context
def latin(ctx, order, holes, balanced, as_qcp, method, count, seed, layout, variant_names,
          max_memory, output):
    """Generate quasigroup-with-holes (QWH) or quasigroup-completion (QCP) instances.

    Instances are separated by a blank line.

    \b
    Example:
      sudokit generate latin --order 10 --holes 42 --seed 1
      sudokit generate latin --order 30 --holes 0.42 --balanced --format pls
      sudokit generate latin --order 7 --holes 20 --variant diagonal --seed 1
    """
    variants = _latin_variants(ctx, order, layout, variant_names)
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
    headers = VariantHeaders()
    accel_mode.prepare("generate")   # compiled first where no cache has them
    with output_stream(output) as out:
        for index in range(count):
            instance = qcp(order, holes, rng, variants, max_memory) if as_qcp else \
                qwh(order, holes, rng, balanced, method, variants, max_memory)
            text = format_pls(instance) if layout == "pls" else format_puzzle(instance, "grid")
            click.echo(("\n" if index else "") + headers.before(instance, layout) + text,
                       file=out)


def _latin_variants(ctx, order: int, layout: str, names) -> tuple[str, ...]:
    """``generate latin --variant``, checked against the other options (usage errors)."""
    try:
        variants = parse_variants(names)
    except InstanceError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--variant") from None
    if not variants:
        return ()
    if variants != ("diagonal",):
        raise click.BadParameter(f"{' '.join(v for v in variants if v != 'diagonal')} needs "
                                 "a Sudoku; a Latin square takes diagonal only",
                                 param_hint="--variant")
    if layout == "pls":
        raise click.UsageError("a .pls file has no place for the variant; use --format grid "
                               "(its '# variant:' line reads back)")
    if ctx.get_parameter_source("method") is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--method draws classic squares; a diagonal Latin square is "
                               "drawn through its units (leave --method out)")
    if order in (2, 3) or order > 64:
        raise click.BadParameter("diagonal Latin squares are drawn for order 1 and 4..64 "
                                 "(none exists of order 2 or 3)", param_hint="--order")
    return variants


@generate.command()
@click.option("--vertices", "-v", type=IntBelow(1, 31), required=True, metavar="V",
              help="Number of vertices.")
@click.option("--colors", "-k", type=IntBelow(1, 31), required=True, metavar="K",
              help="Number of colors (of the planted coloring).")
@click.option("--density", type=FiniteFloat(0, 1), required=True, metavar="P",
              help="Edge probability between differently colored vertices.")
@click.option("--precolored", type=FiniteFloat(0, 1), default=0.0, show_default=True,
              metavar="F", help="Share of the vertices that keep their planted color.")
@click.option("--seed", type=IntBelow(0, 32), metavar="S",
              help="Random seed; the same seed and options give the same output.")
@click.option("--planted", is_flag=True,
              help="Add a 'c planted C1 C2 ...' comment with the planted coloring.")
@max_memory_option
@output_option
def coloring(vertices, colors, density, precolored, seed, planted, max_memory, output):
    """Generate a precoloring-extension instance with a planted coloring (always solvable).

    Output is DIMACS .col with 'c colors K' and 'c precolor V C' lines.

    \b
    Example:
      sudokit generate coloring --vertices 200 --colors 5 --density 0.1 --precolored 0.2 --seed 3
      sudokit generate coloring -v 50 -k 3 --density 0.3 --planted
    """
    rng = np.random.default_rng(seed)
    graph, colors_planted = planted_precoloring(vertices, colors, density, precolored, rng,
                                                max_memory)
    text = format_col(graph)
    if planted:
        head, rest = text.split("\n", 1)
        text = head + "\nc planted " + " ".join(map(str, colors_planted.tolist())) + "\n" + rest
    with output_stream(output) as out:
        click.echo(text, file=out)
