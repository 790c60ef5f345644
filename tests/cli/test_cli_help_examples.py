"""Every ``Example:`` of every command's ``--help`` runs as written, from an empty temporary
folder, against a non-editable install of this tree.

The commands come from walking the click group (``sudokit.cli.main`` and its subgroups such as
``generate``), so a new command or example is covered without touching this file. The tree is
copied and installed once per module (``pip install --no-deps --target``); each example then
runs through ``bash`` with that copy first on ``PYTHONPATH`` and its ``sudokit`` script first
on ``PATH``, in a folder of its own that must still be empty afterwards: an example reads the
bundled files through ``sudokit examples`` (never by their place in the repository) and
writes to stdout or under a folder it makes with ``mktemp -d`` (``TMPDIR`` points into the
test's own temporary folder).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest

from sudokit.cli import main

from ..helpers import shown_needs

ROOT = Path(__file__).resolve().parents[2]

#: example -> exit code, for an example documented to end otherwise than with 0 (none yet)
EXPECTED_CODES: dict[str, int] = {}
#: what a line may start with: a sudokit command, or making the folder it writes into
STARTS = ("sudokit ", 'out=$(mktemp -d) && sudokit ')


def _walk(group: click.Group, ctx: click.Context, path: tuple[str, ...]):
    yield path, group
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, name
        if isinstance(command, click.Group):
            yield from _walk(command, click.Context(command, info_name=name, parent=ctx),
                             path + (name,))
        else:
            yield path + (name,), command


def _examples(command: click.Command) -> list[str]:
    """The indented lines under ``Example:`` (or ``Examples:``) in the command's help; a line
    ending in ``|``, ``&&`` or ``\\`` goes on on the next one, as in a shell."""
    found: list[str] = []
    inside, going_on = False, False
    for line in (command.help or "").splitlines():
        if re.fullmatch(r"\s*Examples?:\s*", line):
            inside = True
        elif inside and line.strip():
            text = line.strip()
            if going_on:
                found[-1] = found[-1].removesuffix("\\").rstrip() + " " + text
            else:
                found.append(text)
            going_on = text.endswith(("|", "&&", "\\"))
        elif inside:
            inside = False
    return found


COMMANDS = {" ".join(path) or "sudokit": _examples(command)
            for path, command in _walk(main, click.Context(main, info_name="sudokit"), ())}


def test_every_command_has_examples():
    assert {"sudokit", "solve", "count", "check", "encode", "reduce", "grade", "solvers",
            "examples", "generate", "generate sudoku", "generate latin",
            "generate coloring"} <= set(COMMANDS)
    assert all(COMMANDS.values()), [name for name, lines in COMMANDS.items() if not lines]
    for lines in COMMANDS.values():
        assert all(line.startswith(STARTS) for line in lines), lines
        # the bundled files by name, not by their place in a checkout
        assert not any("instances/examples" in line for line in lines), lines


def test_continued_lines_are_joined():
    command = click.Command("x", help="Example:\n  a |\n    b && \\\n    c\n  d\n\nmore")
    assert _examples(command) == ["a | b && c", "d"]


def _setuptools_builds_here() -> bool:
    """Whether this interpreter's setuptools can build the project without build isolation
    (pyproject.toml needs setuptools >= 77)."""
    try:
        import setuptools
    except ImportError:
        return False
    return int(setuptools.__version__.split(".")[0]) >= 77


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict[str, str]:
    """The environment of a non-editable install of this tree, made in a temporary folder."""
    base = tmp_path_factory.mktemp("installed")
    source, site, temporary = base / "source", base / "site", base / "tmp"
    # a copy, so that the build's own files (build/, *.egg-info) never land in the tree
    shutil.copytree(ROOT / "sudokit", source / "sudokit",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    # without build isolation when this interpreter can build (quicker, and offline)
    isolation = ["--no-build-isolation"] if _setuptools_builds_here() else []
    pip_env = dict(os.environ, SUDOKIT_PREBUILD="0", PIP_DISABLE_PIP_VERSION_CHECK="1")
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           *isolation, "--target", str(site), str(source)],
                          cwd=base, env=pip_env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    temporary.mkdir()
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1", PYTHONPATH=str(site),
               TMPDIR=str(temporary))
    bin_dir = site / "bin"
    if not (bin_dir / "sudokit").is_file():       # no script: a shim to this interpreter
        bin_dir.mkdir(exist_ok=True)
        shim = bin_dir / "sudokit"
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sudokit "$@"\n')
        shim.chmod(0o755)
    env["PATH"] = str(bin_dir) + os.pathsep + env.get("PATH", "")
    env["SITE"] = str(site)
    return env


def _bash(command: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def test_the_install_is_a_copy_outside_the_tree(installed, tmp_path):
    site = installed["SITE"]
    where = _bash(f'"{sys.executable}" -c "import sudokit; print(sudokit.__file__)"; '
                  "sudokit examples --path top3; command -v sudokit", installed, tmp_path)
    assert where.returncode == 0, where.stderr
    module, example, script = where.stdout.splitlines()
    assert module.startswith(site) and example.startswith(site) and script.startswith(site)
    assert not Path(ROOT / "sudokit" / "instances" / "examples" / "top3.txt").samefile(example)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_examples_run_from_an_empty_folder(name, installed, tmp_path):
    tree_before = set(os.listdir(ROOT))
    temporary = Path(installed["TMPDIR"])
    for example in COMMANDS[name]:
        if shown_needs(example) is not None:
            continue   # an extra it needs is missing here (the other examples still run)
        cwd = tmp_path / f"cwd{COMMANDS[name].index(example)}"
        cwd.mkdir()
        done = _bash(example, installed, cwd)
        assert "Traceback" not in done.stderr, (example, done.stderr)
        assert "internal error" not in done.stderr, (example, done.stderr)
        assert done.returncode == EXPECTED_CODES.get(example, 0), (example, done.stderr)
        assert done.stdout.strip(), f"{example}: shows nothing"
        assert os.listdir(cwd) == [], f"{example} wrote {os.listdir(cwd)} where it ran"
        for line in done.stdout.splitlines():        # a file the example says it wrote
            if line.startswith(str(temporary)):
                assert Path(line).stat().st_size > 0, example
    assert set(os.listdir(ROOT)) <= tree_before, "an example wrote into the working tree"
