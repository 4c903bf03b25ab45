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
