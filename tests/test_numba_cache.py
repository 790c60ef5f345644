"""The numba cache guard (sudokit/_numba.py) drops cache files once the package sources change."""

import os
import subprocess
import sys
from pathlib import Path

import sudokit

PACKAGE = Path(sudokit.__file__).resolve().parent


def _import_guard(cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    subprocess.run([sys.executable, "-c", "import sudokit._numba"], env=env, check=True)


def _numba_folder(cache_dir, source_folder):
    """Where numba caches a source folder's kernels under NUMBA_CACHE_DIR (its own naming)."""
    from numba.core.caching import _CacheLocator

    return cache_dir / _CacheLocator.get_suitable_cache_subpath(str(source_folder / "x.py"))


def test_stale_cache_files_are_dropped_and_fresh_ones_kept(tmp_path):
    folder = _numba_folder(tmp_path, PACKAGE / "grading")
    folder.mkdir(parents=True)
    stale = folder / "engine.propagate-65.py311.nbi"
    stale.write_bytes(b"old")
    _import_guard(tmp_path)                 # no stamp yet: everything cached is suspect
    stamp = folder / "__pycache__" / "sudokit-sources.sha256"
    assert not stale.exists() and len(stamp.read_text()) == 64
    stale.write_bytes(b"new")
    _import_guard(tmp_path)                 # same sources: the cache stays
    assert stale.exists()
    stamp.write_text("0" * 64)              # as if a source file had been edited since
    _import_guard(tmp_path)
    assert not stale.exists()


def test_no_writable_cache_falls_back_to_uncached_kernels():
    """A locked-down user (no cache folder numba may write): a warning, once, and no crash."""
    script = """if True:
        import numpy as np
        import numba.core.caching as caching

        def denied(self):
            raise PermissionError(13, "Permission denied", self.get_cache_path())

        caching._CacheLocator.ensure_cache_path = denied      # every locator is refused
        from sudokit.grading.domains import popcount          # several kernels decorated
        from sudokit.grading.engine import propagate
        print(popcount(np.int64(0b1011)))
    """
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "3"
    assert done.stderr.count("RuntimeWarning") == 1
    assert "cache=False" in done.stderr


def test_the_stamp_covers_kernel_modules_and_what_they_import():
    """A kernel's machine code can hold its callees and the constants it imports, so their
    files are in the stamp; the CLI and the file formats hold no kernel and are not (editing
    them must not make every kernel compile again)."""
    from sudokit._numba import _kernel_sources

    covered = {path.relative_to(PACKAGE).as_posix() for path in _kernel_sources()}
    assert {"grading/engine.py", "solvers/takano.py", "solvers/takano_rules.py",
            "solvers/cp_bits.py", "generators/cp_removal.py"} <= covered
    assert not {"cli/solve.py", "cli/common.py", "formats/puzzle_text.py"} & covered


_CACHED_RUN = """
import sys
from sudokit import _hooks
_hooks.quick_numba_start = True
import numpy as np
from sudokit.solvers.arrays import count_arrays
counts = count_arrays(np.zeros((2, 16), dtype=np.uint8), "sudoku", (2, 2), limit=300,
                      solver="dlx").counts
print(counts.tolist(), "numba.np.arraymath" in sys.modules)
"""


def test_the_command_line_loads_cached_kernels_without_setting_numba_up(tmp_path):
    """In the command line's process (quick_numba_start), a kernel found in the disk cache is
    loaded without numba's target refresh (which imports every implementation registry,
    numba.np.arraymath among them; the DLX kernels allocate, so the runtime must be set up);
    a cold cache still compiles and answers the same."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    cold, warm = [subprocess.run([sys.executable, "-c", _CACHED_RUN], env=env, check=True,
                                 capture_output=True, text=True).stdout for _ in range(2)]
    assert cold == "[288, 288] True\n"     # compiled: numba set its target up
    assert warm == "[288, 288] False\n"    # loaded from the cache alone (DLX allocates: NRT)
