# SPDX-License-Identifier: MIT
"""Views carry item state (``state:`` of components) by the visibility of the item itself:
a player sees the state of exactly the items their view names, so a mid-game Goa view
holds every development level, and nothing hidden (a face-down or undealt item's
state, a secret variable) reaches it."""
from __future__ import annotations

import random

import pytest

import rulekit
from rulekit.agents import RandomAgent
from rulekit.engine import api
from rulekit.engine.view import HIDDEN, state_props, view

SENTINEL = 987654


@pytest.fixture(scope="module", params=["batavia", "goa"])
def game(request):
    return rulekit.load_game(request.param)


def _play(game, steps: int, seed: int = 3):
    state = rulekit.new_game(game, players=game.default_players, seed=seed)
    agent = RandomAgent(seed)
    for _ in range(steps):
        if state.over:
            break
        api.apply_index(state, agent.choose(state))
    return state


def _named(picture: dict) -> set:
    """Every item id a picture shows in a zone."""
    out: set = set()

    def walk(content):
        if isinstance(content, list):
            out.update(i for i in content if i != HIDDEN)
        elif isinstance(content, dict) and "count" not in content:
            for sub in content.values():
                walk(sub)
    for content in picture["zones"].values():
        walk(content)
    for row in picture["players"].values():
        for content in row.values():
            walk(content)
    return out


def test_a_mid_game_goa_view_holds_the_development_levels():
    game = rulekit.load_game("goa")
    state = _play(game, 150)
    picture = view(state, 0)
    for seat in range(state.n):
        markers = picture["players"][f"p{seat + 1}"]["dev"]
        assert len(markers) == 5
        for marker in markers:
            assert picture["items"][marker] == {"level": state.iprops["level"].get(marker, 1)}
    assert any(row["level"] > 1 for row in picture["items"].values() if "level" in row), "nobody developed yet"


def test_item_state_is_listed_only_for_items_the_view_names(game):
    state = _play(game, 60)
    for viewer in (None, *range(state.n)):
        picture = view(state, viewer)
        assert set(picture["items"]) <= _named(picture)
        kinds = state_props(game)
        for ident, row in picture["items"].items():
            assert tuple(row) == kinds[game.components.item_kind[ident]]
    everything = view(state, full=True)["items"]
    assert set(everything) == {i for kind in state_props(game) for i in game.components.kinds[kind]}


def test_hidden_item_state_never_reaches_a_view(game):
    """Setting the state of every item p1 does not see (but `face_up`, which decides what
    is seen) leaves p1's view as it was; the same change to a seen item shows."""
    rng = random.Random(0)
    tampered = 0
    for steps in (0, 25, 80, 160):
        state = _play(game, steps, seed=steps)
        before = view(state, 0)
        seen = _named(before)
        unseen = [i for kind in state_props(game) for i in game.components.kinds[kind] if i not in seen]
        for ident in unseen:
            for prop in state_props(game)[game.components.item_kind[ident]]:
                if prop != "face_up":
                    state.item_states(prop)[ident] = SENTINEL
                    tampered += 1
        assert view(state, 0) == before
        shown = [i for i in before["items"] if any(p != "face_up" for p in before["items"][i])]
        if shown:
            ident = rng.choice(shown)
            prop = next(p for p in before["items"][ident] if p != "face_up")
            state.item_states(prop)[ident] = SENTINEL
            assert view(state, 0)["items"][ident][prop] == SENTINEL
    if game.name == "goa":
        assert tampered, "Goa always has face-down tiles whose state must stay hidden"
