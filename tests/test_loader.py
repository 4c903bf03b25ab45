# SPDX-License-Identifier: MIT
"""The located YAML loader: positions, refusals, overlays and multi-file games."""
from __future__ import annotations

import textwrap

import pytest

import rulekit
from rulekit.content.loader import MAX_NODES, flatten, load_yaml, merge
from rulekit.errors import DiagnosticReport, UsageError
from rulekit.games import load_tree

from conftest import codes, game_dir, where


def load(text: str, path: str = "doc.yaml"):
    return load_yaml(path, textwrap.dedent(text))


def report_of(text: str, path: str = "doc.yaml") -> DiagnosticReport:
    with pytest.raises(DiagnosticReport) as info:
        load(text, path)
    return info.value


# ------------------------------------------------------------------ positions

def test_positions_of_values_and_keys():
    node = load("""\
        meta:
          title: Tiny
        players: {min: 2, max: 4}
        list:
          - first
          -   second
        """)
    data, smap = flatten(node)
    assert data == {"meta": {"title": "Tiny"}, "players": {"min": 2, "max": 4}, "list": ["first", "second"]}
    assert (smap.keys[("meta", "title")].line, smap.keys[("meta", "title")].column) == (2, 3)
    assert (smap.values[("meta", "title")].line, smap.values[("meta", "title")].column) == (2, 10)
    assert (smap.keys[("players",)].line, smap.keys[("players",)].column) == (3, 1)
    assert (smap.values[("players", "max")].line, smap.values[("players", "max")].column) == (3, 24)
    assert (smap.values[("list", 1)].line, smap.values[("list", 1)].column) == (6, 7)
    # a same-line value knows where it ends (end column is one past the last character)
    title = smap.values[("meta", "title")]
    assert (title.end_line, title.end_column) == (2, 14)


def test_span_walks_up_to_the_nearest_known_parent():
    data, smap = flatten(load("a:\n  b: 1\n"))
    assert smap.span(("a", "b", "no", "such")) == smap.values[("a", "b")]
    assert smap.span(("a", "b"), key=True) == smap.keys[("a", "b")]
    assert smap.span(("zzz",)).line == 1  # falls back to the document


def test_block_scalar_records_its_text_origin():
    data, smap = flatten(load("""\
        proc:
          do: |
            x = 1
            y = 2
        """))
    origin = smap.text(("proc", "do"))
    assert origin.style == "|" and origin.indent == 4
    # DSL line 2, column 1 is the `y` on file line 4, column 5
    span = origin.locate(2, 1)
    assert (span.line, span.column) == (4, 5)


def test_scalars_resolve_like_yaml_core():
    data, _ = flatten(load("""\
        a: 12
        b: "12"
        c: true
        d: null
        e: 1.5
        f: 0x10
        g: 2024-01-01
        """))
    assert data == {"a": 12, "b": "12", "c": True, "d": None, "e": 1.5, "f": 16, "g": "2024-01-01"}


# ------------------------------------------------------------------ refusals

def test_duplicate_key_reports_both_locations():
    report = report_of("""\
        vars:
          n: 0
          m: 1
          n: 2
        """)
    (diag,) = report.diagnostics
    assert diag.code == "RK0102"
    assert "duplicate key `n`" in diag.message
    assert (diag.span.line, diag.span.column) == (4, 3)
    ((label, first),) = diag.related
    assert label == "first defined here"
    assert (first.line, first.column) == (2, 3)
    rendered = report.render()
    assert "doc.yaml:4:3" in rendered and "doc.yaml:2:3: first defined here" in rendered


def test_duplicate_key_in_a_game_folder():
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(game_dir("broken/duplicate_key"))
    (diag,) = info.value.diagnostics
    assert diag.code == "RK0102"
    assert where(diag) == ("game.yaml", 6, 3)
    assert diag.related[0][1].line == 4


@pytest.mark.parametrize("text", ["", "# only a comment\n", "\n\n"])
def test_empty_file(text):
    report = report_of(text)
    assert codes(report) == ["RK0109"]
    assert "empty" in report.diagnostics[0].message


def test_tabs_are_refused_with_a_hint():
    report = report_of("a:\n\tb: 1\n")
    (diag,) = report.diagnostics
    assert diag.code == "RK0101"
    assert (diag.span.line, diag.span.column) == (2, 1)
    assert "tabs" in diag.help


def test_invalid_yaml_points_at_the_problem():
    (diag,) = report_of("a: [1, 2\nb: 3\n").diagnostics
    assert diag.code == "RK0101"
    assert diag.message.startswith("invalid YAML")
    assert diag.span.line == 2


def test_bad_utf8_names_the_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"meta:\n  title: ok\n  other: caf\xe9\n")
    with pytest.raises(DiagnosticReport) as info:
        load_yaml(str(path))
    (diag,) = info.value.diagnostics
    assert diag.code == "RK0107"
    assert diag.span.line == 3
    assert "UTF-8" in diag.message


def test_missing_file_is_a_diagnostic(tmp_path):
    with pytest.raises(DiagnosticReport) as info:
        load_yaml(str(tmp_path / "nope.yaml"))
    assert codes(info.value) == ["RK0100"]


@pytest.mark.parametrize("text", [
    "a: !!python/object:os.system {x: 1}\n",
    "a: !!python/object/apply:os.system ['echo hi']\n",
    "a: !!python/name:os.system ''\n",
    "a: !!python/none ''\n",
    "a: !custom 1\n",
])
def test_object_and_custom_tags_are_refused(text):
    (diag,) = report_of(text).diagnostics
    assert diag.code == "RK0104"
    assert (diag.span.line, diag.span.column) == (1, 4)
    assert "not allowed" in diag.message


def test_standard_tags_are_fine():
    data, _ = flatten(load("a: !!str 12\nb: !!int 7\nc: !!float 1\n"))
    assert data == {"a": "12", "b": 7, "c": 1.0}


def test_merge_keys_are_refused():
    (diag,) = report_of("""\
        base: &b {x: 1}
        other:
          <<: *b
          y: 2
        """).diagnostics
    assert diag.code == "RK0105"
    assert (diag.span.line, diag.span.column) == (3, 3)
    assert "overlay" in diag.help


def test_merge_key_in_a_game_folder():
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(game_dir("broken/merge_key"))
    assert [(d.code, where(d)) for d in info.value.diagnostics] == [("RK0105", ("game.yaml", 6, 5))]


def test_alias_bomb_hits_the_node_limit():
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for prev, name in zip("abcdefg", "bcdefgh"):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    text = "\n".join(lines) + "\n"   # 10**8 values once expanded
    (diag,) = report_of(text).diagnostics
    assert diag.code == "RK0106"
    assert str(MAX_NODES) in diag.message


def test_small_aliases_are_fine():
    data, _ = flatten(load("a: &a [1, 2]\nb: *a\n"))
    assert data == {"a": [1, 2], "b": [1, 2]}


def test_all_refusals_of_a_file_are_reported_together():
    report = report_of("""\
        a: 1
        a: 2
        b: !!python/name:os.system ''
        """)
    assert codes(report) == ["RK0102", "RK0104"]


# ------------------------------------------------------------------ overlays

def merged(base: str, overlay: str):
    return flatten(merge(load(base, "base.yaml"), load(overlay, "overlay.yaml")))[0]


def test_overlay_merges_mappings_key_by_key():
    assert merged("a: {x: 1, y: 2}\nb: 3\n", "a: {y: 20, z: 30}\n") == {"a": {"x": 1, "y": 20, "z": 30}, "b": 3}


def test_overlay_null_removes_a_key():
    assert merged("a: {x: 1, y: 2}\nb: 3\n", "a: {x: null}\nb: null\n") == {"a": {"y": 2}}


def test_overlay_replaces_scalars_and_plain_lists():
    assert merged("a: 1\nl: [1, 2, 3]\n", "a: two\nl: [9]\n") == {"a": "two", "l": [9]}


BASE_PHASES = """\
    phases:
      - {id: one, do: a}
      - {id: two, do: b, when: c}
      - {id: three, do: d}
    """


def test_overlay_merges_lists_by_id():
    out = merged(BASE_PHASES, """\
        phases:
          - {id: two, do: B}
          - {id: four, do: e}
        """)
    assert out["phases"] == [
        {"id": "one", "do": "a"},
        {"id": "two", "do": "B", "when": "c"},    # merged into, `when` kept
        {"id": "three", "do": "d"},
        {"id": "four", "do": "e"},               # a new id is appended
    ]


def test_overlay_remove_drops_an_entry():
    out = merged(BASE_PHASES, "phases:\n  - {id: two, remove: true}\n  - {id: ghost, remove: true}\n")
    assert [p["id"] for p in out["phases"]] == ["one", "three"]


def test_overlay_replace_swaps_an_entry_whole():
    out = merged(BASE_PHASES, "phases:\n  - {id: two, replace: true, do: X}\n")
    assert out["phases"][1] == {"id": "two", "do": "X"}   # `when` gone, no `replace` key left
    assert [p["id"] for p in out["phases"]] == ["one", "two", "three"]


def test_overlay_keeps_positions_of_both_files():
    tree = merge(load("a: {x: 1}\n", "base.yaml"), load("\n\na: {y: 2}\n", "overlay.yaml"))
    _, smap = flatten(tree)
    assert smap.values[("a", "x")].path == "base.yaml"
    assert (smap.values[("a", "y")].path, smap.values[("a", "y")].line) == ("overlay.yaml", 3)


def test_variant_overlay_through_load_game(load):
    base = load("auction")
    rich = load("auction", ("rich",))
    assert base.variables.pvars["money"] == 5 and rich.variables.pvars["money"] == 9
    # the merged entry keeps what the overlay did not mention
    assert rich.variables.pbounds["money"] == (0, None) and rich.variables.pvis["money"] == "owner"
    assert rich.content_hash != base.content_hash
    assert rich.variants == ("rich",)


def test_variant_with_id_keyed_phases(load):
    game = load("auction", ("payday",))
    assert "phase:payday" in game.program.procedures and "phase:auction" in game.program.procedures
    assert game.data["flow"]["rounds"] == 3
    assert "tiebreak" not in game.data["scoring"]          # removed with null
    state = rulekit.new_game(game, 2, seed=1)
    assert state.g["round"] == 1


def test_unknown_variant_is_a_usage_error():
    with pytest.raises(UsageError) as info:
        rulekit.load_game(game_dir("auction"), ("rihc",))
    assert "did you mean `rich`" in str(info.value)


# ------------------------------------------------------------------ several files

def test_include_merges_sections_of_several_files():
    tree = load_tree(game_dir("auction"))
    data, smap = flatten(tree)
    assert "include" not in data
    assert set(data["procedures"]) == {"auction", "pay"}          # from rules.yaml
    assert set(data["functions"]) == {"gem_points"}                # from scoring.yaml
    assert smap.keys[("procedures", "pay")].path.endswith("rules.yaml")
    assert smap.keys[("functions", "gem_points")].path.endswith("scoring.yaml")
    assert smap.keys[("meta",)].path.endswith("game.yaml")


def test_mapping_sections_may_be_split_over_files(write_game):
    folder = write_game({
        "game.yaml": """\
            meta: {title: Split}
            players: {min: 1, max: 2}
            include: [more.yaml]
            vars: {a: 1}
            flow: {rounds: 1, phases: [{id: main, do: "b = a"}]}
            """,
        "more.yaml": "vars: {b: 2}\n",
    })
    game = rulekit.load_game(folder)
    assert game.variables.gvars["a"] == 1 and game.variables.gvars["b"] == 2


def test_a_key_defined_in_two_files():
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(game_dir("broken/two_files"))
    first, second = info.value.diagnostics
    assert first.code == second.code == "RK0112"
    # `one` is a mapping in both files: the clash is its `expr`, named with the full path
    assert "`functions.one.expr` is defined in two files" in first.message
    assert where(first) == ("b.yaml", 3, 5)
    assert (first.related[0][1].path.endswith("game.yaml"), first.related[0][1].line) == (True, 8)
    assert "section `setup` is defined in two files" in second.message
    assert where(second) == ("b.yaml", 4, 1)
    assert second.related[0][1].path.endswith("a.yaml")


def test_missing_include_suggests_the_file():
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(game_dir("broken/missing_include"))
    (diag,) = info.value.diagnostics
    assert diag.code == "RK0111"
    assert where(diag) == ("game.yaml", 5, 5)
    assert diag.help == "did you mean `rules.yaml`?"


def test_errors_in_included_files_are_collected(write_game):
    folder = write_game({
        "game.yaml": """\
            meta: {title: Bad parts}
            players: {min: 1, max: 2}
            include: [a.yaml, b.yaml]
            flow: {rounds: 1, phases: [{id: main, do: pass}]}
            """,
        "a.yaml": "vars:\n  x: 1\n  x: 2\n",
        "b.yaml": "- just\n- a list\n",
    })
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(folder)
    assert codes(info.value) == ["RK0102", "RK0110"]
    assert [where(d)[0] for d in info.value.diagnostics] == ["a.yaml", "b.yaml"]


def test_a_folder_without_game_yaml():
    with pytest.raises(UsageError) as info:
        rulekit.load_game(game_dir("broken/no_game_yaml"))
    assert "has no game.yaml" in str(info.value)


def test_game_yaml_path_works_like_its_folder(load):
    game = rulekit.load_game(game_dir("auction") + "/game.yaml")
    assert game.content_hash == load("auction").content_hash
