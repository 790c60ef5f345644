"""An installed copy: commands run from it write nothing inside it, and ``pip uninstall``
leaves nothing behind (issue 27: kernel caches written into site-packages outlived the
uninstall and then shadowed an editable reinstall as a namespace package)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_install_run_uninstall_leaves_nothing(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    site = Path(subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()"
         "['purelib'])"], capture_output=True, text=True, check=True).stdout.strip())
    # the dependencies come from this environment, the package is installed for real
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {key: value for key, value in os.environ.items()
           if key not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env.update(SUDOKIT_PREBUILD="0", SUDOKIT_CACHE_DIR=str(tmp_path / "cache"))
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-deps", str(ROOT)],
                   env=env, check=True, timeout=900)
    package = site / "sudokit"
    before = {path.relative_to(site) for path in package.rglob("*")}
    done = subprocess.run([str(venv / "bin" / "sudokit"), "count", "--solver", "dlx", "-"],
                          input="." * 16 + "\n", capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=900)
    assert done.stdout == "." * 16 + " 288\n", done.stderr
    assert list((tmp_path / "cache").rglob("*.nbi")), "compiled into the user's cache"
    after = {path.relative_to(site) for path in package.rglob("*")}
    assert {path for path in after - before if "__pycache__" not in path.parts
            or path.suffix != ".pyc"} == set()
    subprocess.run([str(venv / "bin" / "pip"), "uninstall", "-q", "-y", "sudokit"], env=env,
                   check=True, timeout=300)
    assert not package.exists(), sorted(map(str, package.rglob("*")))
