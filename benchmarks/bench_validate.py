#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""How validation time grows with the size of the content (printed, never asserted).

    python benchmarks/bench_validate.py [--sizes 1000,10000,100000] [--shapes lines,unused]

Writes, in a scratch folder, a game whose one procedure is N lines long, and checks it
as ``rulekit validate`` does (parsed afresh: no parse cache), each in a process of its own,
printing CPU seconds, the process's peak memory and the ratio to the size before. Shapes:

- ``lines``: N statements reading and writing locals and a variable, with ``if`` blocks
  (a local assigned many times, read by later lines);
- ``unused``: N locals assigned and never read (N RK0340 warnings).

Checking is linear in the size when each 10x more lines costs about 10x the time; the
issue's bound is 12x.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
os.environ["RULEKIT_CACHE_DIR"] = "off"      # every run parses afresh, as after an edit

from rulekit.dsl import parse_cache  # noqa: E402
from rulekit.errors import DiagnosticReport  # noqa: E402
from rulekit.games import load_game  # noqa: E402

HEAD = "meta: {title: Validate}\nplayers: {min: 1, max: 2}\nvars:\n  x: 0\nprocedures:\n  big:\n    do: |\n"
TAIL = "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: big()\n"


def lines_body(n: int) -> list[str]:
    """N lines: locals assigned and read again and again, a variable, an ``if`` every fourth."""
    out = ["a = 0", "b = []"]
    while len(out) < n:
        i = len(out)
        out += [f"a = a + {i % 7}", "x = x + a", "if a > 3:", f"    b = b + [{i % 5}]"]
    out.append("x = x + count(b)")
    return out[:n]


def unused_body(n: int) -> list[str]:
    """N locals assigned and never read: each an RK0340 warning."""
    return [f"v{i} = {i % 7}" for i in range(n)]


SHAPES = {"lines": lines_body, "unused": unused_body}


def write_game(folder: str, body: list[str]) -> None:
    os.makedirs(folder, exist_ok=True)
    text = HEAD + "".join(f"      {line}\n" for line in body) + TAIL
    with open(os.path.join(folder, "game.yaml"), "w", encoding="utf-8") as handle:
        handle.write(text)


def validate_time(folder: str) -> tuple[float, int]:
    """CPU seconds to load and check the game, and how many warnings it has."""
    parse_cache.forget()
    t0 = time.process_time()
    try:
        game = load_game(folder)
        warnings = len(game.warnings)
    except DiagnosticReport as report:     # pragma: no cover - the shapes are valid content
        warnings = -len(report.diagnostics)
    return time.process_time() - t0, warnings


def measure(shape: str, n: int) -> tuple[float, int, int]:
    """In a process of its own (what earlier loads keep alive must not slow the next):
    CPU seconds, warnings and the peak memory in MB of checking the ``shape`` game of N lines."""
    code = ("import sys; sys.argv[1:] = []; import bench_validate as b; "
            f"print(*b.measure_here({shape!r}, {n}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=os.path.dirname(os.path.abspath(__file__)),
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), int(out[1]), int(out[2])


def measure_here(shape: str, n: int) -> tuple[float, int, int]:
    with tempfile.TemporaryDirectory(prefix="rulekit-bench-validate-") as scratch:
        folder = os.path.join(scratch, f"{shape}{n}")
        write_game(folder, SHAPES[shape](n))
        seconds, warnings = validate_time(folder)
    return seconds, warnings, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--shapes", default="lines,unused")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    for shape in args.shapes.split(","):
        before = None
        for n in sizes:
            seconds, warnings, peak = measure(shape, n)
            ratio = f"{seconds / before:5.1f}x" if before else "     "
            print(f"{shape:7} {n:>7} lines  {seconds:8.2f} s  {ratio}  warnings {warnings:>6}  peak rss {peak:>5} MB",
                  flush=True)
            before = seconds


if __name__ == "__main__":
    main()
