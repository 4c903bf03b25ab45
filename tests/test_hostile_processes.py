# SPDX-License-Identifier: MIT
"""Processes (issue 35, and 39 for SIGTERM): `simulate`'s workers die with their parent, however it
dies, and Ctrl-C at any moment from the program's first instruction is exit 2 without a traceback.

Each test runs the real command in a session of its own (so a test can clean up whatever it leaves)
and polls rather than sleeps: the machine may be loaded."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds processes in /proc")

REPO = Path(__file__).resolve().parents[1]
SCRIPT = Path(sysconfig.get_path("scripts")) / "rulekit"      # the console script itself, not a shim
LONG_RUN = ["simulate", "goa", "--games", "100000", "--jobs", "2", "--format", "json"]


class Run:
    """A command in its own session; its standard error read as it comes, so that the moment
    Python's own start-up ends (``site`` imported, shown by PYTHONPROFILEIMPORTTIME) is known."""

    def __init__(self, argv: list[str]):
        env = dict(os.environ, PYTHONPROFILEIMPORTTIME="1")
        self.proc = subprocess.Popen(argv, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     start_new_session=True)
        self.lines: list[str] = []
        self.started = threading.Event()
        self.out = bytearray()
        self.readers = [threading.Thread(target=self._read, daemon=True),
                        threading.Thread(target=lambda: self.out.extend(self.proc.stdout.read()), daemon=True)]
        for reader in self.readers:
            reader.start()

    def _read(self) -> None:
        for raw in self.proc.stderr:
            line = raw.decode(errors="replace")
            if line.startswith("import time:"):
                if line.rstrip().endswith("| site"):
                    self.started.set()
            else:
                self.lines.append(line)

    @property
    def stderr(self) -> str:
        return "".join(self.lines)

    def wait_started(self) -> None:
        assert self.started.wait(60), "python never finished starting"

    def finish(self, timeout: float = 60) -> int:
        """The exit status, once the process has ended and every holder has closed its pipes."""
        self.proc.wait(timeout)
        for reader in self.readers:
            reader.join(timeout)
            assert not reader.is_alive(), "something still holds the command's pipes"
        return self.proc.returncode

    def cleanup(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)    # whatever a failing test left in the session
        except ProcessLookupError:
            pass
        self.proc.kill()
        self.proc.wait()


@pytest.fixture
def start():
    runs: list[Run] = []

    def make(argv: list[str]) -> Run:
        runs.append(Run(argv))
        return runs[-1]
    yield make
    for run in runs:
        run.cleanup()


def _ppid(pid: int) -> int | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    return None if fields[0] == "Z" else int(fields[1])


def _alive(pid: int) -> bool:
    return _ppid(pid) is not None


def _children(pid: int) -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit() and _ppid(int(name)) == pid]


def _poll(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"after {timeout} s: {what}")


def _workers(run: Run) -> list[int]:
    """The two workers, once the run has them (loading the game comes first)."""
    return _poll(lambda: len(_children(run.proc.pid)) >= 2 and _children(run.proc.pid), 120,
                 f"no workers; stderr: {run.stderr}")


def _gone(pids: list[int], timeout: float = 10) -> None:
    _poll(lambda: not any(_alive(pid) for pid in pids), timeout,
          f"workers {[pid for pid in pids if _alive(pid)]} outlived their parent")


def test_workers_die_when_their_parent_is_killed(start):
    run = start([str(SCRIPT), *LONG_RUN])
    workers = _workers(run)
    run.proc.send_signal(signal.SIGKILL)
    _gone(workers)
    assert run.finish(timeout=30) == -signal.SIGKILL     # nobody holds its pipes any more


def test_workers_die_with_their_parent_without_the_kernels_help(start):
    """The portable way (a thread waiting on the parent's sentinel), as where prctl is missing."""
    code = ("import sys; from rulekit.batch import simulate as sim; sim._kill_with_parent = lambda: False; "
            "sim.run_batch('goa', games=100000, jobs=2)")
    run = start([sys.executable, "-c", code])
    workers = _workers(run)
    run.proc.send_signal(signal.SIGKILL)
    _gone(workers)


def test_sigterm_ends_the_run_and_its_workers(start):
    run = start([str(SCRIPT), *LONG_RUN])
    workers = _workers(run)
    run.proc.send_signal(signal.SIGTERM)
    assert run.finish(timeout=30) == 2
    _gone(workers, timeout=1)       # ended by the run itself, before it exits
    assert "interrupted" in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert run.out == b""           # no report of a batch cut short


def test_ctrl_c_in_a_run_ends_it_and_its_workers(start):
    """Ctrl-C on a terminal reaches the whole process group, workers included; twice, the second
    one comes while the run is ending its workers."""
    for presses in (1, 2):
        run = start([str(SCRIPT), *LONG_RUN])
        workers = _workers(run)
        for _ in range(presses):
            os.killpg(run.proc.pid, signal.SIGINT)
            time.sleep(0.01)
        assert run.finish(timeout=30) == 2, run.stderr
        _gone(workers, timeout=1)
        assert "interrupted" in run.stderr and "Traceback" not in run.stderr, run.stderr


@pytest.mark.parametrize("command", [[str(SCRIPT)], [sys.executable, "-m", "rulekit"]],
                         ids=["console-script", "python-m"])
def test_ctrl_c_at_any_moment_is_exit_2_without_a_traceback(start, command):
    """From Python's end of start-up (the program's first instruction: its first imports take a good
    part of a second) to the middle of the command."""
    for delay in (0.02, 0.05, 0.1, 0.2, 0.3):
        run = start([*command, "validate", "goa"])
        run.wait_started()
        time.sleep(delay)
        assert run.proc.poll() is None, f"validate ended within {delay} s: nothing was interrupted"
        os.killpg(run.proc.pid, signal.SIGINT)
        code = run.finish()
        assert (code, "Traceback" in run.stderr) == (2, False), f"after {delay} s: {run.stderr}"
        assert run.stderr.count("interrupted") == 1, run.stderr


def test_ctrl_c_where_python_cannot_raise_is_not_lost(start):
    """A KeyboardInterrupt raised in a ``__del__`` (or an at-fork hook) is printed as ignored and lost
    by Python: the command line signals itself again once out of there."""
    code = ("import os, signal, sys, time\n"
            "from rulekit.cli import app as cli, entry\n"
            "class Dropped:\n"
            "    def __del__(self):\n"
            "        os.kill(os.getpid(), signal.SIGINT)\n"
            "        time.sleep(0.01)\n"
            "def command(argv):\n"
            "    Dropped()\n"
            "    time.sleep(30)\n"
            "    return 0\n"
            "cli.main = command\n"
            "sys.exit(entry.main())\n")
    run = start([sys.executable, "-c", code])
    assert (run.finish(), "Traceback" in run.stderr) == (2, False), run.stderr
