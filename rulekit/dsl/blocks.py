# SPDX-License-Identifier: MIT
"""The blocks of a resumable procedure, as typed lines.

A procedure that may stop for a decision is written as numbered blocks (dsl/codegen.py): each a
list of ``(indent, line, span)``, where a line that moves between blocks says what it is
(``pysource.Jump``: go to block N; ``pysource.Exit``: leave the block). These functions work on
those lines, never on their text: jump threading (the ``threading`` pass), a block made a function
of its own (a long procedure, ``_emit_split``), and the lines that return from a frame.
"""
from __future__ import annotations

from ..errors import InternalError
from . import ir, passes
from .pysource import CONTINUE, RETURN_PC, Comment, Exit, Jump, literal


def block_function(lines: list) -> list:
    """A block's lines (written at depth 3, inside ``while True:`` and an ``if pc == N:``) as the
    body of a function of its own: going to block N (``pc = N`` then ``continue``, or falling
    through to the next block) returns N."""
    out: list = []
    for ind, text, span in lines:
        if text is CONTINUE:
            last = out[-1] if out else None
            if last is not None and last[0] == ind - 2 and isinstance(last[1], Jump) and not last[1].frame:
                out[-1] = (ind - 2, _returns(last[1]), last[2])
            else:
                out.append((ind - 2, RETURN_PC, span))
            continue
        out.append((ind - 2, text, span))
    last = out[-1] if out else None
    if last is not None and last[0] == 1 and isinstance(last[1], Jump) and not last[1].frame:
        out[-1] = (1, _returns(last[1]), last[2])
    elif last is None or last[0] != 1 or not isinstance(last[1], Exit):
        out.append((1, RETURN_PC, None))
    return out


def _returns(jump: Jump):
    """``return N``: the block a jump goes to, returned by a block's own function."""
    return ir.exit("return $0", literal(jump.target) if jump.target.__class__ is int else ir.code("f.pc"))


def returned(value: str | None, ind: int, span) -> list:
    """The line that returns from a resumable procedure's frame (the top one) with ``value``
    (engine/runtime.returned: the frame comes off, and the value goes where the caller stores
    it); False tells the caller's ``runtime.call`` it returned. The value is worked out before
    the call: one that fails leaves the frame where it was."""
    if value is None:       # (a bare `return`, or the end of the procedure)
        return [(ind, ir.exit("return RETURN(s, f)"), span)]
    return [(ind, ir.exit("return RETURN(s, f, $0)", value), span)]


@passes.step("threading")
def threaded(blocks: list) -> list:
    """The blocks with every jump to a block that only jumps on (a loop's or a branch's end)
    going straight to where that leads: one pass of the dispatch instead of two or three. A
    block that ends by jumping to a later block falls through to it (the tests of the blocks
    between are fewer than those from the first block on)."""
    hops = {}
    for pc, lines in enumerate(blocks):
        code = [(ind, text) for ind, text, _span in lines if not isinstance(text, Comment)]
        jump = code[0][1] if code and code[0][0] == 3 and isinstance(code[0][1], Jump) else None
        if jump is None or jump.frame or jump.target.__class__ is not int:
            continue
        if code[1:] == [(3, CONTINUE)] or (len(code) == 1 and jump.target == pc + 1):
            hops[pc] = jump.target

    def resolve(target: int) -> int:
        seen = set()
        while target in hops and target not in seen:
            seen.add(target)
            target = hops[target]
        return target

    out = []
    for pc, lines in enumerate(blocks):
        new = []
        for k, (ind, text, span) in enumerate(lines):
            if isinstance(text, Jump) and text.target in hops:
                target = resolve(text.target)
                new.append((ind, Jump(target, text.frame), span))
                if k == len(lines) - 1 and ind == 3 and not text.frame and target <= pc:
                    new.append((3, CONTINUE, None))     # it fell through to a later block
                continue
            new.append((ind, text, span))
        if len(new) >= 2 and new[-1][:2] == (3, CONTINUE) and new[-2][0] == 3:
            jump = new[-2][1]
            if isinstance(jump, Jump) and not jump.frame and jump.target.__class__ is int and jump.target > pc:
                new.pop()       # a later block: the tests below this one reach it without going round
        out.append(new)
    return out


@passes.step("unreachable")
def without_unreachable(blocks: list, entries: set) -> list:
    """The blocks with None for each one no run reaches: a run starts at one of ``entries``
    (block 0, or the block a decided option binds) and goes on only where a line sends it,
    ``pc = N`` or ``f.pc = N`` (every test of the dispatch is ``pc == N``, so a block is never
    entered by falling past the one before). A branch's or a loop's end that threading
    bypassed is such a block. Numbers stay as they are: a saved frame's pc means the same."""
    seen: set = set()
    todo = [pc for pc in entries if pc < len(blocks)]
    while todo:
        pc = todo.pop()
        if pc in seen:
            continue
        seen.add(pc)
        todo.extend(text.target for _ind, text, _span in blocks[pc]
                    if isinstance(text, Jump) and text.target.__class__ is int and text.target not in seen)
    return [lines if pc in seen else None for pc, lines in enumerate(blocks)]


def unreached(procedure: str, pc):
    """What generated code runs where a run reaches a block :func:`without_unreachable` left out:
    a fault of that pass, never the author's (exit 101), named with how to run without it."""
    raise InternalError(f"block {pc} of `{procedure}` was reached, but the compiler's pass `unreachable` left it "
                        f"out; {passes.ENV}=-unreachable runs without it")
