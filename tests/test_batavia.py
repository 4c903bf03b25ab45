# SPDX-License-Identifier: MIT
"""Batavia as content: the rulings scenarios, one scripted full game per player count,
and random games that must keep the game's invariants.

- Every ``games/batavia/scenarios/*.yaml`` must pass (its expectations hold), end in
  a state that keeps every invariant and match the syrupy snapshot beside it that
  ``pytest games/batavia`` checks (``rulekit.testing.pytest_plugin``; each script is played once
  here); the rulings scripts also say what is *not* allowed (``refuse:``, ``legal:``), so
  each checks its ruling when run alone.
- ``full-game-{3,4,5}p.yaml`` were made by the seeded random bot (the same games as
  ``rulekit autoplay batavia --players N --seed N``); a digest of their events and actions
  and their final scores are syrupy snapshots. ``BATAVIA_REGENERATE=1 pytest tests/test_batavia.py -k full_game
  --snapshot-update`` writes them again after a rules change (review the diff).
- Random games: N per player count (60, or ``RULEKIT_LONG``, e.g. 1000; marked slow), 3 in
  the default run, with uniformly
  random legal actions; after every action every invariant holds and no player variable
  is negative; every game ends and has winners.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest
import yaml

import rulekit
from rulekit.agents import make_agent, play_out
from rulekit.cli.app import main
from rulekit.engine import api
from rulekit.engine.state import PLAYERS
from rulekit.testing import broken_invariants, events_digest
from rulekit.testing import play_random as _play_random
from rulekit.testing.pytest_plugin import snapshot_text, stored_snapshot_differs

GAME = Path(__file__).resolve().parent.parent / "games" / "batavia"
SCENARIOS = GAME / "scenarios"
FULL_GAMES = {3: 3, 4: 4, 5: 5}          # players -> seed
RANDOM_GAMES = int(os.environ.get("RULEKIT_LONG") or 60)
QUICK_GAMES = 3                          # per player count in the default run; the slow run plays RANDOM_GAMES
MAX_ACTIONS = 5000                       # a random game takes about 200-400


def scenario_paths() -> list[Path]:
    return sorted(SCENARIOS.glob("*.yaml"))


@functools.cache
def played(path: Path):
    """A script played once per session (on the game loaded once), its result checked against
    the snapshot beside it."""
    variants = yaml.safe_load(path.read_text(encoding="utf-8")).get("variants") or ()
    result, text = snapshot_text(str(path), _load(variants))
    return result, stored_snapshot_differs(str(path), text)


def _load(variants=()):
    key = tuple(variants)
    if key not in _GAMES:
        _GAMES[key] = rulekit.load_game(str(GAME), key)
    return _GAMES[key]


_GAMES: dict = {}



# ------------------------------------------------------------------ content

@pytest.mark.parametrize("variants", [(), ("open-route",)], ids=["base", "open-route"])
def test_validate_exits_0(variants, capsys):
    argv = ["validate", str(GAME)]
    for v in variants:
        argv += ["--variant", v]
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("ok: Batavia")


def test_the_game_has_invariants_and_every_rule_item_has_text():
    game = _load()
    assert len(game.scoring.invariants) >= 10
    data = game.data
    for section in ("functions", "procedures", "params", "zones"):
        missing = [name for name, spec in data[section].items() if not (isinstance(spec, dict) and spec.get("text"))]
        assert missing == [], f"{section} without text: {missing}"
    for section in ("vars",):
        assert all(spec.get("text") for spec in data[section].values())
    assert all(spec.get("text") for spec in data["player"]["vars"].values())
    assert all(spec.get("text") for spec in data["components"].values())
    assert all(cat.get("text") for cat in data["scoring"]["categories"])
    assert all(phase.get("text") for phase in data["flow"]["phases"])


# ------------------------------------------------------------------ scenarios

@pytest.mark.parametrize("path", scenario_paths(), ids=lambda p: p.stem)
def test_scenario_passes(path):
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert spec.get("text"), "every scenario says which rule it shows"
    result, differs = played(path)
    assert result.transcript
    assert broken_invariants(result.state) == []
    assert differs is None, differs


def test_there_is_a_scenario_for_every_ruling():
    names = {p.stem for p in scenario_paths()}
    assert {"auction-payment", "auction-payment-wraps", "auction-no-bid", "auction-last-speaker",
            "majority-tie", "pirates-tie", "pirates-repeat", "goal-restriction", "cash-in", "reveal",
            "open-route", "deck-reshuffle", "deck-reshuffle-auction", "deck-empty", "final-scoring",
            "full-game-3p", "full-game-4p", "full-game-5p"} <= names


def test_the_ruling_scripts_say_what_is_not_allowed():
    refusing = {p.stem for p in scenario_paths() if "- refuse:" in p.read_text(encoding="utf-8")}
    assert {"auction-last-speaker", "goal-restriction", "majority-tie"} <= refusing


def test_only_the_player_to_move_sees_the_legal_actions():
    views = played(SCENARIOS / "majority-tie.yaml")[0].checkpoints["p2-tied"]
    assert views["p2"]["legal"] == ["play danish"]
    assert all("legal" not in v for p, v in views.items() if p != "p2")


def test_face_down_tiles_are_hidden_from_everyone():
    result = played(SCENARIOS / "reveal.yaml")[0]
    for player_view in result.checkpoints["after-reveals"].values():
        route = player_view["zones"]["route"]
        assert route["16"] == ["english-silk"]
        assert route["21"] == ["?"] and route["35"] == ["?"]
        assert player_view["players"]["p1"]["bonds"] in ("?", 15)   # bonds are secret


def test_the_goal_scenario_ends_the_game():
    state = played(SCENARIOS / "goal-restriction.yaml")[0].state
    assert state.over
    assert state.g["round"] == 1
    # Everybody holds 15 bonds: all tie for the most, 2 gold each.
    assert [row["breakdown"]["bonds"] for row in state.result["scores"].values()] == [2, 2, 2, 2]
    assert state.result["scores"]["p1"]["breakdown"]["goal"] == 4


# ------------------------------------------------------------------ full games

def write_full_game(path: Path, players: int, seed: int) -> None:
    """Play the seeded random bots (as ``rulekit autoplay``) and save the actions as a script."""
    game = _load()
    state = api.new_game(game, players, seed)
    agents = [make_agent("random", seed * 1000 + i) for i in range(players)]
    lines = []
    play_out(state, agents, lambda s, who, index: lines.append(f"  - {PLAYERS[who]}: {s.pending.labels[index]}"))
    rows = [f"{p}: {{{', '.join(f'{k}: {v}' for k, v in r['breakdown'].items())}, total: {r['total']}}}"
            for p, r in state.result["scores"].items()]     # so `rulekit run` checks the scores too
    lines.append(f"  - score: {{{', '.join(rows)}, winners: [{', '.join(state.result['winners'])}]}}")
    head = [
        "# yaml-language-server: $schema=../../../schemas/script.schema.json",
        "# Generated: `BATAVIA_REGENERATE=1 pytest tests/test_batavia.py -k full_game` (seeded random bots,",
        f"# the game of `rulekit autoplay batavia --players {players} --seed {seed}`).",
        f"title: A full {players}-player game between random bots",
        "text: >-",
        f"  A whole {players}-player game, every decision taken by the seeded random bot: auctions,",
        "  draws, plays, moves, cash-ins, pirate attacks, the goal tile and the final scoring. Its",
        "  digest and scores are snapshots in tests/__snapshots__/test_batavia.ambr.",
        "game: ..",
        f"players: {players}",
        f"seed: {seed}",
        "actions:",
    ]
    path.write_text("\n".join(head + lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("players", sorted(FULL_GAMES))
def test_full_game(players, snapshot):
    path = SCENARIOS / f"full-game-{players}p.yaml"
    if os.environ.get("BATAVIA_REGENERATE"):
        write_full_game(path, players, FULL_GAMES[players])
        played.cache_clear()
    result, differs = played(path)
    state = result.state
    assert state.over and state.result["winners"]
    assert broken_invariants(state) == []
    assert differs is None, differs
    assert events_digest(state) == snapshot(name="digest")
    assert state.result == snapshot(name="scores")


# ------------------------------------------------------------------ random games


def random_games_keep_the_invariants(players: int, seeds: range) -> None:
    game = _load()
    for seed in seeds:
        state, _ = play_random(game, players, seed)
        assert state.result["winners"], f"seed {seed}: no winner"
        assert state.g["goal_taken"]
        assert state.result["ranking"][0] in state.result["winners"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_keep_the_invariants(players):
    random_games_keep_the_invariants(players, range(QUICK_GAMES))


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
def test_many_random_games_keep_the_invariants(players):
    random_games_keep_the_invariants(players, range(QUICK_GAMES, RANDOM_GAMES))


def random_games_with_the_open_route(seeds: range) -> None:
    game = _load(("open-route",))
    for seed in seeds:
        state, _ = play_random(game, 3 + seed % 3, seed)
        assert state.result["winners"]


def test_random_games_with_the_open_route():
    random_games_with_the_open_route(range(QUICK_GAMES))


@pytest.mark.slow
def test_many_random_games_with_the_open_route():
    random_games_with_the_open_route(range(QUICK_GAMES, max(RANDOM_GAMES // 6, 5)))


def play_random(game, players: int, seed: int):
    """One random game, checking the invariants after every action; returns (state, actions)."""
    return _play_random(game, players, seed, check=broken_invariants, max_actions=MAX_ACTIONS)
