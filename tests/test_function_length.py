"""No generated function reads longer than 60 lines, a flat table apart (issue 54).

A function the compiler writes that would be longer is cut into parts (dsl/blocks.py): a resumable
procedure's blocks into a few functions run from a table by pc, a straight function (a procedure
that never stops, a choose's listing of options) at its top-level statements. The games must
play the same with the parts as without them: the options at every decision, the log, the final
state.
"""
import ast
import os

import pytest
from test_passes import _played  # a digest of seeded random games: the options, the log, the end

from rulekit.dsl import blocks, ir
from rulekit.dsl.pysource import Jump
from rulekit.games import find_game, load_game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = sorted(f"examples/{name}" for name in os.listdir(os.path.join(ROOT, "examples"))
                  if os.path.exists(os.path.join(ROOT, "examples", name, "game.yaml")))
VARIANTS = {"goa": ["pro"], "batavia": ["open-route", "pirates-once"]}
LONGEST = 60


def _source(game: str, variants=()) -> str:
    return load_game(os.path.join(ROOT, game) if "/" in game else game, variants).program.module.source()


def _flat_table(function: ast.FunctionDef) -> bool:
    """A function that is one table written out: its one statement a literal list, tuple, set or
    dict (returned, or assigned)."""
    body = [st for st in function.body
            if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))]     # (a docstring)
    return len(body) == 1 and isinstance(getattr(body[0], "value", None), (ast.List, ast.Tuple, ast.Set, ast.Dict))


def _too_long(source: str) -> list:
    """(lines, name) of each function of ``source`` longer than LONGEST lines, a flat table apart."""
    return sorted(((node.end_lineno - node.lineno + 1, node.name) for node in ast.walk(ast.parse(source))
                   if isinstance(node, ast.FunctionDef) and node.end_lineno - node.lineno + 1 > LONGEST
                   and not _flat_table(node)), reverse=True)


@pytest.mark.parametrize("game", ["goa", "batavia", *EXAMPLES])
def test_no_generated_function_is_longer_than_60_lines(game):
    assert blocks.FUNCTION_LINES == LONGEST
    assert _too_long(_source(game)) == []


@pytest.mark.parametrize(("game", "variant"), [(game, v) for game, names in VARIANTS.items() for v in names])
def test_nor_with_a_variant(game, variant):
    assert _too_long(_source(game, (variant,))) == []


def test_the_check_sees_a_long_function_and_lets_a_flat_table_be():
    long_body = "\n".join(f"    x{i} = {i}" for i in range(LONGEST))
    table = "\n".join(f"        {i}," for i in range(LONGEST))
    source = f"def long(s):\n{long_body}\n\ndef table():\n    return [\n{table}\n    ]\n"
    assert _too_long(source) == [(LONGEST + 1, "long")]


@pytest.mark.parametrize(("game", "players"), [("goa", 4), ("batavia", 5), ("examples/modern-art", 3),
                                               ("examples/for-sale", 4)])
def test_the_parts_change_the_code_not_the_games(game, players, monkeypatch):
    path = os.path.join(ROOT, game) if "/" in game else find_game(game)
    cut = load_game(path)
    with monkeypatch.context() as patch:
        patch.setattr(blocks, "FUNCTION_LINES", 10**6)       # every function whole, however long
        whole = load_game(path)
    assert _too_long(whole.program.module.source()) != []
    assert _too_long(cut.program.module.source()) == []
    assert _played(cut, players, range(3)) == _played(whole, players, range(3))


def test_a_part_is_given_what_it_reads_of_the_lines_before_it():
    """What a run of lines reads before binding it itself: a name bound only in a branch is still
    read from before; a loop's target is the loop's own, an element it stores into is read; a
    cache (``x or (x := ...)``) is worked out again; a jump makes the lines stay in their block."""
    lines = [(1, ir.stmt("if c:"), None), (2, ir.stmt("x = 1"), None), (1, ir.stmt("y = x + 1"), None),
             (1, ir.stmt("for e['q'] in items:"), None), (2, ir.stmt("z = e['q']"), None), (2, ir.stmt("w = z"), None),
             (1, ir.stmt("for v in z:"), None), (2, ir.stmt("w = v"), None),
             (1, ir.stmt("t = (_tc or (_tc := f(s)))"), None)]
    reads = blocks.Reads(lines, frozenset({"_tc"}))
    assert list(reads.inputs) == ["c", "x", "e", "items", "z", "f", "s"]
    assert reads.caches == {"_tc"} and list(reads.certain) == ["y", "t"] and not reads.leaves
    assert blocks.Reads([*lines, (1, Jump(3), None)]).leaves
