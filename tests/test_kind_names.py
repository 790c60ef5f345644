"""Nothing outside the problem registry compares a kind's name.

What a module needs to know about a kind (its family, the options that apply to it, whether it
is read in column chunks or can be graded ...) is a field of its
:class:`~sudokit.problems.ProblemKind`, so that adding a kind is one registry entry. This test
reads every module of the package and fails on a comparison against a kind's name
(``kind == "sudoku"``, ``kind in ("sudoku", "latin")``) and on a table of kind names (a tuple,
list or set of them, a dict keyed by them) outside ``sudokit/problems.py`` and the readers and
writers of the kind's own file format.
"""

from __future__ import annotations

import ast
from pathlib import Path

from click.testing import CliRunner

from sudokit.cli import main
from sudokit.problems import PROBLEMS

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "sudokit"

_GRIDS = frozenset({"sudoku", "latin"})

#: the modules that may name kinds, and which: the registry, and each format's own reader and
#: writer (the .pls reader knows that it reads Latin squares)
ALLOWED: dict[str, frozenset[str]] = {
    "sudokit/problems.py": frozenset(PROBLEMS),
    "sudokit/formats/puzzle_text.py": _GRIDS,
    "sudokit/formats/puzzle_grids.py": _GRIDS,
    "sudokit/formats/puzzle_write.py": _GRIDS,
    "sudokit/formats/columns.py": _GRIDS,
    "sudokit/formats/pls.py": frozenset({"latin"}),
    "sudokit/formats/col.py": frozenset({"coloring"}),
    "sudokit/formats/dimacs.py": frozenset({"cnf"}),
    "sudokit/formats/dlx.py": frozenset({"xc"}),
}

def _names(node: ast.AST) -> list[str] | None:
    """The strings of a string constant or of a tuple, list or set of string constants."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and node.elts and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return None


def kind_names_used(source: str, filename: str = "<string>") -> list[tuple[int, str]]:
    """``(line, code)`` of each comparison against a kind name and each table of kind names
    in ``source``."""
    found = []
    operands: set[int] = set()  # a comparison's tuple is reported with the comparison
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Compare):
            operands.update(id(side) for side in node.comparators)
            sides = [_names(side) or [] for side in (node.left, *node.comparators)]
            hit = any(name in PROBLEMS for side in sides for name in side)
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and id(node) not in operands:
            names = _names(node)
            hit = bool(names) and all(name in PROBLEMS for name in names or ())
        elif isinstance(node, ast.Dict):
            keys = [_names(key) if key is not None else None for key in node.keys]
            hit = bool(keys) and all(key is not None and len(key) == 1 and key[0] in PROBLEMS
                                     for key in keys)
        else:
            continue
        if hit:
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def _named_kinds(code: str) -> set[str]:
    return {name for node in ast.walk(ast.parse(code)) for name in _names(node) or ()
            if name in PROBLEMS}


def test_the_scan_finds_comparisons_and_tables():
    code = ('if kind == "sudoku": pass\nif x.kind not in ("sudoku", "latin"): pass\n'
            'K = ("coloring",)\nD = {"latin": 1}\nok = kind == "grid" or "box" in options\n'
            'call("sudoku", "cnf")\n__all__ = ["sudoku", "latin_square"]\n')
    assert [line for line, _ in kind_names_used(code)] == [1, 2, 3, 4]


def test_no_kind_name_comparison_outside_the_registry():
    offending = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if "prebuilt" in path.parts:
            continue
        allowed = ALLOWED.get(relative, frozenset())
        for line, code in kind_names_used(path.read_text(), relative):
            if not _named_kinds(code) <= allowed:
                offending.append(f"{relative}:{line}: {code}")
    assert not offending, ("compare a ProblemKind field (sudokit/problems.py), not a kind's "
                           "name:\n" + "\n".join(offending))


def test_grade_help_offers_only_gradable_kinds():
    text = CliRunner().invoke(main, ["grade", "--help"]).output
    assert "[sudoku|latin]" in text and "--box" in text and "--variant" in text
    for absent in ("coloring", "cnf", "xc", "--colors", "-k,"):
        assert absent not in text, absent
    solve_help = CliRunner().invoke(main, ["solve", "--help"]).output
    assert "[sudoku|latin|coloring|cnf|xc]" in solve_help and "--colors" in solve_help
