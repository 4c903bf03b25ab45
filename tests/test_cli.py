# SPDX-License-Identifier: MIT
"""The `rulekit` command, called in-process through `rulekit.cli.app.main`."""
from __future__ import annotations

import io
import json
import os
import sys

import pytest
import yaml

from conftest import GAMES, run_cli

AUCTION = str(GAMES / "auction")
BROKEN = GAMES / "broken"


run = run_cli


# ------------------------------------------------------------------ validate

def test_validate_ok(capsys):
    code, out, err = run(capsys, "validate", AUCTION)
    assert code == 0 and err == ""
    assert out.startswith("ok: Tiny Auction (12 items, ")
    assert "sha256:" in out


def test_validate_with_a_variant(capsys):
    code, out, _ = run(capsys, "validate", AUCTION, "--variant", "rich")
    assert code == 0 and out.startswith("ok: Tiny Auction + rich ")


def test_validate_json_ok(capsys):
    code, out, _ = run(capsys, "validate", AUCTION, "--format", "json")
    data = json.loads(out)
    assert code == 0
    assert data["ok"] is True and data["game"] == "auction" and data["diagnostics"] == []
    assert data["content_hash"].startswith("sha256:")


def test_validate_json_errors(capsys):
    code, out, _ = run(capsys, "validate", str(BROKEN / "unknown_key"), "--format", "json")
    assert code == 1
    data = json.loads(out)
    assert data["ok"] is False
    (diag,) = data["diagnostics"]
    assert diag["code"] == "RK0120" and diag["severity"] == "error"
    assert diag["path"].endswith(os.path.join("unknown_key", "game.yaml"))
    assert (diag["line"], diag["column"]) == (4, 10)
    assert diag["help"] == "did you mean `visibility`?"


def test_validate_concise(capsys):
    code, out, _ = run(capsys, "validate", str(BROKEN / "compile_errors"), "--format", "concise")
    assert code == 1
    lines = out.strip().splitlines()
    errors = [line for line in lines if "error[" in line]
    warnings = [line for line in lines if "warning[" in line]
    assert len(errors) == 2 and len(warnings) == 2
    assert errors[0].endswith("game.yaml:15:13: error[RK0303]: unknown attribute `coin` (did you mean `coins`?)")
    assert "game.yaml:16:13: error[RK0305]: unknown function `cont`" in errors[1]
    # a misspelt global becomes a local that is never read: said, with the global it resembles
    assert any("game.yaml:13:9: warning[RK0340]: `totl` is assigned in `main` but never used" in w
               and "did you mean `total`?" in w for w in warnings)


def test_validate_full_renders_excerpts(capsys):
    code, out, _ = run(capsys, "validate", str(BROKEN / "syntax_in_block"))
    assert code == 1
    assert "error[RK0210]: missing `:` at the end of a block header" in out
    assert "rules.yaml:7:15" in out
    assert "7 |       if n > 0" in out
    assert "= help: write `if cond:`" in out
    assert out.rstrip().endswith("Found 1 error in 1 file.")


@pytest.mark.parametrize("folder,code_", [
    ("duplicate_key", "RK0102"), ("merge_key", "RK0105"), ("missing_include", "RK0111"),
    ("two_files", "RK0112"), ("unknown_key", "RK0120"), ("dsl_in_string", "RK0201"),
    ("syntax_in_block", "RK0210"), ("compile_errors", "RK0303"),
])
def test_every_broken_game_fails_validation_with_its_code(capsys, folder, code_):
    code, out, err = run(capsys, "validate", str(BROKEN / folder), "--format", "concise")
    assert code == 1
    assert f"error[{code_}]" in out.splitlines()[0]
    assert "Traceback" not in out + err


def test_validate_provenance(capsys, write_game):
    folder = write_game("""\
        meta: {title: Prov}
        players: {min: 1, max: 2}
        params:
          limit: {value: 3, provenance: ruling, ruling: "the rulebook is silent"}
        flow: {rounds: 1, phases: [{id: main, do: pass}]}
        """)
    code, out, _ = run(capsys, "validate", folder, "--provenance")
    assert code == 0
    assert "ruling: params.limit" in out
    assert "1 values carry a provenance marker" in out
    code, out, _ = run(capsys, "validate", folder, "--provenance", "--format", "json")
    assert json.loads(out)["provenance"] == [
        {"path": "params.limit", "provenance": "ruling", "text": "", "line": 4}]


def test_unknown_game_is_a_usage_error_with_a_suggestion(capsys):
    code, out, err = run(capsys, "validate", "batavai")
    assert code == 2
    assert "error[RK0001]: no game `batavai`" in out
    assert "did you mean `batavia`?" in out


def test_folder_without_game_yaml(capsys):
    code, out, _ = run(capsys, "validate", str(BROKEN / "no_game_yaml"))
    assert code == 2 and "has no game.yaml" in out


def test_unknown_variant(capsys):
    code, out, _ = run(capsys, "validate", AUCTION, "--variant", "payay")
    assert code == 2 and "did you mean `payday`?" in out


# ------------------------------------------------------------------ run

def test_run_prints_the_transcript(capsys):
    code, out, _ = run(capsys, "run", str(GAMES / "auction" / "scripts" / "full_game.yaml"))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "start Tiny Auction players=3 seed=7"
    assert "p3: bid 4" in lines and "checkpoint after-first-lot" in lines
    assert json.loads(lines[-1][len("result: "):])["winners"] == ["p3"]


def test_run_json(capsys):
    code, out, _ = run(capsys, "run", str(GAMES / "counter" / "scripts" / "quit_early.yaml"), "--json")
    assert code == 0
    data = json.loads(out)
    assert data["state"]["over"] is True
    assert data["state"]["vars"]["total"] == 3
    assert data["log"]["actions"] == ["skip", "add 2", "add 1", "bonus 1", "quit"]
    assert data["log"]["result"]["winners"] == ["p1"]


def test_run_a_failing_script_exits_1_with_the_script_line(capsys):
    path = GAMES / "auction" / "scripts" / "wrong_action.yaml"
    code, out, err = run(capsys, "run", str(path))
    assert code == 1
    assert out.startswith("error[RK5005]: illegal action `bid 9` for p2")
    assert f"{path}:8:5" in out
    assert "Traceback" not in out + err


def test_run_a_missing_script(capsys, tmp_path):
    code, out, _ = run(capsys, "run", str(tmp_path / "nope.yaml"))
    assert code == 2 and "no such script file" in out


def test_run_writes_a_log(capsys, tmp_path):
    log = tmp_path / "game.log.yaml"
    code, _, _ = run(capsys, "run", str(GAMES / "counter" / "scripts" / "quit_early.yaml"), "--log", str(log))
    assert code == 0
    text = log.read_text(encoding="utf-8")
    assert text.startswith("rulekit_log: 2\n")     # no modeline: the same bytes on every machine
    data = yaml.safe_load(text)
    assert data["actions"][-1] == "quit" and data["players"] == 2
    code, out, _ = run(capsys, "run", str(log))
    assert code == 0 and "p2: quit" in out


def test_run_log_to_an_unwritable_place(capsys, tmp_path):
    code, out, _ = run(capsys, "run", str(GAMES / "counter" / "scripts" / "quit_early.yaml"),
                       "--log", str(tmp_path / "no" / "such" / "dir" / "log.yaml"))
    assert code == 2 and "cannot write" in out


# ------------------------------------------------------------------ autoplay

def test_autoplay_plays_to_the_end(capsys):
    code, out, _ = run(capsys, "autoplay", AUCTION, "--players", "3", "--seed", "4")
    assert code == 0
    lines = out.splitlines()
    assert lines[:2] == ["start:", "  round 1: 2 gems up for auction"]      # the content's log, before any action
    assert lines[2].startswith("round 1: p1 ")
    assert "Tiny Auction: final scoring" in out
    assert "winner: " in out or "shared victory: " in out


def test_autoplay_is_deterministic_and_quiet_prints_only_the_scores(capsys):
    first = run(capsys, "autoplay", str(GAMES / "hidden"), "--seed", "9")
    second = run(capsys, "autoplay", str(GAMES / "hidden"), "--seed", "9")
    assert first == second and first[0] == 0
    code, out, _ = run(capsys, "autoplay", str(GAMES / "hidden"), "--seed", "9", "--quiet")
    assert code == 0 and "round 1:" not in out and "final scoring" in out


class _Terminal(io.StringIO):
    """Standard error as a terminal would be: progress displays draw on it."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("bots", ["random", "mcts:3"])
def test_autoplay_shows_its_progress_on_stderr_when_that_is_a_terminal(capsys, monkeypatch, tmp_path, bots):
    """A slow bot game is not silent: a terminal on stderr shows the round and the actions so far,
    and a report on stdout gets none of it."""
    log = tmp_path / "game.log.yaml"
    screen = _Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    code, out, _ = run(capsys, "autoplay", AUCTION, "--players", "3", "--seed", "4", "--bots", bots,
                       "--quiet", "--log", str(log))
    actions = yaml.safe_load(log.read_text(encoding="utf-8"))["action_count"]
    assert code == 0 and "final scoring" in out and "\x1b" not in out
    assert "autoplay: round " in screen.getvalue() and f", {actions} actions" in screen.getvalue()
    monkeypatch.setattr("sys.stderr", io.StringIO())        # not a terminal: nothing is drawn
    code, _out, err = run(capsys, "autoplay", AUCTION, "--players", "3", "--seed", "4", "--quiet")
    assert code == 0 and "actions" not in err and "actions" not in sys.stderr.getvalue()


def test_autoplay_content_error_names_the_line(capsys):
    # seed 7 makes the random bots `spend` twice, breaking the tokens minimum
    code, out, err = run(capsys, "autoplay", str(GAMES / "counter"), "--players", "2", "--seed", "7", "--quiet")
    assert code == 1
    assert "error[RK4003]: `p" in out and "below its minimum 0" in out
    assert "counter/game.yaml:51:19" in out.replace(os.sep, "/")
    assert "Traceback" not in out + err


@pytest.mark.parametrize("argv,fragment", [
    (["autoplay", AUCTION, "--players", "9"], "2-4 players, not 9"),
    (["autoplay", AUCTION, "--bots", "genius"], "unknown bot `genius`"),
    (["autoplay", AUCTION, "--players", "2", "--bots", "random,greedy,random"], "3 bots for 2 seats"),
])
def test_autoplay_usage_errors(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2 and fragment in out


# ------------------------------------------------------------------ schema, help, usage

def test_schema_writes_the_schemas(capsys, tmp_path):
    code, out, _ = run(capsys, "schema", "--out", str(tmp_path / "schemas"))
    assert code == 0 and out.startswith("4 schemas in ")
    written = sorted(os.listdir(tmp_path / "schemas"))
    assert written == ["game-part.schema.json", "game.schema.json", "script.schema.json", "variant.schema.json"]
    json.loads((tmp_path / "schemas" / "game.schema.json").read_text())


@pytest.mark.parametrize("argv", [["--help"], ["validate", "--help"], ["run", "--help"], ["autoplay", "--help"]])
def test_help(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 0
    assert out.startswith("usage: rulekit")


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("rulekit ")


def test_no_command_prints_help_and_exits_2(capsys):
    code, out, _ = run(capsys)
    assert code == 2 and "COMMAND" in out


@pytest.mark.parametrize("argv", [
    ["nosuch"],
    ["validate"],
    ["validate", AUCTION, "--format", "xml"],
    ["autoplay", AUCTION, "--players", "two"],
])
def test_usage_errors_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert "error[RK0001]" in err and "Traceback" not in out + err


# ------------------------------------------------------------------ no traceback for bad input

BAD_FILES = {
    "empty.yaml": b"",
    "tabs.yaml": b"game: x\n\tactions: []\n",
    "bad_utf8.yaml": b"game: caf\xe9\n",
    "python_tag.yaml": b"game: !!python/object/apply:os.system ['echo pwned']\n",
    "a_list.yaml": b"- game\n- x\n",
    "bad_game.yaml": b"game: no-such-game\n",
    "binary.yaml": bytes(range(256)),
    "huge_numbers.yaml": b"game: auction\nplayers: 99999999999999999999\n",
    "wrong_types.yaml": b"game: [1, 2]\nseed: {a: 1}\nactions: 3\n",
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_scripts_never_show_a_traceback(capsys, tmp_path, name):
    path = tmp_path / name
    path.write_bytes(BAD_FILES[name])
    code, out, err = run(capsys, "run", str(path))
    assert code in (1, 2), (out, err)
    assert "Traceback" not in out + err and "internal error" not in err
    assert "error[RK" in out


@pytest.mark.parametrize("files", [
    {"game.yaml": b""},
    {"game.yaml": b"- a\n- b\n"},
    {"game.yaml": b"meta: {title: x}\nplayers: {min: 1, max: 2}\nflow: {rounds: 1, phases: [{id: m, do: 3}]}\n"},
    {"game.yaml": b"meta: {title: x}\nplayers: {min: 1, max: 2}\ninclude: [../../etc/passwd]\n"
                  b"flow: {rounds: 1, phases: [{id: m, do: pass}]}\n"},
    {"game.yaml": b"meta: {title: x}\nplayers: {min: 1, max: 2}\n"
                  b"flow: {rounds: 1, phases: [{id: m, do: \"x = (\"}]}\n"},
])
def test_bad_games_never_show_a_traceback(capsys, write_game, files):
    folder = write_game(files)
    for argv in (["validate", folder], ["autoplay", folder, "--quiet"]):
        code, out, err = run(capsys, *argv)
        assert code in (1, 2), (argv, out, err)
        assert "Traceback" not in out + err and "internal error" not in err
        assert "error[RK" in out


@pytest.mark.parametrize("do", [
    "v = [1, 2][0]\nmove(v, to=z[1])",     # 1 is not an item (seen only when it runs: an element of a list)
    "w = [z][0]\nmove(top(box), to=w)",   # a family is not a zone (an element of a list, seen when it runs)
    "x = [1][5]",
    "x = [none][0] + 1",             # (`none + 1` is refused before the game runs: RK0324)
    "x = [items(3)][0] + 1",
    "if true:\n    x = 1 // 0",
])
def test_runtime_content_errors_never_show_a_traceback(capsys, write_game, do):
    # content that checks clean but fails when it runs: exit 1, the line, no traceback
    body = "\n".join("        " + line for line in do.splitlines())
    folder = write_game("meta: {title: x}\nplayers: {min: 1, max: 2}\nzones: {z: {range: [1, 2]}}\n"
                        "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: |\n" + body + "\n")
    assert run(capsys, "validate", folder)[0] == 0
    code, out, err = run(capsys, "autoplay", folder, "--quiet")
    assert code == 1, (out, err)
    assert "Traceback" not in out + err and "internal error" not in err
    assert "error[RK4" in out and f"game.yaml:{8 + do.count(chr(10)) + 1}:" in out


def test_validate_checks_every_variant_file_of_the_folder(capsys, tmp_path):
    import shutil
    folder = str(tmp_path / "copy")
    shutil.copytree(AUCTION, folder)
    code, out, _ = run(capsys, "validate", folder)
    assert code == 0
    assert [line.split(" (")[0] for line in out.splitlines()] == [
        "ok: Tiny Auction", "ok: Tiny Auction + payday", "ok: Tiny Auction + rich"]
    broken = os.path.join(folder, "variants", "rich.yaml")
    with open(broken, "a", encoding="utf-8") as handle:
        handle.write("flow:\n  rounds: -3\n")
    code, out, _ = run(capsys, "validate", folder)
    lines = open(broken, encoding="utf-8").read().splitlines()
    assert code == 1 and f"--> {broken}:{len(lines)}:11" in out and "error[RK0124]" in out
    code, out, _ = run(capsys, "validate", folder, "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False
    assert [(v["variant"], v["ok"]) for v in data["variant_files"]] == [("payday", True), ("rich", False)]
    assert data["variant_files"][1]["diagnostics"][0]["line"] == len(lines)


def test_autoplay_deals_a_short_bot_list_round_the_table(capsys):
    """One `--bots` rule everywhere: `random,greedy` is accepted by autoplay as by simulate."""
    code, out, _ = run(capsys, "autoplay", AUCTION, "--players", "3", "--bots", "random,greedy", "--quiet")
    assert code == 0 and "winner" in out


# ------------------------------------------------------------------ did you mean, help, list

def test_a_misspelt_command_gets_a_suggestion(capsys):
    code, out, err = run(capsys, "valdate", AUCTION)
    assert code == 2
    assert "invalid choice: 'valdate'" in err and "did you mean `validate`?" in err


def test_a_misspelt_flag_gets_a_suggestion_from_its_command(capsys):
    code, out, err = run(capsys, "autoplay", AUCTION, "--sead", "3")
    assert code == 2
    assert "unrecognized arguments: --sead 3; did you mean `--seed`?" in err
    assert err.startswith("usage: rulekit autoplay")


def test_a_misspelt_choice_gets_a_suggestion(capsys):
    code, _out, err = run(capsys, "validate", AUCTION, "--format", "consice")
    assert code == 2 and "did you mean `concise`?" in err


def test_every_option_has_help_and_says_its_default():
    from rulekit.cli.app import _SUBPARSERS, build_parser
    build_parser()
    assert "list" in _SUBPARSERS
    for name, parser in _SUBPARSERS.items():
        text = parser.format_help()
        for action in parser._actions:
            if action.dest == "help":
                continue
            assert action.help, f"rulekit {name} {action.option_strings or action.dest} has no help text"
            if action.option_strings and action.default is not None and action.default is not False \
                    and action.default != []:
                flat = " ".join(text.split())
                assert f"default: {action.default}" in flat or f"default {action.default}" in flat, (name, action.dest)


def test_list_names_the_shipped_and_local_games(capsys, tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "game.yaml").write_text("meta: {title: Mine}\nplayers: {min: 2, max: 5}\n")
    code, out, _ = run(capsys, "list", str(tmp_path))
    lines = out.splitlines()
    assert code == 0 and lines[0].split() == ["game", "title", "players", "variants"]
    batavia = next(line for line in lines if line.startswith("batavia "))
    assert batavia.split() == ["batavia", "Batavia", "3-5", "(4)", "open-route,", "pirates-once", "shipped"]
    assert any(line.startswith("goa ") and "pro" in line for line in lines)
    mine = next(line for line in lines if "Mine" in line)
    assert mine.split()[1:] == ["Mine", "2-5", "-", "local"]
    code, out, _ = run(capsys, "list", str(tmp_path), "--format", "json")
    rows = json.loads(out)
    assert {r["game"] for r in rows if r["where"] == "shipped"} == {"batavia", "goa"}
    assert [r["players"] for r in rows if r["title"] == "Mine"] == [{"min": 2, "max": 5, "default": None}]


def test_list_of_a_missing_folder_is_a_usage_error(capsys, tmp_path):
    code, out, _ = run(capsys, "list", str(tmp_path / "nowhere"))
    assert code == 2 and "no folder" in out
