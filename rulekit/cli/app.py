# SPDX-License-Identifier: MIT
"""The ``rulekit`` command.

Exit codes are stable: 0 clean, 1 content errors (or an illegal scripted action,
a failed expectation), 2 usage or I/O errors, 101 an internal bug. Diagnostics go
to stdout; no traceback reaches a user unless RULEKIT_DEBUG is set.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys

from .. import __version__
from ..codes import INTERNAL, USAGE
from ..errors import EXIT_CONTENT, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, DiagnosticReport, RulekitError, UsageError
from ..extras import install_command
from ..files import check_writable, write_text
from .terminal import escaped_output


class _Help(argparse.HelpFormatter):
    """Help that states every option's default (when it has one worth saying)."""

    def _get_help_string(self, action):
        text = action.help or ""
        default = action.default
        unset = default is None or default is False or default == [] or default is argparse.SUPPRESS
        if action.option_strings and not unset and "default" not in text:
            text += " (default: %(default)s)"
        return text


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"error[{USAGE}]: {message}{_did_you_mean(message)}", file=sys.stderr)
        sys.exit(EXIT_USAGE)

    def options(self) -> list[str]:
        return [o for a in self._actions for o in a.option_strings if o.startswith("--")]


def _did_you_mean(message: str) -> str:
    """A suggestion for argparse's "invalid choice" (a misspelt command or choice)."""
    from ..errors import suggestion_help
    match = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if not match:
        return ""
    hint = suggestion_help(match.group(1), re.findall(r"'([^']*)'", match.group(2)))
    return f"; {hint}" if hint else ""


def _parse(parser: _Parser, argv) -> argparse.Namespace:
    """Parse, refusing unknown options with a suggestion from the command's own options."""
    from ..errors import suggestion_help
    args, extras = parser.parse_known_args(argv)
    if extras:
        command = _SUBPARSERS.get(getattr(args, "command", None), parser)
        flags = [x.partition("=")[0] for x in extras if x.startswith("-")]
        hint = suggestion_help(flags[0], command.options()) if flags else None
        command.error(f"unrecognized arguments: {' '.join(extras)}" + (f"; {hint}" if hint else ""))
    return args


_SUBPARSERS: dict = {}


GAME_HELP = "a shipped game's name, a game folder or its game.yaml"
VARIANT_HELP = "apply a variant overlay (a name from the game's variants/ or a path); repeatable"
BOTS_HELP = ("comma-separated bots (random, greedy, mcts, mcts:N, mcts-crn, bot:NAME, or MODULE:POLICY, a policy "
             "in your own code: importing it runs it); seat k plays the k-th, "
             "and a shorter list repeats round the table")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulekit", description="Board-game rules as content: validate, run and play games.")
    parser.add_argument("--version", action="version", version=f"rulekit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    _add_list(sub)
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
    _add_mutate(sub)
    sub.add_parser("lsp", help="serve the Language Server Protocol over stdio, for editors",
                   description="A language server for a game's YAML files: diagnostics as you type, hover, "
                               "definition, references, completion, outline, rename (docs/editors.md). "
                               "It needs the `lsp` extra: " + install_command("lsp") + ".")
    _SUBPARSERS.update(sub.choices)
    return parser


def _add_list(sub) -> None:
    p = sub.add_parser("list", help="list the shipped games and the games in a folder",
                       description="List the shipped games and every game folder in FOLDER and the folders "
                                   "below it (two levels), with their player counts and variants.")
    p.add_argument("folder", nargs="?", default=".", metavar="FOLDER", help="where to look for local games")
    p.add_argument("--format", choices=["table", "json"], default="table", help="a table, or JSON for tools")


def _add_validate(sub) -> None:
    p = sub.add_parser("validate", help="check a game's content (and variants)",
                       description="Load, schema-check and compile a game; print every diagnostic.")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help=VARIANT_HELP)
    p.add_argument("--format", choices=["full", "concise", "json"], default="full",
                   help="full: like a compiler; concise: one line each; json: for tools")
    p.add_argument("--provenance", action="store_true", help="list values marked with a provenance")


def _add_run(sub) -> None:
    p = sub.add_parser("run", help="play a script or replay a log",
                       description="Play a scripted game (or replay a log) and print its event log.")
    p.add_argument("script", help="the script or log file")
    p.add_argument("--json", action="store_true", help="print the final state and log as JSON")
    p.add_argument("--force", action="store_true", help="replay a log even if the content changed")
    p.add_argument("--log", metavar="FILE", help="write the game's log (a replayable script) to FILE")


def _add_test(sub) -> None:
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
    from ..testing import RANDOM_GAME_ACTIONS
    p.add_argument("--max-actions", type=_count, default=RANDOM_GAME_ACTIONS, metavar="N",
                   help=f"a random game that has not ended after N actions fails (default {RANDOM_GAME_ACTIONS})")


def _add_autoplay(sub) -> None:
    p = sub.add_parser("autoplay", help="play one full game with bots and show the scoring",
                       description="Play one full game between bots and print the actions and the scoring.")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--players", type=int, metavar="N", help="the player count (default: the game's)")
    p.add_argument("--seed", type=_seed, default=1, metavar="S", help="the game's random seed")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help=VARIANT_HELP)
    p.add_argument("--bots", default="random", metavar="LIST", help=BOTS_HELP)
    p.add_argument("--log", metavar="FILE", help="write the game's log (replayable with `rulekit run`)")
    p.add_argument("--quiet", action="store_true", help="print only the scoring")
    p.add_argument("--verbose", action="store_true",
                   help="print each action's raw events instead of what the game's `narrate:` says of them")
    p.add_argument("--check", action="store_true",
                   help="check the game's invariants after setup and every action, as `rulekit test` does, and stop "
                        "at the first that breaks (exit 1)")
    _add_max_actions(p)


def _add_max_actions(p) -> None:
    p.add_argument("--max-actions", type=_count, metavar="N",
                   help="stop a game that has not ended after N actions, as stalled (default: 10 times the longest "
                        "of 3 random games of the same content, at least 1000)")


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not `{text}`") from None


def _count(text: str) -> int:
    """A whole number of at least 1 (else a usage error, exit 2)."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, not {value}")
    return value


def _seed(text: str) -> int:
    """A game's seed, as a log records it and a script may say it: 0..2**64-1 (else exit 2)."""
    from ..testing.script import MAX_SEED
    value = _whole(text)
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"expected a seed from 0 to {MAX_SEED}, not {value}")
    return value


def _add_simulate(sub) -> None:
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
    _add_max_actions(p)


def _add_diff(sub) -> None:
    p = sub.add_parser("diff", help="show what a variant changes",
                       description="A readable rules diff between a game and the game with variants applied.")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--variant", action="append", required=True, metavar="NAME", help=VARIANT_HELP + " (required)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="text for people, json for tools")


def _add_compile(sub) -> None:
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


def _add_schema(sub) -> None:
    p = sub.add_parser("schema", help="write the JSON Schemas for editors")
    p.add_argument("--out", default="schemas", metavar="DIR", help="folder to write them to (created if missing)")


def _add_play(sub) -> None:
    p = sub.add_parser("play", help="play a game in the terminal against bots",
                       description="Play one seat against bots. Type an action's number or notation; "
                                   "`undo`, `save FILE`, `load FILE`, `show [ZONE]`, `help`, `quit`. "
                                   "Reads plain lines, so a pipe can drive it.")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--players", type=int, metavar="N", help="the player count (default: the game's)")
    p.add_argument("--seat", default="1", metavar="K", help="your seat: 1..N or p1..pN")
    p.add_argument("--bots", default="random", metavar="LIST", help=BOTS_HELP + " (your seat's entry is unused)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help=VARIANT_HELP)
    p.add_argument("--seed", type=_seed, default=1, metavar="S", help="the game's random seed")
    p.add_argument("--verbose", action="store_true",
                   help="show each action's raw events (what you may see) instead of what the game's `narrate:` says")
    _add_max_actions(p)


def _add_render(sub) -> None:
    p = sub.add_parser("render", help="draw a game state (SVG) or a replay viewer (HTML) from a log",
                       description="Replay a log or script and draw the state after a step as SVG, "
                                   "or every step as a self-contained HTML replay viewer.")
    p.add_argument("log", metavar="LOG_OR_SCRIPT", help="the log or script to replay")
    p.add_argument("-o", "--out", required=True, metavar="FILE", help="FILE.svg or FILE.html")
    p.add_argument("--at", type=int, metavar="STEP",
                   help="the state after STEP actions (SVG: default the end; HTML: the step shown "
                        "first, default 0; negative counts from the end)")
    p.add_argument("--as", dest="viewer", metavar="PLAYER",
                   help="draw what this player may see (default: a spectator's view)")
    p.add_argument("--full", action="store_true", help="draw everything, hidden items too")
    p.add_argument("--force", action="store_true", help="replay a log even if the content changed")

def _add_mutate(sub) -> None:
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
    p.add_argument("--jobs", type=_count, default=1, metavar="J",
                   help="judge mutants in J worker processes (at most one a core); the report is the same")


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


def _game_rows(folder: str) -> list[dict]:
    """The shipped games, then every game folder in ``folder`` and two levels below it."""
    from ..games import shipped_games, shipped_games_dir
    rows, seen = [], set()
    for name in shipped_games():
        rows.append(_game_row(os.path.join(shipped_games_dir(), name), name, "shipped"))
        seen.add(os.path.realpath(os.path.join(shipped_games_dir(), name)))
    if not os.path.isdir(folder):
        raise UsageError(f"no folder `{folder}`")
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")) and d != "node_modules")
        if os.path.relpath(root, folder).count(os.sep) >= 2:
            dirs[:] = []
        if "game.yaml" in files and os.path.realpath(root) not in seen:
            seen.add(os.path.realpath(root))
            rows.append(_game_row(root, os.path.normpath(root), "local"))
    return rows


def _game_row(path: str, name: str, where: str) -> dict:
    """What game.yaml says of a game (title, player counts) and its variant files, without compiling it."""
    import yaml

    from ..games import variants_of
    from ..source import read_regular
    try:   # a regular file inside the folder only: a FIFO would hang, a link out would leak
        data = yaml.safe_load(read_regular(os.path.join(path, "game.yaml"), path, most=1 << 22))
    except (OSError, yaml.YAMLError):
        data = None
    data = data if isinstance(data, dict) else {}
    meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
    players = data.get("players") if isinstance(data.get("players"), dict) else {}
    try:
        variants = variants_of(path)
    except RulekitError:
        variants = []
    return {"game": name, "title": str(meta.get("title", "?")), "where": where,
            "players": {k: players.get(k) for k in ("min", "max", "default")}, "variants": variants}


def cmd_list(args) -> int:
    rows = _game_rows(args.folder)
    if args.format == "json":
        print(json.dumps(rows, indent=2))
        return EXIT_OK
    table = [("game", "title", "players", "variants", "")]
    for row in rows:
        p = row["players"]
        count = f"{p['min']}-{p['max']}" if p["min"] != p["max"] else str(p["min"])
        if p["default"] is not None:
            count += f" ({p['default']})"
        table.append((row["game"], row["title"], count, ", ".join(row["variants"]) or "-", row["where"]))
    widths = [max(len(r[i]) for r in table) for i in range(5)]
    for r in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())
    return EXIT_OK


def cmd_validate(args) -> int:
    """The game (with ``--variant``s), or else the game and then each variant file of its folder."""
    from ..games import load_game, variants_of
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
    from ..games import load_game
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
    print(f"ok: {label} ({len(game.components.items)} items, {len(game.program.procedures)} procedures) "
          f"{game.content_hash}")


def _print_diagnostics(diagnostics, fmt: str) -> None:
    if fmt == "json":
        print(json.dumps({"ok": False, "diagnostics": [d.to_json() for d in diagnostics]}, indent=2))
    elif fmt == "concise":
        for d in diagnostics:
            print(d.concise())
    else:
        print(DiagnosticReport(diagnostics).render())


def cmd_run(args) -> int:
    from ..engine.view import view
    from ..testing.script import run_script, write_log
    if not os.path.lexists(args.script) or os.path.isdir(args.script):   # the reader refuses a pipe or a device
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
    from ..testing.suite import Options, run_suite, table
    if args.random < 0:
        raise UsageError("--random must be 0 or more")
    options = Options(args.random, tuple(args.players or ()), args.update, args.max_actions,
                      tuple(dict.fromkeys(args.variant)))
    tracer = None
    if args.coverage or args.annotate:
        from ..testing.coverage import Tracer
        tracer = Tracer()
    rows = run_suite(args.game, options, tracer=tracer)
    print(table(rows))
    if tracer is not None:
        _coverage(tracer, args.annotate)
    return EXIT_OK if all(row.ok for row in rows) else EXIT_CONTENT


def _coverage(tracer, folder: str | None) -> None:
    """`rulekit test --coverage`: the summary, and with --annotate the marked content files."""
    from ..testing.coverage import annotate, report, summary
    rep = report(tracer)
    print(summary(rep))
    if folder:
        written = annotate(rep, folder)
        print(f"\nwrote {len(written)} annotated file{'s' if len(written) != 1 else ''} to {folder}")


def cmd_autoplay(args) -> int:
    from ..agents import action_cap, bot_list, play_out
    from ..dsl.narrate import Teller
    from ..engine import api
    from ..games import load_game
    from ..testing.random_play import seat_agents
    from ..testing.script import make_log, write_log
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
    with _stderr_progress("autoplay", None, quiet_stdout=args.quiet) as update:
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
    from ..testing.random_play import after_last_action, state_failures
    from ..testing.steps import raise_all
    raise_all(state_failures(state, after_last_action(state)))


def _print_told(told: list) -> None:
    for line in told:
        print(f"  {line}")


def _print_scores(state) -> None:
    from rich.console import Console

    from ..view.report import score_table, winners_line
    cats = len(state.game.scoring.categories)
    console = Console(width=max(80, 12 * (cats + 2)), force_terminal=False)
    console.print(score_table(state))
    console.print(winners_line(state.result))


def cmd_schema(args) -> int:
    from ..content.schema import schemas_dir
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
    from ..view.play import cmd_play as run
    return run(args)


def cmd_render(args) -> int:
    from ..view.render import cmd_render as run
    return run(args)


def cmd_simulate(args) -> int:
    from ..agents import bot_list
    from ..batch import simulate as sim
    sim.check_arguments(args)       # numbers in range, an --out not overwritten unasked (exit 2)
    for path in (args.out, args.plot):
        if path:
            check_writable(path)     # before the games are played, not after
    bots = bot_list(args.bots)
    if args.sweep and (args.compare or sim.streams(args.out) or args.resume):
        raise UsageError("--sweep plays a batch a point: give it without --compare"
                         + ("" if args.compare else ", and without a batch file (--out FILE.jsonl, --resume)"))
    if sim.streams(args.out) or args.resume:
        return _simulate_streamed(args, bots)
    if args.sweep:
        return _simulate_sweep(args, bots)

    def batch(variants, label):
        return _with_progress(args.games, label, lambda tick: sim.run_batch(
            args.game, tuple(variants), args.players, args.games, args.seed, bots, args.jobs, args.backend, tick,
            args.max_actions))
    records = _labelled(batch(args.variant, "games"), args.variant)
    summary = sim.summarise(records)
    extra = None
    variant_records: list = []
    if args.compare:
        variant_records = _labelled(batch(list(args.variant) + [args.compare], f"games + {args.compare}"),
                                    [*args.variant, args.compare])
        other = sim.summarise(variant_records)
        extra = {"compare": {"variant": args.compare, "variant_summary": other,
                             "difference": sim.compare(summary, other),
                             "paired": sim.paired_differences(records, variant_records)}}
    if args.plot:
        players = len(records[0]["bots"])
        title = f"{args.game}: {players} players, bots {','.join(bots)}, {summary['games']} games"
        if extra:
            from ..batch.sweep import plot_compare
            plot_compare(summary, other, extra["compare"]["paired"], args.plot, title, args.compare)
        else:
            sim.plot(summary, args.plot, title)
        print(f"wrote {args.plot}: " + (f"win rates and scores by seat, base and {args.compare}, and their paired "
                                        "differences" if extra else "win rates by bot and by seat, scores by bot")
              + f" ({summary['games']} games)",
              file=sys.stderr if not args.out and args.format != "table" else sys.stdout)
    if args.format == "json":
        if extra:
            extra["compare"]["games"] = variant_records
        text = sim.to_json(summary, records, extra)
    elif args.format == "csv":
        text = sim.to_csv(records + variant_records)
    else:
        text = _simulate_table(args, summary, extra)
    _report(args, text)
    return EXIT_OK


def _labelled(records: list[dict], variants) -> list[dict]:
    """The records with the variant each game was played under (``base``: none), for JSON and CSV."""
    label = "+".join(variants) or "base"
    for record in records:
        record["variant"] = label
    return records


def _report(args, text: str) -> None:
    if args.out:
        write_text(args.out, text + ("" if text.endswith("\n") else "\n"))
    else:
        print(text.rstrip("\n"))


def _simulate_sweep(args, bots) -> int:
    """``--sweep``: a batch a point (a parameter's value or a variant) on the same seeds, one table
    and one plot."""
    import tempfile

    from ..batch import simulate as sim
    from ..batch import sweep
    from ..games import load_game
    plan = sweep.parse(args.sweep)
    with tempfile.TemporaryDirectory(prefix="rulekit-sweep-") as folder:
        points = sweep.points(load_game(args.game, tuple(args.variant)), plan, folder)
        summaries, records = [], []
        for point in points:
            variants = (*args.variant, *point.variants)
            done = _with_progress(args.games, point.label, lambda tick, variants=variants: sim.run_batch(
                args.game, variants, args.players, args.games, args.seed, bots, args.jobs, args.backend, tick,
                args.max_actions))
            summaries.append(sim.summarise(done))
            if args.format != "table":
                records += _labelled(done, [*args.variant, point.label])
    what = plan.param or "variant"
    title = f"{args.game}: {args.games} games a point, bots {','.join(bots)}, seed {args.seed}"
    if args.plot:
        sweep.plot(points, summaries, args.plot, title, what)
        print(f"wrote {args.plot}: win rate, score by seat and rounds against {what} ({len(points)} points)",
              file=sys.stderr if not args.out and args.format != "table" else sys.stdout)
    if args.format == "json":
        text = json.dumps({"sweep": {"param": plan.param, "points": [
            {"label": p.label, "value": p.value, "summary": s} for p, s in zip(points, summaries)]},
            "games": records}, indent=2, sort_keys=True)
    elif args.format == "csv":
        text = sim.to_csv(records)
    else:
        text = _sweep_table(title, points, summaries, what)
    _report(args, text)
    return EXIT_OK


def _sweep_table(title: str, points, summaries, what: str) -> str:
    from rich.console import Console

    from ..batch.sweep import table
    console = Console(record=True, width=100, file=io.StringIO(), force_terminal=False)
    console.print(title)
    console.print(table(points, summaries, "each point on the same seeds", what))
    console.print("win pK: seat pK's win rate; seats p: chi-square test that every seat wins as often\n"
                  "(* p < 0.05); ties: games with a shared win; score: mean over the seats")
    return console.export_text().rstrip()


def _simulate_streamed(args, bots) -> int:
    """``--out FILE.jsonl``: the games go to the file as they finish, the report to standard output."""
    from ..batch import simulate as sim
    if not sim.streams(args.out):
        raise UsageError("--resume continues a batch file: give it with --out FILE.jsonl")
    if args.compare or args.format == "csv":
        raise UsageError(f"`--out {args.out}` holds every game of one batch: "
                         + ("run the variant of --compare into a file of its own" if args.compare
                            else "--format csv would list them again; read the file instead"))
    head, summary = _with_progress(args.games, "games", lambda tick: sim.run_to_file(
        args.out, args.resume, args.game, tuple(args.variant), args.players, args.games, args.seed, bots,
        args.jobs, args.backend, tick, args.max_actions))
    if args.plot:
        sim.plot(summary, args.plot, f"{args.game}: {head['players']} players, bots {','.join(bots)}, "
                                     f"{summary['games']} games")
        print(f"wrote {args.plot}: win rates by bot and by seat, scores by bot ({summary['games']} games)",
              file=sys.stderr if args.format != "table" else sys.stdout)
    if args.format == "json":
        print(json.dumps({"summary": summary, "games_file": args.out, "batch": head}, indent=2, sort_keys=True))
    else:
        print(_simulate_table(args, summary, None))
    return EXIT_OK


def _with_progress(total, label, work):
    """Run ``work(tick)`` with a progress bar on standard error whenever that is a terminal."""
    with _stderr_progress(label, total) as update:
        return work(update and (lambda n: update(n)))


@contextlib.contextmanager
def _stderr_progress(label: str, total: int | None, quiet_stdout: bool = True):
    """A transient progress display on standard error while it is a terminal, so that it
    never mixes with a report on standard output or in a file. Yields ``update(advance,
    text)``, or None when there is nothing to show: standard error is not a terminal, or
    standard output is one that already shows every step (``quiet_stdout`` false)."""
    if not sys.stderr.isatty() or (not quiet_stdout and sys.stdout.isatty()):
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    columns = () if total else (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True, redirect_stdout=False,
                  redirect_stderr=False) as progress:
        task = progress.add_task(label, total=total)
        yield lambda advance=0, text=None: progress.update(task, advance=advance, description=text or label)


def _simulate_table(args, summary, extra) -> str:
    from rich.console import Console
    from rich.table import Table

    from ..batch import balance_report
    # plain text, never markup: a verdict's install hint (`pip install -e '.[stats]'`) keeps its brackets
    console = Console(record=True, width=100, file=io.StringIO(), force_terminal=False, markup=False)
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
    console.print(balance_report.score_table(summary))
    for line in balance_report.length_lines(summary):
        console.print(line)
    console.print(balance_report.ties_line(summary))
    for line in balance_report.seat_lines(summary):
        console.print(line)
    top = list(summary["action_share"].items())[:12]
    console.print("actions: " + ", ".join(f"{v} {share:.1%}" for v, share in top))
    if summary["stalled"]:
        console.print(_stalled_line(summary))
    if summary["discarded_worlds"]:
        console.print(_discarded_line(summary))
    if extra:
        compared = extra["compare"]
        console.print(_compare_table(compared["variant"], compared["paired"]))
        console.print(balance_report.compare_note(compared["paired"]))
        if compared["variant_summary"]["stalled"]:
            console.print(_stalled_line(compared["variant_summary"], f" with {compared['variant']}"))
        if summary["stalled"] or compared["variant_summary"]["stalled"]:
            console.print("a seed on which either game stalled is left out of the differences")
    return console.export_text().rstrip()


def _discarded_line(summary: dict) -> str:
    return (f"discarded worlds: {summary['discarded_worlds']} (hidden cards the search bots imagined that the "
            "rules could not play)")


def _stalled_line(summary: dict, where: str = "") -> str:
    return (f"stalled{where}: {summary['stalled']} of {summary['games']} games hit the action cap (--max-actions); "
            "win rates, scores and lengths leave them out")


def _compare_table(variant: str, rows: list[dict]):
    from rich.table import Table
    table = Table(title=f"{variant} - base, game by game on the same seeds")
    from ..batch.balance import fmt_p
    for col in ("figure", "base", variant, "difference", "95% interval", "p", "Holm p", ""):
        table.add_column(col, justify="left" if col == "figure" else "right")
    for row in rows:
        low_high = row["ci95"]
        interval = f"{low_high[0]:+.3f} .. {low_high[1]:+.3f}" if low_high else "-"
        table.add_row(row["figure"], _figure(row["base"]), _figure(row["variant"]), f"{row['difference']:+.3f}",
                      interval, fmt_p(row.get("p")).lstrip("= "), fmt_p(row.get("p_holm")).lstrip("= "),
                      "*" if row.get("flagged", row["significant"]) else "")
    return table


def _figure(value: float) -> str:
    return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"


def cmd_diff(args) -> int:
    from ..view.diff import diff_game, render
    changes = diff_game(args.game, args.variant)
    if args.format == "json":
        print(json.dumps(changes, indent=2, default=str))
    else:
        print(render(changes))
    return EXIT_OK


def cmd_compile(args) -> int:
    from ..dsl import passes
    from ..games import load_game
    from ..view.listing import listing, printable
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


def cmd_mutate(args) -> int:
    from ..batch.mutate import cmd_mutate as run
    return run(args)


def cmd_lsp(args) -> int:
    """The language server (rulekit/lsp), which needs pygls: a usage error says how to install it."""
    from ..engine import watchdog
    try:
        from ..lsp import server
    except ImportError as exc:
        raise UsageError(f"`rulekit lsp` needs the `lsp` extra ({exc.name or exc} is missing): "
                         + install_command("lsp")) from None
    watchdog.disarm()       # checks run in a thread of their own; the server's loop must not be interrupted
    return server.main(__version__)


COMMANDS = {"list": cmd_list, "diff": cmd_diff, "compile": cmd_compile, "simulate": cmd_simulate,
            "validate": cmd_validate, "run": cmd_run, "test": cmd_test, "autoplay": cmd_autoplay,
            "schema": cmd_schema, "play": cmd_play, "render": cmd_render, "mutate": cmd_mutate, "lsp": cmd_lsp}


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
