"""The first ten minutes, as a new user has them: install, the first command, and the first
command of every kernel family of the README tour, each in a fresh process.

Two installs of this checkout side by side, in the same run, each into a new virtual
environment with its own empty kernel cache (``SUDOKIT_CACHE_DIR``):

* **built at install**: ``pip install ROOT``, which compiles the kernels into the package
  (``setup.py``);
* **compiled on first use** (the peer: how sudokit behaved before, and still behaves for an
  editable install): ``SUDOKIT_PREBUILD=0 pip install ROOT``, so each command compiles what it
  needs on first use.

For each install: the install's wall and CPU time, then each tour command run twice from an
empty temporary folder, then every command of the README's console blocks once (the kernel
files that whole tour compiled, and the most CPU one command took). Reported per command:
wall and CPU seconds of the first run (the process and everything it waited for, compiling
in a child included), CPU seconds spent
compiling (first run's CPU minus the second's), and the kernel files the command left in the
user cache (none when everything it ran was compiled at install). The outputs of the two
installs are compared, command by command.

Run: ``python benchmarks/first_run.py [--only built|first-use] [--python PATH]`` (about five
minutes on two cores; most of it is compiling).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import format_table, log  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "sudokit" / "instances" / "examples"

#: (family, command after ``sudokit``, standard input): the README's first command, then the
#: first command of each kernel family the README tour touches, then two that need none
TOUR: list[tuple[str, list[str], str]] = [
    ("takano", ["solve", str(EXAMPLES / "top3.txt")], ""),
    ("takano", ["count", "--limit", "2", str(EXAMPLES / "top3.txt")], ""),
    ("takano", ["count", "-", "--problem", "latin"], "." * 9 + "\n"),
    ("dlx", ["count", "--solver", "dlx", "--limit", "2", str(EXAMPLES / "top3.txt")], ""),
    ("norvig", ["count", "--solver", "norvig", "--limit", "2", str(EXAMPLES / "top3.txt")], ""),
    ("grasp", ["solve", "--solver", "grasp", "--seed", "7", str(EXAMPLES / "six.txt")], ""),
    ("grading", ["grade", str(EXAMPLES / "top3.txt")], ""),
    ("generate", ["generate", "sudoku", "--size", "9", "--count", "3", "--seed", "7",
                  "--minimal"], ""),
    ("generate", ["generate", "latin", "--order", "5", "--holes", "10", "--seed", "2"], ""),
    ("(none)", ["encode", "--cnf", str(EXAMPLES / "puzzle17.txt")], ""),
    ("(none)", ["solve", "--solver", "cadical195", str(EXAMPLES / "top3.txt")], ""),
]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(argv: list[str], env: dict, cwd: str, stdin: str = "") -> tuple[float, float, str]:
    """Run ``argv``; its wall and CPU seconds (with every process it waited for) and stdout."""
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, cwd=cwd)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    return wall, _children_cpu() - cpu, done.stdout


def _kernel_files(cache: Path) -> int:
    return sum(1 for path in cache.rglob("*") if path.suffix in (".nbc", ".bin"))


def measure(label: str, python: str, prebuild: bool, work: Path) -> dict:
    """Install into a new venv under ``work`` and run the tour; the figures."""
    venv, cache = work / f"venv-{label}", work / f"cache-{label}"
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    env = {key: value for key, value in os.environ.items()
           if key not in ("NUMBA_CACHE_DIR", "SUDOKIT_NO_PROGRESS", "PYTHONPATH")}
    env.update(SUDOKIT_CACHE_DIR=str(cache), SUDOKIT_PREBUILD="1" if prebuild else "0")
    log(f"{label}: pip install {ROOT}")
    install = timed([str(venv / "bin" / "pip"), "install", "-q", str(ROOT)], env, str(work))
    runs = []
    folder = tempfile.mkdtemp(dir=work)
    for family, argv, stdin in TOUR:
        before = _kernel_files(cache) if cache.exists() else 0
        first = timed([str(venv / "bin" / "sudokit"), *argv], env, folder, stdin)
        second = timed([str(venv / "bin" / "sudokit"), *argv], env, folder, stdin)
        after = _kernel_files(cache) if cache.exists() else 0
        log(f"{label}: {' '.join(argv[:3])}: {first[0]:.2f} s wall, {first[1]:.2f} CPU-s")
        runs.append({"family": family, "argv": argv, "first": first, "second": second,
                     "compiled": after - before})
    return {"label": label, "install": install, "runs": runs}


def readme_commands() -> list[str]:
    """Every command of the console blocks of the README and the docs pages (the tour moved
    there from the README)."""
    text = "\n".join(page.read_text() for page in [ROOT / "README.md",
                                                     *sorted((ROOT / "docs").rglob("*.md"))])
    found = []
    for block in re.findall(r"^```console\n(.*?)^```", text, flags=re.S | re.M):
        found += [chunk.partition("\n")[0] for chunk in re.split(r"^\$ ", block,
                                                                   flags=re.M)[1:]]
    return found


def readme_tour(result: dict, work: Path) -> dict:
    """Every README console command once, with the install of ``result`` on PATH, from an
    empty folder: the most CPU one spent, and the kernel files the whole tour compiled."""
    venv, cache = work / f"venv-{result['label']}", work / f"cache-{result['label']}"
    env = {key: value for key, value in os.environ.items()
           if key not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env.update(SUDOKIT_CACHE_DIR=str(cache), SUDOKIT_NO_PROGRESS="1",
               PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    folder = tempfile.mkdtemp(dir=work)
    before = _kernel_files(cache) if cache.exists() else 0
    most = (0.0, "")
    commands = readme_commands()
    for command in commands:
        cpu = _children_cpu()
        subprocess.run(["bash", "-c", command], env=env, cwd=folder, capture_output=True)
        spent = _children_cpu() - cpu
        most = max(most, (spent, command))
    return {"commands": len(commands), "most": most,
            "compiled": (_kernel_files(cache) if cache.exists() else 0) - before}


def _command(argv: list[str]) -> str:
    return "sudokit " + " ".join(Path(a).name if a.startswith(str(ROOT)) else a for a in argv)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["built", "first-use"],
                        help="measure one install only (default: both, in this run)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter to make the venvs with (default: this one)")
    args = parser.parse_args(argv)
    plans = [("built", True), ("first-use", False)]
    plans = [plan for plan in plans if args.only in (None, plan[0])]
    with tempfile.TemporaryDirectory(prefix="sudokit-first-run-") as work:
        results = [measure(label, args.python, prebuild, Path(work))
                   for label, prebuild in plans]
        for result in results:
            log(f"{result['label']}: the README tour")
            result["tour"] = readme_tour(result, Path(work))
    print("The first ten minutes: install, then the first command of each kernel family")
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}; "
          f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print(format_table(["install", "pip install wall s", "CPU s"],
                       [[r["label"], f"{r['install'][0]:.1f}", f"{r['install'][1]:.1f}"]
                        for r in results], right={1, 2}))
    print()
    headers = ["family", "command"]
    for r in results:
        headers += [f"{r['label']}: wall s", "CPU s", "compiling CPU s", "kernel files"]
    rows = []
    for index, (family, argv, _) in enumerate(TOUR):
        row = [family, _command(argv)]
        for r in results:
            run = r["runs"][index]
            compiling = max(0.0, run["first"][1] - run["second"][1])
            row += [f"{run['first'][0]:.2f}", f"{run['first'][1]:.2f}", f"{compiling:.2f}",
                    str(run["compiled"])]
        rows.append(row)
    print(format_table(headers, rows, right=set(range(2, len(headers)))))
    print()
    for r in results:
        tour = r["tour"]
        print(f"{r['label']}: the README's {tour['commands']} console commands after the rows "
              f"above compiled {tour['compiled']} kernel files; the most CPU one took: "
              f"{tour['most'][0]:.2f} s ({tour['most'][1]})")
    if len(results) == 2:
        same = all(a["first"][2] == b["first"][2]
                   for a, b in zip(results[0]["runs"], results[1]["runs"], strict=True))
        print()
        print(f"outputs of the two installs identical on every command: {same}")


if __name__ == "__main__":
    main()
