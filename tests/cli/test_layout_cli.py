"""``--layout`` on the commands that read puzzles, and bad input that must not be held."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from sudokit.cli import main
from tests.helpers import ROOT

SIXTEEN_DOTS = "................\n" * 16
#: nine one-line 3x3 Latin squares (also one 9x9 grid)
DIAGONAL = "".join("." * i + "1" + "." * (8 - i) + "\n" for i in range(9))


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


@pytest.mark.parametrize("lines", [15, 16, 17])
def test_count_gives_one_answer_per_line_however_many(lines):
    result = run("count", "--limit", "1", "-", stdin="................\n" * lines)
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == lines


def test_layout_grid_reads_the_block_as_one_grid():
    result = run("count", "--limit", "1", "--layout", "grid", "-", stdin=SIXTEEN_DOTS)
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 1


def test_nine_latin_one_liners_count_nine():
    result = run("count", "--problem", "latin", "--limit", "10", "-", stdin=DIAGONAL)
    assert result.exit_code == 0, result.output
    # each: a 3x3 Latin square with one given, 4 completions
    assert result.stdout.splitlines() == [f"{line} 4" for line in DIAGONAL.splitlines()]


def test_an_ambiguous_failure_names_layout_grid():
    result = run("solve", "-", stdin=DIAGONAL)     # 3x3 Sudoku one-liners: no box
    assert result.exit_code == 4
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sudokit: error: <stdin>:1: ")
    assert "'--layout grid' reads them as one 9x9 grid" in lines[0]
    result = run("solve", "--layout", "grid", "--problem", "latin", "-", stdin=DIAGONAL)
    assert result.exit_code == 0 and len(result.stdout.splitlines()) == 9   # one 9x9 grid


def test_layout_line_reads_spaced_rows_one_per_line():
    text = "1 0 0 0\n0 0 1 0\n"
    result = run("solve", "--problem", "latin", "-", stdin=text)
    assert result.exit_code == 4 and "'--layout line'" in result.stderr
    result = run("solve", "--problem", "latin", "--layout", "line", "-", stdin=text)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["1 2 2 1", "2 1 1 2"]


@pytest.mark.parametrize("command", ["solve", "count", "grade", "check", "encode", "reduce"])
def test_the_reading_commands_take_layout(command):
    result = run(command, "--help")
    assert result.exit_code == 0 and "--layout [auto|grid|line]" in result.output


def test_draw_reads_with_input_layout_beside_its_picture_layout(recwarn):
    """``draw --layout`` is the picture's (spring, circle, grid); the reader's is
    ``--input-layout`` there, and click sees no parameter twice."""
    result = run("draw", "--help")
    assert result.exit_code == 0
    assert "--input-layout [auto|grid|line]" in result.output
    assert "--layout [spring|circle|grid]" in result.output
    assert not [w for w in recwarn if "more than once" in str(w.message)]


def test_layout_on_a_graph_is_a_usage_error(tmp_path):
    path = tmp_path / "g.col"
    path.write_text("c colors 2\np edge 2 1\ne 1 2\n")
    result = run("solve", "--layout", "grid", str(path))
    assert result.exit_code == 2
    assert "--layout applies only to sudoku and latin instances" in result.stderr
    assert run("solve", str(path)).exit_code == 0


def test_unknown_layout_is_a_usage_error():
    result = run("count", "--layout", "rows", "-", stdin=SIXTEEN_DOTS)
    assert result.exit_code == 2 and "'rows' is not one of" in result.stderr


# -- bad input: an error at once, and memory that does not grow with the input ----------

def _sudokit(args, **kwargs):
    return subprocess.run([sys.executable, "-m", "sudokit", *args], cwd=ROOT,
                          env=dict(os.environ), capture_output=True, timeout=300, **kwargs)


def test_yes_into_count_ends_at_once_with_exit_4(tmp_path):
    """``yes | sudokit count -``, with a bounded input (4 MB of 'y' lines as stdin): exit 4,
    one error line, and the child read a small part of it (a shared file offset shows how
    much; the old reader read it all, holding every line, before its first error)."""
    path = tmp_path / "yes.txt"
    size = 4_000_000
    path.write_bytes(b"y\n" * (size // 2))
    with open(path, "rb") as stdin:
        done = _sudokit(["count", "-"], stdin=stdin)
        consumed = os.lseek(stdin.fileno(), 0, os.SEEK_CUR)
    errors = [line for line in done.stderr.decode().splitlines() if line.startswith("sudokit:")]
    assert done.returncode == 4 and done.stdout == b""
    assert errors == ["sudokit: error: <stdin>:1:1: symbol 'y' (34) is outside 1..1"]
    assert consumed < size / 20, consumed


def _limited_memory():  # pragma: no cover - runs in the child
    import resource

    # a guard for the old reader, which took 12 GB of /dev/zero: fail, do not swap
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("command", ["solve", "encode"])
def test_dev_zero_is_an_error_at_once(command):
    done = _sudokit([command, "/dev/zero"], preexec_fn=_limited_memory)
    assert done.returncode == 4, done.stderr
    assert done.stderr.decode().splitlines() == [
        "sudokit: error: /dev/zero:1: line longer than 1,048,576 bytes (the longest line of "
        "any instance is far shorter): not instance text, or no line breaks"]
