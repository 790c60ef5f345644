"""A CNF written for a variant puzzle carries its variants and region map in its header, so a
model decodes and is checked with the file alone (check FILE.cnf MODEL, reduce --map-back)."""

import pytest
from pysat.solvers import Solver

from sudokit.formats import parse_dimacs, parse_instances, read_instances
from sudokit.formats.cnf_map import encoding_from_cnf

from ..helpers import EXAMPLES
from ..helpers import assert_cli_error as assert_error
from ..helpers import cli_run as run

DIAGONAL5 = "# variant: diagonal\n" + "1" + "." * 24 + "\n"


def _model(cnf_text: str) -> str:
    clauses = parse_dimacs(cnf_text).clauses()
    with Solver(name="cadical195", bootstrap_with=clauses) as sat:
        assert sat.solve()
        return "v " + " ".join(map(str, sat.get_model())) + " 0\n"


def _source(tmp_path, name):
    if name == "diagonal5":
        path = tmp_path / "dl5.txt"
        path.write_text(DIAGONAL5)
        return path, ("--problem", "latin")
    return EXAMPLES / name, ()


@pytest.mark.parametrize("name", ["jigsaw9.txt", "x9.txt", "diagonal5"])
@pytest.mark.parametrize("encoding", ["extended", "reduced"])
def test_a_model_of_a_variant_cnf_checks_and_maps_back_with_the_file_alone(name, encoding,
                                                                           tmp_path):
    source, options = _source(tmp_path, name)
    cnf, model = tmp_path / "p.cnf", tmp_path / "p.model"
    written = run("encode", "--cnf", "--encoding", encoding, *options, source, "-o", cnf)
    assert written.exit_code == 0, written.stderr
    model.write_text(_model(cnf.read_text()))
    puzzle = read_instances(str(source), problem=options[-1] if options else None)[0].instance

    rebuilt = encoding_from_cnf(parse_dimacs(cnf.read_text()))
    assert rebuilt.source.variants == puzzle.variants
    assert rebuilt.source.regions_key == puzzle.regions_key
    assert (rebuilt.source.box, rebuilt.source.kind) == (puzzle.box, puzzle.kind)

    checked = run("check", cnf, model)
    assert (checked.exit_code, checked.stdout) == (0, "valid\n"), checked.stderr
    kind = "latin2sat" if puzzle.kind == "latin" else "sudoku2sat"
    mapped = run("reduce", kind, cnf, "--map-back", model)
    assert mapped.exit_code == 0, mapped.stderr
    (back,) = parse_instances(mapped.stdout, problem=puzzle.kind)
    assert back.instance.variants == puzzle.variants
    assert back.instance.regions_key == puzzle.regions_key
    assert puzzle.is_solution(back.instance.givens)


@pytest.mark.parametrize("header, fragment", [
    ("c variant: snake\n", "unknown variant 'snake'"),
    ("c variant: jigsaw\n", "'c regions:' line goes with 'c variant: jigsaw'"),
    ("c variant: jigsaw\nc regions: AAAB\n", "needs 16 symbols"),
])
def test_a_bad_variant_header_in_a_cnf_is_one_line(header, fragment, tmp_path):
    cnf = tmp_path / "bad.cnf"
    cnf.write_text("c sudoku 4x4\n" + header + "c encoding minimal (Lynce and Ouaknine "
                   "2006), at-most-one pairwise\np cnf 64 1\n1 0\n")
    model = tmp_path / "m.txt"
    model.write_text("v 1 0\n")
    assert_error(run("check", cnf, model), 4, fragment)
