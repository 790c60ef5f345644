"""DIMACS CNF: a vectorised writer and a tolerant reader.

The writer renders every literal through a lookup table of fixed-width byte strings
(``table[literal + num_vars]``) and squeezes out the padding with one boolean mask, so a block
of a million clauses becomes text in a few numpy operations instead of millions of ``str``
calls. The reader accepts what other tools write: ``c`` comments anywhere, clauses spanning
several lines or several clauses on one line, a trailing ``%`` line (SATLIB), and a missing
final ``0``. Comment lines ``c p show V... 0`` and ``c ind V... 0`` declare the projection of a
formula read as an instance; a malformed one is an error, never a comment.

Examples
--------
>>> from sudokit.cnf import CNF
>>> cnf = CNF(num_vars=3, comments=["demo"])
>>> cnf.add_clauses("g", [[1, -2], [2, 3, -1]])
>>> text = format_dimacs(cnf)
>>> print(text, end="")
c demo
p cnf 3 2
1 -2 0
2 3 -1 0
>>> parse_dimacs(text).clauses()
[[1, -2], [2, 3, -1]]
"""

from __future__ import annotations

import io
import re
import warnings
from dataclasses import dataclass

import numpy as np

from ..cnf import CNF
from ..errors import InstanceError, ParseError, expect_text
from ..instances.formula import formula
from ..problems import user_problem
from .record import Record

__all__ = ["format_dimacs", "write_dimacs", "parse_dimacs", "parse_formula_records",
           "dimacs_bytes", "MAX_VARS", "MAX_FORMULA_VARS"]

_PAD = 0  # byte that never occurs in the output; removed by the final mask


def _literal_table(num_vars: int) -> np.ndarray:
    """Row ``lit + num_vars`` holds ``str(lit)`` right-aligned, padded with ``_PAD``, then a
    space."""
    width = len(str(-max(num_vars, 1))) + 1
    lits = np.arange(-num_vars, num_vars + 1)
    text = np.char.rjust(lits.astype(str), width - 1).astype(f"S{width - 1}")
    table = np.frombuffer(text.tobytes(), dtype=np.uint8).reshape(-1, width - 1)
    table = np.where(table == ord(" "), _PAD, table).astype(np.uint8)
    return np.hstack([table, np.full((len(lits), 1), ord(" "), dtype=np.uint8)])


def _block_bytes(block: np.ndarray, table: np.ndarray, num_vars: int) -> bytes:
    rows = block.shape[0]
    cells = table[block.astype(np.int64) + num_vars].reshape(rows, -1)
    tail = np.frombuffer(b"0\n", dtype=np.uint8)
    out = np.hstack([cells, np.broadcast_to(tail, (rows, 2))]).reshape(-1)
    return out[out != _PAD].tobytes()


def formula_cnf(value, taker: str) -> CNF:
    """The :class:`~sudokit.cnf.CNF` of what a user holds as a formula: itself, a formula
    instance's or an encoding's ``cnf``, DIMACS text, a ``pysat.formula.CNF``.

    Examples
    --------
    >>> formula_cnf("p cnf 2 1\\n1 -2 0\\n", "format_dimacs").num_clauses
    1
    """
    if isinstance(value, CNF):
        return value
    found = user_problem(value)
    if not isinstance(getattr(found, "cnf", None), CNF):
        raise InstanceError(f"{taker} writes a CNF formula or an encoding, not a "
                            f"{found.kind} instance (encode it with sudokit.to_cnf)")
    return found.cnf  # type: ignore[no-any-return]


def write_dimacs(cnf: CNF, stream, chunk_rows: int = 1 << 18) -> None:
    """Write ``cnf`` as DIMACS to a binary ``stream`` (comments, header, clauses)."""
    cnf = formula_cnf(cnf, "write_dimacs")
    head = "".join(f"c {line}\n" for line in cnf.all_comments())
    head += f"p cnf {cnf.num_vars} {cnf.num_clauses}\n"
    stream.write(head.encode())
    table = _literal_table(cnf.num_vars)
    for _, block in cnf.blocks:
        if block.shape[1] == 0:
            stream.write(b"0\n" * block.shape[0])
            continue
        for start in range(0, block.shape[0], chunk_rows):
            stream.write(_block_bytes(block[start:start + chunk_rows], table, cnf.num_vars))


def dimacs_bytes(variables: int, clauses: int, literals: int) -> int:
    """About how many bytes the DIMACS text of a formula of this size takes (a little over:
    every literal counted with a sign and the digits of the largest variable, and a
    ``c map`` line per variable, which only the reduced encodings write).

    Examples
    --------
    >>> from sudokit.cnf import CNF
    >>> cnf = CNF(num_vars=3)
    >>> cnf.add_clauses("g", [[1, -2], [2, 3, -1]])
    >>> len(format_dimacs(cnf)) <= dimacs_bytes(3, 2, 5)
    True
    """
    width = len(str(max(variables, 1))) + 2   # sign, digits, space
    return literals * width + 2 * clauses + 32 * variables + 64


def format_dimacs(cnf: CNF) -> str:
    """The DIMACS text of ``cnf``."""
    cnf = formula_cnf(cnf, "format_dimacs")
    buffer = io.BytesIO()
    write_dimacs(cnf, buffer)
    return buffer.getvalue().decode()


#: the most variables a header may declare: a literal is a signed 32-bit integer
MAX_VARS = 2**31 - 1
#: the most variables of a formula read as an instance: its projection holds one entry per
#: variable, used or not (8 bytes each, and a sorted copy), so more would exhaust memory
MAX_FORMULA_VARS = 2**27

_TOKEN = re.compile(r"\S+")
_LITERAL = re.compile(r"[+-]?[0-9]+")


@dataclass
class _Read:
    """A parsed DIMACS text and where its parts were."""

    cnf: CNF
    header: tuple[int, int]  # line and column of the variable count
    projection: list[tuple[int, str]]  # (line, text) of 'c p show' / 'c ind' lines


def parse_dimacs(text: str, source: str = "<string>") -> CNF:
    """Read DIMACS CNF text into a :class:`~sudokit.cnf.CNF` (comments kept, one group "input").

    Clauses are stored in blocks by length, so they come back grouped by length (the same
    clause multiset, not necessarily the same order).

    Raises :class:`~sudokit.errors.ParseError` with the line and column of a bad token, a
    missing or malformed ``p cnf`` line, a header declaring more than :data:`MAX_VARS`
    variables, a literal above the declared variable count, or a clause count that
    disagrees with the header.

    Examples
    --------
    >>> parse_dimacs("p cnf 2 1\\n1 -3 0\\n", "f.cnf")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: f.cnf:2:3: literal -3 exceeds the 2 variables of the header
    """
    expect_text(text, "parse_dimacs")
    return _read(text, source).cnf


def _read(text: str, source: str) -> _Read:
    """The formula of ``text``: by :func:`_read_fast` when its clauses are one plain block of
    literals after the header (what solvers and generators write), else line by line, which
    also finds the line and column of every error."""
    return _read_fast(text, source) or _read_lines(text, source)


#: a line after the header that only the line-by-line reader takes: a comment, a second
#: header, a SATLIB trailer
_NOT_A_CLAUSE = re.compile(r"^[ \t\r\v\f]*[cp%]", re.MULTILINE)
_WHITESPACE = np.frombuffer(b" \t\n\r\v\f", dtype=np.uint8)


def _read_fast(text: str, source: str) -> _Read | None:
    """The formula when comments and the header come first and nothing but literals after;
    None when not, or when anything is wrong (the line reader then says where).

    The clause block is tokenised in C by :func:`numpy.fromstring`; its bytes are also
    checked to be signs and digits only, a sign only before a digit at a token's start, and
    the tokens counted, so a token it would read otherwise than :func:`int` (a lone ``-``)
    sends the text to the line reader."""
    comments: list[str] = []
    projection: list[tuple[int, str]] = []
    start, number = 0, 0
    while True:  # the comment lines and the header
        end = text.find("\n", start)
        raw = text[start:] if end < 0 else text[start:end]
        number += 1
        line = raw.strip()
        if line and line[0] == "p":
            header = _header(raw, source, number)
            break
        if line and line[0] != "c":
            return None
        if line:
            _comment(line, raw, number, comments, projection)
        if end < 0:
            return None
        start = end + 1
    body = "" if end < 0 else text[end + 1:]
    if _NOT_A_CLAUSE.search(body):
        return None
    data = body.encode()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            lits = np.fromstring(data, dtype=np.int64, sep=" ")
        except (ValueError, DeprecationWarning):
            return None
    if len(lits) != _integer_tokens(data) or ((lits > header[0]) | (lits < -header[0])).any():
        return None
    return _formula(lits, header, comments, projection, source)


def _integer_tokens(data: bytes) -> int | None:
    """The number of whitespace-separated tokens of ``data`` when each is an optional sign
    and digits (what :func:`int` reads), else None."""
    if not data:
        return 0
    text = np.frombuffer(data, dtype=np.uint8)
    space = np.isin(text, _WHITESPACE)
    digit = (text >= ord("0")) & (text <= ord("9"))
    sign = (text == ord("+")) | (text == ord("-"))
    starts = ~space & np.concatenate([[True], space[:-1]])
    signed_digit = np.concatenate([digit[1:], [False]])
    if not (space | digit | sign).all() or (sign & ~(starts & signed_digit)).any():
        return None
    return int(np.count_nonzero(starts))


def _comment(line: str, raw: str, number: int, comments: list[str],
             projection: list[tuple[int, str]]) -> None:
    """Keep a ``c`` line's text, and its place if it is a projection line."""
    comment = line[2:] if line.startswith("c ") else line[1:]
    comments.append(comment)
    if _is_projection(comment):
        projection.append((number, raw))


def _read_lines(text: str, source: str) -> _Read:
    comments: list[str] = []
    projection: list[tuple[int, str]] = []
    header: tuple[int, int, int, int] | None = None  # vars, clauses, line, column of vars
    chunks: list[np.ndarray] = []
    chunk_lines: list[int] = []
    lines = text.split("\n")  # only '\n' ends a line, as in an editor ('\r' is stripped)
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if line[0] == "c":
            _comment(line, raw, number, comments, projection)
            continue
        if line[0] == "%":  # SATLIB files end with "%\n0"
            break
        if line[0] == "p":
            if header is not None:
                raise ParseError("second 'p' line", source, number, 1)
            header = _header(raw, source, number)
            continue
        if header is None:
            raise ParseError("clause before the 'p cnf' header", source, number, 1)
        try:
            chunks.append(np.array(line.split(), dtype=np.int64))
        except (ValueError, OverflowError):
            raise _bad_literal(raw, header[0], source, number) from None
        chunk_lines.append(number)
    if header is None:
        raise ParseError("no 'p cnf' header found", source)
    lits = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int64)
    outside = np.flatnonzero((lits > header[0]) | (lits < -header[0]))
    if outside.size:
        chunk = int(np.searchsorted(np.cumsum([len(c) for c in chunks]), outside[0],
                                    side="right"))
        number = chunk_lines[chunk]
        raise _bad_literal(lines[number - 1], header[0], source, number)
    return _formula(lits, header, comments, projection, source)


def _formula(lits: np.ndarray, header: tuple[int, int, int, int], comments: list[str],
             projection: list[tuple[int, str]], source: str) -> _Read:
    """The formula of the literals of its clauses, each ended by 0 (the last 0 may be
    missing), checked against the header's clause count."""
    num_vars, num_clauses, header_line, column = header
    if lits.size and lits[-1] != 0:
        lits = np.append(lits, 0)  # tolerate a missing final 0
    ends = np.flatnonzero(lits == 0)
    if len(ends) != num_clauses:
        raise ParseError(f"header announces {num_clauses} clauses, found {len(ends)}",
                         source, header_line)
    cnf = CNF(num_vars=num_vars, comments=comments)
    cnf.var_groups["input"] = num_vars
    cnf.group_order.append("input")
    starts = np.concatenate([[0], ends[:-1] + 1]) if len(ends) else ends
    lengths = ends - starts
    for length in np.unique(lengths):
        rows = starts[lengths == length]
        cnf.add_block("input", lits[rows[:, None] + np.arange(length)].reshape(len(rows), length))
    return _Read(cnf, (header_line, column), projection)


def _header(raw: str, source: str, number: int) -> tuple[int, int, int, int]:
    """``(variables, clauses, line, column of variables)`` of a ``p cnf`` line."""
    parts = list(_TOKEN.finditer(raw))
    if len(parts) != 4 or parts[1].group() != "cnf" or not all(
            m.group().isascii() and m.group().isdigit() for m in parts[2:]):
        raise ParseError(f"malformed header {raw.strip()!r}; expected 'p cnf VARS CLAUSES'",
                         source, number, 1)
    num_vars, num_clauses = (int(m.group()) for m in parts[2:])
    if num_vars > MAX_VARS:
        raise ParseError(f"the header declares {num_vars} variables; a literal must fit a "
                         f"signed 32-bit integer, so at most {MAX_VARS}", source, number,
                         parts[2].start() + 1)
    return num_vars, num_clauses, number, parts[2].start() + 1


def _bad_literal(raw: str, num_vars: int, source: str, number: int) -> ParseError:
    """The error for the first token of a clause line that is no literal of the formula."""
    for m in _TOKEN.finditer(raw):
        token, column = m.group(), m.start() + 1
        if not _LITERAL.fullmatch(token):
            return ParseError(f"not an integer literal: {token!r}", source, number, column)
        if abs(int(token)) > num_vars:
            return ParseError(f"literal {int(token)} exceeds the {num_vars} variables of the "
                              "header", source, number, column)
    return ParseError("malformed clause line", source, number, 1)  # not reached


def _is_projection(comment: str) -> bool:
    """Whether a comment is a ``p show ... 0`` or ``ind ... 0`` projection line."""
    fields = comment.split(maxsplit=2)
    return fields[:2] == ["p", "show"] or fields[:1] == ["ind"]


def _projection(read: _Read, source: str) -> list[int] | None:
    """The variables of every projection line (None if there is none), each line checked:
    positive variables of the formula, then a final 0."""
    if not read.projection:
        return None
    num_vars = read.cnf.num_vars
    shown: list[int] = []
    for number, raw in read.projection:
        fields = list(_TOKEN.finditer(raw, raw.index("c") + 1))  # after the 'c'
        values = fields[2 if fields[0].group() == "p" else 1:]  # after 'p show' or 'ind'
        for k, m in enumerate(values):
            token, column = m.group(), m.start() + 1
            if token == "0" and k == len(values) - 1:
                break
            if not _LITERAL.fullmatch(token):
                raise ParseError(f"projection variable {token!r} is not an integer", source,
                                 number, column)
            if not 1 <= int(token) <= num_vars:
                raise ParseError(f"projection variable {int(token)} is outside 1..{num_vars}",
                                 source, number, column)
            shown.append(int(token))
        else:
            raise ParseError("a projection line must end with 0", source, number,
                             len(raw.rstrip()) + 1)
    return shown


def parse_formula_records(text: str, source: str, box=None, colors=None,
                          on_bad=None) -> list[Record]:
    """The ``cnf`` kind's parser: one formula, projected on its ``c p show``/``c ind`` lines
    (a file holds one instance: ``on_bad`` is not used).

    Examples
    --------
    >>> parse_formula_records("c p show 1 x 0\\np cnf 2 1\\n1 2 0\\n", "f.cnf")
    Traceback (most recent call last):
    ...
    sudokit.errors.ParseError: f.cnf:1:12: projection variable 'x' is not an integer
    """
    read = _read(text, source)
    if read.cnf.num_vars > MAX_FORMULA_VARS:
        raise ParseError(f"the header declares {read.cnf.num_vars} variables; a formula may "
                         f"have at most {MAX_FORMULA_VARS} (each takes memory, used or not)",
                         source, *read.header)
    return [Record(formula(read.cnf, _projection(read, source)), 1, "dimacs")]
