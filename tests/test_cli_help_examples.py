"""Every ``Example:`` line of every command's ``--help`` runs as written, from the repository root.

The commands come from walking the click group (``sudokit.cli.main`` and its subgroups such as
``generate``), so a new command or example is covered without touching this file. Each
command's examples run in order as subprocesses (``python -m sudokit ...``); what they write
(``-o OUT``, ``--matrix OUT``, ``> OUT``) goes to a temporary folder instead of the working
tree, and a later example that reads such a file (``check ... solved.txt``) reads it there.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest

from sudokit.cli import main

ROOT = Path(__file__).resolve().parents[1]

#: options whose value is a file the command writes
WRITTEN = ("-o", "--output", "--matrix")
#: example -> exit code, for an example documented to end otherwise than with 0 (none yet)
EXPECTED_CODES: dict[str, int] = {}


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
    """The indented lines under ``Example:`` (or ``Examples:``) in the command's help."""
    lines = (command.help or "").splitlines()
    found, inside = [], False
    for line in lines:
        if re.fullmatch(r"\s*Examples?:\s*", line):
            inside = True
        elif inside and line.strip():
            found.append(line.strip())
        elif inside:
            inside = False
    return found


COMMANDS = {" ".join(path) or "sudokit": _examples(command)
            for path, command in _walk(main, click.Context(main, info_name="sudokit"), ())}


def test_every_command_has_examples():
    assert {"sudokit", "solve", "count", "check", "encode", "reduce", "grade", "solvers",
            "generate", "generate sudoku", "generate latin", "generate coloring"} <= set(COMMANDS)
    assert all(COMMANDS.values()), [name for name, lines in COMMANDS.items() if not lines]
    for lines in COMMANDS.values():
        assert all(line.startswith("sudokit ") for line in lines), lines


def _argv(example: str, tmp: Path, written: dict[str, Path]) -> tuple[list[str], Path | None]:
    """The subprocess arguments of ``example`` and the file its stdout goes to (``> OUT``),
    with every written file moved to ``tmp``."""
    tokens = shlex.split(example)
    assert tokens[0] == "sudokit"
    assert not {"|", "<", ";", "&&", "||", "&"} & set(tokens), f"no shell here: {example}"
    args: list[str] = []
    redirect = None
    tokens = tokens[1:]
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token == ">" or token in WRITTEN:
            target = tmp / Path(tokens[index + 1]).name
            written[tokens[index + 1]] = target
            if token == ">":
                redirect = target
            else:
                args += [token, str(target)]
            index += 2
            continue
        for prefix in ("--output=", "--matrix="):
            if token.startswith(prefix):
                target = tmp / Path(token[len(prefix):]).name
                written[token[len(prefix):]] = target
                token = prefix + str(target)
        args.append(str(written.get(token, token)))
        index += 1
    return [sys.executable, "-m", "sudokit", *args], redirect


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_help_examples_run(name, tmp_path):
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1")
    written: dict[str, Path] = {}
    before = set(os.listdir(ROOT))
    for example in COMMANDS[name]:
        argv, redirect = _argv(example, tmp_path, written)
        with open(redirect, "w") if redirect else open(os.devnull, "w") as out:
            done = subprocess.run(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.PIPE,
                                  text=True, timeout=300)
        assert "Traceback" not in done.stderr, (example, done.stderr)
        assert "internal error" not in done.stderr, (example, done.stderr)
        assert done.returncode == EXPECTED_CODES.get(example, 0), (example, done.stderr)
        if redirect is not None:
            assert redirect.stat().st_size > 0, example
    assert set(os.listdir(ROOT)) <= before, "an example wrote into the working tree"
