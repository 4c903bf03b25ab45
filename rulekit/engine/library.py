# SPDX-License-Identifier: MIT
"""The one registry of built-in functions and effects of the effect language.

Each entry carries its signature, a one-line doc and an example; the compiler
checks calls against it (arity, keyword names), and ``docs/language.md`` has a
section per entry that a test keeps in step with this table.

Functions are pure (``roll`` aside, which draws from a named random stream and
logs it); effects change the state and may only stand as statements.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction

import attrs

from ..codes import RANGE_TOO_LONG, VALUE_TOO_LARGE, WRONG_KIND
from ..errors import ContentRuntimeError, boundary
from ..limits import MAX_RANGE, MAX_SUBSETS
from . import boards, graphs, mutate
from .limits import MAX_BITS, MAX_SIZE, built, too_long_message, too_many_digits
from .state import PLAYERS, Family, Player, State, ZoneKey


class EndGame(Exception):
    """Raised by ``end_game()``; the VM unwinds to the game's finish."""


@attrs.frozen
class Builtin:
    name: str
    kind: str                       # "function" | "effect"
    params: tuple                   # required positional names
    optional: tuple = ()            # ((name, default), ...) also usable by keyword
    doc: str = ""
    example: str = ""
    impl: Callable = attrs.field(default=None, repr=False)
    # What the checker and the compiler know of it (declared here, never guessed from names):
    args: dict = attrs.Factory(dict)  # argument -> the kind it takes: zone, item, number, list, text
    returns: str | None = None        # the kind it evidently returns, for the static type check
    gives: str | None = None          # the kind it *always* returns ("list", "item"): read without asking
    reads: str = "arguments"          # of the state: "arguments" (and the game's fixed tables),
                                      # "players" (those and the number of players), or "state"
                                      # (where items are: a function calling it reads anything)
    pure: bool = True                 # False: each call draws randomness (never inside a function)
    form: str | None = None           # the aggregate it is (count, sum, min, max, any, all, first: the
                                      # compiler writes it from dsl/aggregates.py's table)
    names: str | None = None          # a literal argument must name one of these: "kinds", "items", "props"
    named: str | None = None          # ...that argument (the first one when not given)
    pins: str | None = None           # the argument naming the random stream a script's `pins: rolls:` fixes
    by: Callable | None = None        # how it compares items `by KEY`: called with (key, item) pairs instead
    recorded_only: bool = False       # an effect that only writes the record: skipped when none is kept
    # (the Python the compiler may write in place of a call is the compiler's: dsl/templates.py)

    @property
    def signature(self) -> str:
        parts = list(self.params) + [f'{n}="{d}"' if isinstance(d, str) else f"{n}={mutate.fmt(d)}"
                                     for n, d in self.optional]
        return f"{self.name}({', '.join(parts)})"


REGISTRY: dict[str, Builtin] = {}

# What kind of value each argument takes and each function returns, for the checker's static
# type check: zone, item, number, list (a list or a zone), text. Unlisted means anything.
def _register(kind: str, name: str, params=(), optional=(), doc="", example="", **known):
    def wrap(fn):
        REGISTRY[name] = Builtin(name, kind, tuple(params), tuple(optional), doc, example, fn, **known)
        boundary(fn)        # Python refusing a content value in its body is the content's failure
        return fn
    return wrap


def function(name, params=(), optional=(), doc="", example="", **known):
    """Register a built-in function; ``known`` are :class:`Builtin`'s declarations."""
    return _register("function", name, params, optional, doc, example, **known)


def effect(name, params=(), optional=(), doc="", example="", **known):
    return _register("effect", name, params, optional, doc, example, **known)


def seq(s: State, value):
    """A zone as its list of items; any other collection as itself."""
    if type(value) is ZoneKey:
        return s.zones[value]
    if type(value) is Family:
        return value.in_play(s)  # a family is its list of zones (those the game plays)
    if value is None:
        raise ContentRuntimeError("expected a list or a zone, got none", None, WRONG_KIND)
    return value


boundary(seq)


# ------------------------------------------------------------------ how large a value may grow
# The limits themselves (MAX_SIZE, MAX_BITS) are engine/limits.py's, where mutate reads them too.
def too_long(value):
    """A text or list grew past MAX_SIZE: the game stops on its line."""
    raise ContentRuntimeError(too_long_message(value.__class__ is str, len(value)), None, VALUE_TOO_LARGE)


def printed(value) -> str:
    """``mutate.fmt`` within the limits (templates, ``join``, ``text``, ``log``): a list prints
    item by item and stops as soon as its text passes MAX_SIZE (a list of a million long texts
    would print a terabyte), and a whole number past MAX_BITS is refused, not sent to ``str``
    (which refuses more than 4,300 digits with an internal error)."""
    kind = value.__class__
    if kind is str:
        return value
    if kind is int:
        if value.bit_length() > MAX_BITS:
            too_many_digits(value.bit_length())
        return str(value)
    if kind is list or kind is tuple:
        return "[" + _printed_items(value, ", ") + "]"
    if kind is Fraction and max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_BITS:
        too_many_digits(max(value.numerator.bit_length(), value.denominator.bit_length()))
    return mutate.fmt(value)


def _printed_items(values, separator: str) -> str:
    """The values printed with ``separator`` between them, refused (RK4015) once past MAX_SIZE."""
    parts = []
    size = -len(separator)
    step = len(separator)
    for value in values:
        part = printed(value)
        size += len(part) + step
        if size > MAX_SIZE:
            raise ContentRuntimeError(too_long_message(True, MAX_SIZE, more=True), None, VALUE_TOO_LARGE)
        parts.append(part)
    built(size)
    return separator.join(parts)


def checked_text(text: str) -> str:
    """A text just built (a template's), refused when past MAX_SIZE."""
    if len(text) > MAX_SIZE:
        too_long(text)
    built(len(text))
    return text


def _counted(new: list) -> list:
    """A list a built-in just copied, counted in what the step builds (limits.built)."""
    built(len(new))
    return new


# ------------------------------------------------------------------ compared by a key
# `sorted(c for c in hand by c.value)`: the generator gives (key, item) pairs, and these
# compare the keys only (stable: items with equal keys keep their order; the first wins).
def _key(pair):
    return pair[0]


def _sorted_by(s, pairs):
    return [item for _key_, item in sorted(pairs, key=_key)]


def _min_by(s, pairs, default=None):
    return min(pairs, key=_key)[1] if pairs else default


def _max_by(s, pairs, default=None):
    return max(pairs, key=_key)[1] if pairs else default


def _distinct_by(s, pairs):
    firsts: dict = {}
    for key, item in pairs:
        firsts.setdefault(key, item)
    return list(firsts.values())


# ------------------------------------------------------------------ functions
@function("range", ("start",), (("stop", None),), "whole numbers from start up to stop - 1 (or 0..start-1)",
          "range(bid + 1, p.money + 1)",
          args={'start': 'number', 'stop': 'number'}, returns="list", gives="list")
def _range(s, start, stop=None):
    r = range(start) if stop is None else range(start, stop)
    if len(r) > MAX_RANGE:
        raise ContentRuntimeError(f"range of {len(r):,} numbers is longer than {MAX_RANGE:,} "
                                  "(no board needs more; a runaway bound?)", None, RANGE_TOO_LONG)
    return list(r)


@function("count", ("items",), (), "how many items a list or zone holds", "count(p.hand)",
          args={'items': 'list'}, returns="number", form="count")
def _count(s, items):
    return len(seq(s, items))


@function("sum", ("numbers",), (), "the sum of a list of numbers", "sum(c.value for c in p.tiles)",
          args={'numbers': 'list'}, returns="number", form="sum")
def _sum(s, numbers):
    return sum(seq(s, numbers))


@function("min", ("numbers",), (("default", None),), "the smallest value, or default when empty",
          "min([a, b])",
          args={'numbers': 'list'}, form="min", by=_min_by)
def _min(s, numbers, default=None):
    items = seq(s, numbers)
    return min(items) if items else default


@function("max", ("numbers",), (("default", None),), "the largest value, or default when empty",
          "max([q.score for q in others(p)], default=0)",
          args={'numbers': 'list'}, form="max", by=_max_by)
def _max(s, numbers, default=None):
    items = seq(s, numbers)
    return max(items) if items else default


@function("any", ("items",), (), "true if any item is true", "any(x > 0 for x in counts)",
          args={'items': 'list'}, returns="bool", form="any")
def _any(s, items):
    return any(seq(s, items))


@function("all", ("items",), (), "true if every item is true (also when empty)", "all(row >= 2 for row in rows)",
          args={'items': 'list'}, returns="bool", form="all")
def _all(s, items):
    return all(seq(s, items))


@function("first", ("items",), (("default", None),), "the first item, or default when empty",
          "first([i for i in range(pos + 1, 36) if count(track[i]) > 0])",
          args={'items': 'list'}, form="first")
def _first(s, items, default=None):
    items = seq(s, items)
    return items[0] if items else default


@function("last", ("items",), (("default", None),), "the last item, or default when empty", "last(order)",
          args={'items': 'list'})
def _last(s, items, default=None):
    items = seq(s, items)
    return items[-1] if items else default


@function("top", ("zone",), (), "the top item of a zone (the last one moved in), or none", "top(deck)",
          args={'zone': 'list'})
def _top(s, zone):
    items = seq(s, zone)
    return items[-1] if items else None


@function("bottom", ("zone",), (), "the bottom item of a zone, or none", "bottom(deck)",
          args={'zone': 'list'})
def _bottom(s, zone):
    items = seq(s, zone)
    return items[0] if items else None


@function("list", ("items",), (), "a snapshot of a zone or list as a list", "list(staging)",
          args={'items': 'list'}, returns="list", gives="list")
def _list(s, items):
    return _counted(list(seq(s, items)))


@function("sorted", ("items",), (), "the items in ascending order", "sorted(scores)",
          args={'items': 'list'}, returns="list", gives="list", by=_sorted_by)
def _sorted(s, items):
    return _counted(sorted(seq(s, items)))


@function("reversed", ("items",), (), "the items in reverse order", "reversed(order)",
          args={'items': 'list'}, returns="list", gives="list")
def _reversed(s, items):
    return _counted(list(reversed(seq(s, items))))


@function("distinct", ("items",), (), "the items without repeats, in first-seen order",
          "distinct(c.company for c in p.hand)",
          args={'items': 'list'}, returns="list", gives="list", by=_distinct_by)
def _distinct(s, items):
    return _counted(list(dict.fromkeys(seq(s, items))))


@function("subsets", ("items",), (("min", 0), ("max", None)),
          "every subset of the items with min to max of them, smaller first, each in the items' order",
          "\"lay {join(c.value for c in cards, '+')}\" for cards in subsets(p.hand, min=1)",
          args={'items': 'list', 'min': 'number', 'max': 'number'}, returns="list", gives="list")
def _subsets(s, items, min=0, max=None):  # noqa: A002 - the content's keyword names
    pool = list(seq(s, items))
    for bound in (min, max):
        if bound is not None and (bound.__class__ is bool or not isinstance(bound, int)):
            raise ContentRuntimeError(f"`subsets` bounds are whole numbers, not {mutate.fmt(bound)}", None, WRONG_KIND)
    low, high = (min if min > 0 else 0), (len(pool) if max is None or max > len(pool) else max)
    total = sum(math.comb(len(pool), k) for k in range(low, high + 1))
    if total > MAX_SUBSETS:
        raise ContentRuntimeError(f"`subsets` of {len(pool)} items would list {total:,} subsets (at most "
                                  f"{MAX_SUBSETS:,}; bound their size with min= and max=)", None, VALUE_TOO_LARGE)
    return [list(chosen) for k in range(low, high + 1) for chosen in itertools.combinations(pool, k)]



# ------------------------------------------------------------------ boards (engine/boards.py)
@function("cells", ("board",), (), "every cell (space) of a family of zones; a board's row by row from a1",
          "[c for c in cells(p.wall) if count(p.wall[c]) == 0]",
          returns="list", gives="list")
def _cells(s, board):
    if board.__class__ is not Family:
        raise ContentRuntimeError(f"`cells` asks a family of zones, not {mutate.fmt(board)}", None, WRONG_KIND)
    return list(board.zones) if board.bound is None else [zone.key for zone in board.in_play(s)]


@function("neighbours", ("board", "cell"), (), "the cells of a board next to a cell across an edge, "
          "in the board's order; on a map, the nodes one edge away",
          "count(n for n in neighbours(p.wall, c) if count(p.wall[n]) > 0)",
          returns="list", gives="list")
def _neighbours(s, board, cell):
    if board.__class__ is Family and board.graph is not None:
        return graphs.neighbours(board, cell)
    return boards.neighbours(boards.grid_of(board, "neighbours"), cell)


@function("row", ("cell",), (), "the row number of a board's cell (`c4`: 4)", "row(c) == 1",
          args={'cell': 'text'}, returns="number")
def _row(s, cell):
    return boards.place(cell)[1]


@function("col", ("cell",), (), "the column number of a board's cell, a being 1 (`c4`: 3)", "col(c) == col(d)",
          args={'cell': 'text'}, returns="number")
def _col(s, cell):
    return boards.place(cell)[0]


@function("regions", ("board", "by"), (), "the connected groups of occupied cells whose top items have the same "
          "value of a property, each a list of cells",
          "max([count(r) for r in regions(p.land, \"terrain\")], default=0)",
          args={'by': 'text'}, returns="list", gives="list", reads="state", names="props", named="by")
def _regions(s, board, by):
    return boards.regions(s, boards.grid_of(board, "regions"), by)


# ------------------------------------------------------------------ maps (engine/graphs.py)
@function("edges", ("board",), (("a", None), ("b", None)), "the edges of a map, in the order declared: all of them, "
          "those at node a, or those joining a and b (parallel edges all)",
          "[e for e in edges(map, here) if count(map[e]) == 0]",
          args={'a': 'text', 'b': 'text'}, returns="list", gives="list")
def _edges(s, board, a=None, b=None):
    return graphs.edges(board, a, b)


@function("ends", ("board", "edge"), (), "the two nodes an edge of a map joins (its `from`, then its `to`)",
          "here in ends(map, e)",
          args={'edge': 'text'}, returns="list", gives="list")
def _ends(s, board, edge):
    return graphs.ends(board, edge)


@function("degree", ("board", "node"), (("via", None),), "how many edges (of via, when given) meet at a node; "
          "on a board, how many of its cells (of via) are next to a cell",
          "degree(map, here, via=mine) == 1",
          args={'node': 'text', 'via': 'list'}, returns="number")
def _degree(s, board, node, via=None):
    return graphs.degree(board, node, via)


@function("connected", ("board", "a", "b"), (("via", None),), "whether a path of edges (of via, when given) joins "
          "nodes a and b; on a board, a path of cells (of via) side by side",
          "connected(map, t.start, t.end, via=owned(p))",
          args={'a': 'text', 'b': 'text', 'via': 'list'}, returns="bool")
def _connected(s, board, a, b, via=None):
    return graphs.connected(board, a, b, via)


@function("connected_components", ("board",), (("via", None),), "the connected groups of nodes (of the graph the "
          "edges via make, when given; on a board, of the cells via names), each in the map's order",
          "max([count(c) for c in connected_components(map, via=owned(p))], default=0)",
          args={'via': 'list'}, returns="list", gives="list")
def _connected_components(s, board, via=None):
    return graphs.components(board, via)


@function("shortest_path", ("board", "a", "b"), (("via", None), ("weight", None)), "the nodes of a shortest path "
          "from a to b, both included (each edge counting its weight property, or 1), or none",
          "count(shortest_path(map, a, b, weight=\"length\"))",
          args={'a': 'text', 'b': 'text', 'via': 'list', 'weight': 'text'}, returns="list")
def _shortest_path(s, board, a, b, via=None, weight=None):
    return graphs.shortest_path(s, board, a, b, via, weight)


@function("longest_trail", ("board", "edges"), (("weight", None),), "the greatest total weight (or number) of the "
          "edges of a trail over the given edges: no edge twice, nodes revisited",
          "longest_trail(map, owned(p), weight=\"length\")",
          args={'edges': 'list', 'weight': 'text'}, returns="number")
def _longest_trail(s, board, edges, weight=None):
    return graphs.longest_trail(s, board, seq(s, edges), weight)


@function("owner", ("board", "space"), (), "the player whose piece lies on top of a map's node or edge (the map's "
          "`owner:` property of that piece names them), or none",
          "[e for e in edges(map) if owner(map, e) == p]",
          args={'space': 'text'}, reads="state")
def _owner(s, board, space):
    return graphs.owner(s, board, space)


def _whole(name: str, value, what: str) -> int:
    if value.__class__ is not int:
        raise ContentRuntimeError(f"`{name}`'s {what} is a whole number, not {mutate.fmt(value)}", None, WRONG_KIND)
    return value


def _bounded(name: str, total: int, hint: str) -> None:
    if total > MAX_SUBSETS:
        raise ContentRuntimeError(f"`{name}` would list {total:,} choices (at most {MAX_SUBSETS:,}; {hint})", None,
                                  VALUE_TOO_LARGE)


@function("bounding_box", ("cells",), (), "the smallest box of rows and columns holding the cells (a list of cells, "
          "or a board's occupied ones), as a mapping: first_col, last_col, first_row, last_row, cols, rows; none "
          "for no cell", "bounding_box(p.realm)[\"cols\"] <= 5",
          reads="state")
def _bounding_box(s, cells):
    return boards.bounding_box(s, cells)


@function("combinations", ("items", "k"), (), "every choice of k of the items, in the items' order (no repeats)",
          "best = max(sum(c.value for c in three) for three in combinations(p.hand, 3))",
          args={'items': 'list', 'k': 'number'}, returns="list", gives="list")
def _combinations(s, items, k):
    pool, k = list(seq(s, items)), _whole("combinations", k, "size")
    _bounded("combinations", math.comb(len(pool), k) if k >= 0 else 0, "choose fewer or smaller")
    return [list(chosen) for chosen in itertools.combinations(pool, k)] if k >= 0 else []


@function("permutations", ("items",), (("k", None),), "every ordering of k of the items (all of them by default)",
          "\"order {join(o)}\" for o in permutations(colours, 2)",
          args={'items': 'list', 'k': 'number'}, returns="list", gives="list")
def _permutations(s, items, k=None):
    pool = list(seq(s, items))
    k = len(pool) if k is None else _whole("permutations", k, "size")
    _bounded("permutations", math.perm(len(pool), k) if 0 <= k <= len(pool) else 0, "order fewer items")
    return [list(chosen) for chosen in itertools.permutations(pool, k)] if k >= 0 else []


@function("product", ("first", "second"), (), "every pair of an item of the first and one of the second, "
          "the first's order outermost", "[pair for pair in product(colours, [1, 2, 3])]",
          args={'first': 'list', 'second': 'list'}, returns="list", gives="list")
def _product(s, first, second):
    left, right = list(seq(s, first)), list(seq(s, second))
    _bounded("product", len(left) * len(right), "pair fewer items")
    return [[a, b] for a in left for b in right]


@function("join", ("items",), (("separator", ", "),), "the items as one text, each as notation prints it, "
          "with the separator between them", "join(c.value for c in cards, '+')",
          args={'items': 'list', 'separator': 'text'}, returns="text")
def _join(s, items, separator=", "):
    if not isinstance(separator, str):     # (a marked text is one: engine/redact.Marked)
        raise ContentRuntimeError(f"`join` separates with a text, not {mutate.fmt(separator)}", None, WRONG_KIND)
    return _printed_items(seq(s, items), separator)


@function("text", ("value",), (), "the value as text, as notation prints it (players as p1, p2...)",
          "item(\"dev-\" + text(p) + \"-\" + column)",
          returns="text")
def _text(s, value):
    return printed(value)


@function("without", ("items", "item"), (), "a copy of the list without the first occurrence of item",
          "t.contents = without(t.contents, kind)",
          args={'items': 'list'}, returns="list", gives="list")
def _without(s, items, item):
    out = _counted(list(seq(s, items)))
    if item in out:
        out.remove(item)
    return out


@function("abs", ("number",), (), "the absolute value", "abs(a - b)",
          args={'number': 'number'}, returns="number")
def _abs(s, number):
    return abs(number)


@function("index_of", ("items", "item"), (), "0-based position of item in items, or -1",
          "index_of(order, p)",
          args={'items': 'list'}, returns="number")
def _index_of(s, items, item):
    items = seq(s, items)
    if items.__class__ is not list:     # a mapping, a text or a number: no positions to count
        raise ContentRuntimeError(f"`index_of` looks for a position in a list or a zone, not in "
                                  f"{mutate.fmt(items)[:200]} (`x in d` asks whether a mapping has a key)",
                                  None, WRONG_KIND)
    return items.index(item) if item in items else -1


@function("players_from", ("player",), (), "every player in seat order, starting with player",
          "players_from(start_player)",
          returns="list", gives="list", reads="players")
def _players_from(s, player):
    return [PLAYERS[(player + i) % s.n] for i in range(s.n)]


# players -> seat -> the others in seat order, starting left of that seat (lists are never changed in place)
OTHER_SEATS = tuple(tuple([PLAYERS[(p + i) % n] for i in range(1, n)] for p in range(n))
                    for n in range(len(PLAYERS) + 1))


@function("others", ("player",), (), "every other player in seat order, starting left of player",
          "others(winner)",
          returns="list", gives="list", reads="players")
def _others(s, player):
    if player.__class__ is Player and player < s.n:
        return OTHER_SEATS[s.n][player]
    return [PLAYERS[(player + i) % s.n] for i in range(1, s.n)]




@function("next_player", ("player",), (("steps", 1),), "the player `steps` seats to the left",
          "next_player(auctioneer)",
          args={'steps': 'number'}, reads="players")
def _next_player(s, player, steps=1):
    return PLAYERS[(player + steps) % s.n]


@function("seat", ("player",), (), "the player's seat number, 1 for the first", "seat(p)",
          returns="number")
def _seat(s, player):
    return int(player) + 1


@function("zone_of", ("item",), (), "the zone an item lies in", "zone_of(tile)",
          returns="zone", reads="state")
def _zone_of(s, item):
    return s.loc.get(item)


@function("items", ("kind",), (), "every item of a component kind, in definition order", "items(\"card\")",
          args={'kind': 'text'}, returns="list", names="kinds", gives="list")
def _items(s, kind):
    if kind not in s.game.components.kinds:
        raise ContentRuntimeError(f"no component kind `{kind}`")
    return list(s.game.components.kinds[kind])


@function("kind_of", ("item",), (), "the component kind of an item", "kind_of(t) == \"tile\"")
def _kind_of(s, item):
    return s.game.components.item_kind.get(item)


@function("has", ("item", "prop"), (), "true if the item has the property: printed on it, or state its kind declares",
          "t.worth if has(t, \"worth\") else 0",
          args={'prop': 'text'}, returns="bool", names="props", named="prop")
def _has(s, item, prop):
    components = s.game.components
    props = components.items.get(item) if item.__class__ is str else None
    if props is not None:
        return prop in props or prop in components.kind_state.get(components.item_kind[item], ())
    if item.__class__ is str and item in components.members:
        return prop in components.members[item]
    raise ContentRuntimeError(f"`has` asks about {mutate.fmt(item)}, which is no item nor set member", None,
                              WRONG_KIND)


@function("item", ("id",), (), "the item with this id", "item(\"goal\")",
          args={'id': 'text'}, names="items", gives="item")
def _item(s, ident):
    if ident not in s.game.components.items:
        raise ContentRuntimeError(f"no item with id `{ident}`")
    return ident


@function("roll", ("sides",), (("stream", "dice"),),
          "a random whole number from 1 to sides, from a named random stream; logged", "n = roll(6)",
          args={'sides': 'number', 'stream': 'text'}, returns="number", pure=False, pins="stream")
def _roll(s, sides, stream="dice"):
    return mutate.roll(s, sides, stream)


@function("deciding", (), (), "the name of the procedure whose `choose` the game waits at, or none (for invariants "
          "and expectations: while rules run, nothing is pending)", "deciding() == \"auction\"",
          returns="text", pure=False)
def _deciding(s):
    if s.pending is None or not s.frames:
        return None
    return s.frames[-1].code.name


# -------------------------------------------------------------------- effects
@effect("move", ("item", "to"), (("at", "top"),), "move one item from wherever it lies to a zone: on top, "
        "at the bottom, or at = N items from the top (a negative N counts from the bottom: -1 is the bottom)",
        "move(card, to=p.played)",
        args={'to': 'zone', 'item': 'item'})
def _move(s, item, to, at="top", span=None):
    if to.__class__ is not ZoneKey:
        _need_zone(to, "to", span)
    mutate.move(s, item, to, at, span)


@effect("move_all", ("source", "to"), (), "move every item of a zone to another zone, keeping their order",
        "move_all(lot, to=winner.hand)",
        args={'source': 'zone', 'to': 'zone'})
def _move_all(s, source, to, span=None):
    if source.__class__ is not ZoneKey or to.__class__ is not ZoneKey:
        _need_zone(source, "source", span)
        _need_zone(to, "to", span)
    move = mutate.move
    for item in list(s.zones[source]):
        move(s, item, to, "top", span)


@effect("draw", ("source", "to"), (("n", 1),), "move up to n items from the top of a zone (fewer if it runs out)",
        "draw(deck, to=p.hand, n=2)",
        args={'source': 'zone', 'to': 'zone', 'n': 'number'})
def _draw(s, source, to, n=1, span=None):
    if source.__class__ is not ZoneKey or to.__class__ is not ZoneKey:
        _need_zone(source, "source", span)
        _need_zone(to, "to", span)
    zones = s.zones
    if n == 1 and n.__class__ is int:      # the commonest draw: one item
        items = zones[source]
        if items:
            mutate.move(s, items[-1], to, "top", span)
        return
    for _ in range(n):
        items = zones[source]       # read anew: a move may replace a list shared with a clone
        if not items:
            break
        mutate.move(s, items[-1], to, "top", span)


@effect("shuffle", ("zone",), (("stream", "decks"),), "shuffle a zone with a named random stream; logged",
        "shuffle(deck)",
        args={'zone': 'zone', 'stream': 'text'})
def _shuffle(s, zone, stream="decks", span=None):
    _need_zone(zone, "zone", span)
    mutate.shuffle(s, zone, stream, span)


@effect("reveal", ("item",), (), "turn an item face up: set its `face_up` state to true (see face_up visibility)",
        "reveal(top(track[i]))",
        args={'item': 'item'})
def _reveal(s, item, span=None):
    _need_item(s, item, span)
    mutate.set_prop(s, item, "face_up", True)


@effect("hide", ("item",), (), "turn an item face down: set its `face_up` state to false", "hide(card)",
        args={'item': 'item'})
def _hide(s, item, span=None):
    _need_item(s, item, span)
    mutate.set_prop(s, item, "face_up", False)


@effect("log", ("text",), (), "write a line to the game's event log", "log(\"{p} takes the lot\")",
        recorded_only=True)
def _log(s, text, span=None):
    mutate.log(s, printed(text))


@effect("end_game", (), (), "end the game now and go to the finish and scoring", "end_game()")
def _end_game(s, span=None):
    raise EndGame()


def _need_item(s, value, span):
    if value not in s.game.components.items:
        raise ContentRuntimeError(f"expected an item, got {mutate.fmt(value)}", span, WRONG_KIND)


def _need_zone(value, what, span):
    if type(value) is not ZoneKey:
        raise ContentRuntimeError(f"`{what}` must be a zone, got {mutate.fmt(value)}", span, WRONG_KIND)
