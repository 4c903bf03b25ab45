# SPDX-License-Identifier: MIT
"""Scripts and logs: expectations, script errors located in the script file, pins,
position overrides, and logs that replay exactly (or are refused when stale)."""
from __future__ import annotations

import os

import pytest
import yaml

from rulekit.cli.app import main
from rulekit.errors import DiagnosticReport
from rulekit.testing.script import ScriptError, run_script

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
    assert result.transcript[0] == "start Tiny Auction players=3 seed=7"
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
    assert state.zones[state.game.board.pzones["tableau"][0]] == ["green-3"]


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


def test_bad_pins_are_errors_at_the_scripts_line(tmp_path):
    script = tmp_path / "s.yaml"
    script.write_text(f"game: {GAMES / 'hidden'}\npins:\n  shuffles: {{deck: [[red-1]]}}\n")
    with pytest.raises(ScriptError) as info:     # the rules' RK4006, at the pin (issue 35)
        run_script(str(script))
    assert info.value.code == "RK5025" and (info.value.span.path, info.value.span.line) == (str(script), 3)


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


# ------------------------------------------------------------------ refuse, legal, score, over

def steps_script(tmp_path, steps: str, head: str = "") -> str:
    """A script of the auction game (3 players, lots of 2 and 3 gems) with these steps."""
    path = tmp_path / "s.yaml"
    path.write_text(f"game: {GAMES / 'auction'}\nplayers: 3\nseed: 7\npins: {{rolls: {{dice: [2, 3]}}}}\n{head}"
                    f"actions:\n{steps}", encoding="utf-8")
    return str(path)


FULL = "  - p1: bid 1\n  - p2: bid 2\n  - p3: pass\n  - p1: pass\n  - p2: bid 1\n  - p3: bid 4\n" \
       "  - p1: pass\n  - p2: pass\n"


def test_refuse_legal_score_and_over_steps_pass():
    result = run_script(str(AUCTION / "checks.yaml"))
    lines = [line.strip() for line in result.transcript if " ok: " in line]
    assert lines == ["legal ok: player, includes, excludes", "refused ok: bid 6", "refused ok: bid 0",
                     "legal ok: exactly", "legal ok: exactly", "over ok: false", "over ok: true",
                     "refused ok: pass", "score ok: p1, p2, p3, winners"]
    # a refusal leaves the game as it was: the same actions as without the checks
    assert result.state.actions == run_script(str(AUCTION / "full_game.yaml")).state.actions


def test_an_accepted_refusal_fails_with_the_state_it_reached(tmp_path):
    path = steps_script(tmp_path, "  - p1: bid 1\n  - refuse: bid 5\n")
    err = script_error(path)
    assert err.code == "RK5012" and str(err) == "expected `bid 5` to be refused, but it was accepted"
    assert err.span.line == line_of(path, "refuse: bid 5")
    assert err.notes[-1] == "now p3 to act: pass"    # p3, with 5, cannot outbid p1's 5


def test_a_refusal_for_another_reason_fails_at_its_because(tmp_path):
    path = steps_script(tmp_path, "  - refuse:\n      action: bid 6\n      because: the game is over\n")
    err = script_error(path)
    assert err.code == "RK5012" and "refused, but RK3001 not a legal action now" in str(err)
    assert err.span.line == line_of(path, "because:")


def test_an_action_that_exists_nowhere_is_not_a_refusal(tmp_path):
    typo = script_error(steps_script(tmp_path, "  - refuse: bdi 1\n"))
    assert typo.code == "RK5011" and typo.help == "did you mean `bid 1`?"
    assert script_error(steps_script(tmp_path, "  - bdi 1\n")).code == "RK5011"
    assert script_error(steps_script(tmp_path, "  - bid 9\n")).code == "RK5005"     # a refusal
    glob = script_error(steps_script(tmp_path, "  - legal: {excludes: [\"bet *\"]}\n"))
    assert glob.code == "RK5011" and "matches `bet *`" in str(glob)


def test_every_failed_expectation_of_a_step_is_reported(tmp_path):
    path = steps_script(tmp_path, "  - legal:\n      player: p2\n      includes: [bid 9]\n"
                                  "      excludes: [\"bid *\"]\n      exactly: [pass]\n")
    err = script_error(path)
    failures = [err, *err.more]
    assert [f.code for f in failures] == ["RK5013"] * 4
    assert [str(f) for f in failures] == [
        "expected p2 to act, but it is p1", "no legal action matches `bid 9`",
        "`bid *` should not be legal, but bid 1, bid 2, bid 3, bid 4, bid 5 are",
        "legal but not listed: bid 1, bid 2, bid 3, bid 4, bid 5"]
    assert [f.span.line for f in failures] == [line_of(path, n) for n in ("player:", "includes:", "excludes:",
                                                                          "exactly:")]
    assert err.render().endswith("4 expectations of this step failed.")
    expect = script_error(steps_script(tmp_path, "  - expect: {\"p1.money\": 4, \"p2.money\": 4, round: 1}\n"))
    assert [str(f) for f in (expect, *expect.more)] == ["expected `p1.money` to be 4, got 5",
                                                       "expected `p2.money` to be 4, got 5"]


def test_score_and_over_steps(tmp_path):
    early = script_error(steps_script(tmp_path, "  - score: {p1: 5}\n"))
    assert early.code == "RK5014" and str(early) == "no score yet: the game is not over (p1 to act)"
    assert script_error(steps_script(tmp_path, "  - over: true\n")).code == "RK5015"
    wrong = script_error(steps_script(tmp_path, FULL + "  - score: {p1: {gems: 1, mony: 5}, winners: [p2]}\n"))
    assert [str(f) for f in (wrong, *wrong.more)] == [
        "expected p1's gems to be 1, got 0", "no scoring category `mony`", "expected the winners [p2], got [p3]"]
    assert wrong.more[0].help == "did you mean `money`?"


def test_a_malformed_step_names_its_line(tmp_path):
    path = steps_script(tmp_path, "  - p1: bid 1\n  - expct: {round: 1}\n")
    with pytest.raises(DiagnosticReport) as info:
        run_script(path)
    (diag,) = info.value.diagnostics
    assert (diag.code, diag.help, diag.span.line) == ("RK0120", "did you mean `expect`?", line_of(path, "expct"))


@pytest.mark.parametrize("variant", ["/etc/passwd", "../../../../../etc/passwd", "../counter/game.yaml"])
def test_a_scripts_variants_stay_inside_the_game_folder(tmp_path, variant):
    path = steps_script(tmp_path, "  - bid 1\n", head=f"variants: [\"{variant}\"]\n")
    err = script_error(path)
    assert err.code == "RK5009" and err.span.line == line_of(path, "variants:")
    assert "root:" not in err.render()


def test_a_variant_file_inside_the_game_folder_is_allowed(tmp_path):
    path = steps_script(tmp_path, "  - over: false\n", head="variants: [variants/rich.yaml]\n")
    assert run_script(path).state.p[0]["money"] != 5


def test_a_result_with_an_unfinished_replay_is_refused(tmp_path):
    log = write_log(tmp_path, AUCTION / "full_game.yaml")
    data = yaml.safe_load(open(log, encoding="utf-8"))
    data["actions"] = data["actions"][:3]
    data["action_count"] = 3        # whole as a log, but its game has not ended
    with open(log, "w", encoding="utf-8") as handle:
        yaml.safe_dump(data, handle, sort_keys=False)
    err = script_error(log)
    assert err.code == "RK5008" and "has not ended" in str(err)
