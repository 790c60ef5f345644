"""The stamp of the compiled kernels: one digest of every source file a kernel can depend on.

A kernel that calls kernels of other modules is compiled with those callees inside it, and
numba freezes the constants a kernel imports into its machine code, so a kernel is stale when
any of those files changes, not only its own. Numba-free, so that the object files of
:mod:`sudokit._accel.native` can be keyed without importing numba.

Examples
--------
>>> digest = sources_digest()
>>> len(digest), digest == sources_digest()
(64, True)
>>> "solvers/takano.py" in {p.relative_to(PACKAGE).as_posix() for p in kernel_sources()}
True
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import re
import sys
from pathlib import Path

from . import locations

__all__ = ["PACKAGE", "environment_digest", "kernel_sources", "sources_digest"]

PACKAGE = Path(__file__).resolve().parent.parent

_RELATIVE_IMPORT = re.compile(rb"^\s*from\s+(\.+)([\w.]*)\s+import\s+\(?([\w, ]*)",
                              re.MULTILINE)


def _imported_files(path: Path, text: bytes) -> list[Path]:
    """The package's files that ``path`` imports relatively (a module, or a package's
    ``__init__`` and the submodules named in ``from . import a, b``)."""
    found = []
    for dots, name, names in _RELATIVE_IMPORT.findall(text):
        base = path.parent
        for _ in range(len(dots) - 1):
            base = base.parent
        target = base.joinpath(*name.decode().split(".")) if name else base
        candidates = [target.with_suffix(".py"), target / "__init__.py"]
        candidates += [target / f"{part.strip()}.py" for part in names.decode().split(",")]
        found += [c for c in candidates if c.is_file()]
    return found


def _package_files() -> list[Path]:
    """The package's Python files, but this folder's (no kernel code here); ``os.walk``,
    several times faster than ``Path.rglob`` on the ~150 files."""
    found = []
    for folder, subfolders, names in os.walk(PACKAGE):
        subfolders[:] = [name for name in subfolders
                         if name not in ("_accel", "__pycache__", "prebuilt")]
        found += [Path(folder, name) for name in names if name.endswith(".py")]
    return sorted(found)


def kernel_sources() -> list[Path]:
    """The files a cached kernel can depend on: the modules that define kernels (they import
    :func:`njit`) and, transitively, whatever they import from the package (callees, and
    constants numba freezes into the machine code). An edit elsewhere (the CLI, formats,
    drawing) leaves the cache alone."""
    texts = {path: path.read_bytes() for path in _package_files()}
    todo = [path for path, text in texts.items() if b"numba_cache import njit" in text]
    seen = set(todo)
    while todo:
        path = todo.pop()
        for dep in _imported_files(path, texts[path]):
            dep = dep.resolve()
            if dep in texts and dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return sorted(seen)


def _content_digest() -> str:
    digest = hashlib.sha256()
    for path in kernel_sources():
        digest.update(path.relative_to(PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.cache
def sources_digest() -> str:
    """The stamp of every kernel: a digest of :func:`kernel_sources` (names and contents),
    once per process.

    Reading and digesting the sources takes 20-70 ms, a tenth of a short command, so the
    digest is kept in the user's cache folder under a name made of every package file's
    path, size and modification time (a few milliseconds of ``stat``): while no file
    changes, a process reads one small file instead.
    """
    files = hashlib.sha256()
    for path in _package_files():
        info = path.stat()
        files.update(f"{path}:{info.st_size}:{info.st_mtime_ns};".encode())
    root = locations.user_root()
    memo = None if root is None else root / "sources" / files.hexdigest()[:32]
    if memo is not None:
        try:
            known = locations.read_private(memo).decode()
            if len(known) == 64:
                return known
        except (OSError, UnicodeDecodeError):
            pass
    digest = _content_digest()
    if memo is not None:
        try:
            locations.make_private_folder(memo.parent)
            locations.write_private(memo, digest.encode())
        except OSError:
            pass   # a read-only cache: computed again next time
    return digest


@functools.cache
def environment_digest() -> str:
    """What compiled code depends on besides the sources: the kernels' sources, Python, numba
    and llvmlite (numba found, not imported), and the CPU (name and features), as one digest
    (once per process)."""
    import llvmlite
    import llvmlite.binding as llvm

    digest = hashlib.sha256(sources_digest().encode())
    numba_spec = importlib.util.find_spec("numba")
    version = (Path(numba_spec.origin).with_name("_version.py")
               if numba_spec is not None and numba_spec.origin else None)
    digest.update(version.read_bytes() if version is not None and version.is_file() else b"")
    digest.update(f"{sys.version}|{llvmlite.__version__}|{llvm.get_host_cpu_name()}|"
                  f"{llvm.get_host_cpu_features().flatten()}".encode())
    return digest.hexdigest()
