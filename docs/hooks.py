"""MkDocs hooks of the documentation site (``hooks:`` in mkdocs.yml).

- The "Guides" section of the navigation lists every ``docs/guide/*.md`` page, whatever pages
  exist (each titled by its first ``# `` heading), so a guide is added by adding its file.
- ``benchmarks/README.md`` (every measurement, kept beside the scripts that make them) is a
  page of the site, ``benchmarks/measurements.md``, with the figures its text shows, so the
  site and the repository show one text, not two copies.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
GUIDES = "Guides"


def _title(path: Path) -> str:
    heading = re.search(r"^# (.+)$", path.read_text(encoding="utf-8"), flags=re.M)
    return heading.group(1).strip() if heading else path.stem.replace("-", " ").capitalize()


def guide_pages(docs: Path) -> list[dict[str, str]]:
    """The nav entries of the guide pages, ``{title: "guide/NAME.md"}``, by file name."""
    return [{_title(page): page.relative_to(docs).as_posix()}
            for page in sorted((docs / "guide").glob("*.md"))]


def on_config(config):
    docs = Path(config["docs_dir"])
    nav = []
    for entry in config["nav"] or []:
        if isinstance(entry, dict) and GUIDES in entry:
            pages = guide_pages(docs)
            if not pages:
                continue          # no guide yet: no empty section
            entry = {GUIDES: pages}
        nav.append(entry)
    config["nav"] = nav
    return config


def on_files(files, config):
    benchmarks = ROOT / "benchmarks"
    files.append(File.generated(config, "benchmarks/measurements.md",
                                abs_src_path=str(benchmarks / "README.md")))
    for figure in sorted((benchmarks / "figures").glob("*.png")):
        files.append(File.generated(config, f"benchmarks/figures/{figure.name}",
                                    abs_src_path=str(figure)))
    return files
