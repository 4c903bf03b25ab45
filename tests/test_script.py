# SPDX-License-Identifier: MIT
"""Scripts and logs: expectations, script errors located in the script file, pins,
position overrides, and logs that replay exactly (or are refused when stale)."""
from __future__ import annotations

import os

import pytest
import yaml

from rulekit.cli import main
from rulekit.errors import ContentRuntimeError, DiagnosticReport
from rulekit.script import ScriptError, run_script

from conftest import GAMES

AUCTION = GAMES / "auction" / "scripts"
COUNTER = GAMES / "counter" / "scripts"
HIDDEN = GAMES / "hidden" / "scripts"


def script_error(path) -> ScriptError:
    with pytest.raises(ScriptError) as info:
        run_script(str(path))
    return info.value


def line_of(path, needle: str) -> int:
    (found,) = [i + 1 for i, line in enumerate(open(path, encoding="utf-8").read().splitlines()) if needle in line]
    return found


# ------------------------------------------------------------------ scripts that pass

def test_a_script_with_expectations_passes():
    result = run_script(str(AUCTION / "full_game.yaml"))
    state = result.state
    assert state.over
    assert state.result["winners"] == ["p3"]
    assert result.transcript.count("  expect ok: p2.money, count(p2.gems), starter, count(lot)") == 1
    assert result.transcript[0] == "start auction players=3 seed=7"
    assert result.transcript[-1].startswith("result: ")
    assert state.actions == ["bid 1", "bid 2", "pass", "pass", "bid 1", "bid 4", "pass", "pass"]


@pytest.mark.parametrize("script", [
    "auction/scripts/full_game.yaml",
    "counter/scripts/quit_early.yaml",
    "hidden/scripts/pinned_deck.yaml",
    "auction/scripts/position.yaml",
])
def test_transcript_snapshot(play_script, snapshot, script):
    assert play_script(script) == snapshot


def test_checkpoints_hold_per_player_views():
    result = run_script(str(HIDDEN / "pinned_deck.yaml"))
    dealt = result.checkpoints["dealt"]
    assert set(dealt) == {"p1", "p2"}
    assert dealt["p1"]["players"]["p1"]["hand"] == ["green-3", "green-2"]
    assert dealt["p2"]["players"]["p1"]["hand"] == {"count": 2}
    assert dealt["p1"]["zones"]["table"] == ["?", "blue-1"]
    assert "checkpoint dealt" in result.transcript


def test_pinned_rolls_are_used_in_order():
    result = run_script(str(AUCTION / "full_game.yaml"))
    rolls = [e for e in result.state.events if e[0] == "roll"]
    assert rolls == [("roll", "dice", 3, 2), ("roll", "dice", 3, 3)]
    assert result.log["pins"] == {"rolls": {"dice": [2, 3]}}


def test_pinned_shuffles_fix_the_deal():
    result = run_script(str(HIDDEN / "pinned_deck.yaml"))
    state = result.state
    assert ("shuffle", "deck", 9) in state.events
    assert state.zones[state.game.pzones["tableau"][0]] == ["green-3"]


def test_position_override_runs_after_setup():
    result = run_script(str(AUCTION / "position.yaml"))
    events = result.state.events
    # the override's changes come before the first round starts
    first_round = events.index(("set", "round", 0, 1))
    assert events.index(("set", "p1.money", 5, 9)) < first_round
    assert ("set", "p2.money", 5, 0) in events[:first_round]
    assert result.state.p[0]["money"] == 0 and result.state.g["starter"] == 0
    assert result.log["position"].startswith("players[0].money = 9")


def test_a_bad_position_override_is_a_located_diagnostic(tmp_path):
    script = tmp_path / "s.yaml"
    script.write_text(f"game: {GAMES / 'auction'}\nplayers: 2\nposition: |\n  mony = 3\n  players[0].mony = 1\n")
    with pytest.raises(DiagnosticReport) as info:
        run_script(str(script))
    (diag,) = info.value.diagnostics
    assert diag.code == "RK0303" and diag.help == "did you mean `money`?"
    assert (diag.span.line, diag.span.column) == (5, 3)


# ------------------------------------------------------------------ scripts that fail

def test_wrong_action_names_the_script_line_and_the_legal_ones():
    path = AUCTION / "wrong_action.yaml"
    err = script_error(path)
    assert err.code == "RK5005" and err.exit_code == 1
    assert err.span.path == str(path)
    assert (err.span.line, err.span.column) == (line_of(path, "bid 9"), 5)
    assert err.legal == ["bid 2", "bid 3", "bid 4", "bid 5", "pass"]
    assert "illegal action `bid 9` for p2" in str(err)
    rendered = err.render()
    assert rendered.startswith("error[RK5005]")
    assert f"--> {path}:{err.span.line}:5" in rendered


def test_wrong_player_assertion():
    path = AUCTION / "wrong_player.yaml"
    err = script_error(path)
    assert err.code == "RK5004"
    assert str(err).startswith("the script says p1 acts, but it is p2's decision")
    assert err.span.line == line_of(path, "p1: bid 2")
    assert err.legal[-1] == "pass"


def test_failing_expectation_points_at_its_key():
    path = AUCTION / "failing_expect.yaml"
    err = script_error(path)
    assert err.code == "RK5007"
    assert str(err) == "expected `p1.money` to be 4, got 5"
    assert (err.span.line, err.span.column) == (line_of(path, '"p1.money"'), 7)


def test_expectation_that_cannot_be_evaluated():
    err = script_error(COUNTER / "cannot_evaluate.yaml")
    assert err.code == "RK5006" and "cannot evaluate `10 // total`" in str(err)


def test_expectation_with_an_unknown_name_is_located_inside_the_key():
    path = COUNTER / "bad_expectation.yaml"
    with pytest.raises(DiagnosticReport) as info:
        run_script(str(path))
    (diag,) = info.value.diagnostics
    assert (diag.code, diag.message) == ("RK0301", "unknown name `nowhere`")
    text = open(path, encoding="utf-8").read().splitlines()[diag.span.line - 1]
    assert text[diag.span.column - 1:].startswith("nowhere")


def test_action_after_the_end():
    err = script_error(COUNTER / "after_the_end.yaml")
    assert err.code == "RK5003" and "after the game ended" in str(err)


def test_script_schema_problems_stop_the_run(tmp_path):
    script = tmp_path / "s.yaml"
    script.write_text("game: auction\nplayres: 2\n")
    with pytest.raises(DiagnosticReport) as info:
        run_script(str(script))
    assert info.value.diagnostics[0].code == "RK0120"


def test_bad_pins_are_content_runtime_errors(tmp_path):
    script = tmp_path / "s.yaml"
    script.write_text(f"game: {GAMES / 'hidden'}\npins:\n  shuffles: {{deck: [[red-1]]}}\n")
    with pytest.raises(ContentRuntimeError) as info:
        run_script(str(script))
    assert info.value.code == "RK4006"


# ------------------------------------------------------------------ logs

def write_log(tmp_path, script, name="log.yaml") -> str:
    log = str(tmp_path / name)
    assert main(["run", str(script), "--log", log]) == 0
    return log


def test_a_log_replays(tmp_path, capsys):
    log = write_log(tmp_path, AUCTION / "full_game.yaml")
    original = capsys.readouterr().out
    data = yaml.safe_load(open(log, encoding="utf-8"))
    assert data["rulekit_log"] == 2 and data["action_count"] == len(data["actions"])
    assert not os.path.isabs(data["game"])               # the game is named relative to the log
    assert os.path.samefile(os.path.join(tmp_path, data["game"]), GAMES / "auction")
    assert data["actions"] == run_script(str(AUCTION / "full_game.yaml")).state.actions
    assert data["result"]["winners"] == ["p3"]
    assert main(["run", log]) == 0
    replayed = capsys.readouterr().out
    # the same game: the same events (the replay has no expectations or checkpoints)
    def strip(text):
        return [line for line in text.splitlines() if "expect ok" not in line and "checkpoint" not in line]

    assert strip(replayed) == strip(original)


def test_a_log_of_a_position_script_replays(tmp_path, capsys):
    log = write_log(tmp_path, AUCTION / "position.yaml")
    assert "position" in yaml.safe_load(open(log, encoding="utf-8"))
    capsys.readouterr()
    assert main(["run", log]) == 0
    assert "p1: bid 9" in capsys.readouterr().out


def test_a_log_replays_as_a_script_through_the_api(tmp_path):
    log = write_log(tmp_path, COUNTER / "quit_early.yaml")
    first = run_script(str(COUNTER / "quit_early.yaml"))
    again = run_script(log)
    assert again.state.events == first.state.events
    assert again.state.result == first.state.result


def test_a_log_with_a_tampered_content_hash_is_refused(tmp_path, capsys):
    log = write_log(tmp_path, AUCTION / "full_game.yaml")
    text = open(log, encoding="utf-8").read()
    data = yaml.safe_load(text)
    tampered = text.replace(data["content_hash"], "sha256:0000000000000000")
    open(log, "w", encoding="utf-8").write(tampered)
    capsys.readouterr()
    with pytest.raises(ScriptError) as info:
        run_script(log)
    err = info.value
    assert err.code == "RK5002"
    assert "sha256:0000000000000000" in str(err) and data["content_hash"] in str(err)
    assert err.span.line == line_of(log, "content_hash")
    assert main(["run", log]) == 1
    out = capsys.readouterr().out
    assert "error[RK5002]" in out and "Traceback" not in out
    # --force replays anyway
    assert main(["run", log, "--force"]) == 0
    assert run_script(log, force=True).state.result["winners"] == ["p3"]


def test_a_log_whose_result_differs_is_refused(tmp_path):
    log = write_log(tmp_path, AUCTION / "full_game.yaml")
    data = yaml.safe_load(open(log, encoding="utf-8"))
    data["result"]["winners"] = ["p1"]
    with open(log, "w", encoding="utf-8") as handle:
        yaml.safe_dump(data, handle, sort_keys=False)
    err = script_error(log)
    assert err.code == "RK5008"


def test_autoplay_log_replays(tmp_path, capsys):
    log = str(tmp_path / "auto.yaml")
    assert main(["autoplay", str(GAMES / "auction"), "--seed", "3", "--quiet", "--log", log]) == 0
    capsys.readouterr()
    result = run_script(log)
    assert result.state.over
    assert result.state.result == yaml.safe_load(open(log, encoding="utf-8"))["result"]
