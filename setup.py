"""Build hook: compile the numba kernels while pip builds the package on this machine.

The kernels are machine code for the CPU they run on. ``pip install .`` builds the wheel on
the machine it installs on, so this runs ``sudokit kernels --build --into
sudokit/_accel/prebuilt`` on the freshly built package, and the compiled kernels go into the
wheel with it: the first command after installing answers at once, and ``pip uninstall``
removes them (they are in the wheel's RECORD). Everything else is in pyproject.toml.

``SUDOKIT_PREBUILD=0`` skips it (the kernels then compile on first use, into the user's cache
folder); so does an editable install, whose sources change under it. A failure here never
fails the build: the kernels compile on first use instead, and the reason is printed.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithKernels(build_py):
    """``build_py``, then the kernels compiled into the built package."""

    def run(self):
        super().run()
        build_lib = Path(self.build_lib).resolve()
        target = build_lib / "sudokit" / "_accel" / "prebuilt"
        shutil.rmtree(target, ignore_errors=True)   # an earlier build's, left in build/lib
        if self.editable_mode or os.environ.get("SUDOKIT_PREBUILD", "1") == "0":
            return
        # pip's isolated build environment reaches its packages through PYTHONPATH: keep it
        path = os.pathsep.join(filter(None, [str(build_lib), os.environ.get("PYTHONPATH")]))
        env = dict(os.environ, PYTHONPATH=path, SUDOKIT_NO_PROGRESS="1",
                   OPENBLAS_NUM_THREADS="1",
                   PYTHONDONTWRITEBYTECODE="1")   # no build-path .pyc files in the wheel
        env.pop("SUDOKIT_CACHE_DIR", None)
        command = [sys.executable, "-m", "sudokit", "kernels", "--build", "--into", str(target),
                   "--jobs", str(max(1, min(os.cpu_count() or 1, 4)))]
        print("sudokit: compiling the numba kernels for this machine (about a minute)",
              file=sys.stderr)
        try:
            done = subprocess.run(command, env=env, cwd=build_lib, check=False)
        except OSError as err:
            print(f"sudokit: not compiling the kernels now ({err}); they compile on first use",
                  file=sys.stderr)
            return
        if done.returncode != 0:
            print(f"sudokit: compiling the kernels exited {done.returncode}; what is missing "
                  "compiles on first use", file=sys.stderr)


setup(cmdclass={"build_py": BuildPyWithKernels})
