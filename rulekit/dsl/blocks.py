# SPDX-License-Identifier: MIT
"""The blocks of a resumable procedure, as typed lines.

A procedure that may stop for a decision is written as numbered blocks (dsl/codegen.py): each a
list of ``(indent, line, span)``, where a line that moves between blocks says what it is
(``pysource.Jump``: go to block N; ``pysource.Exit``: leave the block). These functions work on
those lines, never on their text: jump threading (the ``threading`` pass), a block made a function
of its own (a long procedure, ``_emit_split``), a group of blocks made a *part* of a procedure
(``_emit_parts``), and the lines that return from a frame.

A function the writer made that would read longer than :data:`FUNCTION_LINES` is cut into parts, each
short enough: a resumable procedure's blocks into groups, each a function looping over its own
(:func:`parts`, :func:`part_lines`); a straight function (a procedure that never stops, a
choose's listing of options) or a block's straight lines at top-level statements
(:func:`statements`, :func:`straight_parts`, :class:`Reads`), each part a function the first
calls with the locals it reads.
"""
from __future__ import annotations

import ast

from ..errors import InternalError
from . import ir, passes
from .pysource import CONTINUE, RETURN_PC, Comment, Exit, Jump, literal

FUNCTION_LINES = 60     # the longest a generated function reads (issue 54), a flat table apart: how the
#                         code is laid out, not a limit anyone meets (tests/test_limits_one_place.py)


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


# ------------------------------------------------------------------ a long procedure's parts

def parts(pcs: list, sizes: dict, jumps: list, entries: set, budget: int, overhead: int) -> list:
    """The blocks ``pcs`` (those written, in order) in groups, each the blocks of one function of
    at most ``budget`` lines: ``sizes`` is each block's lines, ``overhead`` what a function adds.
    A jump between two groups costs a call, so groups are merged, two at a time, where the most
    jumps (``jumps``: (from, to) pairs) go between them, a jump in a loop (one whose target leads
    back to it) weighing more; then the rest into the fullest groups. A block longer than the
    budget is a group of its own. The groups, each in order: first the one a run most often
    starts in (``entries``: where a call or a resume starts; every call starts at the first
    block, and a resume in a loop comes as often), the procedure's own function, then the others
    by their first block."""
    after: dict = {}
    for a, b in jumps:
        after.setdefault(a, set()).add(b)
    looping = {pc for pc in pcs if pc in _reached(pc, after)}
    weight: dict = {}
    for a, b in jumps:
        if a != b and a in sizes and b in sizes:
            key = (min(a, b), max(a, b))
            weight[key] = weight.get(key, 0) + (11 if a in _reached(b, after) else 1)
    groups = {pc: [pc] for pc in pcs}      # by the group's first block
    while True:
        best = None
        keys = sorted(groups)
        for i, x in enumerate(keys):
            for y in keys[i + 1:]:
                merged = sorted(groups[x] + groups[y])
                lines = overhead + sum(sizes[pc] for pc in merged) + _tests(len(merged))
                if lines > budget:
                    continue
                score = (sum(weight.get((min(a, b), max(a, b)), 0) for a in groups[x] for b in groups[y]), lines)
                if best is None or score > best[0]:
                    best = (score, x, y, merged)
        if best is None:
            break
        _score, x, y, merged = best
        del groups[y]
        groups[x] = merged
    out = [groups[key] for key in sorted(groups)]
    first = max(out, key=lambda group: (sum(10 if pc == pcs[0] else 11 if pc in looping else 1
                                             for pc in group if pc in entries), group[0] == pcs[0]))
    return [first] + [group for group in out if group is not first]


def runs_of(pcs: list) -> list:
    """Blocks ``pcs`` (in order) said short: each run of three or more as (first, last), each
    other block as (pc, pc)."""
    out, run = [], [pcs[0]]
    for pc in pcs[1:] + [None]:
        if pc is not None and pc == run[-1] + 1:
            run.append(pc)
            continue
        out.extend([(run[0], run[-1])] if len(run) > 2 else [(pc, pc) for pc in run])
        run = [pc]
    return out


def _reached(start: int, after: dict) -> set:
    """The blocks jumps lead to from ``start`` (``after``: block -> the blocks it jumps to)."""
    seen: set = set()
    todo = [start]
    while todo:
        for nxt in after.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _tests(count: int) -> int:
    """The ``if pc < N:`` lines of a dispatch over ``count`` blocks (``codegen._emit_range``)."""
    return 0 if count <= LEAF_BLOCKS else 1 + _tests(count // 2) + _tests(count - count // 2)


LEAF_BLOCKS = 4        # blocks tested one by one (a range test pays beyond a few)


def ending(lines: list):
    """The one line of a block that only leaves (``return ...``, not to another block), or None."""
    code = [(ind, text) for ind, text, _span in lines if not isinstance(text, Comment)]
    if len(code) == 1 and code[0][0] == 3 and isinstance(code[0][1], Exit) and code[0][1] is not CONTINUE \
            and code[0][1] is not RETURN_PC:
        return code[0][1]
    return None


def part_lines(lines: list, inside: set, first: bool, ends: dict) -> list:
    """A block's lines in a part of a long procedure, whose blocks are ``inside``: a jump to a
    block of another part returns that block (the procedure's loop runs the part holding it), or,
    in the ``first`` part (the procedure's own function, whose blocks come first), goes past the
    tests of its later blocks to that loop, where it leaves the block. A jump to one of ``ends``
    (a block that only leaves: pc -> its line, :func:`ending`) is that line, wherever it is."""
    out: list = []
    last = len(lines) - 1
    for k, (ind, text, span) in enumerate(lines):
        if text is CONTINUE and out and out[-1][0] == ind and _leaves(out[-1][1], inside):
            if out[-1][1].target in ends:
                out[-1] = (ind, ends[out[-1][1].target], out[-1][2])
                continue
            if not first:
                out[-1] = (ind, _returns(out[-1][1]), out[-1][2])
                continue
            if ind == 3 and k == last:
                continue        # (a later part's block: no test of this part's matches it)
        out.append((ind, text, span))
    if out and out[-1][0] == 3 and _leaves(out[-1][1], inside) and (not first or out[-1][1].target in ends):
        target = out[-1][1].target      # (it fell through to the next part)
        out[-1] = (3, ends[target] if target in ends else _returns(out[-1][1]), out[-1][2])
    return out


def _leaves(text, inside: set) -> bool:
    """Whether line ``text`` is a jump to a known block not ``inside``."""
    return isinstance(text, Jump) and not text.frame and text.target.__class__ is int and text.target not in inside


# ------------------------------------------------------------------ a straight function's parts

def statements(lines: list, base: int) -> list:
    """A function body's lines (its statements at indent ``base``) as its top-level statements,
    each a list of lines: a line at ``base`` starts one (an ``elif``, an ``else`` goes on with
    the one before; a comment starts the next)."""
    out: list = []
    waiting: list = []      # comments before a statement
    for line in lines:
        ind, text = line[0], line[1]
        if isinstance(text, Comment):
            waiting.append(line)
        elif ind <= base and getattr(text, "lead", None) not in ("elif", "else") or not out:
            out.append(waiting + [line])
            waiting = []
        else:
            out[-1].extend(waiting + [line])
            waiting = []
    if waiting:
        out.append(waiting)
    return out


class Reads:
    """What a run of a function's lines reads of what ran before it: ``inputs``, the names it
    may read before binding them itself (in order); ``caches``, the names among ``shared``
    caches (``x or (x := ...)``, each worked out again where it is None) it uses; ``stores``,
    every name it binds, and ``certain``, those it binds for certain (by an assignment at its
    lines' outer indent); whether it ``leaves`` (returns, or goes to another block: it cannot
    run as a function of its own). ``known`` is False where a line has no tree."""

    def __init__(self, lines: list, shared: frozenset = frozenset()):
        self.inputs: dict = {}
        self.caches: set = set()
        self.stores: dict = {}          # (in the order they are bound)
        self.certain: dict = {}
        outer = min((ind for ind, _text, _span in lines), default=0)
        self.leaves = False
        self.known = True
        scopes: list = []       # (indent, the names bound for the lines after at that indent or deeper)
        for ind, text, _span in lines:
            while scopes and scopes[-1][0] > ind:
                scopes.pop()
            if isinstance(text, (Jump, Exit)):
                self.leaves = True
            node = getattr(text, "node", None)
            if node is None:
                if not (isinstance(text, Comment) or getattr(text, "lead", None) == "else" or not text):
                    self.known = False
                continue
            names = _Names(node)
            self.leaves = self.leaves or names.returns or "pc" in names.loads
            self.caches |= names.cached & shared
            covered = set(names.inline)
            for _ind, more in scopes:
                covered |= more
            for name in names.loads + [n for n in names.cached if n not in shared]:
                if name not in covered:
                    self.inputs.setdefault(name, None)
            if names.assigned:
                if ind == outer:
                    self.certain.update(dict.fromkeys(sorted(names.assigned)))
                if scopes and scopes[-1][0] == ind:
                    scopes[-1][1].update(names.assigned)
                else:
                    scopes.append((ind, set(names.assigned)))
            if names.target:
                scopes.append((ind + 1, set(names.target)))
            self.stores.update(dict.fromkeys(sorted(names.stores)))


def caches(lines: list) -> frozenset:
    """The names ``lines`` use as caches alone: every read of one is ``x or (x := ...)``."""
    cached, loaded = set(), set()
    for _ind, text, _span in lines:
        node = getattr(text, "node", None)
        if node is not None:
            names = _Names(node)
            cached |= names.cached
            loaded.update(names.loads)
    return frozenset(cached - loaded)


class _Names:
    """The names one line's tree reads and binds: ``loads`` (in order), ``stores``, ``assigned``
    (an assignment's targets), ``inline`` (bound within the line itself: ``:=``, a
    comprehension's or a lambda's variables, an inline loop's), ``target`` (what a ``for`` binds
    for the lines in it), ``cached`` (read as ``x or (x := ...)``), and whether it returns."""

    def __init__(self, node):
        self.loads: list = []
        self.stores: set = set()
        self.assigned: set = set()
        self.inline: set = set()
        self.target: set = set()
        self.cached: set = set()
        self.returns = False
        self._visit(node)

    def _visit(self, node) -> None:
        cls = node.__class__
        if cls is ast.Name:
            self.loads.append(node.id)
        elif cls is ast.For:
            names = self._bound(node.target)
            self.stores |= names
            self.target |= names
            self.inline |= names
            self._visit(node.iter)
            for part in node.body + node.orelse:
                self._visit(part)
        elif cls is ast.Assign or cls is ast.AugAssign:
            if cls is ast.AugAssign:
                self._visit(node.target)        # (read, then bound)
            for target in node.targets if cls is ast.Assign else [node.target]:
                self.assigned |= self._bound(target) if cls is ast.Assign or target.__class__ is ast.Name else set()
            self.stores |= self.assigned
            self._visit(node.value)
        elif cls is ast.NamedExpr:
            self.stores.add(node.target.id)
            self.inline.add(node.target.id)
            self._visit(node.value)
        elif cls is ast.BoolOp and node.op.__class__ is ast.Or and node.values[0].__class__ is ast.Name \
                and any(v.__class__ is ast.NamedExpr and v.target.id == node.values[0].id for v in node.values[1:]):
            self.cached.add(node.values[0].id)
            for value in node.values[1:]:
                self._visit(value)
        elif cls in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp):
            for gen in node.generators:
                names = self._bound(gen.target)
                self.stores |= names
                self.inline |= names
                self._visit(gen.iter)
                for test in gen.ifs:
                    self._visit(test)
            for part in (node.key, node.value) if cls is ast.DictComp else (node.elt,):
                self._visit(part)
        elif cls is ast.Lambda:
            self.inline.update(a.arg for a in node.args.args)
            self._visit(node.body)
        else:
            if cls is ast.Return:
                self.returns = True
            for child in ast.iter_child_nodes(node):
                self._visit(child)


    def _bound(self, target) -> set:
        """The names a ``for``'s (or a comprehension's) target binds; what it reads to bind the
        others (``e[k]``: ``e``, ``k``) is read."""
        if target.__class__ is ast.Name:
            return {target.id}
        if target.__class__ in (ast.Tuple, ast.List):
            return set().union(*(self._bound(item) for item in target.elts))
        if target.__class__ is ast.Starred:
            return self._bound(target.value)
        self._visit(target)
        return set()


def packed(sizes: list, budget: int, rest: int) -> list:
    """Where each part starts, for statements of ``sizes`` lines packed in order into parts of
    at most ``budget`` lines, each adding ``rest``."""
    starts, size = [0], rest
    for k, lines in enumerate(sizes):
        if size + lines > budget and size > rest:
            starts.append(k)
            size = rest
        size += lines
    return starts


def straight_parts(chunks: list, sizes: list, budget: int, fixed: int, tail: int, rest: int) -> list | None:
    """Where to cut a straight function's top-level statements ``chunks`` (the last, ``tail``
    of them, stay in the function: its return) into parts of at most ``budget`` lines: the index
    each part starts at (the function keeps those before the first, and calls each part on a
    line of its own). ``sizes`` is each statement's lines, ``fixed`` what the function adds
    besides, ``rest`` what each part adds. The statements of a part must not return (a statement
    that does stays in the function). None if nothing fits."""
    body = len(chunks) - tail
    returning = [k for k in range(body) if Reads(chunks[k]).leaves]
    least = returning[-1] + 1 if returning else 1
    kept = fixed + sum(sizes[body:])
    for count in range(1, body):
        room = budget - kept - count
        cut = least
        while cut < body and sum(sizes[:cut + 1]) <= room:
            cut += 1
        if sum(sizes[:cut]) > room or cut >= body:
            return None
        starts = [cut + k for k in packed(sizes[cut:body], budget, rest)]
        if len(starts) <= count:
            return starts
    return None
