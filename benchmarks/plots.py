"""Draw the benchmark figures of the documentation from the tables in benchmarks/README.md.

    python benchmarks/plots.py                 # write docs/figures/benchmarks/*.svg
    python benchmarks/plots.py --out DIR       # write them into DIR instead
    python benchmarks/plots.py --check         # exit 1 naming figures whose data changed

The numbers come from the tables the benchmark scripts printed, as pasted into
benchmarks/README.md (each plot names its script); nothing is measured here, so a new run of
a script, pasted in, is redrawn by running this again. Four figures:

- ``throughput.svg``: the 49,158 17-clue puzzles proved unique, puzzles per second of the
  whole process, sudokit's engines against tdoku, QQwing, xcover and exact-cover
  (cli_throughput.py);
- ``scaling.svg``: CNF clauses and DIMACS write seconds from 9x9 to 64x64 per encoding
  (encoding_size.py);
- ``fill-strategies.svg``: median seconds per full grid by size and fill strategy, Raggi et
  al.'s Figures 5-7 rerun, with 49x49 and 64x64 (fill_strategies.py);
- ``grades.svg``: the share of each Simonis grade among 10,000 generated minimal 9x9 puzzles
  (generation_scale.py) and the search-free percent of the 17-clue set per scheme beside the
  paper's (grade_tables.py).

The SVG files keep their text as text and carry no date, so a redraw from the same table
with the same matplotlib gives the same bytes. ``--check`` redraws into a temporary folder
and compares the words of each figure (titles, labels, tick labels, legends) with the
committed one's: a table that changed shows up there, a new matplotlib's drawing does not.

Needs matplotlib (``pip install "sudokit[docs]"`` or ``"sudokit[plot]"``).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "benchmarks" / "README.md"
OUT = ROOT / "docs" / "figures" / "benchmarks"


# -- the tables ------------------------------------------------------------------------------

def section(text: str, heading: str) -> str:
    """The text of the ``## heading...`` section, up to the next ``## `` heading outside a
    fenced block (a table printed by a script may have lines starting with ``## ``)."""
    lines, fenced, found = [], False, False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("## "):
            if found:
                break
            found = line.startswith("## " + heading)
        if found:
            lines.append(line)
    if not found:
        raise ValueError(f"benchmarks/README.md has no section '## {heading}'")
    return "\n".join(lines)


def number(cell: str) -> float | None:
    """A table cell as a number (``1,333/s`` -> 1333.0, ``44.56`` -> 44.56), None for ``-``."""
    cell = cell.strip().rstrip("%").removesuffix("/s").replace(",", "")
    try:
        return float(cell)
    except ValueError:
        return None


def throughput(text: str) -> dict[str, list[tuple[str, float]]]:
    """cli_throughput.py: row id -> [(program, whole-process rate per second)]."""
    block = section(text, "cli_throughput.py")
    rows: dict[str, list[tuple[str, float]]] = {}
    current = None
    for line in block.splitlines():
        head = re.match(r"^\[([\w-]+)\] ", line)
        if head:
            current = rows.setdefault(head.group(1), [])
            continue
        fields = re.split(r"\s{2,}", line.strip())
        if current is not None and line.startswith("  ") and len(fields) == 13:
            rate = number(fields[10])
            if rate is not None:
                current.append((fields[0], rate))
    return rows


def encoding_sizes(text: str) -> list[dict[str, object]]:
    """encoding_size.py: one dict per row (n, encoding, clauses, write seconds)."""
    block = section(text, "encoding_size.py")
    rows = []
    for match in re.finditer(r"^\s*(\d+)\s+(minimal|efficient|extended|reduced)\s+(.+?)\s{2,}"
                             r"([\d,]+)\s+([\d,]+)\s+([\d,]+)\s+([\d.]+)\s+([\d.]+)\s+",
                             block, flags=re.M):
        n, encoding, instance, _variables, clauses, _literals, build, write = match.groups()
        rows.append({"n": int(n), "encoding": encoding, "instance": instance,
                     "clauses": number(clauses), "build": float(build),
                     "write": float(write)})
    return rows


def fill_times(text: str) -> list[dict[str, object]]:
    """fill_strategies.py: strategy, size, fills done, median and max seconds per grid."""
    block = section(text, "fill_strategies.py")
    rows = []
    for match in re.finditer(r"^([a-z-]+)\s+(\d+)x\d+\s+(\d+)/(\d+)\s+(\S+)\s+(\S+)\s",
                             block, flags=re.M):
        strategy, n, done, tried, median, largest = match.groups()
        rows.append({"strategy": strategy, "n": int(n), "done": int(done),
                     "tried": int(tried), "median": number(median), "max": number(largest)})
    return rows


def grade_shares(text: str) -> list[tuple[str, float]]:
    """generation_scale.py: (grade, percent of the 10,000 minimal puzzles)."""
    block = section(text, "generation_scale.py")
    return [(grade, float(share)) for grade, share in
            re.findall(r"^([A-Z0-9]+)\s+[\d,]+\s+([\d.]+)%\s+[\d.]+%$", block, flags=re.M)]


def search_free(text: str) -> tuple[list[str], list[float], list[float | None]]:
    """grade_tables.py, 17-clue set: schemes, our percent and the paper's (None: not given)."""
    block = section(text, "Grading")
    header = re.search(r"^set\s+instances\s+(.+)$", block, flags=re.M)
    assert header is not None, "grade_tables.py: no header row"
    schemes = header.group(1).split()
    ours = re.search(r"^17-clue \(ours\)\s+[\d,]+\s+(.+)$", block, flags=re.M)
    paper = re.search(r"^paper \(7,611\)\s+(.+)$", block, flags=re.M)
    assert ours is not None and paper is not None, "grade_tables.py: no 17-clue rows"
    return (schemes, [number(x) or 0.0 for x in ours.group(1).split()],
            [number(x) for x in paper.group(1).split()])


# -- the figures -----------------------------------------------------------------------------

SOURCE = "data: benchmarks/README.md ({})"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "sudokit", "svg.fonttype": "none",
                         "font.size": 9, "axes.spines.top": False,
                         "axes.spines.right": False})
    return plt


def _save(fig, path: Path, script: str) -> None:
    fig.text(0.99, 0.005, SOURCE.format(script), ha="right", va="bottom", fontsize=7,
             color="0.4")
    fig.savefig(path, format="svg", metadata={"Date": None})


def plot_throughput(text: str, path: Path) -> None:
    plt = _pyplot()
    rows = throughput(text)
    names = {"u17-default": "sudokit (default: takano)", "u17-dlx": "sudokit --solver dlx",
             "u17-cadical": "sudokit --solver cadical195"}
    bars = [(names[row] if program == "sudokit" else program, rate)
            for row in ("u17-default", "u17-dlx", "u17-cadical")
            for program, rate in rows.get(row, [])]
    bars.sort(key=lambda bar: bar[1])
    fig, ax = plt.subplots(figsize=(7, 3.6), layout="constrained")
    colors = ["tab:blue" if label.startswith("sudokit") else "0.6" for label, _ in bars]
    ax.barh([label for label, _ in bars], [rate for _, rate in bars], color=colors)
    for y, (_, rate) in enumerate(bars):
        ax.text(rate * 1.08, y, f"{rate:,.0f}/s", va="center", fontsize=8)
    ax.set_xscale("log")
    ax.set_xlim(right=max(rate for _, rate in bars) * 6)
    ax.set_xlabel("puzzles per second, whole process (log scale)")
    ax.set_title("49,158 17-clue puzzles proved unique (sudokit in blue)")
    _save(fig, path, "cli_throughput.py")
    plt.close(fig)


def plot_scaling(text: str, path: Path) -> None:
    plt = _pyplot()
    rows = [row for row in encoding_sizes(text) if row["instance"] == "empty"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.4), layout="constrained")
    for encoding in ("minimal", "efficient", "extended"):
        mine = [row for row in rows if row["encoding"] == encoding]
        sides = [row["n"] for row in mine]
        left.plot(sides, [row["clauses"] for row in mine], marker="o", label=encoding)
        right.plot(sides, [row["write"] for row in mine], marker="o", label=encoding)
    for ax in (left, right):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks([9, 16, 25, 36, 64], ["9", "16", "25", "36", "64"])
        ax.minorticks_off()
        ax.set_xlabel("side n of the empty n x n Sudoku")
        ax.legend(frameon=False)
    left.set_ylabel("clauses")
    left.set_title("CNF size grows as n^4")
    right.set_ylabel("seconds to write the DIMACS file")
    right.set_title("writing it (about 200 MB/s)")
    _save(fig, path, "encoding_size.py")
    plt.close(fig)


def plot_fills(text: str, path: Path) -> None:
    plt = _pyplot()
    rows = fill_times(text)
    shown = ("ilp", "weighted-prune", "prune", "backtrack", "search", "auto", "sat",
             "product", "ilp-objective")
    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    for strategy in shown:
        mine = sorted((row for row in rows if row["strategy"] == strategy
                       and row["median"] is not None), key=lambda row: row["n"])
        if not mine:
            continue
        line, = ax.plot([row["n"] for row in mine], [row["median"] for row in mine],
                        marker="o", label=strategy)
        ax.scatter([row["n"] for row in mine], [row["max"] for row in mine], marker="_",
                   s=80, color=line.get_color())
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks([9, 16, 25, 36, 49, 64], ["9", "16", "25", "36", "49", "64"])
    ax.minorticks_off()
    ax.set_xlabel("side n of the full n x n grid")
    ax.set_ylabel("seconds per grid: median (dot), slowest (dash)")
    ax.set_title("Filling a random grid by strategy (Raggi et al., Figures 5-7, rerun)")
    ax.legend(frameon=False, ncol=3, fontsize=8)
    _save(fig, path, "fill_strategies.py")
    plt.close(fig)


def plot_grades(text: str, path: Path) -> None:
    plt = _pyplot()
    shares = grade_shares(text)
    schemes, ours, paper = search_free(text)
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6), layout="constrained",
                                      gridspec_kw={"width_ratios": [1, 1.6]})
    left.bar([grade for grade, _ in shares], [share for _, share in shares], color="tab:blue")
    left.set_ylabel("percent of the puzzles")
    left.set_title("grades of 10,000 generated minimal 9x9 puzzles", fontsize=9)
    left.tick_params(axis="x", labelrotation=60)
    x = range(len(schemes))
    right.bar([i - 0.2 for i in x], ours, width=0.4, label="17-clue set, 49,158 (sudokit)",
              color="tab:blue")
    right.bar([i + 0.2 for i in x], [p if p is not None else 0.0 for p in paper], width=0.4,
              label="Simonis 2005, 7,611", color="0.6")
    right.set_xticks(list(x), schemes, rotation=60)
    right.set_ylabel("percent solved without search")
    right.set_title("search-free puzzles per propagation scheme", fontsize=9)
    right.legend(frameon=False, fontsize=8, loc="upper left")
    _save(fig, path, "generation_scale.py, grade_tables.py")
    plt.close(fig)


#: file name -> the function that draws it from the README's text
FIGURES: dict[str, Callable[[str, Path], None]] = {
    "throughput.svg": plot_throughput,
    "scaling.svg": plot_scaling,
    "fill-strategies.svg": plot_fills,
    "grades.svg": plot_grades,
}


def draw(out: Path, readme: Path = README) -> list[Path]:
    """Draw every figure into ``out``; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    text = readme.read_text(encoding="utf-8")
    written = []
    for name, plot in FIGURES.items():
        plot(text, out / name)
        written.append(out / name)
    return written


def words(path: Path) -> list[str]:
    """The text of an SVG figure: every ``<text>`` element's, in order."""
    return ["".join(element.itertext()).strip()
            for element in ET.parse(path).iter("{http://www.w3.org/2000/svg}text")]


def stale(out: Path = OUT, readme: Path = README) -> list[str]:
    """The figures of ``out`` missing, or whose words differ from a fresh drawing's."""
    with tempfile.TemporaryDirectory() as fresh:
        draw(Path(fresh), readme)
        return [name for name in FIGURES
                if not (out / name).exists() or words(out / name) != words(Path(fresh) / name)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"folder (default {OUT})")
    parser.add_argument("--check", action="store_true",
                        help="redraw into a temporary folder and compare, write nothing")
    args = parser.parse_args(argv)
    if args.check:
        names = stale(args.out)
        for name in names:
            print(f"stale: {args.out / name} (run python benchmarks/plots.py)")
        return 1 if names else 0
    for path in draw(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
