# SPDX-License-Identifier: MIT
"""JSON Schema validation that speaks to authors, not to jsonschema.

The schemas in ``schemas/`` describe every kind of file (game, variant, script).
We validate plain data, pick the most relevant error of each failing place with
``best_match``, and turn it into one :class:`Diagnostic` on the author's line. An
unknown key gets "did you mean" from the keys allowed at that place, because a
typo must never silently change a rule.
"""
from __future__ import annotations

import functools
import json
import os
import re

import jsonschema
from jsonschema.exceptions import best_match

from ..codes import MISSING_KEY, NOT_A_CHOICE, SCHEMA_REJECTS, UNKNOWN_KEY, WRONG_TYPE
from ..errors import Diagnostic, suggestion_help
from .loader import LNode, SourceMap, flatten, layout_problems

KINDS = ("game", "variant", "script")


def schemas_dir() -> str:
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # rulekit/
    packaged = os.path.join(here, "schemas")
    if os.path.isdir(packaged):
        return packaged
    return os.path.join(os.path.dirname(here), "schemas")


@functools.cache
def load_schema(kind: str) -> dict:
    with open(os.path.join(schemas_dir(), f"{kind}.schema.json"), encoding="utf-8") as handle:
        return json.load(handle)


@functools.cache
def _validator(kind: str):
    schema = load_schema(kind)
    cls = jsonschema.validators.validator_for(schema)
    registry = None
    try:
        from referencing import Registry, Resource
        resources = []
        for other in KINDS:
            try:
                doc = load_schema(other)
            except OSError:
                continue
            if "$id" in doc:
                resources.append((doc["$id"], Resource.from_contents(doc)))
        registry = Registry().with_resources(resources)
    except ImportError:  # pragma: no cover - old jsonschema
        pass
    if registry is not None:
        return cls(schema, registry=registry)
    return cls(schema)


def check(node: LNode, kind: str) -> list[Diagnostic]:
    data, smap = flatten(node)
    return check_data(data, smap, kind)


def check_data(data, smap: SourceMap, kind: str) -> list[Diagnostic]:
    """Diagnostics for every failing place (one per place, the most relevant)."""
    return checked(data, smap, kind)[0]


def checked(data, smap: SourceMap, kind: str) -> tuple[list[Diagnostic], list[tuple]]:
    """(:func:`check_data`'s diagnostics, the paths of the values the schema refuses): the later
    checks run on the content without those values (:func:`without`), so that one run reports
    every mistake, a schema's with the rules' own."""
    validator = _validator(kind)
    by_place: dict[tuple, list] = {}
    checked, kept = _checked_form(data, kind)
    for error in validator.iter_errors(checked):
        if kept is not None and len(error.path) > 1 and error.path[0] == "actions":
            error.path[1] = kept[error.path[1]]     # the step's place in the file
        by_place.setdefault(tuple(error.absolute_path), []).append(error)
    out, refused = [], []
    for place in sorted(by_place, key=lambda p: [str(x) for x in p]):
        errors = by_place[place]
        chosen = [best_match(errors)]
        for error in errors:    # an unknown key and a missing one at the same place are separate mistakes
            if error.validator in ("additionalProperties", "required") and \
                    all(error.message != other.message for other in chosen):
                chosen.append(error)
        out.extend(_diagnostic(error, smap) for error in chosen)
        refused.extend(_refused(error) for error in chosen if error.validator != "required")
    if kind == "game" and not out and isinstance(data, dict):
        if "flow" not in data:      # the game schema asks it of game.yaml only when nothing is included
            out.append(Diagnostic(MISSING_KEY, "`flow` is a required property", smap.span((), key=True),
                                  notes=("at $",)))
        out.extend(layout_problems(data, smap))
    return out, refused


def _refused(error) -> tuple:
    """The path of what ``error`` refuses: an unknown key itself, else the value at its place."""
    path = tuple(error.absolute_path)
    if error.validator == "additionalProperties":
        return path + (next(iter(_extra_keys(error)), None),)
    return path


# Sections whose keys declare names: a declaration the schema refuses keeps its name (its value
# none), so the rules reading it are not told of an unknown name too (one mistake, one diagnostic).
_DECLARING = (("params",), ("vars",), ("player", "vars"), ("tables",))


def without(data: dict, paths: list[tuple]) -> dict:
    """A copy of ``data`` without the values at ``paths``: each is dropped from the nearest mapping
    holding it (an element of a list drops the list's own key: removing it would move the places
    of the elements after it, by which the source map finds their lines), and a parameter's,
    variable's or table's whole declaration is kept as none. The whole content is never dropped."""
    out = data
    for path in sorted({_droppable(data, p) for p in paths} - {()}, key=len):
        out = _dropped(out, path)
    return out


def _droppable(data, path: tuple) -> tuple:
    node, keep = data, ()
    for depth, key in enumerate(path):
        if isinstance(node, dict) and key in node:
            keep, node = path[:depth + 1], node[key]
        elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
        else:
            break
    return keep


def _dropped(data, path: tuple, above: tuple = ()):
    key, rest = path[0], path[1:]
    if isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data) and rest:
        return [_dropped(v, rest, (*above, key)) if i == key else v for i, v in enumerate(data)]
    if not isinstance(data, dict) or key not in data:
        return data         # an outer key of it went already
    if rest:
        return {**data, key: _dropped(data[key], rest, (*above, key))}
    if above in _DECLARING:
        return {**data, key: None}      # the name stays declared
    return {k: v for k, v in data.items() if k != key}


def _checked_form(data, kind: str) -> tuple:
    """(what the schema checks, the places of the actions it checks or None): a variant without
    its removals; a script or log without the actions written as plain text, which the script
    schema takes whole, so a log of 250,000 actions is checked in a moment."""
    if kind == "variant":
        return _without_removals(data), None
    steps = data.get("actions") if kind == "script" and isinstance(data, dict) else None
    if isinstance(steps, list):
        kept = [i for i, step in enumerate(steps) if step.__class__ is not str]
        if len(kept) < len(steps):
            return dict(data, actions=[steps[i] for i in kept]), kept
    return data, None


def _without_removals(data):
    """A variant without the keys it sets to ``null``: those remove what they name, so they need
    no type (the merged game is checked whole afterwards)."""
    if isinstance(data, dict):
        return {k: _without_removals(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [_without_removals(v) for v in data]
    return data


def _diagnostic(error, smap: SourceMap) -> Diagnostic:
    path = tuple(error.absolute_path)
    where = error.json_path
    expects = _expects(error)
    if error.validator == "additionalProperties":
        allowed = list((error.schema.get("properties") or {}).keys())
        extra = _extra_keys(error)
        key = extra[0] if extra else "?"
        return Diagnostic(UNKNOWN_KEY, f"unknown key `{key}`", smap.span(path + (key,), key=True),
                          help=suggestion_help(key, allowed) or expects or
                          (f"allowed here: {', '.join(sorted(allowed))}" if allowed else None),
                          notes=(f"at {where}",))
    if error.validator == "required":
        return Diagnostic(MISSING_KEY, error.message.replace("'", "`"), smap.span(path, key=True), help=expects,
                          notes=(f"at {where}",))
    if error.validator == "enum":
        options = [str(o) for o in error.validator_value]
        return Diagnostic(NOT_A_CHOICE, f"`{error.instance}` is not one of {', '.join(options)}", smap.span(path),
                          help=suggestion_help(str(error.instance), options) or expects, notes=(f"at {where}",))
    if error.validator == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        return Diagnostic(WRONG_TYPE, f"expected {_article(expected)}, got {_json_type(error.instance)}",
                          smap.span(path), help=expects, notes=(f"at {where}",))
    description = error.schema.get("description") if isinstance(error.schema, dict) else None
    return Diagnostic(SCHEMA_REJECTS, _message(error), smap.span(path), help=expects or description,
                      notes=(f"at {where}",))


def _extra_keys(error) -> list:
    """The keys an ``additionalProperties`` error refuses: those no property nor pattern allows."""
    allowed = error.schema.get("properties") or {}
    patterns = error.schema.get("patternProperties") or {}
    instance = error.instance if isinstance(error.instance, dict) else {}
    return [k for k in instance if k not in allowed and not any(re.search(p, str(k)) for p in patterns)]


def _expects(error) -> str | None:
    """What the schema says belongs at the failing place (its ``errorMessage``, the keyword
    yaml-language-server shows in editors), so that rulekit and the editor say the same."""
    return error.schema.get("errorMessage") if isinstance(error.schema, dict) else None


def _article(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "a mapping"


def _shown(value) -> str:
    """A value as its YAML/JSON reader would write it (``null``, ``{"expect": null}``), not
    as Python does (``None``, ``{'expect': None}``), cut to a readable length."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return f"`{text[:60]}...`" if len(text) > 60 else f"`{text}`"


_LIMITS = {"minimum": "below the minimum of {}", "maximum": "above the maximum of {}",
           "exclusiveMinimum": "not above {}", "exclusiveMaximum": "not below {}",
           "minLength": "shorter than {} characters", "maxLength": "longer than {} characters",
           "minItems": "fewer than {} items", "maxItems": "more than {} items",
           "minProperties": "fewer than {} keys", "maxProperties": "more than {} keys",
           "pattern": "not of the form `{}`"}


def _message(error) -> str:
    """What a failing schema rule says, in the words of the file (no Python spellings)."""
    shown = _shown(error.instance)
    if error.validator in ("oneOf", "anyOf"):
        return f"{shown} is none of the forms allowed here"
    if error.validator in _LIMITS:
        return f"{shown} is {_LIMITS[error.validator].format(error.validator_value)}"
    if error.validator == "const":
        return f"{shown} must be {_shown(error.validator_value)}"
    return f"{shown} is not allowed here ({error.validator})"
