# SPDX-License-Identifier: MIT
"""The shipped content as an editor shows it: the real yaml-language-server (installed once
from the npm registry into ``.tools/``, see ``tests/tools/yaml_language_server.py``) opens
every content file with the schema its modeline names. Every file must open without a
diagnostic, and a mistake planted in each kind of file must be flagged at its line. Skipped,
with the reason, where Node.js or the network is missing; ``-m "not editor"`` leaves it out.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tools.yaml_language_server import LanguageServer, installed

pytestmark = [pytest.mark.editor, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]

# (a shipped file, what to plant in a copy of it, where: "end" or after the line that starts with this,
#  a fragment of the message the editor must show at the planted line)
PLANTED = {
    "game": ("games/goa/game.yaml", "playerz: {min: 2}\n", "end", "Property playerz is not allowed"),
    "game part": ("games/batavia/rules.yaml", "procedurez:\n  turn: {do: pass}\n", "end",
                  "Property procedurez is not allowed"),
    "variant": ("games/goa/variants/pro.yaml", "procedurez:\n  turn: {do: pass}\n", "end",
                "Property procedurez is not allowed"),
    "script": ("games/batavia/scenarios/auction-payment.yaml", "  - expect: 3\n", "actions:",
               "`expect:` takes a mapping"),
    "script step": ("examples/for-sale/scenarios/three-player-game.yaml", "  - refuse: {actoin: pass}\n", "actions:",
                    "`refuse:` takes the action that must be refused"),
}


def _content_files() -> list[Path]:
    return sorted(p for folder in ("games", "examples") for p in (ROOT / folder).rglob("*.yaml"))


@pytest.fixture(scope="module")
def server():
    script = installed()
    if isinstance(script, str):
        pytest.skip(script)
    with LanguageServer(script, ROOT) as running:
        yield running


def _shown(path: Path, diagnostics: list) -> list[str]:
    return [f"{path.relative_to(ROOT)}:{d['range']['start']['line'] + 1}: {d['message']}" for d in diagnostics]


def test_every_shipped_content_file_opens_without_a_diagnostic(server):
    files = _content_files()
    assert len(files) > 40
    found = server.diagnostics({path.as_uri(): path.read_text(encoding="utf-8") for path in files})
    problems = [line for path in files for line in _shown(path, found[path.as_uri()])]
    assert problems == []


def _plant(text: str, mistake: str, where: str) -> tuple[str, int]:
    """The text with the mistake in it, and the 1-based line the mistake starts on."""
    lines = text.splitlines(keepends=True)
    at = len(lines) if where == "end" else next(i for i, line in enumerate(lines) if line.startswith(where)) + 1
    return "".join(lines[:at] + [mistake] + lines[at:]), at + 1


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_a_planted_mistake_is_flagged_at_its_line(server, kind):
    shipped, mistake, where, fragment = PLANTED[kind]
    original = ROOT / shipped
    text, line = _plant(original.read_text(encoding="utf-8"), mistake, where)
    copy = original.with_name(f"planted-{original.name}")     # beside the original: the modeline is relative
    found = server.diagnostics({copy.as_uri(): text})[copy.as_uri()]
    shown = _shown(copy, found)
    assert found and {d["range"]["start"]["line"] + 1 for d in found} == {line}, shown
    assert all(fragment in d["message"] for d in found), shown
