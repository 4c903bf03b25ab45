"""Boards (issue #38): a zone family declared `grid: {cols, rows}`, cells named `a1`..; the built-ins
cells, neighbours, row, col and regions; a board of each player's own; pictures draw it as a grid;
bad cells and non-boards are located content errors."""
import re

import pytest

import rulekit
from rulekit.cli.app import main
from rulekit.errors import ContentRuntimeError, DiagnosticReport
from rulekit.testing.random_play import play_random

from conftest import codes

GAME = """\
meta: {title: Kingdom}
players: {min: 1, max: 2, default: 1}
sets:
  terrains: [forest, lake]
components:
  tile:
    generate: {terrain: terrains, n: {range: [1, 4]}}
    id: "{terrain}-{n}"
    start: bag
zones:
  bag: {visibility: public}
  shared: {grid: {cols: 2, rows: 2}, visibility: public}
player:
  zones:
    land: {grid: {cols: 3, rows: 2}, capacity: 1, visibility: public}
vars:
  out: none
setup: |
  p = players[0]
  move(item("forest-1"), to=p.land["a1"])
  move(item("forest-2"), to=p.land["b1"])
  move(item("lake-1"), to=p.land["c1"])
  move(item("forest-3"), to=p.land["b2"])
  move(item("lake-2"), to=p.land["a2"])
  out = [cells(shared), neighbours(p.land, "b1"), neighbours(p.land, "a2"), row("c2"), col("c2"),
         regions(p.land, "terrain"), [c for c in cells(p.land) if count(p.land[c]) == 0]]
flow:
  rounds: 1
  phases:
    - id: place
      do: |
        for p in players:
            choose p:
                "place {t} on {c}" for t in bag for c in cells(p.land) if count(p.land[c]) == 0 by t.terrain + c:
                    move(t, to=p.land[c])
                else:
                    pass
scoring:
  categories:
    - id: biggest
      points: "max([count(r) for r in regions(p.land, 'terrain')], default=0)"
"""


@pytest.fixture
def kingdom(write_game):
    return rulekit.load_game(write_game(GAME))


def test_a_board_and_what_the_builtins_say_of_it(kingdom):
    state = rulekit.new_game(kingdom, 1, record=True)
    assert state.g["out"] == [["a1", "b1", "a2", "b2"], ["a1", "c1", "b2"], ["a1", "b2"], 2, 3,
                              [["a1", "b1", "b2"], ["c1"], ["a2"]], ["c2"]]
    assert rulekit.legal_actions(state) == ["place forest-4 on c2", "place lake-3 on c2"]
    assert ("move", "forest-1", "bag", "p1.land[a1]") in state.events
    rulekit.apply(state, "place forest-4 on c2")
    assert state.result["scores"]["p1"]["total"] == 4       # forests a1, b1, b2 and now c2: one region


def test_random_games_with_two_boards(kingdom):
    for seed in range(3):
        state, _actions = play_random(kingdom, 2, seed)
        assert state.over


def test_a_picture_draws_each_board_as_a_grid(write_game, tmp_path, capsys):
    folder = write_game(GAME)
    log, picture = tmp_path / "game.log", tmp_path / "state.svg"
    assert main(["autoplay", folder, "--log", str(log), "--quiet"]) == 0
    assert main(["render", str(log), "-o", str(picture)]) == 0
    svg = picture.read_text()
    cells = {z: (float(x), float(y)) for z, x, y in
             re.findall(r'data-zone="(p1\.land\[\w+\])"><rect class="box" x="([\d.]+)" y="([\d.]+)"', svg)}
    assert set(cells) == {f"p1.land[{c}]" for c in ("a1", "b1", "c1", "a2", "b2", "c2")}
    assert cells["p1.land[a1]"][1] == cells["p1.land[c1]"][1] < cells["p1.land[a2]"][1]     # rows
    assert cells["p1.land[a1]"][0] == cells["p1.land[a2]"][0] < cells["p1.land[b2]"][0]     # columns
    shared = re.findall(r'data-zone="(shared\[\w+\])"><rect class="cell" x="([\d.]+)" y="([\d.]+)"', svg)
    assert {z for z, _x, _y in shared} == {"shared[a1]", "shared[b1]", "shared[a2]", "shared[b2]"}


@pytest.mark.parametrize(("call", "code", "said"), [
    ('neighbours(p.land, "d9")', "RK4023", "`p1.land` has no cell `d9`"),
    ('neighbours(p.land, "a3")', "RK4023", "its cells run from a1 to c2"),
    ('neighbours(bag, "a1")', "RK4002", "`neighbours` asks a board (a zone family declared with `grid:`), not bag"),
    ('row("forest")', "RK4002", "`forest` is no board cell"),
])
def test_a_bad_cell_or_a_non_board_is_a_located_content_error(write_game, call, code, said):
    text = GAME.replace("  out = [cells(shared)", f"  bad = {call}\n  out = [bad, cells(shared)")
    with pytest.raises(ContentRuntimeError) as info:
        rulekit.new_game(rulekit.load_game(write_game(text)), 1)
    assert info.value.code == code and said in str(info.value), str(info.value)
    assert info.value.span.line == text.splitlines().index(f"  bad = {call}") + 1


def test_a_grid_past_its_bounds_is_refused_by_the_schema(write_game):
    text = GAME.replace("grid: {cols: 2, rows: 2}", "grid: {cols: 27, rows: 2}")
    with pytest.raises(DiagnosticReport) as info:
        rulekit.load_game(write_game(text))
    assert codes(info.value) == ["RK0124"]


def test_a_bounding_box_spans_the_cells_of_a_list_or_a_board(write_game):
    text = GAME.replace('  out = [cells(shared),', '  spread = bounding_box(p.land)\n  out = [spread, '
                        'bounding_box(["b2", "d1"]), bounding_box(shared), bounding_box([]), cells(shared),')
    s = rulekit.new_game(rulekit.load_game(write_game(text)), 1)
    whole = {"first_col": 1, "last_col": 3, "first_row": 1, "last_row": 2, "cols": 3, "rows": 2}
    assert s.g["out"][:4] == [whole, {"first_col": 2, "last_col": 4, "first_row": 1, "last_row": 2, "cols": 3,
                                      "rows": 2}, None, None]


def test_a_bounding_box_of_something_else_is_an_error_on_its_line(write_game):
    text = GAME.replace('  out = [cells(shared),', '  out = [bounding_box(bag), cells(shared),')
    with pytest.raises(ContentRuntimeError, match="`bounding_box` asks a list of cells or a board, not bag") as info:
        rulekit.new_game(rulekit.load_game(write_game(text)), 1)
    assert info.value.span.line == 25
