"""How much memory an encoding needs, and how much this machine has, before anything is built.

An empty 1000x1000 Sudoku in the extended encoding has 1.5e12 clauses: building it would
exhaust any machine after minutes. The encoders estimate the size of what they are about to
build from the shape of the instance alone (no array of its size is made) and refuse with
:class:`~sudokit.errors.ResourceError` when it cannot fit, naming a smaller choice.

Examples
--------
>>> size = Size(variables=729, clauses=11988, literals=26244)
>>> size.bytes > 26244 * 4, format_bytes(3 * 2**30)
(True, '3.0 GiB')
>>> available_memory() > 0
True
"""

from __future__ import annotations

import os
import shutil
import stat
from dataclasses import dataclass

from .errors import ResourceError

__all__ = ["LARGE_OUTPUT", "Size", "available_memory", "check_disk", "check_fits",
           "format_bytes"]

#: bytes of output above which a command asks for ``--force`` before writing a file
LARGE_OUTPUT = 1 << 30

#: bytes per literal and per clause held at once while a formula is built and loaded: the
#: int32 blocks (4 per literal), the solver's own copy (~8 per literal, ~24 per clause);
#: calibrated on CaDiCaL loading the 64x64 extended formula (33 M clauses, about 3.4 GB)
BYTES_PER_LITERAL = 12
BYTES_PER_CLAUSE = 24
#: bytes per entry of an exact cover (CSR item, five DLX link arrays, names not made)
BYTES_PER_ENTRY = 24


@dataclass(frozen=True)
class Size:
    """The size of a formula (or, with ``entries``, an exact cover) before it is built."""

    variables: int = 0
    clauses: int = 0
    literals: int = 0
    entries: int = 0

    @property
    def bytes(self) -> int:
        return (BYTES_PER_LITERAL * self.literals + BYTES_PER_CLAUSE * self.clauses
                + 4 * self.variables + BYTES_PER_ENTRY * self.entries)

    def __add__(self, other: Size) -> Size:
        return Size(self.variables + other.variables, self.clauses + other.clauses,
                    self.literals + other.literals, self.entries + other.entries)


def available_memory() -> int:
    """Bytes of memory this process may still use: ``MemAvailable`` on Linux, else the free
    physical pages."""
    try:
        with open("/proc/meminfo") as info:
            for line in info:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (OSError, ValueError, AttributeError):
        return 1 << 62  # unknown: do not refuse


def format_bytes(count: float) -> str:
    """``1.5 GiB`` and the like."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if count < 1024 or unit == "PiB":
            return f"{count:.1f} {unit}" if unit != "B" else f"{int(count)} B"
        count /= 1024
    raise AssertionError("unreachable")


def check_fits(size: Size, what: str, limit: int | None = None, instead: str = "") -> None:
    """Raise :class:`ResourceError` if ``size`` needs more than ``limit`` bytes (default: the
    available memory); ``instead`` names a smaller choice."""
    allowed = available_memory() if limit is None else int(limit)
    if size.bytes <= allowed:
        return
    counts = (f"{size.clauses:,} clauses" if size.clauses else f"{size.entries:,} entries")
    raise ResourceError(f"{what} needs about {format_bytes(size.bytes)} ({counts}) but "
                        f"{format_bytes(allowed)} is allowed"
                        + (f"; {instead}" if instead else ""))


def check_disk(size: int, path: str | None, what: str, force: bool = False,
               instead: str = "") -> None:
    """Refuse (:class:`ResourceError`) to write ``size`` bytes of ``what`` to ``path`` when
    its file system has less room, or, without ``force``, when it is above
    :data:`LARGE_OUTPUT`; ``instead`` names a smaller choice. ``path`` None or ``-`` is
    standard output, checked only when it is a file (a pipe is the reader's business).

    Examples
    --------
    >>> check_disk(10, None, "a tiny formula")
    """
    free = _free_space(path)
    if free is None:
        return
    hint = f"; {instead}" if instead else ""
    if size > free:
        raise ResourceError(f"{what} would take about {format_bytes(size)} but "
                            f"{_target(path)} has {format_bytes(free)} free{hint}")
    if size > LARGE_OUTPUT and not force:
        raise ResourceError(f"{what} would take about {format_bytes(size)} of disk; add "
                            f"--force to write it{hint}")


def _free_space(path: str | None) -> int | None:
    """Free bytes where ``path`` would be written; None when that is not a file."""
    if path is None or path == "-":
        try:
            if not stat.S_ISREG(os.fstat(1).st_mode):
                return None
            info = os.fstatvfs(1)
        except OSError:
            return None
        return info.f_bavail * info.f_frsize
    try:
        return shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free
    except OSError:
        return None   # a missing folder: the writer says so


def _target(path: str | None) -> str:
    return "standard output's file system" if path in (None, "-") else f"the disk of {path}"
