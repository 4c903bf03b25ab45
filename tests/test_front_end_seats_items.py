"""Players, items and set members are types the front end knows (issue #50): a name a ``for``
binds has what its collection holds (``players``: a player; a zone: an item; ``items("card")``: an
item of that kind; a set: a member), as has ``p`` of a scoring category; a use that only running
would have refused (a player variable read of an item, an item given where a zone belongs, an item
added to a number) is refused where it is written, whatever passes are on, and every use that is
right still validates."""
from __future__ import annotations

import textwrap

import pytest

import rulekit
from rulekit import codes
from rulekit.errors import DiagnosticReport

GAME = """\
meta: {title: Typed}
players: {min: 2, max: 2}
vars:
  x: 0
player:
  vars:
    coins: 3
  zones:
    hand: {}
zones:
  deck: {}
sets:
  goods:
    spice: {price: 3}
    tea: {price: 2}
components:
  card:
    items:
      - {id: c1, value: 2}
      - {id: c2, value: 5}
    start: deck
  token:
    items:
      - {id: t1, weight: 1}
    start: deck
functions:
  mine: {params: [p], expr: "[c for c in p.hand if c.value > 1] if p.coins > 0 else []"}
  everyone: {params: [], expr: "[q for q in players]"}
setup: |
  BODY
flow:
  rounds: 1
  phases:
    - id: main
      do: |
        choose players[0]:
            "end":
                pass
scoring:
  categories:
    - id: money
      points: "POINTS"
"""
SETUP_LINE = GAME.splitlines().index("  BODY") + 1
POINTS_LINE = GAME.splitlines().index('      points: "POINTS"') + 1


def _game(write_game, body: str = "pass", points: str = "p.coins", name: str = "g"):
    text = GAME.replace("BODY", body.replace("\n", "\n  ")).replace("POINTS", points)
    return write_game(textwrap.dedent(text), name=name)


WRONG = [
    # a player variable read of an item of a zone
    (codes.ATTRIBUTE_OF_WRONG_KIND, "x = sum(c.coins for c in deck)", "`c` is an item, which has no `coins`"),
    # an item's property read of a player
    (codes.ATTRIBUTE_OF_WRONG_KIND, "x = sum(q.value for q in players)", "`q` is a player, which has no `value`"),
    # a member's property read of a player, the name bound by a `for` statement
    (codes.ATTRIBUTE_OF_WRONG_KIND, "for q in players:\n    x += q.price", "`q` is a player, which has no `price`"),
    # a player variable of a set's member
    (codes.ATTRIBUTE_OF_WRONG_KIND, "x = count([g for g in goods if g.coins > 0])",
     "`g` is a member of a set, which has no `coins`"),
    # a loop over a player's zone binds items
    (codes.ATTRIBUTE_OF_WRONG_KIND, "for c in players[0].hand:\n    x += c.coins", "`c` is an item"),
    # what a comprehension's element is, its clause binds
    (codes.ATTRIBUTE_OF_WRONG_KIND, "x = sum(d.coins for d in [c for c in deck])", "`d` is an item"),
    # a `let` binds what its value is
    (codes.ATTRIBUTE_OF_WRONG_KIND, "x = sum(r.value for q in players let r = q)", "`r` is a player"),
    # an item of a kind the text names has that kind's properties only
    (codes.ATTRIBUTE_OF_WRONG_KIND, 'x = sum(t.value for t in items("token"))',
     "`t` is an item of kind `token`, which has no `value` (`value` is a property of `card`)"),
    (codes.ATTRIBUTE_OF_WRONG_KIND, 'x = item("c1").weight', "it is an item of kind `card`, which has no `weight`"),
    # a content function's list has what its comprehension picks
    (codes.ATTRIBUTE_OF_WRONG_KIND, "for c in mine(players[0]):\n    x += c.coins", "`c` is an item"),
    (codes.ATTRIBUTE_OF_WRONG_KIND, "x = sum(q.value for q in everyone())", "`q` is a player"),
    # a player given where an item belongs
    (codes.WRONG_ARGUMENT_KIND, "for q in players:\n    move(q, deck)", "must be an item, got a player"),
    # an item given where a zone belongs
    (codes.WRONG_ARGUMENT_KIND, "for c in deck:\n    shuffle(c)", "must be a zone, got an item"),
    # an item added to a number: its id is a text
    (codes.OPERANDS_OF_WRONG_TYPES, "x = sum(c + 1 for c in deck)", "cannot take a text and a number"),
    # an item given to a variable of numbers
    (codes.VALUE_OF_WRONG_TYPE_ASSIGNED, "for c in deck:\n    x = c", "holds whole numbers"),
]


@pytest.mark.parametrize("code, body, words", WRONG, ids=[b.split("\n")[0][:30] for _c, b, _w in WRONG])
def test_a_use_of_the_wrong_kind_is_refused_at_its_line(write_game, code, body, words):
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(_game(write_game, body))
    lines = range(SETUP_LINE, SETUP_LINE + body.count("\n") + 1)
    found = [d for d in info.value.diagnostics if d.code == code and d.span.line in lines]
    assert found, [(d.code, d.span.line, d.message) for d in info.value.diagnostics]
    assert words in found[0].message


def test_a_player_compared_with_a_text_is_never_equal(write_game):
    game = rulekit.load_game(_game(write_game, 'x = count([q for q in players if q == "p1"])'))
    assert [(w.code, w.span.line) for w in game.warnings if w.code == codes.NEVER_EQUAL] == \
        [(codes.NEVER_EQUAL, SETUP_LINE)]


def test_p_of_a_scoring_category_is_a_player(write_game):
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(_game(write_game, points="p.value"))
    assert [(d.code, d.span.line) for d in info.value.diagnostics] == \
        [(codes.ATTRIBUTE_OF_WRONG_KIND, POINTS_LINE)]
    said = info.value.diagnostics[0].message
    assert "`p` is a player, which has no `value` (`value` is a property of `card`)" in said


RIGHT = [
    "x = sum(c.value for c in deck)",
    "for c in mine(players[0]):\n    x += c.value",
    "x = sum(q.coins for q in everyone())",
    'x = sum(t.weight for t in items("token")) + item("c1").value',
    # a zone may hold items of any kind: each property some item has is taken
    "x = sum(c.weight for c in deck)",
    "x = sum(q.coins for q in players)",
    "x = count([g for g in goods if g.price > 2])",
    "for c in players[0].hand:\n    x += c.value",
    "for q in players:\n    x += q.coins + count(q.hand)",
    # an inner clause binds `q` anew, to an item: each use is its own binder's
    "x = sum(q.coins for q in players if any(q.value > 0 for q in deck))",
    # a local given a player and bound by a loop over items has no one kind: nothing is said
    "c = players[0]\nfor c in deck:\n    x += 1\nx += c.coins",
    "x = sum(r.coins for q in players let r = q)",
    "for q in players:\n    x += q + 1",
    'for c in deck:\n    log("{c}: " + c)',
    "for c in deck:\n    move(c, players[0].hand)",
]


@pytest.mark.parametrize("body", RIGHT, ids=[b.split("\n")[0][:30] for b in RIGHT])
def test_every_right_use_still_validates(write_game, body):
    game = rulekit.load_game(_game(write_game, body))
    assert not [w for w in game.warnings if w.code in (codes.NEVER_EQUAL, codes.ATTRIBUTE_OF_WRONG_KIND)]


@pytest.mark.parametrize("passes", ["", "-all", "-kinds"])
def test_the_same_mistakes_whatever_passes_are_on(write_game, monkeypatch, passes):
    monkeypatch.setenv("RULEKIT_PASSES", passes)
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(_game(write_game, "x = sum(c.coins for c in deck)", points="p.value"))
    assert sorted((d.code, d.span.line) for d in info.value.diagnostics) == \
        [(codes.ATTRIBUTE_OF_WRONG_KIND, SETUP_LINE), (codes.ATTRIBUTE_OF_WRONG_KIND, POINTS_LINE)]
