# SPDX-License-Identifier: MIT
"""What one seat may read of a text: the items hidden from it named by their kind only.

Labels, ``says`` and ``log`` texts, prompts and captions are written once, for the omniscient
log (``keep x-3 y-7``). A seat reads them through :class:`Sight`: every word of the
text that is the id of an item the seat may not see is replaced, a run of such ids at a time,
by a count of their kinds (``keep 2 secrets``, ``secret`` a kind). Which items a seat may not see is read off the
state as ``view`` reads it (the zones' declared visibility, ``face_up``), at run time and only
when a per-seat text is asked for: random play and bots never pay for it.

A text about an action (its label, its ``says``, what its events say) is read against the
state before the action *and* after it: an item the seat saw in either (an item played from a
hand to the table, or taken from an open market into a hand) is named, an item hidden
from it in both is not. The log itself is never changed: redaction is of what is shown.

A value a template's hole prints (``"{p} has {p.coins} coins"``) is not a word the text can be
read for: the compiled template (dsl/compiler.py, ``x_Template``) writes such a text with
:func:`marked`, which returns it as a :class:`Marked` text when a hole printed a value some seat
may not see (a player's ``owner`` or ``hidden`` variable, a hidden global one, a property of an
item, which the seat may not see where it lies): the same characters, equal to and printed as the
plain text (the log, scripts and replays read nothing else), carrying the spans of those holes and
who may read them. A :class:`Sight` reads each such span it may not read as ``?``.
"""
from __future__ import annotations

import re
import weakref

import yaml

from .library import checked_text
from .state import PLAYERS, Player, ZoneKey

_WORD = re.compile(r"[\w-]+")
_JOINT = re.compile(r"\s*(?:,|\band\b|\s)\s*(?:and\s+)?")
_PATTERNS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_SECRETS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
MARK = "?"          # what a seat reads in place of a value printed in a text that it may not see


class Marked(str):
    """A text a template wrote with values some seat may not see: ``marks`` holds, for each hole
    that printed one, ``(start, end, seats, items)``: the seats that may read the span (None: any;
    empty: none) and the items a seat must see to read it. It is equal to, hashes and prints as its
    plain text (``str()`` of it is itself), so the log, notation and scripts never see the marks:
    only :meth:`Sight.text` reads them. A text built from it (``+``, ``join``) is a plain one."""

    def __str__(self):
        return self


def plain(value):
    """``value``, a :class:`Marked` text as its plain text (what content keeps in the state:
    the marks matter only to the per-seat reading of a label, a log line, a prompt)."""
    return str.__str__(value) if value.__class__ is Marked else value


for _dumper in (yaml.SafeDumper, yaml.Dumper):      # a log or script holding one is written as text
    _dumper.add_representer(Marked, _dumper.represent_str)


class _Secrets:
    """What a game declares hidden, as :func:`marked` asks it: player and global variables (name ->
    visibility) other than public, and whether any zone but the box keeps items from some seat."""

    __slots__ = ("pvars", "gvars", "zones")

    def __init__(self, game):
        variables = game.variables
        self.pvars = {name: vis for name, vis in variables.pvis.items() if vis != "public"}
        self.gvars = {name for name, vis in variables.gvis.items() if vis != "public"}
        self.zones = any(vis != "public" for name, vis in game.board.zone_vis.items() if name != "box")


def _secrets(game) -> _Secrets:
    found = _SECRETS.get(game)
    if found is None:
        found = _SECRETS[game] = _Secrets(game)
    return found


def hides_values(game) -> bool:
    """Whether a template of ``game`` may print a value some seat may not see (:func:`marked` may
    return a :class:`Marked` text): a player or global variable not public, or a zone (the box
    aside) that keeps items from some seat."""
    secrets = _secrets(game)
    return bool(secrets.pvars or secrets.gvars or secrets.zones)


def _items_of(s, value) -> tuple:
    """The items ``value`` is or holds (an item, a list of them, a zone's)."""
    items = s.game.components.items
    kind = value.__class__
    if kind is str:
        return (value,) if value in items else ()
    if kind is ZoneKey:
        return tuple(s.zones[value])
    if kind is list or kind is tuple:
        return tuple(v for v in value if v.__class__ is str and v in items)
    return ()


def marked(s, parts: tuple, holes: tuple, values: tuple) -> str:
    """The text of a template (``parts``, each hole printed), marked where a hole printed a value
    some seat may not see (a :class:`Marked` text), else plain. ``holes``: ``(index of the part,
    sources)`` for each hole that may, each source ``(what, name, k)`` with ``values[k]`` its value
    (k < 0: none): ``"attr"`` the variable or property ``name`` of the value (a seat's variable,
    an item's property), ``"var"`` a player variable of a seat the compiler could not tell,
    ``"global"`` a global variable, ``"items"`` the items the value is or holds. Written by the
    compiler only for a template a hole of which reads one of those (dsl/compiler.py,
    ``x_Template``); which of them a seat may not see is the game's to say, read here."""
    text = "".join(parts)
    if len(parts) > 1:
        checked_text(text)
    secrets = _secrets(s.game)
    marks = []
    start = 0
    at = {}
    for index, part in enumerate(parts):
        at[index] = start
        start += len(part)
    for index, sources in holes:
        seats = None
        items: tuple = ()
        for what, name, k in sources:
            value = values[k] if k >= 0 else None
            if what == "global":
                if name in secrets.gvars:
                    seats = frozenset()
            elif what == "var" or (what == "attr" and value.__class__ is Player):
                vis = secrets.pvars.get(name)
                if vis == "owner" and what == "attr":
                    seats = frozenset((value,)) if seats is None else seats & {value}
                elif vis is not None:
                    seats = frozenset()
            elif secrets.zones:
                items += _items_of(s, value)
        if seats is not None or items:
            marks.append((at[index], at[index] + len(parts[index]), seats, items))
    if not marks:
        return text
    out = Marked(text)
    out.marks = tuple(marks)
    return out


def hidden_items(s, seat: int | None) -> frozenset:
    """The ids of the items ``seat`` (None: a spectator) may not see where they lie in ``s``."""
    game = s.game
    vis_of = game.board.zone_vis
    face_up = None
    hidden = []
    for item, key in s.loc.items():
        vis = vis_of.get(key.name, "public")
        if vis == "public" or (vis == "owner" and seat is not None and key.owner == seat):
            continue
        if vis == "face_up":
            if face_up is None:
                face_up = s.iprops.get("face_up", {}), game.components.prop_defaults.get("face_up")
            if face_up[0].get(item, face_up[1]):
                continue
        hidden.append(item)
    return frozenset(hidden)


def _pattern(game):
    """The words a text is read in: the game's ids that are not plain words first, then words."""
    pattern = _PATTERNS.get(game)
    if pattern is None:
        odd = sorted((i for i in game.components.items if not _WORD.fullmatch(i)), key=len, reverse=True)
        alternatives = [rf"(?<![\w-]){re.escape(i)}(?![\w-])" for i in odd] + [_WORD.pattern]
        pattern = _PATTERNS[game] = re.compile("|".join(alternatives))
    return pattern


def names_an_item(game, text: str) -> bool:
    """Whether ``text`` names an item of the game, read in the words :func:`redact` reads."""
    items = game.components.items
    return any(match.group() in items for match in _pattern(game).finditer(text))


def _counted(kinds: list[str]) -> str:
    """``a secret``, ``2 secrets``, ``a secret and 2 items``: what a run of hidden ids of those
    kinds reads."""
    counts: dict[str, int] = {}
    for kind in kinds:
        counts[kind] = counts.get(kind, 0) + 1
    parts = []
    for kind, n in counts.items():
        if n == 1:
            parts.append(("an " if kind[:1].lower() in "aeiou" else "a ") + kind)
        else:
            parts.append(f"{n} {kind}s")
    return " and ".join(parts)


def redact(game, text: str, hidden) -> str:
    """``text`` with every run of ids in ``hidden`` replaced by a count of their kinds."""
    if not text or not hidden:
        return text
    kinds = game.components.item_kind
    out: list[str] = []
    run: list[str] = []         # kinds of the hidden ids of the current run
    end = 0                     # where the text not yet copied starts
    for match in _pattern(game).finditer(text):
        word = match.group()
        if word not in hidden:
            continue
        if run and _JOINT.fullmatch(text, end, match.start()):
            run.append(kinds.get(word, "item"))
        else:
            if run:
                out.append(_counted(run))
            out.append(text[end:match.start()])
            run = [kinds.get(word, "item")]
        end = match.end()
    if not run:
        return text
    out.append(_counted(run))
    out.append(text[end:])
    return "".join(out)


class Sight:
    """What one seat may read of one moment of a game (a state, or an action between two
    states): ``hidden`` the items it saw in neither. ``seat`` None is a spectator; ``full``
    reads everything (the omniscient log, ``--full``)."""

    __slots__ = ("game", "seat", "hidden", "full")

    def __init__(self, game, seat: int | None, hidden=frozenset(), full: bool = False):
        self.game, self.seat, self.hidden, self.full = game, seat, hidden, full

    @classmethod
    def of(cls, s, seat: int | None, full: bool = False, before=None) -> Sight:
        """The sight of ``seat`` on ``s``; ``before``: the items hidden from it before the action
        that led to ``s`` (:func:`hidden_items` of the earlier state), so that only what it saw
        in neither is hidden."""
        if full:
            return cls(s.game, seat, full=True)
        hidden = hidden_items(s, seat)
        if before is not None:
            hidden = hidden & before
        return cls(s.game, seat, hidden)

    def text(self, text: str | None) -> str | None:
        """``text`` as this seat may read it: each value printed in it that the seat may not see
        (:class:`Marked`) read ``?``, each item id hidden from it by its kind."""
        if text is None:
            return None
        return redact(self.game, self.unmarked(text), self.hidden)

    def unmarked(self, text: str) -> str:
        """``text`` with each value printed in it that this seat may not see read ``?`` (the item
        ids in it as they are)."""
        if text.__class__ is not Marked or self.full:
            return text
        out = []
        end = 0
        seat, hidden = self.seat, self.hidden
        for start, stop, seats, items in text.marks:
            if (seats is None or seat in seats) and not any(item in hidden for item in items):
                continue
            out.append(text[end:start])
            out.append(MARK)
            end = stop
        out.append(text[end:])
        return "".join(out)

    def action(self, who: int, label: str, says: str | None = None) -> str:
        """The line of an action: its ``says`` or ``pK label``, as this seat may read it."""
        return self.text(says) if says else f"{PLAYERS[who]} {self.text(label)}"

    def blind(self, label: str) -> bool:
        """Whether ``label`` names an item hidden from this seat (an option of a blind pick), or
        prints a value it may not see."""
        return (bool(self.hidden) or label.__class__ is Marked) and self.text(label) != label

    def labels(self, labels) -> list[str]:
        """The options as the deciding seat may read them, still told apart: options that read
        the same once redacted (a blind pick among hidden items) are numbered in their order."""
        shown = [self.text(label) for label in labels]
        if len(set(shown)) == len(shown):
            return shown
        seen: dict[str, int] = {}
        for text in shown:
            seen[text] = seen.get(text, 0) + 1
        count: dict[str, int] = {}
        out = []
        for text in shown:
            if seen[text] > 1:
                count[text] = count.get(text, 0) + 1
                text = f"{text} (#{count[text]})"
            out.append(text)
        return out


def revealed(s, seat: int, events, hidden_before) -> str | None:
    """Why the events of one action, ending in state ``s``, showed a seat (``hidden_before``: the
    items hidden from it before the action) something it could not know, in words, or None: a
    shuffle, a roll, a draw from a hidden pile (a global zone), an item hidden from it before that
    it sees now (drawn into its hand, turned face up). ``rulekit play``'s undo never goes back past
    such an action, since doing it again would show the same thing again."""
    now_hidden = None
    for event in events:
        kind = event[0]
        if kind == "shuffle":
            return f"it shuffled {event[1]}"
        if kind == "roll":
            return f"it rolled {event[1]}"
        if kind not in ("move", "prop") or event[1] not in hidden_before:
            continue
        if kind == "move" and "." not in event[2].partition("[")[0]:
            return f"it drew from {event[2]}, which you could not see"
        if now_hidden is None:
            now_hidden = hidden_items(s, seat)
        if event[1] not in now_hidden:
            return "it showed you an item you could not see before"
    return None
