# SPDX-License-Identifier: MIT
"""The search bots ``mcts`` and ``mcts-crn``: information-set Monte Carlo tree search, set up
by the game's ``search:`` (:data:`SEARCH_DEFAULTS` otherwise)."""
from __future__ import annotations

import math

from ..engine import api, moves, rng
from ..engine.determinize import deal_plan, determinize
from ..errors import ContentRuntimeError
from .evaluation import _estimates, _lookahead, _scale, evaluate_all, rewards
from .random_agent import RandomAgent
from .worlds import _impossible, _shared_failure


class _Node:
    __slots__ = ("children", "visits", "available", "reward")

    def __init__(self, n: int):
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = [0.0] * n


# How the search bot searches, unless the game's `search:` or the bot's name says otherwise.
SEARCH_DEFAULTS = {
    "worlds": 0,          # 0: a fresh determinisation every iteration; k: k worlds shared by all iterations
    "rollout": 40,        # random decisions played after the tree before the position is scored
    "reward": "rank",     # "rank": the players' order on the estimate; "margin": the estimate's margin
    "exploration": 0.7,   # the UCB constant
    "prior": 0,           # visits' worth of the greedy lookahead given to each root action (0: none)
    "rollout_bot": None,  # a bot the game declares under `bots:` plays the rollouts (None: uniform at random)
}


class MCTSAgent:
    """Information-set Monte Carlo tree search (single observer).

    Each iteration plays in a determinisation consistent with the acting player's view,
    walks the tree of action notations (UCB over the actions legal in that sample, with
    availability counts; where the content marks a move in steps, ``move: whole``, an edge
    is a whole move, named by its steps' joined notation), adds one node, plays on for
    ``rollout`` decisions (at random, or by the game's rollout bot) and scores the end. The
    action visited most at the root is chosen.

    How it searches is the game's to say, next to its ``estimate`` (``search:`` in content;
    :data:`SEARCH_DEFAULTS` otherwise), because what works differs between games:

    - ``worlds: k`` samples k determinisations once per decision and shares them between
      all iterations, each world with its own random continuation, so two root actions are
      compared on the same hidden cards and the same future (common random numbers, the
      advantage ``greedy`` has); ``worlds: 0`` samples afresh every iteration.
    - ``reward: margin`` scores a position by :func:`rewards` (how far ahead), ``rank`` by
      :func:`evaluate_all` (who leads).
    - ``prior: v`` starts every root action with v visits' worth of the ``greedy``
      lookahead's judgement, so the search departs from greedy's choice only when its
      playouts disagree clearly.
    - ``rollout_bot: NAME`` lets a bot the game declares as content play the rollouts for
      every player: playouts that look like play make the estimate at their end mean more.

    Keyword arguments override the game's settings (``mcts-crn`` is one such preset).

    An iteration whose world the content cannot play (a content error while walking, rolling
    out or scoring it: free redealing imagined cards the rules never deal) is discarded:
    counted in ``discarded``, nothing learnt from it (the tree is as before it, but for the
    nodes it walked through), and a shared world that failed is replaced by a fresh one.
    """

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = 200, **overrides):
        unknown = set(overrides) - set(SEARCH_DEFAULTS)
        if unknown:
            raise TypeError(f"unknown search settings {sorted(unknown)}")
        self.state = rng.stream_seed(seed, "agent")
        self.iterations = iterations
        self.overrides = overrides
        self._game = None
        self._configure(SEARCH_DEFAULTS)
        self._plan: tuple | None = None     # what a world of the state being searched deals again
        self._worlds: list = []
        self._streams: list = []
        self._walked: list = []   # this iteration's marks on the tree: (node, labels) whose children's
                                  # availability it counted, and (node, label) of the child it added
        self.discarded = 0        # imagined worlds thrown away for a content error

    def _configure(self, settings: dict) -> None:
        settings = {**settings, **self.overrides}
        self.worlds = settings["worlds"]
        self.depth = settings["rollout"]
        self.reward = settings["reward"]
        self.c = settings["exploration"]
        self.prior = settings["prior"]
        self.rollout_bot = settings["rollout_bot"]
        if self.rollout_bot is not None:
            from .content_bot import ContentBot
            self._policy = ContentBot(0, self.rollout_bot)
        else:
            self._policy = RandomAgent(0)   # its stream is set before each rollout

    def choose(self, s) -> int:
        if len(s.pending.choices) == 1:
            return 0
        labels, steps = _edges(s)
        if s.game is not self._game:
            self._game = s.game
            self._configure({**SEARCH_DEFAULTS, **s.game.bots.search})
        me = s.pending.player
        self._prepare(s, me)
        root = _Node(s.n)
        if self.prior > 0:
            self._seed_root(s, me, root)
        score = rewards if self.reward == "margin" else evaluate_all
        for iteration in range(self.iterations):
            d = self._world(s, me, iteration)
            self._walked = []
            try:
                path = self._descend(d, root, s.n)
                self._rollout(d, iteration)
                scored = score(d)
            except ContentRuntimeError as exc:
                self._discard(exc, s, me, iteration)
                continue
            for visited in path:
                visited.visits += 1
                for q in range(s.n):
                    visited.reward[q] += scored[q]
        best_index, best_visits = 0, -1
        for index, label in enumerate(labels):
            child = root.children.get(label)
            if child is not None and child.visits > best_visits:
                best_index, best_visits = index, child.visits
        if best_visits <= 0:      # every world was discarded: nothing learnt, so at random
            _shared_failure(s, lambda real: self._probe(real, score))
            self.state, best_index = rng.below(self.state, len(labels))
        return best_index if steps is None else steps[best_index][0]    # a whole move: its first step

    @staticmethod
    def _probe(real, score) -> None:
        """Play each root option once and score it (raises what the content raises there)."""
        score(real)
        for index in range(len(real.pending.choices)):
            trial = real.clone()
            trial.record = False
            api.apply_index(trial, index, atomic=False)
            score(trial)

    def _discard(self, exc: ContentRuntimeError, s, me: int, iteration: int) -> None:
        """Forget an iteration whose world failed: undo the availability it counted and the
        node it added and, for a shared world, sample a fresh one in its place."""
        if not _impossible(exc):
            raise exc
        self.discarded += 1
        for node, marked in self._walked:
            if isinstance(marked, str):     # one label (a Marked one too), else the labels
                del node.children[marked]
                continue
            for label in marked:
                node.children[label].available -= 1
        if self._worlds:
            k = iteration % len(self._worlds)
            self._worlds[k], self.state = determinize(s, me, self.state, self._plan)
            self._worlds[k].record = False

    def _prepare(self, s, me: int) -> None:
        """Work out what a world of ``s`` deals again, and sample the shared worlds (``worlds:
        k``), once per decision."""
        self._plan = deal_plan(s, me)
        self._worlds, self._streams = [], []
        for _ in range(self.worlds):
            world, self.state = determinize(s, me, self.state, self._plan)
            world.record = False
            self._worlds.append(world)
            self.state, stream = rng.next_u64(self.state)
            self._streams.append(stream)

    def _world(self, s, me: int, iteration: int):
        if self._worlds:
            return self._worlds[iteration % len(self._worlds)].clone()
        d, self.state = determinize(s, me, self.state, self._plan)
        return d

    def _seed_root(self, s, me: int, root: _Node) -> None:
        """Give each root action ``prior`` visits scored by the greedy lookahead on one world:
        its margin against the root actions' mean margin, squashed to 0..1 by ``tanh`` on the
        estimates' scale (as :func:`rewards` does), so only the differences between actions count."""
        world = self._world(s, me, 0)
        try:
            scale = _scale(_estimates(world) or [0.0])
            margins = []
            labels, steps = _edges(world)
            for index in range(len(labels)):
                trial = world.clone()
                trial.record = False
                trial.list_later = True     # judged as greedy judges (options listed when looked at)
                _play(trial, steps, index)
                margins.append(_lookahead(trial, me, 2))
        except ContentRuntimeError as exc:     # a world the content cannot play: no prior
            if not _impossible(exc):
                raise
            self.discarded += 1
            return
        mean = sum(margins) / len(margins)
        for label, margin in zip(labels, margins):
            child = root.children[label] = _Node(s.n)
            child.visits = child.available = self.prior
            child.reward[me] = self.prior * (0.5 + 0.5 * math.tanh((margin - mean) / scale))

    def _descend(self, d, root: _Node, n: int) -> list:
        """Walk down by UCB (with availability counts) and add one node; the path walked."""
        node = root
        path = [node]
        while not d.over:
            legal, steps = _edges(d)
            mover = d.pending.player
            untried = [i for i, label in enumerate(legal) if label not in node.children]
            if untried:
                self.state, k = rng.below(self.state, len(untried))
                index = untried[k]
                _play(d, steps, index)
                child = node.children[legal[index]] = _Node(n)    # once the world could play it
                self._walked.append((node, legal[index]))
                path.append(child)
                break
            for label in legal:
                node.children[label].available += 1
            self._walked.append((node, legal))
            best, best_index = -1.0, 0
            for index, label in enumerate(legal):
                child = node.children[label]
                score = child.reward[mover] / child.visits + self.c * math.sqrt(
                    math.log(max(child.available, 1)) / child.visits)
                if score > best:
                    best, best_index = score, index
            node = node.children[legal[best_index]]
            _play(d, steps, best_index)
            path.append(node)
        return path

    def _rollout(self, d, iteration: int) -> None:
        """Play on with the rollout policy (uniform at random, or the game's rollout bot):
        with shared worlds, on each world's own stream; otherwise random rollouts continue the
        agent's stream and a rollout bot gets a stream drawn from it."""
        policy = self._policy
        own_stream = not self._streams and self.rollout_bot is None
        if self._streams:
            policy.state = self._streams[iteration % len(self._streams)]
        elif own_stream:
            policy.state = self.state
        else:
            self.state, policy.state = rng.next_u64(self.state)
        try:
            if policy.__class__ is RandomAgent:
                api.play_at_random(d, policy, self.depth)
                return
            steps = 0
            while not d.over and steps < self.depth:
                api.apply_index(d, policy.choose(d), atomic=False)
                steps += 1
        finally:
            if own_stream:
                self.state = policy.state


def _edges(d) -> tuple:
    """(the labels of the edges from position ``d``, the steps of each or None): the options of
    its decision, or, where the content marks a move in steps (``move: whole``), the complete
    moves, each one edge named by its joined notation (engine/moves.py)."""
    if moves.anchor(d) is None:
        return d.pending.labels, None
    listed = moves.expand(d)
    return [move.notation for move in listed], [move.steps for move in listed]


def _play(d, steps, index: int) -> None:
    """Play edge ``index`` of :func:`_edges` on ``d``: one option, or every step of a move."""
    if steps is None:
        api.apply_index(d, index, atomic=False)
        return
    for k in steps[index]:
        api.apply_index(d, k, atomic=False)


class SharedWorldsMCTSAgent(MCTSAgent):
    """``mcts-crn``: the search with the settings that beat ``greedy`` in one shipped game,
    whatever the game declares: four shared worlds, rollouts of 10 decisions scored by
    the estimate's margin, exploration 0.5."""

    name = "mcts-crn"
    PRESET = {"worlds": 4, "rollout": 10, "reward": "margin", "exploration": 0.5}

    def __init__(self, seed: int = 0, iterations: int = 200, **overrides):
        super().__init__(seed, iterations, **{**self.PRESET, **overrides})
