"""Lantern Roads (examples/lantern-roads): the route-building example of maps (issue #55).

- `rulekit test` passes on it: it validates, every scenario matches its snapshot, and random games
  per player count keep every invariant (50 each through the real command: the issue's bar).
- Its longest road and its connectivity are one built-in call each (`longest_trail`,
  `connected`), read here from the content itself, and the scenarios' results say they count
  what the rules say: a trail passing a town twice, a commission joined by the player's own roads.
- `rulekit render` draws its map: a line per road between its towns, the carts on their road.
"""
from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import yaml

import rulekit
from rulekit.testing.script import run_script

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "examples" / "lantern-roads"
SCENARIOS = ("claim-with-lanterns", "double-road", "double-road-four-players", "final-scoring",
             "three-player-game")
SVG = "{http://www.w3.org/2000/svg}"


def test_rulekit_test_passes_with_fifty_random_games_per_player_count():
    run = subprocess.run([sys.executable, "-m", "rulekit", "test", str(GAME), "--random", "50"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    for players in (2, 3, 4):
        assert re.search(rf"random lantern-roads {players}p x50 +ok", run.stdout)
    for name in SCENARIOS:
        assert re.search(rf"lantern-roads/scenarios/{name}.yaml +ok", run.stdout)
    assert ", 0 failed" in run.stdout


def test_longest_road_and_connectivity_are_one_builtin_call_each():
    functions = yaml.safe_load((GAME / "scoring.yaml").read_text(encoding="utf-8"))["functions"]
    assert functions["kept"]["expr"] == "connected(valley, t.a, t.b, via=roads_of(p))"
    assert functions["longest"]["expr"] == "longest_trail(valley, roads_of(p), weight='length')"


def test_the_longest_trail_passes_a_town_twice_and_connection_keeps_commissions():
    result = run_script(str(GAME / "scenarios" / "final-scoring.yaml")).state.result
    assert result["scores"]["p2"]["breakdown"]["longest_road"] == 8      # 11 carts, ember twice
    assert result["scores"]["p1"]["breakdown"] == {"roads": 11, "commissions": 11, "longest_road": 0}
    assert result["winners"] == ["p1"]


def test_render_draws_the_map(tmp_path):
    script = GAME / "scenarios" / "claim-with-lanterns.yaml"
    out = tmp_path / "map.svg"
    run = subprocess.run([sys.executable, "-m", "rulekit", "render", str(script), "-o", str(out), "--at", "1"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    game = rulekit.load_game(str(GAME))
    roads = {line.get("data-zone"): line for line in root.iter(SVG + "line") if line.get("class") == "edge"}
    assert set(roads) == {f"valley[{r}]" for r in game.board.families["valley"].graph.edges}
    assert roads["valley[quarry_fenwick]"].get("stroke") == "#d23a2a"        # red, through `colors:`
    towns = {g.get("data-zone") for g in root.iter(SVG + "g") if g.get("class") == "node"}
    assert towns == {f"valley[{t}]" for t in game.components.sets["towns"]}
    # the two roads of a double run side by side, not on one line
    a, b = roads["valley[millbrook_crossways]"], roads["valley[millbrook_crossways_2]"]
    assert (a.get("y1"), a.get("y2")) != (b.get("y1"), b.get("y2"))
    texts = [t.text for t in root.iter(SVG + "text")]
    assert texts.count("p1") >= 3          # p1's three carts on quarry_fenwick, labelled by seat
