"""The documentation site builds with warnings as errors (as .ci/run builds it), its
references are generated from the code, its link checks catch a broken link, its Guides
section lists whatever docs/guide/*.md pages exist, and the benchmark plots are drawn from
benchmarks/README.md's tables."""

import importlib.util
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from .helpers import ROOT, requires

pytestmark = requires("docs")

ENV = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONPATH=str(ROOT))


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _mkdocs_build(config, site, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(config), "--site-dir", str(site)], cwd=cwd, env=ENV,
                          capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site, built strictly from the repository into a temporary folder."""
    site = tmp_path_factory.mktemp("site")
    done = _mkdocs_build(ROOT / "mkdocs.yml", site)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    return site


def test_every_page_is_built(site):
    for page in (ROOT / "docs").rglob("*.md"):
        relative = page.relative_to(ROOT / "docs").with_suffix("")
        built = site / (relative.parent if relative.name == "index" else relative) / "index.html"
        assert built.exists(), page
    assert (site / "benchmarks" / "measurements" / "index.html").exists()
    for figure in (ROOT / "benchmarks" / "figures").glob("*.png"):
        assert (site / "benchmarks" / "figures" / figure.name).exists()


def test_cli_reference_is_generated_from_the_click_group(site):
    from sudokit.cli import COMMANDS

    html = (site / "cli" / "index.html").read_text()
    for name in COMMANDS:
        assert f'id="sudokit-{name}"' in html, name
    assert "--time-limit" in html and "--max-memory" in html


def test_api_reference_is_generated_from_the_docstrings(site):
    html = "".join(page.read_text() for page in (site / "api").rglob("index.html"))
    for name in ("sudokit.solvers.solve", "sudokit.instances.sudoku",
                 "sudokit.reductions.reduce", "sudokit.formats.read_instances",
                 "sudokit.counting.count_models", "sudokit.generators.generate_puzzles"):
        assert f'id="{name}"' in html, name


def test_the_link_checks_catch_a_missing_page_and_anchor(tmp_path):
    """A page with a broken link and a broken anchor fails a build with the project's
    validation settings (so a green build means the links hold)."""
    import yaml

    settings = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [the page](other.md#nowhere) and "
                                   "[this](missing.md).\n")
    (docs / "other.md").write_text("# Other\n\n## Somewhere\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"site_name": "t", "docs_dir": str(docs),
                                      "validation": settings["validation"]}))
    done = _mkdocs_build(config, tmp_path / "site", cwd=tmp_path)
    assert done.returncode != 0
    assert "missing.md" in done.stderr and "nowhere" in done.stderr


def test_guides_section_lists_the_guide_pages_that_exist(tmp_path):
    hooks = _load("docs_hooks", ROOT / "docs" / "hooks.py")
    nav = [{"Home": "index.md"}, {"Guides": "guide/"}, {"Reference": []}]
    assert hooks.on_config({"docs_dir": str(tmp_path), "nav": list(nav)})["nav"] == \
        [nav[0], nav[2]]                                  # no guide yet: no empty section
    (tmp_path / "guide").mkdir()
    (tmp_path / "guide" / "sheets.md").write_text("# Printing sheets\n\ntext\n")
    (tmp_path / "guide" / "explain.md").write_text("no heading\n")
    built = hooks.on_config({"docs_dir": str(tmp_path), "nav": list(nav)})["nav"]
    assert built[1] == {"Guides": [{"Explain": "guide/explain.md"},
                                   {"Printing sheets": "guide/sheets.md"}]}


def test_the_nav_names_only_pages_that_exist():
    import yaml

    settings = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    named = re.findall(r"[\w/.-]+\.md", str(settings["nav"]))
    generated = {"benchmarks/measurements.md"}
    for page in named:
        assert page in generated or (ROOT / "docs" / page).exists(), page


def test_benchmark_plots_are_drawn_from_the_tables(tmp_path):
    """benchmarks/plots.py writes every figure the benchmarks page shows, from the committed
    tables, and the committed figures say what a fresh drawing says."""
    plots = _load("benchmark_plots", ROOT / "benchmarks" / "plots.py")
    written = plots.draw(tmp_path)
    page = (ROOT / "docs" / "benchmarks.md").read_text()
    shown = set(re.findall(r"\]\(figures/benchmarks/([\w.-]+\.svg)\)", page))
    assert shown == {path.name for path in written} == set(plots.FIGURES)
    for path in written:
        ET.parse(path)
        assert (ROOT / "docs" / "figures" / "benchmarks" / path.name).exists()
    assert plots.stale() == []
    words = plots.words(tmp_path / "throughput.svg")
    assert "tdoku" in words and "sudokit (default: takano)" in words


def test_benchmark_plots_see_a_changed_table(tmp_path):
    """A table that changes makes the committed figure stale (the check can fail)."""
    plots = _load("benchmark_plots", ROOT / "benchmarks" / "plots.py")
    text = (ROOT / "benchmarks" / "README.md").read_text()
    changed = tmp_path / "README.md"
    changed.write_text(text.replace("279,707/s", "379,707/s", 1))
    assert plots.stale(readme=changed) == ["throughput.svg"]
