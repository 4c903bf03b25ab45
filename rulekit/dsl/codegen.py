# SPDX-License-Identifier: MIT
"""Procedures -> Python source: one generated module per game.

A procedure that can never stop for a decision becomes a plain Python function:
its locals are Python variables, its loops Python loops, a call of it a Python call.
One that can stop (it has a ``choose``, or calls a procedure that can, or calls
itself) becomes a *resumable* function ``(state, frame) -> suspended?``: straight-line
Python split into numbered blocks only where it may stop, with its locals and program
counter in the :class:`~rulekit.engine.state.Frame`, so a game waiting for a decision
clones, saves and resumes like any other data (engine/vm.py runs the frames).

Errors still name the content: every generated line records the span of the content
statement it came from (``runtime.LINE_SPANS``, while the module lives), and the VM maps a failure's traceback
back to that span. Checks (names, arity, assignments) are made on the same walk by
:class:`~rulekit.dsl.compiler.Compiler`, so what is checked is what runs.
"""
from __future__ import annotations

import ast as pyast
import contextlib
import functools
import itertools
import os
import zlib

from ..codes import (
    BAD_ASSIGNMENT_TARGET,
    BREAK_OUTSIDE_LOOP,
    RESULT_NOT_IN_LOCAL,
    TOO_COMPLEX,
    UNKNOWN_FUNCTION,
    UNKNOWN_KEYWORD,
    VALUE_THROWN_AWAY,
    WRONG_ARGUMENT_COUNT,
)
from ..engine import arguments
from ..engine.library import REGISTRY
from ..engine.runtime import Code, LinesOwner, keep_lines
from ..errors import Diagnostic, DiagnosticReport, suggestion_help
from ..source import source_line
from . import (
    ast,
    blocks,
    code_cache,
    forms,
    ir,
    layout,
    loops,
    lowering,
    printer,
    subscripts,
    templates,
    transforms,
    verify,
)
from .analysis import called, in_circles
from .choices import Choices
from .compiler import Compiler, located_code, too_complex
from .ir import stmt
from .pysource import CONTINUE, NONE, RETURN_PC, RETURN_TRUE, SLOT, Comment, Exit, Jump, literal, py_identifier
from .scope import Scope
from .visit import assigned_names, loop_depth, methods

_SPLIT_BLOCKS = 24      # a resumable procedure of at least this many blocks is a function per block (performance.md)
# how a function's lines are counted, for blocks.FUNCTION_LINES: as the listing lays them out, at its
# width, whatever width or printer lines are laid out with (where a function is cut does not move
# with them: tests lay lines out otherwise and compare what the code means)
_COUNTED_WIDTH = layout.WIDTH
_COUNTED_BY = {False: printer.lines, True: layout.lay_out}     # (is it a comment?)


def _unreached_block(procedure: str, pc: int, *_args):
    """A split procedure's block :func:`blocks.without_unreachable` left out, reached after all."""
    blocks.unreached(procedure, pc)


_TRANSFORMED: dict = {}     # (a line's text, its lead, the passes off) -> None (unchanged) or (text, tree)


class _Prefixed:
    """Whether a procedure's Python name would clash: its ``call_``, ``run_`` or ``PROC_`` name
    is one the namespace has."""

    def __init__(self, ns: dict):
        self.ns = ns

    def __contains__(self, name: str) -> bool:
        return any(f"{prefix}{name}" in self.ns for prefix in ("call_", "run_", "PROC_"))


class Module:
    """The source of one game's generated module, built procedure by procedure."""

    def __init__(self, comp: Compiler, title: str):
        self.comp = comp
        # what its line table lives as long as (runtime.keep_lines); its number names the module
        # apart from every other whose table lives (no count kept across the process)
        self.owner = LinesOwner()
        self.filename = f"<rulekit {literal(title)} #{id(self.owner)}>"
        self.lines: list[str] = []
        self.spans: list = []
        self.codes: dict[str, Code] = {}      # procedure name -> Code
        self.flat: set = set()
        self.written: list[Code] = []
        self._home = None           # the content file of the function being written (_note)
        self._noted = None          # the content line its last note named
        self.counted = 0            # the lines written so far, laid out at _COUNTED_WIDTH
        # (name, function names by pc, procedure) of each table of a split procedure's blocks or
        # parts (_emit_split, _emit_parts)
        self.tables: list = []
        self._readers_made: frozenset | None = None     # (_readers)

    # ------------------------------------------------------------ lines
    def add(self, indent: int, text: str, span=None) -> None:
        """One logical line, through the passes from IR to IR (dsl/transforms.py); a statement's
        first names its content line, and a long one is laid out on several (dsl/printer.py), each
        mapped to the statement's span for tracebacks."""
        text = self._transformed(text)
        note = self._note(indent, text, span)
        comment = isinstance(text, Comment)
        lay_out = layout.lay_out if comment else printer.lines
        lines = lay_out("    " * indent, text, note)
        self.lines.extend(lines)
        self.spans.extend([span] * len(lines))
        counted_by = _COUNTED_BY[comment]
        self.counted += len(lines) if lay_out is counted_by and layout.WIDTH == _COUNTED_WIDTH else \
            len(counted_by("    " * indent, text, note, _COUNTED_WIDTH))

    def _transformed(self, line):
        """``line`` through dsl/transforms.py's passes: a new line where its tree changed."""
        node = getattr(line, "node", None)
        if node is None or line.lead in ("def", "else", "inline"):
            return line
        readers = self._readers()
        key = (str(line), line.lead, self.comp.passes.off, readers)     # (the same text is the same tree)
        found = _TRANSFORMED.get(key, _TRANSFORMED)
        if found is _TRANSFORMED:
            if len(_TRANSFORMED) > 8192:
                _TRANSFORMED.clear()
            new = transforms.transformed(node, self.comp.passes, readers)
            found = _TRANSFORMED[key] = None if new is node else (printer.one_line(new, line.lead), new)
        if found is None:
            return line
        made = ir.Line(found[0], found[1], line.lead, line.note)
        return Exit(made, found[1]) if isinstance(line, Exit) else made

    def _readers(self) -> frozenset:
        """The functions the module names that change nothing, which a transform may call once
        where a line calls them twice: the callers of the content's functions (made as they are
        first called, so the set is made again when it grew)."""
        callers = self.comp.names.callers
        if self._readers_made is None or len(self._readers_made) != len(callers):
            self._readers_made = frozenset(callers.values())
        return self._readers_made

    def _note(self, indent: int, text: str, span) -> str:
        """``# line 12`` where a new content line starts (``# 'parts/x.yaml' line 3`` for a line of
        another file than its function's, the name a literal); nothing on a function's own line."""
        if span is None or isinstance(text, Comment) or not span.line:
            return ""
        where = (span.path, span.line)
        if indent == 0:
            self._home, self._noted = span.path, where
            return ""
        if where == self._noted:
            return ""
        self._noted = where
        if span.path == self._home:
            return f"# line {int(span.line)}"
        home = os.path.dirname(str(self._home)) if self._home else ""
        return f"# {literal(os.path.relpath(str(span.path), home) if home else str(span.path))} line {int(span.line)}"

    def extend(self, lines: list) -> None:
        for indent, text, span in lines:
            self.add(indent, text, span)

    def mark(self) -> tuple:
        """Where the source is now, to measure what is written after (:meth:`since`) or take it
        back (:meth:`back_to`)."""
        return len(self.lines), self._home, self._noted, self.counted

    def since(self, mark: tuple) -> int:
        """The lines written since ``mark`` (as a listing lays them out: ``_COUNTED_WIDTH``)."""
        return self.counted - mark[3]

    def back_to(self, mark: tuple) -> None:
        """Take back what was written since ``mark``."""
        count, self._home, self._noted, self.counted = mark
        del self.lines[count:]
        del self.spans[count:]

    def measured(self, lines: list, home) -> int:
        """How many lines ``lines`` are written as in a function whose own content is at ``home``
        (a span: the notes of its lines name the content lines of its file alone), written,
        counted and taken back."""
        mark = self.mark()
        self._home, self._noted = (home.path, None) if home is not None else (None, None)
        self.extend(lines)
        count = self.since(mark)
        self.back_to(mark)
        return count

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"

    def write_functions(self) -> None:
        """The game's functions (compiled by the Compiler), first in the module."""
        for name, pyname, params, body, span, reused in self.comp.out.function_defs:
            self.add(0, ir.heading(pyname, params, f"# {_named(name, span)}"))
            if reused:
                self.add(1, ir.assigned(reused, ir.name("UNSET")))
            for indent, text in body:
                self.add(1 + indent, text)
            self.add(0, "")

    def load(self) -> dict:
        """Run the module's source in the compiler's namespace; returns that namespace."""
        text = self.source()
        # the table lives as long as the namespace the module's code runs in (a script's position
        # is a module of its own, which nothing holds once its code is made)
        self.comp.ns[f"lines of {self.filename}"] = self.owner
        keep_lines(self.filename, text, self.spans, self.owner)
        try:
            check = subscripts.checking(lambda source: verify.check(source, self.comp.ns), self.comp.ns)
            code = code_cache.compiled(text, self.filename, check=check)
        except (SyntaxError, RecursionError, MemoryError) as exc:
            if not too_complex(exc):
                raise               # a bug of the code generator, not the author's mistake
            line = getattr(exc, "lineno", None) or 0
            span = next((s for s in reversed(self.spans[:line]) if s is not None), None)
            raise DiagnosticReport([Diagnostic(TOO_COMPLEX, "procedure too complex to compile (nested too deeply)",
                                               span, help="split it into smaller procedures")]) from None
        subscripts.keep(self.filename, text, self.comp.ns)     # what an index past the end read (engine/vm.py)
        exec(code, self.comp.ns)  # noqa: S102 - our own source, checked (dsl/verify.py)
        ns = self.comp.ns
        for table, names, procedure in self.tables:
            ns[table][:] = [ns[name] if name is not None else functools.partial(_unreached_block, procedure, pc)
                            for pc, name in enumerate(names)]
        for code in self.written:
            code.run = ns.get(f"run_{code.pyname}")
            code.direct = ns.get(f"call_{code.pyname}")
        for name, pyname, _params, _body, span, _reused in self.comp.out.function_defs:
            self.comp.out.functions_impl[name] = located_code(ns[pyname], span, pyname)
        return ns

    # ------------------------------------------------------------ planning
    def declare(self, key: str, params: tuple, span, title: str | None = None) -> Code:
        """A procedure to be written: ``key`` is how calls name it (content procedures by their
        own name; the flow's parts by keys content cannot write, `$setup`, `phase:deal`)."""
        title = title or key
        pyname = self.comp.names.fresh(py_identifier(title), _Prefixed(self.comp.ns))
        code = self.codes[key] = Code(title, params, span, pyname)
        return code

    def plan(self, bodies: dict) -> None:
        """Which procedures may stop for a decision: a `choose`, a call of one that may, or
        a call cycle (recursion keeps frames, so its depth stays bounded and reported)."""
        calls = {name: called(body, self.comp.v.procedures) for name, body in bodies.items()}
        stops = {name for name, body in bodies.items() if any(isinstance(n, ast.Choose) for n in ast.walk(body))}
        stops |= in_circles(calls)
        # Python allows 20 loops nested in one function: deeper content is written with
        # every loop as blocks of a resumable function (no Python nesting), as the VM ran it
        self.flat = {name for name, body in bodies.items() if loop_depth(body) > FLAT_DEPTH}
        stops |= self.flat
        changed = True
        while changed:
            changed = False
            for name, callees in calls.items():
                if name not in stops and callees & stops:
                    stops.add(name)
                    changed = True
        for name, code in self.codes.items():
            code.stops = name in stops

    def write(self, key: str, params: tuple, body: tuple, span, name: str | None = None) -> None:
        """Write procedure ``key`` (declared and planned before); ``name`` is how warnings
        name it."""
        code = self.codes[key]
        self.written.append(code)
        name = name or key
        comp = self.comp
        if comp.front_end is not None:
            comp.front_end(body, params, body_of=(name, span))
        comp.names.new_function()
        assigned = assigned_names(body) - comp.v.gvars
        if code.stops:
            scope = Scope(set(params) | assigned)
            scope.kinds = comp.kinds.of_locals(body, assigned - set(params), scope)
            writer = _Writer(self, code, scope, resumable=True, flat=key in self.flat)
            writer.resumable_function(body)
        else:
            names = {p: _pylocal(p) for p in sorted(set(params) | assigned)}
            scope = Scope(set()).bind_py(names)
            scope.kinds = comp.kinds.of_locals(body, assigned - set(params), scope, lambda name: ("py", names[name]))
            writer = _Writer(self, code, scope, resumable=False)
            writer.direct_function(body, [names[p] for p in params])
        self.add(0, "")

    def write_main(self, code: Code, setup: Code, phases: list, rounds, until, finish: Code) -> int:
        """The game's flow: setup, a script's starting position, rounds of phases (each with its
        `when`), the end checks, finish and scoring. Returns the pc of the finish (where
        `end_game()` goes)."""
        comp = self.comp
        self.written.append(code)
        w = _Writer(self, code, Scope(set()), resumable=True)
        w.start(w.reserve())
        w.call_code(setup)
        w.cur.append((3, stmt("position = e.pop('$position', None)"), None))
        w.cur.append((3, stmt("if position is not None:"), None))
        head = w.reserve()          # each round starts here (after the position, if any)
        w.cur.append((4, Jump(head, frame=True), None))
        w.cur.append((4, stmt("if CALL(s, position, {}, None):"), None))
        w.cur.append((5, RETURN_TRUE, None))
        w.goto(head)
        w.start(head)
        w.cur.append((3, stmt("$0(s, None, s.g['round'] + 1)", comp.setter('round', False)), None))
        for cond_node, phase in phases:
            w.call_code(phase, cond_node)
        fin = w.reserve()
        if rounds is not None:
            w.cur.append((3, stmt("if s.g['round'] >= $0:", literal(int(rounds))), None))
            w.goto(fin, 4)
        if until is not None:
            fn, span = until
            w.cur.append((3, stmt("if $0(s, e):", comp.constant(fn, 'UNTIL')), span))
            w.goto(fin, 4)
        w.goto(head)
        w.start(fin)
        w.call_code(finish)
        w.cur.append((3, stmt("s.result = SCORE(s)"), None))
        w.cur.append((3, stmt("s.over = True"), None))
        w.cur.append((3, stmt("s.frames.clear()"), None))
        w.cur.append((3, RETURN_TRUE, None))
        w.emit_blocks()
        self.add(0, "")
        return fin


class _Writer(Choices):
    """Writes one procedure. Structured statements go out as Python statements; in a
    resumable procedure, a statement that may stop splits the code into blocks."""

    def __init__(self, module: Module, code: Code, scope: Scope, resumable: bool, flat: bool = False):
        self.m = module
        self.comp = module.comp
        self.code = code
        self.scope = scope
        self.resumable = resumable
        self.blocks: list[list] = []     # resumable: lines of each block, by pc
        self.cur_pc = -1                 # the block being written
        self.loops: list = []            # ("py",) or ("blk", head pc, end pc)
        self.flat = flat                 # every loop as blocks (content nested deeper than Python allows)
        self.helpers: list = []          # resumable: (name, lines, span) of functions written before it
        self.entries: set = {0}          # resumable: the blocks a run starts at (0, a decided option's)
        self._slots = itertools.count()

    # ------------------------------------------------------------ frames of code
    def direct_function(self, body, pyparams) -> None:
        lines: list = []
        self.stmts(body, 1, lines)
        if all(isinstance(text, Comment) for _i, text, _s in lines):
            lines.append((1, ir.PASS, None))
        comment = Comment(f"# {_named(self.code.name, self.code.span)}")
        self._straight(f"call_{self.code.pyname}", ("s", *pyparams), comment, lines, self.code.span)

    def _straight(self, name: str, params: tuple, comment: Comment, lines: list, span) -> None:
        """A function that runs straight through (its ``lines`` at indent 1): one function, or,
        where that would read longer than ``blocks.FUNCTION_LINES``, cut into parts at its top-level
        statements (:meth:`_straight_parts`)."""
        m = self.m
        mark = m.mark()
        m.add(0, ir.heading(name, params), span)
        m.add(1, comment)
        m.extend(lines)
        if m.since(mark) <= blocks.FUNCTION_LINES:
            return
        m.back_to(mark)
        if not self._straight_parts(name, params, comment, lines, span):
            m.add(0, ir.heading(name, params), span)
            m.add(1, comment)
            m.extend(lines)

    def _straight_parts(self, name: str, params: tuple, comment: Comment, lines: list, span) -> bool:
        """The function ``name`` as its first statements, then a call of each part (a run of the
        statements after them, :meth:`_cut_out`), then its return. False (nothing written) where
        the statements cannot be cut so."""
        m = self.m
        chunks = blocks.statements(lines, 1)
        last = chunks[-1] if chunks else []
        tail = 1 if len(last) == 1 and last[0][0] == 1 and getattr(last[0][1], "node", None).__class__ is pyast.Return \
            else 0
        body = len(chunks) - tail
        sizes = [m.measured(chunk, span) for chunk in chunks]
        shared = blocks.caches(lines)
        made: dict = {}
        budget = blocks.FUNCTION_LINES
        while budget > 10:
            starts = blocks.straight_parts(chunks, sizes, budget, 2, tail, 1)
            if starts is None:
                return False
            first = [line for chunk in chunks[:starts[0]] for line in chunk]
            reads = blocks.Reads(first)
            cut = self._cut_out(name, chunks, starts, body, ([*params, *reads.certain], reads.stores), shared, 1,
                                span, made)
            if cut is None:
                return False
            calls, parts = cut
            mark = m.mark()
            m.add(0, ir.heading(name, params), span)
            m.add(1, comment)
            m.extend(first + calls + [line for chunk in chunks[body:] for line in chunk])
            longest = max([m.since(mark), *self._write_cut(parts, span)])
            if longest <= blocks.FUNCTION_LINES:
                return True
            m.back_to(mark)
            budget -= longest - blocks.FUNCTION_LINES
        return False

    def _cut_out(self, name: str, chunks: list, starts: list, stop: int, before: tuple, shared, base: int, span,
                 made: dict):
        """Top-level statements ``chunks`` (at indent ``base``) from ``starts[0]`` to ``stop`` as
        parts, one from each of ``starts``: each a function of its own, named by the content
        lines it holds, given the names bound before them it reads (``before``: those bound for
        certain, in order, and all those that may be); a cache it reads (``x or (x := ...)``, one
        of ``shared``) is its own, from None. Returns the lines calling them (at ``base``) and the
        parts (name, parameters, lines at indent 1), or None where the statements cannot be cut
        so: a part would leave (return, or go to another block), read a name that may not be
        bound, or bind a name read after it."""
        before, maybe = before
        bounds = [*starts, stop]
        stored: set = set()     # what the parts bind
        calls, parts = [], []
        for k, (start, end) in enumerate(zip(bounds, bounds[1:])):
            part = [(ind - base + 1, text, line_span) for chunk in chunks[start:end] for ind, text, line_span in chunk]
            reads = blocks.Reads(part, shared)
            if not reads.known or reads.leaves or any(n in stored or (n in maybe and n not in before)
                                                      for n in reads.inputs):
                return None
            args = [n for n in before if n in reads.inputs]
            lined = [s.line for _i, _t, s in part if s is not None and s.line]
            stem = f"{name}_lines_{lined[0]}_{lined[-1]}" if lined else f"{name}_part_{k + 1}"
            if stem not in made:
                made[stem] = self.comp.names.fresh(stem, self.comp.ns)
            calls.append((base, stmt("$0($*)", ir.name(made[stem]), [ir.name(a) for a in args]), part[0][2]))
            inits = [(1, stmt("$0 = None", ir.name(c)), None) for c in sorted(reads.caches)]
            parts.append((made[stem], args, inits + part))
            stored.update(n for n in reads.stores if n not in shared)
        later = [line for chunk in chunks[stop:] for line in chunk]
        if any(n in stored for n in blocks.Reads(later, shared).inputs):
            return None
        return calls, parts

    def _write_cut(self, parts: list, span) -> list:
        """Write the parts :meth:`_cut_out` made, each after a blank line; the lines of each."""
        m = self.m
        note = f"# {_named(self.code.name, span)}"
        lengths = []
        for part_name, args, lines in parts:
            m.add(0, "")
            mark = m.mark()
            m.add(0, ir.heading(part_name, args, note), span)
            m.extend(lines)
            lengths.append(m.since(mark))
        return lengths

    def resumable_function(self, body) -> None:
        self.start(self.reserve())
        self.seq(body)
        if not (self.cur and self.cur[-1][0] == 3 and isinstance(self.cur[-1][1], Exit)):
            self.cur.extend(blocks.returned(None, 3, None))     # (unless its last block has returned already)
        self.emit_blocks()

    def emit_blocks(self) -> None:
        m = self.m
        for name, body, span in self.helpers:
            self._straight(name, ("s", "e"), Comment(f"# {_named(self.code.name, span)}: the options of a choose"),
                           body, span)
            m.add(0, "")
        written = blocks.threaded(self.blocks) if self.comp.passes.on("threading") else self.blocks
        if self.comp.passes.on("unreachable"):
            written = blocks.without_unreachable(written, self.entries)
        if len(written) >= _SPLIT_BLOCKS:
            self._emit_split(written)
            return
        mark = m.mark()
        self._emit_whole(written)
        if m.since(mark) <= blocks.FUNCTION_LINES:
            return
        m.back_to(mark)
        made: dict = {}
        shorter = self._shorter_blocks(written, made)
        if any(a is not b for a, b in zip(shorter, written)):      # (a block's lines went to functions)
            mark = m.mark()
            self._emit_whole(shorter)
            if m.since(mark) <= blocks.FUNCTION_LINES:
                return
            m.back_to(mark)
        self._emit_parts(shorter, made)

    def _emit_whole(self, written: list) -> None:
        """The procedure as one function: a loop over its blocks."""
        m = self.m
        m.add(0, ir.heading(f"run_{self.code.pyname}", ("s", "f")), self.code.span)
        m.add(1, Comment(f"# {_named(self.code.name, self.code.span)}: resumable, blocks 0-{len(self.blocks) - 1}"))
        m.add(1, stmt("e = f.env"))
        m.add(1, stmt("pc = f.pc"))
        m.add(1, stmt("while True:"))
        self._emit_range(written, [pc for pc, lines in enumerate(written) if lines is not None], 0)
        if None in written:     # a block left out, reached after all: a fault of the pass, not a silent loop
            fault = self.comp.constant(blocks.unreached, "UNREACHED")
            self.m.add(2, stmt("$0($1, pc)", fault, self.comp.constant(self.code.name)))

    def _emit_parts(self, written: list, made: dict) -> None:
        """A procedure too long for one function (``blocks.FUNCTION_LINES``) as a few: its blocks in
        groups (``blocks.parts``: those that jump to each other together, a loop above all), the
        group where runs start most in the procedure's own function, each other a *part*, a function ``(s,
        f, e, pc)`` looping over its blocks as the procedure's does, that returns the block to go
        on at where that is another part's, or what the procedure returns (not a whole number: it
        stopped, or it ended). The procedure's function runs the part holding a block from a
        table by pc, filled when the module is loaded (:meth:`Module.load`), and goes on where
        the part says. A part is named by its blocks (``NAME_blocks_5_8to10``)."""
        m = self.m
        live = [pc for pc, lines in enumerate(written) if lines is not None]
        sizes = {pc: 1 + m.measured([(ind + 1, text, span) for ind, text, span in written[pc]], self.code.span)
                 for pc in live}
        ends = {pc: line for pc in live if (line := blocks.ending(written[pc])) is not None}
        jumps = [(pc, text.target) for pc in live for _i, text, _s in written[pc]
                 if isinstance(text, Jump) and not text.frame and text.target.__class__ is int
                 and text.target not in ends]
        # a choose goes on at the block of the option decided: those after it, up to the next choose
        chooses = [pc for pc in live if any(isinstance(t, Jump) and t.target == "f.pc" for _i, t, _s in written[pc])]
        for entry in self.entries:
            choose = max((pc for pc in chooses if pc < entry), default=None)
            if choose is not None and entry in sizes and entry not in ends:
                jumps.append((choose, entry))
        # where a run starts: a call (block 0), a decision's option, a resume after a call that stopped
        starts = self.entries | {text.target for pc in live for _i, text, _s in written[pc]
                                 if isinstance(text, Jump) and text.frame and text.target.__class__ is int}
        table = self.comp.constant([], "PARTS")
        budget = blocks.FUNCTION_LINES
        while True:
            runs = blocks.parts(live, sizes, jumps, starts, budget, 8)
            mark = m.mark()
            lengths = self._write_parts(written, runs, table, made, ends)
            longest = max(lengths.values())
            if longest <= blocks.FUNCTION_LINES or budget <= 12:
                break
            m.back_to(mark)
            budget -= longest - blocks.FUNCTION_LINES
        by_pc: list = [None] * len(written)
        for run, name in zip(runs[1:], [name for name in lengths if name is not None]):
            for pc in run:
                by_pc[pc] = name
        m.tables.append((table, by_pc, self.code.name))

    def _shorter_blocks(self, written: list, made: dict) -> list:
        """The blocks, each too long for a function of its own with its straight lines apart
        (:meth:`_block_cut`)."""
        out = [*written]
        for pc, lines in enumerate(written):
            if lines is not None and self.m.measured([(ind + 1, text, span) for ind, text, span in lines],
                                                     self.code.span) > blocks.FUNCTION_LINES - 5:
                out[pc] = self._block_cut(lines, made)
        return out

    def _block_cut(self, lines: list, made: dict) -> list:
        """A block too long for a function of its own: the top-level statements it starts with
        that run straight through (no jump, no return) as functions of its own (:meth:`_cut_out`),
        written here, the block calling them; as it is where they cannot be cut out."""
        m = self.m
        chunks = blocks.statements(lines, 3)
        stop = next((k for k, chunk in enumerate(chunks) if blocks.Reads(chunk).leaves), len(chunks))
        sizes = [m.measured([(ind - 2, text, span) for ind, text, span in chunk], self.code.span)
                 for chunk in chunks[:stop]]
        if not stop:
            return lines
        budget = blocks.FUNCTION_LINES
        while budget > 10:
            starts = blocks.packed(sizes, budget, 1)
            cut = self._cut_out(self.code.pyname, chunks, starts, stop, (["s", "f", "e"], ()), frozenset(), 3,
                                self.code.span, made)
            if cut is None:
                return lines
            mark = m.mark()
            longest = max(self._write_cut(cut[1], self.code.span))
            if longest <= blocks.FUNCTION_LINES:
                m.add(0, "")
                return cut[0] + [line for chunk in chunks[stop:] for line in chunk]
            m.back_to(mark)
            budget -= longest - blocks.FUNCTION_LINES
        return lines

    def _write_parts(self, written: list, runs: list, table: str, made: dict, ends: dict) -> dict:
        """Write the procedure's function (the first group of blocks) and its parts (the
        others); returns each part's name (the procedure's function's, None) and the lines it
        took."""
        m = self.m
        code = self.code
        mark = m.mark()
        m.add(0, ir.heading(f"run_{code.pyname}", ("s", "f")), code.span)
        m.add(1, Comment(f"# {_named(code.name, code.span)}: resumable, blocks 0-{len(written) - 1} (here and in "
                         "its parts below)"))
        m.add(1, stmt("e = f.env"))
        m.add(1, stmt("pc = f.pc"))
        m.add(1, stmt("while True:"))
        inside = set(runs[0])
        self._emit_range({pc: blocks.part_lines(written[pc], inside, True, ends) for pc in runs[0]}, runs[0], 0)
        m.add(2, stmt("pc = $0[pc](s, f, e, pc)", table))
        m.add(2, stmt("if pc.__class__ is not INT:"))
        m.add(3, RETURN_PC)
        lengths = {None: m.since(mark)}
        for run in runs[1:]:
            held = "_".join(f"{a}to{b}" if a != b else str(a) for a, b in blocks.runs_of(run))
            stem = f"{code.pyname}_blocks_{held}"      # (not `_block_`: a function per block's, _emit_split)
            if stem not in made:
                made[stem] = self.comp.names.fresh(stem, self.comp.ns)
            m.add(0, "")
            mark = m.mark()
            m.add(0, ir.heading(made[stem], ("s", "f", "e", "pc"), f"# {_named(code.name, code.span)}"), code.span)
            m.add(1, stmt("while True:"))
            inside = set(run)
            self._emit_range({pc: blocks.part_lines(written[pc], inside, False, ends) for pc in run}, run, 0)
            m.add(2, RETURN_PC)
            lengths[made[stem]] = m.since(mark)
        return lengths

    def _emit_split(self, written: list) -> None:
        """A long procedure as one function per block, each returning the block to run next (or,
        not a whole number, what the procedure returns: it stopped, or it ended), and a loop that
        runs them from a table: the procedure reads as its steps, each a few lines, instead of one
        function of hundreds under nested ``if pc < N`` tests. The table is filled with the
        functions when the module is loaded (:meth:`Module.load`)."""
        m = self.m
        pyname = self.code.pyname
        written = self._shorter_blocks(written, {})
        names = [f"{pyname}_block_{pc}" if lines is not None else None for pc, lines in enumerate(written)]
        table = self.comp.constant([], "BLOCKS")
        m.tables.append((table, names, self.code.name))
        for pc, lines in enumerate(written):
            if lines is None:
                continue        # no run reaches it (blocks.without_unreachable)
            note = f"# {_named(self.code.name, self.code.span)}"
            m.add(0, ir.heading(names[pc], ("s", "f", "e"), note), self.code.span)
            m.extend(blocks.block_function(lines))
            m.add(0, "")
        m.add(0, ir.heading(f"run_{pyname}", ("s", "f")), self.code.span)
        m.add(1, Comment(f"# {_named(self.code.name, self.code.span)}: resumable, its blocks 0-{len(written) - 1} "
                         "are the functions above"))
        m.add(1, stmt("e = f.env"))
        m.add(1, stmt("pc = f.pc"))
        m.add(1, stmt("while True:"))
        m.add(2, stmt("pc = $0[pc](s, f, e)", table))
        m.add(2, stmt("if pc.__class__ is not INT:"))
        m.add(3, stmt("return pc"))

    def _emit_range(self, written: list, pcs: list, shift: int) -> None:
        """The blocks ``pcs`` (those written, in order), tested by halves (``if pc < mid:`` around
        the lower half, the upper half after it): a resume finds its block in a few tests, not one
        per block, and a block still falls through to any later one (every test comes in the
        blocks' order)."""
        if len(pcs) > blocks.LEAF_BLOCKS:
            half = len(pcs) // 2
            self.m.add(2 + shift, stmt("if pc < $0:", literal(pcs[half])))
            self._emit_range(written, pcs[:half], shift + 1)
            self._emit_range(written, pcs[half:], shift)
            return
        for pc in pcs:
            self.m.add(2 + shift, stmt("if pc == $0:", literal(pc)))
            lines = written[pc] or [(3, ir.PASS, None)]
            self.m.extend([(ind + shift, text, span) for ind, text, span in lines])

    def goto(self, pc: int, ind: int = 3) -> None:
        """Leave the current block for block ``pc`` (by falling through when it is next)."""
        if ind == 3 and self.cur and self.cur[-1][0] == 3 and isinstance(self.cur[-1][1], Exit):
            return      # the block has left already (a `break`, a `return`): nothing follows it
        self.cur.append((ind, Jump(pc), None))
        if not (ind == 3 and pc == self.cur_pc + 1):   # else it falls through to the next block
            self.cur.append((ind, CONTINUE, None))

    @property
    def cur(self) -> list:
        """The lines of the block being written."""
        return self.blocks[self.cur_pc]

    def start(self, pc: int) -> None:
        """Write into block ``pc`` (reserved earlier) from now on."""
        self.cur_pc = pc

    def reserve(self) -> int:
        """A new, empty block; its pc."""
        self.blocks.append([])
        return len(self.blocks) - 1

    def call_code(self, callee: Code, when=None) -> None:
        """Call a procedure with no arguments from a resumable block (the flow's parts), only
        if ``when`` (a condition node: a phase's `when`) holds."""
        cond = self.comp.src(when, self.scope) if when is not None else None
        if callee.stops:
            after = self.reserve()
            if cond is not None:
                self.cur.append((3, stmt("if not $0:", cond), when.span))
                self.cur.append((4, Jump(after), None))
                self.cur.append((4, CONTINUE, None))
            self._call(self._code_ref(callee), ir.code("{}"), NONE, after, callee.span)
        elif cond is not None:
            self.cur.append((3, stmt("if $0:", cond), when.span))
            self.cur.append((4, stmt("$0(s)", ir.name(f"call_{callee.pyname}")), callee.span))
        else:
            self.cur.append((3, stmt("$0(s)", ir.name(f"call_{callee.pyname}")), callee.span))

    # ------------------------------------------------------------ resumable sequences
    def seq(self, body) -> None:
        """Emit ``body`` into the current block, splitting where a statement may stop."""
        for st in body:
            self.comp.names.release("_t")       # a statement's values read twice are its own
            if not self.stops(st):
                self.stmt(st, 3, self.cur)
                continue
            shape = lowering.lowered(st)
            if shape is not None:
                (self.r_branches if shape.__class__ is lowering.Branches else self.r_loop)(shape)
            else:
                _BLOCKS[type(st)](self, st)

    def stops(self, st) -> bool:
        """Whether ``st`` is written as blocks: it may stop (or, in a flat procedure, loops)."""
        return self.resumable and (_may_stop(st, self.m.codes, self.comp.v.procedures)
                                   or (self.flat and loop_depth((st,)) > 0))

    def r_CallStmt(self, st):
        self._stop_call(st.call, None)

    def r_Assign(self, st):
        if not isinstance(st.target, ast.Name) or st.target.id not in self.scope.locals:
            self.comp.error(RESULT_NOT_IN_LOCAL, "a procedure's result can only be stored in a local name", st.span)
            return
        self._stop_call(st.value, self.scope.key(st.target.id))

    def _stop_call(self, call, ret):
        args = self._proc_args(call)
        if args is None:
            return
        callee = self.m.codes[call.func]
        after = self.reserve()
        env = ir.mapping([self.comp.constant(p) for p in callee.params], args)
        self._call(self._code_ref(callee), env, self.comp.constant(ret), after, call.span)

    def _call(self, code: str, env: str, ret: str, after: int, span) -> None:
        """Call a procedure that may stop: it runs at once (``CALL``); if it stopped, so does this
        one, to go on at block ``after`` when resumed; if it returned, this one goes on there now."""
        self.cur.append((3, Jump(after, frame=True), span))
        self.cur.append((3, stmt("if CALL(s, $0, $1, $2):", code, env, ret), span))
        self.cur.append((4, RETURN_TRUE, span))
        self.goto(after)
        self.start(after)

    def r_branches(self, shape: lowering.Branches) -> None:
        """Tests in the current block, each jumping to its body's block; every body goes on at
        the block after them all."""
        end = self.reserve()
        targets = []
        first = True
        for cond_node, _body in shape.tests:
            target = self.reserve()
            targets.append(target)
            self.cur.append((3, stmt("if $0:" if first else "elif $0:", self.comp.src(cond_node, self.scope)),
                             cond_node.span))
            first = False
            self.cur.append((4, Jump(target), None))
        orelse = self.reserve() if shape.orelse else end
        self.cur.append((3, ir.ELSE, None))
        self.cur.append((4, Jump(orelse), None))
        self.cur.append((3, CONTINUE, None))
        for target, (_c, body) in zip(targets, shape.tests):
            self.start(target)
            self.seq(body)
            self.goto(end)
        if shape.orelse:
            self.start(orelse)
            self.seq(shape.orelse)
            self.goto(end)
        self.start(end)

    def r_loop(self, shape: lowering.Loop) -> None:
        """A head block (the budget, the test, the next element of a walk kept in the frame as
        ``(items, i)``) that the body jumps back to; the block after it is the loop's end."""
        slot = self.comp.constant(f"$L{next(self._slots)}") if shape.walks is not None else None
        head = self.reserve()
        end = self.reserve()
        if shape.walks is not None:
            self.cur.append((3, stmt("e[$0] = ($1, 0)", slot, self._iter(shape.walks, kept=True)), shape.walks.span))
        self.goto(head)
        self.start(head)
        self._tick(3, shape, self.cur)
        if shape.test is not None:
            self.cur.append((3, stmt("if not $0:", self.comp.src(shape.test, self.scope)), shape.test.span))
            self.cur.append((4, Jump(end), None))
            self.cur.append((4, CONTINUE, None))
        if shape.walks is not None:
            var = self.comp.constant(self.scope.key(shape.var))
            self.cur.append((3, stmt("items, i = e[$0]", slot), shape.span))
            self.cur.append((3, stmt("if i >= len(items):"), None))
            self.cur.append((4, Jump(end), None))
            self.cur.append((4, CONTINUE, None))
            self.cur.append((3, stmt("e[$0] = items[i]", var), shape.span))
            self.cur.append((3, stmt("e[$0] = (items, i + 1)", slot), None))
        self.loops.append(("blk", head, end))
        self.seq(shape.body)
        self.loops.pop()
        self.goto(head)
        self.start(end)


    # ------------------------------------------------------------ structured statements
    def stmts(self, body, ind: int, out: list) -> None:
        for st in body:
            self.stmt(st, ind, out)

    def stmt(self, st, ind: int, out: list) -> None:
        self.comp.names.release("_t")       # a statement's values read twice are its own
        shape = lowering.lowered(st)
        if shape is not None:
            (self.s_branches if shape.__class__ is lowering.Branches else self.s_loop)(shape, ind, out)
            return
        _STATEMENTS[type(st)](self, st, ind, out)

    def s_Pass(self, st, ind, out):
        out.append((ind, ir.PASS, st.span))

    def s_Assign(self, st, ind, out):
        comp = self.comp
        if isinstance(st.value, ast.Call) and st.value.func in comp.v.procedures:
            target = st.target
            if not isinstance(target, ast.Name) or not self._is_local(target.id):
                comp.error(RESULT_NOT_IN_LOCAL, "a procedure's result can only be stored in a local name", st.span)
                return
            with self._loops_before((st.value.args), ind, out, st.span):
                call = self._direct_call(st.value)
            if call is not None:
                self._store(target, call, ind, out, st.span)
            return
        with self._loops_before((st.value,) if isinstance(st.target, ast.Name) else (), ind, out, st.span):
            self._store(st.target, comp.src(st.value, self.scope), ind, out, st.span)

    @contextlib.contextmanager
    def _loops_before(self, parts, ind: int, out: list, span):
        """Write the reductions among a statement's ``parts`` as loops just before it (loops.py)."""
        out.extend((i, text, span) for i, text in loops.statement_lines(self.comp, list(parts), self.scope, ind))
        try:
            yield
        finally:
            loops.statement_done(self.comp)

    def s_AugAssign(self, st, ind, out):
        src = self.comp.src
        value = ir.code("$0 + $1" if st.op == "+" else "$0 - $1", src(st.target, self.scope), src(st.value, self.scope))
        self._store(st.target, value, ind, out, st.span)

    def _is_local(self, name: str) -> bool:
        return name in self.scope.locals or name in self.scope.py

    def _store(self, target, value: str, ind: int, out: list, span) -> None:
        if isinstance(target, ast.Index):
            self._store_element(target, value, ind, out, span)
            return
        if isinstance(target, ast.Name) and target.id in self.scope.py:
            v = self.comp.v
            name = target.id
            if name in v.constants or name in v.zones or name in v.families or name in v.sets or name in v.members:
                self.comp.store_statement(target, self.scope, value)     # the diagnostic (RK0312)
            out.append((ind, stmt("$0 = $1", self.scope.py[name], value), span))
            return
        out.extend((ind + i, text, span) for i, text in self.comp.store_lines(target, self.scope, value))

    def _store_element(self, target, value: str, ind: int, out: list, span) -> None:
        """``xs[i] = v`` stores into ``xs`` the list with element ``i`` set (``REPLACED``: values
        are never changed in place), through whatever door ``xs`` itself is stored by; ``xs[i][j]
        = v`` sets ``xs[i]``'s element the same way, one level at a time."""
        comp = self.comp
        obj = target.obj
        zone = comp.kinds.of(obj, self.scope) in ("zone", "family")
        if zone or not isinstance(obj, (ast.Name, ast.Attr, ast.Index)):
            comp.error(BAD_ASSIGNMENT_TARGET, "only an element of a list or a table held by a variable can be set",
                       target.span, "a zone's items change by moving them: `move(x, to=zone)`" if zone else None)
            return
        variable = self._variable(obj)
        if variable is not None:        # a game variable's element: in place where nobody else can tell
            name, player = variable
            key = comp.src(target.index, self.scope)
            setter = comp.setter(name, player is not NONE)
            out.append((ind, stmt("SET_ELEMENT(s, $0, $1, $2, $3, $4, $5)", setter, player, comp.constant(name), key,
                                  value, comp.constant(target.span)), span))
            return
        container, key = comp.src(obj, self.scope), comp.src(target.index, self.scope)
        self._store(obj, ir.code("REPLACED($0, $1, $2)", container, key, value), ind, out, span)

    def _variable(self, node) -> tuple | None:
        """(name, the source of its player or 'None') where ``node`` is a game variable held by
        its row of the state (not a local, a constant, an item's state); else None."""
        v, scope = self.comp.v, self.scope
        if isinstance(node, ast.Name) and node.id in v.gvars and node.id not in scope.locals \
                and node.id not in scope.alias and node.id not in scope.py:
            return node.id, NONE
        if isinstance(node, ast.Attr) and node.name in v.pvars and node.name not in v.dynamic_props:
            return node.name, self.comp.src(node.obj, self.scope)
        return None

    def s_CallStmt(self, st, ind, out):
        comp = self.comp
        call = st.call
        name = call.func
        if name in comp.v.procedures:
            with self._loops_before(call.args, ind, out, st.span):
                line = self._direct_call(call)
            if line is not None:
                out.append((ind, line, st.span))
            return
        builtin = REGISTRY.get(name)
        if builtin is not None and builtin.kind == "effect":
            # its positional arguments go first, in order (a `direct` statement keeps that order)
            with self._loops_before(() if builtin.recorded_only else call.args, ind, out, st.span):
                args, kwargs = comp.bind_args(builtin, call, self.scope, comp.src)
            span = comp.constant(call.span)
            line = self._direct_effect(builtin, call, args, kwargs, span)
            if line is None:
                line = stmt("$0", ir.call(comp.constant(builtin.impl, 'B_' + name), [ir.name("s"), *args],
                                          {**kwargs, "span": span}))
            if builtin.recorded_only:
                # a log line is written (and its text worked out) only in a game that keeps its log
                out.append((ind, stmt("if s.record:"), st.span))
                ind += 1
            out.append((ind, line, st.span))
            return
        if builtin is not None or name in comp.v.functions:
            value = comp.src(call, self.scope)
            if builtin is None or builtin.pure:
                comp.error(VALUE_THROWN_AWAY, f"`{name}(...)` computes a value that is thrown away", call.span,
                           "assign it, `x = ...`, or use it in a condition")
            out.append((ind, stmt("$0", value), st.span))
            return
        candidates = set(comp.v.procedures) | {n for n, b in REGISTRY.items() if b.kind == "effect"}
        comp.error(UNKNOWN_FUNCTION, f"unknown effect or procedure `{name}`", call.span, suggestion_help(name,
                                                                                                         candidates))

    def _proc_args(self, call):
        """The argument sources of a procedure call, or None (with a diagnostic)."""
        comp = self.comp
        name = call.func
        params = comp.v.procedures[name]
        comp.out.used_procedures.add(name)
        if call.kwargs:
            comp.error(UNKNOWN_KEYWORD, f"procedure `{name}` takes positional arguments only", call.span)
        if len(call.args) != len(params):
            comp.error(WRONG_ARGUMENT_COUNT, f"procedure `{name}` takes {len(params)} argument"
                       f"{'s' if len(params) != 1 else ''} ({', '.join(params)}), got {len(call.args)}", call.span)
            return None
        seats = comp.v.seat_params.get(name, ()) if comp.passes.on("typed") else ()
        return [self._seat_arg(comp.src(a, self.scope), a, name, param) if param in seats else comp.src(a, self.scope)
                for param, a in zip(params, call.args)]

    def _seat_arg(self, source: str, node, name: str, param: str) -> str:
        """An argument given to a procedure's parameter that is a player at every call the game
        makes (signatures.py), which the callee reads as one: checked where this call cannot
        tell it is one (a script's position calling the procedure)."""
        if self.comp.typed_as(node, self.scope) == "seat":
            return source
        check = self.comp.constant(arguments.seat_argument, "SEAT_ARGUMENT")
        return ir.code("$0(s, $1, $2, $3, $4)", check, source, self.comp.constant(name), self.comp.constant(param),
                    self.comp.constant(node.span, 'AT'))

    def _direct_call(self, call):
        args = self._proc_args(call)
        if args is None:
            return None
        callee = self.m.codes[call.func]
        return stmt("$0(s, $*)", ir.name(f"call_{callee.pyname}"), args)

    def _code_ref(self, code: Code) -> str:
        return self.comp.constant(code, f"PROC_{code.pyname}")

    def _direct_effect(self, builtin, call, args: list, kwargs: dict, span: str):
        """The effect's ``direct`` statement, where each argument it declares a zone certainly is
        one (so the library's check of it has nothing to do), else None."""
        comp = self.comp
        written = templates.template(builtin.name)
        if written.direct is None or "forms" in comp.passes.off:
            return None
        names = list(builtin.params) + [n for n, _ in builtin.optional]
        for index, name in enumerate(names):
            if builtin.args.get(name) == "zone" and \
                    comp.kinds.certain(_argument(call, index, name), self.scope) != "zone":
                return None
        given = dict(zip(names, args)) | kwargs
        for name, default in builtin.optional:
            given.setdefault(name, comp.constant(default))
        forms.bind_template_names(comp, written)
        return stmt(written.direct, *(given[name] for name in written.direct_args), span)

    def s_Return(self, st, ind, out):
        value = self.comp.src(st.value, self.scope) if st.value is not None else None
        if self.resumable:
            out.extend(blocks.returned(value, ind, st.span))
        else:
            out.append((ind, ir.exit("return $0", value), st.span))

    def s_Assert(self, st, ind, out):
        """``assert test, message``: the game fails on this line (RK4019) when the test is false."""
        comp = self.comp
        message = comp.src(st.message, self.scope) if st.message is not None else \
            comp.constant(f"assertion failed: `{_span_text(st.test.span) or 'assert'}`")
        out.append((ind, stmt("if not $0:", comp.src(st.test, self.scope)), st.span))
        out.append((ind + 1, stmt("ASSERT($0)", message), st.span))

    def s_branches(self, shape: lowering.Branches, ind, out):
        first = True
        for cond_node, body in shape.tests:
            out.append((ind, stmt("if $0:" if first else "elif $0:", self.comp.src(cond_node, self.scope)),
                        cond_node.span))
            first = False
            self._body(body, ind + 1, out)
        if shape.orelse:
            out.append((ind, ir.ELSE, None))
            self._body(shape.orelse, ind + 1, out)

    def _body(self, body, ind, out):
        before = len(out)
        self.stmts(body, ind, out)
        if len(out) == before:
            out.append((ind, ir.PASS, None))

    def s_loop(self, shape: lowering.Loop, ind, out):
        if shape.walks is not None:
            var = self._target_name(shape.var)
            out.append((ind, stmt("for $0 in $1:", var, self._iter(shape.walks)), shape.walks.span))
        else:
            cond = literal(True) if shape.test is None else self.comp.src(shape.test, self.scope)
            out.append((ind, stmt("while $0:", cond), shape.test_span))
        self._tick(ind + 1, shape, out)
        self.loops.append(("py",))
        self._body(shape.body, ind + 1, out)
        self.loops.pop()

    def _iter(self, node, kept=False) -> str:
        """What a `for` walks: a snapshot of the list or zone (moving items while looping is safe),
        or a range as it is, unless the loop is ``kept`` in the frame (a tuple, which clones and saves)."""
        if self.comp.kinds.certain(node, self.scope) in ("list", "zone"):
            walked = None if kept else forms.walked_src(self.comp, node, self.scope)
            return walked if walked is not None else ir.code("(*$0,)", self.comp.seq_src(node, self.scope))
        return ir.code("ITER(s, $0)", self.comp.src(node, self.scope))

    def _target_name(self, name: str) -> str:
        """Where a loop variable lives: a Python local, or the frame's env."""
        if name in self.scope.py:
            return self.scope.py[name]
        return ir.code("e[$0]", self.comp.constant(self.scope.key(name)), kind=SLOT)

    def _tick(self, ind, loop: lowering.Loop, out):
        """Each pass of a loop spends steps of the budget that stops a loop that never ends."""
        weight = 1 + len(loop.body)
        out.append((ind, stmt("s.budget -= $0", literal(weight)), loop.span))
        name, span = self.comp.constant(self.code.name), self.comp.constant(loop.span)
        out.append((ind, stmt("if s.budget < 0: LIMIT(s, $0, $1)", name, span), loop.span))

    def s_Break(self, st, ind, out):
        self._jump(st, ind, out, "break")

    def s_Continue(self, st, ind, out):
        self._jump(st, ind, out, "continue")

    def _jump(self, st, ind, out, what):
        if not self.loops:
            self.comp.error(BREAK_OUTSIDE_LOOP, f"`{what}` outside a loop", st.span)
            return
        loop = self.loops[-1]
        if loop[0] == "py":
            out.append((ind, ir.BREAK if what == "break" else ir.CONTINUE, st.span))
        else:
            out.append((ind, Jump(loop[2] if what == 'break' else loop[1]), st.span))
            out.append((ind, CONTINUE, st.span))

    def s_Choose(self, st, ind, out):  # pragma: no cover - a choose always makes its procedure resumable
        raise AssertionError("choose outside a resumable procedure")


def _named(name: str, span) -> str:
    """What a comment of generated code says a function was compiled from: its content name and
    place, each a literal (``'auction' ('games/g/rules.yaml:162')``): a name or a file name is
    text from outside, and a line break in it must not end the comment."""
    where = f"{span.path}:{int(span.line)}" if span is not None and span.path else "generated"
    return f"{literal(str(name))} ({literal(where)})"


def _span_text(span) -> str | None:
    """The content text a one-line span covers (an assertion's test, for its default message)."""
    if span is None or span.end_line not in (None, span.line) or span.end_column is None:
        return None
    line = source_line(span.path, span.line)
    return line[span.column - 1:span.end_column - 1].strip() or None if line else None


def _argument(call, index: int, keyword: str):
    """The argument node given at position ``index`` or as ``keyword``, or None."""
    if len(call.args) > index:
        return call.args[index]
    return next((value for key, value in call.kwargs if key == keyword), None)


def _pylocal(name: str) -> str:
    if name.isascii() and name.isidentifier():
        return ir.name(f"l_{name}")
    return ir.name(f"l_{py_identifier(name)}_{zlib.crc32(name.encode())}")


FLAT_DEPTH = 15


def _may_stop(node, codes: dict, procedures) -> bool:
    """Whether running ``node`` may stop for a decision: a `choose`, or a call of a procedure
    that may."""
    return any(isinstance(n, ast.Choose) or (isinstance(n, ast.Call) and n.func in procedures
                                              and n.func in codes and codes[n.func].stops)
               for n in ast.walk(node))


# statement class -> the method writing it: as Python statements (control statements are lowered
# first, lowering.py; a `choose_all` always stops), and as blocks where it may stop
_STATEMENTS = methods(_Writer, "s_", (ast.Assign, ast.AugAssign, ast.CallStmt, ast.Pass, ast.Break, ast.Continue,
                                       ast.Return, ast.Assert, ast.Choose))
_BLOCKS = methods(_Writer, "r_", (ast.Assign, ast.CallStmt, ast.Choose, ast.ChooseAll))
