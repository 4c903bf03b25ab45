# SPDX-License-Identifier: MIT
"""The steps of a script: actions, and what must hold between them.

A rule is as much about what is *not* allowed as about what happens, so besides
actions and ``expect:`` a script can say that an action is refused (``refuse:``),
which actions are legal (``legal:``), what a player scored (``score:``) and whether
the game is over (``over:``), and what one player is shown (``sees:``). A check returns
every failure it finds, not only the first; :func:`raise_all` reports them together at their
script lines. A name that no option of the game could ever print is a typo (RK5011), not a
refusal. After setup and after every action the game's invariants are checked as random play
checks them (:func:`invariant_failures`), so a script cannot pass through a state the rules
say is impossible unless it says it means it (``skip_invariants:``).
"""
from __future__ import annotations

import re

import attrs

from ..codes import (
    ACTION_AFTER_END,
    ACTION_NEVER_PRINTED,
    BAD_SEES_ENTRY,
    ILLEGAL_SCRIPT_ACTION,
    INVARIANT_BROKEN,
    LEGAL_FAILED,
    OVER_FAILED,
    REFUSE_FAILED,
    SCORE_FAILED,
    SCRIPT_STEP_FAILED,
    SEES_FAILED,
    WRONG_PLAYER,
)
from ..dsl import notation
from ..dsl.notation import render_event
from ..engine import api, moves
from ..engine.mutate import fmt
from ..engine.simultaneous import NotDeciding
from ..engine.state import PLAYERS, Decision, State, item_state_entries
from ..errors import ContentRuntimeError, Diagnostic, IllegalAction, RulekitError, suggestion_help
from ..source import Span

STEP_KINDS = ("expect", "checkpoint", "refuse", "legal", "score", "over", "sees")
ALL = "all"        # `skip_invariants: all`: a script that checks no invariant


class ScriptError(RulekitError):
    """A script step failed: a wrong action, a failed expectation, a changed game.
    ``more`` holds the other failures of the same step."""

    code = SCRIPT_STEP_FAILED

    def __init__(self, message: str, span: Span | None = None, code: str | None = None,
                 legal: list[str] | None = None, notes: tuple = (), help: str | None = None):
        self.span = span
        if code:
            self.code = code
        self.legal = legal
        self.notes = tuple(notes)
        self.help = help
        self.more: tuple = ()
        super().__init__(message)

    def render(self) -> str:
        parts = [Diagnostic(self.code, str(self), self.span, self.help, self.notes).render()]
        parts += [other.render() for other in self.more]
        if self.more:
            parts.append(f"{len(self.more) + 1} expectations of this step failed.")
        return "\n\n".join(parts)


def raise_all(failures: list) -> None:
    """Raise the first failure with the others attached (``more``), if there is any."""
    if failures:
        first = failures[0]
        first.more = tuple(failures[1:])
        raise first


@attrs.define
class Step:
    """One step being run: where it is in the script, and the game it plays."""

    state: State
    smap: object
    index: int

    @property
    def game(self):
        return self.state.game

    def span(self, *path, key: bool = False) -> Span | None:
        return self.smap.span(("actions", self.index, *path), key=key)

    def legal(self) -> list[str]:
        return api.legal_actions(self.state)


def who_acts(state: State) -> str:
    return "nobody (the game is over)" if state.pending is None else str(PLAYERS[state.pending.player])


def simultaneous(state: State) -> bool:
    """Whether the game waits for several players deciding at once (``choose_all``)."""
    return state.pending is not None and state.pending.__class__ is not Decision


def unknown_action(step: Step, action: str, span: Span | None, glob: bool = False) -> ScriptError:
    """RK5011: no option of the game could ever be written like ``action``."""
    what = "matches" if glob else "is written"
    return ScriptError(f"no action of this game {what} `{action}` (no option of its rules could be): a typo, "
                       "not a refusal", span, ACTION_NEVER_PRINTED, legal=step.legal(),
                       help=suggestion_help(action, step.legal()) or "the legal actions now: "
                       + (", ".join(step.legal()[:20]) or "none"))


# ------------------------------------------------------------------ actions

def act(step: Step, spec) -> None:
    """One action step (``bid 3``, or ``p2: pass`` asserting who acts)."""
    state, span = step.state, step.span()
    who, action = next(iter(spec.items())) if isinstance(spec, dict) else (None, spec)
    action = str(action)
    if state.over:
        raise ScriptError(f"action `{action}` after the game ended", span, ACTION_AFTER_END)
    actor = who_acts(state)
    at_once = simultaneous(state)
    if who is not None and who != actor and not at_once:
        raise ScriptError(f"the script says {who} acts, but it is {actor}'s decision "
                          f"(legal: {', '.join(state.pending.labels[:20])})", span, WRONG_PLAYER,
                          legal=list(state.pending.labels))
    try:
        api.apply(state, action, player=who if at_once else None)
    except NotDeciding as exc:      # one of several deciding at once: someone who chose already
        raise ScriptError(exc.reason, span, exc.code) from None
    except IllegalAction as exc:
        if not _could_be(step.game, action, glob=False):
            raise unknown_action(step, action, span) from None
        raise ScriptError(str(exc), span, ILLEGAL_SCRIPT_ACTION, legal=exc.legal) from None


# ------------------------------------------------------------------ refuse

def refuse(step: Step, spec) -> list:
    """``refuse: ACTION`` or ``refuse: {action: ACTION, because: CODE-OR-PHRASE}``: the action
    must be refused and leave the state as it was."""
    action, because = (str(spec), None) if not isinstance(spec, dict) else (str(spec["action"]), spec.get("because"))
    span = step.span("refuse", "action") if isinstance(spec, dict) else step.span("refuse")
    if not _could_be(step.game, action, glob=False):
        return [unknown_action(step, action, span)]
    state = step.state
    before, mark = fingerprint(state), len(state.events)
    try:
        api.apply(state, action)
    except (IllegalAction, ContentRuntimeError) as exc:
        refusal = exc
    else:
        return [accepted(step, action, span, mark)]
    failures = []
    reason = refusal.reason if isinstance(refusal, IllegalAction) else str(refusal)
    if because is not None and not (str(because) == refusal.code or str(because).lower() in reason.lower()):
        failures.append(ScriptError(f"`{action}` was refused, but {refusal.code} {reason}, not `{because}`",
                                    step.span("refuse", "because"), REFUSE_FAILED))
    elif because is None and isinstance(refusal, ContentRuntimeError):
        failures.append(ScriptError(f"`{action}` was refused by a content error: {refusal.code} {reason}",
                                    span, REFUSE_FAILED, help="if that is the rule, say so with `because: "
                                    f"{refusal.code}`"))
    if fingerprint(state) != before:
        failures.append(ScriptError(f"refusing `{action}` changed the state", span, REFUSE_FAILED))
    return failures


def accepted(step: Step, action: str, span, mark: int) -> ScriptError:
    """The failure of a refusal that was accepted, showing the state it reached."""
    state = step.state
    events = [render_event(e).strip() for e in state.events[mark:]]
    now = ("the game is over" if state.over else
           f"{who_acts(state)} to act: {', '.join(state.pending.labels[:20])}")
    return ScriptError(f"expected `{action}` to be refused, but it was accepted", span, REFUSE_FAILED,
                       notes=tuple(f"then {e}" for e in events[1:12]) + (f"now {now}",))


def fingerprint(state: State) -> str:
    """Everything an action could change, as text to compare."""
    zones = sorted((str(key), items) for key, items in state.zones.items())
    frames = [(f.pc, f.env) for f in state.frames]
    labels = None if state.pending is None else list(state.pending.labels)
    return repr((state.g, state.p, zones, sorted(item_state_entries(state.iprops), key=repr), state.rng, frames,
                 state.actions, len(state.events), state.over, state.result, labels))


# ------------------------------------------------------------------ legal

def legal(step: Step, spec) -> list:
    """``legal: [PATTERNS]`` (exactly these) or ``legal: {player, includes, excludes, exactly}``.
    A step naming a whole move (``claim r1; pay *``) where the decision is a step of a move
    (``move: whole``) checks the whole moves instead of the single options."""
    listed = isinstance(spec, list)
    spec = {"exactly": spec} if listed else spec

    def where(key, k=None):
        path = ("legal",) if listed else ("legal", key)
        return step.span(*path, *(() if k is None else (k,)))
    failures = [unknown_action(step, str(pattern), where(key, k), glob=True)
                for key in ("includes", "excludes", "exactly") for k, pattern in enumerate(spec.get(key) or ())
                if not _could_be(step.game, str(pattern))]
    if failures:    # a pattern that can match nothing would pass vacuously
        return failures
    player = spec.get("player")
    labels, wrong = _legal_of(step, player)
    if any(moves.SEPARATOR in str(p) for key in ("includes", "excludes", "exactly") for p in spec.get(key) or ()) \
            and not wrong and moves.anchor(step.state) is not None:
        labels = moves.legal_moves(step.state)     # whole moves in steps, named as `claim r1; pay c1`
    shown = ("legal now: " + (", ".join(labels[:40]) or "none"),)

    def fail(message, span):
        failures.append(ScriptError(message, span, LEGAL_FAILED, notes=shown))
    if wrong:
        fail(wrong, where("player"))
    for k, pattern in enumerate(spec.get("includes") or ()):
        if not _matching(labels, pattern):
            fail(f"no legal action matches `{pattern}`", where("includes", k))
    for k, pattern in enumerate(spec.get("excludes") or ()):
        hits = _matching(labels, pattern)
        if hits:
            fail(f"`{pattern}` should not be legal, but {', '.join(hits[:10])} {'is' if len(hits) == 1 else 'are'}",
                 where("excludes", k))
    patterns = spec.get("exactly")
    if patterns is not None:
        extra = [label for label in labels if not any(notation.matches(label, p) for p in patterns)]
        if extra:
            fail(f"legal but not listed: {', '.join(extra[:20])}", where("exactly"))
        for k, pattern in enumerate(patterns):
            if not _matching(labels, pattern):
                fail(f"listed but not legal: `{pattern}`", where("exactly", k))
    return failures


def _legal_of(step: Step, player) -> tuple:
    """(the legal actions a ``legal:`` step checks, the failure of its ``player:`` or None): in a
    simultaneous decision, those of ``player`` when they are still to choose."""
    state = step.state
    deciding = [str(q) for q in api.current_players(state)]
    if player is not None and simultaneous(state) and str(player) in deciding:
        return api.legal_actions(state, str(player)), None
    if player is not None and str(player) != who_acts(state):
        return step.legal(), f"expected {player} to act, but it is {', '.join(deciding) or who_acts(state)}"
    return step.legal(), None


def _could_be(game, pattern: str, glob: bool = True) -> bool:
    """``notation.could_be``, where a game marks moves in steps (``move: whole``) for a whole
    move too: each of its steps joined by ``"; "`` could be an action of the game."""
    if notation.could_be(game, pattern, glob):
        return True
    return bool(game.program.whole_moves) and moves.SEPARATOR in pattern and \
        all(notation.could_be(game, part, glob) for part in pattern.split(moves.SEPARATOR))


def _matching(labels: list, pattern: str) -> list:
    return [label for label in labels if notation.matches(label, pattern)]


# ------------------------------------------------------------------ score, over

def score(step: Step, spec: dict) -> list:
    """``score: {p1: TOTAL}``, ``{p1: {CATEGORY: POINTS, total: N}}``, ``{winners: [p1]}``:
    checked against the game's result, so only once it has been scored."""
    result = step.state.result
    if result is None:
        return [ScriptError(f"no score yet: the game is not over ({who_acts(step.state)} to act)",
                            step.span("score"), SCORE_FAILED)]
    failures = []
    for who, want in spec.items():
        if who == "winners":
            if list(map(str, want)) != result["winners"]:
                failures.append(ScriptError(f"expected the winners {fmt(want)}, got {fmt(result['winners'])}",
                                            step.span("score", who), SCORE_FAILED))
            continue
        row = result["scores"].get(str(who))
        if row is None:
            failures.append(ScriptError(f"no player `{who}` in this game ({', '.join(result['scores'])})",
                                        step.span("score", who, key=True), SCORE_FAILED))
            continue
        wants = want if isinstance(want, dict) else {"total": want}
        for category, points in wants.items():
            failures += _category(step, who, row, category, points, isinstance(want, dict))
    return failures


def _category(step: Step, who, row: dict, category, points, nested: bool) -> list:
    got = dict(row["breakdown"], total=row["total"])
    path = ("score", who, category) if nested else ("score", who)
    if category not in got:
        return [ScriptError(f"no scoring category `{category}`", step.span(*path, key=True), SCORE_FAILED,
                            help=suggestion_help(str(category), got))]
    if got[category] != points:
        return [ScriptError(f"expected {who}'s {category} to be {fmt(points)}, got {got[category]}",
                            step.span(*path), SCORE_FAILED)]
    return []


def over(step: Step, want: bool) -> list:
    state = step.state
    if bool(want) == state.over:
        return []
    if want:
        return [ScriptError(f"expected the game to be over, but {who_acts(state)} is to act "
                            f"(legal: {', '.join(state.pending.labels[:20])})", step.span("over"), OVER_FAILED)]
    return [ScriptError(f"expected the game to go on, but it is over (round {state.g.get('round')})",
                        step.span("over"), OVER_FAILED)]


# ------------------------------------------------------------------ invariants

def invariant_failures(state: State, skip, span: Span | None, after: str) -> list:
    """RK5026: the game's invariants broken now (their ``when:`` honoured) and player variables
    below zero, as ``rulekit test``'s random games check them; ``skip``: the ids a script breaks
    on purpose, or ALL. Cheap enough for every step: the invariants are the game's compiled ones."""
    if skip is ALL:
        return []
    failures = [_broken(state, ident, text, span, after) for ident, text, fn in state.game.scoring.invariants
                if ident not in skip and not fn(state, {})]
    for i, row in enumerate(state.p):
        failures += [ScriptError(f"{PLAYERS[i]}.{name} is {value} {after}: a player variable below zero, which "
                                 "`rulekit test` refuses in random games too", span, INVARIANT_BROKEN,
                                 help="a script that builds an impossible position on purpose says so: "
                                 "`skip_invariants: all`")
                     for name, value in row.items() if type(value) is int and value < 0]
    return failures


def _broken(state: State, ident: str, text: str, span: Span | None, after: str) -> ScriptError:
    """The failure of one invariant: its id and text here, its expression and where it is
    declared as notes, with the two sides of the comparison that failed when there is one."""
    expr, where = _declared(state.game, ident)
    notes = ()
    if expr is not None:
        notes = (f"`{_brief(' '.join(expr.split()))}` is false{_sides(state, expr)}",
                 f"the invariant is declared at {where}")
    return ScriptError(f"invariant `{ident}` is broken {after}" + (f": {' '.join(text.split())}" if text else ""),
                       span, INVARIANT_BROKEN, notes=notes,
                       help=f"a script that builds an impossible position on purpose says so: "
                       f"`skip_invariants: [{ident}]`")


def _declared(game, ident: str) -> tuple:
    """(the expression text, its span) of the invariant ``ident`` in the game's content."""
    for i, inv in enumerate(game.data.get("invariants") or ()):
        if isinstance(inv, dict) and inv.get("id", f"invariant{i + 1}") == ident:
            return inv.get("expr"), game.source_map.span(("invariants", i, "expr"))
    return None, None


def _sides(state: State, expr: str) -> str:
    """``: its == compares 58 with 60`` for the comparison that makes ``expr`` false (the
    whole expression, or the first false part of an ``and``), or nothing. Only run on a
    failure, and only a nicety: any problem working it out leaves it out."""
    from ..dsl import ast
    from ..dsl.texts import parse_text, scope
    from ..errors import RUNTIME_ERRORS
    compiler = state.game.compiler_for_scripts()
    try:
        node = parse_text(expr, None, "expr")
        while node.__class__ is ast.BoolOp and node.op == "and":
            node = node.left if not compiler.expr(node.left, scope())(state, {}) else node.right
        if node.__class__ is not ast.Compare:
            return ""
        left, right = (compiler.expr(side, scope())(state, {}) for side in (node.left, node.right))
    except (RulekitError, *RUNTIME_ERRORS):
        return ""
    return f": its `{node.op}` compares {_brief(fmt(left))} with {_brief(fmt(right))}"


def _brief(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


# ------------------------------------------------------------------ expect

def as_written(want):
    """An ``expect:`` value as the rules' language reads it: the word ``none`` is no value, as
    YAML's ``null`` is, inside a list or a mapping too (as in content values)."""
    if isinstance(want, list):
        return [as_written(v) for v in want]
    if isinstance(want, dict):
        return {k: as_written(v) for k, v in want.items()}
    return None if want == "none" else want


def mismatch(text: str, want, got) -> str:
    """The message of a failed expectation; when both print alike, what each one is."""
    message = f"expected `{text}` to be {fmt(want)}, got {fmt(got)}"
    if fmt(want) == fmt(got):
        message += f" ({_what(got)}, not {_what(want)})"
    return message


def _what(value) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_what(v) for v in value) + "]"
    if value is None:
        return "none"
    if value.__class__ is bool:
        return "a truth value"
    if value.__class__ in (int, float):
        return "a number"
    return "a text" if isinstance(value, str) else f"a {value.__class__.__name__.lower()}"


# ------------------------------------------------------------------ sees

HIDDEN = "?"    # what a view shows for a value or an item kept from the player (engine/view.py)
ABSENT = "absent"   # `sees: {"route[0]": absent}`: the family has no such space


def sees(step: Step, spec: dict) -> list:
    """``sees: {player: p2, "p1.hand": {count: 10}, deck: hidden, "p1.coins": hidden, "p2.hand": [...]}``:
    what one player's view (:func:`rulekit.engine.view.view`) shows of each zone or variable named.
    A zone takes its items (in any order, ``?`` for one face down), ``{count: N}`` (only its count
    shown), ``hidden`` (no item shown by name) or ``shown`` (every item shown); a variable its
    value, ``hidden`` or ``shown``; a space of a family ``absent`` (the family has no such space:
    what a script can say of a board's extent, since naming a space it lacks is a typo)."""
    from ..engine.view import view
    state, player = step.state, str(spec.get("player"))
    seats = [str(PLAYERS[i]) for i in range(state.n)]
    if player not in seats:
        return [ScriptError(f"no player `{player}` in this game ({', '.join(seats)})", step.span("sees", "player"),
                            BAD_SEES_ENTRY, help=suggestion_help(player, seats))]
    picture = view(state, seats.index(player))
    failures = []
    for name, want in spec.items():
        if name == "player":
            continue
        try:
            kind, got = _seen(state, picture, str(name), step.span("sees", name, key=True), want == ABSENT)
            _fits(kind, str(name), want, step.span("sees", name))
        except ScriptError as exc:
            failures.append(exc)
            continue
        if not _shows(kind, got, want):
            failures.append(ScriptError(f"{player} is shown `{name}` as {_picture(got)}, not {_wanted(want)}",
                                        step.span("sees", name), SEES_FAILED))
    return failures


_NAME = re.compile(r"(?:(p[0-9]+)\.)?([A-Za-z_][A-Za-z0-9_]*)(?:\[(.+)\])?")


def _seen(state: State, picture: dict, name: str, span: Span | None, absent: bool = False) -> tuple:
    """("zone" or "var", what the view shows of ``name``: ``deck``, ``route[3]``, ``p1.hand``,
    ``p1.land[hill]``, ``round``, ``p1.coins``), or (ABSENT, None) for a space its family lacks
    when ``absent`` is expected; RK5029 for a name the game does not have."""
    game, match = state.game, _NAME.fullmatch(name)
    seat, base, key = match.groups() if match else (None, name, None)
    if seat is not None and seat not in picture["players"]:
        raise ScriptError(f"no player `{seat}` in this game ({', '.join(picture['players'])})", span, BAD_SEES_ENTRY)
    kind, content, family = _entry(game, picture, seat, base)
    if match is None or kind is None:
        raise ScriptError(f"`{name}` is no zone or variable of {game.title}", span, BAD_SEES_ENTRY,
                          help=suggestion_help(name, _names(game)))
    whole = f"{seat}.{base}" if seat else base
    if family and key is None:
        raise ScriptError(f"`{name}` is a family of zones: name one of its spaces, as `{whole}[KEY]`", span,
                          BAD_SEES_ENTRY)
    if not family and key is not None:
        raise ScriptError(f"`{whole}` is no family of zones: leave out the `[{key}]`", span, BAD_SEES_ENTRY)
    if absent and kind == "zone" and not family:      # a variable's value may be the text `absent`
        raise ScriptError(f"`absent` says that a family of zones has no such space (`FAMILY[KEY]`); `{name}` "
                          "is no space of a family", span, BAD_SEES_ENTRY)
    if family:
        if key not in content and absent:
            return ABSENT, None
        if key not in content:
            raise ScriptError(f"`{whole}` has no space `{key}`", span, BAD_SEES_ENTRY, help=suggestion_help(key,
                                                                                                            content)
                              or f"its spaces: {_brief(', '.join(content))}")
        content = content[key]
    return kind, content


def _entry(game, picture: dict, seat: str | None, base: str) -> tuple:
    """(kind "zone"/"var" or None, the view's picture of it, whether it is a family of zones)."""
    if seat is not None:
        row = picture["players"][seat]
        if base in game.variables.pvars:
            return "var", row[base], False
        if base in game.board.pzones:
            return "zone", row[base], hasattr(game.board.pzones[base][0], "zones")   # a Family of the seat's own
        return None, None, False
    if base == "round":
        return "var", picture["round"], False
    if base in game.variables.gvars:
        return "var", picture["vars"].get(base, HIDDEN), False     # a view leaves out hidden globals
    if base in game.board.families:
        return "zone", picture["zones"][base], True
    if base in game.board.zones and base != "box":
        return "zone", picture["zones"][base], False
    return None, None, False


def _names(game) -> list:
    """Every zone and variable a ``sees:`` step may name, as p1 would write them."""
    return ["round", *game.variables.gvars, *game.board.zones, *game.board.families,
            *(f"p1.{n}" for n in (*game.variables.pvars, *game.board.pzones))]


def _fits(kind: str, name: str, want, span: Span | None) -> None:
    """RK5029 for an expectation of the wrong shape for its kind (a list for a variable)."""
    if want in ("hidden", "shown", ABSENT) or kind == ABSENT:
        return
    if kind == "var" and isinstance(want, (list, dict)):
        raise ScriptError(f"`{name}` is a variable: expect its value, `hidden` or `shown`", span, BAD_SEES_ENTRY)
    if kind == "zone" and not isinstance(want, (list, dict)):
        raise ScriptError(f"`{name}` is a zone: expect its items (a list), `{{count: N}}`, `hidden` or `shown`, "
                          f"not {fmt(want)}", span, BAD_SEES_ENTRY)


def _shows(kind: str, got, want) -> bool:
    """Whether the view's ``got`` is what a ``sees:`` entry wants."""
    if kind == ABSENT or (want == ABSENT and kind == "zone"):
        return kind == ABSENT
    if kind == "var":
        if want in ("hidden", "shown"):
            return (got == HIDDEN) == (want == "hidden")
        return got != HIDDEN and _plain(got) == _plain(want)
    items = got if isinstance(got, list) else None
    unnamed = items is None or all(i == HIDDEN for i in items)
    if want == "hidden":
        return unnamed
    if want == "shown":
        return items is not None and HIDDEN not in items
    if isinstance(want, dict):
        return unnamed and _count(got) == want.get("count")
    return items is not None and sorted(map(str, items)) == sorted(map(str, want))


def _count(got) -> int:
    return got["count"] if isinstance(got, dict) else len(got)


def _plain(value) -> tuple:
    """A value as a script writes it (a player as ``p1``, a fraction as ``7/2``), a truth
    value apart from a number (``true`` is not ``1``)."""
    if value is None or isinstance(value, (int, float)):
        return value.__class__ is bool, value
    return False, str(value)


def _picture(got) -> str:
    """What the view showed, in words."""
    if isinstance(got, dict):
        return f"only a count ({got['count']})"
    if isinstance(got, list):
        return f"{len(got)} item{'' if len(got) == 1 else 's'} [{_brief(', '.join(map(str, got)))}]"
    return "hidden" if got == HIDDEN else fmt(got)


def _wanted(want) -> str:
    """What a ``sees:`` entry expected, in words."""
    if isinstance(want, dict):
        return f"only a count ({want.get('count')})"
    if isinstance(want, list):
        return f"{len(want)} item{'' if len(want) == 1 else 's'} [{_brief(', '.join(map(str, want)))}]"
    if want == ABSENT:
        return "absent (no such space)"
    return "shown" if want == "shown" else fmt(want)
