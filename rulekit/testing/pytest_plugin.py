# SPDX-License-Identifier: MIT
"""pytest collects a game's scripts as tests: ``pytest games/mygame``.

Registered as a ``pytest11`` entry point, so installing rulekit is enough (or load it by
hand with ``-p rulekit.testing.pytest_plugin``). A script is collected when pytest is pointed
at a game folder (one with ``game.yaml``), at a folder named on the command line that holds
scripts itself (as ``rulekit test DIR`` takes it), at the script itself, or when ``--rulekit``
is given: a project's own test run (``pytest`` over ``tests/``) is not slowed down, and the
deliberately failing scripts of a test suite are not run as tests. Each script is one item;
it fails with the script's own diagnostic (file:line and the caret), and with the diff when
its transcript no longer matches its snapshot, ``__snapshots__/NAME.ambr`` beside the script:
the store ``rulekit test`` compares too (:mod:`.snapshots` reads and writes it for both).
``pytest --snapshot-update`` (syrupy's option) writes it, byte for byte as ``rulekit test
--update`` does, and only for a script that passes: a failing one keeps its snapshot, and
syrupy is told the snapshot is in use so it does not delete it as unused. Nothing is written
into an installed or read-only game (RK5030). Without syrupy, a missing snapshot is not a
failure (``rulekit test --update`` writes it). ``stored_snapshot_differs`` lets a project's
own tests, which play the scripts anyway, check the same snapshots without running each
script twice.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

from ..errors import RulekitError
from ..games import ROOT_FILE
from . import snapshots
from .snapshots import CHECK_STEPS, recorded_game_text, snapshot_text  # noqa: F401 - the helpers tests import

_ROOTS = pytest.StashKey[tuple]()
UPDATE = "`pytest --snapshot-update`"


def pytest_addoption(parser) -> None:
    group = parser.getgroup("rulekit")
    group.addoption("--rulekit", action="store_true", default=False,
                    help="collect rulekit scripts (YAML with `game:`) under every path, not only under game folders")


def pytest_configure(config) -> None:
    explicit = config.args_source == pytest.Config.ArgsSource.ARGS
    roots = []
    for arg in config.args:
        path = Path(str(arg).split("::")[0]).resolve()
        if path.is_file() or (path / ROOT_FILE).is_file():
            roots.append(path)
        elif explicit and path.is_dir():
            roots += _script_roots(path)
    config.stash[_ROOTS] = tuple(roots)


def _script_roots(folder: Path) -> list[Path]:
    """A folder named on the command line that holds scripts itself, as ``rulekit test DIR``
    takes it (only its own files are read to know; a folder of folders is left alone)."""
    from .suite import is_script
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return []
    holds = any(e.suffix in (".yaml", ".yml") and e.is_file() and is_script(str(e)) for e in entries)
    return [folder] if holds else []


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
    """One script: it passes when every step and expectation holds and its transcript matches
    its snapshot."""

    @property
    def obj(self):
        """The script as syrupy names a test (by its module and function): the snapshot name."""
        def script():
            """A rulekit script."""
        script.__name__ = script.__qualname__ = self.name
        script.__module__ = self.path.stem
        return script

    def runtest(self) -> None:
        session = getattr(self.config, "_syrupy", None)
        update = bool(getattr(self.config.option, "update_snapshots", False)) and session is not None
        try:
            snapshots.check(os.fspath(self.path), update=update, accept=UPDATE, missing_fails=session is not None)
        finally:
            if session is not None:
                _in_use(self, session)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, RulekitError):
            return excinfo.value.render()
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"rulekit script {self.path.name}"


def _in_use(item: ScriptItem, session) -> None:
    """Tell syrupy the script's stored snapshot is in use, passed or failed, so that
    ``--snapshot-update`` does not delete it as unused: an assertion of exactly what is
    stored, which matches and writes nothing."""
    try:
        stored = snapshots.stored(os.fspath(item.path))
    except RulekitError:
        return
    if stored is None:
        return
    from syrupy.assertion import SnapshotAssertion
    from syrupy.location import PyTestLocation
    assertion = SnapshotAssertion(update_snapshots=False, extension_class=_stored_extension(),
                                  test_location=PyTestLocation(item), session=session)
    assertion == _Stored(stored)  # noqa: B015 - recorded by syrupy as used; the item's outcome is ours


class _Stored:
    """A snapshot's value as stored (already serialized)."""

    def __init__(self, value: str):
        self.value = value


@functools.cache
def _stored_extension():
    """syrupy's amber extension, taking a stored value as it is (syrupy is optional: made when
    first needed)."""
    from syrupy.extensions.amber import AmberSnapshotExtension

    class StoredAmber(AmberSnapshotExtension):
        def serialize(self, data, **kwargs):
            return data.value if isinstance(data, _Stored) else super().serialize(data, **kwargs)
    return StoredAmber


def stored_snapshot_differs(path: str, text: str) -> str | None:
    """What is wrong with the snapshot stored beside script ``path`` for ``text`` (the second
    value of ``snapshot_text``): None when it matches, else a message with the diff."""
    accept = f"`pytest {path} --snapshot-update`"
    try:
        if snapshots.stored(path) is None:
            return f"no snapshot {snapshots.beside(path)} beside {path} yet: {accept} writes it"
        return snapshots.differs(path, text, accept)
    except RulekitError as exc:
        return str(exc)
