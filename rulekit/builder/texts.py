# SPDX-License-Identifier: MIT
"""Where the effect language is written in content (``TEXT_PLACES``), and the front end's checks of
every text a build parsed (dsl/check.py): the bodies before any is written, then the texts no body
holds, once all are parsed."""
from __future__ import annotations

from ..dsl.compiler import Compiler

OWN_PARAMS = "params"       # in TEXT_PLACES: the names the text's own `params:` declares
# Where the effect language is written in content (`*`: any key or index), as what (a body of
# statements, an expression, a choose's options) and the names it is given. The builder parses
# these and no others (tests/test_front_end.py holds it to that); tools that read texts (the
# language server) read this table, never one of their own.
TEXT_PLACES = (
    (("procedures", "*", "do"), "script", OWN_PARAMS), (("setup",), "script", ()),
    (("flow", "finish"), "script", ()), (("flow", "phases", "*", "do"), "script", ()),
    (("functions", "*", "expr"), "expr", OWN_PARAMS), (("estimate",), "expr", ("p",)),
    (("option_groups", "*", "options"), "options", OWN_PARAMS), (("params", "*", "expr"), "expr", ()),
    (("flow", "end_after_round_if"), "expr", ()), (("flow", "phases", "*", "when"), "expr", ()),
    (("flow", "rounds"), "expr", ()),
    (("scoring", "categories", "*", "points"), "expr", ("p",)), (("scoring", "tiebreak", "*"), "expr", ("p",)),
    (("scoring", "tiebreak", "*", "expr"), "expr", ("p",)), (("scoring", "eligible"), "expr", ("p",)),
    (("invariants", "*", "expr"), "expr", ()), (("invariants", "*", "when"), "expr", ()),
    (("zones", "*", "dealt_from"), "expr", ("p",)), (("player", "zones", "*", "dealt_from"), "expr", ("p",)),
    (("bots", "*", "rules", "*", "when"), "expr", ("p",)), (("position",), "script", ()),
)


def text_place(path: tuple) -> tuple | None:
    """(kind, the names it is given) of the text at content ``path``, from TEXT_PLACES (None: no text)."""
    return next(((kind, params) for pattern, kind, params in TEXT_PLACES
                 if len(pattern) == len(path) and all(p in ("*", k) for p, k in zip(pattern, path))), None)


def dig(data, path):
    """The content at ``path`` (keys and indexes) of ``data``."""
    for key in path:
        data = data[key]
    return data


def check_bodies(compiler: Compiler, parts: list) -> None:
    """The front end's checks of every body (dsl/check.py), before any is written: ``parts`` are
    the program's (key, params, body, span, name), then each option group's."""
    for _key, params, body, span, name in parts:
        compiler.front_end(body, params, body_of=(name, span))
    for params, body in compiler.v.option_groups.values():
        compiler.front_end(body, params)


def check_other_texts(compiler: Compiler, texts: dict, data: dict) -> None:
    """The same checks of the texts no body holds (functions, scoring, conditions...), once all
    are parsed (``texts``: content path -> tree), each with the names it is given (TEXT_PLACES)."""
    for path, tree in texts.items():
        place = text_place(path)
        if place is None:
            continue
        kind, params = place
        if params == OWN_PARAMS:
            params = tuple(str(p) for p in (dig(data, path[:-1]) or {}).get("params") or ())
        compiler.front_end(tree, params, kind != "expr")
