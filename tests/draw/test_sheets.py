"""Printable sheets (``draw --paper``): the PDF's page size is the paper's, its fonts are
embedded TrueType, every puzzle has its numbered caption, the answer key holds the solutions,
and an X-Sudoku's diagonals never cross a digit."""

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
import zlib

import numpy as np
import pytest

from sudokit.draw.grid import DIGIT_SPAN
from sudokit.draw.sheet import PAPERS, paper_pages
from sudokit.draw.svg import Canvas
from sudokit.formats import read_instances

from ..helpers import EXAMPLES, assert_cli_error, cli_run, import_extra

SVG = "{http://www.w3.org/2000/svg}"
TOP3 = EXAMPLES / "top3.txt"


def pdf_pages(data: bytes) -> list[tuple[float, float]]:
    """``(width, height)`` in points of every page's MediaBox."""
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    return [(float(w), float(h)) for w, h in boxes]


def pdf_font_kinds(data: bytes) -> set[bytes]:
    """The ``/Subtype`` of every font dictionary, and ``FontFile2`` (a TrueType program) when
    one is embedded."""
    kinds = set(re.findall(rb"/Type\s*/Font\s*/Subtype\s*/(\w+)", data))
    kinds |= set(re.findall(rb"/Subtype\s*/(\w+)[^>]*?/Type\s*/Font\b", data))
    if b"/FontFile2" in data:
        kinds.add(b"FontFile2")
    return kinds


def pdf_text(data: bytes) -> bytes:
    """The page content streams, inflated (the text operators are in them)."""
    out = []
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            out.append(zlib.decompress(stream))
        except zlib.error:
            out.append(stream)
    return b"\n".join(out)


@pytest.mark.parametrize("paper", list(PAPERS))
def test_pdf_pages_are_the_paper_size_with_truetype_fonts(tmp_path, paper):
    import_extra("matplotlib", "draw")
    out = tmp_path / "set.pdf"
    result = cli_run("draw", TOP3, "--paper", paper, "--title", "Set 1", "--answers",
                     "--no-rating", "-o", out)
    assert result.exit_code == 0, result.stderr
    data = out.read_bytes()
    pages = pdf_pages(data)
    assert len(pages) == 2                      # the puzzles, then the answer key
    want = PAPERS[paper].points
    for width, height in pages:
        assert (width, height) == pytest.approx(want, abs=0.01)
    kinds = pdf_font_kinds(data)
    assert b"Type3" not in kinds
    assert b"FontFile2" in kinds and (b"TrueType" in kinds or b"CIDFontType2" in kinds)


def test_pdffonts_says_truetype_embedded(tmp_path):
    import_extra("matplotlib", "draw")
    if shutil.which("pdffonts") is None:
        pytest.skip("pdffonts (poppler-utils) not installed")
    out = tmp_path / "set.pdf"
    assert cli_run("draw", TOP3, "--paper", "letter", "--no-rating", "-o", out).exit_code == 0
    listing = subprocess.run(["pdffonts", str(out)], capture_output=True, text=True,
                             check=True).stdout.splitlines()[2:]
    assert listing
    for line in listing:
        assert "TrueType" in line and "Type 3" not in line, line
        assert " yes " in line        # embedded


def page_svgs(tmp_path, *args):
    out = tmp_path / "page.svg"
    result = cli_run("draw", TOP3, "--paper", "a4", "--no-rating", "-o", out, *args)
    assert result.exit_code == 0, result.stderr
    files = sorted(tmp_path.glob("page*.svg"))
    return [ET.parse(f).getroot() for f in files]


def texts(root, cls):
    return [e.text for e in root.iter(SVG + "text") if e.get("class") == cls]


def test_captions_title_and_page_numbers(tmp_path):
    (page,) = page_svgs(tmp_path, "--title", "Weekly set")
    assert texts(page, "caption") == ["No. 1", "No. 2", "No. 3"]
    assert texts(page, "title") == ["Weekly set"]
    assert texts(page, "page") == ["1 / 1"]
    width = float(page.get("viewBox").split()[2])
    assert width == pytest.approx(PAPERS["a4"].width * 100, abs=0.01)


def test_answer_key_holds_every_solution(tmp_path):
    pages = page_svgs(tmp_path, "--answers")
    assert len(pages) == 2
    key = pages[1]
    assert texts(key, "title") == ["Answers"]
    assert texts(key, "caption") == ["No. 1", "No. 2", "No. 3"]
    from sudokit import solve

    symbols = [e for e in key.iter(SVG + "text") if e.get("class") in ("given", "filled")]
    assert len(symbols) == 3 * 81
    for k, record in enumerate(read_instances(str(TOP3))):
        grid = symbols[81 * k:81 * (k + 1)]        # one grid's symbols, in document order
        xs = sorted({round(float(e.get("x")), 1) for e in grid})
        ys = sorted({round(float(e.get("y")), 1) for e in grid})
        assert len(xs) == len(ys) == 9
        shown = np.zeros((9, 9), dtype=int)
        for e in grid:
            shown[ys.index(round(float(e.get("y")), 1)),
                  xs.index(round(float(e.get("x")), 1))] = int(e.text)
        solution = np.asarray(solve(record.instance)).reshape(9, 9)
        assert (shown == solution).all()
        givens = np.asarray(record.instance.givens)
        bold = [e for e in grid if e.get("class") == "given"]
        assert len(bold) == int((givens > 0).sum())


def test_paper_pages_scale_pictures_into_the_page():
    pictures = [Canvas(370, 390) for _ in range(7)]
    for picture in pictures:
        picture.rect(0, 0, 370, 390, fill="#fff", cls="probe")
    pages = paper_pages(pictures, "letter", per_page=6, title="T")
    assert len(pages) == 2
    for page in pages:
        for shape in page.shapes:
            if getattr(shape, "cls", "") == "probe":
                assert 0 <= shape.x and shape.x + shape.w <= page.width
                assert 0 <= shape.y and shape.y + shape.h <= page.height
    probes = [s for s in pages[0].shapes if getattr(s, "cls", "") == "probe"]
    assert len(probes) == 6
    for a in probes:       # no two overlap
        for b in probes:
            if a is not b:
                assert (a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y
                        or b.y + b.h <= a.y)


def test_unknown_paper_is_one_error_with_the_choices():
    result = cli_run("draw", TOP3, "--paper", "a5")
    assert_cli_error(result, 2, "a4", "letter")


def test_title_needs_paper():
    assert_cli_error(cli_run("draw", TOP3, "--title", "x"), 2, "--title", "--paper")


def diagonal_segments(root):
    for e in root.iter(SVG + "line"):
        if e.get("class") == "diagonal":
            yield tuple(float(e.get(k)) for k in ("x1", "y1", "x2", "y2"))


@pytest.mark.parametrize("extra", [[], ["--solution"], ["--candidates"]])
def test_x_sudoku_diagonals_run_under_the_digits_not_across(extra):
    result = cli_run("draw", EXAMPLES / "x9.txt", "--index", 1, *extra)
    assert result.exit_code == 0, result.stderr
    root = ET.fromstring(result.stdout)
    (border,) = [e for e in root.iter(SVG + "rect") if e.get("class") == "border"]
    left, top = float(border.get("x")), float(border.get("y"))
    cell = float(border.get("width")) / 9
    written = set()
    for e in root.iter(SVG + "text"):
        if e.get("class") in ("given", "filled", "deduced", "candidate"):
            c = int((float(e.get("x")) - left) // cell)
            r = int((float(e.get("y")) - top) // cell)
            written.add((r, c))
    segments = list(diagonal_segments(root))
    assert segments
    low, high = DIGIT_SPAN
    covered = set()
    for x1, y1, x2, y2 in segments:
        r = int((min(y1, y2) - top) // cell + 1e-9)
        c = int((min(x1, x2) - left) // cell + 1e-9)
        assert 0 <= r < 9 and 0 <= c < 9 and (r == c or r + c == 8)
        assert abs(y2 - y1) <= cell + 1e-6 and abs(x2 - x1) <= cell + 1e-6   # within a cell
        covered.add((r, c))
        if (r, c) in written:      # only the corners of a cell with a symbol
            for y in (y1, y2):
                t = (y - top) / cell - r
                assert t <= low + 1e-6 or t >= high - 1e-6
    diagonal = {(k, k) for k in range(9)} | {(k, 8 - k) for k in range(9)}
    shaded = {(int((float(e.get("y")) - top) // cell), int((float(e.get("x")) - left) // cell))
              for e in root.iter(SVG + "rect") if e.get("class") == "diagonal-cell"}
    assert shaded == diagonal
    assert covered <= diagonal


def test_paper_captions_carry_level_and_rating(tmp_path):
    from sudokit.human import rate

    out = tmp_path / "rated.svg"
    result = cli_run("draw", TOP3, "--paper", "letter", "-o", out)
    assert result.exit_code == 0, result.stderr
    (page,) = [ET.parse(f).getroot() for f in sorted(tmp_path.glob("rated*.svg"))]
    want = []
    for k, record in enumerate(read_instances(str(TOP3)), 1):
        found = rate(record.instance)
        want.append(f"No. {k} - {found.level}, SE {found.value:.1f}")
    assert texts(page, "caption") == want


def test_paper_caption_of_a_puzzle_with_several_solutions(tmp_path):
    out = tmp_path / "p.svg"
    result = cli_run("draw", "-", "--paper", "a4", "-o", out, input="." * 81 + "\n")
    assert result.exit_code == 0, result.stderr
    assert texts(ET.parse(out).getroot(), "caption") == ["No. 1 - several solutions"]
