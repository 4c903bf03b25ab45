#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""Throughput and memory figures for random and bot play (printed, never asserted).

    python benchmarks/bench_random.py [--games N] [--greedy-games N] [--game batavia --players 5]

Prints, per game and player count: content load + validate time (with parsed texts
from the cache file, as on every run but the first, and without), full random
games per second and decisions per second on one core, state clone time, peak
memory of one game, MCTS iterations per second, and full games per second with every
seat played by the ``greedy`` bot (``--greedy-games``; 0 leaves it out). Times are CPU
time of this process (one core), which a shared machine disturbs far less than wall time.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import tracemalloc

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import rulekit  # noqa: E402
from rulekit.dsl import parse_cache  # noqa: E402
from rulekit.engine import api, rng  # noqa: E402
from rulekit.games import load_game  # noqa: E402


def play(game, players: int, seed: int) -> int:
    s = api.new_game(game, players, seed, record=False)
    r = rng.stream_seed(seed, "bench")
    steps = 0
    while not s.over:
        r, i = rng.below(r, len(s.pending.choices))
        api.apply_index(s, i, atomic=False)
        steps += 1
    return steps


def play_greedy(game, players: int, seed: int) -> int:
    """One full game with every seat played by ``greedy`` (seeded as ``rulekit simulate``
    seeds its bots); the number of decisions."""
    from rulekit.agents import make_agent
    s = api.new_game(game, players, seed, record=False)
    agents = [make_agent("greedy", seed * 31 + k) for k in range(s.n)]
    steps = 0
    while not s.over:
        api.apply_index(s, agents[s.pending.player].choose(s), atomic=False)
        steps += 1
    return steps


def mcts_position(game, players: int):
    """Where the benchmark's search starts: seed 0, the first option 30 times (fewer if the
    game ends)."""
    s = api.new_game(game, players, 0)
    for _ in range(30):
        if s.over:
            break
        api.apply_index(s, 0)
    return s


def mcts_search(seed: int):
    """The benchmark's search, 30 iterations: the same in every game (not each game's
    `search:`), so the rates compare."""
    from rulekit.agents import MCTSAgent
    return MCTSAgent(seed, iterations=30, worlds=0, rollout=40, reward="rank", prior=0, rollout_bot=None)


def _load_time(name: str, cache: bool) -> float:
    """CPU seconds to load and check a game as a new process would: parsed texts read
    from the cache file (``cache``) or parsed afresh (a first run, or an edited file)."""
    saved = os.environ.get("RULEKIT_CACHE_DIR")
    if not cache:
        os.environ["RULEKIT_CACHE_DIR"] = "off"
    parse_cache.forget()
    try:
        t0 = time.process_time()
        load_game(name)
        return time.process_time() - t0
    finally:
        if saved is None:
            os.environ.pop("RULEKIT_CACHE_DIR", None)
        else:
            os.environ["RULEKIT_CACHE_DIR"] = saved


def bench(name: str, players: int, games: int, greedy_games: int) -> None:
    load_game(name)   # fills the cache file, if it was empty
    cold = _load_time(name, cache=False)
    load = _load_time(name, cache=True)
    game = load_game(name)
    # process CPU time: "on one core", and steady on a shared machine (wall time is not)
    t0 = time.process_time()
    decisions = sum(play(game, players, seed) for seed in range(games))
    elapsed = time.process_time() - t0
    s = mcts_position(game, players)
    n = 2000
    t0 = time.process_time()
    for _ in range(n):
        s.clone()
    clone_us = (time.process_time() - t0) / n * 1e6
    tracemalloc.start()
    play(game, players, 12345)  # peak memory of one whole game, with its state and caches
    _cur, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    agent = mcts_search(1)
    t0 = time.process_time()
    agent.choose(s) if not s.over else None
    mcts_rate = 30 / (time.process_time() - t0)
    greedy = ""
    if greedy_games > 0:
        t0 = time.process_time()
        for seed in range(greedy_games):
            play_greedy(game, players, seed)
        greedy = f"  greedy {greedy_games / (time.process_time() - t0):5.2f} games/s"
    print(f"{name:8} {players}p  load+validate {load * 1000:6.1f} ms (no parse cache {cold * 1000:6.1f})  "
          f"{games / elapsed:7.1f} games/s  {decisions / elapsed:9.0f} decisions/s  "
          f"{decisions / games:6.0f} decisions/game  clone {clone_us:5.1f} us  peak {peak / 1e3:6.0f} kB  "
          f"mcts {mcts_rate:6.1f} iterations/s{greedy}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--greedy-games", type=int, default=3,
                        help="full games with every seat played by `greedy` (slow: about 1 game/s); 0: none")
    parser.add_argument("--game", action="append")
    parser.add_argument("--players", type=int, action="append")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()} {platform.processor() or ''}".strip())
    targets = []
    for name in args.game or ["batavia", "goa"]:
        try:
            game = load_game(name)
        except rulekit.RulekitError as exc:
            print(f"{name}: cannot load ({exc})")
            continue
        counts = args.players or list(range(game.min_players, game.max_players + 1))
        targets += [(name, n) for n in counts]
    for name, n in targets:
        bench(name, n, args.games, args.greedy_games)


if __name__ == "__main__":
    main()
