# SPDX-License-Identifier: MIT
"""Checked content -> the compiled, immutable definition of a game.

Input is the merged content data (schema-valid) and its source map. Output is a
frozen :class:`Game`: one record per section (components, variables, board, program,
scoring, bots, memo), each returned by that section's builder (``rulekit/builder/``, one
module by what it builds), the program being the whole rules compiled to one generated
Python module. Every effect-language string is parsed as the game builds, with its file position, and
every name is resolved once; a game that builds is a game whose names all mean something.
:func:`build_game` runs the builder's parts in the build's order.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

import attrs

from .builder import board as _board
from .builder import bots as _bots
from .builder import checks as _checks
from .builder import components as _components
from .builder import names as _names
from .builder import program as _program
from .builder import scoring as _scoring
from .builder import texts as _texts
from .builder import variables as _variables
from .builder.board import VISIBILITY
from .builder.context import Context
from .builder.names import BUILTIN_CONSTANTS, ESTIMATE
from .builder.provenance import provenance
from .builder.records import Board, Bots, Components, Memo, Program, Scoring, Variables
from .builder.texts import OWN_PARAMS, TEXT_PLACES, text_place
from .content import typed
from .content.loader import SourceMap
from .dsl import ast, check
from .dsl.codegen import Code, Module
from .dsl.compiler import Compiler, Vocabulary
from .dsl.narrate import compile_narration
from .dsl.reads import memo_table, seat_params
from .dsl.texts import parse_text
from .errors import DiagnosticReport
from .source import Span

__all__ = [
    "BUILTIN_CONSTANTS", "ESTIMATE", "OWN_PARAMS", "TEXT_PLACES", "VISIBILITY", "Board", "Bots", "Components", "Game",
    "Memo", "Program", "Scoring", "Variables", "build_game", "content_hash", "text_place",
]


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


def build_game(data: dict, smap: SourceMap, name: str, path: str, variants: tuple = ()) -> Game:
    """The game ``data`` declares, built section by section (rulekit/builder/). Each section may add
    diagnostics (and parses and compiles as it goes): the order of the sections is the order of the
    diagnostics, and the order texts compile in is the order of the names no text gives (`K1`)."""
    ctx = Context(data, smap, path)
    players = data.get("players", {})
    vocab = Vocabulary()
    components = _components.components(ctx, vocab)
    variables = _variables.variables(ctx, vocab)
    board = _board.board(ctx, vocab, components.sets)
    _components.check_starts(ctx, components.item_start, components.item_kind, board.zones)
    params_spec = _names.declare_params(ctx, vocab)
    functions_spec, procedures_spec = _names.signatures(ctx, vocab)
    compiler, reads = _program.compile_functions(ctx, vocab, functions_spec)
    program = _program.program(ctx, name, compiler, procedures_spec, vocab,
                               _program.param_values(ctx, compiler, params_spec))
    scoring = _scoring.scoring(ctx, compiler)
    bots = _bots.bots(ctx, compiler)
    # compiled in this order as ever (a constant no name describes, `K1`, is numbered in turn)
    scoring = attrs.evolve(scoring, estimate=_scoring.estimate(compiler),
                           estimate_of_own_seat=seat_params(vocab, ESTIMATE) is not None)
    board = attrs.evolve(board, dealt_from=_board.dealt_from(ctx, compiler))
    narration = compile_narration(ctx, compiler)
    _texts.check_other_texts(compiler, ctx.texts, data)
    warnings = _checks.final_checks(ctx, compiler, procedures_spec)
    # every text is compiled by now: what `roll` draws from is known (or known to be unknown)
    program = attrs.evolve(program, roll_streams=None if compiler.out.roll_streams is None
                           else frozenset(compiler.out.roll_streams), props_named=compiler.out.props_named)

    return Game(
        name=name, title=(data.get("meta") or {}).get("title", name), path=path,
        variants=variants, content_hash=content_hash(data), data=data, source_map=smap,
        min_players=players.get("min", 1), max_players=players.get("max", 8),
        default_players=players.get("default", players.get("min", 2)),
        components=components, variables=variables, board=board, program=program, scoring=scoring,
        bots=bots, memo=Memo(*memo_table(reads), static=compiler.static_memo),
        provenance=tuple(provenance(ctx)), warnings=warnings, narration=narration, texts=ctx.texts)


def content_hash(data: dict) -> str:
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return "sha256:" + hashlib.sha256(blob.encode()).hexdigest()[:16]
