# SPDX-License-Identifier: MIT
"""rulekit/limits.py is the one place a limit or default is written (issue 56): every bound-like
module constant under rulekit/ is imported from it, never written again where it is applied."""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from rulekit import limits

PACKAGE = Path(limits.__file__).parent
# The names a limit or default goes by where it is applied: MAX_*, *_LIMIT, *_SECONDS, *_SIZE,
# *_DEPTH, *_ENTRIES, and the language server's child's bounds.
BOUND_LIKE = re.compile(r"_?(MAX_\w+|\w*LIMIT|\w*SECONDS|\w+_SIZE|\w*DEPTH|\w*ENTRIES|BACKSTOP|MEMORY|REQUESTS)")
# Numbers named like a limit that stay where they are (limits.py's docstring says which kinds):
# they change how the work is done or shown, never what a user is refused or given.
TUNING = {
    ("dsl/forms.py", "UNROLL_SIZE"),        # a test written out member by member, or as a loop
    ("dsl/analysis.py", "INLINE_SIZE"),     # a body written in place of its call, or called
    ("dsl/codegen.py", "FLAT_DEPTH"),       # how generated code is laid out
    ("view/listing.py", "_DEPTH"),          # how deep a listing shows a value before `...`
}
# Each limit moved here from the module that applies it, with the name it has there.
APPLIED = [
    ("rulekit.engine.limits", "MAX_SIZE", "MAX_SIZE"),
    ("rulekit.engine.limits", "MAX_BITS", "MAX_BITS"),
    ("rulekit.engine.limits", "MAX_LABELS", "MAX_LABELS"),
    ("rulekit.engine.limits", "MAX_BUILT", "MAX_BUILT"),
    ("rulekit.engine.limits", "MAX_STEP_MEMORY", "MAX_STEP_MEMORY"),
    ("rulekit.engine.vm", "DEFAULT_STEP_LIMIT", "DEFAULT_STEP_LIMIT"),
    ("rulekit.engine.watchdog", "LIMIT_SECONDS", "STEP_SECONDS"),
    ("rulekit.engine.runtime", "MAX_DEPTH", "CALL_DEPTH"),
    ("rulekit.engine.library", "MAX_RANGE", "MAX_RANGE"),
    ("rulekit.engine.library", "MAX_SUBSETS", "MAX_SUBSETS"),
    ("rulekit.engine.graphs", "MAX_TRAIL_STEPS", "MAX_TRAIL_STEPS"),
    ("rulekit.engine.memo", "STATIC_LIMIT", "STATIC_MEMO_LIMIT"),
    ("rulekit.agents.estimates", "LIMIT", "ESTIMATES_KEPT"),
    ("rulekit.dsl.parser", "MAX_DIGITS", "MAX_DIGITS"),
    ("rulekit.dsl.texts", "MAX_NESTING", "MAX_NESTING"),
    ("rulekit.dsl.parse_cache", "_MAX_ENTRIES", "PARSE_CACHE_ENTRIES"),
    ("rulekit.dsl.parse_cache", "_MAX_FILE", "CACHE_FILE_BYTES"),
    ("rulekit.dsl.code_cache", "_MAX_ENTRIES", "CODE_CACHE_ENTRIES"),
    ("rulekit.lsp.bounded", "SECONDS", "LSP_SCRIPT_SECONDS"),
    ("rulekit.lsp.bounded", "BACKSTOP", "LSP_BACKSTOP"),
    ("rulekit.lsp.bounded", "MEMORY", "LSP_CHILD_MEMORY"),
    ("rulekit.lsp.bounded", "REQUESTS", "LSP_CHILD_REQUESTS"),
    ("rulekit.builder.components", "MAX_ITEMS", "MAX_ITEMS"),
    ("rulekit.builder.board", "MAX_ZONES", "MAX_ZONES"),
]


def _numeric(node: ast.expr) -> bool:
    """A number written out: a literal, or arithmetic of literals (``64 * 1024``, ``1 << 30``)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _numeric(node.operand)
    if isinstance(node, ast.BinOp):
        return _numeric(node.left) and _numeric(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("int", "float"):
        return all(_numeric(arg) for arg in node.args)
    return False


def _written_numbers():
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        if where == "limits.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            for target in targets:
                if isinstance(target, ast.Name) and _numeric(value):
                    yield where, target.id


def test_no_limit_is_written_outside_the_limits_module():
    written = {(where, name) for where, name in _written_numbers() if BOUND_LIKE.fullmatch(name)}
    assert written - TUNING == set(), "write the limit in rulekit/limits.py, with its reason, and import it"


def test_the_tuning_constants_listed_are_still_where_they_are_said_to_be():
    assert TUNING <= set(_written_numbers())


@pytest.mark.parametrize(("module", "name", "there"), APPLIED, ids=[f"{m}.{n}" for m, n, _ in APPLIED])
def test_each_module_applies_the_one_value_under_its_own_name(module, name, there):
    applied = getattr(importlib.import_module(module), name)
    assert applied is getattr(limits, there) and isinstance(applied, int) and not isinstance(applied, bool)


def test_a_name_in_the_limits_module_is_written_once():
    names = [target.id for node in ast.parse(Path(limits.__file__).read_text(encoding="utf-8")).body
             if isinstance(node, ast.Assign) for target in node.targets]
    assert len(names) == len(set(names))
