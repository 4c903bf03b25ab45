# SPDX-License-Identifier: MIT
"""`rulekit diff`: what a variant changes, with where the variant says it."""
from __future__ import annotations

from rulekit.view.diff import diff_game, render


def test_open_route_changes_one_number():
    changes = diff_game("batavia", ["open-route"])
    values = [c for c in changes if c["path"] == "params.face_up_at_start.value"]
    assert values == [{"kind": "changed", "section": "values", "path": "params.face_up_at_start.value",
                       "old": 10, "new": 35, "where": values[0]["where"]}]
    assert "batavia/variants/open-route.yaml:" in values[0]["where"]
    assert "~ params.face_up_at_start.value: 10 -> 35" in render(changes)


def test_pro_variant_replaces_a_procedure_body_shown_as_a_line_diff():
    text = render(diff_game("goa", ["pro"]))
    assert "## rules" in text
    assert "~ procedures.setup_choices.do" in text
    assert "    -pass" in text and any(line.startswith("    +") and "choose p:" in line for line in text.splitlines())


def test_overlay_that_removes_an_item_and_a_key(write_game):
    folder = write_game({
        "game.yaml": (
            "meta: {title: T}\nplayers: {min: 1, max: 2}\n"
            "components:\n  card:\n    items: [{id: a}, {id: b}]\n"
            "params:\n  x: 1\n  y: 2\n"
            "flow:\n  rounds: 1\n  phases: [{id: p, do: pass}]\n"),
        "variants/small.yaml": (
            "variant: {name: small}\n"
            "components:\n  card:\n    items: [{id: b, remove: true}]\n"
            "params:\n  y: null\n"),
    })
    changes = diff_game(folder, ["small"])
    kinds = {(c["kind"], c["path"]) for c in changes}
    assert ("removed", "components.card.items.b") in kinds
    assert ("removed", "params.y") in kinds
    assert ("removed", "item b") in kinds
    assert render([]) == "no differences"


def test_cli_diff(capsys):
    from rulekit.cli.app import main
    assert main(["diff", "batavia", "--variant", "open-route"]) == 0
    assert "~ params.face_up_at_start.value: 10 -> 35" in capsys.readouterr().out
    assert main(["diff", "batavia", "--variant", "open-rout"]) == 2
    assert "did you mean `open-route`?" in capsys.readouterr().out
