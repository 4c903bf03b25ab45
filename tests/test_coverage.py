# SPDX-License-Identifier: MIT
"""`rulekit test --coverage`: the content lines, options and components the scripts exercised."""
from __future__ import annotations

import sys
from pathlib import Path

from test_suite import COUNT

import rulekit
from rulekit.agents import RandomAgent
from rulekit.engine import api
from rulekit.testing.coverage import Tracer, report
from rulekit.testing.suite import transcript_text

from conftest import run_cli

# The counting game of test_suite.py with two tokens to take, and a function written in place of its call.
GAME = COUNT.replace("procedures:", """components:
  token:
    items: [{id: token-a}, {id: token-b}]
    start: supply
zones:
  supply: {visibility: public}
  pool: {visibility: public}
functions:
  doubled:
    params: [n]
    expr: "[n, n, n * 2][n]"
procedures:""").replace("""              p.total += n
""", """              p.total += n
          "take":
              move(top(supply), to=pool)
      if p.total >= 3:
          p.total = doubled(2)
""")
ADDING = "game: ..\nplayers: 2\nactions:\n  - p1: add 1\n  - p2: add 2\n  - p1: add 1\n  - p2: add 1\n"


def game_with_script(write_game) -> str:
    return write_game({"game.yaml": GAME, "scenarios/adding.yaml": ADDING})


def line_of(text: str) -> int:
    return GAME.splitlines().index(text) + 1


def test_a_script_marks_the_lines_it_ran_and_the_others_are_reported(write_game):
    folder = game_with_script(write_game)
    tracer = Tracer()
    transcript_text(str(Path(folder) / "scenarios" / "adding.yaml"), tracer)
    rep = report(tracer)
    lines = rep.statements[str(Path(folder) / "game.yaml")]
    assert lines[line_of("              p.total += n")] is True
    assert lines[line_of("      if p.total >= 3:")] is True
    assert lines[line_of("              move(top(supply), to=pool)")] is False      # nobody took
    assert lines[line_of("          p.total = doubled(2)")] is True                # p2 reached 3
    assert lines[line_of('    expr: "[n, n, n * 2][n]"')] is True                  # and so ran `doubled`
    options = {line: chosen for (_path, line, _col), chosen in rep.options.items()}
    assert options == {line_of('          "add {n}" for n in [1, 2]:'): True, line_of('          "take":'): False}
    assert rep.kinds == {"token": (set(), {"token-a", "token-b"})}


def test_the_trace_is_only_there_while_scripts_run(write_game):
    folder = game_with_script(write_game)
    before = sys.gettrace()
    transcript_text(str(Path(folder) / "scenarios" / "adding.yaml"))      # no tracer: no trace function
    assert sys.gettrace() is before
    tracer = Tracer()
    transcript_text(str(Path(folder) / "scenarios" / "adding.yaml"), tracer)
    assert sys.gettrace() is before and tracer.lines


def test_rulekit_test_coverage_prints_the_summary_and_the_missed_lines(capsys, write_game, tmp_path):
    folder = game_with_script(write_game)
    take = Path(folder) / "scenarios" / "taking.yaml"
    code, out, _ = run_cli(capsys, "test", folder, "--random", "0", "--coverage")
    assert code == 0, out
    missed = line_of("              move(top(supply), to=pool)")
    assert f"game.yaml:{missed}  move(top(supply), to=pool)" in out
    assert "statements never run:" in out and "options never chosen:" in out
    assert f'game.yaml:{line_of(chr(32) * 10 + chr(34) + "take" + chr(34) + ":")}  "take":' in out
    assert "components never moved or changed in play:\n  token (2 items)" in out
    take.write_text("game: ..\nplayers: 2\nactions:\n  - p1: take\n")
    annotated = tmp_path / "cover"
    code, out, _ = run_cli(capsys, "test", folder, "--random", "0", "--coverage", "--annotate", str(annotated))
    assert code == 0 and "statements never run:" not in out and "options chosen: 2 of 2" in out
    assert "components moved or changed in play: 1 of 1 kinds" in out
    marked = (annotated / "g" / "game.yaml.cover").read_text().splitlines()
    assert marked[line_of("              move(top(supply), to=pool)")].startswith(">")
    assert marked[line_of('          "take":')].startswith("+")
    assert marked[line_of("  turn:")].startswith(" ")


def test_a_rollouts_decisions_count_as_chosen_as_one_by_one_ones_do(write_game):
    """api.play_at_random takes decisions as they come, without a resume: the trace notes
    those options too, the same ones as when the same draws are applied one at a time."""
    game = rulekit.load_game(write_game(GAME))
    chosen = []
    for fused in (True, False):
        s, agent, tracer = api.new_game(game, 2, 5, record=False), RandomAgent(3), Tracer()
        with tracer:
            if fused:
                api.play_at_random(s, agent, 6)
            else:
                for _ in range(6):
                    api.apply_index(s, agent.choose(s), atomic=False)
        chosen.append({(spec.span.line, target) for spec, target in tracer.chosen})
    assert chosen[0] == chosen[1] and len(chosen[0]) >= 2


def test_a_function_written_into_a_function_written_in_place_ran_when_its_caller_did(write_game):
    """`doubled` is written into `quadrupled`, itself written in place of its call: neither runs
    as a function of its own, and both count as run once the statement calling `quadrupled` has."""
    text = GAME.replace("""procedures:""", """  quadrupled:
    params: [n]
    expr: "doubled(n) * 2"
procedures:""", 1).replace("p.total = doubled(2)", "p.total = quadrupled(1)")
    folder = write_game({"game.yaml": text, "scenarios/adding.yaml": ADDING})
    compiler = rulekit.load_game(folder).compiler_for_scripts()
    assert "doubled" in compiler.inlining and "quadrupled" in compiler.inlining
    tracer = Tracer()
    transcript_text(str(Path(folder) / "scenarios" / "adding.yaml"), tracer)
    lines = report(tracer).statements[str(Path(folder) / "game.yaml")]
    at = text.splitlines().index
    assert lines[at("          p.total = quadrupled(1)") + 1] is True
    assert lines[at('    expr: "doubled(n) * 2"') + 1] is True
    assert lines[at('    expr: "[n, n, n * 2][n]"') + 1] is True


# A function called only from an option's label, a tie-break, a variant's score, the estimate or a
# `narrate:` template (each written in place of its call there) ran when that did (#36).
ELSEWHERE = COUNT.replace("procedures:", """functions:
  lab: {params: [n], expr: "n * 10"}
  tie: {params: [p], expr: "p.total * 2"}
  est: {params: [p], expr: "p.total + 1"}
  narr: {params: [n], expr: "n + 100"}
  vscore: {params: [p], expr: "p.total * 3"}
procedures:""").replace('"add {n}" for n', '"add {n} ({lab(n)})" for n').replace("invariants:", """  tiebreak:
    - "tie(p)"
estimate: "est(p)"
narrate:
  set:
    total: "{player} now {narr(change)}"
invariants:""")
LABELLED = "game: ..\nplayers: 2\nactions:\n  - p1: add 1 (10)\n"


def test_functions_run_from_labels_tiebreaks_variants_estimates_and_narration_count(write_game, capsys):
    variant = 'variant: {name: v}\nscoring:\n  categories:\n    - id: total\n      points: "vscore(p)"\n'
    folder = write_game({"game.yaml": ELSEWHERE, "variants/v.yaml": variant,
                         "scenarios/a.yaml": LABELLED,
                         "scenarios/b.yaml": "game: ..\nvariants: [v]\nplayers: 2\nseed: 1\nactions:\n"
                                             + "".join(f"  - p{1 + i % 2}: add 2 (20)\n" for i in range(10))})
    code, out, _ = run_cli(capsys, "test", folder, "--random", "0", "--coverage")
    assert code == 0, out
    never = out.split("statements never run:")[1] if "statements never run:" in out else ""
    for name in ("n * 10", "p.total * 2", "p.total + 1", "n + 100", "p.total * 3"):
        assert name not in never, out
