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
    assert said.replace("error[RK5016]: variant rich, 3p seed 0: ", "error[RK5026]: ") in again.stdout


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
