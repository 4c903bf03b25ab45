# SPDX-License-Identifier: MIT
"""The effect-language parser: the syntax-error catalogue, the AST, and positions
of DSL errors inside YAML files."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.dsl import ast
from rulekit.dsl.parser import parse_expr, parse_script
from rulekit.dsl.syntax_errors import CATALOGUE
from rulekit.errors import DiagnosticReport

from conftest import game_dir, where


def diagnose(text: str, start: str = "start"):
    parse = parse_script if start == "start" else parse_expr
    with pytest.raises(DiagnosticReport) as info:
        parse(text)
    (diag,) = info.value.diagnostics
    return diag


# ------------------------------------------------------------------ the catalogue as a table

ROWS = [(code, message, start, example)
        for code, message, _help, start, examples in CATALOGUE for example in examples]


@pytest.mark.parametrize("code,message,start,example", ROWS,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(ROWS)])
def test_catalogue_example_yields_its_code(code, message, start, example):
    diag = diagnose(example, start)
    assert (diag.code, diag.message) == (code, message)


def _nest(example: str) -> str:
    return "total = 0\nfor i in things:\n" + "".join(f"    {line}\n" for line in example.splitlines())


@pytest.mark.parametrize("code,message,start,example", [r for r in ROWS if r[2] == "start"],
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(ROWS) if r[2] == "start"])
def test_catalogue_matches_after_other_statements_and_nested(code, message, start, example):
    # the same mistake as a later statement of a script, and inside a block
    assert diagnose("total = 0\n" + example).code == code
    assert diagnose(_nest(example)).code == code


def test_every_catalogue_row_is_well_formed():
    seen = set()
    for code, message, helptext, start, examples in CATALOGUE:
        assert code.startswith("RK02") and code not in seen
        seen.add(code)
        assert start in ("start", "expr_start")
        assert message and examples
        assert helptext is None or helptext.strip()


def test_catalogue_code_is_positioned():
    diag = diagnose("x = 1\nif x\n    pass\n")
    assert diag.code == "RK0210"
    assert (diag.span.line, diag.span.column) == (2, 5)
    assert diag.help.startswith("write `if cond:`")


def test_unexpected_character_falls_back_to_a_generic_diagnostic():
    diag = diagnose("x = 1 $ 2\n")
    assert diag.code == "RK0200"
    assert diag.message == "unexpected character `$`"
    assert (diag.span.line, diag.span.column) == (1, 7)


def test_unexpected_token_lists_what_was_expected():
    diag = diagnose("x = (1 + 2\n")
    assert diag.code == "RK0201"
    assert "`)`" in diag.help


# ------------------------------------------------------------------ the AST

REPRESENTATIVE = """\
bid = 0
high = none
for p in players_from(first):
    if p in passed or p == high:
        continue
    elif not p.money > bid:
        passed = passed + [p]
    else:
        log("{p} thinks")
while count(passed) < num_players - 1:
    choose p:
        "bid {n}" for n in range(bid + 1, p.money + 1):
            bid = n
        "pass" if high != none:
            break
winner = settle(high, bid)
p.money -= bid * 2 // 1 % 7
move(top(lot), to=p.hand, at="bottom")
best = [q for q in players if q.money >= -bid]
total = sum(q.money for q in players) if winner else 0
return winner
"""


def test_ast_dump_snapshot(snapshot):
    tree = parse_script(REPRESENTATIVE, path="representative")
    assert ast.dump(tree) == snapshot


def test_ast_spans_point_into_the_text():
    tree = parse_script(REPRESENTATIVE, path="rep")
    loop = tree[2]
    assert isinstance(loop, ast.For) and loop.var == "p"
    assert (loop.span.line, loop.span.column) == (3, 1)
    choose = tree[3].body[0]
    assert isinstance(choose, ast.Choose)
    bid, passing = choose.options
    assert isinstance(bid.label, ast.Template)
    assert (bid.span.line, bid.span.column) == (12, 9)
    assert isinstance(passing.cond, ast.Compare) and passing.cond.op == "!="
    # a name inside a template hole is located in the file too
    hole = bid.label.parts[1]
    assert isinstance(hole, ast.Name) and hole.id == "n"
    assert (hole.span.line, hole.span.column) == (12, 15)


@pytest.mark.parametrize("text,shape", [
    ("1 + 2 * 3", "BinOp(op='+')|Num(value=1)|BinOp(op='*')"),
    ("a or b and c", "BoolOp(op='or')|Name(id='a')|BoolOp(op='and')"),
    ("not a in b", "Not()|Compare(op='in')"),
    ("a not in b", "Compare(op='not in')"),
    ("-x.y[0]", "Neg()|Index()|Attr(name='y')"),
    ("a if c else b if d else e", "IfExp()|Name(id='c')|Name(id='a')|IfExp()"),
    ("[x for x in xs if x > 1]", "Comp()|Name(id='x')"),
    ("f(a, k=1)", "Call(func='f')"),
])
def test_expression_precedence(text, shape):
    dumped = [line.strip() for line in ast.dump(parse_expr(text)).splitlines() if not line.strip().endswith(":")]
    expected = shape.split("|")
    assert dumped[:len(expected)] == expected


def test_template_strings_split_into_parts():
    node = parse_expr('"{a} pays {b + 1}!"')
    assert isinstance(node, ast.Template)
    assert [type(p).__name__ if not isinstance(p, str) else p for p in node.parts] == \
        ["Name", " pays ", "BinOp", "!"]
    assert parse_expr('"plain"') == ast.Str("plain", span=None)


def test_keyword_and_generator_arguments():
    call = parse_expr("draw(deck, to=p.hand, n=2)")
    assert [k for k, _ in call.kwargs] == ["to", "n"]
    gen = parse_expr("sum(x for x in xs)")
    assert isinstance(gen.args[0], ast.Comp)


# ------------------------------------------------------------------ DSL errors located in YAML

def test_syntax_error_in_a_block_scalar_points_into_the_yaml_file():
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(game_dir("broken/syntax_in_block"))
    (diag,) = info.value.diagnostics
    assert diag.code == "RK0210"
    # rules.yaml line 7 is `      if n > 0`: the missing `:` belongs after column 14
    assert where(diag) == ("rules.yaml", 7, 15)
    rendered = info.value.render()
    assert "7 |       if n > 0" in rendered
    assert "rules.yaml:7:15" in rendered


def test_syntax_error_in_a_quoted_string_counts_the_quote():
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(game_dir("broken/dsl_in_string"))
    (diag,) = info.value.diagnostics
    assert diag.code == "RK0201"
    assert diag.message == "unexpected `*`"
    assert where(diag) == ("game.yaml", 8, 16)   # `    expr: "x * * 2"`: the second `*`


FOLDED = """\
meta: {title: Folded}
players: {min: 1, max: 2}
functions:
  f:
    params: [x]
    expr: >-
      x + 1
      + * 2
  g:
    params: [x]
    expr: x +
      * 2
  h:
    params: [x]
    expr: |
      (x
        + 1 +)
flow:
  rounds: 1
  phases:
    - id: main
      do: "pass"
"""


def test_errors_in_folded_plain_and_literal_scalars_point_at_the_right_line(write_game):
    folder = write_game(FOLDED)
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder)
    got = [(d.code, where(d)[1:]) for d in info.value.diagnostics]
    assert got == [
        ("RK0218", (8, 9)),    # folded: the `*` on the second line of the block
        ("RK0218", (12, 7)),   # plain multi-line: the `*` on the continuation line
        ("RK0218", (17, 14)),  # literal: the `)` right after the dangling `+` on line 2
    ]


def test_compile_errors_are_located_in_blocks(write_game):
    folder = write_game("""\
        meta: {title: T}
        players: {min: 1, max: 2}
        vars: {total: 0}
        flow:
          rounds: 1
          phases:
            - id: main
              do: |
                total = 1

                total += totl
        """)
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder)
    (diag,) = info.value.diagnostics
    assert (diag.code, diag.message, diag.help) == ("RK0301", "unknown name `totl`", "did you mean `total`?")
    assert where(diag)[1:] == (11, 18)
    assert (diag.span.end_line, diag.span.end_column) == (11, 22)


def test_texts_parse_in_several_threads_at_once():
    """The language server parses in several threads: lark's one postlexer held each parse's
    indentation, and two at once broke each other's (an AssertionError inside lark, seen as a
    completion failing now and then)."""
    import threading

    from rulekit.dsl.texts import parse_text
    block = "for p{0} in players:\n    if (p{0}.score > (1 +\n        2)):\n        x = [{0}]\n"
    text = "".join(block.format(i) for i in range(40))
    failures: list = []

    def parse_many():
        try:
            for _ in range(15):
                assert parse_text(text, None) and len(parse_text(text, None)) == 40
        except Exception as exc:  # noqa: BLE001 - the test reports whatever broke
            failures.append(repr(exc))

    threads = [threading.Thread(target=parse_many) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
