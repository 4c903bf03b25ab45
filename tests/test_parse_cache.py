# SPDX-License-Identifier: MIT
"""Parsed texts kept between loads: a warm load is the same game, and the cache can
only be right or absent (a changed text is parsed again, a broken file is ignored)."""
from __future__ import annotations

import contextlib
import gc
import shutil
import threading
from pathlib import Path

import pytest

import rulekit
from rulekit import games
from rulekit.agents import RandomAgent
from rulekit.dsl import code_cache, parse_cache
from rulekit.dsl.parser import parse_script
from rulekit.engine import api
from rulekit.engine.runtime import LINE_SPANS
from rulekit.errors import ContentRuntimeError, DiagnosticReport

GAMES = Path(__file__).resolve().parents[1] / "games"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(tmp_path / "cache"))
    parse_cache.forget()
    yield parse_cache.cache_file(str(GAMES / "batavia"))
    parse_cache.forget()


def _actions(game, seed=4):
    s = api.new_game(game, 3, seed, record=False)
    bot = RandomAgent(seed)
    while not s.over:
        api.apply_index(s, bot.choose(s), atomic=False)
    return s.actions


def _trees(monkeypatch):
    """Every tree handed out during one load, in order."""
    seen = []
    real = parse_cache.parsed

    def spy(key, parse):
        tree = real(key, parse)
        seen.append((key, tree))
        return tree
    monkeypatch.setattr(parse_cache, "parsed", spy)
    return seen


def test_a_warm_load_is_the_same_game(cache, monkeypatch):
    cold_trees = _trees(monkeypatch)
    cold = rulekit.load_game("batavia")
    assert cache.is_file()
    parse_cache.forget()                       # a new process: only the file is left
    monkeypatch.undo()
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(cache.parent))
    parsed = [f.name for f in cache.parent.iterdir() if f.name.startswith("parsed-")]
    assert parsed == [cache.name], "one file for the game"
    calls = []
    monkeypatch.setattr("rulekit.model.parse_text", lambda *a, **k: calls.append(a))
    warm_trees = _trees(monkeypatch)
    warm = rulekit.load_game("batavia")
    assert calls == [], "every text came from the cache file"
    assert warm_trees == cold_trees and len(warm_trees) > 50
    assert warm.content_hash == cold.content_hash
    assert _actions(warm) == _actions(cold)


FAILS = """\
meta: {title: F}
players: {min: 1, max: 1}
vars:
  total: 0
procedures:
  add:
    params: [n]
    do: |
      total = n // (n - n)
flow:
  rounds: 1
  phases:
    - id: m
      do: |
        choose players[0]:
            "go":
                add(1)
"""


def _failure(folder: str) -> tuple:
    state = api.new_game(rulekit.load_game(folder), 1, 0)
    with pytest.raises(ContentRuntimeError) as info:
        api.apply(state, "go")
    err = info.value
    return err.code, err.span.path, err.span.line, str(err).splitlines()[0]


def test_a_warm_load_compiles_nothing_and_fails_on_the_same_content_line(cache, write_game, monkeypatch):
    folder = write_game(FAILS)
    cold = _failure(folder)
    assert cold[0] == "RK4000" and cold[1].endswith("g/game.yaml") and cold[2] == 9 and "division" in cold[3]
    code_files = [p.name for p in cache.parent.iterdir() if p.name.startswith("code-")]
    assert len(code_files) == 1, "one file for the game's compiled code"
    compiled = []
    monkeypatch.setattr(code_cache, "compile", lambda *a: compiled.append(a) or compile(*a), raising=False)
    assert _failure(folder) == cold, "from memory: the module of the second load has a name of its own"
    parse_cache.forget()                       # a new process: only the files are left,
    for name in [n for n in LINE_SPANS if n.startswith("<rulekit 'g' #")]:
        monkeypatch.delitem(LINE_SPANS, name)  # and no line map of an earlier load of the game
    assert _failure(folder) == cold
    assert compiled == [], "every code came from memory or the game's file"
    game = rulekit.load_game("batavia")
    assert compiled and _actions(game) == _actions(rulekit.load_game("batavia"))


def test_a_changed_text_is_parsed_again(cache, tmp_path):
    folder = tmp_path / "batavia"
    shutil.copytree(GAMES / "batavia", folder)
    first = rulekit.load_game(str(folder))
    rules = folder / "rules.yaml"
    rules.write_text(rules.read_text().replace(
        'expr: "count(x for x in p.hand if x.company == c)"', 'expr: "count(x for x in p.hand if x.company == cc)"'))
    parse_cache.forget()
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(str(folder))
    assert "rules.yaml:12" in str(info.value) and "`cc`" in str(info.value)
    assert first.content_hash


def test_a_broken_cache_file_is_ignored_and_replaced(cache):
    cache.parent.mkdir(parents=True)
    cache.write_bytes(b"not a cache file at all")
    game = rulekit.load_game("batavia")
    assert _actions(game)
    assert cache.read_bytes() != b"not a cache file at all"


def test_off_keeps_nothing_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKIT_CACHE_DIR", "off")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    parse_cache.forget()
    assert parse_cache.cache_folder() is None
    rulekit.load_game("batavia")
    assert list(tmp_path.iterdir()) == []
    parse_cache.forget()


def test_the_parser_read_from_its_cache_file_is_the_same_parser(cache):
    # lark does not save every option with its tables: a parser rebuilt from the cache file
    # once lost its positions, and every span pointed at line 1
    from rulekit.dsl import ast, parser
    text = "x = 1\nfor p in players:\n    choose p:\n        \"bid {n}\" for n in range(3):\n            x = n\n"
    parser._lark.cache_clear()
    built = parser.parse_script(text, path="t")              # builds the tables and writes them
    parser._lark.cache_clear()
    assert parse_cache.read_data(next(p.name for p in cache.parent.iterdir() if p.name.startswith("grammar-")))
    read = parser.parse_script(text, path="t")               # rebuilt from the cache file
    parser._lark.cache_clear()
    spans = [[(n.span.line, n.span.column, n.span.end_line, n.span.end_column) for n in ast.walk(t)]
             for t in (built, read)]
    assert spans[0] == spans[1] and (4, 9) in [s[:2] for s in spans[1]]


@contextlib.contextmanager
def _ending_in_another_thread(load):
    """Run ``load()`` (a context manager) in another thread, entered before this block begins; the
    block calls the function it is given to have that load end, and goes on once it has."""
    inside, ended, going_on = threading.Event(), threading.Event(), threading.Event()

    def other_load():
        with load():
            inside.set()
            going_on.wait(10)
        ended.set()

    def end_it():
        going_on.set()
        assert ended.wait(10)

    other = threading.Thread(target=other_load)
    other.start()
    assert inside.wait(10)
    try:
        yield end_it
    finally:
        going_on.set()
        other.join(10)


@contextlib.contextmanager
def _cache_load(folder: str):
    with parse_cache.game(folder), code_cache.game(folder):
        yield


def test_a_load_ending_in_another_thread_does_not_end_this_one(cache):
    """The language server loads games in several threads at once (its checker, a completion that
    plays a script): one load ending must leave another, still going on, reading and writing its
    own cache files. (They were one per process: a load in one thread ending in the middle of one
    in another left the other with no file, or with none to note what it used in.)"""
    goa, batavia = str(GAMES / "goa"), str(GAMES / "batavia")
    text = "n = 1\nm = n + 1\n"
    with _ending_in_another_thread(lambda: _cache_load(goa)) as end_other, _cache_load(batavia):
        end_other()        # the other thread's load is over; this one goes on
        tree = parse_cache.parsed(("script", text), lambda: parse_script(text))
        code_cache.compiled("x = 1\n", "<this load>", check=lambda source: None)
    assert parse_cache.parsed(("script", text), lambda: None) is tree
    written = parse_cache.read_data(parse_cache.cache_file(batavia).name)
    assert [key for key, _tree in written["trees"]] == [parse_cache._key_text(("script", text))]
    assert not parse_cache.cache_file(goa).exists()     # its load used nothing new
    codes = [p.name for p in parse_cache.cache_folder().iterdir() if p.name.startswith("code-")]
    assert codes == [f"code-{code_cache._PYTHON}-{parse_cache.game_key(batavia)}.bin"]


def test_loads_going_on_at_once_put_the_collector_back_when_the_last_ends():
    """A load makes Python's collector run rarer while it goes on (games._few_collections); with
    loads in two threads, the first to end must not put it back under the other, nor the other
    leave it changed for good."""
    before = gc.get_threshold()
    with _ending_in_another_thread(games._few_collections) as end_other, games._few_collections():
        end_other()
        assert gc.get_threshold()[0] >= 70_000      # still rare while this load goes on
    assert gc.get_threshold() == before
