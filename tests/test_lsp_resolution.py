# SPDX-License-Identifier: MIT
"""The language server asks the front end what a name stands for (dsl/resolve.py), through a real
server over stdio: a local or a comprehension's variable called like a zone is no use of the zone
(references and rename leave it alone), and a text being typed still offers its locals."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsp_client import Editor  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

SHADOWS = textwrap.dedent('''\
    meta: {title: Shadows}
    players: {min: 2, max: 2}
    zones:
      pile: {visibility: public}
    player:
      vars:
        score: 0
    procedures:
      turn:
        params: [p]
        do: |
          for pile in [1, 2]:
              p.score += pile
          p.score += sum(pile for pile in [3]) + count(pile)
    flow:
      rounds: 1
      phases:
        - id: turns
          do: |
            for p in players:
                turn(p)
    scoring:
      categories:
        - {id: score, points: "p.score + count(pile)"}
    ''')
DECLARED = 3            # 0-based line of `pile:`


@pytest.fixture(scope="module")
def editor():
    opened = Editor(str(ROOT))
    yield opened
    opened.close()


def test_a_local_called_like_a_zone_is_no_reference_to_it(editor, tmp_path):
    (tmp_path / "g").mkdir()
    game = tmp_path / "g" / "game.yaml"
    game.write_text(SHADOWS, encoding="utf-8")
    uri = editor.open(game)
    editor.diagnostics(uri, 1)
    spots = sorted((r.range.start.line, r.range.start.character) for r in editor.references(uri, DECLARED, 3))
    assert spots == [(3, 2), (23, 43)]          # the declaration, `count(pile)` in the scoring
    edits = editor.rename(uri, DECLARED, 3, "heap").changes[uri]
    assert sorted((e.range.start.line, e.range.start.character) for e in edits) == [(3, 2), (23, 43)]
    hover = editor.hover(uri, 12, 23)       # `+= pile` in the loop: the loop's own variable
    assert hover is None or "zone" not in str(hover.contents).lower()
