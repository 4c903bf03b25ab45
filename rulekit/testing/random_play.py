# SPDX-License-Identifier: MIT
"""Seeded random games that check the content's invariants after every action (``rulekit test``
and the shipped games' tests).

A random game is the very game ``rulekit autoplay GAME --players N --seed S --check`` plays
(the same seats dealt the same random bots, :func:`seat_agents`), so a failure replays with that
one command. It is played as autoplay plays it, keeping its log, so every text a player would
read is worked out: each action's label, `says` and narration, each ``log`` line; a text that
fails is the game's failure. What they say is dropped after each action, never kept.
"""
from __future__ import annotations

from ..limits import RANDOM_GAME_ACTIONS


def broken_invariants(state) -> list[str]:
    """What is wrong with a state: ids of the content's ``invariants`` that do not hold, and
    any player variable below zero. An empty list means all is well."""
    from ..engine.state import PLAYERS
    bad = [ident for ident, _text, fn in state.game.scoring.invariants if not fn(state, {})]
    for i, row in enumerate(state.p):
        bad += [f"{PLAYERS[i]}.{name} = {value}" for name, value in row.items()
                if type(value) is int and value < 0]
    return bad




def seat_agents(specs, seed: int, players: int) -> list:
    """The bots of a game played by ``rulekit autoplay`` (and a random game of ``rulekit test``):
    seat k plays ``specs[k % len(specs)]``, seeded from the game's seed and k."""
    from ..agents import deal_bots, make_agent
    return [make_agent(spec, seed * 1000 + k) for k, spec in enumerate(deal_bots(list(specs), players))]


def play_random(game, players: int, seed: int, check=broken_invariants, max_actions: int = RANDOM_GAME_ACTIONS):
    """One game of seeded random play, asserting ``check(state) == []`` after setup and after
    every action, and that the game ends within ``max_actions``. Returns (state, actions)."""
    state, actions, problem = random_game(game, players, seed, check, max_actions)
    assert problem is None, problem
    return state, actions


def random_game(game, players: int, seed: int, check=None, max_actions: int = RANDOM_GAME_ACTIONS):
    """One game of seeded random play, stopped at the first problem: an invariant broken after
    setup or after an action (``check(state)``, a list of what is wrong, in place of the game's
    own invariants when given), a content error, or no end within ``max_actions``. Returns (state,
    actions, the problem or None); the problem names the seat count, the seed, the action and what
    broke, in words."""
    from ..engine import api
    from ..errors import ContentRuntimeError
    state = api.new_game(game, players, seed)
    agents = seat_agents(("random",), seed, players)
    head = f"{players}p seed {seed}"
    told = _Told()
    problem = _broken(state, check, head, after_last_action(state))
    actions = 0
    while problem is None and not state.over:
        who = state.pending.player
        index = agents[who].choose(state)
        label = f"option {index + 1}"
        try:
            label = told.action(state, who, index)    # written before the action: it reads the state it was offered in
            api.apply_index(state, index, atomic=False)
            told.since(state)
        except ContentRuntimeError as exc:
            return state, actions, f"{head}, action {actions + 1} ({label}):\n{exc.render()}"
        actions += 1
        problem = _broken(state, check, head, after_last_action(state))
        if problem is None and actions >= max_actions and not state.over:
            problem = f"{head}: no end after {actions} actions"
    return state, actions, problem


class _Told:
    """What autoplay tells of each action, worked out and dropped: the events go as soon as
    they are told, so a long game keeps none."""

    def __init__(self):
        from ..dsl.narrate import Teller
        self.teller = Teller()

    def action(self, state, who: int, index: int) -> str:
        self.teller.action(state, who, index)
        return state.pending.label(index)

    def since(self, state) -> None:
        self.teller.since(state)
        state.events.clear()
        self.teller.mark = 0


def _broken(state, check, head: str, after: str) -> str | None:
    """What is wrong now, in words: each broken invariant with its text, the comparison that
    failed and where it is declared, or what ``check`` lists; None when all is well."""
    if check is not None:
        bad = check(state)
        return f"{head}, {after}: broken {', '.join(map(str, bad))}" if bad else None
    return "\n".join(f"{head}: {failure}" + "".join(f"\n   = note: {note}" for note in failure.notes)
                     for failure in state_failures(state, after)) or None


def after_last_action(state) -> str:
    """``after action 12 (bid 3)``, or ``after setup``: when a state was checked."""
    return f"after action {len(state.actions)} ({state.actions[-1]})" if state.actions else "after setup"


def state_failures(state, after: str) -> list:
    """The game's invariants broken now and player variables below zero, as errors (RK5026) that
    say each in words: what ``rulekit autoplay --check`` raises and ``rulekit test`` reports."""
    from .steps import invariant_failures
    failures = invariant_failures(state, (), None, after)
    for failure in failures:
        failure.help = None       # not a script: no `skip_invariants:` to give
    return failures
