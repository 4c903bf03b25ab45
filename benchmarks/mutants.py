#!/usr/bin/env python
# SPDX-License-Identifier: MIT
"""Mutation testing of a game's rule scripts: break one rule at a time, see which script notices.

    python benchmarks/mutants.py GAME [--sample N] [--seed S] [--jobs J] [--only FILE] [--match TEXT]
                                      [--family all|text|names] [--list] [--json]

GAME is a shipped game's name or a game folder. The harness reads the game's content files (every
``*.yaml`` of the folder but those holding only bots, narration, rendering or the bots' estimate and
search, and every variant of ``variants/``), and writes single-rule mutants of them, at the text
level, one at a time into a scratch copy of the folder: a number in params, tables or components ±1
or another value of the same table, a boolean flipped, a zone's or variable's visibility changed, an
operator swapped inside effect-language text (``<``/``<=``, ``>``/``>=``, ``==``/``!=``,
``+``/``-``, ``+=``/``-=``, ``and``/``or``, ``true``/``false``, ``min``/``max``, a ``not`` dropped),
a number in code ±1, a statement line replaced by ``pass``, an ``if``/``elif``/``while`` condition
negated, a ``choose`` option's condition dropped (adds options) or negated, an item of a list
removed. These are the *text* family (``--family text``): the mutants the designer's command
``rulekit mutate`` plants, from its generator (``rulekit.batch.mutants``: the same rule files and
sections, the player counts left alone, each change read the same way), with this harness's
own operators among them (another value of a table, a visibility, a ``not`` dropped, a list's
item removed); the mutants are generated in one place, never copied here.

The *names* family (``--family names``) plants what another tester would: the right shape, the
wrong name, in the same code texts. A set's member written as a text (``'spy'``) becomes each other
member of its set; an item property's text value another value of that property; an attribute
(``p.ships``, ``x.company``) another the game declares of its kind (player variables, player zones,
a kind's props and state, a set's row fields); a global zone passed to a call (``to=discard``,
``count(deck)``, ``pile[c]``) another zone of its shape (plain, or a family); a call of a content
function, procedure or option group another of the same section and arity; a built-in's optional
keyword argument (``stream="setup"``, ``n=2``) dropped, and a keyword's ``top``/``bottom`` swapped.
The names come from the game as rulekit loads it (under the variant, for a variant's file). To
bound the count, one occurrence takes one or two of the nearest names in declaration order
(``CAPS``), the occurrences of a name in a file taking the nearest ones in turn. ``--family all``
(the default) lists the text family first, then the names family.

The same arguments give the same mutants in the same order; ``--sample N`` keeps N of them, drawn
with ``--seed``; ``--only FILE`` mutates one file (``rules.yaml``, ``variants/pro.yaml``); ``--match
TEXT`` keeps the mutants whose printed change holds TEXT; ``--survivors FILE`` keeps those an
earlier run's ``--json`` output says survived (to check the scripts written for them); ``--list``
prints them and stops.

Each mutant is then sorted into one of:

- *refused*: the mutant (or a variant a script uses, when one is needed before a script
  kills the mutant) no longer loads: ``rulekit validate`` would refuse it, so nobody can play it;
- *killed*: some rule script fails against it (the scripts of ``faq/`` and ``scenarios/``, run
  as ``rulekit run`` runs them, but the full-game ones: named ``full-game-*``, or with no
  ``expect``/``legal``/``refuse``/``score``/``over``/``sees`` step);
- *equivalent*: it changes nothing anyone can observe. On the same seeds and actions (a few
  fixed random games: every player count, fixed seeds, the random agent of ``rulekit test``,
  under the variant too when the mutant is a variant's;
  and every script, full games included) every decision offers the same options to the same
  players, every player's view (``rulekit.engine.view.view``) is the same at every decision and
  at the end, and the results (and each script's outcome and checkpoints) are the same. Events
  that no view or option shows do not count: a changed log line, a shuffle of an empty pile, a
  value setup overwrites before anyone sees it. Views are compared by what they tell: a zone
  that names none of its items is its count, whether its visibility hides it (``{"count": 3}``)
  or shows only items face down (``["?", "?", "?"]``), and an empty zone is empty however it
  is shown;
- *survived*: it changes play, yet every rule script passes: a rule no script guards.

The score is killed / (killed + survived). Every survivor is printed with its file:line and
the change. Every scratch folder (a copy of the game and a ``RULEKIT_CACHE_DIR`` per worker)
lies in one folder ``rulekit-mutants-*`` of the temporary directory that the main process
deletes when it is done, however it ends (an error, Ctrl-C, SIGTERM, a worker killed); parsed
texts and compiled code are cached by their exact text, and the in-memory caches are dropped
after every mutant, so nothing of one mutant reaches the next.
"""
from __future__ import annotations

import argparse
import atexit
import contextlib
import functools
import hashlib
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time

import attrs
import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# ------------------------------------------------------------------ what is mutated

TABLES = {("sets",), ("tables",)}     # where a row's number may take another row's value
VISIBILITIES = ("public", "owner", "hidden", "face_up")
CHECK_STEPS = {"expect", "legal", "refuse", "score", "over", "sees"}
NOT = re.compile(r"\bnot\s+")


@functools.cache
def designer():
    """The designer's generator, the one ``rulekit mutate`` plants (``rulekit.batch.mutants``): the
    rule files, the sections that are rules, the mutants of numbers, flags, operators, statements
    and conditions, and how a mutant reads. This harness adds its own operators to it and the names
    family, never a second copy of it."""
    from rulekit.batch import mutants
    return mutants


@attrs.frozen
class Mutant:
    """One change: the text at [start, end) of ``file`` (relative to the game folder) becomes ``new``."""

    file: str
    line: int
    start: int
    end: int
    new: str
    op: str

    def designed(self):
        """The same change as the designer's generator holds it."""
        return designer().Mutant(self.file, self.line, (self.start, self.end), self.new, self.op)

    def apply(self, text: str) -> str:
        return self.designed().applied(text)

    def describe(self, text: str) -> str:
        """``file:line: op: the line before -> the line after`` (the first changed line)."""
        return self.designed().change(text)


def content_files(folder: str, only: str | None = None) -> list[str]:
    """The game's rule files, as ``rulekit mutate`` finds them (every YAML file of the folder holding
    a section that is a rule, then every variant's: a variant's rules are rules like the game's),
    or only ``only`` (``rules.yaml``, ``variants/pro.yaml``)."""
    return [name for name in designer().rule_files(folder) if not only or only in (name, os.path.basename(name))]


def variant_of(file: str) -> tuple:
    """The variant set a mutant of ``file`` is played under: ``(name,)`` for ``variants/NAME.yaml``."""
    head, name = os.path.split(file)
    return (os.path.splitext(name)[0],) if head == "variants" else ()


FAMILIES = ("text", "names")


def mutants_of(folder: str, only: str | None = None, family: str = "all") -> list[Mutant]:
    """Every mutant of the game in ``folder`` of ``family`` (``text``, ``names`` or ``all``):
    family by family (text first), then in file and text order. The text family is the designer's
    mutants with this harness's own operators (:func:`_walk`) among them."""
    out: list[Mutant] = []
    designed: dict = {}
    if family in ("all", "text"):
        for m in designer().mutants_of(folder):
            designed.setdefault(m.file, []).append((*m.span, m.new, m.op))
    for fam in FAMILIES:
        if family not in ("all", fam):
            continue
        for name in content_files(folder, only):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                text = f.read()
            root = yaml.compose(text, Loader=yaml.SafeLoader)
            found = (designed.get(name, []) + list(_walk(root, (), text)) if fam == "text"
                     else _named_walk(root, (), text, names_of(folder, variant_of(name))))
            out += _in_order(name, text, found)
    return out


def _in_order(name: str, text: str, found) -> list[Mutant]:
    """The mutants ``found`` of file ``name`` in text order, each change once."""
    out, seen = [], set()
    for start, end, new, op in sorted(found, key=lambda m: (m[0], m[1], m[3], m[2])):
        if (start, end, new) not in seen and text[start:end] != new:
            seen.add((start, end, new))
            out.append(Mutant(name, text.count("\n", 0, start) + 1, start, end, new, op))
    return out


def _walk(node, path: tuple, text: str):
    """(start, end, new text, op) for each mutant of ``node`` at ``path`` (keys and indexes) that
    the designer's generator does not plant: a table's number as another row's, a visibility
    changed, a list's item removed, a ``not`` dropped from code."""
    if path and path[0] in designer().NOT_RULES:
        return
    key = next((k for k in reversed(path) if isinstance(k, str)), None)
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value not in designer().PROSE:
                yield from _walk(v, path + (k.value,), text)
        if path[:1] in TABLES:
            yield from _table_values(node, path)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            yield from _walk(item, path + (i,), text)
        if key != "params":
            yield from _removals(node, text)
        if path[:1] in TABLES:
            yield from _sequence_values(node)
    elif isinstance(node, yaml.ScalarNode):
        start, end = node.start_mark.index, node.end_mark.index
        if key == "visibility" and node.value in VISIBILITIES:
            for other in VISIBILITIES:
                if other != node.value:
                    yield start, end, other, "visibility"
        elif key in designer().CODE and isinstance(node.value, str):
            code = designer()._code_only(text[start:end], node.style)     # strings and comments blanked
            for m in NOT.finditer(code):
                yield start + m.start(), start + m.end(), "", "drop not"


def _table_values(node, path: tuple):
    """A number of a table row (``tea: {majority: 10}``) replaced by the same column's value
    in the next row that differs by more than 1 (±1 is tried already)."""
    rows = [(k, v) for k, v in node.value if isinstance(v, yaml.MappingNode)]
    columns: dict = {}
    for _k, row in rows:
        for ck, cv in row.value:
            if isinstance(cv, yaml.ScalarNode) and cv.style is None and cv.tag.endswith(":int"):
                columns.setdefault(ck.value, []).append(cv)
    for cells in columns.values():
        yield from _other_values(cells)


def _sequence_values(node):
    cells = [v for v in node.value if isinstance(v, yaml.ScalarNode) and v.style is None and v.tag.endswith(":int")]
    if len(cells) == len(node.value):
        yield from _other_values(cells)


def _other_values(cells: list):
    for i, cell in enumerate(cells):
        value = int(cell.value, 0)
        for other in cells[i + 1:] + cells[:i]:
            if abs(int(other.value, 0) - value) > 1:
                yield cell.start_mark.index, cell.end_mark.index, other.value, "table value"
                break


def _removals(node, text: str):
    """Each item of a list removed: a flow list's item with its comma, a block list's lines."""
    items = node.value
    for i, item in enumerate(items):
        if node.flow_style:
            if i + 1 < len(items):
                yield item.start_mark.index, items[i + 1].start_mark.index, "", "remove list item"
            elif i > 0:
                yield items[i - 1].end_mark.index, item.end_mark.index, "", "remove list item"
            else:
                yield item.start_mark.index, item.end_mark.index, "", "remove list item"
        else:
            begin = text.rfind("\n", 0, item.start_mark.index) + 1
            stop = (text.rfind("\n", 0, items[i + 1].start_mark.index) + 1 if i + 1 < len(items)
                    else _line_end(text, item.end_mark.index))
            yield begin, stop, "", "remove list item"


def _line_end(text: str, index: int) -> int:
    """Just past the end of the line holding ``index`` (its start, when it is at a line start)."""
    if index > 0 and text[index - 1] == "\n":
        return index
    stop = text.find("\n", index)
    return len(text) if stop < 0 else stop + 1


# ------------------------------------------------------------------ the names family

def _code_mask(raw: str, style, strings: list | None = None) -> list:
    """True where ``raw`` is code: not a string literal, a comment, quotes or a block header.
    The [start, end) of each closed string literal's contents is added to ``strings``."""
    mask = [True] * len(raw)
    i, n = 0, len(raw)
    if style in ("|", ">"):
        head = raw.find("\n")
        for k in range(head + 1 if head >= 0 else n):
            mask[k] = False
        i = head + 1 if head >= 0 else n
    elif style in ('"', "'"):
        mask[0] = mask[-1] = False
        i, n = 1, n - 1
    outer = style if style in ('"', "'") else None
    while i < n:
        c = raw[i]
        if c == "\\" and outer == '"' and raw[i + 1:i + 2] == '"':     # \"...\" inside a "..." scalar
            close = raw.find('\\"', i + 2)
            stop = n if close < 0 else close + 2
            opened = i + 2
        elif c in "\"'" and c != outer:
            close = raw.find(c, i + 1)
            stop = n if close < 0 else close + 1
            opened = i + 1
        elif c == "#" and style == "|":
            close = raw.find("\n", i)
            stop = n if close < 0 else close
        else:
            i += 1
            continue
        for k in range(i, stop):
            mask[k] = False
        if strings is not None and c != "#" and close >= 0:
            strings.append((opened, close))
        i = stop
    return mask


ITEM_PROSE = {"id", "text", "provenance", "ruling", "copies"}     # an item's or set row's keys that are no attribute
# Replacements of one occurrence: (how many, among the nearest N in declaration order); the
# occurrences of a name in a file take them in turn, so that few mutants still try every one.
CAPS = {"attribute": (1, 3), "zone": (2, 3), "call": (1, 2), "prop value": (1, 3)}
WORD = re.compile(r"[A-Za-z_]\w*")


@attrs.frozen
class Names:
    """What a game declares, in declaration order, grouped by what may stand for what: the names
    a mutant of the names family swaps for one another."""

    sets: tuple         # each set's members
    values: tuple       # each item property's text values
    attributes: tuple   # player variables; player zones; each kind's props; each set's row props
    zones: tuple        # (plain global zones, zone families)
    calls: tuple        # content functions, procedures, option groups: by section and arity
    optional: dict      # a built-in's name -> the names of its optional parameters


@functools.cache
def names_of(folder: str, variants: tuple = ()) -> Names:
    """The names of the game in ``folder`` under ``variants``, from the data rulekit loads."""
    from rulekit.engine.library import REGISTRY
    from rulekit.errors import RulekitError
    from rulekit.games import load_game
    try:
        game = load_game(folder, variants)
    except RulekitError as exc:
        raise SystemExit(f"the unmutated game does not load: {_first_line(exc)}") from None
    data = game.data
    sets = data.get("sets") or {}
    player = data.get("player") or {}
    attributes = [tuple(player.get("vars") or ()), tuple(player.get("zones") or ())]
    attributes += [_attributes(kind.get("generate"), kind.get("props"), *(kind.get("items") or ()), kind.get("state"))
                   for kind in (data.get("components") or {}).values() if isinstance(kind, dict)]
    attributes += [_attributes(*members.values()) for members in sets.values() if isinstance(members, dict)]
    zones = data.get("zones") or {}
    families = tuple(z for z, d in zones.items() if isinstance(d, dict) and ("keys" in d or "range" in d))
    calls: dict = {}
    for section in ("functions", "procedures", "option_groups"):
        for name, d in (data.get(section) or {}).items():
            calls.setdefault((section, len((d or {}).get("params") or ())), []).append(name)
    values = [tuple(v for v in vs if isinstance(v, str)) for vs in game.components.prop_values.values()]
    return Names(sets=tuple(_members(m) for m in sets.values()), values=tuple(v for v in values if len(v) > 1),
                 attributes=tuple(a for a in attributes if a),
                 zones=(tuple(z for z in zones if z not in families), families),
                 calls=tuple(tuple(names) for names in calls.values()),
                 optional={name: tuple(n for n, _ in b.optional) for name, b in REGISTRY.items()})


def _members(value) -> tuple:
    if isinstance(value, dict):
        return tuple(value)
    return tuple(x for x in value or () if isinstance(x, str))


def _attributes(*parts) -> tuple:
    """The keys of ``parts`` (mappings) that may be read as an attribute, each once, in order."""
    keys = [k for part in parts if isinstance(part, dict) for k in part if k not in ITEM_PROSE]
    return tuple(dict.fromkeys(keys))


def _nearest(groups: tuple, name: str, cap: int | None = None) -> list:
    """The other names of every group holding ``name``, nearest in declaration order first
    (then the earlier one), at most ``cap``."""
    out: list = []
    for group in groups:
        if name in group:
            at = group.index(name)
            out += sorted((g for g in group if g != name), key=lambda g: (abs(group.index(g) - at), group.index(g)))
    return list(dict.fromkeys(out))[:cap]


def _pick(groups: tuple, name: str, op: str, seen: dict) -> list:
    """The replacements of this occurrence of ``name`` (see CAPS)."""
    many, among = CAPS[op]
    near = _nearest(groups, name, among)
    turn = seen[op, name] = seen.get((op, name), -1) + 1
    return [near[(turn + i) % len(near)] for i in range(min(many, len(near)))]


def _named_walk(node, path: tuple, text: str, names: Names, seen: dict | None = None):
    """The names family's mutants of the code scalars of ``node``: the places ``_walk`` mutates code."""
    seen = {} if seen is None else seen
    if path and path[0] in designer().NOT_RULES:
        return
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value not in designer().PROSE:
                yield from _named_walk(v, path + (k.value,), text, names, seen)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            yield from _named_walk(item, path + (i,), text, names, seen)
    elif isinstance(node, yaml.ScalarNode) and node.tag.endswith(":str"):
        key = next((k for k in reversed(path) if isinstance(k, str)), None)
        if key in designer().CODE:
            yield from _names(text, node.start_mark.index, node.end_mark.index, node.style, names, seen)


def _names(text: str, start: int, end: int, style, names: Names, seen: dict) -> list:
    """The code at [start, end) of ``text`` with one name changed: a set member written as a text,
    an attribute, a zone passed to a call, a content call, a built-in's optional keyword."""
    raw = text[start:end]
    strings: list = []
    mask = _code_mask(raw, style, strings)
    opener = _openers(raw, mask)
    out = [m for a, b in strings for m in _member(raw, a, b, opener, names, seen)]
    for m in WORD.finditer(raw):
        a, b = m.span()
        if not all(mask[a:b]):
            continue
        word = m.group(0)
        if a and raw[a - 1] == "." and mask[a - 1]:
            out += [(a, b, other, "attribute") for other in _pick(names.attributes, word, "attribute", seen)]
        elif _next(raw, b) == "(":
            out += [(a, b, other, "call") for other in _pick(names.calls, word, "call", seen)]
        elif _next(raw, b) == "=" and _next(raw, raw.index("=", b) + 1) != "=":
            out += _keyword(raw, mask, opener, a, b, names)
        elif any(word in group for group in names.zones) and _is_argument(raw, opener, a, b):
            out += [(a, b, other, "zone") for other in _pick(names.zones, word, "zone", seen)]
    return [(start + a, start + b, new, op) for a, b, new, op in out]


def _member(raw: str, a: int, b: int, opener: list, names: Names, seen: dict) -> list:
    """A text literal at [a, b) naming a set's member, as each other member of the set, or an item
    property's value, as another value of it (but in a log line or an option's label)."""
    word = raw[a:b]
    if not any(word in group for group in names.sets + names.values):
        return []
    line = raw[raw.rfind("\n", 0, a) + 1:a - 1].strip()
    stop = raw.find("\n", b)
    label = not line and opener[a] < 0 and raw[b:stop if stop >= 0 else len(raw)].rstrip().endswith(":")
    if line.startswith("log(") or label:
        return []
    if any(word in group for group in names.sets):
        return [(a, b, name, "set member") for name in _nearest(names.sets, word)]
    return [(a, b, name, "prop value") for name in _pick(names.values, word, "prop value", seen)]


def _keyword(raw: str, mask: list, opener: list, a: int, b: int, names: Names) -> list:
    """A keyword argument at [a, b) (its name) of a call: dropped when the built-in called takes
    it as optional; its value ``top``/``bottom`` swapped."""
    paren = opener[a]
    if paren < 0 or raw[paren] != "(" or _previous_word(raw, a) == "let":
        return []
    k = raw.index("=", b) + 1
    while k < len(raw) and not (mask[k] and opener[k] == paren and raw[k] in ",)"):
        k += 1
    out = []
    value = raw[raw.index("=", b) + 1:k]
    word = value.strip().strip("\"'")
    if word in ("top", "bottom"):
        at = raw.index(word, raw.index("=", b) + 1)
        out.append((at, at + len(word), "bottom" if word == "top" else "top", "top/bottom"))
    if raw[a:b] in names.optional.get(_previous_word(raw, paren), ()):
        before = raw[:a].rstrip()
        if before.endswith(","):                # `f(x, at=bottom)` -> `f(x)`
            out.append((len(before) - 1, k, "", "drop keyword"))
        else:                                   # `f(at=bottom, n=2)` -> `f(n=2)`
            stop = k + 1 if k < len(raw) and raw[k] == "," else k
            while stop > k and stop < len(raw) and raw[stop] in " \t":
                stop += 1
            out.append((a, stop, "", "drop keyword"))
    return out


def _is_argument(raw: str, opener: list, a: int, b: int) -> bool:
    """The name at [a, b) is a whole argument of a call (``f(x, NAME)``, ``to=NAME``) or one
    indexed there (``NAME[k]``)."""
    before = raw[:a].rstrip()
    if opener[a] < 0 or raw[opener[a]] != "(" or not before or before[-1] not in "(,=":
        return False
    return (before[-1] != "=" or before[-2:-1] not in tuple("=!<>+-*/")) and _next(raw, b) in tuple("),[")


def _openers(raw: str, mask: list) -> list:
    """For each character of ``raw``, where the innermost bracket still open before it opened (-1: none)."""
    stack: list = []
    out = []
    for k, c in enumerate(raw):
        out.append(stack[-1] if stack else -1)
        if mask[k] and c in "([":
            stack.append(k)
        elif mask[k] and c in ")]" and stack:
            stack.pop()
    return out


def _next(raw: str, k: int) -> str:
    """The first character at or after ``k`` that is not blank ("" at the end)."""
    rest = raw[k:k + 200].lstrip()
    return rest[:1]


def _previous_word(raw: str, k: int) -> str:
    """The word just before ``k`` (blanks skipped), or ""."""
    stop = len(raw[:k].rstrip())
    begin = stop
    while begin and (raw[begin - 1].isalnum() or raw[begin - 1] == "_"):
        begin -= 1
    return raw[begin:stop]


# ------------------------------------------------------------------ running them

class Timeout(BaseException):
    """A step of a mutant's trial took too long (an endless loop the mutant made)."""


@contextlib.contextmanager
def time_limit(seconds: float):
    """Raise Timeout in the step after ``seconds``, and again each second after that: one raised
    where Python ignores exceptions (a weakref callback, a ``__del__``) is only printed, and the
    endless loop would go on."""
    def ring(_signum, _frame):
        raise Timeout()
    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@attrs.frozen
class Script:
    path: str
    variants: tuple
    rule: bool          # a rule script (checks something), not a full game


def scripts_of(folder: str) -> list[Script]:
    """The game's scripts in ``faq/`` and ``scenarios/``, sorted, with the variants they use."""
    out = []
    for sub in ("faq", "scenarios"):
        here = os.path.join(folder, sub)
        if not os.path.isdir(here):
            continue
        for name in sorted(os.listdir(here)):
            if not name.endswith(".yaml"):
                continue
            path = os.path.join(here, name)
            with open(path, encoding="utf-8") as f:
                data = yaml.safe_load(f) or {}
            steps = {next(iter(s)) for s in data.get("actions") or () if isinstance(s, dict) and s}
            rule = not name.startswith("full-game-") and bool(steps & CHECK_STEPS)
            out.append(Script(path, tuple(str(v) for v in data.get("variants") or ()), rule))
    return out


class Refused(Exception):
    """The mutant (or a variant set a script uses) does not load."""


class Games(dict):
    """{variants: Game}, each loaded when first asked for: a mutant a script of the game kills
    needs no variant compiled."""

    def __init__(self, trial):
        super().__init__()
        self.trial = trial

    def __missing__(self, variants: tuple):
        self[variants] = game = self.trial.load_one(variants)
        return game


class Trial:
    """One worker: a scratch copy of the game, the baseline of the unmutated game, and the trial
    of a mutant against it."""

    def __init__(self, folder: str, scripts: list, random_games: list, timeout: float, root: str):
        self.original = folder
        self.scratch = tempfile.mkdtemp(prefix="worker-", dir=root)
        self.folder = os.path.join(self.scratch, os.path.basename(os.path.abspath(folder)))
        shutil.copytree(folder, self.folder, ignore=shutil.ignore_patterns("scenarios", "faq", "__snapshots__"))
        os.environ["RULEKIT_CACHE_DIR"] = os.path.join(self.scratch, "cache")
        self.scripts, self.random_games, self.timeout = scripts, random_games, timeout
        self.cap = 100_000
        self.order = [s for s in scripts if s.rule]     # the last one to kill a mutant first
        variants = [variant_of(name) for name in content_files(folder) if variant_of(name)]
        try:
            games = self.load(*variants)
        except Refused as exc:
            raise SystemExit(f"the unmutated game does not load: {exc}") from None
        self.base = self.observe(games, played=[()] + variants)
        failing = [s.path for s in scripts if s.rule and self.base["scripts"][s.path][0] != "ok"]
        if failing:
            raise SystemExit("scripts fail on the unmutated game: " + ", ".join(failing))
        self.cap = 3 * max([len(t) for ts in self.base["random"].values() for t in ts] + [100])

    def load(self, *played: tuple) -> Games:
        """The game under each variant set ``played`` (more are loaded as scripts ask for them)."""
        from rulekit.dsl import parse_cache
        parse_cache.forget()
        games = Games(self)
        for variants in played:
            games[variants]
        return games

    def load_one(self, variants: tuple):
        """The game under ``variants``; Refused (with its first line) if it does not load."""
        from rulekit.errors import RulekitError
        from rulekit.games import load_game
        try:
            with time_limit(self.timeout):
                return load_game(self.folder, variants)
        except RulekitError as exc:
            raise Refused("refused: " + _first_line(exc)) from None
        except Exception as exc:  # a rulekit bug the mutant shows: reported apart
            raise Refused(f"load crashed ({type(exc).__name__}): {_first_line(exc)}") from None
        except Timeout:
            raise Refused("load timed out") from None

    def run(self, mutant: Mutant) -> dict:
        """The mutant's fate: refused, killed (by which scripts), equivalent or survived."""
        path = os.path.join(self.folder, mutant.file)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        started = time.perf_counter()
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(mutant.apply(text))
            played = [()] + ([variant_of(mutant.file)] if variant_of(mutant.file) else [])
            try:
                fate, why = self.judge(self.load(*played), played)
            except Refused as exc:
                fate, why = "refused", str(exc)
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        return {"mutant": attrs.asdict(mutant), "where": f"{mutant.file}:{mutant.line}",
                "change": mutant.describe(text), "fate": fate, "why": why,
                "seconds": round(time.perf_counter() - started, 3)}

    def judge(self, games: dict, played: list) -> tuple:
        """A mutant of a variant's file is played at random under that variant as well as the game.
        The rule script that last killed a mutant is tried first: neighbouring mutants tend to
        break the same rule (the script named is one that fails, not always the first in order)."""
        for s in self.order:           # the first rule script that fails kills the mutant
            if self.script(s, games[s.variants], watch=False)[0] != "ok":
                self.order.remove(s)
                self.order.insert(0, s)
                return "killed", [os.path.relpath(s.path, self.original)]
        seen = self.observe(games, played, self.base)
        if seen == {"scripts": self.base["scripts"], "random": {v: self.base["random"][v] for v in played}}:
            return "equivalent", None
        return "survived", self.difference(seen)

    def difference(self, seen: dict) -> str:
        """What differs from the unmutated game, briefly (where to look for the missing script)."""
        for variants, traces in seen["random"].items():
            under = f" under {'+'.join(variants)}" if variants else ""
            for (players, seed), a, b in zip(self.random_games, traces, self.base["random"][variants]):
                if a != b:
                    return f"random game {players}p seed {seed}{under} differs at decision {_first_difference(a, b)}"
        for path, got in seen["scripts"].items():
            base = self.base["scripts"][path]
            if got != base:
                where = (f"at decision {_first_difference(got[1], base[1])}" if got[0] == base[0] == "ok"
                         else f"({base[0]} -> {got[0]})")
                return f"script {os.path.relpath(path, self.original)} differs {where}"
        return "?"

    def observe(self, games: dict, played: list, base: dict | None = None) -> dict:
        """What the players could see of the game: every script's outcome and decisions, and
        fixed random games under each variant set ``played`` (each game cut short where it first
        differs from ``base``'s)."""
        def traces(variants):
            bases = base["random"][variants] if base else [None] * len(self.random_games)
            return [self.random_trace(games[variants], players, seed, was)
                    for (players, seed), was in zip(self.random_games, bases)]
        return {"scripts": {s.path: self.script(s, games[s.variants]) for s in self.scripts},
                "random": {variants: traces(variants) for variants in played}}

    def script(self, script: Script, game, watch: bool = True) -> tuple:
        """("ok", one digest per decision the script reached (when ``watch``), then its end:
        views, result, checkpoints), or the failure."""
        from rulekit.testing.script import run_script
        decisions: list = []
        try:
            with time_limit(self.timeout), (watching(decisions) if watch else contextlib.nullcontext()):
                result = run_script(script.path, game_override=game)
        except Timeout:
            return "timeout", None
        except Exception as exc:  # any failure fails the script, as `rulekit run` would
            return "failed", f"{type(exc).__name__}: {_first_line(exc)}"
        state = result.state
        checkpoints = {name: {seat: told(state.game, picture) for seat, picture in pictures.items()}
                       for name, pictures in result.checkpoints.items()}
        return "ok", decisions + [_digest([pictures(state), state.result, checkpoints])]

    def random_trace(self, game, players: int, seed: int, was: list | None = None) -> list:
        """A random game (``rulekit test``'s agent and seeds) as one digest per decision: who
        decides, every player's view (which holds the options of each one deciding), the option
        taken; then the result and every view. It stops at the first decision that differs from
        ``was`` (views cost most of a trial: a survivor need not pay for the rest)."""
        from rulekit.agents import RandomAgent
        from rulekit.engine import api
        trace: list = []
        try:
            with time_limit(self.timeout):
                state = api.new_game(game, players, seed, record=False)
                agent = RandomAgent(seed * 10 + players)
                while not state.over and len(trace) < self.cap:
                    index = agent.choose(state)
                    trace.append(decision(state, index))
                    if was is not None and (len(trace) > len(was) or trace[-1] != was[len(trace) - 1]):
                        return trace
                    api.apply_index(state, index, atomic=False)
                trace.append(_digest([state.result, pictures(state)]))
        except Timeout:
            trace.append("timeout")
        except Exception as exc:  # a mutant's error is a difference like any other
            trace.append(f"{type(exc).__name__}: {_first_line(exc)}")
        return trace


# ------------------------------------------------------------------ what players see

def decision(state, taken) -> str:
    """A decision as the players meet it: who decides, what every player is shown (the view
    lists the options of the player to move, and of each one deciding at once), what is taken."""
    from rulekit.engine import api
    return _digest([[str(p) for p in api.current_players(state)], pictures(state), taken])


def pictures(state) -> list:
    """Every player's view, as :func:`told` reads it."""
    from rulekit.engine.view import view
    return [told(state.game, view(state, i)) for i in range(state.n)]


def told(game, picture: dict) -> dict:
    """A view as what it tells: a zone's picture that names none of its items becomes its count
    (a hidden zone's ``{"count": 2}``, a face-up zone's ``["?", "?"]`` whose items all lie face
    down, an empty public zone's ``[]``: each tells how many, and only that)."""
    out = dict(picture)
    out["zones"] = {name: _told_zone(content) for name, content in picture["zones"].items()}
    zones = game.board.pzones
    out["players"] = {seat: {name: _told_zone(value) if name in zones else value for name, value in row.items()}
                      for seat, row in picture["players"].items()}
    return out


def _told_zone(content):
    if isinstance(content, list):
        return content if any(x != HIDDEN for x in content) else {"count": len(content)}
    if isinstance(content, dict) and "count" not in content:       # a family: a picture per space
        return {key: _told_zone(sub) for key, sub in content.items()}
    return content


HIDDEN = "?"        # what a view shows for an item face down (rulekit.engine.view.HIDDEN)


@contextlib.contextmanager
def watching(decisions: list):
    """Every decision a script meets, as :func:`decision` pictures it, with the action the script
    applies there (or asks to be refused): ``run_script`` plays the script's actions through
    ``rulekit.engine.api.apply``, which is wrapped while the script runs."""
    from rulekit.engine import api
    apply = api.apply

    def watched(state, action, *args, **kwargs):
        decisions.append(decision(state, [action, kwargs.get("player")]))
        return apply(state, action, *args, **kwargs)
    api.apply = watched
    try:
        yield
    finally:
        api.apply = apply


def _first_difference(a: list, b: list) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def _digest(value) -> str:
    return hashlib.sha256(json.dumps(value, default=str, sort_keys=True).encode()).hexdigest()[:16]


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [""])[0][:200]


_trial: Trial | Unusable | None = None


def _start_worker(folder, scripts, random_games, timeout, root):
    global _trial
    _trial = Trial(folder, scripts, random_games, timeout, root)


def _start_pool_worker(*setup):
    """A pool's worker; a baseline that fails is kept to be raised by its first task (an
    initializer that raises makes the pool start workers again for ever)."""
    global _trial
    signal.signal(signal.SIGTERM, signal.SIG_DFL)   # the pool ends its workers so; main()'s handler is not theirs
    try:
        _start_worker(*setup)
    except SystemExit as exc:
        _trial = Unusable(str(exc))


class Unusable(Exception):
    """The unmutated game does not load, or a rule script fails on it: nothing can be judged."""


def _run_one(mutant: Mutant) -> dict:
    if isinstance(_trial, Unusable):
        raise _trial
    return _trial.run(mutant)


def run_all(folder: str, mutants: list, jobs: int = 1, timeout: float = 10.0, seeds: int = 2,
            progress=None) -> list[dict]:
    """The fate of every mutant, in order. Every scratch folder lies in one folder that is
    deleted before this returns or raises (and at exit, should the process be stopped first)."""
    global _trial
    root = tempfile.mkdtemp(prefix="rulekit-mutants-")

    def remove():
        shutil.rmtree(root, ignore_errors=True)
    atexit.register(remove)
    cache = os.environ.get("RULEKIT_CACHE_DIR")
    try:
        return _run_in(root, folder, mutants, jobs, timeout, seeds, progress)
    finally:
        _trial = None
        remove()
        atexit.unregister(remove)
        if cache is None:
            os.environ.pop("RULEKIT_CACHE_DIR", None)
        else:
            os.environ["RULEKIT_CACHE_DIR"] = cache


def _run_in(root: str, folder: str, mutants: list, jobs: int, timeout: float, seeds: int, progress) -> list:
    from rulekit.games import load_game
    os.environ["RULEKIT_CACHE_DIR"] = os.path.join(root, "cache")
    game = load_game(folder)
    random_games = [(n, s) for n in range(game.min_players, game.max_players + 1) for s in range(1, seeds + 1)]
    setup = (folder, scripts_of(folder), random_games, timeout, root)
    if jobs <= 1:
        _start_worker(*setup)
        return [_report(_run_one(m), progress) for m in mutants]
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs, initializer=_start_pool_worker, initargs=setup) as pool:
        try:
            return [_report(r, progress) for r in pool.imap(_run_one, mutants)]
        except Unusable as exc:
            raise SystemExit(str(exc)) from None


def _report(result: dict, progress) -> dict:
    if progress:
        progress(result)
    return result


def summary(results: list, seconds: float) -> dict:
    counts = {fate: sum(r["fate"] == fate for r in results) for fate in ("refused", "equivalent", "killed", "survived")}
    judged = counts["killed"] + counts["survived"]
    return {"generated": len(results), **counts, "score": round(counts["killed"] / judged, 4) if judged else None,
            "seconds": round(seconds, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a shipped game's name or a game folder")
    parser.add_argument("--sample", type=int, default=0, metavar="N", help="try N mutants drawn at random (0: all)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of --sample")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--only", metavar="FILE", help="mutate this content file only (rules.yaml)")
    parser.add_argument("--match", metavar="TEXT", help="only the mutants whose change (as printed) contains TEXT")
    parser.add_argument("--survivors", metavar="FILE", help="only the survivors of an earlier run's --json output")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds for one load, script or random game")
    parser.add_argument("--family", choices=("all",) + FAMILIES, default="all",
                        help="text: syntactic mutants; names: a name swapped for another of its kind; all: both")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    from rulekit.games import find_game
    folder = os.path.abspath(find_game(args.game))
    mutants = mutants_of(folder, args.only, args.family)
    if args.match:
        mutants = [m for m in mutants if args.match in m.describe(_text(folder, m.file))]
    if args.survivors:      # matched by file and change, not line: scripts' edits may move lines
        with open(args.survivors, encoding="utf-8") as f:
            earlier = {_unlined(r["change"]) for r in json.load(f)["mutants"] if r["fate"] == "survived"}
        mutants = [m for m in mutants if _unlined(m.describe(_text(folder, m.file))) in earlier]
    if args.sample and args.sample < len(mutants):
        keep = sorted(random.Random(args.seed).sample(range(len(mutants)), args.sample))
        mutants = [mutants[i] for i in keep]
    if args.list:
        for m in mutants:
            print(m.describe(_text(folder, m.file)))
        return 0
    started = time.perf_counter()
    signal.signal(signal.SIGTERM, _stopped)     # so that run_all's `finally` deletes the scratch folders
    progress = None if args.quiet else _progress(len(mutants))
    results = run_all(folder, mutants, args.jobs, args.timeout, progress=progress)
    totals = summary(results, time.perf_counter() - started)
    if args.json:
        print(json.dumps({"game": args.game, **totals, "mutants": results}, indent=1))
    else:
        _print(totals, results)
    return 0


def _unlined(change: str) -> str:
    """``file:line: op: ...`` without the line number."""
    return re.sub(r"^([^:]+):\d+:", r"\1:", change)


def _stopped(signum, _frame):
    raise SystemExit(128 + signum)


@functools.cache
def _text(folder: str, name: str) -> str:
    with open(os.path.join(folder, name), encoding="utf-8") as f:
        return f.read()


def _progress(total: int):
    done = [0]

    def tick(result):
        done[0] += 1
        if result["fate"] == "survived":
            print(f"  [{done[0]}/{total}] survived: {result['change']}", file=sys.stderr, flush=True)
        elif done[0] % 25 == 0:
            print(f"  [{done[0]}/{total}]", file=sys.stderr, flush=True)
    return tick


def _print(totals: dict, results: list) -> None:
    score = "n/a" if totals["score"] is None else f"{100 * totals['score']:.1f}%"
    print(f"mutants generated {totals['generated']}, refused by validate {totals['refused']}, "
          f"equivalent {totals['equivalent']}, killed {totals['killed']}, survived {totals['survived']}; "
          f"score {score} (killed / (killed + survived)); {totals['seconds']} s")
    crashed = [r for r in results if r["fate"] == "refused" and "crashed" in r["why"]]
    for r in crashed:
        print(f"  load crashed (a rulekit bug?): {r['change']}: {r['why']}")
    survivors = [r for r in results if r["fate"] == "survived"]
    if survivors:
        print("survivors:")
    for r in survivors:
        print(f"  {r['change']}  [{r['why']}]")


if __name__ == "__main__":
    sys.exit(main())
