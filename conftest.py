"""Doctests of the modules that need an optional extra skip, with the reason, when it is
missing (``pytest`` runs ``--doctest-modules`` over ``sudokit/`` too; the tests of ``tests/``
mark themselves with :func:`tests.helpers.requires`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import extra_skip_reason

ROOT = Path(__file__).resolve().parent

#: the package modules whose doctests need an extra: path -> (extra, modules it needs)
DOCTEST_EXTRAS = {
    "sudokit/counting/approxmc.py": ("counting", "pyapproxmc"),
    "sudokit/counting/ganak.py": ("counting", "pyganak"),
    "sudokit/draw/raster.py": ("draw", "matplotlib"),
    "sudokit/generators/fill_ilp.py": ("ilp", "highspy"),
    "sudokit/interop/networkx.py": ("interop", "networkx"),
    "sudokit/interop/scipy.py": ("interop", "scipy"),
}


def pytest_collection_modifyitems(config, items):
    for path in DOCTEST_EXTRAS:
        if not (ROOT / path).is_file():
            raise pytest.UsageError(f"conftest.py DOCTEST_EXTRAS names {path}, which is gone")
    try:
        from pytest import DoctestItem
    except ImportError:  # pytest before 8
        from _pytest.doctest import DoctestItem
    for item in items:
        if not isinstance(item, DoctestItem):
            continue
        where = Path(str(item.path)).resolve()
        try:
            key = where.relative_to(ROOT).as_posix()
        except ValueError:
            continue
        if key in DOCTEST_EXTRAS:
            reason = extra_skip_reason(*DOCTEST_EXTRAS[key])
            if reason is not None:
                item.add_marker(pytest.mark.skip(reason=reason))
