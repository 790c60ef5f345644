"""``sudokit examples``: the index matches the bundled files, and each example reads back the
same from stdin as from its file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sudokit.cli import main
from sudokit.cli.examples import EXAMPLES, FOLDER, example_path

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "sudokit" / "instances" / "examples"
#: the folder's own files, which are not examples
NOT_EXAMPLES = {"README.md", "index.json"}
#: how each kind is read (the options its listing line names)
READ_AS = {"empty5": ["--problem", "latin"], "knuth6": ["--xc"]}


def run(*args: str, stdin: str | bytes | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


def test_index_names_every_bundled_file_once():
    files = {path.name for path in BUNDLED.iterdir() if path.is_file()} - NOT_EXAMPLES
    assert sorted(example.file for example in EXAMPLES.values()) == sorted(files)
    assert {example.kind for example in EXAMPLES.values()} <= {"sudoku", "latin", "coloring",
                                                               "xc"}
    assert all(re.fullmatch(r"[a-z0-9][a-z0-9-]*", name) for name in EXAMPLES)
    listed = re.findall(r"^\| ([\w.-]+) \|", (BUNDLED / "README.md").read_text(), flags=re.M)
    assert sorted(set(listed) - {"file"}) == sorted(files)          # "file": the header


def test_listing_and_json():
    result = run("examples")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == list(EXAMPLES)
    assert [line.split()[1] for line in lines] == [e.kind for e in EXAMPLES.values()]
    for line, example in zip(lines, EXAMPLES.values(), strict=True):
        assert line.endswith(example.description)
    as_json = json.loads(run("examples", "--json").stdout)
    assert as_json == {e.name: {"file": e.file, "kind": e.kind, "description": e.description}
                       for e in EXAMPLES.values()}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_an_example_prints_its_file_exactly(name):
    example = EXAMPLES[name]
    wanted = (BUNDLED / example.file).read_bytes()
    assert run("examples", name).stdout_bytes == wanted
    assert run("examples", example.file).stdout_bytes == wanted     # by file name too
    path = run("examples", "--path", name).stdout.strip()
    assert Path(path).read_bytes() == wanted and Path(path).name == example.file


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_an_example_solves_the_same_from_stdin_as_from_its_file(name):
    """stdin has no file name: its first line must tell the format (.pls 'order', .col 'c' /
    'p edge'), as the help examples rely on."""
    options = READ_AS.get(name, [])
    from_file = run("solve", *options, str(BUNDLED / EXAMPLES[name].file))
    from_stdin = run("solve", *options, "-", stdin=run("examples", name).stdout_bytes)
    assert from_file.exit_code == from_stdin.exit_code == 0, from_stdin.output
    assert from_stdin.stdout == from_file.stdout


def test_the_folder_path():
    result = run("examples", "--path")
    assert result.exit_code == 0
    assert Path(result.stdout.strip()) == example_path() == Path(str(FOLDER))
    assert (Path(result.stdout.strip()) / "index.json").is_file()


@pytest.mark.parametrize("name, hint", [("top", "did you mean 'top3'?"),
                                        ("myciel3", "did you mean 'myciel3-precolored'?"),
                                        ("nothing-like-it", "")])
def test_an_unknown_name_is_one_usage_error_line(name, hint):
    result = run("examples", name)
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("sudokit: error: ") and f"unknown example {name!r}" in line
    assert hint in line and ", ".join(EXAMPLES) in line
    assert ("did you mean" in line) == bool(hint)


def test_json_with_a_name_is_a_usage_error():
    result = run("examples", "top3", "--json")
    assert result.exit_code == 2 and "--json" in result.stderr
