# SPDX-License-Identifier: MIT
"""The frozen record of each section of a game, as its builder returns it and :class:`rulekit.model.Game`
holds it (the model re-exports them: ``rulekit.model.Components`` and so on)."""
from __future__ import annotations

from typing import Any

import attrs

from ..dsl.codegen import Code
from ..dsl.compiler import Vocabulary


@attrs.frozen(eq=False)
class Components:
    """The things of the game: symbol sets, and the items made from them (`sets:`, `components:`).
    Grouped because items are generated from sets and every item question (its kind, its printed
    and its changeable properties, where it starts) is answered from these tables together."""

    sets: dict                  # set -> member names (tuple)
    members: dict               # member -> static props
    items: dict                 # id -> static props
    kinds: dict                 # kind -> tuple of ids
    item_kind: dict             # id -> kind
    item_start: dict            # id -> ZoneKey name where it starts
    prop_defaults: dict         # state property -> its default (the last kind declaring it)
    kind_state: dict            # component kind -> the state properties it declares (`has`)
    state_seed: dict            # prop -> {item: its kind's own state default, where not the common one}
    prop_values: dict           # item property -> every value items have (none: an item without it)


@attrs.frozen(eq=False)
class Variables:
    """Global (`vars:`) and player (`player.vars:`) variables: initial values, visibility and
    bounds, side by side since a new game, a view and the setters read them the same way."""

    gvars: dict                 # name -> initial
    gvis: dict                  # name -> visibility
    gbounds: dict               # name -> (min, max)
    pvars: dict
    pvis: dict
    pbounds: dict


@attrs.frozen(eq=False)
class Board:
    """Where items lie (`zones:`, `player.zones:`): global zones, families and player zones with
    their visibility and capacity, and what a hidden zone is dealt from (`dealt_from:`); one
    record because views, moves and determinisation ask about a zone by its name here."""

    zones: dict                 # name -> ZoneKey (global)
    zone_vis: dict              # zone name (global, family or player) -> visibility
    families: dict              # name -> Family
    pzones: dict                # name -> by seat: ZoneKey, or Family of a player's own (`keys:`)
    capacity: dict              # zone name -> capacity
    dealt_from: dict            # zone name -> (fn(s, {"p": owner}): the items it is dealt from, span)


@attrs.frozen(eq=False)
class Program:
    """The rules compiled: one generated module (dsl/codegen.Module) holding every procedure,
    phase, setup, finish and the flow, the content functions and the parameters, with the names
    it was compiled over. Together because scripts compile more code beside it."""

    params: dict                # name -> value or compiled fn
    procedures: dict            # key -> codegen.Code (content procedures by name; `$setup`, `phase:ID`, ...)
    functions: dict             # content function -> compiled fn
    main: Code                  # the flow
    finish_pc: int              # the block of the flow that runs `finish` (where `end_game()` goes)
    module: Any                 # the generated module (dsl/codegen.Module): `rulekit compile`
    vocab: Vocabulary           # the names it was compiled over (scripts compile against them)
    roll_streams: frozenset | None = None   # the streams `roll` draws from (None: not known before running)
    props_named: dict = attrs.Factory(dict)  # built-in -> {what its first argument names: {property}} (render)
    whole_moves: frozenset = frozenset()    # the Codes of procedures marked `move: whole` (engine/moves.py)


@attrs.frozen(eq=False)
class Scoring:
    """What is asked of a position without changing it: the score categories, tie-breaks and
    who may win at the end (`scoring:`), the invariants checked as it goes, and the estimate
    bots judge positions by meanwhile."""

    categories: tuple           # ((id, text, fn), ...)
    tiebreak: tuple             # (fn, ...)
    eligible: Any               # (fn, span): whether `p` may win (`scoring.eligible`), or None
    invariants: tuple           # ((id, text, fn), ...)
    estimate: Any               # fn(s, {"p": seat}) or None
    estimate_of_own_seat: bool = False   # the estimate of p reads no other player's variables and zones
    tiebreak_names: tuple = ()  # each tie-break's name (`id:`), or None where it has none


@attrs.frozen(eq=False)
class Bots:
    """Bots written as content (`bots:`) and how the search bots search (`search:`)."""

    rules: dict                 # bot name -> [(condition fn or None, compiled pattern, text)]
    search: dict                # `search:` settings (agents.SEARCH_DEFAULTS for what is left out)


@attrs.frozen(eq=False)
class Memo:
    """What remembering needs (engine/memo.py): which functions a change forgets, worked out
    from their read sets when the game is built, and the game's two caches. ``moves`` and
    ``static`` are the only tables of a game filled while games run: a pair of zones' forgets
    is worked out on its first move, a function reading no state is answered once per
    arguments for every state of the game. Both hold only what the content determines, so
    sharing them between states, clones and games of one load changes no result."""

    deps: dict                  # resource -> functions whose memoised results it may change
    always: tuple               # functions forgotten on any change (they may read anything)
    moves: dict = attrs.Factory(dict)    # (zone name, zone name) -> functions a move forgets
    static: dict = attrs.Factory(dict)   # results of functions reading no state: name -> {(n, *args): value}
