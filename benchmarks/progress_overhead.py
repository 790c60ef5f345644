"""What the progress line costs: ``sudokit count --limit 2`` of the 49,151 17-clue puzzles
(copied ``--copies`` times into one temporary file, so the run lasts well past the 2 s before
the line is first drawn) with the line drawn on a terminal (a pseudo-terminal as stderr,
``--progress``: redrawn four times a second, a ticker thread) against the same run with
``--quiet``, in one run, alternating, best of K. Prints wall and CPU seconds of each whole
process (children included) and the bytes the line wrote.

    python benchmarks/progress_overhead.py [--repeat 3] [--copies 4] [--file PATH]
"""

from __future__ import annotations

import argparse
import os
import pty
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT.parent / "shared" / "data" / "sudoku" / "9x9-royle17" / "sudoku17.txt"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(path: Path, flag: str) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and stderr bytes of one ``count`` run."""
    main, side = pty.openpty()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("SUDOKIT_NO_PROGRESS", None)
    written = [0]

    def drain() -> None:
        while True:
            try:
                data = os.read(main, 65536)
            except OSError:
                return
            if not data:
                return
            written[0] += len(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    cpu, wall = _children_cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-m", "sudokit", "count", "--limit", "2", flag, str(path)],
                   stdout=subprocess.DEVNULL, stderr=side, env=env, check=True)
    wall, cpu = time.perf_counter() - wall, _children_cpu() - cpu
    os.close(side)
    reader.join(5)
    os.close(main)
    return wall, cpu, written[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--copies", type=int, default=4)
    parser.add_argument("--file", type=Path, default=DEFAULT)
    args = parser.parse_args()
    text = args.file.read_text()
    text = text if text.endswith("\n") else text + "\n"
    best: dict[str, tuple[float, float, int]] = {}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "puzzles.txt"
        path.write_text(text * args.copies)
        lines = (text * args.copies).count("\n")
        for _ in range(args.repeat):
            for flag in ("--quiet", "--progress"):
                result = run(path, flag)
                if flag not in best or result[0] < best[flag][0]:
                    best[flag] = result
    print(f"sudokit count --limit 2 of {lines:,} puzzles ({args.copies} x {args.file.name}), "
          f"stderr a pseudo-terminal, best of {args.repeat} (wall), {os.cpu_count()} CPUs")
    print()
    print("flag        wall s  CPU s  stderr bytes")
    print("----------  ------  -----  ------------")
    for flag, (wall, cpu, written) in best.items():
        print(f"{flag:<10}  {wall:6.2f}  {cpu:5.2f}  {written:12,}")


if __name__ == "__main__":
    main()
