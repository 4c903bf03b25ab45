"""Hints for words and forms from other languages (issue #55): `len` -> `count`, `None`/`True`/
`False` -> `none`/`true`/`false`, `&&`/`||` in an expression outside a rule block (RK0223), a
format spec in a template hole (`{x:+}`, RK0222), each an error on its line naming what to write,
as `rulekit validate` prints it; and the docs' `>-` pitfall does fail as they say."""
import subprocess
import sys

import pytest

from conftest import ONE_DECISION

GAME = """\
meta: {title: Hints}
players: {min: 1, max: 1, default: 1}
vars:
  out: 0
setup: |
  out = BODY
""" + ONE_DECISION


def _validate(write_game, text: str) -> str:
    run = subprocess.run([sys.executable, "-m", "rulekit", "validate", write_game(text)], capture_output=True,
                         text=True)
    assert run.returncode == 1, run.stdout
    assert "Traceback" not in run.stderr
    return run.stdout


@pytest.mark.parametrize("body, said, hint", [
    ("count(players) + len(players)", "error[RK0305]: unknown function `len`",
     "did you mean `count`? (`len` is Python's; rulekit writes `count`)"),
    ("None", "error[RK0301]: unknown name `None`", "did you mean `none`?"),
    ("True", "error[RK0301]: unknown name `True`", "did you mean `true`?"),
    ("False", "error[RK0301]: unknown name `False`", "did you mean `false`?"),
    ('"{out:+} points"', "error[RK0222]: a template hole takes an expression, with no format after `:`",
     "write the sign or the digits in the text around the hole"),
    ('"{out:.2f}"', "error[RK0222]", "numbers print whole or as fractions"),
])
def test_a_word_or_form_from_python_names_the_language_s(write_game, body, said, hint):
    out = _validate(write_game, GAME.replace("BODY", body))
    assert said in out and hint in out
    assert "game.yaml:6:" in out


@pytest.mark.parametrize("points", ["out && 1", "out || 1", "count(players) == 1 && out"])
def test_symbols_for_and_or_in_an_expression_outside_a_rule_block(write_game, points):
    out = _validate(write_game, GAME.replace("BODY", "1").replace('points: "0"', f'points: "{points}"'))
    assert "error[RK0223]: use `and`, `or` and `not`, not symbols" in out
    assert "write `a and b`, `a or b`, `not a`" in out


def test_a_more_indented_line_in_a_folded_expression_fails_as_the_docs_say(write_game):
    text = GAME.replace("BODY", "1").replace('points: "0"', "points: >-\n        (out\n           + 1)\n        + 2")
    out = _validate(write_game, text)
    assert "error[RK0201]: unexpected `+`" in out
    fixed = GAME.replace("BODY", "1").replace('points: "0"', "points: >-\n        (out + 1)\n        + 2")
    assert subprocess.run([sys.executable, "-m", "rulekit", "validate", write_game(fixed, "fixed")],
                          capture_output=True, text=True).returncode == 0


def test_line_joining_inside_braces():
    from rulekit.dsl.parser import parse_expr
    assert parse_expr('{"tea": 2,\n "coffee": 3}\n') == parse_expr('{"tea": 2, "coffee": 3}\n')
