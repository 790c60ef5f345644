"""Exact cover problems: named items (primary first, then secondary) and options in CSR arrays.

An exact cover problem asks for a set of options that covers every *primary* item exactly once
and every *secondary* item at most once (Knuth, TAOCP 7.2.2.1). Options are stored flat, as in
a CSR sparse matrix: option ``k`` covers the items ``option_items[option_starts[k]:
option_starts[k + 1]]`` (0-based item indices), so millions of options cost no Python object
each.

Examples
--------
>>> xc = exact_cover({"A": ["x", "y"], "B": ["x"], "C": ["y", "s"]}, primary=["x", "y"],
...                  secondary=["s"])
>>> xc.num_items, xc.num_primary, xc.num_options
(3, 2, 3)
>>> xc.option(2)
['y', 's']
>>> xc.is_cover([1, 2]), xc.is_cover([0, 1])
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import InitVar, dataclass, field
from typing import Any

import numpy as np

from .displayed import HTMLDisplay
from .errors import InstanceError

__all__ = ["ExactCover", "DeferredNames", "exact_cover", "exact_cover_from_matrix"]


class DeferredNames(Sequence[str]):
    """Item names made on first use: an encoder knows how many items it made, and a solver
    never needs their names, only a writer does.

    ``make`` is a picklable callable returning the names (a tuple of ``count`` strings).

    Examples
    --------
    >>> names = DeferredNames(2, lambda: ("a", "b"))
    >>> len(names), names[1], tuple(names) == ("a", "b")
    (2, 'b', True)
    """

    def __init__(self, count: int, make: Callable[[], tuple[str, ...]]):
        self._count = int(count)
        self._make = make
        self._names: tuple[str, ...] | None = None

    def _made(self) -> tuple[str, ...]:
        if self._names is None:
            self._names = tuple(self._make())
        return self._names

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: Any) -> Any:
        return self._made()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._made())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict:
        return {"_count": self._count, "_make": self._make, "_names": None}


@dataclass(frozen=True, eq=False)
class ExactCover(HTMLDisplay):
    """An exact cover problem.

    In Jupyter it shows its size and its first options, as a 0/1 table when small
    (``_repr_html_``, :mod:`sudokit.draw.display`).

    Attributes
    ----------
    items : sequence of str
        Item names, the ``num_primary`` primary items first (a :class:`DeferredNames` when
        an encoder built the problem).
    num_primary : int
    option_starts : numpy.ndarray
        ``int64``, length ``num_options + 1``: where each option's items begin.
    option_items : numpy.ndarray
        ``int32`` item indices of all options, concatenated.
    option_names : tuple of str or None
        A name per option (for options built from a mapping), else None.
    comments : tuple of str
        Comment lines kept from Knuth's text (written back as ``| ...``).
    validate_on_init : bool
        Check the arrays (:meth:`validate`); False for problems the library built itself,
        which are right by construction (user input is validated once, where it is read).
    """

    items: Sequence[str]
    num_primary: int
    option_starts: np.ndarray
    option_items: np.ndarray
    option_names: tuple[str, ...] | None = None
    comments: tuple[str, ...] = field(default=())
    validate_on_init: InitVar[bool] = True

    kind = "xc"
    _html = "cover_html"

    def __post_init__(self, validate_on_init: bool) -> None:
        if validate_on_init:
            self.validate()

    @property
    def num_items(self) -> int:
        return len(self.items)

    @property
    def num_secondary(self) -> int:
        return self.num_items - self.num_primary

    @property
    def num_options(self) -> int:
        return len(self.option_starts) - 1

    def option_name(self, k: int) -> str:
        """The option's name, or its items joined by spaces when it has none."""
        return self.option_names[k] if self.option_names else " ".join(self.option(k))

    def option(self, k: int) -> list[str]:
        """Item names of option ``k``."""
        start, stop = self.option_starts[k], self.option_starts[k + 1]
        return [self.items[i] for i in self.option_items[start:stop].tolist()]

    def option_rows(self) -> np.ndarray:
        """The option index of every entry of :attr:`option_items`."""
        return np.repeat(np.arange(self.num_options), np.diff(self.option_starts))

    def validate(self) -> None:
        """Raise :class:`InstanceError` naming an option with a bad, repeated or no primary
        item."""
        if len(set(self.items)) != len(self.items):
            seen: set[str] = set()
            for name in self.items:
                if name in seen:
                    raise InstanceError(f"item {name!r} is declared twice")
                seen.add(name)
        if not 0 <= self.num_primary <= len(self.items):
            raise InstanceError(f"{self.num_primary} primary items but {len(self.items)} items")
        starts, entries = self.option_starts, self.option_items
        if starts[0] != 0 or starts[-1] != len(entries) or np.any(np.diff(starts) < 0):
            raise InstanceError("option offsets are not increasing from 0 to the entry count")
        rows = self.option_rows()
        bad = np.flatnonzero((entries < 0) | (entries >= self.num_items))
        if bad.size:
            raise InstanceError(f"option {self._label(rows[bad[0]])} names item "
                                f"{entries[bad[0]]}, outside 0..{self.num_items - 1}")
        if entries.size:
            order = np.lexsort((entries, rows))
            rows_in, entries_in = rows[order], entries[order]
            same = (rows_in[1:] == rows_in[:-1]) & (entries_in[1:] == entries_in[:-1])
            if same.any():
                k = rows[order][1:][same][0]
                item = self.items[entries[order][1:][same][0]]
                raise InstanceError(f"option {self._label(k)} repeats item {item!r}")
        primary = np.zeros(self.num_options, dtype=bool)
        primary[rows[entries < self.num_primary]] = True
        if self.num_options and not primary.all():
            k = int(np.flatnonzero(~primary)[0])
            raise InstanceError(f"option {self._label(k)} has no primary item")

    def _label(self, k) -> str:
        k = int(k)
        name = self.option_names[k] if self.option_names else None
        return f"{k + 1} ({name})" if name else str(k + 1)

    def violations(self, selected) -> list[str]:
        """Why the options ``selected`` (indices) are not an exact cover (empty if they are)."""
        selected = np.asarray(selected, dtype=np.int64).reshape(-1)
        if selected.size and (selected.min() < 0 or selected.max() >= self.num_options):
            return [f"option index outside 1..{self.num_options}"]
        counts = np.zeros(self.num_items, dtype=np.int64)
        for k in selected.tolist():
            counts[self.option_items[self.option_starts[k]:self.option_starts[k + 1]]] += 1
        problems = [f"item {self.items[i]!r} is covered {counts[i]} times"
                    for i in np.flatnonzero(counts > 1)[:1]]
        problems += [f"primary item {self.items[i]!r} is not covered"
                     for i in np.flatnonzero(counts[:self.num_primary] == 0)[:1]]
        return problems

    def is_cover(self, selected) -> bool:
        return not self.violations(selected)

    def is_solution(self, selected) -> bool:
        """The instance protocol's name for :meth:`is_cover`."""
        return self.is_cover(selected)

    def to_dense(self) -> np.ndarray:
        """The ``(num_options, num_items)`` 0/1 matrix (``uint8``)."""
        dense = np.zeros((self.num_options, self.num_items), dtype=np.uint8)
        dense[self.option_rows(), self.option_items] = 1
        return dense

    def save_matrix(self, path, dense: bool = False) -> None:
        """Write the matrix as ``.npz``: CSR arrays ``indptr``, ``indices``, ``data``,
        ``shape`` and ``format`` (readable by ``scipy.sparse.load_npz``), plus ``items``,
        ``num_primary`` and, with ``dense``, the dense matrix."""
        arrays = dict(indptr=self.option_starts, indices=self.option_items,
                      data=np.ones(len(self.option_items), dtype=np.uint8),
                      shape=np.array([self.num_options, self.num_items]), format=np.array("csr"),
                      items=np.array(self.items), num_primary=np.array(self.num_primary))
        if dense:
            arrays["dense"] = self.to_dense()
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    def __eq__(self, other):
        return (isinstance(other, ExactCover) and tuple(self.items) == tuple(other.items)
                and self.num_primary == other.num_primary
                and np.array_equal(self.option_starts, other.option_starts)
                and np.array_equal(self.option_items, other.option_items))

    __hash__ = None  # type: ignore[assignment]


def exact_cover(options: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
                primary: Sequence[str], secondary: Sequence[str] = (),
                comments: Sequence[str] = ()) -> ExactCover:
    """Build an :class:`ExactCover` from item names.

    Parameters
    ----------
    options : mapping or sequence
        ``{name: [item, ...]}`` or a list of item lists (unnamed options).
    primary, secondary : sequence of str

    Raises
    ------
    InstanceError
        Naming the option that uses an unknown item, repeats an item or has no primary item.
    """
    items = tuple(primary) + tuple(secondary)
    index = {name: i for i, name in enumerate(items)}
    names = tuple(options) if isinstance(options, Mapping) else None
    bodies = list(options.values()) if isinstance(options, Mapping) else list(options)
    flat = []
    for k, body in enumerate(bodies):
        for name in body:
            if name not in index:
                label = f"{k + 1} ({names[k]})" if names else str(k + 1)
                raise InstanceError(f"option {label} names unknown item {name!r}")
            flat.append(index[name])
    starts = np.concatenate([[0], np.cumsum([len(body) for body in bodies])]).astype(np.int64)
    return ExactCover(items, len(primary), starts, np.asarray(flat, dtype=np.int32), names,
                      tuple(comments))


def exact_cover_from_matrix(matrix, num_primary: int | None = None,
                            item_names: Sequence[str] | None = None) -> ExactCover:
    """Build an :class:`ExactCover` from a dense 0/1 matrix (one row per option).

    Examples
    --------
    >>> xc = exact_cover_from_matrix(np.array([[1, 0], [0, 1], [1, 1]]))
    >>> xc.items, xc.option(2)
    (('1', '2'), ['1', '2'])
    """
    try:
        matrix = np.asarray(matrix)
    except ValueError as err:  # ragged rows
        raise InstanceError(f"an exact cover matrix has rows of one length: {err}") from None
    if matrix.ndim != 2 or matrix.dtype == object:
        raise InstanceError(f"an exact cover matrix must be 2-D, got shape {matrix.shape}")
    if not np.isin(matrix, (0, 1)).all():
        raise InstanceError("an exact cover matrix holds only 0 and 1")
    names = tuple(item_names) if item_names is not None else tuple(
        str(i + 1) for i in range(matrix.shape[1]))
    if len(names) != matrix.shape[1]:
        raise InstanceError(f"{len(names)} item names for {matrix.shape[1]} columns")
    rows, cols = np.nonzero(matrix)
    starts = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=matrix.shape[0]))])
    return ExactCover(names, matrix.shape[1] if num_primary is None else num_primary,
                      starts.astype(np.int64), cols.astype(np.int32))
