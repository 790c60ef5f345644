"""The package's numba decorator: ``njit(cache=True)`` with a cache that cannot go stale.

numba keys a cached kernel on the source file of that kernel only. A kernel that calls kernels
of other modules is compiled with those callees inside it (the grading engine calls the BC and
HAC kernels, shaving calls the engine), so after an edit to a callee's module the caller's
cached machine code still runs the old callee, silently. On first import this module hashes
every source file a kernel can depend on (the kernel modules and what they import from the
package, :func:`_kernel_sources`) and, when the hash differs from the one stored beside the
cache, deletes the package's cache files (``*.nbi``/``*.nbc`` in its ``__pycache__``
folders, or under ``NUMBA_CACHE_DIR`` when that is set) so everything recompiles once.

An installed copy is safe without this (an upgrade rewrites every file, and numba sees each
new file stamp); the guard is for working trees, where a stale kernel once hid a change to the
BC propagator. The sources are hashed only when some file's size or modification time changed
since the last check (a digest of those is kept beside the stamp); otherwise the check costs
a directory walk, once per process, and only in processes that import a kernel module (the
SAT-only paths of the CLI never import this).

When numba finds no writable cache folder at all (a read-only install for a user whose home
and ``NUMBA_CACHE_DIR`` are not writable either), ``njit(cache=True)`` would raise at import;
:func:`njit` then compiles without the disk cache instead (``cache=False``: every process
compiles the kernels it calls again) and says so once, with :func:`warnings.warn`.

Examples
--------
>>> digest = _sources_digest()          # what the stamp beside the cache holds
>>> len(digest), digest == _sources_digest()
(64, True)
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import warnings
from pathlib import Path

import numba
import numba.core.caching
import numba.core.event

from . import _hooks

__all__ = ["njit"]

_PACKAGE = Path(__file__).resolve().parent
_STAMP = "sudokit-sources.sha256"


def _cache_roots() -> list[Path]:
    """Where numba caches the package's kernels: each source folder's ``__pycache__``, or with
    ``NUMBA_CACHE_DIR`` the folder numba derives from each source folder's path."""
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if not custom:
        return [_PACKAGE]
    folders = sorted({path.parent for path in _PACKAGE.rglob("*.py")})
    subpath = getattr(getattr(numba.core.caching, "_CacheLocator", None),
                      "get_suitable_cache_subpath", None)
    if subpath is None:  # numba before 0.57 mirrored the absolute path
        return [Path(custom) / str(_PACKAGE).lstrip(os.sep)]
    return [Path(custom) / subpath(str(folder / "__init__.py")) for folder in folders]


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


def _kernel_sources() -> list[Path]:
    """The files a cached kernel can depend on: the modules that define kernels (they import
    this module) and, transitively, whatever they import from the package (callees, and
    constants numba freezes into the machine code). An edit elsewhere (the CLI, formats,
    drawing) leaves the cache alone."""
    texts = {path: path.read_bytes() for path in _PACKAGE.rglob("*.py")}
    todo = [path for path, text in texts.items() if b"_numba import" in text]
    seen = set(todo)
    while todo:
        path = todo.pop()
        for dep in _imported_files(path, texts[path]):
            dep = dep.resolve()
            if dep in texts and dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return sorted(seen)


def _sources_digest() -> str:
    digest = hashlib.sha256()
    for path in _kernel_sources():
        digest.update(str(path.relative_to(_PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _files_digest() -> str:
    """A digest of every source file's name, size and modification time: when it matches
    the one stored with the stamp, no file changed since the stamp was checked, and the
    sources need not be read (a few hundred microseconds against ~20 ms)."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        info = path.stat()
        digest.update(f"{path.relative_to(_PACKAGE)}:{info.st_size}:{info.st_mtime_ns};"
                      .encode())
    return digest.hexdigest()


def _drop_stale_cache() -> None:
    files = _files_digest()
    digest = None
    for root in _cache_roots():
        stamp = root / "__pycache__" / _STAMP
        checked = stamp.with_suffix(".files")   # files digest + the stamp it was checked with
        try:
            if (stamp.is_file() and checked.is_file()
                    and checked.read_text() == files + stamp.read_text()):
                continue
            digest = digest or _sources_digest()
            if not (stamp.is_file() and stamp.read_text() == digest):
                for pattern in ("*.nbi", "*.nbc"):
                    for stale in root.rglob(pattern):
                        stale.unlink(missing_ok=True)
                stamp.parent.mkdir(parents=True, exist_ok=True)
                stamp.write_text(digest)
            checked.write_text(files + digest)
        except OSError:
            # A read-only tree: numba cannot write its cache here either (it falls back to a
            # per-user folder, keyed on file stamps an upgrade refreshes), so nothing is stale.
            continue


_drop_stale_cache()


def _target_without_blas_probe() -> None:
    """Set numba's CPU target up now, with ``scipy.linalg`` hidden while it does.

    The first kernel a process calls makes numba load its implementation registries; one of
    them (``numba.np.arraymath``) probes for BLAS by importing ``scipy.linalg``, which takes
    0.2-0.5 s when scipy is installed, more than loading the kernel. The answer only picks
    BLAS for float inner products (``np.dot`` on floats), which no kernel here uses. Only the
    command line does this (:data:`sudokit._hooks.quick_numba_start`): a library leaves the
    probe alone. ``scipy.linalg`` imports normally afterwards.
    """
    if "scipy.linalg" in sys.modules:
        return
    from numba.core.registry import cpu_target

    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]  # import: ImportError
    try:
        cpu_target.target_context.refresh()
    finally:
        if "scipy.linalg" in sys.modules and sys.modules["scipy.linalg"] is None:
            del sys.modules["scipy.linalg"]


def _load_cached_first(self, sig, target_context):
    """numba's ``Cache.load_overload`` for the command line: a kernel found in the disk cache
    is loaded without setting numba's whole target up first.

    numba refreshes its CPU target before every cache lookup, which imports and registers
    every implementation it has (about 0.1 s, the largest part of starting a kernel) although
    a cached kernel is machine code that needs none of them. Here the runtime (NRT: the
    kernels that allocate call it) is set up and the cached kernel loaded; on a miss, or if
    the cached code asks for something not set up, the target is refreshed as numba does
    (without the BLAS probe, :func:`_target_without_blas_probe`) and numba's own lookup runs,
    which then compiles.
    """
    from numba.core.runtime import rtsys

    try:
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            found = self._load_overload(sig, target_context)
        if found is not None:
            return found
    except Exception:  # noqa: BLE001 - anything amiss: numba's own way below decides
        pass
    _target_without_blas_probe()
    return _NUMBA_LOAD_OVERLOAD(self, sig, target_context)


_NUMBA_LOAD_OVERLOAD = numba.core.caching.Cache.load_overload
if _hooks.quick_numba_start:
    numba.core.caching.Cache.load_overload = _load_cached_first  # type: ignore[method-assign]

#: False once numba found no writable cache folder for a kernel (then the rest skip the attempt)
_cache_usable = True
class _CompileNotice(numba.core.event.Listener):
    """Tells :data:`sudokit._hooks.compile_notice` (once per process) that one of the package's
    kernels is being compiled: numba raises ``numba:compile`` only when a kernel is not found
    in the disk cache."""

    def __init__(self) -> None:
        self.given = False

    def on_start(self, event) -> None:
        data = event.data if isinstance(event.data, dict) else {}
        func = getattr(data.get("dispatcher"), "py_func", None)
        module = getattr(func, "__module__", "") or ""
        if self.given or _hooks.compile_notice is None or not module.startswith("sudokit."):
            return
        self.given = True
        _hooks.compile_notice(module)

    def on_end(self, event) -> None:
        return None


numba.core.event.register("numba:compile", _CompileNotice())


def njit(func=None, **options):
    """``numba.njit(cache=True)``, the decorator of every kernel of the package.

    Used as ``@njit`` (or ``@njit(**options)``, passed on to numba). When numba has nowhere to
    write its cache it raises ``RuntimeError`` ("no locator available") as the function is
    decorated; the kernel is then compiled with ``cache=False`` and a warning says so, once per
    process.
    """
    global _cache_usable
    if func is None:
        return lambda f: njit(f, **options)
    if _cache_usable:
        try:
            return numba.njit(cache=True, **options)(func)
        except RuntimeError as err:    # no cache locator: nowhere writable to cache
            _cache_usable = False
            warnings.warn(f"sudokit: no writable numba cache folder ({err}); kernels are "
                          "compiled without the disk cache (cache=False) in this process",
                          RuntimeWarning, stacklevel=2)
    return numba.njit(cache=False, **options)(func)
