"""What the command line imports: numba (and the numba cache guard) only when a kernel runs.

The import checks run in fresh interpreters (``sys.modules`` of the test process already holds
everything); each takes about half a second.
"""

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from .helpers import HANG_GUARD, loaded_after

ROOT = Path(__file__).resolve().parents[1]
PUZZLE = ROOT / "sudokit" / "instances" / "examples" / "puzzle17.txt"
KERNEL_MODULES = ("numba", "sudokit._accel.numba_cache", "asyncio")


def _loaded_after(args: list[str]) -> dict:
    """Run ``sudokit.cli.main(args)`` in a new interpreter; which of KERNEL_MODULES (and
    asyncio, which only a Dask cluster needs) it loaded."""
    return loaded_after(args, KERNEL_MODULES)


def test_version_loads_no_numba():
    out = _loaded_after(["--version"])
    assert "sudokit, version" in out["stdout"]
    assert not out["numba"] and not out["sudokit._accel.numba_cache"]


def test_sat_solve_loads_no_numba():
    out = _loaded_after(["solve", "--solver", "cadical195", str(PUZZLE)])
    assert any(len(line) == 81 and line.isdigit() for line in out["stdout"].splitlines())
    assert not out["numba"] and not out["sudokit._accel.numba_cache"]


def test_dlx_solve_loads_numba():
    """The check above can fail: the exact cover solver does load the kernels (through numba
    with ``SUDOKIT_NATIVE=0``; else their numba-free copies may run: tests/accel/test_native.py)."""
    env = dict(os.environ, SUDOKIT_NATIVE="0")
    out = loaded_after(["solve", "--solver", "dlx", str(PUZZLE)], KERNEL_MODULES, env)
    assert any(len(line) == 81 and line.isdigit() for line in out["stdout"].splitlines())
    assert out["numba"] and out["sudokit._accel.numba_cache"]
    assert not out["asyncio"]   # a serial run loads nothing of the --jobs machinery's needs


def test_version_loads_neither_numpy_nor_pysat():
    """``sudokit --version`` and ``--help`` answer from the package's lazy front (issue 12)."""
    script = ("import sys, sudokit.cli\n"
              "try:\n    sudokit.cli.main(['--version'], prog_name='sudokit')\n"
              "except SystemExit:\n    pass\n"
              "print(sorted(m for m in ('numpy', 'pysat', 'numba') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=HANG_GUARD)
    assert done.stdout.splitlines()[-1] == "[]", done.stdout + done.stderr


@pytest.mark.slow
def test_a_cold_kernel_cache_is_announced_once(tmp_path):
    """The first run that has to compile a kernel family says which and why, once, on stderr;
    a warm run says nothing."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("SUDOKIT_NO_PROGRESS", "NUMBA_CACHE_DIR")}
    env["SUDOKIT_CACHE_DIR"] = str(tmp_path / "cache")
    command = [sys.executable, "-m", "sudokit", "count", "--solver", "dlx", "--problem", "latin",
               "-"]
    runs = [subprocess.run(command, input="1...\n", cwd=ROOT, capture_output=True, text=True,
                           env=env, timeout=300) for _ in range(2)]
    assert [run.stdout for run in runs] == ["1... 1\n"] * 2, runs[0].stderr
    cold = [line for line in runs[0].stderr.splitlines() if "compiling" in line]
    assert cold == ["sudokit: compiling the dancing-links kernels (--solver dlx, exact cover): "
                    "not compiled for this installation yet, so once (about 5 CPU-s)"]
    assert "compiling" not in runs[1].stderr


def _help(group, width: int) -> str:
    ctx = group.make_context("sudokit", ["--help"], resilient_parsing=True,
                             terminal_width=width, max_content_width=width)
    return group.get_help(ctx)


def test_lazy_short_help_matches_the_commands():
    """The table behind ``sudokit --help`` says what each command's docstring says."""
    from sudokit.cli import COMMANDS, LazyGroup, main

    fresh = LazyGroup("sudokit", help=main.help, params=main.params,
                      context_settings=main.context_settings, lazy_commands=COMMANDS)
    before = {width: _help(fresh, width) for width in (30, 60, 80, 120, 300)}
    assert not fresh.commands                            # listing imported nothing
    for name, (_, short) in COMMANDS.items():
        command = fresh.get_command(None, name)
        assert isinstance(command, click.Command) and command.name == name
        assert command.get_short_help_str(10**6) == short, name
    assert sorted(fresh.commands) == sorted(COMMANDS)
    for width, text in before.items():                  # the same once every command is loaded
        assert _help(fresh, width) == text


@pytest.mark.parametrize("typo, suggestion", [("sol", "'solve', 'solvers'"),
                                              ("grad", "'grade'")])
def test_unknown_command_suggests_unloaded_ones(typo, suggestion):
    from sudokit.cli import COMMANDS, LazyGroup, main

    fresh = LazyGroup("sudokit", params=main.params, lazy_commands=COMMANDS)
    result = CliRunner().invoke(fresh, [typo])
    assert result.exit_code == 2
    assert f"No such command '{typo}'" in result.output
    if hasattr(click.exceptions, "NoSuchCommand"):      # click >= 8.4 suggests close names
        assert suggestion in result.output


def test_the_command_line_keeps_openblas_to_one_thread_unless_told():
    """The command line asks numpy's OpenBLAS for one thread (no command multiplies float
    matrices; its thread pool costs ~0.1 s of CPU a process); a user's setting wins."""
    code = "import os, sudokit.cli; print(os.environ['OPENBLAS_NUM_THREADS'])"
    env = {key: value for key, value in os.environ.items() if key != "OPENBLAS_NUM_THREADS"}
    plain = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True)
    told = subprocess.run([sys.executable, "-c", code], env=dict(env, OPENBLAS_NUM_THREADS="4"),
                          capture_output=True, text=True, check=True)
    assert (plain.stdout, told.stdout) == ("1\n", "4\n")
