# SPDX-License-Identifier: MIT
"""Decisions in steps: the moves of a procedure marked ``move: whole``.

A rule may ask one player several things in a row that are one move at the table ("claim a
target, then pay for it"). Written as two ``choose``s, each is a decision of its own: ``rulekit
play`` asks them one at a time, with the second's options narrowed by the first. When the
author marks the procedure ``move: whole`` (builder/program.py keeps its Code in
``Program.whole_moves``), bots, scripts and ``legal`` may take the steps as one move:

- a decision is *in a move* when a frame of a marked procedure is on the stack (the outermost
  such frame anchors it);
- the move from that decision is the options chosen, one after another, while the next
  decision is the same player's, one at a time (no ``choose_all``), and the anchoring frame is
  still running (the very frame: a procedure that returned and is called again starts a new move);
- its notation joins the steps' labels with ``"; "`` (``claim r1; pay c1+c2``).

:func:`expand` lists every complete move from a decision by playing each option on a copy of
the state, bounded by ``limits.MAX_MOVE_POSITIONS`` copies and ``MAX_MOVE_STEPS`` steps (RK4031
on the marked procedure otherwise). :func:`apply_joined` applies a move given in joined notation
(``api.apply`` hands it such an action), atomically. The state and its log keep the steps as
they are: each step is an action of its own, so a game without a mark plays, logs and replays
exactly as before, and a log of steps replays whatever the mark says.
"""
from __future__ import annotations

from ..codes import MOVE_TOO_BIG
from ..errors import ContentRuntimeError, IllegalAction
from ..limits import MAX_MOVE_POSITIONS, MAX_MOVE_STEPS
from .simultaneous import Simultaneous
from .state import PLAYERS, State
from .steps import apply_index

SEPARATOR = "; "


class Move:
    """One complete move: the option indices of its steps, in order; their labels (``None``
    when listed without notation, as bots list them); and, when kept, the position it
    reaches (a copy played without a record)."""

    __slots__ = ("steps", "labels", "end")

    def __init__(self, steps: tuple, labels: tuple | None, end: State | None):
        self.steps = steps
        self.labels = labels
        self.end = end

    @property
    def notation(self) -> str:
        return SEPARATOR.join(self.labels)

    def __repr__(self):
        return f"<move {self.notation if self.labels is not None else self.steps}>"


def anchor(s: State) -> int | None:
    """The stack index of the frame that makes the pending decision part of a move (the
    outermost frame of a procedure marked ``move: whole``), or None: no mark, a game over,
    or a simultaneous decision (``choose_all`` is never a step of a move)."""
    marked = s.game.program.whole_moves
    if not marked or s.pending is None or s.pending.__class__ is Simultaneous:
        return None
    for i, f in enumerate(s.frames):
        if f.code in marked:
            return i
    return None


def _goes_on(s: State, i: int, frame, seat: int) -> bool:
    """Whether the move anchored by ``frame`` (at stack index ``i``) asks ``seat`` again in ``s``."""
    pending = s.pending
    return (not s.over and pending is not None and pending.__class__ is not Simultaneous
            and pending.player == seat and len(s.frames) > i and s.frames[i] is frame)


def expand(s: State, labels: bool = True, keep: bool = False) -> list[Move]:
    """Every complete move from the pending decision, in option order (the first step's
    first option first). A decision that is no part of a move gives one move per option,
    each a single step. ``labels``: write the steps' notation; ``keep``: keep each move's
    end position. ``s`` is not changed; a content error while playing a step is raised."""
    i = anchor(s)
    decision = s.pending
    if i is None:
        count = 0 if decision is None else len(decision.choices)
        return [Move((k,), (decision.label(k),) if labels else None, None) for k in range(count)]
    root = s.clone()
    root.record = False
    root.list_later = True      # a position reached is judged or walked on, its options listed when asked
    seat, code = decision.player, s.frames[i].code
    out: list[Move] = []
    left = [MAX_MOVE_POSITIONS]

    def walk(x: State, steps: tuple, names: tuple) -> None:
        if len(steps) >= MAX_MOVE_STEPS:
            raise _too_big(code, f"takes more than {MAX_MOVE_STEPS} steps")
        count = len(x.pending.choices)
        for k in range(count):
            name = names + (x.pending.label(k),) if labels else None
            y = x.clone() if k < count - 1 else x       # the last option plays on the position itself
            left[0] -= 1
            if left[0] < 0:
                raise _too_big(code, f"reaches more than {MAX_MOVE_POSITIONS:,} positions")
            frame = y.frames[i]
            apply_index(y, k, atomic=False)
            if _goes_on(y, i, frame, seat):
                walk(y, steps + (k,), name)
            else:
                out.append(Move(steps + (k,), name, y if keep else None))
    walk(root, (), ())
    return out


def _too_big(code, what: str) -> ContentRuntimeError:
    return ContentRuntimeError(f"the move of `{code.name}` (`move: whole`) {what}: too big to list as whole "
                               "moves; mark a smaller procedure, or ask in fewer steps", code.span, MOVE_TOO_BIG)


def legal_moves(s: State) -> list[str]:
    """The notation of every legal move: whole moves joined by ``"; "`` where the pending
    decision is part of a move, else the legal actions."""
    if anchor(s) is None:
        return [] if s.pending is None else list(s.pending.labels)
    return [m.notation for m in expand(s)]


def joined(s: State, action: str) -> bool:
    """Whether ``action`` is written as a whole move (steps joined by ``"; "``) and the pending
    decision is part of a move."""
    return SEPARATOR in action and anchor(s) is not None


def apply_joined(s: State, action: str, atomic: bool = True, step_limit: int | None = None) -> None:
    """Apply a whole move written in joined notation, step by step: each step must be a legal
    option of its decision, and the steps must end where the move ends. Otherwise
    IllegalAction names the step that is not legal and the legal ones there (or says the
    move is cut short or goes past its end), and the state is as it was; a content error on
    the way restores it too (when ``atomic``)."""
    i = anchor(s)
    seat = s.pending.player
    frame = s.frames[i]
    backup = s.checkpoint() if atomic else None
    history = (len(s.events), len(s.actions))
    rest, done = action, []
    limit = {} if step_limit is None else {"step_limit": step_limit}
    try:
        while True:
            labels = s.pending.labels
            label = _first_step(rest, labels)
            if label is None:
                raise _refused(action, done, labels, seat, rest)
            apply_index(s, s.pending.index(label), False, **limit)
            done.append(label)
            rest = rest[len(label) + len(SEPARATOR):]
            going = _goes_on(s, i, frame, seat)
            if not rest:
                if going:
                    raise IllegalAction(action, [], f"not a whole move: {PLAYERS[seat]} decides again after "
                                        f"`{done[-1]}` (the move goes on: add the next step, or give the steps one "
                                        "at a time)", player=str(PLAYERS[seat]))
                return
            if not going:
                raise IllegalAction(action, [], f"the move ends after `{SEPARATOR.join(done)}`; "
                                    f"`{rest}` is no step of it", player=str(PLAYERS[seat]))
    except (IllegalAction, ContentRuntimeError):
        if backup is not None:
            s.restore(backup)
            del s.events[history[0]:], s.actions[history[1]:]   # shared with the checkpoint: cut back
        raise


def _first_step(rest: str, labels) -> str | None:
    """The longest label that ``rest`` starts with as a whole step (all of it, or before a ``"; "``)."""
    best = None
    for label in labels:
        if (rest == label or rest.startswith(label + SEPARATOR)) and (best is None or len(label) > len(best)):
            best = label
    return best


def _refused(action: str, done: list, labels, seat: int, rest: str) -> IllegalAction:
    step = rest.split(SEPARATOR, 1)[0]
    after = f" after `{SEPARATOR.join(done)}`" if done else ""
    return IllegalAction(action, list(labels), f"step {len(done) + 1}, `{step}`, is not legal{after}",
                         player=str(PLAYERS[seat]))
