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
statement it came from (:data:`LINE_SPANS`), and the VM maps a failure's traceback
back to that span. Checks (names, arity, assignments) are made on the same walk by
:class:`~rulekit.dsl.compiler.Compiler`, so what is checked is what runs.
"""
from __future__ import annotations

import contextlib
import itertools
import linecache
import os
import zlib
from typing import NamedTuple

from ..codes import (
    BAD_ASSIGNMENT_TARGET,
    BREAK_OUTSIDE_LOOP,
    BY_NOT_TAKEN,
    ELSE_NEVER_RUNS,
    GROUP_INCLUDES_ITSELF,
    RESULT_NOT_IN_LOCAL,
    TOO_COMPLEX,
    UNKNOWN_FUNCTION,
    UNKNOWN_KEYWORD,
    UNKNOWN_OPTION_GROUP,
    UNUSED_LOCAL,
    VALUE_THROWN_AWAY,
    WRONG_ARGUMENT_COUNT,
)
from ..engine.library import REGISTRY
from ..engine.runtime import LINE_SPANS, ChooseSpec, Code
from ..engine.simultaneous import SimSpec
from ..errors import Diagnostic, DiagnosticReport, suggestion_help
from ..source import source_line
from . import ast, code_cache, layout, lowering, passes, templates, verify
from .compiler import Compiler, located_code, too_complex
from .pysource import CONTINUE, NAME, SLOT, Comment, Exit, Jump, Py, literal, py_identifier
from .scope import Scope
from .visit import assigned_names, bound_names, first_assignments, free_names, loop_depth, read_names

_units = itertools.count(1)
_SPLIT_LINES = 16       # a choose's listing of at least this many statements is a function of its own
_SPLIT_BLOCKS = 12      # a resumable procedure of at least this many blocks is a function per block


class Module:
    """The source of one game's generated module, built procedure by procedure."""

    def __init__(self, comp: Compiler, title: str):
        self.comp = comp
        self.filename = f"<rulekit {literal(title)} #{next(_units)}>"
        self.lines: list[str] = []
        self.spans: list = []
        self.codes: dict[str, Code] = {}      # procedure name -> Code
        self.flat: set = set()
        self.written: list[Code] = []
        self._defs = itertools.count()
        self._home = None           # the content file of the function being written (_note)
        self._noted = None          # the content line its last note named
        self.tables: list = []      # (name, function names) of each split procedure's blocks (_emit_split)

    # ------------------------------------------------------------ lines
    def add(self, indent: int, text: str, span=None) -> None:
        """One logical line; a statement's first names its content line, and a long one is laid out
        on several (dsl/layout.py), each mapped to the statement's span for tracebacks."""
        lines = layout.lay_out("    " * indent, text, self._note(indent, text, span))
        self.lines.extend(lines)
        self.spans.extend([span] * len(lines))

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

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"

    def write_functions(self) -> None:
        """The game's functions (compiled by the Compiler), first in the module."""
        for name, pyname, params, body, span, reused in self.comp.out.function_defs:
            self.add(0, f"def {pyname}({', '.join(params)}):  # {_named(name, span)}")
            if reused:
                self.add(1, f"{' = '.join(reused)} = UNSET")
            for indent, text in body:
                self.add(1 + indent, text)
            self.add(0, "")

    def load(self) -> dict:
        """Run the module's source in the compiler's namespace; returns that namespace."""
        text = self.source()
        LINE_SPANS[self.filename] = self.spans
        linecache.cache[self.filename] = (len(text), None, text.splitlines(True), self.filename)
        try:
            code = code_cache.compiled(text, self.filename, check=lambda source: verify.check(source, self.comp.ns))
        except (SyntaxError, RecursionError, MemoryError) as exc:
            if not too_complex(exc):
                raise               # a bug of the code generator, not the author's mistake
            line = getattr(exc, "lineno", None) or 0
            span = next((s for s in reversed(self.spans[:line]) if s is not None), None)
            raise DiagnosticReport([Diagnostic(TOO_COMPLEX, "procedure too complex to compile (nested too deeply)",
                                               span, help="split it into smaller procedures")]) from None
        exec(code, self.comp.ns)  # noqa: S102 - our own source, checked (dsl/verify.py)
        ns = self.comp.ns
        for table, names in self.tables:
            ns[table][:] = [ns[name] for name in names]
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
        pyname = f"{py_identifier(title)}_{next(self._defs)}"
        code = self.codes[key] = Code(title, params, span, pyname)
        return code

    def plan(self, bodies: dict) -> None:
        """Which procedures may stop for a decision: a `choose`, a call of one that may, or
        a call cycle (recursion keeps frames, so its depth stays bounded and reported)."""
        calls = {name: _called(body, self.comp.v.procedures) for name, body in bodies.items()}
        stops = {name for name, body in bodies.items() if any(isinstance(n, ast.Choose) for n in ast.walk(body))}
        stops |= _in_cycles(calls)
        # Python allows 20 loops nested in one function: deeper content is written with
        # every loop as blocks of a resumable function (no Python nesting), as the VM ran it
        self.flat = {name for name, body in bodies.items() if loop_depth(body) > FLAT_DEPTH}
        stops |= self.flat
        changed = True
        while changed:
            changed = False
            for name, called in calls.items():
                if name not in stops and called & stops:
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
        assigned = assigned_names(body) - comp.v.gvars
        unused = assigned - set(params) - read_names(body)
        firsts = first_assignments(body) if unused else {}
        for local in sorted(unused):
            hint = suggestion_help(local, comp.v.gvars)
            comp.out.diagnostics.append(Diagnostic(
                UNUSED_LOCAL, f"`{local}` is assigned in `{name}` but never used",
                firsts.get(local) or span,
                help=hint + " (a misspelt global becomes a new local)" if hint else
                "remove it, or declare it under `vars:` if it should outlive the procedure",
                severity="warning"))
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
        w.cur.append((3, "position = e.pop('$position', None)", None))
        w.cur.append((3, "if position is not None:", None))
        head = w.reserve()          # each round starts here (after the position, if any)
        w.cur.append((4, Jump(head, frame=True), None))
        w.cur.append((4, "if CALL(s, position, {}, None):", None))
        w.cur.append((5, Exit("return True"), None))
        w.goto(head)
        w.start(head)
        w.cur.append((3, f"{comp.setter('round', False)}(s, None, s.g['round'] + 1)", None))
        for cond_node, phase in phases:
            w.call_code(phase, cond_node)
        fin = w.reserve()
        if rounds is not None:
            w.cur.append((3, f"if s.g['round'] >= {int(rounds)}:", None))
            w.goto(fin, 4)
        if until is not None:
            fn, span = until
            w.cur.append((3, f"if {comp._k(fn, 'UNTIL')}(s, e):", span))
            w.goto(fin, 4)
        w.goto(head)
        w.start(fin)
        w.call_code(finish)
        w.cur.append((3, "s.result = SCORE(s)", None))
        w.cur.append((3, "s.over = True", None))
        w.cur.append((3, "s.frames.clear()", None))
        w.cur.append((3, Exit("return True"), None))
        w.emit_blocks()
        self.add(0, "")
        return fin


class _Writer:
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
        self._slots = itertools.count()

    # ------------------------------------------------------------ frames of code
    def direct_function(self, body, pyparams) -> None:
        m = self.m
        m.add(0, f"def call_{self.code.pyname}({', '.join(['s'] + pyparams)}):", self.code.span)
        m.add(1, Comment(f"# {_named(self.code.name, self.code.span)}"))
        lines: list = []
        self.stmts(body, 1, lines)
        if all(isinstance(text, Comment) for _i, text, _s in lines):
            lines.append((1, "pass", None))
        m.extend(lines)

    def resumable_function(self, body) -> None:
        self.start(self.reserve())
        self.seq(body)
        self.cur.extend(_returned(None, 3, None))
        self.emit_blocks()

    def emit_blocks(self) -> None:
        m = self.m
        for name, body, span in self.helpers:
            m.add(0, f"def {name}(s, e):", span)
            m.add(1, Comment(f"# {_named(self.code.name, span)}: the options of a choose"))
            m.extend(body)
            m.add(0, "")
        blocks = _threaded(self.blocks) if self.comp.passes.on("threading") else self.blocks
        if len(blocks) >= _SPLIT_BLOCKS:
            self._emit_split(blocks)
            return
        m.add(0, f"def run_{self.code.pyname}(s, f):", self.code.span)
        m.add(1, Comment(f"# {_named(self.code.name, self.code.span)}: resumable, blocks 0-{len(self.blocks) - 1}"))
        m.add(1, "e = f.env")
        m.add(1, "pc = f.pc")
        m.add(1, "while True:")
        self._emit_range(blocks, 0, len(blocks), 0)

    def _emit_split(self, blocks: list) -> None:
        """A long procedure as one function per block, each returning the block to run next (or,
        not a whole number, what the procedure returns: it stopped, or it ended), and a loop that
        runs them from a table: the procedure reads as its steps, each a few lines, instead of one
        function of hundreds under nested ``if pc < N`` tests. The table is filled with the
        functions when the module is loaded (:meth:`Module.load`)."""
        m = self.m
        pyname = self.code.pyname
        names = [f"{pyname}_block_{pc}" for pc in range(len(blocks))]
        table = self.comp._k([], "BLOCKS")
        m.tables.append((table, names))
        for pc, lines in enumerate(blocks):
            m.add(0, f"def {names[pc]}(s, f, e):  # {_named(self.code.name, self.code.span)}", self.code.span)
            m.extend(_block_function(lines))
            m.add(0, "")
        m.add(0, f"def run_{pyname}(s, f):", self.code.span)
        m.add(1, Comment(f"# {_named(self.code.name, self.code.span)}: resumable, its blocks 0-{len(blocks) - 1} "
                         "are the functions above"))
        m.add(1, "e = f.env")
        m.add(1, "pc = f.pc")
        m.add(1, "while True:")
        m.add(2, f"pc = {table}[pc](s, f, e)")
        m.add(2, "if pc.__class__ is not INT:")
        m.add(3, "return pc")

    def _emit_range(self, blocks: list, lo: int, hi: int, shift: int) -> None:
        """Blocks ``lo``..``hi - 1``, tested by halves (``if pc < mid:`` around the lower half, the
        upper half after it): a resume finds its block in a few tests, not one per block, and a
        block still falls through to any later one (every test comes in the blocks' order)."""
        if hi - lo > _LEAF_BLOCKS:
            mid = (lo + hi) // 2
            self.m.add(2 + shift, f"if pc < {mid}:")
            self._emit_range(blocks, lo, mid, shift + 1)
            self._emit_range(blocks, mid, hi, shift)
            return
        for pc in range(lo, hi):
            self.m.add(2 + shift, f"if pc == {pc}:")
            lines = blocks[pc] or [(3, "pass", None)]
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
                self.cur.append((3, f"if not {cond}:", when.span))
                self.cur.append((4, Jump(after), None))
                self.cur.append((4, CONTINUE, None))
            self._call(self._code_ref(callee), "{}", "None", after, callee.span)
        elif cond is not None:
            self.cur.append((3, f"if {cond}:", when.span))
            self.cur.append((4, f"call_{callee.pyname}(s)", callee.span))
        else:
            self.cur.append((3, f"call_{callee.pyname}(s)", callee.span))

    # ------------------------------------------------------------ resumable sequences
    def seq(self, body) -> None:
        """Emit ``body`` into the current block, splitting where a statement may stop."""
        for st in body:
            if not self.stops(st):
                self.stmt(st, 3, self.cur)
                continue
            shape = lowering.lowered(st)
            if shape is not None:
                (self.r_branches if shape.__class__ is lowering.Branches else self.r_loop)(shape)
            else:
                getattr(self, f"r_{type(st).__name__}")(st)

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
        env = "{" + "".join(f"{self.comp._k(p)}: {a}, " for p, a in zip(callee.params, args)) + "}"
        self._call(self._code_ref(callee), env, self.comp._k(ret), after, call.span)

    def _call(self, code: str, env: str, ret: str, after: int, span) -> None:
        """Call a procedure that may stop: it runs at once (``CALL``); if it stopped, so does this
        one, to go on at block ``after`` when resumed; if it returned, this one goes on there now."""
        self.cur.append((3, Jump(after, frame=True), span))
        self.cur.append((3, f"if CALL(s, {code}, {env}, {ret}):", span))
        self.cur.append((4, Exit("return True"), span))
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
            kw = "if" if first else "elif"
            first = False
            self.cur.append((3, f"{kw} {self.comp.src(cond_node, self.scope)}:", cond_node.span))
            self.cur.append((4, Jump(target), None))
        orelse = self.reserve() if shape.orelse else end
        self.cur.append((3, "else:", None))
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
        slot = self.comp._k(f"$L{next(self._slots)}") if shape.walks is not None else None
        head = self.reserve()
        end = self.reserve()
        if shape.walks is not None:
            self.cur.append((3, f"e[{slot}] = ({self._iter(shape.walks, kept=True)}, 0)", shape.walks.span))
        self.goto(head)
        self.start(head)
        self._tick(3, shape, self.cur)
        if shape.test is not None:
            self.cur.append((3, f"if not {self.comp.src(shape.test, self.scope)}:", shape.test.span))
            self.cur.append((4, Jump(end), None))
            self.cur.append((4, CONTINUE, None))
        if shape.walks is not None:
            var = self.comp._k(self.scope.key(shape.var))
            self.cur.append((3, f"items, i = e[{slot}]", shape.span))
            self.cur.append((3, "if i >= len(items):", None))
            self.cur.append((4, Jump(end), None))
            self.cur.append((4, CONTINUE, None))
            self.cur.append((3, f"e[{var}] = items[i]", shape.span))
            self.cur.append((3, f"e[{slot}] = (items, i + 1)", None))
        self.loops.append(("blk", head, end))
        self.seq(shape.body)
        self.loops.pop()
        self.goto(head)
        self.start(end)

    def r_Choose(self, st, decide: str | None = None, end: int | None = None) -> str:
        """A `choose` is a block of its own (a saved game waiting here re-lists its options by
        running it again): it lists every legal option as ``(target block, *values)`` and hands
        them to ``decide``; each option's body goes on at ``end``. Returns its spec's name."""
        comp = self.comp
        if self.cur:
            here = self.reserve()
            self.goto(here)
            self.start(here)
        else:
            here = self.cur_pc
        end = self.reserve() if end is None else end
        lines = self.cur
        lines.append((3, Jump(here, frame=True), st.span))
        later = None
        if decide is None:      # a plain `choose` (not a `choose_all`'s player)
            decide, later = "DECIDE(s, {player}, ch, {spec})", len(lines)
        listed = len(lines)
        params = self._params_read_once(st)
        listing = self.scope.bind_py(params) if params else self.scope     # the listing reads them as locals
        options = self._choice_options(st, listing, lines)
        lines.append((3, "ch = []", st.span))
        parts, bodies = self._list_options(options, listing, lines, st.span)
        self._tables_start(parts.pop("tables"), lines, listed, st.span)
        prompt = self._label_fn(st, self.scope, {}, st.prompt) if st.prompt is not None else None
        spec = comp._k(ChooseSpec(parts["keys"], parts["labels"], st.span, parts["says"], prompt, parts["spans"],
                                  parts["verbs"]), f"CHOOSE{here}")
        handed = len(lines)
        apart = handed - listed + len(params) >= _SPLIT_LINES     # listed by a function of its own
        player = comp.src(st.player, self.scope if apart else listing)
        orelse = self._hand_over(st, options, lines, player, decide, spec, later)
        tail = len(lines) - handed
        if later is not None and orelse is None:    # a bot's imagined position stops here (engine/vm.py)
            unlisted = comp.src(st.player, self.scope)      # before the parameters are read
            lines[later:later] = [(3, "if s.list_later:", st.span),
                                  (4, Exit(f"return UNLISTED(s, {unlisted}, {spec})"), st.span)]
            listed += 2
        lines[listed:listed] = [(3, f"{local} = e[{comp._k(param)}]", st.span) for param, local in params.items()]
        if apart:
            self._options_function(lines, listed, len(lines) - tail, st.span)
        for target, body, scope in bodies:
            self.start(target)
            self._bind_chosen(parts["keys"][target], st.span)
            saved = self.scope
            self.scope = scope
            self.seq(body)
            self.scope = saved
            self.goto(end)
        if orelse is not None:
            self.start(orelse)
            self.seq(st.orelse)
            self.goto(end)
        self.start(end)
        return spec

    def _options_function(self, lines: list, start: int, stop: int, span) -> None:
        """Move the lines listing a choose's options (``start``..``stop``: they read the state and
        the frame's env, and build ``ch``) into a function of their own, written before the
        procedure's: a long procedure reads as its steps, each choose's long listing apart (a short
        one reads well where it is, and costs no call)."""
        name = f"options_{self.code.pyname}_{self.cur_pc}"
        body = [(ind - 2, text, line_span) for ind, text, line_span in lines[start:stop]]
        body.append((1, "return ch", span))
        self.helpers.append((name, body, span))
        lines[start:stop] = [(3, f"ch = {name}(s, e)", span)]

    def _choice_options(self, st, listing: Scope, lines: list) -> list:
        """(option node, scope, names, clauses, keys, walkers) of each option a `choose` lists, an
        option group's among them; the collections options share are asked once (share-heads)."""
        options = []
        for opt in st.options:
            if isinstance(opt, ast.Include):
                options.extend(self._include(opt, lines, st.span, listing))
                continue
            names: dict = {}
            clauses: list = []
            keys: list = []
            walkers: list = []
            self._option_fors(opt.fors, listing, self.scope.key, names, clauses, keys, walkers, opt.by is None)
            options.append((opt, self.scope, names, clauses, keys, walkers))
        if self.comp.passes.on("share-heads"):
            self._share_heads(options, lines, st.span)
        return options

    def _list_options(self, options: list, listing: Scope, lines: list, span) -> tuple:
        """The lines listing each option, and what the choice's spec holds of it (by its target
        block: the keys its values go to, its label, `says`, span and fixed verb; ``tables``, the
        tallies the tests read, each kept in a local); returns (those parts, each option's
        (target, body, scope))."""
        comp = self.comp
        parts: dict = {"keys": {}, "labels": {}, "says": {}, "spans": {}, "verbs": {}, "tables": {}}
        bodies = []
        for opt, scope, names, clauses, keys, walkers in options:
            target = self.reserve()
            inner = scope.bind_py(names, walkers)
            parts["keys"][target] = tuple(keys)
            parts["spans"][target] = opt.span
            parts["labels"][target] = self._label_fn(opt, inner, names)
            verb = _fixed_verb(opt.label)
            if verb is not None:
                parts["verbs"][target] = verb
            if opt.says is not None:
                parts["says"][target] = self._label_fn(opt, inner, names, opt.says)
            listed_inner = listing.bind_py(names, walkers) if scope is self.scope else inner
            with comp.listing(parts["tables"]):
                self._list_option(opt, listed_inner, target, names, clauses, lines, span)
            bodies.append((target, opt.body, scope))
        return parts, bodies

    def _hand_over(self, st, options, lines, player: str, decide: str, spec: str, later) -> int | None:
        """Hand the listed options to ``decide``; returns the block of the choose's ``else:``, or None.
        A plain `choose` decides as it comes (runtime.decide) and goes on at once at the block it
        bound; a `choose_all`'s player returns what ``decide`` says. The ``else:`` block runs at once,
        asking nobody, when no option is listed (one rule, "place it if you can, else discard it",
        written once). An option always listed (no ``for``, no ``if``) would leave it nothing to do:
        refused where it is written."""
        target = None
        if st.orelse:
            always = next((opt for opt, *_rest in options if not opt.fors and opt.cond is None), None)
            if always is None:
                target = self.reserve()
                lines.append((3, "if not ch:", st.span))
                lines.append((4, Jump(target), st.span))
                lines.append((4, CONTINUE, st.span))
            else:
                self.comp.error(ELSE_NEVER_RUNS, f"this `choose` always has the option {always.label.value!r}"
                                if isinstance(always.label, ast.Str) else "this `choose` always has an option",
                                st.orelse[0].span, "an `else:` runs only when no option is listed: remove it, or "
                                "give that option an `if`")
        decided = decide.format(player=player, spec=spec)
        if later is None:
            lines.append((3, Exit("return " + decided), st.span))
        else:
            lines.append((3, f"if {decided}:", st.span))
            lines.append((4, Exit("return True"), st.span))
            lines.append((3, Jump("f.pc"), st.span))
            lines.append((3, CONTINUE, st.span))
        return target

    def _bind_chosen(self, keys: tuple, span) -> None:
        """An option's block starts by binding the values taken (``Frame.chosen``, set by
        runtime.decide, runtime.take or a `choose_all`'s next pick) to their names."""
        slots = [f"e[{self.comp._k(key)}]" for key in keys]
        if len(slots) == 1:
            self.cur.append((3, f"{slots[0]} = f.chosen[1]", span))
        elif slots:
            self.cur.append((3, f"_pc, {', '.join(slots)} = f.chosen", span))

    def _list_option(self, opt, inner: Scope, target: int, names: dict, clauses: list, lines: list, span) -> None:
        """The lines that add one option's ``(target, *values)`` tuples to ``ch``, each value its
        ``for`` clauses walk (where its condition holds)."""
        comp = self.comp
        values = "".join(f", {names[n]}" for n in names)
        # compiled once: whole, or in the parts _placed_tests puts before loops
        cond = comp.src(opt.cond, inner) if opt.cond is not None and not (clauses and opt.by is None) else None
        if not clauses:
            item = comp._k((target,), f"OPT{target}") if not values else f"({target}{values})"
            if cond is None:
                lines.append((3, f"ch.append({item})", span))
            else:
                lines.append((3, f"if {cond}:", span))
                lines.append((4, f"ch.append({item})", span))
        elif opt.by is not None:
            lines.append((3, f"ch += {self._grouped(opt, inner, target, values, clauses, cond)}", span))
        else:       # plain loops: most lists of options are short or empty, where a comprehension costs more
            placed, cond = self._placed_tests(opt, inner, clauses)
            heads = [f"if {placed[-1]}:"] if -1 in placed else []
            for level, clause in enumerate(clauses):
                if clause.guard is not None:
                    heads.append(f"if {clause.guard}:")
                heads.append(f"for {clause.var} in {clause.src}:")
                if clause.test is not None:
                    heads.append(f"if {clause.test}:")
                if level in placed:
                    heads.append(f"if {placed[level]}:")
            if cond is not None:
                heads.append(f"if {cond}:")
            lines.extend((depth, head, span) for depth, head in enumerate(heads, 3))
            lines.append((3 + len(heads), f"ch.append(({target}{values}))", span))
        if opt.by is not None and not clauses:
            comp.error(BY_NOT_TAKEN, "`by` groups the options a `for` lists; this option lists none", opt.by.span)

    @passes.step("hoist")
    def _placed_tests(self, opt, inner: Scope, clauses: list) -> tuple:
        """An option's condition split where its first parts need fewer of its loops:
        ``"take {c}" for c in suits if can_take(p, c)`` asks ``count(p.hand) < hand_limit``
        (the first part of ``can_take``) once, before the loop, not once a suit. A part
        goes before a loop only when that loop and every one inside it walk a set of the game
        (never empty, never failing, nothing tested on the way), and the parts keep their order,
        so each is worked out exactly when, and as, it would be at the innermost place.
        Returns ({level: test}, where -1 is before the first loop, and the test left inside)."""
        comp = self.comp
        if opt.cond is None:
            return {}, None
        if "hoist" in comp.passes.off:
            return {}, comp.src(opt.cond, inner)
        steady = len(clauses)      # the loops from this one in walk sets of the game
        while steady > 0 and clauses[steady - 1].guard is None and clauses[steady - 1].test is None \
                and self._walks_set(opt.fors[steady - 1][1], inner):
            steady -= 1
        if steady == len(clauses):
            return {}, comp.src(opt.cond, inner)
        bound = frozenset(inner.locals) | frozenset(inner.py) | frozenset(inner.alias)
        written = {name: list(spans) for name, spans in comp.out.inlined_at.items()}
        parts = comp.conjuncts(opt.cond, bound | bound_names(opt.cond))
        level_of = {name: k for k, (name, _coll) in enumerate(opt.fors)}
        placed: dict = {}
        at, hoisted = steady - 1, 0
        for part in parts:
            at = max([at] + [level_of[name] for name in free_names(part) if name in level_of])
            if at >= len(clauses) - 1:
                break
            placed.setdefault(at, []).append(f"({comp.src(part, inner)})")
            hoisted += 1
        if not placed:
            comp.out.inlined_at = written       # the condition is written as it was (coverage.py)
            return {}, comp.src(opt.cond, inner)
        rest = parts[hoisted:]
        inside = " and ".join(f"({comp.src(part, inner)})" for part in rest) if rest else None
        return {level: " and ".join(tests) for level, tests in placed.items()}, inside

    def _walks_set(self, coll, scope: Scope) -> bool:
        """``coll`` names a set of the game that has members."""
        return self.comp.names_set(coll, scope) and bool(self.comp.v.sets[coll.id])

    def r_ChooseAll(self, st):
        """``choose_all q in players:`` (engine/simultaneous.py): the options are listed as a
        `choose` asking each player still to choose in turn; a pick is recorded, unseen; when
        all have chosen, each pick's body runs in the listed order, then the code after it."""
        comp = self.comp
        ask, record, run, end = (self.reserve() for _ in range(4))
        sim = SimSpec(f"$A{next(self._slots)}", self.scope.key(st.var), ask, record, st.span)
        ref = comp._k(sim, "SIM")
        self.cur.append((3, f"SIM_BEGIN(s, f, {ref}, {comp.src(st.player, self.scope)})", st.span))
        self.goto(ask)
        self.start(ask)
        self.cur.append((3, f"if SIM_ASK(s, f, {ref}):", st.span))
        self.goto(run, 4)
        options = ast.Choose(ast.Name(st.var, span=st.span), st.options, span=st.span)
        spec = self.r_Choose(options, f"SIM_COLLECT(s, f, {ref}, {{player}}, ch, {{spec}})", run)
        sim.inner = comp.ns.get(spec)
        sim.outer = ChooseSpec({record: (sim.pick,)}, {record: sim.label}, st.span)
        self.cur.append((3, f"pc = SIM_NEXT(f, {ref})", st.span))     # the block `run`: the next pick's body
        self.cur.append((3, "if pc is None:", None))
        self.cur.append((4, Jump(end), None))
        self.cur.append((3, CONTINUE, None))
        self.start(record)
        self._bind_chosen((sim.pick,), st.span)       # the pick a player took (sim.outer's one option)
        self.cur.append((3, f"if SIM_RECORD(s, f, {ref}):", st.span))     # the others still to choose
        self.cur.append((4, Exit("return True"), None))
        self.goto(ask)
        self.start(end)

    def _grouped(self, opt, inner, target: int, values: str, clauses: list, cond) -> str:
        """``"take {t.kind}" for t in row by t.kind``: one option per key, the first of each
        (identical tiles are one move, not one per tile)."""
        fors = " ".join(f"for {clause.var} in {clause.src}" for clause in clauses)
        key = self.comp.src(opt.by, inner)
        pairs = f"[({key}, ({target}{values})) {fors}" + (f" if {cond}]" if cond is not None else "]")
        return f"FIRST_OF_EACH({pairs})"

    @staticmethod
    def _tables_start(tables: dict, lines: list, start: int, span) -> None:
        """Each local keeping a tally for the listing starts as None (the first test that reads
        it looks the table up)."""
        lines[start:start] = [(3, f"{local} = None", span) for local in tables.values()]

    @passes.step("params-once")
    def _params_read_once(self, st) -> dict:
        """The procedure's parameters the listing of ``st``'s options names more than once (``p``
        in every option's test), each -> the Python local it is read into before the listing
        (``a_p``): listing changes no local, and a parameter is in the env from the frame's start,
        so the one read gives what each would. A local kept through the listing, as a slot is."""
        params = self.code.params
        if not params or "params-once" in self.comp.passes.off:
            return {}
        counts = dict.fromkeys(params, 0)
        for part, bound in _listing_parts(st):
            for node in ast.walk(part):
                if isinstance(node, ast.Name) and node.id in counts and node.id not in bound:
                    counts[node.id] += 1
        return {param: Py(f"a_{py_identifier(param)}", SLOT, ("read once", param))
                for param in params if counts[param] >= 2}

    @passes.step("share-heads")
    def _share_heads(self, options, lines, span) -> None:
        """Options that walk the same call (`for t in kept(p, 'spy')` in four options) ask it
        once: the first collection of an option is listed whenever the choice is, so working
        it out before the options changes nothing but the time."""
        counts: dict = {}
        for _opt, _scope, _names, clauses, _keys, _walkers in options:
            if clauses and clauses[0].same is not None:
                counts[clauses[0].same] = counts.get(clauses[0].same, 0) + 1
        shared: dict = {}
        for _opt, _scope, _names, clauses, _keys, _walkers in options:
            if clauses and counts.get(clauses[0].same, 0) >= 2:
                same = clauses[0].same
                if same not in shared:
                    shared[same] = Py(f"h{len(shared) + 1}", NAME)
                    lines.append((3, f"{shared[same]} = {clauses[0].shared}", span))
                clauses[0] = _Clause(clauses[0].var, shared[same], shared=shared[same])

    def _label_fn(self, opt, inner: Scope, names: dict, text=None):
        """``fn(s, e, *values)``: an option's notation (or ``text``: its `says`, a choose's
        `prompt`), formatted only when someone asks (or the text itself, when it never changes)."""
        text = opt.label if text is None else text
        if isinstance(text, ast.Str):
            return text.value
        params = ["s", "e"] + [names[n] for n in names]
        return self.comp._define(tuple(params), f"return {self.comp.src(text, inner)}", opt.span,
                                 "label", "shorten the option's text")

    def _option_fors(self, fors, scope, key, names, clauses, keys, walkers, walk=False, plain=False):
        """The ``for`` clauses of an option (:class:`_Clause`); its variables are Python
        variables while options are listed, and the chosen values go into the env under
        ``keys``. ``walk``: the clauses become ``for`` statements (the option is not grouped),
        which may walk a range as it is (``walk_src``). ``plain``: they become ``for``
        statements in any case. Either way, a clause over a function that picks items of a
        collection walks that collection (``Compiler.walked_body``)."""
        comp = self.comp
        for name, coll in fors:
            var = comp._var(name)
            visible = scope.bind_py(names, walkers)
            if walk:
                src = comp.walk_src(coll, visible)
            else:
                comp.at.in_iterable += 1      # a comprehension's iterable when options are grouped (_grouped)
                src = comp.seq_src(coll, visible)
                comp.at.in_iterable -= 1
            picked = comp.walked_body(coll, visible) if plain or walk else None
            same = (coll, _whereabouts(coll, visible)) if isinstance(coll, ast.Call) else None
            if picked is None:
                clauses.append(_Clause(var, src, shared=src, same=same))
            else:
                guard, coll, own, test = picked
                mine = visible.bind_py({own: var}, [var] if comp.kinds.of(coll, visible) == "zone" else [])
                clauses.append(_Clause(var, comp.walk_src(coll, visible), guard and comp.src(guard, visible),
                                       test and comp.src(test, mine), src, same))
            names[name] = var
            if comp.kinds.of(coll, visible) == "zone":
                walkers.append(var)
            comp.note_member(var, coll, visible)
            keys.append(key(name))

    def _include(self, inc, lines, span, scope=None, within=()):
        """An option group's options; its arguments are worked out once, before the options
        are listed, into Python variables that the chosen option binds like its own values. A
        group may include another (``within``: the groups being included, to refuse a circle);
        its arguments are read in the including group's ``scope``."""
        comp = self.comp
        group = comp.v.option_groups.get(inc.name)
        if group is None:
            comp.error(UNKNOWN_OPTION_GROUP, f"unknown option group `{inc.name}`", inc.span,
                       suggestion_help(inc.name, comp.v.option_groups))
            return []
        if inc.name in within:
            comp.error(GROUP_INCLUDES_ITSELF, f"option group `{inc.name}` includes itself "
                       f"({' -> '.join(within[within.index(inc.name):] + (inc.name,))})", inc.span,
                       "an option group lists options once: include it from a `choose`, not from itself")
            return []
        params, group_options = group
        if len(inc.args) != len(params):
            comp.error(WRONG_ARGUMENT_COUNT, f"option group `{inc.name}` takes {len(params)} argument"
                       f"{'s' if len(params) != 1 else ''} ({', '.join(params)}), got {len(inc.args)}", inc.span)
            return []
        names: dict = {}
        clauses: list = []
        keys: list = []
        for pname, arg in zip(params, inc.args):
            var = comp._var(pname)
            lines.append((3, f"{var} = {comp.src(arg, self.scope if scope is None else scope)}", span))
            names[pname] = var
            keys.append(f"{inc.name}.{pname}")
        out = []
        for opt in group_options:
            if isinstance(opt, ast.Include):
                out.extend(self._include(opt, lines, span, Scope(set()).bind_py(names), within + (inc.name,)))
                continue
            locals_ = set(params) | {n for n, _ in opt.fors} | (assigned_names(opt.body) - comp.v.gvars)
            alias = {n: f"{inc.name}.{n}" for n in locals_}
            inner = Scope(set(alias.values()), [], alias)
            o_names, o_clauses, o_keys, o_walkers = dict(names), list(clauses), list(keys), []
            self._option_fors(opt.fors, inner, alias.__getitem__, o_names, o_clauses, o_keys, o_walkers,
                              plain=opt.by is None)
            out.append((opt, inner, o_names, o_clauses, o_keys, o_walkers))
        return out

    # ------------------------------------------------------------ structured statements
    def stmts(self, body, ind: int, out: list) -> None:
        for st in body:
            self.stmt(st, ind, out)

    def stmt(self, st, ind: int, out: list) -> None:
        shape = lowering.lowered(st)
        if shape is not None:
            (self.s_branches if shape.__class__ is lowering.Branches else self.s_loop)(shape, ind, out)
            return
        method = getattr(self, f"s_{type(st).__name__}", None)
        if method is None:  # pragma: no cover - parser and compiler out of step
            raise NotImplementedError(f"no compiler for statement {type(st).__name__}")
        method(st, ind, out)

    def s_Pass(self, st, ind, out):
        out.append((ind, "pass", st.span))

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
        out.extend((i, text, span) for i, text in self.comp.statement_lines(list(parts), self.scope, ind))
        try:
            yield
        finally:
            self.comp.statement_done()

    def s_AugAssign(self, st, ind, out):
        src = self.comp.src
        value = f"({src(st.target, self.scope)} {'+' if st.op == '+' else '-'} {src(st.value, self.scope)})"
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
                self.comp._store(target, self.scope, value)     # the diagnostic (RK0312)
            out.append((ind, f"{self.scope.py[name]} = {value}", span))
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
        container, key = comp.src(obj, self.scope), comp.src(target.index, self.scope)
        self._store(obj, f"REPLACED({container}, {key}, {value})", ind, out, span)

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
                args, kwargs = comp._bind(builtin, call, self.scope, comp.src)
            span = comp._k(call.span)
            line = self._direct_effect(builtin, call, args, kwargs, span)
            if line is None:
                listed = "".join(", " + a for a in args) + "".join(f", {k}={f}" for k, f in kwargs.items())
                line = f"{comp._k(builtin.impl, 'B_' + name)}(s{listed}, span={span})"
            if builtin.recorded_only:
                # a log line is written (and its text worked out) only in a game that keeps its log
                out.append((ind, "if s.record:", st.span))
                ind += 1
            out.append((ind, line, st.span))
            return
        if builtin is not None or name in comp.v.functions:
            value = comp.src(call, self.scope)
            if builtin is None or builtin.pure:
                comp.error(VALUE_THROWN_AWAY, f"`{name}(...)` computes a value that is thrown away", call.span,
                           "assign it, `x = ...`, or use it in a condition")
            out.append((ind, value, st.span))
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
        return [comp.src(a, self.scope) for a in call.args]

    def _direct_call(self, call):
        args = self._proc_args(call)
        if args is None:
            return None
        callee = self.m.codes[call.func]
        return f"call_{callee.pyname}({', '.join(['s'] + args)})"

    def _code_ref(self, code: Code) -> str:
        return self.comp._k(code, f"PROC_{code.pyname}")

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
                    comp.kinds.of(_argument(call, index, name), self.scope) != "zone":
                return None
        given = dict(zip(names, args)) | kwargs
        for name, default in builtin.optional:
            given.setdefault(name, comp._k(default))
        comp._bind_names(written)
        return written.direct.format(span=span, **given)

    def s_Return(self, st, ind, out):
        value = self.comp.src(st.value, self.scope) if st.value is not None else None
        if self.resumable:
            out.extend(_returned(value, ind, st.span))
        else:
            out.append((ind, Exit(f"return {value}"), st.span))

    def s_Assert(self, st, ind, out):
        """``assert test, message``: the game fails on this line (RK4019) when the test is false."""
        comp = self.comp
        message = comp.src(st.message, self.scope) if st.message is not None else \
            comp._k(f"assertion failed: `{_span_text(st.test.span) or 'assert'}`")
        out.append((ind, f"if not {comp.src(st.test, self.scope)}:", st.span))
        out.append((ind + 1, f"ASSERT({message})", st.span))

    def s_branches(self, shape: lowering.Branches, ind, out):
        first = True
        for cond_node, body in shape.tests:
            kw = "if" if first else "elif"
            first = False
            out.append((ind, f"{kw} {self.comp.src(cond_node, self.scope)}:", cond_node.span))
            self._body(body, ind + 1, out)
        if shape.orelse:
            out.append((ind, "else:", None))
            self._body(shape.orelse, ind + 1, out)

    def _body(self, body, ind, out):
        before = len(out)
        self.stmts(body, ind, out)
        if len(out) == before:
            out.append((ind, "pass", None))

    def s_loop(self, shape: lowering.Loop, ind, out):
        if shape.walks is not None:
            var = self._target_name(shape.var)
            out.append((ind, f"for {var} in {self._iter(shape.walks)}:", shape.walks.span))
        else:
            cond = "True" if shape.test is None else self.comp.src(shape.test, self.scope)
            out.append((ind, f"while {cond}:", shape.test_span))
        self._tick(ind + 1, shape, out)
        self.loops.append(("py",))
        self._body(shape.body, ind + 1, out)
        self.loops.pop()

    def _iter(self, node, kept=False) -> str:
        """What a `for` walks: a snapshot of the list or zone (moving items while looping is safe),
        or a range as it is, unless the loop is ``kept`` in the frame (a tuple, which clones and saves)."""
        if self.comp.kinds.of(node, self.scope) in ("list", "zone"):
            walked = None if kept else self.comp.walked_src(node, self.scope)
            return walked if walked is not None else f"(*{self.comp.seq_src(node, self.scope)},)"
        return f"ITER(s, {self.comp.src(node, self.scope)})"

    def _target_name(self, name: str) -> str:
        """Where a loop variable lives: a Python local, or the frame's env."""
        if name in self.scope.py:
            return self.scope.py[name]
        return f"e[{self.comp._k(self.scope.key(name))}]"

    def _tick(self, ind, loop: lowering.Loop, out):
        """Each pass of a loop spends steps of the budget that stops a loop that never ends."""
        weight = 1 + len(loop.body)
        out.append((ind, f"s.budget -= {weight}", loop.span))
        out.append((ind, f"if s.budget < 0: LIMIT(s, {self.comp._k(self.code.name)}, {self.comp._k(loop.span)})",
                    loop.span))

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
            out.append((ind, what, st.span))
        else:
            out.append((ind, Jump(loop[2] if what == 'break' else loop[1]), st.span))
            out.append((ind, CONTINUE, st.span))

    def s_Choose(self, st, ind, out):  # pragma: no cover - a choose always makes its procedure resumable
        raise AssertionError("choose outside a resumable procedure")


def _listing_parts(st):
    """(node, names bound there) of each part of a `choose` its listing of options reads: the
    player, the options' collections, tests and keys, and the arguments of option groups."""
    yield st.player, frozenset()
    for opt in st.options:
        if isinstance(opt, ast.Include):
            yield from ((arg, frozenset()) for arg in opt.args)
            continue
        bound = frozenset(name for name, _coll in opt.fors)
        yield from ((coll, bound) for _name, coll in opt.fors)
        yield from ((part, bound) for part in (opt.cond, opt.by) if part is not None)


def _block_function(lines: list) -> list:
    """A block's lines (written at depth 3, inside ``while True:`` and an ``if pc == N:``) as the
    body of a function of its own: going to block N (``pc = N`` then ``continue``, or falling
    through to the next block) returns N."""
    out: list = []
    for ind, text, span in lines:
        if text is CONTINUE:
            last = out[-1] if out else None
            if last is not None and last[0] == ind - 2 and isinstance(last[1], Jump) and not last[1].frame:
                out[-1] = (ind - 2, Exit(f"return {last[1].target}"), last[2])
            else:
                out.append((ind - 2, Exit("return pc"), span))
            continue
        out.append((ind - 2, text, span))
    last = out[-1] if out else None
    if last is not None and last[0] == 1 and isinstance(last[1], Jump) and not last[1].frame:
        out[-1] = (1, Exit(f"return {last[1].target}"), last[2])
    elif last is None or last[0] != 1 or not isinstance(last[1], Exit):
        out.append((1, Exit("return pc"), None))
    return out


def _returned(value: str | None, ind: int, span) -> list:
    """The lines that return from a resumable procedure's frame (the top one) with ``value``:
    the frame comes off and, where the caller stores the value (``x = proc()``: ``f.ret``), it
    goes into the caller's locals; False tells the caller's ``runtime.call`` it returned. The
    value is worked out first: one that fails leaves the frame where it was."""
    lines = []
    if value is not None:       # (None: a bare `return`, or the end of the procedure)
        lines.append((ind, f"_v = {value}", span))
        value = "_v"
    return lines + [(ind, "s.frames.pop()", span),
                    (ind, "if f.ret is not None and s.frames:", span),
                    (ind + 1, f"s.frames[-1].env[f.ret] = {value}", span),
                    (ind, Exit("return False"), span)]


class _Clause(NamedTuple):
    """One ``for`` of an option as generated code walks it: ``guard`` is tested before the loop
    and ``test`` on each item (None where there is none); ``shared`` is the source of the
    collection, written where options share it, and ``same`` what says which value it is: a call
    and where each name it reads lives (``_share_heads``; None: not a call's value)."""
    var: str
    src: str
    guard: str | None = None
    test: str | None = None
    shared: str | None = None
    same: tuple | None = None


_LEAF_BLOCKS = 4        # blocks tested one by one (a range test pays beyond a few)


@passes.step("threading")
def _threaded(blocks: list) -> list:
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


def _whereabouts(node, scope: Scope) -> tuple:
    """Where each name ``node`` reads lives in ``scope`` (a Python variable, a slot of the frame,
    the game's): the same expression at two places is the same value when this is the same."""
    where = []
    for name in sorted(free_names(node)):
        if name in scope.py:
            where.append((name, "py", scope.py[name]))
        elif name in scope.alias or name in scope.locals:
            where.append((name, "env", scope.key(name)))
        else:
            where.append((name, "game", name))
    return tuple(where)


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
        return Py(f"l_{name}", NAME)
    return Py(f"l_{py_identifier(name)}_{zlib.crc32(name.encode())}", NAME)


def _called(body, procedures) -> set:
    return {n.func for n in ast.walk(body) if isinstance(n, ast.Call) and n.func in procedures}


FLAT_DEPTH = 15


def _may_stop(node, codes: dict, procedures) -> bool:
    """Whether running ``node`` may stop for a decision: a `choose`, or a call of a procedure
    that may."""
    return any(isinstance(n, ast.Choose) or (isinstance(n, ast.Call) and n.func in procedures
                                              and n.func in codes and codes[n.func].stops)
               for n in ast.walk(node))


def _in_cycles(calls: dict) -> set:
    """Procedures that can reach themselves through calls."""
    out = set()
    for start in calls:
        seen: set = set()
        stack = list(calls[start])
        while stack:
            name = stack.pop()
            if name == start:
                out.add(start)
                break
            if name in seen or name not in calls:
                continue
            seen.add(name)
            stack.extend(calls[name])
    return out


def _fixed_verb(label) -> str | None:
    """The first word of an option's notation where its text fixes it (``"bid {n}"``: bid),
    so counting what was played needs no notation written; else None."""
    if isinstance(label, ast.Str):
        return label.value.split(" ", 1)[0]
    if isinstance(label, ast.Template) and label.parts and isinstance(label.parts[0], str) and " " in label.parts[0]:
        return label.parts[0].split(" ", 1)[0]
    return None
