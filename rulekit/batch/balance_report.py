# SPDX-License-Identifier: MIT
"""``rulekit simulate``'s table: win rates, scores, the balance figures (:mod:`rulekit.batch.balance`),
a ``--compare``'s paired differences, a ``--sweep``'s points."""
from __future__ import annotations

import io

from . import balance


def simulate_table(args, summary, extra) -> str:
    from rich.console import Console
    from rich.table import Table

    # plain text, never markup: a verdict's install hint (`pip install -e '.[stats]'`) keeps its brackets
    console = Console(record=True, width=100, file=io.StringIO(), force_terminal=False, markup=False)
    head = f"{args.game}: {summary['games']} games, bots {args.bots}, seed {args.seed}"
    console.print(head)
    table = Table(title="win rate (95% interval)")
    for col in ("who", "rate", "interval", "games"):
        table.add_column(col)
    for kind, rows in (("seat", summary["win_rate_by_seat"]), ("bot", summary["win_rate_by_bot"])):
        for who, row in rows.items():
            table.add_row(f"{kind} {who}", f"{row['rate']:.3f}", f"{row['ci95'][0]:.3f}-{row['ci95'][1]:.3f}",
                          str(row["games"]))
    console.print(table)
    scores = Table(title="scores by bot")
    for col in ("bot", "mean", "sd", "min", "max"):
        scores.add_column(col)
    for bot, row in summary["score_by_bot"].items():
        scores.add_row(bot, str(row["mean"]), str(row["sd"]), str(row["min"]), str(row["max"]))
    console.print(scores)
    console.print(scores_by_seat(summary))
    for line in length_lines(summary):
        console.print(line)
    console.print(ties_line(summary))
    for line in seat_lines(summary):
        console.print(line)
    top = list(summary["action_share"].items())[:12]
    console.print("actions: " + ", ".join(f"{v} {share:.1%}" for v, share in top))
    if summary["stalled"]:
        console.print(stalled_line(summary))
    if summary["discarded_worlds"]:
        console.print(discarded_line(summary))
    if extra:
        compared = extra["compare"]
        console.print(compare_table(compared["variant"], compared["paired"]))
        console.print(compare_note(compared["paired"]))
        if compared["variant_summary"]["stalled"]:
            console.print(stalled_line(compared["variant_summary"], f" with {compared['variant']}"))
        if summary["stalled"] or compared["variant_summary"]["stalled"]:
            console.print("a seed on which either game stalled is left out of the differences")
    return console.export_text().rstrip()


def sweep_table(title: str, points, summaries, what: str) -> str:
    from rich.console import Console

    from .sweep import table
    console = Console(record=True, width=100, file=io.StringIO(), force_terminal=False)
    console.print(title)
    console.print(table(points, summaries, "each point on the same seeds", what))
    console.print("win pK: seat pK's win rate; seats p: chi-square test that every seat wins as often\n"
                  "(* p < 0.05); ties: games with a shared win; score: mean over the seats")
    return console.export_text().rstrip()


def scores_by_seat(summary: dict):
    """The table of scores by seat over a batch: mean, sd, quantiles and a histogram drawn as one line.
    (A game's own final scoring is ``view.report.score_table``.)"""
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


def discarded_line(summary: dict) -> str:
    return (f"discarded worlds: {summary['discarded_worlds']} (hidden cards the search bots imagined that the "
            "rules could not play)")


def stalled_line(summary: dict, where: str = "") -> str:
    return (f"stalled{where}: {summary['stalled']} of {summary['games']} games hit the action cap (--max-actions); "
            "win rates, scores and lengths leave them out")


def compare_table(variant: str, rows: list[dict]):
    from rich.table import Table
    table = Table(title=f"{variant} - base, game by game on the same seeds")
    for col in ("figure", "base", variant, "difference", "95% interval", "p", "Holm p", ""):
        table.add_column(col, justify="left" if col == "figure" else "right")
    for row in rows:
        low_high = row["ci95"]
        interval = f"{low_high[0]:+.3f} .. {low_high[1]:+.3f}" if low_high else "-"
        table.add_row(row["figure"], _figure(row["base"]), _figure(row["variant"]), f"{row['difference']:+.3f}",
                      interval, balance.fmt_p(row.get("p")).lstrip("= "), balance.fmt_p(row.get("p_holm")).lstrip("= "),
                      "*" if row.get("flagged", row["significant"]) else "")
    return table


def _figure(value: float) -> str:
    return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"


def __getattr__(name: str):
    """``score_table``, this module's name for :func:`scores_by_seat` until issue 56 (view/report.py
    has the one ``score_table``): it still answers for one release, with a warning."""
    if name == "score_table":
        import warnings
        warnings.warn("rulekit.batch.balance_report.score_table is scores_by_seat now; the old name goes in the "
                      "next release", DeprecationWarning, stacklevel=2)
        return scores_by_seat
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
