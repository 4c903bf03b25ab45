# SPDX-License-Identifier: MIT
"""`rulekit validate`: load, schema-check and compile a game (and each variant); print every diagnostic."""
from __future__ import annotations

import json

from ...errors import EXIT_CONTENT, EXIT_OK, DiagnosticReport
from ..parsing import GAME_HELP, VARIANT_HELP


def add_parser(sub) -> None:
    p = sub.add_parser("validate", help="check a game's content (and variants)",
                       description="Load, schema-check and compile a game; print every diagnostic.")
    p.add_argument("game", help=GAME_HELP)
    p.add_argument("--variant", action="append", default=[], metavar="NAME", help=VARIANT_HELP)
    p.add_argument("--format", choices=["full", "concise", "json"], default="full",
                   help="full: like a compiler; concise: one line each; json: for tools")
    p.add_argument("--provenance", action="store_true", help="list values marked with a provenance")


def run(args) -> int:
    """The game (with ``--variant``s), or else the game and then each variant file of its folder."""
    from ...games import load_game, variants_of
    try:
        game = load_game(args.game, tuple(args.variant))
    except DiagnosticReport as report:
        _print_diagnostics(report.diagnostics, args.format)
        return EXIT_CONTENT if any(d.severity == "error" for d in report.diagnostics) else EXIT_OK
    others = [] if args.variant else _variant_files(args.game, variants_of(args.game))
    clean = all(ok is not None for _v, ok, _d in others)
    if args.format == "json":
        out = {"game": game.name, "variants": list(game.variants), "ok": clean,
               "diagnostics": [d.to_json() for d in game.warnings],
               "content_hash": game.content_hash}
        if others:
            out["variant_files"] = [{"variant": v, "ok": ok is not None, "diagnostics": [d.to_json() for d in diags]}
                                    for v, ok, diags in others]
        if args.provenance:
            out["provenance"] = [{"path": p, "provenance": k, "text": t, "line": s.line if s else None}
                                 for p, k, t, s in game.provenance]
        print(json.dumps(out, indent=2))
        return EXIT_OK if clean else EXIT_CONTENT
    if args.provenance:
        for path, kind, text, span in game.provenance:
            where = f"{span}: " if span else ""
            print(f"{where}{kind}: {path}" + (f" ({text})" if text else ""))
        print(f"{len(game.provenance)} values carry a provenance marker")
    _print_ok(game, args.format)
    for _variant, ok, diags in others:
        if diags:
            _print_diagnostics(diags, args.format)
        if ok is not None:
            _print_ok(ok, args.format, warnings=False)
    return EXIT_OK if clean else EXIT_CONTENT


def _variant_files(game: str, variants: list) -> list:
    """(variant, the loaded game or None, its diagnostics) for each variant file of a game's folder."""
    from ...games import load_game
    out = []
    for variant in variants:
        try:
            loaded = load_game(game, (variant,))
        except DiagnosticReport as report:
            out.append((variant, None, list(report.diagnostics)))
        else:
            out.append((variant, loaded, list(loaded.warnings)))
    return out


def _print_ok(game, fmt: str, warnings: bool = True) -> None:
    if warnings and game.warnings:
        _print_diagnostics(game.warnings, fmt)
    label = game.title + (f" + {', '.join(game.variants)}" if game.variants else "")
    print(f"ok: {label} ({len(game.components.items)} items, {len(game.program.procedures)} procedures) "
          f"{game.content_hash}")


def _print_diagnostics(diagnostics, fmt: str) -> None:
    if fmt == "json":
        print(json.dumps({"ok": False, "diagnostics": [d.to_json() for d in diagnostics]}, indent=2))
    elif fmt == "concise":
        for d in diagnostics:
            print(d.concise())
    else:
        print(DiagnosticReport(diagnostics).render())
