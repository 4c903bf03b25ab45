# SPDX-License-Identifier: MIT
"""Hidden information never leaks (issue 52), through the real commands: `rulekit play` driven by a
pipe (a bot's secret choice told by count, undo stopped by a face-down draw), `rulekit render --as`
(captions), `rulekit validate` (RK0390 at the label's line), and labels that stay the log's."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import yaml

from rulekit import load_game
from rulekit.engine import api
from rulekit.engine.view import sight, view
from rulekit.testing.script import run_script

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SECRETS = os.path.join(ROOT, "tests", "games", "secrets")


def rulekit(*args, lines=(), cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("RULEKIT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "rulekit", *map(str, args)], input="".join(f"{x}\n" for x in lines),
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


def zone(state, name: str, seat: int | None = None) -> list:
    game = state.game
    key = game.board.zones[name] if seat is None else game.board.pzones[name][seat]
    return list(state.zones[key])


def test_a_bots_secret_choice_is_told_by_count_in_rulekit_play(tmp_path):
    secret = zone(api.new_game(load_game(SECRETS), 2, 3), "offered", 1)      # p2's three tickets
    saved = tmp_path / "game.yaml"
    result = rulekit("play", SECRETS, "--seed", 3, lines=["1", f"save {saved}", "quit"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"^  p2 keep (a ticket|2 tickets)$", result.stdout, re.M), result.stdout
    assert not [t for t in secret if t in result.stdout], result.stdout
    # the log stays omniscient: its labels are the notation, and it replays
    log = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert log["actions"][1].split()[0] == "keep" and log["actions"][1].split()[1] in secret
    assert rulekit("run", saved).returncode == 0


def test_undo_after_a_face_down_draw_cannot_show_the_drawn_tile_again():
    pool = zone(api.new_game(load_game(SECRETS), 2, 3), "pool")
    drawn = pool[-1]                # the pool's top: what `draw` takes
    result = rulekit("play", SECRETS, "--seed", 3, lines=["1", "draw", "undo", "undo", "quit"])
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    after = out[out.index("> undo"):]
    assert "cannot undo: step 3 (`draw`)" in after and "it drew from pool, which you could not see" in after
    assert "undone" not in out
    assert out.count(f"p1 draws {drawn}") == 1, out      # told once, never dealt again


def test_undo_before_any_reveal_still_goes_back():
    result = rulekit("play", SECRETS, "--seed", 3, lines=["1", "2", "undo", "quit"])
    assert result.returncode == 0, result.stdout
    assert "undone: 2 action(s) since your last decision (`take " in result.stdout


def _script(tmp_path, actions) -> str:
    path = tmp_path / "secrets.yaml"
    path.write_text(yaml.safe_dump({"game": SECRETS, "players": 2, "seed": 3, "actions": actions}), encoding="utf-8")
    return str(path)


def _caption(svg: str) -> str:
    return re.search(r'<text class="sub"[^>]*>(step [^<]*)</text>', svg).group(1)


def test_render_as_another_seat_captions_no_secret_item(tmp_path):
    s = api.new_game(load_game(SECRETS), 2, 3)
    mine = api.legal_actions(s)[0]
    api.apply(s, mine)
    theirs = api.legal_actions(s)[3]            # p2 keeps two of its tickets
    secret = theirs.split()[1:]
    script = _script(tmp_path, [mine, theirs, "draw"])
    seen = {}
    for who in ("p1", "p2", None, "full"):
        out = tmp_path / f"{who}.svg"
        extra = ["--full"] if who == "full" else [] if who is None else ["--as", who]
        result = rulekit("render", script, "--at", 2, "-o", out, *extra)
        assert result.returncode == 0, result.stderr
        seen[who] = _caption(out.read_text(encoding="utf-8"))
    assert seen["p1"] == seen[None] == "step 2 of 3: p2 keep 2 tickets"
    assert seen["p2"] == seen["full"] == f"step 2 of 3: p2 {theirs}"
    page = tmp_path / "p1.html"
    assert rulekit("render", script, "--as", "p1", "-o", page).returncode == 0
    text = page.read_text(encoding="utf-8")
    captions = json.loads(re.search(r'<script id="frames" type="application/json">(.*?)</script>', text, re.S)
                          .group(1))["captions"]
    assert captions[2] == "step 2 of 3: p2 keep 2 tickets"
    assert not [t for t in secret if t in text]


def test_a_label_that_can_only_leak_is_a_warning_at_its_line(tmp_path):
    result = rulekit("validate", SECRETS)
    assert result.returncode == 0
    assert "warning[RK0390]: this option's label names an item of `offered` (owner)" in result.stdout
    assert "--> tests/games/secrets/game.yaml:57:11" in result.stdout.replace(ROOT + os.sep, "")
    text = open(os.path.join(SECRETS, "game.yaml"), encoding="utf-8").read()
    worded = text.replace('subsets(p.offered, min=1, max=2):',
                          'subsets(p.offered, min=1, max=2) says "{p} keeps {count(kept_now)} tickets":')
    shown = text.replace("              for t in kept_now:\n                  move(t, to=p.kept)",
                         "              for t in kept_now:\n                  move(t, to=p.route)")
    for variant, name in ((worded, "worded"), (shown, "shown")):
        assert variant != text
        folder = tmp_path / name
        folder.mkdir()
        (folder / "game.yaml").write_text(variant, encoding="utf-8")
        assert [d.code for d in load_game(str(folder)).warnings] == [], name


def test_an_authors_says_is_the_public_wording(tmp_path):
    text = open(os.path.join(SECRETS, "game.yaml"), encoding="utf-8").read()
    worded = text.replace('subsets(p.offered, min=1, max=2):',
                          'subsets(p.offered, min=1, max=2) says "{p} keeps {count(kept_now)} of 3":')
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "game.yaml").write_text(worded, encoding="utf-8")
    s = api.new_game(load_game(str(tmp_path / "g")), 2, 3)
    api.apply(s, api.legal_actions(s)[0])
    label = api.legal_actions(s)[3]
    script = tmp_path / "s.yaml"
    script.write_text(yaml.safe_dump({"game": str(tmp_path / "g"), "players": 2, "seed": 3,
                                      "actions": [s.actions[0], label]}), encoding="utf-8")
    out = tmp_path / "p1.svg"
    assert rulekit("render", script, "--as", "p1", "-o", out).returncode == 0
    assert _caption(out.read_text(encoding="utf-8")) == "step 2 of 2: p2 keeps 2 of 3"


BLIND_GAME = os.path.join(ROOT, "tests", "games", "blind")
BLIND = open(os.path.join(BLIND_GAME, "game.yaml"), encoding="utf-8").read()


def test_a_blind_picks_labels_are_told_apart_and_the_log_keeps_its_notation(write_game, tmp_path):
    game = load_game(write_game(BLIND))
    s = api.new_game(game, 2, 1)
    labels = api.legal_actions(s)
    shown = view(s, 0)["legal"]
    assert shown == [f"take a tile (#{k})" for k in range(1, 7)]
    assert sight(s, 0).labels(labels) == shown
    script = tmp_path / "blind.yaml"
    script.write_text(yaml.safe_dump({"game": write_game(BLIND), "players": 2, "seed": 1,
                                      "actions": [labels[2], "take " + next(t for t in zone(s, "pool")
                                                                            if t not in labels[2])]}),
                      encoding="utf-8")
    result = run_script(str(script))
    assert result.state.actions[0] == labels[2]         # scripts and logs name the real items


def test_completing_an_action_for_a_seat_lists_that_seats_own(tmp_path):
    from rulekit.lsp import completion
    folder = tmp_path / "auction"
    shutil.copytree(os.path.join(ROOT, "tests", "games", "auction"), folder)
    text = "game: ..\nplayers: 3\nseed: 7\npins:\n  rolls: {dice: [2, 3]}\nactions:\n  - p1: bid 1\n  - p2: \n"
    path = str(folder / "scripts" / "next.yaml")

    def offered(script):
        prefix, _seat = completion.action_prefix(script, 7)
        return [notation for notation, _shown in completion.legal_actions_at(path, {}, prefix)]
    assert "bid 2" in offered(text) and "bid 1" not in offered(text)
    assert offered(text.replace("- p2: ", "- p3: ")) == []          # p2 is to bid, not p3
    assert offered(text.replace("- p2: ", "- ")) == offered(text)


def test_completing_a_blind_pick_for_a_seat_shows_it_as_the_seat_reads_it(tmp_path):
    """The language server's completion of a seat's action (``- p1: ``) shows each option as that
    seat may read it (a blind pick: "take a tile (#3)") and writes the real notation, which the
    script, the author's omniscient record, must hold to replay."""
    from rulekit.lsp import completion
    folder = tmp_path / "blind"
    shutil.copytree(BLIND_GAME, folder)
    (folder / "scripts").mkdir(exist_ok=True)
    path = str(folder / "scripts" / "next.yaml")
    s = api.new_game(load_game(str(folder)), 2, 1)
    first = api.legal_actions(s)[0]
    api.apply(s, first)
    text = f"game: ..\nplayers: 2\nseed: 1\nactions:\n  - p1: {first}\n  - p2: \n"
    prefix, _seat = completion.action_prefix(text, 5)
    offered = completion.legal_actions_at(path, {}, prefix)
    assert [notation for notation, _shown in offered] == api.legal_actions(s)
    assert [shown for _notation, shown in offered] == [f"take a tile (#{k})" for k in range(1, len(offered) + 1)]
    unnamed = completion.action_prefix(text.replace("- p2: ", "- "), 5)[0]
    assert all(notation == shown for notation, shown in completion.legal_actions_at(path, {}, unnamed))


def test_rl_legal_actions_are_read_as_the_seat_may(write_game):
    from rulekit.rl.rl_play import Play
    play = Play(load_game(write_game(BLIND)), 2)
    play.start(1)
    assert play.legal_notations(0) == [f"take a tile (#{k})" for k in range(1, 7)]


def test_a_hidden_variable_printed_where_no_reading_can_hide_it_is_a_warning(write_game):
    """A hole that reads the variable itself is redacted per seat (tests/test_hidden_numbers.py):
    no warning. A text that carries the value otherwise (a local holding it, a text built by an
    expression) is RK0391 at the read, saying every seat reads it as written."""
    text = BLIND.replace("player:\n  zones:", "player:\n  vars:\n    coins: {initial: 3, visibility: owner}\n  zones:")
    held = text.replace("move(t, to=p.hand)", 'move(t, to=p.hand)\n                    n = p.coins\n'
                                               '                    log("{p} has {n} coins")')
    built = text.replace("move(t, to=p.hand)", 'move(t, to=p.hand)\n                    log(text(p.coins))')
    hole = text.replace("move(t, to=p.hand)", 'move(t, to=p.hand)\n                    log("{p} has {p.coins} coins")')
    found = {name: [(d.code, d.span.line, d.span.column, d.message) for d in
                    load_game(write_game(variant, name)).warnings if d.code == "RK0391"]
             for variant, name in ((held, "held"), (built, "built"), (hole, "hole"))}
    assert found["hole"] == []
    [(code, line, column, message)] = found["held"]
    assert (line, column) == (26, 35) and "through the variable `n`" in message and "as written" in message
    [(code, line, column, message)] = found["built"]
    assert (line, column) == (25, 30) and "built by an expression" in message
    quiet = held.replace("n = p.coins", "n = count(p.hand)")
    assert "RK0391" not in [d.code for d in load_game(write_game(quiet, "quiet")).warnings]


def test_an_rl_mask_tells_no_hidden_item_of_a_blind_pick(write_game):
    """The action mask of a blind pick is the blind slots by position, the same whichever hidden
    items are there (the ids of their notations would tell them); the log keeps the notation."""
    from rulekit.rl.actions import vocabulary
    from rulekit.rl.gym_env import GameEnv
    from rulekit.rl.rl_play import Play
    game = load_game(write_game(BLIND))
    vocab = vocabulary(game)
    slots = {vocab.blind_id(k) for k in range(6)}
    assert None not in slots and {vocab.notations[i] for i in slots} == {f"(blind #{k})" for k in range(1, 7)}
    masks = set()
    for seed in (1, 2, 3):
        play = Play(game, 2)
        play.start(seed)
        assert set(play.legal(0)) == slots
        first = sorted(play.legal(0))[2]
        assert play.apply(0, first)
        assert play.state.actions[0] == api.legal_actions(api.new_game(game, 2, seed))[2]     # the real notation
        masks.add(play.mask(1).tobytes())           # p2's mask, whichever tile p1 took
        assert play.legal_notations(1) == [f"take a tile (#{k})" for k in range(1, 6)]
    assert len(masks) == 1
    env = GameEnv(game, players=2, seat="p1", seed=4)
    env.reset()
    assert set(env.action_masks().nonzero()[0]) == slots


def test_narration_lines_for_a_seat_name_no_item_hidden_from_it():
    """`narrate.lines(seat=...)` called directly reads its lines as the seat may, as the Teller does."""
    from rulekit.dsl import narrate
    from rulekit.engine.redact import hidden_items
    s = api.new_game(load_game(SECRETS), 2, 3)
    api.apply_index(s, 0)
    api.apply_index(s, 0)
    api.apply(s, "pass")
    before = hidden_items(s, 0)
    mark = len(s.events)
    api.apply(s, "draw")                        # p2 draws one
    drawn = zone(s, "hand", 1)[-1]
    events = [e for e in s.events[mark:] if e[0] != "action"]
    assert narrate.lines(s, events, seat=1) == [f"p2 draws {drawn}"]
    assert narrate.lines(s, events) == [f"p2 draws {drawn}"]            # the omniscient record
    assert narrate.lines(s, events, seat=0) == ["p2 draws a tile"]
    assert narrate.lines(s, events, seat=0, before=before) == ["p2 draws a tile"]


def test_undo_never_goes_back_past_a_public_number_that_told_a_hidden_item():
    """`bet on the pool` moves p1's public score by the value of the pool's face-down top tile: the
    score told it, so undo stops before it (else: bet, undo, and read the next draw's value)."""
    result = rulekit("play", SECRETS, "--seed", 3, lines=["1", "bet on the pool", "undo", "quit"])
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    after = out[out.index("> undo"):] if "> undo" in out else out
    assert "cannot undo: step 3 (`bet on the pool`)" in after, out
    assert "it changed p1.score by an item of pool, which you could not see" in after, out
    assert "undone" not in out


CASH = """\
meta: {title: Cash}
players: {min: 2, max: 2}
components:
  card: {generate: {value: {range: [1, 9]}}, id: "c-{value}", start: deck}
zones:
  deck: {visibility: hidden}
  spent: {visibility: hidden}
player:
  vars:
    score: 0
  zones:
    hand: {visibility: owner}
setup: |
  shuffle(deck)
  for p in players:
      draw(deck, to=p.hand, n=3)
flow:
  rounds: 2
  phases:
    - id: cash
      do: |
        for p in players:
            choose p:
                "cash {c}" for c in p.hand says "{p} cashes a card":
                    move(c, to=spent)
                    p.score += c.value
scoring:
  categories:
    - {id: score, points: "p.score"}
"""


def test_undo_stops_before_a_bots_public_score_that_told_its_secret_card(write_game):
    """p2 (a bot) puts a card of its hand away unseen and scores its value: p1 read the card's value
    off p2's public score, so p1's undo stops before it."""
    result = rulekit("play", write_game(CASH), "--seed", 5, lines=["1", "undo", "quit"])
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    after = out[out.index("> undo"):]
    assert "cannot undo: step 2 (`cash a card`)" in after, out
    assert "it changed p2.score by an item of hand, which you could not see" in after, out


def test_a_blind_option_without_a_slot_is_warned_of_as_the_seat_reads_it(write_game):
    import attrs
    import pytest

    from rulekit.rl.rl_play import Play
    play = Play(load_game(BLIND_GAME), 2)
    play.vocabulary = attrs.evolve(play.vocabulary, blind=0)       # no slot left for the blind pick
    play.start(1)
    with pytest.warns(UserWarning) as caught:
        assert play.legal(0) == {}
    message = str(caught[0].message)
    assert "'take a tile'" in message and not re.search(r"\b(red|blue)-\d", message), message
