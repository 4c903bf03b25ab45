# SPDX-License-Identifier: MIT
"""Fixed action ids: a game's vocabulary is found from its rules, the same id always means
the same notation, every legal option of a random state has an id, and a game whose labels
cannot be bounded is refused on the option's line."""
from __future__ import annotations

import random

import pytest

from rulekit.engine import api
from rulekit.errors import DiagnosticReport
from rulekit.games import load_game
from rulekit.rl.actions import DEFAULT_MAX_NUMBER, content_max_number, vocabulary

from conftest import codes

GAMES = ["batavia", "goa", "examples/for-sale"]


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    return load_game(request.param)


def _legal_sets(game, games: int, seed: int):
    """(seat, decision) of every decision of ``games`` random games, every deciding seat."""
    rng = random.Random(seed)
    for k in range(games):
        s = api.new_game(game, None, seed * 100 + k)
        while not s.over:
            pending = s.pending
            for seat in pending.players:
                yield seat, (pending if seat == pending.player else pending.focus(seat))
            api.apply_index(s, rng.randrange(len(pending.choices)))


def test_every_legal_option_has_an_id_and_an_id_one_notation(game):
    vocab = vocabulary(game)
    assert vocab.num_distinct_actions == len(vocab.notations) == len(set(vocab.notations))
    meaning: dict = {}
    decisions = 0
    for _seat, decision in _legal_sets(game, games=3, seed=1):
        decisions += 1
        for label in decision.labels:
            i = vocab.id_of(label)
            assert i is not None, f"{label!r} has no id"
            assert meaning.setdefault(i, label) == label == vocab.notations[i]
    assert decisions > 50 and len(meaning) > 5


def test_ids_are_the_same_in_every_build(game):
    from rulekit.rl import actions
    first = vocabulary(game)
    actions._CACHE.clear()
    again = vocabulary(load_game(game.path))
    assert again is not first and again.notations == first.notations


def test_the_table_names_each_id_and_where_it_comes_from(game):
    vocab = vocabulary(game)
    lines = vocab.table().splitlines()
    assert len(lines) == vocab.num_distinct_actions
    first = lines[0].split()
    assert first[0] == "0" and lines[0].endswith(")") and ".yaml:" in lines[0]


def test_numbers_without_bounds_stop_at_max_number():
    game = load_game("examples/for-sale")
    bound = content_max_number(game)                        # coins have no upper bound in the content
    bids = [t for t in vocabulary(game).notations if t.startswith("bid ")]
    assert bids[-1] == f"bid {bound}" and vocabulary(game).max_number == bound >= DEFAULT_MAX_NUMBER
    assert f"bid {bound + 1}" not in vocabulary(game).ids
    assert vocabulary(game, max_number=20).id_of("bid 21") is None


def test_a_label_that_cannot_be_bounded_is_refused_on_its_line(write_game):
    folder = write_game("""
        meta: {title: Texts}
        players: {min: 2, max: 2}
        procedures:
          turn:
            params: [p]
            do: |
              choose p:
                  "say {text(p) + text(p)}":
                      pass
                  "stop":
                      end_game()
        flow:
          end_after_round_if: "round >= 2"
          phases:
            - id: main
              do: |
                for p in players:
                    turn(p)
        """)
    with pytest.raises(DiagnosticReport) as err:
        vocabulary(load_game(folder))
    assert codes(err.value) == ["RK0970"]
    diagnostic = err.value.diagnostics[0]
    assert diagnostic.span.line == 9 and diagnostic.span.path.endswith("game.yaml")
    assert '"say {...}"' in diagnostic.message and "no fixed action ids" in diagnostic.message
