# SPDX-License-Identifier: MIT
"""Balance figures of `rulekit simulate`: scores by seat, ties, length, the seat verdict, paired
differences with Holm's correction, `--sweep`, and the plots of comparisons and sweeps."""
from __future__ import annotations

import csv
import io
import json
import math
import random
import re
from collections import Counter

import pytest

from rulekit.batch import balance
from rulekit.batch import simulate as sim
from rulekit.cli.app import main
from rulekit.extras import install_command

stats = pytest.importorskip("scipy.stats")


# ------------------------------------------------------------------ distributions
def test_spread_gives_exact_quantiles_and_a_histogram_whatever_the_order():
    values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4]
    shuffled = values[:]
    random.Random(1).shuffle(shuffled)
    one, two = balance.Spread(), balance.Spread()
    for v in values:
        one.add(v)
    for v in shuffled:
        two.add(v)
    figures = one.stats()
    assert figures == two.stats()
    ordered = sorted(values)
    for q in balance.QUANTILES:      # the inverse of the empirical distribution: a value seen
        assert figures["quantiles"][f"p{round(q * 100)}"] == ordered[math.ceil(q * 20 - 1e-9) - 1]
    assert figures["quantiles"]["p50"] == 4 and (figures["min"], figures["max"]) == (1, 9)
    assert figures["mean"] == round(sum(values) / 20, 2)
    hist = figures["histogram"]
    assert sum(hist["counts"]) == 20 and len(hist["edges"]) == len(hist["counts"]) + 1
    assert hist["counts"] == [Counter(values)[v] for v in range(1, 10)]    # whole numbers: a bar a value here
    assert balance.sparkline(hist) == "▅▅█▅▆▃▃▅▆"      # the most common value (3, four times) full


def test_a_wide_spread_gets_at_most_ten_bars_and_memory_grows_with_values_not_games():
    spread = balance.Spread()
    rng = random.Random(3)
    for _ in range(50_000):
        spread.add(rng.randrange(0, 100))
    hist = spread.stats()["histogram"]
    assert len(hist["counts"]) == 10 and sum(hist["counts"]) == 50_000
    assert len(spread.counts) == 100


# ------------------------------------------------------------------ the seat verdict
def test_holm_matches_the_step_down_by_hand():
    assert balance.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert balance.holm([0.5, None, 0.01]) == pytest.approx([0.5, None, 0.02])
    assert balance.holm([0.9, 0.8]) == pytest.approx([1.0, 1.0])


def test_a_seat_that_wins_too_rarely_gets_a_plain_verdict():
    seats = ["p1", "p2", "p3", "p4"]
    out = balance.seat_verdict(seats, [30.0, 50.0, 60.0, 60.0], 200)
    raw = [stats.binomtest(k, 200, 0.25).pvalue for k in (30, 50, 60, 60)]
    assert [out["by_seat"][s]["p"] for s in seats] == pytest.approx(balance.holm(raw), rel=1e-3)
    assert out["p"] == pytest.approx(stats.chisquare([30, 50, 60, 60]).pvalue, rel=1e-3)
    assert out["p"] < 0.05 and out["verdict"].startswith("the seats do not win equally often")
    lines = balance.seat_lines(out)
    assert lines[0] == "p1 wins 15.0% [10.7-20.6], below 25%: p = 0.003 *"
    assert re.fullmatch(r"p2 wins 25\.0% \[19\.5-31\.4\], at 25%: p = 1\.00", lines[1])
    even = balance.seat_verdict(seats, [50.0] * 4, 200)
    assert even["p"] == 1.0 and even["verdict"].startswith("no evidence that the seats win unequally")


def test_few_games_say_the_test_is_rough_and_no_scipy_says_how_to_install(monkeypatch):
    rough = balance.seat_verdict(["p1", "p2"], [3.0, 1.0], 4)
    assert rough["rough"] and not balance.seat_verdict(["p1", "p2"], [6.0, 4.0], 10)["rough"]
    monkeypatch.setattr(balance, "scipy_stats", lambda: None)
    bare = balance.seat_verdict(["p1", "p2"], [30.0, 10.0], 40)
    assert bare["p"] is None and install_command("stats") in bare["verdict"]
    assert bare["by_seat"]["p1"]["rate"] == 0.75


def test_the_summary_has_scores_by_seat_ties_length_and_the_seat_verdict():
    records = sim.run_batch("batavia", players=3, games=12, seed=5, bots=["random", "greedy"])
    summary = sim.summarise(records)
    finished = [r for r in records if not r["stalled"]]
    for k, seat in enumerate(("p1", "p2", "p3")):
        row = summary["score_by_seat"][seat]
        scores = sorted(r["scores"][k] for r in finished)
        q = row["quantiles"]
        assert (row["min"], row["max"]) == (scores[0], scores[-1])
        assert row["min"] <= q["p10"] <= q["p25"] <= q["p50"] <= q["p75"] <= q["p90"] <= row["max"]
        assert q["p50"] == scores[(len(scores) + 1) // 2 - 1]
        assert sum(row["histogram"]["counts"]) == len(finished)
        assert summary["seats"]["by_seat"][seat]["rate"] == summary["win_rate_by_seat"][seat]["rate"]
    assert summary["ties"]["games"] == sum(len(r["winners"]) > 1 for r in finished)
    assert summary["length"]["rounds"]["mean"] == summary["rounds"]["mean"]
    assert summary["seats"]["df"] == 2 and 0 <= summary["seats"]["p"] <= 1


def test_a_streamed_batch_gives_the_same_figures_as_one_in_memory(tmp_path):
    path = str(tmp_path / "r.jsonl")
    _head, streamed = sim.run_to_file(path, False, "batavia", players=3, games=10, seed=2)
    assert streamed == sim.summarise(sim.run_batch("batavia", players=3, games=10, seed=2))
    assert streamed["seats"]["verdict"] and streamed["score_by_seat"]["p3"]["quantiles"]


# ------------------------------------------------------------------ paired differences
def test_paired_differences_are_t_tests_holm_corrected_over_the_figures():
    rng = random.Random(7)
    pairs = []
    for i in range(40):
        base = {f"f{k}": rng.gauss(10, 1) for k in range(10)}
        variant = {name: value + rng.gauss(0, 1) for name, value in base.items()}
        variant["f0"] = base["f0"] + 2 + rng.gauss(0, 0.5)          # a clear change
        variant["f1"] = base["f1"] + 0.4 + (1 if i % 2 else -1)     # a slight one: t = 2.5, p = 0.017
        pairs.append((base, variant))
    rows = {row["figure"]: row for row in balance.paired([f"f{k}" for k in range(10)], pairs)}
    for name, row in rows.items():
        test = stats.ttest_rel([v[name] for _b, v in pairs], [b[name] for b, _v in pairs])
        assert row["p"] == pytest.approx(test.pvalue, rel=1e-3)
        assert row["significant"] == (row["ci95"][0] > 0 or row["ci95"][1] < 0) == (row["p"] < 0.05)
    adjusted = balance.holm([rows[f"f{k}"]["p"] for k in range(10)])
    assert [rows[f"f{k}"]["p_holm"] for k in range(10)] == pytest.approx(adjusted, rel=1e-3)
    assert rows["f0"]["flagged"] and rows["f0"]["p_holm"] < 0.001
    assert rows["f1"]["significant"] and not rows["f1"]["flagged"]     # Holm takes the chance flag away
    assert [name for name, row in rows.items() if row["flagged"]] == ["f0"]


def test_compare_flags_after_holm_and_carries_the_variant_of_every_game(capsys, tmp_path):
    assert main(["simulate", "batavia", "--games", "4", "--players", "3", "--bots", "greedy,random",
                 "--compare", "open-route", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [row["variant"] for row in rows] == ["base"] * 4 + ["open-route"] * 4
    assert [row["game"] for row in rows] == ["0", "1", "2", "3"] * 2
    out = tmp_path / "c.json"
    assert main(["simulate", "batavia", "--games", "4", "--players", "3", "--variant", "pirates-once",
                 "--compare", "open-route", "--format", "json", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert {g["variant"] for g in data["games"]} == {"pirates-once"}
    assert {g["variant"] for g in data["compare"]["games"]} == {"pirates-once+open-route"}
    assert all("p_holm" in row and "flagged" in row for row in data["compare"]["paired"])
    assert main(["simulate", "batavia", "--games", "4", "--players", "3", "--compare", "open-route"]) == 0
    table = capsys.readouterr().out
    assert "Holm p" in table and "Holm-adjusted p < 0.05 over the" in table


# ------------------------------------------------------------------ what the table says
def test_the_table_prints_scores_by_seat_ties_and_the_seat_verdict(capsys):
    assert main(["simulate", "goa", "--games", "6", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert "scores by seat" in out and "histogram" in out and "median" in out
    assert re.search(r"^ties: \d+ of 6 games shared the win", out, re.M)
    assert re.search(r"^rounds: mean [\d.]+, median \d+ \(p10 \d+, p90 \d+; min \d+, max \d+\)$", out, re.M)
    assert "seats: does each win 25% of the games?" in out
    assert len(re.findall(r"^  p[1-4] wins \d+\.\d% \[[\d.]+-[\d.]+\], (below|above|at) 25%: p ", out, re.M)) == 4
    assert re.search(r"^  (no evidence that the seats win unequally|the seats do not win equally often) "
                     r"\(chi-square [\d.]+ on 3 df, p ", out, re.M)
    assert "under 5 wins expected a seat the tests are rough" in out          # 6 games, 1.5 wins a seat


# ------------------------------------------------------------------ --sweep
def test_sweep_over_a_parameter_is_one_table_on_the_same_seeds(capsys):
    assert main(["simulate", "batavia", "--games", "3", "--players", "3", "--sweep", "hand_size=8..10"]) == 0
    out = capsys.readouterr().out
    assert "each point on the same seeds" in out and re.search(r"^┃ hand_size ┃ games ┃ win p1 ┃", out, re.M)
    assert re.findall(r"^│ (\d+) +│ +3 │", out, re.M) == ["8", "9", "10"]
    assert main(["simulate", "batavia", "--games", "3", "--players", "3", "--sweep", "hand_size=8,10",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["value"] for p in data["sweep"]["points"]] == [8, 10] and data["sweep"]["param"] == "hand_size"
    assert [g["variant"] for g in data["games"]] == ["hand_size=8"] * 3 + ["hand_size=10"] * 3
    ten = data["sweep"]["points"][1]["summary"]
    assert ten == sim.summarise(sim.run_batch("batavia", players=3, games=3))   # 10 is the game's own value


def test_a_sweep_of_variants_and_its_csv(capsys):
    assert main(["simulate", "batavia", "--games", "2", "--players", "3", "--sweep", "open-route,pirates-once",
                 "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [row["variant"] for row in rows] == ["base"] * 2 + ["open-route"] * 2 + ["pirates-once"] * 2


@pytest.mark.parametrize("sweep, said", [
    ("hand_sise=8..10", "has no parameter `hand_sise`; did you mean `hand_size`?"),
    ("pirate_threshold=8..10", "is computed (`expr:`)"),
    ("crate_start=10..14", "crate_start=13 is outside the parameter's max (12)"),
    ("hand_size=8..9:0.5", "is a whole number, not 8.5"),
    ("hand_size=9..8", "runs backwards"),
    ("hand_size=1..9:0", "step must be above 0"),
    ("hand_size=x", "expected a number"),
    ("hand_size=0..1000", "at most 50"),
    ("open-rute", "did you mean `open-route`?"),
])
def test_a_bad_sweep_is_a_usage_error_saying_why(capsys, sweep, said):
    assert main(["simulate", "batavia", "--games", "1", "--sweep", sweep]) == 2
    captured = capsys.readouterr()
    assert said in captured.out + captured.err and "Traceback" not in captured.out + captured.err


def test_sweep_refuses_compare_and_batch_files(capsys, tmp_path):
    assert main(["simulate", "batavia", "--games", "1", "--sweep", "hand_size=8,9", "--compare", "open-route"]) == 2
    assert main(["simulate", "batavia", "--games", "1", "--sweep", "hand_size=8,9",
                 "--out", str(tmp_path / "r.jsonl")]) == 2
    assert not (tmp_path / "r.jsonl").exists()


# ------------------------------------------------------------------ plots
def test_plots_of_a_sweep_and_of_a_comparison(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    from matplotlib.image import imread
    swept = tmp_path / "sweep.png"
    assert main(["simulate", "batavia", "--games", "2", "--players", "3", "--sweep", "hand_size=8..10:2",
                 "--plot", str(swept)]) == 0
    assert f"wrote {swept}: win rate, score by seat and rounds against hand_size (2 points)" in capsys.readouterr().out
    assert imread(str(swept)).shape[:2] == (450, 1500)
    compared = tmp_path / "compare.png"
    assert main(["simulate", "batavia", "--games", "3", "--players", "3", "--compare", "open-route",
                 "--plot", str(compared)]) == 0
    assert "base and open-route, and their paired differences" in capsys.readouterr().out
    assert imread(str(compared)).shape[:2] == (450, 1500)
