"""sudokit._accel: the kernel caches (where, whom they trust, when they are stale) and the
command line's compiling of a family before it is needed.

Kernel runs happen in fresh interpreters with their own cache folders, so each test starts
cold or warm as it says, whatever the rest of the suite compiled.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sudokit._accel import locations
from sudokit._accel.sources import PACKAGE, kernel_sources

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534

# A kernel run in a fresh interpreter: the counts, the package modules whose kernels compiled
# in that process, and whether numba set its target up (numba.np.arraymath loaded).
_RUN = """
import json, sys
import numba.core.event as event
compiled = []
class Listen(event.Listener):
    def on_start(self, e):
        compiled.append(getattr(e.data.get("dispatcher"), "py_func").__module__)
    def on_end(self, e):
        pass
event.register("numba:compile", Listen())
import numpy as np
from sudokit._accel import locations, mode
if len(sys.argv) > 1:
    locations.PREBUILT = __import__("pathlib").Path(sys.argv[1])
from sudokit.batch import count_arrays
with mode.command_line():
    counts = count_arrays(np.zeros((2, 16), dtype=np.uint8), "sudoku", (2, 2), limit=300,
                          solver="dlx").counts
print(json.dumps({"counts": counts.tolist(), "compiled": sorted(set(compiled)),
                  "target": "numba.np.arraymath" in sys.modules}))
"""


def _kernel_run(cache: Path, *args: str, **env: str) -> dict:
    environ = {key: value for key, value in os.environ.items()
               if key not in ("NUMBA_CACHE_DIR", "SUDOKIT_CACHE_DIR")}
    environ.update(SUDOKIT_CACHE_DIR=str(cache), SUDOKIT_NATIVE="0", **env)
    done = subprocess.run([sys.executable, "-c", _RUN, *args], env=environ, cwd=ROOT,
                          capture_output=True, text=True, check=True, timeout=600)
    result = json.loads(done.stdout)
    result["stderr"] = done.stderr
    return result


@pytest.fixture(scope="module")
def warm(tmp_path_factory) -> Path:
    """A cache folder the DLX kernels were compiled into (cold, then loaded)."""
    cache = tmp_path_factory.mktemp("kernels") / "cache"
    cold = _kernel_run(cache)
    assert cold["counts"] == [288, 288] and "sudokit.solvers.dlx_kernel" in cold["compiled"]
    return cache


def test_a_warm_cache_is_loaded_without_compiling_or_setting_numba_up(warm):
    again = _kernel_run(warm)
    assert again == {"counts": [288, 288], "compiled": [], "target": False, "stderr": ""}


def test_cache_folders_and_files_are_private_and_nothing_lands_in_the_package(warm):
    files = [path for path in warm.rglob("*") if path.is_file()]
    assert any(path.suffix == ".nbi" for path in files) and any(p.suffix == ".nbc" for p in files)
    for path in [warm, *warm.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), (path, oct(mode))
    assert not [path for pattern in ("*.nbi", "*.nbc", "*.bin")
                for path in PACKAGE.rglob(pattern) if "prebuilt" not in path.parts]


def _copy(source: Path, target: Path) -> Path:
    subprocess.run(["cp", "-a", str(source), str(target)], check=True)
    return target


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give files to another user")
def test_a_cache_another_user_owns_is_not_loaded(warm, tmp_path):
    """Loading a cache runs its machine code: files another user wrote are compiled anew
    (issue 27: another user replaced a cached kernel and root ran it)."""
    theirs = _copy(warm, tmp_path / "theirs")
    for path in theirs.rglob("*.nb*"):
        os.chown(path, NOBODY, NOBODY)
    run = _kernel_run(theirs)
    assert run["counts"] == [288, 288] and "sudokit.solvers.dlx_kernel" in run["compiled"]


def test_a_cache_others_may_write_is_not_loaded(warm, tmp_path):
    shared = _copy(warm, tmp_path / "shared")
    for path in shared.rglob("*.nb*"):
        path.chmod(0o666)
    run = _kernel_run(shared)
    assert "sudokit.solvers.dlx_kernel" in run["compiled"]


def test_a_cache_folder_others_may_write_is_refused_for_a_private_one(warm, tmp_path):
    shared = _copy(warm, tmp_path / "shared")
    shared.chmod(0o777)
    run = _kernel_run(shared, TMPDIR=str(tmp_path))
    assert run["counts"] == [288, 288] and "sudokit.solvers.dlx_kernel" in run["compiled"]
    assert f"cannot use the kernel cache folder {shared}" in run["stderr"]
    fallback = tmp_path / f"sudokit-{os.geteuid()}"
    assert stat.S_IMODE(fallback.stat().st_mode) == 0o700 and list(fallback.rglob("*.nbi"))


def test_a_link_planted_in_the_cache_is_not_followed(warm, tmp_path):
    """A file of this user's that a link in the cache points at is neither read as a kernel
    nor overwritten (issue 32, item 8)."""
    planted = _copy(warm, tmp_path / "planted")
    victim = tmp_path / "private.txt"
    victim.write_text("mine")
    victim.chmod(0o600)
    for index in planted.rglob("*.nbi"):
        index.unlink()
        index.symlink_to(victim)
    run = _kernel_run(planted)
    assert "sudokit.solvers.dlx_kernel" in run["compiled"]
    assert victim.read_text() == "mine" and stat.S_IMODE(victim.stat().st_mode) == 0o600


def test_the_prebuilt_folder_is_read_and_never_written(warm, tmp_path):
    prebuilt = _copy(warm, tmp_path / "prebuilt")
    before = sorted(path.name for path in prebuilt.rglob("*"))
    run = _kernel_run(tmp_path / "empty-user-cache", str(prebuilt))
    assert run["counts"] == [288, 288] and run["compiled"] == []
    assert sorted(path.name for path in prebuilt.rglob("*")) == before
    assert not list((tmp_path / "empty-user-cache").rglob("*.nb*"))


def test_no_private_folder_at_all_compiles_in_memory_and_says_so(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    (tmp_path / f"sudokit-{os.geteuid()}").write_text("nor this")   # the fallback's name
    run = _kernel_run(blocked / "cache", TMPDIR=str(tmp_path))
    assert run["counts"] == [288, 288]
    assert "every run compiles the kernels it uses again" in run["stderr"]


def test_the_stamp_covers_kernel_modules_and_what_they_import():
    """A kernel's machine code can hold its callees and the constants it imports, so their
    files are in the stamp; the CLI, the file formats and the cache machinery hold no kernel
    and are not (editing them must not make every kernel compile again)."""
    covered = {path.relative_to(PACKAGE).as_posix() for path in kernel_sources()}
    assert {"grading/engine.py", "solvers/takano.py", "solvers/takano_rules.py",
            "solvers/cp_bits.py", "generators/cp_removal.py"} <= covered
    assert not {"cli/solve.py", "cli/common.py", "formats/puzzle_text.py",
                "_accel/numba_cache.py"} & covered


def test_private_files_refuse_links_and_foreign_modes(tmp_path):
    path = tmp_path / "k.bin"
    locations.write_private(path, b"code")
    assert locations.read_private(path) == b"code"
    path.chmod(0o620)
    with pytest.raises(locations.UntrustedCache):
        locations.read_private(path)
    link = tmp_path / "link"
    link.symlink_to(path)
    with pytest.raises(OSError):
        locations.read_private(link)


# -- the command line: a family compiled first, within the time limit -----------------------

def _sudokit(cache: Path, *args: str, stdin: str = "", **popen):
    env = {key: value for key, value in os.environ.items()
           if key not in ("NUMBA_CACHE_DIR", "SUDOKIT_NO_PROGRESS")}
    env["SUDOKIT_CACHE_DIR"] = str(cache)
    return subprocess.Popen([sys.executable, "-m", "sudokit", *args], env=env, cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **popen)


def _wait_for_marker(cache: Path, family: str, child: subprocess.Popen | None = None) -> None:
    """Until the background build of ``family`` has marked it compiled (its process is not
    ours to wait for: it outlives the command)."""
    import time

    for _ in range(6000):     # a hang guard, not a time bound: ten minutes at most
        if list((cache / "families").glob(f"{family}-*.done")):
            return
        time.sleep(0.1)
    raise AssertionError(f"the {family} build never finished")


@pytest.mark.slow
def test_a_time_limit_covers_compiling_and_the_build_finishes_for_the_next_run(tmp_path):
    """Cold, with --time-limit shorter than any compile: exit 5 at once with what happened,
    while the family goes on compiling in the background; the next run answers."""
    cache = tmp_path / "cache"
    command = ("count", "--solver", "norvig", "--limit", "2", "--time-limit", "0.01", "-")
    run = _sudokit(cache, *command)
    out, err = run.communicate("." * 16 + "\n", timeout=600)
    assert run.returncode == 5, err
    assert "compiling the norvig search kernels" in err
    assert "go on compiling in the background" in err and "Traceback" not in err
    _wait_for_marker(cache, "norvig")
    again = _sudokit(cache, *command)
    out, err = again.communicate("." * 16 + "\n", timeout=600)
    assert (again.returncode, out) == (0, "." * 16 + " 2\n"), err
    assert "compiling" not in err


@pytest.mark.slow
def test_ctrl_c_while_a_family_compiles_ends_the_command_and_the_build(tmp_path):
    cache = tmp_path / "cache"
    run = _sudokit(cache, "count", "--solver", "bitset", "-")
    run.stdin.write("." * 16 + "\n")
    run.stdin.close()
    for line in run.stderr:    # sent once the command says it compiles
        if "compiling the bitset" in line:
            break
    run.send_signal(signal.SIGINT)
    assert run.wait(timeout=600) == 130
    assert "sudokit: interrupted" in run.stderr.read()
    assert not list((cache / "families").glob("bitset-*.done"))
