"""A map in the RL environments (issue #55): each node and each edge of a `graph:` family is a
zone slot of the observation (its items counted by kind), so who claimed an edge shows; options
naming a map's edges (`for r in edges(valley)`) get fixed action ids, one per space and colour."""
from pathlib import Path

import numpy as np
import pytest

import rulekit
from rulekit.rl.observe import Observer

GAME = Path(__file__).resolve().parent.parent / "examples" / "lantern-roads"


def test_an_edge_claimed_shows_in_its_slot_of_the_observation():
    game = rulekit.load_game(str(GAME))
    observer = Observer(game, 2)
    state = rulekit.new_game(game, 2, 1)
    claim = next(a for a in rulekit.legal_actions(state) if a.startswith("claim "))
    road = claim.split()[1]
    slot = [label for label, _name in observer.zone_slots].index(f"valley[{road}]")
    where = observer.zone_base + slot * observer.width        # the space's count of items
    before = observer.raw(state, 1, None)
    rulekit.apply(state, claim)
    after = observer.raw(state, 1, None)
    length = game.components.members[road]["length"]
    assert before[where] == 0 and after[where] == length
    assert not np.array_equal(before, after)


def test_options_over_a_map_s_edges_have_fixed_action_ids():
    pytest.importorskip("gymnasium")
    from rulekit.rl.gym_env import GameEnv
    env = GameEnv(rulekit.load_game(str(GAME)), players=2)
    env.reset(seed=1)
    spaces = 12 + 27        # the towns and the roads: `edges(valley)`'s elements are the map's spaces
    assert env.action_space.n == 1 + spaces * 4
    assert env.action_masks().sum() == len(rulekit.legal_actions(env.play.state))
