# SPDX-License-Identifier: MIT
"""pytest collects a game's scripts as tests: ``pytest games/mygame``.

Registered as a ``pytest11`` entry point, so installing rulekit is enough (or load it by
hand with ``-p rulekit.testing.pytest_plugin``). A script is collected only when pytest is pointed
at a game folder (one with ``game.yaml``) or at the script itself, or when ``--rulekit``
is given: a project's own test run (``pytest`` over ``tests/``) is not slowed down, and
the deliberately failing scripts of a test suite are not run as tests. Each script is
one item; it fails with the script's own diagnostic (file:line and the caret), and with
the diff when its transcript no longer matches: with syrupy installed (and its plugin
loaded), the transcript is a syrupy snapshot, ``__snapshots__/NAME.ambr`` beside the
script, written by ``pytest --snapshot-update`` as for any snapshot test; without it, the
``NAME.transcript`` that ``rulekit test --update`` writes, when there is one. A script that
checks nothing on the way (no ``expect``, ``legal``, ``refuse``, ``score`` or ``over`` step: a
game recorded from bots) is snapshotted as its start line, a digest of its events and actions
and its result, not its whole transcript: a change still fails, and the snapshot says what
matters. ``stored_snapshot_differs`` lets a project's own tests, which play the scripts anyway,
check the same snapshots without running each script twice.
"""
from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from ..errors import RulekitError
from ..games import ROOT_FILE

_ROOTS = pytest.StashKey[tuple]()
CHECK_STEPS = frozenset({"expect", "legal", "refuse", "score", "over"})


def pytest_addoption(parser) -> None:
    group = parser.getgroup("rulekit")
    group.addoption("--rulekit", action="store_true", default=False,
                    help="collect rulekit scripts (YAML with `game:`) under every path, not only under game folders")


def pytest_configure(config) -> None:
    roots = []
    for arg in config.args:
        path = Path(str(arg).split("::")[0]).resolve()
        if path.is_file() or (path / ROOT_FILE).is_file():
            roots.append(path)
    config.stash[_ROOTS] = tuple(roots)


def pytest_collect_file(file_path: Path, parent):
    if file_path.suffix not in (".yaml", ".yml") or file_path.name == ROOT_FILE:
        return None
    config = parent.config
    wanted = config.getoption("--rulekit") or any(
        file_path == root or root in file_path.parents for root in config.stash.get(_ROOTS, ()))
    if not wanted or "variants" in file_path.parts:
        return None
    from .suite import is_script
    if not is_script(str(file_path)):
        return None
    return ScriptFile.from_parent(parent, path=file_path)


class ScriptFile(pytest.File):
    def collect(self):
        yield ScriptItem.from_parent(self, name=self.path.stem)


class ScriptItem(pytest.Item):
    """One script: it passes when every step and expectation holds."""

    def runtest(self) -> None:
        from .suite import check_script
        session = getattr(self.config, "_syrupy", None)
        if session is None:
            check_script(os.fspath(self.path))
            return
        _result, text = snapshot_text(os.fspath(self.path))
        _compare_with_snapshot(self, session, text)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, RulekitError):
            return excinfo.value.render()
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"rulekit script {self.path.name}"


def _compare_with_snapshot(item: ScriptItem, session, text: str) -> None:
    """The transcript against the script's syrupy snapshot (``--snapshot-update`` writes it)."""
    from syrupy.assertion import SnapshotAssertion
    from syrupy.extensions.amber import AmberSnapshotExtension
    from syrupy.location import PyTestLocation

    from .suite import CheckFailed

    def script():
        """The script, as syrupy names a test: by its module and function."""
    script.__name__ = item.name
    script.__module__ = item.path.stem
    item.obj = script
    option = item.config.option
    snapshot = SnapshotAssertion(update_snapshots=option.update_snapshots,
                                 update_new_snapshots_only=getattr(option, "update_new_snapshots_only", False),
                                 extension_class=AmberSnapshotExtension, test_location=PyTestLocation(item),
                                 session=session)
    if snapshot == text:
        return
    result = snapshot.executions[snapshot.num_executions - 1]
    where = os.path.join("__snapshots__", f"{item.path.stem}.ambr")
    if result.exception is not None and result.recalled_data is not None:
        raise CheckFailed(f"the snapshot {where} cannot be read: {result.exception}")
    if result.recalled_data is None:
        raise CheckFailed(f"no snapshot of this script's transcript yet: `pytest --snapshot-update` writes it "
                          f"({where} beside the script); read it, then commit it")
    diff = difflib.unified_diff(str(result.recalled_data).splitlines(), str(result.asserted_data).splitlines(),
                                where, "now", lineterm="", n=1)
    raise CheckFailed("the transcript differs from its snapshot (`pytest --snapshot-update` accepts it once "
                      "read):\n" + "\n".join(list(diff)[:80]))


def snapshot_text(path: str, game=None) -> tuple:
    """Play a script: (its ScriptResult, the text its snapshot holds): the transcript, or for a
    script that checks nothing on the way, its start line, digest and result. ``game``: the
    script's game already loaded (with its variants), for suites that play many scripts."""
    from .suite import transcript_text
    result, text = transcript_text(path, game=game)
    if _checks_something(path):
        return result, text
    return result, recorded_game_text(result)


def _checks_something(path: str) -> bool:
    import yaml
    with open(path, encoding="utf-8") as handle:
        data = yaml.safe_load(handle)
    steps = data.get("actions") if isinstance(data, dict) else None
    return any(isinstance(step, dict) and CHECK_STEPS & set(step) for step in steps or ())


def recorded_game_text(result) -> str:
    """A whole recorded game as a snapshot keeps: how it started, a digest, how it ended."""
    from . import events_digest
    digest = events_digest(result.state)
    lines = [result.transcript[0] if result.transcript else "",
             f"{digest['actions']} actions, {digest['events']} events, sha256 {digest['sha256']}"]
    lines += [line for line in result.transcript if line.startswith("result: ")]
    return "\n".join(lines) + "\n"


def _location(path: str) -> tuple[str, str]:
    folder, name = os.path.split(os.path.abspath(path))
    stem = os.path.splitext(name)[0]
    return os.path.join(folder, "__snapshots__", f"{stem}.ambr"), stem


def stored_snapshot_differs(path: str, text: str) -> str | None:
    """What is wrong with the syrupy snapshot stored beside script ``path`` for ``text`` (the
    second value of ``snapshot_text``): None when it matches, else a message with the diff."""
    from syrupy.extensions.amber import AmberSnapshotExtension
    from syrupy.extensions.amber.serializer import AmberDataSerializer
    location, name = _location(path)
    where = os.path.join("__snapshots__", os.path.basename(location))
    stored = AmberDataSerializer.read_file(location).get(name) if os.path.isfile(location) else None
    if stored is None:
        return f"no snapshot {where} beside {path} yet: `pytest {path} --snapshot-update` writes it"
    now = AmberSnapshotExtension().serialize(text)
    if stored.data == now:
        return None
    diff = difflib.unified_diff(str(stored.data).splitlines(), now.splitlines(), where, "now", lineterm="", n=1)
    return (f"the transcript differs from its snapshot (`pytest {path} --snapshot-update` accepts it once "
            "read):\n" + "\n".join(list(diff)[:80]))
