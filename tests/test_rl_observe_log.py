# SPDX-License-Identifier: MIT
"""An observation kept up to date from the state's log (rl/observe_log.py) is, bit for bit,
the one read afresh from the state, normalised or not, for every seat at any moment: through
random games of the shipped games and the examples, after changes made by hand and ``touch()``,
after a restore, and in a game played without a log."""
from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from test_pettingzoo import _from_view  # noqa: E402

from rulekit.engine import api  # noqa: E402
from rulekit.engine.view import view  # noqa: E402
from rulekit.games import load_game  # noqa: E402
from rulekit.rl.observe import Observer  # noqa: E402
from rulekit.rl.pettingzoo import raw_env  # noqa: E402
from rulekit.rl.rl_play import Play  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:the legal action")     # a bid past max_number has no id

GAMES = ["goa", "batavia", "examples/azul", "examples/for-sale", "examples/modern-art"]


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    return load_game(request.param)


def _fresh(observer: Observer, s, me: int, to_move):
    """Seat ``me``'s values read afresh (an observer's first look), as they are and normalised."""
    observer.forget()
    seen = observer.follow.look(s, me, to_move)
    assert observer.follow.seen[me] is seen and seen.at == len(s.events)
    return seen.raw_np.copy(), seen.norm_np.copy()


def _agrees(play: Play, me: int, afresh: Observer | None = None) -> None:
    """Followed, afresh and as the view shows it (tests/test_pettingzoo.py), the values agree."""
    afresh = afresh or Observer(play.game, play.n)
    raw, norm = _fresh(afresh, play.state, me, play.to_move(me))
    got_raw, got_norm = play.observation(me, normalize=False), play.observation(me)
    size = play.observer.size
    assert np.array_equal(got_raw, raw[:size]) and np.array_equal(got_norm, norm[:size]), me
    assert np.array_equal(got_raw, _from_view(play.observer, view(play.state, me), me)), me
    for name, planes in play.planes(me).items():     # the boards' planes follow the log too
        board = next(b for b in play.observer.boards if b.name == name)
        assert np.array_equal(planes.ravel(), norm[board.base:board.base + board.size])


def test_followed_values_are_those_read_afresh(game):
    """Seats look at random moments (each then catches up on several actions at once)."""
    rng = random.Random(7)
    for players in sorted({game.min_players, game.max_players}):
        play, afresh = Play(game, players), Observer(game, players)
        looks = 0
        for seed in range(2):
            play.start(seed)
            for _ in range(100):
                s = play.state
                if s.over:
                    break
                for me in range(players):
                    if rng.random() < 0.25:
                        _agrees(play, me, afresh)
                        looks += 1
                seat = rng.choice(play.acting())
                legal = play.legal(seat)
                if not legal:       # a legal option past max_number: no id to play
                    break
                assert play.apply(seat, rng.choice(sorted(legal)))
        assert looks > 40


def test_a_whole_game_ends_as_read_afresh(game):
    e = raw_env(game, seed=3)
    e.reset()
    rng = np.random.default_rng(0)
    while not e.state_.over and e.agents:
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            break
        e.step(int(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"]))))
    for me in range(e.n):
        _agrees(e.play, me)


def test_a_change_by_hand_is_seen_after_touch():
    play = Play("examples/for-sale", 4)
    play.start(1)
    before = play.observation(0, normalize=False)
    s = play.state
    deck, hand = s.game.board.zones["property_deck"], s.game.board.pzones["hand"][0]
    moved = s.writable(deck).pop()
    s.writable(hand).append(moved)
    s.loc[moved] = hand
    s.p[0]["coins"] = s.p[0]["coins"] + 5
    play.touch()
    after = play.observation(0, normalize=False)
    assert not np.array_equal(before, after)
    for me in range(4):
        _agrees(play, me)


def test_a_restored_state_is_read_afresh():
    play = Play("batavia", 3)
    play.start(2)
    saved = play.state.clone()
    for _ in range(6):
        seat = play.acting()[0]
        play.apply(seat, min(play.legal(seat)))
        play.observation(0)
    play.state.restore(saved)           # another log: the next look reads everything again
    for me in range(3):
        _agrees(play, me)


def test_a_game_without_a_log_is_read_afresh_at_every_look():
    game = load_game("examples/for-sale")
    observer = Observer(game, 4)
    s = api.new_game(game, 4, 5, record=False)
    rng = random.Random(0)
    while not s.over:
        for me in range(4):
            to_move = s.pending.player
            fresh = _fresh(Observer(game, 4), s, me, to_move)[1][:observer.size]
            assert np.array_equal(observer.encode(s, me, to_move), fresh)
        api.apply_index(s, rng.randrange(len(s.pending.choices)))


def test_the_normalised_values_are_numpys_bit_for_bit():
    """A slot normalised alone is what ``normalise`` gives the whole vector, for every kind of slot."""
    observer = Observer(load_game("examples/azul"), 2)
    values = np.array([0, 1, 2, 3, 7, 40, 99, 1000, 2 ** 20 + 1, 2 ** 24 - 1, 2 ** 24, -1, -5, -(2 ** 24), 0.1,
                       1.5, -2.75], dtype=np.float32)
    for x in values:
        whole = observer.normalise(np.full(observer.total, x, dtype=np.float32))
        one = np.array([observer.normalise_at(slot, float(x)) for slot in range(observer.total)], dtype=np.float32)
        assert np.array_equal(whole, one), x
