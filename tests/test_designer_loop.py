# SPDX-License-Identifier: MIT
"""The designer's loop (issue 53), each through real processes on a scratch copy of a small game:
exit statuses through pipes, `rulekit test --variant FILE`, random failures that replay, one
verdict for `rulekit test` and pytest, snapshots kept outside the selection."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import GAMES

BROKEN = "game.yaml"


def rulekit(*args, cwd, stdout=subprocess.PIPE, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulekit", *map(str, args)], cwd=cwd, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120, env=env)


@pytest.fixture
def auction(tmp_path) -> Path:
    """A scratch copy of the small auction game, its own scripts left out."""
    folder = tmp_path / "auction"
    shutil.copytree(GAMES / "auction", folder, ignore=shutil.ignore_patterns("scripts"))
    return folder


def broken(folder: Path) -> Path:
    (folder / "rules.yaml").write_text((folder / "rules.yaml").read_text().replace("p.money", "p.mony", 1))
    return folder


# ------------------------------------------------------------------ 1. exit statuses through pipes
def test_a_content_error_keeps_its_status_when_the_reader_has_gone(auction):
    """The reader of the pipe is gone before rulekit writes a byte: the error's status, not 0."""
    broken(auction)
    read, write = os.pipe()
    os.close(read)
    try:
        done = rulekit("validate", auction, cwd=auction.parent, stdout=write)
    finally:
        os.close(write)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


@pytest.mark.parametrize("reader", ["head -1", "true"])
def test_a_shell_pipe_keeps_the_status(auction, reader):
    broken(auction)
    line = f"set -o pipefail; {sys.executable} -m rulekit validate auction | {reader}"
    done = subprocess.run(["bash", "-c", line], cwd=auction.parent, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    if reader == "head -1":
        assert done.stdout.startswith("error[RK0303]: unknown attribute `mony`")
    clean = subprocess.run(["bash", "-c", line.replace("validate auction", "list")], cwd=auction.parent,
                           capture_output=True, text=True, timeout=120)
    assert clean.returncode == 0 and clean.stderr == ""


# ------------------------------------------------------------------ 2. rulekit test --variant FILE
def test_rulekit_test_takes_a_variant_file(auction, tmp_path):
    variant = tmp_path / "house.yaml"
    variant.write_text("variant: {name: house, title: Rich start}\nplayer:\n  vars:\n    money: {initial: 9}\n")
    done = rulekit("test", auction, "--variant", variant, "--random", 2, cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert f"validate auction +{variant}" in done.stdout
    assert f"random auction +{variant} 2p x2" in done.stdout
    missing = rulekit("test", auction, "--variant", tmp_path / "nothing.yaml", cwd=tmp_path)
    assert missing.returncode == 2 and "RK5032" in missing.stdout


# ------------------------------------------------------------------ 3. random failures replay
SMALL_HANDS = """
invariants:
  - id: small_hands
    text: "Nobody holds more than two gems."
    expr: "all(count(p.gems) <= 2 for p in players)"
"""


def replay(out: str) -> list[str]:
    """The replay command a failure prints, as the words of a `python -m rulekit` run."""
    line = next(line for line in out.splitlines() if line.startswith("   = replay: rulekit "))
    return line.split("   = replay: rulekit ", 1)[1].split()


def test_a_broken_invariant_is_said_in_words_and_its_command_replays_it(auction):
    with open(auction / "game.yaml", "a") as handle:
        handle.write(SMALL_HANDS)
    done = rulekit("test", "auction", "--random", 2, "--players", 3, "--variant", "rich", cwd=auction.parent)
    assert done.returncode == 1
    failure = done.stdout[done.stdout.index("--- random auction +rich 3p x2"):]
    assert "['small_hands']" not in done.stdout and "broken [" not in done.stdout
    said = failure.splitlines()[1]
    assert said.startswith("error[RK5016]: variant rich, 3p seed 0: invariant `small_hands` is broken after action ")
    assert said.endswith(": Nobody holds more than two gems.")
    assert "   = note: `all(count(p.gems) <= 2 for p in players)` is false" in failure
    words = replay(failure)
    assert words[:8] == ["autoplay", "auction", "--players", "3", "--seed", "0", "--bots", "random"]
    again = rulekit(*words, cwd=auction.parent)
    assert again.returncode == 1, again.stdout
    assert said.replace("error[RK5016]: variant rich, 3p seed 0: ", "error[RK5026]: ") in again.stdout, (
        failure + "\n--- the replay printed\n" + again.stdout + again.stderr)


def test_autoplay_plays_the_random_game_of_rulekit_test_move_for_move(auction, tmp_path):
    import rulekit as rk
    from rulekit.testing import random_game
    log = tmp_path / "game.log.yaml"
    done = rulekit("autoplay", auction, "--players", 3, "--seed", 4, "--quiet", "--log", log, cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    played = yaml.safe_load(log.read_text())["actions"]
    state, actions, problem = random_game(rk.load_game(str(auction)), 3, 4)
    assert problem is None and actions == len(played) > 4
    assert state.actions == played


def test_a_log_text_that_fails_fails_the_random_games(auction):
    rules = auction / "rules.yaml"
    rules.write_text(rules.read_text().replace('log("{who} pays {amount}")', 'log("{who} pays {[1, 2][amount]}")'))
    done = rulekit("test", "auction", "--random", 1, "--players", 3, cwd=auction.parent)
    assert done.returncode == 1
    assert "error[RK4020]: index" in done.stdout and "auction/rules.yaml:30:7" in done.stdout
    words = replay(done.stdout)
    assert rulekit(*words, cwd=auction.parent).returncode == 1


# ------------------------------------------------------------------ 4, 5. one verdict; a selection's snapshots
OPENS = ("game: ..\nplayers: 3\nseed: 7\npins: {rolls: {dice: [2, 3]}}\nactions:\n  - legal: [\"bid *\", pass]\n"
         "  - p1: bid 1\n")
RICH = OPENS.replace("players: 3", "variants: [rich]\nplayers: 3").replace("p1: bid 1", "p1: bid 7")


def pytest_run(*args, cwd, cache: bool = False) -> subprocess.CompletedProcess:
    quick = (*(() if cache else ("-p", "no:cacheprovider")), "-p", "no:hypothesispytest", "-p", "no:anyio",
             "-p", "no:benchmark")
    return subprocess.run([sys.executable, "-m", "pytest", "-q", *quick, *map(str, args)],
                          cwd=cwd, capture_output=True, text=True, timeout=300)


def with_scripts(auction: Path, scripts: dict) -> Path:
    (auction / "scenarios").mkdir(exist_ok=True)
    for name, text in scripts.items():
        (auction / "scenarios" / name).write_text(text)
    return auction


def snapshot_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*.ambr"))


CASES = {   # case: (what is there before, how it is changed, its status, the words both say, the counts)
    "new": ({}, lambda g: with_scripts(g, {"opens.yaml": OPENS}), 0,
            "new: no snapshot of this script's transcript yet", "snapshots: 1 new"),
    "unchanged": ({"opens.yaml": OPENS}, lambda g: None, 0, None, "snapshots: 1 passed"),
    "changed": ({"opens.yaml": OPENS}, lambda g: with_scripts(g, {"opens.yaml": OPENS.replace("bid 1", "bid 2")}),
                1, "the transcript differs from its snapshot", "snapshots: 1 failed"),
    "deleted script": ({"opens.yaml": OPENS, "gone.yaml": OPENS}, lambda g: (g / "scenarios" / "gone.yaml").unlink(),
                       1, "is the snapshot of a script that is gone (gone.yaml)", "snapshots: 1 passed, 1 unused"),
    "variant script": ({"rich.yaml": RICH}, lambda g: with_scripts(g, {"rich.yaml": RICH.replace("bid 7", "bid 8")}),
                       1, "the transcript differs from its snapshot", "snapshots: 1 failed"),
}


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c in ("unchanged", "variant script")
                                  else c for c in CASES])      # the quick run keeps new, changed, deleted
def test_rulekit_test_and_pytest_give_one_verdict(auction, case):
    before, change, status, words, counts = CASES[case]
    with_scripts(auction, before)
    if before:
        assert rulekit("test", "auction", "--random", 0, "--update", cwd=auction.parent).returncode == 0
    change(auction)
    stored = {p: p.read_bytes() for p in auction.rglob("*.ambr")}
    ours = rulekit("test", "auction", "--random", 0, cwd=auction.parent)
    theirs = pytest_run("auction", cwd=auction.parent)
    assert (ours.returncode, theirs.returncode) == (status, status), ours.stdout + theirs.stdout
    for out in (ours.stdout, theirs.stdout):
        assert counts in out, out
        assert words is None or words in out, out
    assert {p: p.read_bytes() for p in auction.rglob("*.ambr")} == stored      # nothing written without an update

    for update, route in (("--update", "rulekit"), ("--snapshot-update", "pytest")):
        done = (rulekit("test", "auction", "--random", 0, update, cwd=auction.parent) if route == "rulekit"
                else pytest_run("auction", update, cwd=auction.parent))
        assert done.returncode == 0, done.stdout
        expected = {"new": "1 created", "changed": "1 updated", "variant script": "1 updated",
                    "deleted script": "1 deleted", "unchanged": "1 passed"}[case]
        assert expected in done.stdout
        assert snapshot_files(auction) == sorted(p.replace(".yaml", ".ambr") for p in {**before, "opens.yaml": 0}
                                                 if (auction / "scenarios" / p).exists())
        if route == "rulekit":          # back as it was, for pytest to write again
            for path in auction.rglob("*.ambr"):
                path.unlink()
            for path, data in stored.items():
                path.write_bytes(data)


def narrowed_runs_delete_nothing(folder: Path, gone: str, narrowed: list) -> None:
    """Delete script ``gone``: its snapshot is unused, yet no narrowed run deletes it; the whole
    selection does."""
    before = snapshot_files(folder)
    next(folder.rglob(gone)).unlink()
    for args in narrowed:
        done = pytest_run(*args, "--snapshot-update", cwd=folder.parent)
        assert done.returncode == 0 and "deleted" not in done.stdout, done.stdout
        assert snapshot_files(folder) == before
    done = pytest_run(folder.name, "--snapshot-update", cwd=folder.parent)
    assert done.returncode == 0 and "1 deleted" in done.stdout, done.stdout
    assert snapshot_files(folder) == [name for name in before if name != gone.replace(".yaml", ".ambr")]


def test_snapshot_update_deletes_only_on_the_whole_selection(auction):
    with_scripts(auction, {"opens.yaml": OPENS, "rich.yaml": RICH, "gone.yaml": OPENS})
    done = pytest_run("auction", "--snapshot-update", cwd=auction.parent)
    assert done.returncode == 0 and "snapshots: 3 created" in done.stdout, done.stdout
    narrowed_runs_delete_nothing(auction, "gone.yaml", [
        ("auction/scenarios/opens.yaml",), ("auction", "-k", "rich"),
        ("auction", "--deselect", "auction/scenarios/rich.yaml::rich")])


def test_snapshot_update_after_last_failed_deletes_nothing(auction):
    with_scripts(auction, {"opens.yaml": OPENS, "rich.yaml": RICH, "gone.yaml": OPENS})
    assert pytest_run("auction", "--snapshot-update", cwd=auction.parent).returncode == 0
    (auction / "scenarios" / "gone.yaml").unlink()
    with_scripts(auction, {"rich.yaml": RICH.replace("bid 7", "bid 8")})
    failed = pytest_run("auction", cwd=auction.parent, cache=True)       # rich fails: the cache remembers it
    assert failed.returncode == 1 and "1 failed" in failed.stdout and "1 unused" in failed.stdout
    done = pytest_run("auction", "--lf", "--snapshot-update", cwd=auction.parent, cache=True)
    assert done.returncode == 0 and "snapshots: 1 updated" in done.stdout, done.stdout
    assert snapshot_files(auction) == ["gone.ambr", "opens.ambr", "rich.ambr"]


@pytest.mark.slow
def test_snapshot_update_keeps_the_snapshots_of_scripts_outside_the_selection(tmp_path):
    """The bar of issue 53: on a copy of Batavia, `pytest -k auction --snapshot-update` deletes no file."""
    copy = tmp_path / "mybat"
    shutil.copytree(Path(__file__).resolve().parents[1] / "games" / "batavia", copy)
    before = snapshot_files(copy)
    assert len(before) > 30
    done = pytest_run("mybat", "-k", "auction", "--snapshot-update", cwd=tmp_path)
    assert done.returncode == 0, done.stdout
    assert "deselected" in done.stdout and "snapshots: 7 passed" in done.stdout
    assert snapshot_files(copy) == before
    narrowed_runs_delete_nothing(copy, "setup.yaml", [("mybat/scenarios/reveal.yaml",), ("mybat", "-k", "not views")])


# ------------------------------------------------------------------ 6. expect in rulekit's words; a shared position
def test_an_expectation_that_cannot_be_worked_out_says_why_in_rulekit_words(auction):
    with_scripts(auction, {"e.yaml": OPENS + '  - expect: {"[1][5]": 2, "1 // 0": 3, "{\'a\': 1}[\'what\']": 1}\n'})
    done = rulekit("run", "auction/scenarios/e.yaml", cwd=auction.parent)
    assert done.returncode == 1
    assert "cannot evaluate `[1][5]`: an index past the end of a list" in done.stdout
    assert "cannot evaluate `1 // 0`: division by zero" in done.stdout
    assert "cannot evaluate `{'a': 1}['what']`: the mapping has no key `what`" in done.stdout
    assert "out of range" not in done.stdout and "modulo" not in done.stdout and ": 'what'" not in done.stdout


SHARED = "# where two scripts start\nposition: |\n  players[0].money = 9\n  players[1].money = 1\n"
FROM_SHARED = OPENS.replace("actions:", "position: {file: ../positions/rich.yaml}\nactions:").replace(
    "  - legal", "  - expect: {\"p1.money\": 9, \"p2.money\": 1}\n  - legal")


def test_scripts_start_from_a_shared_position_file(auction, tmp_path):
    (auction / "positions").mkdir()
    (auction / "positions" / "rich.yaml").write_text(SHARED)
    with_scripts(auction, {"a.yaml": FROM_SHARED, "b.yaml": FROM_SHARED.replace("bid 1", "bid 9")})
    done = rulekit("test", "auction", "--random", 0, "--update", cwd=auction.parent)
    assert done.returncode == 0, done.stdout
    assert "snapshots: 2 created" in done.stdout and "positions/rich.yaml" not in done.stdout   # not a script
    log = tmp_path / "a.log.yaml"
    assert rulekit("run", "auction/scenarios/a.yaml", "--log", log, cwd=auction.parent).returncode == 0
    assert yaml.safe_load(log.read_text())["position"] == "players[0].money = 9\nplayers[1].money = 1\n"
    assert rulekit("run", log, cwd=auction.parent).returncode == 0

    (auction / "positions" / "rich.yaml").write_text(SHARED.replace("money = 1", "mony = 1"))
    done = rulekit("run", "auction/scenarios/a.yaml", cwd=auction.parent)
    assert done.returncode == 1 and "unknown attribute `mony`" in done.stdout
    assert "--> auction/positions/rich.yaml:4:3" in done.stdout                 # on the shared file's own line
    (tmp_path / "secret.yaml").write_text("position: |\n  players[0].money = 99\n")
    with_scripts(auction, {"a.yaml": FROM_SHARED.replace("../positions/rich.yaml", "../../secret.yaml")})
    done = rulekit("run", "auction/scenarios/a.yaml", cwd=auction.parent)
    assert done.returncode == 1 and "error[RK0114]" in done.stdout and "outside the game's folder" in done.stdout
    (auction / "positions" / "empty.yaml").write_text("nothing: here\n")
    with_scripts(auction, {"a.yaml": FROM_SHARED.replace("rich.yaml", "empty.yaml")})
    done = rulekit("run", "auction/scenarios/a.yaml", cwd=auction.parent)
    assert done.returncode == 1 and "holds no `position:` statements" in done.stdout
    assert "--> auction/scenarios/a.yaml:5:18" in done.stdout


# ------------------------------------------------------------------ 8. rulekit mutate
TINY = """\
meta: {title: Tiny}
players: {min: 2, max: 2}
params: {bonus: 3}
vars: {total: 0}
player: {vars: {score: 0}}
procedures:
  turn:
    params: [who]
    do: |
      total += 1
      choose who:
          "wait":
              pass
          "take {k}" for k in [1, 2]:
              who.score += k
flow:
  end_after_round_if: "total >= 4"
  phases: [{id: turns, do: "for p in players:\\n    turn(p)\\n"}]
scoring: {categories: [{id: score, points: "p.score + bonus"}]}
"""
TAKES = 'game: ..\nplayers: 2\nactions:\n  - p1: take 2\n  - expect: {"p1.score": 2}\n'


@pytest.fixture
def tiny(tmp_path) -> Path:
    folder = tmp_path / "tiny"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "game.yaml").write_text(TINY)
    (folder / "scenarios" / "take.yaml").write_text(TAKES)
    return folder


def tree(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_mutate_scores_the_scripts_and_shows_each_survivor_as_a_diff(tiny, tmp_path):
    before = tree(tiny)
    survivors = tmp_path / "survivors.txt"
    done = rulekit("mutate", "tiny", "--survivors", survivors, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    head = done.stdout.splitlines()[0]
    assert head.startswith("rulekit mutate tiny: ") and " killed, " in head and " survived, " in head
    assert "\nscore " in done.stdout
    # the bonus is checked by no script: its change survives, shown at its line as a diff
    assert "survived: game.yaml:3 (number +1): " in done.stdout
    assert "\n-params: {bonus: 3}\n+params: {bonus: 4}\n" in done.stdout
    # `who.score += k` is what take.yaml checks: made `pass`, the mutant is killed, not listed
    assert "-              who.score += k" not in done.stdout
    assert tree(tiny) == before                                      # the author's files are only read
    listed = survivors.read_text().splitlines()
    assert "game.yaml:3: number +1: `params: {bonus: 3}` -> `params: {bonus: 4}`" in listed

    (tiny / "scenarios" / "bonus.yaml").write_text(TAKES.replace('"p1.score": 2', '"p1.score": 2, "bonus": 3'))
    again = rulekit("mutate", "tiny", "--survivors", survivors, cwd=tmp_path)       # only the survivors, again
    assert again.returncode == 0
    assert again.stdout.startswith(f"rulekit mutate tiny: {len(listed) - 1} of ")
    assert "game.yaml:3: number +1: `params: {bonus: 3}` -> `params: {bonus: 4}`" not in survivors.read_text()


def test_a_mutant_that_runs_too_long_is_stopped_and_reported(tiny, tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = rulekit("mutate", tiny, "--timeout", "0.01", "--sample", 3, cwd=tmp_path,
                   env={**os.environ, "TMPDIR": str(scratch)})
    assert done.returncode == 0, done.stdout
    assert "3 timed out" in done.stdout and "stopped after 0.01 s" in done.stdout
    left = subprocess.run(["pgrep", "-f", f"mutate {tiny}"], capture_output=True, text=True)
    assert left.stdout == ""                                          # no child left running
    assert list(scratch.iterdir()) == []                              # the scratch copy is gone


def test_mutate_refuses_what_it_cannot_judge(tiny, tmp_path):
    (tiny / "scenarios" / "take.yaml").write_text(TAKES.replace('"p1.score": 2', '"p1.score": 5'))
    done = rulekit("mutate", tiny, cwd=tmp_path)
    assert done.returncode == 2 and "must load and pass its rule scripts first" in done.stdout
    (tiny / "scenarios" / "take.yaml").write_text("game: ..\nplayers: 2\nactions:\n  - p1: take 2\n")
    done = rulekit("mutate", tiny, cwd=tmp_path)
    assert done.returncode == 2 and "has no rule script" in done.stdout
    done = rulekit("mutate", tiny, "--variant", "nope", cwd=tmp_path)
    assert done.returncode == 2 and "has no variant" in done.stdout and "Traceback" not in done.stderr


def test_mutate_writes_nothing_through_a_link_and_skips_a_pipe(tiny, tmp_path):
    (tiny / "src").mkdir()
    (tiny / "game.yaml").rename(tiny / "src" / "game.yaml")
    (tiny / "game.yaml").symlink_to(tiny / "src" / "game.yaml")          # a link inside the folder: allowed
    os.mkfifo(tiny / "scenarios" / "pipe.yaml")
    before = os.stat(tiny / "src" / "game.yaml").st_mtime_ns
    done = rulekit("mutate", tiny, "--sample", 3, cwd=tmp_path)
    assert done.returncode == 0 and "3 of " in done.stdout, done.stdout + done.stderr
    assert os.stat(tiny / "src" / "game.yaml").st_mtime_ns == before and (tiny / "game.yaml").is_symlink()
