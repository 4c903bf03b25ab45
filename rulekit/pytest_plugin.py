# SPDX-License-Identifier: MIT
"""pytest collects a game's scripts as tests: ``pytest games/mygame``.

Registered as a ``pytest11`` entry point, so installing rulekit is enough (or load it by
hand with ``-p rulekit.pytest_plugin``). A script is collected only when pytest is pointed
at a game folder (one with ``game.yaml``) or at the script itself, or when ``--rulekit``
is given: a project's own test run (``pytest`` over ``tests/``) is not slowed down, and
the deliberately failing scripts of a test suite are not run as tests. Each script is
one item; it fails with the script's own diagnostic (file:line and the caret), and with
the diff when a transcript stored beside it (``NAME.transcript``, written by
``rulekit test --update``) no longer matches.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from .content import ROOT_FILE
from .errors import RulekitError

_ROOTS = pytest.StashKey[tuple]()


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
        check_script(os.fspath(self.path))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, RulekitError):
            return excinfo.value.render()
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"rulekit script {self.path.name}"
