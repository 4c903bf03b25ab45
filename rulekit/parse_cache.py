# SPDX-License-Identifier: MIT
"""Parsed effect-language texts, kept between loads.

Parsing the effect-language texts is most of the time a game takes to load (lark's
LALR parser in pure Python), and the texts rarely change between two loads. So a
parsed text is kept under its key -- the kind of text, the text itself and where it
stands in its file (spans in the tree point there) -- in memory for the process, and
in one file per version of the parser under the user's cache folder for the next
process (``$RULEKIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/rulekit``, else
``~/.cache/rulekit``; ``RULEKIT_CACHE_DIR=off`` keeps nothing on disk).

The cache can only be right or absent: its file name carries a hash of the grammar
and of the modules that build trees, a text that fails to parse is never kept (its
error is reported afresh), and an unreadable or foreign file is ignored and replaced.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path

_MAX_ENTRIES = 20_000   # past this, the file starts over with the texts of this process
_memory: dict = {}
_disk: dict | None = None   # entries read from the file (None: not read yet)
_dirty = False


def _version() -> str:
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for part in ("dsl/grammar.lark", "dsl/parser.py", "dsl/ast.py", "source.py"):
        digest.update((here / part).read_bytes())
    return digest.hexdigest()[:16]


def cache_file() -> Path | None:
    """Where parsed texts are kept between processes, or None when switched off."""
    folder = os.environ.get("RULEKIT_CACHE_DIR")
    if folder is not None and folder.strip().lower() in ("", "0", "off", "none", "false"):
        return None
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "rulekit")
    return Path(folder) / f"parsed-{_VERSION}.pickle"


def _read() -> dict:
    path = cache_file()
    if path is None:
        return {}
    try:
        with open(path, "rb") as handle:
            data = pickle.load(handle)
    except Exception:  # absent, unreadable, truncated or written by something else: start over
        return {}
    return data if isinstance(data, dict) and data.get("version") == _VERSION else {}


def parsed(key: tuple, parse):
    """The tree for ``key``, from memory, the cache file, or ``parse()`` (then kept)."""
    global _disk, _dirty
    tree = _memory.get(key)
    if tree is not None:
        return tree
    if _disk is None:
        _disk = _read().get("trees", {})
    tree = _disk.get(key)
    if tree is None:
        tree = parse()
        _dirty = True
    _memory[key] = tree
    return tree


def forget() -> None:
    """Forget what this process holds, so the next parse reads the cache file (tests)."""
    global _disk, _dirty
    _memory.clear()
    _disk = None
    _dirty = False


def save() -> None:
    """Write the texts parsed since the last save to the cache file (best effort: a
    read-only home or a full disk only costs the next process a parse)."""
    global _dirty, _disk
    path = cache_file()
    if not _dirty or path is None:
        return
    _dirty = False
    trees = dict(_disk or {})
    if len(trees) + len(_memory) > _MAX_ENTRIES:
        trees = {}
    trees.update(_memory)
    _disk = trees
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
