# SPDX-License-Identifier: MIT
"""A game's content as bytes, to play it where its folder is not: a Ray worker on another node.

The driver reads the files the game was built from (``Game.files``: game.yaml, its includes, the
variants) into a :class:`GameBundle`; a worker writes them into a private temporary folder, builds
the game there (with no disk cache: the folder is gone once the game is built) and checks that it
has the driver's content hash. Errors a worker raises name the driver's files, as a local run does.
"""
from __future__ import annotations

import contextlib
import os
import tempfile

import attrs

from ..dsl import parse_cache
from ..errors import DiagnosticReport, RulekitError, UsageError
from ..source import display_path, read_regular

_BUILT: dict = {}      # bundle key -> (game, the temporary folder it was built in)


@attrs.frozen
class GameBundle:
    """What a worker needs to build the driver's game: its files' bytes and how the driver shows them."""

    name: str               # the game folder's name (the game's name)
    files: tuple            # ((path relative to the folder, bytes), ...)
    variants: tuple         # ((bytes, how the driver shows the file), ...), in the order applied
    content_hash: str
    shown: str              # the folder as the driver shows it

    @classmethod
    def of(cls, game_ref: str, variants: tuple, game) -> GameBundle:
        from ..games import find_game, variant_path
        folder = find_game(game_ref)
        paths = [variant_path(folder, v) for v in variants]
        outside = {os.path.abspath(p) for p in paths}
        files = tuple((rel, read_regular(os.path.join(folder, rel))) for rel in sorted(game.files)
                      if os.path.abspath(os.path.join(folder, rel)) not in outside)
        shipped = tuple((read_regular(p), display_path(os.path.abspath(p))) for p in paths)
        return cls(os.path.basename(os.path.abspath(folder)), files, shipped, game.content_hash,
                   display_path(os.path.abspath(folder)))

    def game(self):
        """The game, built once per process and kept."""
        key = (self.content_hash, self.name, self.files, self.variants)
        if key not in _BUILT:
            _BUILT[key] = self._build()
        return _BUILT[key][0]

    def _build(self):
        from ..games import load_game
        with tempfile.TemporaryDirectory(prefix="rulekit-game-") as root, parse_cache.disk_off():
            folder = os.path.join(root, "game", self.name)
            for rel, data in self.files:
                _write(os.path.join(folder, rel), data)
            paths = []
            for k, (data, _shown) in enumerate(self.variants):
                paths.append(os.path.join(root, "variants", f"{k}.yaml"))
                _write(paths[-1], data)
            try:
                game = load_game(folder, tuple(paths))
            except RulekitError as exc:
                raise self._shown_as_driver(exc, root) from None
        if game.content_hash != self.content_hash:
            raise UsageError(f"a worker built `{self.shown}` with content hash {game.content_hash}, not "
                             f"{self.content_hash}: install the same rulekit on every node")
        return game, root

    @contextlib.contextmanager
    def errors_shown(self):
        """Errors raised inside name the driver's files, not the worker's temporary copies."""
        try:
            yield
        except RulekitError as exc:
            root = _BUILT.get((self.content_hash, self.name, self.files, self.variants), (None, None))[1]
            raise self._shown_as_driver(exc, root) if root else exc from None

    def _shown_as_driver(self, exc: RulekitError, root: str) -> RulekitError:
        def path(where: str) -> str:
            rel = os.path.relpath(os.path.abspath(where), root)
            head, _, rest = rel.replace(os.sep, "/").partition("/")
            if head == "game":
                inside = rest.partition("/")[2]
                return f"{self.shown}/{inside}" if self.shown != "." else inside
            if head == "variants" and rest[:-5].isdigit():
                return self.variants[int(rest[:-5])][1]
            return where

        def span(s):
            return attrs.evolve(s, path=path(s.path)) if s is not None else None
        if isinstance(exc, DiagnosticReport):
            return DiagnosticReport(attrs.evolve(d, span=span(d.span),
                                                 related=tuple((label, span(at)) for label, at in d.related))
                                    for d in exc.diagnostics)
        if getattr(exc, "span", None) is not None:
            exc.span = span(exc.span)
        return exc


def _write(path: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data)
