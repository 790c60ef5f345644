"""Every command and Python block of docs/guide/progress.md runs as shown."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "guide" / "progress.md").read_text()


def _console() -> list[tuple[str, str]]:
    pairs = []
    for block in re.findall(r"```console\n(.*?)```", PAGE, flags=re.S):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            pairs.append((command, output))
    return pairs


@pytest.fixture(scope="module")
def shell_env(tmp_path_factory):
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1", PYTHONPATH=str(ROOT))
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    if shutil.which("sudokit", path=bin_dir) is None:
        shim_dir = tmp_path_factory.mktemp("bin")
        shim = shim_dir / "sudokit"
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sudokit "$@"\n')
        shim.chmod(0o755)
        env["PATH"] = str(shim_dir) + os.pathsep + env["PATH"]
    return env


def test_the_page_has_examples():
    assert len(_console()) >= 3


@pytest.mark.parametrize("command, expected", _console(), ids=[c for c, _ in _console()])
def test_commands_run_as_shown(command, expected, shell_env, tmp_path):
    done = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=shell_env,
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr
    assert done.stdout == expected


@pytest.mark.parametrize("block", re.findall(r"```python\n(.*?)```", PAGE, flags=re.S))
def test_python_blocks_run(block, shell_env, tmp_path):
    done = subprocess.run([sys.executable, "-c", block], cwd=tmp_path, env=shell_env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[161280]"
