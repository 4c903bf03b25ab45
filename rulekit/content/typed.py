# SPDX-License-Identifier: MIT
"""Typed content: the values written in parameters and variables, checked at load.

A parameter (``params``) or a variable (``vars``, ``player.vars``) may declare
``type`` (``int``, ``bool``, ``text``, ``player``, ``any``, ``symbol``, ``symbol of
SET``, ``item``, ``item of KIND``, ``list``, ``list of TYPE``) and ``min``/``max``.
Without ``type`` the type is inferred from the value the *game* gives (before any
variant), so a variant that writes ``three`` where the game wrote ``8`` is caught at
the variant's line. A word is a set member or an item id: free text must say
``type: text``, so a misspelt symbol is never silently a string. Each problem is a
diagnostic at the value's ``file:line:col`` with "did you mean". Item properties are typed
by the same rules, per component kind (:mod:`properties`, codes of their own).
"""
from __future__ import annotations

from collections.abc import Iterator

import attrs

from ..codes import OUT_OF_BOUNDS_VALUE, UNKNOWN_SYMBOL, UNKNOWN_TYPE, VALUE_OF_WRONG_TYPE
from ..errors import Diagnostic, did_you_mean, suggestion_help
from .loader import SourceMap

BASE_TYPES = ("int", "bool", "text", "symbol", "item", "player", "list", "any")
ANNOTATIONS = ("text", "provenance", "ruling")
_NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                 "fifteen sixteen seventeen eighteen nineteen twenty").split()


@attrs.frozen
class Vocab:
    """What a word in a content value may be: set members and item ids (by kind)."""

    sets: dict          # set name -> member names
    items: dict | None  # item id -> kind, or None when the items could not be built
    reads: dict = attrs.Factory(dict)   # item property -> spans where the rules read it (properties.py)
    asked: frozenset = frozenset()      # item properties the rules ask about with `has`

    def member_of(self, word: str) -> str | None:
        return next((name for name, members in self.sets.items() if word in members), None)

    def words(self) -> set:
        out = {m for members in self.sets.values() for m in members}
        return out | set(self.items or ())


@attrs.frozen
class Declared:
    """One parameter or variable: where it is declared and what it says of its type."""

    what: str           # "parameter `rounds`", "player variable `score`"
    path: tuple         # its declaration's path in the merged content
    value_path: tuple   # the path of its value (``value``/``initial``, or the bare value)
    spec: dict          # its mapping (for a bare value, the game's own type, min and max)
    base: object        # the value the game itself gives (before variants), or _MISSING
    declared_in: str = "data"   # whose source map locates ``spec``'s keys: "data" or "base"
    codes: tuple = (VALUE_OF_WRONG_TYPE, UNKNOWN_SYMBOL)     # (a value of the wrong type, an unknown symbol)
    inferred_note: str = "its type is inferred from the game's own value; declare `type:` to say otherwise"


_MISSING = object()


def sets_of(data: dict) -> dict:
    """Set name -> member names, read from the content as model.py reads it."""
    out = {}
    for name, spec in (data.get("sets") or {}).items():
        if isinstance(spec, list):
            out[name] = tuple(str(m) for m in spec)
        elif isinstance(spec, dict):
            out[name] = tuple(str(m) for m in spec if m not in ANNOTATIONS)
    return out


def declarations(data: dict, base: dict) -> Iterator[Declared]:
    """Every parameter and variable of ``data``, with its value in ``base`` (the game before variants)."""
    sections = (("params", "parameter", "value"), ("vars", "variable", "initial"),
                ("player.vars", "player variable", "initial"))
    for section, noun, key in sections:
        path = tuple(section.split("."))
        for name, spec in (_dig(data, path) or {}).items():
            own = _dig(base, path + (name,), _MISSING)
            before = own.get(key, _MISSING) if isinstance(own, dict) else own
            if isinstance(spec, dict):
                yield Declared(f"{noun} `{name}`", path + (name,), path + (name, key), spec, before)
                continue
            # A bare value (a variant may replace the game's mapping by one) keeps the game's declaration.
            declared = {k: own[k] for k in ("type", "min", "max") if isinstance(own, dict) and k in own}
            yield Declared(f"{noun} `{name}`", path + (name,), path + (name,), declared, before, "base")


def _dig(data, path, default=None):
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return default
        data = data[key]
    return data


def check(data: dict, base: tuple[dict, SourceMap], smap: SourceMap, vocab: Vocab) -> list[Diagnostic]:
    """Diagnostics for every typed value of ``data`` (merged content) that is wrong;
    ``base`` is the game's own parameters and variables (before variants) with their map."""
    out: list[Diagnostic] = []
    for decl in declarations(data, base[0]):
        out.extend(_check_one(decl, data, smap, vocab, base[1] if decl.declared_in == "base" else smap))
    return out


def _check_one(decl: Declared, data: dict, smap: SourceMap, vocab: Vocab, spec_map: SourceMap) -> list[Diagnostic]:
    """The declaration's own problems (spans from ``spec_map``), then its value's."""
    spec = decl.spec
    out: list[Diagnostic] = []
    declared = spec.get("type")
    if declared is not None:
        problem = _type_problem(declared, vocab)
        if problem:
            return [Diagnostic(UNKNOWN_TYPE, problem[0], spec_map.span(decl.path + ("type",)), help=problem[1])]
    kind = declared or (infer(decl.base, vocab) if decl.base is not _MISSING else "any")
    out += _bounds(decl, kind, spec_map)
    if "expr" in spec:
        return out   # computed when a game starts: its type documents it, `rulekit test` checks the range
    value = _dig(data, decl.value_path)
    out += _value_problems(value, kind, decl, decl.value_path, smap, vocab, declared is None)
    if not out and isinstance(value, int) and not isinstance(value, bool):
        out += _range(decl, value, smap, spec_map)
    return out


def _type_problem(text, vocab: Vocab) -> tuple[str, str | None] | None:
    """Why ``text`` names no type (message, help), or None."""
    if not isinstance(text, str):
        return f"`{text}` is not a type", f"write one of {', '.join(BASE_TYPES)}"
    head, _, rest = text.partition(" of ")
    if head not in BASE_TYPES:
        return f"unknown type `{head}`", suggestion_help(head, BASE_TYPES) or f"write one of {', '.join(BASE_TYPES)}"
    if not rest:
        return None
    if head == "list":
        return _type_problem(rest, vocab)
    if head == "symbol" and rest not in vocab.sets:
        return f"unknown set `{rest}`", suggestion_help(rest, vocab.sets)
    if head == "item" and vocab.items is not None and rest not in set(vocab.items.values()):
        return f"unknown component kind `{rest}`", suggestion_help(rest, set(vocab.items.values()))
    if head not in ("symbol", "item"):
        return f"`{head}` takes no `of`", "only symbol, item and list name what they hold"
    return None


def infer(value, vocab: Vocab) -> str:
    """The type a value evidently has (``any`` for none, or for a word that is nothing known)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, list):
        kinds = {infer(v, vocab) for v in value}
        return f"list of {kinds.pop()}" if len(kinds) == 1 and "any" not in kinds else "list"
    if isinstance(value, str) and value != "none":
        member_set = vocab.member_of(value)
        if member_set:
            return f"symbol of {member_set}"
        if vocab.items and value in vocab.items:
            return f"item of {vocab.items[value]}"
    return "any"


def _value_problems(value, kind: str, decl: Declared, path: tuple, smap: SourceMap, vocab: Vocab,
                    inferred: bool) -> list[Diagnostic]:
    """What is wrong with ``value`` as a ``kind`` (recursing into lists)."""
    if value is None or value == "none":
        if kind in ("int", "bool"):
            return [_wrong(decl, path, smap, f"expected {_noun(kind)}, got none", inferred)]
        return []
    head, _, rest = kind.partition(" of ")
    if head == "list" or (head == "any" and isinstance(value, list)):
        if not isinstance(value, list):
            return [_wrong(decl, path, smap, f"expected a list, got {_shown(value)}", inferred)]
        inner = rest or "any"
        return [d for i, v in enumerate(value)
                for d in _value_problems(v, inner, decl, path + (i,), smap, vocab, inferred)]
    if head in ("int", "bool"):
        if _is(value, head):
            return []
        if head == "int" and isinstance(value, float):
            return [_wrong(decl, path, smap, f"expected an integer, found {value!r}", inferred, _float_help(value))]
        help_ = _number_help(value) if head == "int" else None
        return [_wrong(decl, path, smap, f"expected {_noun(head)}, got {_shown(value)}", inferred, help_)]
    if not isinstance(value, str):
        if head == "any":
            return []
        return [_wrong(decl, path, smap, f"expected {_noun(kind)}, got {_shown(value)}", inferred)]
    return _word_problems(value, head, rest, decl, path, smap, vocab, inferred)


def _word_problems(value: str, head: str, rest: str, decl: Declared, path: tuple, smap: SourceMap,
                   vocab: Vocab, inferred: bool) -> list[Diagnostic]:
    """A word as a text, a symbol (of a set), an item (of a kind) or a value of any type."""
    if head == "text":
        return []
    if head == "player":
        return [_wrong(decl, path, smap, f"expected a player, got {_shown(value)}", inferred,
                       "content cannot name a seat; start with none and assign a player in the rules")]
    if head == "symbol" and rest:
        if value in vocab.sets.get(rest, ()):
            return []
        return [_unknown(value, f"not a member of `{rest}`", vocab.sets.get(rest, ()), decl, path, smap)]
    if head == "item" and vocab.items is not None:
        kinds = {k for i, k in vocab.items.items() if i == value}
        if kinds and (not rest or rest in kinds):
            return []
        pool = [i for i, k in vocab.items.items() if not rest or k == rest]
        return [_unknown(value, f"not an item{f' of `{rest}`' if rest else ''}", pool, decl, path, smap)]
    if head == "item" or value in vocab.words():
        if head == "symbol" and vocab.member_of(value) is None:
            return [_unknown(value, "not a member of any set", vocab.words(), decl, path, smap)]
        return []
    if head in ("symbol", "any"):
        return [_unknown(value, "no set member nor item id", vocab.words(), decl, path, smap,
                         extra="declare `type: text` for free text")]
    return []


def _is(value, head: str) -> bool:
    if head == "bool":
        return isinstance(value, bool)
    return isinstance(value, int) and not isinstance(value, bool)


def _noun(kind: str) -> str:
    head, _, rest = kind.partition(" of ")
    nouns = {"int": "a whole number", "bool": "true or false", "text": "a text", "player": "a player",
             "any": "a value", "list": "a list", "symbol": "a set member", "item": "an item id"}
    noun = nouns.get(head, head)
    if rest and head == "symbol":
        return f"a member of `{rest}`"
    if rest and head == "item":
        return f"an item of `{rest}`"
    return f"{noun} of {_noun(rest)}" if rest else noun


def _shown(value) -> str:
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str):
        return f"the text `{value}`"
    if isinstance(value, list):
        return "a list"
    return f"`{value}`"


def _number_help(value) -> str | None:
    if isinstance(value, str) and value.lower() in _NUMBER_WORDS:
        return f"did you mean `{_NUMBER_WORDS.index(value.lower())}`?"
    return None


def _float_help(value: float) -> str | None:
    """A fraction where a whole number belongs: name the two nearest."""
    if value != value or value in (float("inf"), float("-inf")):
        return None
    low = int(value // 1)
    return f"rulekit counts in whole numbers: write `{low}` or `{low + 1}`"


def _wrong(decl: Declared, path: tuple, smap: SourceMap, message: str, inferred: bool,
           help_: str | None = None) -> Diagnostic:
    note = (decl.inferred_note,) if inferred else ()
    return Diagnostic(decl.codes[0], f"{decl.what}: {message}", smap.span(path), help=help_, notes=note)


def _unknown(value: str, why: str, pool, decl: Declared, path: tuple, smap: SourceMap,
             extra: str | None = None) -> Diagnostic:
    match = did_you_mean(value, pool)
    help_ = f"did you mean `{match}`?" if match else None
    if extra:
        help_ = f"{help_} Or {extra}" if help_ else extra[0].upper() + extra[1:]
    return Diagnostic(decl.codes[1], f"{decl.what}: unknown symbol `{value}` ({why})", smap.span(path), help=help_)


def _bounds(decl: Declared, kind: str, smap: SourceMap) -> list[Diagnostic]:
    """``min``/``max`` make sense on whole numbers only, and ``min`` may not exceed ``max``."""
    spec = decl.spec
    given = [k for k in ("min", "max") if spec.get(k) is not None]
    if not given:
        return []
    if kind not in ("int", "any"):
        return [Diagnostic(OUT_OF_BOUNDS_VALUE, f"{decl.what} is {_noun(kind)}: `{given[0]}` applies to whole numbers",
                           smap.span(decl.path + (given[0],), key=True), help="remove it, or declare `type: int`")]
    if len(given) == 2 and spec["min"] > spec["max"]:
        return [Diagnostic(OUT_OF_BOUNDS_VALUE, f"{decl.what}: `min` {spec['min']} is above `max` {spec['max']}",
                           smap.span(decl.path + ("min",)))]
    return []


def _range(decl: Declared, value: int, smap: SourceMap, spec_map: SourceMap) -> list[Diagnostic]:
    for key, word, outside in (("min", "below its minimum", int.__lt__), ("max", "above its maximum", int.__gt__)):
        bound = decl.spec.get(key)
        if bound is not None and outside(value, bound):
            return [Diagnostic(OUT_OF_BOUNDS_VALUE, f"{decl.what} is {value}, {word} {bound}",
                               smap.span(decl.value_path),
                               related=((f"the {word.rsplit(' ', 1)[1]}", spec_map.span(decl.path + (key,))),))]
    return []


def out_of_range(game, state) -> list[str]:
    """The computed parameters (``expr:``) of a started game that break their declared type or range."""
    out = []
    for name, spec in ((game.data.get("params") or {}).items()):
        if not isinstance(spec, dict) or "expr" not in spec:
            continue
        value = state.g.get(name)
        kind = spec.get("type", "any")
        low, high = spec.get("min"), spec.get("max")
        if kind in ("int", "bool") and not _is(value, kind):
            out.append(f"parameter `{name}` is {value!r}, not {_noun(kind)}")
        elif isinstance(value, int) and low is not None and value < low:
            out.append(f"parameter `{name}` is {value}, below its minimum {low}")
        elif isinstance(value, int) and high is not None and value > high:
            out.append(f"parameter `{name}` is {value}, above its maximum {high}")
    return out
