#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""Instructions per random game, counted by callgrind (printed, never asserted).

    python benchmarks/instructions.py [--batavia 20 --goa 8]

Counted instructions do not move with the load of a shared machine the way CPU time does,
so two engine versions compare from separate runs, days apart. Each figure is the count of
a process that plays N random games minus that of one that plays none (loading and
compiling the game), divided by N. The memo's trials are switched off (every function
called directly): they are timed, and timing under valgrind costs far more than it does
natively, so counts with them on would misstate the engine. Needs valgrind (Debian's
package); takes about a minute.
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
from rulekit.engine import memo
memo.TRIAL_CALLS, memo.KEEP_RATE = 1, 2.0    # every function called directly (see the docstring)
sys.path.insert(0, sys.argv[1] + "/benchmarks")
from bench_random import play    # the random playout every benchmark uses
from rulekit.content import load_game
name, players, games = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
game = load_game(name)
for seed in range(games):
    play(game, players, seed)
"""


def count(name: str, players: int, games: int) -> int:
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", PLAY,
               os.path.dirname(HERE), name, str(players), str(games)]
    # both runs parse the content afresh: a parse cache filled by one run only would skew the difference
    env = dict(os.environ, RULEKIT_CACHE_DIR="off")
    err = subprocess.run(command, capture_output=True, text=True, check=False, env=env).stderr
    found = re.search(r"Collected : (\d+)", err)
    if found is None:
        raise SystemExit(f"callgrind gave no count:\n{err[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batavia", type=int, default=20, help="Batavia games (5 players)")
    parser.add_argument("--goa", type=int, default=8, help="Goa games (4 players)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt install valgrind)")
    for name, players, games in (("batavia", 5, args.batavia), ("goa", 4, args.goa)):
        per_game = (count(name, players, games) - count(name, players, 0)) / games
        print(f"{name:8s} {players}p  {per_game / 1e6:7.2f} M instructions per random game ({games} games)")


if __name__ == "__main__":
    main()
