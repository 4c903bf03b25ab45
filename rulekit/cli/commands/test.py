# SPDX-License-Identifier: MIT
"""`rulekit test`: validate a game with each variant, run its scripts and seeded random games, one table."""
from __future__ import annotations

from ...errors import EXIT_CONTENT, EXIT_OK, UsageError
from ...limits import MAX_RANDOM_GAMES
from ..parsing import count


def add_parser(sub) -> None:
    p = sub.add_parser("test", help="validate a game, run its scripts and random games; one summary table",
                       description="Validate the game with each variant in its folder, run every script under "
                                   "it (faq/, scenarios/, ...), play N seeded random games per player count "
                                   "under the game and each variant, checking the invariants after every "
                                   "action, and print one table. Exit 0 only if all pass. Writes nothing "
                                   "unless --update, and never into an installed or read-only game.")
    p.add_argument("game", metavar="GAME|FOLDER", help="a game (folder or shipped name), a folder of games or "
                                                       "a folder of scripts")
    p.add_argument("--random", type=int, default=10, metavar="N", help="random games per player count")
    p.add_argument("--players", type=int, nargs="+", metavar="N", help="the player counts (default: all)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME",
                   help="test only this variant, a name or a file (repeatable; default: every variant in the "
                        "game's folder)")
    p.add_argument("--update", action="store_true",
                   help="write each passing script's snapshot beside it (__snapshots__/NAME.ambr)")
    p.add_argument("--coverage", action="store_true",
                   help="report which content lines, options and components the scripts exercised")
    p.add_argument("--annotate", metavar="DIR", help="with --coverage: write each content file to DIR as NAME.cover, "
                                                     "its lines marked ran (>) or never ran (!)")
    from ...testing import RANDOM_GAME_ACTIONS
    p.add_argument("--max-actions", type=count, default=RANDOM_GAME_ACTIONS, metavar="N",
                   help=f"a random game that has not ended after N actions fails (default {RANDOM_GAME_ACTIONS})")


def run(args) -> int:
    from ...testing.suite import Options, run_suite, table
    if not 0 <= args.random <= MAX_RANDOM_GAMES:
        shown = f"{args.random:,}" if abs(args.random) < 10 ** 30 else \
            "less than -10^30" if args.random < 0 else "more than 10^30"
        raise UsageError(f"--random must be from 0 to {MAX_RANDOM_GAMES:,}, not {shown}")
    options = Options(args.random, tuple(args.players or ()), args.update, args.max_actions,
                      tuple(dict.fromkeys(args.variant)))
    tracer = None
    if args.coverage or args.annotate:
        from ...testing.coverage import Tracer
        tracer = Tracer()
    rows = run_suite(args.game, options, tracer=tracer)
    print(table(rows))
    if tracer is not None:
        _coverage(tracer, args.annotate)
    return EXIT_OK if all(row.ok for row in rows) else EXIT_CONTENT


def _coverage(tracer, folder: str | None) -> None:
    """`rulekit test --coverage`: the summary, and with --annotate the marked content files."""
    from ...testing.coverage import annotate, report, summary
    rep = report(tracer)
    print(summary(rep))
    if folder:
        written = annotate(rep, folder)
        print(f"\nwrote {len(written)} annotated file{'s' if len(written) != 1 else ''} to {folder}")
