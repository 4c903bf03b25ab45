# SPDX-License-Identifier: MIT
"""The editor's buffers, and reading them in place of the files they stand for.

The loader reads every content file through ``loader.read_text`` (one seam: game files,
includes, variants, scripts). While :func:`reading` is active, a file open in the editor is
read from its buffer, as it stands, unsaved; nothing is written to disk.
"""
from __future__ import annotations

import os

from ..content import loader
from ..source import read_regular


def real(path: str) -> str:
    """The one name of a file used as a key everywhere here."""
    return os.path.realpath(os.path.abspath(path))


def reading(texts: dict):
    """Have the loader read the files in ``texts`` (real path -> text) from there (in this
    thread only: ``loader.buffers``)."""
    return loader.buffers(texts)


def lines_of(texts: dict):
    """``line(path, n)``: 1-based line n of a file, from its buffer or from disk."""
    cache: dict = {}

    def line(path: str, number: int) -> str | None:
        key = real(path)
        if key not in cache:
            text = texts.get(key)
            if text is None:
                try:    # a regular file only: never a FIFO nor a device
                    text = read_regular(key, most=loader.MAX_FILE_BYTES).decode("utf-8", "replace")
                except OSError:
                    text = ""
            cache[key] = text.splitlines()
        lines = cache[key]
        return lines[number - 1] if 1 <= number <= len(lines) else None
    return line


def game_folder(path: str) -> str | None:
    """The game folder a content file belongs to: the nearest folder, at most three up, with
    a ``game.yaml`` (a game's parts, ``variants/``, ``scenarios/``, ``faq/``)."""
    folder = os.path.dirname(real(path))
    for _ in range(4):
        if os.path.isfile(os.path.join(folder, "game.yaml")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return None
