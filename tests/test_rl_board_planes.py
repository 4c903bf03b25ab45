# SPDX-License-Identifier: MIT
"""Boards as planes (rl/board_planes.py): Azul's walls, seat by seat from the observer, hold
each cell's count, kinds and colours as the state has them mid-game; the observation space says
their shape; PettingZoo's API tests pass with them; a game without boards is unchanged."""
from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from rulekit.engine.boards import place  # noqa: E402
from rulekit.games import load_game  # noqa: E402
from rulekit.rl.observe import COUNT_SCALE  # noqa: E402
from rulekit.rl.pettingzoo import env, parallel_env, raw_env  # noqa: E402

COLOURS = ("blue", "yellow", "red", "black", "white")


@pytest.fixture(scope="module")
def azul():
    return load_game("examples/azul")


def _mid_game(game, players: int, seed: int, tiled: int):
    """An AEC env of Azul played at random until ``tiled`` tiles lie on the walls."""
    e = raw_env(game, players=players, seed=seed, normalize=False)
    e.reset()
    rng = random.Random(seed)
    s = e.state_
    walls = [key for fam in game.board.pzones["wall"][:players] for key in fam.zones.values()]
    while sum(len(s.zones[key]) for key in walls) < tiled:
        assert not s.over
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(rng.choice(np.flatnonzero(mask).tolist()))
    return e


def _expected(e, me: int) -> np.ndarray:
    """Seat ``me``'s wall planes from the state: per seat from ``me``, per plane, rows x cols."""
    s, game, n = e.state_, e.game, e.n
    planes = ["count", "tile", "marker", *(f"colour={c}" for c in COLOURS)]
    out = np.zeros((n * len(planes), 5, 5), dtype=np.float32)
    for rel in range(n):
        fam = game.board.pzones["wall"][(me + rel) % n]
        for cell, key in fam.zones.items():
            col, row = place(cell)
            held = s.zones[key]
            values = [len(held), sum(game.components.item_kind[x] == "tile" for x in held),
                      sum(game.components.item_kind[x] == "marker" for x in held),
                      *(sum(game.components.items[x].get("colour") == c for x in held) for c in COLOURS)]
            for p, value in enumerate(values):
                out[rel * len(planes) + p, row - 1, col - 1] = value
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_the_wall_planes_are_the_walls_of_a_mid_game_state(azul, players):
    e = _mid_game(azul, players, seed=players, tiled=6)
    assert e.board_labels["board.wall"][:4] == ["seat+0.wall:count", "seat+0.wall:tile", "seat+0.wall:marker",
                                               "seat+0.wall:colour=blue"]
    assert e.board_labels["board.wall"][8] == "seat+1.wall:count"
    for me, agent in enumerate(e.possible_agents):
        obs = e.observe(agent)
        expected = _expected(e, me)
        assert obs["board.wall"].shape == (players * 8, 5, 5) == e.observation_space(agent)["board.wall"].shape
        assert np.array_equal(obs["board.wall"], expected), agent
        assert expected[0].sum() > 0 or expected[8].sum() > 0       # mid-game: tiles on some wall
    normalised = raw_env(azul, players=players, seed=players)
    normalised.reset()
    normalised.play.state = e.state_
    normalised.play.touch()
    got = normalised.observe("p1")["board.wall"]
    counts = _expected(e, 0)
    assert np.allclose(got, counts / (counts + COUNT_SCALE)) and normalised.observation_space("p1").contains(
        normalised.observe("p1"))


def test_a_cell_of_the_wall_reads_where_its_row_and_column_say(azul):
    """Row 1 first, column a first: the tile on c2 of seat+0's wall is at [plane, 1, 2]."""
    e = _mid_game(azul, 2, seed=5, tiled=4)
    s = e.state_
    for cell, key in azul.board.pzones["wall"][0].zones.items():
        if s.zones[key]:
            col, row = place(cell)
            colour = azul.components.items[s.zones[key][0]]["colour"]
            planes = e.observe("p1")["board.wall"]
            assert planes[0, row - 1, col - 1] == 1 and planes[3 + COLOURS.index(colour), row - 1, col - 1] == 1
            return
    pytest.fail("no tile on p1's wall")


def test_the_api_tests_pass_with_board_planes(azul):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(azul, seed=1), num_cycles=300)
        parallel_api_test(parallel_env(azul, seed=2), num_cycles=300)


def test_a_game_without_boards_keeps_its_observation():
    e = raw_env("examples/for-sale", seed=0)
    e.reset()
    assert set(e.observation_space("p1").spaces) == {"observation", "action_mask"} and e.board_labels == {}
    assert set(e.observe("p1")) == {"observation", "action_mask"}
    assert e.encoder.total == e.encoder.size
