# SPDX-License-Identifier: MIT
"""Hostile input, round 3 (issue 51), what its audit found untested or not holding, each through a
real process (``rulekit`` as a subprocess, the language server over stdio):

- ``rulekit mutate --timeout inf`` (or ``nan``, ``1e308``) was an internal error, exit 101 (the
  bound reached a pipe's poll); ``rulekit test --random 10**22`` was taken and played for ever;
- a resumed batch file whose header names another game, content, bots or seed scheme is refused
  (the round's tests had the variants only);
- an edit of a script whose position never ends drops the child playing it at once and checks the
  new text (test_lsp_bounded has the child's side of it; this is the server's);
- the language server's memory over many *different* edits of a game stays flat: it grew about
  130 KB an edit of an 80-procedure game while the parse and code caches kept every version they
  saw in memory; now they keep what each game's last load used (parse_cache.Kept).
"""
from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import pytest
from test_hostile_round3_batches import AUCTION, refused, rulekit

from rulekit.batch import simulate as sim


@pytest.mark.parametrize("timeout", ["inf", pytest.param("nan", marks=pytest.mark.slow),
                                     pytest.param("1e308", marks=pytest.mark.slow)])
def test_a_mutants_timeout_out_of_range_is_refused(tmp_path, timeout):
    game = shutil.copytree(AUCTION, tmp_path / "auction")
    refused(rulekit("mutate", game, "--sample", 1, "--timeout", timeout, timeout=60),
            f"--timeout must be more than 0 and at most 86,400 seconds (a day), not {float(timeout):g}")


def test_a_test_commands_random_games_are_counted_before_any_is_played():
    refused(rulekit("test", AUCTION, "--random", 10 ** 22, timeout=30),
            "--random must be from 0 to 1,000,000, not 10,000,000,000,000,000,000,000")


HEADERS = {       # what the file's header says that the command does not
    "content": "content hash sha256:",
    "bots": "bots random in the file, greedy here",
    "seed scheme": "seed scheme mt in the file, sha256 here",
    "game": "game auction in the file, other here",
}


def _another_batch(case: str, game: Path, path: Path) -> tuple[Path, tuple]:
    """The game folder and options of a command that differs from the batch of ``path`` in ``case``."""
    if case == "content":
        rules = game / "game.yaml"
        rules.write_text(rules.read_text().replace("initial: 5", "initial: 6", 1))
    elif case == "seed scheme":
        path.write_text(path.read_text().replace('"game_seeds":"sha256"', '"game_seeds":"mt"', 1))
    elif case == "game":
        return Path(shutil.copytree(game, game.parent / "other")), ()
    return game, ("--bots", "greedy") if case == "bots" else ()


@pytest.mark.parametrize("case", [c if c == "content" else pytest.param(c, marks=pytest.mark.slow)
                                  for c in HEADERS])
def test_resume_refuses_a_file_whose_header_is_another_batchs(tmp_path, case):
    game = Path(shutil.copytree(AUCTION, tmp_path / "auction"))
    path = tmp_path / "r.jsonl"
    sim.run_to_file(str(path), False, str(game), (), games=3)
    played, more = _another_batch(case, game, path)
    before = path.read_bytes()
    done = rulekit("simulate", played, "--games", 6, "--out", path, "--resume", *more)
    refused(done, "error[RK0960]: cannot resume")
    assert HEADERS[case] in done.stdout + done.stderr
    assert path.read_bytes() == before


def _children(pid: int) -> list[str]:
    """The processes ``pid`` started, from any of its threads."""
    return [child for task in Path(f"/proc/{pid}/task").iterdir() for child in (task / "children").read_text().split()]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the server's children in /proc")
def test_an_edit_drops_a_script_check_that_never_ends_and_checks_the_new_text(tmp_path):
    """A script whose position never ends, then edited: its child is dropped at once and the new
    text is checked, long before the script's bound (120 s here) would have stopped the old one."""
    pytest.importorskip("pygls")
    from lsp_client import Editor
    from test_hostile_round3_lsp import FOREVER
    game = Path(shutil.copytree(AUCTION, tmp_path / "auction"))
    script = game / "scripts" / "forever.yaml"
    script.write_text(FOREVER)
    editor = Editor(str(game), env={"RULEKIT_LSP_SCRIPT_SECONDS": "120"})
    try:
        uri = editor.open(script)
        server = editor.client._server.pid
        deadline = time.monotonic() + 60
        while not _children(server) and time.monotonic() < deadline:      # the script's child plays it
            time.sleep(0.1)
        assert _children(server), "the script's child never started"
        time.sleep(1)
        playing = set(_children(server))
        fixed = FOREVER.replace(FOREVER.splitlines()[4], "  x = 1").replace("bid 1", "fly")
        version = editor.change(uri, fixed)
        deadline = time.monotonic() + 45
        found = []
        while not found and time.monotonic() < deadline:
            found = editor.diagnostics(uri, version, timeout=deadline - time.monotonic())
            if not found:
                time.sleep(0.1)
        assert [d.code for d in found] == ["RK5011"], found
        assert not playing & set(_children(server)), "the child playing the old text is still there"
    finally:
        editor.close()


def _procedures(count: int, edit: int) -> str:
    """A game of ``count`` procedures; ``edit`` changes one number of one of them."""
    body = "".join(f"  step{i}:\n    params: [p]\n    do: |\n      p.score += {edit if i == edit % count else i}\n"
                   f"      if p.score > {i * 3}:\n          total += 1\n" for i in range(count))
    calls = "".join(f"            step{i}(p)\n" for i in range(count))
    return ("meta: {title: Edits}\nplayers: {min: 2, max: 2}\nvars:\n  total: 0\nplayer:\n  vars:\n    score: 0\n"
            f"procedures:\n{body}flow:\n  rounds: 1\n  phases:\n    - id: main\n      do: |\n"
            f"        for p in players:\n{calls}")


def _resident(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:"))) // 1024


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's memory in /proc")
def test_the_servers_memory_is_flat_over_many_different_edits():
    pytest.importorskip("pygls")
    from lsp_client import Editor
    folder = Path(tempfile.mkdtemp(prefix="rk-edits-"))
    try:
        (folder / "game.yaml").write_text(_procedures(80, 80))
        editor = Editor(str(folder), env={"RULEKIT_CACHE_DIR": "off"})
        try:
            uri = editor.open(folder / "game.yaml")
            editor.diagnostics(uri, 1)
            server = editor.client._server.pid
            for n in range(1, 161):      # each edit a text the server has not seen
                editor.diagnostics(uri, editor.change(uri, _procedures(80, 80 + n)))
                if n == 40:
                    warm = _resident(server)
            grown = _resident(server) - warm
        finally:
            editor.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    # measured: 16-17 MB (~140 KB an edit) while the caches kept every version in memory; now what
    # each game's last load used (parse_cache.Kept)
    assert grown < 6, f"the server grew {grown} MB over 120 edits"
