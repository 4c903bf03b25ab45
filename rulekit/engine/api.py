# SPDX-License-Identifier: MIT
"""The small fixed API every tool uses: start a game, list and apply actions.

``apply`` checks the action against the pending decision before anything
changes, so an illegal action is refused with the state untouched. If content
fails half-way through an action (a bound broken, a step limit hit), the state is
restored from a checkpoint taken before the action (a clone sharing the history,
which is cut back), so refusals are always atomic and a long replay stays linear.
"""
from __future__ import annotations

import weakref

from ..codes import OUT_OF_BOUNDS_VALUE
from ..errors import ContentRuntimeError, IllegalAction, UsageError
from . import memo, moves, simultaneous, vm
from .mutate import fmt
from .rng import below
from .runtime import Autoplay
from .state import PLAYERS, Family, Frame, State, keys_of
from .steps import apply_index


def new_game(game, players: int | None = None, seed: int = 0, pins: dict | None = None,
             record: bool = True, step_limit: int = vm.DEFAULT_STEP_LIMIT, position=None) -> State:
    """Set up a game and run it to its first decision."""
    n = game.default_players if players is None else players
    if not game.min_players <= n <= game.max_players:
        raise UsageError(f"{game.title} is for {game.min_players}-{game.max_players} players, not {n}")
    s = State.fresh(game, n)
    s.g = dict(game.variables.gvars)
    s.g["players"] = list(PLAYERS[:n])
    s.g["num_players"] = n
    s.p = [dict(game.variables.pvars) for _ in range(n)]
    keys, starts, s.loc = _layout(game, n)
    zones = s.zones = {key: [] for key in keys}
    for key, items in starts:
        zones[key] = items[:]
    s.owned = set(zones)
    s.rng = {"$seed": int(seed)}
    s.frames = [Frame(game.program.main, 0, {"$position": position} if position is not None else {})]
    s.pins = {k: list(v) for k, v in (pins or {}).items()}
    s.record = record
    for name, value in game.program.params.items():
        s.g[name] = value(s, {}) if callable(value) else value
    _check_family_sizes(game, s)
    s.coarse = memo.holds_zone(s)
    if record:
        # the game's title, not its folder's name: a copy of a game (`cp -r`, the way to change an
        # installed one) tells the same story, so its stored snapshots still hold
        s.events.append(("start", game.title, n, int(seed)))
    vm.run(s, step_limit)
    return s


_LAYOUTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()     # game -> {n: its start layout}


def _layout(game, n: int) -> tuple:
    """Where a new game of ``n`` players starts, worked out once per game and player count: its
    zone keys in order (the board's zones, its families' spaces, each seat's zones), the items
    each zone starts with (``(key, items)``), and where each item lies (a copy, the state's own)."""
    layouts = _LAYOUTS.get(game)
    if layouts is None:
        layouts = _LAYOUTS[game] = {}
    layout = layouts.get(n)
    if layout is None:
        board = game.board
        keys = [*board.zones.values(), *(key for fam in board.families.values() for key in fam.zones.values()),
                *(key for seats in board.pzones.values() for zone in seats[:n] for key in keys_of(zone))]
        starts: dict = {}
        loc = {}
        for ident, start in game.components.item_start.items():
            key = board.zones[start]
            starts.setdefault(key, []).append(ident)
            loc[ident] = key
        layout = layouts[n] = (tuple(keys), tuple(starts.items()), loc)
    return layout[0], layout[1], dict(layout[2])


def _check_family_sizes(game, s: State) -> None:
    """A family sized by a parameter plays at most the zones it declares (its largest game)."""
    for fam in [*game.board.families.values(), *(seats[0] for seats in game.board.pzones.values())]:
        if fam.__class__ is not Family or fam.bound is None:
            continue
        high, keys = s.g[fam.bound], list(fam.zones)
        if high.__class__ is not int or (keys and high > keys[-1]):
            raise ContentRuntimeError(f"`{fam.name}` is sized by `{fam.bound}`, which is {fmt(high)} with {s.n} "
                                      f"players: more than the {len(keys)} zones it has (raise the parameter's `max:`)",
                                      None, OUT_OF_BOUNDS_VALUE)


def legal_actions(s: State, player=None) -> list[str]:
    """The legal actions of the player to move (of ``player``, one of several deciding at once)."""
    if s.pending is None:
        return []
    if player is None:
        return list(s.pending.labels)
    decision, _ = simultaneous.focused(s, "", player)
    return list(decision.labels)


def prompt(s: State) -> str | None:
    """What the pending decision tells the one deciding (its `choose ..., prompt`), or None;
    written now, on demand: bots never ask."""
    return None if s.pending is None else s.pending.prompt()


def current_players(s: State) -> list:
    """Everyone the game waits for: the player to move, or every player still to choose in a
    simultaneous decision (``choose_all``); none once the game is over."""
    return [] if s.pending is None else list(s.pending.players)


def apply(s: State, action: str, atomic: bool = True, step_limit: int = vm.DEFAULT_STEP_LIMIT,
          player=None) -> None:
    """Apply one action in notation. Raises IllegalAction (state unchanged). In a simultaneous
    decision the action names its player (``"p2: bid 5"``, or ``player=``); without one it is
    the first player still to choose. Where the decision is part of a move in steps (a
    procedure marked ``move: whole``), the whole move may be given, its steps joined by
    ``"; "`` (engine/moves.py): every step is applied, or none."""
    if s.over or s.pending is None:
        raise IllegalAction(action, [], "the game is over")
    decision = s.pending
    index = decision.index(action) if player is None else None
    if index is None and player is None and moves.joined(s, action):
        moves.apply_joined(s, action, atomic, step_limit)     # a whole move in steps: `claim r1; pay c1`
        return
    if index is None:
        decision, action = simultaneous.focused(s, action, player)
        index = decision.index(action)
        if index is None:
            raise IllegalAction(action, list(decision.labels), "not a legal action now",
                                player=str(PLAYERS[decision.player]))
        s.pending = decision
    apply_index(s, index, atomic, step_limit)


def play_at_random(s: State, agent, steps: int, step_limit: int = vm.DEFAULT_STEP_LIMIT) -> None:
    """Up to ``steps`` decisions of a ``RandomAgent`` (``agent.state`` its random stream, kept up
    to date even when the content fails), applied as :func:`apply_index` (not atomic) applies
    them: a search's rollout, most of what a search bot costs (see :func:`autoplay`)."""
    auto = Autoplay([agent.state], False, steps)
    try:
        autoplay(s, auto, step_limit)
    finally:
        agent.state = auto.streams[0]


def autoplay(s: State, auto: Autoplay, step_limit: int = vm.DEFAULT_STEP_LIMIT) -> None:
    """Take ``auto.left`` decisions at random (fewer if the game ends), as ``below`` over the
    options and :func:`apply_index` (not atomic) would one at a time: the same draws, actions,
    steps and state. In a game played without a record only the first decision of a run is
    resumed from here; the others are taken where they come (``State.auto``,
    ``runtime.decide``), with no Decision, no return to this loop and no resume. A
    simultaneous decision (``choose_all``) stops the run like any decision in a game played
    one at a time, and its first player still to choose draws here."""
    while auto.left > 0 and not s.over:
        decision = s.pending
        k = decision.player if auto.seats else 0
        auto.streams[k], index = below(auto.streams[k], len(decision.choices))
        auto.left -= 1
        if auto.verbs is not None:
            auto.count(decision.verb(index))
        if s.record:        # each decision's notation and events are written: one at a time
            apply_index(s, index, False, step_limit)
            continue
        s.actions.append(index)
        s.auto = auto
        try:
            vm.resume(s, index, step_limit)
        finally:
            s.auto = None
