# SPDX-License-Identifier: MIT
"""A quick fix for every diagnostic that says "did you mean", whatever its code, through `rulekit lsp`
over stdio: a mistake planted in a buffer, the code action asked for its diagnostic, and its edit
applied to the buffer must give back the text as it was before the mistake, so the fix replaces
exactly the misspelt word (a call's name, a keyword left of its value, a YAML key, a script's
action), and only that."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsp_client import Editor  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

# (game, file, the text, the mistake in its place, the code that says "did you mean")
CASES = [
    ("auction", "rules.yaml", "who.money -= amount", "who.money -= amont", "RK0301"),
    ("auction", "rules.yaml", "range(bid + 1, p.money + 1)", "range(bid + 1, p.mony + 1)", "RK0303"),
    ("auction", "rules.yaml", "pay(high, bid)", "pya(high, bid)", "RK0305"),          # a procedure
    ("auction", "rules.yaml", "count(passed)", "cuont(passed)", "RK0305"),             # a built-in
    ("auction", "scoring.yaml", '"gem_points(p)"', '"gem_pionts(p)"', "RK0305"),        # a function, quoted
    ("auction", "game.yaml", "draw(bank, to=lot, n=n)", "draw(bank, too=lot, n=n)", "RK0308"),   # left of its value
    ("auction", "game.yaml", "start: bank", "start: bnak", "RK0332"),
    ("auction", "game.yaml", "  rounds: 2", "  rouns: 2", "RK0120"),
    ("auction", "game.yaml", "  lot: {visibility: public}", "  lot: {visibility: publc}", "RK0122"),
    ("auction", "variants/rich.yaml", "money: {initial: 9}", "mony: {initial: 9}", "RK0130"),
    ("auction", "scripts/checks.yaml", "  - p2: bid 2", "  - p2: bdi 2", "RK5011"),   # an action of two words
    ("goa", "rules.yaml", "include extras(p)", "include extra(p)", "RK0317"),
    ("goa", "rules.yaml", 'items("auction_marker")', 'items("auction_markr")', "RK0319"),
    ("goa", "components.yaml", "spice: ginger", "spice: gingr", "RK0355"),
]


@pytest.fixture(scope="module")
def editor(tmp_path_factory):
    root = tmp_path_factory.mktemp("fixes")
    shutil.copytree(ROOT / "tests" / "games" / "auction", root / "auction")
    shutil.copytree(ROOT / "games" / "goa", root / "goa", ignore=shutil.ignore_patterns("scenarios", "faq"))
    opened = Editor(str(root))
    opened.root = root
    yield opened
    opened.close()


def _applied(text: str, edits) -> str:
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        assert edit.range.start.line == edit.range.end.line, edit
        row = lines[edit.range.start.line]
        lines[edit.range.start.line] = row[:edit.range.start.character] + edit.new_text + row[edit.range.end.character:]
    return "\n".join(lines)


@pytest.mark.parametrize(("game", "name", "right", "wrong", "code"), CASES,
                         ids=[f"{c[4]}-{c[3].strip()[:24]}" for c in CASES])
def test_each_did_you_mean_has_a_quick_fix_that_undoes_the_typo(editor, game, name, right, wrong, code):
    path = editor.root / game / name
    clean = path.read_text(encoding="utf-8")
    assert clean.count(right) >= 1, right
    planted = clean.replace(right, wrong, 1)
    uri = path.resolve().as_uri()
    version = editor.change(uri, planted) if uri in editor.versions else (editor.open(path, planted) and 1)
    try:
        found = editor.diagnostics(uri, version, settle=0.5)
        meant = [d for d in found if "did you mean" in d.message]
        assert code in [d.code for d in meant], [(d.code, d.message) for d in found]
        for diagnostic in meant:        # every one that says it, not only the code planted
            actions = editor.code_actions(uri, [diagnostic])
            assert actions and len(actions) == 1, (diagnostic.code, diagnostic.message)
            assert actions[0].kind == "quickfix" and list(actions[0].diagnostics) == [diagnostic]
            assert list(actions[0].edit.changes) == [uri]
            assert _applied(planted, actions[0].edit.changes[uri]) == clean, diagnostic.message
    finally:
        editor.change(uri, clean)
