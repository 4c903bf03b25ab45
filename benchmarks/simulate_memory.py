# SPDX-License-Identifier: MIT
"""Peak resident memory of a long `rulekit simulate` batch streamed to a file (issue 39's bar:
a 100,000-game batch under 300 MB), against the same batch kept in memory for a JSON report.

Each run is the real command in a child process; its resident memory (summed over it and its
workers) is read from /proc every 50 ms, and the kernel's own peak (ru_maxrss, the largest single
process) is printed beside it. A cheap game (tests/games/auction, a tenth of a millisecond a game)
keeps 100,000 games to a few minutes. Usage::

    python benchmarks/simulate_memory.py [--games 100000] [--game tests/games/auction] [--jobs 1]
                                         [--in-memory]     # also the old way: --format json --out x.json
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and its children (one level: the workers of --jobs)."""
    total = 0
    for proc in [pid, *_children(pid)]:
        try:
            for line in Path(f"/proc/{proc}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for t in os.listdir(f"/proc/{pid}/task")
                for c in Path(f"/proc/{pid}/task/{t}/children").read_text().split()]
    except OSError:
        return []


def measure(argv: list[str]) -> tuple[float, int, float]:
    """(peak MB summed over the process tree, exit code, seconds)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.DEVNULL)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.05)
    return peak / 2 ** 20, proc.returncode, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--game", default="tests/games/auction")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--in-memory", action="store_true", help="also the batch kept in memory (JSON report)")
    args = parser.parse_args()
    command = [sys.executable, "-m", "rulekit", "simulate", args.game, "--games", str(args.games),
               "--jobs", str(args.jobs)]
    with tempfile.TemporaryDirectory() as folder:
        runs = [("streamed to a .jsonl file", ["--out", os.path.join(folder, "batch.jsonl")])]
        if args.in_memory:
            runs.append(("kept in memory, JSON report", ["--format", "json", "--out", os.path.join(folder, "r.json")]))
        for label, extra in runs:
            peak, code, seconds = measure(command + extra)
            kernel = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            size = ""
            if extra[-1].endswith(".jsonl"):
                size = f", file {os.path.getsize(extra[-1]) / 2 ** 20:.1f} MB"
            print(f"{args.games:,} games of {args.game}, --jobs {args.jobs}, {label}: peak RSS {peak:.0f} MB "
                  f"(largest process so far {kernel:.0f} MB), {seconds:.1f} s, "
                  f"{args.games / seconds:,.0f} games/s{size}, exit {code}")


if __name__ == "__main__":
    main()
