"""Every example on the pages users read runs as shown: README.md and every docs/**/*.md,
pages added later included (:func:`helpers.doc_pages` globs them).

- a ```console block: each ``$ `` line runs in bash from the repository root, with the output
  shown below it (byte for byte, but for the ``"seconds"`` of ``--json``), exit 0 unless the
  command itself echoes ``exit $?``, never a traceback;
- a ```sh block (but the README's two set-up commands, which .ci/run runs): runs whole
  from an empty folder and leaves it empty;
- a ```python block runs without error; a ```pycon block is a doctest.

A block that needs an optional extra that is missing skips with the install command.
"""

import doctest
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .helpers import README, ROOT, code_blocks, doc_pages, docs_console_examples, shown_needs


def normalise(text: str) -> str:
    return re.sub(r'"seconds":[0-9.e-]+', '"seconds":S', text)


def _blocks(language: str, pages=None):
    """``(page, index, block)`` for every ```language block of ``pages`` (default: all)."""
    found = []
    for page in pages or doc_pages():
        for index, block in enumerate(code_blocks(page.read_text(), language), start=1):
            found.append((page.relative_to(ROOT).as_posix(), index, block))
    return found


def _ids(items):
    return [f"{page}#{index}" for page, index, _ in items]


CONSOLE = docs_console_examples()
#: the README's sh blocks are its two set-up commands (a new venv and an install: .ci/run
#: runs the test one, tests/test_readme.py checks them); a page that repeats them is not run
SETUP = code_blocks(README, "sh")
SH = [(page, index, block) for page, index, block in _blocks("sh") if block not in SETUP]
PYTHON = _blocks("python")
PYCON = _blocks("pycon")


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


def skip_unless_installed(shown: str) -> None:
    """Skip, with the reason, a command or block that needs a missing extra."""
    reason = shown_needs(shown)
    if reason is not None:
        pytest.skip(reason)


def test_the_pages_have_examples_of_each_kind():
    pages = {page for page, _, _ in CONSOLE}
    assert {"README.md", "docs/getting-started.md", "docs/variants.md"} <= pages
    assert len(CONSOLE) >= 60 and SH and len(PYTHON) >= 3 and PYCON


def test_blocks_are_closed_and_named():
    """An unclosed fence or a fence without a language would hide examples from this test."""
    for page in doc_pages():
        fences = re.findall(r"^```(\S*)", page.read_text(), flags=re.M)
        assert len(fences) % 2 == 0, page
        openings = fences[0::2]
        assert all(openings), (page, openings)
        assert not any(fences[1::2]), (page, fences[1::2])


@pytest.mark.parametrize("page, command, expected", CONSOLE,
                         ids=[f"{page}:{command}" for page, command, _ in CONSOLE])
def test_console_command_runs_as_shown(page, command, expected, shell_env):
    skip_unless_installed(command)
    done = subprocess.run(["bash", "-c", command], cwd=ROOT, env=shell_env,
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr
    if "echo \"exit $?\"" not in command:
        assert done.returncode == 0, done.stderr
    assert normalise(done.stdout) == normalise(expected)


def test_console_commands_name_examples_not_repository_paths():
    """The commands reach the bundled files through ``sudokit examples``, so they run from any
    folder after ``pip install``."""
    for page, command, _ in CONSOLE:
        assert "instances/examples" not in command, (page, command)


@pytest.mark.parametrize("page, index, block", SH, ids=_ids(SH))
def test_sh_block_runs_from_an_empty_folder(page, index, block, shell_env, tmp_path):
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


@pytest.mark.parametrize("page, index, block", PYTHON, ids=_ids(PYTHON))
def test_python_block_runs(page, index, block, monkeypatch):
    skip_unless_installed(block)
    monkeypatch.chdir(ROOT)
    exec(compile(block, f"{page} (python block {index})", "exec"), {"__name__": "__docs__"})


#: a page's pycon blocks are one session, as a reader types them: a block uses the names the
#: blocks above it made, so each block runs after the ones before it, in one namespace
PYCON_PAGES = sorted({page for page, _, _ in PYCON})


@pytest.mark.parametrize("page", PYCON_PAGES)
def test_pycon_blocks_are_a_passing_doctest(page, monkeypatch):
    monkeypatch.chdir(ROOT)
    names: dict = {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for _, index, block in (item for item in PYCON if item[0] == page):
        skip_unless_installed(block)
        test = doctest.DocTestParser().get_doctest(block, names, f"{page}#{index}", page, 0)
        assert test.examples, f"pycon block {index} has no >>> lines"
        runner.run(test, out=lambda text: print(text, end=""), clear_globs=False)
        names = test.globs
    assert runner.summarize(verbose=False).failed == 0, "see the doctest report above"
