"""The tests mirror the package: a folder of tests per subpackage of ``sudokit`` (``accel``
for ``sudokit/_accel``), project-wide tests at the top, and no test module importing another
(shared pieces live in ``helpers.py`` or a folder's non-test module)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS.parent / "sudokit"


def test_every_test_folder_is_a_subpackage_of_sudokit():
    folders = sorted(p.name for p in TESTS.iterdir()
                     if p.is_dir() and not p.name.startswith((".", "_")))
    for folder in folders:
        source = PACKAGE / ("_accel" if folder == "accel" else folder)
        assert (source / "__init__.py").is_file(), f"tests/{folder}/ mirrors no subpackage"
        assert (TESTS / folder / "__init__.py").is_file()
    assert {"batch", "cli", "formats", "solvers", "generators"} <= set(folders)


def test_no_test_module_imports_another():
    offending = []
    for path in sorted(TESTS.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                names = [node.module.split(".")[-1]]
            elif isinstance(node, ast.Import):
                names = [alias.name.split(".")[-1] for alias in node.names]
            else:
                continue
            offending += [f"{path.relative_to(TESTS)}: {name}" for name in names
                          if name.startswith("test_")]
    assert not offending, offending
