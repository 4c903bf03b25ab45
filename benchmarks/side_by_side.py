#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""Two versions of rulekit and the hand-written references, measured in one run.

    python benchmarks/side_by_side.py --base REV [--games-batavia 60 --games-goa 30 --rounds 5]
                                      [--greedy N] [--mcts]

Why side by side: the host's speed drifts by up to 1.5x between runs, so a figure from
an earlier run (or an earlier day) does not compare with today's. This script measures,
in one run on one machine, the revision REV (a temporary ``git worktree``, removed at the
end), the working tree as it is on disk (uncommitted changes included), and the plain
Python games of ``benchmarks/reference/``. Every measurement is a fresh process that
imports rulekit from its own tree; the contenders take turns round by round, and the best
round of each is reported.

Random play is the loop of ``bench_random.py`` (``rng.below`` over the pending options,
seeds 0..N-1, CPU time of the process): Batavia with 5 players, Goa with 4. The two
rulekit trees must play the same games from the same seeds; a warning says when their
decisions per game differ. ``--greedy N`` adds N games with every seat played by
``greedy`` and ``--mcts`` the MCTS rate of ``bench_random.py`` (rulekit trees only).
``--simulate`` adds the rate of ``rulekit simulate --bots random``'s own play (its games,
seeded as the command seeds them, with its per-game record: the command the speed issue's
bar names), against the hand-written time of the random column's games.
Prints a Markdown table for docs/performance.md and a line naming the machine.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
GAMES = (("batavia", 5), ("goa", 4))


# ------------------------------------------------------------------ one measurement (a subprocess)
def _import_rulekit(tree: str, game: str):
    """rulekit from ``tree`` and nowhere else: an editable install of the working tree
    would otherwise lend the other tree its shipped games (``rulekit_games``)."""
    sys.path.insert(0, tree)
    sys.meta_path[:] = [f for f in sys.meta_path if "__editable__" not in getattr(f, "__module__", "")]
    sys.path[:] = [p for p in sys.path if "__editable__" not in p]
    import rulekit
    find_game = _games_module().find_game
    where = {"rulekit": rulekit.__file__, "game": find_game(game)}
    for path in where.values():
        if not os.path.abspath(path).startswith(os.path.join(os.path.abspath(tree), "")):
            raise SystemExit(f"the worker for {tree} took {path} from elsewhere")
    return where


def _games_module():
    """Where a tree finds and loads games: rulekit.games, rulekit.content before the folders moved."""
    try:
        from rulekit import games
    except ImportError:
        from rulekit import content as games
    return games


def _measure_tree(job: dict) -> dict:
    where = _import_rulekit(job["tree"], job["game"])
    from rulekit.engine import api, rng
    game = _games_module().load_game(job["game"])
    players = job["players"]

    def play(seed: int) -> int:          # bench_random.play, for either Decision of either tree
        s = api.new_game(game, players, seed, record=False)
        field = "choices" if hasattr(s.pending, "choices") else "labels"
        r = rng.stream_seed(seed, "bench")
        steps = 0
        while not s.over:
            r, i = rng.below(r, len(getattr(s.pending, field)))
            api.apply_index(s, i, atomic=False)
            steps += 1
        return steps

    def play_greedy(seed: int) -> int:   # bench_random.play_greedy
        from rulekit.agents import make_agent
        s = api.new_game(game, players, seed, record=False)
        agents = [make_agent("greedy", seed * 31 + k) for k in range(s.n)]
        steps = 0
        while not s.over:
            api.apply_index(s, agents[s.pending.player].choose(s), atomic=False)
            steps += 1
        return steps

    out = {"where": where, "digest": _digest(job["tree"]), **_timed(play, job["games"])}
    if job.get("simulate"):
        try:
            from rulekit.batch.simulate import play_one
        except ImportError:              # rulekit/simulate.py before the tools moved
            from rulekit.simulate import play_one
        play_one(job["game"], (), players, 0, ["random"], 0)     # its action cap, worked out once
        out["simulate"] = _timed(lambda i: play_one(job["game"], (), players, 0, ["random"], i),
                                 job["games"])["rate"]
    if job["greedy"]:
        greedy = _timed(play_greedy, job["greedy"])
        out.update(greedy=greedy["rate"], greedy_decisions=greedy["decisions"])
    if job["mcts"]:                      # bench_random's search: 30 iterations from a mid-game state
        from rulekit.agents import MCTSAgent
        s = api.new_game(game, players, 0)
        for _ in range(30):
            if s.over:
                break
            api.apply_index(s, 0)
        agent = MCTSAgent(1, iterations=30, worlds=0, rollout=40, reward="rank", prior=0, rollout_bot=None)
        t0 = time.process_time()
        agent.choose(s)
        out["mcts"] = 30 / (time.process_time() - t0)
    return out


def _measure_reference(job: dict) -> dict:
    sys.path.insert(0, HERE)
    import importlib
    module = importlib.import_module(f"reference.{job['game']}")
    return {"where": {"reference": module.__file__},
            **_timed(lambda seed: module.play(job["players"], seed), job["games"])}


def _digest(tree: str) -> str:
    """A hash of the engine and games as this process found them (the working tree may be
    edited while the benchmark runs)."""
    import hashlib
    digest = hashlib.sha256()
    for folder in ("rulekit", "games"):
        for root, dirs, files in sorted(os.walk(os.path.join(tree, folder))):
            dirs.sort()
            for name in sorted(f for f in files if f.endswith((".py", ".yaml", ".lark"))):
                with open(os.path.join(root, name), "rb") as handle:
                    digest.update(name.encode() + handle.read())
    return digest.hexdigest()[:12]


def _timed(play, games: int) -> dict:
    t0 = time.process_time()
    decisions = [play(seed) for seed in range(games)]
    return {"rate": games / (time.process_time() - t0), "decisions": decisions}


# ------------------------------------------------------------------ the run
def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", REPO, *args], check=True, capture_output=True, text=True).stdout.strip()


def _run(job: dict, env: dict) -> dict:
    done = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", json.dumps(job)],
                          capture_output=True, text=True, env=env, cwd=job.get("tree") or REPO)
    if done.returncode:
        raise SystemExit(f"worker failed: {job}\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def _machine() -> str:
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            cpu = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), cpu)
    except OSError:
        pass
    return (f"python {platform.python_version()}, {platform.machine()} {platform.system()}, {cpu}, "
            f"{os.cpu_count()} cores, {datetime.date.today().isoformat()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the revision to compare the working tree with")
    parser.add_argument("--games-batavia", type=int, default=60)
    parser.add_argument("--games-goa", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--greedy", type=int, default=0, help="greedy-bot games per round (rulekit trees)")
    parser.add_argument("--mcts", action="store_true", help="MCTS iterations/s as bench_random.py (rulekit trees)")
    parser.add_argument("--simulate", action="store_true",
                        help="games/s of `rulekit simulate --bots random`'s own play (rulekit trees)")
    args = parser.parse_args()
    base_hash = _git("rev-parse", "--short", args.base + "^{commit}")
    head = _git("rev-parse", "--short", "HEAD")
    dirty = bool(_git("status", "--porcelain", "--untracked-files=no"))
    names = {"base": f"base {args.base}" + (f" ({base_hash})" if base_hash != args.base else ""),
             "work": f"working tree ({head}{' + uncommitted changes' if dirty else ''})",
             "reference": "hand-written reference"}
    counts = {"batavia": args.games_batavia, "goa": args.games_goa}
    tmp = tempfile.mkdtemp(prefix="rulekit-side-by-side-")
    tree = os.path.join(tmp, "tree")
    try:
        _git("worktree", "add", "--detach", tree, base_hash)
        # the base tree keeps its parsed texts in the temporary folder, not in ~/.cache
        envs = {"base": {**os.environ, "RULEKIT_CACHE_DIR": os.path.join(tmp, "cache")},
                "work": dict(os.environ), "reference": dict(os.environ)}
        trees = {"base": tree, "work": REPO, "reference": None}
        best: dict = {}
        decisions: dict = {}
        digests: dict = {}
        order = list(trees)
        for round_ in range(args.rounds):
            turn = order[round_ % len(order):] + order[:round_ % len(order)]
            for name, players in GAMES:
                for who in turn:
                    rulekit = trees[who] is not None
                    job = {"tree": trees[who], "game": name, "players": players, "games": counts[name],
                           "greedy": args.greedy if rulekit else 0, "mcts": args.mcts and rulekit,
                           "simulate": args.simulate and rulekit}
                    got = _run(job, envs[who])
                    if round_ == 0:
                        print(f"# {who} {name}: " + ", ".join(f"{k} {v}" for k, v in got["where"].items()),
                              file=sys.stderr)
                    digests.setdefault(who, set()).add(got.get("digest"))
                    decisions[who, name, "random"] = got["decisions"]
                    decisions[who, name, "greedy"] = got.get("greedy_decisions")
                    for key in ("rate", "greedy", "mcts", "simulate"):
                        if key in got:
                            best[who, name, key] = max(best.get((who, name, key), 0), got[key])
            print(f"# round {round_ + 1}/{args.rounds} done", file=sys.stderr)
    finally:
        if os.path.isdir(tree):
            subprocess.run(["git", "-C", REPO, "worktree", "remove", "--force", tree], check=False)
        shutil.rmtree(tmp, ignore_errors=True)

    if len(digests["work"]) > 1:
        print("WARNING: the working tree's rulekit/ or games/ changed during the run; its rounds measured "
              "different code")
    for name, _ in GAMES:
        for kind in ("random", "greedy"):
            a, b = decisions["base", name, kind], decisions["work", name, kind]
            if a != b:
                first = next(k for k, (x, y) in enumerate(zip(a, b)) if x != y)
                print(f"WARNING: {kind} {name} games differ between the trees, the same seeds should give "
                      f"the same games (seed {first}: {a[first]} decisions against {b[first]})")
    table(args, names, best, decisions)
    print()
    print(_machine())


def table(args, names: dict, best: dict, decisions: dict) -> None:
    label = {"batavia": "Batavia 5p", "goa": "Goa 4p"}
    head = [f"{label[n]} games/s" for n, _ in GAMES] + [f"{label[n]} decisions/game" for n, _ in GAMES]
    extra = ([("simulate", f"{label[n]} simulate games/s", n) for n, _ in GAMES] if args.simulate else []) + \
            ([("greedy", f"{label[n]} greedy games/s", n) for n, _ in GAMES] if args.greedy else []) + \
            ([("mcts", f"{label[n]} MCTS it/s", n) for n, _ in GAMES] if args.mcts else [])
    head += [title for _, title, _ in extra]
    print(f"Best of {args.rounds} interleaved rounds ({args.games_batavia} Batavia and "
          f"{args.games_goa} Goa games a round, each round a fresh process per contender):\n")
    print("| contender | " + " | ".join(head) + " |")
    print("|---" * (len(head) + 1) + "|")
    for who, title in names.items():
        row = []
        for name, _ in GAMES:
            rate, ref = best[who, name, "rate"], best["reference", name, "rate"]
            row.append(f"{rate:.1f}" if who == "reference" else f"{rate:.1f} ({ref / rate:.1f}x the hand-written time)")
        row += [f"{sum(d) / len(d):.1f}" for d in (decisions[who, n, "random"] for n, _ in GAMES)]
        for key, _, name in extra:
            value = best.get((who, name, key))
            if key == "simulate" and value is not None:
                row.append(f"{value:.1f} ({best['reference', name, 'rate'] / value:.1f}x the hand-written time)")
                continue
            row.append("-" if value is None else f"{value:.2f}" if key == "greedy" else f"{value:.0f}")
        print(f"| {title} | " + " | ".join(row) + " |")
    print()
    print("Working tree against base: " + ", ".join(
        f"{label[n]} {best['base', n, 'rate']:.1f} -> {best['work', n, 'rate']:.1f} games/s "
        f"({best['work', n, 'rate'] / best['base', n, 'rate']:.2f}x)" for n, _ in GAMES))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        job = json.loads(sys.argv[2])
        result = _measure_tree(job) if job["tree"] else _measure_reference(job)
        print(json.dumps(result))
    else:
        main()
