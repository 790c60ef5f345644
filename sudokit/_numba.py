"""The package's numba decorator: ``njit(cache=True)`` with a cache that cannot go stale.

numba keys a cached kernel on the source file of that kernel only. A kernel that calls kernels
of other modules is compiled with those callees inside it (the grading engine calls the BC and
HAC kernels, shaving calls the engine), so after an edit to a callee's module the caller's
cached machine code still runs the old callee, silently. On first import this module hashes
every source file of the package and, when the hash differs from the one stored beside the
cache, deletes the package's cache files (``*.nbi``/``*.nbc`` in its ``__pycache__``
folders, or under ``NUMBA_CACHE_DIR`` when that is set) so everything recompiles once.

An installed copy is safe without this (an upgrade rewrites every file, and numba sees each
new file stamp); the guard is for working trees, where a stale kernel once hid a change to the
BC propagator. Hashing the ~80 source files costs a few milliseconds, once per process.

Examples
--------
>>> digest = _sources_digest()          # what the stamp beside the cache holds
>>> len(digest), digest == _sources_digest()
(64, True)
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

__all__ = ["njit"]

_PACKAGE = Path(__file__).resolve().parent
_STAMP = "sudokit-sources.sha256"


def _cache_roots() -> list[Path]:
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:     # numba mirrors the source tree's absolute path below NUMBA_CACHE_DIR
        return [Path(custom) / str(_PACKAGE).lstrip(os.sep)]
    return [_PACKAGE]


def _sources_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        digest.update(str(path.relative_to(_PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _drop_stale_cache() -> None:
    digest = _sources_digest()
    for root in _cache_roots():
        stamp = root / "__pycache__" / _STAMP
        try:
            if stamp.is_file() and stamp.read_text() == digest:
                continue
            for pattern in ("*.nbi", "*.nbc"):
                for stale in root.rglob(pattern):
                    stale.unlink(missing_ok=True)
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.write_text(digest)
        except OSError:
            # A read-only tree: numba cannot write its cache here either (it falls back to a
            # per-user folder, keyed on file stamps an upgrade refreshes), so nothing is stale.
            continue


_drop_stale_cache()

#: ``numba.njit(cache=True)`` for every kernel of the package
njit = numba.njit(cache=True)
