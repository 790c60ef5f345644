"""How the kernels behave in the command line's process, switched on by one call.

A library leaves numba as it is. The command line enters :func:`command_line` around each
command, and inside it:

* a kernel found in a cache is loaded without setting numba's whole target up first, and
  numba's probe for BLAS (which imports ``scipy.linalg``, 0.2-0.5 s) is skipped
  (:func:`refresh_target_without_blas_probe`): no kernel multiplies float matrices;
* the numba-free copies of :mod:`sudokit._accel.native` are built after numba ran a kernel;
* ``notice(module, started)`` hears when a kernel of ``module`` starts and ends compiling in
  this process (the command line says so on stderr);
* ``prepare(family)`` is called before an engine or a command uses a kernel family that is
  not compiled yet (:func:`prepare`; the command line compiles it in a child process that its
  time limit and Ctrl-C can stop), and :func:`ready` tells whether one is.

The previous state is restored on leaving, so a test that runs a command in-process leaves
the library as it found it.

Examples
--------
>>> active()
False
>>> with command_line():
...     active()
True
>>> active()
False
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

from .families import is_ready

__all__ = ["active", "command_line", "compiling", "prepare", "ready",
           "refresh_target_without_blas_probe"]

Notice = Callable[[str, bool], None]
Preparer = Callable[[str], None]

_active = False
_notice: Notice | None = None
_preparer: Preparer | None = None


def active() -> bool:
    """True inside :func:`command_line`."""
    return _active


@contextlib.contextmanager
def command_line(notice: Notice | None = None,
                 preparer: Preparer | None = None) -> Iterator[None]:
    """The command line's behaviour of the kernels (see the module), until the block ends."""
    global _active, _notice, _preparer
    previous = _active, _notice, _preparer
    _active, _notice, _preparer = True, notice, preparer
    try:
        yield
    finally:
        _active, _notice, _preparer = previous


def prepare(family: str | None) -> None:
    """Before kernels of ``family`` run: in the command line, have them compiled unless they
    are (see the module); elsewhere nothing (numba compiles on first call, as usual)."""
    if _active and _preparer is not None and family is not None and not ready(family):
        _preparer(family)


def ready(family: str | None) -> bool:
    """Whether ``family``'s kernels are compiled for this environment (always True outside
    the command line, where numba compiles on first call as a library user expects)."""
    if not _active or family is None:
        return True
    return is_ready(family)


def compiling(module: str, started: bool) -> None:
    """Called as a kernel of ``module`` starts (``started``) and ends compiling."""
    if _notice is not None:
        _notice(module, started)


def refresh_target_without_blas_probe() -> None:
    """Set numba's CPU target up now, with ``scipy.linalg`` hidden while it does.

    Setting the target up makes numba load its implementation registries; one of them
    (``numba.np.arraymath``) probes for BLAS by importing ``scipy.linalg``, which takes 0.2-0.5
    s when scipy is installed. The answer only picks BLAS for float inner products, which no
    kernel here uses. ``scipy.linalg`` imports normally afterwards.
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
