# SPDX-License-Identifier: MIT
"""The code writer's values are trees (dsl/ir.py), and the printer alone turns them into text.

Issue #54's bar: no string is built outside the printer in the code writer. Three checks stand
for it: the forms build the trees they say (a hole takes its value's tree as it is, never its
text read again); every line the writer hands the printer for the shipped games, examples and
test games is a tree (the printer reads no text back: its reading path is refused here); and
the code writer's modules make no code by joining or formatting text (a scan of their source:
what they do build is a message, a name, a comment, or one of the few listed below with why).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from rulekit.dsl import ir, printer
from rulekit.dsl.pysource import literal
from rulekit.games import load_game

ROOT = Path(__file__).resolve().parent.parent
DSL = ROOT / "rulekit" / "dsl"


def _dump(node) -> str:
    return ast.dump(node, include_attributes=False)


def _same(value, source: str) -> bool:
    return _dump(ir.tree_of(value)) == _dump(ast.parse(source, mode="eval").body)


# ---------------------------------------------------------------------- forms

def test_a_hole_takes_its_values_tree_itself():
    zone = ir.code("ZONES[$0]", ir.name("p"))
    read = ir.code("len(s.zones[$0]) > $1", zone, literal(2))
    assert _same(read, "len(s.zones[ZONES[p]]) > 2")
    compare = read.node
    assert compare.left.args[0].slice is zone.node      # placed, not re-read from its text


def test_forms_are_read_once_and_never_changed_by_filling():
    first = ir.code("$0 + $1", ir.name("a"), ir.name("b"))
    second = ir.code("$0 + $1", ir.name("c"), literal(1))
    assert _same(first, "a + b") and _same(second, "c + 1")
    assert ir._expression("$0 + $1").left.id.startswith("__h")     # the kept form still has its holes


def test_a_run_of_values_fills_a_call_or_a_list():
    assert _same(ir.code("f(s, $*)", [ir.name("x"), literal("y")]), "f(s, x, 'y')")
    assert _same(ir.code("[$*]", []), "[]")
    assert _same(ir.tuple_of([]), "()") and _same(ir.tuple_of([literal(1)]), "(1,)")
    assert _same(ir.call(ir.name("B_move"), [ir.name("s")], {"span": ir.name("AT_1_1")}), "B_move(s, span=AT_1_1)")


def test_a_value_made_by_a_form_keeps_what_the_writer_says_of_it():
    slot = ir.code("e[$0]", literal("x"), kind="slot", denotes=("env", "x"))
    assert (slot.kind, slot.denotes) == ("slot", ("env", "x"))


@pytest.mark.parametrize("form, holes, source", [
    ("$0 - $1", ("a - b", "c"), "(a - b) - c"),
    ("$0 - $1", ("a", "b - c"), "a - (b - c)"),
    ("$0 ** $1", ("-1", "2"), "(-1) ** 2"),
    ("$0.__class__", ("1",), "(1).__class__"),
    ("not $0", ("a and b",), "not (a and b)"),
    ("$0 if $1 else $2", ("a if b else c", "d or e", "f"), "(a if b else c) if d or e else f"),
])
def test_a_values_text_says_what_its_tree_says(form, holes, source):
    """While parts of the writer still read a value's text, the text must mean its tree: each hole
    is bracketed where it could bind otherwise."""
    values = [literal(int(h)) if h.lstrip("-").isdigit() else ir.code(h) if " " in h else ir.name(h) for h in holes]
    made = ir.code(form, *values)
    assert _dump(ast.parse(made, mode="eval").body) == _dump(made.node) == _dump(ast.parse(source, mode="eval").body)


def test_statement_lines():
    line = ir.stmt("if $0:", ir.code("$0 > 1", ir.name("n")))
    assert line.lead == "if" and _dump(line.node.test) == _dump(ast.parse("n > 1", mode="eval").body)
    assert ir.stmt("if s.budget < 0: LIMIT(s, $0)", literal("x")).lead == "inline"
    assert printer.lines("    ", ir.stmt("if s.budget < 0: LIMIT(s, $0)", literal("x"))) == \
        ["    if s.budget < 0: LIMIT(s, 'x')"]
    heading = ir.heading("run_x", ("s", "f"), "# 'x'")
    assert printer.lines("", heading) == ["def run_x(s, f):  # 'x'"]
    assert printer.lines("  ", ir.ELSE) == ["  else:"]
    assert printer.lines("", ir.assigned([ir.name("_r1"), ir.name("_r2")], ir.name("UNSET"))) == ["_r1 = _r2 = UNSET"]


# ---------------------------------------------------------------------- what the printer is given

def _every_game() -> list:
    return ["goa", "batavia"] + sorted(str(p) for p in (ROOT / "examples").iterdir() if (p / "game.yaml").exists()) \
        + sorted(str(p) for p in (ROOT / "tests" / "games").iterdir() if (p / "game.yaml").exists())


def test_the_writer_makes_trees_only_for_every_game(monkeypatch):
    """Every line the writer makes for a shipped game, an example or a test game is a tree (or a
    comment): the printer's path that reads a line's text into a tree is never taken; and no value
    is text read into a tree (dsl/ir.py's path for a part not moved over): each was made as one."""
    def text_printed(indent, text, room):
        raise AssertionError(f"the printer was given text, not a tree: {text!r}")

    def text_read(text):
        raise AssertionError(f"a value made as text: {text!r}")
    monkeypatch.setattr(printer, "_printed", text_printed)
    monkeypatch.setattr(ir, "_read", text_read)
    printer._TREES_PRINTED.clear()
    games = _every_game()
    assert len(games) >= 10
    for game in games:
        try:
            load_game(game)
        except AssertionError:
            raise
        except Exception:      # noqa: BLE001 - a test game of mistakes stops at its diagnostics
            continue


def test_printing_the_trees_and_reading_the_texts_print_the_same(monkeypatch):
    """Goa's and Batavia's modules printed from the writer's trees and from the writer's texts read
    again are the same, line for line: the two say one thing while the texts remain."""
    for game in ("goa", "batavia"):
        from_trees = load_game(game).program.module.source()
        monkeypatch.setattr(printer, "TREES", False)
        from_texts = load_game(game).program.module.source()
        monkeypatch.setattr(printer, "TREES", True)
        assert from_trees.count("\n") > 800 and from_trees == from_texts


# ---------------------------------------------------------------------- the writer's source

# The modules that write code (each builds trees with dsl/ir.py).
CODE_WRITERS = ("compiler", "codegen", "calls", "forms", "tallies", "loops", "choices", "aggregates", "blocks",
                "templates", "pysource", "lowering")
# calls whose text argument is a message, a comment or a value (written as a literal), never code
_MESSAGES = {"error", "Diagnostic", "InternalError", "suggestion_help", "ContentRuntimeError", "Comment",
             "DiagnosticReport", "AssertionError", "NotImplementedError", "TypeError", "ValueError", "constant",
             "literal", "heading"}
_NAME = re.compile(r"^[A-Za-z0-9_$]*$")        # a name's parts: `call_{name}`, `$L{n}`
# each other text the code writer builds, and what it is
BUILT = {
    ("choices", "f'{inc.name}.{pname}'"),           # a key of the frame's env (a value the code reads by literal)
    ("choices", "f'{inc.name}.{n}'"),
    ("codegen", "f'{literal(str(name))} ({literal(where)})'"),       # a function's comment: its content name
    ("codegen", "f'{span.path}:{int(span.line)}'"),
    ("codegen", "f'<rulekit {literal(title)} #{id(self.owner)}>'"),  # the module's file name
    ("codegen", "f'lines of {self.filename}'"),    # a key of the namespace
    ("compiler", "f'<rulekit {what}>'"),             # a small function's file name
    ("pysource", "f\"{('f.' if frame else '')}pc = {target}\""),    # a jump's text, while texts remain
}


def _built_texts(name: str, folder: Path = DSL):
    tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts = [v.value for v in node.values if isinstance(v, ast.Constant)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("join", "format"):
            held = node.func.value
            parts = [held.value] if isinstance(held, ast.Constant) and isinstance(held.value, str) else ["?"]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)) and any(
                isinstance(x, ast.Constant) and isinstance(x.value, str) for x in (node.left, node.right)):
            parts = [x.value for x in (node.left, node.right) if isinstance(x, ast.Constant)]
        else:
            continue
        if all(_NAME.match(p) for p in parts) or (parts and str(parts[0]).startswith("# ")):
            continue        # a name, or a comment
        up = node
        while up in parents and not _message(up := parents[up]):
            pass
        if not _message(up):
            yield ast.unparse(node)


def _message(node) -> bool:
    if isinstance(node, ast.keyword):
        return node.arg == "help"
    if isinstance(node, ast.Call):
        func = node.func
        return (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")) in _MESSAGES
    return False


def test_the_code_writer_builds_no_code_as_text():
    found = {(name, text) for name in CODE_WRITERS for text in _built_texts(name)}
    unlisted = {f for f in found if f not in BUILT}
    assert not unlisted, f"code built as text in the writer (make it with dsl/ir.py): {sorted(unlisted)}"
    assert found == BUILT       # each one listed is still there


def test_the_scan_finds_code_built_as_text(tmp_path):
    """The scan above can fail: a line written the old way is found, a message is not."""
    (tmp_path / "old.py").write_text('def f(self, x):\n    self.error("RK1", f"no `{x}` here")\n'
                                     '    return f"len({x}) > 0"\n', encoding="utf-8")
    assert list(_built_texts("old", tmp_path)) == ["f'len({x}) > 0'"]
