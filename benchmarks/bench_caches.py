#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""What each cache of the engine buys, side by side in one run (printed, never asserted).

    python benchmarks/bench_caches.py [--rounds 3] [--games-batavia 60 --games-goa 30] [--play greedy|mcts]

Random play (the loop of bench_random.py, with ``--play greedy`` its greedy games, with ``--play
mcts`` searches of 100 iterations from its mid-game state, a "game" being one search; CPU
time, best of the rounds, each setting in a fresh process, settings taking turns) with each
cache of engine/memo.py and
engine/tally.py switched off in turn:

- ``as shipped``: static memory per game, no per-state memory (memo.PER_STATE off: functions
  called directly), tallies for `count(x for x in Z if x.P == V)`;
- ``memo trial``: per-state memory kept where its trial shows it pays (memo.PER_STATE on,
  memo.TRIAL_CALLS, memo.KEEP_RATE): the engine's default until the tenth session;
- ``memo always``: every per-state memory kept (no trial);
- ``no static memo``: functions of the board alone worked out on every call;
- ``no tallies``: counts by property scanned every time;
- ``no estimate table`` (bots only): the bots' estimates of a state worked out every time
  (agents/estimates.py: no table of states that read alike);
- ``no seat estimates`` (bots only): the table of whole states kept, but no player's estimate
  kept apart from the others' (as if every estimate read the other players' things).
The games are the same in every setting (the caches never change a result). Random play
leaves out the bots' settings.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SETTINGS = ("as shipped", "memo trial", "memo always", "no static memo", "no tallies", "no estimate table",
            "no seat estimates")
BOTS_ONLY = ("no estimate table", "no seat estimates")
SETTINGS = tuple(os.environ.get("BENCH_SETTINGS", "|".join(SETTINGS)).split("|"))

WORKER = r'''
import json, os, sys, time
sys.path.insert(0, sys.argv[1])
setting, name, players, games, how = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
from rulekit.engine import memo
if setting == "memo trial":
    memo.PER_STATE = True
elif setting == "memo always":
    memo.PER_STATE, memo.TRIAL_CALLS, memo.KEEP_RATE = True, 1, 0.0
elif setting.startswith("keep at "):
    memo.PER_STATE, memo.KEEP_RATE = True, float(setting.split()[-1])
elif setting == "no static memo":       # the compiler's passes (dsl/passes.py), switched off by name
    os.environ["RULEKIT_PASSES"] = "-memo"
elif setting == "no tallies":
    os.environ["RULEKIT_PASSES"] = "-tallies"
elif setting == "no estimate table":
    from rulekit.agents import estimates
    estimates._Reads.of = staticmethod(lambda game, n: None)
elif setting == "no seat estimates":
    import rulekit.model
    rulekit.model.seat_params = lambda vocab, name: None
sys.path.insert(0, sys.argv[1] + "/benchmarks")
from bench_random import play, play_greedy
from rulekit.games import load_game
game = load_game(name)
if how == "mcts":        # bench_random's search from its mid-game state, run `games` times
    from rulekit.agents import MCTSAgent
    from rulekit.engine import api
    start = api.new_game(game, players, 0)
    for _ in range(30):
        api.apply_index(start, 0)
    def play(game, players, seed):
        agent = MCTSAgent(seed, iterations=100, worlds=0, rollout=40, reward="rank", prior=0, rollout_bot=None)
        return agent.choose(start)
elif how == "greedy":
    play = play_greedy
t0 = time.process_time()
decisions = sum(play(game, players, seed) for seed in range(games))
print(json.dumps({"rate": games / (time.process_time() - t0), "decisions": decisions}))
'''


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games-batavia", type=int, default=60)
    ap.add_argument("--games-goa", type=int, default=30)
    ap.add_argument("--play", choices=("random", "greedy", "mcts"), default="random",
                    help="random playouts, every seat played by the greedy bot (use fewer games: about 1 s each), "
                         "or searches of 100 MCTS iterations from bench_random's mid-game state (the games count them)")
    args = ap.parse_args()
    jobs = (("batavia", 5, args.games_batavia), ("goa", 4, args.games_goa))
    best: dict = {}
    decisions: dict = {}
    repo = os.path.dirname(HERE)
    settings = tuple(s for s in SETTINGS if args.play != "random" or s not in BOTS_ONLY)
    for round_ in range(args.rounds):
        order = settings[round_ % len(settings):] + settings[:round_ % len(settings)]
        for setting in order:
            for name, players, games in jobs:
                command = [sys.executable, "-c", WORKER, repo, setting, name, str(players), str(games), args.play]
                out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
                got = json.loads(out)
                key = (setting, name)
                best[key] = max(best.get(key, 0.0), got["rate"])
                decisions.setdefault(name, set()).add(got["decisions"])
    unit = "searches of 100 MCTS iterations/s" if args.play == "mcts" else "games/s"
    print(f"Best of {args.rounds} rounds, {args.play} play, {unit} (CPU time):\n")
    print("| setting | Batavia 5p | Goa 4p |")
    print("|---|---|---|")
    for setting in settings:
        base_b, base_g = best[("as shipped", "batavia")], best[("as shipped", "goa")]
        b, g = best[(setting, "batavia")], best[(setting, "goa")]
        print(f"| {setting} | {b:.1f} ({b / base_b:.2f}x) | {g:.1f} ({g / base_g:.2f}x) |")
    for name, seen in decisions.items():
        if len(seen) != 1:
            print(f"warning: {name} played different games in different settings: {sorted(seen)}")


if __name__ == "__main__":
    main()
