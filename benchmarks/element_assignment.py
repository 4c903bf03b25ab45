#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""Element assignment, ``xs[i] = v`` and ``d[k] = v``, at 10k, 100k and 1M assignments (printed,
never asserted): each should cost about ten times the one before (engine/elements.py sets an
element in place when nobody else holds the value; it copied the whole value each time, n²).

    python benchmarks/element_assignment.py [--sizes 10000,100000,1000000]

Each size is played as one game: a procedure keeps a list and a mapping in its frame (they live
across decisions) and fills them by chunks of at most 100,000 assignments a decision, in a
procedure that never asks anyone (its locals are Python's), and in the frame itself; and a game
variable and a player's variable, each a list, get the same assignments (expressions._set_element).
The step limit (2,000,000 steps a decision) is why the work is cut in chunks. Each size is played
twice: keeping no record, as simulations and bots play, and recorded, as ``rulekit autoplay``,
``play`` and scripts do, where each assignment to the two variables logs its element's change
(``set_element``: 2 events an assignment of the six; it logged the whole list, a copy each time,
and 100k assignments in one step passed the step's build limit, RK4024). ``--skip-over S`` leaves
out a recorded size once one took longer than S seconds (60 by default).
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import rulekit
from rulekit.engine import api

GAME = """\
meta: {{title: Elements}}
players: {{min: 1, max: 1, default: 1}}
vars:
  total: 0
  gl: {{initial: [], type: any}}
player:
  vars:
    pl: {{initial: [], type: any}}
procedures:
  fill:
    params: [xs, d, start, n]
    do: |
      for i in range(n):
          xs[start + i] = start + i
          d[start + i] = i
      return [xs, d]
  grow:
    params: [p]
    do: |
      xs = [0] * {size}
      d = {{}}
      ys = [0] * {size}
      e = {{}}
      gl = [0] * {size}
      p.pl = [0] * {size}
      for r in range({chunks}):
          both = fill(xs, d, r * {chunk}, {chunk})
          xs = both[0]
          d = both[1]
          for i in range({chunk}):
              ys[r * {chunk} + i] = r * {chunk} + i
              e[r * {chunk} + i] = i
              gl[r * {chunk} + i] = r * {chunk} + i
              p.pl[r * {chunk} + i] = 1
          choose p:
              "go":
                  pass
      total = sum(xs) + sum(ys) + count(d) + count(e) + sum(gl) + sum(p.pl)
flow:
  rounds: 1
  phases:
    - id: m
      do: grow(players[0])
scoring:
  categories:
    - id: none
      points: "0"
"""


def play(size: int, record: bool = False) -> float:
    """Seconds (process CPU) to play one game of ``size`` assignments to each of six values."""
    chunk = min(size, 100_000)
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "game.yaml").write_text(GAME.format(size=size, chunk=chunk, chunks=size // chunk))
        game = rulekit.load_game(folder)
        start = time.process_time()
        state = api.new_game(game, 1, seed=1, record=record)
        while not state.over:
            api.apply_index(state, 0)
        spent = time.process_time() - start
    assert state.g["total"] == 3 * size * (size - 1) // 2 + 3 * size
    if record:
        elements = sum(1 for e in state.events if e[0] == "set_element")
        assert elements == 2 * size - 1, elements       # p.pl[0] = 1 is set to what it was: no change
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--skip-over", type=float, default=60.0)
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes.split(",")]
    print(f"{'assignments':>12} {'record':>8} {'CPU s':>8} {'us each':>8}  (each of a list and a mapping, in a "
          "function's locals and in a frame, and of a game's and a player's list variable)")
    for record in (False, True):
        for size in sizes:
            spent = play(size, record)
            print(f"{size:>12,} {'yes' if record else 'no':>8} {spent:8.2f} {spent / (6 * size) * 1e6:8.2f}",
                  flush=True)
            if record and spent > args.skip_over:
                print(f"{'':>12} (larger recorded sizes left out: this one took over {args.skip_over:g} s)")
                break


if __name__ == "__main__":
    main()
