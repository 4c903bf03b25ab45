# SPDX-License-Identifier: MIT
"""Bots from the user's own code, `--bots module:policy`: played by `simulate` (in worker
processes too), `autoplay`, `play` and the Gymnasium env, and every way one can go wrong."""
from __future__ import annotations

import itertools
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rulekit.agents import make_agent, play_out, policy
from rulekit.batch import simulate as sim
from rulekit.cli.app import main
from rulekit.engine import api
from rulekit.errors import ContentRuntimeError

BOTS = """\
    import json

    SEEN = []

    def first(view, legal):
        return legal[0]

    def last(view, legal):
        return legal[-1]

    def watcher(view, legal):
        SEEN.append((view, legal))
        return legal[0]

    def cheat(view, legal):
        return "win the game"

    def index(view, legal):
        return 0

    def crash(view, legal):
        raise ValueError(f"no idea in round {view['round']}")

    def one_argument(view):
        return None

    class Seeded:
        def __init__(self, seed):
            import random
            self.rng = random.Random(seed)

        def __call__(self, view, legal):
            return self.rng.choice(legal)
"""
_names = itertools.count()


@pytest.fixture
def bots(tmp_path, monkeypatch):
    """A module of policies in the current folder, under a name of its own (modules are imported once)."""
    name = f"userbots{next(_names)}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(BOTS))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    yield name
    sys.modules.pop(name, None)


def _said(capsys) -> str:
    captured = capsys.readouterr()
    return captured.out + captured.err


def test_a_policy_plays_simulate_and_jobs_do_not_change_the_records(bots):
    one = sim.run_batch("batavia", players=3, games=4, seed=3, bots=[f"{bots}:Seeded", "random"], jobs=1)
    two = sim.run_batch("batavia", players=3, games=4, seed=3, bots=[f"{bots}:Seeded", "random"], jobs=2)
    assert one == two
    assert all(r["winners"] and f"{bots}:Seeded" in r["bots"] for r in one)
    first = sim.run_batch("batavia", players=3, games=2, seed=3, bots=[f"{bots}:first", "random"])
    last = sim.run_batch("batavia", players=3, games=2, seed=3, bots=[f"{bots}:last", "random"])
    assert first != last


def test_a_policy_sees_its_seats_view_and_the_legal_actions(bots):
    game = __import__("rulekit").load_game("batavia")
    state = api.new_game(game, 3, 5)
    agents = [make_agent(f"{bots}:watcher", k) for k in range(3)]
    with pytest.raises(ContentRuntimeError, match="stalled"):     # it always bids first: no need to end
        play_out(state, agents, max_actions=60)
    seen = sys.modules[bots].SEEN
    assert len(seen) >= 40
    for view, legal in seen:
        me = view["to_move"]
        assert view["legal"] == legal and all(isinstance(a, str) for a in legal)
        for seat, row in view["players"].items():        # other players' hands are hidden from it
            assert isinstance(row["hand"], list) if seat == me else set(row["hand"]) == {"count"}
    json.dumps(seen[0][0])          # a JSON-ready view


def test_a_policy_returning_an_illegal_action_is_named_with_the_action(bots, capsys):
    assert main(["simulate", "batavia", "--games", "1", "--players", "3", "--bots", f"{bots}:cheat"]) == 1
    said = _said(capsys)
    assert f"error[RK0980]: policy `{bots}:cheat` returned `win the game` for seat p" in said
    assert "which is not one of the legal actions: `bid 0`" in said and "Traceback" not in said
    assert main(["simulate", "batavia", "--games", "1", "--players", "3", "--bots", f"{bots}:index"]) == 1
    assert f"policy `{bots}:index` returned 0 (a int)" in _said(capsys)


def test_a_policy_that_raises_is_named_with_its_line_also_from_a_worker(bots, capsys):
    for jobs in ("1", "2"):
        assert main(["simulate", "batavia", "--games", "2", "--players", "3", "--jobs", jobs,
                     "--bots", f"{bots}:crash,random"]) == 1
        said = _said(capsys)
        assert f"error[RK0981]: policy `{bots}:crash` failed as seat p" in said
        assert "ValueError: no idea in round 1 (" in said and f"{bots}.py:22, in crash)" in said
        assert "Traceback" not in said


@pytest.mark.parametrize("spec, said", [
    ("nosuch.module:policy", "cannot import `nosuch.module` for `--bots nosuch.module:policy`: no module `nosuch`"),
    ("{bots}:frist", "`{bots}` has no `frist` (for `--bots {bots}:frist`); did you mean `first`?"),
    ("{bots}:one_argument", "policy `{bots}:one_argument` must take two arguments, (view, legal)"),
    ("{bots}:json", "is a module, not a callable policy(view, legal)"),
    ("mcst:x", "unknown bot `mcst`"),
])
def test_a_policy_that_cannot_be_used_is_a_usage_error_naming_it(bots, capsys, spec, said):
    spec, said = spec.format(bots=bots), said.format(bots=bots)
    assert main(["simulate", "batavia", "--games", "1", "--bots", spec]) == 2
    out = _said(capsys)
    assert said in out and "Traceback" not in out


def test_a_module_that_fails_as_it_is_imported_is_a_usage_error(bots, tmp_path, capsys):
    (tmp_path / "brokenbots.py").write_text("x = 1\nraise RuntimeError('half written')\n")
    (tmp_path / "badsyntax.py").write_text("def policy(view, legal)\n    return legal[0]\n")
    try:
        assert main(["autoplay", "batavia", "--bots", "brokenbots:policy"]) == 2
        said = _said(capsys)
        assert "cannot import `brokenbots` for `--bots brokenbots:policy`: RuntimeError: half written (" in said
        assert main(["autoplay", "batavia", "--bots", "badsyntax:policy"]) == 2
        assert "cannot import `badsyntax` for `--bots badsyntax:policy`: SyntaxError:" in _said(capsys)
    finally:
        sys.modules.pop("brokenbots", None)


def test_autoplay_and_play_take_a_policy(bots, capsys, monkeypatch):
    assert main(["autoplay", "batavia", "--players", "3", "--quiet", "--bots", f"{bots}:Seeded,greedy"]) == 0
    assert "winner" in _said(capsys)
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO("quit\n"))
    assert main(["play", "batavia", "--players", "3", "--seat", "3", "--bots", f"{bots}:last,{bots}:first"]) == 0
    out = _said(capsys)
    assert "p1 rolls the die" in out and "you are p3" in out


def test_the_console_script_finds_a_policy_in_the_current_folder(bots, tmp_path):
    """`rulekit` (not `python -m`, which puts the current folder on Python's path) imports it too."""
    script = shutil.which("rulekit") or str(Path(sys.executable).parent / "rulekit")
    done = subprocess.run([script, "simulate", "batavia", "--games", "1", "--players", "3", "--bots", f"{bots}:Seeded",
                           "--format", "json"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["games"][0]["bots"] == [f"{bots}:Seeded"] * 3


def test_the_gym_env_plays_the_other_seats_with_a_policy(bots):
    gym_env = pytest.importorskip("rulekit.rl.gym_env")
    env = gym_env.GameEnv("batavia", players=3, seat="p1", bots=f"{bots}:first", seed=0)
    env.reset(seed=0)
    assert all(type(bot) is policy.PolicyAgent for bot in env.bots.values())
