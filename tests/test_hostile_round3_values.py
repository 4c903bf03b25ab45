# SPDX-License-Identifier: MIT
"""Hostile input, round 3 (issue 51): values that grow.

- ``index_of`` on a mapping was an internal error (exit 101): now RK4002 on its line;
- ``xs[i] = v`` and ``d[k] = v`` copied the whole value each time (n² for a loop of them: 40k
  took 3 s, a million half an hour): an element is now set in place when nobody else holds the
  value (engine/elements.py), and every other name still keeps the old value;
- copying lists, slices or texts in a loop and keeping the copies reached 3 GB before RK4000:
  what one step builds is bounded (RK4024 on its line, in seconds, memory near the bound).
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import rulekit
from rulekit.engine import api
from rulekit.errors import ContentRuntimeError

from conftest import ONE_DECISION

HEAD = "meta: {title: Values}\nplayers: {min: 1, max: 2, default: 1}\nvars:\n  x: 0\n  out: none\n"
MEMORY_CAP = 3 << 30
# A child that runs `rulekit ARGS` under the memory cap and prints its own peak memory (KB) last.
PEAK = ("import resource, subprocess, sys\n"
        "done = subprocess.run([sys.executable, '-m', 'rulekit'] + sys.argv[1:])\n"
        "print('peak', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
        "sys.exit(done.returncode)\n")


def with_setup(setup: str, end: str = ONE_DECISION) -> str:
    return HEAD + f"setup: |\n{textwrap.indent(setup, '    ')}" + end


def _cap_memory() -> None:      # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def autoplay(folder: str, timeout: int = 120) -> tuple[int, str, int]:
    """(exit code, output, peak memory in MB) of ``rulekit autoplay`` under a 3 GB cap."""
    env = dict(os.environ, RULEKIT_CACHE_DIR="off")
    done = subprocess.run([sys.executable, "-c", PEAK, "autoplay", folder, "--quiet"], env=env,
                          preexec_fn=_cap_memory, capture_output=True, text=True, timeout=timeout)
    peak = int(done.stderr.rsplit("peak ", 1)[1]) // 1024
    return done.returncode, done.stdout + done.stderr, peak


def line_of(folder: str, needle: str) -> int:
    lines = Path(folder, "game.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def test_index_of_a_mapping_is_the_contents_error_on_its_line(write_game):
    folder = write_game(with_setup('d = {"a": 1}\nx = index_of(d, "a")\n'))
    code, out, _ = autoplay(folder)
    assert code == 1 and "error[RK4002]: `index_of` looks for a position in a list or a zone" in out, out
    assert f"game.yaml:{line_of(folder, 'index_of')}:" in out


def test_index_of_still_finds_in_lists(write_game):
    folder = write_game(with_setup('out = [index_of([3, 4], 4), index_of([3], 9), index_of(players, players[0])]\n'))
    state = api.new_game(rulekit.load_game(folder), 1, 1)
    assert state.g["out"] == [1, -1, 0]


# ------------------------------------------------------------------ element assignment
LINEAR = """\
xs = [0] * 150000
d = {}
for i in range(150000):
    xs[i] = i
    d[i] = i
x = sum(xs) + count(d)
"""


def test_a_loop_of_element_assignments_is_linear(write_game):
    """150,000 assignments to a list of 150,000 and to a growing mapping: each used to copy
    the whole value (about 3 * 10^10 element copies, most of an hour); set in place they take a
    moment. (The step's bound on what it builds, 20,000,000 elements, would stop copying soon.)"""
    folder = write_game(with_setup(LINEAR))
    code, out, _ = autoplay(folder, timeout=100)
    assert code == 0, out[-2000:]
    state = api.new_game(rulekit.load_game(folder), 1, 1)
    assert state.g["x"] == 150000 * 149999 // 2 + 150000


SHARED = """\
xs = [1, 2, 3]
ys = xs
xs[0] = 9
xs[1] = 8
d = {"a": 1}
e = d
d["b"] = 2
d["a"] = 0
grid = [[0, 0], [0, 0]]
rows = grid
grid[0][1] = 5
grid[0][0] = 4
row = grid[1]
grid[1][0] = 7
kept = [xs]
xs[2] = 7
self = [0]
self[0] = self
made = keep(xs)
xs[0] = -1
board[0] = 1
board[1] = 2
out = [xs, ys, d, e, grid, rows, row, kept, self, made]
"""
SHARED_END = """\
procedures:
  keep:
    params: [zs]
    do: |
      zs[1] = 100
      zs[2] = 200
      return zs
""" + ONE_DECISION


def test_no_other_name_ever_sees_an_element_set_in_place(write_game):
    """The old value stays with every other holder: another name, a list holding it, a row of a
    grid another name shares, a procedure's argument, the variable's own log of changes."""
    text = with_setup(SHARED, SHARED_END).replace("  out: none\n", "  out: none\n  board: {initial: [0, 0]}\n")
    state = api.new_game(rulekit.load_game(write_game(text)), 1, 1, record=True)
    xs, ys, d, e, grid, rows, row, kept, self_, made = state.g["out"]
    assert xs == [-1, 8, 7] and ys == [1, 2, 3] and made == [9, 100, 200] and kept == [[9, 8, 3]]
    assert d == {"a": 0, "b": 2} and e == {"a": 1}
    assert grid == [[4, 5], [7, 0]] and rows == [[0, 0], [0, 0]] and row == [0, 0]
    assert self_ == [[0]]
    changes = [e for e in state.events if e[0] in ("set", "set_element") and e[1] == "board"]
    assert changes == [("set_element", "board", 0, 0, 1), ("set_element", "board", 1, 0, 2)]


def test_an_element_set_in_a_frame_that_stops_keeps_the_clone_apart(write_game):
    """A procedure's locals live in its frame across a decision: a clone of the state taken
    there shares the list, so setting it in the original must copy."""
    text = HEAD + """\
procedures:
  twice:
    params: [p]
    do: |
      xs = [0, 0]
      choose p:
          "go":
              xs[0] = 1
      xs[1] = 2
      out = xs
flow:
  rounds: 1
  phases:
    - id: m
      do: twice(players[0])
scoring:
  categories:
    - id: none
      points: "0"
"""
    state = api.new_game(rulekit.load_game(write_game(text)), 1, 1)
    copy = state.clone()
    api.apply(state, "go")
    api.apply(copy, "go")
    assert state.g["out"] == copy.g["out"] == [1, 2]


# ------------------------------------------------------------------ what one step builds
BOMBS = {
    "slices": ("keep = keep + [xs[1:]]", "keep = keep +"),
    "texts": ('keep = keep + ["{s}x"]', "keep = keep +"),
    "concatenation": ("keep = keep + [xs + [1]]", "keep = keep +"),
    "element assignment": ("keep = keep + [xs]\n    xs[0] = 1", "xs[0] = 1"),
    "list()": ("keep = keep + [list(xs)]", "keep = keep +"),
    "comprehension": ("keep = keep + [[x for x in xs]]", ("keep = keep +", "while true")),   # the memory bound
}


SLOW_BOMBS = ("comprehension", "list()")       # the others stand for them in the default run


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_BOMBS else c
                                  for c in sorted(BOMBS)])
def test_a_step_copying_values_in_a_loop_stops_on_its_line_in_seconds(write_game, case):
    """Each copy is within the size limit, but kept in a loop they reached 3 GB (RK4000 after
    3-7 s). The step's bound on what it builds (or, for a comprehension's items, the watchdog's
    bound on the process's memory) stops it with RK4024, on its line, under 1.2 GB."""
    statement, needle = BOMBS[case]
    setup = f"xs = [0] * 999999\ns = \"a\" * 999999\nkeep = []\nwhile true:\n    {statement}\n"
    folder = write_game(with_setup(setup))
    code, out, peak = autoplay(folder)
    assert code == 1 and "error[RK4024]: one step of the rules" in out, out[-2000:]
    needles = needle if isinstance(needle, tuple) else (needle,)      # the watchdog's tick may land on the loop
    assert any(f"game.yaml:{line_of(folder, n)}:" in out for n in needles), out[-2000:]
    assert peak < 1800, peak


@pytest.mark.parametrize("case", ["concatenation", "texts", "slices"])
def test_without_the_command_lines_watchdog_the_step_still_stops(write_game, case):
    """Played through the API (no watchdog armed), a copy written inline by the compiler (`a + b`,
    a template) is counted where its size is checked: the step stops at its bound, in a moment."""
    statement, _needle = BOMBS[case]
    setup = f"xs = [0] * 999999\ns = \"a\" * 999999\nkeep = []\nwhile true:\n    {statement}\n"
    game = rulekit.load_game(write_game(with_setup(setup)))
    with pytest.raises(ContentRuntimeError) as failed:
        api.new_game(game, 1, 1)
    assert failed.value.code == "RK4024" and failed.value.span.line == line_of(game.path, "keep = keep +")
