"""The smaller gaps of issue #55 in pictures and play: `player_color_by` naming a numeric seat
(2 is p2) colours the piece; `layout: {regions: false}` turns a board's region outlines off;
`show BOARD` in `rulekit play` prints a shared `grid:` board as rows, as a player's own prints."""
import subprocess
import sys
import xml.etree.ElementTree as ET

import rulekit
from rulekit.view.render import render_svg

from conftest import ONE_DECISION
from test_boards import GAME as BOARDS

SVG = "{http://www.w3.org/2000/svg}"
SEATS = """\
meta: {title: Seats}
players: {min: 2, max: 2, default: 2}
components:
  piece:
    items: [{id: red-one, seat: 1}, {id: blue-two, seat: 2}]
    start: pool
zones:
  pool: {}
render:
  player_colors: ["#aa0000", "#0000aa"]
  player_color_by: {piece: seat}
""" + ONE_DECISION


def _fill_of(root, label: str) -> str:
    for group in root.iter(SVG + "g"):
        rect, text = group.find(SVG + "rect"), group.find(SVG + "text")
        if rect is not None and text is not None and text.text == label:
            return rect.get("fill") or rect.get("style")
    raise AssertionError(f"no chip {label}")


def test_a_numeric_seat_colours_a_piece_in_its_player_s_colour(write_game):
    state = rulekit.new_game(rulekit.load_game(write_game(SEATS)), 2)
    root = ET.fromstring(render_svg(state))
    assert "#aa0000" in _fill_of(root, "red-one")
    assert "#0000aa" in _fill_of(root, "blue-two")


def _outlines(root) -> list:
    return [p for p in root.iter(SVG + "path") if p.get("class") == "region"]


def test_regions_false_draws_a_board_without_its_outlines(write_game):
    drawn = rulekit.new_game(rulekit.load_game(write_game(BOARDS, "drawn")), 1, 1)
    assert _outlines(ET.fromstring(render_svg(drawn)))          # the default: each region outlined
    plain = BOARDS.replace("capacity: 1, visibility: public}", "capacity: 1, visibility: public, "
                           "layout: {regions: false}}")
    assert plain != BOARDS
    state = rulekit.new_game(rulekit.load_game(write_game(plain, "plain")), 1, 1)
    assert _outlines(ET.fromstring(render_svg(state))) == []


def test_show_prints_a_shared_board_as_rows(write_game):
    game = write_game(BOARDS.replace('  out = [cells(shared)', '  move(item("lake-4"), to=shared["b2"])\n'
                                     '  out = [cells(shared)'))
    run = subprocess.run([sys.executable, "-m", "rulekit", "play", game, "--players", "1"],
                         input="show shared\nquit\n", capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    shown = run.stdout.split("> show shared\n", 1)[1]
    assert shown.startswith("shared:\n   a      b\n1  .      .\n2  .      lake-4\n"), shown
