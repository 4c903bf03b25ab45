# SPDX-License-Identifier: MIT
"""Hostile input, round 3 (issue 51): batches, each attack through ``rulekit simulate`` as a process.

- every number of the command line is checked before it sizes anything (``--games 10**19`` was an
  OverflowError, exit 101; ``--games 10**11 --out f`` a MemoryError; a sweep of a billion points was
  listed before its 50-point cap: no answer in 30 s);
- ``--resume`` trusts nothing in the file: a record nested 200,000 deep, a NaN score, a text for
  rounds, winners as a number or a seat 7 or -1 are warnings on their line, dropped and played again
  (they were exit 101); a file of another variant is refused (its records were mixed in); a second
  writer of the same batch refuses to start (two left 370 records for 300 games);
- ``--out EXISTING`` is not replaced unless ``--overwrite`` says so;
- the step watchdog bounds the steps of ``--jobs`` workers, and a probe game of the action cap
  stopped by it ends the command (each probe paid the bound again).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulekit.batch import simulate as sim

from conftest import ONE_DECISION

REPO = Path(__file__).resolve().parents[1]
AUCTION = str(REPO / "tests" / "games" / "auction")


def rulekit(*argv, timeout: int = 60, **env) -> subprocess.CompletedProcess:
    """``rulekit ARGV`` as a process: its exit code and output."""
    return subprocess.run([sys.executable, "-m", "rulekit", *map(str, argv)], capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ, **env))


def refused(done: subprocess.CompletedProcess, says: str) -> None:
    out = done.stdout + done.stderr
    assert done.returncode == 2 and says in out and "Traceback" not in out, out[-2000:]


NUMBERS = {
    "--games 10**19": (["--games", 10 ** 19], "--games must be from 1 to 1,000,000"),
    "--games 10**11 --out": (["--games", 10 ** 11, "--out", "{out}"], "--games must be from 1 to 100,000,000"),
    "--jobs 10**20": (["--games", 2, "--jobs", 10 ** 20], "--jobs must be from 1 to 4,096"),
    "--jobs 0": (["--games", 2, "--jobs", 0], "--jobs must be from 1"),
    "--max-actions 10**23": (["--games", 2, "--max-actions", 10 ** 23], "--max-actions must be from 1 to 10,000,000"),
    "--seed -10**30": (["--games", 2, "--seed", -10 ** 30], "--seed must be from"),
    "--sweep of a billion points": (["--sweep", "money=1..1000000000"], "--sweep of 1,000,000,000 points: at most 50"),
    "--sweep of a 5000-digit range": (["--sweep", "money=1..1" + "0" * 5000], "more than 100 digits"),
}


SLOW_NUMBERS = ("--jobs 0", "--jobs 10**20", "--seed -10**30", "--sweep of a 5000-digit range")


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_NUMBERS else c
                                  for c in sorted(NUMBERS)])
def test_every_number_is_checked_before_it_is_used(tmp_path, case):
    argv, says = NUMBERS[case]
    out = tmp_path / "f.jsonl"
    done = rulekit("simulate", AUCTION, *[str(a).format(out=out) for a in argv], timeout=30)
    refused(done, says)
    assert not out.exists()


def _batch(path, games: int = 4, *more) -> subprocess.CompletedProcess:
    return rulekit("simulate", AUCTION, "--games", games, "--out", path, *more)


def _made(path, games: int, variants=()) -> None:
    """A batch file written in this process (the attacks on it are run as processes)."""
    sim.run_to_file(str(path), False, AUCTION, variants, games=games)


BAD = {
    "nested 200,000 deep": lambda r: b"[" * 200_000 + b"]" * 200_000,
    "a NaN score": lambda r: _with(r, scores=float("nan")),
    "an infinite score": lambda r: _with(r, scores=["INF", 1, 1]).replace(b'"INF"', b"1e999"),
    "a text for rounds": lambda r: _with(r, rounds="two"),
    "winners as a number": lambda r: _with(r, winners=1),
    "a winner seat 7": lambda r: _with(r, winners=[7]),
    "a winner seat -1": lambda r: _with(r, winners=[-1]),
    "a score missing": lambda r: _with(r, scores=r["scores"][:1]),
    "a text as a score": lambda r: _with(r, scores=["9", 1, 1]),
    "actions as a list": lambda r: _with(r, actions=[1]),
    "a bool as decisions": lambda r: _with(r, decisions=True),
    "stalled as a text": lambda r: _with(r, stalled="no"),
}


def _with(record: dict, **changed) -> bytes:
    value = dict(record, **changed)
    return json.dumps(value, allow_nan=True).encode()


def test_resume_checks_every_record_and_plays_the_bad_ones_again(tmp_path):
    path = tmp_path / "r.jsonl"
    _made(path, len(BAD))
    head, *records = Path(path).read_bytes().splitlines()
    good = [json.loads(line) for line in records]
    lines = [head] + [BAD[case](good[k]) for k, case in enumerate(sorted(BAD))]
    Path(path).write_bytes(b"\n".join(lines) + b"\n")
    done = _batch(path, len(BAD), "--resume", "--format", "json")
    assert done.returncode == 0, done.stderr[-3000:]
    warned = [line for line in done.stderr.splitlines() if line.startswith("warning[RK0961]")]
    assert len(warned) == 11 and f"{path}:2: " in warned[0], done.stderr
    assert warned[-1].endswith(": 2 more lines dropped") and "nested 200,000 deep" in done.stderr
    again = [json.loads(line) for line in Path(path).read_bytes().splitlines()[1:]]
    assert sorted(again, key=lambda r: r["index"]) == good
    assert json.loads(done.stdout)["summary"]["games"] == len(BAD)


def test_resume_refuses_a_file_of_another_variant(tmp_path):
    path = tmp_path / "r.jsonl"
    _made(path, 3, ("rich",))
    before = path.read_bytes()
    refused(_batch(path, 6, "--resume"), "error[RK0960]: cannot resume")
    assert "variants rich in the file, none here" in _batch(path, 6, "--resume").stdout
    assert path.read_bytes() == before


def test_a_second_writer_of_the_same_batch_refuses_to_start(tmp_path):
    path = tmp_path / "r.jsonl"
    first = subprocess.Popen([sys.executable, "-m", "rulekit", "simulate", AUCTION, "--games", "1000000", "--out",
                              str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while (not path.exists() or path.read_bytes().count(b"\n") < 2) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert first.poll() is None
        refused(_batch(path, 1000000, "--resume"), "error[RK0962]:")
        refused(_batch(path, 10, "--overwrite"), "is being written by another `rulekit simulate`")
    finally:
        os.killpg(first.pid, signal.SIGTERM)
        first.wait(timeout=30)
    assert not Path(str(path) + ".lock").exists()
    done = _batch(path, 5, "--resume")          # the lock went with its holder
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_existing_out_is_replaced_only_when_asked(tmp_path):
    for name, says in (("r.jsonl", "give --resume to play the rest of its batch, --overwrite"),
                       ("report.txt", "is there already: give --overwrite to replace it")):
        path = tmp_path / name
        path.write_text("keep me\n")
        refused(_batch(path, 1), says)
        assert path.read_text() == "keep me\n"
    assert _batch(path, 1, "--overwrite").returncode == 0
    assert "win rate" in path.read_text()


SLOW = """\
meta: {title: Slow}
players: {min: 2, max: 2}
vars:
  x: 0
setup: |
    x = sum(a * b for a in range(1000000) for b in range(1000000))
""" + ONE_DECISION


@pytest.mark.parametrize("argv", [pytest.param(["--jobs", "2", "--max-actions", "5"], marks=pytest.mark.slow),
                                  ["--jobs", "1"]], ids=["in --jobs workers", "in the action cap's probe games"])
def test_a_step_that_never_ends_stops_the_batch_on_its_line(write_game, argv):
    """With a bound of 1 s, four games on two workers (the watchdog did not reach them: 101 s and
    going on), and the probe games of the action cap (each paid the bound: 244 s at 60 s)."""
    folder = write_game(SLOW)
    done = rulekit("simulate", folder, "--games", "4", *argv, timeout=40, RULEKIT_STEP_SECONDS="1")
    out = done.stdout + done.stderr
    assert done.returncode == 1 and "error[RK4016]: one step of the rules has computed for 1 s" in out, out
    assert "game.yaml:6:" in out
