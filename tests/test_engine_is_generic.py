# SPDX-License-Identifier: MIT
"""House rule 1: the engine knows no game. No game noun may appear in rulekit/."""
from __future__ import annotations

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOUNS = re.compile(
    r"\b(goa|batavia|spices?|ginger|pepper|cinnamon|nutmeg|clove|ducats?|colonists?|colony|colonies|"
    r"plantations?|expeditions?|pirates?|bonds?|cannon|merchants?|warehouses?|quilon|cochin|madras|"
    r"calicut|viceroy|ships?|crates?|seals?)\b", re.IGNORECASE)


def test_no_game_nouns_in_the_engine():
    hits = []
    for folder, _dirs, files in os.walk(os.path.join(ROOT, "rulekit")):
        for name in files:
            if name.endswith((".py", ".lark")):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    for number, line in enumerate(handle, 1):
                        if NOUNS.search(line):
                            hits.append(f"{os.path.relpath(path, ROOT)}:{number}: {line.strip()}")
    assert not hits, "game nouns in the engine:\n" + "\n".join(hits)


def _names_a_built_in(node, builtins: set) -> bool:
    """``call.func == "move"``, ``name in ("log", ...)``: a built-in asked for by its name."""
    import ast

    sides = [node.left, *node.comparators]
    asks = any(isinstance(x, ast.Attribute) and x.attr == "func" or isinstance(x, ast.Name) and x.id in
               ("name", "func") for x in sides)
    texts = [c.value for x in sides for c in ([x] + list(getattr(x, "elts", []))) if isinstance(c, ast.Constant)]
    return asks and any(text in builtins for text in texts)


def test_the_compiler_never_names_a_built_in():
    """Built-ins declare what the compiler may know of them (engine/library.py: form, inline,
    direct, recorded_only, ...); the compiler never special-cases one by its name (issue 15)."""
    import ast

    from rulekit.engine.library import REGISTRY

    hits = []
    for module in ("compiler", "codegen", "reads", "loops"):
        path = os.path.join(ROOT, "rulekit", "dsl", f"{module}.py")
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        hits += [f"{module}.py:{n.lineno}" for n in ast.walk(tree)
                 if isinstance(n, ast.Compare) and _names_a_built_in(n, set(REGISTRY))]
    assert hits == []


def test_the_name_check_sees_a_built_in_named():
    import ast

    planted = ast.parse('if call.func == "move" or name in ("draw", "x"):\n    pass').body[0].test
    assert [_names_a_built_in(c, {"move", "draw"}) for c in planted.values] == [True, True]


def test_a_direct_statement_names_its_arguments_in_the_order_of_the_parameters():
    """A statement works out the reductions among its arguments before it, in the order the
    arguments are written (dsl/loops.py, statement_lines): an effect's ``direct`` statement must
    evaluate them in that order too."""
    import re

    from rulekit.dsl.templates import TEMPLATES
    from rulekit.engine.library import REGISTRY

    found = 0
    for name, written in TEMPLATES.items():
        if written.direct is None:
            continue
        found += 1
        builtin = REGISTRY[name]
        named = list(written.direct_args)       # the holes $0, $1... in this order; the span last
        assert sorted(set(re.findall(r"\$(\d)", written.direct))) == [str(k) for k in range(len(named) + 1)]
        order = list(builtin.params) + [n for n, _ in builtin.optional]
        assert named == sorted(named, key=order.index), builtin.name
    assert found
