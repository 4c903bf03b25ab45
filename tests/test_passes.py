"""Every optimisation of the compiler changes speed only (rulekit/dsl/passes.py).

Each pass is switched off alone, and all together, and the games must come out the same: the
options offered at every decision, the log and the final state, byte for byte; the shipped
games' scripts (with their snapshots) pass under each setting (slow). A pass that changes no
game's code would prove nothing, so each must change the generated code of some game.
"""
import hashlib
import importlib
import json

import pytest

from rulekit.agents import RandomAgent
from rulekit.cli.app import main
from rulekit.dsl import passes
from rulekit.engine import api, serialize
from rulekit.engine.tally import tally_table
from rulekit.errors import UsageError
from rulekit.games import load_game

from conftest import regenerating_command
from probes import Calls, helpers, names_of, reads, tree

GAMES = {"goa": 4, "batavia": 5, "examples/for-sale": 4, "examples/modern-art": 3}
SETTINGS = ["-all"] + [f"-{name}" for name in passes.NAMES]


def _load(game: str, setting: str, variants=()):
    with passes.using(passes.parse(setting)):
        return load_game(game, variants)


def _played(game, players: int, seeds) -> str:
    """A digest of seeded random games: every decision's options, then the final state with its log."""
    digest = hashlib.sha256()
    for seed in seeds:
        state = api.new_game(game, players, seed, record=True)
        agent = RandomAgent(seed)
        while not state.over:
            digest.update(json.dumps(api.legal_actions(state)).encode())
            api.apply_index(state, agent.choose(state))
        digest.update(json.dumps(serialize.to_dict(state), sort_keys=True, default=str).encode())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def reference() -> dict:
    return {game: _played(_load(game, "all"), players, range(2)) for game, players in GAMES.items()}


# A tiny game in which every pass has something to do (each changes its code): its own unit test.
TINY = """\
meta: {title: Tiny passes}
players: {min: 2, max: 3, default: 2}
sets:
  colours: [red, blue, green]
components:
  card:
    generate: {colour: colours, n: {range: [1, 3]}}
    id: "{colour}-{n}"
    start: deck
zones:
  deck: {visibility: public}
  discard: {visibility: public}
vars:
  passed: {initial: false}
player:
  vars:
    points: {initial: 0}
  zones:
    hand: {visibility: public}
    table: {visibility: public}
functions:
  held: {params: [p, c], expr: "count(x for x in p.hand if x.colour == c)"}
  has: {params: [p, c], expr: "any(x.colour == c for x in p.hand)"}
  every: {params: [p], expr: "all(has(p, c) for c in colours)"}
  worth: {params: [p, c], expr: "seat(p) * 2 if c == 'red' else 1"}
  square: {params: [p, c], expr: "held(p, c) * held(p, c) + worth(p, c)"}
  best: {params: [p], expr: "max([held(p, c) for c in colours], default=0)"}
  cards_of: {params: [p, c], expr: "[x for x in p.hand if x.colour == c]"}
  rank: {params: [c], expr: "first(i for i in range(3) if colours[i] == c)"}
  share: {params: [p, c], expr: "sum(i for i in range(seat(p) + 1) if c != 'red')"}
procedures:
  turn:
    params: [p]
    do: |
      choose p:
          "take {c}" for c in colours if count(p.hand) < 4 and any(x.colour == c for x in deck):
              move(first(x for x in deck if x.colour == c), to=p.hand)
          "play {x}" for x in cards_of(p, "red"):
              move(x, to=p.table)
              p.points += square(p, x.colour)
          "discard {x}" for x in cards_of(p, "red"):
              move(x, to=discard)
          "keep {x}" for x in cards_of(p, "blue"):
              p.points += rank(x.colour) + share(p, x.colour)
          "pass":
              p.points += best(p) + (1 if every(p) else 0)
              passed = true
      for n in range(count(p.table)):
          p.points += share(p, "blue")
setup: |
  shuffle(deck)
flow:
  rounds: 4
  phases:
    - id: turns
      do: |
        for p in players:
            if seat(p) == 1:
                turn(p)
            else:
                turn(p)
            p.points += count(others(p)) - seat(p)
scoring:
  categories:
    - id: points
      points: "p.points"
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("tiny")
    (folder / "game.yaml").write_text(TINY, encoding="utf-8")
    return str(folder)


@pytest.mark.parametrize("name", passes.NAMES)
def test_each_pass_on_a_tiny_game_changes_its_code_not_its_games(tiny, name):
    full, without = _load(tiny, "all"), _load(tiny, f"-{name}")
    assert without.program.module.source() != full.program.module.source()
    for players in (2, 3):
        assert _played(without, players, range(3)) == _played(full, players, range(3))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_pass_off_plays_the_same_games(game, reference):
    assert _played(_load(game, "-all"), GAMES[game], range(2)) == reference[game]


@pytest.mark.parametrize("setting", SETTINGS[1:])
@pytest.mark.parametrize("game", ["goa", "batavia"])
def test_each_pass_off_alone_plays_the_same_games(game, setting, reference):
    assert _played(_load(game, setting), GAMES[game], range(2)) == reference[game]


def test_each_pass_changes_the_code_of_some_game():
    """A switch that changes nothing would make the tests above pass on a stub."""
    sources = {game: _load(game, "all").program.module.source() for game in ("goa", "batavia")}
    for name in passes.NAMES:
        assert any(_load(game, f"-{name}").program.module.source() != sources[game] for game in sources), name


def test_with_every_pass_off_the_code_reads_no_optimisation():
    """With every pass off a game of Goa keeps no tally, remembers no function's answers (nor
    any by seat) and keeps no value for a second ask: the plain code, as the passes found it."""
    game = _load("goa", "-all")
    with Calls() as calls:
        state = api.new_game(game, 4, 0)
        agent = RandomAgent(0)
        while not state.over:
            api.apply_index(state, agent.choose(state))
    assert not state.tallies and calls[tally_table] == 0
    assert not any(game.memo.static.values())
    assert not reads(tree(game), names_of(game, helpers(game, "UNSET")[0]))


def test_a_setting_is_read_left_to_right():
    assert passes.parse("-all,+inline").off == frozenset(passes.NAMES) - {"inline"}
    assert passes.parse("-inline, -tallies").off == {"inline", "tallies"}
    assert passes.parse("-inline,inline").off == frozenset()
    assert passes.parse("").describe() == "all"
    assert passes.parse("-all").describe() == "none"
    assert passes.parse("-tallies,-inline").describe() == "all but inline, tallies"
    assert passes.parse("-all,+threading,+inline").describe() == "only inline, threading"


@pytest.mark.parametrize("text", ["", "-all", "-tallies,-inline", "-all,+threading", "-inline,-all,+inline,+memo",
                                  ",".join(f"-{name}" for name in passes.NAMES[:8])])
def test_a_setting_is_written_back_at_its_shortest(text):
    setting = passes.parse(text).setting()
    assert passes.parse(setting) == passes.parse(text)
    off = passes.parse(text).off
    assert len(setting.split(",")) <= min(len(off), len(passes.NAMES) - len(off) + 1) or setting == ""


def test_an_unknown_pass_is_a_usage_error_with_did_you_mean():
    with pytest.raises(UsageError, match=r"no pass `inlne` \(did you mean `inline`\?\)"):
        passes.parse("-inlne")


def test_the_environment_setting_applies_to_any_command(monkeypatch, capsys):
    monkeypatch.setenv(passes.ENV, "-talies")
    assert main(["autoplay", "goa"]) == 2
    assert "$RULEKIT_PASSES: no pass `talies` (did you mean `tallies`?)" in capsys.readouterr().out
    monkeypatch.setenv(passes.ENV, "-inline,-tallies")
    assert passes.current().off == {"inline", "tallies"}


def test_compile_says_the_passes_and_how_to_list_again(capsys):
    assert main(["compile", "goa", "--passes=-tallies,-inline"]) == 0
    out = capsys.readouterr().out
    assert "# passes: all but inline, tallies" in out.splitlines()[:16]
    assert regenerating_command(out) == ["rulekit", "compile", "goa", "--passes=-inline,-tallies", "--out", "FILE"]
    assert main(["compile", "goa", "--passes=list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in listed] == list(passes.NAMES)


SCRIPTED = [(game, "-all") for game in sorted(GAMES)] + [
    (game, setting) for game in ("goa", "batavia") for setting in SETTINGS[1:]]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "setting"), SCRIPTED)
def test_scripts_and_snapshots_hold_under_each_setting(game, setting, capsys):
    """Every script of the game and its variants, with its snapshot, under the setting."""
    with passes.using(passes.parse(setting)):
        code = main(["test", game, "--random", "0"])
    out = capsys.readouterr().out
    assert code == 0, out[-3000:]
    assert " 0 failed" in out


def test_a_fault_inside_a_pass_is_an_internal_error_naming_it(monkeypatch, capsys, tmp_path):
    """A bug in a pass is rulekit's (exit 101), never the author's, and says how to go on without it."""
    from rulekit.dsl import analysis

    def broken(node):
        raise ValueError("a planted bug")
    monkeypatch.setattr(analysis, "_builds_text", broken)      # asked only by the `inline` pass
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(tmp_path))
    assert main(["autoplay", "goa", "--quiet"]) == 101
    out = capsys.readouterr()
    said = out.out + out.err
    assert "the compiler's pass `inline` failed (ValueError: a planted bug)" in said
    assert "RULEKIT_PASSES=-inline compiles without it" in said
    monkeypatch.setenv(passes.ENV, "-inline")
    assert main(["autoplay", "goa", "--quiet"]) == 0


@pytest.mark.parametrize("setting", ["all", "-all"])
def test_the_tiny_game_compiles_to_a_reviewed_listing(tiny, setting, snapshot):
    """A golden listing of generated code, with every pass and with none: a change to what the
    compiler writes shows here, to be read (not regenerated blindly) before it is accepted."""
    source = _load(tiny, setting).program.module.source()
    assert source.replace(tiny, "TINY") == snapshot


def test_each_pass_names_functions_that_exist():
    """`rulekit compile --passes=list` says where each pass is done: every name it gives is a
    function of rulekit/dsl (a module moved or a method renamed shows here, not in a reader's search)."""
    for step in passes.PASSES:
        for where in step.where.split(", "):
            module, *path = where.split(".")
            found = importlib.import_module(f"rulekit.dsl.{module}")
            for name in path:
                found = getattr(found, name)
            assert callable(found), (step.name, where)
