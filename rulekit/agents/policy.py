# SPDX-License-Identifier: MIT
"""Bots from the user's own Python code: ``--bots mypkg.mod:policy``.

A *policy* is a callable ``policy(view, legal) -> action``: ``view`` is what the seat to move may
see (:func:`rulekit.engine.view.view`, a JSON-ready dict whose ``to_move`` names the seat), ``legal``
the notation of each legal action (a list of str), and it returns one of them. A class instead is
built once a game with that game's seed for the seat, ``Policy(seed)``, and its instances are the
policy: the way to a seeded, stateful bot whose games are still reproducible.

Naming the module imports it, which runs its code, with the user's rights: it is the user's own
code, asked for by name (the current folder is searched first, as ``python -m`` does).
"""
from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import re
import sys
import traceback

from ..codes import POLICY_FAILED, POLICY_ILLEGAL_ACTION
from ..engine.state import PLAYERS
from ..engine.view import view
from ..errors import RulekitError, UsageError, did_you_mean

_NAME = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
_LOADED: dict = {}


class PolicyError(RulekitError):
    """A user's policy that failed in play: it returned no legal action (RK0980) or raised (RK0981)."""

    def __init__(self, message: str, code: str = POLICY_FAILED):
        self.code = code
        super().__init__(message)

    def __reduce__(self):       # crosses process boundaries (--jobs) whole
        return (PolicyError, (str(self), self.code))


def is_policy(spec: str) -> bool:
    """Whether a ``--bots`` entry names a policy in the user's code (``module:attribute``)."""
    module, colon, attribute = spec.partition(":")
    return bool(colon) and bool(_NAME.match(module)) and bool(_NAME.match(attribute))


def load(spec: str):
    """The callable or class ``spec`` names, imported once. A module that cannot be imported, a
    name it lacks, or a callable that cannot take ``(view, legal)`` is a usage error naming it."""
    if spec not in _LOADED:
        module_name, _, attribute = spec.partition(":")
        module = _import(module_name, spec)
        target = module
        for part in attribute.split("."):
            if not hasattr(target, part):
                known = [n for n in dir(target) if not n.startswith("_") and callable(getattr(target, n, None))]
                hint = did_you_mean(part, known)
                raise UsageError(f"`{module_name}` has no `{attribute}` (for `--bots {spec}`)"
                                 + (f"; did you mean `{hint}`?" if hint else ""))
            target = getattr(target, part)
        if not callable(target):
            raise UsageError(f"`{spec}` is a {type(target).__name__}, not a callable policy(view, legal)")
        if not inspect.isclass(target):
            _check_signature(target, spec)
        _LOADED[spec] = target
    return _LOADED[spec]


def findable(name: str) -> bool:
    """Whether a top-level module ``name`` is there to import (without running it)."""
    _search_here()
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _search_here() -> str:
    """The current folder first on Python's path, as ``python -m`` has it (the console script does not)."""
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)
    return here


def _import(name: str, spec: str):
    here = _search_here()
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and (name == exc.name or name.startswith(exc.name + ".")):
            raise UsageError(f"cannot import `{name}` for `--bots {spec}`: no module `{exc.name}` on Python's "
                             f"path or in the current folder ({here})") from None
        raise UsageError(f"cannot import `{name}` for `--bots {spec}`: {_failure(exc)}") from None
    except Exception as exc:        # the user's module failed as it ran: say where, no traceback
        raise UsageError(f"cannot import `{name}` for `--bots {spec}`: {_failure(exc)}") from None


def _check_signature(fn, spec: str) -> None:
    try:
        inspect.signature(fn).bind(None, None)
    except TypeError:
        raise UsageError(f"policy `{spec}` must take two arguments, (view, legal): it is "
                         f"{getattr(fn, '__name__', spec)}{inspect.signature(fn)}") from None
    except ValueError:      # no signature to read (a built-in): it will say when called
        pass


def _failure(exc: BaseException) -> str:
    """``ValueError: boom (mybots.py:7, in pick)``: the exception and the innermost line it came from."""
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg} ({exc.filename}:{exc.lineno})"
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" ({frames[-1].filename}:{frames[-1].lineno}, in {frames[-1].name})" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}"


class PolicyAgent:
    """A seat played by a user's policy; it sees only the seat's view, as every bot does."""

    name = "policy"

    def __init__(self, seed: int, spec: str):
        self.spec = spec
        target = load(spec)
        if inspect.isclass(target):
            try:
                target = target(seed)
            except Exception as exc:
                raise PolicyError(f"policy `{spec}` could not be built with seed {seed}: {_failure(exc)}",
                                  POLICY_FAILED) from None
            if not callable(target):
                raise UsageError(f"policy class `{spec}` makes objects that cannot be called with (view, legal)")
            _check_signature(target, spec)
        self.policy = target

    def choose(self, state) -> int:
        decision = state.pending
        legal = list(decision.labels)
        seat = decision.player
        try:
            action = self.policy(view(state, seat), list(legal))
        except Exception as exc:
            raise PolicyError(f"policy `{self.spec}` failed as seat {PLAYERS[seat]} chose (round "
                              f"{state.g.get('round')}): {_failure(exc)}", POLICY_FAILED) from None
        if isinstance(action, str) and action in legal:
            return legal.index(action)
        raise PolicyError(_illegal(self.spec, action, legal, seat), POLICY_ILLEGAL_ACTION)


def _illegal(spec: str, action, legal: list[str], seat: int) -> str:
    shown = ", ".join(f"`{a}`" for a in legal[:20]) + (f", ... ({len(legal)} in all)" if len(legal) > 20 else "")
    what = f"`{action}`" if isinstance(action, str) else f"{action!r} (a {type(action).__name__})"
    hint = did_you_mean(action, legal) if isinstance(action, str) else None
    return (f"policy `{spec}` returned {what} for seat {PLAYERS[seat]}, which is not one of the legal actions: {shown}"
            + (f" (did you mean `{hint}`?)" if hint else "") + "; a policy returns one of the strings it is given")
