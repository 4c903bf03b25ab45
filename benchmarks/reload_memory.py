# SPDX-License-Identifier: MIT
"""Memory kept by reloading a game in one process (issue 50's bar: 100 reloads of Goa keep under
5 MB), as the language server does on every edit.

The game is loaded once to warm the caches, then ``--reloads`` times more, each load dropped
before the next; what Python still holds afterwards (``tracemalloc``, after a full collection) is
what a reload leaks. The figure for each tenth of the reloads is printed, so a leak shows as a
slope and a one-off cost as a step. Usage::

    python benchmarks/reload_memory.py [--game goa] [--reloads 100]
"""
from __future__ import annotations

import argparse
import gc
import tracemalloc

from rulekit.games import load_game


def held() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="goa")
    parser.add_argument("--reloads", type=int, default=100)
    args = parser.parse_args()
    load_game(args.game)                    # warm: parse and code caches, the parser's tables
    tracemalloc.start()
    start = held()
    step = max(args.reloads // 10, 1)
    first = None
    for n in range(1, args.reloads + 1):
        load_game(args.game)
        if first is None:
            first = held()
        if n % step == 0 or n == args.reloads:
            print(f"after {n:4d} reloads: {(held() - start) / 2 ** 20:7.2f} MB kept")
    end = held()
    slope = (end - first) / max(args.reloads - 1, 1) / 1024
    print(f"{args.game}: {args.reloads} reloads keep {(end - start) / 2 ** 20:.2f} MB; "
          f"{(first - start) / 2 ** 20:.2f} MB of it at the first, then {slope:.1f} KB a reload")


if __name__ == "__main__":
    main()
