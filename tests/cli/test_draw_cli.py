"""``sudokit draw``: formats, sheets, PNG of the requested size, and one-line errors."""

import io
import re
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import sudokit
from sudokit.draw.raster import png_size
from sudokit.errors import MissingExtraError

from ..helpers import EXAMPLES, assert_cli_error, cli_run, import_extra

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg, cls):
    return [e.text for e in ET.fromstring(svg).iter(SVG + "text") if e.get("class") == cls]


def test_svg_on_stdout_for_one_puzzle():
    done = cli_run("draw", EXAMPLES / "puzzle17.txt")
    assert done.exit_code == 0 and done.stderr == ""
    assert sorted(texts(done.stdout, "given")) == sorted("4853728641637521" + "4")
    assert not texts(done.stdout, "caption")


def test_index_and_solution():
    done = cli_run("draw", EXAMPLES / "top3.txt", "--index", "3", "--solution")
    assert done.exit_code == 0
    puzzle = sudokit.read_instances(str(EXAMPLES / "top3.txt"))[2].instance
    assert len(texts(done.stdout, "given")) == puzzle.num_givens
    assert len(texts(done.stdout, "filled")) == 81 - puzzle.num_givens


def test_sheet_of_many_puzzles_and_pages(tmp_path):
    done = cli_run("draw", EXAMPLES / "top3.txt")
    assert texts(done.stdout, "caption") == ["No. 1", "No. 2", "No. 3"]
    givens = [p.instance.num_givens for p in sudokit.read_instances(str(EXAMPLES / "top3.txt"))]
    assert len(texts(done.stdout, "given")) == sum(givens)
    out = tmp_path / "sheet.svg"
    assert cli_run("draw", EXAMPLES / "top3.txt", "--per-page", "2", "-o", out).exit_code == 0
    assert not out.exists()
    first, second = (tmp_path / "sheet-1.svg").read_text(), (tmp_path / "sheet-2.svg").read_text()
    assert texts(first, "caption") == ["No. 1", "No. 2"] and texts(second, "caption") == ["No. 3"]
    assert len(texts(second, "given")) == givens[2]
    assert_cli_error(cli_run("draw", EXAMPLES / "top3.txt", "--per-page", "2"), 2,
                     "the sheet has 2 pages")


def test_candidates_follow_the_scheme():
    fc = cli_run("draw", EXAMPLES / "top3.txt", "-i", "2", "--candidates").stdout
    fci = cli_run("draw", EXAMPLES / "top3.txt", "-i", "2", "--candidates", "--scheme",
                  "fci").stdout
    assert len(texts(fci, "candidate")) < len(texts(fc, "candidate"))
    assert len(texts(fci, "deduced")) > len(texts(fc, "deduced"))


def test_width_scales_the_svg():
    done = cli_run("draw", EXAMPLES / "six.txt", "--width", "120")
    root = ET.fromstring(done.stdout)
    assert root.get("width") == "120" and root.get("height") == "120"
    assert root.get("viewBox") == "0 0 260 260"


def test_graph_with_layouts():
    import_extra("networkx", "draw")
    spring = cli_run("draw", EXAMPLES / "myciel3-precolored.col", "--solution", "--seed", "1")
    again = cli_run("draw", EXAMPLES / "myciel3-precolored.col", "--solution", "--seed", "1")
    other = cli_run("draw", EXAMPLES / "myciel3-precolored.col", "--solution", "--seed", "2")
    assert spring.exit_code == 0 and spring.stdout == again.stdout != other.stdout
    assert len(list(ET.fromstring(spring.stdout).iter(SVG + "circle"))) == 11


# -- PNG and PDF -------------------------------------------------------------------------------

@pytest.fixture
def matplotlib():
    return import_extra("matplotlib", "draw")


@pytest.mark.parametrize("args, size", [
    (["six.txt", "--solution", "--width", "300"], (300, 300)),
    (["qwh5.pls", "--width", "123"], (123, 123)),
    (["top3.txt", "--width", "610"], (610, 222)),     # 1220 x 444 units
    (["myciel3-precolored.col", "--layout", "circle", "--width", "200"], (200, 200)),
])
def test_png_is_a_valid_png_of_the_requested_size(args, size, tmp_path, matplotlib):
    from PIL import Image

    out = tmp_path / "picture.png"
    done = cli_run("draw", EXAMPLES / args[0], *args[1:], "-o", out)
    assert done.exit_code == 0, done.stderr
    data = out.read_bytes()
    assert png_size(data) == size
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        assert image.size == size
        pixels = np.asarray(image.convert("L"))
    assert pixels.min() < 60 and pixels.max() > 200   # black lines on white


def test_png_draws_the_lines_where_the_svg_has_them(tmp_path, matplotlib):
    from PIL import Image

    out = tmp_path / "six.png"
    cli_run("draw", EXAMPLES / "six.txt", "-o", out, "--width", "260")
    pixels = np.asarray(Image.open(out).convert("L"))
    # 260 px for 260 units: the thick vertical box border at x = 10 + 3 * 40 = 130
    assert pixels[60:250, 129:132].mean() < 80
    assert pixels[60:250, 105:110].mean() > 200        # inside the cells: white


def test_pdf_has_a_page_per_sheet_page(tmp_path, matplotlib):
    out = tmp_path / "top3.pdf"
    done = cli_run("draw", EXAMPLES / "top3.txt", "--per-page", "2", "-o", out)
    assert done.exit_code == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", data)) == 2


def test_format_option_writes_png_to_stdout(matplotlib):
    done = cli_run("draw", EXAMPLES / "six.txt", "--format", "png", "--width", "64")
    assert png_size(done.stdout_bytes) == (64, 64)


def test_missing_matplotlib_is_one_line_naming_the_extra(tmp_path, monkeypatch):
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda mod, *a: None if mod == "matplotlib" else found(mod, *a))
    out = tmp_path / "x.png"
    line = assert_cli_error(cli_run("draw", EXAMPLES / "six.txt", "-o", out), 6,
                            "needs matplotlib", 'pip install "sudokit[draw]"')
    assert not out.exists() and line.count("\n") == 0
    assert cli_run("draw", EXAMPLES / "six.txt").exit_code == 0     # SVG needs nothing
    with pytest.raises(MissingExtraError):
        from sudokit.draw.raster import render

        render([], "png", io.BytesIO())


# -- bad input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("args, code, fragment", [
    (["nosuch.txt"], 3, "cannot read nosuch.txt"),
    (["top3.txt", "--index", "4"], 2, "--index 4: "),
    (["top3.txt", "--index", "0"], 2, "--index"),
    (["knuth6.dlx"], 4, "not xc"),
    (["top3.txt", "--layout", "circle"], 2, "--layout applies only to graphs"),
    (["myciel3-precolored.col", "--candidates"], 2, "--candidates applies only to grids"),
    (["top3.txt", "--scheme", "FCI"], 2, "--scheme applies only with --candidates"),
    (["top3.txt", "--candidates", "--scheme", "XYZ"], 2, "--scheme"),
    (["top3.txt", "--candidates", "--scheme", "FC,FCI"], 2, "name one scheme"),
    (["top3.txt", "--solution", "--candidates"], 2, "do not go together"),
    (["top3.txt", "-o", "x.gif"], 2, "cannot tell the format"),
    (["top3.txt", "--index", "1", "--per-page", "2"], 2, "do not go together"),
    (["top3.txt", "--time-limit", "1"], 2, "--time-limit applies only with --solution"),
])
def test_bad_input_is_one_line(args, code, fragment):
    first = args[0] if args[0] == "nosuch.txt" else EXAMPLES / args[0]
    assert_cli_error(cli_run("draw", first, *args[1:]), code, fragment)


def test_unsolvable_puzzle_with_solution_is_an_error():
    done = cli_run("draw", "-", "--solution", input="order 2\n0 -1\n-1 1\n")
    assert_cli_error(done, 4, "has no solution to draw")
    assert cli_run("draw", "-", input="order 2\n0 -1\n-1 1\n").exit_code == 0


def test_help_lists_draw():
    assert "draw" in cli_run("--help").stdout
    assert 'pip install "sudokit[draw]"' in " ".join(cli_run("draw", "--help").stdout.split())


def test_spring_layout_without_networkx_names_the_draw_extra(monkeypatch):
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setitem(sys.modules, "networkx", None)
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda mod, *a: None if mod == "networkx" else found(mod, *a))
    graph = EXAMPLES / "myciel3-precolored.col"
    assert_cli_error(cli_run("draw", graph), 6, "needs networkx", 'pip install "sudokit[draw]"')
    assert cli_run("draw", graph, "--layout", "circle").exit_code == 0
