# SPDX-License-Identifier: MIT
"""The child process of :mod:`.bounded` (``python -m rulekit.lsp.child``): it plays a script or
works out a script step's legal actions for the language server, one request at a time, under the
engine's step watchdog, until its standard input ends."""
from __future__ import annotations

import json
import sys

from .bounded import answer_data, receive, send


def answer(request: list):
    """``("script", path, texts)``: the diagnostics of playing it; ``("actions", path, texts,
    prefix)``: the legal actions after the steps of ``prefix`` (none when it does not run to there)."""
    from . import checking, completion
    kind, path, texts = request[:3]
    if kind == "script":
        return checking.play_script(path, texts)
    try:
        return completion.legal_actions_at(path, texts, request[3])
    except Exception:       # a script that does not run to here has no actions to offer
        return []


def main() -> None:
    from ..engine import watchdog
    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr         # a stray print must not break the answers
    watchdog.arm()
    while True:
        try:
            request = json.loads(receive(requests))
        except EOFError:        # the server ended or retired this child
            return
        send(answers, json.dumps(answer_data(answer(request))).encode())


if __name__ == "__main__":
    main()
