# SPDX-License-Identifier: MIT
"""Hostile text never becomes code (issue 35, slice A): a game's file names, ids, labels,
texts, keys and titles reach generated code only as ``repr`` literals, so a name holding a
line break and Python runs nothing; dsl/verify.py refuses, as a bug of rulekit (exit 101),
a module the generator could never have written; and a number literal given to a built-in
written in place (``text(1)``) compiles."""
from __future__ import annotations

import io
import json
import tokenize
from pathlib import Path

import pytest

import rulekit
from rulekit.cli.app import main
from rulekit.dsl import code_cache, codegen, compiler, ir, printer, verify
from rulekit.dsl.pysource import NAME, Py, literal, py_identifier
from rulekit.dsl.templates import TEMPLATES
from rulekit.errors import RulekitError

ROOT = Path(__file__).resolve().parents[1]
PROBE = "PROBE"
# creates PROBE in the working folder, with no "/" (it must fit in a file name)
PAYLOAD = ('[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == "_wrap_close"][0]'
           f'.__init__.__globals__["system"]("touch {PROBE}")')
# a line break ends a comment of generated code, and what follows would be code: inside a
# function (indented), at the module's top (after ending the function), after a carriage return
SHAPES = ("\n    " + PAYLOAD + "\n#", "\r    " + PAYLOAD + "\r#", "\n    pass\n" + PAYLOAD + "\ndef _z():\n#")
EVERY = "x" + "".join(SHAPES) + "\u2028'\"\\{}\x00\x1b"       # for texts with no limit on length


def _write(path: Path, data) -> None:
    """JSON is YAML: every string, line breaks and all, as it is."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


def _dsl(text: str) -> str:
    """``text`` as a string of the effect language (single quotes, escaped line breaks)."""
    # the effect language breaks lines with plain newlines only, and `{...}` is a template's part
    text = text.replace("\r", "\n").replace("\u2028", "\n").replace("{}", "()")
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


def _procedures(where: str) -> dict:
    """Procedures whose names, labels, texts and logs carry payloads (in the file ``where``)."""
    label = _dsl("add {k}" + SHAPES[0])
    return {"take_turn": {
        "params": ["p"], "text": EVERY, "ruling": EVERY,
        "do": ("choose p, prompt " + _dsl(EVERY) + ":\n"
               f"    {label} for k in [1, 2] says {_dsl(EVERY)}:\n"
               "        total += k\n"
               "        p.score += k\n"
               f"    {_dsl(where + SHAPES[1])}:\n"
               f"        log({_dsl(EVERY)} + text(1) + text(seat(1)) + motto)\n"
               f"        log('{{p}}' + {_dsl(EVERY)})\n"
               "        p.score += count(others(1)) + seat(1) + len_of(notes)\n"
               f"        assert total >= 0, {_dsl(EVERY)}\n")}}


def hostile_game(base: Path, folder_shape: str = SHAPES[0]) -> Path:
    """A small game with a payload wherever content may hold text: its folder's name, an
    included file's, a variant's and a script's, its title, texts, item ids, labels, table
    keys and members' properties."""
    folder = base / ("game" + folder_shape)
    included = "rules" + SHAPES[1] + ".yaml"
    _write(folder / "game.yaml", {
        "include": [included],
        "meta": {"title": EVERY, "text": EVERY},
        "players": {"min": 1, "max": 2, "default": 2},
        "params": {"rounds_played": 2, "motto": {"value": EVERY, "type": "text"}},
        "sets": {"colours": {"red": {"says": EVERY}, "blue": {"says": "plain"}}},
        "tables": {"notes": {EVERY: 1, "k" + SHAPES[2]: [EVERY]}},
        "components": {"marker": {"copies": 2, "id": "m" + SHAPES[0] + "{n}", "start": "pool",
                                  "props": {"label": EVERY}},
                       "chip": {"items": [{"id": "c" + SHAPES[1]}, {"id": "c" + SHAPES[2]}], "start": "pool"}},
        "zones": {"pool": {"visibility": "public"}},
        "vars": {"total": {"initial": 0, "min": 0, "text": EVERY}},
        "player": {"vars": {"score": 0}},
        "functions": {"len_of": {"params": ["t"], "expr": "count(t)", "text": EVERY}},
        "flow": {"rounds": 2, "phases": [{"id": "turns", "text": EVERY,
                                          "do": "for p in players:\n    take_turn(p)\n"}],
                 "finish": f"log({_dsl(EVERY)} + text(len_of([c.says for c in colours])))\n"},
        "scoring": {"categories": [{"id": "score", "points": "p.score", "text": EVERY}]},
        "invariants": [{"id": "counted", "expr": "total >= 0", "text": EVERY}],
    })
    _write(folder / included, {"procedures": _procedures(included)})
    _write(folder / "variants" / ("v" + SHAPES[2] + ".yaml"), {
        "variant": {"name": "v", "title": EVERY},
        "procedures": _procedures("variant" + SHAPES[0])})
    _write(folder / "scripts" / ("s" + SHAPES[0] + ".yaml"), {
        "game": "..", "title": EVERY, "players": 2, "seed": 1,
        "position": f"total = 1\nlog({_dsl(EVERY)})\n",
        "actions": [{"expect": {"total": 1, "text(1) + motto": "1" + EVERY}}]})
    return folder


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """The working folder a payload would write its probe in."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.delenv("RULEKIT_DEBUG", raising=False)
    return work


def _cli(capsys, *argv) -> tuple:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out + out.err


def _no_code_ran(workdir: Path) -> None:
    assert not (workdir / PROBE).exists(), "a payload in a name ran as code"


# ------------------------------------------------------------------ payloads in names
def test_the_hostile_game_is_a_game(tmp_path, workdir):
    """The game the payloads are planted in loads and plays: what is checked below runs."""
    game = rulekit.load_game(str(hostile_game(tmp_path)))
    assert game.title == EVERY
    state = rulekit.new_game(game, 2, seed=1)
    while not state.over:
        rulekit.apply_index(state, len(rulekit.legal_actions(state)) - 1)
    assert state.result["ranking"]
    _no_code_ran(workdir)


@pytest.mark.parametrize("shape", range(len(SHAPES)))
@pytest.mark.parametrize("command", [("validate",), ("validate", "--variant", "v" + SHAPES[2]),
                                     ("autoplay", "--quiet", "--seed", "3"), ("test", "--random", "2")])
def test_no_name_runs_as_code(tmp_path, workdir, capsys, command, shape):
    folder = hostile_game(tmp_path, SHAPES[shape])
    code, out = _cli(capsys, command[0], folder, *command[1:])
    _no_code_ran(workdir)
    assert code == 0, out
    assert "RK9999" not in out


def test_load_game_runs_no_name(tmp_path, workdir):
    folder = hostile_game(tmp_path)
    for variants in ((), ("v" + SHAPES[2],)):
        game = rulekit.load_game(str(folder), variants)
        state = rulekit.new_game(game, 2, seed=5)
        while not state.over:
            rulekit.apply_index(state, 0)
    _no_code_ran(workdir)


def test_generated_code_holds_names_only_as_literals(tmp_path, workdir):
    game = rulekit.load_game(str(hostile_game(tmp_path)), ("v" + SHAPES[2],))
    module = game.program.module
    source = module.source()
    names = {t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.NAME}
    assert not names & {"__subclasses__", "__globals__", "_z"}, "every payload is in a literal or a comment"
    assert len(source.splitlines()) == len(module.lines), "no line break but those the generator writes"
    assert all(line.isprintable() for line in module.lines)
    assert "\\n" in module.filename and "\n" not in module.filename and "\r" not in module.filename
    verify.check(source, module.comp.ns)        # passes the check it passed before it ran


@pytest.mark.parametrize("place, data, pointer", [
    ("a phase's id", lambda: {"flow": {"rounds": 1, "phases": [{"id": "t" + SHAPES[0], "do": "pass"}]}},
     "game.yaml"),
    ("a procedure's name", lambda: {"procedures": {"p" + SHAPES[1]: {"do": "pass"}},
                                    "flow": {"rounds": 1, "phases": [{"id": "t", "do": "pass"}]}}, "game.yaml"),
    ("a function's parameter", lambda: {"functions": {"f": {"params": ["a" + SHAPES[2]], "expr": "1"}},
                                        "flow": {"rounds": 1, "phases": [{"id": "t", "do": "pass"}]}}, "game.yaml"),
])
def test_a_name_the_schema_refuses_is_a_located_error(tmp_path, workdir, capsys, place, data, pointer):
    folder = tmp_path / "g"
    _write(folder / "game.yaml", {"meta": {"title": "T"}, "players": {"min": 1, "max": 2}, **data()})
    for command in (("validate",), ("autoplay", "--quiet"), ("test", "--random", "1")):
        code, out = _cli(capsys, command[0], folder, *command[1:])
        assert code == 1, f"{place}: {out}"
        assert "RK9999" not in out and pointer in out and "error[" in out
    with pytest.raises(RulekitError):
        rulekit.load_game(str(folder))
    _no_code_ran(workdir)


# ------------------------------------------------------------------ one helper for text
@pytest.mark.parametrize("text", [EVERY, *SHAPES, "", "é", "\udc80", "__class__"])
def test_literal_and_identifier_let_no_text_through(text):
    assert eval(literal(text), {"__builtins__": {}}) == text     # noqa: S307 - our own literal
    assert "\n" not in literal(text) and "\r" not in literal(text) and literal(text).isprintable()
    fragment = py_identifier(text)
    assert all(c.isascii() and (c.isalnum() or c == "_") for c in fragment) and len(fragment) == len(text)
    with pytest.raises(TypeError):
        literal(b"bytes")


def test_every_comment_of_generated_code_is_literals(tmp_path, workdir):
    """A comment says a name and a place, each a literal."""
    module = rulekit.load_game(str(hostile_game(tmp_path))).program.module
    comments = [line.split("#", 1)[1] for line in module.lines if "#" in line and line.lstrip().startswith(
        ("#", "def "))]
    assert comments
    for comment in comments:
        assert comment.startswith(" '"), comment


# ------------------------------------------------------------------ defence in depth
def test_a_generator_bug_that_lets_a_name_through_is_refused(tmp_path, workdir, capsys, monkeypatch):
    """With the comments' names written raw again (the bug of issue 35), the check refuses the
    module before it runs: an internal error, nothing run."""
    monkeypatch.setattr(codegen, "_named", lambda name, span: f"{name} ({span.path if span else ''})")
    code, out = _cli(capsys, "autoplay", hostile_game(tmp_path), "--quiet")
    _no_code_ran(workdir)
    assert code == 101 and "internal error[RK9999]" in out and "generated code refused" in out, out


GOOD = "def run_x_0(s, f):\n    e = f.env\n    if e['a'].__class__ is LIST:\n        return SEQ(s, e['a'])\n"


@pytest.mark.parametrize("source, what", [
    (GOOD.replace("e['a'].__class__ is LIST", "e['a'].__class__.__base__ is LIST"), "attribute `__base__`"),
    (GOOD.replace("SEQ(s, e['a'])", "SEQ(s, e['a'].__class__)"), "attribute `__class__`"),
    (GOOD.replace("SEQ(s, e['a'])", "e['a'].format(s)"), "attribute `format`"),
    (GOOD.replace("SEQ(s, e['a'])", "__builtins__"), "the name `__builtins__`"),
    (GOOD.replace("SEQ", "open"), "unknown name `open`"),
    (GOOD.replace("SEQ(s, e['a'])", "(lambda: 1)"), "kind `Lambda`"),
    (GOOD.replace("SEQ(s, e['a'])", "f'{s}'"), "kind `JoinedStr`"),
    (GOOD + "    import os\n", "kind `Import`"),
    (GOOD + "import os\n", "a statement outside a function"),
    (GOOD + "SEQ(1)\n", "a statement outside a function"),
    (GOOD.replace("(s, f)", "(s, f=SEQ(1))"), "the function `run_x_0`"),
    ("@SEQ\n" + GOOD, "the function `run_x_0`"),
    (GOOD.replace("return SEQ(s, e['a'])", "global LIST"), "kind `Global`"),
    (GOOD.replace("SEQ(s, e['a'])", "b'x'"), "constant of kind `bytes`"),
    # a block of a procedure reading a local another block set: fine in one function, not in two
    (GOOD.replace("return SEQ(s, e['a'])", "ch = 1\n        return ch")
     + "def run_x_0_block_1(s, f, e):\n    return ch\n", "unknown name `ch` in `run_x_0_block_1`"),
])
def test_the_check_refuses_what_the_generator_never_writes(source, what):
    verify.check(GOOD, {"LIST": list, "SEQ": None})
    with pytest.raises(verify.RefusedCode, match=what.replace("(", r"\(")):
        verify.check(source, {"LIST": list, "SEQ": None})


@pytest.mark.parametrize("name", ["goa", "batavia"])
def test_the_shipped_games_pass_the_check(name):
    module = rulekit.load_game(name).program.module
    verify.check(module.source(), module.comp.ns)


def test_a_refused_source_is_never_compiled_nor_kept():
    text = "import os\n"
    with pytest.raises(verify.RefusedCode):
        code_cache.compiled(text, "<rulekit test>", check=lambda source: verify.check(source, {}))
    assert text not in code_cache._memory


def test_a_checked_source_is_not_checked_again():
    seen: list = []
    text = f"def _f(s):\n    return {id(seen)}\n"      # a source no other test compiled
    for _ in range(2):
        code_cache.compiled(text, "<rulekit test>", check=seen.append)
    assert seen == [text]


# ------------------------------------------------------------------ number literals in built-ins
@pytest.mark.parametrize("expr, value", [("text(1)", "1"), ("text(-1)", "-1"), ("seat(1)", 2),
                                         ("count(others(1))", 1), ("text(seat(0))", "1")])
def test_a_number_given_to_a_builtin_written_in_place_compiles(tmp_path, expr, value):
    folder = tmp_path / "n"
    _write(folder / "game.yaml", {
        "meta": {"title": "N"}, "players": {"min": 2, "max": 2},
        "vars": {"out": {"initial": 0, "type": "any"}},    # a text or a number
        "flow": {"rounds": 1, "phases": [{"id": "t", "do": f"out = {expr}\n"}]},
    })
    game = rulekit.load_game(str(folder))
    state = rulekit.new_game(game, 2, seed=1)
    assert state.over and state.g["out"] == value


def test_a_number_builtin_in_the_cli_is_no_internal_error(tmp_path, workdir, capsys):
    folder = tmp_path / "n"
    _write(folder / "game.yaml", {
        "meta": {"title": "N"}, "players": {"min": 2, "max": 2},
        "player": {"vars": {"score": 0}},
        "flow": {"rounds": 1, "phases": [{"id": "t", "do": "for p in others(1):\n    p.score += seat(1)\n"
                                                                "log(text(1))\n"}]},
        "scoring": {"categories": [{"id": "score", "points": "p.score"}]},
    })
    for command in (("validate",), ("autoplay", "--quiet"), ("test", "--random", "1")):
        code, out = _cli(capsys, command[0], folder, *command[1:])
        assert code == 0 and "RK9999" not in out, out


def test_a_value_read_twice_may_stand_before_an_attribute():
    """Built-ins' forms test ``{first}.__class__``: the first read of a number is parenthesised
    (``1.__class__`` is no Python), names, texts and stored values are as they are."""
    comp = compiler.Compiler.__new__(compiler.Compiler)      # _twice reads these two fields alone
    comp.at, comp.names = compiler.Writing(), compiler.ModuleNames()
    assert comp._twice(literal(1)) == ("(1)", "1")
    assert comp._twice(literal(-2)) == ("(-2)", "-2")
    assert comp._twice(Py("x", NAME)) == ("x", "x")
    assert comp._twice(literal("a b")) == ("'a b'", "'a b'")
    first, again = comp._twice("f(x)")     # (a stored value's text is bracketed whole: it may stand anywhere)
    assert (printer.tidy(first), again) == ("(_t := f(x))", "_t") and first.startswith("(")
    first, again = comp._twice("x")        # text of no known kind: nothing is assumed
    assert (printer.tidy(first), again) == ("(_t_2 := x)", "_t_2") and first.startswith("(")
    forms = [(t.inline, 1) for t in TEMPLATES.values() if t.inline] + \
        [(w, n) for t in TEMPLATES.values() if t.walks for n, w in t.walks.items()]
    for form, n in forms:
        first, again = comp._twice(literal(1))
        written = ir.code(form, *[again] * n, *[first] * n, Py("c", NAME))
        compile(str(written), "<form>", "eval")       # every form takes a number, its text and its tree
        assert "1.__class__" not in written.replace("(1).__class__", "")
        assert "1.__class__" not in printer.tidy(written).replace("(1).__class__", "")


def test_the_code_cache_file_is_named_by_the_checks_rules():
    assert verify.VERSION in code_cache._PYTHON
