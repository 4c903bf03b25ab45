# SPDX-License-Identifier: MIT
"""What `rulekit lsp` publishes after an edit, every publishDiagnostics notification recorded, over
stdio: each open file of the game gets one set per edit, its final one. The server used to publish
after each stage of a round to every open file, so a variant's or a script's squiggles went out
(an empty set) and came back once its own stage ended: they flickered on every keystroke."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsp_client import TIMEOUT, Editor  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
AUCTION = ROOT / "tests" / "games" / "auction"


def _wait_for_more(editor: Editor, uri: str, seen: int, settle: float = 1.0, timeout: float = TIMEOUT) -> None:
    """Until ``uri`` has more than ``seen`` publications and nothing more came for ``settle`` s."""
    deadline = time.perf_counter() + timeout
    while True:
        with editor.changed:
            pubs = editor.published.get(uri, [])
            last = max((p[2] for ps in editor.published.values() for p in ps), default=0.0)
            if len(pubs) > seen and time.perf_counter() - last >= settle:
                return
            if time.perf_counter() > deadline:
                raise TimeoutError(f"no new diagnostics for {uri}")
            editor.changed.wait(0.05)


def _codes(publication) -> list:
    return sorted(d.code for d in publication[1])


def test_each_open_file_gets_one_final_set_per_edit(tmp_path):
    """A game, a variant and a script with a mistake each, all open: an edit of the game's file
    re-checks the three (the game, then the variant, then the script is played), and each gets
    exactly one publication, its mistake still in it: never an empty set first."""
    folder = tmp_path / "auction"
    shutil.copytree(AUCTION, folder)
    variant, script = folder / "variants" / "rich.yaml", folder / "scripts" / "checks.yaml"
    variant.write_text(variant.read_text().replace("money:", "mony:"))
    script.write_text(script.read_text().replace("p2: bid 2", "p2: bdi 2"))
    editor = Editor(str(folder))
    try:
        uris = {name: editor.open(path) for name, path in
                (("game", folder / "game.yaml"), ("variant", variant), ("script", script))}
        _wait_for_more(editor, uris["script"], 0)
        expected = {"game": [], "variant": ["RK0130"], "script": ["RK5011"]}
        assert {name: _codes(editor.published[uri][-1]) for name, uri in uris.items()} == expected
        game_text = (folder / "game.yaml").read_text()
        for n in range(3):          # three edits of the game's file, each waited for
            seen = {name: len(editor.published[uri]) for name, uri in uris.items()}
            version = editor.change(uris["game"], game_text + "\n" * (n + 1))
            _wait_for_more(editor, uris["script"], seen["script"])
            new = {name: editor.published[uri][seen[name]:] for name, uri in uris.items()}
            assert {name: [_codes(p) for p in pubs] for name, pubs in new.items()} == \
                {name: [codes] for name, codes in expected.items()}, n
            assert new["game"][0][0] == version
    finally:
        editor.close()


def test_an_edit_that_fixes_a_script_publishes_its_empty_set_once(tmp_path):
    """The other way round: the script's mistake fixed in its buffer, its squiggle goes in one
    publication, and the variant's stays, published once with it."""
    folder = tmp_path / "auction"
    shutil.copytree(AUCTION, folder)
    variant, script = folder / "variants" / "rich.yaml", folder / "scripts" / "checks.yaml"
    variant.write_text(variant.read_text().replace("money:", "mony:"))
    clean = script.read_text()
    script.write_text(clean.replace("p2: bid 2", "p2: bdi 2"))
    editor = Editor(str(folder))
    try:
        uris = {"variant": editor.open(variant), "script": editor.open(script)}
        _wait_for_more(editor, uris["script"], 0)
        seen = {name: len(editor.published[uri]) for name, uri in uris.items()}
        version = editor.change(uris["script"], clean)
        _wait_for_more(editor, uris["script"], seen["script"])
        new = {name: [(p[0], _codes(p)) for p in editor.published[uri][seen[name]:]] for name, uri in uris.items()}
        assert new == {"variant": [(1, ["RK0130"])], "script": [(version, [])]}
    finally:
        editor.close()
