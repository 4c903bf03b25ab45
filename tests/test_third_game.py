# SPDX-License-Identifier: MIT
"""For Sale (examples/for-sale), the third game written only as content, and the
tutorial that builds it (docs/authoring.md).

- The game and its variant validate, and every rule item carries its rulebook text.
- Setup follows the player count (coins, cards set aside, rounds per phase).
- Random games at every player count (30 each, or ``RULEKIT_LONG``) finish, and every
  invariant the content declares holds after every action.
- The scenarios under ``examples/for-sale/scenarios/`` pass; their transcripts
  (``rulekit.testing.transcript``) are syrupy snapshots. The checkpoints show that a
  property offered for sale stays secret until everybody has chosen.
- docs/authoring.md shows every file of the game exactly as it is (tests/test_docs.py runs its
  ``console`` blocks, plants its deliberate mistakes and checks its ``# from:`` excerpts).
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
import yaml

import rulekit
from rulekit.cli.app import main
from rulekit.engine import api
from rulekit.engine.state import PLAYERS
from rulekit.engine.view import view
from rulekit.testing import broken_invariants, transcript
from rulekit.testing import play_random as _play_random
from rulekit.testing.script import run_script

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "for-sale"
SCENARIOS = GAME / "scenarios"
AUTHORING = ROOT / "docs" / "authoring.md"
VARIANTS = sorted(p.stem for p in (GAME / "variants").glob("*.yaml"))
RANDOM_GAMES = int(os.environ.get("RULEKIT_LONG") or 30)
MAX_ACTIONS = 3000                       # a random game takes about 45-75

_GAMES: dict = {}


def _load(variants=()):
    key = tuple(variants)
    if key not in _GAMES:
        _GAMES[key] = rulekit.load_game(str(GAME), key)
    return _GAMES[key]



def scenario_paths() -> list[Path]:
    return sorted(SCENARIOS.glob("*.yaml"))


# ------------------------------------------------------------------ content

def test_the_game_loads():
    game = rulekit.load_game("examples/for-sale" if Path("examples/for-sale").is_dir() else str(GAME))
    assert game.title == "For Sale"
    assert (game.min_players, game.max_players) == (3, 6)
    assert len(game.components.kinds["property"]) == 30 and len(game.components.kinds["cheque"]) == 30
    values = sorted(game.components.items[c]["value"] for c in game.components.kinds["cheque"])
    assert values == sorted([0, 0] + [v for v in range(2, 16) for _ in (1, 2)])
    assert sorted(game.components.items[c]["value"] for c in game.components.kinds["property"]) == list(range(1, 31))


def test_there_is_a_variant():
    assert VARIANTS == ["refund-rounded-up"]


@pytest.mark.parametrize("variants", [()] + [(v,) for v in VARIANTS], ids=lambda v: "+".join(v) or "base")
def test_validate_exits_0(variants, capsys):
    argv = ["validate", str(GAME)]
    for v in variants:
        argv += ["--variant", v]
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("ok: For Sale")
    _load(variants)


def test_every_rule_item_has_text():
    data = _load().data
    for section in ("functions", "procedures", "params", "zones", "vars", "components"):
        missing = [name for name, spec in data[section].items() if not (isinstance(spec, dict) and spec.get("text"))]
        assert missing == [], f"{section} without text: {missing}"
    for section in ("vars", "zones"):
        assert all(spec.get("text") for spec in data["player"][section].values())
    assert all(cat.get("text") for cat in data["scoring"]["categories"])
    assert all(phase.get("text") for phase in data["flow"]["phases"])
    assert all(inv.get("text") for inv in data["invariants"])
    # Where the editions disagree, the content says so.
    assert data["functions"]["refund"]["provenance"] == "ruling"


def test_the_content_declares_the_conservation_invariants():
    ids = {ident for ident, _text, _fn in _load().scoring.invariants}
    assert {"properties_conserved", "cheques_conserved", "coins_conserved", "coins_never_negative"} <= ids


# ------------------------------------------------------------------ setup by player count

# players -> (coins each, cards set aside of each kind, rounds per phase)
SETUP = {3: (18, 6, 8), 4: (18, 2, 7), 5: (14, 0, 6), 6: (14, 0, 5)}


@pytest.mark.parametrize("players", sorted(SETUP))
def test_setup_follows_the_player_count(players):
    coins, removed, rounds = SETUP[players]
    state = api.new_game(_load(), players, seed=players)
    game = state.game
    assert [row["coins"] for row in state.p[:players]] == [coins] * players
    aside = state.zones[game.board.zones["set_aside"]]
    assert sum(game.components.item_kind[x] == "property" for x in aside) == removed
    assert sum(game.components.item_kind[x] == "cheque" for x in aside) == removed
    assert len(state.zones[game.board.zones["market"]]) == players          # the first auction is on
    assert state.g["round"] == 1 and str(PLAYERS[state.pending.player]) == "p1"
    assert broken_invariants(state) == []
    # The market is laid out from the lowest value to the highest.
    market = [game.components.items[x]["value"] for x in state.zones[game.board.zones["market"]]]
    assert market == sorted(market)
    assert state.pending.labels[-1] == "pass"
    assert list(state.pending.labels[:-1]) == [f"bid {n}" for n in range(1, coins + 1)]
    params = {name: fn(state, {}) if callable(fn) else fn for name, fn in game.program.params.items()}
    assert params["rounds_per_phase"] == rounds


# ------------------------------------------------------------------ random games


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_games_finish_and_keep_the_invariants(players):
    game = _load()
    _coins, removed, rounds = SETUP[players]
    for seed in range(RANDOM_GAMES):
        state, actions = play_random(game, players, seed)
        result = state.result
        assert result["winners"] and result["ranking"][0] in result["winners"], f"seed {seed}"
        assert state.g["round"] == 2 * rounds
        # Every player sold every property and won one cheque per round of phase 2.
        for i in range(players):
            assert state.zones[game.board.pzones["hand"][i]] == []
            assert len(state.zones[game.board.pzones["cheques"][i]]) == rounds
        assert len(state.zones[game.board.zones["sold"]]) == players * rounds
        # Score = cheques + coins left; the tie-break is the coins left.
        for i in range(players):
            row = result["scores"][str(PLAYERS[i])]
            cheques = sum(game.components.items[c]["value"] for c in state.zones[game.board.pzones["cheques"][i]])
            assert row["breakdown"] == {"cheques": cheques, "coins": state.p[i]["coins"]}
            assert row["tiebreak"] == [state.p[i]["coins"]]
        # Every auction takes at least one pass per player but the last; every sale one choice each.
        assert actions >= rounds * (players - 1) + rounds * players


def test_random_games_with_each_variant():
    for variant in VARIANTS:
        game = _load((variant,))
        for seed in range(max(RANDOM_GAMES // 3, 5)):
            state, _ = play_random(game, 3 + seed % 4, seed)
            assert state.result["winners"]


def test_random_games_are_replayable():
    game = _load()
    first, _ = play_random(game, 5, 7)          # played as autoplay plays it, with a record: its notation
    replayed = api.new_game(game, 5, 7)
    for action in first.actions:
        api.apply(replayed, action)
    assert replayed.over and replayed.result == first.result and replayed.actions == first.actions


# ------------------------------------------------------------------ scenarios

@pytest.mark.parametrize("path", scenario_paths(), ids=lambda p: p.stem)
def test_scenario(path, snapshot):
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert spec.get("text"), "every scenario says which rule it shows"
    assert any("expect" in step for step in spec["actions"] if isinstance(step, dict))
    record = transcript(str(path))
    assert record == snapshot
    assert broken_invariants(run_script(str(path)).state) == []


def test_the_scripted_game_checks_the_refund_rule():
    path = SCENARIOS / "three-player-game.yaml"
    text = path.read_text(encoding="utf-8")
    assert "takes back half their bid" in yaml.safe_load(text)["text"].replace("\n", " ")
    state = run_script(str(path)).state
    assert state.over
    result = state.result
    # p2 and p3 tie on 66; p2 kept more coins and wins.
    assert result["winners"] == ["p2"] and result["ranking"] == ["p2", "p3", "p1"]
    assert result["scores"]["p2"]["total"] == result["scores"]["p3"]["total"] == 66


def test_an_offered_property_stays_secret_until_everybody_chose():
    result = run_script(str(SCENARIOS / "three-player-game.yaml"))
    views = result.checkpoints["two-have-chosen"]
    # p1 and p2 have chosen, p3 has not (a `choose_all`): each sees their own pick, nobody another's;
    # the offered cards go face down only when everybody has chosen.
    assert views["p1"]["chosen"] == "sell 1" and views["p2"]["chosen"] == "sell 8"
    assert "chosen" not in views["p3"]
    assert views["p1"]["deciding"] == views["p3"]["deciding"] == ["p3"]
    assert views["p1"]["players"]["p1"]["offer"] == []
    assert views["p3"]["players"]["p1"]["offer"] == {"count": 0}
    assert "sell 1" not in json.dumps(views["p2"]) and "sell 8" not in json.dumps(views["p3"])
    # Hands and money are secret too; bids and the cards on display are open.
    assert views["p2"]["players"]["p1"]["hand"] == {"count": 8}     # the offer still in hand, unseen
    assert views["p2"]["players"]["p1"]["coins"] == "?"
    assert views["p1"]["players"]["p1"]["coins"] == 0
    assert views["p3"]["zones"]["cheque_row"] == ["cheque-00a", "cheque-09a", "cheque-15a"]
    # Only p3, who is to choose, sees the legal actions.
    assert views["p3"]["to_move"] == "p3"
    assert views["p3"]["legal"] == ["sell 5", "sell 7", "sell 11", "sell 13", "sell 19", "sell 20",
                                    "sell 24", "sell 30"]
    assert "legal" not in views["p1"] and "legal" not in views["p2"]
    # The spectator sees no offer either.
    assert view(result.state, None)["players"]["p1"]["cheques"] == {"count": 8}


def test_a_player_may_bid_every_coin_they_have():
    result = run_script(str(SCENARIOS / "three-player-game.yaml"))
    views = result.checkpoints["p1-may-bid-everything"]
    assert views["p1"]["to_move"] == "p1"
    assert views["p1"]["legal"] == ["bid 1", "bid 2", "bid 3", "bid 4", "bid 5", "pass"]
    assert views["p2"]["players"]["p3"]["passed"] is True


# ------------------------------------------------------------------ the tutorial

def _fenced(text: str) -> list[tuple[str, list[str]]]:
    """(info string, lines) of every ``` fenced block."""
    blocks, current, info = [], None, ""
    for line in text.splitlines():
        if current is None:
            match = re.match(r"^```(.*)$", line)
            if match:
                current, info = [], match.group(1).strip()
        elif line == "```":
            blocks.append((info, current))
            current = None
        else:
            current.append(line)
    assert current is None, "unclosed code fence"
    return blocks


def _tutorial_files() -> dict[str, str]:
    """The tutorial's ``# file: for-sale/PATH`` blocks: PATH -> content (as tests/test_docs.py writes them)."""
    files = {}
    for _info, lines in _fenced(AUTHORING.read_text(encoding="utf-8")):
        if lines and lines[0].startswith("# file: for-sale/"):
            files[lines[0][len("# file: for-sale/"):].strip()] = "\n".join(lines[1:]) + "\n"
    return files


def test_the_tutorial_shows_the_game_as_it_is():
    files = _tutorial_files()
    content = sorted(str(p.relative_to(GAME)) for p in GAME.rglob("*.yaml") if p.parent.name != "scenarios")
    assert sorted(f for f in files if not f.startswith("scenarios/")) == content, (
        "docs/authoring.md must show every file of examples/for-sale (scenarios optional)")
    for name, text in files.items():
        assert (GAME / name).read_text(encoding="utf-8") == text, (
            f"docs/authoring.md shows another examples/for-sale/{name}; copy the file into the tutorial")


def play_random(game, players: int, seed: int):
    """One random game, checking the invariants after every action; returns (state, actions)."""
    return _play_random(game, players, seed, check=broken_invariants, max_actions=MAX_ACTIONS)
