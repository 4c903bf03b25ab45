# SPDX-License-Identifier: MIT
"""``rulekit test``: everything a designer can check about a game, without Python.

It validates the game with each of its variants, runs every script in the game's
folder (any YAML file with a ``game:`` key outside ``variants/``: faq/, scenarios/,
...), and plays seeded random games per player count, checking the invariants after
every action, under the base game and under each variant (``--variant`` picks some). Each
check is one row of a table (check, result, time); a failure is printed in full below the
table. A script whose snapshot is stored beside it (``__snapshots__/NAME.ambr``, the store
the pytest plugin shares: :mod:`.snapshots`, which decides for both) must still print the same;
one with none is *new*; ``--update`` writes them, and deletes the snapshots of scripts that are
gone. Nothing is written without ``--update``, nor ever into an installed or read-only game.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable

import attrs
import yaml

from ..codes import UNKNOWN_TEST_VARIANT
from ..errors import DiagnosticReport, RulekitError, UsageError, suggestion_help
from ..games import ROOT_FILE, find_game, load_game, variants_of
from ..source import Refused, display_path, open_regular, read_regular
from . import RANDOM_GAME_ACTIONS, random_game, snapshots
from .snapshots import CheckFailed, check, refuse_writes, transcript_text

__all__ = ["CheckFailed", "Options", "Row", "check_script", "run_suite", "table", "transcript_text"]
UPDATE = "`rulekit test --update`"


@attrs.define
class Row:
    check: str
    ok: bool
    seconds: float
    detail: str = ""     # a failure in full, what an update wrote, or why a file was skipped
    skipped: bool = False  # a file not read (a FIFO, a link out of the folder): shown, yet no failure
    outcome: str = ""    # a script's snapshot: passed, failed, new, created, updated; unused, deleted


@attrs.define
class Options:
    random: int = 10
    players: tuple = ()
    update: bool = False
    max_actions: int = RANDOM_GAME_ACTIONS
    variants: tuple = ()     # the variants to test (validated, played at random); () is every one


def run_suite(target: str, options: Options, report: Callable[[Row], None] | None = None,
              tracer=None) -> list[Row]:
    """Every check of a game (a name or a folder), of every game below a folder, or of a
    folder of scripts; ``report`` sees each row as soon as it is done; ``tracer``
    (coverage.Tracer) records what the scripts exercise."""
    rows: list[Row] = []

    def add(row: Row) -> None:
        rows.append(row)
        if report is not None:
            report(row)
    targets = _targets(target)
    for folder, scripts_only in targets:
        if options.variants:
            _chosen_variants(folder, scripts_only, options.variants)
        if options.update:
            refuse_writes(folder, UPDATE)
    for folder, scripts_only in targets:
        if not scripts_only:
            _check_game(folder, options, add)
        base = os.path.dirname(os.path.abspath(folder))
        for path, problem in _yaml_files(folder):
            name = os.path.relpath(os.path.abspath(path), base).replace(os.sep, "/")
            if problem is not None:
                add(_skipped(name, problem))
            elif is_script(path, folder):
                add(_timed(name, lambda path=path, folder=folder: check_script(path, options.update, tracer,
                                                                               folder)))
        for path in snapshots.unused(folder):
            add(_unused(path, base, options.update))
    return rows


def _unused(path: str, base: str, update: bool) -> Row:
    """A snapshot whose script is gone: a failure, or deleted by ``--update`` (a run of
    ``rulekit test`` is always of the whole game, so nothing selected out is at risk)."""
    name = os.path.relpath(os.path.abspath(path), base).replace(os.sep, "/")
    if update:
        snapshots.delete(path)
        return Row(name, True, 0.0, "deleted: its script is gone", outcome="deleted")
    return Row(name, False, 0.0, CheckFailed(snapshots.unused_message(path, UPDATE)).render(), outcome="unused")


def _targets(target: str) -> list[tuple[str, bool]]:
    """(folder, scripts only?) for each game below ``target``, or the folder of scripts itself."""
    if os.path.isdir(target) and not os.path.lexists(os.path.join(target, ROOT_FILE)):
        games = sorted(os.path.join(target, d) for d in os.listdir(target)
                       if os.path.lexists(os.path.join(target, d, ROOT_FILE)))
        if games:
            return [(g, False) for g in games]
        if scripts_in(target):
            return [(target, True)]
        raise UsageError(f"`{target}` holds no game ({ROOT_FILE}) and no script")
    return [(find_game(target), False)]


def _chosen_variants(folder: str, scripts_only: bool, chosen: tuple) -> None:
    """Stop (RK5032) on a ``--variant`` the game does not have, before anything runs."""
    if scripts_only:
        raise VariantUnknown(f"`--variant` names a variant of a game; `{folder}` is a folder of scripts")
    have = variants_of(folder)
    for name in chosen:
        if name not in have and not os.path.isfile(name):
            hint = suggestion_help(name, have)
            raise VariantUnknown(f"the game `{folder}` has no variant `{name}` (it has: {', '.join(have) or 'none'})"
                                 + (f"; {hint}" if hint else ""))


class VariantUnknown(UsageError):
    code = UNKNOWN_TEST_VARIANT


def _check_game(folder: str, options: Options, add) -> None:
    """Rows for the game with each variant, then its random games under each that loads:
    the base game (unless ``--variant`` chose some) and every variant."""
    loaded = {}
    game_name = os.path.basename(os.path.abspath(folder))
    chosen = options.variants or tuple(variants_of(folder))
    for variants in [(), *((v,) for v in chosen)]:
        name = f"validate {game_name}" + "".join(f" +{v}" for v in variants)
        problem = variants and _variant_refusal(folder, variants[0])
        if problem:
            add(_skipped(name, problem))
            continue
        add(_timed(name, lambda variants=variants: _validate(folder, variants, loaded)))
    if options.random <= 0:
        return
    for variants in ([] if options.variants else [()]) + [(v,) for v in chosen]:
        game = loaded.get(variants)
        if game is None:
            continue
        name = f"random {game_name}" + "".join(f" +{v}" for v in variants)
        for n in options.players or tuple(range(game.min_players, game.max_players + 1)):
            add(_timed(f"{name} {n}p x{options.random}",
                       lambda game=game, n=n: _random(folder, game, n, options)))


def _variant_refusal(folder: str, variant: str) -> str | None:
    """Why a variant file of the game's folder is not read (a file named on the command line
    is the user's own choice, read wherever it is, as ``validate`` reads it)."""
    if variant not in variants_of(folder) and os.path.isfile(variant):
        return None
    return refusal(os.path.join(folder, "variants", f"{variant}.yaml"), folder)


def _validate(folder: str, variants: tuple, loaded: dict) -> str:
    loaded[variants] = load_game(folder, variants)
    warnings = len(loaded[variants].warnings)
    return f"{warnings} warning{'s' if warnings != 1 else ''}" if warnings else ""


def _random(folder: str, game, players: int, options: Options) -> str:
    from ..content.typed import out_of_range
    if not game.min_players <= players <= game.max_players:
        raise UsageError(f"{game.title} is for {game.min_players}-{game.max_players} players, not {players}")
    total = 0
    for seed in range(options.random):
        state, actions, problem = random_game(game, players, seed, max_actions=options.max_actions)
        problem = problem or "; ".join(f"{players}p: {bad}" for bad in out_of_range(game, state))
        if problem:
            under = "".join(f"variant {v}, " for v in game.variants)
            raise CheckFailed(f"{under}{problem}\n   = replay: {replay_command(folder, game, players, seed, options)}")
        total += actions
    return f"{total} actions"


def replay_command(folder: str, game, players: int, seed: int, options: Options) -> str:
    """The one command that plays a random game of ``rulekit test`` again, move for move, and
    stops where it failed (``autoplay --check`` checks the invariants as the random game does)."""
    import shlex
    shown = os.path.basename(folder) if _shipped(folder) else display_path(folder)
    words = ["rulekit", "autoplay", shown, "--players", str(players), "--seed", str(seed), "--bots", "random"]
    for variant in game.variants:
        words += ["--variant", variant]
    words += ["--max-actions", str(options.max_actions), "--check"]
    return shlex.join(words)


def _shipped(folder: str) -> bool:
    from ..games import shipped_games_dir
    return os.path.dirname(os.path.abspath(folder)) == os.path.abspath(shipped_games_dir())


def check_script(path: str, update: bool = False, tracer=None, folder: str | None = None) -> snapshots.Checked:
    """Run a script and compare it with its stored snapshot (``update`` writes it, only when the
    script passes; one with none yet is *new*, which passes and says so); ``folder``: the game's,
    which stored files must lie in to be read."""
    return check(path, update=update, accept=UPDATE, folder=folder, tracer=tracer, unwritable=folder)


def _timed(check: str, work: Callable[[], str | snapshots.Checked]) -> Row:
    start = time.perf_counter()
    outcome = ""
    try:
        detail = work() or ""
        ok = True
        if isinstance(detail, snapshots.Checked):
            detail, outcome = detail.note, detail.outcome
    except DiagnosticReport as report:
        ok, detail = False, report.render()
    except RulekitError as exc:
        ok, detail, outcome = False, exc.render(), getattr(exc, "outcome", "")
    return Row(check, ok, time.perf_counter() - start, detail, outcome=outcome)


def _skipped(check: str, problem: str) -> Row:
    return Row(check, True, 0.0, f"not read: {problem}", skipped=True)


def scripts_in(folder: str) -> list[str]:
    """The scripts below a game's folder: YAML mappings with a ``game:`` key, outside ``variants/``."""
    return [path for path, problem in _yaml_files(folder) if problem is None and is_script(path, folder)]


def _yaml_files(folder: str) -> list[tuple[str, str | None]]:
    """(path, why it is not read or None) of each YAML file below a game's folder but its
    ``game.yaml`` and ``variants/``: what may be a script, found without reading it."""
    out = []
    for dirpath, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "variants" and not d.startswith("."))
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            if name.endswith((".yaml", ".yml")) and name != ROOT_FILE:
                out.append((path, refusal(path, folder)))
    return out


def refusal(path: str, folder: str) -> str | None:
    """Why ``path`` is not read: it is no regular file inside ``folder`` (a FIFO, a link leading
    out); None when it is one, or when it cannot be opened (reading it says why). It is opened
    only if it is a regular file, and never read."""
    try:
        handle, _size = open_regular(path, folder)
    except Refused as exc:
        return exc.problem
    except OSError:
        return None
    handle.close()
    return None


def is_script(path: str, folder: str | None = None) -> bool:
    """Whether ``path`` is a script (a regular file, inside ``folder`` when given)."""
    try:
        data = yaml.safe_load(read_regular(path, folder, most=1 << 20).decode("utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and "game" in data and isinstance(data.get("actions", []), list)


def _failed(row: Row) -> str:
    """A failed row's result: ``unused`` (a snapshot whose script is gone), else ``FAIL``."""
    return "unused" if row.outcome == "unused" else "FAIL"


def table(rows: list[Row]) -> str:
    """The summary: one line per check, then each failure in full, then the counts."""
    width = max([len(r.check) for r in rows] + [5])
    lines = [f"{'check':<{width}}  result    time  note"]
    tally = snapshots.Tally()
    for row in rows:
        note = row.detail if row.ok else ""
        result = "skip" if row.skipped else "ok" if row.ok else _failed(row)
        lines.append(f"{row.check:<{width}}  {result:<6}  {row.seconds:5.2f}s  {note}".rstrip())
        tally.add(row.outcome)
    failed = [r for r in rows if not r.ok]
    for row in failed:
        lines += ["", f"--- {row.check}", row.detail]
    skipped = sum(1 for r in rows if r.skipped)
    lines += ["", *([tally.line()] if tally.line() else []),
              f"{len(rows) - len(failed) - skipped} passed, {len(failed)} failed"
              + (f", {skipped} skipped (not read)" if skipped else "")]
    return "\n".join(lines)
