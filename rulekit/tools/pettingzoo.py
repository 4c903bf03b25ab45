# SPDX-License-Identifier: MIT
"""A PettingZoo AEC environment for any rulekit game.

    from rulekit.tools.pettingzoo import env
    e = env("mygame", players=3, seed=7)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else policy(obs["observation"], obs["action_mask"])
        e.step(action)

Needs the optional extra ``rulekit[rl]`` (pettingzoo, gymnasium, numpy).

Agents are ``p1..pN``; the one to act is whoever the rules' pending ``choose``
names, so turn order (and several decisions in a row by one player) come from the
content, not from a fixed rotation. In a simultaneous decision (``choose_all``) every
player still to choose is to act (``env.acting``, and ``infos[agent]["to_act"]``): each
observes its own action mask, the AEC loop selects them one after the other, and no
observation shows another's pick before all have chosen.

**Actions.** ``Discrete(K)``: action ``i`` is the ``i``-th entry of the current
legal actions (``rulekit.legal_actions``, in the order the content lists them).
``K`` is a fixed upper bound on how many legal actions a decision can have:

* ``max_actions=K`` given to :func:`env` is used as is;
* otherwise it is *measured*: a few seeded random playouts of the same game, player
  count and variants (``PROBE_GAMES`` of them, deterministic, cached per content hash)
  record the largest decision seen, ``M``, and ``K`` is ``2 * M`` rounded up to a
  multiple of 16 (at least 16). Static analysis cannot bound every ``choose`` (its
  options may range over any expression), so the margin covers decisions rarer than
  the probes met. Should a decision ever offer more than ``K`` actions, only the first
  ``K`` are offered in the mask (a warning says so once) and the game goes on.

The observation is a dict of two NumPy arrays, ``{"observation": float32 array of shape
(size,), "action_mask": int8 array of shape (K,)}``; the mask has a 1 for every legal
index of the agent to act and is all zeros for the others. ``observation_labels`` names
every slot of the vector (``round``, ``var.NAME``, ``ZONE.count``, ``seat+1.NAME``,
``item.ID.zone``...) and ``explain(vector)`` gives its non-zero slots by name;
docs/rl.md shows the layout on a game.

**Observations** are computed only from ``rulekit.engine.view.view(state, agent)``,
the per-player picture derived from the visibility the content declares, so nothing
a player may not see reaches its vector. The vector has a fixed layout, built once
from the game's definitions (never from a state), with seats *relative to the
observer* (slot 0 is the observer, then the next seats in order), so every slot's
visibility is the same in every state:

1. ``round``, ``over`` (0/1), the relative seat of the player to act + 1 (0: none),
   and 1 if it is the observer's turn;
2. one slot per global variable the content declares ``public`` (``round`` aside);
3. per zone (global zones but the ``box``, every member of a zone family, then every
   player zone for each relative seat): the number of items (hidden zones still show
   their count) followed by the number of *visible* items of each component kind;
4. per relative seat, one slot per player variable (0 where the view hides it);
5. per item of the game (in definition order): 1 + the index of the zone slot where
   the observer sees it, or 0 when the view does not show it;
6. per item whose kind declares ``state:`` (in definition order), one slot per state
   property: its value while the view shows the item, else 0.

Scalar values are encoded without hashing: numbers as themselves, booleans as 0/1,
no value as 0, a seat as its relative seat + 1, a set member as 1 + its index in its
set, an item as 1 + its index among the items, lists and mappings by their length,
anything else as 0; every slot is clipped to +-2**24.

**Rewards** are given once, when the game ends (every step before that pays 0):
with ``reward="win"`` (default) each winner gets +1 and every other player -1, and a
game everybody wins pays 0 to all; with ``reward="score"`` each player gets its final
total minus the mean of all totals. ``terminations`` become true for every agent at
game over; with ``max_steps`` a game still running after that many actions is
truncated (reward 0). A ``reset()`` without a seed plays the next seed (the first
reset uses ``seed``, or 0).

Actions and seeds are whole numbers (``int`` or numpy's): ``step(1.7)``, ``step("0")``
or ``reset(seed=1.5)`` raise TypeError rather than being rounded or parsed; ``step``
before ``reset`` or after every agent is done raises RuntimeError saying so. Steps
cost the same late in a long episode as early on (an action's checkpoint does not
copy the game's history).
"""
from __future__ import annotations

import math
import warnings

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine import api
from ..engine.mutate import fmt
from ..engine.state import PLAYERS, Family
from ..engine.view import HIDDEN, state_props, view
from ..games import load_game

PROBE_GAMES = 6
LIMIT = float(2 ** 24)
_BOUNDS: dict = {}


def env(game, players: int | None = None, variants=(), seed: int | None = None,
        max_actions: int | None = None, reward: str = "win", max_steps: int | None = None,
        render_mode: str | None = None):
    """The environment for ``game`` (a loaded Game, a shipped game's name or a folder),
    wrapped in PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, players, variants, seed, max_actions, reward,
                                                  max_steps, render_mode))


def measure_max_actions(game, players: int, probes: int = PROBE_GAMES) -> int:
    """The largest number of legal actions met in ``probes`` seeded random playouts."""
    from ..agents import RandomAgent
    key = (game.content_hash, players, probes)
    if key not in _BOUNDS:
        most = 1
        for seed in range(probes):
            state = api.new_game(game, players, seed, record=False)
            agent = RandomAgent(seed)
            while not state.over:
                most = max(most, len(state.pending.choices))
                api.apply_index(state, agent.choose(state), atomic=False)
        _BOUNDS[key] = most
    return _BOUNDS[key]


def action_bound(measured: int) -> int:
    return max(16, math.ceil(2 * measured / 16) * 16)


class ObservationEncoder:
    """The fixed layout of a game's observation vector (see the module docstring)."""

    def __init__(self, game, n: int):
        self.game = game
        self.n = n
        self.kinds = list(game.components.kinds)
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.item_index = {ident: i for i, ident in enumerate(game.components.items)}
        self.member_index = {}
        for members in game.components.sets.values():
            for i, member in enumerate(members):
                self.member_index.setdefault(member, i)
        variables = game.variables
        self.gvars = [k for k in variables.gvars if k != "round" and variables.gvis.get(k, "public") == "public"]
        self.pvars = list(game.variables.pvars)
        # zone slots: (picker over a view, zone-slot label)
        self.zone_slots: list = []
        for name in game.board.zones:
            if name != "box":
                self.zone_slots.append((("global", name, None), name))
        for name, fam in game.board.families.items():
            for key in fam.zones:
                self.zone_slots.append((("family", name, fmt(key)), str(fam.zones[key])))
        for rel in range(n):
            for name, seats in game.board.pzones.items():
                if seats[0].__class__ is Family:    # a player's family: a slot per space
                    for key in seats[0].zones:
                        self.zone_slots.append((("player", name, (rel, fmt(key))), f"+{rel}.{name}[{fmt(key)}]"))
                else:
                    self.zone_slots.append((("player", name, rel), f"+{rel}.{name}"))
        self.width_per_zone = 1 + len(self.kinds)
        kinds = state_props(game)
        components = game.components
        self.state_slots = [(ident, prop) for ident in components.items
                            for prop in kinds.get(components.item_kind[ident], ())]
        self.size = (4 + len(self.gvars) + len(self.zone_slots) * self.width_per_zone
                     + n * len(self.pvars) + len(self.item_index) + len(self.state_slots))

    def zone_labels(self) -> list[str]:
        """The zone slots in order: an item's location slot holds 1 + an index of this list."""
        return [_seat_label(label) for _pick, label in self.zone_slots]

    def labels(self) -> list[str]:
        """One name per slot of the vector, in order (the layout of the module docstring)."""
        out = ["round", "over", "to_move", "my_turn", *(f"var.{name}" for name in self.gvars)]
        for zone in self.zone_labels():
            out += [f"{zone}.count", *(f"{zone}.{kind}" for kind in self.kinds)]
        out += [f"seat+{rel}.{name}" for rel in range(self.n) for name in self.pvars]
        out += [f"item.{ident}.zone" for ident in self.item_index]
        out += [f"item.{ident}.{prop}" for ident, prop in self.state_slots]
        return out

    def _value(self, value, me: int) -> float:
        if value is None or value == HIDDEN:
            return 0.0
        if isinstance(value, bool):
            return float(value)
        if isinstance(value, (int, float)):
            return float(value)
        if isinstance(value, str):
            if len(value) > 1 and value[0] == "p" and value[1:].isdigit() and 0 < int(value[1:]) <= self.n:
                return float((int(value[1:]) - 1 - me) % self.n + 1)
            if value in self.member_index:
                return float(self.member_index[value] + 1)
            if value in self.item_index:
                return float(self.item_index[value] + 1)
            return 0.0
        if isinstance(value, (list, tuple, dict)):
            return float(len(value))
        return 0.0

    def encode(self, picture: dict, me: int) -> np.ndarray:
        """The vector for the view ``picture`` of seat ``me``."""
        out = np.zeros(self.size, dtype=np.float32)
        players = picture["players"]
        out[0] = self._value(picture.get("round"), me)
        out[1] = float(bool(picture.get("over")))
        to_move = picture.get("to_move")
        if to_move is not None:
            seat = int(to_move[1:]) - 1
            out[2] = (seat - me) % self.n + 1
            out[3] = float(seat == me)
        at = 4
        for name in self.gvars:
            out[at] = self._value(picture["vars"].get(name), me)
            at += 1
        zone_base = at
        where: dict = {}
        for slot, (pick, _label) in enumerate(self.zone_slots):
            kind, name, key = pick
            if kind == "global":
                content = picture["zones"].get(name)
            elif kind == "family":
                content = picture["zones"].get(name, {}).get(key)
            elif key.__class__ is tuple:            # (seat, space) of a player's family
                content = (players[str(PLAYERS[(me + key[0]) % self.n])].get(name) or {}).get(key[1])
            else:
                content = players[str(PLAYERS[(me + key) % self.n])].get(name)
            base = zone_base + slot * self.width_per_zone
            if isinstance(content, dict):
                out[base] = content.get("count", 0)
            elif content is not None:
                out[base] = len(content)
                for ident in content:
                    if ident == HIDDEN:
                        continue
                    k = self.game.components.item_kind.get(ident)
                    if k is not None:
                        out[base + 1 + self.kind_index[k]] += 1
                    where[ident] = slot
        at = zone_base + len(self.zone_slots) * self.width_per_zone
        for rel in range(self.n):
            row = players[str(PLAYERS[(me + rel) % self.n])]
            for name in self.pvars:
                out[at] = self._value(row.get(name), me)
                at += 1
        for ident, index in self.item_index.items():
            slot = where.get(ident)
            if slot is not None:
                out[at + index] = slot + 1
        at += len(self.item_index)
        states = picture.get("items", {})
        for index, (ident, prop) in enumerate(self.state_slots):
            row = states.get(ident)
            if row is not None:
                out[at + index] = self._value(row.get(prop), me)
        np.clip(out, -LIMIT, LIMIT, out=out)
        return out


class raw_env(AECEnv):
    """The unwrapped environment; prefer :func:`env`."""

    metadata = {"name": "rulekit_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game, players: int | None = None, variants=(), seed: int | None = None,
                 max_actions: int | None = None, reward: str = "win", max_steps: int | None = None,
                 render_mode: str | None = None):
        super().__init__()
        if isinstance(game, str):
            game = load_game(game, tuple(variants))
        self.game = game
        n = game.default_players if players is None else players
        if not game.min_players <= n <= game.max_players:
            raise ValueError(f"{game.title} is for {game.min_players}-{game.max_players} players, not {n}")
        if reward not in ("win", "score"):
            raise ValueError(f"reward must be 'win' or 'score', not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}")
        self.n = n
        self.reward_mode = reward
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"rulekit_{game.name}_v0")
        if max_actions is None:
            self.measured_max_actions = measure_max_actions(game, n)
            max_actions = action_bound(self.measured_max_actions)
        else:
            self.measured_max_actions = None
        if max_actions < 1:
            raise ValueError("max_actions must be at least 1")
        self.max_actions = int(max_actions)
        self.encoder = ObservationEncoder(game, n)
        self.observation_labels = self.encoder.labels()
        self.possible_agents = [str(PLAYERS[i]) for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-LIMIT, LIMIT, (self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.max_actions,), dtype=np.int8),
        })
        act_space = spaces.Discrete(self.max_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._next_seed = 0 if seed is None else int(seed)
        self._warned = False
        self.state_ = None
        self.game_seed = None

    # -- spaces ----------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- lifecycle -------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._next_seed = _whole(seed, "a seed")
        self.game_seed = self._next_seed
        self._next_seed += 1
        self.state_ = api.new_game(self.game, self.n, self.game_seed)
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self._to_move()
        if self.state_.over:
            self._finish()
            self._accumulate_rewards()

    def _to_move(self) -> str:
        s = self.state_
        if s.pending is None:
            return self.agents[0] if self.agents else self.possible_agents[0]
        acting = self.acting
        for a in self.agents:
            self.infos[a]["to_act"] = acting
        return self.possible_agents[s.pending.player]

    @property
    def acting(self) -> list[str]:
        """Every agent the game waits for: the one to act, or all those still to choose in a
        simultaneous decision (``choose_all``), each of whom sees its own action mask. The
        AEC loop selects them one after the other; none observes another's choice."""
        return [self.possible_agents[q] for q in api.current_players(self.state_)] if self.state_ else []

    def observe(self, agent):
        me = self.agent_name_mapping[agent]
        picture = view(self.state_, me)
        mask = np.zeros(self.max_actions, dtype=np.int8)
        legal = picture.get("legal")
        if legal:
            if len(legal) > self.max_actions and not self._warned:
                self._warned = True
                warnings.warn(f"a decision offers {len(legal)} actions, more than max_actions="
                              f"{self.max_actions}; only the first {self.max_actions} are in the mask", stacklevel=1)
            mask[:min(len(legal), self.max_actions)] = 1
        return {"observation": self.encoder.encode(picture, me), "action_mask": mask}

    def explain(self, observation) -> dict[str, float]:
        """The non-zero slots of an observation vector by their labels, for reading one."""
        return {label: float(value) for label, value in zip(self.observation_labels, observation) if value}

    def legal_actions(self) -> list[str]:
        """The notation of the current legal actions (index i is action i)."""
        return api.legal_actions(self.state_)[:self.max_actions]

    def step(self, action):
        if self.state_ is None:
            raise RuntimeError("step() before reset(): call reset() to start a game")
        if not self.agents:
            raise RuntimeError("the game is over and every agent is done: call reset() to play another")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.state_
        index = _whole(action, "an action")
        if not 0 <= index < min(len(s.pending.choices), self.max_actions):
            raise ValueError(f"action {index} is not legal for {agent}: {len(s.pending.labels)} legal actions "
                             f"({', '.join(s.pending.labels[:10])}{', ...' if len(s.pending.labels) > 10 else ''})")
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        api.apply_index(s, index)
        self.steps += 1
        if s.over:
            self._finish()
        elif self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        self.agent_selection = self._to_move()
        self._accumulate_rewards()

    def _finish(self) -> None:
        result = self.state_.result or {}
        scores = result.get("scores", {})
        if self.reward_mode == "score" and scores:
            totals = {a: float(scores[a]["total"]) for a in self.agents if a in scores}
            mean = sum(totals.values()) / len(totals)
            for a in self.agents:
                self.rewards[a] = totals.get(a, mean) - mean
        else:
            winners = set(result.get("winners", ()))
            everyone = winners >= set(self.agents)
            for a in self.agents:
                self.rewards[a] = 0 if everyone else (1 if a in winners else -1)
        for a in self.agents:
            self.terminations[a] = True
            self.infos[a] = {"result": result}

    # -- pictures --------------------------------------------------------------
    def render(self):
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode", stacklevel=1)
            return None
        text = _describe(view(self.state_)) if self.state_ is not None else ""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        self.state_ = None


def _seat_label(label: str) -> str:
    """``+1.hand`` (a player zone of the seat after the observer) as ``seat+1.hand``."""
    return "seat" + label if label.startswith("+") else label


def _whole(value, what: str) -> int:
    """``value`` as an int; a float, text or bool is refused rather than rounded or parsed."""
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be a whole number (int), not {value!r} ({type(value).__name__})")
    return int(value)


def _describe(picture: dict) -> str:
    """A plain-text spectator picture (``render_mode="ansi"``)."""
    def show(content):
        if isinstance(content, dict) and "count" in content:
            return f"({content['count']} hidden)"
        return " ".join(str(x) for x in content) or "-"
    lines = [f"round {picture.get('round')}" + (f", {picture['to_move']} to act" if picture.get("to_move") else "")
             + (", over" if picture.get("over") else "")]
    for name, value in picture["vars"].items():
        lines.append(f"{name} = {value}")
    for name, content in picture["zones"].items():
        if isinstance(content, dict) and "count" not in content:
            for key, sub in content.items():
                if sub and sub != {"count": 0}:
                    lines.append(f"{name}[{key}]: {show(sub)}")
        else:
            lines.append(f"{name}: {show(content)}")
    for p, row in picture["players"].items():
        parts = [f"{k}={show(v) if isinstance(v, (list, dict)) else v}" for k, v in row.items()]
        lines.append(f"{p}: " + ", ".join(parts))
    return "\n".join(lines)
