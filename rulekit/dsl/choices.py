# SPDX-License-Identifier: MIT
"""A ``choose``: its options listed, handed to whoever decides, and each one's body run.

A ``choose`` is a block of a resumable procedure of its own (a saved game waiting there lists its
options again by running it): it lists every legal option as ``(target block, *values)``, each
option's ``for`` clauses walked as Python loops and its test written where it needs the fewest of
them, hands the list to ``DECIDE`` (engine/runtime.py), and goes on at the block of the option
taken. A ``choose_all`` lists them for each player still to choose. Four passes shape the listing
(dsl/passes.py): ``hoist`` (a test before the loops it does not need), ``share-heads`` (a
collection several options walk asked once), ``params-once`` (a parameter the tests read read
once) and ``listing`` (dsl/tallies.py).

``Choices`` is a part of the code writer, ``codegen._Writer``.
"""
from __future__ import annotations

from typing import NamedTuple

from ..codes import BY_NOT_TAKEN, ELSE_NEVER_RUNS, GROUP_INCLUDES_ITSELF, UNKNOWN_OPTION_GROUP, WRONG_ARGUMENT_COUNT
from ..engine.runtime import ChooseSpec
from ..engine.simultaneous import SimSpec
from ..errors import suggestion_help
from . import ast, calls, forms, ir, passes, pysource, tallies
from .ir import stmt
from .pysource import CONTINUE, RETURN_TRUE, SLOT, Jump, literal, py_identifier
from .scope import Scope
from .visit import assigned_names, bound_names, free_names

_SPLIT_LINES = 16       # a choose's listing of at least this many statements is a function of its own


class Choices:
    """Writing a ``choose`` and a ``choose_all`` (a part of the code writer)."""

    def r_Choose(self, st, decide: tuple | None = None, end: int | None = None) -> str:
        """A `choose` is a block of its own (a saved game waiting here re-lists its options by
        running it again): it lists every legal option as ``(target block, *values)`` and hands
        them to ``decide`` (a form of the player ``$0`` and the spec ``$1``, and its other holes'
        values); each option's body goes on at ``end``. Returns its spec's name."""
        comp = self.comp
        # a statement: the comprehensions of those before it are written, their variables dead
        self.scope.let_go(comp.names, comp.names.variables())
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
            decide, later = ("DECIDE(s, $0, ch, $1)",), len(lines)
        listed = len(lines)
        params = self._params_read_once(st)
        listing = self.scope.bind_py(params) if params else self.scope     # the listing reads them as locals
        options = self._choice_options(st, listing, lines)
        lines.append((3, stmt("ch = []"), st.span))
        parts, bodies = self._list_options(options, listing, lines, st.span)
        # the options are listed: the option groups' arguments (and all else the listing named) are dead
        self.scope.let_go(comp.names, comp.names.variables())
        self._tables_start(parts.pop("tables"), lines, listed, st.span)
        prompt = self._label_fn(st, self.scope, {}, st.prompt) if st.prompt is not None else None
        spec = comp.constant(ChooseSpec(parts["keys"], parts["labels"], st.span, parts["says"], prompt, parts["spans"],
                                  parts["verbs"]), f"CHOOSE{here}")
        handed = len(lines)
        apart = handed - listed + len(params) >= _SPLIT_LINES     # listed by a function of its own
        player = comp.src(st.player, self.scope if apart else listing)
        orelse = self._hand_over(st, options, lines, player, decide, spec, later)
        tail = len(lines) - handed
        if later is not None and orelse is None:    # a bot's imagined position stops here (engine/vm.py)
            unlisted = comp.src(st.player, self.scope)      # before the parameters are read
            lines[later:later] = [(3, stmt("if s.list_later:"), st.span),
                                  (4, ir.exit("return UNLISTED(s, $0, $1)", unlisted, spec), st.span)]
            listed += 2
        lines[listed:listed] = [(3, stmt("$0 = e[$1]", local, comp.constant(param)), st.span)
                                for param, local in params.items()]
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
        body.append((1, stmt("return ch"), span))
        self.helpers.append((name, body, span))
        lines[start:stop] = [(3, stmt("ch = $0(s, e)", ir.name(name)), span)]

    def _choice_options(self, st, listing: Scope, lines: list) -> list:
        """(option node, scope, names, clauses, keys, walkers, kinds) of each option a `choose` lists,
        an option group's among them; the collections options share are asked once (share-heads).
        An option's variables are its own: a later option may be given the same names (its loops end
        before the next option's begin), and what the writer knows of them is the option's
        (``kinds``: ``Scope.kinds`` of its scopes)."""
        options = []
        for opt in st.options:
            if isinstance(opt, ast.Include):
                options.extend(self._include(opt, lines, st.span, listing))
                continue
            names: dict = {}
            clauses: list = []
            keys: list = []
            walkers: list = []
            own = listing.with_kinds(dict(listing.kinds))     # what it knows of its variables is its own
            self._option_fors(opt.fors, own, self.scope.key, names, clauses, keys, walkers, opt.by is None)
            options.append((opt, self.scope, names, clauses, keys, walkers, own.kinds))
            self.comp.names.forget(names.values())      # its loops end before the next option's begin
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
        for opt, scope, names, clauses, keys, walkers, kinds in options:
            target = self.reserve()
            self.entries.add(target)        # a decision starts the run here
            scope = scope.with_kinds(kinds) if kinds is not None else scope
            inner = scope.bind_py(names, walkers)
            parts["keys"][target] = tuple(keys)
            parts["spans"][target] = opt.span
            parts["labels"][target] = self._label_fn(opt, inner, names)
            verb = _fixed_verb(opt.label)
            if verb is not None:
                parts["verbs"][target] = verb
            if opt.says is not None:
                parts["says"][target] = self._label_fn(opt, inner, names, opt.says)
            listed_inner = listing.with_kinds(kinds).bind_py(names, walkers) if kinds is not None else inner
            with tallies.listing(comp, parts["tables"]):
                self._list_option(opt, listed_inner, target, names, clauses, lines, span)
            bodies.append((target, opt.body, scope))
        return parts, bodies

    def _hand_over(self, st, options, lines, player: str, decide: tuple, spec: str, later) -> int | None:
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
                lines.append((3, stmt("if not ch:"), st.span))
                lines.append((4, Jump(target), st.span))
                lines.append((4, CONTINUE, st.span))
            else:
                self.comp.error(ELSE_NEVER_RUNS, f"this `choose` always has the option {always.label.value!r}"
                                if isinstance(always.label, ast.Str) else "this `choose` always has an option",
                                st.orelse[0].span, "an `else:` runs only when no option is listed: remove it, or "
                                "give that option an `if`")
        decided = ir.code(decide[0], player, spec, *decide[1:])
        if later is None:
            lines.append((3, ir.exit("return $0", decided), st.span))
        else:
            lines.append((3, stmt("if $0:", decided), st.span))
            lines.append((4, RETURN_TRUE, st.span))
            lines.append((3, Jump("f.pc"), st.span))
            lines.append((3, CONTINUE, st.span))
        return target

    def _bind_chosen(self, keys: tuple, span) -> None:
        """An option's block starts by binding the values taken (``Frame.chosen``, set by
        runtime.decide, runtime.take or a `choose_all`'s next pick) to their names."""
        slots = [ir.code("e[$0]", self.comp.constant(key)) for key in keys]
        if len(slots) == 1:
            self.cur.append((3, stmt("$0 = f.chosen[1]", slots[0]), span))
        elif slots:
            self.cur.append((3, stmt("_pc, $* = f.chosen", slots), span))

    def _list_option(self, opt, inner: Scope, target: int, names: dict, clauses: list, lines: list, span) -> None:
        """The lines that add one option's ``(target, *values)`` tuples to ``ch``, each value its
        ``for`` clauses walk (where its condition holds). Its lines name the option's own content
        line (a listing reads, and fails, at the option it lists)."""
        comp = self.comp
        comp.names.release("_t")       # an option's values read twice are its own
        span = opt.span or span
        item = ir.tuple_of([literal(target)] + [names[n] for n in names])
        # compiled once: whole, or in the parts _placed_tests puts before loops
        cond = comp.src(opt.cond, inner) if opt.cond is not None and not (clauses and opt.by is None) else None
        if not clauses:
            if not names:
                item = comp.constant((target,), f"OPT{target}")
            if cond is None:
                lines.append((3, stmt("ch.append($0)", item), span))
            else:
                lines.append((3, stmt("if $0:", cond), span))
                lines.append((4, stmt("ch.append($0)", item), span))
        elif opt.by is not None:
            lines.append((3, stmt("ch += $0", self._grouped(opt, inner, item, clauses, cond)), span))
        else:       # plain loops: most lists of options are short or empty, where a comprehension costs more
            placed, cond = self._placed_tests(opt, inner, clauses)
            heads = [stmt("if $0:", placed[-1])] if -1 in placed else []
            for level, clause in enumerate(clauses):
                if clause.guard is not None:
                    heads.append(stmt("if $0:", clause.guard))
                heads.append(stmt("for $0 in $1:", clause.var, clause.src))
                if clause.test is not None:
                    heads.append(stmt("if $0:", clause.test))
                if level in placed:
                    heads.append(stmt("if $0:", placed[level]))
            if cond is not None:
                heads.append(stmt("if $0:", cond))
            lines.extend((depth, head, span) for depth, head in enumerate(heads, 3))
            lines.append((3 + len(heads), stmt("ch.append($0)", item), span))
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
        parts = calls.conjuncts_written_out(comp, opt.cond, bound | bound_names(opt.cond))
        level_of = {name: k for k, (name, _coll) in enumerate(opt.fors)}
        placed: dict = {}
        at, hoisted = steady - 1, 0
        for part in parts:
            at = max([at] + [level_of[name] for name in free_names(part) if name in level_of])
            if at >= len(clauses) - 1:
                break
            placed.setdefault(at, []).append(comp.src(part, inner))
            hoisted += 1
        if not placed:
            comp.out.inlined_at = written       # the condition is written as it was (coverage.py)
            return {}, comp.src(opt.cond, inner)
        rest = parts[hoisted:]
        inside = ir.all_of(comp.src(part, inner) for part in rest) if rest else None
        return {level: ir.all_of(tests) for level, tests in placed.items()}, inside

    def _walks_set(self, coll, scope: Scope) -> bool:
        """``coll`` names a set of the game that has members."""
        return tallies.names_set(self.comp, coll, scope) and bool(self.comp.v.sets[coll.id])

    def r_ChooseAll(self, st):
        """``choose_all q in players:`` (engine/simultaneous.py): the options are listed as a
        `choose` asking each player still to choose in turn; a pick is recorded, unseen; when
        all have chosen, each pick's body runs in the listed order, then the code after it."""
        comp = self.comp
        ask, record, run, end = (self.reserve() for _ in range(4))
        self.entries.update((ask, record, run, end))     # the simultaneous choice's machinery goes to each
        sim = SimSpec(f"$A{next(self._slots)}", self.scope.key(st.var), ask, record, st.span)
        ref = comp.constant(sim, "SIM")
        self.cur.append((3, stmt("SIM_BEGIN(s, f, $0, $1)", ref, comp.src(st.player, self.scope)), st.span))
        self.goto(ask)
        self.start(ask)
        self.cur.append((3, stmt("if SIM_ASK(s, f, $0):", ref), st.span))
        self.goto(run, 4)
        options = ast.Choose(ast.Name(st.var, span=st.span), st.options, span=st.span)
        spec = self.r_Choose(options, ("SIM_COLLECT(s, f, $2, $0, ch, $1)", ref), run)
        sim.inner = comp.ns.get(spec)
        sim.outer = ChooseSpec({record: (sim.pick,)}, {record: sim.label}, st.span)
        self.cur.append((3, stmt("pc = SIM_NEXT(f, $0)", ref), st.span))     # the block `run`: the next pick's body
        self.cur.append((3, stmt("if pc is None:"), None))
        self.cur.append((4, Jump(end), None))
        self.cur.append((3, CONTINUE, None))
        self.start(record)
        self._bind_chosen((sim.pick,), st.span)       # the pick a player took (sim.outer's one option)
        self.cur.append((3, stmt("if SIM_RECORD(s, f, $0):", ref), st.span))     # the others still to choose
        self.cur.append((4, RETURN_TRUE, None))
        self.goto(ask)
        self.start(end)

    def _grouped(self, opt, inner, item, clauses: list, cond) -> str:
        """``"take {t.kind}" for t in row by t.kind``: one option per key, the first of each
        (identical tiles are one move, not one per tile)."""
        key = self.comp.src(opt.by, inner)
        pairs = ir.listed(ir.tuple_of([key, item]), [(clause.var, clause.src) for clause in clauses], cond)
        return ir.code("FIRST_OF_EACH($0)", pairs)

    @staticmethod
    def _tables_start(tables: dict, lines: list, start: int, span) -> None:
        """Each local keeping a tally for the listing starts as None (the first test that reads
        it looks the table up)."""
        lines[start:start] = [(3, stmt("$0 = None", local), span) for local in tables.values()]

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
        return {param: ir.name(f"a_{py_identifier(param)}", SLOT, ("read once", param))
                for param in params if counts[param] >= 2}

    @passes.step("share-heads")
    def _share_heads(self, options, lines, span) -> None:
        """Options that walk the same call (`for t in kept(p, 'spy')` in four options) ask it
        once: the first collection of an option is listed whenever the choice is, so working
        it out before the options changes nothing but the time."""
        counts: dict = {}
        for _opt, _scope, _names, clauses, _keys, _walkers, _kinds in options:
            if clauses and clauses[0].same is not None:
                counts[clauses[0].same] = counts.get(clauses[0].same, 0) + 1
        shared: dict = {}
        for _opt, _scope, _names, clauses, _keys, _walkers, _kinds in options:
            if clauses and counts.get(clauses[0].same, 0) >= 2:
                same = clauses[0].same
                if same not in shared:
                    shared[same] = ir.name(f"h{len(shared) + 1}")
                    lines.append((3, stmt("$0 = $1", shared[same], clauses[0].shared), span))
                clauses[0] = _Clause(clauses[0].var, shared[same], shared=shared[same])

    def _label_fn(self, opt, inner: Scope, names: dict, text=None):
        """``fn(s, e, *values)``: an option's notation (or ``text``: its `says`, a choose's
        `prompt`), formatted only when someone asks (or the text itself, when it never changes)."""
        text = opt.label if text is None else text
        if isinstance(text, ast.Str):
            return text.value
        params = ["s", "e"] + [names[n] for n in names]
        return self.comp.define(tuple(params), [stmt("return $0", self.comp.src(text, inner))], opt.span,
                                 "label", "shorten the option's text")

    def _option_fors(self, fors, scope, key, names, clauses, keys, walkers, walk=False, plain=False):
        """The ``for`` clauses of an option (:class:`_Clause`); its variables are Python
        variables while options are listed, and the chosen values go into the env under
        ``keys``. ``walk``: the clauses become ``for`` statements (the option is not grouped),
        which may walk a range as it is (``walk_src``). ``plain``: they become ``for``
        statements in any case. Either way, a clause over a function that picks items of a
        collection walks that collection (``calls.walked_body``)."""
        comp = self.comp
        for name, coll in fors:
            var = comp.variable(name)
            visible = scope.bind_py(names, walkers)
            if walk:
                src = forms.walk_src(comp, coll, visible)
            else:
                src = comp.iterable_src(coll, visible)      # a comprehension's when options are grouped (_grouped)
            picked = calls.walked_body(comp, coll, visible) if plain or walk else None
            same = (coll, visible.whereabouts(coll)) if isinstance(coll, ast.Call) else None
            if picked is None:
                clauses.append(_Clause(var, src, shared=src, same=same))
            else:
                guard, coll, own, test = picked
                mine = visible.bind_py({own: var}, [var] if comp.kinds.certain(coll, visible) == "zone" else [])
                clauses.append(_Clause(var, forms.walk_src(comp, coll, visible), guard and comp.src(guard, visible),
                                       test and comp.src(test, mine), src, same))
            names[name] = var
            if comp.kinds.certain(coll, visible) == "zone":
                walkers.append(var)
            tallies.note_member(comp, var, coll, visible)
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
        # a group of includes alone hands its arguments on: a variable, a literal or a slot (the same
        # value all through the listing, which changes no state) is read as it is by the groups it
        # includes, with no variable of its own (`v_p = a_p`, never `v_p_2 = v_p`)
        handed_on = not any(not isinstance(opt, ast.Include) for opt in group_options)
        for pname, arg in zip(params, inc.args):
            var = None if handed_on else comp.variable(pname)
            value = comp.src(arg, self.scope if scope is None else scope)
            if var is None and (pysource.is_variable_or_literal(value) or pysource.kind(value) == SLOT):
                names[pname] = value
                continue
            var = var or comp.variable(pname)
            lines.append((3, stmt("$0 = $1", var, value), span))
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
            out.append((opt, inner, o_names, o_clauses, o_keys, o_walkers, None))   # (its scope is its own)
            self.comp.names.forget(v for n, v in o_names.items() if n not in names)     # (the group's stay)
        return out


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


def _fixed_verb(label) -> str | None:
    """The first word of an option's notation where its text fixes it (``"bid {n}"``: bid),
    so counting what was played needs no notation written; else None."""
    if isinstance(label, ast.Str):
        return label.value.split(" ", 1)[0]
    if isinstance(label, ast.Template) and label.parts and isinstance(label.parts[0], str) and " " in label.parts[0]:
        return label.parts[0].split(" ", 1)[0]
    return None
