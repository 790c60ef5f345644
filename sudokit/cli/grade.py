"""``sudokit grade``: difficulty by propagation strength (Simonis 2005), one line per puzzle."""

from __future__ import annotations

import contextlib

import click
import numpy as np

from .._accel import mode
from ..errors import EXIT_UNKNOWN, SudokitError
from ..grading import (
    DEFAULT_NODES_SCHEME,
    ORDER,
    TABLE_SCHEMES,
    grade_table,
    parse_schemes,
)
from ..grading.runs import NODES_UNKNOWN
from ..problems import kinds_where, problem_kind
from ..progress import Progress
from . import kernels
from .answers import table_text
from .common import (
    FinitePositiveFloat,
    IntBelow,
    exclusive,
    file_lines,
    instance_options_for,
    last_line,
    load_chunks,
)
from .jobs import cluster_client, jobs_options, on_cluster, starting_workers
from .output import emit_json, output_option, output_stream, progress_option

#: the grade (and node count) of a puzzle that ran out of --time-limit
UNKNOWN = "unknown"


def _grade_of(names, row, decided):
    """The weakest scheme that solved the puzzle, "search", or "unknown" when a weaker
    scheme was not decided in time."""
    for name in ORDER:
        if name in names:
            if not decided[names.index(name)]:
                return UNKNOWN
            if row[names.index(name)]:
                return name
    return "search"


#: the kinds ``grade`` takes (``--problem`` offers these; no ``--colors``: no graphs)
GRADABLE = kinds_where(gradable=True)


@click.command()
@click.argument("file", type=str)
@instance_options_for(GRADABLE)
@click.option("--schemes", metavar="LIST",
              help="Comma-separated schemes to test (default: all, weakest first: "
                   + ",".join(ORDER) + ").")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON object per puzzle: search_free per scheme, grade, nodes.")
@click.option("--summary", is_flag=True,
              help="Only the Table 4/5 layout: instances and percent search free per scheme.")
@click.option("--nodes/--no-nodes", default=True, show_default=True,
              help=f"Count the nodes of a fixed labelling under {DEFAULT_NODES_SCHEME} "
                   "(the tiebreaker).")
@click.option("--shave-passes", type=IntBelow(1, 31), metavar="N",
              help="Stop FCV, BCV and HACV after N rounds over the cells (1 reproduces "
                   "Simonis's figures; default: shave to the fixpoint).")
@click.option("--time-limit", type=FinitePositiveFloat(), metavar="SECONDS",
              help="Time budget per puzzle (its schemes and node count); past it the grade "
                   "is 'unknown' (exit code 5) and the next puzzle goes on.")
@click.option("--rating", "with_rating", is_flag=True,
              help="Also rate each puzzle on Sudoku Explainer's scale with the human "
                   "techniques ('sudokit explain'): the rating and its level follow the "
                   "grade on each line (--json: rating, level, hardest).")
@jobs_options
@output_option
@progress_option
@click.pass_context
def grade(ctx, file, problem, box, schemes, as_json, summary, nodes, shave_passes,
          time_limit, with_rating, output, **cluster):
    """Grade every grid puzzle in FILE ('-' for stdin) by propagation strength.

    A puzzle is search free under a scheme when propagation alone fixes every cell. The
    grade is the weakest scheme that solves it search free, or 'search'; NODES counts a
    depth-first labelling (first open cell, smallest value first) propagating with
    HACSC3 at every node, to break ties. Schemes: FC, FCI (hidden singles), BC, BCI
    (ECLiPSe's bounds all-different, BCI also on the dual model), HAC (Regin) with the
    redundant constraints S (same), C (colored matrix), 3 (line x box matchings), and
    shaving FCV, BCV, HACV.

    Plain output: one line per puzzle, 'GRADE NODES' ('GRADE NODES RATING LEVEL' with
    --rating). Past --time-limit a puzzle's grade (or its node count, or its rating) is
    'unknown' and the run ends with exit code 5.

    \b
    Example:
      sudokit examples top3 | sudokit grade -
      sudokit examples top3 | sudokit grade --json --schemes FC,FCI,HAC -
      sudokit examples top3 | sudokit grade --summary -
      sudokit examples top3 | sudokit grade --time-limit 5 -
      sudokit examples top3 | sudokit grade --rating -
    """
    exclusive(ctx, "as_json", "summary")
    exclusive(ctx, "summary", "with_rating")  # the summary has no rating column
    exclusive(ctx, "summary", "nodes")  # the summary counts no nodes
    try:
        names = list(parse_schemes(schemes))
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--schemes") from None
    parallel = on_cluster(cluster)  # else graded here
    total, chunks = load_chunks(file, problem, box, None)
    kernels.time_limit(time_limit)   # compiling the kernels first counts against it
    tables = []  # --summary: the grades of every chunk
    done = 0
    unknown = False
    progress = Progress(total, "grading", noun="puzzles")
    lines = file_lines(file, total, progress)
    with output_stream(output, inputs=(file,)) as out:
        try:
            mode.prepare("grading")   # compiled first where no cache has them
            if with_rating:
                mode.prepare("human")
            wanted = nodes and not summary
            with contextlib.ExitStack() as stack:
                if parallel:
                    from ..batch.dask import grade_on_cluster

                    progress.phase(starting_workers(cluster))
                    client = stack.enter_context(cluster_client(
                        cluster, ("grading", "human") if with_rating else ("grading",)))
                    progress.phase(None)
                    graded = grade_on_cluster(
                        client, map(_checked, chunks), names, wanted, shave_passes, progress,
                        rating=with_rating, seconds=time_limit)
                else:
                    graded = _graded(chunks, names, wanted, shave_passes, time_limit,
                                     progress, with_rating)
                for records, grades, rated in graded:  # read, graded, printed by parts
                    if lines is not None and records:
                        progress.position(last_line(records), lines)
                    unknown = unknown or bool(grades.unknown.any())
                    if summary:
                        tables.append(grades)
                    else:
                        unknown = unknown or bool(rated and any(r[1] == UNKNOWN for r in rated))
                        _write_rows(records, grades, names, done, as_json, out, rated)
                        out.flush()
                    done += len(records)
        finally:
            progress.close()
        if summary:
            click.echo(_summary(tables, names, done), file=out)
    if unknown:
        ctx.exit(EXIT_UNKNOWN)


def _check_gradable(records) -> None:
    for record in records:
        if not problem_kind(record.instance).gradable:
            nouns = [problem_kind(name).noun for name in GRADABLE]
            raise SudokitError(f"grade needs {' or '.join(nouns)} puzzles; "
                               f"{record.instance.__class__.__name__} cannot be graded")


def _checked(records):
    _check_gradable(records)
    return records


def _graded(chunks, names, nodes, shave_passes, seconds, progress, with_rating):
    """``(records, Grades, ratings or None)`` of each chunk, graded (and rated) here, each
    puzzle within ``seconds``."""
    from ..human import rating_within

    done = 0
    for records in chunks:
        _check_gradable(records)
        puzzles = [r.instance for r in records]
        grades = grade_table(puzzles, names, nodes=nodes, seconds=seconds,
                             progress=lambda d, start=done: progress(start + d),
                             shave_passes=shave_passes)
        yield records, grades, ([rating_within(p, seconds) for p in puzzles] if with_rating
                                else None)
        done += len(records)


def _write_rows(records, grades, names, start, as_json, out, rated=None) -> None:
    """One line (or JSON object) per puzzle of a chunk; ``start`` puzzles came before it;
    ``rated``: each puzzle's :func:`~sudokit.human.rating_within` (``--rating``)."""
    for offset, record in enumerate(records):
        row, decided = grades.search_free[offset], grades.decided[offset]
        grade_name = _grade_of(names, row, decided)
        count = None if grades.nodes is None else int(grades.nodes[offset])
        shown = UNKNOWN if count == NODES_UNKNOWN else count
        if as_json:
            obj = {"index": start + offset + 1, "line": record.line,
                   "search_free": {name: bool(flag) if known else None
                                   for name, flag, known in zip(names, row, decided,
                                                                strict=True)},
                   "grade": grade_name}
            if count is not None:
                obj["nodes"] = None if count == NODES_UNKNOWN else count
            if rated is not None:
                obj["rating"], obj["level"], obj["hardest"] = rated[offset]
            emit_json(obj, out)
        else:
            line = grade_name if count is None else f"{grade_name} {shown}"
            if rated is not None:
                value, level, _ = rated[offset]
                line += f" {UNKNOWN if value is None and level == UNKNOWN else value or '-'} "\
                        f"{level}"
            click.echo(line, file=out)


def _summary(parts, names, total: int) -> str:
    """Simonis's Table 4/5 layout: the instances, then percent search free per scheme (an
    undecided scheme counts as not search free), then the puzzles that ran out of
    --time-limit when any did."""
    table = (np.concatenate([g.search_free for g in parts]) if parts
             else np.zeros((0, len(names)), dtype=bool))
    unknown = sum(int(g.unknown.sum()) for g in parts)
    columns = [s for s in TABLE_SCHEMES if s in names] + \
              [s for s in names if s not in TABLE_SCHEMES]
    heads = ["instances"] + columns
    values = [str(total)] + [f"{100 * table[:, names.index(s)].mean():.2f}" if total else "-"
                             for s in columns]
    if unknown:
        heads.append(UNKNOWN)
        values.append(str(unknown))
    return table_text(heads, values)
