# SPDX-License-Identifier: MIT
"""PettingZoo environments for any rulekit game: AEC (``env``) and parallel (``parallel_env``).

    from rulekit.rl.pettingzoo import env, parallel_env
    e = env("mygame", players=3, seed=7)          # agents take turns as the rules ask
    p = parallel_env("mygame", players=3, seed=7) # every agent to act acts in one step

Needs the optional extra ``rl`` (pettingzoo, gymnasium, numpy: ``pip install -e '.[rl]'`` in a checkout,
``pip install 'rulekit-games[rl]'`` elsewhere). docs/rl.md is the guide.

Agents are ``p1..pN``; who acts is whoever the rules' pending ``choose`` names, so turn order
(and several decisions in a row by one player) come from the content. In a simultaneous
decision (``choose_all``) every player still to choose acts: the AEC env selects them one
after the other (``env.acting``, ``infos[agent]["to_act"]``), the parallel env takes all their
actions in one step; nobody's observation shows another's pick before all have chosen.

**Actions** are fixed ids: ``Discrete(num_distinct_actions)`` over the game's vocabulary
(rl/actions.py), so id ``i`` always means the notation ``action_notations[i]``, in every
state; the ``action_mask`` has a 1 for each legal id of the agent (all zeros for an agent not
to act), and ``legal_actions()`` lists the same ids' options as the agent may read them. A
*blind pick* (options naming items hidden from the agent: ``"take {t}" for t in pool`` with the
pool face down) takes the blind slots ``(blind #1)``, ``(blind #2)``... by position, never the
ids of the items, so the mask tells no more than the pool's count; so does an option whose label
prints a value hidden from the agent (which it reads as ``?``). An **illegal action** (an id
outside the mask) follows PettingZoo's convention for classic games with ``illegal="lose"``
(the default): the game ends, the offender gets -1 and everyone else 0, and
``infos[agent]["illegal_action"]`` holds the id; ``illegal="raise"`` raises ValueError instead
and changes nothing. In the parallel env the action of an agent not to act is ignored.

**Observations** are ``{"observation": float32 vector in [-1, 1], "action_mask": int8
vector}``: the vector has a fixed layout (``observation_labels``; rl/observe.py), is read
from what the agent may see (the content's visibility, as ``rulekit.engine.view.view``), and
is normalised (``normalize=False`` gives the raw values, bounded by +-2**24). A game with boards
(zone families declared ``grid:``) adds ``"board.NAME"``: each board laid out as float32 planes
``(seats * planes, rows, cols)`` (rl/board_planes.py; ``board_labels`` names each plane).

**Rewards** come once, at the end: ``reward="win"`` gives +1 to each winner and -1 to the
others (0 to all when all win); ``reward="score"`` each final total minus their mean.
``max_steps`` truncates a game still running after that many actions. A ``reset()`` without a
seed plays the next seed (the first uses ``seed``, or 0). Actions and seeds must be whole
numbers (TypeError otherwise); ``step`` before ``reset`` or after the end raises RuntimeError.
"""
from __future__ import annotations

import warnings

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from ..engine.state import PLAYERS
from ..engine.view import view
from .observe import LIMIT
from .rl_play import Play, whole

ILLEGAL = ("lose", "raise")


def env(game, players: int | None = None, variants=(), seed: int | None = None, reward: str = "win",
        max_steps: int | None = None, render_mode: str | None = None, illegal: str = "lose",
        normalize: bool = True, max_number: int | None = None):
    """The AEC environment for ``game`` (a loaded Game, a shipped game's name or a folder),
    wrapped in PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, players, variants, seed, reward, max_steps, render_mode,
                                                  illegal, normalize, max_number))


def parallel_env(game, players: int | None = None, variants=(), seed: int | None = None, reward: str = "win",
                 max_steps: int | None = None, render_mode: str | None = None, illegal: str = "lose",
                 normalize: bool = True, max_number: int | None = None):
    """The parallel environment for ``game``: every agent to act acts in one ``step``."""
    return raw_parallel_env(game, players, variants, seed, reward, max_steps, render_mode, illegal, normalize,
                            max_number)


class _Shared:
    """What both environments hold: the game played, spaces, seeds, pictures."""

    def _setup(self, game, players, variants, seed, reward, max_steps, render_mode, illegal, normalize, max_number):
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r}")
        self.play = Play(game, players, variants, reward, max_number)
        self.game, self.n = self.play.game, self.play.n
        self.reward_mode, self.max_steps, self.render_mode = reward, max_steps, render_mode
        self.illegal, self.normalize = illegal, normalize
        self.metadata = dict(self.metadata, name=f"rulekit_{self.game.name}_v0")
        self.observation_labels = self.play.observer.labels()
        self.action_notations = self.play.vocabulary.notations
        self.num_distinct_actions = self.play.num_distinct_actions
        self.possible_agents = [str(PLAYERS[i]) for i in range(self.n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        bound = 1.0 if normalize else LIMIT
        observer = self.play.observer
        self.board_labels = {f"board.{name}": labels for name, labels in observer.board_labels().items()}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-bound, bound, (observer.size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_distinct_actions,), dtype=np.int8),
            **{f"board.{b.name}": spaces.Box(0.0, bound, b.shape, dtype=np.float32) for b in observer.boards},
        })
        act_space = spaces.Discrete(self.num_distinct_actions)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._next_seed = 0 if seed is None else whole(seed, "a seed")
        self.game_seed = None
        self.steps = 0

    @property
    def state_(self):
        return self.play.state

    @property
    def encoder(self):
        return self.play.observer

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _start(self, seed) -> None:
        if seed is not None:
            self._next_seed = whole(seed, "a seed")
        self.game_seed = self._next_seed
        self._next_seed += 1
        self.play.start(self.game_seed)
        self.steps = 0

    def _observe(self, seat: int) -> dict:
        out = {"observation": self.play.observation(seat, self.normalize), "action_mask": self.play.mask(seat)}
        if self.board_labels:
            for name, planes in self.play.planes(seat, self.normalize).items():
                out[f"board.{name}"] = planes
        return out

    @property
    def acting(self) -> list[str]:
        """Every agent the game waits for: the one to act, or all those still to choose in a
        simultaneous decision (``choose_all``), each of whom sees its own action mask."""
        return [self.possible_agents[q] for q in self.play.acting()] if self.play.state else []

    def legal_actions(self, agent: str | None = None) -> list[str]:
        """The notation of the legal action ids of ``agent`` (by default the one to act),
        in id order: the mask's ones."""
        seat = self.agent_name_mapping[agent] if agent is not None else self.play.state.pending.player
        return self.play.legal_notations(seat)

    def explain(self, observation) -> dict[str, float]:
        """The non-zero slots of an observation vector by their labels, for reading one."""
        return {label: float(value) for label, value in zip(self.observation_labels, observation) if value}

    def _refuse(self, agent: str, action: int) -> None:
        seat = self.agent_name_mapping[agent]
        legal = self.play.legal_notations(seat)
        what = self.action_notations[action] if 0 <= action < self.num_distinct_actions else "no action"
        raise ValueError(f"action {action} ({what}) is not legal for {agent}: {len(legal)} legal actions "
                         f"({', '.join(legal[:10])}{', ...' if len(legal) > 10 else ''})")

    def render(self):
        if self.render_mode is None:
            warnings.warn("render() called without a render_mode", stacklevel=1)
            return None
        text = _describe(view(self.play.state)) if self.play.state is not None else ""
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        self.play.state = None


class raw_env(_Shared, AECEnv):
    """The unwrapped AEC environment; prefer :func:`env`."""

    metadata = {"name": "rulekit_v0", "render_modes": ["ansi", "human"], "is_parallelizable": True}

    def __init__(self, game, players: int | None = None, variants=(), seed: int | None = None, reward: str = "win",
                 max_steps: int | None = None, render_mode: str | None = None, illegal: str = "lose",
                 normalize: bool = True, max_number: int | None = None):
        AECEnv.__init__(self)
        self._setup(game, players, variants, seed, reward, max_steps, render_mode, illegal, normalize, max_number)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._start(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self._to_move()
        if self.play.state.over:
            self._finish()
            self._accumulate_rewards()

    def _to_move(self) -> str:
        s = self.play.state
        if s.pending is None:
            return self.agents[0] if self.agents else self.possible_agents[0]
        acting = self.acting
        for a in self.agents:
            self.infos[a]["to_act"] = acting
        return self.possible_agents[s.pending.player]

    def observe(self, agent):
        return self._observe(self.agent_name_mapping[agent])

    def step(self, action):
        if self.play.state is None:
            raise RuntimeError("step() before reset(): call reset() to start a game")
        if not self.agents:
            raise RuntimeError("the game is over and every agent is done: call reset() to play another")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        action = whole(action, "an action")
        seat = self.agent_name_mapping[agent]
        legal = action in self.play.legal(seat)
        if not legal and self.illegal == "raise":
            self._refuse(agent, action)
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        if not legal:
            self._lose(agent, action)
        else:
            self.play.apply(seat, action)
            self.steps += 1
            if self.play.state.over:
                self._finish()
            elif self.max_steps is not None and self.steps >= self.max_steps:
                for a in self.agents:
                    self.truncations[a] = True
        self.agent_selection = self._to_move()
        self._accumulate_rewards()

    def _lose(self, agent: str, action: int) -> None:
        """PettingZoo's convention for an illegal move: the game ends, -1 to the offender."""
        for a in self.agents:
            self.rewards[a] = -1 if a == agent else 0
            self.terminations[a] = True
        self.infos[agent]["illegal_action"] = action
        self.play.state.pending = None

    def _finish(self) -> None:
        final = self.play.final_rewards()
        result = self.play.state.result or {}
        for a in self.agents:
            self.rewards[a] = final[self.agent_name_mapping[a]]
            self.terminations[a] = True
            self.infos[a] = {"result": result}


class raw_parallel_env(_Shared, ParallelEnv):
    """The parallel environment; see :func:`parallel_env`."""

    metadata = {"name": "rulekit_v0", "render_modes": ["ansi", "human"]}

    def __init__(self, game, players: int | None = None, variants=(), seed: int | None = None, reward: str = "win",
                 max_steps: int | None = None, render_mode: str | None = None, illegal: str = "lose",
                 normalize: bool = True, max_number: int | None = None):
        self._setup(game, players, variants, seed, reward, max_steps, render_mode, illegal, normalize, max_number)
        self.agents = []

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._start(seed)
        self.agents = list(self.possible_agents)
        observations = {a: self._observe(i) for i, a in enumerate(self.agents)}
        return observations, self._infos()

    def _infos(self) -> dict:
        acting = self.acting
        return {a: {"to_act": acting} for a in self.agents}

    def step(self, actions: dict):
        if self.play.state is None:
            raise RuntimeError("step() before reset(): call reset() to start a game")
        if not self.agents:
            raise RuntimeError("the game is over and every agent is done: call reset() to play another")
        live = list(self.agents)
        rewards = dict.fromkeys(live, 0.0)
        terminations = dict.fromkeys(live, False)
        truncations = dict.fromkeys(live, False)
        offender = self._apply_all(actions)
        acting = self.acting
        infos = {a: {"to_act": acting} for a in live}
        s = self.play.state
        if offender is not None:
            agent, action = offender
            rewards[agent] = -1.0
            infos[agent]["illegal_action"] = action
            terminations = dict.fromkeys(live, True)
        elif s.over:
            final = self.play.final_rewards()
            for a in live:
                rewards[a] = final[self.agent_name_mapping[a]]
                infos[a]["result"] = s.result
            terminations = dict.fromkeys(live, True)
        elif self.max_steps is not None and self.steps >= self.max_steps:
            truncations = dict.fromkeys(live, True)
        observations = {a: self._observe(self.agent_name_mapping[a]) for a in live}
        if offender is not None or s.over or any(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _apply_all(self, actions: dict):
        """Each acting agent's action, in the order the game lists them; the first illegal one
        (agent, id) under ``illegal="lose"``, else None."""
        checked = []
        for seat in self.play.acting():
            agent = self.possible_agents[seat]
            if agent not in actions or actions[agent] is None:
                if self.illegal == "raise":
                    raise ValueError(f"{agent} is to act and has no action in this step")
                return agent, -1
            action = whole(actions[agent], "an action")
            if action not in self.play.legal(seat):
                if self.illegal == "raise":
                    self._refuse(agent, action)
                return agent, action
            checked.append((seat, action))
        for seat, action in checked:
            self.play.apply(seat, action)
            self.steps += 1
        return None


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
