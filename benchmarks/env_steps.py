#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""Environment steps per second of the RL environments (printed, never asserted).

    python benchmarks/env_steps.py [--steps N] [--games goa,batavia] [--base REV] [--profile GAME]

An env step here is what a training loop pays per action: observe the agent to act (its
observation vector and action mask), pick a legal action at random from the mask, step. Each
game is played from seed 0 onwards until ``--steps`` steps have been taken; the figure is
steps per CPU second of this process. Beside it, the raw engine's steps/s on the same games
(``api.apply_index`` with no observation) shows what the environment adds.

``--base REV`` also measures ``rulekit/rl/pettingzoo.py`` as it was at revision REV (its
AEC env, read with ``git show`` into a temporary module), so one run prints before and after.
``--profile GAME`` prints where the current AEC env's time goes (cProfile, top 15).
"""
from __future__ import annotations

import argparse
import cProfile
import importlib.util
import os
import pstats
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import numpy as np  # noqa: E402

from rulekit.engine import api  # noqa: E402
from rulekit.games import load_game  # noqa: E402

REPO = os.path.join(os.path.dirname(__file__), "..")


def pick(rng: random.Random, mask: np.ndarray) -> int:
    """A legal action at random (the mask viewed as booleans: ``nonzero`` on int8 is slow)."""
    legal = mask.view(bool).nonzero()[0]
    return int(legal[rng.randrange(len(legal))])


def aec_steps(make, steps: int) -> float:
    """Steps/s of an AEC env: observe the agent to act, pick from its mask, step."""
    rng = random.Random(0)
    e = make()
    done, seed = 0, 0
    start = time.process_time()
    while done < steps:
        e.reset(seed=seed)
        seed += 1
        while done < steps:
            agent = e.agent_selection
            if e.terminations[agent] or e.truncations[agent]:
                break
            e.step(pick(rng, e.observe(agent)["action_mask"]))
            done += 1
    return done / (time.process_time() - start)


def parallel_steps(make, steps: int) -> float:
    """Steps/s of the parallel env, counting one step per acting agent's action."""
    rng = random.Random(0)
    e = make()
    done, seed = 0, 0
    start = time.process_time()
    while done < steps:
        obs, _ = e.reset(seed=seed)
        seed += 1
        while e.agents and done < steps:
            actions = {}
            for agent in e.agents:
                if obs[agent]["action_mask"].any():
                    actions[agent] = pick(rng, obs[agent]["action_mask"])
            obs, *_ = e.step(actions)
            done += len(actions)
    return done / (time.process_time() - start)


def raw_steps(game, steps: int) -> float:
    """The engine alone, as the env plays it (recorded, atomic), with no observation."""
    rng = random.Random(0)
    done, seed = 0, 0
    start = time.process_time()
    while done < steps:
        s = api.new_game(game, None, seed)
        seed += 1
        while not s.over and done < steps:
            api.apply_index(s, rng.randrange(len(s.pending.choices)))
            done += 1
    return done / (time.process_time() - start)


def base_module(rev: str):
    """``rulekit/rl/pettingzoo.py`` at ``rev`` (``rulekit/tools/pettingzoo.py`` before issue 56 moved
    it), imported as ``rulekit.rl._base_pettingzoo``."""
    shown = [subprocess.run(["git", "-C", REPO, "show", f"{rev}:{path}"], capture_output=True, text=True)
             for path in ("rulekit/rl/pettingzoo.py", "rulekit/tools/pettingzoo.py")]
    text = next(proc.stdout for proc in shown if proc.returncode == 0)
    folder = tempfile.mkdtemp(prefix="env_steps_")
    path = os.path.join(folder, "_base_pettingzoo.py")
    with open(path, "w") as out:
        out.write(text)
    spec = importlib.util.spec_from_file_location("rulekit.rl._base_pettingzoo", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--games", default="goa,batavia")
    parser.add_argument("--base", help="a revision whose AEC env is measured too")
    parser.add_argument("--profile", help="profile the current AEC env on this game")
    args = parser.parse_args()
    from rulekit.rl import pettingzoo as current
    base = base_module(args.base) if args.base else None
    if args.profile:
        game = load_game(args.profile)
        profiler = cProfile.Profile()
        profiler.runcall(aec_steps, lambda: current.raw_env(game, seed=0), args.steps)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(15)
        return 0
    names = args.games.split(",")
    width = max(10, *map(len, names))
    print(f"{'game':{width}} {'engine':>10} {'base AEC':>10} {'AEC':>10} {'parallel':>10} {'speed-up':>9}  (steps/s)")
    for name in names:
        game = load_game(name)
        current.raw_env(game)     # warm caches (the vocabulary, measured bounds) outside the timing
        engine = raw_steps(game, args.steps)
        before = aec_steps(lambda g=game: base.raw_env(g, seed=0), args.steps) if base else None
        after = aec_steps(lambda g=game: current.raw_env(g, seed=0), args.steps)
        par = (parallel_steps(lambda g=game: current.parallel_env(g, seed=0), args.steps)
               if hasattr(current, "parallel_env") else None)
        cells = [f"{engine:10.0f}", f"{before:10.0f}" if before else f"{'-':>10}", f"{after:10.0f}",
                 f"{par:10.0f}" if par else f"{'-':>10}", f"{after / before:8.1f}x" if before else f"{'-':>9}"]
        print(f"{name:{width}} " + " ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
