# SPDX-License-Identifier: MIT
"""`rulekit render`: a state after a step as SVG, or every step as an HTML replay viewer (view/render.py)."""
from __future__ import annotations


def add_parser(sub) -> None:
    p = sub.add_parser("render", help="draw a game state (SVG) or a replay viewer (HTML) from a log",
                       description="Replay a log or script and draw the state after a step as SVG, "
                                   "or every step as a self-contained HTML replay viewer.")
    p.add_argument("log", metavar="LOG_OR_SCRIPT", help="the log or script to replay")
    p.add_argument("-o", "--out", required=True, metavar="FILE", help="FILE.svg or FILE.html")
    p.add_argument("--at", type=int, metavar="STEP",
                   help="the state after STEP actions (SVG: default the end; HTML: the step shown "
                        "first, default 0; negative counts from the end)")
    p.add_argument("--as", dest="viewer", metavar="PLAYER",
                   help="draw what this player may see (default: a spectator's view)")
    p.add_argument("--full", action="store_true", help="draw everything, hidden items too")
    p.add_argument("--force", action="store_true", help="replay a log even if the content changed")


def run(args) -> int:
    from ...view.render import cmd_render
    return cmd_render(args)
