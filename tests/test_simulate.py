# SPDX-License-Identifier: MIT
"""`rulekit simulate`: deterministic batches, however they are spread over processes."""
from __future__ import annotations

import csv
import io
import json

import pytest

from rulekit.batch import simulate as sim
from rulekit.cli.app import main
from rulekit.extras import install_command

from conftest import STALLS


def test_jobs_do_not_change_the_results():
    one = sim.run_batch("batavia", players=3, games=6, seed=4, bots=["random", "greedy"], jobs=1)
    two = sim.run_batch("batavia", players=3, games=6, seed=4, bots=["random", "greedy"], jobs=2)
    assert one == two
    assert [r["index"] for r in one] == list(range(6))
    # bots rotate through the seats
    assert one[0]["bots"] == ["random", "greedy", "random"] and one[1]["bots"] == ["greedy", "random", "greedy"]


@pytest.mark.parametrize("game, players, bot", [
    ("batavia", 3, "greedy"), ("batavia", 3, "mcts:3"), ("batavia", 3, "bot:trader"),
    ("goa", 2, "greedy"), ("goa", 2, "mcts:3"), ("goa", 2, "mcts-crn:4"),
])
def test_each_bot_plays_each_game_and_jobs_do_not_change_the_results(game, players, bot):
    """The bots issue's bar: simulate runs for both games with each bot, and `--jobs 2`
    gives the same records as `--jobs 1` (every bot is seeded from the game's seed)."""
    one = sim.run_batch(game, players=players, games=2, seed=11, bots=[bot, "random"], jobs=1)
    two = sim.run_batch(game, players=players, games=2, seed=11, bots=[bot, "random"], jobs=2)
    assert one == two
    assert all(bot in r["bots"] and r["winners"] and r["decisions"] > 50 for r in one)


def test_summary_counts_and_intervals():
    records = sim.run_batch("batavia", players=4, games=4, seed=1)
    summary = sim.summarise(records)
    assert summary["games"] == 4
    rates = summary["win_rate_by_seat"]
    assert set(rates) == {"p1", "p2", "p3", "p4"}
    assert abs(sum(r["rate"] for r in rates.values()) - 1.0) < 1e-9  # shared wins are shared
    for row in rates.values():
        assert row["ci95"][0] <= row["rate"] <= row["ci95"][1]
    assert abs(sum(summary["action_share"].values()) - 1.0) < 1e-3


def test_wilson_interval():
    p, low, high = sim.wilson(50, 100)
    assert p == 0.5 and round(low, 3) == 0.404 and round(high, 3) == 0.596
    assert sim.wilson(0, 0) == (0.0, 0.0, 0.0)


def test_plot_draws_win_rates_and_scores(capsys, tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    out = tmp_path / "report.png"
    assert main(["simulate", "batavia", "--games", "3", "--players", "3", "--bots", "greedy,random",
                 "--plot", str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    from matplotlib.image import imread
    height, width = imread(str(out)).shape[:2]
    assert (width, height) == (1400, 400)  # three panels: win rate by bot, by seat, scores
    assert matplotlib.get_backend().lower() == "agg"
    capsys.readouterr()
    assert main(["simulate", "batavia", "--games", "1", "--players", "3",
                 "--plot", str(tmp_path / "no-such-folder" / "x.png")]) == 2
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert "cannot write" in said and "no-such-folder" in said and "Traceback" not in said


def test_plot_without_matplotlib_says_how_to_install(capsys, monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.split(".")[0] == "matplotlib":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    assert main(["simulate", "batavia", "--games", "1", "--players", "3", "--plot", "x.png"]) == 2
    captured = capsys.readouterr()
    assert install_command("plot") in captured.out + captured.err


def test_cli_json_csv_and_compare(capsys, tmp_path):
    out = tmp_path / "report.json"
    assert main(["simulate", "batavia", "--games", "3", "--players", "3", "--format", "json",
                 "--out", str(out), "--compare", "open-route"]) == 0
    data = json.loads(out.read_text())
    assert data["summary"]["games"] == 3 and len(data["games"]) == 3
    assert data["compare"]["variant"] == "open-route"
    assert set(data["compare"]["difference"]) == {"win_rate_by_seat", "score_by_bot", "rounds", "decisions"}
    paired = {row["figure"]: row for row in data["compare"]["paired"]}
    assert {"win rate p1", "win rate random", "score random", "rounds", "decisions"} <= set(paired)
    for row in paired.values():
        low, high = row["ci95"]
        assert low <= row["difference"] <= high
        assert row["significant"] == (low > 0 or high < 0)
    capsys.readouterr()
    assert main(["simulate", "batavia", "--games", "2", "--players", "3", "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0][:5] == ["game", "seed", "rounds", "decisions", "winners"] and len(rows) == 3


def test_cli_table_and_usage_errors(capsys):
    assert main(["simulate", "goa", "--games", "1", "--players", "2"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "seat p1" in out and "decisions: mean" in out
    assert main(["simulate", "batavia", "--games", "1", "--bots", "randm"]) == 2
    assert "did you mean `random`" in capsys.readouterr().out
    assert main(["simulate", "batavia", "--games", "0"]) == 2


@pytest.mark.slow
@pytest.mark.ray_driver    # run in a pytest of its own: tests/test_ray_own_process.py
def test_ray_backend_matches_local_or_says_how_to_install(capsys):
    try:
        import ray  # noqa: F401
    except ImportError:
        assert main(["simulate", "batavia", "--games", "1", "--backend", "ray"]) == 2
        assert install_command("ray") in capsys.readouterr().out
        return
    local = sim.run_batch("batavia", players=3, games=3, seed=2)
    remote = sim.run_batch("batavia", players=3, games=3, seed=2, backend="ray")
    assert local == remote


def test_compare_prints_a_table_of_differences(capsys):
    assert main(["simulate", "batavia", "--games", "3", "--players", "3", "--bots", "greedy",
                 "--compare", "open-route"]) == 0
    out = capsys.readouterr().out
    assert "open-route - base, game by game on the same seeds" in out
    assert "95% interval" in out and "excludes 0" in out
    assert "{" not in out and "'" not in out                     # no Python reprs
    row = next(line for line in out.splitlines() if "score greedy" in line)
    assert " .. " in row


def test_paired_differences_mark_a_clear_difference():
    base = [{"bots": ["a", "b"], "winners": [0], "scores": [10, 5], "rounds": 5, "decisions": 50}] * 4
    variant = [{"bots": ["a", "b"], "winners": [1], "scores": [4 + i, 9], "rounds": 5, "decisions": 50}
               for i in range(4)]
    rows = {r["figure"]: r for r in sim.paired_differences(base, variant)}
    assert rows["win rate p1"]["difference"] == -1 and rows["win rate p1"]["significant"]
    assert rows["score a"]["difference"] == -4.5 and rows["score a"]["significant"]
    assert rows["rounds"]["difference"] == 0 and not rows["rounds"]["significant"]


def test_plot_says_what_it_wrote_and_titles_the_figure(capsys, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    titles = []
    real = sim.plot
    monkeypatch.setattr(sim, "plot",
                        lambda summary, path, title=None: (titles.append(title), real(summary, path, title)))
    target = tmp_path / "rates.png"
    assert main(["simulate", "batavia", "--games", "2", "--players", "3", "--bots", "random,greedy",
                 "--plot", str(target)]) == 0
    out = capsys.readouterr().out
    assert f"wrote {target}: win rates by bot and by seat" in out
    assert target.read_bytes()[:4] == b"\x89PNG"
    assert titles == ["batavia: 3 players, bots random,greedy, 2 games"]


def test_a_game_that_hits_the_action_cap_is_a_stalled_row_not_the_end_of_the_batch(write_game, capsys):
    """A bot that always waits stalls the games it opens (random play would end them): those
    are recorded as stalled, counted in the report and left out of the figures."""
    folder = write_game(STALLS, name="stalls")
    records = sim.run_batch(folder, games=6, bots=["bot:waiter", "random"], max_actions=4)
    stalled = [r for r in records if r["stalled"]]
    assert 0 < len(stalled) < 6
    assert all(r["scores"] == [] and r["winners"] == [] and r["decisions"] == 4 and "stalled" in r["error"]
               for r in stalled)
    summary = sim.summarise(records)
    assert (summary["games"], summary["stalled"]) == (6, len(stalled))
    assert summary["win_rate_by_seat"]["p1"]["games"] == 6 - len(stalled)
    assert main(["simulate", folder, "--games", "6", "--bots", "bot:waiter,random", "--max-actions", "4"]) == 0
    out = capsys.readouterr().out
    assert f"stalled: {len(stalled)} of 6 games hit the action cap (--max-actions)" in out
    assert main(["simulate", folder, "--games", "6", "--bots", "bot:waiter,random", "--max-actions", "4",
                 "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [row["stalled"] for row in rows] == [str(int(r["stalled"])) for r in records]
    assert all(row["score_p1"] == "" for row in rows if row["stalled"] == "1")


def test_a_stalled_seed_is_left_out_of_the_paired_differences():
    finished = {"bots": ["a", "b"], "winners": [0], "scores": [10, 5], "rounds": 5, "decisions": 50}
    stalled = {"bots": ["a", "b"], "winners": [], "scores": [], "rounds": 9, "decisions": 99, "stalled": True}
    pairs = sim.paired_differences([finished, finished, stalled], [finished, stalled, finished])
    rows = {r["figure"]: r for r in pairs}
    assert rows["rounds"]["base"] == 5 and rows["rounds"]["ci95"] is None     # one pair is left
    assert sim.paired_differences([stalled], [finished]) == []


def test_the_verb_counted_is_the_first_word_of_the_notation(write_game):
    """`simulate` counts each action's first word (Decision.verb) without writing the notation
    where the option's text fixes that word; where it starts with a value, it is written."""
    import rulekit
    from rulekit.engine import api, rng

    starts_with_a_value = rulekit.load_game(write_game("""\
        meta: {title: Verbs}
        players: {min: 1, max: 1}
        flow:
          rounds: 2
          phases:
            - id: main
              do: |
                choose players[0]:
                    "{n} up" for n in range(1, 3):
                        pass
                    "take{n}" for n in range(1, 3):
                        pass
                    "pass":
                        pass
                    "go {n}" for n in range(1, 3):
                        pass
        """))
    fixed = 0
    for game, n in ((rulekit.load_game("goa"), 4), (rulekit.load_game("batavia"), 5), (starts_with_a_value, 1)):
        s = api.new_game(game, n, 3)
        r = rng.stream_seed(3, "verbs")
        while not s.over:
            d = s.pending
            for i in range(len(d.choices)):
                assert d.verb(i) == d.label(i).split(" ", 1)[0]
                fixed += d.spec.verbs.get(d.choices[i][0]) is not None
            r, i = rng.below(r, len(d.choices))
            api.apply_index(s, i)
    assert fixed > 1000
    spec = api.new_game(starts_with_a_value, 1).pending.spec
    assert sorted(spec.verbs.values()) == ["go", "pass"]     # "{n} up" and "take{n}" are written to count


def _one_at_a_time(monkeypatch):
    """play_one with every seat random played as play_out plays other bots."""
    from rulekit.agents import play_out

    def slow(state, agents, verbs, cap):
        def count(s, _who, index):
            verb = s.pending.verb(index)
            verbs[verb] = verbs.get(verb, 0) + 1
        return play_out(state, agents, count, cap)
    monkeypatch.setattr(sim, "play_out_at_random", slow)


@pytest.mark.parametrize("game, players, cap", [
    ("batavia", 5, None), ("goa", 4, None), ("examples/for-sale", 4, None), ("examples/modern-art", 3, None),
    ("goa", 2, 150),
])
def test_random_seats_play_the_same_games_taken_as_they_come(monkeypatch, game, players, cap):
    """Every seat random: decisions are taken where they come (api.autoplay), each seat on its own
    stream; the records (scores, decisions, verbs, a stall at the cap) are those of one at a time."""
    fast = [sim.play_one(game, (), players, 5, ["random"], i, cap) for i in range(3)]
    _one_at_a_time(monkeypatch)
    slow = [sim.play_one(game, (), players, 5, ["random"], i, cap) for i in range(3)]
    assert fast == slow
    assert any(r["stalled"] for r in fast) == (cap is not None)


def test_random_seats_count_verbs_written_from_the_notation(write_game, monkeypatch):
    """An option whose text starts with a value has its notation written to count its verb, before
    its choice binds (the label reads the locals as the decision stood)."""
    folder = write_game("""\
        meta: {title: Verbs}
        players: {min: 2, max: 2}
        vars:
          k: 0
        flow:
          rounds: 6
          phases:
            - id: main
              do: |
                for p in players:
                    k = k + 1
                    choose p:
                        "{k} up":
                            k = k + 2
                        "{n} down" for n in range(1, 3):
                            k = k - n
                        "pass":
                            pass
        """)
    fast = [sim.play_one(folder, (), 2, 1, ["random"], i) for i in range(4)]
    _one_at_a_time(monkeypatch)
    assert fast == [sim.play_one(folder, (), 2, 1, ["random"], i) for i in range(4)]
    assert sum(len(r["actions"]) for r in fast) > 4     # numbers, not only "pass"
