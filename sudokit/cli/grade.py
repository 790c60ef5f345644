"""``sudokit grade``: difficulty by propagation strength (Simonis 2005), one line per puzzle."""

from __future__ import annotations

import contextlib

import click
import numpy as np

from .._accel import mode
from ..errors import SudokitError
from ..grading import (
    DEFAULT_NODES_SCHEME,
    ORDER,
    TABLE_SCHEMES,
    label_nodes,
    parse_schemes,
    search_free_table,
)
from ..problems import kinds_where, problem_kind
from .answers import table_text
from .common import IntBelow, exclusive, instance_options_for, load_chunks
from .jobs import cluster_client, jobs_options, on_cluster
from .output import Progress, emit_json, output_option, output_stream


def _grade_of(names, row):
    for name in ORDER:
        if name in names and row[names.index(name)]:
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
@jobs_options
@output_option
@click.pass_context
def grade(ctx, file, problem, box, schemes, as_json, summary, nodes, shave_passes,
          output, **cluster):
    """Grade every grid puzzle in FILE ('-' for stdin) by propagation strength.

    A puzzle is search free under a scheme when propagation alone fixes every cell. The
    grade is the weakest scheme that solves it search free, or 'search'; NODES counts a
    depth-first labelling (first open cell, smallest value first) propagating with
    HACSC3 at every node, to break ties. Schemes: FC, FCI (hidden singles), BC, BCI
    (ECLiPSe's bounds all-different, BCI also on the dual model), HAC (Regin) with the
    redundant constraints S (same), C (colored matrix), 3 (line x box matchings), and
    shaving FCV, BCV, HACV.

    Plain output: one line per puzzle, 'GRADE NODES'.

    \b
    Example:
      sudokit examples top3 | sudokit grade -
      sudokit examples top3 | sudokit grade --json --schemes FC,FCI,HAC -
      sudokit examples top3 | sudokit grade --summary -
    """
    exclusive(ctx, "as_json", "summary")
    exclusive(ctx, "summary", "nodes")  # the summary counts no nodes
    try:
        names = list(parse_schemes(schemes))
    except SudokitError as err:
        raise click.BadParameter(err.for_cli(), param_hint="--schemes") from None
    parallel = on_cluster(cluster)  # else graded here
    total, chunks = load_chunks(file, problem, box, None)
    mode.prepare("grading")   # compiled first where no cache has them
    tables = []  # --summary: the search-free rows of every chunk
    done = 0
    with output_stream(output, inputs=(file,)) as out:
        progress = Progress(total, "grading")
        try:
            wanted = nodes and not summary
            with contextlib.ExitStack() as stack:
                if parallel:
                    from ..batch.dask import grade_on_cluster

                    client = stack.enter_context(cluster_client(cluster, ("grading",)))
                    graded = grade_on_cluster(client, map(_checked, chunks), names, wanted,
                                              shave_passes, progress)
                else:
                    graded = _graded(chunks, names, wanted, shave_passes, progress)
                for records, table, counts in graded:  # read, graded, printed a part at a time
                    if summary:
                        tables.append(table)
                    else:
                        _write_rows(records, table, counts, names, done, as_json, out)
                        out.flush()
                    done += len(records)
        finally:
            progress.close()
        if summary:
            table = (np.concatenate(tables) if tables
                     else np.zeros((0, len(names)), dtype=bool))
            click.echo(_summary(table, names, done), file=out)


def _check_gradable(records) -> None:
    for record in records:
        if not problem_kind(record.instance).gradable:
            nouns = [problem_kind(name).noun for name in GRADABLE]
            raise SudokitError(f"grade needs {' or '.join(nouns)} puzzles; "
                               f"{record.instance.__class__.__name__} cannot be graded")


def _checked(records):
    _check_gradable(records)
    return records


def _graded(chunks, names, nodes, shave_passes, progress):
    """``(records, search-free table, node counts or None)`` of each chunk, graded here."""
    done = 0
    for records in chunks:
        _check_gradable(records)
        puzzles = [r.instance for r in records]
        table = search_free_table(puzzles, names,
                                  progress=lambda d, start=done: progress(start + d),
                                  shave_passes=shave_passes)
        yield records, table, [label_nodes(p) for p in puzzles] if nodes else None
        done += len(records)


def _write_rows(records, table, counts, names, start, as_json, out) -> None:
    """One line (or JSON object) per puzzle of a chunk; ``start`` puzzles came before it;
    ``counts``: their node counts (None: not counted)."""
    for index, (record, row) in enumerate(zip(records, table, strict=True), start):
        grade_name = _grade_of(names, row)
        count = None if counts is None else counts[index - start]
        if as_json:
            obj = {"index": index + 1, "line": record.line,
                   "search_free": {name: bool(flag)
                                   for name, flag in zip(names, row, strict=True)},
                   "grade": grade_name}
            if counts is not None:
                obj["nodes"] = count
            emit_json(obj, out)
        else:
            click.echo(grade_name if count is None else f"{grade_name} {count}", file=out)


def _summary(table, names, total: int) -> str:
    """Simonis's Table 4/5 layout: the instances, then percent search free per scheme."""
    columns = [s for s in TABLE_SCHEMES if s in names] + \
              [s for s in names if s not in TABLE_SCHEMES]
    heads = ["instances"] + columns
    values = [str(total)] + [f"{100 * table[:, names.index(s)].mean():.2f}" if total else "-"
                             for s in columns]
    return table_text(heads, values)
