# SPDX-License-Identifier: MIT
"""The rules compiled: the compiler over a game's names with its functions compiled
(:func:`compile_functions`), the parameters' values (:func:`param_values`), then every procedure,
phase, setup and finish and the flow around them, written as one Python module (:func:`program`,
a :class:`Program`)."""
from __future__ import annotations

from typing import Any

from ..codes import DUPLICATE_PHASE, ENDLESS_FLOW, MOVE_NEVER_ASKS, PHASE_NEVER_RUNS
from ..content import typed
from ..dsl import calls, check, signatures
from ..dsl.codegen import Code, Module
from ..dsl.compiler import Compiler, Vocabulary
from ..dsl.reads import EVERYTHING, PLAYER_COUNT, function_reads
from ..dsl.texts import located, scope
from ..engine.memo import StaticTable
from ..errors import Diagnostic
from ..source import Span
from .context import Context, value
from .names import ESTIMATE
from .records import Program
from .texts import check_bodies


def compile_functions(ctx: Context, vocab: Vocabulary, functions_spec: dict):
    """Returns (the compiler, what each function reads); functions reading no state
    are memoised for the whole game."""
    reads = function_reads(vocab)
    compiler = Compiler(vocab, {n: StaticTable(of_count=bool(r)) for n, r in reads.items()
                                if r is not EVERYTHING and r <= {PLAYER_COUNT}})
    compiler.front_end = check.FrontEnd(vocab, compiler.kinds, check.Types.of_content(
        ctx.data, typed.Vocab(vocab.sets, None)), ctx.diagnostics, ctx.seat_params)
    for name in functions_spec:
        calls.compile_function(compiler, name)
    if ESTIMATE in vocab.functions:
        calls.compile_function(compiler, ESTIMATE)
    return compiler, reads


def param_values(ctx: Context, compiler: Compiler, params_spec: dict) -> dict:
    """Constants, or functions of the state for those computed from the player count."""
    params: dict[str, Any] = {}
    for name, spec in params_spec.items():
        if isinstance(spec, dict) and "expr" in spec:
            body = ctx.parse(("params", name, "expr"), "expr")
            params[name] = located(compiler.expr(body, scope()), body.span, f"parameter `{name}`") \
                if body else (lambda s, e: None)
        elif isinstance(spec, dict):
            params[name] = value(spec.get("value"))
        else:
            params[name] = value(spec)
    return params


def program(ctx: Context, name: str, compiler: Compiler, procedures_spec: dict, vocab: Vocabulary,
            params: dict) -> Program:
    """Every procedure, phase, setup and finish, and the flow around them, written as one
    Python module (dsl/codegen.py) named ``name``; the finish's pc is the label writing the flow
    gave it; ``params`` are the parameters' values. The front end checks every body before any is
    written (texts.check_bodies)."""
    d = ctx.data
    module = Module(compiler, name)
    module.write_functions()
    parts = []      # (key, params, body, span, name for warnings)
    for proc in procedures_spec:
        span = ctx.smap.span(("procedures", proc), key=True)
        module.declare(proc, vocab.procedures[proc], span)
        parts.append((proc, vocab.procedures[proc], ctx.parse(("procedures", proc, "do")) or (), span, proc))
    top = Span(ctx.path, 1, 1)
    flow = d.get("flow") or {}
    setup = module.declare("$setup", (), top, "setup")
    parts.append(("$setup", (), (ctx.parse(("setup",)) or ()) if "setup" in d else (), top, "setup"))
    rounds = flow.get("rounds")
    until = None
    if "end_after_round_if" in flow:
        until_ast = ctx.parse(("flow", "end_after_round_if"), "expr")
        if until_ast is not None:
            until = (located(compiler.expr(until_ast, scope()), until_ast.span, "`end_after_round_if`"),
                     until_ast.span)
    if isinstance(rounds, str):         # `rounds: epochs`: a parameter or expression, read each round
        until, rounds = _rounds_of(ctx, compiler, until), None
    phases = _phases(ctx, module, flow, parts)
    finish = module.declare("$finish", (), top, "finish")
    parts.append(("$finish", (), (ctx.parse(("flow", "finish")) or ()) if "finish" in flow else (), top,
                  "finish"))
    if rounds is None and until is None and phases:
        ctx.error(ENDLESS_FLOW, "the flow never ends: give `rounds` or `end_after_round_if`", ("flow",), key=True)

    _seat_params(compiler, vocab, parts)
    check_bodies(compiler, parts)
    module.plan({key: body for key, _params, body, _span, _name in parts})
    for key, takes, body, span, what in parts:
        module.write(key, takes, body, span, what)
    main = Code("game", (), top, "game")
    module.codes["$main"] = main
    finish_pc = module.write_main(main, setup, [(c, code) for c, code in phases], rounds, until, finish)
    compiled = Program(params, module.codes, compiler.out.functions_impl, main, finish_pc, module, vocab,
                       whole_moves=_whole_moves(ctx, module, procedures_spec))
    if not compiler.out.writer_found and not any(d.severity == "error" for d in compiler.out.diagnostics):
        module.load()           # else not run: the build stops with the diagnostics
    return compiled


def _seat_params(compiler: Compiler, vocab: Vocabulary, parts: list) -> None:
    """The parameters of procedures and option groups that every call gives a player
    (dsl/signatures.py): the front end types them so, and the writer checks a call it cannot
    tell gives one (a script's)."""
    bodies = {key: (params, body) for key, params, body, _span, _name in parts}
    bodies.update({f"group:{name}": (params, options) for name, (params, options) in vocab.option_groups.items()})
    found = signatures.seat_params(vocab, bodies, frozenset(vocab.gvars))
    vocab.seat_params.update(found)
    seats = compiler.front_end.seats
    for key, (_params, body) in bodies.items():
        if key in found:
            seats[id(body)] = frozenset(seats.get(id(body), ())) | found[key]


def _whole_moves(ctx: Context, module: Module, procedures_spec: dict) -> frozenset:
    """The procedures marked `move: whole` (their Codes: a frame running one is a move in steps,
    engine/moves.py); one that never asks anyone makes no move, a warning (RK0361)."""
    marked = set()
    for proc, spec in procedures_spec.items():
        if not isinstance(spec, dict) or spec.get("move") != "whole":
            continue
        code = module.codes[proc]
        if code.stops:
            marked.add(code)
        else:
            ctx.diagnostics.append(Diagnostic(
                MOVE_NEVER_ASKS, f"procedure `{proc}` is marked `move: whole` but never asks anyone: it makes no move",
                ctx.smap.span(("procedures", proc, "move")), severity="warning",
                help="put `move: whole` on the procedure whose `choose`s (or whose callees' `choose`s) make the move"))
    return frozenset(marked)


def _rounds_of(ctx: Context, compiler: Compiler, until):
    """`flow.rounds` written as an expression (a parameter's name, `2 * epochs`): the flow
    stops after the round whose number reaches its value, or when `end_after_round_if` holds,
    whichever comes first; one end check (``until``'s shape), evaluated where it is written."""
    tree = ctx.parse(("flow", "rounds"), "expr")
    if tree is None:
        return until
    count = located(compiler.expr(tree, scope()), tree.span, "`rounds`", number="number")
    also = until[0] if until is not None else None

    def last_round(s, e):
        return s.g["round"] >= count(s, e) or (also is not None and also(s, e))
    return last_round, tree.span


def _phases(ctx: Context, module: Module, flow: dict, parts: list) -> list:
    """Declares each phase (its body goes to ``parts``, written with the rest);
    returns [(condition or None, code)] in flow order."""
    phases = []
    seen_phases: dict = {}
    for i, phase in enumerate(flow.get("phases") or []):
        pid = phase.get("id", f"phase{i + 1}")
        if pid in seen_phases:
            ctx.diagnostics.append(Diagnostic(
                DUPLICATE_PHASE, f"two phases are called `{pid}`", ctx.smap.span(("flow", "phases", i, "id")),
                related=(("the first", ctx.smap.span(("flow", "phases", seen_phases[pid], "id"))),),
                help="give each phase its own id (variants replace and remove phases by id)"))
        seen_phases.setdefault(pid, i)
        if str(phase.get("when", "")).strip() == "false":
            ctx.diagnostics.append(Diagnostic(
                PHASE_NEVER_RUNS, f"phase `{pid}` can never run (`when: false`)",
                ctx.smap.span(("flow", "phases", i, "when")),
                help="remove the phase, or remove it in a variant with `remove: true`", severity="warning"))
        key = f"phase:{pid}" if f"phase:{pid}" not in module.codes else f"phase:{pid}#{i}"
        span = ctx.smap.span(("flow", "phases", i))
        code = module.declare(key, (), span, f"phase {pid}")
        parts.append((key, (), ctx.parse(("flow", "phases", i, "do")) or (), span, pid))
        cond = ctx.parse(("flow", "phases", i, "when"), "expr") if "when" in phase else None
        phases.append((cond, code))
    return phases
