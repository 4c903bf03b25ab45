# SPDX-License-Identifier: MIT
"""Narration: `narrate:` templates, a choose's `prompt` and an option's `says`.

What a game says is read off its events when something prints it; the rules, the events
and the games bots play are the same with or without it (the golden digests check Goa
and Batavia; here a game whose templates would fail if they were ever worked out is
played by bots and `simulate` without a failure)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rulekit
from rulekit.agents import make_agent, play_out
from rulekit.batch.simulate import run_batch
from rulekit.cli.app import main
from rulekit.dsl import narrate
from rulekit.engine import api
from rulekit.engine.state import PLAYERS
from rulekit.errors import ContentRuntimeError, DiagnosticReport
from rulekit.games import load_game

GAMES = Path(__file__).parent / "games"

NARRATE = """
narrate:
  set:
    money: "{player} {'gets' if change > 0 else 'pays'} {abs(change)}"
    starter: "{new} starts"
  roll:
    dice: "{actor} rolls {value} of {sides}"
  move:
    - {to: gems, says: "{player} takes {item}"}
"""


def _auction(tmp_path: Path, narration: str = NARRATE, rules: str | None = None) -> Path:
    folder = tmp_path / "auction"
    shutil.copytree(GAMES / "auction", folder)
    with (folder / "game.yaml").open("a", encoding="utf-8") as f:
        f.write(narration)
    if rules is not None:
        (folder / "rules.yaml").write_text(rules, encoding="utf-8")
    return folder


def _run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().out


def test_autoplay_tells_what_happened_and_verbose_the_raw_events(capsys, tmp_path):
    folder = _auction(tmp_path)
    code, out = _run(capsys, "autoplay", folder, "--players", "3", "--seed", "4")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "start:" and "  p1 starts" in lines
    assert any(line.startswith("  ") and " rolls " in line and line.endswith(" of 3") for line in lines)
    assert any(line.startswith("  p") and " takes gem-" in line for line in lines)
    assert any(line.startswith("  p") and " pays " in line for line in lines)
    assert not any("->" in line for line in lines)            # no raw events by default
    code, verbose = _run(capsys, "autoplay", folder, "--players", "3", "--seed", "4", "--verbose")
    assert code == 0 and "move gem-" in verbose and ".money: 5 -> " in verbose and " takes gem-" not in verbose


def test_the_events_are_the_same_with_or_without_narration(tmp_path):
    plain = load_game(str(GAMES / "auction"))
    told = load_game(str(_auction(tmp_path)))
    games = []
    for game in (plain, told):
        s = api.new_game(game, 3, 11)
        play_out(s, [make_agent("random", 11 * 1000 + i) for i in range(3)])
        games.append((s.events, s.actions, s.result))
    assert games[0] == games[1]


def test_templates_are_never_worked_out_unless_printed(capsys, tmp_path):
    """A template, prompt or says that fails when written: bots and simulate never write it."""
    rules = (GAMES / "auction" / "rules.yaml").read_text(encoding="utf-8")
    rules = rules.replace('          choose p:\n              "bid {n}" for n in range(bid + 1, p.money + 1):\n',
                          '          choose p, prompt "{p.money // 0}":\n'
                          '              "bid {n}" for n in range(bid + 1, p.money + 1) says "{n // 0}":\n')
    assert "prompt" in rules
    folder = _auction(tmp_path, "\nnarrate:\n  set:\n    money: \"{change // 0}\"\n", rules)
    game = load_game(str(folder))
    s = api.new_game(game, 3, 5)
    play_out(s, [make_agent(bot, 7 + i) for i, bot in enumerate(("random", "greedy", "random"))])
    assert s.over
    records = run_batch(str(folder), players=3, games=4, bots=("random", "greedy"))
    assert len(records) == 4 and not any(r.get("stalled") for r in records)
    s = api.new_game(game, 3, 5)
    with pytest.raises(ContentRuntimeError) as err:
        rulekit.prompt(s)
    assert err.value.code == "RK4000" and err.value.span.path.endswith("rules.yaml")
    with pytest.raises(ContentRuntimeError):
        s.pending.says(0)
    code, _out = _run(capsys, "autoplay", folder, "--players", "3", "--seed", "5")
    assert code == 1


def _the_error(folder: Path):
    """The one diagnostic loading ``folder`` gives, and the line of game.yaml it points at."""
    with pytest.raises(DiagnosticReport) as err:
        load_game(str(folder))
    (diag,) = err.value.diagnostics
    return diag, (folder / "game.yaml").read_text(encoding="utf-8").splitlines()[diag.span.line - 1]


def test_a_template_naming_an_unknown_field_is_an_error_on_its_line(tmp_path):
    diag, line = _the_error(_auction(tmp_path, '\nnarrate:\n  set:\n    money: "{player} pays {chnage}"\n'))
    assert diag.code == "RK0301" and diag.span.path.endswith("game.yaml")
    assert line[diag.span.column - 1:].startswith("chnage}")
    assert "`change`" in diag.help                  # the fields of `set` are names there


@pytest.mark.parametrize("narration, name, suggestion", [
    ('  set:\n    mony: "{new}"\n', "mony", "money"),
    ('  move:\n    - {to: gem, says: "{item}"}\n', "gem", "gems"),
    ('  move:\n    - {kind: gems, says: "{item}"}\n', "gems", "gem"),
    ('  transfer:\n    starter: "{payer}"\n', "starter", None),
])
def test_narrate_entries_for_what_the_game_lacks_are_rk0126(tmp_path, narration, name, suggestion):
    diag, line = _the_error(_auction(tmp_path, "\nnarrate:\n" + narration))
    assert diag.code == "RK0126" and f"`{name}`" in diag.message and name in line
    if suggestion:
        assert f"`{suggestion}`" in diag.help


def test_transfers_are_told_payer_to_payee_and_the_rest_as_net_changes():
    game = load_game("goa")
    s = api.new_game(game, 4, 1)
    events = [("set", "p2.ducats", 10, 4), ("set", "p3.ducats", 7, 10), ("set", "p4.ducats", 1, 4),
              ("set", "flag_holder", None, PLAYERS[1]), ("set", "p1.ships", 4, 3), ("set", "p1.ships", 3, 6)]
    assert narrate.lines(s, events) == ["p2 pays p3 3 ducats", "p2 pays p4 3 ducats", "p2 holds the flag",
                                        "p1 gets 2 ships"]
    # one seat's view: the others' money is theirs to know; a payment to the seat shows as its gain
    assert narrate.lines(s, events, seat=2) == ["p3 gets 3 ducats", "p2 holds the flag", "p1 gets 2 ships"]


def test_goa_autoplay_reads_like_a_game_report(capsys):
    code, out = _run(capsys, "autoplay", "goa", "--players", "3", "--seed", "2")
    assert code == 0
    assert " bids " in out and " for the flag" in out and " wins the flag for " in out
    assert " holds the flag" in out and " ducats" in out
    assert " sets out to found " in out and " is turned: " in out
    assert "fails to found" in out or "founds " in out


def test_play_shows_the_prompt_and_tells_only_what_the_seat_sees(capsys, monkeypatch):
    from rulekit.view import play
    answers = iter(["1"] * 40 + ["quit"])
    monkeypatch.setattr(play, "_stdin_reader", lambda console, interactive: lambda prompt: next(answers))
    code = play.play("goa", 3, "1", "random", (), 2, stdin_is_tty=False)
    out = capsys.readouterr().out
    assert code == 0
    assert "your auction of the flag" in out or "auctions the flag" in out
    told = [line.strip() for line in out.splitlines() if line.startswith("    ")]
    assert told, out
    assert not any(line.startswith(("p2 draws", "p3 draws")) for line in told)     # their hands are theirs
    assert not any(line.startswith(("p2 pays", "p3 pays", "p2 gets", "p3 gets")) and "ducats" in line
                   for line in told)                                            # and so is their money


def test_a_template_with_a_syntax_error_is_reported_on_its_line(tmp_path):
    diag, line = _the_error(_auction(tmp_path, '\nnarrate:\n  roll:\n    dice: "{actor} rolls {value +}"\n'))
    assert diag.code.startswith("RK02") and "dice:" in line


def test_prompt_and_says_are_words_only_where_they_belong(tmp_path):
    """`prompt` and `says` stay usable as names; a choose without them says nothing."""
    rules = (GAMES / "auction" / "rules.yaml").read_text(encoding="utf-8")
    names = "      says = 1\n      prompt = says + 1\n      bid = prompt - 2\n"
    rules = rules.replace("      bid = 0\n", "      bid = 0\n" + names)
    assert names in rules
    folder = _auction(tmp_path, "", rules)
    s = api.new_game(load_game(str(folder)), 3, 1)
    assert rulekit.prompt(s) is None and s.pending.says(0) is None


def test_the_prompt_is_text_on_demand_for_the_one_deciding():
    s = rulekit.new_game(rulekit.load_game("batavia"), 3, 7)
    told = rulekit.prompt(s)
    assert told.startswith("p1 auctions ") and " ship cards [" in told and "you have " in told
    assert "still in: [p2, p3, p1]" in told or "high bid" in told


def test_play_verbose_shows_the_raw_events_the_seat_may_see(capsys, monkeypatch):
    from rulekit.view import play
    answers = iter(["1"] * 60 + ["quit"])
    monkeypatch.setattr(play, "_stdin_reader", lambda console, interactive: lambda prompt: next(answers))
    assert play.play("goa", 3, "1", "random", (), 2, stdin_is_tty=False, verbose=True) == 0
    told = [line.strip() for line in capsys.readouterr().out.splitlines() if line.startswith("    ")]
    assert any(line.startswith("move ") and " -> " in line for line in told)
    assert any(line.startswith("p1.ducats: ") for line in told)                     # your money
    assert not any(line.startswith(("p2.ducats", "p3.ducats")) for line in told)     # not theirs
    assert not any(line.endswith(("-> p2.hand", "-> p3.hand")) for line in told)     # nor their cards
