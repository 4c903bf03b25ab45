# SPDX-License-Identifier: MIT
"""The ``rulekit`` command.

Exit codes are stable: 0 clean, 1 content errors (or an illegal scripted action,
a failed expectation), 2 usage or I/O errors, 101 an internal bug. Diagnostics go
to stdout; no traceback reaches a user unless RULEKIT_DEBUG is set.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import sys

from . import __version__
from .errors import EXIT_CONTENT, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, DiagnosticReport, RulekitError, UsageError
from .files import check_writable, write_text
from .terminal import escaped_output


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"error[RK0001]: {message}", file=sys.stderr)
        sys.exit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulekit", description="Board-game rules as content: validate, run and play games.")
    parser.add_argument("--version", action="version", version=f"rulekit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _add_validate(sub)
    _add_run(sub)
    _add_test(sub)
    _add_autoplay(sub)
    _add_simulate(sub)
    _add_diff(sub)
    _add_compile(sub)
    _add_schema(sub)
    _add_play(sub)
    _add_render(sub)
    return parser


def _add_validate(sub) -> None:
    p = sub.add_parser("validate", help="check a game's content (and variants)",
                       description="Load, schema-check and compile a game; print every diagnostic.")
    p.add_argument("game", help="a game folder or the name of a shipped game")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help="apply a variant overlay")
    p.add_argument("--format", choices=["full", "concise", "json"], default="full")
    p.add_argument("--provenance", action="store_true", help="list values marked with a provenance")


def _add_run(sub) -> None:
    p = sub.add_parser("run", help="play a script or replay a log",
                       description="Play a scripted game (or replay a log) and print its event log.")
    p.add_argument("script")
    p.add_argument("--json", action="store_true", help="print the final state and log as JSON")
    p.add_argument("--force", action="store_true", help="replay a log even if the content changed")
    p.add_argument("--log", metavar="FILE", help="write the game's log (a replayable script) to FILE")


def _add_test(sub) -> None:
    p = sub.add_parser("test", help="validate a game, run its scripts and random games; one summary table",
                       description="Validate the game with each variant in its folder, run every script under "
                                   "it (faq/, scenarios/, ...), play N seeded random games per player count "
                                   "checking the invariants after every action, and print one table. Exit 0 "
                                   "only if all pass. Writes nothing unless --update.")
    p.add_argument("game", metavar="GAME|FOLDER", help="a game (folder or shipped name), a folder of games or "
                                                       "a folder of scripts")
    p.add_argument("--random", type=int, default=10, metavar="N", help="random games per player count (default 10)")
    p.add_argument("--players", type=int, nargs="+", metavar="N", help="the player counts (default: all)")
    p.add_argument("--update", action="store_true", help="write each script's transcript beside it (NAME.transcript)")
    p.add_argument("--max-actions", type=_count, default=RANDOM_GAME_ACTIONS, metavar="N",
                   help=f"a random game that has not ended after N actions fails (default {RANDOM_GAME_ACTIONS})")


RANDOM_GAME_ACTIONS = 20_000    # `rulekit test`: as rulekit.testing.play_random


def _add_autoplay(sub) -> None:
    p = sub.add_parser("autoplay", help="play one full game with bots and show the scoring",
                       description="Play one full game between bots and print the actions and the scoring.")
    p.add_argument("game")
    p.add_argument("--players", type=int)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variant", action="append", default=[], metavar="NAME")
    p.add_argument("--bots", default="random", help="comma-separated bots, one per seat or one for all")
    p.add_argument("--log", metavar="FILE", help="write the game's log (replayable with `rulekit run`)")
    p.add_argument("--quiet", action="store_true", help="print only the scoring")
    _add_max_actions(p)


def _add_max_actions(p) -> None:
    p.add_argument("--max-actions", type=_count, metavar="N",
                   help="stop a game that has not ended after N actions, as stalled (default: 10 times the longest "
                        "of 3 random games of the same content, at least 1000)")


def _count(text: str) -> int:
    """A whole number of at least 1 (else a usage error, exit 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not `{text}`") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, not {value}")
    return value


def _add_simulate(sub) -> None:
    p = sub.add_parser("simulate", help="play many bot games and report win rates, scores, lengths",
                       description="Play K full bot games (game i seeded from the seed and i) and report win "
                                   "rates by seat and by bot with 95% intervals, scores, game length and "
                                   "how often each action was taken.")
    p.add_argument("game")
    p.add_argument("--players", type=int)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--bots", default="random", help="comma-separated bots (random, greedy, mcts:N); they rotate seats")
    p.add_argument("--variant", action="append", default=[], metavar="NAME")
    p.add_argument("--jobs", type=int, default=1, help="local worker processes")
    p.add_argument("--backend", choices=["local", "ray"], default="local")
    p.add_argument("--format", choices=["table", "json", "csv"], default="table")
    p.add_argument("--out", metavar="FILE", help="write the report to FILE instead of stdout")
    p.add_argument("--plot", metavar="FILE.png", help="draw win-rate and score charts (needs matplotlib)")
    p.add_argument("--compare", metavar="VARIANT",
                   help="also run base + VARIANT on the same seeds and report the differences")
    _add_max_actions(p)


def _add_diff(sub) -> None:
    p = sub.add_parser("diff", help="show what a variant changes",
                       description="A readable rules diff between a game and the game with variants applied.")
    p.add_argument("game")
    p.add_argument("--variant", action="append", required=True, metavar="NAME")
    p.add_argument("--format", choices=["text", "json"], default="text")


def _add_compile(sub) -> None:
    p = sub.add_parser("compile", help="print the Python code a game compiles to, for reading",
                       description="Print the Python module rulekit generates from a game's rules, with a "
                                   "header and a table of the names it uses that rulekit binds. It is for "
                                   "reading: it runs inside rulekit, not on its own.")
    p.add_argument("game", help="a game folder or the name of a shipped game")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help="apply a variant overlay")
    p.add_argument("--out", metavar="FILE", help="write the listing to FILE (folders created) instead of stdout")


def _add_schema(sub) -> None:
    p = sub.add_parser("schema", help="write the JSON Schemas for editors")
    p.add_argument("--out", default="schemas", help="folder to write them to")


def _add_play(sub) -> None:
    p = sub.add_parser("play", help="play a game in the terminal against bots",
                       description="Play one seat against bots. Type an action's number or notation; "
                                   "`undo`, `save FILE`, `load FILE`, `show [ZONE]`, `help`, `quit`. "
                                   "Reads plain lines, so a pipe can drive it.")
    p.add_argument("game")
    p.add_argument("--players", type=int)
    p.add_argument("--seat", default="1", metavar="K", help="your seat: 1..N or p1..pN (default 1)")
    p.add_argument("--bots", default="random",
                   help="comma-separated bots: one for all, one per other seat, or one per seat")
    p.add_argument("--variant", action="append", default=[], metavar="NAME")
    p.add_argument("--seed", type=int, default=1)
    _add_max_actions(p)


def _add_render(sub) -> None:
    p = sub.add_parser("render", help="draw a game state (SVG) or a replay viewer (HTML) from a log",
                       description="Replay a log or script and draw the state after a step as SVG, "
                                   "or every step as a self-contained HTML replay viewer.")
    p.add_argument("log", metavar="LOG_OR_SCRIPT")
    p.add_argument("-o", "--out", required=True, metavar="FILE", help="FILE.svg or FILE.html")
    p.add_argument("--at", type=int, metavar="STEP",
                   help="the state after STEP actions (SVG: default the end; HTML: the step shown "
                        "first, default 0; negative counts from the end)")
    p.add_argument("--as", dest="viewer", metavar="PLAYER",
                   help="draw what this player may see (default: a spectator's view)")
    p.add_argument("--full", action="store_true", help="draw everything, hidden items too")
    p.add_argument("--force", action="store_true", help="replay a log even if the content changed")

def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    # control characters from content are shown as escapes, never sent to the terminal;
    # `play` keeps its own colours on a terminal
    keep_colour = args.command == "play" and sys.stdout.isatty()
    with escaped_output(keep_colour):
        return _run(args)


def _run(args) -> int:
    from .engine import watchdog
    watchdog.arm()          # one step of content computing for minutes is stopped on its line
    try:
        return COMMANDS[args.command](args)
    except RulekitError as exc:
        print(exc.render())
        return exc.exit_code
    except KeyboardInterrupt:    # Ctrl-C: files being written keep their old text (files.write_atomic)
        print("interrupted", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # an internal bug: say so, without a traceback unless asked
        if os.environ.get("RULEKIT_DEBUG"):
            raise
        print(f"internal error[RK9999]: {type(exc).__name__}: {exc}\n"
              "this is a bug in rulekit; set RULEKIT_DEBUG=1 for a traceback", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        watchdog.disarm()


def cmd_validate(args) -> int:
    """The game (with ``--variant``s), or else the game and then each variant file of its folder."""
    from .content import load_game, variants_of
    try:
        game = load_game(args.game, tuple(args.variant))
    except DiagnosticReport as report:
        _print_diagnostics(report.diagnostics, args.format)
        return EXIT_CONTENT if any(d.severity == "error" for d in report.diagnostics) else EXIT_OK
    others = [] if args.variant else _variant_files(args.game, variants_of(args.game))
    clean = all(ok is not None for _v, ok, _d in others)
    if args.format == "json":
        out = {"game": game.name, "variants": list(game.variants), "ok": clean,
               "diagnostics": [d.to_json() for d in game.warnings],
               "content_hash": game.content_hash}
        if others:
            out["variant_files"] = [{"variant": v, "ok": ok is not None, "diagnostics": [d.to_json() for d in diags]}
                                    for v, ok, diags in others]
        if args.provenance:
            out["provenance"] = [{"path": p, "provenance": k, "text": t, "line": s.line if s else None}
                                 for p, k, t, s in game.provenance]
        print(json.dumps(out, indent=2))
        return EXIT_OK if clean else EXIT_CONTENT
    if args.provenance:
        for path, kind, text, span in game.provenance:
            where = f"{span}: " if span else ""
            print(f"{where}{kind}: {path}" + (f" ({text})" if text else ""))
        print(f"{len(game.provenance)} values carry a provenance marker")
    _print_ok(game, args.format)
    for _variant, ok, diags in others:
        if diags:
            _print_diagnostics(diags, args.format)
        if ok is not None:
            _print_ok(ok, args.format, warnings=False)
    return EXIT_OK if clean else EXIT_CONTENT


def _variant_files(game: str, variants: list) -> list:
    """(variant, the loaded game or None, its diagnostics) for each variant file of a game's folder."""
    from .content import load_game
    out = []
    for variant in variants:
        try:
            loaded = load_game(game, (variant,))
        except DiagnosticReport as report:
            out.append((variant, None, list(report.diagnostics)))
        else:
            out.append((variant, loaded, list(loaded.warnings)))
    return out


def _print_ok(game, fmt: str, warnings: bool = True) -> None:
    if warnings and game.warnings:
        _print_diagnostics(game.warnings, fmt)
    label = game.title + (f" + {', '.join(game.variants)}" if game.variants else "")
    print(f"ok: {label} ({len(game.items)} items, {len(game.procedures)} procedures) {game.content_hash}")


def _print_diagnostics(diagnostics, fmt: str) -> None:
    if fmt == "json":
        print(json.dumps({"ok": False, "diagnostics": [d.to_json() for d in diagnostics]}, indent=2))
    elif fmt == "concise":
        for d in diagnostics:
            print(d.concise())
    else:
        print(DiagnosticReport(diagnostics).render())


def cmd_run(args) -> int:
    from .engine.view import view
    from .script import run_script, write_log
    if not os.path.isfile(args.script):
        raise UsageError(f"no such script file `{args.script}`")
    result = run_script(args.script, force=args.force)
    if args.log:
        write_log(args.log, result.log)
    if args.json:
        print(json.dumps({"state": view(result.state, full=True), "log": result.log}, indent=2, sort_keys=True))
    else:
        for line in result.transcript:
            print(line)
    return EXIT_OK


def cmd_test(args) -> int:
    from .suite import Options, run_suite, table
    if args.random < 0:
        raise UsageError("--random must be 0 or more")
    options = Options(args.random, tuple(args.players or ()), args.update, args.max_actions)
    rows = run_suite(args.game, options)
    print(table(rows))
    return EXIT_OK if all(row.ok for row in rows) else EXIT_CONTENT


def cmd_autoplay(args) -> int:
    from .agents import action_cap, make_agent, play_out
    from .content import load_game
    from .engine import api
    from .engine.state import PLAYERS
    from .script import make_log, write_log
    game = load_game(args.game, tuple(args.variant))
    state = api.new_game(game, args.players, args.seed)
    specs = [b.strip() for b in args.bots.split(",") if b.strip()] or ["random"]
    if len(specs) not in (1, state.n):
        raise UsageError(f"give one bot for all or one per seat ({state.n}), not {len(specs)}")
    agents = [make_agent(specs[i % len(specs)], args.seed * 1000 + i) for i in range(state.n)]

    def show(state, who, index):
        print(f"round {state.g.get('round')}: {PLAYERS[who]} {state.pending.labels[index]}")
    play_out(state, agents, None if args.quiet else show, args.max_actions or action_cap(game, state.n))
    if args.log:
        write_log(args.log, make_log(state, args.variant, args.seed, None))
    _print_scores(state)
    return EXIT_OK


def _print_scores(state) -> None:
    from rich.console import Console

    from .report import score_table, winners_line
    cats = len(state.game.scoring)
    console = Console(width=max(80, 12 * (cats + 2)), force_terminal=False)
    console.print(score_table(state))
    console.print(winners_line(state.result))


def cmd_schema(args) -> int:
    from .schema import schemas_dir
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        raise UsageError(f"cannot write the schemas to `{args.out}`: it is a file, not a folder")
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make the folder `{args.out}`: {exc.strerror or exc}") from None
    src = schemas_dir()
    written = 0
    for name in sorted(os.listdir(src)):
        if name.endswith(".schema.json"):
            target = os.path.join(args.out, name)
            if os.path.abspath(target) != os.path.abspath(os.path.join(src, name)):
                with open(os.path.join(src, name), encoding="utf-8") as handle:
                    write_text(target, handle.read())
            written += 1
    print(f"{written} schemas in {args.out}")
    return EXIT_OK


def cmd_play(args) -> int:
    from .play import cmd_play as run
    return run(args)


def cmd_render(args) -> int:
    from .render import cmd_render as run
    return run(args)


def cmd_simulate(args) -> int:
    from . import simulate as sim
    if args.games < 1 or args.jobs < 1:
        raise UsageError("--games and --jobs must be at least 1")
    for path in (args.out, args.plot):
        if path:
            check_writable(path)     # before the games are played, not after
    bots = [b.strip() for b in args.bots.split(",") if b.strip()] or ["random"]

    def batch(variants):
        return _with_progress(args.games, lambda tick: sim.run_batch(
            args.game, tuple(variants), args.players, args.games, args.seed, bots, args.jobs, args.backend, tick,
            args.max_actions))
    records = batch(args.variant)
    summary = sim.summarise(records)
    extra = None
    if args.compare:
        other = sim.summarise(batch(list(args.variant) + [args.compare]))
        extra = {"compare": {"variant": args.compare, "variant_summary": other,
                             "difference": sim.compare(summary, other)}}
    if args.plot:
        sim.plot(summary, args.plot)
    if args.format == "json":
        text = sim.to_json(summary, records, extra)
    elif args.format == "csv":
        text = sim.to_csv(records)
    else:
        text = _simulate_table(args, summary, extra)
    if args.out:
        write_text(args.out, text + ("" if text.endswith("\n") else "\n"))
    else:
        print(text.rstrip("\n"))
    return EXIT_OK


def _with_progress(total, work):
    if not sys.stderr.isatty():
        return work(None)
    from rich.progress import Progress
    with Progress(transient=True) as progress:
        task = progress.add_task("games", total=total)
        return work(lambda n: progress.advance(task, n))


def _simulate_table(args, summary, extra) -> str:
    from rich.console import Console
    from rich.table import Table
    console = Console(record=True, width=100, file=io.StringIO(), force_terminal=False)
    head = f"{args.game}: {summary['games']} games, bots {args.bots}, seed {args.seed}"
    console.print(head)
    table = Table(title="win rate (95% interval)")
    for col in ("who", "rate", "interval", "games"):
        table.add_column(col)
    for kind, rows in (("seat", summary["win_rate_by_seat"]), ("bot", summary["win_rate_by_bot"])):
        for who, row in rows.items():
            table.add_row(f"{kind} {who}", f"{row['rate']:.3f}", f"{row['ci95'][0]:.3f}-{row['ci95'][1]:.3f}",
                          str(row["games"]))
    console.print(table)
    scores = Table(title="scores by bot")
    for col in ("bot", "mean", "sd", "min", "max"):
        scores.add_column(col)
    for bot, row in summary["score_by_bot"].items():
        scores.add_row(bot, str(row["mean"]), str(row["sd"]), str(row["min"]), str(row["max"]))
    console.print(scores)
    r, d = summary["rounds"], summary["decisions"]
    console.print(f"rounds: mean {r['mean']} (min {r['min']}, max {r['max']}); "
                  f"decisions: mean {d['mean']} (min {d['min']}, max {d['max']})")
    top = list(summary["action_share"].items())[:12]
    console.print("actions: " + ", ".join(f"{v} {share:.1%}" for v, share in top))
    if extra:
        diff = extra["compare"]["difference"]
        console.print(f"compare {extra['compare']['variant']} - base: win rate by seat {diff['win_rate_by_seat']}, "
                      f"mean score by bot {diff['score_by_bot']}, rounds {diff['rounds']:+}, "
                      f"decisions {diff['decisions']:+}")
    return console.export_text().rstrip()


def cmd_diff(args) -> int:
    from .diff import diff_game, render
    changes = diff_game(args.game, args.variant)
    if args.format == "json":
        print(json.dumps(changes, indent=2, default=str))
    else:
        print(render(changes))
    return EXIT_OK


def cmd_compile(args) -> int:
    from .content import load_game
    from .listing import listing, printable
    game = load_game(args.game, tuple(args.variant))
    text = listing(game)
    if not args.out:
        sys.stdout.write(text)
        return EXIT_OK
    write_text(args.out, text, make_folder=True)
    label = game.title + (f" + {', '.join(game.variants)}" if game.variants else "")
    print(f"wrote {args.out}: the generated code of {printable(label)} ({text.count(chr(10))} lines)")
    return EXIT_OK


COMMANDS = {"diff": cmd_diff, "compile": cmd_compile, "simulate": cmd_simulate, "validate": cmd_validate,
            "run": cmd_run, "test": cmd_test, "autoplay": cmd_autoplay, "schema": cmd_schema, "play": cmd_play,
            "render": cmd_render}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
