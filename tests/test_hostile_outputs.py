# SPDX-License-Identifier: MIT
"""Outputs and cache files never replace or follow what rulekit does not own (issue 35):
a device, a pipe or an open descriptor named as an output is written in place, what
makes no sense to write is refused, and a link, pipe or device planted in the cache
folder is neither followed nor waited on nor blamed on the content."""
from __future__ import annotations

import os
import select
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import test_hostile
from test_hostile import ROOT, rulekit_cli

from rulekit import files
from rulekit.cli.app import main
from rulekit.dsl import parse_cache

private_cache = test_hostile.private_cache   # the fixture: a 0700 cache folder of the test's own
LISTING_HEAD = "# rulekit's generated code for Batavia"
LOG_HEAD = "rulekit_log: 2\n"         # a log's first line


@pytest.fixture(autouse=True)
def _nothing_renamed_over_a_device(monkeypatch):
    """Whatever the code under test does, no rename lands on a device (without the fix, a
    test that names /dev/null would otherwise replace the machine's own)."""
    real = os.replace

    def guarded(src, dst, *args, **kwargs):
        with_target = os.path.realpath(os.fspath(dst))
        if with_target.startswith("/dev/") or with_target.startswith("/proc/"):
            raise AssertionError(f"a temporary file was renamed over {dst}")
        return real(src, dst, *args, **kwargs)
    monkeypatch.setattr(os, "replace", guarded)


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out + err


def _autoplay_log(target, capsys=None):
    argv = ["autoplay", "batavia", "--players", "3", "--seed", "7", "--quiet", "--log", str(target)]
    if capsys is None:
        return main(argv)
    return _run(capsys, *argv)


class _FifoReader(threading.Thread):
    """Reads a named pipe until its writer closes it (opened at once, so a writer finds it
    read; never blocks the test: it stops when told and the pipe is drained)."""

    def __init__(self, path: Path):
        super().__init__(daemon=True)
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.data = bytearray()
        self.done = threading.Event()

    def run(self):
        try:
            while True:
                ready, _, _ = select.select([self.fd], [], [], 0.05)
                chunk = os.read(self.fd, 1 << 16) if ready else b""
                if chunk:
                    self.data += chunk
                elif self.done.is_set() or (ready and self.data):
                    break
                else:
                    time.sleep(0.01)
        finally:
            os.close(self.fd)

    def text(self) -> str:
        self.done.set()
        self.join(30)
        return self.data.decode("utf-8")


# ------------------------------------------------------------------ outputs
def test_a_fifo_as_the_log_is_written_in_place(tmp_path):
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    reader = _FifoReader(fifo)
    reader.start()
    assert _autoplay_log(fifo) == 0
    text = reader.text()
    assert text.startswith(LOG_HEAD) and "action_count:" in text
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the pipe was replaced by a file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.fifo"], "no temporary file is left behind"


def test_a_fifo_no_one_reads_is_a_clear_error_not_a_hang(tmp_path):
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    done = rulekit_cli("autoplay", "batavia", "--players", "3", "--seed", "7", "--quiet", "--log", fifo, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "no process is reading" in done.stdout and str(fifo) in done.stdout
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def _cli(*args, stdout, timeout=120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("RULEKIT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "rulekit", *map(str, args)], stdout=stdout, stderr=subprocess.PIPE,
                          env=env, timeout=timeout)


def test_dev_stdout_as_the_out_arrives_on_the_pipe():
    done = _cli("compile", "batavia", "--out", "/dev/stdout", stdout=subprocess.PIPE)
    out = done.stdout.decode("utf-8")
    assert done.returncode == 0, out + done.stderr.decode()
    assert out.startswith(LISTING_HEAD) and "\nwrote /dev/stdout: the generated code of Batavia" in out


def test_dev_stdout_redirected_to_a_file_goes_on_where_stdout_stands(tmp_path):
    # written through the descriptor: the shell's file is neither replaced nor overwritten
    target = tmp_path / "out.txt"
    with open(target, "wb") as handle:
        inode = os.fstat(handle.fileno()).st_ino
        done = _cli("compile", "batavia", "--out", "/dev/stdout", stdout=handle)
    text = target.read_text(encoding="utf-8")
    assert done.returncode == 0, text + done.stderr.decode()
    assert os.stat(target).st_ino == inode, "the file was replaced"
    assert text.startswith(LISTING_HEAD) and text.rstrip().splitlines()[-1].startswith("wrote /dev/stdout")


def test_dev_null_as_the_log_stays_the_device(capsys):
    assert files._plan("/dev/null") == ("in place", None)   # never through a rename (see the autouse guard)
    before = os.stat("/dev/null")
    assert _autoplay_log("/dev/null", capsys)[0] == 0
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


@pytest.fixture
def unix_socket(tmp_path):
    path = tmp_path / "s"     # short: a socket's path has a small limit
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(path))
        yield path


def test_a_socket_as_an_output_is_refused_and_left_alone(unix_socket, capsys):
    code, said = _autoplay_log(unix_socket, capsys)
    assert code == 2 and "it is a socket" in said, said
    assert stat.S_ISSOCK(os.lstat(unix_socket).st_mode)


def test_simulate_refuses_a_socket_before_playing(unix_socket, capsys, monkeypatch):
    from rulekit.batch import simulate

    def never(*args, **kwargs):
        raise AssertionError("a game was played")
    monkeypatch.setattr(simulate, "run_batch", never)
    for flag in ("--out", "--plot"):
        code, said = _run(capsys, "simulate", "batavia", flag, unix_socket)
        assert code == 2 and "it is a socket" in said, said


def test_a_block_device_as_an_output_is_refused(tmp_path, capsys):
    device = tmp_path / "disk"
    try:
        os.mknod(device, stat.S_IFBLK | 0o600, os.makedev(7, 250))
    except OSError:
        pytest.skip("cannot make a block device here")
    code, said = _autoplay_log(device, capsys)
    assert code == 2 and "it is a block device" in said, said
    assert stat.S_ISBLK(os.lstat(device).st_mode)


def test_check_writable_agrees_with_write_text(tmp_path, unix_socket):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file.txt").write_text("old", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to(tmp_path / "file.txt")
    expected = {"/dev/null": "ok", tmp_path / "new.txt": "ok", tmp_path / "file.txt": "ok",
                tmp_path / "link.txt": "ok", tmp_path / "folder": "it is a folder", unix_socket: "it is a socket",
                tmp_path / "missing" / "x.txt": "No such file or directory"}
    for target, verdict in expected.items():
        verdicts = []
        for attempt in (files.check_writable, lambda p: files.write_text(p, "new\n")):
            try:
                attempt(str(target))
                verdicts.append("ok")
            except files.UsageError as exc:
                verdicts.append(verdict if verdict in str(exc) else str(exc))
        assert verdicts[0] == "ok" if verdict == "ok" else verdicts[0] != "ok", (target, verdicts)
        assert verdicts[1] == verdict, (target, verdicts)
    assert (tmp_path / "link.txt").is_symlink() and (tmp_path / "file.txt").read_text(encoding="utf-8") == "new\n"


# ------------------------------------------------------------------ cache files
def _warm(cache: Path) -> list[Path]:
    """Fill the cache with Batavia's files; the cache files (not the key)."""
    first = rulekit_cli("validate", "batavia", env=dict(os.environ, RULEKIT_CACHE_DIR=str(cache)))
    assert first.returncode == 0, first.stdout + first.stderr
    planted = sorted(p for p in cache.iterdir() if p.name != "key")
    assert {p.name.split("-")[0] for p in planted} == {"code", "grammar", "parsed"}
    return planted


def _validate(cache: Path, timeout=120) -> subprocess.CompletedProcess:
    done = rulekit_cli("validate", "batavia", env=dict(os.environ, RULEKIT_CACHE_DIR=str(cache)), timeout=timeout)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "RK0219" not in done.stdout + done.stderr
    return done


def _replace_with(path: Path, make) -> None:
    path.unlink()
    make(path)


@pytest.mark.parametrize("which", ["cache files", "key"])
def test_a_cache_file_linked_to_a_users_file_never_writes_it(private_cache, tmp_path, which):
    planted = _warm(private_cache)
    if which == "key":
        planted = [private_cache / "key"]
    mine = tmp_path / "mine.txt"
    mine.write_text("precious\n", encoding="utf-8")
    mine.chmod(0o600)
    for path in planted:
        _replace_with(path, lambda p: p.symlink_to(mine))
    _validate(private_cache)
    assert mine.read_text(encoding="utf-8") == "precious\n"
    for path in planted:
        assert stat.S_ISREG(os.lstat(path).st_mode), f"{path.name} is still a link: the cache is not used"
    assert len((private_cache / "key").read_bytes()) == 32


@pytest.mark.parametrize("which", ["cache files", "key"])
def test_a_cache_file_that_is_a_fifo_is_not_waited_on(private_cache, which):
    planted = _warm(private_cache)
    if which == "key":
        planted = [private_cache / "key"]
    for path in planted:
        _replace_with(path, os.mkfifo)
    _validate(private_cache, timeout=60)
    for path in planted:
        assert stat.S_ISREG(os.lstat(path).st_mode), f"{path.name} was not written afresh"


def _limited_validate(cache: Path) -> subprocess.CompletedProcess:
    """`rulekit validate batavia` with at most 2 GiB of memory: a cache read that never
    ends fails fast instead of taking the machine's memory."""
    code = ("import resource, runpy, sys; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30)); "
            "sys.argv = ['rulekit', 'validate', 'batavia']; runpy.run_module('rulekit', run_name='__main__')")
    env = dict(os.environ, RULEKIT_CACHE_DIR=str(cache),
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("RULEKIT_DEBUG", None)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)


def test_a_cache_file_linked_to_dev_zero_is_ignored_not_blamed_on_the_content(private_cache):
    planted = _warm(private_cache)
    for path in planted:
        _replace_with(path, lambda p: p.symlink_to("/dev/zero"))
    done = _limited_validate(private_cache)
    assert done.returncode == 0 and "RK0219" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert all(stat.S_ISREG(os.lstat(p).st_mode) for p in planted)


def test_a_cache_folder_others_may_read_is_made_private(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o755)
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(folder))
    assert parse_cache.private_folder() == folder
    assert folder.stat().st_mode & 0o777 == 0o700
    assert capsys.readouterr().err == ""
    _warm(folder)    # a cache folder holding a key is made private too
    folder.chmod(0o750)
    assert parse_cache.private_folder() == folder and folder.stat().st_mode & 0o777 == 0o700


def test_a_cache_folder_that_cannot_be_made_private_is_not_used_with_a_note(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o755)
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(folder))
    monkeypatch.setattr(parse_cache, "_noted", set(), raising=False)   # notes are once a process

    def refused(path, mode):
        raise PermissionError(1, "Operation not permitted")
    monkeypatch.setattr(parse_cache.os, "chmod", refused)
    assert parse_cache.private_folder() is None
    assert parse_cache.read_signed("parsed-x.json") is None
    notes = capsys.readouterr().err.splitlines()
    assert len(notes) == 1 and str(folder) in notes[0] and "not used" in notes[0], notes


def test_a_folder_of_other_files_is_never_chmodded(tmp_path, monkeypatch, capsys):
    # RULEKIT_CACHE_DIR naming a folder that is not a cache (a home, `/`): left as it is
    folder = tmp_path / "home"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    folder.chmod(0o755)
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(folder))
    monkeypatch.setattr(parse_cache, "_noted", set(), raising=False)   # notes are once a process
    assert parse_cache.private_folder() is None
    assert folder.stat().st_mode & 0o777 == 0o755
    assert "not used" in capsys.readouterr().err
