"""Rebuild se_nested.json: Sukaku Explainer's ratings of the puzzles (serate output lines
``PUZZLE ED=r/p/d``, or ``PUZZLE >=11`` for the forum's hardest SE was not run on) and
ours next to them.

    PYTHONPATH=. python tests/human/make_se_nested.py SOURCE=FILE ... > tests/human/se_nested.json

Each ``SOURCE=FILE`` names where the puzzles come from (``generate``, ``grade-search``,
``forum-hardest``).
"""

from __future__ import annotations

import json
import sys

from sudokit.formats import parse_puzzles
from sudokit.human import rate

NOTE = ("se: Sukaku Explainer's rating (serate ED= first figure), null where it was not "
        "run (the forum's hardest are SE 11+ by the file's selection); ours: sudokit's; "
        "tolerance: the largest gap where both finish (forcing-net steps, whose measure is "
        "unchanged, and level-3 steps); tested: forum puzzles without SE's figure the "
        "no-rating-below-10 test rates")


def main(args: list[str]) -> None:
    rows = []
    for arg in args:
        source, path = arg.split("=", 1)
        for line in open(path, encoding="ascii"):
            puzzle, se = line.split()[:2]
            value = float(se[3:].split("/")[0]) if se.startswith("ED=") else None
            rated = rate(parse_puzzles(puzzle)[0].instance)
            rows.append({"puzzle": puzzle, "source": source, "se": value,
                         "ours": rated.value, "hardest": rated.hardest,
                         "solved": rated.solved})
    json.dump({"tolerance": 0.2, "tested": 1, "puzzles": rows, "note": NOTE}, sys.stdout,
              indent=1)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
