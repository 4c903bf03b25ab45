# SPDX-License-Identifier: MIT
"""The balance figures (:mod:`rulekit.batch.balance`) as ``rulekit simulate``'s table prints them."""
from __future__ import annotations

from . import balance


def score_table(summary: dict):
    """Scores by seat: mean, sd, quantiles and a histogram drawn as one line."""
    from rich.table import Table
    table = Table(title="scores by seat")
    for col in ("seat", "mean", "sd", "p10", "p25", "median", "p75", "p90", "min", "max", "histogram"):
        table.add_column(col, justify="left" if col in ("seat", "histogram") else "right")
    for seat, row in summary["score_by_seat"].items():
        q = row["quantiles"]
        table.add_row(seat, str(row["mean"]), str(row["sd"]), *[str(q.get(k, "-")) for k in
                                                                  ("p10", "p25", "p50", "p75", "p90")],
                      str(row["min"]), str(row["max"]), balance.sparkline(row["histogram"]))
    return table


def length_lines(summary: dict) -> list[str]:
    """How long a game lasts, in rounds and decisions (mean, median, the middle 80%, the extremes)."""
    lines = []
    for name in ("rounds", "decisions"):
        row = summary["length"][name]
        q = row["quantiles"] or {}
        lines.append(f"{name}: mean {row['mean']}, median {q.get('p50', '-')} (p10 {q.get('p10', '-')}, "
                     f"p90 {q.get('p90', '-')}; min {row['min']}, max {row['max']})")
    return lines


def ties_line(summary: dict) -> str:
    ties = summary["ties"]
    low, high = ties["ci95"]
    finished = summary["games"] - summary["stalled"]
    return (f"ties: {ties['games']} of {finished} games shared the win ({ties['rate']:.1%}, 95% interval "
            f"{low:.1%}-{high:.1%})")


def seat_lines(summary: dict) -> list[str]:
    """Whether the seats win equally often: a line a seat and the verdict over all seats."""
    seats = summary["seats"]
    n = len(seats["by_seat"])
    lines = [f"seats: does each win {balance.percent(seats['expected'])} of the games? (binomial test a seat, "
             f"Holm-adjusted over {n}; * p < 0.05)"]
    lines += ["  " + line for line in balance.seat_lines(seats)]
    lines.append("  " + seats["verdict"])
    if seats.get("rough"):
        lines.append("  (under 5 wins expected a seat the tests are rough: play more games)")
    return lines


def compare_note(rows: list[dict]) -> str:
    tested = sum(1 for row in rows if row.get("p") is not None)
    if not tested:
        return ("* the 95% interval of the difference excludes 0 (paired by seed); no p-values: "
                + balance.needs_scipy())
    return (f"* Holm-adjusted p < 0.05 over the {tested} figures (paired t-test, same seeds); an interval that\n"
            "  excludes 0 is not enough alone when many figures are compared")
