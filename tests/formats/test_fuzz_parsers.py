"""Fuzzing every parser: whatever the text, only a SudokitError may escape, and where a
ParseError names a line (and column), that place exists in the text.

Two sources of text: hypothesis (lines of tokens every format uses, plus any characters) and a
seeded byte-level mutator (flip, delete, insert and duplicate bytes; delete, duplicate and swap
lines; splice lines of another file; swap a number for an extreme one) over the bundled
examples, small hand-written CNF and DLX texts, and a few small files of the public data.
Every text goes through ``parse_instances`` for every problem kind (with and without
``on_bad``) and ``parse_solutions`` for an instance of every kind; every fourth mutated text
is also written as bytes and read back with ``read_instances``.
"""

from __future__ import annotations

import random
import re
from itertools import islice
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit.errors import InstanceError, ParseError, SudokitError
from sudokit.formats import parse_instances, parse_solutions, puzzle_text, read_instances
from sudokit.formats.puzzle_text import parse_puzzles
from sudokit.problems import PROBLEMS

from ..helpers import EXAMPLES, cyclic_latin, data_path

CNF_TEXT = """\
c a small formula, projected on 1 2 3
c p show 1 2 3 0
c ind 1 2 3 0
p cnf 5 6
1 -2 4 0
2 3 -5 0
-1 -3 0
4 5 0
-4 -5 0
3 0
"""

DLX_TEXT = """\
| Knuth's example (TAOCP 7.2.2.1, exact cover (5))
a b c d e f g | x
c e
a d g
b c f
a d f x
b g
d e g
"""

#: the messages of ParseErrors about the whole text rather than one place in it
WHOLE_TEXT = re.compile(r"no instance found|no 'p cnf' header found|no 'p edge VERTICES "
                        r"EDGES' line|number of colors unknown")


def _instances():
    """One instance of every kind: the solutions of every reader are read against these."""
    read = [("sudoku", (EXAMPLES / "top3.txt").read_text(), None, None),
            ("sudoku", (EXAMPLES / "six.txt").read_text(), None, None),
            ("latin", (EXAMPLES / "qwh5.pls").read_text(), None, None),
            ("coloring", (EXAMPLES / "myciel3-precolored.col").read_text(), None, None),
            ("cnf", CNF_TEXT, None, None), ("xc", DLX_TEXT, None, None)]
    return [parse_instances(text, "i", kind, box, colors)[0].instance
            for kind, text, box, colors in read]


INSTANCES = _instances()
assert {instance.kind for instance in INSTANCES} == set(PROBLEMS)

#: options each kind is also read with: a box for grids, a number of colors for graphs
OPTIONS = {"sudoku": [{}, {"box": (2, 3)}], "latin": [{}], "coloring": [{}, {"colors": 3}],
           "cnf": [{}], "xc": [{}]}


def _check_error(err: SudokitError, text: str, source: str) -> None:
    lines = text.split("\n")
    if isinstance(err, ParseError):
        assert err.source == source, err
        if WHOLE_TEXT.search(err.message):
            return
        assert err.line is not None and 1 <= err.line <= len(lines), err
        if err.column is not None:
            assert 1 <= err.column <= len(lines[err.line - 1]) + 1, err
    elif isinstance(err, InstanceError):
        assert str(err).startswith(f"{source}:"), err


def parse_everything(text: str) -> None:
    """Every parser on ``text``: only located SudokitErrors may come out."""
    calls = [(kind, options) for kind in PROBLEMS for options in OPTIONS[kind]]
    calls.append(("latin", {"source": "fuzz.pls"}))  # a .pls name reads .pls text strictly
    try:
        for kind, options in calls:
            options = dict(options)
            source = options.pop("source", "fuzz.txt")
            for on_bad in (None, []):
                try:
                    if on_bad is None:
                        parse_instances(text, source, kind, **options)
                    else:
                        parse_instances(text, source, kind, on_bad=on_bad.append, **options)
                except SudokitError as err:
                    _check_error(err, text, source)
                for skipped in on_bad or ():
                    assert isinstance(skipped, ParseError) and skipped.line is not None
                    _check_error(skipped, text, source)
        source = "fuzz.txt"
        for instance in INSTANCES:
            try:
                parse_solutions(text, source, instance)
            except SudokitError as err:
                _check_error(err, text, source)
    except AssertionError:
        raise
    except Exception as err:  # an internal error: show the input that caused it
        raise AssertionError(f"{type(err).__name__}: {err} on {text!r}") from err


# -- hypothesis: lines of the tokens every format is made of -------------------------------------

TOKENS = st.sampled_from([
    "c", "p", "cnf", "edge", "col", "e", "s", "%", "order", "show", "ind", "colors", "precolor",
    "Grid", "01", "#", "|", "+", "----", "-+-", "===", ".", "0", "-0", "1", "2", "3", "9", "-1",
    "-2", "12", "81", "A", "G", "z", "x", "a", "b", "ab12", "7.2", "2147483647", "2147483648",
    "-2147483648", "99999999999999999999", "1..2............", "\u00b2", "\u0663", "\u00a0",
    "\x0c", "\r", "\t", "\u2028"])
LINES = st.lists(st.lists(TOKENS | st.text(max_size=4), max_size=7).map(" ".join),
                 max_size=12).map("\n".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES | st.text(max_size=60))
def test_any_text_gives_a_located_error_or_instances(text):
    parse_everything(text)


def test_the_tester_s_inputs():
    top = (EXAMPLES / "puzzle17.txt").read_text().split()[-1]
    for text in [f"{top}\nabc {top}\n{top}\n", "c p show 1 x 0\np cnf 2 1\n1 2 0\n",
                 "p cnf 99999999999 1\n1 0\n", "p cnf 3 1\n99999999999999999999 0\n",
                 "order 2\n0 0\n-1 -1\n", "p edge 99999999999 1\ne 1 2\nc colors 2\n",
                 "p cnf 3 1\n-9223372036854775808 0\n", "p cnf 2 1\n1 2 +-3 0\n"]:
        parse_everything(text)


# -- a byte-level mutator over real files ---------------------------------------------------------

INSERTS = [b"0", b"1", b"9", b"-", b".", b" ", b"\n", b"\r\n", b"\t", b"|", b"#", b"c ", b"p ",
           b"e ", b"x", b"\x00", b"\xff", b"\xc2\xb2", b"99999999999", b"-1", b"0 0"]
EXTREMES = [b"0", b"-1", b"2147483647", b"2147483648", b"9223372036854775808",
            b"99999999999999999999", b"-99999999999"]
NUMBER = re.compile(rb"-?[0-9]+")


def mutate(data: bytes, others: list[bytes], rng: random.Random) -> bytes:
    """One to three random edits of ``data``."""
    for _ in range(rng.randint(1, 3)):
        size = len(data)
        at = rng.randrange(size + 1)
        span = rng.randint(1, 8)
        lines = data.split(b"\n")
        line = rng.randrange(len(lines))
        choice = rng.randrange(9)
        if choice == 0 and size:
            at = min(at, size - 1)
            data = data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
        elif choice == 1:
            data = data[:at] + data[at + span:]
        elif choice == 2:
            data = data[:at] + rng.choice(INSERTS) + data[at:]
        elif choice == 3:
            data = data[:at] + data[at:at + span] * rng.randint(2, 4) + data[at + span:]
        elif choice == 4:
            del lines[line]
            data = b"\n".join(lines)
        elif choice == 5:
            lines.insert(line, lines[rng.randrange(len(lines))])
            data = b"\n".join(lines)
        elif choice == 6:
            other = rng.randrange(len(lines))
            lines[line], lines[other] = lines[other], lines[line]
            data = b"\n".join(lines)
        elif choice == 7:
            donor = rng.choice(others).split(b"\n")
            lines[line:line] = donor[rng.randrange(len(donor)):][:rng.randint(1, 3)]
            data = b"\n".join(lines)
        else:
            numbers = list(NUMBER.finditer(data))
            if numbers:
                m = rng.choice(numbers)
                data = data[:m.start()] + rng.choice(EXTREMES) + data[m.end():]
    return data


def read_everything(data: bytes, path: Path) -> None:
    """``read_instances`` on the bytes as a file, for every kind and for the sniffed one."""
    path.write_bytes(data)
    for kind in [None, *PROBLEMS]:
        try:
            read_instances(str(path), kind, on_bad=lambda err: None)
        except SudokitError as err:
            text = data.decode("utf-8", "replace")
            if not (isinstance(err, ParseError) and "not UTF-8" in err.message):
                _check_error(err, text, str(path))
        except Exception as err:
            raise AssertionError(f"{type(err).__name__}: {err} on {data!r}") from err


def fuzz_files(texts: list[str], rounds: int, seed: int, folder: Path) -> None:
    rng = random.Random(seed)
    corpus = [text.encode() for text in texts]
    for text in texts:
        parse_everything(text)
    for number in range(rounds):
        data = mutate(rng.choice(corpus), corpus, rng)
        parse_everything(data.decode("utf-8", "replace"))
        if number % 4 == 0:
            read_everything(data, folder / "fuzzed.txt")


def _examples() -> list[str]:
    return [path.read_text() for path in sorted(EXAMPLES.iterdir())
            if path.suffix in (".txt", ".pls", ".col", ".dlx", ".cnf")] + [CNF_TEXT, DLX_TEXT]


def test_mutated_bundled_examples(tmp_path):
    fuzz_files(_examples(), rounds=800, seed=20240601, folder=tmp_path)


def _head(*parts: str, lines: int) -> str:
    with open(data_path(*parts), encoding="utf-8", newline="") as handle:
        return "".join(islice(handle, lines))


def test_mutated_public_data(tmp_path):
    texts = [_head("sudoku", "9x9-norvig", "top95.txt", lines=6),
             _head("sudoku", "9x9-norvig", "sudoku.txt", lines=21),
             _head("sudoku", "9x9-sudokuexchange", "diabolical.txt", lines=4),
             _head("sudoku", "9x9-tdoku", "puzzles7_serg_benchmark", lines=5),
             _head("sudoku", "mixed-4x4-16x16", "16x16.txt", lines=3),
             _head("latin", "gomes_lsencode_PLS", "qwh.order10.holes10.pls", lines=20),
             _head("coloring", "original_trick_rzepinskip", "myciel3.col", lines=40)]
    fuzz_files(texts, rounds=800, seed=7, folder=tmp_path)


def test_mutator_is_deterministic():
    rng_a, rng_b = random.Random(3), random.Random(3)
    data = CNF_TEXT.encode()
    assert [mutate(data, [data], rng_a) for _ in range(20)] == \
        [mutate(data, [data], rng_b) for _ in range(20)]


@pytest.mark.parametrize("size", [1, 4, 9])
def test_random_grids_of_every_layout_never_crash(size):
    rng = np.random.default_rng(size)
    for _ in range(30):
        cells = rng.integers(-1, size + 3, size * size)
        parse_everything(" ".join(map(str, cells)))
        parse_everything("".join(".123456789ABCDEFGxyz"[v % 20] for v in cells))


# -- the one-liner fast path reads exactly what the general reader reads --------------------

@st.composite
def _valid_4x4_line(draw):
    """A 4x4 puzzle that is valid as Sudoku and as Latin square: a masked solved grid."""
    perm = np.array(draw(st.permutations(range(1, 5))))
    full = perm[cyclic_latin(4, 2, 2) - 1].reshape(-1)
    mask = np.array(draw(st.lists(st.booleans(), min_size=16, max_size=16)))
    return "".join(str(v) if keep else "." for v, keep in zip(full, mask, strict=True))


_ONE_LINERS = st.lists(st.one_of(
    _valid_4x4_line(), _valid_4x4_line(),
    st.sampled_from(["", "# a comment", "  ", "Grid 01", "====", "1 2 3 4"]),
    st.text(alphabet="1234.0-", min_size=16, max_size=16),
    st.text(alphabet="1234.", min_size=15, max_size=17),
    st.text(alphabet="123456789.", min_size=81, max_size=81)), min_size=1, max_size=20)


@settings(max_examples=300, deadline=None)
@given(lines=_ONE_LINERS, problem=st.sampled_from(["sudoku", "latin", "solution"]),
       newline=st.sampled_from(["\n", "\r\n"]))
def test_fast_one_liners_agree_with_the_general_reader(lines, problem, newline):
    text = newline.join(lines)
    fast = _outcome(lambda: parse_puzzles(text, "f.txt", problem))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(puzzle_text, "_one_liners", lambda *args: None)
        slow = _outcome(lambda: parse_puzzles(text, "f.txt", problem))
    assert fast == slow


def _outcome(read):
    """What a read gives, comparable: the records' (line, style, box, givens) or the error."""
    try:
        return [(r.line, r.style, r.instance.box, r.instance.givens.tolist()) for r in read()]
    except SudokitError as err:
        return (type(err).__name__, str(err))
