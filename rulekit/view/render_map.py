# SPDX-License-Identifier: MIT
"""A map (a zone family declared `graph:`) drawn by `rulekit render`: its nodes where the content
places them (`x:`, `y:` on the node set's members), each edge a line between its nodes in its
`colour` (parallel edges side by side), the pieces on an edge at its middle and those on a node
by its dot, in their owners' colours as every piece is drawn.

Only the layout is here: the lines and dots are the picture's fixed part, the pieces fill the
renderer's slots step by step as any family's spaces do (``("family", name, key)``), so a replay
redraws only what lies on the map. A map whose nodes have no position cannot be drawn: that is
the content's error (RK0141) where the map is declared, never a guessed layout.
"""
from __future__ import annotations

import math
from html import escape

from ..codes import GRAPH_NO_POSITION
from ..errors import Diagnostic, DiagnosticReport

NODE_R = 7          # a node's dot
EDGE_W = 5          # an edge's line
SPREAD = 9          # px between parallel edges
SLOT_W, SLOT_H = 64, 17     # where an edge's or a node's pieces are drawn
MARGIN = 40
TALLEST = 0.6       # a map is at most this high for its width (a tall map is narrowed)


def draw(renderer, sky, name: str, family, inner: float) -> None:
    """Lay the map of ``family`` out on the renderer's skyline, as wide as the picture."""
    graph = family.graph
    if not graph.position:
        span = renderer.game.source_map.span(("zones", name, "graph"))
        raise DiagnosticReport([Diagnostic(GRAPH_NO_POSITION, f"`rulekit render` draws the map `{name}` from its "
                                           "nodes' positions, and they have none", span,
                                           help="give every node numbers `x:` and `y:` (across and down)")])
    xs = [x for x, _y in graph.position.values()]
    ys = [y for _x, y in graph.position.values()]
    x_lo, y_lo = min(xs), min(ys)
    across, down = (max(xs) - x_lo) or 1, (max(ys) - y_lo) or 1
    width = inner
    scale = min((width - 2 * MARGIN - SLOT_W) / across, TALLEST * width / down)
    height = down * scale + 2 * MARGIN + 16
    x0, y0 = sky.place(width, height)
    members = renderer.game.components.members
    where = {node: (x0 + MARGIN + SLOT_W / 2 + (x - x_lo) * scale, y0 + MARGIN + 16 + (y - y_lo) * scale)
             for node, (x, y) in graph.position.items()}
    layout = renderer._layout(name)
    renderer._frame(name, str(layout.get("label", name)), x0, y0, width, height)
    lines, pieces = [], []
    for edge in graph.edges:
        a, b = graph.ends[edge]
        (xa, ya), (xb, yb) = _offset(where[a], where[b], _lane(graph, edge))
        colour = _colour(renderer, members.get(edge, {}))
        lines.append(f'<line class="edge" data-zone="{escape(name)}[{escape(edge)}]" x1="{xa:.0f}" y1="{ya:.0f}" '
                     f'x2="{xb:.0f}" y2="{yb:.0f}" stroke="{escape(colour)}" stroke-width="{EDGE_W}" '
                     f'stroke-linecap="round"><title>{escape(_edge_title(edge, members.get(edge, {})))}</title></line>')
        pieces.append((edge, (xa + xb) / 2, (ya + yb) / 2))
    for node in graph.nodes:
        x, y = where[node]
        lines.append(f'<g class="node" data-zone="{escape(name)}[{escape(node)}]"><circle cx="{x:.0f}" cy="{y:.0f}" '
                     f'r="{NODE_R}" fill="#ffffff" stroke="#333333" stroke-width="2"/><text class="n" '
                     f'x="{x + NODE_R + 2:.0f}" y="{y - NODE_R:.0f}">{escape(node)}</text></g>')
        pieces.append((node, x, y + NODE_R + SLOT_H / 2 + 1))
    renderer.static.append(f'<g class="map" data-family="{escape(name)}">' + "".join(lines) + "</g>")
    for key, x, y in pieces:
        renderer._slot("items", x - SLOT_W / 2, y - SLOT_H / 2, SLOT_W, SLOT_H, ("family", name, key), 1)


def _lane(graph, edge: str) -> float:
    """Where ``edge`` runs among the edges joining the same two nodes: 0 alone, else spread about
    the straight line (-0.5, 0.5 for a pair of parallel edges), in declaration order."""
    a, b = graph.ends[edge]
    twins = [e for e, other in graph.at[a] if other == b]
    return twins.index(edge) - (len(twins) - 1) / 2


def _offset(p, q, lane: float):
    (xa, ya), (xb, yb) = p, q
    length = math.hypot(xb - xa, yb - ya) or 1
    dx, dy = -(yb - ya) / length * SPREAD * lane, (xb - xa) / length * SPREAD * lane
    return (xa + dx, ya + dy), (xb + dx, yb + dy)


def _colour(renderer, props: dict) -> str:
    """An edge's line: its `colour` (or `color`) property, through the content's `colors:`."""
    value = props.get("colour", props.get("color"))
    if value is None:
        return "#888888"
    return renderer.colors.get(str(value), str(value))


def _edge_title(edge: str, props: dict) -> str:
    said = ", ".join(f"{k} {v}" for k, v in props.items() if k not in ("from", "to"))
    return f"{edge}: {props.get('from')} - {props.get('to')}" + (f" ({said})" if said else "")
