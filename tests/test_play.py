# SPDX-License-Identifier: MIT
"""`rulekit play` driven through a plain pipe: whole games against random bots,
undo, refused actions, save/load, and the end of the input."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import yaml

from rulekit.testing.script import run_script

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = ["batavia", "goa"]


def play(*args, lines=(), cwd=None, timeout=300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("RULEKIT_DEBUG", None)
    text = "".join(f"{line}\n" for line in lines)
    return subprocess.run([sys.executable, "-m", "rulekit", "play", *map(str, args)], input=text,
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)


def decisions(out: str) -> list[str]:
    """The lines read from the pipe, in order (echoed after `> `)."""
    return [line[2:] for line in out.splitlines() if line.startswith("> ")]


def bot_lines_after(out: str, nth: int) -> list[str]:
    """The bots' actions printed after the nth input line, up to the next picture."""
    lines = out.splitlines()
    seen = -1
    got: list[str] = []
    for line in lines:
        if line.startswith("> "):
            seen += 1
            if seen > nth:
                break
            continue
        if seen == nth:
            if line.startswith("───") or line.startswith("Your legal actions"):
                break
            if re.match(r"  p\d+: ", line):
                got.append(line)
    return got


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_through_a_pipe(game):
    result = play(game, "--seed", 4, lines=["1"] * 4000)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    out = result.stdout
    assert "final scoring after round" in out
    assert re.search(r"^(winner|shared victory): p\d", out, re.M)
    assert re.search(r"^(you win!|you placed \d of \d)$", out, re.M)
    assert "\x1b[" not in out, "no terminal codes when the output is not a terminal"
    assert len(decisions(out)) > 10
    assert result.stderr == ""


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_from_another_seat_with_notation(game, tmp_path):
    """Seat 2 at the smallest table, answering with the last legal action in notation."""
    from rulekit.agents import make_agent
    from rulekit.engine import api
    from rulekit.games import load_game
    g = load_game(game)
    n = g.min_players
    # work out the answers with the engine: the same seed and bots as `rulekit play`
    state = api.new_game(g, n, 6)
    bots = [make_agent("random", 6 * 1000 + i) for i in range(n)]
    answers = []
    while not state.over:
        who = state.pending.player
        if who == 1:
            label = state.pending.labels[-1]
            answers.append(label)
            api.apply(state, label)
        else:
            api.apply_index(state, bots[who].choose(state))
    result = play(game, "--players", n, "--seat", "p2", "--bots", "random", "--seed", 6, lines=answers)
    assert result.returncode == 0, result.stdout[-2000:]
    assert "you are p2" in result.stdout
    table = result.stdout[result.stdout.index("final scoring"):]
    for player in state.result["ranking"]:
        total = state.result["scores"][player]["total"]
        assert re.search(rf"│ {player}\b.*│\s+{total} │", table), (player, total, table)
    assert decisions(result.stdout) == answers


@pytest.mark.parametrize("game, second", [("batavia", "2"), ("goa", "1")])
def test_undo_goes_back_to_the_previous_decision(game, second):
    # Batavia's first option there is to draw ship cards, which undo may not take back (#52): play instead
    result = play(game, "--seed", 2, lines=["1", second, "undo", second, "quit"])
    assert result.returncode == 0, result.stdout[-2000:]
    out = result.stdout
    assert "undone: " in out and "since your last decision" in out
    # the same choice after the undo brings the same answers from the (replayed) bots
    assert bot_lines_after(out, 1) == bot_lines_after(out, 3)
    assert out.rstrip().endswith("stopped.")


def test_undo_with_nothing_to_undo():
    result = play("goa", "--seed", 1, lines=["undo", "quit"])
    assert "nothing to undo" in result.stdout and result.returncode == 0


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_action_is_explained(game):
    result = play(game, "--seed", 3, lines=["fly to the moon", "999", "/dance", "help", "show", "quit"])
    out = result.stdout
    assert result.returncode == 0
    assert "error[RK3001]: illegal action `fly to the moon` for p1: not a legal action now; legal actions: `" in out
    assert re.search(r"there is no action 999: choose 1-\d+", out)
    assert "unknown command `/dance`" in out
    assert "save FILE" in out and "undo" in out       # the help
    assert out.count("Your legal actions") == 2      # shown again by `show`


@pytest.mark.parametrize("game", GAMES)
def test_save_and_load(game, tmp_path):
    first = play(game, "--seed", 8, lines=["1", "1", "1", "save saved.yaml", "quit"], cwd=tmp_path)
    assert first.returncode == 0, first.stdout[-2000:]
    saved = tmp_path / "saved.yaml"
    assert "saved " in first.stdout and saved.exists()
    log = yaml.safe_load(saved.read_text(encoding="utf-8"))
    assert log["game"] == game and log["seed"] == 8 and log["actions"]
    replayed = run_script(str(saved))          # the log format of `rulekit run`
    assert replayed.state.actions == log["actions"] and not replayed.state.over
    # a new session loads it (whatever its own seed) and plays on to the end
    second = play(game, "--seed", 99, lines=["load saved.yaml"] + ["1"] * 4000, cwd=tmp_path)
    assert second.returncode == 0, second.stdout[-2000:]
    assert "loaded saved.yaml: " in second.stdout and f"{len(log['actions'])} actions played" in second.stdout
    assert "final scoring after round" in second.stdout
    # the bots answer as they did before the save: the replay keeps their streams in step
    continued = play(game, "--seed", 99, lines=["load saved.yaml", "1", "quit"], cwd=tmp_path)
    straight = play(game, "--seed", 8, lines=["1", "1", "1", "1", "quit"], cwd=tmp_path)
    assert bot_lines_after(continued.stdout, 1) == bot_lines_after(straight.stdout, 3)


def test_load_refuses_a_bad_file(tmp_path):
    (tmp_path / "bad.yaml").write_text("game: nowhere-to-be-found\nactions: []\n", encoding="utf-8")
    result = play("goa", lines=["load missing.yaml", "load bad.yaml", "save", "quit"], cwd=tmp_path)
    assert result.returncode == 0
    assert "no such file `missing.yaml`" in result.stdout
    assert "error[" in result.stdout          # the loader's diagnostic for the unknown game
    assert "save where?" in result.stdout


def test_input_ending_early_is_exit_2():
    result = play("goa", "--seed", 1, lines=["1"])
    assert result.returncode == 2
    assert "input ended before the game did" in result.stdout


def test_usage_errors():
    assert play("goa", "--seat", "7", lines=["quit"]).returncode == 2
    assert play("goa", "--bots", "random,random,random,random,random", lines=["quit"]).returncode == 2
    assert play("goa", "--bots", "genius", lines=["quit"]).returncode == 2
    assert play("no-such-game", lines=["quit"]).returncode in (1, 2)


def test_the_view_is_the_seated_players():
    """Other players' owner-only variables show as `?`; the seated player's own do not."""
    from rulekit.games import load_game
    g = load_game("goa")
    secret = [v for v in g.variables.pvars if g.variables.pvis[v] == "owner"]
    assert secret
    out = play("goa", "--seed", 1, lines=["quit"]).stdout
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^(p\d)(?: \(you\))?\s+(.*)$", out, re.M)}
    assert f"{secret[0]}=?" not in rows["p1"]
    assert all(f"{secret[0]}=?" in rows[p] for p in rows if p != "p1")


def test_a_position_broken_on_purpose_is_saved_as_such(tmp_path):
    """A script that opts out of an invariant (`skip_invariants:`), loaded and saved again, keeps
    the opt-out, so the saved session replays instead of failing on the position it was given."""
    script = os.path.join(ROOT, "games", "batavia", "scenarios", "reveal.yaml")
    result = play("batavia", lines=[f"load {script}", "save saved.yaml", "quit"], cwd=tmp_path)
    assert result.returncode == 0 and "saved " in result.stdout, result.stdout[-2000:]
    log = yaml.safe_load((tmp_path / "saved.yaml").read_text(encoding="utf-8"))
    assert log["skip_invariants"] == ["reachable_tiles_face_up"]
    assert run_script(str(tmp_path / "saved.yaml")).state.actions == log["actions"]


def test_internal_variables_are_left_out_of_the_picture():
    """`internal: true` marks the rules' bookkeeping (Goa's `level_rewarded`, `chain_owner`): the
    picture a player reads leaves it out, while views, logs and scripts still have it."""
    import rulekit
    out = play("goa", "--seed", 1, lines=["quit"]).stdout
    assert "ships=" in out and "flag_holder" in out
    assert "level_rewarded" not in out and "chain_owner" not in out and "firsts" not in out
    from rulekit.engine.view import view
    state = rulekit.new_game(rulekit.load_game("goa"), 4, 1)
    assert "level_rewarded" in view(state, 0)["players"]["p1"] and "chain_owner" in view(state, 0)["vars"]


def test_internal_variables_are_left_out_of_a_picture_of_the_table(tmp_path):
    from rulekit.cli.app import main
    log, picture = tmp_path / "goa.log", tmp_path / "goa.svg"
    assert main(["autoplay", "goa", "--log", str(log), "--quiet"]) == 0
    assert main(["render", str(log), "-o", str(picture)]) == 0
    svg = picture.read_text()
    assert "ships" in svg and "level_rewarded" not in svg and "card_played" not in svg


def test_a_board_of_ones_own_is_shown_as_a_grid():
    """Azul's walls (`grid: {cols: 5, rows: 5}` player zones) print a line per row, a column per
    letter, `.` for an empty cell; a player's family is shown by its spaces, never as `-`."""
    out = play(os.path.join(ROOT, "examples", "azul"), "--players", 2, "--seed", 1, lines=["quit"]).stdout
    assert re.search(r"wall:\n\s+a b c d e\n\s+1  \. \. \. \. \.\n(\s+\d  \. \. \. \. \.[^\n]*\n){4}", out), out
