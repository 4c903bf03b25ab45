# SPDX-License-Identifier: MIT
"""`rulekit lsp`: the language server over stdio (rulekit/lsp), which needs the `lsp` extra."""
from __future__ import annotations

from ... import __version__
from ...errors import UsageError
from ...extras import install_command


def add_parser(sub) -> None:
    sub.add_parser("lsp", help="serve the Language Server Protocol over stdio, for editors",
                   description="A language server for a game's YAML files: diagnostics as you type, hover, "
                               "definition, references, completion, outline, rename (docs/editors.md). "
                               "It needs the `lsp` extra: " + install_command("lsp") + ".")


def run(args) -> int:
    """The language server, which needs pygls: a usage error says how to install it."""
    from ...engine import watchdog
    try:
        from ...lsp import server
    except ImportError as exc:
        raise UsageError(f"`rulekit lsp` needs the `lsp` extra ({exc.name or exc} is missing): "
                         + install_command("lsp")) from None
    watchdog.disarm()       # checks run in a thread of their own; the server's loop must not be interrupted
    return server.main(__version__)
