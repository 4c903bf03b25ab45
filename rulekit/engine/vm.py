# SPDX-License-Identifier: MIT
"""A tiny resumable machine that runs compiled rules.

A game's flow and effects compile to *code*: a list of op closures per procedure.
Running is ``while frames: op = top.code.ops[top.pc]; op(state, top)``. The only op
that stops the machine is ``choose``: it stores a :class:`Decision` in the state and
returns. Because the program counter and locals live in :class:`Frame` objects
inside the state, a suspended game clones and resumes without Python generators,
which could be neither copied nor serialised. This is boardgame.io's "flow as an
event queue" and TAG's extended sequences, folded into one mechanism: a decision
may appear anywhere, in any nested procedure, loop or phase.
"""
from __future__ import annotations

from ..errors import ContentRuntimeError
from . import mutate
from .library import EndGame, seq
from .state import Decision, Frame, State

SUSPEND = True
DEFAULT_STEP_LIMIT = 2_000_000


class Code:
    """Linked ops of one procedure, with each op's source span for errors."""

    __slots__ = ("name", "ops", "spans", "params", "span")

    def __init__(self, name, params=(), span=None):
        self.name = name
        self.ops = []
        self.spans = []
        self.params = params
        self.span = span


class ChooseSpec:
    __slots__ = ("player", "options", "span")

    def __init__(self, player, options, span):
        self.player = player
        self.options = options   # tuple of (enum_fn, target pc); enum_fn(s, env) -> [(label, bindings)]
        self.span = span


def _fuse(instrs: list) -> list:
    """Merge runs of ``exec`` instructions that no jump lands inside into one ``execs``:
    one dispatch of the run loop instead of one per statement."""
    out: list = []
    for ins in instrs:
        if ins[0] == "exec" and out and out[-1][0] in ("exec", "execs"):
            last = out.pop()
            fns, spans = (list(last[1]), list(last[2])) if last[0] == "execs" else ([last[1]], [last[-1]])
            out.append(("execs", tuple(fns + [ins[1]]), tuple(spans + [ins[-1]]), spans[0]))
        else:
            out.append(ins)
    return out


def link(code: Code, instrs: list, procs: dict) -> Code:
    """Turn symbolic instructions (with labels) into op closures."""
    labels = {}
    real = []
    for ins in _fuse(instrs):
        if ins[0] == "label":
            labels[ins[1]] = len(real)
        else:
            real.append(ins)
    for pc, ins in enumerate(real):
        op, nxt = ins[0], pc + 1
        span = ins[-1]
        if op == "exec":
            fn = _op_exec(ins[1], nxt)
        elif op == "execs":
            fn = _op_execs(ins[1], ins[2], nxt)
        elif op == "jump":
            fn = _op_jump(labels[ins[1]])
        elif op == "jf":
            fn = _op_jf(ins[1], labels[ins[2]], nxt)
        elif op == "for_init":
            fn = _op_for_init(ins[1], ins[2], nxt)
        elif op == "for_next":
            fn = _op_for_next(ins[1], ins[2], labels[ins[3]], nxt)
        elif op == "call":
            fn = _op_call(procs, ins[1], ins[2], ins[3], nxt)
        elif op == "return":
            fn = _op_return(ins[1])
        elif op == "choose":
            player, options = ins[1], ins[2]
            resolved = tuple((enum, labels[target]) for enum, target in options)
            fn = _op_choose(ChooseSpec(player, resolved, span))
        elif op == "native":
            fn = ins[1](nxt)
        else:  # pragma: no cover - compiler bug
            raise NotImplementedError(f"unknown op {op}")
        code.ops.append(fn)
        code.spans.append(span)
    code.ops.append(_op_return(None))
    code.spans.append(code.span)
    return code


def _op_exec(fn, nxt):
    def op(s, f):
        fn(s, f.env)
        f.pc = nxt
    return op


def _op_execs(fns, spans, nxt):
    def op(s, f):
        env = f.env
        done = 0
        try:
            for fn in fns:
                fn(s, env)
                done += 1
        except _FAILURES as exc:
            raise _located(exc, spans[done]) from None
        f.pc = nxt
    return op


def _op_jump(target):
    def op(s, f):
        f.pc = target
    return op


def _op_jf(cond, target, nxt):
    def op(s, f):
        f.pc = nxt if cond(s, f.env) else target
    return op


def _op_for_init(coll, slot, nxt):
    def op(s, f):
        f.env[slot] = (tuple(seq(s, coll(s, f.env))), 0)
        f.pc = nxt
    return op


def _op_for_next(slot, var, end, nxt):
    def op(s, f):
        env = f.env
        items, i = env[slot]
        if i >= len(items):
            f.pc = end
            return
        env[var] = items[i]
        env[slot] = (items, i + 1)
        f.pc = nxt
    return op


def _op_call(procs, name, argfns, ret, nxt):
    def op(s, f):
        code = procs[name]
        env = f.env
        new = {pname: fn(s, env) for pname, fn in zip(code.params, argfns)}
        f.pc = nxt
        if len(s.frames) > 200:
            raise ContentRuntimeError(f"procedure calls nest deeper than 200 (recursion in `{name}`?)",
                                      None, "RK4008")
        s.frames.append(Frame(code, 0, new, ret))
    return op


def _op_return(value):
    def op(s, f):
        result = value(s, f.env) if value is not None else None
        s.frames.pop()
        if f.ret is not None and s.frames:
            s.frames[-1].env[f.ret] = result
    return op


def _op_choose(spec: ChooseSpec):
    def op(s, f):
        s.pending = build_decision(s, f.env, spec)
        return SUSPEND
    return op


def build_decision(s: State, env: dict, spec: ChooseSpec) -> Decision:
    player = spec.player(s, env)
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < s.n:
        raise ContentRuntimeError(f"`choose` asks {mutate.fmt(player)}, who is not a player of this game "
                                  f"(p1..p{s.n})", spec.span, "RK4013")
    labels: list[str] = []
    choices: list = []
    for enum, target in spec.options:
        for label, bound in enum(s, env):
            labels.append(label)
            choices.append((target, bound))
    if not labels:
        raise ContentRuntimeError(f"no option of this choice is legal for {mutate.fmt(player)}",
                                  spec.span, "RK4010")
    if len(set(labels)) != len(labels):
        seen, dup = set(), None
        for label in labels:
            if label in seen:
                dup = label
                break
            seen.add(label)
        raise ContentRuntimeError(f"two legal options share the notation `{dup}`; "
                                  "give options labels that tell them apart", spec.span, "RK4011")
    return Decision(player, tuple(labels), tuple(choices), spec.span)


_RUNTIME_ERRORS = (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, AttributeError,
                   RecursionError)


def run(s: State, limit: int = DEFAULT_STEP_LIMIT) -> None:
    """Run until the next decision or the end of the game."""
    frames = s.frames
    steps = 0
    while frames:
        f = frames[-1]
        try:
            if f.code.ops[f.pc](s, f):
                s.steps += steps
                return
        except EndGame:
            del frames[1:]
            frames[0].pc = s.game.finish_pc
            continue
        except _FAILURES as exc:
            raise _located(exc, f.code.spans[f.pc] if f.pc < len(f.code.spans) else f.code.span) from None
        steps += 1
        if steps > limit:
            span = f.code.spans[f.pc] if f.pc < len(f.code.spans) else f.code.span
            raise ContentRuntimeError(
                f"step limit of {limit} reached in `{f.code.name}` without a decision "
                "(a loop that never ends?)", span, "RK4009")
    s.steps += steps
    s.pending = None


_FAILURES = (ContentRuntimeError,) + _RUNTIME_ERRORS


def _located(exc: Exception, span) -> ContentRuntimeError:
    """A failure while running content, as a content error on ``span`` (unless it already
    names a line of its own)."""
    if isinstance(exc, ContentRuntimeError):
        if exc.span is None:
            exc.span = span
        return exc
    return ContentRuntimeError(_explain(exc), span, "RK4000")


def _explain(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"`{exc.args[0]}` has no value here (read before it was set?)"
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, RecursionError):
        return "functions call each other too deeply (recursion?)"
    return f"cannot evaluate: {exc}"


def resume(s: State, index: int, limit: int = DEFAULT_STEP_LIMIT) -> None:
    """Continue after the pending decision with the choice at ``index``."""
    target, bound = s.pending.choices[index]
    f = s.frames[-1]
    env = f.env
    for name, value in bound:
        env[name] = value
    f.pc = target
    s.pending = None
    run(s, limit)
