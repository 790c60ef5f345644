"""Time to first answer in a fresh process: importing sudokit and counting a 4x4 Sudoku with DLX.

Each measurement is the wall time of one new process (``subprocess.run``), from spawn to exit:

* ``python -c pass`` - the interpreter alone (for reference);
* ``python -c "import sudokit"`` - the import time of sudokit alone;
* API: ``python -c`` importing sudokit and counting the empty 4x4 Sudoku (288 grids) with
  ``DancingLinks`` (full exact cover), printing the count;
* CLI: ``sudokit count --solver dlx -`` with the empty 4x4 puzzle on stdin, through the
  console script next to the interpreter or on PATH, else ``python -m sudokit``.

Every run gets ``PYTHONPATH`` = this checkout, so it measures this working tree. "warm" means
the numba cache is filled (one untimed run first; numba keeps the cache of ``cache=True``
kernels in ``__pycache__`` next to the source); the median of ``--repeat`` runs is reported.
"cold" sets ``NUMBA_CACHE_DIR`` to a new, empty temporary directory for that one run, so numba
finds nothing cached and compiles every kernel it calls (Python's own ``.pyc`` files stay
warm). Each output is checked (``288``).

Run: ``python benchmarks/cold_start.py [--repeat 3] [--cold-repeat 1] [--python PATH]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import format_table, log  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EMPTY_4X4 = "." * 16 + "\n"
COUNT_4X4 = "288"

API_CODE = (
    "import numpy as np\n"
    "from sudokit import DancingLinks, completion_to_exact_cover, sudoku\n"
    "xc = completion_to_exact_cover(sudoku(np.zeros((4, 4), dtype=int)), 'full').xc\n"
    "print(DancingLinks.from_problem(xc).count())\n"
)


def cli_command(python: str) -> tuple[list[str], str]:
    """The console script belonging to ``python`` if present, else on PATH, else -m."""
    beside = Path(python).parent / "sudokit"
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)], f"{beside} count --solver dlx -"
    found = shutil.which("sudokit")
    if found:
        return [found], f"{found} count --solver dlx - (from PATH)"
    return [python, "-m", "sudokit"], f"{python} -m sudokit count --solver dlx -"


def run(argv, stdin=None, cache_dir=None, expect=None) -> float:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"]
                                     if env.get("PYTHONPATH") else "")
    env.pop("NUMBA_DISABLE_JIT", None)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    else:
        env.pop("NUMBA_CACHE_DIR", None)
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env,
                          cwd=tempfile.gettempdir())
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    if expect is not None and expect not in done.stdout.split():
        raise SystemExit(f"{' '.join(argv)}: expected {expect!r} in the output, got "
                         f"{done.stdout!r}")
    return seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3,
                        help="warm runs per command, the median is reported (default 3)")
    parser.add_argument("--cold-repeat", type=int, default=1,
                        help="cold runs per command, each with a new empty NUMBA_CACHE_DIR "
                             "(default 1; with more, the median is reported)")
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter to measure (default: the one running this script)")
    args = parser.parse_args(argv)

    python = args.python
    cli_argv, cli_label = cli_command(python)
    cases = [
        ("python -c pass", "interpreter start-up only", [python, "-c", "pass"], None, None,
         False),
        ("import sudokit", 'python -c "import sudokit"', [python, "-c", "import sudokit"],
         None, None, True),
        ("API: count 4x4 (DLX)", "python -c: import, DancingLinks(...).count()",
         [python, "-c", API_CODE], None, COUNT_4X4, True),
        ("CLI: count 4x4 (DLX)", cli_label,
         cli_argv + ["count", "--solver", "dlx", "-"], EMPTY_4X4, COUNT_4X4, True),
    ]
    rows = []
    for name, label, command, stdin, expect, cold in cases:
        log(f"{name}: filling caches (untimed run)")
        run(command, stdin, expect=expect)
        warm = []
        for r in range(args.repeat):
            warm.append(run(command, stdin, expect=expect))
            log(f"{name}: warm {r + 1}/{args.repeat}: {warm[-1]:.3f} s")
        colds = []
        if cold:
            for r in range(args.cold_repeat):
                with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
                    colds.append(run(command, stdin, cache_dir=cache, expect=expect))
                log(f"{name}: cold {r + 1}/{args.cold_repeat}: {colds[-1]:.3f} s")
        rows.append((name, label, warm, colds))

    print("Time to first answer in a fresh process (wall time of the whole process)")
    print(f"python {platform.python_version()} ({python}), {os.cpu_count()} CPUs, "
          f"{platform.machine()}; load average "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    headers = ["what", "warm s (median)", "warm runs", "cold s", "cold - warm s", "command"]
    table = []
    for name, label, warm, colds in rows:
        w = statistics.median(warm)
        c = statistics.median(colds) if colds else None
        table.append([name, f"{w:.3f}", " ".join(f"{x:.3f}" for x in warm),
                      "-" if c is None else f"{c:.3f}",
                      "-" if c is None else f"{c - w:+.3f}", label])
    print(format_table(headers, table, right={1, 3, 4}))
    print()
    base = statistics.median(rows[0][2])
    imp = statistics.median(rows[1][2])
    print(f"import sudokit alone: {imp:.3f} s per process ({imp - base:.3f} s over the bare "
          f"interpreter's {base:.3f} s)")
    print("warm: numba cache filled (default location, __pycache__ next to the sources); "
          "cold: a new empty NUMBA_CACHE_DIR per run, so every kernel used is compiled.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
