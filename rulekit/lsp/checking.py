# SPDX-License-Identifier: MIT
"""What ``rulekit validate`` (and, for a script, ``rulekit run``) finds in a game folder, as
the editor has it: one round is the base game, then each variant, then each open script,
each a :class:`Stage` so the server can publish as they come and drop a round gone stale.

Checks run in one thread (:mod:`.server`); after a folder's first load they keep parsed texts
and compiled code in memory only (``RULEKIT_CACHE_DIR=off`` while loading), so a keystroke
neither reads nor rewrites the cache files; unchanged blocks are never parsed again.
"""
from __future__ import annotations

import contextlib
import logging
import os
import re

import attrs

from ..codes import INTERNAL
from ..dsl import parse_cache
from ..errors import Diagnostic, DiagnosticReport, RulekitError
from ..source import Span
from .documents import reading, real

log = logging.getLogger(__name__)
_TOP_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*:", re.M)


@attrs.frozen
class Stage:
    """One step of a round: what was checked, the diagnostics found (real path -> tuple), the
    game it built, if any, and the script it played, if it played one (its findings are that
    script's: the server keeps them until the script's next play)."""

    name: str
    found: dict
    game: object = None
    played: str | None = None


def kind_of(text: str) -> str:
    """What a content file is, from its top-level keys: ``variant``, ``script`` (a script or a
    log), or ``part`` (the game's root file or an included part)."""
    keys = set(_TOP_KEY.findall(text))
    if "variant" in keys:
        return "variant"
    if "actions" in keys or ("game" in keys and "meta" not in keys):
        return "script"
    return "part"


_warmed: set = set()     # game folders loaded once with the cache files


@contextlib.contextmanager
def _in_memory(folder: str):
    """Keep the parse and code caches in memory after a folder's first load (see module doc)."""
    if folder not in _warmed:
        _warmed.add(folder)
        yield
        return
    with parse_cache.disk_off():
        yield


def load(folder: str, texts: dict, variants: tuple = ()):
    """(the game or None, diagnostics by real path) of a game folder as the buffers have it."""
    from ..games import load_game
    with reading(texts), _in_memory(folder):
        try:
            game = load_game(folder, variants)
        except Exception as exc:  # every failure becomes diagnostics; a bug is logged and shown too
            return None, _grouped(_failure(exc, os.path.join(folder, "game.yaml")))
    return game, _grouped(game.warnings)


def game_rounds(folder: str, texts: dict, scripts: tuple = (), variants: bool = True, stale=None):
    """The stages of one round on ``folder``: the game, then each of its variant files (only
    when the game itself is clean: else they say the same), then each script in ``scripts`` (the
    round ends early when ``stale()`` says an edit came while one ran)."""
    from ..games import variants_of
    game, found = load(folder, texts)
    yield Stage("game", found, game)
    if game is not None and variants:
        for name in _variants(folder, texts, variants_of):
            with_variant, found = load(folder, texts, (name,))
            yield Stage(f"variant {name}", _noted(found, f"with variant `{os.path.basename(name)}`"), with_variant)
    for path in scripts:
        stage = script_stage(path, texts, stale)
        if stage is None:
            return
        yield stage


def _variants(folder: str, texts: dict, variants_of) -> list:
    """The variant files of the folder, and any open file of it that is a variant."""
    names = list(variants_of(folder))
    listed = {real(os.path.join(folder, "variants", f"{n}.yaml")) for n in names}
    for path, text in texts.items():
        if path not in listed and path.startswith(real(folder) + os.sep) and kind_of(text) == "variant":
            names.append(path)
    return names


def script_stage(path: str, texts: dict, stale=None) -> Stage | None:
    """Play a script or replay a log (buffers as they stand); its failures as diagnostics. It runs
    the game's rules, so it runs in a child process under a time and memory bound (:mod:`.bounded`);
    None when ``stale()`` said an edit came first."""
    from . import bounded
    answer = bounded.run(("script", path, texts), stale)
    if answer is None:
        return None
    state, found = answer
    if state == "late":
        found = {real(path): (bounded.late(path, texts.get(real(path)) or _read(path)),)}
    return Stage(f"script {path}", found, played=real(path))


def play_script(path: str, texts: dict) -> dict:
    """The diagnostics of playing a script here, in this process (the child of :func:`script_stage`).
    A failure the engine could only place on the game's folder (a ``position:``'s statement has no
    line of its own there) goes on the script's ``position:`` line."""
    from ..testing.script import run_script
    from .bounded import position_line
    found = _stage(f"script {path}", path, texts, run_script).found
    lost = [d for where, ds in found.items() if os.path.isdir(where) for d in ds]
    if not lost:
        return found
    span = Span(real(path), position_line(texts.get(real(path)) or _read(path)), 1)
    kept = {where: ds for where, ds in found.items() if not os.path.isdir(where)}
    kept[real(path)] = (*kept.get(real(path), ()), *(attrs.evolve(d, span=span) for d in lost))
    return kept


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.read(1 << 20)
    except OSError:
        return ""


def syntax_stage(path: str, texts: dict) -> Stage:
    """A YAML file of no game: only whether it reads."""
    from ..content.loader import load_yaml
    return _stage(f"file {path}", path, texts, load_yaml)


def _stage(name: str, path: str, texts: dict, run) -> Stage:
    """``run(path)`` over the buffers: the file clean, or the diagnostics of what it raised."""
    with reading(texts):
        try:
            run(path)
        except Exception as exc:
            return Stage(name, _grouped(_failure(exc, path)))
    return Stage(name, {real(path): ()})


def _failure(exc: Exception, where: str) -> list:
    """The diagnostics an exception stands for (a bug in rulekit is logged and shown as RK9999)."""
    if isinstance(exc, DiagnosticReport):
        return list(exc.diagnostics)
    if isinstance(exc, RulekitError):
        span = getattr(exc, "span", None) or Span(where, 1, 1)
        first = Diagnostic(exc.code, str(exc), span, help=getattr(exc, "help", None),
                           notes=tuple(getattr(exc, "notes", ())))
        more = [d for other in getattr(exc, "more", ()) for d in _failure(other, where)]
        return [first, *more]
    log.exception("internal error while checking %s", where)
    return [Diagnostic(INTERNAL, f"internal error: {type(exc).__name__}: {exc}", Span(where, 1, 1),
                       help="this is a bug in rulekit, not in your content; the server's log has the traceback")]


def _grouped(diagnostics) -> dict:
    out: dict = {}
    for d in diagnostics:
        if d.span is not None:
            out.setdefault(real(d.span.path), []).append(d)
    return {path: tuple(found) for path, found in out.items()}


def _noted(found: dict, note: str) -> dict:
    return {path: tuple(attrs.evolve(d, notes=(*d.notes, note)) for d in ds) for path, ds in found.items()}
