# SPDX-License-Identifier: MIT
"""`rulekit play`: one seat against bots in the terminal (the session is view/play.py's)."""
from __future__ import annotations

from ..parsing import BOTS_HELP, GAME_HELP, VARIANT_HELP, add_max_actions, seed


def add_parser(sub) -> None:
    p = sub.add_parser("play", help="play a game in the terminal against bots",
                       description="Play one seat against bots. Type an action's number, its notation or its "
                                   "start (several actions begun alike are listed); "
                                   "`undo`, `save FILE`, `load FILE`, `show [ZONE]`, `help`, `quit`. "
                                   "Reads plain lines, so a pipe can drive it.")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--players", type=int, metavar="N", help="the player count (default: the game's)")
    p.add_argument("--seat", default="1", metavar="K", help="your seat: 1..N or p1..pN")
    p.add_argument("--bots", default="random", metavar="LIST", help=BOTS_HELP + " (your seat's entry is unused)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help=VARIANT_HELP)
    p.add_argument("--seed", type=seed, default=1, metavar="S", help="the game's random seed")
    p.add_argument("--verbose", action="store_true",
                   help="show each action's raw events (what you may see) instead of what the game's `narrate:` says")
    add_max_actions(p)


def run(args) -> int:
    from ...view.play import cmd_play
    return cmd_play(args)
