"""Every command the README shows runs as shown, with the output it shows."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import README, console_examples, shown_needs

ROOT = Path(__file__).resolve().parents[1]
def normalise(text: str) -> str:
    return re.sub(r'"seconds":[0-9.e-]+', '"seconds":S', text)


@pytest.fixture(scope="module")
def shell_env(tmp_path_factory):
    """PATH with a ``sudokit`` command: the installed script, else a shim to this interpreter."""
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1")
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    if shutil.which("sudokit", path=bin_dir) is None:
        shim_dir = tmp_path_factory.mktemp("bin")
        shim = shim_dir / "sudokit"
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m sudokit "$@"\n')
        shim.chmod(0o755)
        env["PATH"] = str(shim_dir) + os.pathsep + env["PATH"]
    return env


EXAMPLES = console_examples()


def skip_unless_installed(shown: str) -> None:
    """Skip, with the reason, a command or block that needs a missing extra."""
    reason = shown_needs(shown)
    if reason is not None:
        pytest.skip(reason)


def test_readme_has_console_examples():
    assert len(EXAMPLES) >= 12


@pytest.mark.parametrize("command, expected", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_command_runs_as_shown(command, expected, shell_env):
    skip_unless_installed(command)
    done = subprocess.run(["bash", "-c", command], cwd=ROOT, env=shell_env,
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr
    if "echo \"exit $?\"" not in command:
        assert done.returncode == 0, done.stderr
    assert normalise(done.stdout) == normalise(expected)


def test_console_commands_name_examples_not_repository_paths():
    """The README's commands reach the bundled files through ``sudokit examples``, so they run
    from any folder after ``pip install``."""
    for command, _ in EXAMPLES:
        assert "instances/examples" not in command, command


def tour_sh_blocks() -> list[str]:
    """The ```sh blocks after the Set-up section (that section's two are its own)."""
    rest = README.split("## Tour", 1)[1]
    return re.findall(r"```sh\n(.*?)```", rest, flags=re.S)


@pytest.mark.parametrize("block", tour_sh_blocks())
def test_readme_sh_blocks_run_from_an_empty_folder(block, shell_env, tmp_path):
    cwd, temporary = tmp_path / "cwd", tmp_path / "tmp"
    cwd.mkdir()
    temporary.mkdir()
    assert "instances/examples" not in block
    skip_unless_installed(block)
    done = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block], cwd=cwd,
                          env=dict(shell_env, TMPDIR=str(temporary)), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert os.listdir(cwd) == []


def test_setup_commands_are_exactly_two_and_ci_runs_the_test_one():
    setup = README.split("## Set-up", 1)[1].split("## Tour", 1)[0]
    commands = re.findall(r"```sh\n(.*?)\n```", setup, flags=re.S)
    assert len(commands) == 2
    install_and_solve, install_and_test = commands
    assert install_and_solve.endswith("| .venv/bin/sudokit solve -")
    assert install_and_test in (ROOT / ".ci" / "run").read_text()
    example = install_and_solve.split(".venv/bin/sudokit examples ", 1)[1].split()[0]
    index = json.loads((ROOT / "sudokit" / "instances" / "examples" / "index.json").read_text())
    assert example in index


PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


def test_readme_has_python_examples():
    assert len(PYTHON_BLOCKS) >= 2


@pytest.mark.parametrize("block", PYTHON_BLOCKS)
def test_readme_python_examples_run(block, monkeypatch):
    skip_unless_installed(block)
    monkeypatch.chdir(ROOT)
    exec(compile(block, "README.md", "exec"), {})
