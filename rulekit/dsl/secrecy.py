# SPDX-License-Identifier: MIT
"""Which values of a game are hidden from whom, read off its texts: the warnings RK0390 and RK0391.

An option's label is the action's notation, written once for the omniscient log and read by
every seat (engine/redact.py names each item a seat may not see by its kind). A label that names
an item of a zone other players may not see (``"keep {join(ts, ' ')}" for ts in subsets(p.offered)``
with ``offered`` an ``owner`` zone) is redacted for them every time, unless the option itself
shows the item (moves it to a public zone, turns it face up), as ``"play {c}" for c in p.hand``
does. Such a label can only ever leak; this analysis says so at its line, so that the author
words the option for everyone with ``says``.

It is a separate pass over the resolved trees the compiled game keeps (``Game.texts``): a
``for`` variable of an option is *hidden* when its collection reads a zone whose visibility is
``owner`` or ``hidden`` (or another hidden variable of the option); a label hole that reads a
hidden variable names a hidden item, or a property printed on it, which redaction cannot hide. An
option of a ``choose_all`` is left alone: another player's simultaneous pick is told as chosen.
What it cannot see (a reveal done by a procedure the option calls) it does not warn about: the
warning is for what is certainly read by others.

A number, or a text, a template's hole prints is redacted by itself where the hole reads what
some seat may not see (a player's ``owner`` or ``hidden`` variable, a hidden global, an item's
property: the compiled template marks its span, engine/redact.py). RK0391 is for what that cannot
follow: a hidden variable's value printed by a text built otherwise (``text(p.coins)``, ``+``), or
through a local variable or an option's ``for`` variable that holds it (``n = p.coins``, then
``"{n}"``), which every seat reads as written.
"""
from __future__ import annotations

from ..codes import LABEL_NAMES_HIDDEN, TEXT_PRINTS_HIDDEN
from ..errors import Diagnostic
from . import ast
from .resolve import OWN, names
from .visit import fields

SECRET = ("owner", "hidden")


class Zones:
    """The game's zones by visibility: ``secret`` name -> visibility (owner or hidden), and
    ``public`` names, each split into global zones (read as a name) and player zones (``p.NAME``)."""

    def __init__(self, data: dict):
        glob = data.get("zones") or {}
        mine = (data.get("player") or {}).get("zones") or {}
        self.secret_global = {n: _vis(s) for n, s in glob.items() if _vis(s) in SECRET}
        self.secret_player = {n: _vis(s) for n, s in mine.items() if _vis(s) in SECRET}
        self.public_global = {n for n, s in glob.items() if _vis(s) == "public"}
        self.public_player = {n for n, s in mine.items() if _vis(s) == "public"}


def _face_up(target) -> bool:
    return isinstance(target, ast.Attr) and target.name == "face_up"


def _vis(spec) -> str:
    return spec.get("visibility", "public") if isinstance(spec, dict) else "public"


def leaking_labels(data: dict, texts: dict) -> list[Diagnostic]:
    """RK0390 for every option of ``texts`` (content path -> tree) whose label, or ``says``,
    names an item hidden from other players that the option never shows; RK0391 for every label,
    ``says`` or ``log`` text that prints a hidden variable."""
    out = _printed_variables(data, texts)
    zones = Zones(data)
    if not zones.secret_global and not zones.secret_player:
        return out
    for tree in texts.values():
        own = {id(node) for node, scope in names(tree) if scope == OWN}
        secret = {id(o) for node in ast.walk(tree) if isinstance(node, ast.ChooseAll) for o in node.options}
        for node in ast.walk(tree):
            if isinstance(node, ast.Option) and id(node) not in secret:     # a simultaneous pick is told as chosen
                found = _Option(zones, own).leak(node, tree)
                if found is not None:
                    out.append(found)
    return out


def _printed_variables(data: dict, texts: dict) -> list[Diagnostic]:
    """RK0391: a label, ``says`` or ``log`` text that prints an ``owner`` or ``hidden`` variable
    (``p.coins``, or a global one by name), or a property of an item of an ``owner`` or ``hidden``
    zone, where no seat's reading can hide it. A template's hole that reads the variable or the
    property itself is read ``?`` by a seat that may not see it (the compiled template marks it:
    engine/redact.py); what is left is a text that carries the value some other way: built by an
    expression rather than a template (``text(p.coins)``, ``"..." + ...``), or a hole that reads a
    local variable holding it (``n = p.coins`` then ``"{n}"``; ``v = top(pool).value``)."""
    secrets = _Secrets(data)
    if not secrets.any():
        return []
    out = []
    for tree in texts.values():
        reads = _SecretReads(secrets, tree)
        for text in _told_to_all(tree):
            found = reads.unredacted(text)
            if found is not None:
                out.append(_printed_diagnostic(*found))
    return out


class _Secrets:
    """What a game keeps from some seats: player and global variables, zones, item properties."""

    def __init__(self, data: dict):
        self.mine = {n for n, s in ((data.get("player") or {}).get("vars") or {}).items() if _vis(s) in SECRET}
        self.glob = {n for n, s in (data.get("vars") or {}).items() if _vis(s) in SECRET}
        self.zones = Zones(data)
        self.props = _item_props(data)

    def any(self) -> bool:
        return bool(self.mine or self.glob or self.zones.secret_global or self.zones.secret_player)


class _SecretReads:
    """One text: which of its locals hold a hidden value or items of a secret zone, and what
    hidden value an expression of it reads."""

    def __init__(self, secrets: _Secrets, tree):
        self.k = secrets
        self.own = {id(node) for node, scope in names(tree) if scope == OWN}
        self.items: dict = {}       # a local holding items of a secret zone -> the zone
        self.held: dict = {}        # a local holding a hidden value -> what it is, in words
        for _ in range(2):          # a local assigned from another such local, written later
            for node in ast.walk(tree):
                self._learn(node)

    def _learn(self, node) -> None:
        """What the local ``node`` binds (an assignment, an option's or a loop's variable) holds."""
        if isinstance(node, ast.Assign) and isinstance(node.target, ast.Name) and id(node.target) in self.own:
            self._hold(node.target.id, self.secret(node.value), self.zone_of(node.value))
        elif isinstance(node, ast.Option):      # `for n in [p.coins]`, `let n = p.coins`: the value itself
            for name, coll in node.fors:
                found = self.secret(coll) if isinstance(coll, (ast.Let, ast.ListLit)) else None
                self._hold(name, found, self.zone_of(coll.value if isinstance(coll, ast.Let) else coll))
        elif isinstance(node, ast.For):
            self._hold(node.var, None, self.zone_of(node.iter))

    def _hold(self, name: str, found, zone) -> None:
        if found is not None:
            self.held.setdefault(name, found[0])
        elif zone is not None:
            self.items.setdefault(name, zone)

    def zone_of(self, expr):
        """The secret zone whose items ``expr`` reads (not only counts), or None."""
        zones = self.k.zones
        for part in _uncounted(expr):
            if isinstance(part, ast.Attr) and part.name in zones.secret_player:
                return part.name
            if isinstance(part, ast.Name) and id(part) in self.own and part.id in self.items:
                return self.items[part.id]
            if isinstance(part, ast.Name) and part.id in zones.secret_global and id(part) not in self.own:
                return part.id
        return None

    def secret(self, expr):
        """What hidden value ``expr`` reads, in words, the local it reads it through (None:
        directly) and the node reading it; or None."""
        k = self.k
        for part in ast.walk(expr):
            if isinstance(part, ast.Attr) and part.name in k.mine:
                return f"`{part.name}`, a variable other players may not see", None, part
            if isinstance(part, ast.Name) and id(part) in self.own and part.id in self.held:
                return self.held[part.id], part.id, part
            if isinstance(part, ast.Name) and part.id in k.glob and id(part) not in self.own:
                return f"`{part.id}`, a variable other players may not see", None, part
            if isinstance(part, ast.Attr) and part.name in k.props:
                zone = self.zone_of(part.obj)
                if zone is not None:
                    return f"`{part.name}` of an item of `{zone}`, which other players may not see", None, part
        return None

    def unredacted(self, text):
        """(what, the local, the node) of the first hidden value ``text`` prints where no seat's
        reading can redact it (a template's hole reading it itself is redacted), or None."""
        if isinstance(text, ast.Str):
            return None
        holes = [part for part in text.parts if not isinstance(part, str)] if isinstance(text, ast.Template) \
            else [text]
        for hole in holes:
            found = self.secret(hole)
            if found is not None and not (isinstance(text, ast.Template) and found[1] is None):
                return found
        return None


def _printed_diagnostic(what: str, local: str | None, part) -> Diagnostic:
    how = f"through the variable `{local}`, which a seat's reading cannot follow" if local else \
        "in a text built by an expression, not in a template's hole"
    return Diagnostic(
        TEXT_PRINTS_HIDDEN, f"this text prints {what}, {how}: every seat reads it as written", part.span,
        severity="warning",
        help="print it in a template's hole that reads it (`\"{p.coins}\"`, `\"{c.value}\"`), which a "
             "seat that may not see it reads as `?`, or word the text for everyone")


def _item_props(data: dict) -> set:
    """The names of the items' properties (printed or state) the game's components declare."""
    out: set = set()
    for spec in (data.get("components") or {}).values():
        if not isinstance(spec, dict):
            continue
        for key in ("props", "state", "generate"):
            out.update(spec.get(key) or {} if isinstance(spec.get(key), dict) else ())
        for item in spec.get("items") or ():
            out.update(k for k in (item if isinstance(item, dict) else ()) if k != "id")
    return out


def _told_to_all(tree):
    """The texts of ``tree`` every seat is told: options' labels and ``says``, ``log`` texts."""
    for node in ast.walk(tree):
        texts = (node.label, node.says) if isinstance(node, ast.Option) else \
            node.args[:1] if isinstance(node, ast.Call) and node.func == "log" else ()
        yield from (text for text in texts if text is not None)


def _walk(tree, skip):
    """The nodes of ``tree``, parents first, but none of a node for which ``skip(node)`` holds."""
    stack = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(reversed(item))
        elif isinstance(item, ast.Node) and not skip(item):
            yield item
            stack.extend(reversed([getattr(item, name) for name in fields(item.__class__)]))


def _uncounted(expr):
    """The nodes of ``expr`` but those inside a ``count(...)``."""
    return _walk(expr, lambda node: isinstance(node, ast.Call) and node.func == "count")


def _without_other_options(tree, option):
    """The nodes of ``tree`` but those of its other options (whose variables may share a name)."""
    return _walk(tree, lambda node: isinstance(node, ast.Option) and node is not option)


class _Option:
    """One option: its hidden variables (name -> the secret zone they come from) and whether its
    body shows them."""

    def __init__(self, zones: Zones, own: set):
        self.zones, self.own = zones, own
        self.hidden: dict[str, str] = {}

    def secret_in(self, expr, counted: bool = True) -> str | None:
        """The secret zone ``expr`` reads (directly or through a hidden variable), or None.
        ``counted`` False: what is only counted (``count(xs)``, public as a zone's count is) is
        not read."""
        nodes = ast.walk(expr) if counted else _uncounted(expr)
        for node in nodes:
            if isinstance(node, ast.Attr) and node.name in self.zones.secret_player:
                return node.name
            if isinstance(node, ast.Name):
                if node.id in self.hidden:
                    return self.hidden[node.id]
                if id(node) not in self.own and node.id in self.zones.secret_global:
                    return node.id
        return None

    def leak(self, option, tree) -> Diagnostic | None:
        """RK0390 for ``option`` of ``tree`` (the text holding it), or None. An option's variables keep
        their values after the ``choose``, so the whole text is searched for what shows them, through
        the names the option's body gives them (``card = c``)."""
        for name, coll in option.fors:
            zone = self.secret_in(coll.value if isinstance(coll, ast.Let) else coll)
            if zone is not None:
                self.hidden[name] = zone
        if not self.hidden:
            return None
        for node in ast.walk(option.body):
            if isinstance(node, ast.Assign) and isinstance(node.target, ast.Name):
                zone = self.secret_in(node.value)
                if zone is not None:
                    self.hidden[node.target.id] = zone
        if self.shown(tuple(_without_other_options(tree, option))):
            return None
        text = option.says if option.says is not None else option.label
        zone = self._named(text)
        if zone is None:
            return None
        what = "`says`" if option.says is not None else "label"
        vis = self.zones.secret_player.get(zone) or self.zones.secret_global.get(zone)
        return Diagnostic(
            LABEL_NAMES_HIDDEN, f"this option's {what} names an item of `{zone}` ({vis}), or what is printed on it, "
            "which other players may not see, and the option never shows it: other seats read only its kind", text.span,
            help="word it for everyone with `says \"...\"` (a count, not the items), or show the item",
            severity="warning")

    def told(self, option, tree) -> dict:
        """The secret zones (name -> visibility) whose items ``option``'s body stores a value of in
        a variable, the items not shown; empty when none."""
        for name, coll in option.fors:
            zone = self.secret_in(coll.value if isinstance(coll, ast.Let) else coll)
            if zone is not None:
                self.hidden[name] = zone
        stored = []
        for node in ast.walk(option.body):
            if isinstance(node, ast.Assign) and isinstance(node.target, ast.Name) and id(node.target) in self.own:
                zone = self.secret_in(node.value)
                if zone is not None:
                    self.hidden[node.target.id] = zone      # a local holding the item (or a value of it)
            elif isinstance(node, (ast.Assign, ast.AugAssign)) and not _face_up(node.target):
                zone = self.secret_in(node.value)
                if zone is not None:
                    stored.append(zone)
        if not stored or self.shown(tuple(_without_other_options(tree, option))):
            return {}
        return {zone: self.zones.secret_player.get(zone) or self.zones.secret_global[zone] for zone in stored}

    def _named(self, text) -> str | None:
        if not isinstance(text, ast.Template):
            return None
        for part in text.parts:
            if not isinstance(part, str):
                zone = self.secret_in(part, counted=False)
                if zone is not None:
                    return zone
        return None

    def shown(self, nodes: tuple) -> bool:
        """Whether one of ``nodes`` moves a hidden variable's item to a public zone or turns it face up."""
        for node in nodes:
            if isinstance(node, ast.For) and self.secret_in(node.iter) is not None:
                self.hidden[node.var] = self.secret_in(node.iter)
        for node in nodes:
            if isinstance(node, ast.Call) and node.func == "move" and node.args:
                to = dict(node.kwargs).get("to", node.args[1] if len(node.args) > 1 else None)
                if self.secret_in(node.args[0]) is not None and to is not None and self._public(to):
                    return True
            if isinstance(node, ast.Assign) and isinstance(node.target, ast.Attr) \
                    and node.target.name == "face_up" and self.secret_in(node.target.obj) is not None:
                return True
        return False

    def _public(self, expr) -> bool:
        for node in ast.walk(expr):
            if isinstance(node, ast.Attr) and node.name in self.zones.public_player:
                return True
            if isinstance(node, ast.Name) and node.id in self.zones.public_global:
                return True
        return False


def telling_options(data: dict, texts: dict) -> dict:
    """Option span -> the secret zones (name -> visibility) an item of which the option's body
    stores a value of in a variable (``p.score += t.value`` with ``t`` from an ``owner`` hand,
    ``p.score += top(pool).value`` with ``pool`` hidden) without showing the item: a public
    number that changes by it tells the seats what they may not see. ``rulekit play``'s undo
    does not go back past such an action (view/play.py). What an option's body calls in a
    procedure is not followed (as for RK0390)."""
    zones = Zones(data)
    out: dict = {}
    if not zones.secret_global and not zones.secret_player:
        return out
    for tree in texts.values():
        own = {id(node) for node, scope in names(tree) if scope == OWN}
        for node in ast.walk(tree):
            if isinstance(node, ast.Option) and node.span is not None:
                found = _Option(zones, own).told(node, tree)
                if found:
                    out[(str(node.span.path), node.span.line, node.span.column)] = found
    return out
