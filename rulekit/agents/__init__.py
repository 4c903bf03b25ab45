# SPDX-License-Identifier: MIT
"""Agents: anything that picks one of the legal actions.

An agent has ``choose(state) -> int`` (an index into the legal actions). Agents
are seeded and deterministic. They see only what the acting player may see: the
search bots work on redeterminised copies (:mod:`rulekit.engine.determinize`), so
they never peek at hidden cards, secret money or the future of the random streams.

Names on the command line: ``random``, ``greedy``, ``mcts`` or ``mcts:N`` (N
iterations per decision, default 200; it searches as the game's ``search:`` says),
``mcts-crn`` (a fixed search preset) and ``bot:NAME`` for a bot the game declares as
content (:mod:`rulekit.agents.content_bot`).
"""
from __future__ import annotations

import math

from ..engine import api, rng
from ..engine.determinize import deal_plan, determinize
from ..engine.runtime import Autoplay
from ..engine.simultaneous import Simultaneous
from ..engine.state import PLAYERS
from ..errors import ContentRuntimeError, UsageError, suggestion_help
from .estimates import Estimates


class RandomAgent:
    """Uniform over the legal actions, from its own seeded stream."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.state = rng.stream_seed(seed, "agent")

    def choose(self, s) -> int:
        self.state, index = rng.below(self.state, len(s.pending.choices))
        return index


_estimates = Estimates()   # the content's estimate of every player (a tuple), or None when the game declares none


def evaluate_all(s) -> list[float]:
    """How good a state is for each player, from 0 (worst) to 1 (best).

    A finished game scores by its result (a shared win shares the point); otherwise the
    content's ``estimate`` ranks the players (no estimate: every player 0.5).
    """
    if s.over:
        winners = s.result["winners"]
        return [1.0 / len(winners) if str(PLAYERS[q]) in winners else 0.0 for q in range(s.n)]
    values = _estimates(s) if s.n >= 2 else None
    if values is None:
        return [0.5] * s.n
    out = []
    for mine in values:     # below it, and level with it (itself not counted)
        below, equal = 0, -1
        for v in values:
            if v < mine:
                below += 1
            elif v == mine:
                equal += 1
        out.append((below + 0.5 * equal) / (s.n - 1))
    return out


def evaluate(s, player: int) -> float:
    """:func:`evaluate_all` for one player."""
    return evaluate_all(s)[player]


def _margin(s, player: int) -> float:
    """My estimate minus the best opponent's (finished games: a decisive margin)."""
    if s.over:
        return 1e6 * (evaluate(s, player) - 0.5)
    values = _estimates(s)
    if values is None:
        return 0.0
    others = [v for q, v in enumerate(values) if q != player]
    return values[player] - (max(others) if others else 0)


def _lookahead(s, me: int, depth: int) -> float:
    """My best margin after following my own next ``depth`` decisions (greedily). ``s`` is a
    trial of the caller's that is used up: its last option is played on it."""
    if depth <= 0 or s.over or s.pending.player != me:
        return _margin(s, me)
    best = None
    last = len(s.pending.choices) - 1
    for index in range(last + 1):
        if index < last:
            trial = s.clone()
            trial.record = False
        else:
            trial = s       # the caller's own trial, never looked at again: its last option needs no copy
        api.apply_index(trial, index, atomic=False)
        value = _margin(trial, me) if depth == 1 else _lookahead(trial, me, depth - 1)
        if best is None or value > best:
            best = value
    return best


def _impossible(exc: ContentRuntimeError) -> bool:
    """Whether a content error met in an imagined world discards that world: any but the
    CPU-time bound of a step (RK4016), which stops the command whatever world it is in."""
    return exc.code != "RK4016"


WORLD_ATTEMPTS = 4   # worlds a one-world bot samples before it judges on the last one as it can


def _shared_failure(s, probe) -> None:
    """Run ``probe`` on a copy of the real state ``s``: a content error it raises there is the
    content's own, not an imagined world's, and stops the game as it did before worlds were
    discarded. Only whether it fails is used, never what it finds, so nothing is peeked at."""
    real = s.clone()
    real.record = False
    probe(real)


class GreedyAgent:
    """One-step lookahead on the content's ``estimate`` (my estimate minus the best
    opponent's), on a redeterminised copy; ties broken at random.

    A "step" is the player's whole move: when an action leaves the same player to
    decide again (a play of several cards, a choice inside an action), the lookahead
    follows that player's best next decisions, up to ``follow`` of them, before it
    judges, so a first step that only pays off in the second is not overlooked.

    The redeterminised copy may be a world the content cannot play (free redealing gave
    a player cards the rules never deal them): when any option fails there with a content
    error, the world is discarded (counted in ``discarded``) and another one sampled; after
    :data:`WORLD_ATTEMPTS` worlds the options that still fail are judged worst. A position is
    judged by its estimate alone: its options are listed only if the lookahead goes on from it
    (``State.list_later``), so a world fails on the way to a position, never in the options
    of the next player there, which greedy never reads.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, follow: int = 2):
        self.state = rng.stream_seed(seed, "agent")
        self.follow = follow
        self.discarded = 0      # imagined worlds thrown away for a content error

    def choose(self, s) -> int:
        count = len(s.pending.choices)
        if count == 1:
            return 0
        me = s.pending.player
        plan = deal_plan(s, me)
        for attempt in range(WORLD_ATTEMPTS):
            base, self.state = determinize(s, me, self.state, plan)
            values = self._values(s, base, me, count, attempt == WORLD_ATTEMPTS - 1)
            if values is not None:
                break
        if all(value is None for value in values):
            self.state, index = rng.below(self.state, count)
            return index
        best, best_index, ties = None, 0, 0
        for index, value in enumerate(values):
            if value is None:
                continue
            if best is None or value > best:
                best, best_index, ties = value, index, 1
            elif value == best:
                ties += 1
                self.state, pick = rng.below(self.state, ties)
                if pick == 0:
                    best_index = index
        return best_index

    def _values(self, s, base, me: int, count: int, last: bool) -> list | None:
        """Each option's lookahead value in the world ``base`` (used up: its last option is played
        on it); None if an option fails there (the world is discarded), or on the ``last`` attempt
        None for each failing option (unless it fails in the real game too: then that error is raised)."""
        values: list = []
        try:
            _estimates.worked_out(base)    # the tallies it builds in the world serve every trial
        except ContentRuntimeError:
            pass                # each trial meets the failure below, where it is judged
        for index in range(count):
            trial = base.clone() if index < count - 1 else base    # the world's last use: no copy
            trial.record = False
            trial.list_later = True     # most trials are only judged: options listed when looked at
            try:
                values.append(self._judge(trial, index, me))
            except ContentRuntimeError as exc:
                if not _impossible(exc):
                    raise
                if not last:
                    self.discarded += 1
                    return None
                _shared_failure(s, lambda real, index=index: self._judge(real, index, me))
                values.append(None)
        if last and None in values:
            self.discarded += 1
        return values

    def _judge(self, trial, index: int, me: int) -> float:
        api.apply_index(trial, index, atomic=False)
        if trial.pending.__class__ is Simultaneous:
            self.state = _others_decide(trial, me, self.state)
        return _lookahead(trial, me, self.follow)


def _others_decide(trial, me: int, state: int) -> int:
    """After my pick in a simultaneous decision (``choose_all``), the others' picks are unknown
    (the imagined world forgot them): they pick at random there, so the decision's outcome, not
    only my half of it, is judged. Returns the random stream's state."""
    sim = trial.pending.sim
    while trial.pending is not None and getattr(trial.pending, "sim", None) is sim and me not in trial.pending.players:
        state, index = rng.below(state, len(trial.pending.choices))
        api.apply_index(trial, index, atomic=False)
    return state


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
    availability counts), adds one node, plays on for ``rollout`` decisions (at random, or
    by the game's rollout bot) and scores the end. The action visited most at the root is
    chosen.

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
        labels = s.pending.labels
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
        return best_index

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
            if marked.__class__ is str:
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
            for index in range(len(world.pending.choices)):
                trial = world.clone()
                trial.record = False
                trial.list_later = True     # judged as greedy judges (options listed when looked at)
                api.apply_index(trial, index, atomic=False)
                margins.append(_lookahead(trial, me, 2))
            labels = world.pending.labels
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
            legal = d.pending.labels
            mover = d.pending.player
            untried = [i for i, label in enumerate(legal) if label not in node.children]
            if untried:
                self.state, k = rng.below(self.state, len(untried))
                index = untried[k]
                api.apply_index(d, index, atomic=False)
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
            api.apply_index(d, best_index, atomic=False)
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


def _scale(values: list) -> float:
    """How big a difference of estimates is, for squashing it by ``tanh``: 1 plus a tenth
    of the estimates' mean size."""
    return 1.0 + 0.1 * sum(abs(v) for v in values) / len(values)


def rewards(s) -> list[float]:
    """Each player's reward in 0..1 for search: a finished game's result, otherwise the
    player's estimate minus the best opponent's, squashed by ``tanh`` on the scale of the
    estimates themselves (with estimates around 20, a lead of 1 scores 0.66, of 3 scores 0.88)."""
    if s.over:
        return evaluate_all(s)
    values = _estimates(s) if s.n >= 2 else None
    if values is None:
        return [0.5] * s.n
    scale = _scale(values)
    out = []
    for q, mine in enumerate(values):
        best_other = max(v for k, v in enumerate(values) if k != q)
        out.append(0.5 + 0.5 * math.tanh((mine - best_other) / scale))
    return out


class SharedWorldsMCTSAgent(MCTSAgent):
    """``mcts-crn``: the search with the settings that beat ``greedy`` in one shipped game,
    whatever the game declares: four shared worlds, rollouts of 10 decisions scored by
    the estimate's margin, exploration 0.5."""

    name = "mcts-crn"
    PRESET = {"worlds": 4, "rollout": 10, "reward": "margin", "exploration": 0.5}

    def __init__(self, seed: int = 0, iterations: int = 200, **overrides):
        super().__init__(seed, iterations, **{**self.PRESET, **overrides})


MAX_ACTIONS = 100_000  # the most any bot game may last, whatever the cap derived from the game
CAP_PROBES = 3         # seeded random games that measure how long a game of this content lasts
CAP_FACTOR = 10        # a bot game may last this many times the longest of them (at least CAP_MIN)
CAP_MIN = 1_000
_CAPS: dict = {}


def action_cap(game, players: int) -> int:
    """The default cap on a bot game's actions: ``CAP_FACTOR`` times the longest of a few
    seeded random games of the same content and player count (at least ``CAP_MIN``, at
    most ``MAX_ACTIONS``). Bots can stall a game that random play ends (every one passing
    or drawing for ever); with the cap such a game stops in bounded time, as stalled."""
    from ..errors import ContentRuntimeError
    key = (game.content_hash, players)
    if key not in _CAPS:
        longest = 0
        for seed in range(CAP_PROBES):
            try:
                s = api.new_game(game, players, seed, record=False)
                bot = RandomAgent(seed)
                while not s.over and len(s.actions) < MAX_ACTIONS // CAP_FACTOR:
                    api.apply_index(s, bot.choose(s), atomic=False)
            except ContentRuntimeError:
                continue      # the real game reports its own failure
            longest = max(longest, len(s.actions))
            if not s.over:
                break         # random play does not end it either: the cap is MAX_ACTIONS
        _CAPS[key] = min(MAX_ACTIONS, max(CAP_MIN, CAP_FACTOR * longest))
    return _CAPS[key]


def play_out(state, agents, each=None, max_actions: int | None = None):
    """Let ``agents`` (one per seat) decide until the game ends; ``each(state, seat, index)``
    is called before every action. Past ``max_actions`` actions the game is stalled: a
    content runtime error (RK4012) saying so."""
    while not state.over:
        if max_actions is not None and len(state.actions) >= max_actions:
            raise stalled(state, max_actions)
        who = state.pending.player   # the first still to choose, in a simultaneous decision
        index = agents[who].choose(state)
        if each is not None:
            each(state, who, index)
        api.apply_index(state, index, atomic=False)
    return state


def play_out_at_random(state, agents, verbs: dict, max_actions: int | None = None):
    """:func:`play_out` for seats all played by ``RandomAgent``, with the first word of each
    option taken counted in ``verbs`` (``rulekit simulate``'s record): the same games, draws and
    stall, with the decisions taken where they come (``api.autoplay``), about a tenth quicker."""
    auto = Autoplay([agent.state for agent in agents], True, 0, verbs)
    try:
        while not state.over:
            if max_actions is not None and len(state.actions) >= max_actions:
                raise stalled(state, max_actions)
            auto.left = max_actions - len(state.actions) if max_actions is not None else 1 << 62
            api.autoplay(state, auto)
    finally:
        for agent, stream in zip(agents, auto.streams):
            agent.state = stream
    return state


def stalled(state, cap: int):
    """The error of a game stopped at its action cap (RK4012), pointing at the flow."""
    from ..errors import ContentRuntimeError
    return ContentRuntimeError(
        f"stalled: the game has not ended after {cap} actions (round {state.g.get('round')}); the bots may be "
        "stuck (every one passing or drawing), or the flow may never end; `--max-actions N` changes the cap",
        state.game.source_map.span(("flow",), key=True), "RK4012")


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MCTSAgent, "mcts-crn": SharedWorldsMCTSAgent}


def bot_list(text: str | None) -> list[str]:
    """The bots of a ``--bots`` option (comma-separated; empty means ``random``), each name checked."""
    specs = [b.strip() for b in (text or "").split(",") if b.strip()] or ["random"]
    for spec in specs:
        make_agent(spec, 0)
    return specs


def deal_bots(specs: list[str], n: int) -> list[str]:
    """The ``--bots`` rule of every command: seat k plays ``specs[k % len(specs)]``, so a
    shorter list repeats round the table; more bots than seats is a usage error."""
    if len(specs) > n:
        raise UsageError(f"{len(specs)} bots for {n} seats: give at most one per seat "
                         "(a shorter list repeats round the table)")
    return [specs[k % len(specs)] for k in range(n)]


def make_agent(spec: str, seed: int):
    """An agent from its command-line name: ``random``, ``greedy``, ``mcts``, ``mcts:N``,
    ``mcts-crn``, ``mcts-crn:N`` or ``bot:NAME``."""
    name, _, arg = spec.partition(":")
    if name == "bot":
        from .content_bot import ContentBot
        if not arg:
            raise UsageError("`bot:NAME` names a bot the game declares under `bots:`")
        return ContentBot(seed, arg)
    if name not in AGENTS:
        hint = suggestion_help(name, AGENTS)
        raise UsageError(f"unknown bot `{name}` (known: {', '.join(sorted(AGENTS))})" + (f"; {hint}" if hint else ""))
    if arg:
        if name not in ("mcts", "mcts-crn") or not arg.isdigit() or int(arg) < 1:
            raise UsageError(f"bad bot `{spec}`: only `mcts:N` and `mcts-crn:N` take a number "
                             "(iterations, at least 1)")
        return AGENTS[name](seed, iterations=int(arg))
    return AGENTS[name](seed)
