"""Every output path ends with one line and its documented exit code (issues 32.9, 32.13):
``-o OUT`` keeps the mode of the file it replaces and never replaces or follows a symbolic
link; a closed or full stdout, a closed stdin and a closed stderr never give exit 70."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

from ..helpers import EXAMPLES, HANG_GUARD, ROOT, assert_cli_error, cli_run

PUZZLE = EXAMPLES / "puzzle17.txt"


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


# -- -o OUT: mode, owner, links ----------------------------------------------------------

@pytest.mark.parametrize("mode", [0o600, 0o640, 0o604])
def test_o_keeps_the_mode_of_the_file_it_replaces(tmp_path, umask_022, mode):
    out = tmp_path / "out.txt"
    out.write_text("old\n")
    out.chmod(mode)
    done = cli_run("solve", PUZZLE, "-o", out)
    assert done.exit_code == 0, done.stderr
    assert stat.S_IMODE(out.stat().st_mode) == mode
    assert out.read_text() != "old\n"


def test_o_keeps_the_owner_and_group(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("old\n")
    before = out.stat()
    assert cli_run("solve", PUZZLE, "-o", out).exit_code == 0
    after = out.stat()
    assert (after.st_uid, after.st_gid) == (before.st_uid, before.st_gid)
    assert after.st_ino != before.st_ino   # replaced, not rewritten in place


def test_o_new_file_gets_the_umask_mode(tmp_path, umask_022):
    out = tmp_path / "new.txt"
    assert cli_run("solve", PUZZLE, "-o", out).exit_code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o644


@pytest.mark.parametrize("dangling", [False, True])
def test_o_refuses_a_symbolic_link(tmp_path, dangling):
    target = tmp_path / "target.txt"
    if not dangling:
        target.write_text("kept\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    done = cli_run("solve", PUZZLE, "-o", link)
    assert_cli_error(done, 7, f"cannot write {link}: it is a symbolic link", "target.txt")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.exists() != dangling
    if not dangling:
        assert target.read_text() == "kept\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".sudokit-")] == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write any file")
def test_o_refuses_a_file_the_user_may_not_write(tmp_path):
    out = tmp_path / "ro.txt"
    out.write_text("kept\n")
    out.chmod(0o444)
    done = cli_run("solve", PUZZLE, "-o", out)
    assert_cli_error(done, 7, f"cannot write {out}: Permission denied")
    assert out.read_text() == "kept\n"


# -- standard streams closed or full (subprocess: Python sets a closed one to None) -------

def _shell(redirect: str, *args: str) -> subprocess.CompletedProcess:
    """``python -m sudokit ARGS REDIRECT`` in a shell, from the repository."""
    env = dict(os.environ, SUDOKIT_NO_PROGRESS="1",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    script = f'exec "$0" -m sudokit "$@" {redirect}'
    return subprocess.run(["sh", "-c", script, sys.executable, *args], cwd=ROOT, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=HANG_GUARD)


def _one_line(done: subprocess.CompletedProcess, code: int, *fragments: str) -> None:
    assert done.returncode == code, (done.returncode, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sudokit: error: "), done.stderr
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


OUTPUTS = [["solve", str(PUZZLE)], ["--help"], ["--version"], ["solve", "--help"],
           ["examples", "top3"], ["count", "-h"]]


@pytest.mark.parametrize("args", OUTPUTS, ids=" ".join)
def test_closed_stdout_is_exit_7(args):
    _one_line(_shell(">&-", *args), 7, "cannot write standard output: it is closed")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", OUTPUTS, ids=" ".join)
def test_full_stdout_is_exit_7(args):
    _one_line(_shell(">/dev/full", *args), 7, "cannot write standard output",
              os.strerror(28))


def test_closed_stdin_is_exit_3_for_dash_only(tmp_path):
    _one_line(_shell("<&-", "solve", "-"), 3, "cannot read standard input: it is closed")
    done = _shell("<&-", "solve", str(PUZZLE))
    assert done.returncode == 0 and done.stderr == "" and done.stdout.count("\n") == 1


def test_closed_stdout_with_o_file_is_fine(tmp_path):
    out = tmp_path / "out.txt"
    done = _shell(">&-", "solve", str(PUZZLE), "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text().count("\n") == 1


def test_closed_stderr_keeps_the_exit_codes():
    done = _shell("2>&-", "solve", str(PUZZLE))
    assert done.returncode == 0 and done.stdout.count("\n") == 1
    assert _shell("2>&- <&-", "solve", "-").returncode == 3
    assert _shell("2>&- >&-", "solve", str(PUZZLE)).returncode == 7
