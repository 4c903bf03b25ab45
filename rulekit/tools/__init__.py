# SPDX-License-Identifier: MIT
"""The old home of the command line and what it runs, kept for one release (issue 56).

Its modules moved into packages by who uses them: ``rulekit.cli`` (the ``rulekit`` command),
``rulekit.batch`` (simulate, sweep, balance, Ray, mutate), ``rulekit.rl`` (the environments and their
observations), ``rulekit.view`` (play, pictures, listings, diffs) and ``rulekit.extras``.
``import rulekit.tools.NAME`` still gives the module at its new path, with a ``DeprecationWarning``
naming it; no file is left here but this one. Nothing in rulekit imports this package."""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

MOVED = {
    "cli": "rulekit.cli.app", "entry": "rulekit.cli.entry", "terminal": "rulekit.cli.terminal",
    "extras": "rulekit.extras",
    "simulate": "rulekit.batch.simulate", "sweep": "rulekit.batch.sweep", "balance": "rulekit.batch.balance",
    "balance_report": "rulekit.batch.balance_report", "batch_io": "rulekit.batch.batch_io",
    "ray_driver": "rulekit.batch.ray_driver", "game_bundle": "rulekit.batch.game_bundle",
    "figures": "rulekit.batch.figures", "mutate": "rulekit.batch.mutate", "mutants": "rulekit.batch.mutants",
    "gym_env": "rulekit.rl.gym_env", "pettingzoo": "rulekit.rl.pettingzoo", "rl_play": "rulekit.rl.rl_play",
    "observe": "rulekit.rl.observe", "observe_log": "rulekit.rl.observe_log",
    "board_planes": "rulekit.rl.board_planes", "actions": "rulekit.rl.actions",
    "action_domains": "rulekit.rl.action_domains",
    "render": "rulekit.view.render", "render_map": "rulekit.view.render_map", "captions": "rulekit.view.captions",
    "play": "rulekit.view.play", "listing": "rulekit.view.listing", "diff": "rulekit.view.diff",
    "report": "rulekit.view.report",
}


class _Moved(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``rulekit.tools.NAME`` for a moved NAME and answers with the module at its new path
    (the same object: ``sys.modules`` holds it under both names)."""

    def find_spec(self, fullname, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        new = MOVED[spec.name.rpartition(".")[2]]
        # stacklevel 2 skips the import system's own frames: the warning names the importing line
        warnings.warn(f"{spec.name} moved to {new}; the old path goes in the next release",
                      DeprecationWarning, stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module):
        pass    # the module at its new path has run already


if not any(isinstance(finder, _Moved) for finder in sys.meta_path):
    sys.meta_path.insert(0, _Moved())
