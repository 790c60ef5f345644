"""Installed size per extra: what ``pip install sudokit[extra]`` puts on disk, and how long.

For the base install and each extra of ``pyproject.toml`` (default: ilp, cp, interop, draw,
counting, dask, all, test) the script creates a fresh virtual environment in a temporary
folder (``sys.executable -m venv``, so with the pip that ships with this Python) and runs
``pip install "<checkout>[extra]"`` in it with ``SUDOKIT_PREBUILD=0``, which skips compiling
the numba kernels into the wheel (that changes no dependency, only sudokit's own size and the
time). Each install builds from a clean copy of this checkout (no ``.git``, ``build/``,
``*.egg-info`` or ``__pycache__``), so a stale ``build/`` cannot leak compiled kernels into the
wheel and the checkout is left as it was. pip's download cache is the user's usual one, so
the first run downloads and later runs install from the cache: install times are indicative.

Sizes are apparent sizes (the sum of ``st_size``, symbolic links not followed) in MB of
1,000,000 bytes. A distribution's size is the sum over the files its ``*.dist-info/RECORD``
lists that lie inside site-packages (console scripts in ``bin/`` are left out, as they are
from the site-packages total).

Printed, one row per install: the total size of site-packages, the size added over the base
install, the three largest distributions the extra adds (present in its environment but not in
the base one) and the wall time of ``pip install``. Then the size of an empty venv's
site-packages (pip and what comes with it), the size of numba and llvmlite in the base install
(what a plain ``solve`` would save without them), the kernels that a normal ``pip install
<checkout>`` compiles into ``sudokit/_accel/prebuilt`` (one more venv, measured once, skipped
with ``--skip-prebuilt``), and for each extra every added distribution of at least 1 MB with
its version. Progress goes to stderr. The temporary venvs are removed at the end, also on an
error or Ctrl-C, unless ``--keep`` is given (then their paths are printed).

Run::

    python benchmarks/install_size.py                   # about 12 minutes on 2 shared cores
    python benchmarks/install_size.py --only cp dask    # base + two extras
    python benchmarks/install_size.py --only draw --skip-prebuilt --keep

Standard library only: it runs with any Python >= 3.10 and does not need sudokit installed.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_EXTRAS = ["ilp", "cp", "interop", "draw", "counting", "dask", "all", "test"]
MB = 1_000_000
# left out of the clean copy of the checkout each install builds from
IGNORE = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__",
                                ".venv", ".pytest_cache", ".hypothesis", ".mypy_cache",
                                ".ruff_cache", "prebuilt")


def log(*parts) -> None:
    """Progress to stderr (the tables go to stdout)."""
    print(*parts, file=sys.stderr, flush=True)


def format_table(headers: list[str], rows: list[list], right: set[int]) -> str:
    """A plain-text table; the columns in ``right`` align right."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]

    def fmt(row):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([fmt(cells[0]), rule] + [fmt(r) for r in cells[1:]])


def declared_extras() -> list[str]:
    """The names under ``[project.optional-dependencies]`` of pyproject.toml."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib
    except ImportError:  # Python 3.10: the keys of that one table, read by hand
        section = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
        return re.findall(r"^([A-Za-z0-9_.-]+)\s*=", section, flags=re.MULTILINE)
    return list(tomllib.loads(text)["project"].get("optional-dependencies", {}))


def normalise(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def file_size(path: Path) -> int:
    try:
        return os.lstat(path).st_size
    except OSError:
        return 0


def tree_size(folder: Path) -> int:
    """Apparent size of every file below ``folder`` (links counted as links)."""
    total = 0
    for base, dirs, files in os.walk(folder):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(base, d))]:
            total += file_size(Path(base, name))
    return total


def distributions(site: Path) -> dict[str, tuple[str, str, int]]:
    """normalised name -> (name, version, bytes inside site-packages), from each RECORD."""
    found = {}
    site = site.resolve()
    for info in sorted(site.glob("*.dist-info")):
        name = version = None
        metadata = info / "METADATA"
        if metadata.is_file():
            for line in metadata.read_text(encoding="utf-8", errors="replace").splitlines():
                if not line:
                    break
                key, _, value = line.partition(": ")
                if key == "Name":
                    name = value.strip()
                elif key == "Version":
                    version = value.strip()
        if name is None:
            name, _, version = info.name[:-len(".dist-info")].partition("-")
        files = set()
        record = info / "RECORD"
        if record.is_file():
            with open(record, encoding="utf-8", errors="replace", newline="") as handle:
                for row in csv.reader(handle):
                    if row and row[0]:
                        path = Path(os.path.normpath(site / row[0]))
                        if path.is_relative_to(site):
                            files.add(path)
        else:  # no RECORD (not installed by pip): the dist-info folder alone
            files.update(p for p in info.iterdir())
        found[normalise(name)] = (name, version or "?", sum(file_size(p) for p in files))
    return found


class Venv:
    """A fresh virtual environment in a temporary folder, with pip."""

    def __init__(self, parent: Path, label: str):
        self.folder = Path(tempfile.mkdtemp(prefix=f"{label}-", dir=parent))
        subprocess.run([sys.executable, "-m", "venv", str(self.folder / "venv")], check=True)
        self.python = str(self.folder / "venv" / ("Scripts" if os.name == "nt" else "bin")
                          / "python")
        self.site = Path(subprocess.run(
            [self.python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True, capture_output=True, text=True).stdout.strip())

    def install(self, extra: str | None, prebuild: bool) -> tuple[float, bool, str]:
        """``pip install "<clean copy>[extra]"``: wall seconds, success, pip's output tail."""
        source = self.folder / "sudokit-src"
        shutil.copytree(ROOT, source, ignore=IGNORE)
        target = str(source) + (f"[{extra}]" if extra else "")
        env = dict(os.environ, SUDOKIT_PREBUILD="1" if prebuild else "0",
                   PIP_DISABLE_PIP_VERSION_CHECK="1")
        for variable in ("SUDOKIT_CACHE_DIR", "PYTHONPATH", "PIP_REQUIRE_VIRTUALENV"):
            env.pop(variable, None)
        start = time.monotonic()
        done = subprocess.run([self.python, "-m", "pip", "install", target], env=env,
                              capture_output=True, text=True, cwd=self.folder)
        seconds = time.monotonic() - start
        shutil.rmtree(source, ignore_errors=True)
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        return seconds, done.returncode == 0, tail


def mb(size: int) -> str:
    return f"{size / MB:.1f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    known = declared_extras()
    parser.add_argument("--only", nargs="+", metavar="EXTRA", choices=known,
                        help="measure these extras only (the base install is always measured; "
                             f"default: {' '.join(DEFAULT_EXTRAS)}; any of {', '.join(known)})")
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary venvs for inspection and print their paths")
    parser.add_argument("--skip-prebuilt", action="store_true",
                        help="do not measure the kernels a normal install compiles (one venv "
                             "and about two minutes less)")
    args = parser.parse_args(argv)
    extras = args.only or [e for e in DEFAULT_EXTRAS if e in known]

    parent = Path(tempfile.mkdtemp(prefix="sudokit-install-size-"))
    log(f"temporary venvs in {parent}")
    results = {}  # label -> (seconds, ok, site-packages bytes, distributions)
    prebuilt = None
    try:
        empty = Venv(parent, "empty")
        empty_size = tree_size(empty.site)
        empty_dists = distributions(empty.site)
        if not args.keep:
            shutil.rmtree(empty.folder, ignore_errors=True)
        for extra in [None, *extras]:
            label = "base" if extra is None else extra
            log(f"{label}: new venv, pip install .{'' if extra is None else f'[{extra}]'}")
            venv = Venv(parent, label)
            seconds, ok, tail = venv.install(extra, prebuild=False)
            if not ok:
                log(f"{label}: pip install failed after {seconds:.0f} s:\n{tail}")
            results[label] = (seconds, ok, tree_size(venv.site), distributions(venv.site))
            log(f"{label}: {mb(results[label][2])} MB in {seconds:.0f} s")
            if not args.keep:
                shutil.rmtree(venv.folder, ignore_errors=True)
        if not args.skip_prebuilt:
            log("prebuilt: new venv, pip install . (compiling the kernels, a minute or two)")
            venv = Venv(parent, "prebuilt")
            seconds, ok, tail = venv.install(None, prebuild=True)
            if not ok:
                log(f"prebuilt: pip install failed after {seconds:.0f} s:\n{tail}")
            folder = venv.site / "sudokit" / "_accel" / "prebuilt"
            files = [p for p in folder.rglob("*") if p.is_file()] if folder.is_dir() else []
            prebuilt = (seconds, ok, tree_size(folder) if folder.is_dir() else 0, len(files),
                        tree_size(venv.site))
            log(f"prebuilt: {mb(prebuilt[2])} MB of kernels in {seconds:.0f} s")
            if not args.keep:
                shutil.rmtree(venv.folder, ignore_errors=True)
    finally:
        if args.keep:
            log(f"venvs kept in {parent}")
        else:
            shutil.rmtree(parent, ignore_errors=True)

    base_seconds, base_ok, base_size, base_dists = results["base"]
    print("Installed size per extra: pip install \"<checkout>[extra]\" into a fresh venv, "
          "SUDOKIT_PREBUILD=0")
    print(f"python {platform.python_version()}, {os.cpu_count()} CPUs, {platform.machine()}, "
          f"{platform.system()}; pip of the venv: "
          f"{empty_dists.get('pip', ('pip', '?', 0))[1]}; "
          f"{time.strftime('%Y-%m-%d')}; load average "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    headers = ["extra", "site-packages MB", "added MB", "largest added (MB)", "install s"]
    rows = []
    for label, (seconds, ok, size, dists) in results.items():
        added = sorted((d for key, d in dists.items() if key not in base_dists),
                       key=lambda d: -d[2])
        largest = ", ".join(f"{name} {mb(size_)}" for name, _, size_ in added[:3])
        rows.append([label + ("" if ok else " (FAILED)"), mb(size),
                     "-" if label == "base" else f"+{mb(size - base_size)}",
                     "-" if label == "base" else (largest or "(none)"), f"{seconds:.0f}"])
    print(format_table(headers, rows, right={1, 2, 4}))
    print()
    print(f"an empty venv's site-packages (pip etc., in every row): {mb(empty_size)} MB")
    heavy = [base_dists[k] for k in ("numba", "llvmlite") if k in base_dists]
    heavy_size = sum(d[2] for d in heavy)
    print(f"numba + llvmlite in the base install: {mb(heavy_size)} MB "
          f"({', '.join(f'{n} {v}: {mb(s)} MB' for n, v, s in heavy)}), "
          f"{100 * heavy_size / max(base_size - empty_size, 1):.0f}% of what the base install "
          "adds to an empty venv")
    biggest = sorted(base_dists.values(), key=lambda d: -d[2])[:6]
    print("largest distributions of the base install: "
          + ", ".join(f"{n} {v} {mb(s)}" for n, v, s in biggest))
    if prebuilt is not None:
        seconds, ok, size, count, total = prebuilt
        print(f"kernels compiled by a normal pip install (sudokit/_accel/prebuilt): {mb(size)} MB "
              f"in {count} files; that install took {seconds:.0f} s"
              f"{'' if ok else ' and FAILED'} (site-packages {mb(total)} MB)")
    print()
    print("every distribution of at least 1 MB that an extra adds over the base install:")
    for label, (_, _, _, dists) in results.items():
        if label == "base":
            continue
        added = sorted((d for key, d in dists.items() if key not in base_dists),
                       key=lambda d: -d[2])
        big = [f"{n} {v} {mb(s)}" for n, v, s in added if s >= MB]
        small = sum(s for _, _, s in added if s < MB)
        rest = sum(1 for _, _, s in added if s < MB)
        print(f"  {label}: {', '.join(big) or '(none)'}"
              + (f"; {rest} smaller, {mb(small)} MB together" if rest else ""))
    return 0 if all(r[1] for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
