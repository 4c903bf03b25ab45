# SPDX-License-Identifier: MIT
"""Logs and scripts as rulekit writes them and as a hostile or careless hand changes them
(issue 35, round 2): a log rulekit wrote replays however long it is, while a count declared
without the actions lifts no limit; a bad seed, player count, variant or pin is reported at
the script's or log's own line, never at the game's rules; the editor opens a written log
against a schema that exists, and a variant's sections are typed as a game's are."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml
from referencing import Registry, Resource

from rulekit.agents import RandomAgent
from rulekit.cli.app import main
from rulekit.content import loader, schema
from rulekit.content.loader import load_yaml
from rulekit.engine import api
from rulekit.errors import DiagnosticReport
from rulekit.testing.script import MAX_SEED, make_log, run_script, write_log

from conftest import GAMES as TEST_GAMES

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"


def _run(capsys, *args) -> tuple[int, str]:
    code = main([str(a) for a in args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _long_game(tmp_path: Path, length: int) -> Path:
    """tests/games/long, copied, of ``length`` decisions (one player, one choice of two each)."""
    folder = tmp_path / "long"
    shutil.copytree(TEST_GAMES / "long", folder)
    spec = folder / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("length: 2000", f"length: {length}"), encoding="utf-8")
    return folder


def _played_log(game_folder: Path, log: Path) -> int:
    """Plays the game at random as `autoplay` would and writes its log; returns its length."""
    import rulekit
    game = rulekit.load_game(str(game_folder))
    state = api.new_game(game, 1, 1)
    bot = RandomAgent(1)
    while not state.over:
        api.apply_index(state, bot.choose(state), atomic=False)
    write_log(str(log), make_log(state, [], 1, None))
    return len(state.actions)


# ------------------------------------------------------------------ long logs
@pytest.mark.slow
def test_a_250k_action_log_written_by_autoplay_replays(tmp_path, capsys):
    folder = _long_game(tmp_path, 250_000)
    log = tmp_path / "long.log.yaml"
    code, said = _run(capsys, "autoplay", folder, "--players", 1, "--seed", 1, "--quiet", "--log", log,
                      "--max-actions", 300_000)
    assert code == 0, said
    assert log.read_text(encoding="utf-8").endswith("action_count: 250000\n")
    result = run_script(str(log))
    assert result.state.over and len(result.state.actions) == 250_000


def test_a_log_longer_than_the_value_limit_replays(tmp_path, monkeypatch):
    # the same rule as the 250,000-action log (slow, above), at a limit of 1,000 values
    monkeypatch.setattr(loader, "MAX_NODES", 1000)
    log = tmp_path / "long.log.yaml"
    assert _played_log(TEST_GAMES / "long", log) == 2000
    result = run_script(str(log))
    assert result.state.over and len(result.state.actions) == 2000
    # a file that is not a log keeps the limit: the same log without its closing count
    cut = tmp_path / "cut.yaml"
    cut.write_text(log.read_text(encoding="utf-8").rsplit("action_count:", 1)[0], encoding="utf-8")
    with pytest.raises(DiagnosticReport) as refused:
        load_yaml(str(cut))
    first = refused.value.diagnostics[0]
    assert first.code == "RK0106" and "more than 1000 values" in first.message


def _log_text(actions: int, declared: int, extra: str = "") -> str:
    return ("rulekit_log: 2\ngame: long\nplayers: 1\nseed: 1\n" + extra + "actions:\n" + "- tick\n" * actions
            + f"action_count: {declared}\n")


BOMB = ("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n")       # 1,000 values by alias, as c


def test_a_declared_count_lifts_the_limit_only_by_the_actions_listed(tmp_path, monkeypatch):
    monkeypatch.setattr(loader, "MAX_NODES", 1000)
    path = tmp_path / "log.yaml"
    path.write_text(_log_text(1500, 1500), encoding="utf-8")         # 1,500 actions written out: read
    assert len(load_yaml(str(path)).value["actions"].value) == 1500
    forged = {
        "a count without its actions": _log_text(3, 10 ** 9, BOMB),
        "actions by alias": "x: &x [tick]\nactions: [" + ", ".join(["*x"] * 1500) + "]\naction_count: 1500\n",
        "a count not at the top": _log_text(1500, 1500).replace("action_count: 1500", "extra:\n  action_count: 1500"),
    }
    for case, text in forged.items():
        path.write_text(text, encoding="utf-8")
        with pytest.raises(DiagnosticReport) as refused:
            load_yaml(str(path))
        assert refused.value.diagnostics[0].code == "RK0106", case


def test_a_forged_count_is_bounded_by_what_a_file_could_list():
    # however large the count, the limit never passes what MAX_FILE_BYTES could hold as log lines
    assert loader._declared_actions("actions: []\naction_count: 999999999999\n") == loader.MAX_LOGGED_ACTIONS
    assert loader.MAX_LOGGED_ACTIONS * 4 <= loader.MAX_FILE_BYTES
    assert loader._declared_actions("actions: []\nnot_action_count: 5\n") == 0


# ------------------------------------------------------------------ the file at fault
def _script(tmp_path: Path, body: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text("game: batavia\nplayers: 3\n" + body, encoding="utf-8")
    return path


def _blamed(said: str) -> list[str]:
    return re.findall(r"--> (\S+:\d+:\d+)", said)


def test_a_bad_seed_is_reported_at_the_scripts_line(tmp_path, capsys):
    for seed in ("-1", str(MAX_SEED + 1), str(10 ** 40), "1.0", "abc", "true"):
        path = _script(tmp_path, f"seed: {seed}\nactions: [bid 2]\n")
        code, said = _run(capsys, "run", path)
        assert code == 1 and _blamed(said) == [f"{path}:3:7"], (seed, said)
        assert "rules.yaml" not in said and "Traceback" not in said


def test_the_largest_seed_is_a_seed(tmp_path, capsys):
    path = _script(tmp_path, f"seed: {MAX_SEED}\nactions: [bid 2]\n")
    assert _run(capsys, "run", path)[0] == 0
    with pytest.raises(SystemExit) as refused:       # autoplay writes no seed that a log could not replay
        main(["autoplay", "batavia", "--seed", "-1", "--quiet"])
    assert refused.value.code == 2 and "--seed" in capsys.readouterr().err


def test_a_bad_player_count_is_reported_at_the_scripts_line(tmp_path, capsys):
    for players in ("3.0", "0", "9", "three"):
        path = tmp_path / "s.yaml"
        path.write_text(f"game: batavia\nplayers: {players}\nactions: []\n", encoding="utf-8")
        code, said = _run(capsys, "run", path)
        assert code == 1 and _blamed(said) == [f"{path}:2:10"], (players, said)
        assert "internal error" not in said


def test_a_game_file_named_as_a_variant_is_reported_at_the_scripts_line(tmp_path, capsys):
    path = _script(tmp_path, "variants: [open-route, rules.yaml]\nactions: []\n")
    code, said = _run(capsys, "run", path)
    assert code == 1 and "error[RK5009]" in said and "`rules.yaml` is no variant" in said
    assert _blamed(said) == [f"{path}:3:24"], said


# (the pins, where each mistake is, as (line, column) of the script)
BAD_PINS = {
    "roll out of range": ("pins:\n  rolls:\n    dice:\n    - 99\n", (7, 7), "RK5025"),
    "roll out of range later": ("pins:\n  rolls:\n    dice:\n    - 3\n    - 9\n", (8, 7), "RK5025"),
    "roll below 1": ("pins:\n  rolls: {dice: [0]}\n", (5, 18), "RK0124"),
    "roll not whole": ("pins:\n  rolls: {dice: [2.0]}\n", (5, 18), "RK5025"),
    "roll huge": ("pins:\n  rolls: {dice: [100000000000000000000000]}\n", (5, 18), "RK5025"),
    "order not a permutation": ("pins:\n  shuffles:\n    deck:\n    - [ship-danish-6]\n", (7, 7), "RK5025"),
    "order naming no item": ("pins:\n  shuffles:\n    deck:\n    - [ship-danish-6, nothing]\n", (7, 23), "RK5025"),
    "unknown zone": ("pins:\n  shuffles:\n    nowhere: [[a]]\n", (6, 5), "RK5022"),
    "unknown stream": ("pins:\n  rolls:\n    nodice: [1]\n", (6, 5), "RK5022"),
}


def test_a_bad_pin_is_reported_at_the_scripts_line(tmp_path, capsys):
    for case, (pins, (line, column), code) in BAD_PINS.items():
        path = _script(tmp_path, "seed: 1\n" + pins + "actions: [bid 2, pass, pass, draw, draw, draw]\n")
        status, said = _run(capsys, "run", path)
        assert status == 1 and f"error[{code}]" in said, (case, said)
        assert _blamed(said) == [f"{path}:{line}:{column}"], (case, said)
        assert "rules.yaml" not in said.split("note:")[0], case


def test_a_bad_pin_in_a_log_is_reported_at_the_logs_line(tmp_path, capsys):
    script = _script(tmp_path, "seed: 1\npins:\n  rolls: {dice: [3]}\nactions: [bid 2]\n")
    log = tmp_path / "game.log.yaml"
    assert _run(capsys, "run", script, "--log", log)[0] == 0
    text = log.read_text(encoding="utf-8")
    assert "    - 3\n" in text
    log.write_text(text.replace("    - 3\n", "    - 42\n"), encoding="utf-8")
    line = next(i for i, row in enumerate(log.read_text(encoding="utf-8").splitlines(), 1) if row == "    - 42")
    code, said = _run(capsys, "run", log)
    assert code == 1 and "error[RK5025]" in said and "pinned roll 42" in said
    assert _blamed(said) == [f"{log}:{line}:7"], said
    assert "drawn by the rules at" in said


# ------------------------------------------------------------------ editors
def _registry() -> Registry:
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in SCHEMAS.glob("*.schema.json")]
    return Registry().with_resources((d["$id"], Resource.from_contents(d)) for d in docs)


def test_a_written_log_names_no_schema_it_cannot_reach_and_fits_the_shipped_one(tmp_path):
    """No modeline pointing at a URL that does not exist (the editor's first-line error) nor at this
    machine's install (a log is the same bytes everywhere); the log fits the script schema."""
    log = tmp_path / "deep" / "where" / "game.log.yaml"
    log.parent.mkdir(parents=True)
    _played_log(TEST_GAMES / "long", log)
    text = log.read_text(encoding="utf-8")
    assert "$schema" not in text and "https://" not in text
    assert str(schema.schemas_dir()) not in text
    document = schema.load_schema("script")
    validator = jsonschema.Draft202012Validator(document, registry=_registry())
    assert list(validator.iter_errors(yaml.safe_load(text))) == []


@pytest.mark.slow
@pytest.mark.editor
def test_a_written_log_opens_clean_in_the_editor(tmp_path):
    from tools.yaml_language_server import LanguageServer, installed
    script = installed()
    if isinstance(script, str):
        pytest.skip(script)
    log = tmp_path / "game.log.yaml"
    _played_log(TEST_GAMES / "long", log)
    planted = ROOT / "games" / "batavia" / "variants" / "planted-typo.yaml"     # never written: opened in memory
    typo = ("# yaml-language-server: $schema=../../../schemas/variant.schema.json\nvariant: {name: typo}\n"
            "procedures:\n  turn: {doo: pass}\n")
    with LanguageServer(script, ROOT) as server:
        found = server.diagnostics({log.as_uri(): log.read_text(encoding="utf-8"), planted.as_uri(): typo})
    assert found[log.as_uri()] == []
    flagged = found[planted.as_uri()]
    assert [(d["range"]["start"]["line"] + 1, "doo" in d["message"]) for d in flagged] == [(4, True)], flagged


def _variant(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "v.yaml"
    path.write_text("variant: {name: v}\n" + body, encoding="utf-8")
    return path


TYPOS = [
    ("parms:\n  x: {value: 1}\n", 2, 1, "parms", "params"),
    ("params:\n  die_sides: {valeu: 1}\n", 3, 15, "valeu", "value"),
    ("procedures:\n  turn: {doo: pass}\n", 3, 10, "doo", "do"),
    ("flow:\n  phases:\n    - {id: auction, whenn: 'true'}\n", 4, 21, "whenn", "when"),
    ("player:\n  vars:\n    bonds: {maxx: 3}\n", 4, 13, "maxx", "max"),
]


def test_a_typo_in_a_variants_section_is_flagged_by_the_variant_schema(tmp_path, capsys):
    for body, line, column, key, meant in TYPOS:
        path = _variant(tmp_path, body)
        found = schema.check(load_yaml(str(path)), "variant")
        assert [(d.code, d.span.line, d.span.column, d.message) for d in found] == \
            [("RK0120", line, column, f"unknown key `{key}`")], [d.render() for d in found]
        assert found[0].help == f"did you mean `{meant}`?"
    # while every valid overlay still is one: partial entries, entries and keys removed with null,
    # `remove: true`, and the shipped variants
    path = _variant(tmp_path, "vars: {revealed: {max: null, text: changed}}\nadd: {procedures: {nothing: {do: pass}}}\n"
                              "invariants:\n  - {id: route_faces, remove: true}\n  - {id: goal_consistent, text: t}\n"
                              "flow: {phases: [{id: auction, text: null}]}\nsearch: null\n")
    assert schema.check(load_yaml(str(path)), "variant") == []
    code, said = _run(capsys, "validate", "batavia", "--variant", path)
    assert code == 0, said
    shipped = sorted((ROOT / "games").glob("*/variants/*.yaml")) + sorted((ROOT / "examples").glob("*/variants/*.yaml"))
    assert len(shipped) >= 5
    assert all(schema.check(load_yaml(str(p)), "variant") == [] for p in shipped)
    typo = _variant(tmp_path, "procedures:\n  turn: {doo: pass}\n")
    code, said = _run(capsys, "validate", "batavia", "--variant", typo, "--format", "concise")
    assert code == 1 and f"{typo}:3:10: error[RK0120]: unknown key `doo` (did you mean `do`?)" in said, said


def test_the_variant_schema_reuses_the_game_schemas_definitions():
    game = json.loads((SCHEMAS / "game.schema.json").read_text(encoding="utf-8"))
    variant = json.loads((SCHEMAS / "variant.schema.json").read_text(encoding="utf-8"))
    sections = set(game["properties"]) - {"$schema", "include"}
    assert set(variant["properties"]) - {"$schema", "variant", "add"} == sections
    for name in sections:
        refs = [alt.get("$ref") for alt in variant["properties"][name]["anyOf"]]
        assert f"game.schema.json#/$defs/{name}" in refs, name
        shown = json.dumps(game["properties"][name])
        assert f'"game.schema.json#/$defs/{name}"' in shown, name
    # what only a variant may say (a null entry, `remove: true`, a partial entry) a game's file still may not
    part = json.loads((SCHEMAS / "game-part.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(part, registry=_registry())
    assert validator.is_valid(yaml.safe_load("procedures: {kept: {do: pass}}\ninvariants: [{id: a, expr: 'true'}]"))
    for text in ("procedures: {gone: null}", "procedures: {half: {text: t}}",
                 "invariants: [{id: a, expr: 'true', remove: true}]"):
        assert not validator.is_valid(yaml.safe_load(text)), text
