# SPDX-License-Identifier: MIT
"""What happened, in words: the content's `narrate:` templates over a game's events.

Narration is read off the event log when something prints it (``rulekit autoplay``,
``rulekit play``), never while the rules run: games played by bots and ``simulate``
format nothing, and the recorded events are the same with or without it. A template is
a text with ``{expression}`` holes, compiled when the game loads with the event's fields
as names (an unknown field is RK0301 on its line, with "did you mean"), and worked out
against the state after the action. One action's events are read together: a player
variable that falls for one player by what others gain is a transfer (``p3 pays p1 6``),
every other variable says its net change once.
"""
from __future__ import annotations

import attrs

from ..codes import UNKNOWN_IN_NARRATION
from ..engine.elements import value_before
from ..engine.redact import Sight, hidden_items
from ..engine.state import PLAYERS, SEAT_NAMES, Decision
from ..engine.view import sight
from ..errors import Diagnostic, DiagnosticReport
from ..source import Span
from . import parse_cache
from .texts import located, parse_text, scope

FIELDS = {
    "set": ("player", "old", "new", "change", "actor"),
    "transfer": ("payer", "payee", "amount", "actor"),
    "roll": ("value", "sides", "actor"),
    "prop": ("item", "value", "player", "actor"),
    "move": ("item", "kind", "from", "to", "player", "giver", "actor"),
}


@attrs.frozen
class Narration:
    """A game's compiled templates: fn(s, fields) per variable, stream, property; moves as
    (kind, to, from, fn) rules, the first that fits saying it."""
    set: dict = attrs.Factory(dict)
    transfer: dict = attrs.Factory(dict)
    roll: dict = attrs.Factory(dict)
    prop: dict = attrs.Factory(dict)
    move: tuple = ()


# ------------------------------------------------------------------ loading
def compile_narration(builder, compiler) -> Narration:
    """The `narrate:` section compiled; names it filters on that the game lacks are RK0126."""
    spec = builder.data.get("narrate") or {}
    if not spec:
        return Narration()
    names = _known(builder)
    out: dict = {}
    for kind in ("set", "transfer", "roll", "prop"):
        table = {}
        for key, text in (spec.get(kind) or {}).items():
            _check_name(builder, ("narrate", kind, key), key, names[kind])
            table[key] = _template(builder, compiler, ("narrate", kind, key), text, FIELDS[kind])
        out[kind] = table
    rules = []
    for i, rule in enumerate(spec.get("move") or ()):
        for key in ("kind", "to", "from"):
            if key in rule:
                _check_name(builder, ("narrate", "move", i, key), rule[key], names["zone" if key != "kind" else "kind"])
        fn = _template(builder, compiler, ("narrate", "move", i, "says"), rule.get("says", ""), FIELDS["move"])
        rules.append((rule.get("kind"), rule.get("to"), rule.get("from"), fn))
    return Narration(move=tuple(rules), **out)


def _known(builder) -> dict:
    data = builder.data
    gvars = set(data.get("vars") or {}) | {"round"}
    pvars = set((data.get("player") or {}).get("vars") or {})
    zones = set(data.get("zones") or {}) | set((data.get("player") or {}).get("zones") or {}) | {"box"}
    components = data.get("components") or {}
    props = {p for spec in components.values() if isinstance(spec, dict) for p in (spec.get("state") or {})}
    return {"set": gvars | pvars, "transfer": pvars, "roll": None, "prop": props, "zone": zones,
            "kind": set(components)}


def _check_name(builder, path: tuple, name, known) -> None:
    if known is None or name in known:
        return
    from ..errors import suggestion_help
    builder.diagnostics.append(Diagnostic(
        UNKNOWN_IN_NARRATION, f"`narrate:` names `{name}`, which this game does not define", builder.smap.span(path,
                                                                                                               key=
                                                                                                   len(path) == 3),
        help=suggestion_help(str(name), known) or f"known: {', '.join(sorted(known)) or 'none'}"))


def _template(builder, compiler, path: tuple, text, fields: tuple):
    """``text`` as an effect-language template with ``fields`` as its names, located in its file."""
    origin = builder.smap.text(path)
    span = builder.smap.span(path) or Span(builder.path, 1, 1)
    literal = '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'

    def locate(line, col, end_line=None, end_col=None):      # the opening quote we added is column 0
        if origin is not None:
            return origin.locate(line, max(1, col - 1), end_line, None if end_col is None else max(1, end_col - 1))
        return Span(span.path, span.line, span.column + max(0, col - 2))
    key = ("template", literal, origin) if origin is not None else ("template", literal, span.path, span.line)
    try:
        node = parse_cache.parsed(key, lambda: parse_text(literal, locate, "expr"))
    except DiagnosticReport as report:      # a syntax error in a hole: on its line, with the game's
        builder.diagnostics.extend(report.diagnostics)
        return None
    return located(compiler.expr(node, scope(fields)), node.span, "a `narrate:` template")


# ------------------------------------------------------------------ telling
def lines(state, events, actor=None, seat=None, before=None) -> list[str]:
    """What ``events`` (one action's, or the setup's) say under the game's templates; with
    ``seat``, only what that player may see (a hidden variable's change, an item moving
    where they cannot see it, are left out), each line read as the seat may (view.sight: an
    item hidden from it named by its kind, a value a ``log`` text printed that it may not see
    read ``?``). ``before``: the items hidden from the seat before
    the action (``redact.hidden_items``), so that an item it saw then is named; without it, the
    items hidden from it in ``state`` are."""
    told = _lines(state, events, actor, seat)
    if seat is None:
        return told
    reading = sight(state, seat, before=before)
    return [reading.text(line) for line in told]


def _lines(state, events, actor, seat) -> list[str]:
    narration = state.game.narration or Narration()
    out: list = []            # (position of the first event, text)
    changes = _net_changes(state, events, narration.set.keys() | narration.transfer.keys())
    if seat is not None:
        changes = {key: row for key, row in changes.items() if _var_seen(state.game, key, seat)}
    _transfers(state, narration, changes, actor, out)
    for (name, who), (at, old, new) in changes.items():
        fn = narration.set.get(name)
        if fn is not None and old != new:
            change = new - old if _number(old) and _number(new) else None
            _say(out, at, state, fn, player=who, old=old, new=new, change=change, actor=actor)
    for at, event in enumerate(events):
        if seat is None or _event_seen(state, event, seat):
            _event(state, narration, at, event, actor, out)
    out.sort(key=lambda pair: pair[0])
    return [text for _at, text in out if text]


def _var_seen(game, key, seat) -> bool:
    name, who = key
    vis = game.variables.gvis.get(name, "public") if who is None else game.variables.pvis.get(name, "public")
    return vis == "public" or (vis == "owner" and who == seat)


def _event_seen(state, event, seat) -> bool:
    kind = event[0]
    if kind == "move":
        return _sees(state, event[3], event[1], seat)
    if kind == "prop":
        zone = state.loc.get(event[1])
        return zone is not None and _sees(state, zone.text, event[1], seat)
    return True


def _sees(state, zone_text: str, item, seat) -> bool:
    """Whether ``seat`` sees ``item`` lying in the zone printed ``zone_text`` (as views do)."""
    vis = state.game.board.zone_vis.get(_zone_name(zone_text), "public")
    if vis == "face_up":
        return bool(state.iprops.get("face_up", {}).get(item, state.game.components.prop_defaults.get("face_up")))
    return vis == "public" or (vis == "owner" and _owner(zone_text) == seat)


def _event(state, narration, at, event, actor, out) -> None:
    kind = event[0]
    if kind == "log":
        out.append((at, event[1]))
    elif kind == "roll":
        fn = narration.roll.get(event[1])
        if fn is not None:
            _say(out, at, state, fn, value=event[3], sides=event[2], actor=actor)
    elif kind == "prop":
        fn = narration.prop.get(event[2])
        if fn is not None:
            _say(out, at, state, fn, item=event[1], value=event[3], player=_holder(state, event[1]), actor=actor)
    elif kind == "move":
        _move(state, narration, at, event, actor, out)


def _move(state, narration, at, event, actor, out) -> None:
    _kind, item, source, dest = event
    item_kind = state.game.components.item_kind.get(item)
    for kind, to, frm, fn in narration.move:
        if (kind is None or kind == item_kind) and (to is None or _zone_name(dest) == to) and (
                frm is None or _zone_name(source) == frm):
            _say(out, at, state, fn, item=item, kind=item_kind, to=dest, player=_owner(dest), giver=_owner(source),
                 actor=actor, **{"from": source})
            return


def _net_changes(state, events, wanted) -> dict:
    """(variable, player or None) -> (first event's position, first old, last new), for the
    variables named in ``wanted``. A variable an element of which was set (``set_element``, which
    keeps that element alone) says its whole value before and after as a ``set`` would, worked
    back from its value in ``state``, the state the events end in."""
    changes: dict = {}
    elements: dict = {}         # a variable an element of which was set -> its name in the events
    for at, event in enumerate(events):
        kind = event[0]
        if kind != "set" and kind != "set_element":
            continue
        who, _, name = event[1].rpartition(".")
        if name not in wanted:
            continue
        key = (name, _seat(who) if who else None)
        first = changes.get(key)
        if kind == "set":
            changes[key] = (at, event[2], event[3]) if first is None else (first[0], first[1], event[3])
        else:
            changes[key] = (at, None, None) if first is None else first
            elements[key] = event[1]
    for key, what in elements.items():
        own = [e for e in events if (e[0] == "set" or e[0] == "set_element") and e[1] == what]
        name, who = key
        new = own[-1][3] if own[-1][0] == "set" else (state.g if who is None else state.p[who]).get(name)
        changes[key] = (changes[key][0], value_before(new, own), new)
    return changes


def _transfers(state, narration, changes, actor, out) -> None:
    """One payer and the payees of a player variable whose changes cancel out, said as
    transfers (and taken out of ``changes``)."""
    for name, fn in narration.transfer.items():
        rows = {who: (at, new - old) for (var, who), (at, old, new) in changes.items()
                if var == name and who is not None and _number(old) and _number(new) and new != old}
        payers = [who for who, (_at, d) in rows.items() if d < 0]
        payees = [who for who, (_at, d) in rows.items() if d > 0]
        if len(payers) != 1 or not payees or sum(d for _at, d in rows.values()) != 0:
            continue
        payer = payers[0]
        for who in sorted(payees, key=lambda w: rows[w][0]):
            _say(out, rows[payer][0], state, fn, payer=payer, payee=who, amount=rows[who][1], actor=actor)
        for who in rows:
            changes.pop((name, who))


def _say(out, at, state, fn, **fields) -> None:
    if fn is not None:
        out.append((at, fn(state, fields)))


def _number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_SEATS = dict(zip(SEAT_NAMES, PLAYERS))


def _seat(text: str):
    return _SEATS.get(text)


def _owner(zone_text: str):
    """The player a zone (as events name it: `p2.tiles`) belongs to, or None."""
    who, dot, _rest = zone_text.partition(".")
    return _seat(who) if dot and "[" not in who else None


def _zone_name(zone_text: str) -> str:
    """A zone's declared name: `p2.tiles` -> `tiles`, `route[3]` -> `route`."""
    if _owner(zone_text) is not None:
        zone_text = zone_text.partition(".")[2]
    return zone_text.partition("[")[0]


def _holder(state, item):
    zone = state.loc.get(item)
    return None if zone is None else _owner(zone.text)


# ------------------------------------------------------------------ a running game
class Teller:
    """Tells a game as it is played: ``action`` before an action is applied (its `says`, or
    ``pK label``), ``since`` after it (what its events say, or with ``verbose`` the raw
    events). ``seat``: tell only what that player may see: ``acted`` after the action gives
    its line as the seat may read it, and the lines of ``since`` are read so too (the items
    hidden from the seat both before and after the action named by kind: engine/redact.py)."""

    def __init__(self, verbose: bool = False, seat=None):
        self.verbose = verbose
        self.seat = seat
        self.mark = 0
        self.actor = None
        self.hidden = None          # with a seat: the items hidden from it before the action
        self.said = None            # with a seat: (who, label, says) of the action being taken

    def action(self, state, who: int, index: int) -> str:
        """The line of the action about to be taken (in the state before it), as the log has it."""
        decision = state.pending
        self.actor = PLAYERS[who]
        self.mark = len(state.events)
        said = None if self.verbose else decision.says(index)
        if self.seat is not None:
            self.hidden = hidden_items(state, self.seat)
            secret = who != self.seat and decision.__class__ is not Decision
            self.said = (who, None if secret else decision.labels[index], said)
        return said if said else f"{SEAT_NAMES[who]} {decision.labels[index]}"

    def acted(self, state) -> str:
        """With a seat, after the action: its line as the seat may read it."""
        who, label, said = self.said
        if label is None:
            return f"{SEAT_NAMES[who]} has chosen"      # a simultaneous pick: secret until everyone has chosen
        return self._sight(state).action(who, label, said)

    def since(self, state) -> list[str]:
        """What happened since the last call (the setup, at first)."""
        events = state.events[self.mark:]
        self.mark = len(state.events)
        before, self.hidden = self.hidden, None
        if not self.verbose:
            return lines(state, [e for e in events if e[0] != "action"], self.actor, self.seat, before)
        from .notation import render_event
        seen = [e for e in events if e[0] != "action" and self._seen(state, e)]
        if self.seat is None:
            return [render_event(e).strip() for e in seen]
        reading = sight(state, self.seat, before=before)
        # a log line's values hidden from the seat go before the event is written out (its marks
        # are of its own text)
        return [reading.text(render_event(("log", reading.unmarked(e[1])) if e[0] == "log" else e).strip())
                for e in seen]

    def _sight(self, state) -> Sight:
        return sight(state, self.seat, before=self.hidden)

    def _seen(self, state, event) -> bool:
        if self.seat is None:
            return True
        if event[0] == "set" or event[0] == "set_element":
            who, _, name = event[1].rpartition(".")
            return _var_seen(state.game, (name, _seat(who) if who else None), self.seat)
        return _event_seen(state, event, self.seat)
