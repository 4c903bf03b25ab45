# SPDX-License-Identifier: MIT
"""A real LSP client for the tests: pygls's LanguageClient driving ``rulekit lsp`` over stdio,
its asyncio loop in a thread of its own, with plain (blocking) calls for the tests."""
from __future__ import annotations

import asyncio
import os
import shutil
import sys
import threading
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

# How long a test waits for what the server publishes or answers before calling it hung: a backstop,
# never a measure of speed. A loaded machine stretches a check's wall-clock time many times over
# (at 60 s, Goa's first round, its rule checks then a scenario's play, timed out under two busy
# loops, and every later test of the module queued behind it and timed out in turn).
TIMEOUT = 600.0


class Editor:
    """One server process and what it published: ``diagnostics(path, version)`` waits for them."""

    def __init__(self, root: str | None = None, env: dict | None = None):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.client = LanguageClient("rulekit-tests", "1")
        self.published: dict = {}       # uri -> [(version, [Diagnostic], time)]
        self.versions: dict = {}
        self.changed = threading.Condition()
        self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(lambda params: self._on_diagnostics(params))
        command = shutil.which("rulekit") or sys.executable
        args = [] if command.endswith("rulekit") else ["-m", "rulekit"]
        self.call(self.client.start_io(command, *args, "lsp", env={**os.environ, **(env or {})}))
        self.log: list = []             # the server's standard error (its log), read as it comes
        self.call(self._drain_started())
        root_uri = from_fs_path(os.path.abspath(root or os.getcwd()))
        self.init = self.call(self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=root_uri, process_id=os.getpid())))
        self.notify(self.client.initialized, types.InitializedParams())

    def call(self, coroutine, timeout: float = TIMEOUT):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def notify(self, send, params) -> None:
        """Send a notification from the client's loop thread: pygls writes it to the pipe at once, and
        a write from this thread raced the loop's own (a bytearray resized while being written:
        BufferError, and the notification was lost, so a test waited for ever)."""
        async def on_loop():
            send(params)
        self.call(on_loop())

    async def _drain_started(self) -> None:
        asyncio.get_running_loop().create_task(self._drain(self.client._server.stderr))

    async def _drain(self, stream) -> None:
        """Read the server's log so that its pipe never fills (a full pipe would stop the server)."""
        while line := await stream.readline():
            self.log.append(line.decode("utf-8", "replace").rstrip())
            if os.environ.get("RULEKIT_LSP_DEBUG"):
                print(f"{time.perf_counter():.3f}", self.log[-1], file=sys.stderr)

    def _on_diagnostics(self, params: types.PublishDiagnosticsParams) -> None:
        with self.changed:
            self.published.setdefault(params.uri, []).append((params.version, params.diagnostics, time.perf_counter()))
            self.changed.notify_all()

    # -- documents ---------------------------------------------------------------------------
    def open(self, path, text: str | None = None) -> str:
        path = os.path.realpath(path)
        text = Path(path).read_text(encoding="utf-8") if text is None else text
        uri = from_fs_path(path)
        self.versions[uri] = 1
        self.notify(self.client.text_document_did_open, types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))
        return uri

    def change(self, uri: str, text: str) -> int:
        """Replace the whole buffer; returns its new version."""
        self.versions[uri] += 1
        self.notify(self.client.text_document_did_change, types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [types.TextDocumentContentChangeWholeDocument(text=text)]))
        return self.versions[uri]

    def edit(self, uri: str, line: int, character: int, new: str, end: int | None = None) -> int:
        """Replace characters ``character..end`` of a line (an insertion when ``end`` is None)."""
        self.versions[uri] += 1
        where = types.Range(types.Position(line, character), types.Position(line, character if end is None else end))
        self.notify(self.client.text_document_did_change, types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [types.TextDocumentContentChangePartial(range=where, text=new)]))
        return self.versions[uri]

    def diagnostics(self, uri: str, version: int | None = None, settle: float = 0.0, timeout: float = TIMEOUT,
                    since: float | None = None):
        """The diagnostics last published for ``uri`` (for ``version`` or later when given, and
        received at ``since`` or later when given: a perf_counter time, as :meth:`first_publication`
        returns), once nothing more came for ``settle`` seconds (a round publishes stage by stage)."""
        deadline = time.perf_counter() + timeout
        with self.changed:
            while True:
                got = [p for p in self.published.get(uri, ()) if (version is None or (p[0] or 0) >= version)
                       and (since is None or p[2] >= since)]
                now = time.perf_counter()
                if got and now - got[-1][2] >= settle:
                    return got[-1][1]
                if now > deadline:
                    raise TimeoutError(f"no diagnostics for {uri} (version {version})")
                self.changed.wait(min(0.05, max(deadline - now, 0.001)) if got else max(deadline - now, 0.001))

    def first_publication(self, uri: str, version: int, timeout: float = TIMEOUT) -> float:
        """When the first diagnostics for ``version`` of ``uri`` came (perf_counter time)."""
        self.diagnostics(uri, version, timeout=timeout)
        return next(p[2] for p in self.published[uri] if (p[0] or 0) >= version)

    # -- requests ----------------------------------------------------------------------------
    def hover(self, uri, line, character):
        return self.call(self.client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri), position=types.Position(line, character))))

    def definition(self, uri, line, character):
        return self.call(self.client.text_document_definition_async(types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri), position=types.Position(line, character))))

    def references(self, uri, line, character):
        return self.call(self.client.text_document_references_async(types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri), position=types.Position(line, character),
            context=types.ReferenceContext(include_declaration=True))))

    def completion(self, uri, line, character):
        found = self.call(self.client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri), position=types.Position(line, character))))
        return found.items if isinstance(found, types.CompletionList) else found

    def rename(self, uri, line, character, new_name):
        return self.call(self.client.text_document_rename_async(types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri), position=types.Position(line, character),
            new_name=new_name)))

    def symbols(self, uri):
        return self.call(self.client.text_document_document_symbol_async(types.DocumentSymbolParams(
            text_document=types.TextDocumentIdentifier(uri))))

    def code_actions(self, uri, diagnostics):
        where = diagnostics[0].range
        return self.call(self.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri), range=where,
            context=types.CodeActionContext(diagnostics=list(diagnostics)))))

    def close(self) -> None:
        try:
            self.call(self.client.shutdown_async(None))
            self.notify(self.client.exit, None)
            self.call(self.client.stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)
