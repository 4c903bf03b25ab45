# SPDX-License-Identifier: MIT
"""`rulekit render`: SVG pictures of a state and an HTML replay viewer, drawn from
content with defaults (no `render:` section) and from the layout keys it documents. A board
(`grid:`) is a grid of its cells with their items and an outline around each connected region:
by the property the content's `regions(...)` groups it by, else by item kind (Azul's walls)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
import yaml

from rulekit.agents import RandomAgent
from rulekit.cli.app import main
from rulekit.engine import api, boards
from rulekit.engine.view import view
from rulekit.games import load_game
from rulekit.testing.script import make_log
from rulekit.view.render import Renderer, internal_zones, region_props, render_svg

from test_boards import GAME as BOARDS_GAME

SVG = "{http://www.w3.org/2000/svg}"
GAMES = ["batavia", "goa"]


def _random_log(game, seed: int, path) -> dict:
    state = api.new_game(game, None, seed)
    agent = RandomAgent(seed)
    while not state.over:
        api.apply_index(state, agent.choose(state))
    log = make_log(state, list(game.variants), seed, None)
    path.write_text(yaml.safe_dump(log, sort_keys=False), encoding="utf-8")
    return log


@pytest.fixture(scope="module", params=GAMES)
def logged(request, tmp_path_factory):
    """(game, log path, log) of a whole random game."""
    game = load_game(request.param)
    path = tmp_path_factory.mktemp(request.param) / "game.log.yaml"
    log = _random_log(game, 5, path)
    return game, path, log


def _mid_state(game, log, step):
    state = api.new_game(game, log["players"], log["seed"])
    for action in log["actions"][:step]:
        api.apply(state, action)
    return state


def _tokens(root) -> set:
    """Every string the picture shows (texts and tooltips; grouped tooltips split)."""
    out = set()
    for el in root.iter():
        if el.tag in (SVG + "text", SVG + "title") and el.text:
            out.add(el.text)
            out.update(re.split(r", |\n", el.text))
    return out


def _render(capsys, *args) -> tuple[int, str]:
    code = main(["render", *map(str, args)])
    return code, capsys.readouterr().out


def test_mid_game_svg_has_zones_players_and_items(logged, tmp_path, capsys):
    game, path, log = logged
    step = len(log["actions"]) // 2
    out = tmp_path / "mid.svg"
    code, text = _render(capsys, path, "--at", step, "-o", out)
    assert code == 0, text
    assert f"after step {step} of {len(log['actions'])}" in text
    root = ET.parse(out).getroot()
    assert root.tag == SVG + "svg"
    assert len(list(root.iter(SVG + "rect"))) > 50 and len(list(root.iter(SVG + "text"))) > 50
    zones = {g.get("data-zone") for g in root.iter(SVG + "g") if g.get("data-zone")}
    players = {g.get("data-player") for g in root.iter(SVG + "g") if g.get("data-player")}
    n = log["players"]
    assert players == {f"p{i + 1}" for i in range(n)}
    internal = internal_zones(game)
    assert not internal & zones
    for name in game.board.zones:
        if name != "box" and name not in internal:
            assert name in zones
    for name, fam in game.board.families.items():
        assert all(f"{name}[{key}]" in zones for key in map(str, fam.zones))
    for name in game.board.pzones:
        assert all(f"p{i + 1}.{name}" in zones for i in range(n))
    # every item the spectator sees is drawn (as a chip or in a per-kind group's tooltip)
    state = _mid_state(game, log, step)
    tokens = _tokens(root)
    picture = view(state)
    visible = [i for name, z in picture["zones"].items() if name not in internal
               for i in (z if isinstance(z, list) else [])]
    assert visible and all(i in tokens for i in visible)
    assert f"step {step} of {len(log['actions'])}: " in " ".join(tokens)


def test_nothing_hidden_is_drawn(logged):
    """A spectator's picture shows no item of an owner-only or hidden zone and no
    face-down item; a player's picture shows their own hand but nobody else's."""
    game, _path, log = logged
    state = _mid_state(game, log, len(log["actions"]) // 3)
    owner = [keys[0] for name, keys in game.board.pzones.items() if game.board.zone_vis[name] == "owner"]
    for action in log["actions"][len(log["actions"]) // 3:]:
        if any(state.zones[key] for key in owner):
            break
        api.apply(state, action)

    def secret_items(seat):
        out = set()
        for key, items in state.zones.items():
            vis = game.board.zone_vis.get(key.name)
            if vis == "hidden" or (vis == "owner" and key.owner != seat):
                out.update(items)
            elif vis == "face_up":
                face_up = game.components.prop_defaults.get("face_up")
                out.update(i for i in items if not state.iprops["face_up"].get(i, face_up))
        return out

    for seat in (None, 0):
        tokens = _tokens(ET.fromstring(render_svg(state, seat)))
        hidden = secret_items(seat)
        assert hidden, "the test needs something hidden"
        assert not hidden & tokens
        if seat is not None:
            own = {i for name, keys in game.board.pzones.items() if game.board.zone_vis[name] == "owner"
                   for i in state.zones[keys[seat]]}
            assert own and own <= tokens
    full = _tokens(ET.fromstring(render_svg(state, full=True)))
    assert {i for i in secret_items(None) if state.loc[i].name != "box"} & full


def test_layout_is_the_same_at_every_step(logged):
    game, _path, log = logged
    r1 = Renderer(game, log["players"])
    r2 = Renderer(game, log["players"])
    assert r1.static == r2.static and [s.id for s in r1.slots] == [s.id for s in r2.slots]
    assert r1.height > 400


def test_html_viewer_steps_through_the_log(logged, tmp_path, capsys):
    game, path, log = logged
    out = tmp_path / "replay.html"
    code, text = _render(capsys, path, "-o", out, "--at", 3)
    assert code == 0, text
    page = out.read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script id="frames" type="application/json">(.*?)</script>', page, re.S).group(1))
    total = len(log["actions"])
    assert len(data["captions"]) == len(data["deltas"]) == total + 1 and data["start"] == 3
    assert data["captions"][1].startswith(f"step 1 of {total}: p")
    assert all(d for d in data["deltas"][1:]), "every step changes at least its caption"
    svg = page[page.index("<svg"):page.index("</svg>") + 6]
    root = ET.fromstring(svg)
    slots = {g.get("id") for g in root.iter(SVG + "g") if g.get("class") == "slot"}
    assert all(set(d) <= slots for d in data["deltas"])
    assert os.path.getsize(out) < 3_000_000


def _browser() -> str | None:
    """A headless Chromium on PATH: the browser, or Debian's headless shell that .ci/run installs."""
    return next((found for name in ("chromium", "chromium-headless-shell", "google-chrome", "chrome-headless-shell")
                 if (found := shutil.which(name))), None)


BROWSER = _browser()
BOARD = (0xef, 0xe9, 0xdc)          # the drawing's own background (render.py), in the viewer as in an SVG


def _headless(tmp_path, *args: str) -> str:
    """What the headless browser prints for ``args``, with a profile folder of the test's own."""
    return subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           f"--user-data-dir={tmp_path / 'profile'}", *args],
                          capture_output=True, text=True, timeout=120).stdout


def _screenshot(url: str, tmp_path, name: str):
    """The page at ``url`` as the browser draws it, as an RGB image."""
    from PIL import Image
    shot = tmp_path / f"{name}.png"
    _headless(tmp_path, f"--screenshot={shot}", "--window-size=1250,1800", url)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(shot).convert("RGB")


def _drawing(image):
    """The part of a screenshot that the drawing covers: the rectangle of its background colour
    that starts at the first pixel of that colour."""
    width, height = image.size
    pixels = image.load()
    left, top = next((x, y) for y in range(height) for x in range(width) if pixels[x, y] == BOARD)
    right = max(x for x in range(left, width) if pixels[x, top] == BOARD)
    bottom = max(y for y in range(top, height) if pixels[left, y] == BOARD)
    return image.crop((left, top, right + 1, bottom + 1))


def _share_differing(one, other) -> float:
    """The share of pixels two pictures do not have in common (1 when their sizes differ)."""
    if one.size != other.size:
        return 1.0
    from PIL import ImageChops
    changed = ImageChops.difference(one, other).convert("L").point(lambda v: 255 if v else 0).histogram()[255]
    return changed / (one.size[0] * one.size[1])


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(BROWSER is None, reason="no headless Chromium on PATH (.ci/run installs chromium-headless-shell)")
def test_html_viewer_in_headless_chromium(logged, tmp_path, capsys):
    """What a browser shows: the viewer opened at a step draws the picture `render --at` draws
    for that step (each seat in its colour), and a different one at step 0."""
    pytest.importorskip("PIL")
    game, path, log = logged
    out = tmp_path / "replay.html"
    assert _render(capsys, path, "-o", out)[0] == 0
    step = len(log["actions"]) // 2
    svg = tmp_path / "step.svg"
    assert _render(capsys, path, "--at", step, "-o", svg)[0] == 0
    seen = _screenshot(f"file://{out}#step={step}", tmp_path, "viewer")
    colours = seen.getcolors(seen.size[0] * seen.size[1])
    for colour in Renderer(game, log["players"]).player_colors:
        rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        assert sum(count for count, c in colours if c == rgb) > 1000, f"no seat drawn in {colour}"
    drawing = _drawing(seen)
    assert _share_differing(drawing, _drawing(_screenshot(f"file://{svg}", tmp_path, "svg"))) < 0.001
    assert _share_differing(drawing, _drawing(_screenshot(f"file://{out}#step=0", tmp_path, "first"))) > 0.01
    dom = _headless(tmp_path, "--dump-dom", f"file://{out}#step={step}")
    assert f'<span id="caption">step {step} of {len(log["actions"])}: ' in dom


def test_render_as_a_player_and_errors(logged, tmp_path, capsys):
    game, path, log = logged
    code, _ = _render(capsys, path, "--as", "p2", "-o", tmp_path / "p2.svg")
    assert code == 0
    assert _render(capsys, path, "-o", tmp_path / "x.png")[0] == 2
    assert _render(capsys, path, "--at", 10 ** 6, "-o", tmp_path / "x.svg")[0] == 2
    assert _render(capsys, path, "--as", "p9", "-o", tmp_path / "x.svg")[0] == 2
    assert _render(capsys, tmp_path / "missing.yaml", "-o", tmp_path / "x.svg")[0] == 2
    assert _render(capsys, path, "--at", -1, "-o", tmp_path / "last.svg")[0] == 0


LAID_OUT = """
meta: {title: Laid Out}
players: {min: 2, max: 2}
sets:
  cells:
    nw: {y: 1, x: 1}
    ne: {y: 1, x: 2}
    sw: {y: 2, x: 1}
    se: {y: 2, x: 2}
  colours: [red, blue]
components:
  stone:
    generate: {colour: colours}
    copies: 3
    id: "stone-{colour}-{n}"
    start: bag
zones:
  bag: {visibility: hidden}
  board:
    keys: cells
    layout: {type: grid, row: y, col: x, label: "the board"}
  scratch: {layout: {type: none}}
  secret_spot: {}
  line: {range: [1, 3], layout: {type: row, per_row: 3}}
player:
  vars:
    score: 0
  zones:
    hand: {visibility: owner, layout: {rows: 4, label: "in hand"}}
render:
  title: A laid-out game
  hide: [secret_spot]
  label: {stone: colour}
  color_by: {stone: colour}
  colors: {red: "#ff0000", blue: "#0000ff"}
  player_colors: ["#111111", "#222222"]
setup: |
  for p in players:
      draw(bag, to=p.hand, n=2)
  move(top(bag), to=board[nw])
flow:
  rounds: 1
  phases:
    - id: play
      do: |
        for p in players:
            choose p:
                "put {s}" for s in p.hand:
                    move(s, to=board[se])
scoring:
  categories:
    - id: score
      points: "p.score"
"""


def test_render_keys_from_content(write_game):
    import rulekit
    game = rulekit.load_game(write_game(LAID_OUT))
    state = api.new_game(game, 2, 1)
    api.apply_index(state, 0)
    root = ET.fromstring(render_svg(state, 0))
    texts = [el.text for el in root.iter(SVG + "text")]
    zones = {g.get("data-zone"): g for g in root.iter(SVG + "g") if g.get("data-zone")}
    assert "A laid-out game" in texts and "the board" in texts and "in hand" in texts
    assert "scratch" not in zones and "secret_spot" not in zones and "bag" in zones
    # grid cells placed by the `y`/`x` props: nw left of ne, nw above sw
    def pos(key):
        rect = zones[f"board[{key}]"].find(SVG + "rect")
        return float(rect.get("x")), float(rect.get("y"))
    assert pos("nw")[0] < pos("ne")[0] and pos("nw")[1] == pos("ne")[1]
    assert pos("nw")[1] < pos("sw")[1] and pos("nw")[0] == pos("sw")[0]
    # the `row` layout of a range keeps its 3 cells on one line
    assert len({zones[f"line[{k}]"].find(SVG + "rect").get("y") for k in (1, 2, 3)}) == 1
    # items labelled and coloured by their colour prop; the first player's colour
    chips = [el for el in root.iter(SVG + "rect") if el.get("class") == "chip"]
    assert {c.get("fill") for c in chips} <= {"#ff0000", "#0000ff"} and chips
    assert {"red", "blue"} & set(texts)
    assert any(el.get("stroke") == "#111111" for el in root.iter(SVG + "rect"))


def test_render_a_script_with_a_test_game(tmp_path, capsys):
    """Scripts (not only logs) render, and a game without families or a render section works."""
    script = os.path.join(os.path.dirname(__file__), "games", "hidden", "scripts")
    scripts = sorted(os.listdir(script)) if os.path.isdir(script) else []
    if not scripts:
        pytest.skip("the hidden test game has no scripts")
    out = tmp_path / "s.svg"
    code, text = _render(capsys, os.path.join(script, scripts[0]), "-o", out)
    assert code == 0, text
    ET.parse(out)


# ------------------------------------------------------------------ layout hints of the shipped games

def _slot_text(renderer, picture, pick) -> str:
    slot = next(s for s in renderer.slots if s.pick == pick)
    return renderer.contents(picture)[slot.id]


def test_batavia_draws_merchants_on_route_spaces_and_hidesinternal_zones(logged):
    game, _path, log = logged
    if game.name != "batavia":
        pytest.skip("Batavia's route")
    state = _mid_state(game, log, len(log["actions"]) // 2)
    root = ET.fromstring(render_svg(state, 0))
    zones = {g.get("data-zone") for g in root.iter(SVG + "g") if g.get("data-zone")}
    assert {"tile_box", "staging", "returned", "crate_supply"} == internal_zones(game)
    assert not {"tile_box", "staging", "returned", "crate_supply"} & zones
    renderer = Renderer(game, state.n, 0)
    picture = view(state, 0)
    on_route = 0
    for seat in range(state.n):
        pos = state.p[seat]["pos"]
        if 1 <= pos <= 35:
            on_route += 1
            cell = _slot_text(renderer, picture, ("family", "route", str(pos)))
            assert 'class="pawn"' in cell and f">p{seat + 1}<" in cell
            assert renderer.player_colors[seat] in cell
    assert on_route, "nobody is on the route at this step"
    pawns = [el for el in root.iter(SVG + "rect") if el.get("class") == "pawn"]
    assert len(pawns) == on_route
    # crates in their seat's colour, ships labelled by their company
    crates = _slot_text(renderer, picture, ("player", "crates", 1))
    assert renderer.player_colors[1] in crates


def test_the_viewers_own_hand_never_collapses(logged):
    game, _path, log = logged
    state = _mid_state(game, log, len(log["actions"]) // 2)
    renderer = Renderer(game, state.n, 0)
    picture = view(state, 0)
    for name in game.board.pzones:
        items = picture["players"]["p1"][name]
        if isinstance(items, list) and items:
            cells = [s for s in renderer.slots if s.pick and s.pick[:2] == ("cell", ("player", name, 0))]
            if cells:       # a zone drawn as a grid: each item in one of its cells
                contents = renderer.contents(picture)
                assert sum(contents[s.id].count('class="chip"') for s in cells) == len(items), name
                continue
            drawn = _slot_text(renderer, picture, ("player", name, 0))
            assert drawn.count('class="chip"') == len(items), name
            assert " x" not in re.sub(r"<[^>]+>", " ", drawn), name


def test_goa_draws_the_flag_once_on_its_space_and_the_development_levels(logged):
    game, _path, log = logged
    if game.name != "goa":
        pytest.skip("Goa's flag and development board")
    step = next(k for k in range(len(log["actions"])) if log["actions"][k].startswith("flag at"))
    state = _mid_state(game, log, step + 1)
    space = state.g["flag_space"]
    root = ET.fromstring(render_svg(state))
    texts = [el.text for el in root.iter(SVG + "text")]
    assert texts.count("flag") == 1
    renderer = Renderer(game, state.n)
    assert ">flag<" in _slot_text(renderer, view(state), ("family", "grid", str(space)))
    _goa_development_board(game, log)


def _goa_development_board(game, log):
    """Goa's development board is a grid: a line per column of the printed board, a cell per
    row, each player's marker (in their colour) in the row it has reached, nowhere else."""
    state = _mid_state(game, log, len(log["actions"]) * 2 // 3)
    levels = {(i, c): state.iprops["level"].get(f"dev-p{i + 1}-{c}", 1)
              for i in range(state.n) for c in game.components.sets["columns"]}
    assert any(level > 1 for level in levels.values())      # someone has developed by now
    renderer = Renderer(game, state.n)
    picture = view(state)
    for (i, column), level in levels.items():
        for row in range(1, 6):
            text = _slot_text(renderer, picture, ("cell", ("player", "dev", i), "column", column, "level", row))
            marked = f">p{i + 1}<" in text
            assert marked == (row == level), (i, column, row, level)
            if marked:
                assert renderer.player_colors[i] in text
    root = ET.fromstring(render_svg(state))
    board = [g for g in root.iter(SVG + "g") if g.get("data-zone") == "p1.dev"]
    assert board and "board" in board[0].get("class")
    texts = [el.text for el in board[0].iter(SVG + "text")]
    assert texts[:1] == ["development"] and [str(k) for k in range(1, 6)] == texts[1:6]
    assert texts[6:] == list(game.components.sets["columns"])


@pytest.mark.parametrize("hint,message", [
    ("render: {hide: [stagin]}", "unknown zone `stagin` in a drawing hint"),
    ("render: {label: {shp: company}}", "unknown component kind `shp` in a drawing hint"),
    ("render: {color_by: {crate: seet}}", "unknown property `seet` of `crate` in a drawing hint"),
    ("zones: {board: {layout: {type: grid, row: compny, col: seat}}}",
     "unknown property `compny` in a drawing hint"),
])
def test_unknown_names_in_drawing_hints_are_content_errors(tmp_path, capsys, hint, message):
    import shutil

    from rulekit.games import find_game
    folder = tmp_path / "batavia"
    shutil.copytree(find_game("batavia"), folder)
    (folder / "bots.yaml").write_text((folder / "bots.yaml").read_text() + "\n" + hint + "\n")
    code = main(["validate", str(folder), "--format", "concise"])
    out = capsys.readouterr().out
    assert code == 1 and "error[RK0125]" in out and message in out
    assert re.search(r"bots\.yaml:\d+:\d+: error\[RK0125\]", out.replace(os.sep, "/"))


def test_an_unknown_pawn_variable_is_a_content_error_at_its_line(write_game):
    import rulekit
    from rulekit.errors import DiagnosticReport
    with pytest.raises(DiagnosticReport) as caught:
        rulekit.load_game(write_game(LAID_OUT.replace("layout: {type: row, per_row: 3}",
                                                      "layout: {type: row, per_row: 3, pawns: scroe}")))
    (d,) = caught.value.diagnostics
    assert d.code == "RK0125" and "unknown variable `scroe`" in d.message and d.help == "did you mean `score`?"
    assert d.span.line > 1


# ------------------------------------------------------------------ boards (`grid:`) and their regions
AZUL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples", "azul")
LANDS = BOARDS_GAME      # tests/test_boards.py's kingdom: a 3x2 land of two terrains


@pytest.fixture(scope="module")
def azul_mid_game(tmp_path_factory):
    """(log path, step, state after it) of a random 2-player Azul game in its third round."""
    game = load_game(AZUL)
    path = tmp_path_factory.mktemp("azul") / "game.log.yaml"
    log = _random_log(game, 3, path)
    state = api.new_game(game, log["players"], log["seed"])
    step = 0
    for action in log["actions"]:
        if state.g["round"] >= 3:
            break
        api.apply(state, action)
        step += 1
    return path, step, state


def _paths(root, zone: str) -> list:
    return [p for p in root.iter(SVG + "path") if p.get("class") == "region" and p.get("data-zone") == zone]


def _groups(occupied: set) -> list[set]:
    """Connected groups of cells across edges: the test's own flood fill."""
    groups, left = [], set(occupied)
    while left:
        todo, group = [left.pop()], set()
        while todo:
            col, row = todo.pop()
            group.add((col, row))
            for near in ((col + 1, row), (col - 1, row), (col, row + 1), (col, row - 1)):
                if near in left:
                    left.discard(near)
                    todo.append(near)
        groups.append(group)
    return groups


def _perimeter(group: set) -> int:
    """Edges of a group's cells that no other cell of it shares."""
    return sum((col + dc, row + dr) not in group for col, row in group
               for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)))


def test_each_wall_is_a_five_by_five_grid_with_its_items_and_region_outlines(azul_mid_game, tmp_path, capsys):
    path, step, state = azul_mid_game
    out = tmp_path / "mid.svg"
    code, text = _render(capsys, path, "--at", step, "-o", out)
    assert code == 0, text
    root = ET.parse(out).getroot()
    picture = view(state)
    outlined = 0
    for p in ("p1", "p2"):
        cells = {g.get("data-zone")[len(p) + 6:-1]: g.find(SVG + "rect") for g in root.iter(SVG + "g")
                 if re.fullmatch(rf"{p}\.wall\[[a-e][1-5]\]", g.get("data-zone") or "")}
        assert len(cells) == 25
        xs = {cell[0]: {float(r.get("x")) for c, r in cells.items() if c[0] == cell[0]} for cell in cells}
        ys = {cell[1]: {float(r.get("y")) for c, r in cells.items() if c[1] == cell[1]} for cell in cells}
        assert all(len(v) == 1 for v in (*xs.values(), *ys.values())), "a column shares its x, a row its y"
        assert sorted(xs, key=lambda c: xs[c].pop()) == list("abcde")
        assert sorted(ys, key=lambda r: ys[r].pop()) == list("12345")
        # the items of each cell, as the spectator sees them, drawn in that cell's slot
        wall = picture["players"][p]["wall"]
        slots = {g.get("data-items"): g for g in root.iter(SVG + "g") if g.get("class") == "slot"}
        for cell, items in wall.items():
            drawn = [t.text for t in slots[f"{p}.wall[{cell}]"].iter(SVG + "text")]
            assert drawn == items, (p, cell)
        # one outline per connected group of tiles, around exactly its cells
        occupied = {boards.place(cell) for cell, items in wall.items() if items}
        want = sorted(sorted(group) for group in _groups(occupied))
        paths = _paths(root, f"{p}.wall")
        got = sorted(sorted(boards.place(c) for c in path.get("data-cells").split()) for path in paths)
        assert got == want
        for path in paths:
            group = {boards.place(c) for c in path.get("data-cells").split()}
            assert len(re.findall(r"M", path.get("d"))) == _perimeter(group)
            assert path.get("data-value") == "tile"      # Azul calls no `regions`: grouped by kind
        outlined += len(paths)
    assert outlined >= 2, "two rounds tile at least one space of each wall"


def test_regions_group_by_the_property_the_content_names(write_game):
    """A game that scores `regions(p.land, 'terrain')`: its outlines are those regions,
    each with its terrain, as the built-in finds them on the state."""
    game = load_game(write_game(LANDS))
    state = api.new_game(game, 1, 1)
    api.apply(state, "place forest-4 on c2")
    root = ET.fromstring(render_svg(state))
    family = game.board.pzones["land"][0]
    found = boards.regions(state, family, "terrain")
    paths = _paths(root, "p1.land")
    assert [p.get("data-cells").split() for p in paths] == found
    assert [p.get("data-value") for p in paths] == [boards._prop(state, state.zones[family.zones[g[0]]][-1],
                                                                 "terrain") for g in found]
    assert "terrain forest, 4 cells" in paths[0].find(SVG + "title").text


def test_a_hidden_item_outlines_nothing(write_game):
    """Outlines come from the view: a board whose items the viewer may not see has none."""
    hidden = LANDS.replace("land: {grid: {cols: 3, rows: 2}, capacity: 1, visibility: public}",
                             "land: {grid: {cols: 3, rows: 2}, capacity: 1, visibility: owner}")
    game = load_game(write_game(hidden))
    state = api.new_game(game, 2, 1)
    assert _paths(ET.fromstring(render_svg(state, 1)), "p1.land") == []
    assert len(_paths(ET.fromstring(render_svg(state, 0)), "p1.land")) == 3


REGION = (0xb5, 0x17, 0x9e)     # the outlines' stroke (render.py's STYLE)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(BROWSER is None, reason="no headless Chromium on PATH (.ci/run installs chromium-headless-shell)")
def test_region_outlines_in_headless_chromium(azul_mid_game, tmp_path, capsys):
    """What a browser shows: the outlines are drawn, in their colour, on the walls and nowhere else."""
    pytest.importorskip("PIL")
    path, step, _state = azul_mid_game
    svg = tmp_path / "mid.svg"
    assert _render(capsys, path, "--at", step, "-o", svg)[0] == 0
    text = svg.read_text(encoding="utf-8")
    bare = tmp_path / "bare.svg"
    bare.write_text(re.sub(r'<path class="region".*?</path>', "", text), encoding="utf-8")
    drawn = _drawing(_screenshot(f"file://{svg}", tmp_path, "drawn"))
    plain = _drawing(_screenshot(f"file://{bare}", tmp_path, "plain"))
    assert drawn.size == plain.size
    root = ET.fromstring(text)
    walls = []
    for p in ("p1", "p2"):
        rects = [g.find(SVG + "rect") for g in root.iter(SVG + "g")
                 if re.fullmatch(rf"{p}\.wall\[\w+\]", g.get("data-zone") or "")]
        xs = [float(r.get("x")) for r in rects] + [float(r.get("x")) + float(r.get("width")) for r in rects]
        ys = [float(r.get("y")) for r in rects] + [float(r.get("y")) + float(r.get("height")) for r in rects]
        walls.append((min(xs) - 5, min(ys) - 5, max(xs) + 5, max(ys) + 5))
    width, height = drawn.size
    a, b = drawn.load(), plain.load()
    changed = [(x, y) for y in range(height) for x in range(width) if a[x, y] != b[x, y]]
    stroke = sum(1 for x, y in changed if a[x, y] == REGION)
    assert stroke > 200, "the outlines are drawn in their colour"
    assert all(any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in walls) for x, y in changed)


@pytest.mark.parametrize("call, found", [
    ("regions(p.land, 'terrain')", {"land": "terrain"}),
    ("regions(players[0].land, 'terrain')", {"land": "terrain"}),     # the compiler reads the tree, not the text
    ("count(p.land['a1'])", {}),                                       # no regions call: by item kind
])
def test_the_property_a_board_is_outlined_by_is_the_one_its_regions_calls_name(write_game, call, found):
    text = LANDS.replace("max([count(r) for r in regions(p.land, 'terrain')], default=0)", f"count([{call}])")
    text = text.replace("regions(p.land, \"terrain\"), ", "")
    assert region_props(load_game(write_game(text))) == found
