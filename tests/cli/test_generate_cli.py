"""``sudokit generate``: output equals the library's, determinism, errors and exit codes."""

import json
import re
import shlex
import time

import numpy as np
import pytest
from click.testing import CliRunner

from sudokit.cli.generate import generate
from sudokit.formats import format_col, format_pls, format_puzzle, parse_col, parse_puzzles
from sudokit.generators import PuzzleGenerator, planted_precoloring, qwh


def run(*args):
    return CliRunner().invoke(generate, list(args))


def test_sudoku_matches_library_and_is_repeatable():
    out = run("sudoku", "--size", "9", "--count", "4", "--seed", "5", "--minimal")
    assert out.exit_code == 0, out.output
    gen = PuzzleGenerator(9, (3, 3), seed=5)
    expected = [format_puzzle(gen.make("minimal").puzzle) for _ in range(4)]
    assert out.stdout.splitlines() == expected
    assert run("sudoku", "--size", "9", "--count", "4", "--seed", "5", "--minimal").stdout \
        == out.stdout


def test_sudoku_json_solution_and_box():
    out = run("sudoku", "--size", "6", "--box", "2x3", "--count", "2", "--seed", "1",
              "--clues", "14", "--symmetry", "rotational", "--json", "--solution", "--verify")
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in out.output.splitlines()]
    assert [r["index"] for r in records] == [1, 2]
    for r in records:
        assert r["clues"] == 14 and r["checks"]["unique"] and r["checks"]["verified"] == "sat"
        puzzle = parse_puzzles(r["puzzle"], box=(2, 3))[0].instance
        assert puzzle.num_givens == 14 and len(r["solution"]) == 36


def test_sudoku_solution_beside_and_full_grids():
    out = run("sudoku", "--size", "4", "--seed", "3", "--solution")
    puzzle, solution = out.output.split()
    assert all(a in ".0" or a == b for a, b in zip(puzzle, solution, strict=True))
    full = run("sudoku", "--size", "16", "--full", "--seed", "2", "--count", "2")
    assert all("." not in line and len(line) == 256 for line in full.output.splitlines())


def test_sudoku_errors():
    assert run("sudoku", "--size", "9", "--minimal", "--clues", "20").exit_code == 2
    for size, hint in (("6", "--box 2x3"), ("5", "--box 1x5")):   # no square boxes
        out = run("sudoku", "--size", size)
        assert out.exit_code == 2 and hint in out.output and "--problem" not in out.output
        assert f"'generate latin --order {size}'" in out.output
    assert run("sudoku", "--size", "9", "--box", "2x3").exit_code == 2
    assert run("sudoku", "--size", "9", "--clues", "90").exit_code == 2
    impossible = run("sudoku", "--size", "9", "--clues", "8", "--seed", "1")
    assert impossible.exit_code == 4 and "could not reach 8 clues" in impossible.output


def test_latin_matches_library():
    out = run("latin", "--order", "7", "--holes", "20", "--balanced", "--seed", "3",
              "--format", "pls")
    assert out.exit_code == 0
    assert out.output.strip() == format_pls(qwh(7, 20, np.random.default_rng(3), True))
    grid = run("latin", "--order", "5", "--holes", "0.4", "--seed", "1", "--count", "2")
    blocks = grid.output.strip().split("\n\n")
    assert len(blocks) == 2 and all(b.count(".") == 10 for b in blocks)
    assert run("latin", "--order", "5", "--holes", "2.5").exit_code == 2
    assert run("latin", "--order", "5", "--holes", "30").exit_code == 2
    assert run("latin", "--order", "5", "--qcp", "--balanced").exit_code == 2
    qcp = run("latin", "--order", "6", "--holes", "20", "--qcp", "--seed", "2")
    assert qcp.exit_code == 0 and qcp.output.count(".") >= 20
    search = run("latin", "--order", "9", "--holes", "30", "--method", "search", "--seed", "1")
    assert search.exit_code == 0 and search.output.count(".") == 30


def test_coloring_matches_library():
    out = run("coloring", "--vertices", "30", "--colors", "4", "--density", "0.3",
              "--precolored", "0.2", "--seed", "9")
    assert out.exit_code == 0
    graph, _ = planted_precoloring(30, 4, 0.3, 0.2, np.random.default_rng(9))
    assert out.output.strip() == format_col(graph)
    assert parse_col(out.output).instance == graph
    planted = run("coloring", "-v", "10", "-k", "3", "--density", "1", "--seed", "1",
                  "--planted")
    colors = [int(c) for c in planted.output.splitlines()[1].split()[2:]]
    assert parse_col(planted.output).instance.is_solution(np.array(colors))
    assert run("coloring", "-v", "10", "-k", "3", "--density", "2").exit_code == 2


def test_generate_keeps_only_the_wanted_grade():
    from sudokit.cli import main
    from sudokit.formats import parse_instances
    from sudokit.grading import grade

    result = CliRunner().invoke(main, ["generate", "sudoku", "--size", "9", "--minimal",
                                       "--grade", "HAC", "--count", "3", "--seed", "4"])
    assert result.exit_code == 0, result.stderr
    puzzles = [r.instance for r in parse_instances(result.stdout)]
    assert len(puzzles) == 3 and {grade(p) for p in puzzles} == {"HAC"}
    bad = CliRunner().invoke(main, ["generate", "sudoku", "--size", "9", "--grade", "XYZ"])
    assert bad.exit_code == 2


# -- -o OUT, --time-limit, one meaning of -n, the help examples --------------------------------
def _main(*args):
    from sudokit.cli import main

    return CliRunner().invoke(main, list(args))


def _leftovers(folder):
    return [p.name for p in folder.iterdir() if p.name.startswith(".sudokit-")]


@pytest.mark.parametrize("args", [
    ("sudoku", "--size", "9", "--count", "3", "--seed", "2", "--minimal", "--json"),
    ("latin", "--order", "6", "--holes", "10", "--count", "2", "--seed", "1"),
    ("coloring", "--vertices", "20", "--colors", "3", "--density", "0.3", "--seed", "1")])
def test_output_file_equals_stdout(args, tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    to_file = run(*args, "-o", str(target))
    assert to_file.exit_code == 0, to_file.output
    assert to_file.stdout == ""
    plain = run(*args)
    assert _same_but_timing(target.read_text(), plain.stdout)
    assert run(*args, "--output", "-").stdout.count("\n") == plain.stdout.count("\n")
    assert _leftovers(tmp_path) == []


def _same_but_timing(a, b):
    strip = re.compile(r'"(check_)?seconds":[0-9.e-]+')
    return strip.sub("", a) == strip.sub("", b)


def test_failed_generation_leaves_the_old_file(tmp_path):
    target = tmp_path / "puzzles.txt"
    target.write_text("old\n")
    failed = _main("generate", "sudoku", "--size", "9", "--count", "3", "--clues", "8",
                   "--seed", "1", "-o", str(target))
    assert failed.exit_code == 4
    assert target.read_text() == "old\n" and _leftovers(tmp_path) == []
    out_of_time = _main("generate", "sudoku", "--size", "25", "--minimal", "--time-limit",
                        "0.05", "-o", str(tmp_path / "new.txt"))
    assert out_of_time.exit_code == 5
    assert not (tmp_path / "new.txt").exists() and _leftovers(tmp_path) == []
    assert run("sudoku", "--size", "4", "-o", str(tmp_path)).exit_code == 7


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "soon"])
def test_time_limit_must_be_finite_and_positive(value):
    out = _main("generate", "sudoku", "--size", "9", "--time-limit", value)
    assert out.exit_code == 2, out.output
    assert "--time-limit" in out.stderr and "Traceback" not in out.output


def test_time_limit_in_each_mode():
    # the budget must cover filling the grid and opening the uniqueness checker on this
    # machine, however loaded: 4, then 8, then 16 times what a full grid of the same seed
    # takes here (the checker's first opening may cost more than the fill on a loaded
    # machine; removing 1,296 clues takes far longer than any of them)
    started = time.perf_counter()
    assert _main("generate", "sudoku", "--size", "36", "--full", "--seed", "1").exit_code == 0
    fill = time.perf_counter() - started
    for factor in (4, 8, 16):
        limit = max(0.5, factor * fill)
        unique = _main("generate", "sudoku", "--size", "36", "--time-limit", f"{limit:.2f}",
                       "--seed", "1", "--json")
        if unique.exit_code == 0:
            break
        assert "ran out before the 36x36 grid was filled" in unique.stderr, unique.output
    assert unique.exit_code == 0, unique.output
    record = json.loads(unique.stdout)
    assert record["checks"]["unique"] and not record["checks"]["minimal"]
    assert record["clues"] < 36 * 36
    assert "time budget ran out" in unique.stderr and "not minimal" in unique.stderr
    for extra in (["--minimal"], ["--clues", "400"]):
        promised = _main("generate", "sudoku", "--size", "25", "--time-limit", "0.05", *extra)
        assert promised.exit_code == 5
        line, = promised.stderr.strip().splitlines()
        assert line.startswith("sudokit: error: the time budget of 0.05 s ran out")
        assert "--time-limit" in line
    full = _main("generate", "sudoku", "--size", "64", "--full", "--time-limit", "0.01")
    assert full.exit_code == 5 and "filled" in full.stderr
    fits = _main("generate", "sudoku", "--size", "9", "--count", "20", "--minimal", "--seed",
                 "1", "--time-limit", "60")
    assert fits.exit_code == 0
    assert fits.stdout == _main("generate", "sudoku", "--size", "9", "--count", "20",
                                "--minimal", "--seed", "1").stdout


def test_n_is_not_a_size():
    assert run("sudoku", "-n", "9").exit_code == 2
    assert run("latin", "-n", "5").exit_code == 2
    for command in ("sudoku", "latin"):
        assert "-n," not in run(command, "--help").output


def _help_examples():
    from sudokit.cli import main

    examples = []
    for name in ("", "sudoku", "latin", "coloring"):
        args = ["generate"] + ([name] if name else []) + ["--help"]
        text = CliRunner().invoke(main, args).output
        block = text.split("Example:", 1)[1]
        for line in block.splitlines()[1:]:
            if not line.strip().startswith("sudokit "):
                break
            examples.append(line.strip())
    return examples


@pytest.mark.parametrize("example", _help_examples())
def test_help_examples_run(example, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                      # where -o OUT goes
    args = shlex.split(example)
    assert args[0] == "sudokit"
    result = _main(*args[1:])
    assert result.exit_code == 0, (example, result.output)
    if "-o" in args:
        assert result.stdout == "" and (tmp_path / args[args.index("-o") + 1]).stat().st_size
    else:
        assert result.stdout


def test_minimal_symmetric_json_says_what_holds():
    """Issue 27 item 7: symmetric puzzles were all labelled "minimal": true."""
    from sudokit.counting import count_models
    from sudokit.instances import sudoku

    out = run("sudoku", "--size", "9", "--count", "20", "--seed", "11", "--minimal",
              "--symmetry", "rotational", "--json")
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(records) == 20
    for r in records:
        checks = r["checks"]
        assert checks["symmetric_minimal"] is True
        grid = np.array([0 if c == "." else int(c) for c in r["puzzle"]])
        single = []
        for cell in np.flatnonzero(grid).tolist():
            trial = grid.copy()
            trial[cell] = 0
            single.append(count_models(sudoku(trial.reshape(9, 9)), solver="dlx",
                                       limit=2).count == 2)
        assert checks["minimal"] is all(single), r["puzzle"]
    plain = json.loads(run("sudoku", "--size", "9", "--seed", "11", "--minimal",
                           "--json").stdout)
    assert plain["checks"]["minimal"] is True and "symmetric_minimal" not in plain["checks"]
