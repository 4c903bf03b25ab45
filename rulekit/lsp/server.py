# SPDX-License-Identifier: MIT
"""The server: pygls wiring, the buffers, and the one checker thread.

Every edit bumps its target's count (a game folder, or a file of no game) and wakes the
checker; a round publishes each file once, when its set is final: the game's files and its
variants' once the rule checks end, each open script when its play ends (until then it keeps
what it showed, so squiggles never flicker through an empty set), and is dropped between stages
when an edit came meanwhile (cancellation: the next round starts from the new text). Requests
never wait for a check: they read the index of the last round. A handler that fails is
answered with an LSP error by pygls and logged; the server goes on.
"""
from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from . import checking, completion, diagnostics, hover, names, navigation, symbols
from .documents import game_folder, lines_of, real
from .lookup import target_at
from .positions import code_point

log = logging.getLogger(__name__)


class Session:
    """The buffers by real path, what each target has had published, and the checker thread."""

    def __init__(self, server: LanguageServer):
        self.server = server
        self.texts: dict = {}           # real path -> buffer text (replaced whole, never changed in place)
        self.versions: dict = {}        # real path -> the buffer's version (published with its diagnostics)
        self.edits: dict = {}           # target -> edits so far
        self.dirty: list = []           # targets to check, in order
        self.published: dict = {}       # target -> paths given diagnostics
        self.indexes: dict = {}         # game folder -> names.Index of its last round
        # game folder -> (real path, line, column) -> what the front end found a local name there holds,
        # from the last round whose game loaded (Game.name_kinds): the hover of a local says it
        self.kinds: dict = {}
        self.runs: dict = {}            # target -> script path -> what its latest play found, by path
        self.gave_way: set = set()      # targets whose script gave way to another target's round
        self.asked: dict = {}           # real path -> completions of its script's actions asked so far
        # a script's actions are worked out in bounded children waited on here, never in the pool
        # other requests share (eight that never ended left definitions waiting for ever)
        self.plays = ThreadPoolExecutor(max_workers=2, thread_name_prefix="rulekit-actions")
        self.wake = threading.Condition()
        self.loop = None
        self.thread = threading.Thread(target=self._work, name="rulekit-checker", daemon=True)

    # -- buffers -------------------------------------------------------------------------
    def changed(self, uri: str, text: str | None, version: int | None = None) -> None:
        path = real(to_fs_path(uri))
        texts = dict(self.texts)
        if text is None:
            texts.pop(path, None)
        else:
            texts[path] = text
        self.versions = {**self.versions, path: version}
        self.texts = texts
        self.touch(target_of(path))

    def touch(self, target) -> None:
        with self.wake:
            self.edits[target] = self.edits.get(target, 0) + 1
            if target not in self.dirty:
                self.dirty.append(target)
            self.wake.notify()

    def text(self, path: str) -> str:
        found = self.texts.get(path)
        if found is not None:
            return found
        line = lines_of({})
        out, n = [], 1
        while (row := line(path, n)) is not None:
            out.append(row)
            n += 1
        return "\n".join(out)

    # -- the checker ---------------------------------------------------------------------
    def _work(self) -> None:
        while True:
            with self.wake:
                while not self.dirty:
                    self.wake.wait()
                target = self.dirty.pop(0)
                edits = self.edits.get(target, 0)
            try:
                self._round(target, edits)
            except Exception:  # a bug in a round must not end the checker
                log.exception("checking %s failed", target)

    def _round(self, target, edits: int) -> None:
        texts, versions = self.texts, self.versions
        found: dict = {}
        yielded: list = []

        def stale() -> bool:
            """A script's run ends at an edit of its game, or gives way once when another target
            waits (then this one is checked again after it, and runs to its bound: two scripts
            that never end take turns rather than giving way to each other for ever)."""
            if self.edits.get(target, 0) != edits:
                return True
            if target not in self.gave_way and any(other != target for other in self.dirty):
                yielded.append(True)
                return True
            return False
        try:
            self._checked(target, edits, texts, versions, found, stale)
        finally:
            if yielded:
                self.gave_way.add(target)
                self.touch(target)
            else:
                self.gave_way.discard(target)

    def _checked(self, target, edits: int, texts: dict, versions: dict, found: dict, stale) -> None:
        """One round's stages, each file published once, when its set is final (the round's rule
        checks, its script's play), then the index requests read. A stage ends the round when an edit
        came meanwhile (stale: the round for the newer text is queued), and what was published stays."""
        runs = self.runs.setdefault(target, {})
        scripts = {p for p in texts if target_of(p) == target and checking.kind_of(texts[p]) == "script"}
        for gone in set(runs) - scripts:
            del runs[gone]
        checked = False
        for stage in self._stages(target, texts, stale):
            log.debug("stage %s done at %.3f", stage.name, time.perf_counter())
            if self.edits.get(target, 0) != edits:
                return
            if stage.name == "game" and isinstance(target, str):
                self.kinds[target] = {} if stage.game is None else _by_real_path(stage.game.name_kinds())
            if stage.played is None:
                for path, ds in stage.found.items():
                    found.setdefault(path, []).extend(d for d in ds if d not in found.get(path, ()))
                continue
            if not checked:
                self._publish(target, found, runs, texts, versions, skip=scripts)
                checked = True
            before = self._shown(found, runs)
            runs[stage.played] = {stage.played: (), **stage.found}
            after = self._shown(found, runs)
            changed = {p for p in set(before) | set(after) if before.get(p) != after.get(p)}
            self._publish(target, found, runs, texts, versions, only=changed | {stage.played})
        if not checked:
            self._publish(target, found, runs, texts, versions, skip=scripts - {p for p in found})
        if isinstance(target, str) and self.edits.get(target, 0) == edits:
            index = names.build(target, texts)      # last: requests read the previous one meanwhile
            if index is not None:
                self.indexes[target] = index

    def _stages(self, target, texts: dict, stale):
        """The stages of a round; a script's runs in a bounded child that ``stale()`` ends at once."""
        if isinstance(target, tuple):
            path = target[1]
            kind = checking.kind_of(texts.get(path) or self.text(path))
            if kind == "script":
                stage = checking.script_stage(path, texts, stale)
            else:
                stage = checking.syntax_stage(path, texts)
            if stage is not None:
                yield stage
            return
        scripts = tuple(p for p, t in texts.items() if target_of(p) == target and checking.kind_of(t) == "script")
        yield from checking.game_rounds(target, texts, scripts, stale=stale)

    @staticmethod
    def _shown(found: dict, runs: dict) -> dict:
        """Path -> what it shows: the round's rule checks, then what each script's latest play found
        there (a script's failure may sit on a rule's line), each diagnostic once."""
        out: dict = {path: list(ds) for path, ds in found.items()}
        for run in runs.values():
            for path, ds in run.items():
                have = out.setdefault(path, [])
                have.extend(d for d in ds if d not in have)
        return out

    def _publish(self, target, found: dict, runs: dict, texts: dict, versions: dict, skip=(), only=None) -> None:
        """Publish the files of ``target`` (``only`` those, or all but ``skip``: scripts whose play is
        still to come keep what they showed until it ends, never an empty set it would replace)."""
        shown = self._shown(found, runs)
        opened = {p for p in texts if target_of(p) == target}
        paths = set(shown) | self.published.get(target, set()) | opened
        paths = (paths & only) if only is not None else paths - set(skip)
        self.published[target] = {p for p in self.published.get(target, set()) | paths if shown.get(p)}
        line = lines_of(texts)
        for path in sorted(paths):
            params = types.PublishDiagnosticsParams(
                uri=from_fs_path(path), diagnostics=[diagnostics.convert(d, line) for d in shown.get(path, ())],
                version=versions.get(path) if path in texts else None)
            self.loop.call_soon_threadsafe(self.server.text_document_publish_diagnostics, params)

    # -- requests ------------------------------------------------------------------------
    def holds(self, uri: str, line: int, target) -> str | None:
        """What the front end found the local name ``target`` at 0-based ``line`` holds, if it is one."""
        if not target.local:
            return None
        path = real(to_fs_path(uri))
        return self.kinds.get(target_of(path), {}).get((path, line + 1, target.word.column))

    async def index_of(self, path: str):
        folder = target_of(path)
        if not isinstance(folder, str):
            return None
        index = self.indexes.get(folder)
        if index is None:
            index = await asyncio.get_running_loop().run_in_executor(None, names.build, folder, self.texts)
            if index is not None:
                self.indexes.setdefault(folder, index)
        return index

    def place(self, uri: str, position: types.Position) -> tuple[str, str, int, int]:
        """(real path, the line's text, 0-based line, code-point column)."""
        path = real(to_fs_path(uri))
        lines = self.text(path).split("\n")
        text = lines[position.line] if position.line < len(lines) else ""
        return path, text, position.line, code_point(text, position.character)


def _by_real_path(kinds: dict) -> dict:
    """``Game.name_kinds`` keyed by the files' real paths, as requests name them (each file's path
    resolved once, not once a name)."""
    paths = {path: real(path) for path, _line, _column in kinds}
    return {(paths[path], line, column): kind for (path, line, column), kind in kinds.items()}


def target_of(path: str):
    """A file's target: its game folder, or ("file", path) for a file of no game."""
    return game_folder(path) or ("file", path)


def _location(span, line) -> types.Location:
    return types.Location(from_fs_path(real(span.path)), diagnostics.to_range(span, line))


def build_server(version: str = "") -> LanguageServer:
    server = LanguageServer("rulekit", version)
    session = Session(server)
    _sync_documents(server, session)
    _navigate(server, session)
    _edit(server, session)
    return server


def _sync_documents(server: LanguageServer, session: Session) -> None:
    """Buffers as they stand: each change re-checks its game (the checker's thread)."""
    @server.feature(types.INITIALIZED)
    async def initialized(ls, params):
        _ensure_started(session)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls, params: types.DidOpenTextDocumentParams):
        _ensure_started(session)
        session.changed(params.text_document.uri, params.text_document.text, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls, params: types.DidChangeTextDocumentParams):
        document = ls.workspace.get_text_document(params.text_document.uri)
        session.changed(params.text_document.uri, document.source, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls, params: types.DidCloseTextDocumentParams):
        session.changed(params.text_document.uri, None)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def watched(ls, params: types.DidChangeWatchedFilesParams):
        for change in params.changes:
            session.touch(target_of(real(to_fs_path(change.uri))))


async def _target(session: Session, params) -> tuple:
    """(the game's index, the name under the cursor or None, the cursor's line)."""
    path, text, line, column = session.place(params.text_document.uri, params.position)
    index = await session.index_of(path)
    return index, target_at(index, path, text, line, column), line


def _word_range(line: int, word) -> types.Range:
    return types.Range(types.Position(line, word.column - 1), types.Position(line, word.end - 1))


def _navigate(server: LanguageServer, session: Session) -> None:
    """Hover, definition, references and rename: what the name under the cursor is."""
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls, params: types.HoverParams):
        _index, target, line = await _target(session, params)
        shown = hover.hover_text(target, session.holds(params.text_document.uri, line, target)) \
            if target is not None else None
        if shown is None:
            return None
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, shown), _word_range(line, target.word))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def on_definition(ls, params: types.DefinitionParams):
        index, target, _line = await _target(session, params)
        if target is None or index is None:
            return None
        spans = navigation.definitions(target) + navigation.property_spans(index, target)
        rows = lines_of(session.texts)
        return [_location(s, rows) for s in spans if s is not None] or None

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    async def on_references(ls, params: types.ReferenceParams):
        index, target, _line = await _target(session, params)
        if target is None or index is None or not target.symbols:
            return None
        spans = navigation.references(index, target.symbols, params.context.include_declaration)
        rows = lines_of(session.texts)
        return [_location(s, rows) for s in spans]

    @server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
    async def on_prepare_rename(ls, params: types.PrepareRenameParams):
        _index, target, line = await _target(session, params)
        if navigation.rename_target(target) is None:
            return None
        return _word_range(line, target.word)

    @server.feature(types.TEXT_DOCUMENT_RENAME)
    async def on_rename(ls, params: types.RenameParams):
        index, target, _line = await _target(session, params)
        symbol = navigation.rename_target(target)
        if symbol is None:
            raise ValueError("only a procedure, function, parameter, variable, zone, set or table is renamed")
        rows = lines_of(session.texts)
        changes: dict = {}
        for span in navigation.rename_spans(index, symbol, params.new_name):
            location = _location(span, rows)
            changes.setdefault(location.uri, []).append(types.TextEdit(location.range, params.new_name))
        return types.WorkspaceEdit(changes=changes)


def _edit(server: LanguageServer, session: Session) -> None:
    """Completion, the outline and quick fixes."""
    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[".", " "]))
    async def on_completion(ls, params: types.CompletionParams):
        path, text, line, column = session.place(params.text_document.uri, params.position)
        whole = session.text(path)
        prefix = completion.action_prefix(whole, line) if checking.kind_of(whole) == "script" else None
        if prefix is not None:
            return await _actions(session, path, prefix)
        index = await session.index_of(path)
        return types.CompletionList(is_incomplete=False, items=completion.complete(index, path, text, line, column))

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def on_symbols(ls, params: types.DocumentSymbolParams):
        path = real(to_fs_path(params.text_document.uri))
        return symbols.outline(path, session.text(path))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION)
    async def on_code_action(ls, params: types.CodeActionParams):
        return diagnostics.quick_fixes(params.text_document.uri, params.context.diagnostics) or None


def _ensure_started(session: Session) -> None:
    """Start the checker (a client that sends no ``initialized`` still gets diagnostics)."""
    if session.loop is None:
        session.loop = asyncio.get_running_loop()
    if not session.thread.is_alive():
        session.thread.start()


async def _actions(session: Session, path: str, prefix) -> types.CompletionList:
    """The legal actions at a script's step, worked out by playing the steps before it in a bounded
    child process (lsp/bounded.py), given up when the buffer changes or another completion of it
    is asked."""
    text, seat = prefix
    target = target_of(path)
    asked = session.asked[path] = session.asked.get(path, 0) + 1
    edits = session.edits.get(target, 0)

    def stale() -> bool:
        return session.asked.get(path) != asked or session.edits.get(target, 0) != edits
    loop = asyncio.get_running_loop()
    legal = await loop.run_in_executor(session.plays, completion.bounded_actions, path, session.texts, text, stale)
    # each shown as the seat may read it, written as the script must (completion.legal_actions_at)
    items = [types.CompletionItem(shown, kind=types.CompletionItemKind.Value, insert_text=notation,
                                  filter_text=notation, detail=f"legal for {seat}" if seat else "legal action",
                                  sort_text=f"{i:05d}") for i, (notation, shown) in enumerate(legal)]
    return types.CompletionList(is_incomplete=False, items=items)


def main(version: str = "") -> int:
    """Serve over stdio until the client says exit (``version``: rulekit's, told to the client)."""
    logging.basicConfig(level=logging.WARNING, format="rulekit lsp: %(levelname)s %(name)s: %(message)s")
    logging.getLogger("rulekit").setLevel(logging.DEBUG if os.environ.get("RULEKIT_LSP_DEBUG") else logging.INFO)
    channel = sys.stdout.buffer
    sys.stdout = sys.stderr         # the protocol owns standard output: a stray print must not break it
    build_server(version).start_io(sys.stdin.buffer, channel)
    return 0
