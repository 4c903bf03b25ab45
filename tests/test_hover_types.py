# SPDX-License-Identifier: MIT
"""The language server's hover says what a local name holds, as the front end typed it (issue #50:
the server asks the front end, through the game it loaded, Game.name_kinds), through a real
server over stdio: a name a loop over the players binds holds a player, one over a zone an item,
`p` of a scoring category a player, a local given numbers a number."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsp_client import Editor  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

GAME = textwrap.dedent('''\
    meta: {title: Hover}
    players: {min: 2, max: 2}
    zones:
      deck: {}
    player:
      vars:
        score: 0
    components:
      card:
        items:
          - {id: c1, value: 2}
        start: deck
    procedures:
      tally:
        params: [p]
        do: |
          total = 0
          for c in deck:
              total += c.value
          p.score += total + count([q for q in players if q.score > 0])
    flow:
      rounds: 1
      phases:
        - id: turns
          do: |
            for p in players:
                tally(p)
    scoring:
      categories:
        - {id: score, points: "p.score"}
    ''')


@pytest.fixture(scope="module")
def editor():
    opened = Editor(str(ROOT))
    yield opened
    opened.close()


def _shown(editor, uri, line: int, word: str, nth: int = 0) -> str:
    text = GAME.splitlines()[line]
    column = text.index(word) if nth == 0 else text.index(word, text.index(word) + 1)
    hover = editor.hover(uri, line, column)
    assert hover is not None, (line, word)
    return hover.contents.value


def test_hover_says_what_a_local_holds(editor, tmp_path):
    (tmp_path / "g").mkdir()
    game = tmp_path / "g" / "game.yaml"
    game.write_text(GAME, encoding="utf-8")
    uri = editor.open(game)
    assert not editor.diagnostics(uri, 1)
    lines = GAME.splitlines()
    loop = next(i for i, line in enumerate(lines) if "total += c.value" in line)
    assert "it holds an item" in _shown(editor, uri, loop, "c.value")
    assert "it holds a number" in _shown(editor, uri, loop, "total")
    last = loop + 1
    assert "it holds a player" in _shown(editor, uri, last, "q.score")
    points = next(i for i, line in enumerate(lines) if "points:" in line)
    assert "it holds a player" in _shown(editor, uri, points, "p.score")
    # `p` of the procedure: every call in the game gives it a player (dsl/signatures.py)
    assert "it holds a player" in _shown(editor, uri, last, "p.score")


def test_a_game_that_does_not_load_says_no_types(editor, tmp_path):
    (tmp_path / "h").mkdir()
    game = tmp_path / "h" / "game.yaml"
    game.write_text(GAME.replace("p.score += total", "p.scor += total"), encoding="utf-8")
    uri = editor.open(game)
    assert editor.diagnostics(uri, 1)
    lines = GAME.splitlines()
    loop = next(i for i, line in enumerate(lines) if "total += c.value" in line)
    shown = _shown(editor, uri, loop, "c.value")
    assert "a local name of this text" in shown and "it holds" not in shown
