# SPDX-License-Identifier: MIT
"""The pytest plugin: `pytest GAME_FOLDER` collects the game's scripts as test items."""
from __future__ import annotations

import shutil
from pathlib import Path

import rulekit.pytest_plugin  # noqa: F401 - imported once here: pytester would import it anew for each run
import rulekit.suite  # noqa: F401

pytest_plugins = ["pytester"]

AUCTION = Path(__file__).resolve().parent / "games" / "auction"
PASSING = "game: ..\nplayers: 3\nseed: 7\npins: {rolls: {dice: [2, 3]}}\nactions:\n  - legal: [\"bid *\", pass]\n"
FAILING = "game: ..\nplayers: 3\nseed: 7\npins: {rolls: {dice: [2, 3]}}\nactions:\n  - refuse: bid 1\n"


# The plugin by hand (`-p`), its entry point (if rulekit is installed) blocked so it is not loaded twice.
PLUGIN = ("-p", "no:rulekit", "-p", "rulekit.pytest_plugin", "-p", "no:cacheprovider")


def game_copy(pytester) -> Path:
    folder = pytester.path / "auction"
    shutil.copytree(AUCTION, folder, ignore=shutil.ignore_patterns("scripts"))
    (folder / "scenarios").mkdir()
    (folder / "scenarios" / "opens.yaml").write_text(PASSING)
    (folder / "scenarios" / "refused.yaml").write_text(FAILING)
    return folder


def test_a_game_folder_collects_its_scripts(pytester):
    folder = game_copy(pytester)
    result = pytester.runpytest(*PLUGIN, str(folder))
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "error[RK5012]: expected `bid 1` to be refused, but it was accepted" in out
    assert "refused.yaml:6:13\n" in out and "Traceback" not in out


def test_scripts_below_other_paths_are_left_alone(pytester):
    folder = game_copy(pytester)
    result = pytester.runpytest(*PLUGIN, str(folder.parent))
    result.assert_outcomes()                   # nothing collected: a project's own test run is unchanged
    everywhere = pytester.runpytest(*PLUGIN, "--rulekit", str(folder.parent))
    everywhere.assert_outcomes(passed=1, failed=1)
