# SPDX-License-Identifier: MIT
"""The Ray driver's own cost: the seconds to push N tiny tasks through ``ray_driver.drive``.

Each task returns at once, so the time is Ray's scheduling and the driver's bookkeeping, not
games. The bar (issue 39): 8,000 finished chunks within 4x the time of 2,000 (linear, where
waiting on every pending task at once is quadratic: 0.85 s and 18.9 s before). ``--old`` also
times that old way. Usage::

    python benchmarks/ray_driver.py [--cpus 2] [--sizes 2000,8000] [--repeat 3] [--old]

The machine may be shared: each size is run ``--repeat`` times and the quickest run is shown.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from rulekit.batch import ray_driver  # noqa: E402


def tiny(index: int) -> list[int]:
    return [index]


def timed_drive(ray, remote, n: int, width: int, take: int | None) -> float:
    got: list = []
    start = time.perf_counter()
    ray_driver.drive(ray, remote, ((i,) for i in range(n)), got.append, width, take)
    elapsed = time.perf_counter() - start
    assert [r[0] for r in got] == list(range(n)), "results out of order"
    return elapsed


def timed_old(ray, remote, n: int) -> float:
    """Every task submitted at once, then ``ray.wait(pending, num_returns=1)`` per task."""
    start = time.perf_counter()
    pending = [remote.remote(i) for i in range(n)]
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        ray.get(ready[0])
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--sizes", default="2000,8000")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each size; the quickest is shown")
    parser.add_argument("--old", action="store_true", help="also time the old driver (quadratic: slow)")
    args = parser.parse_args()
    import ray
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(address="local", num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(tiny)
        ray.get([remote.remote(i) for i in range(4 * args.cpus)])      # workers started
        sizes = [int(x) for x in args.sizes.split(",")]
        width = ray_driver.window(args.cpus)
        for label, take in ((f"window {width}, num_returns {max(1, width // 4)} (default)", None),
                            (f"window {width}, num_returns 1", 1)):
            times = [min(timed_drive(ray, remote, n, width, take) for _ in range(args.repeat)) for n in sizes]
            shown = ", ".join(f"{n} chunks {t:.2f} s ({n / t:,.0f}/s)" for n, t in zip(sizes, times))
            print(f"drive, {label}: {shown}; {sizes[-1]}/{sizes[0]} time ratio {times[-1] / times[0]:.2f}")
        if args.old:
            times = [timed_old(ray, remote, n) for n in sizes]
            shown = ", ".join(f"{n} chunks {t:.2f} s" for n, t in zip(sizes, times))
            print(f"old (all submitted, wait 1 at a time): {shown}; ratio {times[-1] / times[0]:.2f}")
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
