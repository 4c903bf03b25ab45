"""Recursion in content has a documented limit (issue #38, docs/language.md "functions"): a function
calling itself 250 deep works; far deeper is RK4000 on the content line, never a Python traceback."""
import pytest

import rulekit
from rulekit.errors import ContentRuntimeError

from conftest import ONE_DECISION

GAME = """\
meta: {title: R}
players: {min: 1, max: 1}
functions:
  depth: {params: [n], expr: "0 if n == 0 else 1 + depth(n - 1)"}
vars:
  out: none
setup: |
  out = depth(DEPTH)
""" + ONE_DECISION


def test_250_calls_deep_work(write_game):
    assert rulekit.new_game(rulekit.load_game(write_game(GAME.replace("DEPTH", "250"))), 1).g["out"] == 250


def test_far_deeper_is_a_content_error_on_its_line(write_game):
    text = GAME.replace("DEPTH", "5000")
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(rulekit.load_game(write_game(text)), 1)
    assert info.value.code == "RK4000" and "too deeply" in str(info.value)
    lines = text.splitlines()
    declared = next(k for k, line in enumerate(lines, 1) if line.startswith("  depth:"))
    assert info.value.span.line in (declared, lines.index("  out = depth(5000)") + 1)
