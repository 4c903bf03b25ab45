# SPDX-License-Identifier: MIT
"""`rulekit list`: the shipped games and the game folders below one, with player counts and variants."""
from __future__ import annotations

import json
import os

from ...errors import EXIT_OK, RulekitError, UsageError


def add_parser(sub) -> None:
    p = sub.add_parser("list", help="list the shipped games and the games in a folder",
                       description="List the shipped games and every game folder in FOLDER and the folders "
                                   "below it (two levels), with their player counts and variants.")
    p.add_argument("folder", nargs="?", default=".", metavar="FOLDER", help="where to look for local games")
    p.add_argument("--format", choices=["table", "json"], default="table", help="a table, or JSON for tools")


def run(args) -> int:
    rows = _game_rows(args.folder)
    if args.format == "json":
        print(json.dumps(rows, indent=2))
        return EXIT_OK
    table = [("game", "title", "players", "variants", "")]
    for row in rows:
        p = row["players"]
        count = f"{p['min']}-{p['max']}" if p["min"] != p["max"] else str(p["min"])
        if p["default"] is not None:
            count += f" ({p['default']})"
        table.append((row["game"], row["title"], count, ", ".join(row["variants"]) or "-", row["where"]))
    widths = [max(len(r[i]) for r in table) for i in range(5)]
    for r in table:
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip())
    return EXIT_OK


def _game_rows(folder: str) -> list[dict]:
    """The shipped games, then every game folder in ``folder`` and two levels below it."""
    from ...games import shipped_games, shipped_games_dir
    rows, seen = [], set()
    for name in shipped_games():
        rows.append(_game_row(os.path.join(shipped_games_dir(), name), name, "shipped"))
        seen.add(os.path.realpath(os.path.join(shipped_games_dir(), name)))
    if not os.path.isdir(folder):
        raise UsageError(f"no folder `{folder}`")
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")) and d != "node_modules")
        if os.path.relpath(root, folder).count(os.sep) >= 2:
            dirs[:] = []
        if "game.yaml" in files and os.path.realpath(root) not in seen:
            seen.add(os.path.realpath(root))
            rows.append(_game_row(root, os.path.normpath(root), "local"))
    return rows


def _game_row(path: str, name: str, where: str) -> dict:
    """What game.yaml says of a game (title, player counts) and its variant files, without compiling it."""
    import yaml

    from ...games import variants_of
    from ...source import read_regular
    try:   # a regular file inside the folder only: a FIFO would hang, a link out would leak
        data = yaml.safe_load(read_regular(os.path.join(path, "game.yaml"), path, most=1 << 22))
    except (OSError, yaml.YAMLError):
        data = None
    data = data if isinstance(data, dict) else {}
    meta = data.get("meta") if isinstance(data.get("meta"), dict) else {}
    players = data.get("players") if isinstance(data.get("players"), dict) else {}
    try:
        variants = variants_of(path)
    except RulekitError:
        variants = []
    return {"game": name, "title": str(meta.get("title", "?")), "where": where,
            "players": {k: players.get(k) for k in ("min", "max", "default")}, "variants": variants}
