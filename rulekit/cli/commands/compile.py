# SPDX-License-Identifier: MIT
"""`rulekit compile`: the Python a game compiles to, for reading (view/listing.py)."""
from __future__ import annotations

import sys

from ...errors import EXIT_OK
from ...files import write_text
from ..parsing import GAME_HELP, VARIANT_HELP


def add_parser(sub) -> None:
    p = sub.add_parser("compile", help="print the Python code a game compiles to, for reading",
                       description="Print the Python module rulekit generates from a game's rules, with a "
                                   "header and a table of the names it uses that rulekit binds. It is for "
                                   "reading: it runs inside rulekit, not on its own.")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help=VARIANT_HELP)
    p.add_argument("--out", metavar="FILE", help="write the listing to FILE (folders created) instead of stdout")
    p.add_argument("--passes", metavar="LIST",
                   help="the optimisations to compile with, read left to right from all on: `-inline,-tallies` "
                        "switches two off, `-all,+inline` keeps one (default: $RULEKIT_PASSES, else all); "
                        "`--passes=list` names them")


def run(args) -> int:
    from ...dsl import passes
    from ...games import load_game
    from ...view.listing import listing, printable
    if args.passes == "list":
        for step in passes.PASSES:
            print(f"{step.name:12}  {step.what}  ({step.where})")
        return EXIT_OK
    chosen = passes.parse(args.passes) if args.passes is not None else passes.current()
    with passes.using(chosen):
        game = load_game(args.game, tuple(args.variant))
    text = listing(game)
    if not args.out:
        sys.stdout.write(text)
        return EXIT_OK
    write_text(args.out, text, make_folder=True)
    label = game.title + (f" + {', '.join(game.variants)}" if game.variants else "")
    print(f"wrote {args.out}: the generated code of {printable(label)} ({text.count(chr(10))} lines)")
    return EXIT_OK
