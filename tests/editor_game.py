# SPDX-License-Identifier: MIT
"""The game the editor tests open (tests/test_editor_*.py): the README's Pig with one mistake, so
that each real editor, driven headless with docs/editors.md's snippet, must show rulekit's diagnostic
at a known place."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def game_with_a_mistake() -> tuple[str, str]:
    """The README's Pig with `p.banked` misspelt, and where the mistake is (line:column)."""
    readme = (ROOT / "README.md").read_text()
    [text] = re.findall(r"```yaml\n# file: pig/game.yaml\n(.*?)```", readme, re.S)
    text = text.replace("p.banked += pot", "p.bankd += pot")
    [(line, column)] = [(n, row.index("p.bankd") + 1) for n, row in enumerate(text.splitlines(), 1) if "p.bankd" in row]
    return text, f"{line}:{column}"


def lay_out(where: Path, folder: str, files: dict) -> Path:
    """The game with a mistake in ``where/folder`` and the editor's ``files`` (name -> text) beside
    it; returns the file the editor's driver writes what it saw to."""
    game = where / folder
    game.mkdir()
    (game / "game.yaml").write_text(game_with_a_mistake()[0])
    for name, text in files.items():
        (where / name).write_text(text)
    return where / "result.txt"
