# SPDX-License-Identifier: MIT
"""Scripted games: play a list of actions, check expectations, write a log.

A script is YAML (schema ``schemas/script.schema.json``)::

    game: mygame             # shipped name, or a folder relative to this file
    variants: [open-route]
    players: 4
    seed: 7
    pins:                    # optional pinned chance
      rolls: {dice: [3, 5]}  # stream -> values, used in order
      shuffles: {deck: [[card-red-1, ...]]}   # zone -> full orders, in order
      top: {bag: [card-7, card-2]}    # zone -> its next draws after its next shuffle
    position: |              # optional: statements run right after setup
      p1.money = 3
    skip_invariants: [money_conserved]   # optional: invariants broken on purpose (or `all`)
    actions:
      - bid 3                # an action in notation
      - p2: pass             # ... asserting who acts
      - expect: {"p1.money": 12, "count(lot)": 0}
      - refuse: bid 99       # must be refused, the state unchanged
      - legal: {includes: ["bid *"], excludes: [pass]}
      - checkpoint: after-auction
      - over: true
      - score: {p1: {gems: 6, total: 9}, winners: [p1]}
      - sees: {player: p2, "p1.hand": {count: 5}, "p1.money": hidden}

The steps live in :mod:`rulekit.testing.steps`. The game's invariants are checked after
setup and ``position:`` and after every action, as random play checks them. A log written by
any run is also a script (with ``content_hash`` and ``result``), so ``rulekit run LOG``
replays it exactly; a log whose content hash no longer matches is refused unless forced.
"""
from __future__ import annotations

import json
import os
from typing import Any

import attrs
import yaml

from ..codes import (
    BAD_PIN_TARGET,
    BAD_SEED_OR_PLAYERS,
    BAD_TOP_PIN,
    CONTENT_CHANGED,
    EXPECTATION_FAILED,
    EXPECTATION_UNEVALUABLE,
    LOG_CUT_SHORT,
    LOG_FORMAT_TOO_NEW,
    REPLAY_RESULT_DIFFERS,
    SCRIPT_GAME_UNUSABLE,
    SCRIPT_PLAYER_COUNT,
    UNKNOWN_INVARIANT,
    UNUSABLE_PIN,
)
from ..content import schema
from ..content.loader import brief, flatten, load_yaml
from ..dsl.notation import render_event
from ..engine import api
from ..engine.mutate import fmt
from ..engine.serialize import zone_index
from ..engine.state import PLAYERS, State
from ..engine.view import view
from ..errors import (
    ContentRuntimeError,
    DiagnosticReport,
    InternalError,
    RulekitError,
    UsageError,
    runtime_failure,
    suggestion_help,
)
from ..files import write_text
from ..games import load_game
from ..limits import MAX_SEED
from ..source import Span, source_line
from . import steps
from .steps import ALL, STEP_KINDS, ScriptError, Step, act, invariant_failures, raise_all

LOG_VERSION = 2    # 2: a log ends with `action_count`, so a log cut short is refused


@attrs.define
class ScriptResult:
    state: State
    transcript: list
    log: dict
    checkpoints: dict


def pins_from(spec: dict | None) -> dict:
    pins: dict[str, list] = {}
    for stream, values in ((spec or {}).get("rolls") or {}).items():
        pins[f"roll:{stream}"] = list(values)
    for zone, orders in ((spec or {}).get("shuffles") or {}).items():
        pins[f"shuffle:{zone}"] = [list(o) for o in orders]
    for zone, first in ((spec or {}).get("top") or {}).items():
        pins[f"top:{zone}"] = list(first)
    return pins


def game_ref(game) -> str:
    """How a log names its game: a shipped game by its name, any other game by the
    absolute path of its folder (``rulekit ... --log FILE`` writes it relative to FILE)."""
    from ..games import shipped_games_dir
    try:
        if os.path.samefile(os.path.join(shipped_games_dir(), game.name), game.path):
            return game.name
    except OSError:
        pass
    return os.path.abspath(game.path)


def make_log(state: State, variants, seed: int, pins_spec: dict | None, position: str | None = None,
             skip_invariants=None) -> dict:
    game = state.game
    log: dict[str, Any] = {
        "rulekit_log": LOG_VERSION,
        "game": game_ref(game),
        "variants": list(variants),
        "content_hash": game.content_hash,
        "content_parts": content_parts(game),
        "players": state.n,
        "seed": seed,
    }
    if pins_spec:
        log["pins"] = pins_spec
    if position is not None:
        log["position"] = position
    if skip_invariants is not None:     # a position broken on purpose is replayed as it was meant
        log["skip_invariants"] = skip_invariants
    log["actions"] = list(state.actions)
    if state.result is not None:
        log["result"] = state.result
    log["action_count"] = len(state.actions)    # last: a log cut short has none (LOG_VERSION)
    return log


def content_parts(game) -> dict:
    """What a log records beside the content hash, to say later what changed: a hash
    of each top-level section of the merged content and of each file read."""
    from ..model import content_hash
    return {"sections": {name: content_hash({name: value}) for name, value in sorted(game.data.items())},
            "files": dict(getattr(game, "files", None) or {})}


def _what_changed(expected_hash: str, parts, game) -> str:
    """The RK5002 message: the two hashes and, when the log recorded its parts, which
    sections and files differ from the content now."""
    text = f"this log was made with different content ({expected_hash}, now {game.content_hash})"
    if not isinstance(parts, dict):
        return text + "; the game's files or variants changed since (replay anyway with --force)"
    now = content_parts(game)
    details = []
    for kind, noun in (("sections", "section"), ("files", "file")):
        before = parts.get(kind) if isinstance(parts.get(kind), dict) else {}
        after = now[kind]
        changed = sorted(k for k in set(before) & set(after) if before[k] != after[k])
        added = sorted(set(after) - set(before))
        removed = sorted(set(before) - set(after))
        for what, names in (("changed", changed), ("new", added), ("gone", removed)):
            if names:
                details.append(f"{what} {noun}{'s' if len(names) > 1 else ''}: {', '.join(map(str, names))}")
    if details:
        return f"{text}: {'; '.join(details)} (replay anyway with --force)"
    return (f"{text}, yet no section or file differs from what the log recorded: was its content_hash edited? "
            "(replay anyway with --force)")


def _expr_fn(game, text: str, span: Span, names=()):
    """Compile an expectation expression against the game's names (plus ``names``,
    the seats ``p1``.. of the game, bound when it is evaluated)."""
    from ..dsl.texts import scope as _scope

    line_text = source_line(span.path, span.line) or ""
    quote = 1 if line_text[span.column - 1:span.column] in ("'", '"') else 0   # a quoted key

    def locate(line, col, el=None, ec=None):
        return Span(span.path, span.line, span.column + quote + col - 1)
    from ..dsl.texts import parse_text
    node = parse_text(text, locate, "expr")
    compiler = game.compiler_for_scripts()
    fn = compiler.expr(node, _scope(names))
    diags = compiler.diagnostics()
    if diags:
        raise DiagnosticReport(diags)
    return fn


def run_script(path: str, force: bool = False, game_override=None, record: bool = True) -> ScriptResult:
    """Play a script or log file; raises ScriptError / DiagnosticReport on failure, whose
    traceback (a user's own pytest test) shows the script's file:line:col and the caret."""
    __tracebackhide__ = True        # pytest shows the test's own line, then the script's (_show_where)
    try:
        return _run(path, force, game_override, record)
    except (ScriptError, DiagnosticReport, ContentRuntimeError) as exc:
        _show_where(exc)
        if not os.environ.get("RULEKIT_DEBUG"):     # the script's line says it all: not rulekit's frames
            exc = exc.with_traceback(None)
        raise exc


def _show_where(exc: Exception) -> None:
    """Add the error as ``rulekit run`` prints it (file:line:col and the caret) as a note
    (PEP 678), which pytest and Python print under the exception: a failing ``run_script`` or
    ``transcript`` in a user's own test says where the script went wrong. ``str(exc)`` stays the
    bare message, as ``render`` and the command line use it."""
    if getattr(exc, "span", None) is None and not isinstance(exc, DiagnosticReport):
        return
    rendered = exc.render()
    if rendered not in getattr(exc, "__notes__", ()):
        exc.add_note(rendered)


def _run(path: str, force: bool, game_override, record: bool) -> ScriptResult:
    data, smap = _load_script(path)
    _check_log(data, smap)
    _check_numbers(data, smap)
    game, variants = _script_game_of(path, data, smap, game_override, force)
    skip = _skipped(game, data, smap)
    seed = data.get("seed", 0)
    position = _position(path, data, smap, game)
    try:
        state = _start(game, data, smap, seed, record, position)
        after = "after setup and `position:`" if "position" in data else "after setup"
        raise_all(invariant_failures(state, skip, smap.span(("position",) if "position" in data else ("game",)),
                                     after))
        transcript, checkpoints = _play(game, state, data, smap, skip)
    except ContentRuntimeError as exc:
        raise _pin_error(exc, data, smap) from None
    _check_result(state, data, smap)
    if state.result is not None:
        transcript.append("result: " + json.dumps(state.result, sort_keys=True))
    return ScriptResult(state, transcript, make_log(state, variants, seed, data.get("pins"), position and position[0],
                                                    data.get("skip_invariants")), checkpoints)


def _position(path: str, data: dict, smap, game) -> tuple | None:
    """(the statements of the script's ``position:``, where they are written), or None. They
    are the script's own, or with ``position: {file: PATH}`` those of the ``position:`` of a YAML
    file several scripts share (PATH from the script's folder), read only as a regular file
    inside the game's folder (a script outside it: inside its own), so that errors in them are
    reported on that file's lines. A log keeps the statements themselves."""
    spec = data.get("position")
    if spec is None or isinstance(spec, str):
        return None if spec is None else (spec, smap.text(("position",)))
    from ..games import inside
    here = os.path.dirname(path)
    folder = os.path.abspath(game.path)
    shared = os.path.normpath(os.path.join(here, spec["file"]))
    node = load_yaml(shared, within=folder if inside(folder, os.path.abspath(here)) else here or ".")
    held, held_map = flatten(node)
    text = held.get("position") if isinstance(held, dict) else None
    if not isinstance(text, str):
        raise ScriptError(f"`{spec['file']}` holds no `position:` statements to start from: a shared position file "
                          "is YAML with `position: |` and the statements below it", smap.span(("position", "file")))
    return text, held_map.text(("position",))


def _skipped(game, data: dict, smap):
    """The invariants a script does not check (``skip_invariants:``, for a position impossible
    on purpose): ALL, or a set of ids, each an invariant of the game (RK5027 on its line)."""
    spec = data.get("skip_invariants", ())
    if spec == ALL:
        return ALL
    ids = [ident for ident, _text, _fn in game.scoring.invariants]
    for i, ident in enumerate(spec):
        if ident not in ids:
            raise ScriptError(f"`skip_invariants` names `{ident}`, which is no invariant of {game.title}",
                              smap.span(("skip_invariants", i)), UNKNOWN_INVARIANT,
                              help=suggestion_help(str(ident), ids) or
                              f"its invariants: {', '.join(f'`{x}`' for x in ids) or 'none'}")
    return frozenset(spec)


def _pin_error(exc: ContentRuntimeError, data: dict, smap) -> Exception:
    """A failure of a pinned value (``exc.pin``: its kind, stream or zone and index, from the end
    when negative) as an error at the script's own line, naming where the rules drew it."""
    pin = getattr(exc, "pin", None)
    if pin is None:
        return exc
    kind, name, index = pin
    if index < 0:
        index += len(((data.get("pins") or {}).get(kind) or {}).get(name) or ())
    notes = (f"drawn by the rules at {exc.span}",) if exc.span is not None else ()
    return ScriptError(str(exc), smap.span(("pins", kind, name, index)), BAD_TOP_PIN if kind == "top" else UNUSABLE_PIN,
                       notes=notes)


def _check_numbers(data: dict, smap) -> None:
    """``seed:``, ``players:`` and pinned rolls are whole numbers (a JSON Schema ``integer``
    lets ``3.0`` through), the seed within 0..MAX_SEED and a roll at least 1: refused at the
    script's own line, before any game is loaded."""
    for key, low, high in (("seed", 0, MAX_SEED), ("players", 1, None)):
        value = data.get(key, low)
        if type(value) is not int or value < low or (high is not None and value > high):
            bounds = f"from {low} to {high}" if high is not None else f"of at least {low}"
            raise ScriptError(f"`{key}:` must be a whole number {bounds}, not {_shown(value)}",
                              smap.span((key,)), BAD_SEED_OR_PLAYERS)
    for stream, values in (((data.get("pins") or {}).get("rolls")) or {}).items():
        for i, value in enumerate(values or ()):
            if type(value) is not int or value < 1:
                raise ScriptError(f"pinned roll {_shown(value)} for `{stream}` is not a whole number of at least 1",
                                  smap.span(("pins", "rolls", stream, i)), UNUSABLE_PIN)


def _shown(value) -> str:
    """A value as the script wrote it, cut to a readable length (``loader.brief``)."""
    return f"`{brief(json.dumps(value, default=str))}`"


def _load_script(path: str):
    """The script's (data, source map), refused with diagnostics unless it fits the schema."""
    node = load_yaml(path)
    data, smap = flatten(node)
    problems = schema.check_data(data, smap, "script")
    if problems:
        raise DiagnosticReport(problems)
    return data, smap


def _script_game_of(path: str, data: dict, smap, game_override, force: bool):
    """Returns (the game, its variants). A game named by a folder beside the script wins
    over a shipped one; a log's game must still have the content the log was made with."""
    base = os.path.dirname(path)
    ref = data["game"]
    local = os.path.join(base, ref)
    variants = tuple(data.get("variants") or ())
    if game_override is not None:
        game = game_override
    else:
        folder, files = _script_game(local if os.path.isdir(local) else ref, variants, smap)
        game = load_game(folder, files)
    expected_hash = data.get("content_hash")
    if expected_hash and expected_hash != game.content_hash and not force:
        raise ScriptError(_what_changed(expected_hash, data.get("content_parts"), game),
                          smap.span(("content_hash",)), CONTENT_CHANGED)
    return game, variants


def _start(game, data: dict, smap, seed: int, record: bool, position: tuple | None) -> State:
    """The state at its first decision: after setup and the script's ``position:`` (its
    statements and where they are written, :func:`_position`)."""
    for zone, first in ((data.get("pins") or {}).get("top") or {}).items():     # before setup, which may shuffle
        _check_items(game, f"pinned on top of `{zone}`", first, ("pins", "top", zone), BAD_TOP_PIN, smap)
    zones = zone_index(game)
    for zone, orders in ((data.get("pins") or {}).get("shuffles") or {}).items():
        for k, order in enumerate(orders or ()):
            if zone in zones:                     # a zone the game lacks is refused after setup (RK5022)
                _check_items(game, f"pinned shuffle of `{zone}`", order, ("pins", "shuffles", zone, k),
                             UNUSABLE_PIN, smap)
    code = None if position is None else game.compile_script(*position)
    try:
        state = api.new_game(game, data.get("players"), seed, pins_from(data.get("pins")), record=record,
                             position=code)
    except UsageError as exc:   # a player count the game does not allow
        raise ScriptError(str(exc), smap.span(("players",)), SCRIPT_PLAYER_COUNT) from None
    _check_pins(state, data, smap)
    return state


def _play(game, state: State, data: dict, smap, skip):
    """Runs the steps in order, checking the invariants (those in ``skip`` aside) after each action.
    Returns (transcript, checkpoints); the transcript gets each action's events right after
    it, so that expectations and checkpoints fall between them."""
    transcript: list = []
    checkpoints: dict = {}
    cursor = 0

    def flush():
        nonlocal cursor
        transcript.extend(render_event(e) for e in state.events[cursor:])
        cursor = len(state.events)
    flush()
    for i, spec in enumerate(data.get("actions") or []):
        step = Step(state, smap, i)
        kind = next(iter(spec)) if isinstance(spec, dict) else None
        if kind not in STEP_KINDS:
            act(step, spec)
            flush()
            raise_all(invariant_failures(state, skip, step.span(), "after this action"))
        elif kind == "checkpoint":
            name = str(spec["checkpoint"])
            checkpoints[name] = {str(PLAYERS[i]): view(state, i) for i in range(state.n)}
            transcript.append(f"checkpoint {name}")
        else:
            raise_all(CHECKS[kind](step, spec[kind]))
            transcript.append(_checked(kind, spec[kind]))
    return transcript, checkpoints


def _checked(kind: str, spec) -> str:
    """The transcript line of a check that held."""
    if kind == "refuse":
        return f"  refused ok: {spec['action'] if isinstance(spec, dict) else spec}"
    if kind == "over":
        return f"  over ok: {fmt(bool(spec))}"
    if kind == "sees":
        return f"  sees ok: {spec['player']}: {', '.join(str(k) for k in spec if k != 'player')}"
    keys = spec if isinstance(spec, dict) else {"exactly": spec}
    return f"  {kind} ok: {', '.join(str(k) for k in keys)}"


def _expect(step: Step, expectations: dict) -> list:
    """``expect: {EXPRESSION: VALUE}``; each failure is reported on its own key's line."""
    state, failures = step.state, []
    for text, want in expectations.items():
        espan = step.span("expect", text, key=True)
        seats = {str(PLAYERS[k]): PLAYERS[k] for k in range(state.n)}
        fn = _expr_fn(step.game, text, espan, seats)
        try:
            got = fn(state, dict(seats))
        except Exception as exc:  # content evaluation problems are the author's to see, in rulekit's words
            failures.append(ScriptError(f"cannot evaluate `{text}`: {_unevaluable(exc, step.game)}", espan,
                                        EXPECTATION_UNEVALUABLE))
            continue
        want = steps.as_written(want)
        if _normal(got) != _normal(want):
            failures.append(ScriptError(steps.mismatch(text, want, got), espan, EXPECTATION_FAILED))
    return failures


def _unevaluable(exc: Exception, game) -> str:
    """Why an expectation could not be worked out, as the content's errors say it (never Python's
    own text, such as a bare ``'what'`` for a missing key); a failure of rulekit's own code is
    its bug (exit 101)."""
    if isinstance(exc, RulekitError):
        return str(exc)
    error = runtime_failure(exc, game)
    if isinstance(error, InternalError):
        raise error from exc
    return str(error)


CHECKS = {"expect": _expect, "refuse": steps.refuse, "legal": steps.legal, "score": steps.score,
          "over": steps.over, "sees": steps.sees}


def _check_result(state: State, data: dict, smap) -> None:
    """A log replayed to its end must end as it did when it was recorded."""
    if "result" not in data:
        return
    if state.result is None:
        raise ScriptError("the log records a result, but the replay has not ended", smap.span(("result",)),
                          REPLAY_RESULT_DIFFERS)
    if _normal(data["result"]) != _normal(state.result):
        raise ScriptError("the replay ended with a different result than the log recorded",
                          smap.span(("result",)), REPLAY_RESULT_DIFFERS)


def _script_game(ref: str, variants: tuple, smap) -> tuple:
    """(the folder of the game a script names, its variants as load_game takes them), or a
    ScriptError on the script's line when the game or one of its variants cannot be used."""
    from ..games import find_game
    try:
        folder = find_game(ref)
    except UsageError as exc:
        raise ScriptError(str(exc), smap.span(("game",)), SCRIPT_GAME_UNUSABLE) from None
    files = []
    for i, variant in enumerate(variants):
        try:
            files.append(_script_variant(folder, str(variant)))
        except UsageError as exc:
            raise ScriptError(str(exc), smap.span(("variants", i)), SCRIPT_GAME_UNUSABLE) from None
    return folder, tuple(files)


def _script_variant(folder: str, variant: str) -> str:
    """A script's variant: a name in the game's ``variants/`` or a file inside the game's
    folder (a script must not make rulekit read files elsewhere)."""
    from ..games import inside, named_variant
    if not variant.endswith((".yaml", ".yml")) and "/" not in variant and os.sep not in variant:
        named = named_variant(folder, variant)
        return named if os.path.exists(variant) else variant   # the name, unless a file here has it
    path = os.path.join(folder, variant)
    if not inside(folder, path) or not os.path.lexists(path) or os.path.isdir(path):
        raise UsageError(f"no variant file `{variant}` in the game's folder: a script's variant is a name "
                         "(variants/NAME.yaml) or a file inside the game's folder")
    overlay = load_yaml(path, within=folder)
    if not isinstance(overlay.value, dict) or "variant" not in overlay.value:   # a file of the game, say
        raise UsageError(f"`{variant}` is no variant: a variant file starts with a `variant:` header")
    return path


def _normal(value):
    if isinstance(value, (list, tuple)):
        return [_normal(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _normal(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value) if type(value) is int else str(value)
    return str(value)


def write_log(path: str, log: dict) -> None:
    """Write a game log (a script that replays the game) to ``path``, atomically. Its last
    line is ``action_count: N``: a log cut short is refused rather than replayed in part.

    No ``$schema`` modeline: a log is the same bytes on every machine, and the only schema path
    that exists everywhere it could be opened is the machine's own install (docs/cli.md says how
    to point an editor at ``rulekit schema``'s files)."""
    if os.path.isabs(log.get("game", "")):  # a game folder: name it relative to the log file
        log = dict(log, game=os.path.relpath(log["game"], os.path.dirname(os.path.abspath(path))))
    log = {k: v for k, v in log.items() if k != "action_count"}
    log["action_count"] = len(log.get("actions") or ())
    text = yaml.safe_dump(log, sort_keys=False, allow_unicode=True)
    write_text(path, text)


def _check_log(data: dict, smap) -> None:
    """A log rulekit can read whole: a format version it knows, and (from version 2) as many
    actions as its closing ``action_count`` says; unknown pins are refused on their line."""
    version = data.get("rulekit_log")
    if version is not None and not 1 <= version <= LOG_VERSION:
        raise ScriptError(f"log format version {version} is not one this rulekit reads (1 to {LOG_VERSION}); "
                          "was it written by a newer rulekit?", smap.span(("rulekit_log",)), LOG_FORMAT_TOO_NEW)
    steps = [a for a in data.get("actions") or () if not (isinstance(a, dict) and a.keys() & {"expect", "checkpoint"})]
    if "action_count" in data:
        if data["action_count"] != len(steps):
            raise ScriptError(f"this log says it holds {data['action_count']} actions but lists {len(steps)}: "
                              "it was cut short or edited", smap.span(("action_count",)), LOG_CUT_SHORT)
    elif version is not None and version >= 2:
        raise ScriptError(f"this log has no closing `action_count` line: it was cut short (after {len(steps)} "
                          "actions), so it is not replayed", smap.span(("rulekit_log",)), LOG_CUT_SHORT)


def _check_pins(state: State, data: dict, smap) -> None:
    """A pin that nothing would ever draw (a zone the game does not have, a stream no `roll`
    uses) would be ignored without a word: refuse it."""
    pins = data.get("pins") or {}
    zones = {key.text for key in state.zones}
    for zone in (pins.get("shuffles") or {}):
        if zone not in zones:
            raise ScriptError(f"pinned shuffle for `{zone}`, which is no zone of {state.game.title}",
                              smap.span(("pins", "shuffles", zone), key=True), BAD_PIN_TARGET,
                              help=suggestion_help(str(zone), zones))
    for zone in (pins.get("top") or {}):
        if zone not in zones:
            raise ScriptError(f"pinned on top of `{zone}`, which is no zone of {state.game.title}",
                              smap.span(("pins", "top", zone), key=True), BAD_PIN_TARGET,
                              help=suggestion_help(str(zone), zones))
    streams = state.game.program.roll_streams
    for stream in (pins.get("rolls") or {}):
        if streams is not None and stream not in streams:
            raise ScriptError(f"pinned rolls for stream `{stream}`, which no `roll` of {state.game.title} draws from",
                              smap.span(("pins", "rolls", stream), key=True), BAD_PIN_TARGET,
                              help=suggestion_help(str(stream), streams) or
                              f"its rolls use {', '.join(f'`{x}`' for x in sorted(streams)) or 'no stream'}")


def _check_items(game, what: str, idents: list, key: tuple, code: str, smap) -> None:
    """The items a pin lists (on top of a zone, or a shuffle's order): items of the game, each
    named once (whether an order holds the zone's very items is known only when it is shuffled;
    that is refused at the order's line too)."""
    seen: set = set()
    for i, ident in enumerate(idents or ()):
        where = smap.span((*key, i))
        if ident not in game.components.items:
            raise ScriptError(f"{what}: `{ident}` is no item of {game.title}", where, code,
                              help=suggestion_help(str(ident), game.components.items))
        if ident in seen:
            raise ScriptError(f"{what}: `{ident}` is listed twice", where, code)
        seen.add(ident)
