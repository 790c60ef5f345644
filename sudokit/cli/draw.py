"""``sudokit draw``: a puzzle or a graph as a picture (SVG, PNG or PDF), or a sheet of many."""

from __future__ import annotations

import os

import click

from ..draw.sheet import PAPERS
from ..errors import BudgetExhausted, InstanceError, SudokitError
from ..formats.styles import output_style
from ..problems import PROBLEMS, problem_kind
from .choices import Choice
from .common import (
    FinitePositiveFloat,
    IntBelow,
    check_solver,
    exclusive,
    flag,
    instance_options_for,
    is_given,
    load,
    make_budget,
    requires,
)
from .output import write_output

#: picture formats, by file extension
FORMATS = ("svg", "png", "pdf")
#: answer grids on a page of the answer key (at least as many as puzzles on a page)
ANSWERS_PER_PAGE = 12

#: options that apply to grids only, and to graphs only (given for the other: a usage error)
GRID_OPTIONS = ("candidates", "scheme", "highlight_givens", "step")
GRAPH_OPTIONS = ("layout", "seed")
#: the kind families ``draw`` pictures (:attr:`~sudokit.problems.ProblemKind.family`), each with
#: the options that apply to it only
FAMILY_OPTIONS = {"grid": GRID_OPTIONS, "graph": GRAPH_OPTIONS}


@click.command()
@click.argument("file", type=str)
@click.option("-o", "--output", metavar="OUT",
              help="Write the picture to OUT (.svg, .png or .pdf) instead of SVG on stdout.")
@click.option("--format", "fmt", type=Choice(FORMATS),
              help="Picture format (default: from OUT's extension, else svg).")
@click.option("--index", "-i", type=IntBelow(1, 63), metavar="I",
              help="Draw instance I of FILE (1-based; default: all of them, a sheet when "
                   "there are several).")
@click.option("--solution", is_flag=True,
              help="Solve and draw the solution: givens bold, filled cells in blue.")
@click.option("--candidates", is_flag=True,
              help="Grids: pencil marks left after propagating --scheme; cells it fixes in "
                   "green.")
@click.option("--scheme", default="FC", show_default=True, metavar="NAME",
              help="With --candidates: the propagation scheme (as in 'sudokit grade', e.g. "
                   "FCI).")
@click.option("--highlight-givens", is_flag=True, help="Grids: shade the cells of the givens.")
@click.option("--step", type=IntBelow(1, 31), metavar="N",
              help="Grids: the grid before step N of the puzzle's human solving path (see "
                   "'sudokit explain'), with that step's pattern (yellow), eliminations "
                   "(red) and placement (green) under the pencil marks; one puzzle (or "
                   "--index).")
@click.option("--per-page", type=IntBelow(1, 63), default=6, show_default=True,
              metavar="K",
              help="A sheet puts K pictures on a page (a PDF has a page each; SVG and PNG "
                   "write OUT-1, OUT-2, ... when there are more).")
@click.option("--paper", type=Choice(list(PAPERS)),
              help="Print sheets: pages of this paper size ("
                   + "; ".join(f"{name}: {paper.help}" for name, paper in PAPERS.items())
                   + "), each puzzle scaled to its slot and captioned with its number, "
                     "level and rating.")
@click.option("--title", metavar="TEXT", help="With --paper: a title at the top of each page.")
@click.option("--answers", is_flag=True,
              help="Add an answer key: the solutions, numbered as the puzzles, on pages at "
                   "the end.")
@click.option("--rating/--no-rating", default=True, show_default=True,
              help="With --paper: Sudoku captions carry the level and Sudoku Explainer "
                   "rating ('sudokit grade').")
@click.option("--width", type=click.IntRange(min=16, max=20000), metavar="PX",
              help="Width of the picture in pixels (PNG size; the height keeps the aspect "
                   "ratio).")
@click.option("--layout", type=Choice(["spring", "circle", "grid"]), default="spring",
              show_default=True,
              help="Graphs: networkx's spring layout (seeded), a circle, or the grid of a "
                   "Sudoku or rook's graph.")
@click.option("--seed", type=IntBelow(0, 32), default=0, show_default=True, metavar="S",
              help="Graphs: seed of the spring layout (the same seed, the same picture).")
@click.option("--solver", "-s", metavar="NAME",
              help="With --solution: the solver (default: as 'sudokit solve').")
@click.option("--time-limit", type=FinitePositiveFloat(), metavar="SECONDS",
              help="With --solution: time budget per instance (past it, exit 5).")
@instance_options_for(tuple(PROBLEMS), layout_flag="--input-layout")
@click.pass_context
def draw(ctx, file, output, fmt, index, solution, candidates, scheme, highlight_givens,
         step, per_page, paper, title, answers, rating, width, layout, seed, solver, time_limit,
         problem, box, colors):
    """Draw the puzzles or graphs of FILE ('-' for stdin) as SVG, PNG or PDF.

    Sudoku of any size and box shape (thick box borders), Latin squares, and graphs with
    their coloring (vertices filled by color, precolored ones ringed). Several instances
    make a sheet, --per-page to a page. SVG needs nothing more; PNG and PDF need
    matplotlib, the spring layout networkx: pip install "sudokit[draw]".

    \b
    Example:
      sudokit examples puzzle17 | sudokit draw - --highlight-givens
      out=$(mktemp -d) && sudokit examples six |
        sudokit draw - --solution -o "$out/six.png" --width 300 && echo "$out/six.png"
      out=$(mktemp -d) && sudokit examples top3 |
        sudokit draw - --candidates --scheme FCI -o "$out/top3.pdf" && echo "$out/top3.pdf"
      out=$(mktemp -d) && sudokit examples myciel3-precolored |
        sudokit draw - --solution -o "$out/g.svg" && echo "$out/g.svg"
      out=$(mktemp -d) && sudokit examples top3 |
        sudokit draw - --index 1 --step 5 -o "$out/step5.svg" && echo "$out/step5.svg"
      out=$(mktemp -d) && sudokit generate sudoku --size 9 --minimal --count 6 --seed 1 |
        sudokit draw - --paper a4 --title "Set 1" --answers -o "$out/set.pdf" &&
        echo "$out/set.pdf"
    """
    exclusive(ctx, "solution", "candidates")
    exclusive(ctx, "index", "per_page")
    exclusive(ctx, "solution", "answers")
    for other in ("solution", "candidates", "answers", "paper", "highlight_givens"):
        exclusive(ctx, "step", other)
    requires(ctx, "scheme", "candidates")
    requires(ctx, "solver", "solution", "answers")
    requires(ctx, "time_limit", "solution", "answers", "step")
    for name in ("title", "rating"):
        requires(ctx, name, "paper")
    fmt = _format(fmt, output)
    if paper is not None and width is not None and fmt == "pdf":
        raise click.UsageError("--width does not apply to a --paper PDF: its pages are the "
                               "paper's size")
    scheme_name = _scheme(scheme) if candidates else None
    records = load(file, problem, box, colors)
    if index is not None:
        if index > len(records):
            raise click.UsageError(f"--index {index}: {file} holds {len(records)} instance(s)")
        records = records[index - 1:index]
    _check_kinds(ctx, records, file)
    if step is not None:
        _write([_step_picture(records, step, time_limit, file)], fmt, output, width, file)
        return
    solved = _solve(records, check_solver(solver), make_budget(time_limit, None)) \
        if solution or answers else [None] * len(records)
    solutions = solved if solution else [None] * len(records)
    numbers = [index] if index is not None else list(range(1, len(records) + 1))
    captions = _captions(records, numbers, paper is not None and rating) \
        if len(records) > 1 or paper is not None else [None] * len(records)
    pictures = [_picture(record, values, scheme_name, highlight_givens, layout, seed, caption)
                for record, values, caption in zip(records, solutions, captions, strict=True)]
    keys = [_picture(record, values, None, False, layout, seed, f"No. {number}")
            for record, values, number in zip(records, solved, numbers, strict=True)] \
        if answers else []
    _write(_pages(pictures, keys, paper, per_page, title), fmt, output, width, file)


def _step_picture(records, number, time_limit, file):
    """``--step N``: the one puzzle's grid before step N, the step highlighted."""
    if len(records) != 1:
        raise click.UsageError(f"--step draws one puzzle; {file} holds {len(records)} (pick "
                               "one with --index)")
    from ..draw.step import step_picture
    from ..human import unique_solution

    record = records[0]
    budget = make_budget(time_limit, None)
    count, _ = unique_solution(record.instance, budget)
    if count != 1:
        raise InstanceError(f"instance at line {record.line} has "
                            f"{'no solution' if count == 0 else 'several solutions'}: no "
                            "solving path to draw")
    canvas, _ = step_picture(record.instance, number, budget,
                             zero_based=output_style(record.style).zero_based)
    return canvas


def _pages(pictures, keys, paper, per_page, title) -> list:
    """The pages: one picture alone, a sheet, or paper pages; an answer key after them."""
    from ..draw import paper_pages, sheet_pages

    if paper is None:
        if len(pictures) == 1 and not keys:
            return pictures
        return sheet_pages(pictures, per_page) + (sheet_pages(keys, max(per_page, ANSWERS_PER_PAGE))
                                                  if keys else [])
    per_key_page = max(per_page, ANSWERS_PER_PAGE)
    total = -(-len(pictures) // per_page) + -(-len(keys) // per_key_page)
    pages = paper_pages(pictures, paper, per_page, title, total_pages=total)
    if keys:
        pages += paper_pages(keys, paper, per_key_page,
                             f"{title} - answers" if title else "Answers",
                             first_page=len(pages) + 1, total_pages=total)
    return pages


def _captions(records, numbers, rated: bool) -> list[str]:
    """``No. k``, with ``rated`` and a rateable Sudoku its level and SE rating as well."""
    captions = []
    for record, number in zip(records, numbers, strict=True):
        caption = f"No. {number}"
        if rated and problem_kind(record.instance).gradable:
            caption += _rating_text(record.instance)
        captions.append(caption)
    return captions


def _rating_text(instance) -> str:
    """`` - level, SE x.y`` of a puzzle (``sudokit.human.rate``)."""
    from ..human import rate, unique_solution

    count, _ = unique_solution(instance)
    if count != 1:
        return " - no solution" if count == 0 else " - several solutions"
    found = rate(instance)
    if not found.solved:
        return f" - beyond {found.level}, SE {found.value:.1f}+"
    return f" - {found.level}, SE {found.value:.1f}"


def _format(fmt: str | None, output: str | None) -> str:
    if fmt is not None:
        return fmt
    if output is None or output == "-":
        return "svg"
    extension = os.path.splitext(output)[1].lower().lstrip(".")
    if extension not in FORMATS:
        raise click.BadParameter(f"cannot tell the format of {output!r}; end it in .svg, .png "
                                 "or .pdf, or give --format", param_hint="-o")
    return extension


def _scheme(name: str) -> str:
    from ..grading import parse_schemes

    try:
        names = parse_schemes(name)
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--scheme") from None
    if len(names) != 1:
        raise click.BadParameter(f"{name!r}: name one scheme", param_hint="--scheme")
    return names[0]


def _check_kinds(ctx, records, file) -> None:
    """Grids and graphs only; the grid options for grids, the graph options for graphs."""
    where = "<stdin>" if file == "-" else file
    for record in records:
        kind = record.instance.kind
        family = problem_kind(kind).family
        if family not in FAMILY_OPTIONS:
            nouns = [spec.noun for spec in PROBLEMS.values() if spec.family in FAMILY_OPTIONS]
            raise InstanceError(f"draw takes {', '.join(nouns[:-1])} and {nouns[-1]} "
                                f"instances, not {kind} ({where})")
        for other, names in FAMILY_OPTIONS.items():
            if other == family:
                continue
            for name in names:
                if is_given(ctx, name):
                    raise click.UsageError(f"{flag(ctx, name)} applies only to {other}s, not "
                                           f"to {kind} ({where})")


def _solve(records, solver, budget) -> list:
    from ..batch import run_batch

    solutions = []
    results = run_batch([r.instance for r in records], task="solve", solver=solver,
                        budget=budget)
    for record, result in zip(records, results, strict=True):
        if result.status == "unknown":
            raise BudgetExhausted(f"instance at line {record.line}: the time budget ran out "
                                  "before a solution")
        if result.solution is None:
            raise InstanceError(f"instance at line {record.line} has no solution to draw; "
                                "leave out --solution and --answers")
        solutions.append(result.solution)
    return solutions


def _picture(record, values, scheme, highlight_givens, layout, seed, caption):
    from ..draw import graph_picture, grid_picture

    instance = record.instance
    if problem_kind(instance).family == "graph":
        return graph_picture(instance, values, layout=layout, seed=seed, caption=caption)
    domains = None
    if scheme is not None:
        from ..grading import propagate

        domains = propagate(instance, scheme)[1]
    return grid_picture(instance, values, candidates=domains,
                        highlight_givens=highlight_givens,
                        zero_based=output_style(record.style).zero_based, caption=caption)


def _write(pages, fmt, output, width, file) -> None:
    """SVG as text; PNG and PDF through matplotlib; OUT-1, OUT-2, ... for pages of SVG/PNG."""
    if fmt == "pdf" or len(pages) == 1:
        targets = [(output, pages)]
    elif output is None or output == "-":
        raise click.UsageError(f"the sheet has {len(pages)} pages; give -o OUT.{fmt} (written "
                               f"as OUT-1.{fmt}, OUT-2.{fmt}, ...), -o OUT.pdf or a larger "
                               "--per-page")
    else:
        stem, extension = os.path.splitext(output)
        targets = [(f"{stem}-{k}{extension}", [page]) for k, page in enumerate(pages, 1)]
    if fmt != "svg":
        from ..draw.raster import render
        from ..interop import optional_module

        optional_module("matplotlib", "draw")   # the missing extra before any file is made
    for path, chosen in targets:
        if fmt == "svg":
            write_output(path, chosen[0].to_svg(width), inputs=(file,))
        else:
            write_output(path, writer=lambda stream, chosen=chosen: render(chosen, fmt, stream,
                                                                           width),
                         inputs=(file,))
