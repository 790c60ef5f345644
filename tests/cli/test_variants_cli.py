"""Variants in every command: --variant, the header the writers emit, engines agreeing,
generated variant puzzles, grading, pictures, encodings and reductions."""

import itertools
import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from pysat.solvers import Solver

import sudokit
from sudokit.formats import parse_instances, read_instances
from sudokit.formats.dimacs import parse_dimacs
from sudokit.solvers.registry import ENGINES, check_engine

from ..helpers import EXAMPLES
from ..helpers import assert_cli_error as assert_error
from ..helpers import cli_run as run

X9 = EXAMPLES / "x9.txt"
JIGSAW = EXAMPLES / "jigsaw9.txt"
JIGSAW_LINES = EXAMPLES / "jigsaw-lines.txt"


def brute_force_x_grids(n=4, r=2, c=2):
    """4x4 X-Sudoku grids, from the rules alone: every filling of rows by permutations whose
    columns, boxes and both diagonals hold every value."""
    count = 0
    for rows in itertools.product(itertools.permutations(range(1, n + 1)), repeat=n):
        grid = np.array(rows)
        groups = [grid[:, j] for j in range(n)] + [
            grid[i:i + r, j:j + c].reshape(-1) for i in range(0, n, r) for j in range(0, n, c)]
        groups += [np.diag(grid), np.diag(grid[:, ::-1])]
        count += all(len(set(g.tolist())) == n for g in groups)
    return count


def test_known_counts_on_the_command_line(tmp_path):
    empty4, empty5 = tmp_path / "e4.txt", tmp_path / "e5.txt"
    empty4.write_text("." * 16 + "\n")
    empty5.write_text("." * 25 + "\n")
    x_grids = brute_force_x_grids()
    assert x_grids == 48
    for args, expected in (((empty4, "--problem", "latin"), 48), ((empty5, "--problem", "latin"),
                                                                  960), ((empty4,), x_grids)):
        for solver in ("dlx", "cadical195"):
            result = run("count", "--variant", "diagonal", "--solver", solver, *args)
            assert result.exit_code == 0, result.stderr
            assert result.stdout.split()[-1] == str(expected), (args, solver)


def test_every_engine_takes_the_variants_and_agrees():
    """Every back end of the registry (one SAT solver for all: they share the encoder) solves
    and counts the variant puzzles as dlx does; grasp, which cannot count, completes an
    easy variant grid correctly."""
    puzzles = [r.instance for path in (X9, JIGSAW, JIGSAW_LINES)
               for r in read_instances(str(path))[:2]]
    reference = [sudokit.solve(p, solver="dlx") for p in puzzles]
    sat = [name for name in ENGINES if ENGINES[name].options == ("encoding", "amo")]
    for name, spec in ENGINES.items():
        if name in sat[1:] or name == "backtrack":   # pure backtracking: minutes on 9x9
            continue
        try:
            check_engine(name, "sudoku")
        except sudokit.errors.SudokitError:
            continue                         # an optional extra that is not installed
        for puzzle, expected in zip(puzzles, reference, strict=True):
            if not spec.counts:
                easy = np.where(np.arange(81).reshape(9, 9) % 5 == 0, 0, expected)
                easy_puzzle = puzzle.with_givens(easy)
                assert easy_puzzle.is_solution(sudokit.solve(easy_puzzle, solver=name)), name
                continue
            assert sudokit.count_solutions(puzzle, solver=name, limit=2) == 1, name
            assert np.array_equal(sudokit.solve(puzzle, solver=name), expected), name


def test_solve_output_reads_back_with_its_variants(tmp_path):
    out = tmp_path / "solved.txt"
    for source in (X9, JIGSAW_LINES, JIGSAW):
        result = run("solve", source, "-o", out)
        assert result.exit_code == 0, result.stderr
        puzzles = read_instances(str(source))
        solved = read_instances(str(out))
        assert [r.instance.variants for r in solved] == [r.instance.variants for r in puzzles]
        for puzzle, answer in zip(puzzles, solved, strict=True):
            assert puzzle.instance.is_solution(answer.instance.givens)
            assert answer.instance.regions_key == puzzle.instance.regions_key
        verdicts = run("check", source, out).stdout.splitlines()
        assert len(verdicts) == len(puzzles) and all(v.endswith("valid") and "invalid" not in v
                                                     for v in verdicts), verdicts


def test_variant_option_headerless_file_and_header_add_up(tmp_path):
    bare = tmp_path / "bare.txt"
    bare.write_text("\n".join(X9.read_text().splitlines()[3:]) + "\n")   # no header
    classic = run("count", "--limit", "2", bare)
    with_x = run("count", "--limit", "2", "--variant", "x", bare)
    with_header = run("count", "--limit", "2", X9)
    assert with_x.stdout == with_header.stdout != classic.stdout
    assert [line.split()[-1] for line in with_x.stdout.splitlines()] == ["1", "1"]
    assert run("count", "--limit", "2", "--variant", "x", X9).stdout == with_header.stdout
    solved = run("solve", "--variant", "x", bare)
    assert solved.stdout.startswith("# variant: diagonal\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("# variant: x\n" + "." * 81 + "\n")
    assert run("solve", "--variant", "dg", empty).stdout.startswith("# variant: diagonal dg\n")


@pytest.mark.parametrize("args, code, fragment", [
    (("solve", "--variant", "snake", X9), 2, "unknown variant 'snake'"),
    (("solve", "--variant", "windoku", "--problem", "latin", EXAMPLES / "empty5.txt"), 4,
     "needs boxes"),
    (("solve", "--variant", "x", EXAMPLES / "myciel3-precolored.col"), 2,
     "--variant applies only to sudoku and latin"),
    (("count", "--variant", "jigsaw", X9), 4, "needs a region map"),
    (("solve", "--box", "3x3", JIGSAW), 4, "drop --box"),
    (("generate", "sudoku", "--size", "9", "--variant", "jigsaw", "--box", "3x3"), 2,
     "--box does not apply to a jigsaw"),
    (("generate", "sudoku", "--size", "9", "--variant", "x", "--fill", "prune"), 2,
     "builds classic grids"),
])
def test_bad_variant_use_is_one_line(args, code, fragment):
    assert_error(run(*args), code, fragment)


def test_a_given_the_variant_repeats_names_its_line(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("# two puzzles\n" + "." * 16 + "\n1" + "." * 14 + "1\n")
    assert_error(run("solve", "--variant", "x", path), 4, f"{path}:3:", "repeats in diagonal 1")


@pytest.mark.parametrize("variant", ["x", "jigsaw"])
def test_generated_variant_puzzles_are_unique_minimal_and_seeded(variant, tmp_path):
    args = ("generate", "sudoku", "--size", "6", "--variant", variant, "--minimal",
            "--seed", "4", "--count", "2") + (("--box", "2x3") if variant == "x" else ())
    first = run(*args)
    assert first.exit_code == 0, first.stderr
    assert run(*args).stdout == first.stdout
    assert first.stdout.startswith("# variant: " + ("diagonal" if variant == "x" else "jigsaw"))
    records = parse_instances(first.stdout, box=(2, 3) if variant == "x" else None)
    assert len(records) == 2
    for record in records:
        puzzle = record.instance
        assert puzzle.variants == (("diagonal",) if variant == "x" else ("jigsaw",))
        assert sudokit.count_solutions(puzzle, solver="dlx", limit=2) == 1
        assert sudokit.count_solutions(sudokit.to_cnf(puzzle), limit=2) == 1
        for cell in np.flatnonzero(puzzle.flat_givens):          # minimal: no clue is spare
            fewer = puzzle.flat_givens.copy()
            fewer[cell] = 0
            weaker = puzzle.with_givens(fewer.reshape(puzzle.n, puzzle.n))
            assert sudokit.count_solutions(sudokit.to_cnf(weaker), limit=2) == 2
    as_json = run(*args, "--json")
    objects = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert objects[0]["variants"] == list(records[0].instance.variants)
    assert ("regions" in objects[0]) == (variant == "jigsaw")


def test_grade_reads_the_variant():
    graded = run("grade", X9)
    assert graded.exit_code == 0, graded.stderr
    bare = "\n".join(X9.read_text().splitlines()[3:]) + "\n"
    assert run("grade", "--variant", "x", "-", input=bare).stdout == graded.stdout
    # without the diagonals the puzzles are not unique: the grade says so or differs
    assert run("grade", "-", input=bare).stdout != graded.stdout


def _box_edges(svg: str, cell: float, margin: float) -> set:
    """The unit cell edges covered by the picture's thick region lines."""
    edges = set()
    for line in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}line"):
        if line.get("class") != "box":
            continue
        x1, y1, x2, y2 = (round((float(line.get(k)) - margin) / cell)
                          for k in ("x1", "y1", "x2", "y2"))
        if x1 == x2:
            edges |= {("v", x1, y) for y in range(min(y1, y2), max(y1, y2))}
        else:
            edges |= {("h", y1, x) for x in range(min(x1, x2), max(x1, x2))}
    return edges


def test_draw_jigsaw_has_its_irregular_borders(tmp_path):
    out = tmp_path / "j.svg"
    result = run("draw", JIGSAW, "-o", out)
    assert result.exit_code == 0, result.stderr
    regions = read_instances(str(JIGSAW))[0].instance.regions
    n = len(regions)
    wanted = {("v", k, y) for k in range(1, n) for y in range(n)
              if regions[y, k - 1] != regions[y, k]}
    wanted |= {("h", k, x) for k in range(1, n) for x in range(n)
               if regions[k - 1, x] != regions[k, x]}
    assert _box_edges(out.read_text(), 40, 10) == wanted


def test_draw_marks_diagonals_and_windows(tmp_path):
    out = tmp_path / "xw.svg"
    result = run("draw", "--variant", "x", "--variant", "windoku", "-", "-o", out,
                 input="." * 81 + "\n")
    assert result.exit_code == 0, result.stderr
    root = ET.fromstring(out.read_text())
    classes = [e.get("class") for e in root.iter()]
    # each diagonal a segment per cell (gaps under digits), its 17 cells lightly shaded
    assert classes.count("diagonal") == 18 and classes.count("diagonal-cell") == 17
    assert classes.count("window") == 36


def test_encode_cnf_and_xc_carry_the_variant_units(tmp_path):
    cnf_path = tmp_path / "x.cnf"
    assert run("encode", "--cnf", "--index", "1", X9, "-o", cnf_path).exit_code == 0
    formula = parse_dimacs(cnf_path.read_text())
    puzzle = read_instances(str(X9))[0].instance
    with Solver(name="cadical195", bootstrap_with=formula.clauses()) as sat:
        assert sat.solve()
        model = [lit for lit in sat.get_model() if lit > 0]
        grid = np.zeros((9, 9), dtype=int)
        for var in model:
            if var <= 729:
                r, rest = divmod(var - 1, 81)
                c, v = divmod(rest, 9)
                grid[r, c] = v + 1
        assert puzzle.is_solution(grid)
        sat.add_clause([-(r * 81 + c * 9 + int(grid[r, c])) for r in range(9) for c in range(9)])
        assert not sat.solve()                       # the X puzzle is unique in CNF too
    empty = tmp_path / "empty.txt"
    empty.write_text("# variant: x windoku\n" + "." * 81 + "\n")
    for source in (X9, JIGSAW, empty):
        extra = ("--variant", "dg") if source == empty else ()
        xc = run("encode", "--xc", *extra, source)
        assert xc.exit_code == 0, xc.stderr
        items = xc.stdout.splitlines()[0].replace("|", " ").split()
        assert len(items) == len(set(items)), source       # one name per item


def test_reductions_keep_or_refuse_the_variant_units(tmp_path):
    square = tmp_path / "dl5.txt"
    square.write_text("# variant: diagonal\n" + "." * 25 + "\n")
    assert_error(run("reduce", "latin2sudoku", square), 4, "diagonal units", "would be lost")
    for name, source in (("latin2coloring", square), ("latin2sat", square),
                         ("sudoku2coloring", JIGSAW), ("sudoku2xc", X9)):
        checked = run("reduce", name, source, "--check", "--limit", "1000")
        assert checked.exit_code == 0, (name, checked.stderr)
        assert checked.stdout.rstrip().endswith("agree"), (name, checked.stdout)
    counted = run("reduce", "latin2sat", square, "--check", "--limit", "1000")
    assert "960 solution(s)" in counted.stdout
