"""``sudokit explain``, ``sudokit hint`` and ``grade --rating``: the human path on the
command line, its refusals and its exit codes."""

from __future__ import annotations

import json

from ..helpers import assert_cli_error, cli_run

EASY9 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
#: diabolical.txt, SE 7.1: a turbot fish, three strong links, a WXYZ-wing and an AIC
CHAINS = "200050006010000090600801003007090600000703000900080002100000005060902010003060200"
#: diabolical.txt, SE 8.9: a forcing net
NET = "000600450004090001070013090090000104045000920201000070050360010900070500012005000"


def test_explain_prints_one_step_per_line_then_the_rating():
    result = cli_run("explain", "-", input=CHAINS + "\n")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == ["r1c6 = 9 (hidden single in box 2)", "r1c7 = 1 (hidden single in box 3)"]
    assert "turbot fish 4r5c1=4r6c2-4r9c2=4r9c8: -4 r5c8" in lines
    assert lines[-1] == f"solved in {len(lines) - 1} steps: rating 7.1 (expert), hardest aic"


def test_explain_json_carries_every_step_with_zero_based_cells():
    result = cli_run("explain", "--json", "-", input=EASY9 + "\n")
    assert result.exit_code == 0, result.stderr
    obj = json.loads(result.stdout)
    assert obj["solutions"] == 1 and obj["solved"] and obj["level"] == "easy"
    placed = {tuple(p) for s in obj["steps"] for p in s["placements"]}
    assert len(placed) == EASY9.count(".")
    first = obj["steps"][0]
    row, col, value = first["placements"][0]
    assert first["text"].startswith(f"r{row + 1}c{col + 1} = {value}")


def test_a_puzzle_with_several_solutions_or_none_is_not_explained():
    several = "." * 81
    result = cli_run("explain", "-", input=several + "\n")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "several solutions: nothing to explain (a human path needs one solution)"]
    none = "11" + "." * 79
    result = cli_run("explain", "-", input=none + "\n")
    assert result.exit_code == 4            # a repeated given: invalid input, one error line
    unsolvable = "123456780" + "." * 8 + "9" + "." * 63  # r1c9 needs 9, column 9 has it
    result = cli_run("explain", "-", input=unsolvable + "\n")
    assert result.exit_code == 1 and result.stdout.strip() == "no solution: nothing to explain"


def test_variants_name_the_skipped_techniques():
    x9 = cli_run("examples", "x9").stdout          # two X-Sudoku puzzles
    result = cli_run("explain", "-", input=x9)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == ["# puzzle 1",
                         "note: techniques skipped: unique-rectangle, bug (variant diagonal)"]
    assert "# puzzle 2" in lines and lines[-1].startswith("solved in ")


def test_a_latin_square_skips_what_needs_boxes():
    result = cli_run("explain", "--problem", "latin", "-", input="1..\n...\n..2\n")
    assert result.exit_code == 0, result.stderr
    assert "pointing, claiming, unique-rectangle, bug (no boxes)" in result.stdout


def test_the_time_limit_holds_with_exit_5():
    result = cli_run("explain", "--time-limit", "0.001", "-", input=NET + "\n")
    assert result.exit_code == 5
    assert result.stdout.splitlines()[-1].startswith("unknown: the time limit ran out")


def test_hint_reveals_as_much_as_asked():
    shown = {}
    for level in ("technique", "houses", "step"):
        result = cli_run("hint", "--level", level, "-", input=EASY9 + "\n")
        assert result.exit_code == 0, result.stderr
        shown[level] = result.stdout.strip()
    step = cli_run("explain", "-", input=EASY9 + "\n").stdout.splitlines()[0]
    assert shown["step"] == step
    assert shown["technique"].startswith("hidden single") and "rating" in shown["technique"]
    assert "look at box" in shown["houses"] and "=" not in shown["houses"]
    result = cli_run("hint", "--level", "step", "--json", "-", input=EASY9 + "\n")
    assert json.loads(result.stdout)["step"]["text"] == step


def test_hint_names_the_levels_for_an_unknown_one():
    result = cli_run("hint", "--level", "everything", "-", input=EASY9 + "\n")
    assert_cli_error(result, 2, "'technique', 'houses', 'step'")


def test_hint_on_a_solved_grid_and_on_a_bad_one():
    solved = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
    assert cli_run("hint", "-", input=solved + "\n").stdout.strip() == "solved: no step left"
    result = cli_run("hint", "-", input="." * 81 + "\n")
    assert result.exit_code == 1 and result.stdout.startswith("several solutions")


def test_grade_rating_puts_the_rating_beside_the_grade():
    result = cli_run("grade", "--rating", "-", input=f"{EASY9}\n{CHAINS}\n")
    assert result.exit_code == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert first.endswith(" 1.2 easy") and first.startswith("FC ")
    assert second.endswith(" 7.1 expert")
    obj = json.loads(cli_run("grade", "--rating", "--json", "-", input=CHAINS + "\n").stdout)
    assert (obj["rating"], obj["level"], obj["hardest"]) == (7.1, "expert", "aic")


def test_grade_rating_of_a_puzzle_without_solution_is_an_answer():
    """No solution is decided (exit 0, as for every command), not unknown (exit 5)."""
    result = cli_run("grade", "--rating", "-", input="12345678." + "." * 8 + "9" + "." * 63 + "\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.split()[-2:] == ["-", "no-solution"]


def test_ctrl_c_ends_explain_with_130_and_one_line(tmp_path):
    """On the forum's hardest puzzles (forcing nets for seconds), after the first step."""
    import os
    import subprocess
    import sys

    from ..helpers import data_path, interrupt

    hardest = data_path("sudoku", "9x9-tdoku", "puzzles5_forum_hardest_1905_11+")
    lines = [line for line in hardest.read_text().splitlines() if not line.startswith("#")]
    path = tmp_path / "hard.txt"
    path.write_text("\n".join(lines[:20]) + "\n")
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1")
    process = subprocess.Popen([sys.executable, "-m", "sudokit", "explain", str(path)],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    run = interrupt(process, lambda out, err: out.count("\n") >= 3)
    assert run.code == 130, run.err
    assert run.err.strip().splitlines() == ["sudokit: interrupted"]
    assert run.out.endswith("\n")
