"""``sudokit grade --time-limit``: a puzzle past the limit is ``unknown`` (text, --json,
--summary), the others go on, and the run ends with exit 5."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from ..helpers import budget_cpu_bound, cli_run, data_path, run_cpu

ROOT = Path(__file__).resolve().parents[2]
EASY9 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """An easy 9x9, a 25x25 whose node count runs for hours (its schemes take seconds), an
    easy 9x9."""
    path = data_path("sudoku", "gecode-9-16-25", "sudoku25_gecode.txt")
    big = next(line for line in path.read_text().splitlines() if not line.startswith("#"))
    out = tmp_path_factory.mktemp("grade") / "mixed.txt"
    out.write_text(f"{EASY9}\n{big}\n{EASY9}\n")
    return out


def test_a_puzzle_past_the_time_limit_is_unknown_and_exits_5(mixed):
    result = cli_run("grade", "--time-limit", "0.5", mixed)
    assert result.exit_code == 5, result.stderr
    assert result.stdout.splitlines() == ["FC 1", "unknown unknown", "FC 1"]


def test_json_shows_the_undecided_schemes_as_null(mixed):
    result = cli_run("grade", "--json", "--time-limit", "0.5", mixed)
    assert result.exit_code == 5, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["grade"] for r in rows] == ["FC", "unknown", "FC"]
    assert [r["nodes"] for r in rows] == [1, None, 1]
    assert None in rows[1]["search_free"].values()
    assert None not in rows[0]["search_free"].values()


def test_summary_counts_the_unknown_puzzles(mixed):
    result = cli_run("grade", "--summary", "--time-limit", "0.5", mixed)
    assert result.exit_code == 5, result.stderr
    heads, values = (line.split() for line in result.stdout.splitlines())
    assert heads[0] == "instances" and heads[-1] == "unknown"
    assert values[0] == "3" and values[-1] == "1"


def test_without_a_limit_nothing_is_unknown():
    result = cli_run("grade", "--summary", "-", input=EASY9 + "\n")
    assert result.exit_code == 0 and "unknown" not in result.stdout


def test_the_time_limit_bounds_the_run(mixed):
    """Without the limit the 25x25 node count takes hours; with it the run computes about
    the limit (twice a quick run's start-up, measured here, and the limit on every core)."""
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1")
    command = [sys.executable, "-m", "sudokit", "grade"]
    quick, startup = run_cpu([*command, "-"], input=(EASY9 + "\n").encode(), cwd=ROOT,
                             env=env, capture_output=True)
    assert quick.returncode == 0, quick.stderr
    done, cpu = run_cpu([*command, "--time-limit", "1", str(mixed)], cwd=ROOT, env=env,
                        capture_output=True)
    assert done.returncode == 5, done.stderr
    assert cpu < budget_cpu_bound(3 * 1, startup), cpu


def test_the_time_limit_holds_on_the_workers_too(mixed):
    result = cli_run("grade", "--time-limit", "0.5", "--jobs", "2", mixed)
    assert result.exit_code == 5, result.stderr
    assert result.stdout.splitlines() == ["FC 1", "unknown unknown", "FC 1"]
