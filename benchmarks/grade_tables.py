"""Simonis (2005) Tables 4 and 5: percent of puzzles search free under each propagation scheme.

Runs every scheme of :mod:`sudokit.grading` over the tdoku 17-clue set (49,158 puzzles; the
paper had 7,611) and Norvig's top95 (the paper used a top-100 set), prints each table next to
the paper's row, checks the lattice order on every puzzle (a puzzle search free under a scheme
must be search free under every stronger one), and computes the Spearman rank correlation
between our grade / node count and the Sudoku Explainer rating of the Sudoku Exchange
"diabolical" puzzles.

    python benchmarks/grade_tables.py [--limit N] [--diabolical N] [--sets 17-clue,top95]

Progress goes to stderr, tables to stdout.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _data import DATA, SUDOKU17, Timer, format_table, log, machine_note, read_puzzles  # noqa: E402

from sudokit.grading import (  # noqa: E402
    DEFAULT_NODES_SCHEME,
    ORDER,
    PAPER_17_CLUE,
    PAPER_TOP100,
    STRONGER,
    TABLE_SCHEMES,
    label_nodes,
    search_free_table,
)
from sudokit.instances import sudoku  # noqa: E402

TOP95 = DATA / "sudoku" / "9x9-norvig" / "top95.txt"
DIABOLICAL = DATA / "sudoku" / "9x9-sudokuexchange" / "diabolical.txt"
EXTRA = ("HACS3", "HACC3", "HACSC3")


SLOW = ("FCV", "BCV")
SHAVING = ("FCV", "BCV", "HACV")
ONE_PASS = "/1"       # table key suffix: the shaving scheme run with shave_passes=1


def run_set(label, grids, slow_limit=None):
    puzzles = [sudoku(g) for g in grids]
    table = {}
    seconds = {}
    for name in ORDER:
        if name in SLOW and slow_limit is not None and slow_limit < len(puzzles):
            with Timer() as timer:
                part = search_free_table(puzzles[:slow_limit], [name])[:, 0]
            table[name] = np.zeros(len(puzzles), dtype=bool)
            table[name][:slow_limit] = part
            table[name + "@"] = part
            seconds[name] = timer.seconds
            log(f"{label} {name}: first {slow_limit}: {100 * part.mean():.2f}% search free, "
                f"{timer.seconds:.1f} s")
            continue
        started = time.monotonic()
        last = [started]

        def progress(done, name=name, last=last, started=started):
            now = time.monotonic()
            if now - last[0] >= 10:
                last[0] = now
                log(f"  {label} {name}: {done}/{len(puzzles)} ({now - started:.0f} s)")

        with Timer() as timer:
            table[name] = search_free_table(puzzles, [name], progress=progress)[:, 0]
        seconds[name] = timer.seconds
        log(f"{label} {name}: {100 * table[name].mean():.2f}% search free, {timer.seconds:.1f} s")
    # Simonis's shaving evidently tried each value once: the same schemes with one pass
    for name in SHAVING:
        with Timer() as timer:
            table[name + ONE_PASS] = search_free_table(puzzles, [name], shave_passes=1)[:, 0]
        log(f"{label} {name}, one pass: {100 * table[name + ONE_PASS].mean():.2f}% search "
            f"free, {timer.seconds:.1f} s")
    return table, seconds


def lattice_violations(table):
    bad = 0
    size = min(len(v) for v in table.values())
    for weak, stronger in STRONGER.items():
        for strong in stronger:
            bad += int(np.count_nonzero(table[weak][:size] & ~table[strong][:size]))
    return bad


def _main(table):
    """The table without the prefix (``@``) and one-pass entries."""
    return {k: v for k, v in table.items() if k[-1] != "@" and not k.endswith(ONE_PASS)}


def percent(table, name):
    """Percent search free; a scheme run on a prefix only (--shave-limit) uses that prefix."""
    return 100 * table.get(name + "@", table[name]).mean()


def print_table(title, table, seconds, paper, paper_label, count):
    heads = ["set", "instances"] + list(TABLE_SCHEMES) + list(EXTRA)
    def fmt(x):
        return f"{x:.2f}"
    ours = [title, f"{count:,}"] + [fmt(percent(table, s)) + ("*" if s + "@" in table else "")
                                    for s in TABLE_SCHEMES + EXTRA]
    theirs = [paper_label, ""] + [fmt(paper[s]) if s in paper else "-" for s in
                                  TABLE_SCHEMES + EXTRA]
    one_pass = ["  one shaving pass", f"{count:,}"] + [
        fmt(100 * table[s + ONE_PASS].mean()) if s + ONE_PASS in table else "-"
        for s in TABLE_SCHEMES + EXTRA]
    print(format_table(heads, [ours, one_pass, theirs]))
    total = sum(seconds.values())
    print("seconds per scheme: " + ", ".join(f"{s} {seconds[s]:.1f}" for s in ORDER)
          + f"; total {total:.1f} s ({1e3 * total / max(count, 1):.2f} ms per puzzle, all schemes)")
    slow = [s for s in SLOW if s + "@" in table]
    if slow:
        print(f"* {', '.join(slow)} on the first {len(table[slow[0] + '@']):,} puzzles only "
              f"(--shave-limit)")
    compared = _main(table)
    if slow:  # compare on the puzzles every scheme ran on
        shown = len(table[slow[0] + "@"])
        compared = {k: v[:shown] for k, v in compared.items()}
    print(f"lattice order violations (puzzle search free under a scheme but not under a "
          f"stronger one): {lattice_violations(compared)}")
    print()


def spearman(x, y):
    """Spearman's rho with average ranks for ties (numpy only)."""
    def ranks(a):
        a = np.asarray(a, dtype=float)
        order = np.argsort(a, kind="mergesort")
        r = np.empty(len(a))
        r[order] = np.arange(1, len(a) + 1)
        _, inverse, counts = np.unique(a, return_inverse=True, return_counts=True)
        sums = np.bincount(inverse, weights=r)
        return (sums / counts)[inverse]
    rx, ry = ranks(x), ranks(y)
    return float(np.corrcoef(rx, ry)[0, 1])


def read_diabolical(limit):
    grids, ratings = [], []
    with open(DIABOLICAL) as handle:
        for line in handle:
            parts = line.split()
            if len(parts) != 3:
                continue
            grids.append(np.array([int(c) for c in parts[1]], dtype=np.int32).reshape(9, 9))
            ratings.append(float(parts[2]))
            if limit and len(grids) >= limit:
                break
    return grids, np.array(ratings)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None,
                        help="only the first N puzzles of the 17-clue set (default: all)")
    parser.add_argument("--diabolical", type=int, default=3000, metavar="N",
                        help="rated puzzles for the rank correlation (0: all 39,719)")
    parser.add_argument("--sets", default="17-clue,top95,diabolical")
    parser.add_argument("--shave-limit", type=int, default=None, metavar="N",
                        help="run the slow shaving schemes FCV and BCV on the first N 17-clue "
                             "puzzles only (default: all; BCV costs about 25 ms a puzzle)")
    args = parser.parse_args(argv)
    sets = args.sets.split(",")
    print("Simonis (2005) Tables 4/5: percent search free per propagation scheme")
    print(machine_note())
    print()
    # warm up the numba kernels (compiled once and cached on disk)
    search_free_table([sudoku(np.zeros((9, 9), dtype=int))], ORDER)
    if "17-clue" in sets:
        grids = read_puzzles(SUDOKU17, args.limit)
        log(f"17-clue: {len(grids)} puzzles")
        table, seconds = run_set("17-clue", grids, args.shave_limit)
        print("Table 4: 17-clue puzzles (tdoku puzzles2_17_clue)")
        print_table("17-clue (ours)", table, seconds, PAPER_17_CLUE, "paper (7,611)", len(grids))
    if "top95" in sets:
        grids = read_puzzles(TOP95)
        table, seconds = run_set("top95", grids)
        print("Table 5: Norvig top95 (percent; the paper's top-100 row is a count out of 100)")
        print_table("top95 (ours)", table, seconds, PAPER_TOP100, "paper (top100)", len(grids))
    if "diabolical" in sets:
        grids, ratings = read_diabolical(args.diabolical)
        log(f"diabolical: {len(grids)} rated puzzles")
        table, seconds = run_set("diabolical", grids)
        level = np.full(len(grids), len(ORDER))
        for rank, name in reversed(list(enumerate(ORDER))):
            level[table[name]] = rank
        puzzles = [sudoku(g) for g in grids]
        with Timer() as timer:
            nodes = np.array([label_nodes(p, DEFAULT_NODES_SCHEME) for p in puzzles])
        grades, counts = np.unique(level, return_counts=True)
        names = [ORDER[g] if g < len(ORDER) else "search" for g in grades]
        print(f"Sudoku Exchange diabolical: first {len(grids):,} rated puzzles "
              f"(Sudoku Explainer ratings {ratings.min():.1f}..{ratings.max():.1f})")
        distribution = ", ".join(f"{n} {c}" for n, c in zip(names, counts, strict=True))
        print("grade distribution: " + distribution)
        print("Spearman rho(grade index in ORDER, rating)         = "
              f"{spearman(level, ratings):+.3f}")
        print(f"Spearman rho(nodes under {DEFAULT_NODES_SCHEME}, rating)          = "
              f"{spearman(nodes, ratings):+.3f}  (nodes: median {np.median(nodes):.0f}, "
              f"max {nodes.max()}, {timer.seconds:.1f} s)")
        key = level * 10**7 + np.minimum(nodes, 10**7 - 1)
        print(f"Spearman rho((grade, nodes) lexicographic, rating) = {spearman(key, ratings):+.3f}")
        print(f"lattice order violations: {lattice_violations(table)}")


if __name__ == "__main__":
    main()
