"""Modern Art (examples/modern-art): five kinds of auction, one of them simultaneous.

- The game validates, and every part of it carries its rules text.
- Its scenarios pass (one per auction kind, and two seasons ending on a fifth painting),
  every declared invariant holding at their end; there are at least six.
- Random games at 3, 4 and 5 players (20 each, or ``RULEKIT_LONG``) finish with every
  invariant holding after every action.
- The sealed auction is a ``choose_all``: its bids are secret in every view until all are in.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import rulekit
from rulekit.cli.app import main
from rulekit.engine import api
from rulekit.testing import broken_invariants, play_random
from rulekit.testing.script import run_script

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "modern-art"
SCENARIOS = sorted((GAME / "scenarios").glob("*.yaml"))
RANDOM_GAMES = int(os.environ.get("RULEKIT_LONG") or 20)


@pytest.fixture(scope="module")
def game():
    return rulekit.load_game(str(GAME))


def test_it_validates(capsys):
    assert main(["validate", str(GAME)]) == 0
    assert "ok: Modern Art (75 items" in capsys.readouterr().out


def test_five_artists_seventy_paintings(game):
    by_artist: dict = {}
    for ident in game.components.kinds["painting"]:
        by_artist[game.components.items[ident]["artist"]] = by_artist.get(game.components.items[ident]["artist"], 0) + 1
    assert by_artist == {"manuel": 12, "sigrid": 13, "daniel": 14, "ramon": 15, "rafael": 16}
    kinds = {game.components.items[i]["auction"] for i in game.components.kinds["painting"]}
    assert kinds == {"open", "once", "sealed", "fixed", "double"}


def test_at_least_six_scenarios():
    names = {p.stem for p in SCENARIOS}
    assert len(names) >= 6
    assert {"open-auction", "once-around", "sealed-auction", "fixed-price", "double-auction", "season-end"} <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario(path):
    result = run_script(str(path))
    assert any(line.strip().startswith("expect ok") for line in result.transcript)
    assert broken_invariants(result.state) == []


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_keep_the_invariants(game, players):
    for seed in range(RANDOM_GAMES):
        state, _actions = play_random(game, players, seed)
        assert state.over, f"{players} players, seed {seed}: not over"
        assert state.g["round"] == 4
        money = [state.result["scores"][f"p{q + 1}"]["total"] for q in range(players)]
        assert state.result["winners"] == [f"p{q + 1}" for q in range(players) if money[q] == max(money)]


def test_deals_by_player_count(game):
    for players, first in ((3, 10), (4, 9), (5, 8)):
        state = api.new_game(game, players, 0)
        assert [len(state.zones[game.board.pzones["hand"][q]]) for q in range(players)] == [first] * players


def test_sealed_bids_stay_secret_until_all_are_in():
    result = run_script(str(GAME / "scenarios" / "sealed-auction.yaml"))
    views = result.checkpoints["two-have-bid"]
    # p3 and p2 have bid 20 each; p4 and p1 have not: each bidder sees their own bid only.
    assert views["p3"]["chosen"] == "bid 20" and views["p2"]["chosen"] == "bid 20"
    assert views["p1"]["deciding"] == ["p1", "p4"] and views["p1"]["to_move"] == "p1"
    assert views["p4"]["to_move"] == "p4" and "bid 100" in views["p4"]["legal"]
    for seat in ("p1", "p4"):
        assert "chosen" not in views[seat] and "bid 20" not in json.dumps({k: v for k, v in views[seat].items()
                                                                           if k != "legal"})
    assert views["p2"]["players"]["p3"]["money"] == "?"      # money is hidden
    assert views["p3"]["players"]["p3"]["money"] == 100      # nothing is paid before all have bid
