"""Every command of docs/guide/sheets.md runs as shown, with the output it shows."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "guide" / "sheets.md"


def _examples() -> list[tuple[str, str]]:
    pairs = []
    for block in re.findall(r"```console\n(.*?)```", PAGE.read_text(), flags=re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            pairs.append((command, output))
    return pairs


EXAMPLES = _examples()


@pytest.fixture(scope="module")
def shell_env(tmp_path_factory):
    """PATH with a ``sudokit`` command running this checkout with this interpreter."""
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1", PYTHONPATH=str(ROOT))
    shim_dir = tmp_path_factory.mktemp("bin")
    shim = shim_dir / "sudokit"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sudokit "$@"\n')
    shim.chmod(0o755)
    env["PATH"] = str(shim_dir) + os.pathsep + env.get("PATH", "")
    return env


def test_the_page_has_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("command, expected", EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_page_command_runs_as_shown(command, expected, shell_env, tmp_path):
    assert shutil.which("bash")
    done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=shell_env,
                          capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stderr
    if 'echo "exit $?"' not in command:
        assert done.returncode == 0, done.stderr
    assert done.stdout == expected
    assert os.listdir(tmp_path) == []          # nothing written where it ran
