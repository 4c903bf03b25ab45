# SPDX-License-Identifier: MIT
"""The PettingZoo AEC environment passes PettingZoo's own API test for every shipped
game, plays whole games, is deterministic per seed and leaks nothing hidden; its fast
observation agrees with the view it stands for."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from rulekit.engine.view import state_props, view  # noqa: E402
from rulekit.games import load_game  # noqa: E402
from rulekit.rl.observe import Observer  # noqa: E402
from rulekit.rl.pettingzoo import env, raw_env  # noqa: E402

GAMES = ["batavia", "goa"]


@pytest.fixture(scope="module", params=GAMES)
def game(request):
    return load_game(request.param)


def _quiet_api_test(e, num_cycles):
    # PettingZoo warns about style choices we make on purpose: the observation is a dict
    # with an action mask, and agents are named p1..pN like everywhere in rulekit.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(e, num_cycles=num_cycles)


def test_pettingzoo_api_test(game):
    _quiet_api_test(env(game, seed=3), num_cycles=1000)   # long enough to reach the end of a game


def test_pettingzoo_api_test_smallest_table(game):
    _quiet_api_test(env(game, players=game.min_players, seed=5), num_cycles=10)


def test_seeded_runs_are_identical(game):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        seed_test(lambda: env(game, seed=1), num_cycles=40)


def _play(e, seed=0, pick=None):
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    final = {}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        assert obs["observation"].shape == e.observation_space(agent)["observation"].shape
        if terminated or truncated:
            final[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        raw = e.unwrapped
        seat = raw.agent_name_mapping[agent]
        assert seat in raw.state_.pending.players
        assert [raw.action_notations[i] for i in legal] == raw.legal_actions(agent)
        pending = raw.state_.pending
        decision = pending if pending.player == seat else pending.focus(seat)
        assert sorted(raw.legal_actions(agent)) == sorted(decision.labels)     # every option has an id
        e.step(int(rng.choice(legal)) if pick is None else pick(legal))
        steps += 1
    return final, steps


def test_a_whole_game_ends_with_win_rewards(game):
    e = env(game, seed=2)
    final, steps = _play(e, seed=2)
    state = e.unwrapped.state_
    assert state.over and steps == len(state.actions)
    winners = set(state.result["winners"])
    assert set(final) == set(e.unwrapped.possible_agents) == {f"p{i + 1}" for i in range(state.n)}
    for agent, reward in final.items():
        if winners >= set(final):
            assert reward == 0
        else:
            assert reward == (1 if agent in winners else -1)
    assert e.agents == []


def test_score_rewards_are_zero_sum(game):
    e = env(game, seed=4, reward="score")
    final, _ = _play(e, seed=4)
    totals = {p: row["total"] for p, row in e.unwrapped.state_.result["scores"].items()}
    assert abs(sum(final.values())) < 1e-6
    best = max(totals, key=totals.get)
    assert final[best] == max(final.values())


def test_an_action_id_plays_its_notation(game):
    e = env(game, seed=6)
    e.reset(seed=6)
    raw = e.unwrapped
    action = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[-1])
    before = len(raw.state_.actions)
    e.step(action)
    assert raw.state_.actions[before].endswith(raw.action_notations[action])


def test_an_illegal_id_loses_the_game_by_default(game):
    e = raw_env(game, seed=0)
    e.reset()
    agent = e.agent_selection
    illegal = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1 and all(r == 0 for a, r in e.rewards.items() if a != agent)
    assert e.infos[agent]["illegal_action"] == illegal


def test_an_illegal_id_is_refused_when_asked(game):
    e = raw_env(game, seed=0, illegal="raise")
    e.reset()
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        e.step(illegal)
    assert e.state_.actions == [] and not any(e.terminations.values())


def test_max_steps_truncates(game):
    e = env(game, seed=0, max_steps=5)
    e.reset(seed=0)
    done = 0
    for _agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            e.step(None)
            continue
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        done += 1
    assert done == 5 and not e.unwrapped.state_.over


def test_observation_layout_is_fixed_relative_and_normalised(game):
    enc = Observer(game, game.default_players)
    e = raw_env(game, seed=9)
    e.reset()
    sizes = set()
    for _ in range(30):
        for agent in e.agents:
            o = e.observe(agent)
            sizes.add(o["observation"].shape)
            assert o["observation"].dtype == np.float32
            assert np.all(np.abs(o["observation"]) <= 1.0)
            mine = e.agent_name_mapping[agent] in e.state_.pending.players
            assert (o["observation"][3] > 0) == mine
            assert o["action_mask"].any() == mine
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert sizes == {(enc.size,)}


def _from_view(enc: Observer, picture: dict, me: int) -> np.ndarray:
    """The vector as the view shows it (the slow way the env once built it), for comparison."""
    from rulekit.engine.state import PLAYERS
    from rulekit.engine.view import HIDDEN
    out = np.zeros(enc.size, dtype=np.float32)
    labels = {label: i for i, label in enumerate(enc.labels())}
    out[0] = enc.value(picture.get("round"), me)
    out[1] = float(bool(picture.get("over")))
    if picture.get("to_move"):
        seat = int(picture["to_move"][1:]) - 1
        out[2], out[3] = (seat - me) % enc.n + 1, float(seat == me)

    def scalar(value):
        if isinstance(value, str) and value[:1] == "p" and value[1:].isdigit():
            return float((int(value[1:]) - 1 - me) % enc.n + 1)
        return 0.0 if value == HIDDEN else enc.value(value, me)
    for name in enc.gvars:
        out[labels[f"var.{name}"]] = scalar(picture["vars"][name])
    for rel in range(enc.n):
        row = picture["players"][str(PLAYERS[(me + rel) % enc.n])]
        for name in enc.pvars:
            out[labels[f"seat+{rel}.{name}"]] = scalar(row[name])
    zones = enc.zone_labels()
    for label, name in enc.zone_slots:
        if label.startswith("seat+"):
            rel, rest = label[5:].split(".", 1)
            row = picture["players"][str(PLAYERS[(me + int(rel)) % enc.n])]
            content = row[name] if "[" not in rest else row[name][rest.split("[", 1)[1][:-1]]
        elif "[" in label:
            # a family sized by the game: the observation keeps its largest game's spaces, empty
            content = picture["zones"][name].get(label.split("[", 1)[1][:-1], [])
        else:
            content = picture["zones"][name]
        count = content["count"] if isinstance(content, dict) else len(content)
        out[labels[f"{label}.count"]] = count
        for ident in ([] if isinstance(content, dict) else content):
            if ident != HIDDEN:
                out[labels[f"{label}.{enc.kinds[enc.item_kind[ident]]}"]] += 1
                out[labels[f"item.{ident}.zone"]] = zones.index(label) + 1
    for ident, row in picture["items"].items():
        for prop, value in row.items():
            out[labels[f"item.{ident}.{prop}"]] = scalar(value)
    return out


def test_the_fast_observation_is_the_views(game):
    """Read straight from the state, the vector holds what ``view`` shows, slot for slot."""
    e = raw_env(game, seed=13, normalize=False)
    e.reset()
    rng = np.random.default_rng(1)
    for _ in range(120):
        if e.state_.over:
            break
        for agent in e.agents:
            me = e.agent_name_mapping[agent]
            got = e.observe(agent)["observation"]
            assert np.array_equal(got, _from_view(e.encoder, view(e.state_, me), me)), agent
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))


def _owner_zone_swap(state, seat):
    """Swap an item of seat's owner-only zone with one of a hidden global zone."""
    game = state.game
    for name, keys in game.board.pzones.items():
        if game.board.zone_vis[name] != "owner" or not state.zones[keys[seat]]:
            continue
        for zname, zkey in game.board.zones.items():
            if zname != "box" and game.board.zone_vis[zname] == "hidden" and state.zones[zkey]:
                mine, other = state.writable(keys[seat]), state.writable(zkey)   # lists may be shared with a clone
                a, b = mine[0], other[0]
                if a == b:
                    continue
                mine[0], other[0] = b, a
                state.loc[a], state.loc[b] = zkey, keys[seat]
                return True
    return False


def _tamper_unseen_item_state(state, seat):
    """Change the state (but `face_up`, which decides what is seen) of every item seat's view does not show."""
    shown = set(view(state, seat)["items"])
    for kind, props in state_props(state.game).items():
        for ident in state.game.components.kinds[kind]:
            if ident not in shown:
                for prop in props:
                    if prop != "face_up":
                        state.item_states(prop)[ident] = 4321


def test_nothing_hidden_reaches_an_observation(game):
    """Changing what p1 may not see (p2's owner-only variables and zones, the order of
    hidden zones, the state of items p1 cannot see) leaves p1's observation unchanged, while p2's own does change."""
    e = raw_env(game, seed=11, normalize=False)
    e.reset()
    rng = np.random.default_rng(0)
    owner_vars = [v for v, vis in game.variables.pvars.items() if game.variables.pvis[v] == "owner"]
    assert owner_vars, "the shipped games have a secret player variable"
    swapped = False
    for _ in range(400):
        if e.state_.over:
            break
        before_p1 = e.observe("p1")["observation"].copy()
        before_p2 = e.observe("p2")["observation"].copy()
        saved = e.state_.clone()
        for var in owner_vars:
            e.state_.p[1][var] = e.state_.p[1][var] + 7
        for zname, zkey in game.board.zones.items():
            if game.board.zone_vis[zname] == "hidden":
                e.state_.writable(zkey).reverse()
        swapped = _owner_zone_swap(e.state_, 1) or swapped
        _tamper_unseen_item_state(e.state_, 0)
        e.play.touch()
        assert np.array_equal(e.observe("p1")["observation"], before_p1)
        assert not np.array_equal(e.observe("p2")["observation"], before_p2)
        e.state_.restore(saved)
        e.play.touch()
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert swapped, "the test never met an owner-only zone with items to swap"


def _after_first_actions(game, seed: int, steps: int):
    """An environment whose game has played the first legal action ``steps`` times."""
    e = raw_env(game, seed=seed, normalize=False)
    e.reset()
    for _ in range(steps):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    return e


def test_observations_carry_item_state(game):
    """The slots after the item locations hold the state of the items the observer sees."""
    e = _after_first_actions(game, seed=12, steps=40)
    enc = e.encoder
    states = view(e.state_, 0)["items"]
    assert enc.state_slots and states
    obs = e.observe("p1")["observation"]
    tail = obs[enc.size - len(enc.state_slots):]
    for index, (ident, prop) in enumerate(enc.state_slots):
        expected = enc.value(states[ident][prop], 0) if ident in states else 0.0
        assert tail[index] == expected


def test_render_ansi(game):
    e = raw_env(game, render_mode="ansi")
    e.reset()
    text = e.render()
    assert "round" in text and "p1:" in text
    e.close()


@pytest.mark.parametrize("action", [1.7, "0", True, None, [0]])
def test_an_action_that_is_not_a_whole_number_is_refused(game, action):
    e = raw_env(game, seed=0)
    e.reset()
    with pytest.raises(TypeError, match="an action must be a whole number"):
        e.step(action)
    assert e.state_.actions == []
    e.step(np.int64(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))   # numpy's ints are ints
    assert len(e.state_.actions) == 1


def test_a_seed_that_is_not_a_whole_number_is_refused(game):
    e = raw_env(game, seed=0)
    with pytest.raises(TypeError, match="a seed must be a whole number"):
        e.reset(seed=1.5)
    e.reset(seed=np.int64(3))
    assert e.game_seed == 3


def test_step_after_the_end_says_so(game):
    e = raw_env(game, seed=0, max_steps=3)
    with pytest.raises(RuntimeError, match="before reset"):
        e.step(0)
    e.reset()
    while e.agents:
        agent = e.agent_selection
        done = e.terminations[agent] or e.truncations[agent]
        e.step(None if done else int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))
    with pytest.raises(RuntimeError, match="game is over .* call reset"):
        e.step(0)


def test_every_slot_has_a_label_that_says_what_it_holds(game):
    """``observation_labels`` names each slot once; read by label, the vector agrees with the view."""
    e = _after_first_actions(game, seed=4, steps=30)
    labels = e.observation_labels
    assert len(labels) == e.encoder.size == len(set(labels))
    obs = e.observe("p2")["observation"]
    slot = dict(zip(labels, obs))
    picture = view(e.state_, 1)
    assert slot["round"] == picture["round"] and slot["my_turn"] == float(e.state_.pending.player == 1)
    for name in game.variables.pvars:     # seat+0 is the observer (p2), seat+1 the next seat (p3)
        assert slot[f"seat+0.{name}"] == e.encoder.value(picture["players"]["p2"][name], 1)
        assert slot[f"seat+1.{name}"] == 0.0 or game.variables.pvis[name] == "public"
    zones = e.encoder.zone_labels()
    for name in game.board.pzones:
        shown = picture["players"]["p2"][name]
        count = shown.get("count", 0) if isinstance(shown, dict) else len(shown)
        assert slot[f"seat+0.{name}.count"] == count
        for ident in ([] if isinstance(shown, dict) else shown):
            assert zones[int(slot[f"item.{ident}.zone"]) - 1] == f"seat+0.{name}"
    assert e.explain(obs) == {label: float(value) for label, value in slot.items() if value}
