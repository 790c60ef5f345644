"""A CNF file sudokit writes decodes on its own (issue 17, part 2).

The reduced encoding's file carries ``c given`` and ``c map`` lines; a model of it from an
outside solver (PySAT here, driven directly, not through sudokit) maps back to the full
solution with the file alone, through ``reduce X2sat FILE.cnf --map-back`` and ``check``, in
both model conventions (every variable signed; only the true literals).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver

from sudokit.encoders import to_cnf
from sudokit.errors import EXIT_CHECK_FAILED, EXIT_INVALID_INPUT, ParseError
from sudokit.formats import format_dimacs, parse_dimacs, parse_instances, read_instances
from sudokit.formats.cnf_map import encoding_from_cnf
from sudokit.instances import Precoloring
from sudokit.instances.formula import read_model

from ..helpers import EXAMPLES, assert_cli_error, cli_run, partial_grids, small_precolorings

CASES = [("sudoku2sat", EXAMPLES / "janko16.txt"), ("latin2sat", EXAMPLES / "qwh5.pls"),
         ("coloring2sat", EXAMPLES / "myciel3-precolored.col")]


def _outside_model(path) -> list[int]:
    """Solve a DIMACS file with PySAT's own reader and CaDiCaL: a model as another tool gives."""
    from pysat.formula import CNF as PySATCNF

    with Solver(name="cadical195", bootstrap_with=PySATCNF(from_file=str(path)).clauses) as s:
        assert s.solve()
        return s.get_model()


def _write(path, lits, header=True):
    head = "s SATISFIABLE\n" if header else ""
    path.write_text(head + "v " + " ".join(map(str, lits)) + " 0\n")
    return path


@pytest.fixture(params=CASES, ids=[name for name, _ in CASES])
def reduced_file(request, tmp_path):
    name, source = request.param
    cnf = tmp_path / "reduced.cnf"
    result = cli_run("encode", "--cnf", "--encoding", "reduced", source, "-o", cnf)
    assert result.exit_code == 0, result.stderr
    return name, source, cnf


@pytest.mark.parametrize("convention", ["complete", "true literals only"])
def test_reduced_file_maps_back_alone(reduced_file, tmp_path, convention):
    name, source, cnf = reduced_file
    model = _outside_model(cnf)
    if convention != "complete":
        model = [lit for lit in model if lit > 0]
    model_file = _write(tmp_path / "model.txt", model)

    mapped = cli_run("reduce", name, cnf, "--map-back", model_file)
    assert mapped.exit_code == 0, mapped.stderr
    if convention == "complete":
        assert mapped.stderr == ""
    else:
        assert "only true literals" in mapped.stderr and "taken as false" in mapped.stderr
    # the mapped-back solution completes the original instance, givens included
    solution = tmp_path / ("solution" + source.suffix)
    solution.write_text(mapped.stdout)
    checked = cli_run("check", source, solution)
    assert (checked.exit_code, checked.stdout) == (0, "valid\n"), checked.stdout + checked.stderr

    checked = cli_run("check", cnf, model_file)
    assert (checked.exit_code, checked.stdout) == (0, "valid\n"), checked.stdout
    assert ("note:" in checked.stderr) == (convention != "complete")


def test_standard_encoding_file_maps_back_too(tmp_path):
    cnf = tmp_path / "std.cnf"
    assert cli_run("encode", "--cnf", EXAMPLES / "janko16.txt", "-o", cnf).exit_code == 0
    model = _write(tmp_path / "m.txt", [lit for lit in _outside_model(cnf) if lit > 0])
    mapped = cli_run("reduce", "sudoku2sat", cnf, "--map-back", model)
    assert mapped.exit_code == 0
    expected = cli_run("solve", EXAMPLES / "janko16.txt").stdout
    assert mapped.stdout == expected


def test_a_wrong_model_is_invalid_not_decoded(reduced_file, tmp_path):
    name, _, cnf = reduced_file
    true = [lit for lit in _outside_model(cnf) if lit > 0]
    model = _write(tmp_path / "m.txt", true[1:])  # one cell loses its value
    checked = cli_run("check", cnf, model)
    assert checked.exit_code == EXIT_CHECK_FAILED
    assert checked.stdout.startswith("invalid: clause ")
    mapped = cli_run("reduce", name, cnf, "--map-back", model)
    assert mapped.exit_code == EXIT_CHECK_FAILED
    assert mapped.stdout.startswith("invalid target solution: clause ")


def test_partial_model_names_its_unassigned_variables(tmp_path):
    cnf = tmp_path / "f.cnf"
    cnf.write_text("p cnf 3 2\n1 2 0\n-1 -3 0\n")
    model = _write(tmp_path / "m.txt", [-3, 2], header=False)
    checked = cli_run("check", cnf, model)
    assert (checked.exit_code, checked.stdout) == (0, "valid\n")
    assert "1 variable(s) with neither sign" in checked.stderr
    model = _write(tmp_path / "m.txt", [-2, 3], header=False)
    checked = cli_run("check", cnf, model)
    assert checked.exit_code == EXIT_CHECK_FAILED
    assert checked.stdout == ("invalid: clause 1 (1 2) is not satisfied: the model leaves "
                              "variable(s) 1 unassigned\n")


def test_true_literals_only_was_misread_before(tmp_path):
    """The issue's case: a model of true literals only got 'clause (-1 -2) is not satisfied'."""
    cnf = tmp_path / "f.cnf"
    cnf.write_text("p cnf 2 2\n1 2 0\n-1 -2 0\n")
    checked = cli_run("check", cnf, _write(tmp_path / "m.txt", [2]))
    assert (checked.exit_code, checked.stdout) == (0, "valid\n")
    assert "only true literals" in checked.stderr


def test_the_decoded_grid_is_checked_against_the_units(tmp_path):
    """A file whose clauses were tampered with: the model satisfies them, the grid does not."""
    cnf = tmp_path / "t.cnf"
    text = cli_run("encode", "--cnf", "--encoding", "reduced", EXAMPLES / "qwh5.pls").stdout
    header, *clauses = [line for line in text.splitlines() if not line.startswith("c ")]
    comments = [line for line in text.splitlines() if line.startswith("c ")]
    encoded = encoding_from_cnf(parse_dimacs(text))
    # a model putting the same value in two cells of row 1: the decoded square repeats it
    free = np.flatnonzero(encoded.cell_vars.any(axis=1))
    row_free = [c for c in free if c < 5][:2]
    common = np.flatnonzero((encoded.cell_vars[row_free] > 0).all(axis=0))
    if not common.size:
        pytest.skip("no shared candidate in row 1")
    lits = [int(encoded.cell_vars[c, common[0]]) for c in row_free]
    others = [int(encoded.cell_vars[c][encoded.cell_vars[c] > 0][0]) for c in free
              if c not in row_free]
    model = lits + others
    # the same comments over a formula that only says "these literals are true"
    units = "".join(f"{lit} 0\n" for lit in model)
    cnf.write_text("\n".join(comments) + f"\np cnf {header.split()[2]} {len(model)}\n{units}")
    checked = cli_run("check", cnf, _write(tmp_path / "m.txt", model))
    assert checked.exit_code == EXIT_CHECK_FAILED
    assert checked.stdout.startswith("invalid: decoded latin: ")


def test_refusals_are_one_line(tmp_path):
    cnf = tmp_path / "foreign.cnf"
    cnf.write_text("p cnf 2 1\n1 2 0\n")
    model = _write(tmp_path / "m.txt", [1, 2])
    assert_cli_error(cli_run("reduce", "sudoku2sat", cnf, "--map-back", model),
                     EXIT_INVALID_INPUT, "without sudokit's header lines")
    written = tmp_path / "w.cnf"
    cli_run("encode", "--cnf", "--encoding", "reduced", EXAMPLES / "qwh5.pls", "-o", written)
    assert_cli_error(cli_run("reduce", "sudoku2sat", written, "--map-back", model),
                     EXIT_INVALID_INPUT, "written by latin2sat, not sudoku2sat")
    assert_cli_error(cli_run("check", EXAMPLES / "puzzle17.txt", model), EXIT_INVALID_INPUT,
                     "a DIMACS model", "sudokit check FILE.cnf MODEL")


@pytest.mark.parametrize("bad, message", [
    ("c map 1 9 9 9\n", "outside the 2x2 grid"),
    ("c map 7 1 1 1\n", "variable outside 1..4"),
    ("c given 1 1 x\n", "does not hold 3 integers"),
])
def test_malformed_map_lines_are_parse_errors(bad, message):
    text = ("c latin 2x2\nc encoding reduced (Kwon and Jain 2006), at-most-one pairwise\n"
            "c variables renumbered; one line per variable: c map VAR ROW COLUMN VALUE\n"
            "c map 1 1 1 1\nc map 2 1 2 2\nc map 3 2 1 2\nc map 4 2 2 1\n" + bad
            + "p cnf 4 0\n")
    with pytest.raises(ParseError, match=message):
        encoding_from_cnf(parse_dimacs(text))


@settings(max_examples=40, deadline=None)
@given(instance=st.one_of(partial_grids(), small_precolorings()),
       encoding=st.sampled_from(["minimal", "extended", "reduced", "direct"]),
       amo=st.sampled_from(["pairwise", "seqcounter"]))
def test_every_written_encoding_is_rebuilt_from_its_file(instance, encoding, amo):
    grid = instance.kind != "coloring"
    if (encoding == "direct") == grid:
        encoding = "extended" if grid else "reduced"
    written = to_cnf(instance, encoding, amo)
    rebuilt = encoding_from_cnf(parse_dimacs(format_dimacs(written.cnf)))
    assert rebuilt is not None and rebuilt.encoding == encoding and rebuilt.amo == amo
    np.testing.assert_array_equal(rebuilt.cell_vars, written.cell_vars)
    if encoding == "reduced":
        np.testing.assert_array_equal(rebuilt.source.flat_givens, instance.flat_givens)
    with Solver(name="cadical195", bootstrap_with=written.cnf.clauses()) as s:
        if s.solve():
            model = s.get_model()
            assert instance.is_solution(rebuilt.decode([lit for lit in model if lit > 0]))
            assert read_model(model, written.cnf.num_vars).convention == "complete"


def test_reading_the_examples_is_unchanged():
    """The readers never see the new comment lines as instances."""
    for path in (EXAMPLES / "janko16.txt", EXAMPLES / "qwh5.pls"):
        record = read_instances(str(path))[0]
        text = format_dimacs(to_cnf(record.instance, "reduced").cnf)
        (formula,) = parse_instances(text, "x.cnf", "cnf")
        assert formula.instance.cnf.num_vars > 0


def test_a_cell_with_no_candidate_left_decodes_as_unsatisfiable():
    """Hypothesis found it: a free vertex whose only color a colored neighbour takes has no
    variable and no ``c given`` line; the file carries the empty clause instead."""
    blocked = Precoloring(num_vertices=2, edges=np.array([[0, 1]]), num_colors=1,
                          precolors=np.array([0, 1], dtype=np.int32))
    written = parse_dimacs(format_dimacs(to_cnf(blocked, "reduced", "pairwise").cnf))
    assert written.has_empty_clause
    assert encoding_from_cnf(written).encoding == "reduced"
