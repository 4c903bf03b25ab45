"""Hidden numbers never leak (issue 52): a value a template's hole prints that some seat may not see
(another player's `owner` variable, a `hidden` one, a number printed on an item hidden from it) is
read `?` in every per-seat text, through the real commands and the API; the log, notation and
scripts keep the number. The game is tests/games/purse, whose secrets are canaries: p1 starts with
10101 coins, p2 with 20101, the pot holds 5501, gems are worth 7013 and up."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import yaml

from rulekit import load_game
from rulekit.dsl.narrate import Teller, lines
from rulekit.engine import api
from rulekit.engine.redact import hidden_items
from rulekit.engine.view import sight, view
from rulekit.testing.script import run_script

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PURSE = os.path.join(ROOT, "tests", "games", "purse")
SECRETS = os.path.join(ROOT, "tests", "games", "secrets")


def rulekit(*args, lines=()) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("RULEKIT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "rulekit", *map(str, args)], input="".join(f"{x}\n" for x in lines),
                          capture_output=True, text=True, timeout=300)


def _game(seed: int = 1):
    return api.new_game(load_game(PURSE), 2, seed)


def test_a_seat_reads_each_value_it_may_not_see_as_a_question_mark():
    s = _game()
    assert "spend 2 of 10101" in api.legal_actions(s)         # p1's own coins, in its own options
    assert view(s, 0)["legal"][1:3] == ["spend 1 of 10101", "spend 2 of 10101"]
    assert sight(s, 0).text(api.prompt(s)) == "you have 10101 coins and gems worth 0"
    before = {seat: hidden_items(s, seat) for seat in (0, 1, None)}
    mark = len(s.events)
    index = api.legal_actions(s).index("spend 2 of 10101")
    label, says = s.pending.label(index), s.pending.says(index)
    api.apply(s, "spend 2 of 10101")
    events = [e for e in s.events[mark:] if e[0] != "action"]
    # the log is omniscient: the notation and the line as written
    assert s.actions == ["spend 2 of 10101"]
    assert ("log", "p1 has 10099 coins left; the pot holds 5503") in events
    told = {seat: lines(s, events, seat=seat, before=before[seat]) for seat in (0, 1)}
    assert "p1 has 10099 coins left; the pot holds ?" in told[0]       # the pot is nobody's
    assert "p1 has ? coins left; the pot holds ?" in told[1]
    assert "p1 has 10099 coins left; the pot holds 5503" in lines(s, events)     # no seat: the omniscient reading
    reading = {seat: sight(s, seat, before=before[seat]) for seat in (0, 1, None)}
    assert reading[0].action(0, label, says) == "p1 spends 2 of 10101 coins"
    assert reading[1].action(0, label, says) == reading[None].action(0, label, says) == "p1 spends 2 of ? coins"
    assert reading[1].action(0, label) == "p1 spend 2 of ?"
    assert sight(s, 1, full=True).action(0, label) == "p1 spend 2 of 10101"
    assert s.pending.player == 1 and view(s, 1)["legal"][1:3] == ["spend 1 of 20101", "spend 2 of 20101"]
    assert "20101" not in json.dumps(view(s, 0)) and "20101" not in json.dumps(view(s, None))


def test_rulekit_play_tells_another_seats_numbers_as_question_marks(tmp_path):
    saved = tmp_path / "game.yaml"
    result = rulekit("play", PURSE, "--seed", 3, lines=["draw", f"save {saved}", "quit"])
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert re.search(r"^    p1 draws a gem worth 70\d\d$", out, re.M), out     # p1 reads its own gem
    assert re.search(r"^  p2 spends 1 of \? coins$", out, re.M), out          # p2's spend, as p1 reads it
    assert re.search(r"^    p2 has \? coins left; the pot holds \?$", out, re.M), out
    assert not re.search(r"\b(20\d\d\d|55\d\d)\b", out), out
    log = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert log["actions"] == ["draw", "spend 1 of 20101"]       # the log keeps the notation, and replays
    replay = rulekit("run", saved)
    assert replay.returncode == 0 and "p2 has 20100 coins left; the pot holds 5502" in replay.stdout


def _caption(svg: str) -> str:
    return re.search(r'<text class="sub"[^>]*>(step [^<]*)</text>', svg).group(1)


def test_render_as_another_seat_captions_its_numbers_as_question_marks(tmp_path):
    s = _game(3)
    api.apply(s, "draw")
    api.apply(s, "spend 1 of 20101")
    api.apply(s, next(a for a in api.legal_actions(s) if a.startswith("show ")))     # p1 shows the gem it drew
    shown = s.actions[2]
    script = tmp_path / "purse.yaml"
    script.write_text(yaml.safe_dump({"game": PURSE, "players": 2, "seed": 3, "actions": s.actions}), encoding="utf-8")
    seen = {}
    for who in ("p1", "p2", None, "full"):
        extra = ["--full"] if who == "full" else [] if who is None else ["--as", who]
        for at in (1, 2, 3):
            out = tmp_path / f"{who}-{at}.svg"
            result = rulekit("render", script, "--at", at, "-o", out, *extra)
            assert result.returncode == 0, result.stderr
            seen[who, at] = _caption(out.read_text(encoding="utf-8"))
    assert seen["p1", 2] == seen[None, 2] == "step 2 of 3: p2 spends 1 of ? coins"
    assert seen["p2", 2] == "step 2 of 3: p2 spends 1 of 20101 coins"       # its own `says`
    assert seen["full", 2] == "step 2 of 3: p2 spend 1 of 20101"            # the log as it is
    # a gem shown is seen after the action: its id and its worth are named to everyone
    assert seen["p2", 3] == seen[None, 3] == seen["p1", 3] == f"step 3 of 3: p1 {shown}"
    page = tmp_path / "p1.html"
    assert rulekit("render", script, "--as", "p1", "-o", page).returncode == 0
    assert "20101" not in page.read_text(encoding="utf-8")


def test_a_number_printed_on_a_hidden_item_is_read_as_the_item_is():
    s = _game(3)
    teller = {seat: Teller(seat=seat) for seat in (0, 1)}
    for each in teller.values():
        each.since(s)
    index = api.legal_actions(s).index("draw")
    for each in teller.values():
        each.action(s, 0, index)
    api.apply_index(s, index)
    drawn = zone(s, "hand", 0)[0]
    worth = load_game(PURSE).components.items[drawn]["worth"]
    assert teller[0].since(s) == [f"p1 draws a gem worth {worth}"]
    assert teller[1].since(s) == ["p1 draws a gem worth ?"]


def zone(state, name: str, seat: int) -> list:
    return list(state.zones[state.game.board.pzones[name][seat]])


def test_verbose_narration_for_a_seat_redacts_a_log_lines_values():
    s = _game()
    teller = Teller(verbose=True, seat=1)
    teller.since(s)
    teller.action(s, 0, api.legal_actions(s).index("spend 2 of 10101"))
    api.apply(s, "spend 2 of 10101")
    told = "\n".join([teller.acted(s), *teller.since(s)])
    assert "p1 spend 2 of ?" in told and "p1 has ? coins left; the pot holds ?" in told, told     # the label: no `says`
    assert not re.search(r"10\d\d\d|55\d\d", told), told


def test_scripts_and_legal_steps_read_the_notation(tmp_path):
    """A redacted text never breaks a script's `legal:` or a log's replay: both hold the notation."""
    script = tmp_path / "legal.yaml"
    script.write_text(yaml.safe_dump({"game": PURSE, "players": 2, "seed": 1, "actions": [
        {"legal": {"player": "p1", "includes": ["spend 2 of 10101"]}}, "spend 2 of 10101",
        {"legal": {"player": "p2", "includes": ["spend 1 of 20101"]}}, "spend 1 of 20101",
        {"expect": {"p1.coins": 10099, "p2.coins": 20100, "pot": 5504}}]}), encoding="utf-8")
    result = run_script(str(script))      # a failed step raises
    assert result.state.actions == ["spend 2 of 10101", "spend 1 of 20101"]


def test_a_public_number_costs_nothing_and_is_never_marked(write_game):
    """A template none of whose holes reads a variable, an item's property or a function is
    compiled as before (no marking at all); one reading only public values writes a plain text."""
    assert "MARKED" not in load_game(SECRETS).program.module.comp.ns
    text = open(os.path.join(PURSE, "game.yaml"), encoding="utf-8").read()
    public = text.replace("coins: {initial: 0, visibility: owner}", "coins: 0").replace(
        "pot: {initial: 5501, visibility: hidden}", "pot: 5501")
    s = api.new_game(load_game(write_game(public)), 2, 1)
    assert all(label.__class__ is str for label in api.legal_actions(s))
    api.apply(s, "spend 2 of 10101")
    assert [e[1].__class__ for e in s.events if e[0] == "log"] == [str]
    assert sight(s, 1).text(s.events[-1][1]) == s.events[-1][1]


def test_a_number_of_a_hidden_item_the_redaction_cannot_follow_is_a_warning(write_game):
    """RK0391 remains only where a seat's reading cannot redact: a local holding the value, or a
    text built by an expression; the game as written (holes reading the values) has no warning."""
    text = open(os.path.join(PURSE, "game.yaml"), encoding="utf-8").read()
    assert load_game(PURSE).warnings == ()
    line = 'log("{p} draws a gem worth {g.worth}")'
    held = text.replace(line, 'w = g.worth\n              log("{p} draws a gem worth {w}")')
    built = text.replace(line, 'log("a gem worth " + text(g.worth))')
    found = {name: [(d.code, d.span.line, d.message) for d in load_game(write_game(variant, name)).warnings]
             for variant, name in ((held, "held"), (built, "built"))}
    [(code, at, message)] = found["held"]
    assert (code, at) == ("RK0391", 54)
    assert message.startswith("this text prints `worth` of an item of `pool`") and "the variable `w`" in message
    [(code, at, message)] = found["built"]
    assert (code, at) == ("RK0391", 53) and "built by an expression" in message
