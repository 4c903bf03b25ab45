# SPDX-License-Identifier: MIT
"""`rulekit compile`: the generated module of a game, listed for reading (rulekit/view/listing.py)."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

import rulekit
from rulekit.cli.app import main
from rulekit.dsl import passes
from rulekit.view.listing import describe, listing

from conftest import regenerating_command, run_cli

ROOT = Path(__file__).resolve().parents[1]
TABLE_LINE = re.compile(r"^# ([A-Za-z_][A-Za-z0-9_]*) = (.*)$")
MODULE_MARK = re.compile(r"^# ---- the module ----.*its line L is line L\+(\d+) here\)$")


@pytest.fixture(autouse=True)
def _at_the_repository_root(monkeypatch):
    """Spans name content files relative to the current folder: `games/goa/rules.yaml`."""
    monkeypatch.chdir(ROOT)


run = run_cli


def parts(text: str):
    """(table: name -> description, in order; the module's source) of a listing."""
    lines = text.split("\n")
    marks = [i for i, line in enumerate(lines) if MODULE_MARK.match(line)]
    assert len(marks) == 1, "a listing has one line that starts the module"
    offset = int(MODULE_MARK.match(lines[marks[0]]).group(1))
    table = {}
    for line in lines[:marks[0]]:
        match = TABLE_LINE.match(line)
        if match:
            table[match.group(1)] = match.group(2)
    return table, "\n".join(lines[offset:])


def free_names(source: str) -> set:
    """Every name token of the source that is not an attribute (after `.`) nor a keyword argument."""
    out, previous = set(), None
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME and not (previous is not None and previous.string == "."):
            out.add(tok.string)
        if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            previous = tok
    return out


@pytest.fixture(scope="module")
def listings():
    """The stdout of `rulekit compile` for the shipped games, run from the repository root."""
    saved = os.getcwd()
    os.chdir(ROOT)
    try:
        out = {}
        for key, argv in {"goa": ["goa"], "goa+pro": ["goa", "--variant", "pro"], "batavia": ["batavia"]}.items():
            stdout = io.StringIO()
            real, sys.stdout = sys.stdout, stdout
            try:
                code = main(["compile", *argv])
            finally:
                sys.stdout = real
            assert code == 0, stdout.getvalue()[-2000:]
            out[key] = stdout.getvalue()
        return out
    finally:
        os.chdir(saved)


# ------------------------------------------------------------------ the listing
@pytest.mark.parametrize("name", ["goa", "batavia"])
def test_the_listing_is_python_that_compiles(listings, name):
    code = compile(listings[name], f"{name}.py", "exec")
    assert code is not None
    _table, module = parts(listings[name])
    assert "def run_game(s, f):" in module


def test_a_procedure_names_its_content_line(listings):
    _table, module = parts(listings["goa"])
    match = re.search(r"^    # 'auction' \('(games/goa/rules\.yaml):(\d+)'\)", module, re.MULTILINE)
    assert match, "the auction procedure's comment names its place in games/goa/rules.yaml"
    rules = (ROOT / match.group(1)).read_text(encoding="utf-8").splitlines()
    assert rules[int(match.group(2)) - 1].strip() == "auction:"


def test_the_module_part_is_the_generated_source(listings):
    game = rulekit.load_game("goa")
    _table, module = parts(listings["goa"])
    assert module == game.program.module.source()
    assert listing(game) == listings["goa"]


def test_the_header_says_what_this_is(listings):
    head = listings["goa"].split("# Bound names")[0]
    game = rulekit.load_game("goa")
    assert head.startswith("# rulekit's generated code for Goa\n# variants: none\n")
    assert f"# content hash: {game.content_hash}\n" in head
    assert "does not run on its own" in head and "namespace" in head
    assert regenerating_command(head) == ["rulekit", "compile", "goa", "--out", "FILE"]
    assert all(line.startswith("#") or not line for line in head.splitlines())


def test_the_table_lists_the_bound_names_the_source_uses(listings):
    table, module = parts(listings["batavia"])
    group = table.pop("AT_L_C")         # the places of the content, one entry for all (below)
    ns = rulekit.load_game("batavia").program.module.comp.ns
    used = free_names(module)
    defined = set(re.findall(r"^def (\w+)\(", module, re.MULTILINE))
    # every name of the table is read by the module and bound in the namespace...
    assert set(table) <= used - defined
    assert set(table) <= set(ns)
    # ...and every name the module reads from the namespace is in the table, each place of the
    # content (`AT_L_C`, which says its line and column) counted in one entry for them all
    places = {n for n in used - defined if re.fullmatch(r"AT_\d+_\d+", n) and ns[n].line == int(n.split("_")[1])}
    assert {n for n in used - defined if n in ns and n != "__builtins__"} - places <= set(table)
    assert group.startswith(f"<span FILE:L:C> ({len(places)} names)") and len(places) > 50
    # constants, helpers and functions, described briefly
    assert any(n == "B_draw" and d == "<built-in draw>" for n, d in table.items())
    assert any(n == "fn_may_play" and d == "<function may_play>" for n, d in table.items())
    assert any(n == "Z_deck" and d == "deck" for n, d in table.items())
    assert any(n == "PZ_hand" and d.startswith("(p1.hand, p2.hand, ") for n, d in table.items())
    assert any(re.fullmatch(r"CHOOSE\d+(_\d+)?", n) and d.startswith("<choose at games/batavia/rules.yaml:")
               for n, d in table.items())
    assert any(d == "'nobody bids: the lot of '" for d in table.values())
    assert table["MOVE"] == "<function move>" and table["DECIDE"] == "<function decide>"
    assert table["len"] == "<built-in len>"


def test_the_table_is_in_order_of_first_use_and_short(listings):
    table, module = parts(listings["batavia"])
    assert list(table)[-1] == "AT_L_C"      # the places of the content, one entry after the others
    del table["AT_L_C"]
    firsts = [re.search(rf"(?<![\w.]){re.escape(name)}\b", module).start() for name in table]
    assert firsts == sorted(firsts)
    assert all(len(d) <= 80 for d in table.values())
    assert any(d.endswith("...") for d in table.values()), "long values are cut"


@pytest.mark.parametrize("name", ["goa", "batavia"])
def test_no_memory_addresses(listings, name):
    assert not re.search(r"0x[0-9a-fA-F]{6,}", listings[name])
    assert "object at" not in listings[name]


def test_the_same_game_gives_the_same_bytes(capsys, listings):
    code, out, err = run(capsys, "compile", "goa")
    assert code == 0 and err == ""
    assert out == listings["goa"]
    code, again, _ = run(capsys, "compile", "goa")
    assert again == out


def test_the_same_bytes_in_another_process_with_another_hash_seed(listings):
    outs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-m", "rulekit", "compile", "batavia"], cwd=ROOT, env=env, check=False,
                              capture_output=True, text=True, encoding="utf-8", timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        outs.append(done.stdout)
    assert outs[0] == outs[1] == listings["batavia"]


def test_a_variant_changes_the_listing(listings):
    base, pro = listings["goa"], listings["goa+pro"]
    assert base != pro
    assert "# variants: pro\n" in pro
    assert regenerating_command(pro) == ["rulekit", "compile", "goa", "--variant", "pro", "--out", "FILE"]
    _table, module = parts(pro)
    assert "games/goa/variants/pro.yaml:" in pro and "games/goa/variants/pro.yaml:" not in base
    assert parts(base)[1] != module
    compile(pro, "goa-pro.py", "exec")


# ------------------------------------------------------------------ --out and errors
def test_out_writes_the_file_and_creates_its_folder(capsys, listings, tmp_path):
    target = tmp_path / "listings" / "new" / "goa.py"
    code, out, err = run(capsys, "compile", "goa", "--out", str(target))
    assert code == 0 and err == ""
    assert out.startswith(f"wrote {target}: the generated code of Goa (")
    assert target.read_bytes() == listings["goa"].encode("utf-8")


@pytest.mark.parametrize("where", ["under-a-file", "a-folder"])
def test_an_unwritable_out_is_a_usage_error(capsys, tmp_path, where):
    (tmp_path / "taken.py").write_text("x = 1\n", encoding="utf-8")
    target = tmp_path / "taken.py" / "goa.py" if where == "under-a-file" else tmp_path
    code, out, err = run(capsys, "compile", "goa", "--out", str(target))
    assert code == 2
    assert out.startswith(f"error[RK0001]: cannot write `{target}`: ")
    assert "Traceback" not in out + err and err == ""
    assert (tmp_path / "taken.py").read_text(encoding="utf-8") == "x = 1\n"


def test_an_unknown_game_is_the_same_usage_error_as_validate(capsys):
    code, out, _ = run(capsys, "compile", "gao")
    assert code == 2
    assert out.startswith("error[RK0001]: no game `gao`") and "did you mean `goa`?" in out
    assert run(capsys, "validate", "gao")[1] == out


def test_an_unknown_variant_is_a_usage_error(capsys):
    code, out, _ = run(capsys, "compile", "goa", "--variant", "pr")
    assert code == 2
    assert out.startswith("error[RK0001]: no variant `pr` (known: ") and "did you mean `pro`?" in out


def test_content_errors_exit_1_and_write_nothing(capsys, tmp_path):
    target = tmp_path / "broken.py"
    code, out, _ = run(capsys, "compile", "tests/games/broken/unknown_key", "--out", str(target))
    assert code == 1
    assert "error[RK0120]: unknown key `visibilty`" in out
    assert not target.exists()


# ------------------------------------------------------------------ content cannot break out of a comment
EVIL = r'''
meta: {title: "Evil\ntitle\u2028end"}
players: {min: 2, max: 2, default: 2}
tables:
  lines: ["one\ntwo\r# three\u2028four\0five\x1b[31m\x85", "plain"]
player:
  vars:
    banked: {initial: 0}
procedures:
  turn:
    params: [p]
    do: |
      log("{lines[0]}")
      p.banked += count(lines)
flow:
  rounds: 1
  phases:
    - id: turns
      do: |
        for p in players:
            turn(p)
scoring:
  categories:
    - {id: banked, points: "p.banked"}
'''


def test_content_text_is_escaped_in_comments(capsys, write_game):
    folder = write_game(EVIL, name="evil")
    code, out, err = run(capsys, "compile", folder)
    assert code == 0, out + err
    compile(out, "evil.py", "exec")
    assert out.splitlines() == out.split("\n")[:-1], "no line breaks but \\n"
    assert all(line.isprintable() for line in out.split("\n"))
    assert "# rulekit's generated code for Evil\\ntitle\\u2028end\n" in out
    table, module = parts(out)
    assert "'one\\ntwo\\r# three\\u2028four\\x00five\\x1b[31m\\x85', 'plain']" in "\n".join(table.values())
    assert module == rulekit.load_game(folder).program.module.source()
    assert regenerating_command(out) == ["rulekit", "compile", str(folder), "--out", "FILE"]


def test_describe_is_short_and_deterministic():
    assert describe({"b", "a", "c"}) == "{'a', 'b', 'c'}"
    assert describe(frozenset()) == "frozenset()"
    assert describe((1,)) == "(1,)"
    long = describe(list(range(1000)))
    assert len(long) == 80 and long.endswith("...")
    assert describe("a\nb\x00") == "'a\\nb\\x00'"

    class Thing:
        pass
    assert not re.search("0x", describe(Thing()))
    assert describe(print) == "<built-in print>"


ALL_BUT_TWO = "--passes=" + ",".join(f"-{name}" for name in passes.NAMES[:-2])


@pytest.mark.parametrize("argv", [
    ["goa", "--passes=-all"],       # every pass off: the deepest nests of any listing
    ["goa", ALL_BUT_TWO],            # a setting too long for one line of the header
    ["examples/crownfields", "--variant", "examples/crownfields/variants/harmony.yaml"],
])
def test_a_listing_keeps_within_120_columns_and_its_header_makes_it_again(capsys, tmp_path, argv):
    code, out, err = run(capsys, "compile", *argv)
    assert code == 0, err
    assert [line for line in out.splitlines() if len(line) > 120] == []
    again = regenerating_command(out)
    assert again[:2] == ["rulekit", "compile"] and again[-2:] == ["--out", "FILE"]
    target = tmp_path / "again.py"
    code, _out, err = run(capsys, *again[1:-1], str(target))
    assert code == 0, err
    assert target.read_text() == out
