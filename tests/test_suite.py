# SPDX-License-Identifier: MIT
"""`rulekit test`: a game, its variants, its scripts and random games, in one table."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent

# A counting game: each turn adds 1 or 2 to the player's total; the invariant that no total
# passes `cap` breaks in play when cap is below the end (10), naming the action that broke it.
COUNT = """\
meta: {title: Count}
players: {min: 2, max: 3, default: 2}
params:
  cap: {value: 12}
player:
  vars:
    total: {initial: 0, min: 0}
procedures:
  turn:
    params: [p]
    do: |
      choose p:
          "add {n}" for n in [1, 2]:
              p.total += n
flow:
  phases:
    - id: turns
      do: |
        for p in players:
            turn(p)
  end_after_round_if: "any(q.total >= 10 for q in players)"
scoring:
  categories:
    - id: total
      points: "p.total"
invariants:
  - id: under_cap
    expr: "all(q.total <= cap for q in players)"
"""
SCRIPT = """\
game: ..
players: 2
actions:
  - legal: ["add [12]"]
  - refuse: add 3
  - p1: add 2
"""


def count_game(write_game, cap: int = 12) -> str:
    short = 'variant: {name: short}\nflow:\n  end_after_round_if: "any(q.total >= 4 for q in players)"\n'
    return write_game({"game.yaml": COUNT.replace("cap: {value: 12}", f"cap: {{value: {cap}}}"),
                       "scenarios/opening.yaml": SCRIPT, "variants/short.yaml": short})


def files(folder) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in Path(folder).rglob("*"))


def test_a_game_passes_with_every_check_listed(capsys, write_game):
    folder = count_game(write_game)
    before = files(folder)
    code, out, _ = run_cli(capsys, "test", folder, "--random", "3")
    assert code == 0, out
    rows = [re.split(r"\s{2,}", line) for line in out.split("\n\n")[0].splitlines()[1:]]
    assert [row[:2] for row in rows] == [["validate g", "ok"], ["validate g +short", "ok"], ["random g 2p x3", "ok"],
                                         ["random g 3p x3", "ok"], ["random g +short 2p x3", "ok"],
                                         ["random g +short 3p x3", "ok"], ["g/scenarios/opening.yaml", "ok"]]
    assert out.rstrip().endswith("7 passed, 0 failed")
    assert files(folder) == before                      # nothing written without --update


def test_a_broken_invariant_is_named_with_its_action(capsys, write_game):
    folder = count_game(write_game, cap=5)
    code, out, _ = run_cli(capsys, "test", folder, "--random", "2", "--players", "2")
    assert code == 1
    assert re.search(r"\nrandom g 2p x2 +FAIL ", out)
    assert re.search(r"error\[RK5016\]: 2p seed 0: invariant `under_cap` is broken after action \d+ \(add \d\)", out)
    assert out.rstrip().endswith("4 passed, 1 failed")


def test_update_writes_snapshots_which_are_then_compared(capsys, write_game):
    folder = count_game(write_game)
    code, out, _ = run_cli(capsys, "test", folder, "--random", "0", "--update")
    stored = Path(folder) / "scenarios" / "__snapshots__" / "opening.ambr"
    assert code == 0 and stored.is_file() and "wrote " in out
    assert stored.read_text().startswith("# serializer version: 1\n# name: opening\n  '''\n")
    assert "\n  p1: add 2\n" in stored.read_text()
    stored.write_text(stored.read_text().replace("p1: add 2", "p1: add 1"))
    code, out, _ = run_cli(capsys, "test", folder, "--random", "0")
    assert code == 1 and "the transcript differs from its snapshot (`rulekit test --update` accepts it" in out
    assert "-p1: add 1" in out and "+p1: add 2" in out


def test_a_goa_copy_with_a_broken_faq_ruling_fails_naming_its_script(capsys, tmp_path):
    goa = tmp_path / "goa"
    shutil.copytree(ROOT / "games" / "goa", goa, ignore=shutil.ignore_patterns("full-game-*"))
    rules = goa / "rules.yaml"
    rules.write_text(rules.read_text().replace("q.ducats + 1)", "q.ducats + 2)"))     # F8: bid above one's money
    code, out, _ = run_cli(capsys, "test", str(goa), "--random", "0")
    assert code == 1
    failed = [line.split()[0] for line in out.splitlines() if "  FAIL  " in line]
    assert failed == ["goa/faq/f8-no-bid-above-money.yaml", "goa/scenarios/auction-raise.yaml"]   # both guard F8
    assert "legal but not listed: bid 4" in out


def test_a_shipped_game_passes_listing_every_script(capsys):
    code, out, _ = run_cli(capsys, "test", str(ROOT / "games" / "batavia"), "--random", "1")
    assert code == 0, out
    scripts = sorted(f"batavia/scenarios/{p.name}" for p in (ROOT / "games" / "batavia" / "scenarios").glob("*.yaml"))
    assert sorted(line.split()[0] for line in out.splitlines() if ".yaml" in line) == scripts


def test_a_folder_without_games_or_scripts_is_a_usage_error(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "test", str(tmp_path))
    assert code == 2 and "no game" in out


def test_a_computed_parameter_out_of_its_range_fails_its_random_games(capsys, write_game):
    folder = count_game(write_game)
    game = Path(folder) / "game.yaml"
    game.write_text(game.read_text().replace(
        "  cap: {value: 12}", '  cap: {value: 12}\n  seats: {expr: "num_players * 2", type: int, max: 4}'))
    code, out, _ = run_cli(capsys, "test", folder, "--random", "1")
    assert code == 1
    assert re.search(r"\nrandom g 2p x1 +ok ", out) and re.search(r"\nrandom g 3p x1 +FAIL ", out)
    assert "error[RK5016]: 3p: parameter `seats` is 6, above its maximum 4" in out


# Rules that only a full game's transcript noticed, each now said by a scenario of its own: breaking the rule in a
# copy of the game makes `rulekit test` fail naming that scenario (the copy keeps only it, to be quick).
BROKEN_RULES = [
    ("goa", "rules.yaml", '    - "p.ducats"\n', '    - "0 - p.ducats"\n', "tiebreak-money"),
    ("goa", "rules.yaml", 'expr: "abs(a.row - b.row) + abs(a.col - b.col) == 1"',
     'expr: "a != b and abs(a.row - b.row) <= 1 and abs(a.col - b.col) <= 1"', "flag-orthogonal"),
    ("goa", "game.yaml", "  sell_price:\n    value: 3", "  sell_price:\n    value: 2", "sell-spices"),
    ("goa", "rules.yaml", '"pass" if count(p.actions) <= keep_action_cards:',
     '"pass" if count(p.actions) <= keep_action_cards + 1:', "keep-one-action-card"),
    ("batavia", "scoring.yaml", "else (bonds_most if count", "else (bonds_tied if count", "most-bonds"),
]


@pytest.mark.parametrize("game, file, rule, broken, script", BROKEN_RULES, ids=[r[-1] for r in BROKEN_RULES])
def test_a_broken_rule_fails_the_scenario_that_says_it(capsys, tmp_path, game, file, rule, broken, script):
    copy = tmp_path / game
    keep = f"{script}.yaml"
    shutil.copytree(ROOT / "games" / game, copy,
                    ignore=lambda folder, names: [n for n in names if n.endswith(".yaml") and n != keep
                                                  and Path(folder).name in ("faq", "scenarios")])
    path = copy / file          # (unbroken, the scenario passes: test_goa.py, test_batavia.py)
    assert path.read_text().count(rule) == 1
    path.write_text(path.read_text().replace(rule, broken))
    code, out, _ = run_cli(capsys, "test", str(copy), "--random", "0")
    assert code == 1
    assert [line.split()[0] for line in out.splitlines() if "  FAIL  " in line] == [f"{game}/scenarios/{keep}"]


# ------------------------------------------------------------------ variants are tested like the game (#36)
LOSSY = """\
variant:
  name: lossy
  title: "Payment loses a bond"
procedures:
  pay_spread:
    do: |
      receivers = others(winner)
      for k in range(amount):
          q = receivers[k % count(receivers)]
          winner.bonds -= 1
          if k > 0:
              q.bonds += 1
"""


def batavia_with(tmp_path, variant: str = LOSSY) -> Path:
    """A copy of Batavia without its scenarios (quick), with a variant whose payment loses a bond."""
    copy = tmp_path / "batavia"
    shutil.copytree(ROOT / "games" / "batavia", copy, ignore=shutil.ignore_patterns("scenarios"))
    (copy / "variants" / "lossy.yaml").write_text(variant)
    return copy


def test_a_variant_that_breaks_an_invariant_fails_its_random_games(capsys, tmp_path):
    copy = batavia_with(tmp_path)
    code, out, _ = run_cli(capsys, "test", str(copy), "--random", "1", "--players", "3")
    assert code == 1, out
    assert re.search(r"\nrandom batavia 3p x1 +ok ", out)
    assert re.search(r"\nrandom batavia \+pirates-once 3p x1 +ok ", out)
    assert re.search(r"\nrandom batavia \+lossy 3p x1 +FAIL ", out)
    assert ("error[RK5016]: variant lossy, 3p seed 0: invariant `bonds_conserved` is broken after action 5 (pass): "
            "15 bonds per player") in out
    assert "is false: its `==` compares 44 with 45" in out
    assert "--variant lossy --max-actions 20000 --check" in out


def test_variant_picks_the_variants_played(capsys, tmp_path):
    copy = batavia_with(tmp_path)
    code, out, _ = run_cli(capsys, "test", str(copy), "--random", "1", "--players", "3", "--variant", "open-route")
    assert code == 0, out
    assert [line.split("  ")[0] for line in out.splitlines()[1:4]] == [
        "validate batavia", "validate batavia +open-route", "random batavia +open-route 3p x1"]
    assert "lossy" not in out and "pirates-once" not in out
    code, out, _ = run_cli(capsys, "test", str(copy), "--variant", "losy")
    assert code == 2 and "error[RK5032]: the game" in out and "did you mean `lossy`?" in out


# ------------------------------------------------------------------ one snapshot store (#36)
def test_rulekit_test_compares_the_snapshot_the_plugin_keeps(capsys, write_game):
    """The `.ambr` beside a script is what `rulekit test` compares (it used to read only `.transcript`)."""
    folder = count_game(write_game)
    assert run_cli(capsys, "test", folder, "--random", "0", "--update")[0] == 0
    stored = Path(folder) / "scenarios" / "__snapshots__" / "opening.ambr"
    stored.write_text(stored.read_text().replace("  p1: add 2\n", "  p1: add 1\n"))
    code, out, _ = run_cli(capsys, "test", folder, "--random", "0")
    assert code == 1 and "--- __snapshots__/opening.ambr" in out and "+p1: add 2" in out


def test_a_failing_script_keeps_its_snapshot_under_update(capsys, write_game):
    folder = count_game(write_game)
    assert run_cli(capsys, "test", folder, "--random", "0", "--update")[0] == 0
    stored = Path(folder) / "scenarios" / "__snapshots__" / "opening.ambr"
    before = stored.read_bytes()
    script = Path(folder) / "scenarios" / "opening.yaml"
    script.write_text(SCRIPT + "  - refuse: add 1\n")
    code, out, _ = run_cli(capsys, "test", folder, "--random", "0", "--update")
    assert code == 1 and "error[RK5012]" in out
    assert stored.read_bytes() == before


def test_an_old_transcript_is_still_compared_and_never_deleted(capsys, write_game):
    folder = count_game(write_game)
    legacy = Path(folder) / "scenarios" / "opening.transcript"
    legacy.write_text("start g players=2 seed=0\n")
    code, out, _ = run_cli(capsys, "test", folder, "--random", "0")
    assert code == 1 and "the transcript differs from the stored one" in out
    code, out, _ = run_cli(capsys, "test", folder, "--random", "0", "--update")
    assert code == 0 and legacy.is_file() and "p1: add 2" in legacy.read_text()
    assert (Path(folder) / "scenarios" / "__snapshots__" / "opening.ambr").is_file()
    code, out, _ = run_cli(capsys, "test", folder, "--random", "0")
    assert code == 0 and "opening.transcript (an older store) is compared too" in out


# ------------------------------------------------------------------ a game rulekit may not write to (#36)
def stale_copy(where: Path) -> Path:
    """A copy of Batavia with one scenario whose stored snapshot is out of date."""
    copy = where / "batavia"
    keep = {"open-route.yaml", "open-route.ambr"}
    shutil.copytree(ROOT / "games" / "batavia", copy, ignore=lambda folder, names: [
        n for n in names if Path(folder).name in ("scenarios", "__snapshots__") and n not in keep
        and n != "__snapshots__"])
    stored = copy / "scenarios" / "__snapshots__" / "open-route.ambr"
    stored.write_text(stored.read_text().replace("\n  start Batavia", "\n  start nowhere"))
    return copy


def all_bytes(folder: Path) -> dict:
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_read_only_game_is_never_written_to(capsys, tmp_path):
    copy = stale_copy(tmp_path)
    before = all_bytes(copy)
    for path in [copy, *copy.rglob("*")]:
        path.chmod(path.stat().st_mode & ~0o222)
    try:
        code, out, _ = run_cli(capsys, "test", str(copy), "--random", "0", "--update")
    finally:
        for path in [copy, *copy.rglob("*")]:
            path.chmod(path.stat().st_mode | 0o200)
    assert code == 2 and "error[RK5030]:" in out and "is read-only" in out
    assert f"cp -r {copy} ./batavia" in out
    assert all_bytes(copy) == before


def test_an_installed_game_is_never_written_to(capsys, tmp_path):
    copy = stale_copy(tmp_path / "lib" / "python3.11" / "site-packages" / "rulekit_games")
    before = all_bytes(copy)
    code, out, _ = run_cli(capsys, "test", str(copy), "--random", "0", "--update")
    assert code == 2 and "error[RK5030]:" in out and "is an installed game" in out and "cp -r " in out
    assert all_bytes(copy) == before
    code, out, _ = run_cli(capsys, "test", str(copy), "--random", "0")      # comparing still works
    assert code == 1 and "-start nowhere" in out and "+start Batavia" in out


def test_a_copy_of_a_game_keeps_its_snapshots(capsys, tmp_path):
    """RK5030 tells a designer to copy an installed game to change it: the copy, in a folder of
    another name, still passes against the snapshots it came with (a transcript starts with the
    game's title, not its folder's name)."""
    copy = tmp_path / "my-batavia"
    shutil.copytree(ROOT / "games" / "batavia", copy, ignore=shutil.ignore_patterns("full-game-*"))
    code, out, _ = run_cli(capsys, "test", str(copy), "--random", "0")
    assert code == 0, out
    assert "my-batavia/scenarios/auction-payment.yaml" in out
