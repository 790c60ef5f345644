"""Knuth's DLX1 text format for exact cover problems (TAOCP 7.2.2.1; his DLX1 program).

The first line names the primary items, then ``|``, then the secondary items (the ``|`` part
is optional). Every further line is one option: the names of its items. Lines starting with
``|`` are comments; blank lines are ignored. Item names have 1 to 8 characters and contain
neither ``|`` nor ``:``.

Examples
--------
>>> text = "| a tiny problem\\na b | s\\na s\\nb\\na b\\n"
>>> xc = parse_dlx(text).instance
>>> xc.items, xc.num_primary, xc.num_options
(('a', 'b', 's'), 2, 3)
>>> format_dlx(xc) == text
True
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import InstanceError, ParseError, expect_text
from ..exact_cover import ExactCover
from ..problems import user_instance
from .record import Record
from .textio import numbered_lines

__all__ = ["parse_dlx", "parse_xc_records", "format_dlx", "format_cover", "is_item_name"]

_NAME = re.compile(r"[^\s|:]{1,8}")
_TOKEN = re.compile(r"\S+")


def is_item_name(name: str) -> bool:
    """Whether ``name`` is a valid DLX1 item name (1-8 characters, no ``|``, ``:`` or space)."""
    return bool(_NAME.fullmatch(name))


def _check_name(name: str, source, line: int, column: int) -> None:
    if not is_item_name(name):
        why = "is longer than 8 characters" if len(name) > 8 else "contains '|' or ':'"
        raise ParseError(f"item name {name!r} {why}", source, line, column)


def _header(raw: str, source, number: int):
    left, bar, right = raw.partition("|")
    if "|" in right:
        raise ParseError("the item line has more than one '|'", source, number,
                         len(left) + 2 + right.index("|"))
    names = []
    for part, offset in ((left, 0), (right, len(left) + 1)):
        found = [(m.group(), offset + m.start() + 1) for m in _TOKEN.finditer(part)]
        for name, column in found:
            _check_name(name, source, number, column)
        names.append(found)
    primary, secondary = names  # primary is never empty: a line starting with '|' is a comment
    seen: dict[str, int] = {}
    for name, column in primary + secondary:
        if name in seen:
            raise ParseError(f"item {name!r} is declared twice", source, number, column)
        seen[name] = len(seen)
    return [n for n, _ in primary], [n for n, _ in secondary], seen


def parse_dlx(text: str, source: str = "<string>") -> Record:
    """Parse Knuth's exact cover text into a :class:`Record` holding an :class:`ExactCover`.

    Raises :class:`ParseError` with line and column for a bad or unknown item name, an item
    repeated in an option, an option without a primary item, or a missing item line.
    """
    expect_text(text, "parse_dlx")
    comments, header, index = [], None, {}
    starts, flat = [0], []
    first_line = 1
    for number, raw in numbered_lines(text):
        stripped = raw.strip()
        if not stripped:
            continue
        if stripped.startswith("|"):
            if header is None:
                comments.append(stripped[1:].strip())
            continue
        if header is None:
            header = _header(raw, source, number)
            index = header[2]
            first_line = number
            continue
        option = []
        for m in _TOKEN.finditer(raw):
            name = m.group()
            if name not in index:
                _check_name(name, source, number, m.start() + 1)
                raise ParseError(f"unknown item {name!r}", source, number, m.start() + 1)
            if index[name] in option:
                raise ParseError(f"item {name!r} appears twice in this option", source, number,
                                 m.start() + 1)
            option.append(index[name])
        if min(option) >= len(header[0]):
            raise ParseError("option has no primary item", source, number, 1)
        flat.extend(option)
        starts.append(len(flat))
    if header is None:
        raise ParseError("empty input, no instance found", source)
    primary, secondary, _ = header
    try:
        xc = ExactCover(tuple(primary + secondary), len(primary), np.asarray(starts, np.int64),
                        np.asarray(flat, np.int32), None, tuple(comments))
    except InstanceError as err:  # not reached for parsed text; kept for the message form
        raise ParseError(str(err), source) from None
    return Record(xc, first_line, "dlx")


def format_dlx(xc: ExactCover) -> str:
    """Knuth's text for ``xc`` (comments, the item line, one option per line, final newline).

    Raises :class:`InstanceError` if an item name cannot be written in this format.
    """
    if not isinstance(xc, ExactCover):
        xc = user_instance(xc, ("cover",), "format_dlx")
    bad = next((name for name in xc.items if not is_item_name(name)), None)
    if bad is not None:
        raise InstanceError(f"item name {bad!r} cannot be written in Knuth's format "
                            "(1-8 characters, no '|', ':' or spaces)")
    lines = [f"| {c}" if c else "|" for c in xc.comments]
    head = " ".join(xc.items[:xc.num_primary])
    if xc.num_secondary:
        head += " | " + " ".join(xc.items[xc.num_primary:])
    lines.append(head)
    names = np.array(xc.items, dtype=object)
    for k in range(xc.num_options):
        lines.append(" ".join(names[xc.option_items[xc.option_starts[k]:xc.option_starts[k + 1]]]))
    return "\n".join(lines) + "\n"


def format_cover(xc: ExactCover, selected) -> str:
    """A cover as Knuth's programs print it: each chosen option's items on a line of its own."""
    return "\n".join(" ".join(xc.option(int(k))) for k in selected)


def parse_xc_records(text: str, source: str, box=None, colors=None,
                     on_bad=None) -> list[Record]:
    """The ``xc`` kind's parser: one problem in Knuth's format (``on_bad`` is not used: there
    is nothing to skip in a file of one instance)."""
    return [parse_dlx(text, source)]
