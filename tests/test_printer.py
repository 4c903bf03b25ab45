"""The printer (dsl/printer.py) writes the brackets precedence needs and no others, breaks long
lines by their structure with no line that is only a bracket, and never changes what a line means."""
import ast
import re

import pytest

from rulekit.dsl import layout, printer
from rulekit.games import load_game


@pytest.mark.parametrize(("written", "printed"), [
    ("x = (((a.get(k)) < 5) and (not (b)))", "x = a.get(k) < 5 and not b"),
    ("if ((a + b) * c):", "if (a + b) * c:"),
    ("elif (not (a in b)):", "elif a not in b:"),
    ("while (not (x is None)):", "while x is not None:"),
    ("y = (a - (b - c))", "y = a - (b - c)"),
    ("y = ((a - b) - c)", "y = a - b - c"),
    ("y = ((a ** b) ** c)", "y = (a ** b) ** c"),
    ("y = (a ** (b ** c))", "y = a ** b ** c"),
    ("y = (-(x ** 2))", "y = -x ** 2"),
    ("y = ((-x) ** 2)", "y = (-x) ** 2"),
    ("y = ((a < b) < c)", "y = (a < b) < c"),
    ("y = ((a and b) and c)", "y = a and b and c"),
    ("y = (a and (b or c))", "y = a and (b or c)"),
    ("y = ((a if b else c) if d else e)", "y = (a if b else c) if d else e"),
    ("y = ((_w := f(x)) + 1)", "y = (_w := f(x)) + 1"),
    ("f(((x)))", "f(x)"),
    ("y = sum(((x) for x in xs))", "y = sum(x for x in xs)"),
    ("y = d[(a, b)]", "y = d[a, b]"),
    ("y = ((a,))", "y = (a,)"),
    ("for v_t in (s.zones[(Z[p])]):", "for v_t in s.zones[Z[p]]:"),
    ("return (x)", "return x"),
    ("y = [(a), (b), ]", "y = [a, b]"),
    ("y = {(k): (v)}", "y = {k: v}"),
    ("y = (lambda q: (q + 1))", "y = lambda q: q + 1"),
    ("y = ((1).real)", "y = (1).real"),
])
def test_a_line_keeps_the_brackets_its_meaning_needs_and_no_others(written, printed):
    assert printer.tidy(written) == printed
    assert ast.dump(ast.parse(_body(printed))) == ast.dump(printer._plain(ast.parse(_body(written))))


def _body(line: str) -> str:
    line = line[2:] if line.startswith("elif") else line
    return line + " pass" if line.endswith(":") else line


@pytest.mark.parametrize("line", ["else:", "try:", "def f(s, e):", "if s.budget < 0: LIMIT(s, 'x', AT)",
                                  "x = (", "    indented"])
def test_a_line_that_is_not_a_statement_on_its_own_is_left_as_written(line):
    assert printer.tidy(line) == line


def test_a_long_condition_breaks_at_its_words_apart_from_the_body():
    text = "if ((" + " and ".join(f"(table_{k}.get(key_{k}, 0) > {k})" for k in range(8)) + ")):"
    lines = printer.lines("    ", text, width=60)
    assert lines[0].startswith("    if (table_0.get(key_0, 0) > 0")
    assert all(line.startswith("            and ") for line in lines[1:])     # two steps in: not the body's
    assert lines[-1].endswith("):")
    assert all(len(line) <= 60 for line in lines)


def test_a_long_call_breaks_after_its_bracket_and_closes_on_its_last_line():
    text = "ch.append(" + ", ".join(f"argument_number_{k}" for k in range(12)) + ")"
    lines = printer.lines("", text, width=80)
    assert lines[0] == "ch.append("
    assert lines[-1].endswith(")") and lines[-1].strip() != ")"
    assert ast.dump(ast.parse("\n".join(lines))) == ast.dump(ast.parse(text))


def test_an_operation_is_kept_whole_where_one_operand_can_break():
    text = "x = (s.levels.get(fn_marker(s, player, column_name), 1) < 5)"
    lines = printer.lines("", text, width=40)
    assert lines[-1].endswith(") < 5)")        # not `< 5` on a line of its own
    assert len(lines) == 3 and lines[0] == "x = (s.levels.get("


def _source(game, monkeypatch, printed: bool) -> str:
    if not printed:      # the writer's own lines, each on one line
        monkeypatch.setattr(printer, "lines", lambda indent, text, note="", width=None: [indent + str(text)])
    try:
        return load_game(game).program.module.source()
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize("game", ["goa", "batavia", "examples/for-sale"])
def test_printing_a_game_changes_nothing_it_means(game, monkeypatch):
    written = _source(game, monkeypatch, printed=False)
    printed = _source(game, monkeypatch, printed=True)
    assert written != printed
    assert ast.dump(ast.parse(printed)) == ast.dump(printer._plain(ast.parse(written)))


@pytest.mark.parametrize("game", ["goa", "batavia", "examples/for-sale", "examples/modern-art"])
def test_no_printed_line_is_only_a_bracket_or_too_long(game):
    lines = load_game(game).program.module.source().splitlines()
    assert not [line for line in lines if re.fullmatch(r"\s*[)\]}]+[,:]?", line)]
    assert not [line for line in lines if len(line) > layout.WIDTH]

