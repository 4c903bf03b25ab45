# SPDX-License-Identifier: MIT
"""Generated code compiled by Python, kept between loads.

Python's ``compile`` of a game's generated module (dsl/codegen.py) and of the small
functions the compiler writes is a sixth of what a warm load costs, and the source is
the same from load to load while neither the content nor rulekit changes. So a code
object is kept under the source it was compiled from -- which says everything the
content and the compiler put into it, so it is the exact key -- in memory for the
process, and in one file per game folder in the parse cache's folder, signed with its
key and under its rules (dsl/parse_cache.py) for the next process. The file's name
carries the interpreter's bytecode magic number and optimisation level: code compiled
by another Python is never read.

The checks and the code generator still run on every load: they make the source and
the namespace its constants live in, and a warm load checks what a cold one does.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import marshal
import sys
import warnings
from types import CodeType

from ..limits import CODE_CACHE_ENTRIES as _MAX_ENTRIES
from . import parse_cache, verify

# the interpreter, and the rules of dsl/verify.py every code kept here passed
_PYTHON = f"{importlib.util.MAGIC_NUMBER.hex()}o{sys.flags.optimize}v{verify.VERSION}"
_memory = parse_cache.Kept()           # source -> its code, for the sources loads use (parse_cache.Kept)
_known: dict[str, set] = {}            # cache file -> the digests known to be in it
_scope = parse_cache.per_thread({"file": None, "disk": None, "used": None})   # this thread's game load


def compiled(text: str, filename: str, *, check) -> CodeType:
    """``compile(text, filename, "exec")``, from memory or the game's cache file when this
    source was compiled before (errors are raised afresh: only what compiles is kept).
    ``check(text)`` (dsl/verify.py) runs before a source is first compiled and gives the tree
    compiled (or None: the source is): what is kept was checked, so it is checked once."""
    code = _memory.get(text)
    if code is None:
        code = _from_disk(text)
        if code is None:
            with warnings.catch_warnings():
                # Python's compile-time hints (`[1, 2][[x]]`: "list indices must be integers") name
                # Python, not the content; what such code does is reported when it runs, in content terms
                warnings.simplefilter("ignore", SyntaxWarning)
                code = compile(check(text) or text, filename, "exec")
        _memory[text] = code
    used = _scope()["used"]
    if used is not None:
        used[text] = code       # (what memory keeps of the load, and its cache file's)
    return _renamed(code, filename)


def _renamed(code: CodeType, filename: str) -> CodeType:
    """``code`` as if compiled from ``filename`` (tracebacks find their content by it)."""
    if code.co_filename == filename:
        return code
    consts = tuple(_renamed(c, filename) if type(c) is CodeType else c for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _from_disk(text: str) -> CodeType | None:
    name = _scope()["file"]
    return _disk(name).get(_digest(text)) if name is not None else None


def _disk(name: str) -> dict:
    """The codes in the game's cache file, read at most once a load."""
    scope = _scope()
    if scope["disk"] is None:
        scope["disk"] = _read(name)
        _known[name] = set(scope["disk"])
    return scope["disk"]


def _read(name: str) -> dict:
    body = parse_cache.read_signed(name)
    if body is None:
        return {}
    try:   # a cache that cannot be read is a cache missed, never the content's fault (RK0219)
        data = marshal.loads(body)   # signed by this folder's key: written by rulekit
    except (ValueError, EOFError, TypeError, MemoryError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if type(k) is str and type(v) is CodeType}


@contextlib.contextmanager
def game(game_folder: str, variants: tuple = ()):
    """Compile the code of one game load (a folder, with its variants): read from, then written
    to, its cache file; what it used is what memory keeps of it (parse_cache.Kept)."""
    scope = _scope()
    outer = dict(scope)
    name = None
    if parse_cache.cache_folder() is not None:
        name = f"code-{_PYTHON}-{parse_cache.game_key(game_folder)}.bin"
    scope.update(file=name, disk=None, used={})
    try:
        yield
    finally:
        _memory.finished((game_folder, tuple(variants)), scope["used"])
        _save()
        scope.update(outer)


def _save() -> None:
    """Write the game's file when it lacks a code this load used."""
    name, used = _scope()["file"], _scope()["used"]
    if name is None or not used:
        return
    digests = {_digest(text): code for text, code in used.items()}
    if digests.keys() <= _known.get(name, set()):
        return
    disk = _disk(name)
    codes = dict(disk) if len(disk) + len(digests) <= _MAX_ENTRIES else {}
    codes.update(digests)
    with contextlib.suppress(ValueError):
        parse_cache.write_signed(name, marshal.dumps(codes))
    _known[name] = set(codes)


def forget() -> None:
    """Forget what this process holds (with parse_cache.forget: tests, benchmarks)."""
    _memory.clear()
    _known.clear()


parse_cache.on_forget(forget)
