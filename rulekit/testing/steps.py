# SPDX-License-Identifier: MIT
"""The steps of a script: actions, and what must hold between them.

A rule is as much about what is *not* allowed as about what happens, so besides
actions and ``expect:`` a script can say that an action is refused (``refuse:``),
which actions are legal (``legal:``), what a player scored (``score:``) and whether
the game is over (``over:``). A check returns every failure it finds, not only the
first; :func:`raise_all` reports them together at their script lines. A name that no
option of the game could ever print is a typo (RK5011), not a refusal.
"""
from __future__ import annotations

import attrs

from ..dsl import notation
from ..dsl.notation import render_event
from ..engine import api
from ..engine.mutate import fmt
from ..engine.simultaneous import NotDeciding
from ..engine.state import PLAYERS, Decision, State, item_state_entries
from ..errors import ContentRuntimeError, Diagnostic, IllegalAction, RulekitError, suggestion_help
from ..source import Span

STEP_KINDS = ("expect", "checkpoint", "refuse", "legal", "score", "over")


class ScriptError(RulekitError):
    """A script step failed: a wrong action, a failed expectation, a changed game.
    ``more`` holds the other failures of the same step."""

    code = "RK5001"

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
                       "not a refusal", span, "RK5011", legal=step.legal(),
                       help=suggestion_help(action, step.legal()) or "the legal actions now: "
                       + (", ".join(step.legal()[:20]) or "none"))


# ------------------------------------------------------------------ actions

def act(step: Step, spec) -> None:
    """One action step (``bid 3``, or ``p2: pass`` asserting who acts)."""
    state, span = step.state, step.span()
    who, action = next(iter(spec.items())) if isinstance(spec, dict) else (None, spec)
    action = str(action)
    if state.over:
        raise ScriptError(f"action `{action}` after the game ended", span, "RK5003")
    actor = who_acts(state)
    at_once = simultaneous(state)
    if who is not None and who != actor and not at_once:
        raise ScriptError(f"the script says {who} acts, but it is {actor}'s decision "
                          f"(legal: {', '.join(state.pending.labels[:20])})", span, "RK5004",
                          legal=list(state.pending.labels))
    try:
        api.apply(state, action, player=who if at_once else None)
    except NotDeciding as exc:      # one of several deciding at once: someone who chose already
        raise ScriptError(exc.reason, span, exc.code) from None
    except IllegalAction as exc:
        if not notation.could_be(step.game, action, glob=False):
            raise unknown_action(step, action, span) from None
        raise ScriptError(str(exc), span, "RK5005", legal=exc.legal) from None


# ------------------------------------------------------------------ refuse

def refuse(step: Step, spec) -> list:
    """``refuse: ACTION`` or ``refuse: {action: ACTION, because: CODE-OR-PHRASE}``: the action
    must be refused and leave the state as it was."""
    action, because = (str(spec), None) if not isinstance(spec, dict) else (str(spec["action"]), spec.get("because"))
    span = step.span("refuse", "action") if isinstance(spec, dict) else step.span("refuse")
    if not notation.could_be(step.game, action, glob=False):
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
                                    step.span("refuse", "because"), "RK5012"))
    elif because is None and isinstance(refusal, ContentRuntimeError):
        failures.append(ScriptError(f"`{action}` was refused by a content error: {refusal.code} {reason}",
                                    span, "RK5012", help="if that is the rule, say so with `because: "
                                    f"{refusal.code}`"))
    if fingerprint(state) != before:
        failures.append(ScriptError(f"refusing `{action}` changed the state", span, "RK5012"))
    return failures


def accepted(step: Step, action: str, span, mark: int) -> ScriptError:
    """The failure of a refusal that was accepted, showing the state it reached."""
    state = step.state
    events = [render_event(e).strip() for e in state.events[mark:]]
    now = ("the game is over" if state.over else
           f"{who_acts(state)} to act: {', '.join(state.pending.labels[:20])}")
    return ScriptError(f"expected `{action}` to be refused, but it was accepted", span, "RK5012",
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
    """``legal: [PATTERNS]`` (exactly these) or ``legal: {player, includes, excludes, exactly}``."""
    listed = isinstance(spec, list)
    spec = {"exactly": spec} if listed else spec

    def where(key, k=None):
        path = ("legal",) if listed else ("legal", key)
        return step.span(*path, *(() if k is None else (k,)))
    failures = [unknown_action(step, str(pattern), where(key, k), glob=True)
                for key in ("includes", "excludes", "exactly") for k, pattern in enumerate(spec.get(key) or ())
                if not notation.could_be(step.game, str(pattern))]
    if failures:    # a pattern that can match nothing would pass vacuously
        return failures
    player = spec.get("player")
    labels, wrong = _legal_of(step, player)
    shown = ("legal now: " + (", ".join(labels[:40]) or "none"),)

    def fail(message, span):
        failures.append(ScriptError(message, span, "RK5013", notes=shown))
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


def _matching(labels: list, pattern: str) -> list:
    return [label for label in labels if notation.matches(label, pattern)]


# ------------------------------------------------------------------ score, over

def score(step: Step, spec: dict) -> list:
    """``score: {p1: TOTAL}``, ``{p1: {CATEGORY: POINTS, total: N}}``, ``{winners: [p1]}``:
    checked against the game's result, so only once it has been scored."""
    result = step.state.result
    if result is None:
        return [ScriptError(f"no score yet: the game is not over ({who_acts(step.state)} to act)",
                            step.span("score"), "RK5014")]
    failures = []
    for who, want in spec.items():
        if who == "winners":
            if list(map(str, want)) != result["winners"]:
                failures.append(ScriptError(f"expected the winners {fmt(want)}, got {fmt(result['winners'])}",
                                            step.span("score", who), "RK5014"))
            continue
        row = result["scores"].get(str(who))
        if row is None:
            failures.append(ScriptError(f"no player `{who}` in this game ({', '.join(result['scores'])})",
                                        step.span("score", who, key=True), "RK5014"))
            continue
        wants = want if isinstance(want, dict) else {"total": want}
        for category, points in wants.items():
            failures += _category(step, who, row, category, points, isinstance(want, dict))
    return failures


def _category(step: Step, who, row: dict, category, points, nested: bool) -> list:
    got = dict(row["breakdown"], total=row["total"])
    path = ("score", who, category) if nested else ("score", who)
    if category not in got:
        return [ScriptError(f"no scoring category `{category}`", step.span(*path, key=True), "RK5014",
                            help=suggestion_help(str(category), got))]
    if got[category] != points:
        return [ScriptError(f"expected {who}'s {category} to be {fmt(points)}, got {got[category]}",
                            step.span(*path), "RK5014")]
    return []


def over(step: Step, want: bool) -> list:
    state = step.state
    if bool(want) == state.over:
        return []
    if want:
        return [ScriptError(f"expected the game to be over, but {who_acts(state)} is to act "
                            f"(legal: {', '.join(state.pending.labels[:20])})", step.span("over"), "RK5015")]
    return [ScriptError(f"expected the game to go on, but it is over (round {state.g.get('round')})",
                        step.span("over"), "RK5015")]
