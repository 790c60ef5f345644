"""What users hold, as the instances sudokit solves: one road per kind of object.

:func:`as_problem` is the one entry every public function that takes a problem goes
through (``solve``, ``count_solutions``, ``to_cnf``, ``reduce``, ``format_solution`` ...):

======================================================  ======================================
what the user holds                                     becomes
======================================================  ======================================
an instance (grid, precoloring, CNF formula, cover)     itself
a :class:`~sudokit.formats.Record` (``read_instances``)  its instance
a reduction or an encoding (``reduce``, ``to_cnf``)     itself (``solve`` decodes its answer)
puzzle text (``"4.....8.5..."``, a grid, DIMACS ...)    :func:`~sudokit.formats.parse_instances`
an array or a list of rows                              :func:`~sudokit.instances.sudoku`
a :class:`sudokit.cnf.CNF` or ``pysat.formula.CNF``     a formula (:func:`~.pysat.from_pysat`)
a networkx graph with a ``precolor`` attribute          :func:`~.networkx.from_networkx`
a scipy sparse 0/1 matrix (options x items)             :func:`~.scipy.from_scipy`
======================================================  ======================================

Anything else is an :class:`~sudokit.errors.InstanceError` saying what it got and what is
taken. The lower layers reach this module by name (``"sudokit.interop.convert:as_problem"``,
:func:`sudokit.problems.user_problem`), as a registry entry names code, so no model or
engine module imports it.

Examples
--------
>>> as_problem("1" + "." * 15).kind, as_problem([[0, 1], [1, 0]], "latin").box
('sudoku', None)
>>> as_problem(None)
Traceback (most recent call last):
...
sudokit.errors.InstanceError: sudokit takes a puzzle (text, an array or a list of rows), \
an instance, a record of read_instances, an encoding, a CNF (sudokit's or PySAT's), a \
networkx graph or a scipy sparse matrix; got None
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..cnf import CNF
from ..errors import InstanceError, ParseError, described
from ..exact_cover import ExactCover
from ..formats import Record, parse_instances, parse_puzzles
from ..instances import CNFFormula, GridPuzzle, Precoloring, formula, latin_square, sudoku
from ..instances.grid import grid_values
from ..problems import DEFAULT_KIND, problem_kind, sniff_kind

__all__ = ["TAKEN", "as_problem", "as_instance", "grid_from_text", "from_any_graph",
           "formula_from_pysat"]

#: what :func:`as_problem` takes, for messages
TAKEN = ("a puzzle (text, an array or a list of rows), an instance, a record of "
         "read_instances, an encoding, a CNF (sudokit's or PySAT's), a networkx graph or a "
         "scipy sparse matrix")

_INSTANCES = (GridPuzzle, Precoloring, CNFFormula, ExactCover)


def as_problem(obj: Any, problem: str | None = None, box: tuple[int, int] | None = None,
               num_colors: int | None = None) -> Any:
    """The instance (or encoding, or reduction) that ``obj`` stands for.

    Parameters
    ----------
    obj
        See the module notes for every type taken.
    problem : str, optional
        The kind to read text or an array as (``"sudoku"``, ``"latin"``, ...); by default
        text says its kind as a file does (DIMACS ``p cnf``, ``.pls``'s ``order``, ...) and
        an array is a Sudoku.
    box : tuple of int, optional
        A Sudoku's box shape, for text or an array whose side is no square.
    num_colors : int, optional
        The colors of a networkx graph that does not carry them (``G.graph["num_colors"]``).

    Raises
    ------
    InstanceError, ParseError
        Something that is no problem, or a problem that is not well formed.

    Examples
    --------
    >>> import networkx as nx
    >>> g = nx.path_graph(3)
    >>> nx.set_node_attributes(g, {0: 1}, "precolor")
    >>> as_problem(g, num_colors=2).precolors.tolist()
    [1, 0, 0]
    >>> as_problem("p cnf 2 1\\n1 -2 0\\n").kind
    'cnf'
    """
    if isinstance(obj, _INSTANCES):
        return obj
    if isinstance(obj, Record):
        return as_problem(obj.instance)
    if _is_reduction(obj):
        return obj
    if isinstance(obj, str):
        return _from_text(obj, problem, box)
    if isinstance(obj, CNF):
        return formula(obj, _shown(obj.all_comments()))
    module = type(obj).__module__.partition(".")[0]
    if module in _ROADS:
        return _ROADS[module](obj, num_colors)
    if _all_records(obj):
        raise InstanceError(f"a list of {len(obj)} records; pass one (records[0]), or answer "
                            "them all with sudokit.run_batch(records)")
    if isinstance(obj, (list, tuple, np.ndarray)):
        return _from_array(grid_values(obj), problem, box)
    raise InstanceError(f"sudokit takes {TAKEN}; got {described(obj)}")


def as_instance(obj: Any, problem: str | None = None, box: tuple[int, int] | None = None,
                num_colors: int | None = None) -> Any:
    """As :func:`as_problem`, but a reduction or an encoding gives its source instance.

    Examples
    --------
    >>> from sudokit.encoders import grid_to_cnf
    >>> as_instance(grid_to_cnf(as_problem("1" + "." * 15))).n
    4
    """
    found = as_problem(obj, problem, box, num_colors)
    return found.source if _is_reduction(found) else found


def grid_from_text(text: str, problem: str = DEFAULT_KIND,
                   box: tuple[int, int] | None = None) -> GridPuzzle:
    """The one grid puzzle in ``text`` (a line of ``n*n`` cells or a grid of lines), read
    as a file of puzzles is (:func:`~sudokit.formats.parse_puzzles`).

    Raises
    ------
    ParseError
        Text that holds no puzzle or more than one, or a line whose length is no square.

    Examples
    --------
    >>> grid_from_text("12..\\n..12\\n....\\n....", "latin").givens[1].tolist()
    [0, 0, 1, 2]
    """
    records = parse_puzzles(text, "<string>", problem, box, layout=_layout(text))
    return _one(records, text).instance  # type: ignore[no-any-return]


def from_any_graph(graph: Any, num_colors: int | None = None) -> Precoloring:
    """A networkx graph as precoloring extension: the ``precolor`` node attribute (a graph of
    :func:`~.networkx.to_networkx` of a grid: ``given``), with ``num_colors`` colors, else
    the graph's ``num_colors`` (or a grid's ``n``) attribute.

    Examples
    --------
    >>> import networkx as nx
    >>> from_any_graph(nx.complete_graph(3), 3).num_colors
    3
    >>> from_any_graph(nx.complete_graph(3))
    Traceback (most recent call last):
    ...
    sudokit.errors.InstanceError: a networkx graph needs its number of colors: set \
G.graph['num_colors'] = k or pass num_colors=k (sudokit.from_networkx(G, k))
    """
    from .networkx import from_networkx

    attrs = graph.graph if isinstance(getattr(graph, "graph", None), Mapping) else {}
    attribute = "given" if "n" in attrs and "num_colors" not in attrs else "precolor"
    colors = num_colors if num_colors is not None else attrs.get("num_colors", attrs.get("n"))
    if colors is None:
        raise InstanceError("a networkx graph needs its number of colors: set "
                            "G.graph['num_colors'] = k or pass num_colors=k "
                            "(sudokit.from_networkx(G, k))")
    if isinstance(colors, bool) or not isinstance(colors, (int, np.integer)) or colors < 1:
        raise InstanceError(f"the number of colors is a positive integer, not {colors!r}")
    return from_networkx(graph, int(colors), attribute=attribute)


def formula_from_pysat(cnf: Any, num_colors: int | None = None) -> CNFFormula:
    """A ``pysat.formula.CNF`` as a formula instance; its ``c p show`` / ``c ind`` comment
    lines (what :func:`~.pysat.to_pysat` writes for an encoding) give the projection.

    Examples
    --------
    >>> from pysat.formula import CNF as PySATCNF
    >>> f = formula_from_pysat(PySATCNF(from_clauses=[[1, 2], [-1, -2]]))
    >>> f.kind, f.cnf.num_vars, f.projection.tolist()
    ('cnf', 2, [1, 2])
    """
    from .pysat import from_pysat

    name = type(cnf).__name__
    if name != "CNF" or not isinstance(getattr(cnf, "clauses", None), list):
        raise InstanceError(f"a pysat {name} is not a plain CNF; sudokit solves CNF formulas "
                            "(for a WCNF, pass its hard clauses: CNF(from_clauses=w.hard))")
    for clause in cnf.clauses:
        if not isinstance(clause, (list, tuple)) or not all(
                isinstance(lit, (int, np.integer)) and lit for lit in clause):
            raise InstanceError(f"a pysat CNF clause is a list of non-zero integers, not "
                                f"{described(clause)}")
    converted = from_pysat(cnf)
    return formula(converted, _shown(converted.comments))


def _from_scipy(matrix: Any, num_colors: int | None = None) -> ExactCover:
    from .scipy import from_scipy

    if not hasattr(matrix, "tocsr"):
        raise InstanceError(f"sudokit takes a scipy sparse matrix as exact cover, not "
                            f"{described(matrix)}")
    if len(matrix.shape) != 2:
        raise InstanceError(f"an exact cover matrix has two axes, got shape {matrix.shape}")
    return from_scipy(matrix)


def _from_pysat(obj: Any, num_colors: int | None = None) -> CNFFormula:
    return formula_from_pysat(obj)


def _from_networkx(graph: Any, num_colors: int | None = None) -> Precoloring:
    if not hasattr(graph, "nodes") or not hasattr(graph, "edges"):
        raise InstanceError(f"sudokit takes a networkx graph, not {described(graph)}")
    return from_any_graph(graph, num_colors)


#: the libraries whose objects have a road of their own, by top-level module
_ROADS = {"pysat": _from_pysat, "networkx": _from_networkx, "scipy": _from_scipy}


def _from_text(text: str, problem: str | None, box: tuple[int, int] | None) -> Any:
    kind = sniff_kind("<string>", text, problem)
    try:
        records = parse_instances(text, "<string>", kind, box, layout=_layout(text))
    except ParseError as err:
        if "\n" not in text and os.path.exists(text):
            raise ParseError(f"{err.for_cli()}; {text!r} names a file: read it with "
                             "sudokit.read_instances(path)") from None
        raise
    return _one(records, text).instance


def _layout(text: str) -> str:
    """One puzzle the user wrote: a grid when it takes several lines, else one line."""
    lines = [line for line in text.splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    return "grid" if len(lines) > 1 else "line"


def _one(records: list[Record], text: str) -> Record:
    if len(records) != 1:
        raise ParseError(f"the text holds {len(records)} instances, not one; read many with "
                         "sudokit.parse_instances(text)", "<string>")
    return records[0]


def _from_array(values: np.ndarray, problem: str | None,
                box: tuple[int, int] | None) -> GridPuzzle:
    """An array as a grid of kind ``problem`` (a Sudoku by default): boxes when the kind
    takes them."""
    kind = problem_kind(problem or DEFAULT_KIND)
    if kind.family != "grid":
        raise InstanceError(f"an array is read as a grid, not as a {kind.noun}")
    return sudoku(values, box) if "box" in kind.options else latin_square(values)


def _shown(comments: Any) -> np.ndarray | None:
    """The variables of ``p show ... 0`` lines (else ``ind ... 0`` lines), or None."""
    found: dict[str, list[int]] = {"p show": [], "ind": []}
    for line in comments:
        words = str(line).split()
        head = "p show" if words[:2] == ["p", "show"] else "ind" if words[:1] == ["ind"] else ""
        if head:
            values = words[len(head.split()):]
            found[head] += [int(word) for word in values if word.lstrip("-").isdigit()
                            and int(word) > 0]
    shown = found["p show"] or found["ind"]
    return np.asarray(shown, dtype=np.int64) if shown else None


def _is_reduction(obj: Any) -> bool:
    return hasattr(obj, "decode") and hasattr(obj, "source") and hasattr(obj, "target")


def _all_records(obj: Any) -> bool:
    return isinstance(obj, (list, tuple)) and bool(obj) and all(isinstance(r, Record)
                                                                for r in obj)
