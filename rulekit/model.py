# SPDX-License-Identifier: MIT
"""Checked content -> the compiled, immutable definition of a game.

Input is the merged content data (schema-valid) and its source map. Output is a
frozen :class:`Game`: one record per section (components, variables, board, program,
scoring, bots, memo), each returned by that section's builder, the program being
the whole rules compiled to one generated Python module. Every effect-language string is parsed here with its file
position, and every name is resolved once; a game that builds is a game whose
names all mean something.
"""
from __future__ import annotations

import fnmatch
import hashlib
import json
import re
from typing import Any

import attrs

from .codes import (
    BAD_ID_TEMPLATE,
    DECLARED_TWICE,
    DUPLICATE_ITEM_ID,
    DUPLICATE_PHASE,
    ENDLESS_FLOW,
    FAMILY_SIZE,
    MEMBER_OF_TWO_SETS,
    NOT_EFFECT_TEXT,
    PHASE_NEVER_RUNS,
    TOO_MANY_ITEMS,
    UNKNOWN_ROLLOUT_BOT,
    UNKNOWN_SET,
    UNKNOWN_START_ZONE,
    UNREAD_PARAMETER,
    UNUSED_PROCEDURE,
)
from .content import typed
from .content.loader import SourceMap
from .dsl import ast, calls, check, parse_cache, secrecy
from .dsl.check_names import unsaid
from .dsl.codegen import Code, Module
from .dsl.compiler import Compiler, Vocabulary
from .dsl.narrate import compile_narration
from .dsl.reads import EVERYTHING, PLAYER_COUNT, function_reads, memo_table, seat_params
from .dsl.texts import located, parse_text, scope
from .engine import graphs
from .engine.memo import StaticTable
from .engine.state import PLAYERS, Family, ZoneKey, grid_cells
from .errors import Diagnostic, DiagnosticReport
from .source import Span

BUILTIN_CONSTANTS = ("players", "num_players")
MAX_ITEMS = 100_000         # items a game may have, listed or generated
MAX_ZONES = 100_000         # zones in all families (`keys:`, `range:`) of a game
# Characters Python's splitlines() takes for line breaks but the effect language does not.
BUILTIN_VARS = ("round",)
VISIBILITY = ("public", "owner", "hidden", "face_up")
OWN_PARAMS = "params"       # in TEXT_PLACES: the names the text's own `params:` declares
# Where the effect language is written in content (`*`: any key or index), as what (a body of
# statements, an expression, a choose's options) and the names it is given. The builder parses
# these and no others (tests/test_front_end.py holds it to that); tools that read texts (the
# language server) read this table, never one of their own.
TEXT_PLACES = (
    (("procedures", "*", "do"), "script", OWN_PARAMS), (("setup",), "script", ()),
    (("flow", "finish"), "script", ()), (("flow", "phases", "*", "do"), "script", ()),
    (("functions", "*", "expr"), "expr", OWN_PARAMS), (("estimate",), "expr", ("p",)),
    (("option_groups", "*", "options"), "options", OWN_PARAMS), (("params", "*", "expr"), "expr", ()),
    (("flow", "end_after_round_if"), "expr", ()), (("flow", "phases", "*", "when"), "expr", ()),
    (("flow", "rounds"), "expr", ()),
    (("scoring", "categories", "*", "points"), "expr", ("p",)), (("scoring", "tiebreak", "*"), "expr", ("p",)),
    (("scoring", "tiebreak", "*", "expr"), "expr", ("p",)), (("scoring", "eligible"), "expr", ("p",)),
    (("invariants", "*", "expr"), "expr", ()), (("invariants", "*", "when"), "expr", ()),
    (("zones", "*", "dealt_from"), "expr", ("p",)), (("player", "zones", "*", "dealt_from"), "expr", ("p",)),
    (("bots", "*", "rules", "*", "when"), "expr", ("p",)), (("position",), "script", ()),
)


def text_place(path: tuple) -> tuple | None:
    """(kind, the names it is given) of the text at content ``path``, from TEXT_PLACES (None: no text)."""
    return next(((kind, params) for pattern, kind, params in TEXT_PLACES
                 if len(pattern) == len(path) and all(p in ("*", k) for p, k in zip(pattern, path))), None)


ESTIMATE = "$estimate"    # the estimate among the functions (engine/memo.py remembers it)


@attrs.frozen(eq=False)
class Components:
    """The things of the game: symbol sets, and the items made from them (`sets:`, `components:`).
    Grouped because items are generated from sets and every item question (its kind, its printed
    and its changeable properties, where it starts) is answered from these tables together."""

    sets: dict                  # set -> member names (tuple)
    members: dict               # member -> static props
    items: dict                 # id -> static props
    kinds: dict                 # kind -> tuple of ids
    item_kind: dict             # id -> kind
    item_start: dict            # id -> ZoneKey name where it starts
    prop_defaults: dict         # state property -> its default (the last kind declaring it)
    kind_state: dict            # component kind -> the state properties it declares (`has`)
    state_seed: dict            # prop -> {item: its kind's own state default, where not the common one}
    prop_values: dict           # item property -> every value items have (none: an item without it)


@attrs.frozen(eq=False)
class Variables:
    """Global (`vars:`) and player (`player.vars:`) variables: initial values, visibility and
    bounds, side by side since a new game, a view and the setters read them the same way."""

    gvars: dict                 # name -> initial
    gvis: dict                  # name -> visibility
    gbounds: dict               # name -> (min, max)
    pvars: dict
    pvis: dict
    pbounds: dict


@attrs.frozen(eq=False)
class Board:
    """Where items lie (`zones:`, `player.zones:`): global zones, families and player zones with
    their visibility and capacity, and what a hidden zone is dealt from (`dealt_from:`); one
    record because views, moves and determinisation ask about a zone by its name here."""

    zones: dict                 # name -> ZoneKey (global)
    zone_vis: dict              # zone name (global, family or player) -> visibility
    families: dict              # name -> Family
    pzones: dict                # name -> by seat: ZoneKey, or Family of a player's own (`keys:`)
    capacity: dict              # zone name -> capacity
    dealt_from: dict            # zone name -> (fn(s, {"p": owner}): the items it is dealt from, span)


@attrs.frozen(eq=False)
class Program:
    """The rules compiled: one generated module (dsl/codegen.Module) holding every procedure,
    phase, setup, finish and the flow, the content functions and the parameters, with the names
    it was compiled over. Together because scripts compile more code beside it."""

    params: dict                # name -> value or compiled fn
    procedures: dict            # key -> codegen.Code (content procedures by name; `$setup`, `phase:ID`, ...)
    functions: dict             # content function -> compiled fn
    main: Code                  # the flow
    finish_pc: int              # the block of the flow that runs `finish` (where `end_game()` goes)
    module: Any                 # the generated module (dsl/codegen.Module): `rulekit compile`
    vocab: Vocabulary           # the names it was compiled over (scripts compile against them)
    roll_streams: frozenset | None = None   # the streams `roll` draws from (None: not known before running)
    props_named: dict = attrs.Factory(dict)  # built-in -> {what its first argument names: {property}} (render)


@attrs.frozen(eq=False)
class Scoring:
    """What is asked of a position without changing it: the score categories, tie-breaks and
    who may win at the end (`scoring:`), the invariants checked as it goes, and the estimate
    bots judge positions by meanwhile."""

    categories: tuple           # ((id, text, fn), ...)
    tiebreak: tuple             # (fn, ...)
    eligible: Any               # (fn, span): whether `p` may win (`scoring.eligible`), or None
    invariants: tuple           # ((id, text, fn), ...)
    estimate: Any               # fn(s, {"p": seat}) or None
    estimate_of_own_seat: bool = False   # the estimate of p reads no other player's variables and zones
    tiebreak_names: tuple = ()  # each tie-break's name (`id:`), or None where it has none


@attrs.frozen(eq=False)
class Bots:
    """Bots written as content (`bots:`) and how the search bots search (`search:`)."""

    rules: dict                 # bot name -> [(condition fn or None, compiled pattern, text)]
    search: dict                # `search:` settings (agents.SEARCH_DEFAULTS for what is left out)


@attrs.frozen(eq=False)
class Memo:
    """What remembering needs (engine/memo.py): which functions a change forgets, worked out
    from their read sets when the game is built, and the game's two caches. ``moves`` and
    ``static`` are the only tables of a game filled while games run: a pair of zones' forgets
    is worked out on its first move, a function reading no state is answered once per
    arguments for every state of the game. Both hold only what the content determines, so
    sharing them between states, clones and games of one load changes no result."""

    deps: dict                  # resource -> functions whose memoised results it may change
    always: tuple               # functions forgotten on any change (they may read anything)
    moves: dict = attrs.Factory(dict)    # (zone name, zone name) -> functions a move forgets
    static: dict = attrs.Factory(dict)   # results of functions reading no state: name -> {(n, *args): value}


@attrs.frozen(eq=False)
class Game:
    """A compiled game: the records of its sections and what is the game's as a whole.
    Frozen and shared by every state of the game (only the memo's two caches fill as games run)."""

    name: str
    title: str
    path: str
    variants: tuple
    content_hash: str
    data: dict
    source_map: SourceMap
    min_players: int
    max_players: int
    default_players: int
    components: Components
    variables: Variables
    board: Board
    program: Program
    scoring: Scoring
    bots: Bots
    memo: Memo
    provenance: tuple           # ((path, kind, text, span), ...)
    warnings: tuple = ()        # diagnostics of severity "warning" (shown by `rulekit validate`)
    files: dict = attrs.Factory(dict)       # content file (relative to the game folder) -> hash of its bytes
    narration: Any = None                   # `narrate:` compiled (narrate.Narration): what printing a game says
    # content path of every effect-language text -> its tree, as the checks read it: a tool that
    # asks what a text says asks this, never the YAML again (tools/action_domains.py)
    texts: dict = attrs.Factory(dict)

    def name_kinds(self) -> dict:
        """(content file, line, column) of each use of a text's own name (a local, a parameter, a
        name a ``for`` binds) -> what the front end found it evidently holds ("seat", "item",
        "number"...; dsl/check.py): the language server's hover says it."""
        front_end = self.program.module.comp.front_end
        return front_end.typed if front_end is not None else {}

    @property
    def round_name(self) -> str:
        """What the game calls a round (`flow.round_name`: "epoch"), for screens and reports."""
        name = (self.data.get("flow") or {}).get("round_name")
        return name if isinstance(name, str) and name else "round"

    def tables_read_at(self, span: Span) -> tuple:
        """(what, span) for each table the content at ``span`` (a statement's or an expression's
        first line) indexes by name, with where its value is set: an index a table cannot hold is
        reported on the rule that reads it, and names the line that set the table (a variant's)."""
        tables = (self.data.get("tables") or {}) if isinstance(self.data.get("tables"), dict) else {}
        out: dict = {}
        for tree in self.texts.values():
            for node in ast.walk(tree):
                where = node.span
                if isinstance(node, ast.Index) and isinstance(node.obj, ast.Name) and node.obj.id in tables \
                        and where.path == span.path and span.line <= where.line <= (span.end_line or span.line):
                    name = node.obj.id
                    size = len(tables[name]) if isinstance(tables[name], list | dict) else 0
                    out.setdefault(name, (f"table `{name}` ({size} entries) is set here",
                                          self.source_map.span(("tables", name))))
        return tuple(v for v in out.values() if v[1] is not None)

    def compiler_for_scripts(self) -> Compiler:
        """A compiler over this game's names (for expectations and position scripts): its
        code runs beside the game's generated module (a copy of its namespace)."""
        program = self.program
        compiler = Compiler(program.vocab, self.memo.static, program.module.comp.inlining)
        compiler.out.functions_impl = program.functions
        compiler.ns = dict(program.module.comp.ns)
        compiler.front_end = check.FrontEnd(compiler.v, compiler.kinds, check.Types.of_content(
            self.data, typed.Vocab(self.components.sets, None)), compiler.out.diagnostics)
        return compiler

    def compile_script(self, text: str, origin=None) -> Code:
        """Compile extra statements (a script's ``position:``) against this game: a
        procedure of its own, run in a frame after setup, that may call the game's."""
        locate = origin.locate if origin is not None else None
        body = parse_text(text, locate)
        compiler = self.compiler_for_scripts()
        module = Module(compiler, f"{self.name} position")
        module.codes.update(self.program.procedures)
        code = module.declare("$position", (), None, "position")
        module.write("$position", (), body, None, "position")
        errors = [d for d in compiler.diagnostics() if d.severity == "error"]
        if errors:
            raise DiagnosticReport(errors)
        module.load()
        return code


class _Builder:
    def __init__(self, data: dict, smap: SourceMap, name: str, path: str, variants: tuple):
        self.data = data
        self.smap = smap
        self.name = name
        self.path = path
        self.variants = variants
        self.diagnostics: list[Diagnostic] = []
        self.read: set = set()        # every name some parsed text of the game reads (RK0345)
        self.texts: dict = {}         # content path -> its effect-language text's tree (Game.texts)
        self.seat_params: dict = {}   # id(a text's tree) -> the names it is given that are a player
        self.items_left = MAX_ITEMS
        self.zones_left = MAX_ZONES
        self._bounds: dict[str, str] = {}     # family -> the parameter that sizes it (`range:`)
        self._graphs: dict = {}               # family -> its map (`graph:`, engine/graphs.Graph)
        self._members: dict = {}              # set member -> its properties (what a map is made of)

    def error(self, code, message, path, help=None, key=False):
        diagnostic = Diagnostic(code, message, self.smap.span(path, key=key), help=help)
        if diagnostic not in self.diagnostics:  # e.g. one bad `start` zone, not one per copy
            self.diagnostics.append(diagnostic)

    # ------------------------------------------------------------ scripts
    def parse(self, path: tuple, kind: str = "script"):
        text = _dig(self.data, path)
        origin = self.smap.text(path)
        if not isinstance(text, str):
            self.error(NOT_EFFECT_TEXT, f"expected effect-language text here, got {type(text).__name__}", path)
            return None
        if origin is not None:
            locate = origin.locate
            key = (kind, text, origin)
        else:
            span = self.smap.span(path) or Span(self.path, 1, 1)
            key = (kind, text, span.path, span.line)

            def locate(line, col, el=None, ec=None):
                return Span(span.path, span.line + line - 1, col)
        try:
            tree = parse_cache.parsed(key, lambda: parse_text(text, locate, kind))
        except DiagnosticReport as report:
            self.diagnostics.extend(report.diagnostics)
            return None
        self.read.update(node.id for node in ast.walk(tree) if isinstance(node, ast.Name))
        self.texts[path] = tree
        place = text_place(path)
        if place is not None and place[1] != OWN_PARAMS and place[1]:
            self.seat_params[id(tree)] = frozenset(place[1])    # every name a place gives is a player (`p`)
        return tree

    # ------------------------------------------------------------ build
    def build(self) -> Game:
        # Each section may add diagnostics (and parses and compiles as it goes): the order
        # of the sections is the order of the diagnostics.
        d = self.data
        players = d.get("players", {})
        vocab = Vocabulary()
        components = self._components(vocab)
        variables = self._variables(vocab)
        board = self._zones(vocab, components.sets)
        self._check_starts(components.item_start, components.item_kind, board.zones)
        params_spec = self._declare_params(vocab)
        functions_spec, procedures_spec = self._signatures(vocab)
        compiler, reads = self._compile_functions(vocab, functions_spec)
        program = self._program(compiler, procedures_spec, vocab, self._params(compiler, params_spec))
        scoring = self._scoring(compiler)
        bots = self._bots(compiler)
        # compiled in this order as ever (a constant no name describes, `K1`, is numbered in turn)
        scoring = attrs.evolve(scoring, estimate=self._estimate(compiler),
                               estimate_of_own_seat=seat_params(vocab, ESTIMATE) is not None)
        board = attrs.evolve(board, dealt_from=self._dealt_from(compiler))
        narration = compile_narration(self, compiler)
        self._check_other_texts(compiler)
        warnings = self._final_checks(compiler, procedures_spec)
        # every text is compiled by now: what `roll` draws from is known (or known to be unknown)
        program = attrs.evolve(program, roll_streams=None if compiler.out.roll_streams is None
                               else frozenset(compiler.out.roll_streams), props_named=compiler.out.props_named)

        return Game(
            name=self.name, title=(d.get("meta") or {}).get("title", self.name), path=self.path,
            variants=self.variants, content_hash=content_hash(d), data=d, source_map=self.smap,
            min_players=players.get("min", 1), max_players=players.get("max", 8),
            default_players=players.get("default", players.get("min", 2)),
            components=components, variables=variables, board=board, program=program, scoring=scoring,
            bots=bots, memo=Memo(*memo_table(reads), static=compiler.static_memo),
            provenance=tuple(self._provenance()), warnings=warnings, narration=narration, texts=self.texts)

    def _components(self, vocab: Vocabulary) -> Components:
        """Sets, then the items made from them (:meth:`_sets`, :meth:`_items`)."""
        sets, members = self._sets(vocab)
        return self._items(vocab, sets, members)

    def _sets(self, vocab: Vocabulary):
        """Returns (set -> member names, member -> static props); also the tables."""
        sets: dict[str, tuple] = {}
        members: dict[str, dict] = {}
        for set_name, spec in (self.data.get("sets") or {}).items():
            if isinstance(spec, list):
                entries = {str(m): {} for m in spec}
            else:
                entries = {str(m): _value(dict(props or {})) for m, props in spec.items()}
            sets[set_name] = tuple(entries)
            for member, props in entries.items():
                if member in members:
                    self.error(MEMBER_OF_TWO_SETS, f"`{member}` is a member of two sets", ("sets", set_name), key=True)
                members[member] = {k: v for k, v in props.items() if k not in ("text", "provenance")}
                vocab.member_props.update(members[member])
        vocab.sets = sets
        vocab.members = members
        vocab.tables = dict(self.data.get("tables") or {})
        return sets, members

    def _items(self, vocab: Vocabulary, sets: dict, members: dict) -> Components:
        """Components -> items; start zones are checked once the zones are known
        (:meth:`_check_starts`)."""
        items: dict[str, dict] = {}
        kinds: dict[str, tuple] = {}
        item_kind: dict[str, str] = {}
        item_start: dict[str, str] = {}
        prop_defaults: dict[str, Any] = {}
        kind_state: dict[str, dict] = {}
        for kind, spec in (self.data.get("components") or {}).items():
            ids = []
            for ident, props in self._instances(kind, spec, sets):
                if ident in items:
                    self.error(DUPLICATE_ITEM_ID, f"two items share the id `{ident}`", ("components", kind), key=True)
                    continue
                items[ident] = props = _value(props)
                item_kind[ident] = kind
                item_start[ident] = spec.get("start", "box")
                ids.append(ident)
                vocab.item_props.update(props)
            kinds[kind] = tuple(ids)
            declared = {prop: _value(default) for prop, default in (spec.get("state") or {}).items()}
            kind_state[kind] = declared
            prop_defaults.update(declared)
            vocab.dynamic_props.update(declared)
        vocab.items = items
        vocab.kinds = set(kinds)
        vocab.item_kind = item_kind
        vocab.kind_props = {kind: frozenset(p for ident in ids for p in items[ident]) | frozenset(kind_state[kind])
                            for kind, ids in kinds.items()}
        vocab.prop_defaults = prop_defaults
        return Components(
            sets=sets, members=members, items=items, kinds=kinds, item_kind=item_kind, item_start=item_start,
            prop_defaults=prop_defaults, kind_state={kind: frozenset(props) for kind, props in kind_state.items()},
            state_seed=_state_seed(kind_state, kinds, prop_defaults), prop_values=_prop_values(items))

    def _variables(self, vocab: Vocabulary) -> Variables:
        """Global and player variables."""
        gvars, gvis, gbounds = _var_table(self.data.get("vars"))
        for name in BUILTIN_VARS:
            gvars.setdefault(name, 0)
            gvis.setdefault(name, "public")
        pvars, pvis, pbounds = _var_table((self.data.get("player") or {}).get("vars"))
        vocab.gvars = set(gvars)
        vocab.pvars = set(pvars)
        vocab.bounds = {(name, False): b for name, b in gbounds.items()} | \
            {(name, True): b for name, b in pbounds.items()}
        return Variables(gvars, gvis, gbounds, pvars, pvis, pbounds)

    def _zones(self, vocab: Vocabulary, sets: dict) -> Board:
        """Global zones, families (`keys:`, `range:`) and player zones; what a zone is dealt
        from is compiled with the rest of the texts (:meth:`_dealt_from`)."""
        zones = {"box": ZoneKey("box")}
        zone_vis = {"box": "hidden"}
        families: dict[str, Family] = {}
        capacity: dict[str, int] = {}
        self._members = vocab.members
        for name, spec in (self.data.get("zones") or {}).items():
            spec = spec or {}
            zone_vis[name] = spec.get("visibility", "public")
            if "capacity" in spec:
                capacity[name] = spec["capacity"]
            keys = self._zone_keys(name, spec, sets)
            if keys is None:
                zones[name] = ZoneKey(name, capacity=capacity.get(name))
            else:
                families[name] = Family(name, keys, capacity.get(name), grid=_grid(spec), bound=self._bounds.get(name),
                                        graph=self._graphs.get(name))
        pzones: dict[str, tuple] = {}
        for name, spec in ((self.data.get("player") or {}).get("zones") or {}).items():
            spec = spec or {}
            zone_vis[name] = spec.get("visibility", "public")
            if "capacity" in spec:
                capacity[name] = spec["capacity"]
            keys = self._zone_keys(name, spec, sets, ("player", "zones", name), self._seats())
            if keys is None:
                pzones[name] = tuple(ZoneKey(name, i, capacity=capacity.get(name)) for i in range(len(PLAYERS)))
            else:       # a family of each player's own: one per seat a game may have
                pzones[name] = tuple(Family(name, keys, capacity.get(name), i, _grid(spec), self._bounds.get(name),
                                            self._graphs.get(name))
                                     for i in range(self._seats()))
        vocab.zones = zones
        vocab.families = families
        vocab.pzones = pzones
        return Board(zones, zone_vis, families, pzones, capacity, dealt_from={})

    def _check_starts(self, item_start: dict, item_kind: dict, zones: dict) -> None:
        """An unknown start zone is reported and the item starts in the box (so building goes on)."""
        for ident, start in item_start.items():
            if start not in zones:
                self.error(UNKNOWN_START_ZONE, f"unknown start zone `{start}` for `{item_kind[ident]}`",
                           ("components", item_kind[ident], "start"),
                           help=_suggest(start, zones))
                item_start[ident] = "box"

    def _declare_params(self, vocab: Vocabulary) -> dict:
        """Params are named before anything is compiled (their values come after the
        functions, since `expr:` params may call them); all names are known by now, so
        clashes between them are checked here."""
        params_spec = self.data.get("params") or {}
        vocab.constants = set(params_spec) | set(BUILTIN_CONSTANTS)
        for name, spec in params_spec.items():
            value = _value(spec.get("value") if isinstance(spec, dict) else spec)
            if type(value) in (int, bool, str) and not (isinstance(spec, dict) and "expr" in spec):
                vocab.fixed[name] = value     # the same in every state of the game: a constant of its code
        self._check_clashes(vocab)
        return params_spec

    def _signatures(self, vocab: Vocabulary):
        """Functions, procedures and option groups, declared before any body is compiled so
        that bodies can call each other. Returns (functions spec, procedures spec)."""
        functions_spec = self.data.get("functions") or {}
        for name, spec in functions_spec.items():
            body = self.parse(("functions", name, "expr"), "expr")
            vocab.functions[name] = (tuple(spec.get("params") or ()),
                                     body or ast.Const(None, span=Span(self.path, 1, 1)))
        procedures_spec = self.data.get("procedures") or {}
        for name, spec in procedures_spec.items():
            vocab.procedures[name] = tuple(spec.get("params") or ())
        if self.data.get("estimate"):
            body = self.parse(("estimate",), "expr")
            if body:      # a function of `p` like any other (ESTIMATE: a name content cannot write)
                vocab.functions[ESTIMATE] = (("p",), body)

        for name, spec in (self.data.get("option_groups") or {}).items():
            options = self.parse(("option_groups", name, "options"), "options")
            vocab.option_groups[name] = (tuple(spec.get("params") or ()), options or ())
        return functions_spec, procedures_spec

    def _compile_functions(self, vocab: Vocabulary, functions_spec: dict):
        """Returns (the compiler, what each function reads); functions reading no state
        are memoised for the whole game."""
        reads = function_reads(vocab)
        compiler = Compiler(vocab, {n: StaticTable(of_count=bool(r)) for n, r in reads.items()
                                    if r is not EVERYTHING and r <= {PLAYER_COUNT}})
        compiler.front_end = check.FrontEnd(vocab, compiler.kinds, check.Types.of_content(
            self.data, typed.Vocab(vocab.sets, None)), self.diagnostics, self.seat_params)
        for name in functions_spec:
            calls.compile_function(compiler, name)
        if ESTIMATE in vocab.functions:
            calls.compile_function(compiler, ESTIMATE)
        return compiler, reads

    def _params(self, compiler: Compiler, params_spec: dict) -> dict:
        """Constants, or functions of the state for those computed from the player count."""
        params: dict[str, Any] = {}
        for name, spec in params_spec.items():
            if isinstance(spec, dict) and "expr" in spec:
                body = self.parse(("params", name, "expr"), "expr")
                params[name] = located(compiler.expr(body, scope()), body.span, f"parameter `{name}`") \
                    if body else (lambda s, e: None)
            elif isinstance(spec, dict):
                params[name] = _value(spec.get("value"))
            else:
                params[name] = _value(spec)
        return params

    def _program(self, compiler: Compiler, procedures_spec: dict, vocab: Vocabulary, param_values: dict) -> Program:
        """Every procedure, phase, setup and finish, and the flow around them, written as one
        Python module (dsl/codegen.py); the finish's pc is the label writing the flow gave it."""
        d = self.data
        module = Module(compiler, self.name)
        module.write_functions()
        parts = []      # (key, params, body, span, name for warnings)
        for name in procedures_spec:
            span = self.smap.span(("procedures", name), key=True)
            module.declare(name, vocab.procedures[name], span)
            parts.append((name, vocab.procedures[name], self.parse(("procedures", name, "do")) or (), span, name))
        top = Span(self.path, 1, 1)
        flow = d.get("flow") or {}
        setup = module.declare("$setup", (), top, "setup")
        parts.append(("$setup", (), (self.parse(("setup",)) or ()) if "setup" in d else (), top, "setup"))
        rounds = flow.get("rounds")
        until = None
        if "end_after_round_if" in flow:
            until_ast = self.parse(("flow", "end_after_round_if"), "expr")
            if until_ast is not None:
                until = (located(compiler.expr(until_ast, scope()), until_ast.span, "`end_after_round_if`"),
                         until_ast.span)
        if isinstance(rounds, str):         # `rounds: epochs`: a parameter or expression, read each round
            until, rounds = self._rounds_of(compiler, until), None
        phases = self._phases(module, flow, parts)
        finish = module.declare("$finish", (), top, "finish")
        parts.append(("$finish", (), (self.parse(("flow", "finish")) or ()) if "finish" in flow else (), top,
                      "finish"))
        if rounds is None and until is None and phases:
            self.error(ENDLESS_FLOW, "the flow never ends: give `rounds` or `end_after_round_if`", ("flow",), key=True)

        self._check_bodies(compiler, parts)
        module.plan({key: body for key, _params, body, _span, _name in parts})
        for key, params, body, span, name in parts:
            module.write(key, params, body, span, name)
        main = Code("game", (), top, "game")
        module.codes["$main"] = main
        finish_pc = module.write_main(main, setup, [(c, code) for c, code in phases], rounds, until, finish)
        program = Program(param_values, module.codes, compiler.out.functions_impl, main, finish_pc, module, vocab)
        if not compiler.out.writer_found and not any(d.severity == "error" for d in compiler.out.diagnostics):
            module.load()           # else not run: the build stops with the diagnostics
        return program

    def _rounds_of(self, compiler: Compiler, until):
        """`flow.rounds` written as an expression (a parameter's name, `2 * epochs`): the flow
        stops after the round whose number reaches its value, or when `end_after_round_if` holds,
        whichever comes first; one end check (``until``'s shape), evaluated where it is written."""
        tree = self.parse(("flow", "rounds"), "expr")
        if tree is None:
            return until
        count = located(compiler.expr(tree, scope()), tree.span, "`rounds`", number="number")
        also = until[0] if until is not None else None

        def last_round(s, e):
            return s.g["round"] >= count(s, e) or (also is not None and also(s, e))
        return last_round, tree.span

    def _check_bodies(self, compiler: Compiler, parts: list) -> None:
        """The front end's checks of every body (dsl/check.py), before any is written."""
        for _key, params, body, span, name in parts:
            compiler.front_end(body, params, body_of=(name, span))
        for params, body in compiler.v.option_groups.values():
            compiler.front_end(body, params)

    def _check_other_texts(self, compiler: Compiler) -> None:
        """The same checks of the texts no body holds (functions, scoring, conditions...), once all
        are parsed, each with the names it is given (TEXT_PLACES)."""
        for path, tree in self.texts.items():
            place = text_place(path)
            if place is None:
                continue
            kind, params = place
            if params == OWN_PARAMS:
                params = tuple(str(p) for p in (_dig(self.data, path[:-1]) or {}).get("params") or ())
            compiler.front_end(tree, params, kind != "expr")

    def _phases(self, module: Module, flow: dict, parts: list) -> list:
        """Declares each phase (its body goes to ``parts``, written with the rest);
        returns [(condition or None, code)] in flow order."""
        phases = []
        seen_phases: dict = {}
        for i, phase in enumerate(flow.get("phases") or []):
            pid = phase.get("id", f"phase{i + 1}")
            if pid in seen_phases:
                self.diagnostics.append(Diagnostic(
                    DUPLICATE_PHASE, f"two phases are called `{pid}`", self.smap.span(("flow", "phases", i, "id")),
                    related=(("the first", self.smap.span(("flow", "phases", seen_phases[pid], "id"))),),
                    help="give each phase its own id (variants replace and remove phases by id)"))
            seen_phases.setdefault(pid, i)
            if str(phase.get("when", "")).strip() == "false":
                self.diagnostics.append(Diagnostic(
                    PHASE_NEVER_RUNS, f"phase `{pid}` can never run (`when: false`)",
                    self.smap.span(("flow", "phases", i, "when")),
                    help="remove the phase, or remove it in a variant with `remove: true`", severity="warning"))
            key = f"phase:{pid}" if f"phase:{pid}" not in module.codes else f"phase:{pid}#{i}"
            span = self.smap.span(("flow", "phases", i))
            code = module.declare(key, (), span, f"phase {pid}")
            parts.append((key, (), self.parse(("flow", "phases", i, "do")) or (), span, pid))
            cond = self.parse(("flow", "phases", i, "when"), "expr") if "when" in phase else None
            phases.append((cond, code))
        return phases

    def _scoring(self, compiler: Compiler) -> Scoring:
        """Categories, tie-breaks, who may win (`scoring:`) and the invariants; the estimate
        comes after the bots (:meth:`_estimate`)."""
        scoring = []
        sc = self.data.get("scoring") or {}
        for i, cat in enumerate(sc.get("categories") or []):
            body = self.parse(("scoring", "categories", i, "points"), "expr")
            cid = cat.get("id", f"category{i + 1}")
            fn = located(compiler.expr(body, scope({"p"})), body.span, f"the points of `{cid}`", "points") \
                if body else (lambda s, e: 0)
            scoring.append((cid, cat.get("text", ""), fn))
        tiebreak, names = [], []
        for i, entry in enumerate(sc.get("tiebreak") or []):
            named = isinstance(entry, dict)         # `{id: NAME, expr: ...}`
            body = self.parse(("scoring", "tiebreak", i) + (("expr",) if named else ()), "expr")
            if body:
                what = f"tie-break `{entry['id']}`" if named else f"tie-break {i + 1}"
                tiebreak.append(located(compiler.expr(body, scope({"p"})), body.span, what, "tiebreak"))
                names.append(str(entry["id"]) if named else None)
        return Scoring(tuple(scoring), tuple(tiebreak), self._eligible(compiler), self._invariants(compiler),
                       estimate=None, tiebreak_names=tuple(names))

    def _eligible(self, compiler: Compiler):
        """``scoring.eligible``: whether ``p`` may win, or None (everyone may)."""
        if "eligible" not in (self.data.get("scoring") or {}):
            return None
        body = self.parse(("scoring", "eligible"), "expr")
        if body is None:
            return None
        return located(compiler.expr(body, scope({"p"})), body.span, "`eligible`"), body.span

    def _invariants(self, compiler: Compiler) -> tuple:
        """((id, text, fn), ...): ``fn(s, e)`` is true when the invariant holds, or when its
        ``when:`` does not (the invariant is not asked then)."""
        invariants = []
        for i, inv in enumerate(self.data.get("invariants") or []):
            body = self.parse(("invariants", i, "expr"), "expr")
            if body:
                iid = inv.get("id", f"invariant{i + 1}")
                fn = located(compiler.expr(body, scope()), body.span, f"invariant `{iid}`")
                when = self.parse(("invariants", i, "when"), "expr") if "when" in inv else None
                if when is not None:
                    fn = _when(located(compiler.expr(when, scope()), when.span, f"the `when` of invariant `{iid}`"),
                               fn)
                invariants.append((iid, inv.get("text", ""), fn))
        return tuple(invariants)

    def _bots(self, compiler: Compiler) -> Bots:
        """Bots written as content and the `search:` settings; the rollout bot the settings
        name must be one of the bots."""
        bots = _compile_bots(self, compiler)
        search = self.data.get("search") or {}
        rollout_bot = search.get("rollout_bot")
        if rollout_bot is not None and rollout_bot not in bots:
            self.error(UNKNOWN_ROLLOUT_BOT, f"`search.rollout_bot` names no bot of this game: `{rollout_bot}`",
                       ("search", "rollout_bot"), help=_suggest(rollout_bot, bots)
                       or "declare it under `bots:`, or leave `rollout_bot` out for random rollouts")
        return Bots(bots, {k: v for k, v in search.items() if k not in ("text", "provenance", "ruling")})

    def _estimate(self, compiler: Compiler):
        """The estimate is compiled as a function of ``p``, so that it is remembered like one:
        a greedy or search bot judges many copies of one state that differ in a move or two,
        and a copy whose moves did not touch what the estimate reads asks the memo, not the rules."""
        if ESTIMATE not in compiler.v.functions:
            return None
        caller = calls.call_function(compiler, ESTIMATE)
        return located(lambda s, env: caller(s, env["p"]), compiler.v.functions[ESTIMATE][1].span, "the estimate",
                        "estimate")

    def _dealt_from(self, compiler: Compiler) -> dict:
        """``dealt_from:`` of each zone declaring it (global or player): what an observer knows
        the zone holds, for the search bots' imagined deals (engine/determinize.py)."""
        out = {}
        d = self.data
        for section, zones in (("zones", d.get("zones") or {}), ("player", (d.get("player") or {}).get("zones") or {})):
            for name, spec in zones.items():
                if not isinstance(spec, dict) or "dealt_from" not in spec:
                    continue
                path = ("zones", name, "dealt_from") if section == "zones" else ("player", "zones", name, "dealt_from")
                body = self.parse(path, "expr")
                if body is not None:
                    out[name] = (located(compiler.expr(body, scope({"p"})), body.span, f"`dealt_from` of `{name}`"),
                                 body.span)
        return out

    def _final_checks(self, compiler: Compiler, procedures_spec: dict) -> tuple:
        """Compiler diagnostics come after the parse diagnostics; unused procedures can only
        be told once everything is compiled. Raises on any error; returns the warnings."""
        self.diagnostics.extend(compiler.out.diagnostics)
        self.diagnostics.extend(unsaid(self.diagnostics, compiler.out.writer_found))
        for name in procedures_spec:
            if name not in compiler.out.used_procedures:
                self.diagnostics.append(Diagnostic(
                    UNUSED_PROCEDURE, f"procedure `{name}` is never called", self.smap.span(("procedures", name),
                                                                                            key=True),
                    help="call it from a phase or another procedure, or remove it", severity="warning"))
        self.diagnostics.extend(self._unread_params())
        self.diagnostics.extend(secrecy.leaking_labels(self.data, self.texts))     # RK0390
        if any(d.severity == "error" for d in self.diagnostics):
            # errors first (what stops the build), then warnings; each group in source order
            raise DiagnosticReport(sorted(self.diagnostics, key=lambda d: d.severity != "error"))
        return tuple(d for d in self.diagnostics if d.severity == "warning")

    def _unread_params(self) -> list:
        """RK0345: a parameter no text of the game reads, which a variant would change to no effect
        (dropped from a report with errors: games._with_errors)."""
        return [Diagnostic(UNREAD_PARAMETER,
                           f"parameter `{name}` is never read: a variant that changes it changes nothing",
                           self.smap.span(("params", name), key=True), severity="warning",
                           help="read it in the rules, or remove it; a variant that needs it adds it under `add:`")
                for name in self.data.get("params") or {} if name not in self.read]

    def _instances(self, kind: str, spec: dict, sets: dict):
        """(id, props) of each item of a component: listed, or generated from sets. A
        generator: its diagnostics interleave with those of the caller, item by item."""
        base = {k: d["default"] for k, d in (spec.get("properties") or {}).items() if "default" in d}
        base.update(spec.get("props") or {})      # declared defaults, then `props:` (content/properties.py)
        if "items" in spec:
            yield from self._listed_instances(kind, spec, base)
        else:
            yield from self._generated_instances(kind, spec, sets, base)

    def _listed_instances(self, kind: str, spec: dict, base: dict):
        if not self._budget("items_left", len(spec["items"]), ("components", kind, "items"),
                            f"`{kind}` lists {len(spec['items'])} items", MAX_ITEMS, "items"):
            return
        for _i, entry in enumerate(spec["items"]):
            props = dict(base)
            props.update({k: v for k, v in entry.items() if k not in ("id", "text", "provenance")})
            yield entry["id"], props

    def _generated_instances(self, kind: str, spec: dict, sets: dict, base: dict):
        generate = spec.get("generate") or {}
        axes = []
        count = copies = spec.get("copies", 1)
        for prop, values in generate.items():
            axis, size = self._generated_axis(kind, prop, values, sets)
            if axis is None:
                return
            axes.append(axis)
            count *= size
        if not self._budget("items_left", count, ("components", kind, "copies" if "copies" in spec else "generate"),
                            f"`{kind}` makes {count} items", MAX_ITEMS, "items"):
            return
        template = spec.get("id") or (kind + "".join(f"-{{{p}}}" for p in generate) + ("-{n}" if copies > 1 else ""))
        if re.search(r"\{[^{}]*:[^{}]*\d{4,}", template):     # `{n:>999999999}` would build huge ids
            self.error(BAD_ID_TEMPLATE, f"bad id template `{template}`: a width or precision too large",
                       ("components", kind, "id"))
            return
        combos = _product(axes)
        for combo in combos:
            for n in range(1, copies + 1):
                props = dict(base)
                props.update(combo)
                try:
                    ident = template.format_map({"n": n, "kind": kind, **combo})    # a property named `n` wins
                except (KeyError, IndexError, ValueError) as exc:
                    self.error(BAD_ID_TEMPLATE, f"bad id template `{template}`: {exc}", ("components", kind, "id"))
                    return
                yield ident, props

    def _generated_axis(self, kind: str, prop: str, values, sets: dict):
        """``(axis, size)`` of one `generate:` property: ``(prop, value)`` pairs, one per member of
        a set or per number of ``{range: [low, high]}`` (numbered cards); ``(None, 0)`` after an
        error. A range is listed only up to the item budget (its size tells the budget check)."""
        if isinstance(values, dict):
            low, high = values["range"]
            size = max(0, high - low + 1)
            return [(prop, n) for n in range(low, low + min(size, MAX_ITEMS + 1))], size
        if values not in sets:
            self.error(UNKNOWN_SET, f"unknown set `{values}`", ("components", kind, "generate", prop),
                       help=_suggest(values, sets))
            return None, 0
        return [(prop, m) for m in sets[values]], len(sets[values])

    def _zone_keys(self, name: str, spec: dict, sets: dict, path: tuple | None = None, copies: int = 1):
        """The keys of a family (`keys:` or `range:`), or None for a single zone; ``path`` is
        where the zone is declared, ``copies`` how many families it makes (one per seat of a
        player's own)."""
        path = path or ("zones", name)
        if "keys" in spec:
            keys = spec["keys"]
            if isinstance(keys, str):
                if keys not in sets:
                    self.error(UNKNOWN_SET, f"unknown set `{keys}`", (*path, "keys"), help=_suggest(keys, sets))
                    return []
                keys = sets[keys]
            if not self._budget("zones_left", len(keys) * copies, (*path, "keys"),
                                f"`{name}` makes {len(keys) * copies} zones", MAX_ZONES, "zones in families"):
                return []
            return list(keys)
        if "graph" in spec:
            return self._graph_keys(name, spec["graph"], sets, path, copies)
        if "grid" in spec:
            cols, rows = _grid(spec)
            if not self._budget("zones_left", cols * rows * copies, (*path, "grid"),
                                f"`{name}` makes {cols * rows * copies} zones", MAX_ZONES, "zones in families"):
                return []
            return grid_cells(cols, rows)
        if "range" in spec:
            low, high = spec["range"]
            if high.__class__ is str:
                high = self._family_bound(name, high, (*path, "range"))
            size = max(high - low + 1, 0)
            if not self._budget("zones_left", size * copies, (*path, "range"),
                                f"`{name}` makes {size * copies} zones", MAX_ZONES, "zones in families"):
                return []
            return list(range(low, high + 1))
        return None

    def _graph_keys(self, name: str, spec: dict, sets: dict, path: tuple, copies: int) -> list:
        """A map's spaces, its nodes then its edges (the members of two sets); what is wrong with
        it is reported on the member's line (graphs.build says what)."""
        found = []
        for part in ("nodes", "edges"):
            if spec[part] not in sets:
                self.error(UNKNOWN_SET, f"unknown set `{spec[part]}`", (*path, "graph", part),
                           help=_suggest(spec[part], sets))
                return []
            found.append(sets[spec[part]])
        nodes, edges = found
        graph, problems = graphs.build(nodes, edges, self._members, spec.get("owner"))
        for code, message, member, prop, hint in problems:
            where = ("sets", spec["edges" if member in edges else "nodes"], member)
            self.error(code, message, (*where, prop) if prop else where, help=hint, key=not prop)
        size = len(graph.nodes) + len(graph.edges)
        if not self._budget("zones_left", size * copies, (*path, "graph"), f"`{name}` makes {size * copies} zones",
                            MAX_ZONES, "zones in families"):
            return []
        self._graphs[name] = graph
        return list(graph.nodes) + list(graph.edges)

    def _family_bound(self, name: str, param: str, path: tuple) -> int:
        """The most keys a family sized by ``param`` may have: the parameter's value, or the
        `max:` of one computed when a game starts (the family holds the zones of its largest game)."""
        params = self.data.get("params") or {}
        spec = params.get(param)
        if param not in params:
            self.error(FAMILY_SIZE, f"`{name}` is sized by `{param}`, which is no parameter", path,
                       help=_suggest(param, params) or "name a parameter under `params:` (or write a number)")
            return 0
        if not isinstance(spec, dict):
            spec = {"value": spec}
        value = spec.get("max") if "expr" in spec else spec.get("value")
        if value.__class__ is not int:
            self.error(FAMILY_SIZE, f"`{name}` is sized by `{param}`, " + (
                "which is computed when a game starts and declares no `max:`" if "expr" in spec
                else "which holds no whole number"), path,
                help=f"give `{param}` a `max:`: the most zones `{name}` can have" if "expr" in spec else None)
            return 0
        self._bounds[name] = param
        return value

    def _seats(self) -> int:
        """The most players the game declares (within the seats a game may have)."""
        most = (self.data.get("players") or {}).get("max", 8)
        return min(most, len(PLAYERS)) if most.__class__ is int else len(PLAYERS)

    def _budget(self, which: str, count: int, path: tuple, what: str, limit: int, noun: str) -> bool:
        """Spend ``count`` of a content limit; False (with a diagnostic) when it is exceeded."""
        left = getattr(self, which)
        if count > left:
            self.error(TOO_MANY_ITEMS, f"{what}; a game may have at most {limit} {noun}", path,
                       help="is a number too large?")
            return False
        setattr(self, which, left - max(count, 0))
        return True

    def _check_clashes(self, vocab: Vocabulary) -> None:
        seen: dict[str, tuple] = {}
        groups = [("global variable", vocab.gvars, ("vars",)), ("parameter", vocab.constants, ("params",)),
                  ("zone", vocab.zones, ("zones",)), ("zone family", vocab.families, ("zones",)),
                  ("set", vocab.sets, ("sets",)), ("set member", vocab.members, None),
                  ("table", vocab.tables, ("tables",))]
        for what, names, section in groups:
            for name in names:
                span = self.smap.span(section + (name,), key=True) if section else None
                if name in seen and seen[name][0] != what:
                    first_what, first_span = seen[name]
                    self.diagnostics.append(Diagnostic(
                        DECLARED_TWICE, f"`{name}` is both a {first_what} and a {what}", span or first_span,
                        related=(("the other definition", first_span),) if span and first_span else (),
                        help="give each a different name"))
                seen.setdefault(name, (what, span))

    def _provenance(self):
        out = []

        def walk(node, path, shown):
            """``shown``: the path as the author knows it (a list entry by its ``id``)."""
            if isinstance(node, dict):
                if "provenance" in node:
                    out.append((_path_text(shown), node["provenance"], node.get("text", ""),
                                self.smap.span(path + ("provenance",))))
                for k, v in node.items():
                    walk(v, path + (k,), shown + (k,))
            elif isinstance(node, list):
                for i, v in enumerate(node):
                    ident = v.get("id") if isinstance(v, dict) else None
                    walk(v, path + (i,), shown + ((ident,) if isinstance(ident, str) else (i,)))
        walk(self.data, (), ())
        return out


def _value(v):
    """Content values: YAML has `null`, the effect language `none`; accept both."""
    if v == "none":
        return None
    if isinstance(v, list):
        return [_value(x) for x in v]
    if isinstance(v, dict):
        return {k: _value(x) for k, x in v.items()}
    return v


def _state_seed(kind_state: dict, kinds: dict, prop_defaults: dict) -> dict:
    """The state values a new game starts with: an item whose kind gives a state property
    another default than the game-wide one (the last kind declaring it) holds its kind's
    default from the start, so reading any state property stays one lookup."""
    seed: dict = {}
    for kind, declared in kind_state.items():
        for prop, default in declared.items():
            common = prop_defaults[prop]
            if default.__class__ is not common.__class__ or default != common:
                seed.setdefault(prop, {}).update((ident, default) for ident in kinds[kind])
    return seed


def _var_table(spec) -> tuple:
    """(initial values, visibility, bounds) of the variables a `vars:` section declares;
    a bare value is the initial value."""
    values, vis, bounds = {}, {}, {}
    for name, var in (spec or {}).items():
        var = var if isinstance(var, dict) else {"initial": var}
        values[name] = _value(var.get("initial", 0))
        vis[name] = var.get("visibility", "public")
        if "min" in var or "max" in var:
            bounds[name] = (var.get("min"), var.get("max"))
    return values, vis, bounds


def _when(condition, check):
    """An invariant with a ``when:``: it holds wherever its condition does not."""
    def run(s, e):
        return not condition(s, e) or check(s, e)
    return run


def _compile_bots(builder, compiler) -> dict:
    """Bots of the content as {name: [(condition fn or None, compiled pattern, text)]}."""
    out = {}
    for name, spec in (builder.data.get("bots") or {}).items():
        rules = []
        for i, rule in enumerate(spec.get("rules") or []):
            cond = None
            if "when" in rule:
                node = builder.parse(("bots", name, "rules", i, "when"), "expr")
                if node is not None:
                    cond = compiler.expr(node, scope({"p"}))
            pattern = rule.get("prefer", "*")
            rules.append((cond, re.compile(fnmatch.translate(pattern)), pattern))
        out[name] = rules
    return out


def _product(axes):
    out = [{}]
    for axis in axes:
        out = [dict(prev, **{prop: m}) for prev in out for prop, m in axis]
    return out


def _suggest(word, candidates):
    from .errors import suggestion_help
    return suggestion_help(word, candidates)


def _dig(data, path):
    for key in path:
        data = data[key]
    return data


def _path_text(path) -> str:
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


def content_hash(data: dict) -> str:
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(blob.encode()).hexdigest()[:16]


def build_game(data: dict, smap: SourceMap, name: str, path: str, variants: tuple = ()) -> Game:
    return _Builder(data, smap, name, path, variants).build()


def _prop_values(items: dict) -> dict:
    """Item property -> every value the items have, ``None`` for an item without it (a tally
    starts with each at 0: engine/tally.py). A property with a value that cannot be a key
    (a list) is left out."""
    names = dict.fromkeys(prop for props in items.values() for prop in props)
    out = {}
    for prop in names:
        try:
            out[prop] = tuple(dict.fromkeys(props.get(prop) for props in items.values()))
        except TypeError:
            continue
    return out


def _grid(spec: dict) -> tuple | None:
    """(columns, rows) of a zone declared as a board (`grid: {cols, rows}`), else None."""
    grid = spec.get("grid")
    return (int(grid["cols"]), int(grid["rows"])) if isinstance(grid, dict) else None
