"""``sudokit solve`` and ``sudokit count``: one line (or JSON object) per instance."""

from __future__ import annotations

import time
from collections import Counter, deque
from dataclasses import dataclass, field

import click

from ..counting import COUNTERS
from ..errors import EXIT_CHECK_FAILED, EXIT_UNKNOWN
from ..formats import format_instance, format_no_solution, format_solution
from ..formats.columns import ColumnChunk
from ..formats.puzzle_write import VariantHeaders
from ..solvers.batch import run_batch
from .columnar import ArrayRunner, ColumnResults
from .common import (
    VARIANTS_GIVEN,
    check_budgets,
    check_solver,
    encoding_options,
    engine_options,
    exclusive,
    flag,
    instance_options,
    is_given,
    load_chunks,
    make_budget,
    solver_options,
)
from .counting import check_counter, counted, counter_options, estimate_text
from .jobs import answers, jobs_options, on_cluster
from .output import Progress, emit_json, output_option, output_stream, written_value


def _results(ctx, file, options, task, limit=None, out=None, columns=False):
    """``(record, result)`` for every instance of FILE, in order, as each is solved; FILE is
    read, solved and printed a chunk at a time (:func:`~.common.load_chunks`), so memory stays
    flat and results come out while the input is still being read (``out`` is flushed
    after the first result, at most every 0.1 s, and after each chunk's results).

    With ``columns``, a clean chunk of one-line puzzles whose engine takes arrays comes as one
    :class:`~.columnar.ColumnResults` instead of its pairs (:mod:`~.columnar`); not with
    ``--variant``; on a Dask cluster (``--jobs``/``--scheduler``) they travel as arrays
    (:func:`~.jobs.answers`)."""
    exclusive(ctx, "xc", "problem")
    parallel = on_cluster(options)
    columns = columns and not ctx.meta.get(VARIANTS_GIVEN)
    problem = "xc" if options["xc"] else options["problem"]
    total, chunks = load_chunks(file, problem, options["box"], options["colors"], columns)
    solver = check_solver(options["solver"])
    budget = make_budget(options["time_limit"], options["conflicts"], options["nodes"],
                         options["max_memory"])
    engine_options = {"seed": options.get("seed"), "alpha": options.get("alpha")}
    progress = Progress(total, "counting" if task == "count" else "solving")
    if parallel:  # the whole loop on the cluster, column chunks as arrays
        try:
            yield from answers(options, chunks, task, limit, solver, budget,
                               options["encoding"], options["amo"], engine_options, progress,
                               out)
        finally:
            progress.close()
        return
    feed: deque = deque()     # the record chunks handed to the runner, one at a time
    pending: deque = deque()  # the records whose results are still to come
    done = 0                  # instances answered so far, both paths
    flushed = None            # when out was last flushed (None: not yet)

    def windows():
        while feed:
            records = feed.popleft()
            check_budgets(records, solver, budget)
            pending.extend(records)
            yield [record.instance for record in records]

    def answered(result):
        nonlocal done, flushed
        result.index = done
        done += 1
        now = time.monotonic()
        if out is not None and (not pending or flushed is None or now - flushed >= 0.1):
            # the first result, a chunk's last, and then at most ten times a second: a slow
            # instance next never holds back the results before it for long
            out.flush()
            flushed = now
        return result

    results = run_batch(windows(), task=task, limit=limit, solver=solver,
                        encoding=options["encoding"], amo=options["amo"], budget=budget,
                        progress=lambda finished: progress(done + 1), windows=True,
                        options=engine_options)
    arrays = ArrayRunner(task, limit, solver, budget, options["encoding"], options["amo"],
                         engine_options) if columns else None
    try:
        for chunk in chunks:
            if isinstance(chunk, ColumnChunk):
                found = arrays.run(chunk, done) if arrays is not None else None
                if found is not None:
                    yield found
                    done += len(chunk)
                    progress(done)
                    if out is not None:
                        out.flush()
                        flushed = time.monotonic()
                    continue
                chunk = chunk.records()
            feed.append(chunk)
            for _ in range(len(chunk)):
                result = next(results)
                record = pending.popleft()
                yield record, answered(result)
    finally:
        results.close()
        if arrays is not None:
            arrays.close()
        progress.close()


@dataclass(frozen=True)
class _Counted:
    """One instance's count as ``count`` prints it, whichever counter made it (``extra``: the
    JSON keys a non-default counter adds)."""

    index: int
    status: str
    count: int | None
    seconds: float
    extra: dict = field(default_factory=dict)
    epsilon: float | None = None  # an estimate's guarantee
    delta: float | None = None


def _counts(ctx, file, options, limit, out=None, columns=False):
    """``(record, _Counted)`` for every instance of FILE, by the counter ``--counter`` names:
    the solver engines (batched) for ``enumerate``, else the counter of the registry. With
    ``columns``, whole chunks may come as :class:`~.columnar.ColumnResults` (see
    :func:`_results`)."""
    counter = options["counter"]
    if COUNTERS[counter].engines:
        for item in _results(ctx, file, options, "count", limit, out, columns):
            if isinstance(item, ColumnResults):
                yield item
                continue
            record, result = item
            yield record, _Counted(result.index, result.status, result.count, result.seconds)
        return
    for index, (record, result) in enumerate(counted(ctx, file, options, counter, limit)):
        extra: dict = {"counter": counter}
        if not result.exact:
            extra.update(exact=False, epsilon=result.epsilon, delta=result.delta)
        yield record, _Counted(index, result.status, result.count, result.seconds, extra,
                               result.epsilon, result.delta)


def _write_bytes(out, data: bytes) -> None:
    """Write ASCII ``data`` to the text stream ``out`` (its buffer when it has one)."""
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        out.write(data.decode("ascii"))
        return
    out.flush()
    buffer.write(data)


def _solution_json(record, solution):
    """The solution as JSON, its values numbered as the input numbers them (.pls: from 0)."""
    return None if solution is None else written_value(record.style, solution).tolist()


@click.command()
@click.argument("file", type=str)
@instance_options
@solver_options
@encoding_options
@engine_options
@jobs_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per instance.")
@output_option
@click.pass_context
def solve(ctx, file, as_json, output, **options):
    """Solve every instance in FILE ('-' for stdin).

    Each solution is printed in the input's own format (one line in, one line out; a grid in,
    a grid out; .pls in, .pls out; a graph's coloring as one line of colors in vertex order;
    a DIMACS .cnf's model as 's SATISFIABLE' and a 'v ... 0' line), or 'no solution' /
    'unknown' (budget exhausted, exit code 5). --json numbers values as the input does
    (.pls from 0).

    An exact cover problem in Knuth's format (--xc, or a .dlx file) prints the chosen
    options, one per line, and a blank line after the cover.

    \b
    Example:
      sudokit examples top3 | sudokit solve -
      sudokit examples top3 | sudokit solve --json --solver glucose4 -
      out=$(mktemp -d) && sudokit examples top3 |
        sudokit solve --solver dlx - -o "$out/solved.txt" && echo "$out/solved.txt"
      sudokit solve "$(sudokit examples --path qwh5)"
      sudokit examples knuth6 | sudokit solve --xc -
    """
    unknown = False
    headers = VariantHeaders()   # '# variant:' and 'regions:' lines: the output reads back
    with output_stream(output, inputs=(file,)) as out:
        for item in _results(ctx, file, options, "solve", out=out, columns=not as_json):
            if isinstance(item, ColumnResults):
                unknown |= bool(item.found.unknown.any())
                _write_bytes(out, item.solve_text())
                continue
            record, result = item
            unknown |= result.status == "unknown"
            if not as_json and record.style in _GRID_STYLES and result.index > 0:
                out.write("\n")  # grids apart, as in the input, so the output reads back
            if not as_json:
                out.write(headers.before(record.instance, record.style))
            if as_json:
                emit_json({"index": result.index + 1, "line": record.line,
                           "status": result.status,
                           "solution": _solution_json(record, result.solution),
                           "seconds": round(result.seconds, 6)}, out)
            elif result.status == "sat":
                out.write(format_solution(record, result.solution) + "\n")
                if record.style == "dlx":
                    out.write("\n")  # Knuth's programs end each cover with a blank line
            else:
                out.write(format_no_solution(record, result.status) + "\n")
    if unknown:
        ctx.exit(EXIT_UNKNOWN)


#: the layouts of several lines per instance, whose solutions ``solve`` writes a blank line apart
_GRID_STYLES = ("grid", "ints-grid")


#: the columns of ``count --summary``: what is known of each instance's number of solutions
SUMMARY_CLASSES = {"0": "0 solutions", "1": "1 solution", "2+": "2+ solutions",
                   "unknown": "unknown"}


def _solution_class(result) -> str:
    """``0``, ``1``, ``2+`` or ``unknown`` (a budget ran out before 2 solutions were found;
    with 2 or more found, the instance is known not to be unique)."""
    found = result.count or 0
    if result.status == "unknown":
        return "2+" if found >= 2 else "unknown"
    return "2+" if found >= 2 else str(found)


def _count_text(result) -> str:
    """The count, or ``unknown (at least K)`` for a budget that ran out after K solutions."""
    if result.status == "unknown":
        return f"unknown (at least {result.count})" if result.count else "unknown"
    return str(result.count)


def _summary_table(tally: Counter) -> str:
    heads = ["instances", *SUMMARY_CLASSES.values()]
    values = [str(sum(tally.values())), *(str(tally[name]) for name in SUMMARY_CLASSES)]
    widths = [max(len(h), len(v)) for h, v in zip(heads, values, strict=True)]
    return "\n".join("  ".join(cell.rjust(width) for cell, width in zip(row, widths,
                                                                        strict=True))
                     for row in (heads, values))


@click.command()
@click.argument("file", type=str)
@click.option("--limit", "-n", type=click.IntRange(min=1), metavar="N",
              help="Stop counting at N (with 2: 0, 1 or 2 = 'at least 2', a uniqueness check).")
@click.option("--summary", is_flag=True,
              help="Instead of one line per instance, one table: how many instances have 0, "
                   "1 and 2+ solutions, and how many are unknown.")
@click.option("--require-unique", is_flag=True,
              help="Exit 1 when some instance does not have exactly one solution (counts up "
                   "to 2 unless --limit is given).")
@counter_options
@instance_options
@solver_options
@encoding_options
@jobs_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per instance.")
@output_option
@click.pass_context
def count(ctx, file, limit, summary, require_unique, as_json, output, **options):
    """Count the solutions of every instance in FILE ('-' for stdin).

    One line per instance: the instance (one-line puzzles) or FILE:LINE, then its count, or
    'unknown' when a budget ran out (exit code 5; 'unknown (at least K)' when K solutions
    were found before). Only the cell values are counted, never auxiliary variables, so
    counts are exact with every encoding.

    --require-unique makes the exit code the uniqueness verdict: 1 when some instance has
    no solution or several (this wins over 5), else 5 when some is unknown, else 0.

    --counter ganak counts exactly without enumerating (all 6x6 grids: ~10 s; 9x9: out of reach);
    --counter approxmc prints an estimate '~E' with its guarantee: within a factor 1+epsilon
    of the count with probability at least 1-delta. Both honour --time-limit (past it:
    'unknown', exit 5) and need pip install "sudokit[counting]".

    \b
    Example:
      sudokit examples top3 | sudokit count - --limit 2
      sudokit examples top3 | sudokit count - --require-unique --summary
      sudokit examples empty5 | sudokit count --solver dlx --problem latin -
      sudokit examples knuth6 | sudokit count --xc -
      sudokit examples six | sudokit count --counter ganak -
      sudokit examples six | sudokit count --counter approxmc --epsilon 0.5 --delta 0.1 -
    """
    exclusive(ctx, "as_json", "summary")
    check_counter(ctx, options["counter"])
    verdicts = [flag(ctx, name) for name in ("summary", "require_unique") if is_given(ctx, name)]
    if limit == 1 and verdicts:
        raise click.BadParameter(f"{' and '.join(verdicts)}: telling 1 solution from 2+ "
                                 "needs a limit of 2 or more", param_hint="--limit")
    if require_unique and limit is None:
        limit = 2
    tally = Counter()
    unknown = False
    exact = COUNTERS[options["counter"]].exact
    with output_stream(output, inputs=(file,)) as out:
        for item in _counts(ctx, file, options, limit, out, columns=True):
            if isinstance(item, ColumnResults):
                tally.update(item.tally())
                unknown |= bool(item.found.unknown.any())
                if not summary:
                    _write_bytes(out, item.count_json(limit) if as_json
                                 else item.count_text(limit))
                continue
            record, result = item
            tally[_solution_class(result)] += 1
            unknown |= result.status == "unknown"
            if summary:
                continue
            if as_json:
                done = result.status != "unknown" and result.count is not None
                emit_json({"index": result.index + 1, "line": record.line,
                           "status": result.status,
                           "count": result.count if done else result.count or 0,
                           "complete": done and (limit is None or result.count < limit),
                           "seconds": round(result.seconds, 6), **result.extra}, out)
                continue
            label = (format_instance(record, record.style)
                     if record.style in ("line", "ints-line")
                     else f"{'<stdin>' if file == '-' else file}:{record.line}")
            text = _count_text(result) if exact else estimate_text(result)
            out.write(f"{label} {text}\n")
        if summary:
            click.echo(_summary_table(tally), file=out)
    if require_unique and (tally["0"] or tally["2+"]):
        ctx.exit(EXIT_CHECK_FAILED)
    if unknown:
        ctx.exit(EXIT_UNKNOWN)
