# SPDX-License-Identifier: MIT
"""`rulekit mutate --jobs J` as a designer runs it, in real processes: the report (order, score,
survivors, their diffs) and the survivors file are the same byte for byte with one worker or two,
and Ctrl-C ends the command, its workers and their trials at once, with exit 2 and no scratch copy
left behind."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_designer_loop import TAKES, TINY

# test_designer_loop's tiny game, then with a loop that a mutant makes endless (`k += 1` made `pass`)
ENDLESS = TINY.replace("params: {bonus: 3}", "params: {bonus: 3, rounds: 2}").replace("flow:", """\
  settle:
    params: []
    do: |
      k = 0
      while k < rounds:
          k += 1
flow:""").replace("turn(p)\\n", "turn(p)\\nsettle()\\n")
RICH = "variant: {name: rich, title: A bigger bonus}\nparams: {bonus: 5}\n"


@pytest.fixture
def tiny(tmp_path) -> Path:
    folder = tmp_path / "tiny"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "variants").mkdir()
    (folder / "game.yaml").write_text(TINY)
    (folder / "scenarios" / "take.yaml").write_text(TAKES)
    (folder / "variants" / "rich.yaml").write_text(RICH)
    return folder


def _mutate(*args, cwd: Path, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulekit", "mutate", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_jobs_two_reports_exactly_what_jobs_one_does(tiny, tmp_path):
    runs = {}
    for jobs in (1, 2):
        survivors = tmp_path / f"survivors-{jobs}.txt"
        done = _mutate("tiny", "--jobs", jobs, "--survivors", survivors, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        runs[jobs] = (done.stdout.replace(survivors.name, "FILE"), survivors.read_text())
    assert runs[1] == runs[2]
    report = runs[1][0]
    assert " survived, " in report.splitlines()[0] and "\nsurvived: variants/rich.yaml:2 " in report
    assert "survived: game.yaml:3 (number +1)" in report        # the game's own mutants and the variant's


def test_jobs_is_refused_below_one(tiny, tmp_path):
    done = _mutate("tiny", "--jobs", 0, cwd=tmp_path)
    assert done.returncode == 2 and "--jobs" in done.stderr and "Traceback" not in done.stderr


def _running_in_session(session: int) -> list[str]:
    """The processes of a session still alive (a zombie has ended: reaping it is its new parent's
    business, which a container's first process may never do)."""
    ps = subprocess.run(["ps", "-eo", "sid=,stat=,pid=,args="], capture_output=True, text=True).stdout.splitlines()
    return [line for line in ps if line.split()[0] == str(session) and not line.split()[1].startswith("Z")]


def test_ctrl_c_ends_the_workers_and_their_trials_with_exit_2(tiny, tmp_path):
    """Ctrl-C reaches the whole foreground group, as a terminal sends it, while both workers judge
    (a mutant of `settle`'s loop never ends, the trials' bound is a minute): the command exits 2
    at once, nothing of its session is left running, and its scratch folder is gone."""
    (tiny / "game.yaml").write_text(ENDLESS)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    command = [sys.executable, "-m", "rulekit", "mutate", "tiny", "--jobs", "2", "--timeout", "60"]
    child = subprocess.Popen(command, cwd=tmp_path, env={**os.environ, "TMPDIR": str(scratch)},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while len(list(scratch.glob("rulekit-mutate-*/rulekit-mutate-*"))) < 2:    # both workers' copies
            assert child.poll() is None and time.monotonic() < deadline, child.communicate()
            time.sleep(0.1)
        time.sleep(1.0)
        started = time.monotonic()
        os.killpg(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=30)
        took = time.monotonic() - started
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
    assert child.returncode == 2, out + err
    assert "interrupted" in err and "Traceback" not in err
    assert took < 15
    time.sleep(0.5)
    assert _running_in_session(child.pid) == []
    assert list(scratch.iterdir()) == []
