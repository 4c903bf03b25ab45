# SPDX-License-Identifier: MIT
"""A game's fixed action vocabulary: every notation its options can print, each with an id.

Reinforcement learning needs action ``i`` to mean the same thing in every state. rulekit's
actions are notations (``bid 3``, ``take card``), so the vocabulary is the set of every
notation some ``choose`` option of the game could print, found from the rules' text
(rl/action_domains.py reads what each hole of a label can hold): ``"bid {n}" for n in
range(1, p.coins + 1)`` adds ``bid 0``...``bid M``, ``"take {t}" for t in row`` one entry per
item of the game. Ids follow the options in the order of their files and lines, each
option's entries in the order of its holes' values (numbers ascending, then texts sorted); a
notation two options print has one id. ``num_distinct_actions`` is the vocabulary's size;
``table()`` prints it; the same content and ``max_number`` give the same ids.

An option that names an item hidden from the seat choosing it (a *blind pick*: ``"take {t}" for
t in pool`` with ``pool`` face down) does not take its notation's id, which would tell the learner
through the mask which hidden items are there: the blind options of a decision take the *blind
slots* ``(blind #1)``, ``(blind #2)``... in the order the decision lists them, which say how many
there are (public, as a zone's count is) and nothing else. So does an option whose label prints a
value hidden from the seat choosing (``"take one worth {t.worth}" for t in row``, ``row`` face
down; another player's ``owner`` variable): its label is a
:class:`~rulekit.engine.redact.Marked` text the seat reads with a ``?`` in place of the value,
and its notation's id would tell the value. A game has ``blind`` slots, sized as
numbers are: ``HEADROOM`` times the most blind options one decision offered in the sizing
playouts (none for a game that never offers one); they follow the notations' ids.

A number the rules give no bound for (``p.coins`` is any whole number) is bounded by
``max_number``, sized from the content by default (:func:`content_max_number`): ``HEADROOM``
times the largest number any option offered in ``PLAYOUTS`` seeded random games per player
count, and at least ``DEFAULT_MAX_NUMBER``. A purse the rules leave open grows past any fixed
bound (bids past 60 were legal and had no id); sized from play, every bid of the shipped games
has one. A legal option that prints a number past ``max_number`` still has no id (the
environments leave it out of the mask and say so once). A label hole whose values cannot be
bounded at all (a built text, a list) is refused: RK0970 on the option's line; a
vocabulary of more than ``MAX_ACTIONS`` entries is RK0971.
"""
from __future__ import annotations

import itertools

import attrs

from ..codes import ACTIONS_TOO_MANY, ACTIONS_UNBOUNDED
from ..dsl import ast
from ..engine.redact import hides_values, names_an_item
from ..errors import Diagnostic, DiagnosticReport, RulekitError
from ..limits import ACTION_IDS as MAX_ACTIONS
from ..limits import DEFAULT_MAX_NUMBER, HEADROOM, PLAYOUT_ACTIONS, PLAYOUTS
from .action_domains import Ctx, Domains, Unbounded, _clause

BLIND = "(blind #{})"       # the notation of a blind slot: a decision's k-th option naming an item hidden from its seat

_CACHE: dict = {}
_MEASURED: dict = {}
_KEEP = 16


@attrs.frozen(eq=False)
class ActionVocabulary:
    """Action id -> notation (``notations``) and back (``ids``); where each came from."""

    notations: tuple
    ids: dict
    options: tuple          # id -> "file:line" of the first option printing it
    max_number: int
    naming: frozenset = frozenset()     # the ids whose notation names an item (which may be hidden)
    blind: int = 0                      # blind slots, the last ids: ``blind_id(k)`` for a decision's k-th blind option

    def blind_id(self, k: int) -> int | None:
        """The id of a decision's ``k``-th blind option (0 the first), None past the slots."""
        return len(self.notations) - self.blind + k if k < self.blind else None

    @property
    def num_distinct_actions(self) -> int:
        return len(self.notations)

    def id_of(self, notation: str) -> int | None:
        return self.ids.get(notation)

    def table(self) -> str:
        """One line per id: ``id  notation  (file:line)``."""
        width = len(str(len(self.notations)))
        return "\n".join(f"{i:>{width}}  {text}  ({where})"
                         for i, (text, where) in enumerate(zip(self.notations, self.options)))


def vocabulary(game, max_number: int | None = None) -> ActionVocabulary:
    """The vocabulary of ``game`` (a loaded Game), built once per content and ``max_number``
    (None: :func:`content_max_number`)."""
    if max_number is None:
        max_number = content_max_number(game)
    key = (game.content_hash, max_number)
    found = _CACHE.get(key)
    if found is None:
        found = _build(game, max_number)
        if len(_CACHE) >= _KEEP:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = found
    return found


def content_max_number(game) -> int:
    """The bound of the numbers the rules leave open, sized from the content: ``HEADROOM`` times
    the largest whole number any option offered (a value its ``for`` clauses chose from, as
    ``n`` in ``"bid {n}" for n in range(...)``) in ``PLAYOUTS`` random games per player count,
    seeded, so the same content always gives the same ids; at least ``DEFAULT_MAX_NUMBER``."""
    return max(DEFAULT_MAX_NUMBER, HEADROOM * _measured(game)[0])


def blind_slots(game) -> int:
    """The blind slots of ``game``: ``HEADROOM`` times the most options of one decision that
    chose an item hidden from the seat deciding or printed a value hidden from it, in the same
    playouts; 0 when none did."""
    return HEADROOM * _measured(game)[1]


def _measured(game) -> tuple:
    """(the largest number offered, the most blind options of one decision) over the playouts."""
    found = _MEASURED.get(game.content_hash)
    if found is None:
        found = (0, 0)
        for players in range(game.min_players, game.max_players + 1):
            for seed in range(PLAYOUTS):
                one = _measure_one_game(game, players, seed)
                found = (max(found[0], one[0]), max(found[1], one[1]))
        _MEASURED[game.content_hash] = found
    return found


def _measure_one_game(game, players: int, seed: int) -> tuple:
    """The largest whole number an option offered in one seeded random game, and the most options
    of one decision that chose an item hidden from the seat deciding or whose label printed a
    value hidden from it (the labels are written only for a game that may hide one, and only
    options not already counted read). A content error on the way
    ends the game there, what it offered so far counted: sizing the ids never fails a game that a
    learner may still play (the error is the game's, met where play meets it)."""
    import random

    from ..engine import api
    from ..engine.redact import Marked, Sight, hidden_items
    items = game.components.items
    secret = has_secrets(game)
    marks = hides_values(game)
    largest = most_blind = 0
    try:
        state = api.new_game(game, players, seed, record=False)
        rng = random.Random(seed)
        for _ in range(PLAYOUT_ACTIONS):
            if state.over:
                break
            pending = state.pending
            for seat in pending.players:
                decision = pending if seat == pending.player else pending.focus(seat)
                hidden = seen = None
                labels = decision.labels if marks else None
                blind = 0
                for index, choice in enumerate(decision.choices):
                    named = False
                    for value in choice[1:]:
                        if value.__class__ is int:
                            if value > largest:
                                largest = value
                        elif secret and value.__class__ is str and value in items:
                            if hidden is None:
                                hidden = hidden_items(state, seat)
                            named = named or value in hidden
                    if not named and labels is not None and labels[index].__class__ is Marked:
                        if seen is None:
                            seen = Sight.of(state, seat)
                        named = seen.blind(labels[index])
                    blind += named
                most_blind = max(most_blind, blind)
            api.apply_index(state, rng.randrange(len(pending.choices)))
    except RulekitError:
        pass
    return largest, most_blind


def has_secrets(game) -> bool:
    """Whether an item can lie where some seat may not see it (a zone not public, the box aside)."""
    return any(vis != "public" for name, vis in game.board.zone_vis.items() if name != "box")


def _build(game, max_number: int) -> ActionVocabulary:
    domains = Domains(game, max_number)
    options = []
    for body, tree in domains.bodies:
        for node in ast.walk(tree):
            if isinstance(node, ast.Option):
                options.append((_place(node.span), node, body))
    options.sort(key=lambda entry: entry[0])
    ids: dict = {}
    where: list = []
    problems: list = []
    for place, option, body in options:
        try:
            texts = _notations(option, body, domains)
        except Unbounded as why:
            problems.append(_unbounded(option, why))
            continue
        for text in texts:
            if text not in ids:
                ids[text] = len(ids)
                where.append(f"{place[0]}:{place[1]}")
        if len(ids) > MAX_ACTIONS:
            problems.append(Diagnostic(ACTIONS_TOO_MANY, f"the game's options can print more than {MAX_ACTIONS:,} "
                                       "actions: too many for fixed action ids", option.span,
                                       help="a smaller `max_number`, or labels with fewer values"))
            break
    if problems:
        raise DiagnosticReport(problems)
    naming = frozenset(i for text, i in ids.items() if names_an_item(game, text))
    blind = blind_slots(game) if (naming and has_secrets(game)) or hides_values(game) else 0
    for k in range(blind):
        ids[BLIND.format(k + 1)] = len(ids)
        where.append("a blind pick")
    notations = tuple(ids)
    return ActionVocabulary(notations, ids, tuple(where), max_number, naming, blind)


def _notations(option, body, domains: Domains) -> list:
    """Every text the option's label can print."""
    label = option.label
    if isinstance(label, ast.Str):
        return [label.value]
    ctx = Ctx(body, {name: [_clause(coll)] for name, coll in option.fors}, parent=domains.root(body))
    pieces = [[part] if isinstance(part, str) else domains.values(part, ctx).printed(domains.max_number)
              for part in label.parts]
    size = 1
    for piece in pieces:
        size *= len(piece)
    if size > MAX_ACTIONS:
        raise Unbounded(f"its label can print {size:,} texts")
    return ["".join(parts) for parts in itertools.product(*pieces)]


def _place(span) -> tuple:
    return (str(span.path), span.line, span.column) if span is not None else ("?", 0, 0)


def _unbounded(option, why: Unbounded) -> Diagnostic:
    text = option.label.value if isinstance(option.label, ast.Str) else "".join(
        part if isinstance(part, str) else "{...}" for part in option.label.parts)
    related = (("this part", why.node.span),) if why.node is not None and why.node.span is not None else ()
    return Diagnostic(ACTIONS_UNBOUNDED, f"the option \"{text}\" prints values that cannot be bounded, so it has "
                      f"no fixed action ids: {why}", option.span, related=related,
                      help="print a set member, an item, a seat or a number (a range, a variable with bounds) "
                           "in the label")
