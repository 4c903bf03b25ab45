# SPDX-License-Identifier: MIT
"""`rulekit diff`: what a variant changes, as a readable rules diff (view/diff.py)."""
from __future__ import annotations

import json

from ...errors import EXIT_OK
from ..parsing import GAME_HELP, VARIANT_HELP


def add_parser(sub) -> None:
    p = sub.add_parser("diff", help="show what a variant changes",
                       description="A readable rules diff between a game and the game with variants applied.")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--variant", action="append", required=True, metavar="NAME", help=VARIANT_HELP + " (required)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="text for people, json for tools")


def run(args) -> int:
    from ...view.diff import diff_game, render
    changes = diff_game(args.game, args.variant)
    if args.format == "json":
        print(json.dumps(changes, indent=2, default=str))
    else:
        print(render(changes))
    return EXIT_OK
