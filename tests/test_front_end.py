# SPDX-License-Identifier: MIT
"""The front end decides what is a mistake; optimisations never do.

Every game the suite knows (the test games, the examples, a corpus of broken games, and in a slow
test the shipped games with each of their variants) is validated with every pass on, all off, and
each off alone: the diagnostics (errors and warnings, with their places, helps and notes) must be
identical. tests/test_passes.py proves the passes change no game; this proves they hide no mistake.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.dsl import passes
from rulekit.errors import DiagnosticReport, RulekitError
from rulekit.games import load_game, variants_of

REPO = Path(__file__).resolve().parents[1]
SETTINGS = ["-all"] + [f"-{name}" for name in passes.NAMES]


def _folders(*roots: Path) -> list[Path]:
    return sorted(p.parent for root in roots for p in root.rglob("game.yaml") if "__snapshots__" not in p.parts)


def _said(game: str, setting: str, variants=()) -> list[str]:
    """What `rulekit validate` would say: each diagnostic whole, or the error that stopped it."""
    with passes.using(passes.parse(setting)):
        try:
            return [repr(d) for d in load_game(game, variants).warnings]
        except DiagnosticReport as report:
            return [repr(d) for d in report.diagnostics]
        except RulekitError as error:
            return [f"{type(error).__name__}: {error}"]


CORPUS = [str(p.relative_to(REPO)) for p in _folders(REPO / "tests" / "games", REPO / "examples")]


def test_the_corpus_holds_broken_games_whose_mistakes_meet_the_passes():
    said = _said("tests/games/mistakes/kinds", "")
    assert sum("RK0344" in d for d in said) == 3 and sum("RK0314" in d for d in said) == 2, said
    assert len(CORPUS) > 20


@pytest.mark.parametrize("game", CORPUS)
def test_diagnostics_are_the_same_under_every_pass_setting(game):
    variants = [()] + [(v,) for v in variants_of(str(REPO / game))]
    for chosen in variants:
        expected = _said(str(REPO / game), "", chosen)
        for setting in SETTINGS:
            assert _said(str(REPO / game), setting, chosen) == expected, (setting, chosen)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["goa", "batavia"])
def test_the_shipped_games_say_the_same_under_every_pass_setting(game):
    for chosen in [()] + [(v,) for v in variants_of(game)]:
        expected = _said(game, "", chosen)
        assert not [d for d in expected if "severity='error'" in d], expected
        for setting in SETTINGS:
            assert _said(game, setting, chosen) == expected, (setting, chosen)
