# SPDX-License-Identifier: MIT
"""Check effect-language expressions and write them as Python source.

Checking and writing are one walk on purpose: both must resolve every name in the same scope,
and doing it once means the checker can never disagree with what runs. Every problem is
collected as a :class:`Diagnostic` (unknown names with "did you mean", wrong argument counts,
effects used as values, assignments to constants) and writing carries on with a placeholder,
so an author sees all mistakes at once.

The ``x_NAME`` methods return the Python source of an expression (``dsl/pysource.Py`` where the
compiler knows what the source is); a content function becomes a function of the game's
generated module (loops.py writes its body), and dsl/codegen.py writes procedures and the flow
with this compiler's expressions. The optimisations are named passes (dsl/passes.py), each
gated in the one function that does it; the compiler is made of parts that each hold some of
them: calls.py (calls of content functions), forms.py (built-ins' own forms), tallies.py
(counts from kept tallies) and loops.py (reductions as loops). What the content says, found
before and apart from any code being written, is asked of ``inlining`` (dsl/analysis.py: which functions are written in
place) and ``kinds`` (dsl/kinds.py: which values are certainly lists, zones, items); what the
code written so far knows lives in ``at`` (dsl/writing.py), the names the module binds in
``names``, and what compiling made in ``out``. Nothing here runs at game time except the
generated code, which never looks at the AST again.
"""
from __future__ import annotations

import ast as pyast
from collections.abc import Callable

import attrs

from ..codes import (
    ASSIGNED_CONSTANT,
    BAD_ASSIGNMENT_TARGET,
    BY_NOT_TAKEN,
    EFFECT_AS_VALUE,
    IN_ON_FAMILY,
    KEYWORD_TWICE,
    MISSING_ARGUMENT,
    NAMED_NOT_CALLED,
    PROCEDURE_IN_EXPRESSION,
    TEXT_TOO_LONG,
    TOO_COMPLEX,
    UNCHANGEABLE_ATTRIBUTE,
    UNKNOWN_ATTRIBUTE,
    UNKNOWN_FUNCTION,
    UNKNOWN_KEYWORD,
    UNKNOWN_NAME,
    WRONG_ARGUMENT_COUNT,
)
from ..engine import expressions, mutate
from ..engine.library import REGISTRY
from ..engine.limits import MAX_SIZE
from ..engine.state import Family
from ..errors import Diagnostic, suggestion_help
from ..source import Span
from . import (
    ast,
    calls,
    check_names,
    check_statements,
    code_cache,
    forms,
    ir,
    passes,
    printer,
    pysource,
    tallies,
    templates,
    verify,
)
from .analysis import Inlining, asked_again, inlining
from .check_names import unsaid
from .ir import code
from .kinds import Kinds, is_item, name_of
from .pysource import NONE, SLOT, literal, py_identifier
from .scope import Scope
from .visit import bound_names, free_names, methods
from .writing import MaybeRuns, Reuse, Writing

Fn = Callable  # (state, env) -> value

PLAYER_ATTRS = ("seat",)


@attrs.define
class Vocabulary:
    """Every name content may use, gathered from the game's files."""

    gvars: set = attrs.Factory(set)             # assignable globals
    constants: set = attrs.Factory(set)          # read-only globals (params, players, ...)
    fixed: dict = attrs.Factory(dict)            # params of one written number, truth value or text:
                                                 # name -> value, written into the code as it is
    zones: dict = attrs.Factory(dict)            # name -> ZoneKey
    families: dict = attrs.Factory(dict)         # name -> Family
    pvars: set = attrs.Factory(set)
    pzones: dict = attrs.Factory(dict)           # name -> tuple[ZoneKey] by seat
    sets: dict = attrs.Factory(dict)             # name -> tuple of members
    members: dict = attrs.Factory(dict)          # member -> props
    member_props: set = attrs.Factory(set)
    item_props: set = attrs.Factory(set)         # static
    dynamic_props: set = attrs.Factory(set)      # changeable per item
    prop_defaults: dict = attrs.Factory(dict)    # changeable prop -> its value until set
    items: dict = attrs.Factory(dict)            # id -> props
    kinds: set = attrs.Factory(set)              # component kind names
    item_kind: dict = attrs.Factory(dict)        # item id -> its component kind
    kind_props: dict = attrs.Factory(dict)       # component kind -> the properties its items have (printed, state)
    tables: dict = attrs.Factory(dict)           # name -> plain data
    functions: dict = attrs.Factory(dict)        # name -> (params, ast expr)
    procedures: dict = attrs.Factory(dict)       # name -> params
    seat_params: dict = attrs.Factory(dict)      # procedure or `group:NAME` -> the params every call gives a player
    bounds: dict = attrs.Factory(dict)           # (variable, per player) -> (min, max), where bounded
    # (variable, per player) whose every value is a whole number: it starts as one and is bounded, so
    # every store is refused unless it gives one (mutate.variable_setter, Compiler.store_lines)
    numbers: frozenset = frozenset()
    option_groups: dict = attrs.Factory(dict)    # name -> (params, tuple of ast.Option)
    prop_reads: dict = attrs.Factory(dict)       # item property -> spans reading it (content/properties.py)
    prop_asked: set = attrs.Factory(set)         # properties named in a `has`-like built-in's literal


@attrs.define
class Findings:
    """What compiling found and made, read afterwards (model.py, testing/coverage.py)."""
    diagnostics: list = attrs.Factory(list)
    writer_found: list = attrs.Factory(list)    # what the front end decides, met again while writing (error)
    functions_impl: dict = attrs.Factory(dict)  # content function -> its Python function (when the module loads)
    function_defs: list = attrs.Factory(list)   # (name, python name, params, body lines, span, reused locals)
    used_procedures: set = attrs.Factory(set)
    roll_streams: set | None = attrs.Factory(set)  # streams `roll` draws from (None: some only running tells)
    inlined_at: dict = attrs.Factory(dict)      # content function -> spans of the calls written in place
    props_named: dict = attrs.Factory(dict)     # built-in -> {what its first argument names: {literal property}}
    secrets_of: dict = attrs.Factory(dict)      # content function -> the secrets it reads (_function_secrets)


@attrs.define
class ModuleNames:
    """The names of the generated module's namespace the compiler made, each made once."""
    # how many names each stem has given (`v_p`, then `v_p_2`), and every name made: a name says
    # what it is for, and is numbered only among its own stem's, so a rule added to one section
    # renames nothing in the others
    stems: dict = attrs.Factory(dict)
    made: set = attrs.Factory(set)
    locals_made: dict = attrs.Factory(dict)  # the Python locals of the function being written -> their stems
    constants: dict = attrs.Factory(dict)   # (class, value) -> the name a constant is bound under (constant)
    functions: dict = attrs.Factory(dict)   # source -> a small function compiled from it (define)
    callers: dict = attrs.Factory(dict)     # content function -> the name of its caller (_memoised)
    setters: dict = attrs.Factory(dict)     # (variable, per player) -> the name of its setter
    sets: dict = attrs.Factory(dict)        # set -> the name of its list
    by_seat: dict = attrs.Factory(dict)     # function -> the name of its table by seat (_looked_up_by_seat)
    readers: dict = attrs.Factory(dict)     # (attribute, its paths) -> the name of its reader (x_Attr)
    scratches: dict = attrs.Factory(dict)   # stem -> the function's local for a value used at once (scratch)
    content: set = attrs.Factory(set)       # the function's locals carrying a content name (variable), not let go

    def fresh(self, stem: str, taken=()) -> str:
        """A new name from ``stem``: the stem itself, then ``stem_2``, ``stem_3``... (``K1``,
        ``K2``... for plain constants), never one made before nor one of ``taken``."""
        n = self.stems.get(stem, 0)
        while True:
            n += 1
            name = f"K{n}" if stem == "K" else stem if n == 1 else f"{stem}_{n}"
            if name not in self.made and name not in taken:
                break
        self.stems[stem] = n
        self.made.add(name)
        return name

    def local(self, stem: str) -> str:
        """A new Python local of the function being written (``v_p``, ``v_p_2``)."""
        name = self.fresh(stem)
        self.locals_made[name] = stem
        return name

    def variable(self, stem: str) -> str:
        """A new Python local of the function being written for a content name (``v_p``)."""
        name = self.local(stem)
        self.content.add(name)
        return name

    def variables(self) -> frozenset:
        """The locals ``variable`` made in the function being written that are not let go yet:
        those live, and those of loops written that nothing let go of (``Scope.let_go``)."""
        return frozenset(self.content)

    def scratch(self, stem: str) -> str:
        """A Python local of the function being written for a value used on the next lines alone
        (a store's player and value, ``Compiler.store_lines``): made once per function, as
        ``local`` makes it, and used again by every such value of the stem, each dead before the
        next is given."""
        found = self.scratches.get(stem)
        if found is None:
            found = self.scratches[stem] = self.local(stem)
        return found

    def forget(self, names) -> None:
        """The locals ``names`` are dead from here on (an option's own variables, once its loops
        are written): a later value may be given one of them again."""
        for name in map(str, names):
            stem = self.locals_made.pop(name, None)
            if stem is not None:
                self.content.discard(name)
                self.made.discard(name)
                self.stems.pop(stem, None)

    def release(self, stem: str) -> None:
        """The locals of ``stem`` made so far in the function being written are dead (a value read
        twice within one statement, ``Compiler._twice``): the next statement numbers its own from
        the stem again."""
        self.forget([name for name, made in self.locals_made.items() if made == stem])

    def new_function(self) -> None:
        """A content function or a procedure is written from here: its locals are its own, so
        they are numbered from the start (``v_p`` in each), and no other's changes them."""
        self.forget(list(self.locals_made))
        self.scratches.clear()


class Compiler:
    def __init__(self, vocab: Vocabulary, static_memo: dict | None = None, inlined: Inlining | None = None):
        self.v = vocab
        self.passes = passes.current()      # the optimisations switched on (dsl/passes.py)
        # Functions that read no part of the state (dsl/reads.py), name -> results: they depend
        # on the arguments and the player count only, so they are remembered for the whole game
        # definition, across states and clones, and never forgotten.
        self.static_memo: dict = static_memo if static_memo is not None and self.passes.on("memo") else {}
        self.out = Findings()             # what compiling found and made, for the model and coverage
        self.names = ModuleNames()        # the names generated code gives what it reads
        # what the content says of its functions and values, found apart from writing code
        self.inlining = inlined if inlined is not None else inlining(vocab, self.static_memo, self.passes.on("inline"))
        self.kinds = Kinds(vocab, self.passes.on("kinds"))
        self.at = Writing()               # what the code being written knows so far
        self.ns: dict = expressions.namespace(vocab.items)
        # the front end (check.FrontEnd): called with each text before it is written; None for a
        # compiler of texts checked elsewhere
        self.front_end = None

    # ------------------------------------------------------------ diagnostics
    def error(self, code: str, message: str, span: Span, help: str | None = None) -> None:
        """A mistake met while writing; one the front end decides (check_names.DECIDED) is only
        kept aside, to be matched with what the front end said (check_names.unsaid)."""
        diagnostic = Diagnostic(code, message, span, help=help)
        found = self.out.writer_found if code in _FRONT_END_DECIDES else self.out.diagnostics
        if diagnostic not in found:  # `x.a += 1` checks its target twice (read and write)
            found.append(diagnostic)

    def diagnostics(self) -> list:
        """What this compiler's texts hold: the front end's and the writer's findings, and what
        the writer met that the front end did not say (none, unless rulekit has a bug)."""
        return self.out.diagnostics + unsaid(self.out.diagnostics, self.out.writer_found)

    def _all_names(self, scope: Scope) -> set:
        v = self.v
        return (scope.locals | set(scope.py) | v.gvars | v.constants | set(v.zones) | set(v.families) | set(v.sets)
                | set(v.members) | set(v.tables))

    # ------------------------------------------------------------ expressions
    # Expressions compile to Python source over a private namespace, one function per
    # top-level expression: `count(x for x in p.hand if x.suit == s)` runs as one
    # Python comprehension, not a tree of closure calls. Only names this compiler made
    # (`Z_deck`, `v_c`, a few helpers) and checked operators appear in the source; every value from
    # content (text, numbers, tables) is bound in the namespace, never spliced in.
    def expr(self, node, scope: Scope) -> Fn:
        """A ``(state, env) -> value`` function for a checked expression (a score, an estimate,
        a condition of a tool): like a function body, it asks a repeated question once."""
        if self.front_end is not None:
            self.front_end(node, frozenset(scope.locals) | frozenset(scope.py) | frozenset(scope.alias), False)
        with tallies.listing(self, None):        # a function of its own: no listing's locals
            return self._expr(node, scope)

    def _expr(self, node, scope: Scope) -> Fn:
        if self.at.reuse is not None:     # inside another compilation: no plan of its own
            return self._function(("s", "e"), self.src(node, scope), node.span)
        node = calls._written_out(self, node, frozenset(scope.locals) | frozenset(scope.py) | frozenset(scope.alias)
                                 | bound_names(node))
        source, reused = self._with_reuse(node, scope, set())
        if not reused:
            return self._function(("s", "e"), source, node.span)
        return self.define(("s", "e"), [ir.assigned(reused, ir.name("UNSET")), ir.stmt("return $0", source)],
                           node.span, "expression", "split it into smaller functions")

    def src(self, node, scope: Scope) -> str:
        if self.at.lowered:
            found = self.at.lowered.get(id(node))
            if found is not None:
                return found
        method = _WRITERS[type(node)].__get__(self)      # every expression class has one (checked on import)
        reuse = self.at.reuse
        slot = reuse.plan.get(node) if reuse is not None and reuse.plan else None
        if slot is not None and not self.at.in_iterable and self._unshadowed(node, scope):
            return self._reused_value(slot, node, scope, method)
        if type(node) in _IN_ORDER:
            return method(node, scope)
        return self._branch(method, node, scope)

    def typed_as(self, node, scope: Scope | None = None) -> str | None:
        """What the front end found ``node``, a name of the text's own, holds ("seat", "item",
        "item:card", "number"...; check.FrontEnd.typed), or, for a name ``scope`` holds in a Python
        variable, what the writer knows that variable holds (a content function's parameter written
        in place, given a player: ``calls._user_function_call``), while the ``typed`` pass is on: a
        value known to be a player or an item needs no test of its class where it is read."""
        if "typed" in self.passes.off or self.front_end is None or not isinstance(node, ast.Name) \
                or node.span is None:
            return None
        span = node.span
        found = self.front_end.typed.get((span.path, span.line, span.column))
        if found is None and scope is not None and node.id in scope.py:
            return "seat" if scope.kinds.get(("py", str(scope.py[node.id]))) == "seat" else None
        return found

    def maybe_runs(self, when: bool = True) -> MaybeRuns:
        """``with self.maybe_runs():`` around writing a part that may run later than where it is
        written, or not at all (the right of an ``and``, a comprehension's body, a built-in's own
        form, a later ``for``): a value it works out is not known to be there for the parts
        after it (``_reused_value``). ``when`` false: it runs where it stands after all."""
        return MaybeRuns(self.at.reuse, when)

    def _branch(self, method, *args):
        """``method(*args)`` written as a part that may not run (``maybe_runs``)."""
        with self.maybe_runs():
            return method(*args)

    def seq_src(self, node, scope) -> str:
        """Source of the items of a list or zone (``SEQ`` only where the kind is not certain)."""
        kind = self.kinds.certain(node, scope)
        if kind == "list":
            return self.src(node, scope)
        if kind == "zone":
            return code("s.zones[$0]", self.src(node, scope))
        source = self.src(node, scope)
        twice = self._twice(source)
        if twice is None:
            return code("SEQ(s, $0)", source)
        first, again = twice                # look before calling
        return code("$0 if $1.__class__ is LIST else SEQ(s, $0)", again, first)

    def iterable_src(self, node, scope) -> str:
        """``seq_src`` of what a comprehension walks: Python allows no ``:=`` in a comprehension's
        iterable, so no value is stored by its first read there (``_twice``, ``_reused_value``)."""
        self.at.in_iterable += 1
        try:
            return self.seq_src(node, scope)
        finally:
            self.at.in_iterable -= 1

    def _twice(self, source: str):
        """(first read, later reads) of a value generated code reads more than once: a Python
        variable or a literal is itself; anything else is stored in a local of its own by the read that runs
        first. None inside a comprehension's iterable, where Python allows no such store. The first
        read may stand before an attribute (built-ins' forms test ``{first}.__class__``): a number
        is put in parentheses there (``1.__class__`` is no Python)."""
        if pysource.is_variable_or_literal(source):
            return ir.standing(source), source
        if self.at.in_iterable:
            return None
        temp = self._temp("_t")
        return code("($0 := $1)", temp, source), temp

    def _reused_value(self, slot: str, node, scope, method) -> str:
        """A value the function asks for more than once (``_reuse_plan``): worked out where it is
        first certainly reached (``(_r1 := ...)``), read as ``_r1`` after that; where it is first
        reached only maybe, the local starts as UNSET and each such place checks it."""
        reuse = self.at.reuse
        if slot in reuse.known:
            return slot
        value = method(node, scope) if type(node) in _IN_ORDER else self._branch(method, node, scope)
        if reuse.branches == 0:
            reuse.known.add(slot)
            if slot not in reuse.reused:
                return code("($0 := $1)", slot, value)
        else:
            reuse.reused.add(slot)
        return code("$0 if $0 is not UNSET else ($0 := $1)", slot, value)

    # A function body is one pure expression over an unchanging state, so a call or a list
    # it asks for twice, or inside a comprehension without using the comprehension's
    # variables, has one value: it is worked out the first time it is needed and kept in a
    # local of the function (`(_r1 if _r1 is not UNSET else (_r1 := ...))`), as one would
    # write by hand. The first time, not before: `a and f(x)` still skips f when a is false.
    @passes.step("reuse")
    def _reuse_plan(self, body) -> dict:
        if "reuse" in self.passes.off:
            return {}
        return {node: ir.name(f"_r{k}") for k, node in enumerate(asked_again(body, self.v), 1)}

    def _with_reuse(self, node, scope, params: set, write=None) -> tuple:
        """(source of ``node``, the local slots it reuses) for a whole expression whose Python
        parameters are ``params`` (written by ``write``, by default ``src``)."""
        saved, reuse = self.at.reuse, Reuse(self._reuse_plan(node), params)
        self.at.reuse = reuse
        try:
            source = (write or self.src)(node, scope)
            return source, tuple(sorted(reuse.reused, key=lambda slot: int(slot[2:])))
        finally:
            self.at.reuse = saved       # (a function written while another is: the other's plan goes on)

    def _unshadowed(self, node, scope) -> bool:
        """No name in ``node`` means a comprehension variable here (only the function's own
        parameters and the game's names)."""
        for name in free_names(node):
            py = scope.py.get(name)
            if py is not None and py not in self.at.reuse.params:
                return False
        return True

    def constant(self, value, hint: str = "K") -> str:
        """The source of a constant: numbers, truth values and plain identifiers are written
        as literals (they cannot carry code); anything else is bound in the namespace under
        a name of its own (``hint`` makes generated code readable), never spliced as text."""
        if type(value) is int or value is None or value is True or value is False:
            return literal(value)
        if type(value) is str and _literal_text(value):
            return literal(value)
        try:
            key = (type(value), value)
            name = self.names.constants.get(key)
        except TypeError:  # unhashable (a table, a list): one name for the one object, which the namespace keeps
            key = ("object", id(value))
            name = self.names.constants.get(key)
        if name is None:
            name = self.names.fresh(hint if hint != "K" else _hint_of(value), self.ns)
            self.ns[name] = value
            self.names.constants[key] = name
        return ir.name(name)

    def _temp(self, stem: str) -> pysource.Py:
        """A fresh Python local of generated code, named after what it holds where the content
        names it (``_points``, ``_sum``), else by its use (``_t``, a value read twice), numbered
        within the function being written (``_t_2``): a variable, read as it is."""
        return ir.name(self.names.local(stem))

    def variable(self, stem: str) -> str:
        """A fresh Python identifier for a comprehension or parameter variable (``v_`` and its
        content name)."""
        return ir.name(self.names.variable(f"v_{stem}" if stem.isidentifier() and stem.isascii() else "v"))

    def _function(self, params: tuple, source: str, span) -> Fn:
        """A generated function returning the expression ``source``."""
        return self.define(params, [ir.stmt("return $0", source)], span, "expression",
                           "split it into smaller functions")

    def define(self, params: tuple, body: list, span, what: str, hint: str) -> Fn:
        """A small function ``_f(params)`` of the statement lines ``body`` (the printer's text,
        compiled once per text)."""
        text = printer.function("_f", params, [(1, line) for line in body], width=10**6)
        fn = self.names.functions.get(text)
        if fn is not None:
            return fn
        out: dict = {}
        try:
            code = code_cache.compiled(text, f"<rulekit {what}>", check=lambda source: verify.check(source, self.ns))
            exec(code, self.ns, out)  # noqa: S102 - our own source, checked (dsl/verify.py)
        except (SyntaxError, RecursionError, MemoryError) as exc:
            if not too_complex(exc):
                raise               # a bug of this compiler, not the author's mistake
            self.error(TOO_COMPLEX, f"{what} too complex to compile", span, hint)
            return lambda *args: None
        fn = self.names.functions[text] = located_code(out["_f"], span)
        return fn


    def x_Num(self, node, scope):
        return self.constant(node.value)

    def x_Str(self, node, scope):
        self._written_text(node, len(node.value))
        return self.constant(node.value)

    def x_Const(self, node, scope):
        return self.constant(node.value)

    def x_Template(self, node, scope):
        """A text with holes; each hole prints within the limits (``library.printed``) and the whole
        is checked too (``"{s}{s}"`` doubles), unless it is one hole alone."""
        self._written_text(node, sum(len(p) for p in node.parts if isinstance(p, str)))
        parts = [self.constant(p) if isinstance(p, str) else code("FMT($0)", self.src(p, scope)) for p in node.parts]
        holes, values = self._told_sources(node, scope)
        if holes:       # a hole may print what some seat may not see: the text says where (engine/redact.py)
            from ..engine import redact
            return code("$0(s, $1, $2, $3)", self.constant(redact.marked, 'MARKED'), ir.tuple_of(parts),
                        self.constant(holes, 'HOLES'), ir.tuple_of(values))
        joined = code("''.join($0)", ir.tuple_of(parts))
        if len(parts) == 1:
            return joined
        twice = self._twice(joined)
        if twice is None:
            return code("CHECKED_TEXT($0)", joined)
        first, again = twice        # library.checked_text, written out
        return code("$0 if len($1) <= MAX_SIZE else TOO_LONG($0)", again, first)

    def _told_sources(self, node, scope) -> tuple:
        """For a template: ``(holes, values)``, each hole that may print a value some seat may not
        see as ``(index of the part, ((what, name, k), ...))`` with ``values[k]`` the source of the
        value each reads (redact.marked says what it makes of them), or ``((), ())``: a hole
        reading a player's variable (``p.coins``: the seat ``p``), a global variable, an item's
        property (``c.value``: the item ``c``; ``sum(c.value for c in p.hand)``: the items of
        ``p.hand``), or a content function reading any of them. Only names and a seat's zones are
        read again for the sources (they cannot fail, draw or change anything)."""
        v = self.v
        watched = v.pvars | v.item_props | v.dynamic_props
        holes, values, index_of = [], [], {}      # index_of: a content expression -> its k
        for index, part in enumerate(node.parts):
            if isinstance(part, str):
                continue
            binders = {name: coll.value if isinstance(coll, ast.Let) else coll
                       for comp in ast.walk(part) if isinstance(comp, ast.Comp) for name, coll in comp.fors}
            found = []
            for sub in ast.walk(part):
                if isinstance(sub, ast.Attr) and sub.name in watched:
                    if isinstance(sub.obj, ast.Name) and sub.obj.id not in binders:
                        found.append(("attr", sub.name, sub.obj))
                        continue
                    if sub.name in v.pvars:
                        found.append(("var", sub.name, None))
                    found.extend(("items", None, root) for root in self._item_roots(sub.obj, binders))
                elif isinstance(sub, ast.Name) and sub.id in v.gvars and sub.id != "round" \
                        and sub.id not in binders and scope.where(sub.id)[0] == "game":
                    found.append(("global", sub.id, None))
                elif isinstance(sub, ast.Call) and sub.func in v.functions:
                    pvars, gvars, props = self._function_secrets(sub.func)
                    found.extend(("var", name, None) for name in sorted(pvars))
                    found.extend(("global", name, None) for name in sorted(gvars))
                    if props:
                        found.extend(("items", None, root) for arg in sub.args
                                     for root in self._item_roots(arg, binders))
            sources = []
            for what, name, expr in found:
                k = -1
                if expr is not None:       # the same content expression (spans aside) reads the same value
                    k = index_of.get(expr)
                    if k is None:
                        k = index_of[expr] = len(values)
                        values.append(self.src(expr, scope))
                if (what, name, k) not in sources:
                    sources.append((what, name, k))
            if sources:
                holes.append((index, tuple(sources)))
        return tuple(holes), tuple(values)

    def _item_roots(self, expr, binders: dict, depth: int = 0) -> list:
        """What the items ``expr`` reads are read from, as names (``c``) and seats' zones
        (``p.hand``) outside the hole's comprehensions (``binders``: name -> collection)."""
        out = []
        for sub in ast.walk(expr):
            if isinstance(sub, ast.Attr) and sub.name in self.v.pzones and isinstance(sub.obj, ast.Name) \
                    and sub.obj.id not in binders:
                out.append(sub)
            elif isinstance(sub, ast.Name):
                if sub.id not in binders:
                    out.append(sub)
                elif depth < 8:
                    out.extend(self._item_roots(binders[sub.id], binders, depth + 1))
        return out

    def _function_secrets(self, name: str, seen: frozenset = frozenset()) -> tuple:
        """(player variables, global variables, whether an item's property) content function
        ``name`` reads, with the functions it calls."""
        known = self.out.secrets_of
        if name in known:
            return known[name]
        params, body = self.v.functions[name]
        pvars, gvars, props = set(), set(), False
        inner = set(params) | bound_names(body)
        for sub in ast.walk(body):
            if isinstance(sub, ast.Attr):
                pvars.update((sub.name,) if sub.name in self.v.pvars else ())
                props = props or sub.name in self.v.item_props or sub.name in self.v.dynamic_props
            elif isinstance(sub, ast.Name) and sub.id in self.v.gvars and sub.id != "round" and sub.id not in inner:
                gvars.add(sub.id)
            elif isinstance(sub, ast.Call) and sub.func in self.v.functions and sub.func not in seen | {name}:
                more = self._function_secrets(sub.func, seen | {name})
                pvars |= more[0]
                gvars |= more[1]
                props = props or more[2]
        found = (frozenset(pvars), frozenset(gvars), props)
        if not seen:
            known[name] = found
        return found

    def _written_text(self, node, size: int) -> None:
        """A text written in the content is at most MAX_SIZE characters, as a built one (RK0117)."""
        if size > MAX_SIZE:
            self.error(TEXT_TOO_LONG, f"a text of {size:,} characters is too long to write (at most {MAX_SIZE:,})",
                       node.span, "keep long texts out of the rules (a `text:` field documents them)")

    def x_Name(self, node, scope):
        name = node.id
        v = self.v
        where, ref = scope.where(name)
        if where == "py":
            return ref
        if where == "env":
            return code("e[$0]", self.constant(ref), kind=SLOT, denotes=("env", ref))
        if name in v.fixed:
            return self.constant(v.fixed[name])
        if name in v.gvars or name in v.constants:
            return code("s.g[$0]", self.constant(name), kind=SLOT, denotes=("global", name))
        if name in v.zones:
            return self.constant(v.zones[name], f"Z_{py_identifier(name)}")
        if name in v.families:
            return self.constant(v.families[name], f"F_{py_identifier(name)}")
        if name in v.sets:
            found = self.names.sets.get(name)
            if found is None:       # one list per set, named after it
                found = self.names.sets[name] = self.constant(list(v.sets[name]), f"SET_{py_identifier(name)}")
            return found
        if name in v.members:
            return self.constant(name)
        if name in v.tables:
            return self.constant(v.tables[name], f"T_{py_identifier(name)}")
        if name in v.procedures or name in v.functions or name in REGISTRY:
            self.error(NAMED_NOT_CALLED, f"`{name}` is a {self._what(name)}; call it with `{name}(...)`", node.span)
        else:
            self.error(UNKNOWN_NAME, f"unknown name `{name}`", node.span,
                       suggestion_help(name, self._all_names(scope)))
        return NONE

    def _what(self, name):
        if name in self.v.procedures:
            return "procedure"
        if name in self.v.functions:
            return "function"
        return REGISTRY[name].kind

    def x_Attr(self, node, scope):
        obj = self.src(node.obj, scope)
        name = node.name
        v = self.v
        paths = []
        if name in v.pvars:
            paths.append("pvar")
        if name in v.pzones:
            paths.append("pzone")
        if name in v.dynamic_props:
            paths.append("dprop")
        elif name in v.item_props:
            paths.append("sprop")
            v.prop_reads.setdefault(name, set()).add(node.span)
        if name in v.member_props:
            paths.append("mprop")
        if not paths:
            candidates = (v.pvars | set(v.pzones) | v.item_props | v.dynamic_props | v.member_props)
            self.error(UNKNOWN_ATTRIBUTE, f"unknown attribute `{name}`", node.span, suggestion_help(name, candidates))
            return NONE
        members = v.members
        key = self.constant(name)

        def item_read(item: str) -> str | None:
            """An item's state, or its printed property (None: the name is neither)."""
            if "dprop" in paths:
                default = self.constant(v.prop_defaults.get(name), f"DEFAULT_{py_identifier(name)}")
                return code("s.iprops[$0].get($1, $2)", key, item, default)
            return code("ITEMS[$0][$1]", item, key) if "sprop" in paths else None

        typed = self.typed_as(node.obj, scope)
        if typed == "seat" and paths[0] in ("pvar", "pzone"):
            return code("s.p[$0][$1]", obj, key) if paths[0] == "pvar" else \
                code("$0[$1]", self.constant(v.pzones[name], f'PZ_{py_identifier(name)}'), obj)
        if (isinstance(node.obj, ast.Name) and scope.py.get(node.obj.id) in scope.items) or \
                self.kinds.certain(node.obj, scope) == "item" or (typed is not None and is_item(typed)):
            read = item_read(obj)       # an item for certain (it walks a zone)
            if read is not None:
                return read
        if paths == ["pvar"]:
            return code("s.p[$0][$1]", obj, key)
        if paths == ["pzone"]:
            return code("$0[$1]", self.constant(v.pzones[name], f'PZ_{py_identifier(name)}'), obj)
        if paths == ["sprop"]:
            return code("ITEMS[$0][$1]", obj, key)
        if paths == ["mprop"]:
            return code("$0[$1][$2]", self.constant(members, 'MEMBERS'), obj, key)
        reader = self.names.readers.get((name, frozenset(paths)))
        if reader is None:      # one reader of each attribute (as its paths say), named after it
            dispatch = expressions.attribute_reader(name, frozenset(paths), v.items, v.members, v.pzones.get(name))
            reader = self.names.readers[name, frozenset(paths)] = self.constant(dispatch, f'A_{py_identifier(name)}')
        twice = self._twice(obj) if "dprop" in paths or "sprop" in paths else None
        if twice is None:
            return code("$0(s, $1)", reader, obj)
        first, again = twice    # what `dispatch` does for an item, and for a seat, written out
        read = item_read(again)
        other = code("$0(s, $1)", reader, again)
        if "pvar" in paths:
            other = code("s.p[$0][$1] if $0.__class__ is PLAYER else $2", again, key, other)
        return code("$0 if $1.__class__ is STR and $2 in ITEMS else $3", read, first, again, other)

    def x_Index(self, node, scope):
        kind = self.kinds.certain(node.obj, scope)
        obj, index = self.src(node.obj, scope), self.src(node.index, scope)
        if kind == "family":
            if self._sized_family(node.obj, scope):
                return code("SPACE(s, $0, $1)", obj, index)
            return code("$0.zones.get($1) or NOSPACE($0, $1)", obj, index)
        if kind == "zone":
            return code("s.zones[$0][$1]", obj, index)
        if kind == "list":
            return code("$0[$1]", obj, index)
        return code("GETITEM(s, $0, $1)", obj, index)

    def _sized_family(self, node, scope) -> bool:
        """Whether the family ``node`` names may be sized by a parameter (its spaces depend on the game)."""
        v = self.v
        if isinstance(node, ast.Name) and node.id in v.families and not (
                node.id in scope.locals or node.id in scope.py or node.id in scope.alias):
            return v.families[node.id].bound is not None
        return any(fam.bound is not None for fam in v.families.values()) or any(
            seats and seats[0].__class__ is Family and seats[0].bound is not None for seats in v.pzones.values())

    def x_Slice(self, node, scope):
        """``xs[lo:hi]``: a new list (or text) of the items from ``lo`` up to ``hi``, as Python slices
        (a bound past either end is the end; a negative one counts from the end)."""
        obj = self.src(node.obj, scope)
        lo = self.src(node.lo, scope) if node.lo is not None else NONE
        hi = self.src(node.hi, scope) if node.hi is not None else NONE
        return code("SLICE(s, $0, $1, $2)", obj, lo, hi)

    def x_ListLit(self, node, scope):
        return code("[$*]", [self.src(i, scope) for i in node.items])

    def x_MapLit(self, node, scope):
        """A new mapping (``MAP`` checks each key is a value a mapping can be keyed by)."""
        return code("MAP($*)", [part for k, v in zip(node.keys, node.values)
                                for part in (self.src(k, scope), self.src(v, scope))])

    def x_Let(self, node, scope):
        return code("[$0]", self.src(node.value, scope))     # walked by its `for` clause: one value

    def x_Comp(self, node, scope):
        """A list comprehension. One ``for`` over a value within the limits yields no more than
        MAX_SIZE items; with two or more it may yield their product, so it is built to MAX_SIZE + 1
        items at most and refused past MAX_SIZE (``BOUNDED``: runtime.bounded)."""
        return self.comprehension(node, scope)

    def comprehension(self, node, scope, keyed: bool = False):
        """A list of ``node``'s items: ``[elt ...]``, or ``BOUNDED(elt ...)`` over two ``for``s or more
        (``keyed``: of ``(key, elt)`` pairs, its ``by``)."""
        generator = self.generator(node, scope, keyed)
        return code("BOUNDED($0)", generator) if len(node.fors) > 1 else ir.listed_from(generator)

    def generator(self, node, scope, keyed: bool = False):
        """``(elt for v in SEQ(s, xs) if cond)``: a generator of the items of a comprehension.

        A comprehension's variables are its own (as in Python) and live in Python
        variables, so `[c for c in xs]` never touches a procedure's local `c`; each `for`
        sees the variables bound by the ones before it."""
        names: dict = {}
        clauses = []
        walkers: list = []
        before = self.names.variables()
        for name, coll in node.fors:
            visible = scope.bind_py(names, walkers)
            var = self.variable(name)
            clauses.append((var, self.iterable_src(coll, visible)))
            walkers = [w for w in walkers if w != var] + ([var] if self.kinds.certain(coll, visible) == "zone" else [])
            tallies.note_member(self, var, coll, visible)
            names = dict(names)
            names[name] = var
        inner = scope.bind_py(names, walkers)
        elt = self.src(node.elt, inner)
        if node.by is not None and not keyed:
            self.error(BY_NOT_TAKEN, "`by` belongs to a generator argument of sorted, min, max or distinct",
                       node.by.span)
        elif keyed:
            elt = ir.tuple_of([self.src(node.by, inner), elt])
        generator = ir.generator(elt, clauses, self.src(node.cond, inner) if node.cond is not None else None)
        inner.let_go(self.names, self.names.variables() - before)      # its own scope's: dead once written
        return generator

    def x_BinOp(self, node, scope):
        left, right = self.src(node.left, scope), self.src(node.right, scope)
        if node.op in _CHECKED_OPS:     # exact or bounded: engine/runtime.py power, divide
            return code(_CHECKED_OPS[node.op], left, right)
        if node.op not in ("+", "-", "*", "//", "%"):  # pragma: no cover - the grammar has no others
            raise NotImplementedError(node.op)
        folded = _folded(node.op, left, right) if self.passes.on("simplify") else None
        if folded is not None:
            return folded
        if node.op in ("+", "*") and self._may_grow(node, scope):      # engine/runtime.py: MAX_SIZE, MAX_BITS
            twice = self._twice(code("$0 + $1", left, right)) if node.op == "+" else None
            if twice is None:
                return code("ADD($0, $1)" if node.op == "+" else "MUL($0, $1)", left, right)
            first, again = twice        # ADD, written out: only a text or list has a length to check
            if node.op == "+" and "list" in (self.kinds.certain(node.left, scope),
                                             self.kinds.certain(node.right, scope)):
                # a list added to anything gives a list, or fails: only its length is in doubt
                return code("$0 if len($1) <= MAX_SIZE else TOO_LONG($0)", again, first)
            return code("$0 if $1.__class__ is not STR and $0.__class__ is not LIST or len($0) <= MAX_SIZE "
                        "else TOO_LONG($0)", again, first)
        return code(_OPERATIONS[node.op], left, right)

    def _may_grow(self, node, scope) -> bool:
        """Whether ``a + b`` or ``a * b`` could build a value far larger than its operands
        (texts or lists joined with themselves, a product of large numbers): not when an
        operand is a written constant, nor a sum of numbers."""
        constant = (ast.Num, ast.Str, ast.Neg)
        if node.op == "+":
            return not (isinstance(node.left, constant) or isinstance(node.right, constant)
                        or "number" in (self.kinds.evident(node.left, scope), self.kinds.evident(node.right, scope)))
        return not (self.kinds.evident(node.left, scope) == self.kinds.evident(node.right, scope) == "number")

    def x_Compare(self, node, scope):
        a = self.src(node.left, scope)
        b = self.src(node.right, scope)
        op = node.op
        if op in _OPERATIONS:
            return code(_OPERATIONS[op], a, b)
        if self.kinds.of(node.right, scope) == "family":
            self.error(IN_ON_FAMILY, f"`{op}` cannot look inside a family of zones; test one of its spaces: "
                       f"`x {op} {name_of(node.right)}[key]`", node.span)
        kind = self.kinds.certain(node.right, scope)
        if kind == "zone":
            test = code("s.loc.get($0) is $1", a, b)
        elif kind == "list":
            test = code("$0 in $1", a, b)
        else:
            test = code("CONTAINS(s, $0, $1)", a, b)
        return test if op == "in" else code("not $0", test)

    def x_BoolOp(self, node, scope):
        return code("$0 and $1" if node.op == "and" else "$0 or $1", self.src(node.left, scope),
                    self._branch(self.src, node.right, scope))

    def x_Not(self, node, scope):
        return code("not $0", self.src(node.operand, scope))

    def x_Neg(self, node, scope):
        return code("-$0", self.src(node.operand, scope))

    def x_IfExp(self, node, scope):
        cond = self.src(node.cond, scope)       # runs first
        then, orelse = self._branch(self.src, node.then, scope), self._branch(self.src, node.orelse, scope)
        return code("$0 if $1 else $2", then, cond, orelse)

    def x_Call(self, node, scope):
        name = node.func
        v = self.v
        if name in v.functions:
            return calls._user_function_call(self, node, scope)
        if name in v.procedures:
            self.error(PROCEDURE_IN_EXPRESSION,
                       f"procedure `{name}` can only be called as a statement or as `x = {name}(...)`",
                       node.span, "procedures may ask players to decide, so they cannot run inside an expression")
            return NONE
        builtin = REGISTRY.get(name)
        if builtin is None:
            candidates = set(v.functions) | set(v.procedures) | set(REGISTRY)
            self.error(UNKNOWN_FUNCTION, f"unknown function `{name}`", node.span, suggestion_help(name, candidates))
            return NONE
        if builtin.kind == "effect":
            self.error(EFFECT_AS_VALUE, f"effect `{name}` changes the game and cannot be used as a value", node.span,
                       f"write it as a statement of its own: `{builtin.signature}`")
            return NONE
        if builtin.names is not None:
            self._note_named(builtin, node)
        if node.args and isinstance(node.args[0], ast.Comp) and node.args[0].by is not None:
            return self._branch(forms._keyed, self, builtin, node, scope)
        fast = self._branch(forms._form, self, builtin, node, scope) if builtin.form is not None else None
        if fast is not None:
            return fast
        # positional arguments run in order; keyword ones may be moved among them (bind_args)
        args, kwargs = self.bind_args(builtin, node, scope, self.src, lambda n, sc: self._branch(self.src, n, sc))
        impl = self.constant(builtin.impl, f'B_{name}')
        written = templates.template(name)
        if written.seated is not None and len(args) == 1 and not kwargs and \
                self.typed_as(node.args[0], scope) == "seat":
            forms.bind_template_names(self, written)
            return code(written.seated, args[0])
        if written.plain is not None and len(args) == 1 and not kwargs and self.passes.on("forms"):
            forms.bind_template_names(self, written)
            return code(written.plain, args[0])
        twice = self._twice(args[0]) if written.inline is not None and not kwargs and len(args) == 1 \
            and self.passes.on("forms") else None
        if twice is not None:
            first, again = twice
            forms.bind_template_names(self, written)
            return code(written.inline, again, first, code("$0(s, $1)", impl, again))
        return ir.call(impl, [ir.name("s"), *args], kwargs)


    def _note_named(self, builtin, node) -> None:
        """What a literal argument that names a property names (``props_named``, ``prop_asked``:
        the facts the model and the bots read). Whether it is one the game has, the front end
        says (check_names._named)."""
        v = self.v
        named = builtin.named or builtin.params[0]
        position = builtin.params.index(named)
        arg = node.args[position] if len(node.args) > position else dict(node.kwargs).get(named)
        if builtin.names == "props" and isinstance(arg, ast.Str):
            v.prop_asked.add(arg.value)
            first = node.args[0] if node.args else None      # `p.land` names `land`; anything else, None
            on = first.id if isinstance(first, ast.Name) else first.name if isinstance(first, ast.Attr) else None
            self.out.props_named.setdefault(builtin.name, {}).setdefault(on, set()).add(arg.value)


    def bind_args(self, builtin, node, scope, compile_arg=None, compile_kwarg=None):
        """Check a call against a signature; returns (positional args, keyword args),
        each compiled by ``compile_arg`` (closures by default, or source; keyword arguments
        by ``compile_kwarg`` where given)."""
        compile_arg = compile_arg or self.expr
        compile_kwarg = compile_kwarg or compile_arg
        names = list(builtin.params) + [n for n, _ in builtin.optional]
        args = [compile_arg(a, scope) for a in node.args]
        kwargs = {}
        if len(node.args) > len(names):
            self.error(WRONG_ARGUMENT_COUNT, f"`{builtin.name}` takes at most {len(names)} argument"
                       f"{'s' if len(names) != 1 else ''}, got {len(node.args)}", node.span,
                       f"the signature is `{builtin.signature}`")
            args = args[:len(names)]
        given = set(names[:len(node.args)])
        for key, value in node.kwargs:
            if key not in names:
                self.error(UNKNOWN_KEYWORD, f"`{builtin.name}` has no argument `{key}`", value.span,
                           suggestion_help(key, names) or f"the signature is `{builtin.signature}`")
                continue
            if key in given:
                self.error(KEYWORD_TWICE, f"argument `{key}` of `{builtin.name}` given twice", value.span)
                continue
            given.add(key)
            kwargs[key] = compile_kwarg(value, scope)
        if builtin.pins is not None:
            self._note_stream(builtin, node, names)
        missing = [p for p in builtin.params if p not in given]
        if missing:
            self.error(MISSING_ARGUMENT, f"`{builtin.name}` is missing argument `{missing[0]}`", node.span,
                       f"the signature is `{builtin.signature}`")
        # required params given by keyword become positional, so impls stay simple
        positional = list(args)
        for pname in builtin.params[len(args):]:
            if pname in kwargs:
                positional.append(kwargs.pop(pname))
        return positional, kwargs

    def _note_stream(self, builtin, node, names) -> None:
        """Which random streams a script may pin (``roll_streams``; None once a stream is named
        by a value only running can tell)."""
        given = dict(zip(names, node.args))
        given.update(node.kwargs)
        arg = given.get(builtin.pins)
        if arg is None:
            stream = dict(builtin.optional).get(builtin.pins)
        else:
            stream = arg.value if isinstance(arg, ast.Str) else None
        if stream is None:
            self.out.roll_streams = None
        elif self.out.roll_streams is not None:
            self.out.roll_streams.add(stream)

    # ------------------------------------------------------------- statements
    # (procedures are written as Python by dsl/codegen.py; it checks calls and stores through these)
    def setter(self, name: str, per_player: bool) -> str:
        """The source name of the setter of player (``per_player``) or global variable ``name``
        (``mutate.variable_setter``: one per variable)."""
        key = (name, per_player)
        found = self.names.setters.get(key)
        if found is None:
            hint = f"SET_{'p' if per_player else 'g'}_{py_identifier(name)}"
            found = self.names.setters[key] = self.constant(mutate.variable_setter(name, per_player), hint)
        return found

    def store_lines(self, target, scope, value: str) -> list:
        """Lines ``(indent, text)`` storing ``value`` into ``target``. A variable is stored in place
        where the game keeps no record and remembers nothing and the value is a whole number within
        the variable's bounds, the common case; anything else goes through its setter
        (mutate.variable_setter: the event, what to forget, the bounds' errors)."""
        v = self.v
        per_player = isinstance(target, ast.Attr) and target.name in v.pvars and target.name not in v.dynamic_props
        name = target.name if per_player else getattr(target, "id", None)
        if not (per_player or (name in v.gvars and name not in scope.locals and name not in scope.alias)):
            return [(0, self.store_statement(target, scope, value))]
        low, high = v.bounds.get((name, per_player), (None, None))
        if not all(bound is None or bound.__class__ is int for bound in (low, high)):
            return [(0, self.store_statement(target, scope, value))]
        lines = []
        obj = NONE
        if per_player:
            obj = self.src(target.obj, scope)     # worked out before the value, as the setter's call does
            if pysource.kind(obj) != pysource.NAME:
                local = ir.name(self.names.scratch("_whose"))
                lines.append((0, ir.stmt("$0 = $1", local, obj)))
                obj = local
        fits = self._fits(value, low, high)
        if fits or pysource.kind(value) == pysource.NAME:
            local = value           # read as it is: a literal, or a Python variable
        else:
            local = ir.name(self.names.scratch(f"_{py_identifier(name)}"))
            lines.append((0, ir.stmt("$0 = $1", local, value)))
        if fits:                # a literal the variable may hold: nothing to test of it
            test = []
        elif low is None and high is None:    # any value but a list or a zone (the memo notes where those go)
            test = [code("$0.__class__ in PLAIN_VALUE", local)]
        else:
            test = [code("$0.__class__ is INT", local)] + [code("$0 <= $1", literal(low), local)] * (low is not None) \
                + [code("$0 <= $1", local, literal(high))] * (high is not None)
        row = code("s.p[$0]", obj) if per_player else code("s.g")
        lines.append((0, ir.stmt("if $0 and not s.record and not s.memo:", ir.all_of(test)) if test
                      else ir.stmt("if not s.record and not s.memo:")))
        lines.append((1, ir.stmt("$0[$1] = $2", row, self.constant(name), local)))
        lines.append((0, ir.ELSE))
        lines.append((1, ir.stmt("$0(s, $1, $2, $3)", self.setter(name, per_player), obj, local,
                                 self.constant(target.span))))
        return lines

    def _fits(self, value, low, high) -> bool:
        """``value`` is a literal a variable within ``low``..``high`` (None: no bound, and then any
        plain value) may hold as it is, while the ``stores`` pass is on."""
        if "stores" in self.passes.off or not pysource.is_literal(value):
            return False
        held = pyast.literal_eval(ir.tree_of(value))
        if low is None and high is None:
            return True         # a number, a text, a truth value or none: each is plain (PLAIN_VALUE)
        return held.__class__ is int and (low is None or low <= held) and (high is None or held <= high)

    def store_statement(self, target, scope, value: str) -> str:
        """The source of a statement storing ``value`` (source) into ``target``."""
        v = self.v
        span = self.constant(target.span)
        if isinstance(target, ast.Name):
            name = target.id
            if name in scope.alias:
                return ir.stmt("e[$0] = $1", self.constant(scope.alias[name]), value)
            if name in v.gvars and name not in scope.locals:
                return ir.stmt("$0(s, None, $1, $2)", self.setter(name, False), value, span)
            if name in v.constants:
                self.error(ASSIGNED_CONSTANT, f"`{name}` is a constant and cannot be changed", target.span,
                           "declare it under `vars:` if it changes during the game")
            elif name in v.zones or name in v.families or name in v.sets or name in v.members:
                self.error(ASSIGNED_CONSTANT, f"`{name}` names a zone or set and cannot be assigned", target.span)
            return ir.stmt("e[$0] = $1", self.constant(name), value)
        if isinstance(target, ast.Attr):
            obj = self.src(target.obj, scope)
            name = target.name
            if name in v.pvars and name in v.dynamic_props:     # a seat's variable, or an item's state
                twice = self._twice(obj)
                if twice is not None:
                    first, again = twice
                    return ir.stmt("SET_PROP(s, $0, $1, $2) if $3.__class__ is STR else $4(s, $0, $2, $5)", again,
                                   self.constant(name), value, first, self.setter(name, True), span)
            if name in v.pvars:
                return ir.stmt("$0(s, $1, $2, $3)", self.setter(name, True), obj, value, span)
            if name in v.dynamic_props:
                return ir.stmt("SET_PROP(s, $0, $1, $2)", obj, self.constant(name), value)
            if name in v.item_props or name in v.member_props or name in v.pzones:
                self.error(UNCHANGEABLE_ATTRIBUTE, f"`{name}` cannot be changed", target.span,
                           "only player variables and item state declared under `state:` change")
            else:
                self.error(UNKNOWN_ATTRIBUTE, f"unknown attribute `{name}`", target.span,
                           suggestion_help(name, v.pvars | v.dynamic_props))
            return ir.PASS
        self.error(BAD_ASSIGNMENT_TARGET, "only names and attributes can be assigned", target.span)
        return ir.PASS


_FRONT_END_DECIDES = check_names.DECIDED | check_statements.DECIDED     # (Compiler.error)
_CHECKED_OPS = {"**": "POW($0, $1)", "/": "DIV($0, $1)"}
_OPERATIONS = {"+": "$0 + $1", "-": "$0 - $1", "*": "$0 * $1", "//": "$0 // $1", "%": "$0 % $1", "==": "$0 == $1",
               "!=": "$0 != $1", "<": "$0 < $1", "<=": "$0 <= $1", ">": "$0 > $1", ">=": "$0 >= $1"}


_TEXT_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")
_TEXT_REST = _TEXT_START | frozenset("0123456789. -")


def _folded(op: str, left, right):
    """``a + b``, ``a - b`` or ``a * b`` of two whole numbers written out, worked out (``route_length
    + 1`` with the parameter 35 is ``36``): a literal of at most 62 bits, else None."""
    if op not in ("+", "-", "*") or pysource.kind(left) != pysource.NUMBER or pysource.kind(right) != pysource.NUMBER:
        return None
    a, b = pyast.literal_eval(ir.tree_of(left)), pyast.literal_eval(ir.tree_of(right))
    value = a + b if op == "+" else a - b if op == "-" else a * b
    return literal(value) if value.bit_length() <= 62 else None


def _literal_text(value: str) -> bool:
    """A content text written into generated code as a literal (`'red'`, `'p1.hand'`): short, and of
    letters, digits, `_`, `$`, `.`, `-` and spaces only, with no space at either end; any
    other is bound in the namespace by name. (A content value, never the code written, is read.)"""
    return 0 < len(value) <= 40 and _TEXT_REST.issuperset(value) and value[0] != " " != value[-1]
# An argument as cheap to read as a name (a Python variable, a local of the frame, a global):
# a call with only such arguments may have a small function's body written in its place.


def located_code(fn, span, name: str | None = None):
    """Put generated code on its content line (file and line; named ``name``, or after the
    line), so profiles and debuggers point there: ``games/g/rules.yaml:25(f_best_other)``."""
    if span is not None and span.path:
        fn.__code__ = fn.__code__.replace(co_filename=str(span.path), co_firstlineno=max(int(span.line), 1),
                                          co_name=name or f"line{span.line}")
    return fn


# Expressions whose parts all run, in the order they are written (except where the method says
# otherwise: the right of `and`/`or`, the branches of `if`): a value first asked for in such a
# part is certainly there for the parts after it (Compiler._reused_value).
_IN_ORDER = frozenset((ast.Num, ast.Str, ast.Const, ast.Template, ast.Name, ast.Attr, ast.Index, ast.Slice, ast.ListLit,
                       ast.MapLit,
                       ast.BinOp, ast.Compare, ast.BoolOp, ast.Not, ast.Neg, ast.IfExp, ast.Call))


def too_complex(exc: Exception) -> bool:
    """Whether Python refused generated code for its size or depth (the content's nesting),
    rather than for a fault of the code generator."""
    if isinstance(exc, (RecursionError, MemoryError)):
        return True
    text = str(exc)
    return isinstance(exc, SyntaxError) and ("too many" in text or "too deeply" in text or "nested" in text)


def _hint_of(value) -> str:
    """What a constant's name starts with, from what it is: a place in content by its line and
    column (``AT_305_7``), a text by its first words (``S_assertion_failed``); else ``K``."""
    if value.__class__ is Span and value.line is not None:
        return f"AT_{value.line}_{value.column or 0}"
    if value.__class__ is str:
        words = "".join(c if c.isascii() and c.isalnum() else " " for c in value[:64]).split()
        if words:
            return "S_" + "_".join(words)[:24]
    return "K"


_WRITERS = methods(Compiler, "x_", ast.Expr)      # expression class -> the method writing it
