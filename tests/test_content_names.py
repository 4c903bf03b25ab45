# SPDX-License-Identifier: MIT
"""The Python variables generated code gives a content name (``v_t`` for `t`: a comprehension's, a
loop's, a parameter's, an option group's argument) are numbered (``v_t_2``) only where two of them
with the same content name are live at once in one Python function; a variable whose loop is
written is dead, and a later one may take its name (dsl/loops.py, dsl/choices.py, dsl/tallies.py),
knowing nothing of what the dead one held (``Scope.let_go``)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import rulekit

from conftest import ONE_DECISION
from probes import ClassChecks, defined, helpers, names_of, tree

ROOT = Path(__file__).resolve().parents[1]
NUMBERED = re.compile(r"^(v_\w+?)_(\d+)$")

def _stem(name: str) -> str:
    found = NUMBERED.match(name)
    return found.group(1) if found else name


class _Numbered(ast.NodeVisitor):
    """The content-named variables of a module's functions that are bound numbered while no
    other of their stem is live there: (function, name). A loop's or a comprehension's variable
    is live in its body, a parameter in its whole function, a plain assignment's (an option
    group's argument) from there to the function's end."""

    def __init__(self):
        self.found: set = set()
        self.function = None
        self.live: list = []        # the variables of the loops and comprehensions around
        self.assigned: set = set()  # the function's parameters and plain assignments so far

    def _bind(self, name: str) -> None:
        stem = _stem(name)
        if name.startswith("v_") and stem != name and \
                not any(_stem(other) == stem for other in (*self.live, *self.assigned)):
            self.found.add((self.function, name))

    def _targets(self, node) -> list:
        return [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]

    def visit_FunctionDef(self, node):
        saved = self.function, self.live, self.assigned
        self.function, self.live, self.assigned = node.name, [], set()
        for arg in node.args.args:
            self._bind(arg.arg)
            self.assigned.add(arg.arg)
        for st in node.body:
            self.visit(st)
        self.function, self.live, self.assigned = saved

    def visit_Assign(self, node):
        self.visit(node.value)
        for target in node.targets:
            if isinstance(target, ast.Name):
                self._bind(target.id)
                self.assigned.add(target.id)
            else:
                self.visit(target)

    def visit_For(self, node):
        self.visit(node.iter)
        depth = len(self.live)
        for name in self._targets(node.target):
            self._bind(name)
            self.live.append(name)
        for st in node.body + node.orelse:
            self.visit(st)
        del self.live[depth:]

    def _comprehension(self, node, parts):
        depth = len(self.live)
        for gen in node.generators:
            self.visit(gen.iter)
            names = self._targets(gen.target)
            for name in names:
                self._bind(name)
            self.live.extend(names)
            for test in gen.ifs:
                self.visit(test)
        for part in parts:
            self.visit(part)
        del self.live[depth:]

    def visit_ListComp(self, node):
        self._comprehension(node, [node.elt])

    visit_GeneratorExp = visit_SetComp = visit_ListComp

    def visit_DictComp(self, node):
        self._comprehension(node, [node.key, node.value])


def numbered_without_need(game) -> set:
    finder = _Numbered()
    finder.visit(tree(game))
    return finder.found


@pytest.mark.parametrize("name", ["goa", "batavia", "examples/azul", "examples/crownfields", "examples/for-sale",
                                  "examples/lantern-roads", "examples/modern-art"])
def test_a_content_name_is_numbered_only_where_another_of_it_is_live(name, monkeypatch):
    """In the games and the examples, ``v_t_2`` is bound only where a ``v_t`` is live (a loop in
    a loop, a comprehension in one): two sums of one function, the options of two chooses of one
    procedure, an option group included by another, each take ``v_t`` (``v_p``) again."""
    monkeypatch.chdir(ROOT)
    game = rulekit.load_game(str(ROOT / "games" / name) if "/" not in name else str(ROOT / name))
    assert numbered_without_need(game) == set()


def test_the_finder_sees_a_needless_number():
    """The check above can fail: a loop or a comprehension numbered after the one before has ended
    is found; one in a loop, or after a parameter or an assignment of the name, is not."""
    source = ("def f(s, v_p):\n"
              "    for v_t in a:\n"
              "        for v_t_2 in b:\n"
              "            pass\n"
              "    for v_t_3 in c:\n"
              "        x = [v_t_4 for v_t_4 in d]\n"
              "    y = [v_t_5 for v_t_5 in e] + [v_p_2 for v_p_2 in e]\n"
              "    v_q = 1\n"
              "    return [v_q_2 for v_q_2 in e]\n")
    finder = _Numbered()
    finder.visit(ast.parse(source))
    assert finder.found == {("f", "v_t_3"), ("f", "v_t_5")}


STALE = """\
meta: {title: Stale}
players: {min: 1, max: 1}
sets:
  suits: [cups, coins, swords]
vars:
  out: none
zones:
  pile: {visibility: public}
components:
  card: {generate: {suit: suits}, id: "{suit}", start: pile}
functions:
  held: {params: [c], expr: "any(x.suit == c for x in pile)"}
  both: {params: [vs], expr: "count(c for c in suits if held(c)) + count(c for c in vs if held(c))"}
setup: |
  out = [both(['cups']), both([[1], 'cups', none, 'wands'])]
""" + ONE_DECISION


def test_a_name_taken_again_knows_nothing_of_the_dead_variable(write_game):
    """`both` walks a set, then a list of any values, each as a loop of its own (dsl/loops.py),
    and `held(c)` is written in place in each. The first loop's variable holds a member of the set,
    which asks the tally with no check of its class; the second loop takes the same name, `v_c`,
    and knows nothing of that: `[1]` (no table holds a list) and none are asked as the scan would
    ask them, each after a check of its class."""
    game = rulekit.load_game(write_game(STALE))
    both = game.program.functions["both"]
    loops = [node for node in ast.walk(defined(game, both)) if isinstance(node, ast.For)]
    assert [loop.target.id for loop in loops] == ["v_c", "v_c"]       # the name is taken again
    (plain,) = helpers(game, "PLAIN_VALUE")
    checks = ClassChecks(plain)
    for bound in names_of(game, plain):
        game.program.module.comp.ns[bound] = checks
    state = rulekit.new_game(game, 1)
    assert state.g["out"] == [3 + 1, 3 + 1]
    asked = []
    for values in ([], ["cups"], [[1], "cups", None]):
        before = checks.asked
        assert both(state, values) == 3 + values.count("cups")
        asked.append(checks.asked - before)
    assert asked == [0, 1, 3]       # the set's members go unchecked, the list's values each once
