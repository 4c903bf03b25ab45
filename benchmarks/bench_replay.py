#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""How replay time grows with a log's length (printed, never asserted).

    python benchmarks/bench_replay.py [--lengths 10000 40000]

Copies the test game ``tests/games/long`` (one decision per turn) to last exactly N actions, plays it
with a random bot, writes its log and times `rulekit run LOG` (``run_script``) on it.
A replay should be linear: 4x the actions, about 4x the time (issue 14: it was
quadratic, each action copying the whole history).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import rulekit  # noqa: E402
from rulekit.agents import RandomAgent  # noqa: E402
from rulekit.engine import api  # noqa: E402
from rulekit.testing.script import make_log, run_script, write_log  # noqa: E402

GAME = os.path.join(os.path.dirname(__file__), "..", "tests", "games", "long", "game.yaml")


def replay_seconds(folder: str, length: int) -> float:
    game_dir = os.path.join(folder, f"long{length}")
    os.makedirs(game_dir)
    with open(os.path.join(game_dir, "game.yaml"), "w", encoding="utf-8") as handle:
        with open(GAME, encoding="utf-8") as source:
            handle.write(source.read().replace("length: 2000", f"length: {length}"))
    s = api.new_game(rulekit.load_game(game_dir), 2, 1)
    bot = RandomAgent(1)
    while not s.over:
        api.apply_index(s, bot.choose(s), atomic=False)
    log = os.path.join(folder, f"long{length}.log.yaml")
    write_log(log, make_log(s, [], 1, None))
    t0 = time.process_time()
    run_script(log)
    return time.process_time() - t0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lengths", type=int, nargs="+", default=[10_000, 40_000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        first = None
        for length in args.lengths:
            seconds = replay_seconds(folder, length)
            first = first or (length, seconds)
            print(f"replay of {length:7d} actions  {seconds:6.2f} s  "
                  f"({seconds / first[1]:4.1f}x the time of {first[0]} for {length / first[0]:4.1f}x the actions)")


if __name__ == "__main__":
    main()
