# SPDX-License-Identifier: MIT
"""What every command's parser shares: the help that states defaults, the parser whose mistakes are
usage errors (exit 2) with a suggestion, the help texts and argument types several commands take."""
from __future__ import annotations

import argparse
import re
import sys

from ..codes import USAGE
from ..errors import EXIT_USAGE
from ..limits import CAP_FACTOR, CAP_MIN, CAP_PROBES, MAX_SEED


class Help(argparse.HelpFormatter):
    """Help that states every option's default (when it has one worth saying)."""

    def _get_help_string(self, action):
        text = action.help or ""
        default = action.default
        unset = default is None or default is False or default == [] or default is argparse.SUPPRESS
        if action.option_strings and not unset and "default" not in text:
            text += " (default: %(default)s)"
        return text


class Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", Help)
        super().__init__(*args, **kwargs)

    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"error[{USAGE}]: {message}{did_you_mean(message)}", file=sys.stderr)
        sys.exit(EXIT_USAGE)

    def options(self) -> list[str]:
        return [o for a in self._actions for o in a.option_strings if o.startswith("--")]


def did_you_mean(message: str) -> str:
    """A suggestion for argparse's "invalid choice" (a misspelt command or choice)."""
    from ..errors import suggestion_help
    match = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if not match:
        return ""
    hint = suggestion_help(match.group(1), re.findall(r"'([^']*)'", match.group(2)))
    return f"; {hint}" if hint else ""


GAME_HELP = "a shipped game's name, a game folder or its game.yaml"
VARIANT_HELP = "apply a variant overlay (a name from the game's variants/ or a path); repeatable"
BOTS_HELP = ("comma-separated bots (random, greedy, mcts, mcts:N, mcts-crn, bot:NAME, or MODULE:POLICY, a policy "
             "in your own code: importing it runs it); seat k plays the k-th, "
             "and a shorter list repeats round the table")


def add_max_actions(p) -> None:
    p.add_argument("--max-actions", type=count, metavar="N",
                   help=f"stop a game that has not ended after N actions, as stalled (default: {CAP_FACTOR} times the "
                        f"longest of {CAP_PROBES} random games of the same content, at least {CAP_MIN})")


def whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not `{text}`") from None


def count(text: str) -> int:
    """A whole number of at least 1 (else a usage error, exit 2)."""
    value = whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, not {value}")
    return value


def seed(text: str) -> int:
    """A game's seed, as a log records it and a script may say it: 0..2**64-1 (else exit 2)."""
    value = whole(text)
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"expected a seed from 0 to {MAX_SEED}, not {value}")
    return value
