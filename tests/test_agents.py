# SPDX-License-Identifier: MIT
"""Bots: seeded and deterministic, they never peek, and a little search helps."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.agents import GreedyAgent, MCTSAgent, RandomAgent, make_agent, play_out
from rulekit.engine import api
from rulekit.engine.determinize import deal_plan, determinize, hidden_slots
from rulekit.engine.serialize import to_dict
from rulekit.engine.state import PLAYERS
from rulekit.engine.view import view
from rulekit.errors import ContentRuntimeError, UsageError


@pytest.fixture(scope="module")
def batavia():
    return rulekit.load_game("batavia")


def _advance(game, n, seed, steps):
    s = api.new_game(game, n, seed)
    bot = RandomAgent(seed)
    for _ in range(steps):
        api.apply_index(s, bot.choose(s))
    return s


def test_determinised_copy_looks_the_same_to_the_observer(batavia):
    s = _advance(batavia, 4, 3, 40)
    me = s.pending.player
    copy, _ = determinize(s, me, 12345)
    assert view(copy, me) == view(s, me)
    assert hidden_slots(s, me), "there is hidden information to resample"
    # ... but the hidden part was dealt anew, and secret numbers are not the real ones
    other = (me + 1) % s.n
    hands = [s.zones[k] for k in s.zones if k.name == "hand" and k.owner == other]
    copied = [copy.zones[k] for k in copy.zones if k.name == "hand" and k.owner == other]
    assert hands != copied or not hands[0]
    assert copy.p[other]["bonds"] == s.p[me]["bonds"]
    assert copy.rng != s.rng



@pytest.mark.parametrize("name, players", [("batavia", 4), ("goa", 3)])
def test_a_deal_plan_worked_out_once_deals_every_world_as_afresh(name, players):
    """A search bot works out what a state's worlds deal again once (`deal_plan`) and hands it to
    each world: every world, its random stream and the state itself are as without it."""
    game = rulekit.load_game(name)
    s = _advance(game, players, 5, 60)
    me = s.pending.player
    before = to_dict(s)
    plan = deal_plan(s, me)
    for seed in (1, 2, 99):
        planned, planned_stream = determinize(s, me, seed, plan)
        fresh, fresh_stream = determinize(s, me, seed)
        assert planned_stream == fresh_stream and planned.zones == fresh.zones and planned.loc == fresh.loc
        assert planned.zones != s.zones and planned.rng == fresh.rng and planned.p == fresh.p
    assert to_dict(s) == before

@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:8", "mcts-crn:8"])
def test_bots_are_deterministic(batavia, spec):
    def run():
        s = api.new_game(batavia, 3, 5, record=False)
        bots = [make_agent(spec, 50 + k) for k in range(3)]
        for _ in range(60):
            if s.over:
                break
            api.apply_index(s, bots[s.pending.player].choose(s), atomic=False)
        return list(s.actions)
    assert run() == run()


def test_greedy_beats_random_in_batavia(batavia):
    wins = 0.0
    for seed in range(8):
        s = api.new_game(batavia, 4, seed, record=False)
        greedy_seat = seed % 4
        bots = [GreedyAgent(seed) if k == greedy_seat else RandomAgent(seed * 7 + k) for k in range(4)]
        while not s.over:
            api.apply_index(s, bots[s.pending.player].choose(s), atomic=False)
        winners = s.result["winners"]
        if str(PLAYERS[greedy_seat]) in winners:
            wins += 1 / len(winners)
    assert wins >= 4, f"greedy won only {wins} of 8 four-player games (random would win about 2)"


def test_unknown_bot_is_a_usage_error():
    with pytest.raises(UsageError, match="did you mean `greedy`"):
        make_agent("gredy", 0)
    with pytest.raises(UsageError):
        make_agent("random:5", 0)
    assert isinstance(make_agent("mcts:12", 0), MCTSAgent)
    crn = make_agent("mcts-crn:12", 0)
    assert crn.name == "mcts-crn" and crn.iterations == 12 and crn.worlds == 4
    with pytest.raises(UsageError, match="only `mcts:N` and `mcts-crn:N` take a number"):
        make_agent("greedy:3", 0)


def _variant(tmp_path, text: str) -> str:
    path = tmp_path / "search.yaml"
    path.write_text("variant:\n  name: search\n" + text)
    return str(path)


def test_the_game_declares_how_its_search_bot_searches(tmp_path):
    game = rulekit.load_game("batavia", [_variant(tmp_path, "search:\n  worlds: 2\n  rollout: 3\n  reward: margin\n")])
    # the variant's keys over the game's own `search:` (Batavia's rollouts are played by `trader`)
    assert game.bots.search == {"worlds": 2, "rollout": 3, "reward": "margin", "rollout_bot": "trader"}
    s = _advance(game, 3, 1, 5)
    while len(s.pending.labels) < 2:
        api.apply_index(s, 0)
    bot = make_agent("mcts:4", 0)
    assert (bot.worlds, bot.depth, bot.reward) == (0, 40, "rank")   # the defaults, until it sees the game
    bot.choose(s)
    assert (bot.worlds, bot.depth, bot.reward, bot.c, bot.rollout_bot) == (2, 3, "margin", 0.7, "trader")
    assert len(bot._worlds) == 2
    # a preset's own settings win over the game's
    crn = make_agent("mcts-crn:4", 0)
    crn.choose(s)
    assert (crn.worlds, crn.depth) == (4, 10)


def test_a_bad_search_setting_names_its_line(tmp_path):
    from rulekit.errors import DiagnosticReport
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game("batavia", [_variant(tmp_path, "search:\n  reward: best\n")])
    text = str(info.value)
    assert "search.yaml:4" in text and "rank" in text and "margin" in text


def test_a_strong_prior_makes_the_search_follow_greedy_lookahead(batavia):
    """With the prior outweighing a one-iteration search, mcts plays the action the
    greedy lookahead rates best (checked where it is clear: one best action on the real
    state and on four sampled worlds)."""
    from rulekit.agents import _lookahead
    s = _advance(batavia, 3, 11, 0)
    bot = RandomAgent(4)
    checked = 0
    for _ in range(120):
        if s.over:
            break
        if len(s.pending.labels) > 1:
            me = s.pending.player
            values = []
            for index in range(len(s.pending.labels)):
                trial = s.clone()
                api.apply_index(trial, index, atomic=False)
                values.append(_lookahead(trial, me, 2))
            best = max(values)
            agree = True
            for k in range(4):
                world, _ = determinize(s, me, 1000 + k)
                rated = []
                for index in range(len(s.pending.labels)):
                    trial = world.clone()
                    api.apply_index(trial, index, atomic=False)
                    rated.append(_lookahead(trial, me, 2))
                agree = agree and rated.count(max(rated)) == 1 and rated.index(max(rated)) == values.index(best)
            if values.count(best) == 1 and agree:
                search = MCTSAgent(checked, iterations=1, prior=1000)
                assert search.choose(s) == values.index(best), s.pending.labels
                checked += 1
        api.apply_index(s, bot.choose(s))
    assert checked >= 10


def test_a_rollout_bot_must_be_one_the_game_declares(tmp_path):
    from rulekit.errors import DiagnosticReport
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game("batavia", [_variant(tmp_path, "search:\n  rollout_bot: tradr\n")])
    text = str(info.value)
    assert "RK0343" in text and "search.yaml:4" in text and "did you mean `trader`" in text


def test_the_rollout_bot_plays_the_rollouts(tmp_path, monkeypatch):
    """With `rollout_bot: trader`, every rollout decision is the content bot's."""
    from rulekit.agents.content_bot import ContentBot
    game = rulekit.load_game("batavia", [_variant(tmp_path, "search:\n  rollout_bot: trader\n  rollout: 6\n")])
    s = _advance(game, 3, 2, 30)
    while len(s.pending.labels) < 2:
        api.apply_index(s, 0)
    asked = []
    real = ContentBot.choose

    def spy(self, state):
        asked.append(self.name)
        return real(self, state)
    monkeypatch.setattr(ContentBot, "choose", spy)
    bot = make_agent("mcts:5", 1)
    bot.choose(s)
    assert asked and set(asked) == {"trader"} and len(asked) <= 5 * 6
    assert len(asked) >= 5 * 6 - 6          # only a game that ends stops a rollout early


def test_current_players_lists_the_seat_to_move_and_none_once_the_game_is_over(batavia):
    state = rulekit.new_game(batavia, 3, 7)
    assert rulekit.current_players(state) == [state.pending.player] == [1]
    seats = []
    agents = [RandomAgent(i) for i in range(3)]
    play_out(state, agents, lambda s, who, index: seats.append((who, rulekit.current_players(s))))
    assert all(now == [who] for who, now in seats) and len(seats) == len(state.actions)
    assert state.over and rulekit.current_players(state) == []


@pytest.mark.parametrize("record", [False, True])
def test_a_rollout_at_random_takes_the_decisions_a_random_agent_takes(batavia, record):
    """api.play_at_random (a search's rollout) applies what RandomAgent.choose and apply_index
    would, one at a time: the same actions, the same position, the same stream after."""
    start = _advance(batavia, 3, 4, 12)
    start.record = record
    one, fused = start.clone(), start.clone()
    bot, agent = RandomAgent(9), RandomAgent(9)
    for _ in range(150):
        if one.over:
            break
        api.apply_index(one, bot.choose(one), atomic=False)
    api.play_at_random(fused, agent, 150)
    assert agent.state == bot.state and fused.actions == one.actions and len(one.actions) > 150
    assert to_dict(fused) == to_dict(one)


@pytest.mark.parametrize("example, n", [("for-sale", 4), ("modern-art", 3)])
def test_a_rollout_at_random_takes_simultaneous_and_nested_decisions_as_one_by_one(example, n):
    """Sealed bids (``choose_all``) and decisions deep in procedures: the rollout takes each as
    it comes, and stops at a simultaneous one as apply_index would."""
    from pathlib import Path
    game = rulekit.load_game(str(Path(__file__).resolve().parents[1] / "examples" / example))
    for seed in range(3):
        start = api.new_game(game, n, seed, record=False)
        one, fused = start.clone(), start.clone()
        bot, agent = RandomAgent(seed), RandomAgent(seed)
        for _ in range(200):
            if one.over:
                break
            api.apply_index(one, bot.choose(one), atomic=False)
        api.play_at_random(fused, agent, 200)
        assert agent.state == bot.state and fused.actions == one.actions
        assert to_dict(fused) == to_dict(one)


def test_a_rollout_at_random_keeps_its_stream_when_the_content_fails(write_game):
    game = rulekit.load_game(write_game("""\
        meta: {title: Fails}
        players: {min: 1, max: 1}
        flow:
          rounds: 3
          phases:
            - id: main
              do: |
                choose players[0]:
                    "a":
                        pass
                    "b":
                        pass
                    "c":
                        assert round < 3, 'round three'
        """))
    s = api.new_game(game, 1, record=False)
    agent = RandomAgent(0)
    for _ in range(20):
        try:
            api.play_at_random(s.clone(), agent, 3)
        except ContentRuntimeError:
            break
    else:
        pytest.fail("the content never failed")
    bot = RandomAgent(0)
    # the same draws, one at a time, reach the same failure with the stream where it was left
    with pytest.raises(ContentRuntimeError):
        for _ in range(20):
            play, steps = s.clone(), 0
            while not play.over and steps < 3:
                api.apply_index(play, bot.choose(play), atomic=False)
                steps += 1
    assert bot.state == agent.state
