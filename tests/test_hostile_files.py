# SPDX-License-Identifier: MIT
"""Hostile files in a shared game folder (issue 35): a game's files are read only when they are
regular files inside its folder once links are resolved. A link leading out (to a secret, to
/proc/self/environ) or a FIFO is refused by name, unread: nothing of it reaches a terminal or a
CI log, and nothing hangs. A file the user names on the command line may live anywhere, but
must still be a regular file."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import rulekit
from rulekit.errors import DiagnosticReport

ROOT = Path(__file__).resolve().parents[1]
COUNTER = ROOT / "tests" / "games" / "counter" / "game.yaml"
TOKEN = "SECRET-TOKEN-5f3a9c"
LINUX_PROC = Path("/proc/self/environ").exists()
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
OVERLAY = "variant: {name: long, title: Long}\nparams:\n  target: 20\n"


def cli(*args, cwd=None, env=None, timeout=60) -> subprocess.CompletedProcess:
    """`python -m rulekit args...` in a new process; a hang fails the test by its timeout."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "rulekit", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=timeout)


def said(run: subprocess.CompletedProcess) -> str:
    return run.stdout + run.stderr


@pytest.fixture
def game(tmp_path) -> Path:
    """A game that passes `rulekit test`, and beside it (outside its folder) a secret file that
    YAML reads and a diagnostic would quote."""
    folder = tmp_path / "g"
    (folder / "variants").mkdir(parents=True)
    (folder / "game.yaml").write_text(COUNTER.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "secret.yaml").write_text(f"api_token: {TOKEN}\nmore: [{TOKEN}\n", encoding="utf-8")
    return folder


def _link(link: Path, target) -> None:
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(target)


def _environ_first() -> dict:
    """An environment whose first variable holds the token (/proc/self/environ starts with it)."""
    return {"RK_TOKEN": TOKEN, **{k: v for k, v in os.environ.items() if k != "RK_TOKEN"}}


# ------------------------------------------------------------------ links leading out
def test_a_variant_linked_to_a_secret_is_refused_unread(game, tmp_path):
    _link(game / "variants" / "z.yaml", tmp_path / "secret.yaml")
    for args, status in ((("validate", game, "--variant", "z"), 1), (("validate", game), 1),
                         (("autoplay", game, "--variant", "z", "--players", "2"), 1),
                         (("test", game, "--random", "1", "--players", "3"), 0)):   # skipped, shown
        run = cli(*args)
        assert run.returncode == status and TOKEN not in said(run), said(run)
        assert "z.yaml` is not read: it is a symbolic link to a file outside the game's folder" in said(run) \
            or "not read: a symbolic link to a file outside the game's folder" in said(run)
    with pytest.raises(DiagnosticReport) as caught:
        rulekit.load_game(str(game), ("z",))
    assert [d.code for d in caught.value.diagnostics] == ["RK0114"]
    assert TOKEN not in caught.value.render()


def test_a_game_file_linked_to_a_secret_is_refused_unread(game, tmp_path):
    (game / "game.yaml").unlink()
    _link(game / "game.yaml", tmp_path / "secret.yaml")
    for args in (("validate", game), ("test", game, "--random", "1"), ("autoplay", game, "--players", "2")):
        run = cli(*args)
        assert run.returncode == 1 and TOKEN not in said(run), said(run)
        assert "game.yaml` is not read: it is a symbolic link to a file outside the game's folder" in said(run)
    with pytest.raises(DiagnosticReport) as caught:
        rulekit.load_game(str(game))
    assert [d.code for d in caught.value.diagnostics] == ["RK0114"]


def test_an_include_linked_out_of_the_folder_says_so(game, tmp_path):
    with open(game / "game.yaml", "a", encoding="utf-8") as handle:
        handle.write("include: [rules/more.yaml]\n")
    _link(game / "rules" / "more.yaml", tmp_path / "secret.yaml")
    run = cli("validate", game)
    assert run.returncode == 1 and TOKEN not in said(run)
    assert "error[RK0113]: included file `rules/more.yaml` is a symbolic link to a file outside" in run.stdout


def test_a_link_inside_the_folder_is_read_and_one_leading_out_is_not(game, tmp_path):
    (game / "overlays").mkdir()
    (game / "overlays" / "long.yaml").write_text(OVERLAY, encoding="utf-8")
    _link(game / "variants" / "long.yaml", Path("..") / "overlays" / "long.yaml")
    (game / "rules.yaml").write_text(COUNTER.read_text(encoding="utf-8"), encoding="utf-8")
    (game / "game.yaml").unlink()
    _link(game / "game.yaml", "rules.yaml")
    assert rulekit.load_game(str(game), ("long",)).data["params"]["target"] == 20
    (tmp_path / "long.yaml").write_text(OVERLAY, encoding="utf-8")
    (game / "variants" / "long.yaml").unlink()
    _link(game / "variants" / "long.yaml", tmp_path / "long.yaml")    # the same overlay, out of the folder
    with pytest.raises(DiagnosticReport) as caught:
        rulekit.load_game(str(game), ("long",))
    assert [d.code for d in caught.value.diagnostics] == ["RK0114"]


# ------------------------------------------------------------------ /proc/self/environ
@pytest.mark.skipif(not LINUX_PROC, reason="no /proc/self/environ here")
@pytest.mark.parametrize("where", ["game.yaml", "variants/z.yaml", "rules.yaml"])
def test_a_link_to_the_environment_is_never_quoted(game, where):
    if where == "game.yaml":
        (game / "game.yaml").unlink()
    if where == "rules.yaml":
        with open(game / "game.yaml", "a", encoding="utf-8") as handle:
            handle.write("include: [rules.yaml]\n")
    _link(game / where, "/proc/self/environ")
    env = _environ_first()
    variant = ("--variant", "z") if where.startswith("variants") else ()
    for args in (("validate", game, *variant), ("test", game, "--random", "1", "--players", "3")):
        run = cli(*args, env=env)
        assert TOKEN not in said(run) and "a symbolic link to a file outside" in said(run), said(run)
        assert run.returncode == (0 if variant and args[0] == "test" else 1), said(run)


@pytest.mark.skipif(not LINUX_PROC, reason="no /proc/self/environ here")
def test_a_file_the_user_names_must_still_be_a_regular_file(game, tmp_path):
    _link(tmp_path / "mine.yaml", "/proc/self/environ")
    env = _environ_first()
    for args in (("validate", game, "--variant", tmp_path / "mine.yaml"), ("run", tmp_path / "mine.yaml")):
        run = cli(*args, env=env)
        assert run.returncode == 1 and TOKEN not in said(run), said(run)
        assert "error[RK0115]" in run.stdout and "like those in /proc), not a regular file" in run.stdout
    (tmp_path / "mine.yaml").unlink()
    (tmp_path / "mine.yaml").write_text(OVERLAY, encoding="utf-8")    # a regular file anywhere is fine
    run = cli("validate", game, "--variant", tmp_path / "mine.yaml")
    assert run.returncode == 0, said(run)


# ------------------------------------------------------------------ FIFOs
@needs_fifo
def test_a_fifo_as_the_game_file_is_refused_without_waiting(game):
    (game / "game.yaml").unlink()
    os.mkfifo(game / "game.yaml")
    for args in (("validate", game), ("test", game), ("autoplay", game)):
        run = cli(*args, timeout=30)
        assert run.returncode == 1, said(run)
        assert "game.yaml` is not read: it is a FIFO (named pipe), not a regular file" in said(run)


@needs_fifo
def test_a_fifo_as_an_include_is_refused_where_it_is_included(game):
    with open(game / "game.yaml", "a", encoding="utf-8") as handle:
        handle.write("include: [more.yaml]\n")
    os.mkfifo(game / "more.yaml")
    run = cli("validate", game, timeout=30)
    assert run.returncode == 1 and "error[RK0115]" in run.stdout
    assert "more.yaml` is not read: it is a FIFO (named pipe)" in run.stdout
    assert "--> " in run.stdout and "game.yaml:79:11\n" in run.stdout, run.stdout    # shown where it is included
    assert "more.yaml:1:" not in run.stdout


@needs_fifo
def test_a_fifo_under_faq_is_skipped_and_shown(game):
    (game / "faq").mkdir()
    os.mkfifo(game / "faq" / "pipe.yaml")
    os.mkfifo(game / "variants" / "z.yaml")
    (game / "faq" / "ok.yaml").write_text("game: ..\nplayers: 2\nactions:\n  - p1: quit\n", encoding="utf-8")
    run = cli("test", game, "--random", "1", "--players", "3", timeout=60)
    assert run.returncode == 0, said(run)
    lines = run.stdout.splitlines()
    assert any(line.startswith("g/faq/ok.yaml") and " ok " in line for line in lines)
    for check in ("g/faq/pipe.yaml", "validate g +z"):
        row = next(line for line in lines if line.startswith(check))
        assert " skip " in row and row.endswith("not read: a FIFO (named pipe), not a regular file")
    assert "2 skipped (not read)" in run.stdout


def test_a_stored_transcript_linked_out_of_the_folder_is_not_quoted(game, tmp_path):
    (game / "faq").mkdir()
    (game / "faq" / "ok.yaml").write_text("game: ..\nplayers: 2\nactions:\n  - p1: quit\n", encoding="utf-8")
    _link(game / "faq" / "ok.transcript", tmp_path / "secret.yaml")
    run = cli("test", game, "--random", "0")
    assert run.returncode == 1 and TOKEN not in said(run)
    assert "ok.transcript` is not read: it is a symbolic link to a file outside the game's folder" in run.stdout


def test_updating_a_transcript_linked_out_of_the_folder_replaces_the_link_not_its_target(game, tmp_path):
    """`rulekit test --update` writes the game folder's own transcript: a link planted at its name
    is replaced, and the file it led to (a file of the user's) keeps every byte."""
    (game / "faq").mkdir()
    (game / "faq" / "ok.yaml").write_text("game: ..\nplayers: 2\nactions:\n  - p1: quit\n", encoding="utf-8")
    _link(game / "faq" / "ok.transcript", tmp_path / "secret.yaml")
    before = (tmp_path / "secret.yaml").read_bytes()
    run = cli("test", game, "--random", "0", "--update")
    assert run.returncode == 0 and TOKEN not in said(run), said(run)
    assert (tmp_path / "secret.yaml").read_bytes() == before
    stored = game / "faq" / "ok.transcript"
    assert not stored.is_symlink() and "p1: quit" in stored.read_text(encoding="utf-8")


@needs_fifo
def test_quoting_a_line_never_opens_a_fifo(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    code = ("import sys; from rulekit.errors import Diagnostic; from rulekit.source import Span; "
            "print(Diagnostic('RK0100', 'x', Span(sys.argv[1], 1, 1)).render())")
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path / "pipe.yaml")], capture_output=True,
                         text=True, timeout=30, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0 and "--> " in run.stdout, run.stderr


# ------------------------------------------------------------------ a variant's real problem
def _unreadable(path: Path, _tmp: Path) -> None:
    path.write_text(OVERLAY, encoding="utf-8")
    path.chmod(0)


_KINDS = {
    "a FIFO": (lambda path, _tmp: os.mkfifo(path), "RK0115", "a FIFO (named pipe), not a regular file"),
    "a folder": (lambda path, _tmp: path.mkdir(), "RK0115", "a folder, not a regular file"),
    "a link out": (lambda path, tmp: path.symlink_to(tmp / "secret.yaml"), "RK0114",
                   "a symbolic link to a file outside the game's folder"),
    "a broken link": (lambda path, _tmp: path.symlink_to("gone.yaml"), "RK0100", "No such file or directory"),
    "unreadable": (_unreadable, "RK0100", "Permission denied"),
}


@pytest.mark.parametrize("kind", sorted(_KINDS))
def test_a_variant_that_cannot_be_read_says_why(game, tmp_path, kind):
    make, code, problem = _KINDS[kind]
    if kind == "a FIFO" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    if kind == "unreadable" and (not hasattr(os, "getuid") or os.getuid() == 0):
        pytest.skip("root reads any file")
    make(game / "variants" / "z.yaml", tmp_path)
    run = cli("validate", game, "--variant", "z", timeout=30)
    assert run.returncode == 1 and "no variant" not in said(run), said(run)
    assert f"error[{code}]" in run.stdout and "variants/z.yaml" in run.stdout and problem in run.stdout


# ------------------------------------------------------------------ quoting at most a line, in part
def test_a_huge_tag_is_quoted_in_part(tmp_path):
    folder = tmp_path / "tagged"
    folder.mkdir()
    (folder / "game.yaml").write_text("meta: !" + "x" * 1_000_000 + " 1\n", encoding="utf-8")
    run = cli("validate", folder)
    assert run.returncode == 1 and "error[RK0104]" in run.stdout and len(said(run)) < 2000


@needs_fifo
def test_a_fifo_named_as_a_script_a_log_or_a_scripts_variant_is_refused_by_what_it_is(game, tmp_path):
    """`rulekit run` and `render` of a pipe, and a script whose variant file is one, say what the
    file is (they said "no such file"), and never wait on it."""
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    for args in (("run", pipe), ("render", pipe, "-o", tmp_path / "x.svg")):
        run = cli(*args, timeout=30)
        assert run.returncode == 1 and "error[RK0115]" in run.stdout, said(run)
        assert "pipe.yaml` is not read: it is a FIFO (named pipe)" in run.stdout
    os.mkfifo(game / "odd.yaml")
    script = game / "s.yaml"
    script.write_text("game: .\nvariants: [odd.yaml]\nactions: []\n", encoding="utf-8")
    run = cli("run", script, timeout=30)
    assert run.returncode == 1 and "odd.yaml` is not read: it is a FIFO (named pipe)" in run.stdout, said(run)
