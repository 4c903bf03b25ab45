"""Generated code reads like careful hand-written code: lines within 120 columns, laid out
without changing a token, and each statement naming the content line it came from."""
import ast
import os
import re

import pytest

from rulekit.dsl import layout
from rulekit.games import load_game

MODULES = [("goa", ()), ("goa", ("pro",)), ("batavia", ()), ("batavia", ("open-route",)),
           ("examples/for-sale", ()), ("examples/modern-art", ())]


def _module(game, variants=()):
    return load_game(game, variants).program.module


@pytest.mark.parametrize(("game", "variants"), MODULES)
def test_no_generated_line_is_longer_than_120(game, variants):
    lines = _module(game, variants).source().splitlines()
    long = [(n, len(line)) for n, line in enumerate(lines, 1) if len(line) > layout.WIDTH]
    assert not long


@pytest.mark.parametrize("game", ["goa", "batavia"])
def test_laying_lines_out_changes_no_token(game, monkeypatch):
    wrapped = _module(game).source()
    monkeypatch.setattr(layout, "WIDTH", 10**6)
    unwrapped = _module(game).source()
    assert max(map(len, unwrapped.splitlines())) > 120     # there was something to lay out
    assert len(unwrapped.splitlines()) < len(wrapped.splitlines())
    assert ast.dump(ast.parse(wrapped)) == ast.dump(ast.parse(unwrapped))


@pytest.mark.parametrize("game", ["goa", "batavia"])
def test_each_statement_names_its_content_line(game):
    module = _module(game)
    noted = set()
    home = None
    for text, span in zip(module.lines, module.spans):
        if not text.startswith(" "):
            home = os.path.normpath(span.path) if span is not None else home
            continue
        found = re.search(r"  # (?:'([^']+)' )?line (\d+)$", text)
        if found:
            path = os.path.normpath(os.path.join(os.path.dirname(home), found.group(1))) if found.group(1) else home
            noted.add((path, int(found.group(2))))
    stated = {(os.path.normpath(span.path), span.line) for text, span in zip(module.lines, module.spans)
              if span is not None and text.startswith(" ")}
    assert stated and stated <= noted, sorted(stated - noted)[:5]


def test_a_note_names_the_file_where_a_statement_comes_from_another():
    source = _module("goa", ("colonists-card-only",)).source()
    assert re.search(r"  # 'variants/colonists-card-only.yaml' line \d+$", source, re.M)


def _same_tree(lines: list, text: str) -> bool:
    return ast.dump(ast.parse("\n".join(lines).strip())) == ast.dump(ast.parse(text))


CASES = [
    "x = MOVE(s, (s.zones[l_pile][-1] if l_pile.__class__ is ZONEKEY and s.zones[l_pile] else B_top_137(s, l_pile)), "
    "(F_grid_1.zones.get(l_s) or NOSPACE(F_grid_1, l_s)), 'top', K545)",
    "if (a_very_long_name_number_one not in some_collection_of_things) and (another_long_name is not None) and "
    "(third_long_condition_name == 'a text with, a comma and (a bracket'):",
    "return [v1_t for v1_t in s.zones[PZ_plantations_67[e['p']]] if ITEMS[v1_t]['spice'] == e['sp']] + "
    "[v2_t for v2_t in s.zones[PZ_colonies_69[e['p']]] if CONTAINS(s, e['sp'], s.iprops['contents'].get(v2_t))]",
    "for v518_n in (RANGE(_t228, _t229) if ((_t228 := (e['bid'] + 1)).__class__ is INT) & ((_t229 := "
    "(s.p[e['q']]['ducats'] + 1)).__class__ is INT) and _t229 - _t228 <= MAX_RANGE else B_range_124(s, _t228, -1)):",
]


@pytest.mark.parametrize("text", CASES)
@pytest.mark.parametrize("width", [60, 80, 120])
def test_a_long_line_is_broken_inside_brackets_only(text, width):
    body = text + ("\n    pass" if text.endswith(":") else "")
    lines = layout.lay_out("    ", text, "# line 7", width=width)
    assert lines[0].endswith("  # line 7") and len(lines) > 1
    laid = "\n".join(line[4:] for line in lines) + ("\n    pass" if text.endswith(":") else "")
    assert _same_tree(laid.splitlines(), body)
    assert "'a text with, a comma and (a bracket'" in laid or "a text" not in text    # a text is one token
    if width >= 80:
        assert max(map(len, lines)) <= width


def test_a_short_line_is_left_as_it_is():
    assert layout.lay_out("        ", "e['bid'] = 0", "# line 846") == ["        e['bid'] = 0  # line 846"]


@pytest.mark.parametrize("game", ["goa", "batavia"])
def test_one_name_for_each_table(game):
    """A table the rules read in many places is bound once, under one name (not one per use)."""
    namespace = _module(game).comp.ns
    names: dict = {}
    for name, value in namespace.items():
        names.setdefault(id(value), []).append(name)
    assert not [same for same in names.values() if len(same) > 1]


@pytest.mark.parametrize("game", ["goa", "batavia"])
def test_a_long_procedure_reads_as_a_function_per_block(game):
    """Goa's `action_turn` (68 blocks) was one function of 587 lines under nested `if pc < N`; a
    resumable procedure of 24 blocks or more is now a function per block, run from a table."""
    tree = ast.parse(_module(game).source())
    sizes = {f.name: f.end_lineno - f.lineno + 1 for f in tree.body}
    blocks = [name for name in sizes if "_block_" in name]
    assert bool(blocks) == (game == "goa")      # no procedure of Batavia has 24 blocks
    if game == "goa":
        run = "run_action_turn"
        # (a block no run reaches is not written: 54 of its 68)
        assert sizes[run] <= 10 and sum(name.startswith("action_turn_") for name in blocks) >= 50
        assert max(sizes[name] for name in blocks) <= 40


@pytest.mark.parametrize(("game", "variants"), MODULES)
def test_no_statement_follows_one_that_leaves(game, variants):
    """Nothing is written after a `return`, `continue`, `break` or `raise` in the same body: a
    procedure whose last block returns already ends there, with no second return (codegen
    ``resumable_function``), as a careful person would write it."""
    tree = ast.parse(_module(game, variants).source())
    dead = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if isinstance(body, list):
                dead += [f"line {after.lineno}: {ast.unparse(after)}" for leaves, after in zip(body, body[1:])
                         if isinstance(leaves, (ast.Return, ast.Continue, ast.Break, ast.Raise))]
    assert dead == []
