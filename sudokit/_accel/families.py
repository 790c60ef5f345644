"""Which kernel families are compiled for this environment, and a lock for writing caches.

A *family* is the set of kernels one engine or one command uses (``takano``, ``dlx``,
``grading``, ...; the command line's registry, :mod:`sudokit.cli.kernels`, says what runs to
compile each). Once a family has been compiled into a cache folder, a marker file
``families/<name>-<key>.done`` says so, keyed on :func:`~sudokit._accel.sources.
environment_digest` (sources, Python, numba, llvmlite, CPU): a look for a file, instead of
asking numba, tells whether a command would have to compile first.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> root = Path(tempfile.mkdtemp())
>>> is_ready("takano", roots=[root])
False
>>> mark_ready("takano", root)
>>> is_ready("takano", roots=[root])
True
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from . import locations
from .sources import environment_digest

__all__ = ["is_ready", "locked", "mark_ready", "marker"]


def marker(family: str, root: Path) -> Path:
    """The marker file of ``family`` in the cache folder ``root``."""
    return root / "families" / f"{family}-{environment_digest()[:20]}.done"


def _roots() -> list[Path]:
    return [root for root in (locations.prebuilt_root(), locations.user_root()) if root]


def is_ready(family: str, roots: Sequence[Path] | None = None) -> bool:
    """True when ``family`` was compiled for this environment into one of ``roots`` (the
    prebuilt and the user folder)."""
    return any(marker(family, root).is_file() for root in (_roots() if roots is None else roots))


def mark_ready(family: str, root: Path) -> None:
    """Record that ``family`` is compiled into ``root``."""
    folder = locations.make_private_folder(root / "families")
    locations.write_private(folder / marker(family, root).name, b"")


@contextlib.contextmanager
def locked(root: Path) -> Iterator[None]:
    """Hold ``root``'s write lock: processes that compile at once (the prebuild's, a
    background build and a command) write numba's index and data files one at a time, so no
    index can name another signature's data file."""
    handle = os.open(locations.make_private_folder(root) / ".lock",
                     os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o600)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)
