# SPDX-License-Identifier: MIT
"""The pytest plugin: `pytest GAME_FOLDER` collects the game's scripts as test items, each compared with
its syrupy snapshot (or, without syrupy, with the transcript `rulekit test --update` stores)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import rulekit.testing.pytest_plugin  # noqa: F401 - imported once here: pytester would import it anew for each run
import rulekit.testing.suite  # noqa: F401

pytest_plugins = ["pytester"]

AUCTION = Path(__file__).resolve().parent / "games" / "auction"
PASSING = "game: ..\nplayers: 3\nseed: 7\npins: {rolls: {dice: [2, 3]}}\nactions:\n  - legal: [\"bid *\", pass]\n"
FAILING = "game: ..\nplayers: 3\nseed: 7\npins: {rolls: {dice: [2, 3]}}\nactions:\n  - refuse: bid 1\n"


# The plugin by hand (`-p`), its entry point (if rulekit is installed) blocked so it is not loaded twice.
PLUGIN = ("-p", "no:rulekit", "-p", "rulekit.testing.pytest_plugin", "-p", "no:cacheprovider")
NO_SYRUPY = (*PLUGIN, "-p", "no:syrupy")


def game_copy(pytester) -> Path:
    folder = pytester.path / "auction"
    shutil.copytree(AUCTION, folder, ignore=shutil.ignore_patterns("scripts"))
    (folder / "scenarios").mkdir()
    (folder / "scenarios" / "opens.yaml").write_text(PASSING)
    (folder / "scenarios" / "refused.yaml").write_text(FAILING)
    return folder


def test_a_game_folder_collects_its_scripts(pytester):
    folder = game_copy(pytester)
    result = pytester.runpytest(*NO_SYRUPY, str(folder))
    result.assert_outcomes(passed=1, failed=1)
    out = result.stdout.str()
    assert "error[RK5012]: expected `bid 1` to be refused, but it was accepted" in out
    assert "refused.yaml:6:13\n" in out and "Traceback" not in out


def test_scripts_below_other_paths_are_left_alone(pytester):
    folder = game_copy(pytester)
    result = pytester.runpytest(*NO_SYRUPY, str(folder.parent))
    result.assert_outcomes()                   # nothing collected: a project's own test run is unchanged
    everywhere = pytester.runpytest(*NO_SYRUPY, "--rulekit", str(folder.parent))
    everywhere.assert_outcomes(passed=1, failed=1)


def snapshot_files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*.ambr"))


def test_without_syrupy_a_stored_transcript_is_compared(pytester):
    folder = game_copy(pytester)
    (folder / "scenarios" / "refused.yaml").unlink()
    (folder / "scenarios" / "opens.transcript").write_text("start Tiny Auction players=3 seed=7\n")
    result = pytester.runpytest(*NO_SYRUPY, str(folder))
    result.assert_outcomes(failed=1)
    assert "the transcript differs from the stored one" in result.stdout.str()


def test_with_syrupy_each_transcript_is_a_snapshot(pytester):
    folder = game_copy(pytester)
    (folder / "scenarios" / "refused.yaml").unlink()
    opens = folder / "scenarios" / "opens.yaml"
    opens.write_text(PASSING + "  - bid 1\n")
    missing = pytester.runpytest(*PLUGIN, str(folder))
    missing.assert_outcomes(passed=1)                         # new: as `rulekit test` decides, and says so
    assert "new: no snapshot of this script's transcript yet" in missing.stdout.str()
    assert "snapshots: 1 new" in missing.stdout.str()
    assert snapshot_files(folder) == []                       # nothing written without --snapshot-update

    update = pytester.runpytest(*PLUGIN, "--snapshot-update", str(folder))
    update.assert_outcomes(passed=1)
    assert snapshot_files(folder) == ["scenarios/__snapshots__/opens.ambr"]
    stored = (folder / "scenarios" / "__snapshots__" / "opens.ambr").read_text()
    assert "# name: opens\n" in stored and "    legal ok: exactly\n  p1: bid 1\n" in stored
    pytester.runpytest(*PLUGIN, str(folder)).assert_outcomes(passed=1)

    opens.write_text(PASSING + "  - bid 2\n")               # the script now plays otherwise
    changed = pytester.runpytest(*PLUGIN, str(folder))
    changed.assert_outcomes(failed=1)
    out = changed.stdout.str()
    assert "the transcript differs from its snapshot" in out
    assert "\n-p1: bid 1\n+p1: bid 2\n" in out and "Traceback" not in out
    assert (folder / "scenarios" / "__snapshots__" / "opens.ambr").read_text() == stored


def test_with_syrupy_a_failing_script_still_shows_its_diagnostic(pytester):
    folder = game_copy(pytester)
    result = pytester.runpytest(*PLUGIN, "--snapshot-update", str(folder))
    result.assert_outcomes(passed=1, failed=1)
    assert "error[RK5012]: expected `bid 1` to be refused, but it was accepted" in result.stdout.str()
    assert snapshot_files(folder) == ["scenarios/__snapshots__/opens.ambr"]


RECORDED = "game: ..\nplayers: 3\nseed: 7\npins: {rolls: {dice: [2, 3]}}\nactions:\n  - p1: bid 1\n"


def test_a_script_that_checks_nothing_is_kept_as_a_digest_and_tests_can_check_it(pytester):
    from rulekit.testing.pytest_plugin import snapshot_text, stored_snapshot_differs
    folder = game_copy(pytester)
    (folder / "scenarios" / "refused.yaml").unlink()
    opens = folder / "scenarios" / "opens.yaml"
    opens.write_text(RECORDED)
    assert "no snapshot __snapshots__/opens.ambr" in stored_snapshot_differs(str(opens), "")
    pytester.runpytest(*PLUGIN, "--snapshot-update", str(folder)).assert_outcomes(passed=1)
    stored = (folder / "scenarios" / "__snapshots__" / "opens.ambr").read_text()
    lines = stored.split("\n")
    assert lines[3] == "  start Tiny Auction players=3 seed=7"
    assert re.fullmatch(r"  1 actions, \d+ events, sha256 [0-9a-f]{64}", lines[4]), stored
    assert "bid 1" not in stored
    _result, text = snapshot_text(str(opens))
    assert stored_snapshot_differs(str(opens), text) is None
    changed = stored_snapshot_differs(str(opens), text.replace("seed=7", "seed=8"))
    assert "the transcript differs from its snapshot" in changed and "+start Tiny Auction players=3 seed=8" in changed


# ------------------------------------------------------------------ one snapshot store (#36)
def test_a_failing_script_keeps_its_snapshot_under_snapshot_update(pytester):
    folder = game_copy(pytester)
    (folder / "scenarios" / "refused.yaml").write_text(PASSING)
    pytester.runpytest(*PLUGIN, "--snapshot-update", str(folder)).assert_outcomes(passed=2)
    stored = folder / "scenarios" / "__snapshots__" / "refused.ambr"
    before = stored.read_bytes()
    (folder / "scenarios" / "refused.yaml").write_text(FAILING)          # an expectation now fails
    result = pytester.runpytest(*PLUGIN, "--rulekit", "--snapshot-update", str(folder))
    result.assert_outcomes(passed=1, failed=1)
    assert "Deleted" not in result.stdout.str()
    assert stored.read_bytes() == before


def test_rulekit_test_and_pytest_write_the_same_bytes(pytester, capsys):
    from conftest import run_cli
    folder = game_copy(pytester)
    (folder / "scenarios" / "refused.yaml").write_text(RECORDED)          # kept as a digest
    pytester.runpytest(*PLUGIN, "--snapshot-update", str(folder)).assert_outcomes(passed=2)
    by_pytest = {p.name: p.read_bytes() for p in (folder / "scenarios" / "__snapshots__").iterdir()}
    shutil.rmtree(folder / "scenarios" / "__snapshots__")
    assert run_cli(capsys, "test", str(folder), "--random", "0", "--update")[0] == 0
    by_rulekit = {p.name: p.read_bytes() for p in (folder / "scenarios" / "__snapshots__").iterdir()}
    assert by_rulekit == by_pytest and set(by_pytest) == {"opens.ambr", "refused.ambr"}
    pytester.runpytest(*PLUGIN, str(folder)).assert_outcomes(passed=2)


def test_the_plugin_compares_an_old_transcript_too(pytester):
    folder = game_copy(pytester)
    (folder / "scenarios" / "refused.yaml").unlink()
    pytester.runpytest(*PLUGIN, "--snapshot-update", str(folder)).assert_outcomes(passed=1)
    (folder / "scenarios" / "opens.transcript").write_text("start Tiny Auction players=3 seed=7\n")
    result = pytester.runpytest(*PLUGIN, str(folder))
    result.assert_outcomes(failed=1)
    assert "the transcript differs from the stored one" in result.stdout.str()


def test_a_folder_of_scripts_named_on_the_command_line_is_collected(pytester):
    game_copy(pytester)
    scripts = pytester.path / "checks"
    scripts.mkdir()
    (scripts / "opens.yaml").write_text(PASSING.replace("game: ..", "game: ../auction"))
    (scripts / "notes.yaml").write_text("just: data\n")
    pytester.runpytest(*NO_SYRUPY, str(scripts)).assert_outcomes(passed=1)
    pytester.runpytest(*NO_SYRUPY, str(pytester.path)).assert_outcomes()      # a folder of folders: left alone


def test_snapshot_update_never_writes_into_a_read_only_game(pytester):
    folder = game_copy(pytester)
    (folder / "scenarios" / "refused.yaml").unlink()
    every = [folder, *folder.rglob("*")]
    for path in every:
        path.chmod(path.stat().st_mode & ~0o222)
    try:
        result = pytester.runpytest(*PLUGIN, "--snapshot-update", str(folder))
    finally:
        for path in every:
            path.chmod(path.stat().st_mode | 0o200)
    result.assert_outcomes(failed=1)
    assert "error[RK5030]:" in result.stdout.str() and "is read-only" in result.stdout.str()
    assert snapshot_files(folder) == []
