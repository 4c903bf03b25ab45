# SPDX-License-Identifier: MIT
"""`rulekit simulate`: its parser; the batches it plays and how they are reported are batch/'s
(batch/command.py)."""
from __future__ import annotations

from ..parsing import BOTS_HELP, GAME_HELP, VARIANT_HELP, add_max_actions


def add_parser(sub) -> None:
    p = sub.add_parser("simulate", help="play many bot games and report win rates, scores, lengths",
                       description="Play K full bot games (game i seeded from the seed and i) and report win "
                                   "rates by seat and by bot with 95% intervals, scores, game length and "
                                   "how often each action was taken.")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--players", type=int, metavar="N", help="the player count (default: the game's)")
    p.add_argument("--games", type=int, default=100, metavar="K", help="how many games")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the batch seed (game i is seeded from S and i)")
    p.add_argument("--bots", default="random", metavar="LIST", help=BOTS_HELP + "; the list rotates one seat a game")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help=VARIANT_HELP)
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="local worker processes")
    p.add_argument("--backend", choices=["local", "ray"], default="local", help="where the games run")
    p.add_argument("--format", choices=["table", "json", "csv"], default="table", help="the report's format")
    p.add_argument("--out", metavar="FILE", help="write the report to FILE instead of stdout; FILE.jsonl: write "
                                                 "a line per game as it finishes (the report goes to stdout)")
    p.add_argument("--resume", action="store_true",
                   help="with --out FILE.jsonl: play only the games the file does not hold yet")
    p.add_argument("--overwrite", action="store_true", help="--out FILE may replace a file that is there")
    p.add_argument("--plot", metavar="FILE.png", help="draw win-rate and score charts (needs matplotlib)")
    p.add_argument("--compare", metavar="VARIANT",
                   help="also run base + VARIANT on the same seeds and report the differences")
    p.add_argument("--sweep", metavar="PARAM=LO..HI[:STEP]",
                   help="a batch for each value of a parameter (or PARAM=V1,V2,... or VARIANT,VARIANT,...), on "
                        "the same seeds, reported as one table (and one plot with --plot)")
    add_max_actions(p)


def run(args) -> int:
    from ...batch.command import cmd_simulate
    return cmd_simulate(args)
