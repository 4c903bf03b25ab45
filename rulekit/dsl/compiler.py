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
gated in the one function that does it. What the content says, found before and apart from any
code being written, is asked of ``inlining`` (dsl/analysis.py: which functions are written in
place) and ``kinds`` (dsl/kinds.py: which values are certainly lists, zones, items); what the
code written so far knows lives in ``at`` (:class:`Writing`), the names the module binds in
``names``, and what compiling made in ``out``. Nothing here runs at game time except the
generated code, which never looks at the AST again.
"""
from __future__ import annotations

import contextlib
import itertools
import zlib
from collections.abc import Callable, Iterator

import attrs

from ..codes import (
    ASSIGNED_CONSTANT,
    BAD_ASSIGNMENT_TARGET,
    BY_NOT_TAKEN,
    EFFECT_AS_VALUE,
    IMPURE_FUNCTION,
    IN_ON_FAMILY,
    INDEX_OUT_OF_RANGE,
    KEYWORD_TWICE,
    MISSING_ARGUMENT,
    MISSING_KEY_IN_TABLE,
    NAMED_NOT_CALLED,
    PROCEDURE_IN_EXPRESSION,
    TEXT_TOO_LONG,
    TOO_COMPLEX,
    UNCHANGEABLE_ATTRIBUTE,
    UNKNOWN_ATTRIBUTE,
    UNKNOWN_FUNCTION,
    UNKNOWN_KEYWORD,
    UNKNOWN_KIND_ITEM_OR_PROPERTY,
    UNKNOWN_NAME,
    UNSUPPORTED_OPERATION,
    WRONG_ARGUMENT_COUNT,
    WRONG_ARGUMENT_KIND,
    WRONG_KIND,
)
from ..engine import memo, mutate, vm
from ..engine.library import REGISTRY, seq
from ..engine.limits import MAX_SIZE
from ..engine.runtime import NAMES as RUNTIME_NAMES
from ..engine.scoring import score
from ..engine.state import SEAT_NAMES, Family, Player, ZoneKey
from ..engine.tally import tally_count, tally_table
from ..errors import ContentRuntimeError, Diagnostic, boundary, suggestion_help
from ..source import Span
from . import ast, code_cache, passes, pysource, templates, verify
from .aggregates import AGGREGATES
from .analysis import Inlining, any_parts, asked_again, cheap, inlining, size, tally_parts
from .kinds import Kinds
from .loops import Loops, _conjuncts
from .pysource import NAME, NONE, SLOT, STEADY, Py
from .scope import Scope
from .visit import Transformer, bound_names, free_names, mentions, substituted

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
    tables: dict = attrs.Factory(dict)           # name -> plain data
    functions: dict = attrs.Factory(dict)        # name -> (params, ast expr)
    procedures: dict = attrs.Factory(dict)       # name -> params
    bounds: dict = attrs.Factory(dict)           # (variable, per player) -> (min, max), where bounded
    option_groups: dict = attrs.Factory(dict)    # name -> (params, tuple of ast.Option)
    prop_reads: dict = attrs.Factory(dict)       # item property -> spans reading it (content/properties.py)
    prop_asked: set = attrs.Factory(set)         # properties named in a `has`-like built-in's literal


@attrs.define
class Writing:
    """What the code written so far for one expression or body knows: the compiler's choices
    while writing it depend on these, and only these, so they live together (``Compiler.at``)."""
    reuse: dict | None = None       # while a function body compiles: node -> local slot (_reuse_plan)
    params: set = attrs.Factory(set)    # the body's own Python parameters (_unshadowed)
    reused: set = attrs.Factory(set)    # slots first reached only maybe: they start as UNSET
    known: set = attrs.Factory(set)     # slots certainly worked out by the code written so far
    branches: int = 0               # > 0: the code being written may not run (src, _branch)
    in_iterable: int = 0            # > 0: inside a comprehension's iterable (no `:=` there)
    listing: dict | None = None     # while options are listed: a table's source -> its local (listing)
    lowered: dict = attrs.Factory(dict)     # id of a node -> the local a loop left its value in (loops.py)


@attrs.define
class Findings:
    """What compiling found and made, read afterwards (model.py, testing/coverage.py)."""
    diagnostics: list = attrs.Factory(list)
    functions_impl: dict = attrs.Factory(dict)  # content function -> its Python function (when the module loads)
    function_defs: list = attrs.Factory(list)   # (name, python name, params, body lines, span, reused locals)
    used_procedures: set = attrs.Factory(set)
    roll_streams: set | None = attrs.Factory(set)  # streams `roll` draws from (None: some only running tells)
    inlined_at: dict = attrs.Factory(dict)      # content function -> spans of the calls written in place
    props_named: dict = attrs.Factory(dict)     # built-in -> {what its first argument names: {literal property}}


@attrs.define
class ModuleNames:
    """The names of the generated module's namespace the compiler made, each made once."""
    count: Iterator = attrs.Factory(itertools.count)     # numbers names apart: `K3`, `v12_p`, `fn_price_7`
    temps: Iterator = attrs.Factory(lambda: itertools.count(1))  # `_t1`...: a value stored by its first read
    constants: dict = attrs.Factory(dict)   # (class, value) -> the name a constant is bound under (_k)
    functions: dict = attrs.Factory(dict)   # source -> a small function compiled from it (_define)
    callers: dict = attrs.Factory(dict)     # content function -> the name of its caller (_memoised)
    setters: dict = attrs.Factory(dict)     # (variable, per player) -> the name of its setter
    sets: dict = attrs.Factory(dict)        # set -> the name of its list
    by_seat: dict = attrs.Factory(dict)     # function -> the name of its table by seat (_looked_up_by_seat)


class Compiler(Loops):
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
        self.ns: dict = _namespace(vocab)

    # ------------------------------------------------------------ diagnostics
    def error(self, code: str, message: str, span: Span, help: str | None = None) -> None:
        diagnostic = Diagnostic(code, message, span, help=help)
        if diagnostic not in self.out.diagnostics:  # `x.a += 1` checks its target twice (read and write)
            self.out.diagnostics.append(diagnostic)

    def _all_names(self, scope: Scope) -> set:
        v = self.v
        return (scope.locals | set(scope.py) | v.gvars | v.constants | set(v.zones) | set(v.families) | set(v.sets)
                | set(v.members) | set(v.tables))

    # ------------------------------------------------------------ expressions
    # Expressions compile to Python source over a private namespace, one function per
    # top-level expression: `count(x for x in p.hand if x.suit == s)` runs as one
    # Python comprehension, not a tree of closure calls. Only names this compiler made
    # (`K3`, `v12_c`, a few helpers) and checked operators appear in the source; every value from
    # content (text, numbers, tables) is bound in the namespace, never spliced in.
    def expr(self, node, scope: Scope) -> Fn:
        """A ``(state, env) -> value`` function for a checked expression (a score, an estimate,
        a condition of a tool): like a function body, it asks a repeated question once."""
        with self.listing(None):        # a function of its own: no listing's locals
            return self._expr(node, scope)

    def _expr(self, node, scope: Scope) -> Fn:
        if self.at.reuse is not None:     # inside another compilation: no plan of its own
            return self._function(("s", "e"), self.src(node, scope), node.span)
        node = self._written_out(node, frozenset(scope.locals) | frozenset(scope.py) | frozenset(scope.alias)
                                 | bound_names(node))
        source, reused = self._with_reuse(node, scope, set())
        if not reused:
            return self._function(("s", "e"), source, node.span)
        return self._define(("s", "e"), f"{' = '.join(reused)} = UNSET\n    return {source}", node.span,
                            "expression", "split it into smaller functions")

    def src(self, node, scope: Scope) -> str:
        if self.at.lowered:
            found = self.at.lowered.get(id(node))
            if found is not None:
                return found
        method = getattr(self, f"x_{type(node).__name__}", None)
        if method is None:  # pragma: no cover - parser and compiler out of step
            raise NotImplementedError(f"no compiler for expression {type(node).__name__}")
        slot = self.at.reuse.get(node) if self.at.reuse else None
        if slot is not None and not self.at.in_iterable and self._unshadowed(node, scope):
            return self._reused_value(slot, node, scope, method)
        if type(node) in _IN_ORDER:
            return method(node, scope)
        return self._branch(method, node, scope)

    def _branch(self, method, *args):
        """Compile a part that may run later than where it is written, or not at all (the right of
        an ``and``, a comprehension's body, a built-in's own form): a value it works out is not
        known to be there for the parts after it."""
        self.at.branches += 1
        try:
            return method(*args)
        finally:
            self.at.branches -= 1

    def _twice(self, source: str):
        """(first read, later reads) of a value generated code reads more than once: a Python
        variable or a literal is itself; anything else is stored in a local of its own by the read that runs
        first. None inside a comprehension's iterable, where Python allows no such store. The first
        read may stand before an attribute (built-ins' forms test ``{first}.__class__``): a number
        is put in parentheses there (``1.__class__`` is no Python)."""
        if pysource.is_variable_or_literal(source):
            return (f"({source})" if pysource.kind(source) == pysource.NUMBER else source), source
        if self.at.in_iterable:
            return None
        temp = self._temp("_t")
        return f"({temp} := {source})", temp

    def _reused_value(self, slot: str, node, scope, method) -> str:
        """A value the function asks for more than once (``_reuse_plan``): worked out where it is
        first certainly reached (``(_r1 := ...)``), read as ``_r1`` after that; where it is first
        reached only maybe, the local starts as UNSET and each such place checks it."""
        if slot in self.at.known:
            return slot
        value = method(node, scope) if type(node) in _IN_ORDER else self._branch(method, node, scope)
        if self.at.branches == 0:
            self.at.known.add(slot)
            if slot not in self.at.reused:
                return f"({slot} := {value})"
        else:
            self.at.reused.add(slot)
        return f"({slot} if {slot} is not UNSET else ({slot} := {value}))"

    # A function body is one pure expression over an unchanging state, so a call or a list
    # it asks for twice, or inside a comprehension without using the comprehension's
    # variables, has one value: it is worked out the first time it is needed and kept in a
    # local of the function (`(_r1 if _r1 is not UNSET else (_r1 := ...))`), as one would
    # write by hand. The first time, not before: `a and f(x)` still skips f when a is false.
    @passes.step("reuse")
    def _reuse_plan(self, body) -> dict:
        if "reuse" in self.passes.off:
            return {}
        return {node: f"_r{k}" for k, node in enumerate(asked_again(body, self.v), 1)}

    def _with_reuse(self, node, scope, params: set, write=None) -> tuple:
        """(source of ``node``, the local slots it reuses) for a whole expression whose Python
        parameters are ``params`` (written by ``write``, by default ``src``)."""
        self.at.reuse, self.at.params, self.at.reused = self._reuse_plan(node), params, set()
        self.at.known, self.at.branches = set(), 0
        try:
            source = (write or self.src)(node, scope)
            return source, tuple(sorted(self.at.reused, key=lambda slot: int(slot[2:])))
        finally:
            self.at.reuse, self.at.reused, self.at.known = None, set(), set()

    def _unshadowed(self, node, scope) -> bool:
        """No name in ``node`` means a comprehension variable here (only the function's own
        parameters and the game's names)."""
        for name in free_names(node):
            py = scope.py.get(name)
            if py is not None and py not in self.at.params:
                return False
        return True

    def _k(self, value, hint: str = "K") -> str:
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
            name = f"{hint}_{next(self.names.count)}" if hint != "K" else f"K{next(self.names.count)}"
            self.ns[name] = value
            self.names.constants[key] = name
        return Py(name, NAME)

    def _temp(self, prefix: str) -> Py:
        """A fresh Python local of generated code (``_t1``, ``_q2``): a variable, read as it is."""
        return Py(f"{prefix}{next(self.names.temps)}", NAME)

    def _var(self, stem: str) -> str:
        """A fresh Python identifier for a comprehension or parameter variable."""
        number = next(self.names.count)
        return Py(f"v{number}_{stem}" if stem.isidentifier() and stem.isascii() else f"v{number}", NAME)

    def _function(self, params: tuple, source: str, span) -> Fn:
        """A generated function returning the expression ``source``."""
        return self._define(params, f"return {source}", span, "expression", "split it into smaller functions")

    def _statement(self, line: str, span) -> Fn:
        """A ``(state, env)`` function running one generated statement."""
        return self._define(("s", "e"), line, span, "statement", "split it into smaller steps")

    def _define(self, params: tuple, body: str, span, what: str, hint: str) -> Fn:
        text = f"def _f({', '.join(params)}):\n    {body}\n"
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

    def walk_src(self, node, scope) -> str:
        """What a ``for`` statement walks: the built-in's walked form (``walked_src``) or ``seq_src``."""
        walked = self.walked_src(node, scope)
        return walked if walked is not None else self.seq_src(node, scope)

    @passes.step("forms")
    def walked_src(self, node, scope) -> str | None:
        """The form a built-in's template has for being walked by a ``for`` statement (``walks``:
        ``range(a, b)`` walks Python's range, no list and no call, when its bounds are whole
        numbers the built-in would take), or None. What it gives is never changed while walked."""
        builtin = REGISTRY.get(node.func) if isinstance(node, ast.Call) and node.func not in self.v.functions else None
        if builtin is None or node.kwargs or "forms" in self.passes.off:
            return None
        written = templates.template(builtin.name)
        form = written.walks.get(len(node.args)) if written.walks else None
        if form is None:
            return None
        reads = [self._twice(self.src(a, scope)) for a in node.args]
        if None in reads:
            return None
        self._bind_names(written)
        again = [later for _first, later in reads]
        impl = self._k(builtin.impl, f"B_{builtin.name}")
        return form.format(*again, call=f"{impl}(s, {', '.join(again)})",
                           **{f"first{k}": first for k, (first, _later) in enumerate(reads)})

    def seq_src(self, node, scope) -> str:
        """Source of the items of a list or zone (``SEQ`` only where the kind is not certain)."""
        kind = self.kinds.of(node, scope)
        if kind == "list":
            return self.src(node, scope)
        if kind == "zone":
            return f"s.zones[{self.src(node, scope)}]"
        source = self.src(node, scope)
        twice = self._twice(source)
        if twice is None:
            return f"SEQ(s, {source})"
        first, again = twice                # look before calling
        return f"({again} if {first}.__class__ is LIST else SEQ(s, {again}))"

    def x_Num(self, node, scope):
        return self._k(node.value)

    def x_Str(self, node, scope):
        self._written_text(node, len(node.value))
        return self._k(node.value)

    def x_Const(self, node, scope):
        return self._k(node.value)

    def x_Template(self, node, scope):
        """A text with holes; each hole prints within the limits (``library.printed``) and the whole
        is checked too (``"{s}{s}"`` doubles), unless it is one hole alone."""
        self._written_text(node, sum(len(p) for p in node.parts if isinstance(p, str)))
        parts = [self._k(p) if isinstance(p, str) else f"FMT({self.src(p, scope)})" for p in node.parts]
        joined = "''.join((" + "".join(p + ", " for p in parts) + "))"
        if len(parts) == 1:
            return joined
        twice = self._twice(joined)
        if twice is None:
            return f"CHECKED_TEXT({joined})"
        first, again = twice        # library.checked_text, written out
        return f"({again} if len({first}) <= MAX_SIZE else TOO_LONG({again}))"

    def _written_text(self, node, size: int) -> None:
        """A text written in the content is at most MAX_SIZE characters, as a built one (RK0117)."""
        if size > MAX_SIZE:
            self.error(TEXT_TOO_LONG, f"a text of {size:,} characters is too long to write (at most {MAX_SIZE:,})",
                       node.span, "keep long texts out of the rules (a `text:` field documents them)")

    def x_Name(self, node, scope):
        name = node.id
        v = self.v
        if name in scope.py:
            return scope.py[name]
        if name in scope.alias:
            return Py(f"e[{self._k(scope.alias[name])}]", SLOT)
        if name in scope.locals:
            return Py(f"e[{self._k(name)}]", SLOT)
        if name in v.fixed:
            return self._k(v.fixed[name])
        if name in v.gvars or name in v.constants:
            return Py(f"s.g[{self._k(name)}]", SLOT)
        if name in v.zones:
            return self._k(v.zones[name], f"Z_{py_identifier(name)}")
        if name in v.families:
            return self._k(v.families[name], f"F_{py_identifier(name)}")
        if name in v.sets:
            found = self.names.sets.get(name)
            if found is None:       # one list per set, named after it
                found = self.names.sets[name] = self._k(list(v.sets[name]), f"SET_{py_identifier(name)}")
            return found
        if name in v.members:
            return self._k(name)
        if name in v.tables:
            return self._k(v.tables[name])
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
        items = v.items
        members = v.members
        key = self._k(name)

        def item_read(item: str) -> str | None:
            """An item's state, or its printed property (None: the name is neither)."""
            if "dprop" in paths:
                return f"s.iprops[{key}].get({item}, {self._k(v.prop_defaults.get(name))})"
            return f"ITEMS[{item}][{key}]" if "sprop" in paths else None

        if (isinstance(node.obj, ast.Name) and scope.py.get(node.obj.id) in scope.items) or \
                self.kinds.of(node.obj, scope) == "item":
            read = item_read(obj)       # an item for certain (it walks a zone)
            if read is not None:
                return read
        if paths == ["pvar"]:
            return f"s.p[{obj}][{key}]"
        if paths == ["pzone"]:
            return f"{self._k(v.pzones[name], f'PZ_{py_identifier(name)}')}[{obj}]"
        if paths == ["sprop"]:
            return f"ITEMS[{obj}][{key}]"
        if paths == ["mprop"]:
            return f"{self._k(members)}[{obj}][{key}]"
        pzone_keys = v.pzones.get(name)

        def dispatch(s, o):
            if type(o) is not str:
                seat = (type(o) is Player or type(o) is int) and 0 <= o < s.n
                if "pvar" in paths and seat:
                    return s.p[o][name]
                if "pzone" in paths and seat:
                    return pzone_keys[o]
            elif o in items:
                if "dprop" in paths:
                    value = s.iprops[name].get(o, _MISSING)
                    return s.game.components.prop_defaults.get(name) if value is _MISSING else value
                if "sprop" in paths:
                    return items[o][name]
            if "mprop" in paths and o in members:
                return members[o][name]
            raise ContentRuntimeError(f"{mutate.fmt(o)} has no attribute `{name}`")
        boundary(dispatch)
        twice = self._twice(obj) if "dprop" in paths or "sprop" in paths else None
        if twice is None:
            return f"{self._k(dispatch)}(s, {obj})"
        first, again = twice    # what `dispatch` does for an item, and for a seat, written out
        read = item_read(again)
        seat = f"s.p[{again}][{key}] if {again}.__class__ is PLAYER else " if "pvar" in paths else ""
        return (f"({read} if {first}.__class__ is STR and {again} in ITEMS else {seat}"
                f"{self._k(dispatch)}(s, {again}))")

    def x_Index(self, node, scope):
        kind = self.kinds.of(node.obj, scope)
        obj, index = self.src(node.obj, scope), self.src(node.index, scope)
        if kind == "family":
            if self._sized_family(node.obj, scope):
                return f"SPACE(s, {obj}, {index})"
            return f"({obj}.zones.get({index}) or NOSPACE({obj}, {index}))"
        if kind == "zone":
            return f"s.zones[{obj}][{index}]"
        if kind == "list":
            return f"{obj}[{index}]"
        return f"GETITEM(s, {obj}, {index})"

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
        return f"SLICE(s, {obj}, {lo}, {hi})"

    def x_ListLit(self, node, scope):
        return "[" + "".join(self.src(i, scope) + ", " for i in node.items) + "]"

    def x_MapLit(self, node, scope):
        """A new mapping (``MAP`` checks each key is a value a mapping can be keyed by)."""
        pairs = "".join(f"{self.src(k, scope)}, {self.src(v, scope)}, " for k, v in zip(node.keys, node.values))
        return f"MAP({pairs})"

    def x_Let(self, node, scope):
        return f"[{self.src(node.value, scope)}]"     # walked by its `for` clause: one value

    def x_Comp(self, node, scope):
        """A list comprehension. One ``for`` over a value within the limits yields no more than
        MAX_SIZE items; with two or more it may yield their product, so it is built to MAX_SIZE + 1
        items at most and refused past MAX_SIZE (``BOUNDED``: runtime.bounded)."""
        if len(node.fors) > 1:
            return f"BOUNDED({self._generator(node, scope)})"
        return f"[{self._generator(node, scope)}]"

    def _generator(self, node, scope, keyed: bool = False) -> str:
        """``elt for v in SEQ(s, xs) if cond``: the inside of a list or generator.

        A comprehension's variables are its own (as in Python) and live in Python
        variables, so `[c for c in xs]` never touches a procedure's local `c`; each `for`
        sees the variables bound by the ones before it."""
        names: dict = {}
        clauses = []
        walkers: list = []
        for name, coll in node.fors:
            visible = scope.bind_py(names, walkers)
            var = self._var(name)
            self.at.in_iterable += 1
            clauses.append(f"for {var} in {self.seq_src(coll, visible)}")
            self.at.in_iterable -= 1
            walkers = [w for w in walkers if w != var] + ([var] if self.kinds.of(coll, visible) == "zone" else [])
            self.note_member(var, coll, visible)
            names = dict(names)
            names[name] = var
        inner = scope.bind_py(names, walkers)
        elt = self.src(node.elt, inner)
        if node.by is not None and not keyed:
            self.error(BY_NOT_TAKEN, "`by` belongs to a generator argument of sorted, min, max or distinct",
                       node.by.span)
        elif keyed:
            elt = f"({self.src(node.by, inner)}, {elt})"
        out = f"{elt} " + " ".join(clauses)
        if node.cond is not None:
            out += f" if {self.src(node.cond, inner)}"
        return out

    def x_BinOp(self, node, scope):
        left, right = self.src(node.left, scope), self.src(node.right, scope)
        if node.op in _CHECKED_OPS:     # exact or bounded: engine/runtime.py power, divide
            return f"{_CHECKED_OPS[node.op]}({left}, {right})"
        if node.op not in ("+", "-", "*", "//", "%"):  # pragma: no cover - the grammar has no others
            raise NotImplementedError(node.op)
        if node.op in ("+", "*") and self._may_grow(node):      # engine/runtime.py: MAX_SIZE, MAX_BITS
            twice = self._twice(f"({left} + {right})") if node.op == "+" else None
            if twice is None:
                return f"{'ADD' if node.op == '+' else 'MUL'}({left}, {right})"
            first, again = twice        # ADD, written out: only a text or list has a length to check
            return (f"({again} if {first}.__class__ is not STR and {again}.__class__ is not LIST "
                    f"or len({again}) <= MAX_SIZE else TOO_LONG({again}))")
        return f"({left} {node.op} {right})"

    def _may_grow(self, node) -> bool:
        """Whether ``a + b`` or ``a * b`` could build a value far larger than its operands
        (texts or lists joined with themselves, a product of large numbers): not when an
        operand is a written constant, nor a sum of numbers."""
        constant = (ast.Num, ast.Str, ast.Neg)
        if node.op == "+":
            return not (isinstance(node.left, constant) or isinstance(node.right, constant)
                        or "number" in (self.kinds.evident(node.left), self.kinds.evident(node.right)))
        return not (self.kinds.evident(node.left) == self.kinds.evident(node.right) == "number")

    def x_Compare(self, node, scope):
        a = self.src(node.left, scope)
        b = self.src(node.right, scope)
        op = node.op
        if op in ("==", "!=", "<", "<=", ">", ">="):
            return f"({a} {op} {b})"
        kind = self.kinds.of(node.right, scope)
        if kind == "family":
            self.error(IN_ON_FAMILY, f"`{op}` cannot look inside a family of zones; test one of its spaces: "
                       f"`x {op} {_name_of(node.right)}[key]`", node.span)
        if kind == "zone":
            test = f"(s.loc.get({a}) is {b})"
        elif kind == "list":
            test = f"({a} in {b})"
        else:
            test = f"CONTAINS(s, {a}, {b})"
        return test if op == "in" else f"(not {test})"

    def x_BoolOp(self, node, scope):
        op = "and" if node.op == "and" else "or"
        return f"({self.src(node.left, scope)} {op} {self._branch(self.src, node.right, scope)})"

    def x_Not(self, node, scope):
        return f"(not {self.src(node.operand, scope)})"

    def x_Neg(self, node, scope):
        return f"(-{self.src(node.operand, scope)})"

    def x_IfExp(self, node, scope):
        cond = self.src(node.cond, scope)       # runs first
        then, orelse = self._branch(self.src, node.then, scope), self._branch(self.src, node.orelse, scope)
        return f"({then} if {cond} else {orelse})"

    def x_Call(self, node, scope):
        name = node.func
        v = self.v
        if name in v.functions:
            return self._user_function_call(node, scope)
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
            self._check_named(builtin, node)
        if node.args and isinstance(node.args[0], ast.Comp) and node.args[0].by is not None:
            return self._branch(self._keyed, builtin, node, scope)
        fast = self._branch(self._form, builtin, node, scope) if builtin.form is not None else None
        if fast is not None:
            return fast
        # positional arguments run in order; keyword ones may be moved among them (_bind)
        args, kwargs = self._bind(builtin, node, scope, self.src, lambda n, sc: self._branch(self.src, n, sc))
        impl = self._k(builtin.impl, f'B_{name}')
        written = templates.template(name)
        twice = self._twice(args[0]) if written.inline is not None and not kwargs and len(args) == 1 \
            and self.passes.on("forms") else None
        if twice is not None:
            first, again = twice
            self._bind_names(written)
            return written.inline.format(again, first=first, call=f"{impl}(s, {again})")
        return f"{impl}(s{''.join(', ' + a for a in args)}{''.join(f', {k}={f}' for k, f in kwargs.items())})"

    def _bind_names(self, written) -> None:
        """Bind the names a template reads (dsl/templates.py) in the module's namespace."""
        for bound, value in written.binds.items():
            self.ns.setdefault(bound, value)

    def _keyed(self, builtin, node, scope) -> str:
        """``f(x for x in xs by KEY)``: the built-in's ``by`` form, given (key, item) pairs."""
        comp = node.args[0]
        if builtin.by is None:
            self.error(BY_NOT_TAKEN, f"`{builtin.name}` does not compare items by a key", comp.by.span,
                       "`by` belongs to sorted, min, max and distinct (and to the options of a `choose`)")
            return NONE
        pairs = f"{'BOUNDED(' if len(comp.fors) > 1 else '['}{self._generator(comp, scope, keyed=True)}" \
                f"{')' if len(comp.fors) > 1 else ']'}"
        args, kwargs = self._bind(builtin, node, scope, lambda n, sc: pairs if n is comp else self.src(n, sc))
        listed = "".join(", " + a for a in args) + "".join(f", {k}={f}" for k, f in kwargs.items())
        return f"{self._k(builtin.by, f'BY_{builtin.name}')}(s{listed})"

    def _check_named(self, builtin, node) -> None:
        """A literal argument that must name a kind, an item or a property (``names=``) names
        one the game has (RK0319, with "did you mean")."""
        v = self.v
        named = builtin.named or builtin.params[0]
        position = builtin.params.index(named)
        arg = node.args[position] if len(node.args) > position else dict(node.kwargs).get(named)
        if not isinstance(arg, ast.Str):
            return
        if builtin.names == "props":
            v.prop_asked.add(arg.value)
            first = node.args[0] if node.args else None      # `p.land` names `land`; anything else, None
            on = first.id if isinstance(first, ast.Name) else first.name if isinstance(first, ast.Attr) else None
            self.out.props_named.setdefault(builtin.name, {}).setdefault(on, set()).add(arg.value)
        known, what = {"kinds": (v.kinds, "component kind"), "items": (v.items, "item"),
                       "props": (v.item_props | v.dynamic_props | v.member_props, "property")}[builtin.names]
        if known and arg.value not in known:
            self.error(UNKNOWN_KIND_ITEM_OR_PROPERTY, f"no {what} `{arg.value}`", arg.span, suggestion_help(arg.value,
                                                                                                            known))

    @passes.step("forms")
    def _form(self, builtin, node, scope):
        """The faster form a built-in declares (``form=``), where its arguments allow it, else
        None (the library's function is called)."""
        aggregate = AGGREGATES.get(builtin.form) if self.passes.on("forms") else None
        if aggregate is None:
            return None
        form = aggregate.name
        if form == "count" and len(node.args) == 1 and not node.kwargs:
            fast = self._tally_count(node.args[0], scope)
            if fast is not None:
                return fast
        if aggregate.stops and node.args and isinstance(node.args[0], ast.Comp):
            # stop at the first answer (functions are pure, so nothing is skipped but work)
            self._bind(builtin, node, scope, lambda n, sc: "None")  # checks only
            tallied = self.tallied_any(node, scope) if form == "any" else None
            if tallied is not None:
                return tallied
            unrolled = self._unrolled(form, node, scope)
            if unrolled is not None:
                return unrolled
            gen = self._generator(node.args[0], scope)
            default = [self.src(a, scope) for a in node.args[1:2]] + \
                [self.src(v, scope) for k, v in node.kwargs if k == "default"] if aggregate.default else []
            return aggregate.generator.format(items=gen, default=default[0] if default else "None")
        if aggregate.listed is not None:
            return self._aggregate(builtin, aggregate, node, scope)
        return None

    def _unrolled(self, form: str, node, scope):
        """``any``/``all`` over a few members of a named set, written out member by member as
        one would by hand (`f(p, 'red') and f(p, 'blue') and ...`): no generator to run."""
        comp = node.args[0]
        if form not in ("any", "all") or len(node.args) != 1 or node.kwargs or not self.unrollable(comp, scope):
            return None
        var, coll = comp.fors[0]
        members = list(self.v.sets[coll.id])
        parts = []
        for member in members:
            inner = scope.bind_py({var: self._k(member)})
            part = self.src(comp.elt, inner)
            if comp.cond is not None:
                cond = self.src(comp.cond, inner)
                part = f"({cond} and {part})" if form == "any" else f"(not {cond} or {part})"
            parts.append(part)
        return f"(True if ({(' or ' if form == 'any' else ' and ').join(parts)}) else False)"

    @passes.step("unroll")
    def unrollable(self, comp, scope) -> bool:
        """Whether ``any``/``all`` of ``comp`` is written out member by member (``_unrolled``)."""
        if len(comp.fors) != 1 or "unroll" in self.passes.off:
            return False
        _var, coll = comp.fors[0]
        v = self.v
        if not (isinstance(coll, ast.Name) and coll.id in v.sets and self.kinds.of(coll, scope) == "list"
                and coll.id not in v.gvars and coll.id not in v.constants):
            return False
        return 0 < len(v.sets[coll.id]) <= UNROLL_MEMBERS and size(comp.elt) + size(comp.cond) <= UNROLL_SIZE

    def counted_without_loop(self, comp) -> bool:
        """Whether ``count`` of ``comp`` is answered by a tally or ``list.count`` (``_tally_count``)."""
        return self.passes.on("tallies") and (
            tally_parts(comp, self.v) is not None or _equal_parts(comp) is not None)

    def any_by_tally(self, node, scope) -> bool:
        """Whether ``any(...)`` is answered by a tally (``tallied_any``)."""
        return self._any_tally_parts(node, scope) is not None

    def _any_tally_parts(self, node, scope):
        """``any_parts`` of ``any(...)``'s one argument, its zone one for certain, else None."""
        if "tallies" in self.passes.off:
            return None
        parts = any_parts(node.args[0], self.v) if len(node.args) == 1 and not node.kwargs else None
        return parts if parts is not None and self.kinds.of(parts[0], scope) == "zone" else None

    @passes.step("tallies")
    def tallied_any(self, node, scope) -> str | None:
        """``any(x.PROP == VALUE for x in ZONE)`` of a zone for certain, PROP a fixed item
        property and VALUE a name or a constant: whether the zone's tally (engine/tally.py, as
        ``count`` asks it) holds VALUE, with no scan; the scan where VALUE is a value a table
        cannot hold (a list). Else None."""
        parts = self._any_tally_parts(node, scope)
        if parts is None:
            return None
        zone_node, prop, right = parts
        value = self.src(right, scope)
        key = self._tally_key(zone_node, prop, scope)
        found = f"{self._tally_table(key, scanning_any=True)}.get({value}, 0) > 0"
        if isinstance(right, (ast.Num, ast.Str, ast.Const)) or self._is_member(right, scope) \
                or pysource.is_literal(value):
            return f"({found})"
        return f"({found} if {value}.__class__ in PLAIN_VALUE else ANY({self._generator(node.args[0], scope)}))"

    def names_set(self, coll, scope) -> bool:
        """``coll`` names a set of the game (not a name bound in ``scope``)."""
        return isinstance(coll, ast.Name) and coll.id in self.v.sets and coll.id not in scope.py \
            and coll.id not in scope.alias and coll.id not in scope.locals

    def note_member(self, var: str, coll, scope) -> None:
        """Python variable ``var`` walks ``coll``: when that is a set, it holds one of the set's
        members (a text), which a tally answers for with no check of its class."""
        if self.names_set(coll, scope):
            scope.kinds[("py", var)] = "member"

    def _is_member(self, node, scope) -> bool:
        return isinstance(node, ast.Name) and node.id in scope.py and \
            scope.kinds.get(("py", scope.py[node.id])) == "member"

    def _aggregate(self, builtin, aggregate, node, scope):
        """``count``/``sum``/``min``/``max`` of a certain list or zone as the Python built-in
        (the library's versions do the same after asking what the collection is)."""
        form = aggregate.name
        if form == "count" and len(node.args) == 1 and not node.kwargs:
            self._bind(builtin, node, scope, lambda n, sc: "None")  # checks only
            return f"len({self.seq_src(node.args[0], scope)})"     # SEQ asks only where the kind is not certain
        if not node.args or len(node.args) > 2 or self.kinds.of(node.args[0], scope) not in ("list", "zone"):
            return None
        defaults = list(node.args[1:]) + [value for key, value in node.kwargs if key == "default"]
        if any(key != "default" for key, _v in node.kwargs) or len(defaults) > aggregate.default:
            return None
        self._bind(builtin, node, scope, lambda n, sc: "None")  # checks only
        items = self.seq_src(node.args[0], scope)
        default = self.src(defaults[0], scope) if defaults else NONE
        return aggregate.listed.format(items=items, default=default)

    @passes.step("tallies")
    def _tally_count(self, arg, scope):
        """``count(x for x in ZONE if x.PROP == VALUE)`` with PROP a fixed item property is
        answered from an incrementally kept tally (engine/tally.py) instead of a scan: the
        commonest question rules ask ("how many cards of this company does p have")."""
        if "tallies" in self.passes.off:
            return None
        parts = tally_parts(arg, self.v)
        if parts is None:
            return self._equal_count(arg, scope)
        zone_node, prop, right = parts
        if self.kinds.of(zone_node, scope) == "zone":
            key = self._tally_key(zone_node, prop, scope)
            return f"{self._tally_table(key)}.get({self.src(right, scope)}, 0)"
        return f"TALLY(s, {self.src(zone_node, scope)}, {self._k(prop)}, {self.src(right, scope)})"

    @passes.step("listing")
    def _tally_table(self, key: str, scanning_any: bool = False) -> str:
        """A tally's table (engine/tally.py: built on the first question; for an ``any``, one
        built where an item lacks the property answers as the scan would). While options are
        listed (:meth:`listing`), a table whose key no loop changes is looked up once, where it
        is first asked, and read from a local after that: the listing moves no item."""
        build = f"TALLY_TABLE(s, {key}, True)" if scanning_any else f"TALLY_TABLE(s, {key})"
        table = f"(s.tallies.get({key}) or {build})"
        at = self.at
        if at.listing is None or "listing" in self.passes.off or at.in_iterable or pysource.kind(key) != STEADY:
            return table
        local = self.at.listing.get(table)
        if local is None:
            local = self.at.listing[table] = self._temp("_tc")
        return f"({local} or ({local} := {table}))"     # a table is never empty (tally_table)

    @contextlib.contextmanager
    def listing(self, tables: dict):
        """Compile the tests of a choice's options, which share ``tables`` (a table's source ->
        the local that keeps it; each local must start as None before the options are listed)."""
        saved, self.at.listing = self.at.listing, tables
        try:
            yield
        finally:
            self.at.listing = saved

    def _tally_key(self, zone_node, prop: str, scope) -> str:
        """The source of a tally's key ``(zone, prop)`` for a zone known to be one: made once
        for a named zone or a player's zone (one key per seat), else built where it is asked."""
        v = self.v
        if isinstance(zone_node, ast.Name):
            return Py(self._k((v.zones[zone_node.id], prop), f"TK_{py_identifier(zone_node.id)}"), STEADY)
        if isinstance(zone_node, ast.Attr) and zone_node.name in v.pzones:
            keys = tuple((key, prop) for key in v.pzones[zone_node.name])
            seat = self.src(zone_node.obj, scope)
            key = f"{self._k(keys, f'TK_{py_identifier(zone_node.name)}')}[{seat}]"
            return Py(key, STEADY) if pysource.kind(seat) == SLOT else key
        return f"({self.src(zone_node, scope)}, {self._k(prop)})"

    def _equal_count(self, arg, scope):
        """``count(x for x in XS if x == V)``: Python's ``list.count`` (the same ``==``)."""
        parts = _equal_parts(arg)
        if parts is None:
            return None
        coll, right = parts
        if self.kinds.of(coll, scope) in ("list", "zone"):
            return f"{self.seq_src(coll, scope)}.count({self.src(right, scope)})"
        items, value = self.src(coll, scope), self.src(right, scope)
        twice = self._twice(items)
        if twice is None:
            return f"COUNT_EQUAL(s, {items}, {value})"
        first, again = twice                # a list is counted without a call
        return f"({again}.count({value}) if {first}.__class__ is LIST else COUNT_EQUAL(s, {again}, {value}))"

    def _bind(self, builtin, node, scope, compile_arg=None, compile_kwarg=None):
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
        self._check_kinds(builtin, node, names)
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

    def _check_kinds(self, builtin, node, names):
        """Static type check of arguments whose kind is evident (literals, zones, lists)."""
        wanted = builtin.args
        if not wanted:
            return
        pairs = list(zip(names, node.args)) + [(k, v) for k, v in node.kwargs if k in names]
        for pname, arg in pairs:
            want = wanted.get(pname)
            got = self.kinds.evident(arg)
            if want is None or got is None or got == want:
                continue
            ok = {"zone": {"zone"}, "item": {"text"}, "number": set(), "text": {"number", "bool", "none"},
                  "list": {"zone", "family"}}[want]
            if got in ok:
                continue
            nice = {"zone": "a zone", "item": "an item", "number": "a whole number", "text": "text",
                    "list": "a list or a zone"}[want]
            got_nice = {"number": "a number", "text": "text", "bool": "true/false", "none": "none",
                        "zone": "a zone", "family": f"a family of zones (pick one: `{_name_of(arg)}[key]`)",
                        "list": "a list"}[got]
            self.error(WRONG_ARGUMENT_KIND, f"argument `{pname}` of `{builtin.name}` must be {nice}, got {got_nice}",
                       arg.span, f"the signature is `{builtin.signature}`")

    def _user_function_call(self, node, scope):
        name = node.func
        params, _body = self.v.functions[name]
        if node.kwargs or len(node.args) != len(params):
            self.error(WRONG_ARGUMENT_COUNT, f"function `{name}` takes {len(params)} argument"
                       f"{'s' if len(params) != 1 else ''} ({', '.join(params)}), got "
                       f"{len(node.args) + len(node.kwargs)}", node.span)
            return NONE
        sources = [self.src(a, scope) for a in node.args]
        if name in self.inlining and all(pysource.is_simple(a) for a in sources):
            # a body as cheap as a memo lookup is written in place of the call
            self.out.inlined_at.setdefault(name, []).append(node.span)
            # what the caller knows of its Python variables (a set's member, a list) holds for the body
            known = {key: kind for key, kind in scope.kinds.items() if key[0] == "py"}
            inner = Scope(set(params), kinds=known).bind_py(dict(zip(params, sources)))
            return f"({self._written_in_place(_body, inner, set(sources))})"

        args = "".join(", " + a for a in sources)
        call = f"{self._memoised(name, len(params))}(s{args})"
        return self._looked_up_by_seat(name, node, sources, scope, call) or call

    @passes.step("by-seat")
    def _looked_up_by_seat(self, name: str, node, sources: list, scope, call: str) -> str | None:
        """``marker(p, c)``, ``adjacent(s)``: a function that reads no state and not the player
        count, given plain arguments, has its remembered result looked up where it is called
        (memo.StaticTable ``by_seat``), the call made only where an argument is not of the
        classes the table holds (a seat, a text), or no result is kept yet (or it is a false
        one). About half a call's cost."""
        table = self.static_memo.get(name)
        if table is None or "by-seat" in self.passes.off or table.of_count or len(sources) not in (1, 2) \
                or not all(pysource.is_simple(a) for a in sources):
            return None
        if any(pysource.kind(a) in (pysource.NUMBER, pysource.CONST) for a in sources):
            return None         # a number or a truth value is never a seat, nor a text
        if name not in self.names.by_seat:
            self.names.by_seat[name] = self._k(table.seated(len(sources)), f"BY_SEAT_{py_identifier(name)}")
        rows = self.names.by_seat[name]
        texts = [pysource.kind(a) == pysource.TEXT or self._is_member(arg, scope) for a, arg in zip(sources, node.args)]
        if len(sources) == 1:       # a seat or a text: `1` and `True` equal seat p2 as keys
            test = None if texts[0] else f"{sources[0]}.__class__ in SEAT_OR_TEXT"
            found = f"{rows}.get({sources[0]})"
        else:       # every seat has its row; a row holds texts only, which equal nothing else
            seat, text = sources
            tests = [f"{seat}.__class__ is PLAYER"] + ([] if texts[1] else [f"{text}.__class__ is STR"])
            test, found = " and ".join(tests), f"{rows}[{seat}].get({text})"
        return f"({found} or {call})" if test is None else f"(({found} if {test} else None) or {call})"

    def _written_in_place(self, body, inner: Scope, sources: set) -> str:
        """A body written in place of its call: a value it asks for twice is worked out once (its
        own plan, ``_reuse_plan``, in locals named apart from the caller's), where the first time
        is certainly reached each time the body is; otherwise (or inside an iterable) as written."""
        body = self._written_out(body, frozenset(inner.py) | bound_names(body))
        saved = (self.at.reuse, self.at.params, self.at.reused, self.at.known, self.at.branches)
        plan = {node: self._temp("_w") for node in self._reuse_plan(body)}
        try:
            self.at.reuse, self.at.params, self.at.reused, self.at.known, self.at.branches = \
                plan or None, sources, set(), set(), 0
            source = self.src(body, inner)
            if self.at.reused:        # a local that would have to start as UNSET: none kept
                self.at.reuse, self.at.reused, self.at.known = None, set(), set()
                source = self.src(body, inner)
            return source
        finally:
            self.at.reuse, self.at.params, self.at.reused, self.at.known, self.at.branches = saved

    def _written_out(self, node, bound: frozenset):
        """``node`` with each call of a cheap function whose body asks another cheap one replaced
        by that body, its plain arguments in place of its parameters: the questions the bodies
        and their caller share (``row(p, c)`` asked by a function and by the ``price(p, c)`` it
        asks too) are then asked once (``_reuse_plan``). Other cheap calls stay calls, written in
        place where they compile (:meth:`_user_function_call`). ``bound``: the names the caller
        binds; a body reading one of them from outside (or whose comprehension binds a name it
        is given, or a parameter) stays a call."""
        return _WriteOut(self, bound).transform(node)

    def _body_in_place(self, node, bound: frozenset):
        """The body of the cheap function ``node`` calls, written in place (``_substituted_body``),
        or None."""
        if not (isinstance(node, ast.Call) and node.func in self.inlining):
            return None
        body = self._substituted_body(node, bound)
        if body is not None:
            self.out.inlined_at.setdefault(node.func, []).append(node.span)
        return body

    def _substituted_body(self, node, bound: frozenset):
        """The body of the content function ``node`` calls, its plain arguments in place of its
        parameters, or None where that would change what a name means: the body reads from
        outside a name the caller binds (``bound``), or a comprehension of the body binds a
        parameter or a name given as an argument (it would be captured)."""
        params, body = self.v.functions[node.func]
        given = {a.id for a in node.args if isinstance(a, ast.Name)}
        if node.kwargs or len(node.args) != len(params) or not all(isinstance(a, _PLAIN_ARGS) for a in node.args) \
                or (free_names(body) - set(params)) & bound or bound_names(body) & (given | set(params)):
            return None
        return substituted(body, dict(zip(params, node.args)))

    def conjuncts(self, node, bound: frozenset) -> list:
        """The parts of ``a and b and c`` in order, a cheap function's call among them written out
        as its own parts (``can_take(p, c)`` as ``count(p.hand) < limit`` and ``c != 'x'``)."""
        out: list = []
        for part in _conjuncts(self._written_out(node, bound)):
            body = self._body_in_place(part, bound)
            out.extend([part] if body is None else self.conjuncts(body, bound))
        return out

    @passes.step("walk")
    def walked_body(self, coll, scope):
        """``for x in kept(p, 'spy')`` where the function's body picks items of a collection
        (``[t for t in p.tiles if t.type == kind]``, or ``[] if c else [...]``): the loop can
        walk that collection itself, testing each item where the function would, and no list
        is built and no call made. Returns ``(guard, collection, variable, test)``, nodes read
        in the caller's ``scope`` (its arguments in place of the parameters; ``guard`` and
        ``test`` may be None), or None where the call stays: arguments that are not plain, a
        body naming what the caller binds, a function remembered for the game."""
        if not (isinstance(coll, ast.Call) and coll.func in self.v.functions) or coll.func in self.static_memo \
                or "walk" in self.passes.off:
            return None
        body = self._substituted_body(coll, scope.locals | set(scope.py) | set(scope.alias))
        guard = None
        if isinstance(body, ast.IfExp) and isinstance(body.then, ast.ListLit) and not body.then.items:
            guard, body = ast.Not(body.cond, span=body.cond.span), body.orelse
        if not (isinstance(body, ast.Comp) and len(body.fors) == 1 and body.by is None
                and isinstance(body.elt, ast.Name) and body.elt.id == body.fors[0][0]):
            return None
        tests = (body.cond, guard)
        called = {n.func for n in ast.walk(tests) if isinstance(n, ast.Call) and n.func in self.v.functions}
        looked_up = frozenset(f for f in called if f in self.static_memo or f in self.inlining)
        if not cheap(tests, self.v, looked_up):
            return None     # a test with a loop of its own: the function's body has it written as a loop
        self.out.inlined_at.setdefault(coll.func, []).append(coll.span)
        var, inner = body.fors[0]
        return guard, inner, var, body.cond

    @passes.step("memo")
    def _memoised(self, name: str, arity: int) -> str:
        """The source name of the caller of user function ``name`` (engine/memo.py): a function
        that reads no state is remembered per game; any other is called directly (or, with
        ``memo.PER_STATE``, starts on trial and keeps a memory per state only if it pays)."""
        wrapper = self.names.callers.get(name)
        if wrapper is not None:
            return wrapper
        impls = self.out.functions_impl
        wrapper = self.names.callers[name] = f"fn_{py_identifier(name)}_{next(self.names.count)}"
        if name in self.static_memo:
            self.ns[wrapper] = memo.static_caller(name, impls, self.static_memo[name], arity)
        else:
            ns = self.ns

            def settle(fn):
                ns[wrapper] = fn
            self.ns[wrapper] = (memo.trial_caller(name, arity, impls, settle) if memo.PER_STATE
                                else memo.direct_caller(name, impls, settle))
        return wrapper

    def compile_function(self, name: str) -> None:
        """A user function becomes a Python function ``f_NAME(s, *args)`` of the game's
        generated module (``function_defs``; bound in ``functions_impl`` when it loads)."""
        params, body = self.v.functions[name]
        impure = _find_impure(body, self.v)
        if impure is not None:
            self.error(IMPURE_FUNCTION, f"function `{name}` calls `{impure.func}`; functions must be pure", impure.span,
                       "draw random numbers in a procedure and pass the result in"
                       if REGISTRY[impure.func].pins else "call it in a procedure, an invariant or an expectation")
        names = {p: self._var(p) for p in params}
        scope = Scope(set(params)).bind_py(names)
        body = self._written_out(body, frozenset(params) | bound_names(body))
        lines, reused = self._with_reuse(body, scope, set(names.values()), self.function_lines)
        self.out.function_defs.append((name, self.impl_name(name), ("s",) + tuple(names.values()),
                                   lines, body.span, reused))

    def impl_name(self, name: str) -> str:
        """The Python name of user function ``name`` in the generated module."""
        return f"f_{py_identifier(name)}" if name.isascii() else f"f{zlib.crc32(name.encode())}_{py_identifier(name)}"

    def call_function(self, name: str):
        """A ``(state, *args)`` caller of user function ``name`` that shares the memo. It looks
        its caller up at each call, as generated code does: a caller on trial hands over to its
        verdict (``settle``), and one held from before would stay on trial for good."""
        ns, wrapper = self.ns, self._memoised(name, len(self.v.functions[name][0]))
        return lambda s, *args: ns[wrapper](s, *args)

    # ------------------------------------------------------------- statements
    # (procedures are written as Python by dsl/codegen.py; it checks calls and stores through these)
    def setter(self, name: str, per_player: bool) -> str:
        """The source name of the setter of player (``per_player``) or global variable ``name``
        (``mutate.variable_setter``: one per variable)."""
        key = (name, per_player)
        found = self.names.setters.get(key)
        if found is None:
            hint = f"SET_{'p' if per_player else 'g'}_{py_identifier(name)}"
            found = self.names.setters[key] = self._k(mutate.variable_setter(name, per_player), hint)
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
            return [(0, self._store(target, scope, value))]
        low, high = v.bounds.get((name, per_player), (None, None))
        if not all(bound is None or bound.__class__ is int for bound in (low, high)):
            return [(0, self._store(target, scope, value))]
        lines = []
        obj = "None"
        if per_player:
            obj = self.src(target.obj, scope)     # worked out before the value, as the setter's call does
            if pysource.kind(obj) != pysource.NAME:
                local = self._temp("_q")
                lines.append((0, f"{local} = {obj}"))
                obj = local
        local = self._temp("_q")
        lines.append((0, f"{local} = {value}"))
        if low is None and high is None:    # any value but a list or a zone (the memo notes where those go)
            test = [f"{local}.__class__ in PLAIN_VALUE"]
        else:
            test = [f"{local}.__class__ is INT"] + [f"{self._k(low)} <= {local}"] * (low is not None) + \
                [f"{local} <= {self._k(high)}"] * (high is not None)
        row = f"s.p[{obj}]" if per_player else "s.g"
        lines.append((0, f"if {' and '.join(test)} and not s.record and not s.memo:"))
        lines.append((1, f"{row}[{self._k(name)}] = {local}"))
        lines.append((0, "else:"))
        lines.append((1, f"{self.setter(name, per_player)}(s, {obj}, {local}, {self._k(target.span)})"))
        return lines

    def _store(self, target, scope, value: str) -> str:
        """The source of a statement storing ``value`` (source) into ``target``."""
        v = self.v
        span = self._k(target.span)
        if isinstance(target, ast.Name):
            name = target.id
            if name in scope.alias:
                return f"e[{self._k(scope.alias[name])}] = {value}"
            if name in v.gvars and name not in scope.locals:
                return f"{self.setter(name, False)}(s, None, {value}, {span})"
            if name in v.constants:
                self.error(ASSIGNED_CONSTANT, f"`{name}` is a constant and cannot be changed", target.span,
                           "declare it under `vars:` if it changes during the game")
            elif name in v.zones or name in v.families or name in v.sets or name in v.members:
                self.error(ASSIGNED_CONSTANT, f"`{name}` names a zone or set and cannot be assigned", target.span)
            return f"e[{self._k(name)}] = {value}"
        if isinstance(target, ast.Attr):
            obj = self.src(target.obj, scope)
            name = target.name
            if name in v.pvars and name in v.dynamic_props:     # a seat's variable, or an item's state
                twice = self._twice(obj)
                if twice is not None:
                    first, again = twice
                    return (f"SET_PROP(s, {again}, {self._k(name)}, {value}) if {first}.__class__ is STR "
                            f"else {self.setter(name, True)}(s, {again}, {value}, {span})")
            if name in v.pvars:
                return f"{self.setter(name, True)}(s, {obj}, {value}, {span})"
            if name in v.dynamic_props:
                return f"SET_PROP(s, {obj}, {self._k(name)}, {value})"
            if name in v.item_props or name in v.member_props or name in v.pzones:
                self.error(UNCHANGEABLE_ATTRIBUTE, f"`{name}` cannot be changed", target.span,
                           "only player variables and item state declared under `state:` change")
            else:
                self.error(UNKNOWN_ATTRIBUTE, f"unknown attribute `{name}`", target.span,
                           suggestion_help(name, v.pvars | v.dynamic_props))
            return "pass"
        self.error(BAD_ASSIGNMENT_TARGET, "only names and attributes can be assigned", target.span)
        return "pass"


_MISSING = object()
_PLAIN_VALUE = frozenset((int, bool, float, str, type(None), Player))   # a variable stores them as they are
_CHECKED_OPS = {"**": "POW", "/": "DIV"}


_TEXT_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$")
_TEXT_REST = _TEXT_START | frozenset("0123456789. -")


def _literal_text(value: str) -> bool:
    """A content text written into generated code as a literal (`'red'`, `'p1.hand'`): short, and of
    letters, digits, `_`, `$`, `.`, `-` and spaces only, starting with a letter, `_` or `$`; any
    other is bound in the namespace by name. (A content value, never the code written, is read.)"""
    return 0 < len(value) <= 40 and value[0] in _TEXT_START and _TEXT_REST.issuperset(value)
# An argument as cheap to read as a name (a Python variable, a local of the frame, a global):
# a call with only such arguments may have a small function's body written in its place.


def _equal_parts(arg):
    """(XS, V) of ``count(x for x in XS if x == V)`` (counted by ``list.count``), else None."""
    if not (isinstance(arg, ast.Comp) and len(arg.fors) == 1 and isinstance(arg.cond, ast.Compare)
            and arg.cond.op == "=="):
        return None
    var, coll = arg.fors[0]
    left, right = arg.cond.left, arg.cond.right
    if not (isinstance(left, ast.Name) and left.id == var):
        left, right = right, left
    if not (isinstance(arg.elt, ast.Name) and arg.elt.id == var and isinstance(left, ast.Name)
            and left.id == var) or mentions(right, var):
        return None
    return coll, right


def located_code(fn, span, name: str | None = None):
    """Put generated code on its content line (file and line; named ``name``, or after the
    line), so profiles and debuggers point there: ``games/g/rules.yaml:25(f_best_other)``."""
    if span is not None and span.path:
        fn.__code__ = fn.__code__.replace(co_filename=str(span.path), co_firstlineno=max(int(span.line), 1),
                                          co_name=name or f"line{span.line}")
    return fn


def past_end(index: int, what: str, size: int):
    """An index past either end of a list, a text or a zone, in the author's words."""
    end = "end" if index >= 0 else "start"
    raise ContentRuntimeError(f"index {index} is past the {end} of {what} ({size} item{'' if size == 1 else 's'})",
                              None, INDEX_OUT_OF_RANGE)


def _namespace(vocab: Vocabulary) -> dict:
    """The globals of generated expression code: a few helpers, nothing from content."""
    items = vocab.items

    def getitem(s, o, i):
        if type(o) is Family:
            return space(s, o, i)
        if type(o) is ZoneKey:
            held = s.zones[o]
            if i.__class__ is int and not -len(held) <= i < len(held):
                past_end(i, f"`{o.text}`", len(held))
            return held[i]
        if (type(o) is list or type(o) is str) and i.__class__ is int and not -len(o) <= i < len(o):
            past_end(i, "the list" if type(o) is list else "the text", len(o))
        if type(o) is dict and i not in o:
            no_key(o, i)
        return o[i]

    def no_key(mapping, key):
        keys = [mutate.fmt(k) for k in mapping]
        hint = suggestion_help(mutate.fmt(key), keys)
        raise ContentRuntimeError(f"the mapping has no key `{mutate.fmt(key)}` (its keys: "
                                  f"{', '.join(keys[:12]) + (', ...' if len(keys) > 12 else '') or 'none'})"
                                  + (f"; {hint}" if hint else ""), None, MISSING_KEY_IN_TABLE)

    def contains(s, x, coll):
        if type(coll) is ZoneKey:
            return s.loc.get(x) == coll
        if type(coll) is Family:
            raise ContentRuntimeError(f"`in` cannot look inside a family of zones (`{coll.text}`); "
                                      "test one of its spaces", None, WRONG_KIND)
        return x in coll

    def tally(s, z, prop, value):
        if type(z) is ZoneKey:
            return tally_count(s, z, prop, value)     # looks the table up before it builds one
        return len([x for x in seq(s, z) if items[x][prop] == value])

    def nospace(family, key, s=None):
        if s is not None and key in family.zones:      # sized by a parameter: a space of larger games only
            raise ContentRuntimeError(f"`{family.text}` has no space `{mutate.fmt(key)}` in this game "
                                      f"(`{family.bound}` is {mutate.fmt(s.g[family.bound])})")
        raise ContentRuntimeError(f"`{family.text}` has no space `{mutate.fmt(key)}`")

    def space(s, family, key):
        return family.zones[key] if family.plays(s, key) else nospace(family, key, s)

    def slice_of(s, o, lo, hi):
        for bound in (lo, hi):
            if bound is not None and bound.__class__ is not int:
                raise ContentRuntimeError(f"a slice's bounds are whole numbers, not `{mutate.fmt(bound)}`", None,
                                          WRONG_KIND)
        if type(o) is ZoneKey:
            return s.zones[o][lo:hi]
        if type(o) is list or type(o) is str:
            return o[lo:hi]
        raise ContentRuntimeError(f"only a list, a zone or a text can be sliced, not {mutate.fmt(o)}", None,
                                  UNSUPPORTED_OPERATION)

    boundary(getitem, contains, tally, _count_equal, tally_table, tally_count, _replaced, _map, _key, slice_of)

    return {"__builtins__": {}, **RUNTIME_NAMES, "UNLISTED": vm.unlisted, "SCORE": score, "len": len, "LIST": list,
            "SUM": sum, "MIN": min, "MAX": max, "INT": int, "PLAIN_VALUE": _PLAIN_VALUE,
            "NOSPACE": nospace, "SPACE": space, "COUNT_EQUAL": _count_equal, "UNSET": _UNSET,
            "TALLY_TABLE": tally_table, "SEQ": seq, "ITEMS": items, "GETITEM": getitem,
            "CONTAINS": contains, "TALLY": tally, "PLAYER": Player, "SEATS": SEAT_NAMES,
            "SEAT_OR_TEXT": memo.SEAT_OR_TEXT,
            "ANY": any, "ALL": all, "NEXT": next,
            "SET_PROP": mutate.set_prop, "FIRST_OF_EACH": _first_of_each, "REPLACED": _replaced, "MAP": _map,
            "SLICE": slice_of}


_KEYS = (str, int, bool, type(None), Player)


def _map(*pairs):
    """``{k: v, ...}``: keys are texts, numbers, players, truth values or none (a list or a zone
    names no entry)."""
    new = {}
    for i in range(0, len(pairs), 2):
        new[_key(pairs[i])] = pairs[i + 1]
    return new


def _key(key):
    """``key`` when a mapping can be keyed by it, else the content's error."""
    if key.__class__ not in _KEYS:
        raise ContentRuntimeError(f"a mapping's key is a text, a number, a player, a truth value or none, not "
                                  f"{mutate.fmt(key)}", None, UNSUPPORTED_OPERATION)
    return key


def _replaced(container, key, value):
    """``xs[i] = v``, ``d[k] = v``: a new list or mapping with the element set. A value is never
    changed in place, since another name may hold the same one (``ys = xs``), so the variable
    gets the new value through its own door (its setter, its event) like any assignment."""
    if container.__class__ is list:
        if key.__class__ is not int:
            raise ContentRuntimeError(f"a list's index is a whole number, not {mutate.fmt(key)}", None, WRONG_KIND)
        if not -len(container) <= key < len(container):
            past_end(key, "the list", len(container))
        new = list(container)
    elif container.__class__ is dict:
        new = dict(container)
        key = _key(key)
    else:
        raise ContentRuntimeError(f"only an element of a list or a table can be set, not of {mutate.fmt(container)}",
                                  None, UNSUPPORTED_OPERATION)
    new[key] = value
    return new


def _name_of(node) -> str:
    if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name):
        return f"{node.obj.id}.{node.name}"       # a player's family: `p.land`
    return node.id if isinstance(node, ast.Name) else "zones"


UNROLL_MEMBERS = 8   # any/all over a named set of at most this many members...
UNROLL_SIZE = 40     # ...and a test of at most this many syntax nodes is written out member by member
_UNSET = object()   # a reused value not worked out yet
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


def _first_of_each(pairs: list) -> list:
    """The first value of each key of ``(key, value)`` pairs, in order (options grouped `by`)."""
    firsts: dict = {}
    for key, value in pairs:
        if key not in firsts:
            firsts[key] = value
    return list(firsts.values())


def _count_equal(s, items, value) -> int:
    """How many of ``items`` (a list, or a zone, or whatever a comprehension walks) equal
    ``value``: ``list.count`` for a list, asked without a second call to see what it is."""
    if items.__class__ is list:
        return items.count(value)
    return len([x for x in seq(s, items) if x == value])


_PLAIN_ARGS = (ast.Name, ast.Num, ast.Str, ast.Const)   # arguments a body written out may take in place


class _WriteOut(Transformer):
    """:meth:`Compiler._written_out`: each call of a cheap function that asks another cheap one,
    its body in place (written out in turn)."""

    def __init__(self, compiler: Compiler, bound: frozenset):
        self.compiler, self.bound = compiler, bound

    def Call(self, call):
        comp = self.compiler
        if call.func in comp.inlining and comp.inlining.written[call.func]:
            body = comp._body_in_place(call, self.bound)
            if body is not None:
                return self.transform(body)
        return call


def _find_impure(node, v):
    """The first call of an impure built-in (``roll``) inside an expression tree, or None."""
    return next((n for n in ast.walk(node) if isinstance(n, ast.Call) and n.func not in v.functions
                 and n.func in REGISTRY and not REGISTRY[n.func].pure), None)

def py_identifier(text: str) -> str:
    """``text`` as a fragment of a Python identifier (for readable generated names): ASCII
    letters, digits and ``_`` alone, every other character ``_``. Generated code puts it
    after a prefix of its own (``f_``, ``Z_``, ``call_``), so it never starts a name."""
    return "".join(c if c in _IDENTIFIER_CHARS else "_" for c in str(text))


_IDENTIFIER_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def literal(value) -> str:
    """Text from outside (content, a file name, a title) as generated code holds it, comments
    and file names included: the Python literal ``repr`` makes, never the text itself (a line
    break in a name would end a comment and start code). Numbers, truth values, none too."""
    if value.__class__ not in (str, int, bool, type(None)):
        raise TypeError(f"no literal for a {type(value).__name__}")
    return Py(repr(value), pysource.literal_kind(value))
