#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""Instructions per random game, counted by callgrind (printed, never asserted).

    python benchmarks/instructions.py [--batavia 20 --goa 8]
    python benchmarks/instructions.py --greedy --batavia 1 --goa 1
    python benchmarks/instructions.py --mcts --batavia 10 --goa 10

Counted instructions do not move with the load of a shared machine the way CPU time does,
so two engine versions compare from separate runs, days apart. Each figure is the count of
the N random games themselves, divided by N: callgrind collects only inside one call that
plays them (``--toggle-collect``), not the loading and compiling of the game. (Until
2026-12-04 it was a process playing N games minus one playing none: loading Goa is about
5.8 G instructions, and its small wobble moved a per-game figure by up to 9%.) The engine
runs as shipped: every content function is called directly (no per-state memory since the
tenth session; before it, this script switched the memory's timed trials off, since timing
under valgrind costs far more than it does natively). With ``--greedy`` the games are greedy
bots'; with ``--mcts`` it counts MCTS iterations (bench_random's search). Needs valgrind
(Debian's package); takes about a minute (random) or a few minutes (one greedy game of each).

Random games also count the hand-written references of ``benchmarks/reference/`` over the
same seeds, and print the ratio: on a shared host whose speed drifts by 1.5x between runs
(and whose drift hits the two sides of a timed comparison differently), the instruction
ratio is the steady figure to follow; time ratios from ``side_by_side.py`` say what a user
sees on the day.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

PLAY = r"""
import sys
sys.path.insert(0, sys.argv[1])
name, players, games, how = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
sys.path.insert(0, sys.argv[1] + "/benchmarks")
from bench_random import mcts_position, mcts_search, play, play_greedy    # what every benchmark plays
if how == "greedy":
    play = play_greedy
from rulekit.games import load_game
game = load_game(name)
if how == "mcts":       # bench_random's search, once per "game", the agent seeded anew
    s = mcts_position(game, players)
    def one(_, seed):
        mcts_search(seed).choose(s)
else:
    def one(_, seed):
        play(game, players, seed)
import functools
functools.reduce(one, range(games), None)   # callgrind counts what runs inside this call alone
"""


REFERENCE = r"""
import importlib, sys
sys.path.insert(0, sys.argv[1])
name, players, games = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
play = importlib.import_module(f"reference.{name}").play
import functools
functools.reduce(lambda _, seed: play(players, seed), range(games), None)   # what callgrind counts
"""


def count(name: str, players: int, games: int, how: str = "random") -> int:
    """Instructions of a process that plays ``games`` games (``how``: random, greedy, or
    reference: the hand-written game of the same name)."""
    script, tree, rest = (REFERENCE, HERE, []) if how == "reference" else (PLAY, os.path.dirname(HERE), [how])
    # only what runs inside the one call of functools.reduce is counted: the games. Loading the
    # game (about 5.8 G instructions for Goa with no cache) is left out rather than subtracted,
    # since a 0.3% wobble of it moved a per-game figure by several M (up to 9%).
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--collect-atstart=no",
               "--toggle-collect=functools_reduce", sys.executable, "-c", script,
               tree, name, str(players), str(games), *rest]
    # with one hash seed: string hashes steer dict and set probing, which moves counts by ~0.5%
    env = dict(os.environ, RULEKIT_CACHE_DIR="off", PYTHONHASHSEED="0")
    err = subprocess.run(command, capture_output=True, text=True, check=False, env=env).stderr
    found = re.search(r"Collected : (\d+)", err)
    if found is None:
        raise SystemExit(f"callgrind gave no count:\n{err[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batavia", type=int, default=20, help="Batavia games (5 players)")
    parser.add_argument("--goa", type=int, default=8, help="Goa games (4 players)")
    parser.add_argument("--greedy", action="store_true",
                        help="greedy games (every seat greedy, every memory kept) instead of random ones; "
                             "about two minutes a game under valgrind: give --batavia 1 --goa 1")
    parser.add_argument("--mcts", action="store_true",
                        help="MCTS iterations instead of games: each 'game' is bench_random's search (30 "
                             "iterations from its mid-game state, the agent seeded anew); give --batavia 10 --goa 10")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt install valgrind)")
    how = "greedy" if args.greedy else "mcts" if args.mcts else "random"
    for name, players, games in (("batavia", 5, args.batavia), ("goa", 4, args.goa)):
        if games <= 0:
            continue
        per_game = count(name, players, games, how) / games
        if how == "mcts":
            print(f"{name:8s} {players}p  {per_game / 30 / 1e6:7.2f} M instructions per MCTS iteration "
                  f"({games} searches of 30)")
            continue
        line = f"{name:8s} {players}p  {per_game / 1e6:7.2f} M instructions per {how} game ({games} games)"
        if how == "random":
            reference = count(name, players, games, "reference") / games
            line += f"; hand-written {reference / 1e6:6.2f} M: {per_game / reference:4.1f}x"
        print(line)


if __name__ == "__main__":
    main()
