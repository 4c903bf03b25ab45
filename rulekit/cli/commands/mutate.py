# SPDX-License-Identifier: MIT
"""`rulekit mutate`: single-rule mutants, and which the game's scripts notice (batch/mutate.py)."""
from __future__ import annotations

from ..parsing import GAME_HELP, count


def add_parser(sub) -> None:
    p = sub.add_parser("mutate", help="plant single-rule mutants and see which ones the game's scripts notice",
                       description="Plant single-rule mutants (a number, an operator, a condition, a statement) "
                                   "one at a time in a scratch copy of the game, run its rule scripts against each, "
                                   "and report a score (killed / (killed + survived)) and each survivor, a rule no "
                                   "script checks, as a diff of your file at its line. Your files are only read.")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--variant", action="append", default=[], metavar="NAME",
                   help="mutate only this variant's file beside the game's (repeatable; default: every variant)")
    p.add_argument("--sample", type=int, metavar="N", help="try N mutants drawn at random (default: all)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the seed of --sample's draw")
    p.add_argument("--survivors", metavar="FILE",
                   help="write the survivors to FILE; when FILE exists, try only the mutants it lists")
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help="stop a mutant's trial after this long, a change that makes play endless (default: four "
                        "times as long as the unmutated game's trial, at least 10 s)")
    p.add_argument("--jobs", type=count, default=1, metavar="J",
                   help="judge mutants in J worker processes (at most one a core); the report is the same")


def run(args) -> int:
    from ...batch.mutate import cmd_mutate
    return cmd_mutate(args)
