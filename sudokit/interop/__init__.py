"""Conversions to and from the libraries people already use: networkx, PySAT and scipy.

- :mod:`~sudokit.interop.networkx`: every problem as a :class:`networkx.Graph` (the Sudoku
  graph, the rook's graph of a Latin square, a precoloring's own graph) with the givens as
  node attributes (:func:`~sudokit.interop.networkx.to_networkx`), and precoloring
  extension on any networkx graph (:func:`~sudokit.interop.networkx.from_networkx`).
- :mod:`~sudokit.interop.pysat`: a :class:`~sudokit.cnf.CNF` (or an encoding) as a
  ``pysat.formula.CNF`` and back (:func:`~sudokit.interop.pysat.to_pysat`,
  :func:`~sudokit.interop.pysat.from_pysat`), a block of clauses at a time (no Python loop
  over clauses).
- :mod:`~sudokit.interop.scipy`: an :class:`~sudokit.exact_cover.ExactCover` (or an
  encoding) as a ``scipy.sparse.csr_array`` (its option arrays already are CSR) and back
  (:func:`~sudokit.interop.scipy.to_scipy`, :func:`~sudokit.interop.scipy.from_scipy`).

networkx and scipy are optional: ``pip install "sudokit[interop]"`` installs both. A missing
one is a :class:`~sudokit.errors.MissingExtraError` naming that command. PySAT is a
dependency of sudokit itself. The converters are functions here, above the types they
convert (as networkx keeps its own), so no model class imports them; ``sudokit`` exports
them (``sudokit.to_networkx(puzzle)``, ``sudokit.to_pysat(encoded)``, ...).

Examples
--------
>>> optional_module("json", "interop").__name__
'json'
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from .._signals import signals_deferred
from ..errors import MissingExtraError

__all__ = ["INSTALL", "optional_module"]

#: the install command of each optional extra this package uses
INSTALL = {"interop": 'pip install "sudokit[interop]"', "draw": 'pip install "sudokit[draw]"'}


def optional_module(module: str, extra: str) -> ModuleType:
    """Import ``module`` of the optional extra ``extra``, or raise one clean line naming the
    install command (:class:`~sudokit.errors.MissingExtraError`, exit code 6 on the command
    line, as for the optional solver back ends)."""
    top = module.partition(".")[0]
    try:
        with signals_deferred():  # a signal cut into a C extension's init reads as ImportError
            return importlib.import_module(module)
    except ImportError as err:
        if _missing(top):
            raise MissingExtraError(f"this needs {top}, which is not installed: "
                                    f"{INSTALL[extra]}") from None
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise MissingExtraError(f"cannot load {top} ({reason}); reinstall it: "
                                f"{INSTALL[extra]}") from None


def _missing(top: str) -> bool:
    """Whether ``top`` is not installed at all (as opposed to installed but failing)."""
    try:
        return importlib.util.find_spec(top) is None
    except (ValueError, AttributeError):  # sys.modules holds None or a module without spec
        return False
