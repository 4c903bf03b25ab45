# SPDX-License-Identifier: MIT
"""What people read of a table in text (issue #38): `rulekit play` reprints only what changed
since the seat last saw the table (boards as grids), `s`/`state` prints it all; `show` of a board
prints its grid; a checkpoint's view in a transcript reads a board as rows of cells."""
from __future__ import annotations

import os
import re
import subprocess
import sys

from rulekit.engine import api
from rulekit.engine.view import view
from rulekit.games import load_game
from rulekit.testing import transcript
from rulekit.testing.script import run_script

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AZUL = os.path.join(ROOT, "examples", "azul")
TILE = re.compile(r"\b(blue|yellow|red|black|white)-\d+\b")


def play(*args, lines=()) -> subprocess.CompletedProcess:
    """`rulekit play` as a process, its input through a pipe (as tests/test_play.py runs it)."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("RULEKIT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "rulekit", "play", *map(str, args)],
                          input="".join(f"{line}\n" for line in lines), capture_output=True, text=True,
                          env=env, timeout=300)


def pictures(out: str) -> list[tuple[str, list[str]]]:
    """Each picture of the table printed: (its head, the lines between the head and the
    legal actions)."""
    found, head, body = [], None, []
    for line in out.splitlines():
        if line.startswith("─"):
            head, body = line.strip("─ "), []
        elif line.startswith("Your legal actions") and head is not None:
            found.append((head, body))
            head = None
        elif head is not None:
            body.append(line)
    return found


def zones_in(body: list[str]) -> set[str]:
    """The zones a picture lists (a line starting with the zone's name, then its items)."""
    return {m.group(1) for line in body if (m := re.match(r"^(\w+) {2,}\S", line)) and not re.match(r"p\d", line)}


def test_after_an_action_only_what_changed_is_shown_and_s_shows_all():
    result = play(AZUL, "--seed", 1, lines=["1", "1", "s", "show p1.wall", "quit"])
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    shown = pictures(result.stdout)
    assert len(shown) == 4
    (head0, full), (head1, after_take), (head2, after_place), (head3, again) = shown
    # the first picture is the whole table: every zone, both walls as grids
    assert "what changed" not in head0
    assert zones_in(full) == {"bag", "lid", "centre", "held", "factory"}
    assert sum(line.rstrip().endswith("wall:") for line in full) == 2
    assert len(full) > 20
    # taking tiles changes the factories, the centre and the hand, nothing else
    assert head1.endswith("what changed (`s` shows all)")
    assert zones_in(after_take) == {"centre", "held", "factory"}
    assert not any(re.match(r"p\d ", line) or "wall" in line for line in after_take[:-1])
    # the content's prompt is still said, last, before the legal actions
    game = load_game(AZUL)
    state = api.new_game(game, 2, 1)
    api.apply(state, state.pending.labels[0])
    assert after_take[-1] == api.prompt(state)
    # placing them (and the bot's turn) changes p1's pattern lines and p2's floor: only those parts
    players = {line.split()[0]: line for line in after_place[:-1] if re.match(r"p\d ", line)}
    assert set(players) == {"p1", "p2"}
    assert re.fullmatch(r"p1 \(you\) +lines: \[1\] yellow-\d+", players["p1"])
    assert "score=" not in players["p2"] and "wall" not in players["p2"]
    # `s`: the whole table again, the same decision
    assert "what changed" not in head3 and zones_in(again) == zones_in(full)
    assert sum(line.rstrip().endswith("wall:") for line in again) == 2
    assert again[-1] == after_place[-1]
    # `show p1.wall`: the board as its grid
    assert re.search(r"^p1\.wall:\n   a b c d e\n(\d  \. \. \. \. \.\n){5}", result.stdout, re.M)


def test_a_board_that_changed_is_shown_as_its_grid():
    """Walls change only when a round ends: the first picture of round 2 shows each wall that
    got a tile, as a grid; no picture of round 1 after the first shows a wall."""
    result = play(AZUL, "--seed", 1, lines=["1"] * 40 + ["quit"])
    assert result.returncode == 0, result.stdout[-2000:]
    shown = pictures(result.stdout)
    first_of_two = next(k for k, (head, _b) in enumerate(shown) if head.startswith("round 2"))
    assert not any("wall:" in line for _head, body in shown[1:first_of_two] for line in body)
    body = shown[first_of_two][1]
    walls = [k for k, line in enumerate(body) if line.rstrip().endswith("wall:")]
    assert walls
    for k in walls:
        head, rows = body[k + 1], body[k + 2:k + 7]
        assert head.split() == list("abcde")
        assert [row.split()[0] for row in rows] == list("12345")
        assert all(len(row.split()) == 6 for row in rows[:4])
        assert any(TILE.search(row) for row in rows)


def test_changes_are_far_shorter_than_the_whole_table():
    """Goa's table is ~35 lines; what changes between two of the seat's turns is a few."""
    result = play("goa", "--seed", 1, lines=["1"] * 12 + ["quit"])
    assert result.returncode == 0, result.stdout[-2000:]
    shown = pictures(result.stdout)
    full, later = len(shown[0][1]), [len(body) for _head, body in shown[1:]]
    assert full > 25 and len(later) >= 8
    assert sum(later) / len(later) < full / 3, (full, later)


def test_undo_shows_the_whole_table_again():
    result = play(AZUL, "--seed", 1, lines=["1", "undo", "quit"])
    assert result.returncode == 0, result.stdout[-2000:]
    shown = pictures(result.stdout)
    assert [("what changed" in head) for head, _b in shown] == [False, True, False]
    assert zones_in(shown[2][1]) == zones_in(shown[0][1])


def test_a_checkpoint_reads_a_board_as_rows(tmp_path):
    """A checkpoint's view of Azul's walls: rows of cells (the views themselves keep every cell)."""
    script = tmp_path / "look.yaml"
    script.write_text(f"""\
game: {AZUL}
players: 2
seed: 1
skip_invariants: [tiles_conserved]
position: |
  for t in bag:
      move(t, to=box)
  for id in ['black-1', 'black-2', 'black-3', 'black-4']:
      move(item(id), to=bag, at="bottom")
  move(item('white-1'), to=players[0].wall['a2'])
  move(item('blue-1'), to=players[0].wall['b2'])
  move(item('red-1'), to=players[0].wall['c1'])
actions:
  - checkpoint: walls
""", encoding="utf-8")
    record = transcript(str(script))
    seen = record["checkpoints"]["walls"]["p2"]
    assert seen["players"]["p1"]["wall"] == ["   a       b       c       d       e",
                                             "1  .       .       red-1   .       .",
                                             "2  white-1 blue-1  .       .       .",
                                             "3  .       .       .       .       .",
                                             "4  .       .       .       .       .",
                                             "5  .       .       .       .       ."]
    assert seen["players"]["p2"]["wall"] == ["   a b c d e"] + [f"{r}  . . . . ." for r in range(1, 6)]
    assert seen["zones"]["factory"]["1"] == ["black-1", "black-2", "black-3", "black-4"]   # no board: as it was
    state = run_script(str(script)).state
    assert view(state, 1)["players"]["p1"]["wall"]["a2"] == ["white-1"]
