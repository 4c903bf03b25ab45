# SPDX-License-Identifier: MIT
"""Parsed effect-language texts (and the parser's tables), kept between loads.

Parsing the effect-language texts is most of the time a game takes to load (lark's
LALR parser in pure Python), and the texts rarely change between two loads. So a
parsed text is kept under its key -- the kind of text, the text itself and where it
stands in its file (spans in the tree point there) -- in memory for the process, and
in one small file per game folder under the user's cache folder for the next process
(``$RULEKIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/rulekit``, else ``~/.cache/rulekit``;
``RULEKIT_CACHE_DIR=off`` keeps nothing on disk). One file per game, holding only that
game's texts, because reading a tree back costs time too.

A cache must never run code nor change the rules, whoever wrote its files:

- files are JSON data (no pickle): a tree is rebuilt only from the AST node classes;
- each file is signed with a key kept in the folder (HMAC-SHA256), so a file that was
  altered, cut short or written by anything else is ignored and written afresh;
- the folder is made 0700 and used only if the current user owns it and no one else
  may write to it (otherwise nothing is read from or written to it); a cache folder of
  the user's that others may read is made 0700, or else not used (a note says so);
- a cache file or the key is opened without following a link or waiting on a pipe, read
  only if it is a regular file and at most ``_MAX_FILE`` long, and written by replacing
  the name itself: a link planted there is replaced, never what it points to.

A text that fails to parse is never kept (its error is reported afresh), and file names
carry a hash of the grammar and of the modules that build trees.
"""
from __future__ import annotations

import collections
import contextlib
import errno
import hashlib
import hmac
import json
import os
import re
import stat
import sys
import tempfile
import threading
from pathlib import Path

import attrs

from ..files import write_atomic
from ..limits import CACHE_FILE_BYTES as _MAX_FILE
from ..limits import KEPT_LOADS, KEPT_LOOSE_ENTRIES
from ..limits import PARSE_CACHE_ENTRIES as _MAX_ENTRIES
from ..source import Refused, Span, open_name
from . import ast

_noted: set = set()        # folders a note was printed for (once a process)
_CACHE_NAME = re.compile(r"(key|(parsed|code|grammar)-.*|\.key-.*|\..*\.tmp)\Z", re.S)   # what the folder holds
_MAGIC = b"rulekit-cache 1 "
_FORGET: list = []         # what forget() also clears
_NODES = {cls.__name__: cls for cls in vars(ast).values()
          if isinstance(cls, type) and issubclass(cls, ast.Node) and cls is not ast.Node}
_FIELDS = {name: len(attrs.fields(cls)) - 1 for name, cls in _NODES.items()}   # all but the span


def _version() -> str:
    here = Path(__file__).parent.parent
    digest = hashlib.sha256()
    for part in ("dsl/grammar.lark", "dsl/parser.py", "dsl/ast.py", "source.py", "dsl/parse_cache.py"):
        digest.update((here / part).read_bytes())
    return digest.hexdigest()[:16]


@contextlib.contextmanager
def disk_off():
    """Keep nothing on disk inside the block (``RULEKIT_CACHE_DIR=off``), as it was after: for a
    game in a temporary folder (a Ray worker's copy) or one loaded at every keystroke (rulekit lsp)."""
    saved = os.environ.get("RULEKIT_CACHE_DIR")
    os.environ["RULEKIT_CACHE_DIR"] = "off"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("RULEKIT_CACHE_DIR", None)
        else:
            os.environ["RULEKIT_CACHE_DIR"] = saved


def cache_folder() -> Path | None:
    """Where parsed texts are kept between processes, or None when switched off."""
    folder = os.environ.get("RULEKIT_CACHE_DIR")
    if folder is not None and folder.strip().lower() in ("", "0", "off", "none", "false"):
        return None
    if not folder:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folder = os.path.join(base, "rulekit")
    return Path(folder)


def _mine(info: os.stat_result) -> bool:
    """Owned by this user and writable by no one else."""
    owner = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return owner and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def private_folder() -> Path | None:
    """The cache folder, made (0700) if missing; None when off, or when another user owns
    it or may write to it (then the cache is not used at all), or when others may read it
    and it cannot be made private."""
    folder = cache_folder()
    if folder is None:
        return None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        link, info = os.lstat(folder), os.stat(folder)
    except OSError:
        return None
    if not (stat.S_ISDIR(info.st_mode) and _mine(info) and _mine(link)):
        return None
    if info.st_mode & 0o077 and not _made_private(folder):
        return None
    return folder


def _made_private(folder: Path) -> bool:
    """Make the user's own cache folder that others may read 0700. Only a folder holding
    nothing but rulekit's cache files is changed (``RULEKIT_CACHE_DIR`` may name any
    folder: never a home or ``/``); any other, or a failure, is noted once and not used."""
    try:
        if not all(_CACHE_NAME.match(name) for name in os.listdir(folder)):
            raise PermissionError(errno.EPERM, "it holds files that are not rulekit's cache")
        os.chmod(folder, 0o700)
        return True
    except OSError as exc:
        if str(folder) not in _noted:
            _noted.add(str(folder))
            print(f"rulekit: note: the cache folder `{folder}` is readable by others and was not made private "
                  f"({exc.strerror or exc}); the cache is not used (chmod 700 it)", file=sys.stderr)
        return False


def _key(folder: Path) -> bytes | None:
    """The folder's signing key (32 random bytes in ``key``, 0600), made on first use, and
    made afresh when what is there is no such key (a link, a pipe, another user's file):
    the files it signed are then ignored and written again."""
    path = folder / "key"
    for attempt in range(3):
        try:
            secret = _own_file(path, 33, private=True)
        except FileNotFoundError:
            _new_key(folder, path)
            continue
        except OSError:
            secret = None
        if secret is not None and len(secret) == 32:
            return secret
        if attempt == 0:
            _new_key(folder, path, replace=True)
    return None


def _own_file(path: Path, limit: int, private: bool = False) -> bytes | None:
    """At most ``limit`` bytes of the regular file at ``path`` (``source.open_name``: no link
    followed, no pipe waited on); None when it is no regular file of this user's (with
    ``private``, one only this user may read) or is longer than ``limit``."""
    try:
        handle, info = open_name(path)
    except Refused:
        return None
    with handle:
        if info.st_size > limit or (private and not (_mine(info) and not info.st_mode & 0o077)):
            return None
        data = handle.read(info.st_size + 1)    # a file that grew since is cut: its signature fails
    return data if len(data) <= limit else None


def _new_key(folder: Path, path: Path, replace: bool = False) -> None:
    """Write a fresh key: where none is, without ever replacing one another process made
    meanwhile; with ``replace``, over whatever is at the name (a link itself, not what it
    points to)."""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".key-")
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(os.urandom(32))
        (os.replace if replace else os.link)(tmp, path)
    except OSError:
        pass   # another process made it first (or no hard links): read whatever is there
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _sign(key: bytes, body: bytes) -> bytes:
    return hmac.new(key, body, hashlib.sha256).hexdigest().encode("ascii")


def read_signed(name: str) -> bytes | None:
    """The body of the cache file ``name`` if it is there and carries this folder's
    signature; None otherwise (absent, altered, cut short, foreign, cache off)."""
    folder = private_folder()
    key = _key(folder) if folder is not None else None
    if key is None:
        return None
    try:
        blob = _own_file(folder / name, _MAX_FILE)
    except (OSError, MemoryError):
        return None
    if blob is None:
        return None
    head, _, body = blob.partition(b"\n")
    if not head.startswith(_MAGIC) or not hmac.compare_digest(head[len(_MAGIC):], _sign(key, body)):
        return None
    return body


def write_signed(name: str, body: bytes) -> None:
    """Sign and write ``body`` as the cache file ``name``, atomically (best effort: a
    read-only home or a full disk only costs the next process the work again)."""
    folder = private_folder()
    key = _key(folder) if folder is not None else None
    if key is None:
        return
    with contextlib.suppress(OSError):
        write_atomic(folder / name, _MAGIC + _sign(key, body) + b"\n" + body, mode=0o600, durable=False,
                     follow=False)


def read_data(name: str):
    """The JSON data of the signed cache file ``name``, or None (:func:`read_signed`)."""
    body = read_signed(name)
    if body is None:
        return None
    try:
        return json.loads(body)
    except (ValueError, RecursionError, MemoryError):
        return None


def write_data(name: str, data) -> None:
    """Write ``data`` as JSON in the signed cache file ``name`` (:func:`write_signed`)."""
    try:
        body = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")
    except (ValueError, TypeError, RecursionError):
        return
    write_signed(name, body)


def game_key(game_folder: str) -> str:
    """A game folder's part of its cache files' names."""
    return hashlib.sha256(os.path.realpath(game_folder).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def cache_file(game_folder: str) -> Path | None:
    """The cache file of one game folder (None when the cache is off)."""
    folder = cache_folder()
    if folder is None:
        return None
    return folder / _file_name(game_folder)


def _file_name(game_folder: str) -> str:
    return f"parsed-{_VERSION}-{game_key(game_folder)}.json"


def per_thread(initial: dict):
    """A function giving this thread's own game load (``initial`` to start with): its cache
    file, what was read of it, what the load used. The language server loads games in several
    threads at once (its checker, a completion playing a script), and one load's end must not
    end another's. This cache's and the code cache's (dsl/code_cache.py)."""
    here = threading.local()

    def scope() -> dict:
        found = getattr(here, "scope", None)
        if found is None:
            found = here.scope = dict(initial)
        return found
    return scope


class Kept:
    """What a process keeps in memory of what it parsed or compiled (this cache's trees, the code
    cache's codes): the entries the last load of each of the KEPT_LOADS games loaded last (a
    folder and its variants) used, and the KEPT_LOOSE_ENTRIES newest of those made outside any
    load (an entry a load stops using goes at once). A game loaded
    again reads its texts from here; one loaded at every edit (the language server) keeps its
    last load's, never every version it saw. Loads in several threads share it (a lock)."""

    def __init__(self):
        self._values: dict = {}
        self._holders: dict = {}                        # key -> how many remembered loads used it
        self._loads: collections.OrderedDict = collections.OrderedDict()   # load -> the keys it used
        self._loose: collections.OrderedDict = collections.OrderedDict()   # keys no load holds, newest last
        self._lock = threading.Lock()

    def get(self, key):
        return self._values.get(key)

    def __setitem__(self, key, value) -> None:
        with self._lock:
            self._values[key] = value
            if key not in self._holders:
                self._loose[key] = None
                self._loose.move_to_end(key)
                self._trim()

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key) -> bool:
        return key in self._values

    def finished(self, load, used) -> None:
        """The load ``load`` (a folder and its variants) used ``used``: it holds those now, and no
        longer what its last run used that this one did not."""
        used = frozenset(key for key in used if key in self._values)
        with self._lock:
            before = self._loads.pop(load, frozenset())
            self._loads[load] = used
            for key in used - before:
                self._holders[key] = self._holders.get(key, 0) + 1
                self._loose.pop(key, None)
            self._let_go(before - used)
            while len(self._loads) > KEPT_LOADS:
                _load, keys = self._loads.popitem(last=False)
                self._let_go(keys)
            self._trim()

    def _let_go(self, keys) -> None:
        for key in keys:
            held = self._holders.get(key, 0) - 1
            if held > 0:
                self._holders[key] = held
            else:       # no remembered load uses it any more: a version of a text since edited
                self._holders.pop(key, None)
                self._values.pop(key, None)

    def _trim(self) -> None:
        while len(self._loose) > KEPT_LOOSE_ENTRIES:
            key, _ = self._loose.popitem(last=False)
            self._values.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()
            self._holders.clear()
            self._loads.clear()
            self._loose.clear()


_memory = Kept()         # the trees this process parsed or read (Kept)
_scope = per_thread({"file": None, "disk": None, "used": None, "new": False, "kept": None})


@contextlib.contextmanager
def game(game_folder: str, variants: tuple = ()):
    """Parse the texts of one game load (a folder, with its variants): read from, then written
    to, its cache file; what it used is what memory keeps of it (Kept)."""
    scope = _scope()
    outer = dict(scope)
    name = _file_name(game_folder) if cache_folder() is not None else None
    scope.update(file=name, disk=None, used={}, new=False, kept=set())
    try:
        yield
    finally:
        _memory.finished((game_folder, tuple(variants)), scope["kept"])
        _save()
        scope.update(outer)


# ------------------------------------------------------------------ trees as data
def _plain(value):
    """A key as JSON data (attrs values by their fields), for an exact text of it."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if attrs.has(type(value)):
        return [type(value).__name__] + [_plain(getattr(value, f.name)) for f in attrs.fields(type(value))]
    return value


def _key_text(key: tuple) -> str:
    return json.dumps(_plain(key), separators=(",", ":"), ensure_ascii=False)


def _encode(value, paths: dict):
    """A tree as JSON data: a node is an object, a tuple a list, a span a list with its
    path numbered in ``paths``."""
    if isinstance(value, ast.Node):
        span = value.span
        where = paths.setdefault(span.path, len(paths))
        fields = [_encode(getattr(value, f.name), paths) for f in attrs.fields(type(value)) if f.name != "span"]
        return {"n": type(value).__name__, "s": [where, span.line, span.column, span.end_line, span.end_column],
                "f": fields}
    if isinstance(value, tuple):
        return [_encode(v, paths) for v in value]
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise TypeError(f"not a tree value: {type(value).__name__}")


def _decode(value, paths: list):
    """The tree ``_encode`` wrote; a node only of the AST's own classes."""
    if isinstance(value, dict):
        name, (where, line, column, end_line, end_column), fields = value["n"], value["s"], value["f"]
        if len(fields) != _FIELDS[name]:
            raise ValueError(f"{name} with {len(fields)} fields")
        span = Span(paths[where], line, column, end_line, end_column)
        return _NODES[name](*[_decode(f, paths) for f in fields], span=span)
    if isinstance(value, list):
        return tuple(_decode(v, paths) for v in value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise ValueError(f"not a tree value: {type(value).__name__}")


def _read(name: str | None) -> dict:
    data = read_data(name) if name is not None else None
    try:
        if not (isinstance(data, dict) and data.get("version") == _VERSION):
            return {}
        paths = [p for p in data["paths"] if isinstance(p, str)]
        return {k: _decode(tree, paths) for k, tree in data["trees"] if isinstance(k, str)}
    except Exception:  # signed by us, so only a rulekit of another make: start over
        return {}


def parsed(key: tuple, parse):
    """The tree for ``key``: from memory, the game's cache file, or ``parse()`` (then kept)."""
    tree = _memory.get(key)
    scope = _scope()
    name = scope["file"]
    if scope["kept"] is not None:
        scope["kept"].add(key)
    if name is None:       # outside a game's load, or the cache is off
        if tree is None:
            tree = _memory[key] = parse()
        return tree
    if scope["disk"] is None:
        scope["disk"] = _read(name)
    disk, text = scope["disk"], _key_text(key)
    if tree is None:
        tree = disk.get(text)
        if tree is None:
            tree = parse()
        _memory[key] = tree
    scope["used"][text] = tree
    if text not in disk:
        scope["new"] = True
    return tree


def forget() -> None:
    """Forget what this process holds, so the next load reads the cache files (tests)."""
    _memory.clear()
    for hook in _FORGET:
        hook()


def on_forget(hook) -> None:
    """Have :func:`forget` also call ``hook`` (the other caches kept with this one)."""
    _FORGET.append(hook)


def _save() -> None:
    """Write the game's file when a text was new to it."""
    scope = _scope()
    name = scope["file"]
    if name is None or not scope["new"]:
        return
    disk = scope["disk"] or {}
    trees = dict(disk) if len(disk) + len(scope["used"]) <= _MAX_ENTRIES else {}
    trees.update(scope["used"])
    paths: dict = {}
    try:
        entries = [[k, _encode(tree, paths)] for k, tree in trees.items()]
    except (TypeError, RecursionError):
        return
    write_data(name, {"version": _VERSION, "paths": list(paths), "trees": entries})


_VERSION = _version()
