"""Every output path ends with one line and its documented exit code (issues 32.9, 32.13):
``-o OUT`` keeps the mode of the file it replaces and never replaces or follows a symbolic
link; a closed or full stdout, a closed stdin and a closed stderr never give exit 70."""

from __future__ import annotations

import os
import stat

import pytest

from ..helpers import EXAMPLES, assert_cli_error, cli_run

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
