# SPDX-License-Identifier: MIT
"""`rulekit lsp` driven over stdio by a real LSP client (pygls's LanguageClient, tests/lsp_client.py):
diagnostics as you type at their exact range with the quick fix, hover, definition, references,
completion, outline and rename on both shipped games and a small Pig, and bad input that never
crashes the server. One server per module keeps the default run quick; timing is measured in
benchmarks/lsp_latency.py, never asserted here."""
from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsp_client import Editor  # noqa: E402

from rulekit.extras import install_command  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GOA, BATAVIA = ROOT / "games" / "goa", ROOT / "games" / "batavia"

PIG = textwrap.dedent('''\
    meta: {title: Pig}
    players: {min: 2, max: 4, default: 2}
    params:
      target: {value: 30}
    player:
      vars:
        banked: {initial: 0, min: 0}
      zones:
        trophies: {visibility: public}
    procedures:
      turn:
        params: [p]
        do: |
          pot = 0
          while true:
              n = roll(6)
              if n == 1:
                  return
              pot += n
              choose p:
                  "roll":
                      pass
                  "hold {pot}":
                      p.bankd += pot
                      return
    flow:
      phases:
        - id: turns
          do: |
            for p in players:
                turn(p)
      end_after_round_if: "any(q.banked >= target for q in players)"
    scoring:
      categories:
        - {id: banked, points: "p.banked"}
    ''')
BANKD_LINE = 23     # 0-based line of `p.bankd += pot`


@pytest.fixture(scope="module")
def editor():
    opened = Editor(str(ROOT))
    yield opened
    opened.close()


@pytest.fixture
def pig(tmp_path):
    folder = tmp_path / "pig"
    folder.mkdir()
    (folder / "game.yaml").write_text(PIG, encoding="utf-8")
    return folder


def _game_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.yaml")) + sorted((folder / "variants").glob("*.yaml"))


def _codes(diagnostics) -> list:
    return sorted(d.code for d in diagnostics)


def test_initialize_advertises_the_features(editor):
    caps = editor.init.capabilities
    assert editor.init.server_info.name == "rulekit"
    assert caps.hover_provider and caps.definition_provider and caps.references_provider
    assert caps.rename_provider and caps.document_symbol_provider and caps.code_action_provider
    assert "." in caps.completion_provider.trigger_characters


@pytest.mark.parametrize("folder", [GOA, BATAVIA], ids=["goa", "batavia"])
def test_every_game_file_and_variant_opens_clean(editor, folder):
    scripts = [sorted((folder / "scenarios").glob("*.yaml"))[0]]     # one script: all of them are slow
    uris = [editor.open(path) for path in _game_files(folder) + scripts]
    for uri in uris:
        assert list(editor.diagnostics(uri, 1, settle=0.5)) == [], uri


@pytest.mark.slow
@pytest.mark.parametrize("folder", [GOA, BATAVIA], ids=["goa", "batavia"])
def test_every_shipped_script_opens_clean(folder):
    scripts = sorted(folder.glob("scenarios/*.yaml")) + sorted(folder.glob("faq/*.yaml"))
    editor = Editor(str(ROOT))
    try:
        uris = [editor.open(path) for path in scripts]
        for uri in uris:
            assert list(editor.diagnostics(uri, 1, settle=1.0, timeout=600)) == [], uri
    finally:
        editor.close()


def test_a_misspelt_attribute_is_shown_at_its_range_with_a_quick_fix(editor, pig):
    uri = editor.open(pig / "game.yaml")
    found = editor.diagnostics(uri, 1, settle=0.3)
    bankd = next(d for d in found if d.code == "RK0303")
    assert (bankd.range.start.line, bankd.range.start.character) == (BANKD_LINE, 18)
    assert (bankd.range.end.line, bankd.range.end.character) == (BANKD_LINE, 25)
    assert "unknown attribute `bankd`" in bankd.message and "did you mean `banked`?" in bankd.message
    actions = editor.code_actions(uri, [bankd])
    assert [a.title for a in actions] == ["Change to `banked`"]
    (edit,) = actions[0].edit.changes[uri]
    assert edit.new_text == "banked"
    assert (edit.range.start.character, edit.range.end.character) == (20, 25)
    # the fix applied in the buffer: the diagnostics go, unsaved
    fixed = PIG.splitlines()
    fixed[BANKD_LINE] = fixed[BANKD_LINE].replace("bankd", "banked")
    version = editor.change(uri, "\n".join(fixed) + "\n")
    assert list(editor.diagnostics(uri, version, settle=0.3)) == []
    assert "bankd" in (pig / "game.yaml").read_text()       # nothing was written to disk


# A dozen mistakes planted in a Pig buffer: (replace this, by that) -> (code, 0-based line, first character).
PLANTED = [
    ("turn(p)", "trun(p)", "RK0305", 30, 12),                      # a misspelt procedure
    ("turn(p)", "turn(p, 3)", "RK0307", 30, 12),                   # arity
    ("p.banked += pot", "p.banked += nope", "RK0301", BANKD_LINE, 30),   # an unknown name
    ("q.banked >= target", "q.banked >= targt", "RK0301", 31, 39),  # ... in a flow scalar
    ("n = roll(6)", "n = roll(6", "RK0201", 16, 19),                # a parse error in a block
    ("  target: {value: 30}", "  target: {value: 30", "RK0101", 4, 6),     # YAML
    ("meta: {title: Pig}", "meta: {title: Pig, colour: red}", "RK0120", 0, 19),   # schema
    ("pot += n", "pot += n\n             pot -= 1", "RK0201", 18, 18),   # indentation
    ('"hold {pot}":', '"hold {pott}":', "RK0301", 22, 21),          # a hole of a label
    ("          pot += n", "          pot += trophies", "RK0301", 18, 17),   # a player zone read bare
    ("banked: {initial: 0, min: 0}", "banked: {initial: x, min: 0}", "RK0353", 6, 22),   # types
    ("roll(6)", "roll(6, 7, 8)", "RK0307", 15, 14),                # a built-in's arity
    ("for p in players:", "for p in playrs:", "RK0301", 29, 17),
]


def test_planted_mistakes_are_reported_at_their_place(editor, pig):
    uri = editor.open(pig / "game.yaml")
    editor.diagnostics(uri, 1, settle=0.3)
    clean = PIG.replace("p.bankd", "p.banked")
    for old, new, code, line, character in PLANTED:
        assert old in clean, old
        version = editor.change(uri, clean.replace(old, new, 1))
        found = [d for d in editor.diagnostics(uri, version, settle=0.3) if d.code == code]
        assert found, (new, code, _codes(editor.diagnostics(uri, version)))
        assert (found[0].range.start.line, found[0].range.start.character) == (line, character), (new, found[0])


def test_a_buffer_mid_edit_gives_diagnostics_and_the_server_goes_on(editor, pig):
    uri = editor.open(pig / "game.yaml")
    for broken in (PIG.replace('"roll":', '"roll:'), PIG + "procedures:\n  half: {params: [p], do: |\n",
                   "\x00not yaml at all", ":"):
        version = editor.change(uri, broken)
        found = editor.diagnostics(uri, version, settle=0.3)
        assert found and all(d.code.startswith("RK0") for d in found), found
    version = editor.change(uri, PIG)
    assert _codes(editor.diagnostics(uri, version, settle=0.3)) == ["RK0303"]
    assert "roll(" in editor.hover(uri, 15, 18).contents.value


def test_a_failing_handler_is_answered_with_an_error_and_the_server_goes_on(editor, pig, tmp_path):
    uri = editor.open(pig / "game.yaml")
    editor.diagnostics(uri, 1)
    with pytest.raises(Exception, match="not a name"):     # the handler raised: an LSP error response
        editor.rename(uri, 10, 3, "2 turns")
    assert editor.hover((tmp_path / "nowhere.yaml").as_uri(), 0, 0) is None
    assert "turn(p)" in editor.hover(uri, 30, 13).contents.value


def test_hover_shows_a_builtins_signature_and_description(editor):
    uri = editor.open(BATAVIA / "rules.yaml")
    line = (BATAVIA / "rules.yaml").read_text().splitlines()[188]
    shown = editor.hover(uri, 188, line.index("others(") + 2)
    assert "others(player)" in shown.contents.value
    assert "every other player in seat order" in shown.contents.value


def test_hover_shows_a_procedures_rulebook_text_and_a_sets_members(editor):
    uri = editor.open(BATAVIA / "rules.yaml")
    lines = (BATAVIA / "rules.yaml").read_text().splitlines()
    call = next(i for i, t in enumerate(lines) if t.strip().startswith("pay_spread("))
    shown = editor.hover(uri, call, lines[call].index("pay_spread") + 1).contents.value
    assert "pay_spread(winner, amount)" in shown and "The highest bidder pays the bid" in shown
    game = (BATAVIA / "game.yaml").read_text().splitlines()
    row = next(i for i, t in enumerate(game) if t.strip().startswith("companies:"))
    members = editor.hover(editor.open(BATAVIA / "game.yaml"), row, 4).contents.value
    assert "english" in members and "swedish" in members


def test_definition_and_references_of_a_procedure(editor):
    uri = editor.open(BATAVIA / "rules.yaml")
    lines = (BATAVIA / "rules.yaml").read_text().splitlines()
    call = next(i for i, t in enumerate(lines) if t.strip().startswith("pay_spread("))
    declared = next(i for i, t in enumerate(lines) if t.startswith("  pay_spread:"))
    (target,) = editor.definition(uri, call, lines[call].index("pay_spread") + 3)
    assert target.uri == uri and (target.range.start.line, target.range.start.character) == (declared, 2)
    spots = {(Path(r.uri).name, r.range.start.line) for r in editor.references(uri, call, lines[call].index("pay"))}
    assert {("rules.yaml", declared), ("rules.yaml", call)} <= spots


def test_completion_after_a_player_offers_variables_and_zones(editor, pig):
    uri = editor.open(pig / "game.yaml")
    editor.diagnostics(uri, 1)
    text = PIG.splitlines()
    text[BANKD_LINE] = " " * 18 + "p."      # typed where `p.bankd += pot` stood, at its indentation
    editor.change(uri, "\n".join(text) + "\n")
    labels = {item.label for item in editor.completion(uri, BANKD_LINE, len(text[BANKD_LINE]))}
    assert {"banked", "trophies"} <= labels
    elsewhere = {item.label for item in editor.completion(uri, 16, 18)}
    assert {"pot", "n", "p", "turn", "target", "roll", "others", "while"} <= elsewhere


def test_completion_of_goa_player_attributes(editor):
    uri = editor.open(GOA / "rules.yaml")
    lines = (GOA / "rules.yaml").read_text().splitlines()
    row = next(i for i, t in enumerate(lines) if t.rstrip().endswith("p.ships += 1"))
    labels = {item.label for item in editor.completion(uri, row, lines[row].index("p.") + 2)}
    assert {"ships", "colonists", "level_rewarded"} <= labels


def test_rename_a_procedure_and_a_parameter_across_the_game(editor, pig):
    uri = editor.open(pig / "game.yaml")
    editor.diagnostics(uri, 1)
    changes = editor.rename(uri, 10, 3, "take_turn").changes[uri]
    assert sorted((e.range.start.line, e.range.start.character) for e in changes) == [(10, 2), (30, 12)]
    changes = editor.rename(uri, 31, 42, "goal").changes[uri]
    assert sorted((e.range.start.line, e.range.start.character) for e in changes) == [(3, 2), (31, 39)]


def test_rename_reaches_a_variant(editor, tmp_path):
    folder = tmp_path / "batavia"
    shutil.copytree(BATAVIA, folder, ignore=shutil.ignore_patterns("scenarios"))
    uri = editor.open(folder / "rules.yaml")
    editor.diagnostics(uri, 1, settle=0.3)
    lines = (folder / "rules.yaml").read_text().splitlines()
    declared = next(i for i, t in enumerate(lines) if t.startswith("  pirates:"))
    edits = editor.rename(uri, declared, 4, "raiders").changes
    variant = (folder / "variants" / "pirates-once.yaml").as_uri()
    assert [(e.range.start.line, e.new_text) for e in edits[uri] if e.range.start.line == declared] == \
        [(declared, "raiders")]
    key = (folder / "variants" / "pirates-once.yaml").read_text().splitlines().index("  pirates:")
    assert [(e.range.start.line, e.range.start.character) for e in edits[variant]] == [(key, 2)]
    calls = [i for i, t in enumerate(lines) if "pirates()" in t]
    assert calls and {e.range.start.line for e in edits[uri]} >= set(calls)


def test_a_variants_diagnostics_follow_the_base_games_edits(editor, tmp_path):
    folder = tmp_path / "auction"
    shutil.copytree(ROOT / "tests" / "games" / "auction", folder)
    variant = editor.open(folder / "variants" / "rich.yaml")
    assert list(editor.diagnostics(variant, 1, settle=0.5)) == []
    # rename `money` in three unsaved buffers of the base game: the base is clean, the variant names what it lacks
    edited = {}
    for name in ("game.yaml", "rules.yaml", "scoring.yaml"):
        uri = editor.open(folder / name)
        text = (folder / name).read_text().replace("money:", "cash:").replace(".money", ".cash")
        edited[uri] = editor.change(uri, text)
    # the variant keeps its version 1: its set is the one published after the round that saw every edit
    # published the base's last versions (a round publishes its files in path order, variants/ last),
    # never whichever came before a pause (settle=1.5 took the old, empty set when a loaded server was slower)
    seen = max(editor.first_publication(uri, version) for uri, version in edited.items())
    found = editor.diagnostics(variant, 1, since=seen)
    assert [d.code for d in found] == ["RK0130"]
    assert "money" in found[0].message and "with variant `rich`" in found[0].message
    assert found[0].range.start.line == 5


def test_the_outline_lists_sections_phases_and_procedures(editor, pig):
    uri = editor.open(pig / "game.yaml")
    outline = {s.name: s for s in editor.symbols(uri)}
    assert {"meta", "params", "procedures", "flow", "scoring"} <= outline.keys()
    assert [c.name for c in outline["procedures"].children] == ["turn"]
    assert [c.name for c in outline["flow"].children] == ["turns"]


def test_completion_in_a_script_offers_the_legal_actions(tmp_path):
    """A server of its own, asked once it has checked the script (its diagnostics published, the
    child that plays it started): asked at once, on a loaded machine, the completion raced the
    check and the other tests' games and came back empty (`'pass' in []`), 4 times in 21."""
    folder = tmp_path / "auction"
    shutil.copytree(ROOT / "tests" / "games" / "auction", folder)
    script = folder / "scripts" / "next.yaml"
    text = "game: ..\nplayers: 3\nseed: 7\npins:\n  rolls: {dice: [2, 3]}\nactions:\n  - p1: bid 1\n  - p2: \n"
    script.write_text(text)
    editor = Editor(str(folder))
    try:
        uri = editor.open(script, text)
        editor.diagnostics(uri, 1)
        labels = [item.label for item in editor.completion(uri, 7, 8)]
    finally:
        editor.close()
    assert "pass" in labels and "bid 2" in labels and "bid 1" not in labels


def test_without_pygls_the_command_says_how_to_install_it():
    code = ("import sys; sys.modules['pygls'] = None; sys.modules['pygls.lsp'] = None\n"
            "from rulekit.cli.app import main; sys.exit(main(['lsp']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert install_command("lsp") in done.stdout


def test_hover_shows_an_items_properties_and_a_members_set(editor):
    uri = editor.open(GOA / "components.yaml")
    lines = (GOA / "components.yaml").read_text().splitlines()
    row = next(i for i, t in enumerate(lines) if t.strip() == "- id: a-plantation1-ginger")
    shown = editor.hover(uri, row, lines[row].index("ginger") + 1).contents.value
    assert "item of kind `tile_a`" in shown and "`fields: 1`" in shown and "`vp: 1`" in shown
    game = (GOA / "game.yaml").read_text().splitlines()
    row = next(i for i, t in enumerate(game) if t.strip().startswith("spices: [ginger"))
    member = editor.hover(editor.open(GOA / "game.yaml"), row, game[row].index("pepper") + 1).contents.value
    assert "member of the set `spices`" in member


def test_rename_a_zone_and_a_function_across_the_game(editor, pig):
    game = (pig / "game.yaml")
    source = game.read_text().replace(
        "scoring:\n", "functions:\n  held: {params: [q], expr: \"count(q.trophies)\"}\nscoring:\n")
    source = source.replace('points: "p.banked"', 'points: "p.banked + held(p)"')
    game.write_text(source, encoding="utf-8")
    lines = source.splitlines()
    uri = editor.open(game)
    editor.diagnostics(uri, 1)
    declared = next(i for i, t in enumerate(lines) if t.strip().startswith("trophies:"))
    edits = editor.rename(uri, declared, lines[declared].index("trophies") + 1, "cups").changes[uri]
    assert sorted(e.range.start.line for e in edits) == sorted(
        [declared] + [i for i, t in enumerate(lines) if "q.trophies" in t])
    held = next(i for i, t in enumerate(lines) if t.strip().startswith("held:"))
    edits = editor.rename(uri, held, lines[held].index("held") + 1, "won").changes[uri]
    assert sorted(e.range.start.line for e in edits) == sorted(
        [held] + [i for i, t in enumerate(lines) if "held(p)" in t])
