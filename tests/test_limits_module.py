# SPDX-License-Identifier: MIT
"""Limits and defaults live in rulekit/limits.py, each with its reason, and the modules that apply
them read them from there (issue 56)."""
from __future__ import annotations

import ast
from pathlib import Path

from rulekit import limits

SOURCE = Path(limits.__file__).read_text(encoding="utf-8")


def test_each_value_says_why_in_a_comment_above_it():
    """A value, or a group of values written together, has the comment of its reason above it."""
    lines = SOURCE.splitlines()
    values = [node for node in ast.parse(SOURCE).body if isinstance(node, ast.Assign)]
    assert len(values) > 20
    for node in values:
        above = node.lineno - 2
        while lines[above] and not lines[above].startswith("#"):     # the others of its group
            above -= 1
        assert lines[above].startswith("# ") and not lines[above].startswith("# ----"), \
            f"{node.targets[0].id} has no reason above it"


def test_the_limits_module_imports_nothing():
    assert not [node for node in ast.parse(SOURCE).body if isinstance(node, ast.ImportFrom)
                and node.module != "__future__" or isinstance(node, ast.Import)]


def test_the_copies_that_were_written_by_hand_read_the_one_value():
    from rulekit.content import loader
    from rulekit.rl import observe
    assert loader.MAX_DIGITS is limits.MAX_DIGITS
    assert observe.LIMIT is limits.OBSERVATION_LIMIT
    observe_log = Path(observe.__file__).with_name("observe_log.py").read_text(encoding="utf-8")
    assert "from ..limits import OBSERVATION_LIMIT as LIMIT" in observe_log


def test_the_parser_digits_are_the_content_digits():
    """dsl/parser.py reads the one MAX_DIGITS (it kept a copy of its own before): a number is
    refused at the same length in YAML (RK0116) and in the effect language (RK0221)."""
    from rulekit.dsl import parser
    assert parser.MAX_DIGITS is limits.MAX_DIGITS
    assert "MAX_DIGITS =" not in Path(parser.__file__).read_text(encoding="utf-8")


def test_the_help_says_the_cap_the_agents_apply():
    from rulekit.cli.parsing import Parser, add_max_actions
    parser = Parser()
    add_max_actions(parser)
    said = parser._actions[-1].help
    assert f"{limits.CAP_FACTOR} times the longest of {limits.CAP_PROBES} random games" in said
    assert f"at least {limits.CAP_MIN}" in said
