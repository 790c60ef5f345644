"""DIMACS CNF: a vectorised writer and a tolerant reader.

The writer renders every literal through a lookup table of fixed-width byte strings
(``table[literal + num_vars]``) and squeezes out the padding with one boolean mask, so a block
of a million clauses becomes text in a few numpy operations instead of millions of ``str``
calls. The reader accepts what other tools write: ``c`` comments anywhere, clauses spanning
several lines or several clauses on one line, a trailing ``%`` line (SATLIB), and a missing
final ``0``.

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

import numpy as np

from ..cnf import CNF
from ..errors import InstanceError, ParseError
from ..instances.formula import formula
from .record import Record

__all__ = ["format_dimacs", "write_dimacs", "parse_dimacs", "parse_formula_records"]

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


def write_dimacs(cnf: CNF, stream, chunk_rows: int = 1 << 18) -> None:
    """Write ``cnf`` as DIMACS to a binary ``stream`` (comments, header, clauses)."""
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


def format_dimacs(cnf: CNF) -> str:
    """The DIMACS text of ``cnf``."""
    buffer = io.BytesIO()
    write_dimacs(cnf, buffer)
    return buffer.getvalue().decode()


def parse_dimacs(text: str, source: str = "<string>") -> CNF:
    """Read DIMACS CNF text into a :class:`~sudokit.cnf.CNF` (comments kept, one group "input").

    Clauses are stored in blocks by length, so they come back grouped by length (the same
    clause multiset, not necessarily the same order).

    Raises :class:`~sudokit.errors.ParseError` with the line and column of a bad token, a
    missing or malformed ``p cnf`` line, a literal above the declared variable count, or a
    clause count that disagrees with the header.
    """
    comments: list[str] = []
    header = None
    tokens: list[np.ndarray] = []
    header_line = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line[0] == "c":
            comments.append(line[2:] if line.startswith("c ") else line[1:])
            continue
        if line[0] == "%":  # SATLIB files end with "%\n0"
            break
        if line[0] == "p":
            parts = line.split()
            if header is not None:
                raise ParseError("second 'p' line", source, number, 1)
            if len(parts) != 4 or parts[1] != "cnf" or not all(p.isdigit() for p in parts[2:]):
                raise ParseError(f"malformed header {line!r}; expected 'p cnf VARS CLAUSES'",
                                 source, number, 1)
            header = (int(parts[2]), int(parts[3]))
            header_line = number
            continue
        if header is None:
            raise ParseError("clause before the 'p cnf' header", source, number, 1)
        try:
            tokens.append(np.array(line.split(), dtype=np.int64))
        except ValueError:
            bad = next(t for t in line.split() if not t.lstrip("-").isdigit())
            raise ParseError(f"not an integer literal: {bad!r}", source, number,
                             raw.find(bad) + 1) from None
    if header is None:
        raise ParseError("no 'p cnf' header found", source)
    num_vars, num_clauses = header
    lits = np.concatenate(tokens) if tokens else np.zeros(0, dtype=np.int64)
    if lits.size and np.abs(lits).max() > num_vars:
        raise ParseError(f"literal {int(lits[np.abs(lits).argmax()])} exceeds the "
                         f"{num_vars} variables of the header", source, header_line)
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
    return cnf


def parse_formula_records(text: str, source: str, box=None, colors=None) -> list[Record]:
    """The ``cnf`` kind's parser: one formula, projected on its ``c p show``/``c ind`` lines."""
    cnf = parse_dimacs(text, source)
    lines = [fields for fields in map(_projection_fields, cnf.comments) if fields is not None]
    shown = [int(v) for fields in lines for v in fields if v != "0"]
    try:
        instance = formula(cnf, shown if lines else None)
    except InstanceError as err:
        raise ParseError(str(err), source) from None
    return [Record(instance, 1, "dimacs")]


def _projection_fields(comment: str):
    """The variables of a ``c p show ... 0`` or ``c ind ... 0`` line, else None."""
    fields = comment.split()
    for prefix in (["p", "show"], ["ind"]):
        if fields[:len(prefix)] == prefix and all(f.lstrip("-").isdigit()
                                                  for f in fields[len(prefix):]):
            return fields[len(prefix):]
    return None
