"""Where compiled kernels are kept, and which of those places may be trusted.

Two places hold compiled kernels (numba's cache files, the object files of
:mod:`sudokit._accel.native`, and the markers of :mod:`sudokit._accel.families`):

* the **prebuilt** folder, ``sudokit/_accel/prebuilt`` inside the installed package, written
  when ``pip install`` builds the package (``setup.py``), read-only afterwards and recorded in
  the wheel, so ``pip uninstall`` removes it;
* the **user** folder, where kernels compiled at run time go: ``$SUDOKIT_CACHE_DIR``, else
  ``$NUMBA_CACHE_DIR/sudokit``, else ``$XDG_CACHE_HOME/sudokit`` (``~/.cache/sudokit``).
  Nothing is ever written inside the installed package at run time.

Loading a kernel runs its machine code, so a cache must be as private as an ssh key: a folder
or file is used only when it is owned by the current user (or, for the prebuilt folder, by
root) and nobody else may write it (:func:`is_private`). Folders are created 0700 and files
0600, written to a fresh name with ``O_EXCL | O_NOFOLLOW`` and renamed into place
(:func:`write_private`), and read through ``O_NOFOLLOW`` with the opened file's owner and mode
checked (:func:`read_private`). A user folder that fails the check is refused with one warning
and a private folder under the system's temporary folder (``sudokit-<uid>``) takes its place;
when none can be had, kernels are compiled in memory on every run, and the warning says so.

Examples
--------
>>> import os, stat, tempfile
>>> folder = tempfile.mkdtemp()
>>> write_private(os.path.join(folder, "k.bin"), b"code")
>>> read_private(os.path.join(folder, "k.bin"))
b'code'
>>> stat.S_IMODE(os.stat(os.path.join(folder, "k.bin")).st_mode) == 0o600
True
"""

from __future__ import annotations

import functools
import os
import stat
import uuid
import warnings
from pathlib import Path

__all__ = ["PREBUILT", "UntrustedCache", "is_private", "make_private_folder", "read_private",
           "user_root", "write_private"]

#: the folder ``pip install`` fills (see ``setup.py``); absent in a working tree
PREBUILT = Path(__file__).resolve().parent / "prebuilt"


class UntrustedCache(OSError):
    """A cache folder or file another user could have written."""


def is_private(info: os.stat_result, allow_root: bool = False) -> bool:
    """True when a file or folder with this ``stat`` belongs to the current user (or to root,
    with ``allow_root``) and neither its group nor others may write it."""
    owners = {os.geteuid(), 0} if allow_root else {os.geteuid()}
    return info.st_uid in owners and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def make_private_folder(path: Path, allow_root: bool = False) -> Path:
    """``path`` as a folder only this user can write, created 0700 where missing (with its
    missing parents, also 0700); :class:`UntrustedCache` when it exists and is not private."""
    missing = []
    for folder in (path, *path.parents):
        if os.path.lexists(folder):
            break
        missing.append(folder)
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            pass
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode) or not is_private(info, allow_root):
        raise UntrustedCache(f"{path} is not a folder owned by this user that only it can "
                             "write")
    return path


def read_private(path: str | os.PathLike[str], allow_root: bool = False) -> bytes:
    """The bytes of ``path``, which must be a regular file (not a link) that
    :func:`is_private` accepts; :class:`UntrustedCache` otherwise (FileNotFoundError where it
    does not exist)."""
    handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(handle, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode) or not is_private(info, allow_root):
            raise UntrustedCache(f"{path} may have been written by another user")
        return file.read()


def write_private(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: to a new private file (0600, never
    through a link) beside it, then renamed over it."""
    temporary = f"{os.fspath(path)}.tmp.{uuid.uuid4().hex[:16]}"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    handle = os.open(temporary, flags, 0o600)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _configured_root() -> Path:
    for variable, below in (("SUDOKIT_CACHE_DIR", ""), ("NUMBA_CACHE_DIR", "sudokit")):
        value = os.environ.get(variable)
        if value:
            return Path(value, below) if below else Path(value)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base, "sudokit")


@functools.cache
def user_root() -> Path | None:
    """The user folder for kernels compiled at run time (see the module), made private, or
    None when no private folder can be had (then nothing is cached on disk). Once per
    process, so a warning is given once."""
    configured = _configured_root()
    try:
        return make_private_folder(configured)
    except OSError as err:
        reason = err
    import tempfile  # 20 ms of imports: only when the configured folder cannot serve

    fallback = Path(tempfile.gettempdir(), f"sudokit-{os.geteuid()}")
    try:
        found = make_private_folder(fallback)
    except OSError:
        warnings.warn(f"sudokit: no private kernel cache folder ({configured}: {reason}); "
                      "every run compiles the kernels it uses again (set SUDOKIT_CACHE_DIR to "
                      "a folder of your own)", RuntimeWarning, stacklevel=2)
        return None
    warnings.warn(f"sudokit: cannot use the kernel cache folder {configured} ({reason}); "
                  f"using {fallback} instead", RuntimeWarning, stacklevel=2)
    return found


def prebuilt_root() -> Path | None:
    """The prebuilt folder when it is there and trustworthy (owned by this user or root,
    writable by nobody else), else None."""
    try:
        info = os.lstat(PREBUILT)
    except OSError:
        return None
    if stat.S_ISDIR(info.st_mode) and is_private(info, allow_root=True):
        return PREBUILT
    return None
