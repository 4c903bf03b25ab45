# SPDX-License-Identifier: MIT
"""Runs the generated code of a game: frames, decisions, and errors on content lines.

A game's procedures are Python functions written by ``dsl/codegen.py``. Those that can
stop for a decision are *resumable*: ``run(state, frame)`` carries on from the frame's
program counter with the frame's locals, and returns True when it stopped at a
``choose``. This module is the loop around them: ``while frames: top.run(s, top)``.
Because the program counter and locals live in :class:`Frame` objects inside the
state, a suspended game clones and resumes without Python generators, which could be
neither copied nor serialised. This is boardgame.io's "flow as an event queue" and
TAG's extended sequences, folded into one mechanism: a decision may appear anywhere,
in any nested procedure, loop or phase.

A bot's imagined position (``State.list_later``) stops at a ``choose`` without listing
its options: a greedy bot judges most positions it reaches by their estimate alone, and
listing the next player's options was a third of what each such trial cost. They are
listed when first asked for (:class:`Unlisted`). A game played at random (a search's
rollout, ``rulekit simulate`` with random seats: ``State.auto``, ``api.autoplay``) takes
each decision as it comes instead of stopping (``runtime.decide``): the generated code
goes on at once at the block the decision bound, as a resume would have, and a frame that
returns after such a decision costs the step the loop below would have counted
(``runtime.call``).

A failure inside generated code is mapped back to the content statement it came
from: each generated line knows its span (``runtime.LINE_SPANS``), and each subscript that
reads values alone how to read what it indexed (``runtime.SUBSCRIPTS``), both recorded by
the compiler as it made the module: nothing here reads generated source.
"""
from __future__ import annotations

import dis
from itertools import islice

from ..codes import INDEX_OUT_OF_RANGE
from ..errors import RUNTIME_ERRORS, ContentRuntimeError, raise_failure, set_at
from ..limits import DEFAULT_STEP_LIMIT
from .library import EndGame
from .runtime import LINE_SPANS, SUBSCRIPTS, check_player, limit_reached
from .state import Decision, Frame, Player, State
from .watchdog import RUNS


def run(s: State, limit: int = DEFAULT_STEP_LIMIT) -> None:
    """Run until the next decision or the end of the game."""
    frames = s.frames
    s.limit = limit
    s.budget = limit
    RUNS[0] += 1              # engine/watchdog.py: a run in progress
    try:
        while frames:
            f = frames[-1]
            try:
                if f.code.run(s, f):
                    if s.pending is not None or s.auto is None:
                        return
                    continue        # it asks to run on from the top frame
            except EndGame:
                del frames[1:]
                frames[0].pc = s.game.program.finish_pc
                continue
            except _FAILURES as exc:
                _located(exc, f, s.game)
            s.budget -= 1
            if s.budget < 0:
                limit_reached(s, f.code.name, f.code.span)
        s.pending = None
    finally:
        RUNS[0] += 1
        s.steps += limit - s.budget


_FAILURES = (ContentRuntimeError,) + RUNTIME_ERRORS


def _located(exc: Exception, f: Frame, game):
    """Raise a failure while running content as a content error on the line of the content
    statement that failed (unless it already names a line of its own), or as a bug in
    rulekit when rulekit's own code raised it (errors.runtime_failure)."""
    if isinstance(exc, ContentRuntimeError) and exc.span is not None:
        raise exc from None
    span = statement_span(exc.__traceback__) or f.code.span
    if isinstance(exc, ContentRuntimeError):
        exc.span = span
        raise exc from None
    past = _past_end(exc) if exc.__class__ is IndexError else None
    if past is not None:
        raise ContentRuntimeError(past, span, INDEX_OUT_OF_RANGE, set_at(game, span)) from None
    raise_failure(exc, game, span)


def _past_end(exc: IndexError) -> str | None:
    """``index 5 is past the end of `hand` (3 items)``: an index written in place by the generated
    code (``s.zones[Z][i]``, ``xs[i]``) worked out again, on the failure only, by the reads the
    compiler made for the failing subscript when it reads values alone (``runtime.SUBSCRIPTS``,
    dsl/subscripts.py: this never parses generated source); else None."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code if tb is not None else None
    reads = SUBSCRIPTS.get(code.co_filename) if code is not None else None
    if reads is None:
        return None
    try:
        read, zone = reads[next(islice(code.co_positions(), tb.tb_lasti // 2, None))]
        values = eval(read, tb.tb_frame.f_globals, tb.tb_frame.f_locals)  # noqa: S307 - reads the compiler made
        if zone:
            zones, key, index = values
            held, what = zones[key], f"`{key}`"
        else:
            held, index = values
            what = "the text" if held.__class__ is str else "the list"
    except Exception:  # noqa: BLE001 - only a nicety: the plain message stands
        return None
    if index.__class__ is not int or not hasattr(held, "__len__"):
        return None
    size = len(held)
    end = "end" if index >= 0 else "start"
    return f"index {index} is past the {end} of {what} ({size} item{'' if size == 1 else 's'})"


def statement_span(tb):
    """The span of the innermost content statement in a traceback, or None."""
    span = None
    while tb is not None:
        spans = LINE_SPANS.get(tb.tb_frame.f_code.co_filename)
        if spans is not None:
            line = tb.tb_lineno if tb.tb_lineno is not None else _line_before(tb)
            if line is not None and 0 < line <= len(spans) and spans[line - 1] is not None:
                span = spans[line - 1]
        tb = tb.tb_next
    return span


def _line_before(tb) -> int | None:
    """The line of the last instruction with one at or before where ``tb`` stopped: an
    instruction of no line of its own (a loop's jump back, where the watchdog's signal may
    land) leaves its traceback entry without one."""
    line = None
    for offset, start in dis.findlinestarts(tb.tb_frame.f_code):
        if offset > tb.tb_lasti:
            break
        if start is not None:
            line = start
    return line


def resume(s: State, index: int, limit: int = DEFAULT_STEP_LIMIT) -> None:
    """Continue after the pending decision with the choice at ``index``: its frame goes on at
    the option's block, which binds the values (:func:`runtime.take`, written out: every
    decision of a game played one at a time passes here)."""
    f = s.frames[-1]
    f.chosen = choice = s.pending.choices[index]
    f.pc = choice[0]
    s.pending = None
    run(s, limit)


_CHOICES = Decision.__dict__["choices"]      # the slot Unlisted's property stands in front of


class Unlisted(Decision):
    """A decision whose options are listed when first asked for, by running its ``choose``
    block again: the block starts by saving where it is (so a saved game waiting there
    lists them the same way), and nothing has changed the state since it stopped. A
    failure listing them (no legal option, RK4010) is met then, on its content line."""

    __slots__ = ()

    def __init__(self, player, spec, state: State):
        Decision.__init__(self, player, None, spec, state)

    @property
    def choices(self) -> list:
        choices = _CHOICES.__get__(self)
        if choices is None:
            choices = _list_options(self.state, self).choices
            _CHOICES.__set__(self, choices)
        return choices

    @choices.setter
    def choices(self, value) -> None:
        """Decision's constructor sets the slot through here (Unlisted's sets it to None)."""
        _CHOICES.__set__(self, value)

    def bound_to(self, state) -> Decision:
        choices = _CHOICES.__get__(self)
        if choices is None:
            return Unlisted(self.player, self.spec, state)
        return Decision(self.player, choices, self.spec, state)


def unlisted(s: State, player, spec) -> bool:
    """Stop at a ``choose`` of a position whose options are listed later (generated code
    calls this before listing them when ``s.list_later``)."""
    if player.__class__ is not Player or not 0 <= player < s.n:
        check_player(s, player, spec)
    s.pending = Unlisted(player, spec, s)
    return True


def _list_options(s: State, decision: Unlisted) -> Decision:
    if s.pending is not decision:
        raise RuntimeError("the options of this decision cannot be listed: its state has moved on")
    f = s.frames[-1]
    s.list_later = False
    RUNS[0] += 1
    try:
        f.code.run(s, f)        # the choose block: lists the options and stops (runtime.decide)
    except _FAILURES as exc:
        _located(exc, f, s.game)
    finally:
        RUNS[0] += 1
        s.list_later = True
    return s.pending
