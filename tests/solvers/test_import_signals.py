"""A Ctrl-C or SIGTERM that lands while an optional back end's C extension initialises is
held until the import ends, then acts (exit 130/143 on the command line).

Cut into a pybind11 module's initialisation, the interrupt came back as ``ImportError:
initialization failed``, which sudokit reported as "cannot load ortools" (exit 6) in 2 of 6
SIGTERMs to ``count --solver cpsat`` on a loaded machine. Here the signal is raised from
inside the import itself, so it lands there every time.
"""

from __future__ import annotations

import builtins
import importlib
import signal
import types

import pytest

from sudokit.interop import optional_module
from sudokit.solvers import cpsat, ilp


def _interrupted_import(real):
    """An import that gets SIGINT in the middle and turns a KeyboardInterrupt raised there
    into ImportError, as a pybind11 module's init does."""
    def fake(name, *args, **kwargs):
        if name.partition(".")[0] in {"ortools", "highspy", "networkx"}:
            try:
                signal.raise_signal(signal.SIGINT)
                sum(range(1000))   # the handler runs between these bytecodes
            except KeyboardInterrupt:
                raise ImportError("initialization failed") from None
            module = types.ModuleType(name)
            module.cp_model = "cp_model"   # for ``from ortools.sat.python import cp_model``
            return module
        return real(name, *args, **kwargs)
    return fake


@pytest.fixture
def default_sigint():
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("load", [cpsat._cp_model, ilp._highspy], ids=["ortools", "highspy"])
def test_a_signal_during_a_back_end_import_is_an_interrupt(monkeypatch, default_sigint, load):
    monkeypatch.setattr(builtins, "__import__", _interrupted_import(builtins.__import__))
    with pytest.raises(KeyboardInterrupt):
        load()


def test_a_signal_during_an_optional_import_is_an_interrupt(monkeypatch, default_sigint):
    fake = _interrupted_import(importlib.import_module)
    monkeypatch.setattr(importlib, "import_module", fake)
    with pytest.raises(KeyboardInterrupt):
        optional_module("networkx", "draw")
