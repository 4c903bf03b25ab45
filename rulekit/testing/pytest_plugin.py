# SPDX-License-Identifier: MIT
"""pytest collects a game's scripts as tests: ``pytest games/mygame``.

Registered as a ``pytest11`` entry point, so installing rulekit is enough (or load it by
hand with ``-p rulekit.testing.pytest_plugin``). A script is collected when pytest is pointed
at a game folder (one with ``game.yaml``), at a folder named on the command line that holds
scripts itself (as ``rulekit test DIR`` takes it), at the script itself, or when ``--rulekit``
is given: a project's own test run (``pytest`` over ``tests/``) is not slowed down, and the
deliberately failing scripts of a test suite are not run as tests. Each script is one item;
it fails with the script's own diagnostic (file:line and the caret), and with the diff when
its transcript no longer matches its snapshot, ``__snapshots__/NAME.ambr`` beside the script.
:func:`.snapshots.check` decides, as it does for ``rulekit test``, so the two routes give one
verdict: a script with no snapshot yet is *new* (it passes, and the summary says so).

The snapshots are rulekit's own files in syrupy's amber format: syrupy is never handed them
(it sees no test of a script, so it took every run for a whole one and deleted the snapshots of
scripts a ``-k`` left out). ``pytest --snapshot-update`` (syrupy's option) writes them, byte for
byte as ``rulekit test --update`` does, and only for a script that passes; a snapshot whose
script is gone is deleted only on a run of the whole selection (no ``-k``, ``-m``,
``--deselect``, ``--lf``, node or file named, nor a stop part way), else reported. The summary
counts each outcome (``rulekit snapshots``). Nothing is written into an installed or read-only
game (RK5030). Without syrupy there is no update option: a message names ``rulekit test
--update``. ``stored_snapshot_differs`` lets a project's own tests, which play the scripts
anyway, check the same snapshots without running each script twice.
"""
from __future__ import annotations

import os
from pathlib import Path

import attrs
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
    config.stash[_RUN] = _Run()


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
    its snapshot; :func:`snapshots.check` decides, as it does for ``rulekit test``."""

    def runtest(self) -> None:
        run = self.config.stash[_RUN]
        run.ran.add(self.nodeid)
        update = bool(getattr(self.config.option, "update_snapshots", False))
        try:
            checked = snapshots.check(os.fspath(self.path), update=update, accept=_accept(self.config))
        except RulekitError as exc:
            run.tally.add(getattr(exc, "outcome", None))
            raise
        run.tally.add(checked.outcome)
        if checked.outcome == "new":
            run.new.append(f"{snapshots.display_path(os.fspath(self.path))}: {checked.note}")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, RulekitError):
            return excinfo.value.render()
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"rulekit script {self.path.name}"


def _accept(config) -> str:
    """The command that writes snapshots: ``pytest --snapshot-update`` where syrupy gives that
    option, else ``rulekit test --update``."""
    from .suite import UPDATE as RULEKIT_UPDATE
    return UPDATE if hasattr(config.option, "update_snapshots") else RULEKIT_UPDATE


# ------------------------------------------------------------------ the run's snapshots, as syrupy users expect
@attrs.define
class _Run:
    """What this pytest run did with scripts' snapshots: each outcome counted, the scripts
    collected (before any deselection) and run, whether anything narrowed the selection."""

    tally: snapshots.Tally = attrs.Factory(snapshots.Tally)
    collected: set = attrs.Factory(set)
    ran: set = attrs.Factory(set)
    narrowed: bool = False
    unused: list = attrs.Factory(list)
    new: list = attrs.Factory(list)        # what is said of each script with no snapshot yet


_RUN = pytest.StashKey[_Run]()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items) -> None:
    config.stash[_RUN].collected = {item.nodeid for item in items if isinstance(item, ScriptItem)}


def pytest_deselected(items) -> None:
    for item in items:
        if isinstance(item, ScriptItem):
            item.config.stash[_RUN].narrowed = True


def _whole_selection(config, run: _Run) -> bool:
    """Whether every script below the folders named was selected and run: no ``-k``, ``-m``,
    ``--deselect``, ``--lf`` (which leaves files out uncollected), ``::node``, nor a stop
    part way (``-x``). Only then may a snapshot be called unused, as syrupy decides."""
    if run.narrowed or getattr(config.option, "lf", False) or any("::" in str(a) for a in config.args):
        return False
    return run.collected <= run.ran


def pytest_sessionfinish(session, exitstatus) -> None:
    """Snapshots whose script is gone, below the game folders named on the command line, on a
    run of their whole selection: deleted by ``--snapshot-update``, else a failure of the run."""
    config = session.config
    run = config.stash.get(_RUN, None)
    if run is None or not _whole_selection(config, run):
        return
    update = bool(getattr(config.option, "update_snapshots", False))
    folders = [root for root in config.stash.get(_ROOTS, ()) if root.is_dir()]
    for path in sorted({p for folder in folders for p in snapshots.unused(os.fspath(folder))}):
        if update:
            snapshots.delete(path)
        run.unused.append(path)
        run.tally.add("deleted" if update else "unused")
    if run.unused and not update and not getattr(config.option, "warn_unused_snapshots", False) \
            and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    run = config.stash.get(_RUN, None)
    if run is None or not run.tally.line():
        return
    terminalreporter.section("rulekit snapshots", sep="-")
    update = bool(getattr(config.option, "update_snapshots", False))
    for said in run.new:
        terminalreporter.write_line(said)
    for path in run.unused:
        terminalreporter.write_line(f"deleted {snapshots.display_path(path)}: its script is gone" if update
                                    else snapshots.unused_message(path, _accept(config)))
    terminalreporter.write_line(run.tally.line())


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
