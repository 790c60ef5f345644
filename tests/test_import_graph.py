"""Every import arrow points down: no import cycle, the library never imports the CLI, and no
module takes another module's private name.

The graph counts every ``import`` and ``from ... import`` anywhere in a module: at the top,
inside functions (the lazy imports that would otherwise hide a cycle) and under
``if TYPE_CHECKING:``. Importing ``a.b.c`` also imports the packages ``a.b`` and ``a`` (their
``__init__`` runs first), so it counts as an arrow to each of them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "sudokit"
#: the entry point of ``python -m sudokit``: the one module outside the CLI that may import it
ENTRY_POINT = "sudokit.__main__"


def _modules() -> dict[str, Path]:
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        if "prebuilt" in path.parts:
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _targets(module: str, path: Path, node: ast.ImportFrom, modules: dict[str, Path]) -> list[str]:
    """The modules a ``from ... import`` names: ``from p import m`` is module ``p.m`` when that
    is a module, else package (or module) ``p``."""
    if node.level == 0:
        if not node.module or node.module.split(".")[0] != "sudokit":
            return []
        base = node.module
    else:
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        package = package[:len(package) - (node.level - 1)]
        base = ".".join(package + (node.module.split(".") if node.module else []))
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
            for alias in node.names]


def import_graph() -> dict[str, dict[str, int]]:
    """``{module: {imported module: line of the first such import}}`` within sudokit."""
    modules = _modules()
    edges: dict[str, dict[str, int]] = {name: {} for name in modules}
    for module, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                targets = _targets(module, path, node, modules)
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                continue
            for target in targets:
                if target not in modules or target == module:
                    continue
                edges[module].setdefault(target, node.lineno)
                parts = target.split(".")
                for depth in range(2, len(parts)):  # the packages above it, but not our own
                    package = ".".join(parts[:depth])
                    if package in modules and not (module + ".").startswith(package + "."):
                        edges[module].setdefault(package, node.lineno)
    return edges


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _describe(component: list[str], edges: dict[str, dict[str, int]]) -> str:
    inside = set(component)
    lines = [f"{len(component)} modules import each other: {', '.join(component)}"]
    lines += [f"    {source} -> {target}  ({_where(source)}:{line})"
              for source in component for target, line in sorted(edges[source].items())
              if target in inside]
    return "\n".join(lines)


def _where(module: str) -> str:
    return str(_modules()[module].relative_to(ROOT))


def test_the_graph_sees_function_level_and_parent_package_imports():
    edges = import_graph()
    # a function-level import (sat_fill opens an engine from the registry)
    assert "sudokit.solvers.registry" in edges["sudokit.generators.grids"]
    # importing sudokit.solvers.registry runs sudokit/solvers/__init__.py first
    assert "sudokit.solvers" in edges["sudokit.generators.grids"]


def test_no_import_cycle():
    edges = import_graph()
    found = cycles(edges)
    assert not found, ("import cycles (each listed with the imports that close it):\n"
                       + "\n".join(_describe(component, edges) for component in found))


def test_the_library_never_imports_the_command_line():
    edges = import_graph()
    wrong = [f"{source} -> {target}  ({_where(source)}:{line})"
             for source, targets in sorted(edges.items())
             if not (source == "sudokit.cli" or source.startswith("sudokit.cli."))
             and source != ENTRY_POINT
             for target, line in sorted(targets.items())
             if target == "sudokit.cli" or target.startswith("sudokit.cli.")]
    assert not wrong, "the library imports the command line:\n" + "\n".join(wrong)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_module_takes_another_modules_private_name():
    """``from .x import _name`` and ``x._name`` of an imported sudokit module are refused:
    what modules share is public (documented, without the underscore)."""
    modules = _modules()
    wrong = []
    for module, path in sorted(modules.items()):
        tree = ast.parse(path.read_text(), str(path))
        imported = set()           # local names bound to sudokit modules
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                targets = _targets(module, path, node, modules)
                for alias, target in zip(node.names, targets, strict=False):  # none: not sudokit
                    if target.endswith("." + alias.name):
                        imported.add(alias.asname or alias.name)     # a module itself
                    elif _private(alias.name):
                        wrong.append(f"{_where(module)}:{node.lineno}: imports {alias.name} "
                                     f"from {target}")
            elif isinstance(node, ast.Import):
                imported.update(alias.asname for alias in node.names
                                if alias.asname and alias.name in modules)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and _private(node.attr)
                    and isinstance(node.value, ast.Name) and node.value.id in imported):
                wrong.append(f"{_where(module)}:{node.lineno}: takes {node.value.id}.{node.attr}")
    assert not wrong, "private names taken from another module:\n" + "\n".join(wrong)
