# SPDX-License-Identifier: MIT
"""The real yaml-language-server (the server behind VS Code's YAML extension), installed
from the npm registry once into a project-local tools folder and driven over stdio, so
that a test sees the diagnostics an editor shows. Nothing here is needed to use rulekit.

``installed()`` returns the server's script, or the reason it cannot be had (no node or
npm, no network): callers skip with that reason, so a machine without them never fails.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

VERSION = "1.25.0"
PACKAGE = f"yaml-language-server@{VERSION}"
ROOT = Path(__file__).resolve().parents[2]
TOOLS = Path(os.environ.get("RULEKIT_TOOLS_DIR") or ROOT / ".tools")
SCRIPT = Path("node_modules") / "yaml-language-server" / "bin" / "yaml-language-server"


def installed() -> Path | str:
    """The server's launch script, installing it on first use; or why it is not available."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not on PATH: the editor test needs Node.js"
    home = TOOLS / f"yaml-language-server-{VERSION}"
    if not (home / SCRIPT).is_file():
        problem = _install(home)
        if problem:
            return problem
    return home / SCRIPT


def _install(home: Path) -> str | None:
    """``npm install`` into a scratch folder beside ``home``, renamed into place when
    complete, so that an interrupted install is never mistaken for a finished one."""
    try:
        home.parent.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=".install-", dir=home.parent))
    except OSError as exc:
        return f"cannot make a tools folder for {PACKAGE}: {exc}"
    command = ["npm", "install", "--prefix", str(scratch), "--no-audit", "--no-fund", "--ignore-scripts",
               "--no-save", "--fetch-retries=1", "--fetch-timeout=30000", PACKAGE]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        done = None
    if done is None or done.returncode != 0 or not (scratch / SCRIPT).is_file():
        shutil.rmtree(scratch, ignore_errors=True)
        detail = "timed out" if done is None else _npm_error(done.stderr)
        return f"cannot install {PACKAGE} from the npm registry (offline?): {detail}"
    try:
        scratch.rename(home)
    except OSError:     # another run finished first: use its copy
        shutil.rmtree(scratch, ignore_errors=True)
    return None


def _npm_error(stderr: str) -> str:
    """npm's own reason (``npm error code ENOTFOUND``...), not its pointer to a log file."""
    lines = [line for line in stderr.splitlines() if line.startswith("npm error") and "log of this run" not in line]
    return "; ".join(lines[:3]) or "npm failed"


class LanguageServer:
    """One server process over stdio: open documents, wait for their diagnostics.

    A reader thread answers the server's own requests (configuration, capability
    registration) and keeps the latest ``publishDiagnostics`` of every document."""

    def __init__(self, script: Path, root: Path):
        self._proc = subprocess.Popen(["node", str(script), "--stdio"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self._lock = threading.Lock()
        self._changed = threading.Condition()
        self._diagnostics: dict[str, list] = {}
        self._responses: dict[int, dict] = {}
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        self._request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                                     "capabilities": {"textDocument": {"publishDiagnostics": {}}}})
        self._notify("initialized", {})
        self._notify("workspace/didChangeConfiguration",
                     {"settings": {"yaml": {"validate": True, "schemaStore": {"enable": False}}}})

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        try:
            self._request("shutdown", None, timeout=10)
            self._notify("exit", None)
            self._proc.wait(timeout=10)
        except (OSError, TimeoutError, subprocess.TimeoutExpired):
            self._proc.kill()
            self._proc.wait()

    def diagnostics(self, documents: dict[str, str], timeout: float = 120) -> dict[str, list]:
        """Opens every ``uri -> text`` and returns ``uri -> diagnostics`` once each has some."""
        with self._changed:
            for uri in documents:
                self._diagnostics.pop(uri, None)
        for uri, text in documents.items():
            self._notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml",
                                                                   "version": 1, "text": text}})
        with self._changed:
            if not self._changed.wait_for(lambda: all(uri in self._diagnostics for uri in documents), timeout):
                missing = [uri for uri in documents if uri not in self._diagnostics]
                raise TimeoutError(f"no diagnostics for {len(missing)} documents, e.g. {missing[0]}")
            return {uri: self._diagnostics[uri] for uri in documents}

    def _request(self, method: str, params, timeout: float = 60):
        with self._changed:
            self._next_id += 1
            ident = self._next_id
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        with self._changed:
            if not self._changed.wait_for(lambda: ident in self._responses, timeout):
                raise TimeoutError(f"the server did not answer {method}")
            return self._responses.pop(ident).get("result")

    def _notify(self, method: str, params) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        with self._lock:
            self._proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self._proc.stdin.flush()

    def _read(self) -> None:
        stream = self._proc.stdout
        while True:
            length = None
            while (line := stream.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line or length is None:
                return
            self._handle(json.loads(stream.read(length)))

    def _handle(self, message: dict) -> None:
        if "method" in message and "id" in message:     # the server asks: answer, with nothing to add
            result = [None] * len(message["params"]["items"]) if message["method"] == "workspace/configuration" \
                else None
            self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})
        elif message.get("method") == "textDocument/publishDiagnostics":
            with self._changed:
                self._diagnostics[message["params"]["uri"]] = message["params"]["diagnostics"]
                self._changed.notify_all()
        elif "id" in message:
            with self._changed:
                self._responses[message["id"]] = message
                self._changed.notify_all()
