# SPDX-License-Identifier: MIT
"""A batch of simulated games as a JSON Lines file, written as the games finish.

The first line is the batch's header (the game, its content hash, the batch seed, the
bots, the player count, the variants, the action cap); each further line is one game's
record, written whole and flushed when the game's record reaches the writing process.
Nothing keeps every record in memory: a resumed batch is told from its file by a
bitmap of the game indices it holds, and its figures are read back one line at a time.

A file is resumed only if its header names the same batch (:data:`IDENTITY`), else
``RESUME_OTHER_BATCH`` says what differs. A line that is not a record of this batch (corrupt,
cut short by a kill, a game twice) is reported (``BAD_BATCH_LINE``), dropped from the file,
and its game played again.
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator

from ..codes import BAD_BATCH_LINE, BATCH_LOCKED, RESUME_OTHER_BATCH
from ..errors import UsageError
from ..files import write_bytes
from ..limits import BATCH_LINE_DEPTH as MAX_DEPTH

FORMAT = "rulekit-simulate-batch"
VERSION = 1
# what a resumed file must share with the command, as (header key, what it is called)
IDENTITY = (("game", "game"), ("content_hash", "content hash"), ("variants", "variants"), ("seed", "seed"),
            ("game_seeds", "seed scheme"), ("players", "players"), ("bots", "bots"),
            ("max_actions", "action cap (--max-actions)"))
SHOWN_PROBLEMS = 10     # lines reported one by one; the rest are counted
_BRACKETS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')    # a JSON string (skipped) or a bracket


class BatchMismatch(UsageError):
    """A ``--resume`` file that is not a batch of the same game, content, seed, seats and cap."""

    code = RESUME_OTHER_BATCH


class BatchLocked(UsageError):
    """A batch file another ``rulekit simulate`` is writing: two writers would mix their records."""

    code = BATCH_LOCKED


@contextlib.contextmanager
def locked(path: str):
    """Hold ``PATH.lock`` (an advisory lock the system drops when the holder dies, so a killed
    batch leaves none behind) while a batch is written; a second writer of the same file refuses
    to start. Where the platform has no ``flock``, nothing is locked."""
    try:
        import fcntl
    except ImportError:         # pragma: no cover - not POSIX
        yield
        return
    lock = path + ".lock"
    while True:
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as exc:
            raise UsageError(f"cannot lock `{path}` ({lock}): {exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise BatchLocked(f"`{path}` is being written by another `rulekit simulate` (it holds `{lock}`): "
                              "wait for it to end, then --resume") from None
        try:
            same = os.stat(lock, follow_symlinks=False).st_ino == os.fstat(fd).st_ino
        except OSError:
            same = False        # its holder removed it as it ended: lock a new one
        if same:
            break
        os.close(fd)
    try:
        yield
    finally:
        try:
            os.unlink(lock)
        finally:
            os.close(fd)


def header(game, variants, players: int, seed: int, bots: list[str], cap: int) -> dict:
    from .. import __version__
    return {"format": FORMAT, "version": VERSION, "game": game.name, "title": game.title,
            "content_hash": game.content_hash, "variants": list(variants), "players": players, "seed": seed,
            "game_seeds": "sha256", "bots": list(bots), "max_actions": cap, "rulekit": __version__}


def encoded(record: dict) -> bytes:
    """One line of the file: compact JSON, keys in the record's own (fixed) order."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n"


def start(path: str, head: dict) -> None:
    """A new batch file holding only its header (written whole: it replaces any old file at once)."""
    write_bytes(path, encoded(head))


class Held:
    """What a batch file holds of games ``0..games-1``: a bitmap (flat memory: a byte a game)."""

    def __init__(self, games: int):
        self.bits = bytearray(games)
        self.count = 0

    def add(self, index: int) -> bool:
        """Mark ``index`` held; False when it already was."""
        if index < len(self.bits):
            if self.bits[index]:
                return False
            self.bits[index] = 1
            self.count += 1
        return True

    def missing(self) -> Iterator[int]:
        return (i for i, held in enumerate(self.bits) if not held)


def resume(path: str, head: dict, games: int, valid: Callable[[dict], str | None], warn=None) -> Held:
    """The games a batch file already holds, after checking that it is this batch (RESUME_OTHER_BATCH if not)
    and dropping, with a warning each (BAD_BATCH_LINE), every line that is no record of it. A missing or
    empty file is a new batch: its header is written."""
    warn = warn or _warn
    try:
        with open(path, "rb") as handle:
            first = handle.readline()
    except FileNotFoundError:
        first = b""
    except OSError as exc:
        raise UsageError(f"cannot read `{path}` to resume it: {exc.strerror or exc}") from None
    if not first:
        start(path, head)
        return Held(games)
    _check_header(path, first, head)
    held, bad, good_end, size = _scan(path, games, valid, warn)
    if bad or good_end < size:
        _rewrite(path, held, games, valid)
    return held


def parsed(line: bytes):
    """A line of a batch file as JSON, refused (ValueError, saying why) when it nests deeper than
    MAX_DEPTH or holds a number that is not finite (NaN, Infinity), before ``json`` recurses into it."""
    if line.count(b"[") + line.count(b"{") > MAX_DEPTH:      # only then is the depth worth counting
        depth = deepest = 0
        for token in _BRACKETS.finditer(line):
            bracket = token.group()
            if bracket in (b"[", b"{"):
                depth += 1
                deepest = max(deepest, depth)
            elif bracket in (b"]", b"}"):
                depth -= 1
        if deepest > MAX_DEPTH:
            raise ValueError(f"nested {deepest:,} deep (at most {MAX_DEPTH})")
    return json.loads(line, parse_constant=_not_finite)


def _not_finite(name: str):
    raise ValueError(f"`{name}` is not a finite number")


def _check_header(path: str, first: bytes, head: dict) -> None:
    try:
        found = parsed(first)
    except ValueError:
        found = None
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        raise BatchMismatch(f"cannot resume `{path}`: its first line is not a `rulekit simulate` batch header")
    if found.get("version") != VERSION:
        raise BatchMismatch(f"cannot resume `{path}`: it is a batch file of version {found.get('version')!r}; "
                            f"this rulekit writes version {VERSION}")
    differ = [f"{label} {_shown(found.get(key))} in the file, {_shown(head[key])} here"
              for key, label in IDENTITY if found.get(key) != head[key]]
    if differ:
        raise BatchMismatch(f"cannot resume `{path}`: it is another batch ({'; '.join(differ)}); run the "
                            "command that started it, or write this batch to another file")


def _shown(value) -> str:
    if isinstance(value, list):
        return ",".join(map(_shown, value))[:200] or "none"
    return "none" if value is None else str(value)[:200]


def _scan(path: str, games: int, valid, warn) -> tuple[Held, int, int, int]:
    """One pass over the records: (held, lines dropped, offset where whole lines end, file size)."""
    held = Held(games)
    bad = 0
    offset = good_end = 0
    with open(path, "rb") as handle:
        handle.readline()
        offset = good_end = handle.tell()
        for number, line in enumerate(handle, start=2):
            offset += len(line)
            problem = _problem(line, held, valid)
            if problem is None:
                good_end = offset
                continue
            bad += 1
            if bad <= SHOWN_PROBLEMS:
                warn(f"warning[{BAD_BATCH_LINE}]: {path}:{number}: {problem}: dropped from the file")
    if bad > SHOWN_PROBLEMS:
        warn(f"warning[{BAD_BATCH_LINE}]: {path}: {bad - SHOWN_PROBLEMS} more lines dropped")
    return held, bad, good_end, offset


def _problem(line: bytes, held: Held, valid) -> str | None:
    """Why a line is no record of the batch (marking its game held when it is one)."""
    again = "; its game is played again"
    if not line.endswith(b"\n"):
        return "a line cut short (the batch was stopped while writing it)" + again
    try:
        record = parsed(line)
    except json.JSONDecodeError as exc:
        return f"not JSON ({exc.msg.removesuffix(' at')} at column {exc.colno})" + again
    except ValueError as exc:
        return f"not a record: {exc}" + again
    if not isinstance(record, dict) or type(record.get("index")) is not int or record["index"] < 0:
        return "not a game record (no game index)" + again
    wrong = valid(record)
    if wrong:
        return f"game {record['index']}: {wrong}" + again
    if not held.add(record["index"]):
        return f"game {record['index']} again (its first line is kept)"
    return None


def record_problem(record: dict, players: int) -> str | None:
    """Why a record read back is not of a game record's shape (docs/cli.md), if it is not: every
    field's type, the seats' range and the numbers' finiteness checked, since the figures are
    worked out from it (a winner seat 7 of 4 players, a text for rounds, a NaN score)."""
    stalled = record.get("stalled")
    wanted = {"seed": _whole(record.get("seed")), "stalled": type(stalled) is bool,
              "bots": _texts(record.get("bots"), players),
              "scores": _scores(record.get("scores"), 0 if stalled else players),
              "winners": _seats(record.get("winners"), players, stalled),
              "rounds": record.get("rounds") is None or _whole(record.get("rounds")),
              "decisions": _whole(record.get("decisions")), "actions": _counts(record.get("actions")),
              "discarded_worlds": _whole(record.get("discarded_worlds", 0)),
              "error": isinstance(record.get("error", ""), str)}
    wrong = [key for key, fits in wanted.items() if not fits]
    if wrong:
        return f"not a game record of {players} players (its {', '.join(wrong)})"
    return None


def _whole(value) -> bool:
    return type(value) is int and value >= 0


def _texts(value, count: int) -> bool:
    return type(value) is list and len(value) == count and all(type(v) is str for v in value)


def _scores(value, count: int) -> bool:
    return type(value) is list and len(value) == count and all(
        (type(v) is int or type(v) is float) and math.isfinite(v) for v in value)


def _seats(value, players: int, stalled) -> bool:
    return type(value) is list and len(set(value)) == len(value) and (not value or not stalled) and all(
        type(v) is int and 0 <= v < players for v in value) and (bool(value) or stalled is True)


def _counts(value) -> bool:
    return type(value) is dict and all(type(k) is str and _whole(v) for k, v in value.items())


def _rewrite(path: str, held: Held, games: int, valid) -> None:
    """The file again with its good lines only (line by line into a new file moved over the old one)."""
    again = Held(games)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out, open(path, "rb") as handle:
            out.write(handle.readline())
            for line in handle:
                if _problem(line, again, valid) is None:
                    out.write(line)
        os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def records(path: str, games: int) -> Iterator[dict]:
    """The records of games ``0..games-1`` in a batch file, one line at a time (the header
    and any line that is not a record skipped)."""
    with open(path, "rb") as handle:
        handle.readline()
        for line in handle:
            try:
                record = parsed(line)
            except ValueError:
                continue
            if isinstance(record, dict) and type(record.get("index")) is int and 0 <= record["index"] < games:
                yield record


class Appender:
    """Appends whole record lines to a batch file, flushed as they come."""

    def __init__(self, path: str):
        try:
            self.handle = open(path, "ab")
        except OSError as exc:
            raise UsageError(f"cannot write `{path}`: {exc.strerror or exc}") from None
        self.path = path
        self.written = 0

    def __call__(self, done: list[dict]) -> None:
        self.handle.write(b"".join(encoded(record) for record in done))
        self.handle.flush()
        self.written += len(done)

    def close(self) -> None:
        self.handle.close()


def _warn(text: str) -> None:
    print(text, file=sys.stderr)
