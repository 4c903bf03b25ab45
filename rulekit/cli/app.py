# SPDX-License-Identifier: MIT
"""The ``rulekit`` command: its parser, made of each command's own (``commands/NAME.py``), and
``main``, which runs one with stable exit codes.

Exit codes are stable: 0 clean, 1 content errors (or an illegal scripted action,
a failed expectation), 2 usage or I/O errors, 101 an internal bug. Diagnostics go
to stdout; no traceback reaches a user unless RULEKIT_DEBUG is set.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys

from .. import __version__
from ..codes import INTERNAL
from ..errors import EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, RulekitError
from .commands import autoplay, diff, lsp, mutate, play, render, run, schema, simulate, test, validate
from .commands import compile as compile_command
from .commands import list as list_command
from .parsing import Parser
from .terminal import escaped_output

# in the order `rulekit --help` lists them
_IN_ORDER = (list_command, validate, run, test, autoplay, simulate, diff, compile_command, schema, play, render,
             mutate, lsp)
COMMANDS = {module.__name__.rpartition(".")[2]: module.run for module in _IN_ORDER}
_SUBPARSERS: dict = {}


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="rulekit", description="Board-game rules as content: validate, run and play games.")
    parser.add_argument("--version", action="version", version=f"rulekit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for module in _IN_ORDER:
        module.add_parser(sub)
    _SUBPARSERS.update(sub.choices)
    return parser


def _parse(parser: Parser, argv) -> argparse.Namespace:
    """Parse, refusing unknown options with a suggestion from the command's own options."""
    from ..errors import suggestion_help
    args, extras = parser.parse_known_args(argv)
    if extras:
        command = _SUBPARSERS.get(getattr(args, "command", None), parser)
        flags = [x.partition("=")[0] for x in extras if x.startswith("-")]
        hint = suggestion_help(flags[0], command.options()) if flags else None
        command.error(f"unrecognized arguments: {' '.join(extras)}" + (f"; {hint}" if hint else ""))
    return args


SAID = {"interrupted": False}


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = _parse(parser, argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    # control characters from content are shown as escapes, never sent to the terminal;
    # `play` keeps its own colours on a terminal
    keep_colour = args.command == "play" and sys.stdout.isatty()
    with _reader_may_leave(), escaped_output(keep_colour):
        return _run(args)


class _Pipe:
    """Standard output whose reader may leave early (``rulekit validate BROKEN | head -1``): from the
    first broken pipe on, what is printed is dropped (file descriptor 1 then leads to the null
    device, so Python's own last flush cannot fail either), and the command goes on to the status
    its work earns. Treating the broken pipe as success let a content error pass a shell check."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._reader_left()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._reader_left()

    def _reader_left(self) -> None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self._stream.fileno())
        os.close(devnull)

    def __getattr__(self, name):
        return getattr(self._stream, name)


@contextlib.contextmanager
def _reader_may_leave():
    saved = sys.stdout
    sys.stdout = guarded = _Pipe(saved)
    try:
        yield
    finally:
        guarded.flush()
        sys.stdout = saved


def _run(args) -> int:
    from ..engine import watchdog
    watchdog.arm()          # one step of content computing for minutes is stopped on its line
    try:
        return COMMANDS[args.command](args)
    except RulekitError as exc:
        print(exc.render())
        return exc.exit_code
    except KeyboardInterrupt:    # Ctrl-C or SIGTERM (entry.py): files being written keep their old text
        print("interrupted", file=sys.stderr)
        SAID["interrupted"] = True      # a second Ctrl-C, while this process ends, says nothing more (entry.py)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # an internal bug: say so, without a traceback unless asked
        if os.environ.get("RULEKIT_DEBUG"):
            raise
        print(f"internal error[{INTERNAL}]: {type(exc).__name__}: {exc}\n"
              "this is a bug in rulekit; set RULEKIT_DEBUG=1 for a traceback", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        watchdog.disarm()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
