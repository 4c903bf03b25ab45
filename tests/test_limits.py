# SPDX-License-Identifier: MIT
"""Limits: content that would run, recurse, nest or grow without end gets a clear
error on its line instead of hanging or crashing, and a log whose content changed
says what changed.

- an effect loop that never reaches a decision stops at the step limit (RK4009),
  naming the procedure or phase and the loop's line; a game that never ends stops
  `rulekit autoplay` after ``--max-actions`` (RK4012);
- recursion of procedures (RK4008) and of functions (RK4000) stops with the line;
- a log replayed against changed content is refused (RK5002) with the sections and
  files that changed, and ``--force`` replays it anyway;
- YAML python tags are refused (RK0104) and never run;
- files too large (RK0106), alias bombs (RK0106), YAML nested too deeply (RK0108),
  too many items or zones (RK0338),
  effect-language text nested too deeply (RK0219), odd line breaks (RK0200) and
  inconsistent dedents (RK0220) all name the file and line.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

import rulekit
from rulekit.cli.app import main
from rulekit.content.loader import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES
from rulekit.dsl.texts import MAX_NESTING
from rulekit.engine import api
from rulekit.errors import ContentRuntimeError, DiagnosticReport
from rulekit.testing.script import ScriptError, run_script

from conftest import GAMES

HEAD = "meta: {title: Limits}\nplayers: {min: 1, max: 2}\nvars:\n  x: 0\n"


def run(capsys, *argv) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err and code != 101, captured
    return code, captured.out + captured.err


def line_of(path, needle: str) -> int:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def start(folder, step_limit=20_000, players=1):
    return api.new_game(rulekit.load_game(folder), players, 1, step_limit=step_limit)


# ------------------------------------------------------------------ loops that never end

LOOP_IN_A_PHASE = HEAD + """
flow:
  rounds: 1
  phases:
    - id: spin
      do: |
        x = 0
        while true:
            x = 1
"""


def test_an_endless_loop_stops_at_the_step_limit_naming_the_phase_and_line(capsys, write_game):
    folder = write_game(LOOP_IN_A_PHASE)
    code, out = run(capsys, "autoplay", folder, "--quiet")   # the real default limit
    assert code == 1
    assert "error[RK4009]: step limit of 2000000 reached in `phase spin`" in out
    game_yaml = os.path.join(folder, "game.yaml")
    lines = {line_of(game_yaml, "while true:"), line_of(game_yaml, "x = 1")}
    located = re.search(r"--> (.+):(\d+):\d+", out)
    assert located and os.path.samefile(located.group(1), game_yaml) and int(located.group(2)) in lines


@pytest.mark.parametrize("where,name", [("procedure", "spin_forever"), ("setup", "setup"), ("finish", "finish")])
def test_an_endless_loop_names_where_it_runs(write_game, where, name):
    loop = "x = 0\nwhile x < 1:\n    x = x * 1\n"
    body = textwrap.indent(loop, "    ")
    if where == "procedure":
        text = HEAD + f"procedures:\n  spin_forever:\n    do: |\n{textwrap.indent(loop, '      ')}" \
            "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: spin_forever()\n"
    elif where == "setup":
        text = HEAD + f"setup: |\n{body}flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n"
    else:
        text = HEAD + f"flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n  finish: |\n{body}"
    folder = write_game(text)
    with pytest.raises(ContentRuntimeError) as info:
        start(folder)
    err = info.value
    assert err.code == "RK4009" and f"in `{name}`" in str(err)
    game_yaml = os.path.join(folder, "game.yaml")
    assert os.path.samefile(err.span.path, game_yaml)
    assert err.span.line in (line_of(game_yaml, "while x < 1:"), line_of(game_yaml, "x = x * 1"))


def test_an_endless_loop_after_an_action_leaves_the_state_unchanged(write_game):
    folder = write_game(HEAD + """
flow:
  rounds: 1
  phases:
    - id: m
      do: |
        choose players[0]:
            "calm":
                x = 1
            "spin":
                while true:
                    x = 2
""")
    state = start(folder)
    before = (dict(state.g), list(state.actions), state.pending.labels)
    with pytest.raises(ContentRuntimeError) as info:
        api.apply(state, "spin", step_limit=5_000)
    assert info.value.code == "RK4009" and "phase m" in str(info.value)
    assert (dict(state.g), list(state.actions), state.pending.labels) == before


# every round has a decision, so the step limit never fires: only the action cap stops it
NEVER_ENDS = HEAD + """
flow:
  end_after_round_if: "x < 0"
  phases:
    - id: m
      do: |
        choose players[0]:
            "a":
                x += 1
            "b":
                x += 2
"""


def test_a_game_that_never_ends_is_stopped_by_autoplay(capsys, write_game):
    folder = write_game(NEVER_ENDS)
    code, out = run(capsys, "autoplay", folder, "--quiet", "--max-actions", "300")
    assert code == 1 and "error[RK4012]: stalled: the game has not ended after 300 actions" in out
    assert f"game.yaml:{line_of(os.path.join(folder, 'game.yaml'), 'flow:')}:1" in out


def test_a_game_that_never_ends_is_stopped_by_simulate(capsys, write_game, monkeypatch):
    from rulekit.agents import game_loop as agents  # where action_cap reads MAX_ACTIONS
    monkeypatch.setattr(agents, "MAX_ACTIONS", 200)       # random play never ends it: the cap is the most
    folder = write_game(NEVER_ENDS)
    code, out = run(capsys, "simulate", folder, "--games", "1", "--players", "1")
    assert code == 1 and "error[RK4012]: stalled: the game has not ended after 200 actions" in out


def test_a_huge_range_is_refused_on_its_line_before_it_allocates(capsys, write_game):
    folder = write_game(_phase("for i in range(1000000000000):\n    x += 1\n"))
    code, out = run(capsys, "autoplay", folder, "--quiet")
    assert code == 1 and "error[RK4014]: range of 1,000,000,000,000 numbers is longer than 1,000,000" in out
    assert f"game.yaml:{line_of(os.path.join(folder, 'game.yaml'), 'for i in range')}:" in out


# ------------------------------------------------------------------ recursion

def test_procedure_recursion_names_the_procedure(capsys, write_game):
    folder = write_game(HEAD + """
procedures:
  deeper:
    params: [n]
    do: |
      x = n
      deeper(n + 1)
flow:
  rounds: 1
  phases:
    - id: m
      do: deeper(1)
""")
    code, out = run(capsys, "autoplay", folder, "--quiet")
    assert code == 1
    assert "error[RK4008]: procedure calls nest deeper than" in out and "`deeper`" in out
    assert re.search(r"--> .*game\.yaml:\d+:\d+", out)


def test_mutual_procedure_recursion_is_stopped(write_game):
    folder = write_game(HEAD + """
procedures:
  ping:
    do: pong()
  pong:
    do: ping()
flow:
  rounds: 1
  phases:
    - id: m
      do: ping()
""")
    with pytest.raises(ContentRuntimeError) as info:
        start(folder)
    assert info.value.code == "RK4008" and re.search(r"`p[io]ng`", str(info.value))
    assert info.value.span is not None and info.value.span.path.endswith("game.yaml")


FUNCTION_RECURSION = HEAD + """
functions:
  down:
    params: [n]
    expr: "down(n + 1)"
"""


def test_function_recursion_stops_on_the_calling_line(capsys, write_game):
    folder = write_game(FUNCTION_RECURSION + "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: |\n"
                        "        x = down(1)\n")
    code, out = run(capsys, "autoplay", folder, "--quiet")
    assert code == 1 and "error[RK4000]" in out and "too deeply (recursion?)" in out
    assert f"game.yaml:{line_of(os.path.join(folder, 'game.yaml'), 'x = down(1)')}:" in out


def test_function_recursion_in_a_parameter_names_the_parameter(capsys, write_game):
    # parameters are computed when the game starts, outside the VM: this was exit 101
    folder = write_game(FUNCTION_RECURSION.replace("vars:\n  x: 0\n", "params:\n  first: {expr: \"down(1)\"}\n")
                        + "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n")
    code, out = run(capsys, "autoplay", folder, "--quiet")
    assert code == 1 and "cannot compute parameter `first`" in out
    assert f"game.yaml:{line_of(os.path.join(folder, 'game.yaml'), 'first:')}:" in out


@pytest.mark.parametrize("expr,fragment", [("1 // 0", "division by zero"), ("[1][3]", "an index past the end")])
def test_a_parameter_that_cannot_be_computed_names_its_line(capsys, write_game, expr, fragment):
    folder = write_game(HEAD + f"params:\n  bad: {{expr: \"{expr}\"}}\n"
                        "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n")
    code, out = run(capsys, "autoplay", folder, "--quiet")
    assert code == 1 and "parameter `bad`" in out and fragment in out and "game.yaml:6:" in out


# ------------------------------------------------------------------ expressions run outside procedures

SCORED = HEAD + """
player:
  vars:
    gold: 3
flow:
  rounds: 1
  phases:
    - id: m
      do: pass
scoring:
  categories:
    - id: gold
      points: "{points}"
  tiebreak:
    - "{tiebreak}"
"""


@pytest.mark.parametrize("points,tiebreak,fragment,needle", [
    ("p.gold // 0", "p.gold", "cannot compute the points of `gold`: division by zero", "points:"),
    ("[1][p.gold]", "p.gold", "cannot compute the points of `gold`", "points:"),
    ("\\\"lots\\\"", "p.gold", "the points of `gold` must be a number, not lots", "points:"),
    ("p.gold", "none if p.gold > 0 else 1", "tie-break 1 must be a number, not none", "- \"none"),
])
def test_scoring_errors_name_the_category_and_line(capsys, write_game, points, tiebreak, fragment, needle):
    # scoring runs after the last procedure: these errors had no line at all
    folder = write_game(SCORED.replace("{points}", points).replace("{tiebreak}", tiebreak))
    code, out = run(capsys, "autoplay", folder, "--quiet")
    assert code == 1 and "error[RK40" in out and fragment in out, out
    assert f"game.yaml:{line_of(os.path.join(folder, 'game.yaml'), needle)}:" in out


def test_an_end_condition_error_names_its_line(capsys, write_game):
    folder = write_game(HEAD + "flow:\n  end_after_round_if: \"x // 0 > 1\"\n"
                        "  phases:\n    - id: m\n      do: pass\n")
    code, out = run(capsys, "autoplay", folder, "--quiet")
    assert code == 1 and "cannot compute `end_after_round_if`: division by zero" in out and "game.yaml:6:24" in out


def test_an_estimate_error_names_its_line_for_search_bots(capsys, write_game):
    folder = write_game(HEAD + """
flow:
  rounds: 6
  phases:
    - id: m
      do: |
        choose players[0]:
            "a":
                x += 1
            "b":
                x += 2
estimate: "10 // (x - x)"
""")
    code, out = run(capsys, "autoplay", folder, "--players", "2", "--bots", "greedy", "--quiet")
    assert code == 1 and "cannot compute the estimate: division by zero" in out
    assert f"game.yaml:{line_of(os.path.join(folder, 'game.yaml'), 'estimate:')}:" in out


@pytest.mark.parametrize("who", ["players[0] + 5", "none", "'p1'"])
def test_a_choice_for_someone_who_is_not_a_player_names_its_line(capsys, write_game, tmp_path, who):
    # found by the fuzz tests (`p += 1` before `choose p`): autoplay indexed its bots with it, exit 101
    folder = write_game(HEAD + f"""
flow:
  rounds: 1
  phases:
    - id: m
      do: |
        choose {who}:
            "a":
                x = 1
""")
    code, out = run(capsys, "autoplay", folder, "--quiet")
    assert code == 1 and "error[RK4013]: `choose` asks" in out and "who is not a player" in out
    assert f"game.yaml:{line_of(os.path.join(folder, 'game.yaml'), 'choose')}:" in out
    script = tmp_path / "s.yaml"
    script.write_text(f"game: {folder}\nplayers: 1\nactions: [a]\n", encoding="utf-8")
    code, out = run(capsys, "run", script)
    assert code == 1 and "error[RK4013]" in out


# ------------------------------------------------------------------ logs of changed content

@pytest.fixture
def auction_copy(tmp_path):
    folder = tmp_path / "auction"
    shutil.copytree(GAMES / "auction", folder, ignore=shutil.ignore_patterns("scripts"))
    return folder


def make_log(capsys, folder, *extra) -> Path:
    log = folder / "log.yaml"
    code, out = run(capsys, "autoplay", folder, "--players", "3", "--seed", "4", "--quiet", "--log", log, *extra)
    assert code == 0, out
    return log


def refusal(log) -> ScriptError:
    with pytest.raises(ScriptError) as info:
        run_script(str(log))
    assert info.value.code == "RK5002"
    assert info.value.span.line == line_of(log, "content_hash:")
    return info.value


def test_a_log_records_what_its_content_was_made_of(capsys, auction_copy):
    data = yaml.safe_load(make_log(capsys, auction_copy).read_text(encoding="utf-8"))
    assert set(data["content_parts"]["files"]) == {"game.yaml", "rules.yaml", "scoring.yaml"}
    assert {"procedures", "flow", "scoring"} <= set(data["content_parts"]["sections"])


def test_a_changed_rule_is_named_and_force_replays(capsys, auction_copy):
    log = make_log(capsys, auction_copy)
    rules = auction_copy / "rules.yaml"
    rules.write_text(rules.read_text(encoding="utf-8").replace("bid = 0", "bid = 0 * 1"), encoding="utf-8")
    message = str(refusal(log))
    assert "changed section: procedures" in message and "changed file: rules.yaml" in message
    assert "scoring" not in message and "game.yaml" not in message
    code, out = run(capsys, "run", log)
    assert code == 1 and "error[RK5002]" in out and "rules.yaml" in out and "--force" in out
    code, out = run(capsys, "run", log, "--force")
    assert code == 0 and out.rstrip().splitlines()[-1].startswith("result: ")


def test_a_changed_variant_file_is_named(capsys, auction_copy):
    log = make_log(capsys, auction_copy, "--variant", "payday")
    variant = auction_copy / "variants" / "payday.yaml"
    variant.write_text(variant.read_text(encoding="utf-8").replace("p.money += 1", "p.money += 2"),
                       encoding="utf-8")
    message = str(refusal(log))
    assert "changed file: variants/payday.yaml" in message and "changed section: flow" in message


def test_files_added_to_and_dropped_from_a_game_are_named(capsys, auction_copy):
    log = make_log(capsys, auction_copy)
    game_yaml = auction_copy / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    (auction_copy / "extra.yaml").write_text("tables:\n  odds: {a: 1}\n", encoding="utf-8")
    game_yaml.write_text(text.replace("  - scoring.yaml\n", "  - extra.yaml\n"), encoding="utf-8")
    with open(game_yaml, "a", encoding="utf-8") as handle:     # scoring moves into game.yaml
        handle.write("\n" + (auction_copy / "scoring.yaml").read_text(encoding="utf-8"))
    message = str(refusal(log))
    assert "new file: extra.yaml" in message and "gone file: scoring.yaml" in message
    assert "new section: tables" in message and "changed file: game.yaml" in message


def test_an_edited_hash_with_unchanged_content_says_so(capsys, auction_copy):
    log = make_log(capsys, auction_copy)
    data = yaml.safe_load(log.read_text(encoding="utf-8"))
    log.write_text(log.read_text(encoding="utf-8").replace(data["content_hash"], "sha256:0000000000000000"))
    message = str(refusal(log))
    assert "sha256:0000000000000000" in message and data["content_hash"] in message
    assert "was its content_hash edited?" in message


def test_an_older_log_without_parts_is_still_refused(capsys, auction_copy):
    log = make_log(capsys, auction_copy)
    data = yaml.safe_load(log.read_text(encoding="utf-8"))
    del data["content_parts"]
    log.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    rules = auction_copy / "rules.yaml"
    rules.write_text(rules.read_text().replace("bid = 0", "bid = 0 * 1"))
    message = str(refusal(log))
    assert "the game's files or variants changed since" in message and "--force" in message
    assert run_script(str(log), force=True).state.over


# ------------------------------------------------------------------ YAML that could run code

TAGS = ["!!python/object/apply:os.system", "!!python/object/new:os.system", "!!python/name:os.system",
        "!<tag:yaml.org,2002:python/object/apply:os.system>", "!!python/object/apply:subprocess.call"]


@pytest.mark.parametrize("tag", TAGS)
@pytest.mark.parametrize("where", ["game.yaml", "rules.yaml", "variants/rich.yaml", "script"])
def test_python_tags_are_refused_and_never_run(capsys, auction_copy, tmp_path, tag, where):
    marker = tmp_path / "ran"
    payload = f"{tag} [\"touch {marker}\"]"
    if where == "script":
        target = tmp_path / "script.yaml"
        target.write_text(f"game: {auction_copy}\nseed: {payload}\n", encoding="utf-8")
        argv = ["run", target]
    else:
        target = auction_copy / where
        target.write_text(target.read_text(encoding="utf-8") + f"\nsneaky: {payload}\n", encoding="utf-8")
        argv = ["validate", auction_copy, "--format", "concise"]
        if where.startswith("variants/"):
            argv += ["--variant", "rich"]
    code, out = run(capsys, *argv)
    assert code == 1 and "RK0104" in out and "is not allowed in content" in out
    assert f"{target.name}:{line_of(target, 'sneaky:' if where != 'script' else 'seed:')}:" in out
    assert not marker.exists()


# ------------------------------------------------------------------ size and nesting

def test_a_file_too_large_is_refused_with_its_name(capsys, auction_copy):
    big = auction_copy / "scoring.yaml"
    big.write_bytes(big.read_bytes() + b"# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    code, out = run(capsys, "validate", auction_copy, "--format", "concise")
    assert code == 1
    assert "scoring.yaml:1:1: error[RK0106]: file is too large" in out and str(MAX_FILE_BYTES) in out


def test_a_script_too_large_is_refused(capsys, tmp_path):
    script = tmp_path / "big.yaml"
    script.write_bytes(b"game: auction\n" + b"# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    code, out = run(capsys, "run", script)
    assert code == 1 and "error[RK0106]" in out and "big.yaml:1:1" in out


def test_too_many_values_are_refused(capsys, auction_copy):
    many = auction_copy / "scoring.yaml"
    many.write_text("tables:\n  many:\n" + "".join(f"    k{i}: {i}\n" for i in range(MAX_NODES + 10)))
    code, out = run(capsys, "validate", auction_copy, "--format", "concise")
    assert code == 1 and "error[RK0106]: file expands to more than" in out


def test_an_alias_bomb_is_refused_quickly(auction_copy):
    bomb = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    bomb += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 12)]
    (auction_copy / "scoring.yaml").write_text("tables:\n" + "".join(f"  {b}\n" for b in bomb))
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(str(auction_copy))
    (diag,) = info.value.diagnostics
    assert diag.code == "RK0106" and "aliases" in diag.message and diag.span.line <= len(bomb) + 1


def test_yaml_nesting_has_a_limit(auction_copy):
    depth_ok = "tables:\n  t: " + "[" * (MAX_DEPTH - 3) + "]" * (MAX_DEPTH - 3) + "\n"
    (auction_copy / "scoring.yaml").write_text(depth_ok)
    rulekit.load_game(str(auction_copy))
    (auction_copy / "scoring.yaml").write_text("tables:\n  t: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n")
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(str(auction_copy))
    (diag,) = info.value.diagnostics
    assert diag.code == "RK0108" and f"deeper than {MAX_DEPTH}" in diag.message and diag.span.line == 2


@pytest.mark.parametrize("payload", [b"[" * 100_000 + b"]" * 100_000, b"{a: " * 60_000 + b"1" + b"}" * 60_000],
                         ids=["lists", "mappings"])
def test_very_deep_yaml_does_not_kill_the_process(auction_copy, payload):
    # libyaml's composer recurses in C: this used to end in SIGSEGV (run apart, in case it ever does again)
    (auction_copy / "scoring.yaml").write_bytes(b"tables:\n  t: " + payload + b"\n")
    proc = subprocess.run([sys.executable, "-m", "rulekit", "validate", str(auction_copy), "--format", "concise"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, (proc.returncode, proc.stdout[-500:], proc.stderr[-500:])
    assert "scoring.yaml:2:" in proc.stdout and "error[RK0108]" in proc.stdout


@pytest.mark.parametrize("section,needle", [
    ("components:\n  chip:\n    copies: 1000000000000\n", "copies:"),
    ("sets:\n  a: [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9]\n  b: [b0, b1, b2, b3, b4, b5, b6, b7, b8, b9]\n"
     "components:\n  chip:\n    generate: {x: a, y: b}\n    copies: 1001\n", "copies:"),
    ("zones:\n  row: {range: [1, 1000000000000]}\n", "range:"),
], ids=["copies", "generated", "range"])
def test_items_and_zones_have_a_limit(capsys, write_game, section, needle):
    # these used to build for ever (and fill the memory) instead of failing
    folder = write_game(HEAD + section + "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n")
    code, out = run(capsys, "validate", folder, "--format", "concise")
    assert code == 1 and "error[RK0338]" in out and "a game may have at most" in out
    assert f"game.yaml:{line_of(os.path.join(folder, 'game.yaml'), needle)}:" in out


def test_an_id_template_cannot_build_huge_ids(capsys, write_game):
    folder = write_game(HEAD + "components:\n  chip:\n    copies: 3\n    id: \"chip-{n:>999999999}\"\n"
                        "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n")
    code, out = run(capsys, "validate", folder, "--format", "concise")
    assert code == 1 and "error[RK0336]: bad id template" in out and "game.yaml:8:" in out


def _phase(do: str) -> str:
    return HEAD + "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: |\n" + textwrap.indent(do, "        ")


@pytest.mark.parametrize("do", [
    "x = " + "1 + " * (MAX_NESTING + 5) + "1\n",
    "x = " + "abs(" * 2000 + "1" + ")" * 2000 + "\n",
    "x = " + "not " * 3000 + "true\n",
    "x = " + "[" * 600 + "]" * 600 + "\n",
    "".join("    " * i + "if true:\n" for i in range(MAX_NESTING + 5)) + "    " * (MAX_NESTING + 5) + "x = 1\n",
], ids=["sum", "calls", "nots", "lists", "blocks"])
def test_effect_language_nesting_has_a_limit(capsys, write_game, do):
    folder = write_game(_phase(do))
    code, out = run(capsys, "validate", folder, "--format", "concise")
    assert code == 1 and f"game.yaml:10:9: error[RK0219]: nested deeper than {MAX_NESTING} levels" in out


def test_nesting_within_the_limit_compiles_and_runs(write_game):
    folder = write_game(_phase("x = " + "1 + " * (MAX_NESTING - 10) + "1\n"))
    state = start(folder)
    assert state.over and state.g["x"] == MAX_NESTING - 9


@pytest.mark.parametrize("escape,code", [("\\f", 0x0C), ("\\x1c", 0x1C), ("\\u2028", 0x2028), ("\\N", 0x85),
                                         ("\\r", 0x0D)])
def test_odd_line_breaks_in_effect_text_are_located(capsys, write_game, escape, code):
    # characters Python's splitlines() breaks at but the effect language does not (YAML itself
    # refuses most of them raw, so they come in through escapes of a double-quoted string)
    folder = write_game(HEAD + "flow:\n  rounds: 1\n  phases:\n    - id: m\n"
                        f"      do: \"x = 1\\nx = 2 {escape}+ 1\\n\"\n")
    exit_code, out = run(capsys, "validate", folder, "--format", "concise")
    assert exit_code == 1 and f"game.yaml:9:25: error[RK0200]: unexpected character U+{code:04X}" in out


def test_an_inconsistent_dedent_is_located(capsys, write_game):
    folder = write_game(_phase("if true:\n        x = 1\n    x = 2\n"))
    code, out = run(capsys, "validate", folder, "--format", "concise")
    assert code == 1 and "game.yaml:12:9: error[RK0220]" in out


@pytest.mark.parametrize("include", ["/etc/hostname", "../outside.yaml", "sub/../../outside.yaml"])
def test_includes_stay_in_the_game_folder(capsys, write_game, include):
    folder = write_game(HEAD + f"include: [\"{include}\"]\n"
                        "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n")
    Path(folder).parent.joinpath("outside.yaml").write_text("tables: {a: {b: 1}}\n")
    code, out = run(capsys, "validate", folder, "--format", "concise")
    assert code == 1 and "game.yaml:5:11: error[RK0113]" in out and "outside the game's folder" in out


@pytest.mark.parametrize("setup, statement, says", [
    ('s = "ab"\nfor i in range(60):\n    s = s + s\n', "s = s + s", "a text of 1,048,576 characters"),
    ("l = [1]\nfor i in range(60):\n    l = l + l\n", "l = l + l", "a list of 1,048,576 items"),
    ('s = "ab"\nfor i in range(60):\n    s = s * 2\n', "s = s * 2", "a text of 1,048,576 characters"),
    ("l = [0] * 1000000000\n", "l = [0] * 1000000000", "a list of 1,000,000,000 items"),
    ("n = 3\nfor i in range(60):\n    n = n * n\n", "n = n * n", "digits is too large"),
])
def test_a_value_that_grows_without_end_stops_on_its_line(write_game, setup, statement, says):
    """Runaway growth (RK4015) is refused where the value is built, before it eats the memory."""
    body = textwrap.indent(setup + "x = 1\n", "    ")
    folder = write_game(HEAD + f"setup: |\n{body}flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n")
    with pytest.raises(ContentRuntimeError) as info:
        start(folder)
    assert info.value.code == "RK4015" and says in str(info.value)
    assert info.value.span.line == line_of(os.path.join(folder, "game.yaml"), statement)


def test_sums_and_products_of_ordinary_values_still_work(write_game):
    folder = write_game(HEAD + 'setup: |\n    t = "a" + "b"\n    l = [1] + [2] * 3\n'
                        '    x = count(t + t) * 10 + count(l + l) + 7 * 6\n'
                        "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n")
    assert start(folder).g["x"] == 4 * 10 + 8 + 42


def test_a_number_too_long_to_write_is_a_syntax_error(write_game):
    folder = write_game(HEAD + "setup: |\n    x = 1" + "0" * 5000 + "\n"
                        "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n")
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder)
    assert [d.code for d in info.value.diagnostics] == ["RK0221"]
    assert info.value.diagnostics[0].span.line == 6


def test_one_step_computing_for_too_long_stops_on_its_line(write_game):
    """A comprehension over a million times a million values never ends a statement, so the
    step limit never sees it; the CPU-time watchdog the CLI arms stops it (RK4016)."""
    from rulekit.engine import watchdog
    folder = write_game(HEAD + "setup: |\n    x = count([a for a in range(1000000) for b in range(1000000)"
                        " if a == b])\nflow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n")
    game = rulekit.load_game(folder)
    if not watchdog.arm(limit=1):
        pytest.skip("no CPU-time timers on this platform")
    try:
        with pytest.raises(ContentRuntimeError) as info:
            api.new_game(game, 1, 1)
    finally:
        watchdog.disarm()
    assert info.value.code == "RK4016" and info.value.span.line == 6
    assert watchdog.RUNS[0] % 2 == 0          # the run was left: nothing is watched now


def test_the_command_line_run_in_process_gives_sigprof_back_as_it_found_it(capsys):
    """`main()` inside another program (pytest, a profiler) arms the watchdog for the command only:
    afterwards SIGPROF has its old handler and its old timer. It was left at SIG_DFL (a profiler's
    tick would then kill the host), and while armed, other threads' system calls were interrupted."""
    import signal
    if not hasattr(signal, "setitimer"):
        pytest.skip("no CPU-time timers on this platform")
    ticks: list[int] = []
    old = signal.signal(signal.SIGPROF, lambda *_: ticks.append(1))
    signal.setitimer(signal.ITIMER_PROF, 50.0, 50.0)
    try:
        assert main(["validate", str(GAMES / "counter")]) == 0
        handler, timer = signal.getsignal(signal.SIGPROF), signal.getitimer(signal.ITIMER_PROF)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, old)
    assert handler is not signal.SIG_DFL and handler.__name__ == "<lambda>"
    assert abs(timer[0] - 50) < 1 and abs(timer[1] - 50) < 0.01
    assert "ok" in capsys.readouterr().out


def test_a_failure_at_an_instruction_of_no_line_goes_on_the_statement_before_it():
    """The watchdog's signal may land on an instruction that has no line of its own (a loop's
    jump back); its traceback entry then has none, and the failure still goes on the statement
    that was running (it was a TypeError inside the engine, one run in two of the test above)."""
    import dis
    import types

    from rulekit.engine import vm
    from rulekit.engine.runtime import LINE_SPANS

    def generated(n):
        total = 0
        for k in range(n):
            total += k
        return total
    code = generated.__code__
    filename = "<rulekit test: a line-less instruction>"
    code = code.replace(co_filename=filename)
    first = code.co_firstlineno
    LINE_SPANS[filename] = [f"span of line {line}" for line in range(1, first + 6)]
    try:
        body = [offset for offset, line in dis.findlinestarts(code) if line == first + 3][0]
        frame = types.SimpleNamespace(f_code=code)
        entry = types.SimpleNamespace(tb_frame=frame, tb_lineno=None, tb_lasti=body + 2, tb_next=None)
        assert vm.statement_span(entry) == f"span of line {first + 3}"      # `total += k`
        entry.tb_lineno = first + 1
        assert vm.statement_span(entry) == f"span of line {first + 1}"      # a line of its own wins
    finally:
        del LINE_SPANS[filename]
