# SPDX-License-Identifier: MIT
"""`rulekit play` with long option lists (issue 55): past twelve the legal actions are listed a line
per group of those that begin alike, a typed start of an action picks it when only one action
begins so, lists them (numbered) when several do, and numbers keep their place in the whole list.
Driven through a plain pipe, as a person at the terminal would type."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# 124 options a turn: `draw`, `claim rN COLOUR` for 40 routes in 3 colours, `trade 1..3`.
CLAIMS = """\
meta: {title: Claims}
players: {min: 2, max: 2}
player:
  vars:
    score: 0
    cards: 0
flow:
  rounds: 3
  phases:
    - id: claiming
      do: |
        for p in players:
            choose p:
                "draw":
                    p.cards += 1
                "claim r{n} {c}" for n in range(1, 41) for c in ["red", "blue", "green"]:
                    p.score += n
                "trade {k}" for k in [1, 2, 3]:
                    p.cards += k
scoring:
  categories:
    - {id: score, points: "p.score"}
"""

# Five options a turn: listed in columns, as always.
FEW = CLAIMS.replace('range(1, 41) for c in ["red", "blue", "green"]', 'range(1, 3) for c in ["red"]')

# A blind pick of 16 face-down tiles, or pass: the seat reads `take a tile (#k)`, never an id.
BLIND = """\
meta: {title: Blind many}
players: {min: 2, max: 2}
components:
  tile: {copies: 16, id: "tile-{n}", start: pool}
zones:
  pool: {visibility: hidden}
player:
  zones:
    hand: {visibility: owner}
setup: |
  shuffle(pool)
flow:
  rounds: 1
  phases:
    - id: pick
      do: |
        for p in players:
            choose p:
                "take {t}" for t in pool:
                    move(t, to=p.hand)
                "pass":
                    pass
scoring:
  categories:
    - {id: none, points: "0"}
"""


def play(game: str, *lines: str, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("RULEKIT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "rulekit", "play", game, "--seed", "1"],
                          input="".join(f"{line}\n" for line in lines), capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300)


def write(write_game, text: str) -> str:
    return write_game({"game.yaml": text})


def listing(out: str, nth: int = 0) -> list[str]:
    """The lines of the nth `Your legal actions` listing (its heading first), up to the next input."""
    lines = out.splitlines()
    starts = [k for k, line in enumerate(lines) if line.startswith("Your legal actions")]
    k = starts[nth]
    end = next((j for j in range(k + 1, len(lines)) if lines[j].startswith("> ")), len(lines))
    return lines[k:end]


def answer(out: str, typed: str) -> list[str]:
    """What was printed after the input line `typed`, up to the next input or picture."""
    lines = out.splitlines()
    k = lines.index(f"> {typed}")
    got = []
    for line in lines[k + 1:]:
        if line.startswith(("> ", "───")):
            break
        got.append(line)
    return got


def test_many_options_are_listed_in_groups_not_a_line_each(write_game):
    result = play(write(write_game, CLAIMS), "quit")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    shown = listing(result.stdout)
    assert shown[0] == "Your legal actions (124) in groups: type a group's words (`claim`) to list it:"
    assert shown[1:] == [
        "      1  draw",
        "  2-121  claim (120): claim r1 (3), claim r2 (3), claim r3 (3), claim r4 (3), ..., claim r40 (3)",
        "122-124  trade (3): trade 1, trade 2, trade 3",
    ]
    assert "claim r7 red" not in result.stdout


def test_a_unique_start_plays_its_action(write_game):
    out = play(write(write_game, CLAIMS), "cla r3 b", "  CLAIM   R40  Green ", "quit").stdout
    assert answer(out, "cla r3 b")[0] == "  p1 claim r3 blue"
    assert re.search(r"^p1 \(you\)\s+score=3\b", out, re.M), out     # the state changed: 3 points
    assert answer(out, "  CLAIM   R40  Green")[0] == "  p1 claim r40 green"    # case and spaces aside


def test_an_ambiguous_start_lists_the_matches_numbered_and_changes_nothing(write_game, tmp_path):
    out = play(write(write_game, CLAIMS), "cla r1", "save saved.yaml", "quit", cwd=tmp_path).stdout
    told = answer(out, "cla r1")
    assert told[0] == "`cla r1` begins 3 of your actions: type more of one, or its number"
    # numbered by their places in the whole list; `r1` typed whole leaves out r10..r19
    assert told[1].split() == ["2", "claim", "r1", "red", "3", "claim", "r1", "blue", "4", "claim", "r1", "green"]
    assert len(told) == 2
    assert " p1 claim" not in out
    assert yaml.safe_load((tmp_path / "saved.yaml").read_text(encoding="utf-8"))["actions"] == []


def test_a_groups_words_list_it_and_a_number_then_picks_from_it(write_game):
    out = play(write(write_game, CLAIMS), "trade", "123", "claim r2", "7", "quit").stdout
    assert answer(out, "trade") == ["`trade` begins 3 of your actions: type more of one, or its number",
                                    "122  trade 1   123  trade 2   124  trade 3"]
    assert answer(out, "123")[0] == "  p1 trade 2"
    assert re.search(r"^p1 \(you\)\s+cards=2\b", out, re.M), out
    assert answer(out, "claim r2")[1].split()[:4] == ["5", "claim", "r2", "red"]
    assert answer(out, "7")[0] == "  p1 claim r2 green"       # 7 is r2 green in the whole list


def test_a_long_group_lists_its_options_in_columns(write_game):
    out = play(write(write_game, CLAIMS), "claim", "quit").stdout
    told = answer(out, "claim")
    assert told[0] == "`claim` begins 120 of your actions: type more of one, or its number"
    assert told[1].split()[:4] == ["2", "claim", "r1", "red"]
    assert sum(len(re.findall(r"\bclaim r\d+ \w+", line)) for line in told) == 120
    assert len(told) < 40           # several to a line


def test_an_unknown_action_names_the_groups(write_game):
    out = play(write(write_game, CLAIMS), "fly away", "quit").stdout
    told = answer(out, "fly away")
    assert told[0].startswith("error[RK3001]: illegal action `fly away` for p1: not a legal action now; "
                              "legal actions: `draw`, `claim r1 red`")
    assert told[1] == ("your actions begin: `draw`, `claim` (120), `trade` (3); "
                       "type a start to list the actions it begins")


def test_a_few_options_are_listed_as_before(write_game):
    """Six options: numbered in columns, as rulekit printed them before groups (checked against it)."""
    out = play(write(write_game, FEW), "cl", "claim r2", "quit").stdout
    assert listing(out) == ["Your legal actions (6):",
                            "1  draw           2  claim r1 red   3  claim r2 red   4  trade 1        5  trade 2",
                            "6  trade 3"]
    assert answer(out, "cl")[1:] == ["2  claim r1 red   3  claim r2 red"]
    assert answer(out, "claim r2")[0] == "  p1 claim r2 red"


def test_the_seat_reads_a_blind_pick_and_never_its_items(write_game):
    out = play(write(write_game, BLIND), "take tile-3", "take a", "take a tile (#5)", "quit").stdout
    before = out[:out.index("> take a tile (#5)")]
    assert "tile-" not in before.replace("> take tile-3", "").replace("`take tile-3`", "")
    assert listing(out)[1] == ("1-16  take (16): take a tile (#1), take a tile (#2), take a tile (#3), ..., "
                               "take a tile (#16)")
    assert answer(out, "take tile-3")[0] == ("`take tile-3` is not one of your actions: "
                                             "type its number or its text as listed")
    told = answer(out, "take a")
    assert told[0] == "`take a` begins 16 of your actions: type more of one, or its number"
    assert "take a tile (#16)" in told[-1]
    assert re.match(r"  p1 take tile-\d+$", answer(out, "take a tile (#5)")[0])
