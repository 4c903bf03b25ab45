# SPDX-License-Identifier: MIT
"""An index past the end, in content terms and on its content line, from what the compiler
recorded as it made the module (dsl/subscripts.py, ``runtime.SUBSCRIPTS``): the engine never
parses generated source nor reads it back (#54)."""
from __future__ import annotations

import ast
import builtins
import gc
import linecache

import pytest

import rulekit
from rulekit.dsl import subscripts, verify
from rulekit.engine import vm
from rulekit.engine.runtime import LINE_SPANS, SUBSCRIPTS
from rulekit.errors import ContentRuntimeError

GAME = """\
meta: {title: Past the end}
players: {min: 1, max: 1}
components: {card: {copies: 3, id: "c{n}", start: hand}}
zones: {hand: {}}
vars: {out: 0, k: 5}
flow:
  rounds: 1
  phases:
    - id: go
      do: |
        xs = [1, 2, 3]
        word = "abcd"
        FAULT
scoring: {categories: [{id: s, points: "out"}]}
"""


def _failure(write_game, fault: str, name: str = "g") -> tuple[ContentRuntimeError, int]:
    """The failure of a game whose phase runs ``fault``, and the content line ``fault`` is on."""
    text = GAME.replace("FAULT", fault)
    game = rulekit.load_game(write_game(text, name=name))
    with pytest.raises(ContentRuntimeError) as failed:
        rulekit.new_game(game, 1)
    return failed.value, text.splitlines().index(f"        {fault}") + 1


@pytest.mark.parametrize("fault, words", [
    ("out = hand[k]", "index 5 is past the end of `hand` (3 items)"),
    ("out = xs[k]", "index 5 is past the end of the list (3 items)"),
    # (a text is indexed by the engine's GETITEM, not in place: its words are the same)
    ("out = word[k]", "index 5 is past the end of the text (4 items)"),
    ("out = xs[0 - k]", "index -5 is past the start of the list (3 items)"),
    ("out = hand[k - 9]", "index -4 is past the start of `hand` (3 items)"),
    ("out = [7][k - 4]", "index 1 is past the end of the list (1 item)"),
    # (a subscript laid out over several generated lines: the line's text alone never parsed)
    (f"out = xs[k if {' and '.join(f'k != {10 ** 12 + n}' for n in range(8))} else 0]",
     "index 5 is past the end of the list (3 items)"),
])
def test_an_index_past_the_end_names_the_value_on_its_content_line(write_game, fault, words):
    err, line = _failure(write_game, fault)
    assert err.code == "RK4020" and err.span.line == line, (err.code, err.span)
    assert words in str(err), str(err)


def test_the_message_is_worded_without_parsing_generated_source(write_game, monkeypatch):
    """Whatever parses or compiles Python, or reads a generated line back, fails while the game
    fails: the message is whole all the same (it used to be made by parsing the generated line
    again, from linecache)."""
    text = GAME.replace("FAULT", "out = hand[k]")
    game = rulekit.load_game(write_game(text))

    def refused(*args, **kwargs):
        raise AssertionError("generated source parsed or read at a failure")

    with monkeypatch.context() as patched:
        for owner, name in ((ast, "parse"), (builtins, "compile"), (linecache, "getline"),
                            (linecache, "getlines")):
            patched.setattr(owner, name, refused)
        with pytest.raises(ContentRuntimeError) as failed:
            rulekit.new_game(game, 1)
    assert "index 5 is past the end of `hand` (3 items)" in str(failed.value)
    assert not hasattr(vm, "pyast") and not hasattr(vm, "linecache") and not hasattr(vm, "compile")


def test_a_subscript_that_calls_is_not_worked_out_again():
    """What may be read again at a failure is decided as the module is compiled: a subscript
    whose parts only read (a pure built-in function among them) has its reads; one that calls
    anything else (which might change something, or fail another way) has none, and its failure
    keeps the plain message; a table's key written as a text and a slice are no index."""
    source = ("def f(s, e):\n"
              "    return s.zones[Z][e['i']] + xs[PURE(k)] + xs[CALLED(k)] + e['t'] + xs[1:k] + t[-k]\n")
    pure = next(b.impl for b in rulekit.engine.library.REGISTRY.values() if b.kind == "function" and b.pure)
    subscripts.forget()
    table = subscripts.table(source, {"PURE": pure, "CALLED": print})
    line = source.splitlines()[1].encode()
    written = {line[start:stop].decode() for (_, _, start, stop) in table}
    assert written == {"s.zones[Z][e['i']]", "s.zones[Z]", "xs[PURE(k)]", "t[-k]"}
    reads = {line[start:stop].decode(): entry for (_, _, start, stop), entry in table.items()}
    assert reads["s.zones[Z][e['i']]"][1] and not reads["xs[PURE(k)]"][1]
    names = {"s": None, "Z": 0, "e": {"i": 3}, "xs": [1], "t": "ab", "k": 1, "PURE": lambda k: k}
    assert eval(reads["xs[PURE(k)]"][0], names) == ([1], 1)    # noqa: S307
    assert eval(reads["t[-k]"][0], names) == ("ab", -1)        # noqa: S307


def test_the_reads_live_as_long_as_the_module(write_game):
    game = rulekit.load_game(write_game(GAME.replace("FAULT", "out = xs[k]")))
    filename = game.program.module.filename
    assert filename in LINE_SPANS and SUBSCRIPTS[filename], "no reads kept for the game's module"
    del game
    gc.collect()
    assert filename not in SUBSCRIPTS and filename not in LINE_SPANS


def test_a_module_from_the_code_cache_has_its_reads(write_game, monkeypatch):
    """A module whose code was compiled before (dsl/code_cache.py: not checked again, so no tree
    at hand) is parsed by the compiler as it is loaded, never by the engine at the failure."""
    folder = write_game(GAME.replace("FAULT", "out = xs[k]"))
    first = rulekit.load_game(folder)
    subscripts.forget()

    def checked_again(*args, **kwargs):
        raise AssertionError("the module was compiled afresh")

    monkeypatch.setattr(verify, "check", checked_again)
    again = rulekit.load_game(folder)
    monkeypatch.undo()
    assert again.program.module.filename != first.program.module.filename
    assert SUBSCRIPTS[again.program.module.filename]
    with pytest.raises(ContentRuntimeError) as failed:
        rulekit.new_game(again, 1)
    assert "index 5 is past the end of the list (3 items)" in str(failed.value)
