"""Maps (issue #55): a zone family declared `graph: {nodes, edges, owner}` over two sets, with
parallel edges and a space per node and edge; the built-ins neighbours, edges, ends, degree,
connected, connected_components, shortest_path, longest_trail and owner, in declaration order;
a grid board as the same notions; bad maps and bad questions as located errors; a trail search
bounded."""
import re
import subprocess
import sys

import pytest

import rulekit
from rulekit.errors import ContentRuntimeError, DiagnosticReport

from conftest import ONE_DECISION, codes

MAP = """\
meta: {title: Net}
players: {min: 2, max: 2, default: 2}
sets:
  seats: [p1, p2]
  towns:
    ash: {x: 0, y: 0}
    bel: {x: 2, y: 0}
    cor: {x: 1, y: 2}
    dun: {x: 3, y: 2}
  links:
    ab: {from: ash, to: bel, length: 2, colour: red}
    ab2: {from: ash, to: bel, length: 2, colour: blue}
    bc: {from: bel, to: cor, length: 3, colour: red}
    ac: {from: ash, to: cor, length: 1, colour: blue}
components:
  piece:
    generate: {seat: seats, n: {range: [1, 3]}}
    id: "{seat}-{n}"
    start: supply
zones:
  supply: {}
  board: {grid: {cols: 3, rows: 2}}
  map: {graph: {nodes: towns, edges: links, owner: seat}}
vars:
  out: none
setup: |
  move(item("p1-1"), to=map["ab"])
  move(item("p1-2"), to=map["bc"])
  move(item("p2-1"), to=map["ac"])
  move(item("p2-2"), to=map["dun"])
  mine = [e for e in edges(map) if owner(map, e) == players[0]]
  out = QUESTION
""" + ONE_DECISION


def ask(write_game, question: str):
    game = rulekit.load_game(write_game(MAP.replace("QUESTION", question)))
    return rulekit.new_game(game, 2).g["out"]


@pytest.mark.parametrize("question, answer", [
    ('neighbours(map, "ash")', ["bel", "cor"]),
    ('edges(map)', ["ab", "ab2", "bc", "ac"]),
    ('edges(map, "ash", "bel")', ["ab", "ab2"]),           # parallel edges, both
    ('edges(map, "cor")', ["bc", "ac"]),
    ('edges(map, b="cor")', ["bc", "ac"]),
    ('ends(map, "bc")', ["bel", "cor"]),
    ('degree(map, "ash")', 3),
    ('degree(map, "ash", via=mine)', 1),
    ('mine', ["ab", "bc"]),
    ('[owner(map, "ab"), owner(map, "ac"), owner(map, "ab2")]', [0, 1, None]),
    ('[owner(map, "dun"), owner(map, "ash")]', [1, None]),             # nodes are owned as edges are
    ('connected(map, "ash", "cor", via=mine)', True),
    ('connected(map, "ash", "cor", via=["ac"])', True),
    ('connected(map, "ash", "dun")', False),
    ('connected(map, "dun", "dun")', True),
    ('connected_components(map)', [["ash", "bel", "cor"], ["dun"]]),
    ('connected_components(map, via=["bc"])', [["bel", "cor"]]),
    ('shortest_path(map, "ash", "cor")', ["ash", "cor"]),
    ('shortest_path(map, "bel", "cor", via=["ab", "ac"], weight="length")', ["bel", "ash", "cor"]),
    ('shortest_path(map, "ash", "dun")', None),
    ('longest_trail(map, edges(map), weight="length")', 8),  # every edge once, ash and bel twice
    ('longest_trail(map, edges(map))', 4),
    ('longest_trail(map, mine, weight="length")', 5),
    ('longest_trail(map, [])', 0),
    # a grid board is the same notions: cells as nodes, via= names the cells walked
    ('degree(board, "b1")', 3),
    ('connected(board, "a1", "c1", via=["a1", "a2", "b2", "c2", "c1"])', True),
    ('connected(board, "a1", "c1", via=["a1", "c1"])', False),
    ('connected_components(board, via=["a1", "c1", "c2"])', [["a1"], ["c1", "c2"]]),
    ('shortest_path(board, "a1", "c2")', ["a1", "b1", "c1", "c2"]),
])
def test_what_the_builtins_say_of_a_map(write_game, question, answer):
    assert ask(write_game, question) == answer


def test_the_map_is_a_family_with_a_space_per_node_and_edge(write_game):
    game = rulekit.load_game(write_game(MAP.replace("QUESTION", "cells(map)")))
    state = rulekit.new_game(game, 2, record=True)
    assert state.g["out"] == ["ash", "bel", "cor", "dun", "ab", "ab2", "bc", "ac"]
    assert ("move", "p1-1", "supply", "map[ab]") in state.events


@pytest.mark.parametrize("question, message", [
    ('connected(map, "ash", "dunn")', "`connected`: `map` has no node `dunn` (did you mean `dun`?)"),
    ('degree(map, "ash", via=["abb"])', "`degree`: `map` has no edge `abb` (did you mean `ab`?)"),
    ('longest_trail(map, edges(map), weight="lenght")', "edge `ab` has no property `lenght` (did you mean `length`?)"),
    ('ends(board, "a1")', "`ends` asks a map (a zone family declared with `graph:`), not board"),
    ('owner(map, "ax")', "`owner`: `map` has no space `ax`"),
])
def test_a_bad_question_is_the_content_s_error_on_its_line(write_game, question, message):
    with pytest.raises(ContentRuntimeError) as caught:
        ask(write_game, question)
    assert message in str(caught.value)
    assert caught.value.span is not None and caught.value.span.line == MAP.splitlines().index("  out = QUESTION") + 1


@pytest.mark.parametrize("change, code, where, text", [
    ("bc: {from: bel,", "bc: {from: bell,", "RK0140", "edge `bc` joins `bell`, which is no node of the map"),
    ("ac: {from: ash, to: cor,", "ac: {from: ash,", "RK0140", "edge `ac` names no `to` node"),
    ("dun: {x: 3, y: 2}", "dun: {}", "RK0141", "node `dun` has no position, where 3 of the map's nodes have one"),
    ("dun: {x: 3, y: 2}", "dun: {x: 3, y: 2}\n    dun: {}", "RK0102", "duplicate key `dun`"),
    ("edges: links", "edges: linkz", "RK0335", "unknown set `linkz`"),
])
def test_a_bad_map_is_a_located_error(write_game, change, code, where, text):
    folder = write_game(MAP.replace("QUESTION", "0").replace(change, code))
    with pytest.raises(DiagnosticReport) as caught:
        rulekit.load_game(folder)
    assert where in codes(caught.value)
    assert text in str(caught.value)


def test_validate_names_the_line_and_the_nearest_node(write_game):
    folder = write_game(MAP.replace("QUESTION", "0").replace("bc: {from: bel,", "bc: {from: bell,"))
    run = subprocess.run([sys.executable, "-m", "rulekit", "validate", folder], capture_output=True, text=True)
    assert run.returncode == 1
    assert "error[RK0140]: edge `bc` joins `bell`, which is no node of the map" in run.stdout + run.stderr
    assert "game.yaml:13:16" in run.stdout + run.stderr
    assert "did you mean `bel`?" in run.stdout + run.stderr
    assert "Traceback" not in run.stderr


def test_a_trail_search_on_a_dense_map_stops_on_its_line(write_game):
    nodes = "\n".join(f"    n{i}: {{}}" for i in range(12))
    links = "\n".join(f"    e{i}_{j}: {{from: n{i}, to: n{j}}}" for i in range(12) for j in range(i + 1, 12))
    text = MAP.replace("QUESTION", "longest_trail(map, edges(map))")
    start, end = text.index("  towns:"), text.index("components:")
    text = text[:start] + f"  towns:\n{nodes}\n  links:\n{links}\n" + text[end:]
    text = text.replace("  move(item", "  # move(item")
    game = rulekit.load_game(write_game(text))
    with pytest.raises(ContentRuntimeError) as caught:
        rulekit.new_game(game, 2)
    line = text.splitlines().index("  out = longest_trail(map, edges(map))") + 1
    assert caught.value.code == "RK4030" and caught.value.span.line == line
    assert "tried more than 1,000,000 trails over 66 edges" in str(caught.value)


def test_render_refuses_a_map_with_no_positions_where_it_is_declared(write_game, tmp_path):
    text = re.sub(r"(ash|bel|cor|dun): \{x: \d, y: \d\}", r"\1: {}", MAP.replace("QUESTION", "0"))
    folder = write_game({"game.yaml": text, "s.yaml": "game: .\nplayers: 2\nactions: []\n"})
    run = subprocess.run([sys.executable, "-m", "rulekit", "render", f"{folder}/s.yaml", "-o", str(tmp_path / "m.svg")],
                         capture_output=True, text=True)
    said = run.stdout + run.stderr
    assert run.returncode == 1, said
    assert "error[RK0141]: `rulekit render` draws the map `map` from its nodes' positions, and they have none" in said
    line = text.splitlines().index("  map: {graph: {nodes: towns, edges: links, owner: seat}}") + 1
    assert f"game.yaml:{line}:" in said and "Traceback" not in said, said
