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

import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator

from ..codes import BAD_BATCH_LINE, RESUME_OTHER_BATCH
from ..errors import UsageError
from ..files import write_bytes

FORMAT = "rulekit-simulate-batch"
VERSION = 1
# what a resumed file must share with the command, as (header key, what it is called)
IDENTITY = (("game", "game"), ("content_hash", "content hash"), ("seed", "seed"), ("players", "players"),
            ("bots", "bots"), ("max_actions", "action cap (--max-actions)"))
SHOWN_PROBLEMS = 10     # lines reported one by one; the rest are counted


class BatchMismatch(UsageError):
    """A ``--resume`` file that is not a batch of the same game, content, seed, seats and cap."""

    code = RESUME_OTHER_BATCH


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


def _check_header(path: str, first: bytes, head: dict) -> None:
    try:
        found = json.loads(first)
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
        if found.get("variants") != head["variants"]:
            differ.append(f"variants {_shown(found.get('variants'))} in the file, {_shown(head['variants'])} here")
        raise BatchMismatch(f"cannot resume `{path}`: it is another batch ({'; '.join(differ)}); run the "
                            "command that started it, or write this batch to another file")


def _shown(value) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value)) or "none"
    return "none" if value is None else str(value)


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
        record = json.loads(line)
    except ValueError as exc:
        return f"not JSON ({exc.msg.removesuffix(' at')} at column {exc.colno})" + again
    if not isinstance(record, dict) or type(record.get("index")) is not int or record["index"] < 0:
        return "not a game record (no game index)" + again
    wrong = valid(record)
    if wrong:
        return f"game {record['index']}: {wrong}" + again
    if not held.add(record["index"]):
        return f"game {record['index']} again (its first line is kept)"
    return None


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
                record = json.loads(line)
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
