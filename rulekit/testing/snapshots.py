# SPDX-License-Identifier: MIT
"""The one store of scripts' transcripts, read and written for ``rulekit test`` and the pytest plugin.

A script's transcript is kept beside it as ``__snapshots__/NAME.ambr``, in syrupy's amber
format under the snapshot name ``NAME`` (what the pytest plugin has always named it), so
``rulekit test --update`` and ``pytest --snapshot-update`` write the same bytes and both
compare the same file. What is kept is ``snapshot_text``: the transcript, or for a script
that checks nothing on the way (no ``expect``, ``legal``, ``refuse`` or ``sees`` step: a game recorded
from bots, perhaps ending with a ``score:`` or ``over:`` check), its start line, a digest and
its result. A ``NAME.transcript`` of an older rulekit is still compared (with the whole
transcript) and kept up to date by ``--update``, never deleted: it is the user's file.

Nothing is written for a script that fails (its stored snapshot stays as it was), nor into
a game folder that is installed (a package's files) or read-only (RK5030).
"""
from __future__ import annotations

import difflib
import os
import sysconfig

import attrs

from ..codes import BAD_SNAPSHOT_FILE, SNAPSHOT_UPDATE_REFUSED, TEST_CHECK_FAILED
from ..errors import RulekitError, UsageError
from ..files import write_atomic
from ..source import Refused, display_path, read_regular

FOLDER = "__snapshots__"
SUFFIX = ".ambr"
LEGACY = ".transcript"
HEADER = "# serializer version: 1"
INDENT = "  "
CHECK_STEPS = frozenset({"expect", "legal", "refuse", "sees"})   # checks on the way; `score:`, `over:` check the end
DIFF_LINES = 80


class CheckFailed(RulekitError):
    """A check of ``rulekit test`` that failed without a rulekit error of its own."""

    code = TEST_CHECK_FAILED


class UnreadableSnapshot(CheckFailed):
    """A stored snapshot file that is not syrupy's amber format (version 1)."""

    code = BAD_SNAPSHOT_FILE


class SnapshotDiffers(CheckFailed):
    """A script's transcript that is not what its snapshot holds."""

    outcome = "failed"


class ReadOnlyGame(UsageError):
    """An update asked of a game folder rulekit must not write to."""

    code = SNAPSHOT_UPDATE_REFUSED


# ------------------------------------------------------------------ what a script's snapshot holds
def transcript_text(path: str, tracer=None, game=None) -> tuple:
    """Run a script: (its ScriptResult, its whole transcript as text); with ``tracer``
    (coverage.Tracer), what it exercised is recorded; ``game``, the script's game already
    loaded (with the script's variants), saves loading it again."""
    from .script import run_script
    if tracer is None:
        result = run_script(path, game_override=game)
    else:
        with tracer:
            result = run_script(path, game_override=game)
            tracer.note_game(result.state)
    return result, "\n".join(result.transcript) + "\n"


def snapshot_text(path: str, game=None, tracer=None) -> tuple:
    """Play a script: (its ScriptResult, the text its snapshot holds): the transcript, or for a
    script that checks nothing on the way, its start line, digest and result."""
    result, text = transcript_text(path, tracer, game)
    return result, (text if checks_something(path) else recorded_game_text(result))


def checks_something(path: str) -> bool:
    import yaml
    data = yaml.safe_load(read_regular(path).decode("utf-8"))
    steps = data.get("actions") if isinstance(data, dict) else None
    return any(isinstance(step, dict) and CHECK_STEPS & set(step) for step in steps or ())


def recorded_game_text(result) -> str:
    """A whole recorded game as a snapshot keeps: how it started, a digest, how it ended."""
    from . import events_digest
    digest = events_digest(result.state)
    lines = [result.transcript[0] if result.transcript else "",
             f"{digest['actions']} actions, {digest['events']} events, sha256 {digest['sha256']}"]
    lines += [line for line in result.transcript if line.startswith("result: ")]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ the amber format
def location(script: str) -> tuple[str, str]:
    """(the snapshot file, the snapshot's name) of a script."""
    folder, name = os.path.split(os.path.abspath(script))
    stem = os.path.splitext(name)[0]
    return os.path.join(folder, FOLDER, stem + SUFFIX), stem


def serialize(text: str) -> str:
    """A text as syrupy's amber serializer writes a ``str`` (line breaks made ``\\n``)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\n" not in text:
        return repr(text)
    return f"'''\n{text}\n'''"


def parse(data: str, where: str) -> dict[str, str]:
    """The snapshots of an amber file: name -> serialized value, as syrupy reads them."""
    lines = data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not lines or lines[0].rstrip() != HEADER:
        raise UnreadableSnapshot(f"`{where}` is not a snapshot file rulekit reads: its first line is not "
                                 f"`{HEADER}` (syrupy's amber format)")
    out, name, value = {}, None, []
    for line in lines[1:]:
        if line.startswith("# "):
            key, _, rest = line[2:].partition(":")
            if key.rstrip() == "name":
                name, value = rest.strip(), []
            elif key.rstrip() == "---":
                if name:
                    out[name] = "\n".join(value)
                name = None
        elif name is not None and line.startswith(INDENT):
            value.append(line[len(INDENT):])
    return out


def render(snapshots: dict[str, str]) -> str:
    """An amber file of ``snapshots`` (name -> serialized value), sorted by name, byte for
    byte as syrupy writes it."""
    out = [HEADER + "\n"]
    for name in sorted(snapshots):
        out.append(f"# name: {name}\n")
        parts = snapshots[name].split("\n")
        out += [INDENT + part + "\n" for part in parts[:-1]]
        if parts[-1]:
            out.append(INDENT + parts[-1])
        out.append("\n# ---\n")
    return "".join(out)


def stored(script: str, folder: str | None = None) -> str | None:
    """The serialized value stored for a script (None when there is none); a file that is no
    regular file inside ``folder`` is refused, for a difference with it would be printed."""
    path, name = location(script)
    data = _read(path, folder)
    return None if data is None else parse(data, display_path(path)).get(name)


def beside(script: str) -> str:
    """The script's snapshot file as named beside it (``__snapshots__/NAME.ambr``)."""
    return os.path.join(FOLDER, os.path.basename(location(script)[0]))


def differs(script: str, text: str, accept: str, folder: str | None = None) -> str | None:
    """What is wrong with the snapshot of ``script`` for ``text`` (from ``snapshot_text``):
    the diff, or None when it matches or none is stored (``accept`` says how to accept it)."""
    now, before = serialize(text), stored(script, folder)
    if before is None or before == now:
        return None
    diff = difflib.unified_diff(before.splitlines(), now.splitlines(), beside(script), "now", lineterm="", n=1)
    return (f"the transcript differs from its snapshot ({accept} accepts it once read):\n"
            + "\n".join(list(diff)[:DIFF_LINES]))


def missing(script: str, accept: str) -> str:
    return (f"new: no snapshot of this script's transcript yet, so nothing compared it: {accept} writes it "
            f"({beside(script)} beside the script); read it, then commit it")


def write(script: str, text: str, folder: str | None = None) -> bool:
    """Store ``text`` as the script's snapshot (other snapshots of the file kept); whether
    the file changed."""
    path, name = location(script)
    data = _read(path, folder, replaced=True)
    snapshots = parse(data, display_path(path)) if data else {}
    if snapshots.get(name) == serialize(text):
        return False
    snapshots[name] = serialize(text)
    if os.path.islink(os.path.dirname(path)):
        raise CheckFailed(f"`{display_path(os.path.dirname(path))}` is a link: snapshots are not written through it")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    _write(path, render(snapshots))
    return True


# ------------------------------------------------------------------ comparing and updating, for both
@attrs.frozen
class Checked:
    """What checking one script's snapshot came to: ``outcome`` is ``passed`` (the same as
    stored), ``new`` (none stored yet: the script passes, and both routes say it is new and how
    to write it), ``created`` or ``updated`` (an update wrote it), or ``legacy`` (only an older
    ``.transcript`` is stored, and matched); ``note`` is what the row says."""

    outcome: str
    note: str = ""


def check(script: str, *, update: bool, accept: str, folder: str | None = None, tracer=None, game=None,
          unwritable: str | None = None) -> Checked:
    """Play a script and compare it with what is stored (``update``: store it instead, only if
    it passed, which it did if this returns); ``rulekit test`` and the pytest plugin both decide
    by it, so they never disagree. Raises on a failure (``SnapshotDiffers`` for a transcript
    that is not what is stored). ``accept``: the command that updates (for messages);
    ``unwritable``: the folder to check before anything is written."""
    if update:
        here = os.path.dirname(os.path.abspath(script))
        refuse_writes(unwritable or _game_folder(here), accept, also=(here,))
    result, text = snapshot_text(script, game, tracer)
    whole = "\n".join(result.transcript) + "\n"
    legacy = os.path.splitext(script)[0] + LEGACY
    has_legacy = os.path.lexists(legacy)
    if update:
        had = stored(script, folder) is not None
        wrote = [location(script)[0]] if write(script, text, folder) else []
        if has_legacy and _update_legacy(legacy, whole, folder):
            wrote.append(legacy)
        note = "; ".join(f"wrote {display_path(p)}" for p in wrote) + (_legacy_note(legacy) if has_legacy else "")
        return Checked("passed" if not wrote else "updated" if had else "created", note.lstrip("; "))
    problem = differs(script, text, accept, folder)
    if problem:
        raise SnapshotDiffers(problem)
    if has_legacy:
        before = _read(legacy, folder)
        if before is not None and before != whole:
            diff = difflib.unified_diff(before.splitlines(), result.transcript, display_path(legacy), "now",
                                        lineterm="", n=1)
            raise SnapshotDiffers(f"the transcript differs from the stored one ({accept} to accept it):\n"
                              + "\n".join(list(diff)[:60]))
    if stored(script, folder) is None:
        if not has_legacy:
            return Checked("new", missing(script, accept))
        return Checked("legacy", _legacy_note(legacy).lstrip("; "))
    return Checked("passed", _legacy_note(legacy).lstrip("; ") if has_legacy else "")


# ------------------------------------------------------------------ snapshots whose script is gone
OUTCOMES = ("passed", "failed", "new", "created", "updated", "unused", "deleted")


@attrs.define
class Tally:
    """How many snapshots each outcome had in a run: the summary both routes print."""

    counts: dict = attrs.Factory(dict)

    def add(self, outcome: str | None) -> None:
        outcome = "passed" if outcome == "legacy" else outcome
        if outcome in OUTCOMES:
            self.counts[outcome] = self.counts.get(outcome, 0) + 1

    def line(self) -> str:
        """``snapshots: 35 passed, 1 new`` (the outcomes that happened, in a fixed order), or ""."""
        parts = [f"{self.counts[o]} {o}" for o in OUTCOMES if self.counts.get(o)]
        return "snapshots: " + ", ".join(parts) if parts else ""


def unused(folder: str) -> list[str]:
    """The snapshot files below ``folder`` whose script is gone: ``__snapshots__/NAME.ambr`` with
    no ``NAME.yaml``, ``NAME.yml`` (nor a Python test module ``NAME.py``, syrupy's own) beside
    the ``__snapshots__`` folder. Regular files only; links are never followed."""
    out = []
    for dirpath, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        if os.path.basename(dirpath) != FOLDER:
            continue
        parent = os.path.dirname(dirpath)
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            stem = name[:-len(SUFFIX)]
            if (name.endswith(SUFFIX) and os.path.isfile(path) and not os.path.islink(path)
                    and not any(os.path.lexists(os.path.join(parent, stem + ext)) for ext in (".yaml", ".yml", ".py"))):
                out.append(path)
    return out


def unused_message(path: str, accept: str) -> str:
    stem = os.path.basename(path)[:-len(SUFFIX)]
    return (f"unused: `{display_path(path)}` is the snapshot of a script that is gone ({stem}.yaml); {accept} "
            "deletes it (on a run of the whole game, never of a selection)")


def delete(path: str) -> None:
    try:
        os.unlink(path)
    except OSError as exc:
        raise UsageError(f"cannot delete `{display_path(path)}`: {exc.strerror or exc}") from None


def _game_folder(folder: str) -> str:
    """The game folder a script's folder lies in (the nearest with ``game.yaml``), else itself."""
    here = folder
    while not os.path.isfile(os.path.join(here, "game.yaml")):
        up = os.path.dirname(here)
        if up == here:
            return folder
        here = up
    return here


def _legacy_note(legacy: str) -> str:
    name = os.path.basename(legacy)
    return (f"; {name} (an older store) is compared too: the snapshot in {FOLDER}/ holds the same now, "
            f"delete {name} when you no longer need it")


def _update_legacy(legacy: str, whole: str, folder: str | None) -> bool:
    try:
        same = _read(legacy, folder) == whole
    except CheckFailed:     # not the folder's own file (a link out, a pipe): replaced, unread
        same = False
    if not same:
        _write(legacy, whole)
    return not same


# ------------------------------------------------------------------ what may be written
def installed(path: str) -> bool:
    """Whether ``path`` lies among installed packages' files (site-packages), which are not the
    user's to edit even where the file system allows it."""
    real = os.path.realpath(path)
    parts = real.split(os.sep)
    if "site-packages" in parts or "dist-packages" in parts:
        return True
    roots = {os.path.realpath(r) for r in (sysconfig.get_paths().get(k) for k in ("purelib", "platlib")) if r}
    return any(real == r or real.startswith(r + os.sep) for r in roots)


def refuse_writes(folder: str, accept: str, also: tuple = ()) -> None:
    """Stop (RK5030) before an update would write into ``folder`` (or the folders ``also``
    names): an installed game, or a folder nobody may write to (even root: its owner made it
    read-only)."""
    folder = os.path.abspath(folder)
    written = [os.path.abspath(f) for f in (folder, *also)]
    if any(installed(f) for f in written):
        why = "is an installed game: its files belong to the installed package, not to you"
    elif any(_read_only(p) for f in written for p in (f, os.path.join(f, FOLDER)) if os.path.isdir(p)):
        why = "is read-only"
    else:
        return
    name = os.path.basename(folder.rstrip(os.sep)) or "mygame"
    raise ReadOnlyGame(f"`{display_path(folder)}` {why}; {accept} writes nothing there. To change its snapshots, "
                       f"copy the game and work on the copy: `cp -r {display_path(folder)} ./{name}`")


def _read_only(path: str) -> bool:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not mode & 0o222 or not os.access(path, os.W_OK)


def _read(path: str, folder: str | None = None, replaced: bool = False) -> str | None:
    """A stored file's text (None when there is none); one that is no regular file inside the
    game's folder is refused (``replaced``: it is about to be replaced, so it is not read)."""
    try:
        return read_regular(path, folder).decode("utf-8", errors="replace")
    except Refused as exc:
        if replaced:
            return None
        raise CheckFailed(f"`{display_path(path)}` is not read: it is {exc.problem}") from None
    except OSError:
        return None


def _write(path: str, text: str) -> None:
    """A stored file is the game folder's own: whatever lies at its name (a link a shared
    folder planted, a pipe) is replaced itself, never followed to a file elsewhere."""
    try:
        write_atomic(path, text.encode("utf-8"), follow=False)
    except OSError as exc:
        raise UsageError(f"cannot write `{path}`: {exc.strerror or exc}") from None
