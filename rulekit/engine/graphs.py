# SPDX-License-Identifier: MIT
"""Graphs: families of zones declared as a map of nodes and edges (`graph: {nodes, edges}`).

A map's nodes and edges are the members of two sets, so their properties (an edge's `length`
and `colour`, a node's `x` and `y`) are read as any member's are (`e.length`); the family has a
space for each node and each edge, where pieces lie (a claimed edge holds its claimer's pieces).
What the built-ins ask of a map (neighbours, the edges between two nodes, whether two nodes are
connected, the components, a shortest path, the longest trail, a degree, who owns a space) is
worked out here, in the order the content declares nodes and edges (never a set's order), so
the same game gives the same log. A grid board (`grid:`) is the same notions with its cells as
nodes and two cells side by side joined: `neighbours`, `degree`, `connected`, `connected_components`
and `shortest_path` take one too, with `via=` naming the cells that may be walked.

Every search is bounded: a longest trail is found by a search over trails (no edge twice, nodes
revisited), which grows exponentially with the edges one player may hold; past MAX_TRAIL_STEPS
steps it stops with the content's error on its line rather than hang.
"""
from __future__ import annotations

import heapq
import itertools

import attrs

from ..codes import GRAPH_BAD_EDGE, GRAPH_NO_POSITION, SEARCH_TOO_LONG, VALUE_OUT_OF_DOMAIN, WRONG_KIND
from ..errors import ContentRuntimeError, suggestion_help
from ..limits import MAX_TRAIL_STEPS
from .boards import _prop as prop_of  # an item's state first, then what is printed on it
from .boards import neighbours as grid_neighbours
from .state import PLAYERS, Family, State


@attrs.frozen
class Graph:
    """A map as declared: its nodes and edges in declaration order, each edge's two ends, and
    for each node the edges at it (``(edge, other end)`` in edge order)."""
    nodes: tuple
    edges: tuple
    ends: dict                  # edge -> (node, node)
    at: dict                    # node -> ((edge, other node), ...)
    position: dict              # node -> (x, y), or {} when the content gives none
    owner: str | None = None    # the item property naming the player a space's top item belongs to


def build(nodes: tuple, edges: tuple, members: dict, owner: str | None) -> tuple[Graph, list]:
    """The map of the node and edge set members; ``problems`` lists what is wrong with it as
    ``(code, message, member, property, help)`` for the builder to report where written."""
    problems = []
    node_set = set(nodes)
    ends, at = {}, {node: [] for node in nodes}
    for edge in edges:
        props = members.get(edge, {})
        pair = []
        for end in ("from", "to"):
            node = props.get(end)
            if node is None:
                problems.append((GRAPH_BAD_EDGE, f"edge `{edge}` names no `{end}` node", edge, None,
                                 "give each edge `from:` and `to:`, the nodes it joins"))
            elif str(node) not in node_set:
                problems.append((GRAPH_BAD_EDGE, f"edge `{edge}` joins `{node}`, which is no node of the map",
                                 edge, end, suggestion_help(str(node), nodes)))
            else:
                pair.append(str(node))
        if len(pair) == 2:
            ends[edge] = tuple(pair)
            at[pair[0]].append((edge, pair[1]))
            if pair[1] != pair[0]:
                at[pair[1]].append((edge, pair[0]))
    for name in sorted(node_set & set(edges)):
        problems.append((GRAPH_BAD_EDGE, f"`{name}` is both a node and an edge of the map", name, None, None))
    placed = [node for node in nodes if _xy(members.get(node, {})) is not None]
    if placed and len(placed) < len(nodes):
        missing = next(node for node in nodes if node not in placed)
        problems.append((GRAPH_NO_POSITION, f"node `{missing}` has no position, where {len(placed)} of the map's "
                         f"nodes have one", missing, None, "give every node numbers `x:` and `y:`, or none"))
    position = {node: _xy(members[node]) for node in placed} if len(placed) == len(nodes) else {}
    graph = Graph(tuple(nodes), tuple(e for e in edges if e in ends), ends,
                  {node: tuple(pairs) for node, pairs in at.items()}, position, owner)
    return graph, problems


def _xy(props: dict):
    x, y = props.get("x"), props.get("y")
    ok = all(v.__class__ in (int, float) for v in (x, y))
    return (x, y) if ok else None


# ------------------------------------------------------------------ what the built-ins ask
def graph_of(board, asked: str) -> Graph:
    """``board``'s map when it is a family declared with `graph:`, else the content's error."""
    if board.__class__ is not Family or board.graph is None:
        raise ContentRuntimeError(f"`{asked}` asks a map (a zone family declared with `graph:`), not {board}", None,
                                  WRONG_KIND)
    return board.graph


def _network(board, asked: str):
    """A map or a grid board: (its nodes, a mapping in order whose keys they are, a function
    giving a node's (edge, node) pairs, whether it is a map). On a grid the cells are the nodes
    and an "edge" is the cell stepped onto (so `via=` names cells)."""
    if board.__class__ is Family and board.graph is not None:
        graph = board.graph
        return graph.at, graph.at.__getitem__, True
    if board.__class__ is Family and board.grid is not None:
        return board.zones, lambda cell: tuple((n, n) for n in grid_neighbours(board, cell)), False
    raise ContentRuntimeError(f"`{asked}` asks a map (`graph:`) or a board (`grid:`), not {board}", None, WRONG_KIND)


def _node(nodes, node, board, asked: str):
    """``node``, which must be a key of ``nodes`` (a mapping: one lookup on a map of any size)."""
    if not isinstance(node, str) or node not in nodes:      # a text (a Marked one too: engine/redact.py)
        first = list(itertools.islice(nodes, 6))
        hint = suggestion_help(str(node), nodes) or f"its nodes are {', '.join(first)}" + \
            ("..." if len(nodes) > 6 else "")
        raise ContentRuntimeError(f"`{asked}`: `{board}` has no node `{node}` ({hint})", None, VALUE_OUT_OF_DOMAIN)
    return node


def _allowed(board, is_map: bool, via, asked: str):
    """The edges (cells, on a grid) ``via`` allows, or None for all of them; a name that is
    none of the board's is the content's error, with the nearest name."""
    if via is None:
        return None
    if via.__class__ is not list:
        raise ContentRuntimeError(f"`{asked}`'s via= is a list of {'edges' if is_map else 'cells'}, not {via}",
                                  None, WRONG_KIND)
    names = board.graph.ends if is_map else board.zones
    for name in via:
        if name not in names:
            what = "edge" if is_map else "cell"
            hint = suggestion_help(str(name), names) or f"name the {what}s of `{board}`"
            raise ContentRuntimeError(f"`{asked}`: `{board}` has no {what} `{name}` ({hint})", None,
                                      VALUE_OUT_OF_DOMAIN)
    return set(via)


def _steps(near, allowed, node):
    return [(edge, other) for edge, other in near(node) if allowed is None or edge in allowed]


def neighbours(board: Family, node) -> list[str]:
    """The nodes one edge away from ``node``, each once, in the map's node order."""
    graph = board.graph
    _node(graph.at, node, board, "neighbours")
    near = {other for _edge, other in graph.at[node]}
    return [n for n in graph.nodes if n in near]


def edges(board: Family, a=None, b=None) -> list[str]:
    """Every edge of the map; those at ``a``; those joining ``a`` and ``b`` (parallel edges
    all), in declaration order."""
    graph = graph_of(board, "edges")
    if a is None and b is not None:
        a, b = b, None          # the edges at one node, whichever keyword named it
    if a is None:
        return list(graph.edges)
    _node(graph.at, a, board, "edges")
    if b is not None:
        _node(graph.at, b, board, "edges")
    return [edge for edge, other in graph.at[a] if b is None or other == b]


def ends(board: Family, edge) -> list[str]:
    """The two nodes an edge joins, as declared (`from`, then `to`)."""
    graph = graph_of(board, "ends")
    if edge not in graph.ends:
        hint = suggestion_help(str(edge), graph.edges) or "name one of its edges"
        raise ContentRuntimeError(f"`ends`: `{board}` has no edge `{edge}` ({hint})", None, VALUE_OUT_OF_DOMAIN)
    return list(graph.ends[edge])


def degree(board: Family, node, via=None) -> int:
    """How many edges (of ``via``) meet at ``node``; a loop counts twice, as networkx counts it."""
    nodes, near, is_map = _network(board, "degree")
    _node(nodes, node, board, "degree")
    allowed = _allowed(board, is_map, via, "degree")
    if not is_map and allowed is not None and node not in allowed:
        return 0
    return sum(2 if other == node else 1 for _edge, other in _steps(near, allowed, node))


def _reach(near, allowed, start: str) -> set:
    seen, todo = {start}, [start]
    while todo:             # no recursion: a map of any size is walked
        here = todo.pop()
        for _edge, other in _steps(near, allowed, here):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def connected(board: Family, a, b, via=None) -> bool:
    """Whether a path of edges (of ``via``) joins ``a`` and ``b``; a node is joined to itself."""
    _nodes, near, allowed, walkable = _between(board, a, b, via, "connected")
    return walkable and b in _reach(near, allowed, a)


def _between(board, a, b, via, asked: str):
    """What a question from ``a`` to ``b`` walks: (the nodes, their steps, the edges allowed,
    whether both ends may be walked at all: on a grid, ``via`` must name them)."""
    nodes, near, is_map = _network(board, asked)
    _node(nodes, a, board, asked)
    _node(nodes, b, board, asked)
    allowed = _allowed(board, is_map, via, asked)
    walkable = is_map or allowed is None or (a in allowed and b in allowed)
    return nodes, near, allowed, walkable


def components(board: Family, via=None) -> list[list[str]]:
    """The connected groups of nodes, each in the map's order, the groups in the order of their
    first nodes. With ``via``, of the graph those edges make (the nodes they touch); on a grid,
    of the cells ``via`` names."""
    nodes, near, is_map = _network(board, "connected_components")
    allowed = _allowed(board, is_map, via, "connected_components")
    if allowed is None:
        members = nodes
    elif is_map:
        touched = {node for edge in allowed for node in board.graph.ends[edge]}
        members = [node for node in nodes if node in touched]
    else:
        members = [cell for cell in nodes if cell in allowed]
    order = {node: k for k, node in enumerate(nodes)}
    seen: set = set()
    groups = []
    for node in members:
        if node not in seen:
            group = _reach(near, allowed, node)
            seen |= group
            groups.append(sorted(group, key=order.__getitem__))
    return groups


def shortest_path(s: State, board: Family, a, b, via=None, weight=None):
    """The nodes of a shortest path from ``a`` to ``b`` (each edge counting its ``weight``
    property, or 1), both ends included; none when no path joins them. Of equal paths, the one
    through nodes declared first."""
    nodes, near, allowed, walkable = _between(board, a, b, via, "shortest_path")
    if not walkable:
        return None
    cost = _weights(s, board, board.graph is not None, weight, "shortest_path")
    order = {node: k for k, node in enumerate(nodes)}
    best, back = {a: 0}, {a: None}
    heap = [(0, order[a], a)]
    while heap:
        dist, _k, here = heapq.heappop(heap)
        if here == b:
            path = []
            while here is not None:
                path.append(here)
                here = back[here]
            return path[::-1]
        if dist > best[here]:
            continue
        for edge, other in _steps(near, allowed, here):
            step = dist + cost(edge)
            if other not in best or step < best[other]:
                best[other], back[other] = step, here
                heapq.heappush(heap, (step, order[other], other))
    return None


def longest_trail(s: State, board: Family, edge_list, weight=None):
    """The greatest total ``weight`` (or number of edges) of a trail over ``edge_list``: a walk
    using no edge twice, nodes revisited as often as it likes. A search over trails, bounded by
    MAX_TRAIL_STEPS (RK4030 past it)."""
    graph = graph_of(board, "longest_trail")
    allowed = _allowed(board, True, edge_list, "longest_trail")
    cost = _weights(s, board, True, weight, "longest_trail")
    chosen = [edge for edge in graph.edges if edge in allowed]
    at: dict = {}
    for edge in chosen:
        a, b = graph.ends[edge]
        at.setdefault(a, []).append((edge, b))
        if b != a:
            at.setdefault(b, []).append((edge, a))
    weight_of = {edge: cost(edge) for edge in chosen}
    steps = [0]
    best = 0
    for start in graph.nodes:
        if start in at:
            best = max(best, _trail_from(start, at, weight_of, steps, board))
    return best


def _trail_from(start, at, weight_of, steps: list, board) -> int:
    """The longest trail from ``start``: a depth-first search over trails with its own stack
    (a trail as long as a player's every edge needs no Python recursion)."""
    best = total = 0
    used: set = set()
    taken: list = []            # the trail's edges so far
    path = [[start, 0]]         # its nodes, each with the next of its edges to try
    while path:
        frame = path[-1]
        options = at[frame[0]]
        if frame[1] >= len(options):
            path.pop()
            if taken:
                edge = taken.pop()
                used.discard(edge)
                total -= weight_of[edge]
            continue
        edge, other = options[frame[1]]
        frame[1] += 1
        if edge in used:
            continue
        steps[0] += 1
        if steps[0] > MAX_TRAIL_STEPS:
            raise ContentRuntimeError(f"`longest_trail` on `{board}` tried more than {MAX_TRAIL_STEPS:,} trails "
                                      f"over {len(weight_of)} edges (a map too densely held to search; ask it of "
                                      "fewer edges)", None, SEARCH_TOO_LONG)
        used.add(edge)
        taken.append(edge)
        total += weight_of[edge]
        best = max(best, total)
        path.append([other, 0])
    return best


def _weights(s: State, board: Family, is_map: bool, weight, asked: str):
    """Each edge's cost: 1, or its member property ``weight`` (a number)."""
    if weight is None:
        return lambda edge: 1
    if not is_map:
        raise ContentRuntimeError(f"`{asked}`: a board's steps have no weight (leave out weight=)", None, WRONG_KIND)
    members = s.game.components.members

    def cost(edge):
        props = members.get(edge, {})
        value = props.get(weight)
        if weight not in props:
            hint = suggestion_help(str(weight), props) or f"its properties are {', '.join(props)}"
            raise ContentRuntimeError(f"`{asked}`: edge `{edge}` has no property `{weight}` ({hint})", None,
                                      VALUE_OUT_OF_DOMAIN)
        if value.__class__ is not int or value < 0:
            raise ContentRuntimeError(f"`{asked}`: edge `{edge}`'s `{weight}` is {value}, not a whole number of at "
                                      "least 0", None, WRONG_KIND)
        return value
    return cost


def owner(s: State, board: Family, space):
    """The player a space's top item belongs to (its property the map's `owner:` names: a seat
    `pK`, a number K, a player, or the K-th member of a set), or none for an empty space."""
    graph = graph_of(board, "owner")
    if space not in board.zones:
        hint = suggestion_help(str(space), board.zones) or "name one of its nodes or edges"
        raise ContentRuntimeError(f"`owner`: `{board}` has no space `{space}` ({hint})", None, VALUE_OUT_OF_DOMAIN)
    if graph.owner is None:
        raise ContentRuntimeError(f"`owner`: `{board}` declares no `owner:` (the item property naming a piece's "
                                  "player)", None, WRONG_KIND)
    held = s.zones[board.zones[space]]
    if not held:
        return None
    return seat_named(s, prop_of(s, held[-1], graph.owner))


def seat_named(s: State, value):
    """The player a property's value names: a player, a seat `pK`, a number K (seat K), or the
    K-th member of a set; none for anything else."""
    if value.__class__ is bool or value is None:
        return None
    if isinstance(value, int):
        k = value if value.__class__ is not int else value - 1
        return PLAYERS[k] if 0 <= k < s.n else None
    text = str(value)
    if text.startswith("p") and text[1:].isdigit():
        k = int(text[1:]) - 1
        return PLAYERS[k] if 0 <= k < s.n else None
    for members in s.game.components.sets.values():
        if text in members:
            k = members.index(text)
            return PLAYERS[k] if k < s.n else None
    return None

