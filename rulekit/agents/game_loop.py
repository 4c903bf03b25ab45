# SPDX-License-Identifier: MIT
"""Bot games played to the end: the seats' bots deciding in turn, under a cap on the actions
derived from how long random games of the content last (a game past it is stalled, RK4012)."""
from __future__ import annotations

from ..codes import NO_END
from ..engine import api
from ..engine.runtime import Autoplay
from ..limits import BOT_GAME_ACTIONS as MAX_ACTIONS
from ..limits import CAP_FACTOR, CAP_MIN, CAP_PROBES
from .random_agent import RandomAgent

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
        state.game.source_map.span(("flow",), key=True), NO_END)
