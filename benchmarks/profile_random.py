#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""Where a random game's time goes, by function (cProfile; printed, never asserted).

    python benchmarks/profile_random.py [--game batavia --players 5 --games 40] [--top 30]
    python benchmarks/profile_random.py --greedy --game goa --players 4 --games 1 --opcodes

Plays ``bench_random.py``'s random games (its loop: ``rng.below`` over the pending options,
``api.apply_index``, no log) under cProfile, after one game outside it (so first calls,
remembered tables and the code cache are warm), and prints the share of the time spent in
each part (the game's generated module, its content functions, the engine, Python's
built-ins, the benchmark's loop) and the functions with the most time of their own, with
their calls per game. cProfile charges each Python call a little, so functions called
often look dearer than they are: compare the counts with ``instructions.py``'s before
believing a small difference. ``--opcodes`` counts the bytecodes each function runs instead
(``sys.settrace``, slow): the same count in every run, on any host, but a bytecode that reads a
local costs far less than one that calls, so it ranks rather than weighs. ``--greedy`` plays
``bench_random``'s greedy games instead (every seat the ``greedy`` bot), as ``instructions.py
--greedy`` counts them.
"""
from __future__ import annotations

import argparse
import collections
import cProfile
import os
import pstats
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from bench_random import play, play_greedy  # noqa: E402

from rulekit.games import load_game  # noqa: E402


def part(filename: str) -> str:
    """Which part of a random game a function's file belongs to."""
    if filename.startswith("<rulekit"):
        return "generated module"
    if filename.endswith((".yaml", ".yml")):
        return "content functions"
    if filename == "~":
        return "built-ins"
    if "/rulekit/engine/" in filename:
        return "engine"
    if os.path.basename(filename) == "bench_random.py":
        return "benchmark loop"
    return "rulekit (other)" if "/rulekit/" in filename else "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="batavia")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--top", type=int, default=30, help="functions listed")
    parser.add_argument("--opcodes", action="store_true",
                        help="count the bytecodes each function runs (steady across runs) instead of timing")
    parser.add_argument("--greedy", action="store_true", help="greedy bots' games instead of random ones")
    args = parser.parse_args()
    one = play_greedy if args.greedy else play      # one game of the kind asked for
    game = load_game(args.game)
    one(game, args.players, args.games)             # warm: a seed outside those profiled
    if args.opcodes:
        _opcodes(game, args, one)
        return
    profile = cProfile.Profile()
    profile.enable()
    for seed in range(args.games):
        one(game, args.players, seed)
    profile.disable()
    stats = pstats.Stats(profile).stats
    total = sum(row[2] for row in stats.values()) or 1.0
    parts: collections.Counter = collections.Counter()
    for (filename, _line, _name), (_cc, _calls, own, _cum, _callers) in stats.items():
        parts[part(filename)] += own
    print(f"{args.game} {args.players}p, {args.games} {_how(args)} games: share of the time by part")
    for name, own in parts.most_common():
        print(f"  {name:20s} {own / total * 100:5.1f}%")
    print("\nfunctions with the most time of their own (% of all; calls per game):")
    rows = sorted(stats.items(), key=lambda kv: kv[1][2], reverse=True)[:args.top]
    for (filename, line, name), (_cc, calls, own, _cum, _callers) in rows:
        where = _where(filename, line, name)
        print(f"  {own / total * 100:5.1f}%  {calls / args.games:9.1f}  {part(filename):18s} {where}")


def _opcodes(game, args, one) -> None:
    """Print the share of the bytecodes run by each part and function (their own, per game)."""
    counts: collections.Counter = collections.Counter()

    def called(frame, _event, _arg):
        frame.f_trace_opcodes, frame.f_trace_lines = True, False
        key = (frame.f_code.co_filename, frame.f_code.co_firstlineno, frame.f_code.co_name)

        def step(_frame, event, _arg):
            if event == "opcode":
                counts[key] += 1
            return step
        return step
    sys.settrace(called)
    try:
        for seed in range(args.games):
            one(game, args.players, seed)
    finally:
        sys.settrace(None)
    total = sum(counts.values()) or 1
    parts: collections.Counter = collections.Counter()
    for (filename, _line, _name), count in counts.items():
        parts[part(filename)] += count
    print(f"{args.game} {args.players}p, {args.games} {_how(args)} games: {total / args.games:,.0f} bytecodes a game, "
          "share by part")
    for name, count in parts.most_common():
        print(f"  {name:20s} {count / total * 100:5.1f}%")
    print("\nfunctions running the most bytecodes of their own (% of all; bytecodes per game):")
    for (filename, line, name), count in counts.most_common(args.top):
        print(f"  {count / total * 100:5.1f}%  {count / args.games:9.0f}  {part(filename):18s} "
              f"{_where(filename, line, name)}")


def _how(args) -> str:
    return "greedy" if args.greedy else "random"


def _where(filename: str, line: int, name: str) -> str:
    """``file:line function`` (a generated module by its game's name; a built-in by its name)."""
    if filename == "~":
        return name
    if filename.startswith("<rulekit"):     # <rulekit 'goa' #N>
        filename = filename.split("'")[1]
    return f"{os.path.basename(filename)}:{line} {name}"


if __name__ == "__main__":
    main()
