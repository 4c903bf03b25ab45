# SPDX-License-Identifier: MIT
"""Goa as content: the rulebook's FAQ as scripted scenarios, the rulebook's example round,
one scripted full game per player count, and random games that must keep the invariants.

- ``games/goa/faq/f1-*.yaml`` .. ``f9-*.yaml``: one scenario per FAQ answer, quoting it in
  ``text:``; each asserts the ruling's outcome with ``expect:``, and what it forbids with
  ``refuse:`` and ``legal:`` steps (e.g. a bid above one's money), so each script checks its
  ruling when run alone.
- ``games/goa/scenarios/rulebook-example-round.yaml``: the rulebook's "Példaforduló" (round 1, 4 players);
  its transcript (``rulekit.testing.transcript``) is a syrupy snapshot.
- ``games/goa/scenarios/full-game-{2,3,4}p.yaml`` were made by the seeded random bot (the
  games of ``rulekit autoplay goa --players N --seed N``); a digest of their events and actions
  and the final scores are snapshots. ``GOA_REGENERATE=1 pytest tests/test_goa.py -k full_game --snapshot-update``
  writes them again after a rules change (review the diff).
- Every FAQ and ruling script's transcript (a full game's digest and result) is the syrupy
  snapshot beside it that ``pytest games/goa`` checks (``rulekit.testing.pytest_plugin``); the tests here
  play each script once and compare with the same snapshot.
- Random games: 40 per player count (``RULEKIT_LONG=1000`` for the long run; marked slow), 3 per
  count in the default run, with uniformly random legal actions; after every action every declared invariant holds, no
  player variable is negative and the 54 tiles, 30 expedition cards and 18 colony tiles
  are all somewhere exactly once; every game ends after round 8.
"""
from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path

import pytest
import yaml

import rulekit
from rulekit.agents import make_agent, play_out
from rulekit.cli.app import main
from rulekit.engine import api
from rulekit.engine.state import PLAYERS
from rulekit.testing import broken_invariants as declared_invariants
from rulekit.testing import events_digest, transcript_of
from rulekit.testing import play_random as _play_random
from rulekit.testing.pytest_plugin import snapshot_text, stored_snapshot_differs
from rulekit.testing.script import run_script

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "games" / "goa"
FAQ = GAME / "faq"
SCENARIOS = GAME / "scenarios"
EXAMPLE = SCENARIOS / "rulebook-example-round.yaml"
FULL_GAMES = {2: 2, 3: 3, 4: 4}          # players -> seed
RANDOM_GAMES = int(os.environ.get("RULEKIT_LONG") or 40)
QUICK_GAMES = 3                          # per player count in the default run; the slow run plays RANDOM_GAMES
MAX_ACTIONS = 5000                       # a random game takes about 250-600
COUNTS = {"tile_a": 27, "tile_b": 27, "expedition": 30, "colony": 18, "action_card": 10}

_GAMES: dict = {}


def _load(variants=()):
    key = tuple(variants)
    if key not in _GAMES:
        _GAMES[key] = rulekit.load_game(str(GAME), key)
    return _GAMES[key]


@functools.cache
def played(path: Path):
    """A script played once per session (on the game loaded once), its result checked against
    the snapshot beside it."""
    variants = yaml.safe_load(path.read_text(encoding="utf-8")).get("variants") or ()
    result, text = snapshot_text(str(path), _load(variants))
    return result, stored_snapshot_differs(str(path), text)


def broken_invariants(state) -> list[str]:
    """Ids of the declared invariants that do not hold, any negative player variable, and
    any component not lying in exactly one zone (the 54 tiles, 30 expedition cards, 18
    colony tiles and 10 action cards are conserved independently of the content's own
    invariants)."""
    bad = declared_invariants(state)
    game = state.game
    for kind, total in COUNTS.items():
        ids = game.components.kinds[kind]
        if len(ids) != total:
            bad.append(f"{kind}: {len(ids)} defined, not {total}")
        placed = sum(1 for ident in ids if ident in state.zones.get(state.loc.get(ident), ()))
        if placed != total:
            bad.append(f"{kind}: {placed} of {total} in their zones")
    held = sum(len(items) for items in state.zones.values())
    if held != len(state.loc):
        bad.append(f"{held} items in zones, {len(state.loc)} located")
    return bad


# ------------------------------------------------------------------ content

@pytest.mark.parametrize("variants", [(), ("pro",)], ids=["base", "pro"])
def test_validate_exits_0(variants, capsys):
    argv = ["validate", str(GAME)]
    for v in variants:
        argv += ["--variant", v]
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("ok: Goa")


def test_every_rule_item_carries_its_text():
    data = _load().data
    for section in ("functions", "procedures", "params", "zones", "vars", "option_groups", "components"):
        missing = [name for name, spec in data[section].items() if not (isinstance(spec, dict) and spec.get("text"))]
        assert missing == [], f"{section} without text: {missing}"
    for section in ("vars", "zones"):
        missing = [name for name, spec in data["player"][section].items() if not spec.get("text")]
        assert missing == [], f"player {section} without text: {missing}"
    assert all(cat.get("text") for cat in data["scoring"]["categories"])
    assert all(phase.get("text") for phase in data["flow"]["phases"])
    assert all(inv.get("text") for inv in data["invariants"])
    # An item marked as a ruling says what was ruled.
    for section in ("functions", "procedures", "params", "option_groups"):
        for name, spec in data[section].items():
            if spec.get("provenance") == "ruling":
                assert spec.get("ruling"), f"{section}.{name} is a ruling without `ruling:`"


def test_every_ruling_and_faq_answer_is_cited_in_the_content():
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(GAME.glob("**/*.yaml"))
                     if p.parent.name not in ("faq", "scenarios"))
    cited = set(re.findall(r"\b([RF]\d+)\b", text))
    assert {f"R{i}" for i in range(1, 22)} <= cited
    assert {f"F{i}" for i in range(1, 10)} <= cited


# ------------------------------------------------------------------ FAQ scenarios

def faq_paths() -> list[Path]:
    return sorted(FAQ.glob("f*.yaml"))


def test_there_is_a_scenario_for_every_faq_answer():
    assert [p.name.split("-")[0] for p in faq_paths()] == [f"f{i}" for i in range(1, 10)]


@pytest.mark.parametrize("path", faq_paths(), ids=lambda p: p.stem)
def test_faq_scenario_passes(path):
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    number = path.name.split("-")[0][1:]
    assert spec["text"].startswith(f"FAQ {number}. \"Kérdés:"), "every FAQ scenario quotes its question"
    assert "Válasz:" in spec["text"], "... and its answer"
    assert any(isinstance(step, dict) and "expect" in step for step in spec["actions"])
    result, differs = played(path)
    assert result.transcript
    assert broken_invariants(result.state) == []
    assert differs is None, differs


# The FAQ answers that say what is *not* allowed: their scripts say it too, with `refuse:` and
# `legal:` steps, so that each fails on its own (`rulekit run`) when its ruling is broken.
REFUSING = {"f1", "f3", "f4", "f5", "f7", "f8", "f9"}


def test_the_faq_scripts_say_what_is_not_allowed():
    for path in faq_paths():
        steps = {next(iter(step)) for step in yaml.safe_load(path.read_text(encoding="utf-8"))["actions"]
                 if isinstance(step, dict)}
        if path.name.split("-")[0] in REFUSING:
            assert "legal" in steps, path.name
    refusing = [p for p in faq_paths() if "- refuse:" in p.read_text(encoding="utf-8")]
    assert len(refusing) >= 5


def test_f2_the_turned_cards_stay_out_of_the_deck_until_it_runs_out():
    state = played(FAQ / "f2-start-cards-discarded.yaml")[0].state
    turned = ["exp-ducats5-1", "exp-ducats5-2", "exp-spices2-2"]
    assert [str(state.loc[c]) for c in turned] == ["expedition_discard"] * 3
    deck = state.zones[state.game.board.zones["expedition_deck"]]
    assert len(deck) == 27 and not set(turned) & set(deck)


# ------------------------------------------------------------------ the example round

def test_example_round(snapshot):
    result = run_script(str(EXAMPLE))
    record, state = transcript_of(result), result.state
    assert state.g["round"] == 2 and str(state.g["flag_holder"]) == "p4"
    # The round ends with blue (p4) about to place the flag for round 2.
    views = record["checkpoints"]["round-2"]
    assert views["p4"]["to_move"] == "p4"
    assert all(label.startswith("flag at ") for label in views["p4"]["legal"])
    assert broken_invariants(state) == []
    assert record == snapshot


# ------------------------------------------------------------------ full games

def write_full_game(path: Path, players: int, seed: int) -> None:
    """Play the seeded random bots (as ``rulekit autoplay``) and save the actions as a script."""
    game = _load()
    state = api.new_game(game, players, seed)
    agents = [make_agent("random", seed * 1000 + i) for i in range(players)]
    lines = []
    play_out(state, agents, lambda s, who, index: lines.append(f"  - {PLAYERS[who]}: {s.pending.labels[index]}"))
    lines += ["# The final scores: `rulekit run` checks that the game ends with them (RK5008 otherwise).",
              "result: " + json.dumps(state.result, sort_keys=True)]
    head = [
        "# yaml-language-server: $schema=../../../schemas/script.schema.json",
        "# Generated: `GOA_REGENERATE=1 pytest tests/test_goa.py -k full_game --snapshot-update` (seeded random",
        f"# bots, the game of `rulekit autoplay goa --players {players} --seed {seed}`).",
        f"title: A full {players}-player game of Goa between random bots",
        "text: >-",
        f"  A whole {players}-player game, every decision taken by the seeded random bot: marker placement,",
        "  auctions, the three actions and the additional actions of 8 rounds (part A and part B), and the",
        "  final scoring. A digest of it and its scores are snapshots in tests/__snapshots__/test_goa.ambr.",
        "game: ..",
        f"players: {players}",
        f"seed: {seed}",
        "actions:",
    ]
    path.write_text("\n".join(head + lines) + "\n", encoding="utf-8")


@pytest.mark.parametrize("players", sorted(FULL_GAMES))
def test_full_game(players, snapshot):
    path = SCENARIOS / f"full-game-{players}p.yaml"
    if os.environ.get("GOA_REGENERATE"):
        write_full_game(path, players, FULL_GAMES[players])
        played.cache_clear()
    result, differs = played(path)
    state = result.state
    assert state.over and state.g["round"] == 8 and state.result["winners"]
    assert broken_invariants(state) == []
    assert differs is None, differs
    assert events_digest(state) == snapshot(name="digest")
    assert state.result == snapshot(name="scores")


# ------------------------------------------------------------------ random games


def random_games_keep_the_invariants(players: int, seeds: range) -> None:
    game = _load()
    for seed in seeds:
        state, _ = play_random(game, players, seed)
        assert state.over and state.g["round"] == 8, f"seed {seed}: ended in round {state.g['round']}"
        assert state.result["winners"], f"seed {seed}: no winner"
        assert state.result["ranking"][0] in state.result["winners"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_invariants(players):
    random_games_keep_the_invariants(players, range(QUICK_GAMES))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games_keep_the_invariants(players):
    random_games_keep_the_invariants(players, range(QUICK_GAMES, RANDOM_GAMES))


def random_games_with_the_pro_variant(seeds: range) -> None:
    game = _load(("pro",))
    for seed in seeds:
        state, _ = play_random(game, 2 + seed % 3, seed)
        assert state.over and state.g["round"] == 8


def test_random_games_with_the_pro_variant():
    random_games_with_the_pro_variant(range(QUICK_GAMES))


@pytest.mark.slow
def test_many_random_games_with_the_pro_variant():
    random_games_with_the_pro_variant(range(QUICK_GAMES, max(RANDOM_GAMES // 8, 5)))


def play_random(game, players: int, seed: int):
    """One random game, checking the invariants after every action; returns (state, actions)."""
    return _play_random(game, players, seed, check=broken_invariants, max_actions=MAX_ACTIONS)


# ------------------------------------------------------------------ ruling scenarios

@pytest.mark.parametrize("path", sorted(p for p in (GAME / "scenarios").glob("*.yaml")
                                        if not p.name.startswith("full-game")), ids=lambda p: p.stem)
def test_ruling_scenario_passes_and_keeps_the_invariants(path):
    spec = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert spec.get("text"), "every scenario says which rule it shows"
    result, differs = played(path)
    assert broken_invariants(result.state) == []
    assert differs is None, differs
