# SPDX-License-Identifier: MIT
"""Hostile input, round 3 (issue 51): the language server and the folder it opens, driven over stdio
by a real client (tests/lsp_client.py), one server for the module.

- a script whose ``position:`` never ends kept the checker for ever (no other game's diagnostics
  came); it now plays in a bounded child process: "this position did not finish in N s" on its line;
- completions of a script's actions that never end filled the thread pool (go-to-definition in
  another game never answered); each is now a bounded child, dropped by the next request or edit;
- a script building values without end took the server to 2.9 GB; the child stops near its bound;
- rename edited a file of another folder through a variant linked to it, and took `while`,
  `count`, `players`, `true` and names already in scope; each is refused, saying why.
"""
from __future__ import annotations

import asyncio
import json
import os
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsp_client import TIMEOUT, Editor  # noqa: E402
from lsprotocol import types  # noqa: E402
from pygls.uris import to_fs_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
AUCTION = ROOT / "tests" / "games" / "auction"
BOUND = 2       # seconds a script may run in the server's children here (RULEKIT_LSP_SCRIPT_SECONDS)
FOREVER = "game: ..\nplayers: 3\nseed: 7\nposition: |\n" \
          "  x = sum(a * b for a in range(1000000) for b in range(1000000))\nactions:\n  - p1: bid 1\n"
GROWING = "game: ..\nplayers: 3\nseed: 7\nposition: |\n  xs = [0] * 999999\n  keep = []\n  while true:\n" \
          "      keep = keep + [xs[1:]]\nactions:\n  - p1: bid 1\n"


@pytest.fixture(scope="module")
def editor():
    opened = Editor(str(ROOT), env={"RULEKIT_LSP_SCRIPT_SECONDS": str(BOUND)})
    yield opened
    opened.close()


@pytest.fixture
def auction(tmp_path):
    folder = tmp_path / "auction"
    shutil.copytree(AUCTION, folder)
    return folder


def _found(editor, uri: str, timeout: float = TIMEOUT) -> list:
    """The first diagnostics published for ``uri`` that are not empty (a round publishes the game's
    stage, clean for the script, before the script's own)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = editor.diagnostics(uri, 1, timeout=deadline - time.monotonic())
        if found:
            return found
        with editor.changed:
            editor.changed.wait(0.1)
    raise TimeoutError(f"no diagnostics for {uri}")


def _script(folder: Path, name: str, text: str) -> Path:
    path = folder / "scripts" / name
    path.write_text(text)
    return path


def test_a_position_that_never_ends_is_stopped_on_its_line_and_other_games_go_on(editor, auction, tmp_path):
    uri = editor.open(_script(auction, "forever.yaml", FOREVER))
    found = _found(editor, uri)
    # the CPU bound stops the step on its own statement (line 4); the wall-clock bound, a child
    # killed from outside, can only say the position: line (3)
    assert [d.code for d in found] == ["RK4016"] and found[0].range.start.line in (3, 4), found
    said = (f"this position did not finish in {BOUND} s", f"has computed for {BOUND} s of CPU time")
    assert any(text in found[0].message for text in said), found[0].message     # wall-clock or CPU bound first
    other = tmp_path / "other"
    shutil.copytree(AUCTION, other)
    text = (other / "rules.yaml").read_text().replace(".money", ".mony", 1)
    assert [d.code for d in _found(editor, editor.open(other / "rules.yaml", text))] == ["RK0303"]


def test_completions_that_never_end_are_dropped_and_other_requests_answer(editor, auction, tmp_path):
    uri = editor.open(_script(auction, "forever.yaml", FOREVER + "  - p2: \n"))
    asked = [asyncio.run_coroutine_threadsafe(editor.client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri), position=types.Position(7, 8))), editor.loop)
        for _ in range(8)]
    other = tmp_path / "other"
    shutil.copytree(AUCTION, other)
    rules = editor.open(other / "rules.yaml")
    line = next(i for i, t in enumerate((other / "rules.yaml").read_text().splitlines()) if "pay(" in t)
    column = (other / "rules.yaml").read_text().splitlines()[line].index("pay(") + 1
    found = editor.definition(rules, line, column)
    assert found and found[0].uri.endswith("rules.yaml")
    for future in asked:            # each ends: the first seven dropped for the eighth, that one at its bound
        answer = future.result(timeout=TIMEOUT)
        assert list(answer.items if isinstance(answer, types.CompletionList) else answer) == []


def _resident(pid: int) -> int:
    """A process's resident memory in MB (/proc)."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:"))) // 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's memory in /proc")
def test_a_script_building_values_without_end_leaves_the_servers_memory_flat(editor, auction):
    server = editor.client._server.pid
    before = _resident(server)
    uri = editor.open(_script(auction, "growing.yaml", GROWING))
    found = _found(editor, uri)
    # on the statement that builds (line 7), or on the position: line (3) when the child is stopped
    assert [d.code for d in found] == ["RK4024"] and found[0].range.start.line in (3, 7), found
    assert _resident(server) < before + 200


def _renamed(editor, uri, line, column, new):
    return editor.rename(uri, line, column, new)


@pytest.mark.parametrize("new, says", [
    ("while", "a word of the effect language"), ("true", "a word of the effect language"),
    ("players", "a word of the effect language"), ("count", "is a built-in function"),
    ("starter", "the game already has a variable `starter`"), ("gem_points", "already has a function"),
])
def test_rename_refuses_words_built_ins_and_names_in_scope(editor, auction, new, says):
    uri = editor.open(auction / "rules.yaml")
    editor.diagnostics(uri, 1)
    lines = (auction / "rules.yaml").read_text().splitlines()
    line = next(i for i, t in enumerate(lines) if t.startswith("  pay:"))
    with pytest.raises(Exception, match=says):
        _renamed(editor, uri, line, 3, new)
    assert _renamed(editor, uri, line, 3, "settle").changes         # a free name is still taken


def test_rename_never_edits_a_file_outside_the_game_through_a_link(editor, auction, tmp_path):
    """A variant linked to a file of another game folder: the rename's edits stay inside this game's
    folder (the index leaves the link out; navigation.rename_spans refuses a span outside it too)."""
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(AUCTION, elsewhere)
    os.remove(auction / "variants" / "rich.yaml")
    os.symlink(elsewhere / "variants" / "rich.yaml", auction / "variants" / "rich.yaml")
    uri = editor.open(auction / "game.yaml")
    editor.diagnostics(uri, 1, settle=0.5)
    line = next(i for i, t in enumerate((auction / "game.yaml").read_text().splitlines()) if "money:" in t)
    edits = _renamed(editor, uri, line, 5, "cash").changes
    assert edits and all(Path(to_fs_path(u)).resolve().is_relative_to(auction.resolve()) for u in edits), edits
    assert "rich.yaml" not in " ".join(edits)


def test_the_childs_answers_are_data_read_back_whole():
    """A child's answer crosses its pipe as JSON data, read back into diagnostics and texts only
    (a pickle would run whatever code the bytes name), with every field of a diagnostic kept."""
    from rulekit.errors import Diagnostic
    from rulekit.lsp.bounded import answer_data, answer_of
    from rulekit.source import Span
    found = {"/g/s.yaml": (Diagnostic("RK4020", "past the end", Span("/g/s.yaml", 3, 4, 3, 9), "count first",
                                      ("a note",), (("set here", Span("/g/v.yaml", 4, 14)),), "warning"),)}
    assert answer_of(json.loads(json.dumps(answer_data(found)))) == found
    actions = [("take t-3", "take a tile (#1)"), ("pass", "pass")]      # (notation, as the seat reads it)
    assert answer_of(json.loads(json.dumps(answer_data(actions)))) == actions
