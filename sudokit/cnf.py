"""CNF formulas stored as numpy blocks, and variable blocks mapping indices to variable ids.

A :class:`CNF` keeps its clauses as a list of 2-D ``int32`` arrays, one row per clause, each
block tagged with the constraint group it belongs to ("cell definedness", "row uniqueness",
...). Clauses of varying length are bucketed by length into blocks of their own, so even
ragged clause sets never hold a Python object per clause. A :class:`VarBlock` is the cnfgen
idea of an index <-> variable block: a rectangular array of consecutive variable ids.

Examples
--------
>>> cnf = CNF()
>>> x = cnf.new_block("x", (2, 2))
>>> cnf.add_block("alo", x.ids)                      # each row: at least one is true
>>> cnf.add_clauses("amo", [[-x[0, 0], -x[0, 1]], [-x[1, 0], -x[1, 1]]])
>>> cnf.num_vars, cnf.num_clauses, cnf.clauses()
(4, 4, [[1, 2], [3, 4], [-1, -2], [-3, -4]])
>>> x.index_of(4)
(1, 1)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from .displayed import HTMLDisplay

__all__ = ["CNF", "VarBlock"]


@dataclass(frozen=True)
class VarBlock:
    """Consecutive variable ids laid out as an array of the given ``shape`` (row-major).

    ``ids[i, j, ...] = first + ravel_index(i, j, ...)``.
    """

    name: str
    first: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def last(self) -> int:
        return self.first + self.size - 1

    @property
    def ids(self) -> np.ndarray:
        """All ids as an ``int32`` array of ``shape``."""
        ids = self.first + np.arange(self.size, dtype=np.int64)
        return ids.astype(np.int32).reshape(self.shape)

    def __getitem__(self, index) -> int | np.ndarray:
        """Variable id(s) at ``index`` (any numpy index, vectorised)."""
        flat = np.ravel_multi_index(index if isinstance(index, tuple) else (index,), self.shape)
        out = self.first + np.asarray(flat, dtype=np.int64)
        return int(out) if out.ndim == 0 else out.astype(np.int32)

    def __contains__(self, var: int) -> bool:
        return self.first <= abs(int(var)) <= self.last

    def index_of(self, var):
        """The index tuple of variable id(s) ``var`` (vectorised; sign ignored)."""
        flat = np.abs(np.asarray(var, dtype=np.int64)) - self.first
        idx = np.unravel_index(flat, self.shape)
        return tuple(int(i) for i in idx) if np.ndim(var) == 0 else idx


@dataclass
class CNF(HTMLDisplay):
    """A CNF formula: numbered variables and clause blocks grouped by constraint.

    In Jupyter it shows its size, its groups and its first clauses (``_repr_html_``).

    Parameters
    ----------
    num_vars : int
        Highest variable id in use.
    comments : list of str
        Lines written as DIMACS ``c`` comments (without the leading ``c ``).
    deferred_comments : list of callable
        More comment lines, made only when the formula is written (:meth:`all_comments`):
        each a picklable callable returning a list of lines (e.g. one ``map`` line per
        variable, which a solve that never writes the file should not pay for).
    """

    num_vars: int = 0
    comments: list[str] = field(default_factory=list)
    blocks: list[tuple[str, np.ndarray]] = field(default_factory=list)
    var_groups: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    group_order: list[str] = field(default_factory=list)
    deferred_comments: list = field(default_factory=list)

    _html = "cnf_html"

    def all_comments(self) -> list[str]:
        """:attr:`comments`, then the lines of :attr:`deferred_comments`."""
        return self.comments + [line for make in self.deferred_comments for line in make()]

    def _note_group(self, group: str) -> None:
        if group not in self.group_order:
            self.group_order.append(group)

    # -- variables -------------------------------------------------------------------------
    def new_vars(self, count: int, group: str = "auxiliary") -> int:
        """Reserve ``count`` fresh variables; return the first id."""
        first = self.num_vars + 1
        self._note_group(group)
        self.num_vars += int(count)
        self.var_groups[group] += int(count)
        return first

    def new_block(self, name: str, shape: tuple[int, ...]) -> VarBlock:
        """Reserve a :class:`VarBlock` of fresh variables."""
        size = int(np.prod(shape, dtype=np.int64))
        return VarBlock(name, self.new_vars(size, name), tuple(int(s) for s in shape))

    # -- clauses ---------------------------------------------------------------------------
    def add_block(self, group: str, clauses) -> None:
        """Add a 2-D array of clauses (one per row) to ``group``."""
        array = np.asarray(clauses, dtype=np.int32)
        if array.ndim != 2:
            raise ValueError(f"a clause block must be 2-D, got shape {array.shape}")
        if array.shape[0]:
            self._note_group(group)
            self.blocks.append((group, np.ascontiguousarray(array)))

    def add_clauses(self, group: str, clauses) -> None:
        """Add clauses of any lengths (an iterable of sequences), bucketed by length."""
        by_length = defaultdict(list)
        for clause in clauses:
            by_length[len(clause)].append(clause)
        for length in sorted(by_length):
            rows = by_length[length]
            self.add_block(group, np.asarray(rows, dtype=np.int32).reshape(len(rows), length))

    def extend(self, other: CNF) -> None:
        """Append another formula's clause blocks and its constraint groups (its variables
        must already be reserved here; their group counts are not added twice).

        Examples
        --------
        >>> a, b = CNF(), CNF()
        >>> _ = b.new_vars(2, "x")
        >>> b.add_clauses("pair", [[1, 2]])
        >>> _ = a.new_vars(2, "x")
        >>> a.extend(b)
        >>> a.stats()["pair"]
        {'variables': 0, 'clauses': 1, 'literals': 2}
        """
        for group in other.group_order:
            self._note_group(group)
        self.blocks.extend(other.blocks)

    # -- views -----------------------------------------------------------------------------
    @property
    def num_clauses(self) -> int:
        return sum(block.shape[0] for _, block in self.blocks)

    @property
    def num_literals(self) -> int:
        return sum(block.size for _, block in self.blocks)

    @property
    def has_empty_clause(self) -> bool:
        return any(block.shape[1] == 0 for _, block in self.blocks)

    def stats(self) -> dict[str, dict[str, int]]:
        """Variables, clauses and literals per constraint group (in order of appearance)."""
        table = {group: {"variables": self.var_groups.get(group, 0), "clauses": 0, "literals": 0}
                 for group in self.group_order}
        for group, block in self.blocks:
            table[group]["clauses"] += block.shape[0]
            table[group]["literals"] += block.size
        return table

    def clause_lists(self, chunk_rows: int = 1 << 16):
        """Yield the clauses as lists of Python int lists, a chunk of a block at a time.

        One C-level ``tolist`` per chunk; chunks keep the Python copies small even for the
        33 million clauses of a 64x64 grid.
        """
        for _, block in self.blocks:
            for start in range(0, block.shape[0], chunk_rows):
                yield block[start:start + chunk_rows].tolist()

    def clauses(self) -> list[list[int]]:
        """All clauses as Python lists (for small formulas and tests)."""
        return [clause for chunk in self.clause_lists() for clause in chunk]


@dataclass(frozen=True, eq=False)
class ProjectionLines:
    """The comment lines that declare a formula's projection, in both conventions in use:
    ``p show V... 0`` (model counting competitions, Ganak) and ``ind V... 0`` (ApproxMC and
    older tools), each wrapped into lines of at most about ``width`` characters, every line
    ending in ``0``. A formula with auxiliary variables carries them (a counter that counts
    its models otherwise counts the auxiliaries' assignments too).

    Examples
    --------
    >>> ProjectionLines(np.arange(1, 6), width=16)()
    ['p show 1 2 3 4 0', 'p show 5 0', 'ind 1 2 3 4 5 0']
    """

    variables: np.ndarray
    width: int = 100

    def __call__(self) -> list[str]:
        return self._wrap("p show") + self._wrap("ind")

    def _wrap(self, head: str) -> list[str]:
        lines, current = [], head
        for var in map(str, self.variables.tolist()):
            if len(current) + len(var) + 3 > self.width and current != head:
                lines.append(current + " 0")
                current = head
            current += " " + var
        return lines + [current + " 0"]

