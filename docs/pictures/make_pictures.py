"""Make the pictures of the docs pages with ``sudokit draw``, or check that they are up to date.

    python docs/pictures/make_pictures.py          # write docs/pictures/*.svg
    python docs/pictures/make_pictures.py --check  # exit 1 naming the stale ones

tests/test_draw_pictures.py runs the check, so a change to the drawing code that changes a
picture fails until the pictures are made again (and looked at).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
EXAMPLES = "sudokit/instances/examples"

#: picture file -> the arguments of ``sudokit draw`` that make it (paths from the repository
#: root; the picture goes to stdout)
PICTURES: dict[str, list[str]] = {
    "puzzle17.svg": [f"{EXAMPLES}/puzzle17.txt", "--highlight-givens"],
    "puzzle17-solution.svg": [f"{EXAMPLES}/puzzle17.txt", "--solution"],
    "top3-2-candidates-fci.svg": [f"{EXAMPLES}/top3.txt", "--index", "2", "--candidates",
                                  "--scheme", "FCI"],
    "six-solution.svg": [f"{EXAMPLES}/six.txt", "--solution"],
    "qwh5.svg": [f"{EXAMPLES}/qwh5.pls", "--highlight-givens"],
    "myciel3-coloring.svg": [f"{EXAMPLES}/myciel3-precolored.col", "--solution", "--layout",
                             "circle", "--width", "360"],
    "top3-sheet.svg": [f"{EXAMPLES}/top3.txt", "--width", "900"],
    "jigsaw9-solution.svg": [f"{EXAMPLES}/jigsaw9.txt", "--solution"],
    "x9.svg": [f"{EXAMPLES}/x9.txt", "--index", "1", "--highlight-givens"],
}


def render(name: str) -> str:
    """The SVG text ``sudokit draw`` writes for picture ``name`` (run in this process)."""
    import os

    from click.testing import CliRunner

    from sudokit.cli import main

    here = os.getcwd()
    os.chdir(ROOT)
    try:
        result = CliRunner().invoke(main, ["draw", *PICTURES[name]], catch_exceptions=False,
                                    env={"SUDOKIT_NO_PROGRESS": "1"})
    finally:
        os.chdir(here)
    if result.exit_code != 0:
        raise RuntimeError(f"sudokit draw {' '.join(PICTURES[name])}: exit "
                           f"{result.exit_code}: {result.stderr}")
    return result.stdout


def stale() -> list[str]:
    """The pictures whose file differs from what the command makes now (or is missing)."""
    out = []
    for name in PICTURES:
        path = HERE / name
        if not path.is_file() or path.read_text() != render(name):
            out.append(name)
    return out


def main(argv: list[str]) -> int:
    if "--check" in argv:
        names = stale()
        for name in names:
            print(f"stale: docs/pictures/{name} (run python docs/pictures/make_pictures.py)",
                  file=sys.stderr)
        return 1 if names else 0
    for name in PICTURES:
        (HERE / name).write_text(render(name))
        print(f"wrote docs/pictures/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
