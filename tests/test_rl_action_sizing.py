# SPDX-License-Identifier: MIT
"""A number the rules leave open (Goa's purse has no maximum) is bounded by a size taken from the
content, not a fixed 60: every legal action of the shipped games has an id by default, Goa's bids
past 60 included, and the same content always gives the same ids."""
from __future__ import annotations

import random
import warnings

import pytest

from rulekit.engine import api
from rulekit.errors import RulekitError
from rulekit.games import load_game
from rulekit.rl import actions
from rulekit.rl.actions import DEFAULT_MAX_NUMBER, HEADROOM, content_max_number, vocabulary

SHIPPED = ["batavia", "goa", "examples/for-sale", "examples/modern-art"]


def test_goa_bids_past_the_old_fixed_bound_have_ids():
    goa = load_game("goa")
    vocab = vocabulary(goa)
    assert vocab.max_number == content_max_number(goa) > DEFAULT_MAX_NUMBER
    for bid in (61, 100, vocab.max_number):
        assert vocab.id_of(f"bid {bid}") is not None, bid
    assert vocab.id_of(f"bid {vocab.max_number + 1}") is None
    assert vocabulary(goa, max_number=60).id_of("bid 61") is None     # the old default


def test_the_size_is_the_content_s_own_and_the_same_every_time():
    goa = load_game("goa")
    first = content_max_number(goa)
    actions._MEASURED.clear()
    actions._CACHE.clear()
    assert content_max_number(load_game("goa")) == first
    assert first % HEADROOM == 0 and first >= DEFAULT_MAX_NUMBER
    assert content_max_number(load_game("examples/for-sale")) < first    # For Sale's coins stay few


def _most_offered_and_unmapped(game, games: int, seed: int) -> tuple[int, list]:
    """The largest number offered and every legal label without an id, over ``games`` random games
    on seeds the sizing never played."""
    vocab = vocabulary(game)
    rng = random.Random(seed)
    largest, unmapped = 0, []
    for k in range(games):
        players = game.min_players + k % (game.max_players - game.min_players + 1)
        state = api.new_game(game, players, seed + k)
        while not state.over:
            pending = state.pending
            for seat in pending.players:
                decision = pending if seat == pending.player else pending.focus(seat)
                unmapped += [label for label in decision.labels if vocab.id_of(label) is None]
                largest = max([largest, *(v for c in decision.choices for v in c[1:] if v.__class__ is int)])
            api.apply_index(state, rng.randrange(len(pending.choices)))
    return largest, unmapped


@pytest.mark.parametrize("name", SHIPPED)
def test_every_legal_action_of_the_shipped_games_has_an_id_by_default(name):
    game = load_game(name)
    largest, unmapped = _most_offered_and_unmapped(game, games=6, seed=1000)
    assert unmapped == []
    assert largest * 2 <= vocabulary(game).max_number         # room to spare beyond what these games offered


def test_the_environment_maps_every_goa_bid_without_a_warning():
    pytest.importorskip("pettingzoo")
    from rulekit.rl.pettingzoo import raw_env
    e = raw_env("goa", players=4, seed=5)
    rng = random.Random(5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")           # "the legal action 'bid 61' has no id" would fail here
        for _ in range(2):
            e.reset()
            while e.agents:
                mask = e.observe(e.agent_selection)["action_mask"]
                legal = mask.nonzero()[0]
                e.step(int(legal[rng.randrange(len(legal))]) if not (e.terminations[e.agent_selection]
                                                                    or e.truncations[e.agent_selection]) else None)
    assert e.play.unmapped == 0


def test_a_content_error_in_the_sizing_games_leaves_the_ids_and_play_meets_it(write_game):
    folder = write_game("""
        meta: {title: Boom}
        players: {min: 2, max: 2}
        player:
          vars:
            coins: {initial: 3, min: 0}
        procedures:
          turn:
            params: [p]
            do: |
              choose p:
                  "bid {n}" for n in range(0, p.coins + 1):
                      p.coins += 90
                      if p.coins > 200:
                          p.coins = p.coins // (p.coins - p.coins)
        flow:
          end_after_round_if: "round >= 6"
          phases:
            - id: main
              do: |
                for p in players:
                    turn(p)
        """)
    game = load_game(folder)
    assert vocabulary(game).max_number == HEADROOM * 183     # the largest bid offered before the error
    state = api.new_game(game, 2, 0)
    with pytest.raises(RulekitError):
        while not state.over:
            api.apply_index(state, 0)
