# SPDX-License-Identifier: MIT
"""Parsed effect-language texts, kept between loads.

Parsing the effect-language texts is most of the time a game takes to load (lark's
LALR parser in pure Python), and the texts rarely change between two loads. So a
parsed text is kept under its key -- the kind of text, the text itself and where it
stands in its file (spans in the tree point there) -- in memory for the process, and
in one small file per game folder under the user's cache folder for the next process
(``$RULEKIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/rulekit``, else ``~/.cache/rulekit``;
``RULEKIT_CACHE_DIR=off`` keeps nothing on disk). One file per game, holding only that
game's texts, because reading a tree back costs time too: a file of every text ever
parsed would be slower to read than the texts are to parse.

The cache can only be right or absent: file names carry a hash of the grammar and of
the modules that build trees, a text that fails to parse is never kept (its error is
reported afresh), and an unreadable or foreign file is ignored and replaced.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import tempfile
from pathlib import Path

_MAX_ENTRIES = 2_000    # texts one game's file keeps; past this it keeps only the last load's
_memory: dict = {}      # every tree this process parsed or read
_scope: dict = {"file": None, "disk": None, "used": None, "new": False}


def _version() -> str:
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for part in ("dsl/grammar.lark", "dsl/parser.py", "dsl/ast.py", "source.py"):
        digest.update((here / part).read_bytes())
    return digest.hexdigest()[:16]


def cache_folder() -> Path | None:
    """Where parsed texts are kept between processes, or None when switched off."""
    folder = os.environ.get("RULEKIT_CACHE_DIR")
    if folder is not None and folder.strip().lower() in ("", "0", "off", "none", "false"):
        return None
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "rulekit")
    return Path(folder)


def cache_file(game_folder: str) -> Path | None:
    """The cache file of one game folder (None when the cache is off)."""
    folder = cache_folder()
    if folder is None:
        return None
    where = hashlib.sha256(os.path.abspath(game_folder).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return folder / f"parsed-{_VERSION}-{where}.pickle"


@contextlib.contextmanager
def game(game_folder: str):
    """Parse the texts of one game load: read from, then written to, its cache file."""
    outer = dict(_scope)
    _scope.update(file=cache_file(game_folder), disk=None, used={}, new=False)
    try:
        yield
    finally:
        _save()
        _scope.update(outer)


def _read(path: Path | None) -> dict:
    if path is None:
        return {}
    try:
        with open(path, "rb") as handle:
            data = pickle.load(handle)
    except Exception:  # absent, unreadable, truncated or written by something else: start over
        return {}
    if not (isinstance(data, dict) and data.get("version") == _VERSION and isinstance(data.get("trees"), dict)):
        return {}
    return data["trees"]


def parsed(key: tuple, parse):
    """The tree for ``key``: from memory, the game's cache file, or ``parse()`` (then kept)."""
    if _scope["file"] is not None and _scope["disk"] is None:
        _scope["disk"] = _read(_scope["file"])
    disk = _scope["disk"] or {}
    tree = _memory.get(key)
    if tree is None:
        tree = disk.get(key)
        if tree is None:
            tree = parse()
        _memory[key] = tree
    if _scope["used"] is not None:
        _scope["used"][key] = tree
        if key not in disk:
            _scope["new"] = True
    return tree


def forget() -> None:
    """Forget what this process holds, so the next load reads the cache files (tests)."""
    _memory.clear()


def _save() -> None:
    """Write the game's file when a text was new to it (best effort: a read-only home or a
    full disk only costs the next process a parse)."""
    path = _scope["file"]
    if path is None or not _scope["new"]:
        return
    disk = _scope["disk"] or {}
    trees = dict(disk) if len(disk) + len(_scope["used"]) <= _MAX_ENTRIES else {}
    trees.update(_scope["used"])
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".parsed-")
        try:
            with os.fdopen(fd, "wb") as handle:
                pickle.dump({"version": _VERSION, "trees": trees}, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)   # atomic: a reader sees the old file or the new one
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, pickle.PicklingError, RecursionError):
        pass


_VERSION = _version()
