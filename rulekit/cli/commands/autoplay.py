# SPDX-License-Identifier: MIT
"""`rulekit autoplay`: one full game between bots, its actions as the game tells them, and the scoring."""
from __future__ import annotations

from ...errors import EXIT_OK
from ..parsing import BOTS_HELP, GAME_HELP, VARIANT_HELP, add_max_actions, seed


def add_parser(sub) -> None:
    p = sub.add_parser("autoplay", help="play one full game with bots and show the scoring",
                       description="Play one full game between bots and print the actions and the scoring.")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--players", type=int, metavar="N", help="the player count (default: the game's)")
    p.add_argument("--seed", type=seed, default=1, metavar="S", help="the game's random seed")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help=VARIANT_HELP)
    p.add_argument("--bots", default="random", metavar="LIST", help=BOTS_HELP)
    p.add_argument("--log", metavar="FILE", help="write the game's log (replayable with `rulekit run`)")
    p.add_argument("--quiet", action="store_true", help="print only the scoring")
    p.add_argument("--verbose", action="store_true",
                   help="print each action's raw events instead of what the game's `narrate:` says of them")
    p.add_argument("--check", action="store_true",
                   help="check the game's invariants after setup and every action, as `rulekit test` does, and stop "
                        "at the first that breaks (exit 1)")
    add_max_actions(p)


def run(args) -> int:
    from ...agents import action_cap, bot_list, play_out
    from ...batch.progress import stderr_progress
    from ...dsl.narrate import Teller
    from ...engine import api
    from ...games import load_game
    from ...testing.random_play import seat_agents
    from ...testing.script import make_log, write_log
    specs = bot_list(args.bots)
    game = load_game(args.game, tuple(args.variant))
    state = api.new_game(game, args.players, args.seed)
    agents = seat_agents(specs, args.seed, state.n)

    teller = Teller(args.verbose)
    printing = not args.quiet

    def told_then_checked(state):
        """What the last action did (the setup, at first), then, with --check, the invariants."""
        if printing:
            told = teller.since(state)
            if told and not state.actions:
                print("start:")
            _print_told(told)
        if args.check:
            _check_invariants(state)
    with stderr_progress("autoplay", None, quiet_stdout=args.quiet) as update:
        def each(state, who, index):
            told_then_checked(state)
            if printing:
                print(f"{game.round_name} {state.g.get('round')}: {teller.action(state, who, index)}")
            if update:
                update(0, f"autoplay: round {state.g.get('round')}, {len(state.actions) + 1} actions")
        play_out(state, agents, each if printing or update or args.check else None,
                 args.max_actions or action_cap(game, state.n))
        told_then_checked(state)
    if args.log:
        write_log(args.log, make_log(state, args.variant, args.seed, None))
    _print_scores(state)
    return EXIT_OK


def _check_invariants(state) -> None:
    """``autoplay --check``: stop at the first state that breaks an invariant (RK5026), said as
    ``rulekit test`` says it of its random games (whose failures this replays)."""
    from ...testing.random_play import after_last_action, state_failures
    from ...testing.steps import raise_all
    raise_all(state_failures(state, after_last_action(state)))


def _print_told(told: list) -> None:
    for line in told:
        print(f"  {line}")


def _print_scores(state) -> None:
    from rich.console import Console

    from ...view.report import score_table, winners_line
    cats = len(state.game.scoring.categories)
    console = Console(width=max(80, 12 * (cats + 2)), force_terminal=False)
    console.print(score_table(state))
    console.print(winners_line(state.result))
