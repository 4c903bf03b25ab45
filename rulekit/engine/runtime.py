# SPDX-License-Identifier: MIT
"""What generated code calls at run time, besides the library and ``mutate``.

``dsl/codegen.py`` writes each procedure as Python. A procedure that may stop for a
decision runs in a :class:`~rulekit.engine.state.Frame`; these helpers start such frames
(:func:`call`; a return is written in place, ``dsl/blocks.returned``), stop at a ``choose``
(:func:`decide`) and bound loops (:func:`limit_reached`). :data:`LINE_SPANS` maps every
generated line back to the content statement it came from, which is how engine/vm.py puts
a failure on the author's line.
"""
from __future__ import annotations

import linecache
import weakref
from fractions import Fraction
from itertools import islice

from ..codes import (
    ASSERTION_FAILED,
    BAD_EXPONENT,
    CALLS_TOO_DEEP,
    CHOOSER_NOT_A_PLAYER,
    NO_LEGAL_OPTION,
    STEP_LIMIT,
    VALUE_TOO_LARGE,
    WRONG_KIND,
)
from ..errors import ContentRuntimeError, boundary
from ..limits import CALL_DEPTH as MAX_DEPTH
from . import mutate
from .library import checked_text, printed, seq, too_long
from .limits import MAX_BITS, MAX_SIZE, too_long_message, too_many_digits
from .rng import below
from .simultaneous import NAMES as SIMULTANEOUS
from .state import Decision, Frame, Player, State

# generated file name -> span of each of its lines (index = line - 1), while its module lives
LINE_SPANS: dict[str, list] = {}
# generated file name -> what its subscripts read (dsl/subscripts.py), for as long as its LINE_SPANS
SUBSCRIPTS: dict[str, dict] = {}
_bare = object.__new__
_ref = weakref.ref


class LinesOwner:
    """What a generated module's line table lives as long as: one is kept in the namespace its
    code runs in, so the table goes when no function of the module can run any more."""

    __slots__ = ("__weakref__",)


def keep_lines(filename: str, text: str, spans: list, owner) -> None:
    """Map ``filename``'s generated lines to their content spans (and its text to ``linecache``,
    for the tracebacks of a bug in rulekit) for as long as ``owner``, the module they belong to,
    lives: a process that reloads a game (the language server, on every edit) keeps only the
    entries of the modules still in use."""
    LINE_SPANS[filename] = spans
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    weakref.finalize(owner, _forget_lines, filename)


def keep_subscripts(filename: str, table: dict) -> None:
    """Keep what the subscripts of ``filename`` read (``position -> (read, zone)``, made by
    dsl/subscripts.py as the module is compiled) beside its line table, and as long: the VM
    words an index past the end from it (engine/vm.py) without reading the generated source."""
    if filename in LINE_SPANS:
        SUBSCRIPTS[filename] = table


def _forget_lines(filename: str) -> None:
    LINE_SPANS.pop(filename, None)
    SUBSCRIPTS.pop(filename, None)
    linecache.cache.pop(filename, None)


class Code:
    """A compiled procedure: what a frame runs (``run``) and, for a procedure that never
    stops for a decision, the plain Python function callers call (``direct``)."""

    __slots__ = ("name", "params", "span", "run", "direct", "pyname", "stops")

    def __init__(self, name: str, params: tuple = (), span=None, pyname: str = ""):
        self.name = name          # as errors name it: `auction`, `phase actions`, `setup`
        self.params = params
        self.span = span
        self.pyname = pyname      # its functions in the generated module: run_<pyname>, call_<pyname>
        self.stops = True         # may stop for a decision (then it runs in a frame)
        self.run = None
        self.direct = None

    def __repr__(self):
        return f"<procedure {self.name}>"


class ChooseSpec:
    """What a ``choose`` needs after its options are listed: for each option's target block,
    the env keys its chosen values bind and how its notation is written."""

    __slots__ = ("keys", "labels", "span", "says", "prompt", "options", "verbs")

    def __init__(self, keys: dict, labels: dict, span, says=None, prompt=None, options: dict | None = None,
                 verbs: dict | None = None):
        self.keys = keys        # target pc -> tuple of env keys
        self.labels = labels    # target pc -> fn(s, env, *values) -> notation
        self.span = span
        self.says = says or {}  # target pc -> fn(s, env, *values) -> narration (`says`), where given
        self.prompt = prompt    # fn(s, env) -> the choose's `prompt`, or None
        self.options = options or {}    # target pc -> the option's span (for `rulekit test --coverage`)
        self.verbs = verbs or {}        # target pc -> the first word of its notation, where the text fixes it


def call(s: State, code: Code, env: dict, ret) -> bool:
    """Run a procedure in a frame of its own, at once: True when it stopped for a decision (its
    caller stops too, having set where it goes on), False when it has returned (its caller goes
    on at once, without a turn of the VM's loop)."""
    frames = s.frames
    if len(frames) > MAX_DEPTH:
        raise ContentRuntimeError(f"procedure calls nest deeper than {MAX_DEPTH} (recursion in `{code.name}`?)",
                                  None, CALLS_TOO_DEEP)
    frame = _bare(Frame)      # Frame(code, 0, env, ret), without a Python call to its __init__
    frame.code = code
    frame.pc = 0
    frame.env = env
    frame.ret = ret
    frames.append(frame)
    taken = -1 if s.auto is None else len(s.actions)    # (only decisions taken as they come go on)
    while not code.run(s, frame):
        if frames[-1] is not frame:     # it returned (its return took its frame off: dsl/blocks.returned)
            if taken >= 0 and len(s.actions) != taken:
                # it went on after a decision taken as it came (decide): a resume would have
                # run it from vm.run's loop, whose step its return costs (the same steps)
                s.budget -= 1
                if s.budget < 0:
                    limit_reached(s, code.name, code.span)
            return False
        # still on top: it asks to run on (a `choose_all` listing the next player's options)
    return True


def returned(s: State, f: Frame, value=None) -> bool:
    """A resumable procedure's frame ``f`` (the top one) comes off, returning ``value``: where
    its caller stores the value (``x = proc()``: ``f.ret``), it goes into the caller's locals.
    False tells the caller's :func:`call` it returned. (Generated code ends each such
    procedure with ``return RETURN(s, f, value)``, the value worked out before the frame goes.)"""
    frames = s.frames
    frames.pop()
    if f.ret is not None and frames:
        frames[-1].env[f.ret] = value
    return False


def decide(s: State, player, choices: list, spec: ChooseSpec) -> bool:
    """Stop at a ``choose`` (True): ``choices`` are ``(target pc, *chosen values)`` tuples.

    Or take the decision as it comes, at random (``State.auto``, a rollout): the option the
    stream draws is taken as ``vm.resume`` takes it (:func:`take`), and False tells the
    generated code to go on at once at the option's block (``f.pc``), as a resume would, with no
    Decision, no return to ``vm.run`` and no resume. (Every decision of every rollout passes
    here, so this is written in one function, not two calls.)"""
    if player.__class__ is not Player or player >= s.n:     # a seat is never below 0 (state.PLAYERS)
        check_player(s, player, spec)
    if not choices:
        raise ContentRuntimeError(f"no option of this choice is legal for {mutate.fmt(player)}",
                                  spec.span, NO_LEGAL_OPTION)
    auto = s.auto
    if auto is None or auto.left <= 0:
        s.pending = decision = _bare(Decision)     # Decision(player, choices, spec, s), without a Python call
        decision.player = player
        decision.choices = choices
        decision.spec = spec
        decision._state = s.weak or _weak(s)
        decision._labels = decision._index = None
        if s.record:
            decision.labels  # noqa: B018 - a recorded game writes (and checks, RK4011) its notation at once
        return True
    k = player if auto.seats else 0
    auto.streams[k], index = below(auto.streams[k], len(choices))
    auto.left -= 1
    choice = choices[index]         # coverage (testing/coverage.py) reads the option taken here
    if auto.verbs is not None:      # before the choice binds: a label may read the locals
        auto.count(spec.verbs.get(choice[0]) or Decision(player, choices, spec, s).verb(index))
    s.actions.append(index)
    f = s.frames[-1]
    f.chosen = choice               # the block it goes on at binds the values (take)
    f.pc = choice[0]
    s.steps += s.limit - s.budget     # the steps to this decision, as vm.run's end counts them...
    s.budget = s.limit                # ...and the next decision's budget, as a resume's run sets it
    return False


def _weak(s: State):
    """A weak reference to ``s``, kept in it (``State.weak``): every decision of ``s`` holds it."""
    s.weak = ref = _ref(s)
    return ref


class Autoplay:
    """Decisions taken at random as they come (``State.auto``; ``api.autoplay``): the random
    streams (one every seat draws from, or one a seat), how many decisions are still to be
    taken so, and where the first word of each option taken is counted (``rulekit simulate``'s
    record), or None."""

    __slots__ = ("streams", "seats", "left", "verbs")

    def __init__(self, streams: list, seats: bool, left: int, verbs: dict | None = None):
        self.streams = streams
        self.seats = seats
        self.left = left
        self.verbs = verbs

    def count(self, verb: str) -> None:
        """One more option taken whose notation starts with ``verb``."""
        self.verbs[verb] = self.verbs.get(verb, 0) + 1


def take(f: Frame, choice: tuple) -> None:
    """Go on after a ``choose`` in frame ``f`` with the option ``choice`` (``(target pc,
    *values)``): its block next, which binds the values to their names as it starts
    (``Frame.chosen``; decide does the same in place)."""
    f.chosen = choice
    f.pc = choice[0]


def check_player(s: State, player, spec: ChooseSpec) -> None:
    """Refuse a `choose` that asks someone who is not a player (a plain whole number in range is one)."""
    if player.__class__ is bool or not isinstance(player, int) or not 0 <= player < s.n:
        raise ContentRuntimeError(f"`choose` asks {mutate.fmt(player)}, who is not a player of this game "
                                  f"(p1..p{s.n})", spec.span, CHOOSER_NOT_A_PLAYER)


def limit_reached(s: State, name: str, span) -> None:
    raise ContentRuntimeError(f"step limit of {s.limit} reached in `{name}` without a decision "
                              "(a loop that never ends?)", span, STEP_LIMIT)


def add(a, b):
    """``a + b`` where both may be texts or lists (a constant or number operand is written plainly;
    generated code writes this check out where it can, calling :func:`too_long`). The limits,
    MAX_SIZE and MAX_BITS, are engine/limits.py's."""
    value = a + b
    if (value.__class__ is str or value.__class__ is list) and len(value) > MAX_SIZE:
        too_long(value)
    return value


def bounded(items) -> list:
    """The list of what a comprehension with two or more ``for`` clauses yields (their product
    may be far larger than any of them): built to one item past MAX_SIZE at most, then refused."""
    out = list(islice(items, MAX_SIZE + 1))
    if len(out) > MAX_SIZE:
        raise ContentRuntimeError(too_long_message(False, MAX_SIZE, more=True), None, VALUE_TOO_LARGE)
    return out


def mul(a, b):
    """``a * b``, refused before it is worked out when the result would be too large."""
    if isinstance(a, int) and isinstance(b, int):
        if a.bit_length() + b.bit_length() > MAX_BITS:
            too_many_digits(a.bit_length() + b.bit_length(), "a runaway product?")
    elif isinstance(b, int) and isinstance(a, (str, list)) and len(a) * b > MAX_SIZE:     # (a text may be marked:
        raise ContentRuntimeError(too_long_message(isinstance(a, str), len(a) * b), None, VALUE_TOO_LARGE)
    elif isinstance(a, int) and isinstance(b, (str, list)) and len(b) * a > MAX_SIZE:     # engine/redact.Marked)
        raise ContentRuntimeError(too_long_message(isinstance(b, str), len(b) * a), None, VALUE_TOO_LARGE)
    return a * b


def power(a, b):
    """``a ** b``: a whole exponent of at least 0 (``1 / a ** n`` says the rest), refused
    before it is worked out when the result would be too large."""
    if not isinstance(b, int) or b < 0:
        raise ContentRuntimeError(f"the exponent of `**` must be a whole number of at least 0, got {mutate.fmt(b)}"
                                  + (f" (for a fraction write `1 / x ** {-b}`)" if isinstance(b, int) else ""),
                                  None, BAD_EXPONENT)
    if isinstance(a, int):
        bits = a.bit_length() if not -1 <= a <= 1 else 0
    elif isinstance(a, Fraction):
        bits = max(a.numerator.bit_length(), a.denominator.bit_length())
    else:
        bits = 0                # not a number: Python refuses it (RK4000)
    if bits * b > MAX_BITS:
        too_many_digits(bits * b, "a runaway power?")
    return a ** b


def divide(a, b):
    """``a / b`` exactly: a whole quotient is a whole number, any other a fraction (``7/2``)."""
    for value in (a, b):
        if not isinstance(value, (int, Fraction)):
            raise ContentRuntimeError(f"`/` divides numbers, not {mutate.fmt(value)}", None, WRONG_KIND)
    quotient = Fraction(a, b)
    return quotient.numerator if quotient.denominator == 1 else quotient


def assert_failed(message) -> None:
    """An ``assert`` whose test is false: the game stops on its line (the VM adds the span)."""
    raise ContentRuntimeError(message if message.__class__ is str else mutate.fmt(message), None, ASSERTION_FAILED)


def iterate(s: State, value) -> tuple:
    """What a `for` statement walks: a snapshot, so moving items while looping is safe."""
    return tuple(seq(s, value))


NAMES = {"CALL": call, "DECIDE": decide, "LIMIT": limit_reached, "ITER": iterate, "ADD": add, "MUL": mul,
         "TOO_LONG": too_long, "MAX_SIZE": MAX_SIZE, "STR": str, "FMT": printed, "CHECKED_TEXT": checked_text,
         "BOUNDED": bounded,
         "POW": power, "DIV": divide,
         "ASSERT": assert_failed, **SIMULTANEOUS}
boundary(*NAMES.values())       # they take the content's values: Python refusing one is the content's fault
NAMES["RETURN"] = returned      # (the frames' own bookkeeping: a failure in it is rulekit's, no boundary)
