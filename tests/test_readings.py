# SPDX-License-Identifier: MIT
"""Doubtful readings are switchable: each ruling that chose between two readings of a rulebook ships the
other reading as a variant, and a pair of scripts tells the two apart (each fails under the other reading)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulekit.errors import RulekitError
from rulekit.testing.script import run_script

GAMES = Path(__file__).resolve().parent.parent / "games"

# (game, variant, the script of the default reading, the script of the variant's reading)
READINGS = [
    ("batavia", "pirates-once", "scenarios/pirates-repeat.yaml", "scenarios/pirates-once.yaml"),
    ("goa", "flag-kept-no-card", "scenarios/flag-kept-takes-card.yaml", "scenarios/flag-kept-no-card.yaml"),
    ("goa", "colonists-card-only", "scenarios/r4-tile-mid-founding.yaml", "scenarios/colonists-card-only.yaml"),
]


def swapped(path: Path, variant: str | None) -> Path:
    """The script with its variants replaced, written beside it (so `game: ..` still holds)."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("variants:")]
    if variant:
        lines.insert(lines.index("game: ..") + 1, f"variants: [{variant}]")
    target = path.with_name(f"swapped-{path.name}")
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


@pytest.mark.parametrize("game, variant, default, other", READINGS, ids=[r[1] for r in READINGS])
def test_each_reading_has_a_script_that_fails_under_the_other(tmp_path, game, variant, default, other):
    folder = tmp_path / game
    shutil.copytree(GAMES / game, folder, ignore=shutil.ignore_patterns("full-game-*"))
    assert (folder / "variants" / f"{variant}.yaml").read_text(encoding="utf-8").startswith("# yaml-language")
    run_script(str(folder / default))
    run_script(str(folder / other))
    for path, variants in ((folder / default, variant), (folder / other, None)):
        with pytest.raises(RulekitError):
            run_script(str(swapped(path, variants)))
