"""``sudokit encode``: an instance as DIMACS CNF, with per-group statistics."""

from __future__ import annotations

import click

from ..encoders import to_cnf, to_exact_cover
from ..encoders.completion_cnf import ENCODINGS
from ..encoders.size import completion_cnf_size
from ..formats.dimacs import dimacs_bytes, write_dimacs
from ..formats.dlx import format_dlx
from ..problems import problem_kind
from ..resources import check_disk, format_bytes
from .common import (
    IntBelow,
    encode_encoding_options,
    exclusive,
    instance_options,
    load,
    requires,
)
from .output import emit_json, write_output


def _stats_table(cnf) -> str:
    rows = [(group, s["variables"], s["clauses"], s["literals"])
            for group, s in cnf.stats().items()]
    rows.append(("total", cnf.num_vars, cnf.num_clauses, cnf.num_literals))
    width = max(len(r[0]) for r in rows)
    lines = [f"{'group':<{width}}  {'variables':>10}  {'clauses':>10}  {'literals':>11}"]
    lines += [f"{g:<{width}}  {v:>10}  {c:>10}  {lit:>11}" for g, v, c, lit in rows]
    return "\n".join(lines)


@click.command()
@click.argument("file", type=str)
@click.option("--cnf", "as_cnf", is_flag=True, help="Encode as DIMACS CNF (the default).")
@click.option("--xc", "xc", is_flag=True,
              help="Encode as exact cover in Knuth's DLX1 text format.")
@click.option("--matrix", type=str, metavar="OUT.npz",
              help="With --xc: also write the 0/1 matrix as .npz (CSR arrays readable by "
                   "scipy.sparse.load_npz, item names, number of primary items).")
@click.option("--dense", is_flag=True, help="With --matrix: add the dense matrix too.")
@click.option("-o", "--output", type=str, metavar="OUT",
              help="Write the encoding to OUT instead of stdout.")
@click.option("--index", "-i", type=IntBelow(1, 63), default=1, show_default=True,
              metavar="I", help="Which instance of FILE to encode (1-based).")
@click.option("--stats", is_flag=True,
              help="Report variables, clauses and literals per constraint group (stdout; "
                   "the CNF itself goes only to -o OUT).")
@click.option("--symmetry/--no-symmetry", default=True, show_default=True,
              help="Graphs: break the symmetry of colors no precolor uses.")
@click.option("--json", "as_json", is_flag=True, help="With --stats: the table as JSON.")
@click.option("--force", is_flag=True,
              help="Write an encoding above 1 GiB (without it: exit 8, naming a smaller "
                   "encoding).")
@instance_options
@encode_encoding_options
@click.pass_context
def encode(ctx, file, as_cnf, xc, matrix, dense, output, index, stats, symmetry, as_json, force,
           problem, box, colors, encoding, amo):
    """Encode instance I of FILE ('-' for stdin) as DIMACS CNF, or with --xc as exact cover.

    Variables follow var(r, c, v) = (r-1)*n*n + (c-1)*n + v for grids and
    var(v, c) = (v-1)*k + c for graphs (1-based), except the 'reduced' encoding, which
    renumbers and writes 'c map VAR ROW COLUMN VALUE' comment lines.

    --encoding names a CNF encoding, or with --xc an exact cover one (full or reduced);
    'solve' and 'count' take the CNF encodings only.

    \b
    Example:
      out=$(mktemp -d) && sudokit examples top3 |
        sudokit encode --cnf - -o "$out/top3.cnf" && echo "$out/top3.cnf"
      sudokit examples top3 | sudokit encode --cnf --encoding reduced --stats -
      sudokit examples puzzle17 | sudokit encode --xc --encoding reduced -
    """
    exclusive(ctx, "as_cnf", "xc")
    for option in ("stats", "amo", "symmetry"):  # they shape a CNF; an exact cover has none
        exclusive(ctx, "xc", option)
    requires(ctx, "dense", "matrix")
    requires(ctx, "as_json", "stats")
    records = load(file, problem, box, colors)
    if index > len(records):
        raise click.UsageError(f"--index {index}: {file} holds {len(records)} instance(s)")
    instance = records[index - 1].instance
    if xc:
        _encode_exact_cover(instance, encoding, output, matrix, dense, file)
        return
    if matrix is not None:
        raise click.UsageError("--matrix needs --xc")
    writing = output is not None or not stats
    if writing:
        _check_room(instance, encoding, amo, output, force)
    encoded = to_cnf(instance, encoding, amo, symmetry_breaking=symmetry)
    cnf = encoded.cnf
    if writing:
        check_disk(dimacs_bytes(cnf.num_vars, cnf.num_clauses, cnf.num_literals), output,
                   f"the {encoded.encoding} encoding", force)
        write_output(output, writer=lambda stream: write_dimacs(cnf, stream), inputs=(file,))
    if stats:
        fixed = getattr(encoded, "symmetry", None)   # graphs: the clique whose colors are fixed
        if as_json:
            emit_json({"encoding": encoded.encoding, "amo": encoded.amo, "groups": cnf.stats(),
                       "variables": cnf.num_vars, "clauses": cnf.num_clauses,
                       "literals": cnf.num_literals,
                       **({"symmetry": fixed.describe()} if fixed is not None else {})})
        else:
            click.echo(_stats_table(cnf))
            if fixed is not None:
                click.echo(f"symmetry breaking: {fixed.describe()}")


def _check_room(instance, encoding: str | None, amo: str, output: str | None,
                force: bool) -> None:
    """Refuse, before building it, a grid or graph encoding the disk cannot take (or, without
    ``force``, one above 1 GiB), naming the smallest encoding of the instance that fits."""
    if not problem_kind(instance).has_cells:
        return   # other kinds are encoded through reductions: checked once built
    sizes = {name: dimacs_bytes(size.variables, size.clauses, size.literals)
             for name, spec in ENCODINGS.items() if instance.kind in spec.problems
             for size in [completion_cnf_size(instance, name, amo)]}
    name = encoding or problem_kind(instance).cnf_encoding
    if name not in sizes:
        return   # an unknown name: the encoder says so
    smallest = min(sizes, key=sizes.__getitem__)
    instead = (f"--encoding {smallest} needs at most about {format_bytes(sizes[smallest])}"
               if sizes[smallest] < sizes[name] else "")
    check_disk(sizes[name], output, f"the {name} encoding of this {instance.kind}", force,
               instead)


def _encode_exact_cover(instance, encoding, output, matrix, dense, file) -> None:
    xc = to_exact_cover(instance, encoding).xc
    text = format_dlx(xc)
    if output is not None:
        write_output(output, text, inputs=(file,))
    if matrix is not None:  # exactly the path given (numpy would add .npz to a name)
        write_output(matrix, writer=lambda stream: xc.save_matrix(stream, dense=dense),
                     inputs=(file,))
    if output is None:
        click.echo(text, nl=False)
