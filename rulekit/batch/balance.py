# SPDX-License-Identifier: MIT
"""Balance figures a designer acts on: scores by seat as distributions, ties, game length, whether
the seats win equally often, and paired differences between a game and a variant, Holm-corrected.

Distributions are kept as counts of each value seen (:class:`Spread`): exact quantiles and
histograms from memory that grows with the distinct values (scores, lengths), never with the
games, so a streamed batch of a million games is summarised as its file is read back. The
tests are scipy.stats's (the ``stats`` extra); without scipy the figures are still given and the
verdicts say how to install it.
"""
from __future__ import annotations

import math
from collections import Counter

QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
BINS = 10               # histogram bars at most
ALPHA = 0.05
SPARKS = "▁▂▃▄▅▆▇█"


def needs_scipy() -> str:
    """What a verdict says when scipy is missing: the command that installs the ``stats`` extra."""
    from ..extras import install_command
    return f"needs scipy: {install_command('stats')}"


def scipy_stats():
    """scipy.stats, or None when the ``stats`` extra is not installed."""
    try:
        from scipy import stats
    except ImportError:
        return None
    return stats


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float, float]:
    """Win rate with its 95% Wilson interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, max(0.0, centre - half), min(1.0, centre + half)


# ------------------------------------------------------------------ distributions
class Spread:
    """Numbers seen one at a time, kept as how often each value came: mean, sd, exact quantiles
    and a histogram, in any order of arrival."""

    def __init__(self):
        self.counts: Counter = Counter()

    def add(self, value) -> None:
        self.counts[value] += 1

    def stats(self) -> dict:
        n = sum(self.counts.values())
        if not n:
            return {"mean": 0, "sd": 0, "min": 0, "max": 0, "quantiles": {}, "histogram": {"edges": [], "counts": []}}
        values = sorted(self.counts)
        total = sum(v * c for v, c in self.counts.items())
        squares = sum(v * v * c for v, c in self.counts.items())
        spread = max(0, n * squares - total * total)
        return {"mean": round(total / n, 2), "sd": round(math.sqrt(spread) / n, 2), "min": values[0],
                "max": values[-1], "quantiles": {_q(q): quantile(self.counts, q) for q in QUANTILES},
                "histogram": histogram(self.counts)}


def _q(q: float) -> str:
    return f"p{round(q * 100)}"


def quantile(counts: Counter, q: float):
    """The smallest value with at least a share ``q`` of the values at or below it (the inverse of
    the empirical distribution: always a value that was seen)."""
    n = sum(counts.values())
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= q * n:
            return value
    return max(counts)


def histogram(counts: Counter, bins: int = BINS) -> dict:
    """At most ``bins`` equal bars from the least value to the greatest (whole-number wide for whole
    numbers); ``edges`` has one more entry than ``counts``, the last bar closed on the right."""
    low, high = min(counts), max(counts)
    whole = all(float(v).is_integer() for v in counts)
    width = (high - low) / bins if high > low else 1
    if whole:
        width = max(1, math.ceil((high - low + 1) / bins))
    size = max(1, math.ceil((high - low + (1 if whole else 0)) / width)) if high > low else 1
    edges = [low + k * width for k in range(size + 1)]
    bars = [0] * size
    for value, count in counts.items():
        bars[min(size - 1, int((value - low) // width))] += count
    return {"edges": [round(e, 4) for e in edges], "counts": bars}


def sparkline(hist: dict) -> str:
    """A histogram as one line of block characters (the tallest bar full)."""
    top = max(hist["counts"], default=0)
    if not top:
        return ""
    return "".join(" " if c == 0 else SPARKS[min(len(SPARKS) - 1, round(c / top * (len(SPARKS) - 1)))]
                   for c in hist["counts"])


class Balance:
    """The figures :class:`rulekit.batch.simulate.Tally` adds for a designer, gathered game by game:
    each seat's score, ties, and the length of a game in rounds and decisions."""

    def __init__(self):
        self.scores: dict[int, Spread] = {}
        self.rounds, self.decisions = Spread(), Spread()
        self.ties = 0

    def add(self, record: dict) -> None:
        """A finished game's record (a stalled one has no result and is not given)."""
        for k, score in enumerate(record["scores"]):
            self.scores.setdefault(k, Spread()).add(score)
        self.ties += len(record["winners"]) > 1
        self.rounds.add(record["rounds"])
        self.decisions.add(record["decisions"])

    def summary(self, players: list[str], finished: int, wins: list[float]) -> dict:
        """The figures, with the seat verdict from each seat's wins (a win shared by m counts 1/m)."""
        rate, low, high = wilson(self.ties, finished)
        return {"score_by_seat": {players[k]: spread.stats() for k, spread in sorted(self.scores.items())},
                "ties": {"games": self.ties, "rate": round(rate, 4), "ci95": [round(low, 4), round(high, 4)]},
                "length": {"rounds": self.rounds.stats(), "decisions": self.decisions.stats()},
                "seats": seat_verdict(players, wins, finished)}


# ------------------------------------------------------------------ do the seats win equally often?
def seat_verdict(players: list[str], wins: list[float], games: int) -> dict:
    """Whether each seat wins 1/n of the games: a binomial test per seat (its wins rounded to a whole
    number when some were shared), Holm-adjusted over the seats, and a chi-square test over all seats
    together. Without scipy, ``p`` is None and ``verdict`` says how to install it."""
    n = len(wins)
    expected = 1 / n if n else 0
    stats = scipy_stats()
    out: dict = {"expected": round(expected, 4), "games": games, "by_seat": {}}
    raw = []
    for seat, won in zip(players, wins):
        rate, low, high = wilson(won, games)
        raw.append(stats.binomtest(round(won), games, expected).pvalue if stats and games and n > 1 else None)
        out["by_seat"][seat] = {"rate": round(rate, 4), "ci95": [round(low, 4), round(high, 4)],
                                "side": "above" if rate > expected else "below" if rate < expected else "at"}
    for seat, p in zip(players, holm(raw)):
        out["by_seat"][seat]["p"] = _rounded(p)
    if stats is None or n < 2 or not games:
        out.update(chi2=None, df=max(0, n - 1), p=None, rough=False,
                   verdict="seat test " + (needs_scipy() if stats is None else "needs two seats and a finished game"))
        return out
    test = stats.chisquare(wins, [games * expected] * n)
    chi2, p = float(test.statistic), float(test.pvalue)
    out.update(chi2=round(chi2, 3), df=n - 1, p=_rounded(p), verdict=_seats_said(chi2, n - 1, p),
               rough=games * expected < 5)
    return out


def _seats_said(chi2: float, df: int, p: float) -> str:
    if p < ALPHA:
        return f"the seats do not win equally often (chi-square {chi2:.2f} on {df} df, p {fmt_p(p)})"
    return f"no evidence that the seats win unequally (chi-square {chi2:.2f} on {df} df, p {fmt_p(p)})"


def seat_lines(seats: dict) -> list[str]:
    """One plain line per seat, as ``p1 wins 21.0% [15.9-27.2], below 25%: p = 0.03``."""
    lines = []
    for seat, row in seats["by_seat"].items():
        low, high = row["ci95"]
        p = f": p {fmt_p(row['p'])}" if row["p"] is not None else ""
        flag = " *" if row["p"] is not None and row["p"] < ALPHA else ""
        lines.append(f"{seat} wins {row['rate']:.1%} [{low * 100:.1f}-{high * 100:.1f}], {row['side']} "
                     f"{percent(seats['expected'])}{p}{flag}")
    return lines


def percent(share: float) -> str:
    """25% or 33.3%: a share as a percentage, to one decimal where it is not whole."""
    whole = round(share * 100, 1)
    return f"{whole:.0f}%" if whole.is_integer() else f"{whole:.1f}%"


def fmt_p(p: float | None) -> str:
    if p is None:
        return "-"
    if p < 0.001:
        return "< 0.001"
    return f"= {p:.3f}" if p < 0.01 else f"= {p:.2f}"


def _rounded(p: float | None) -> float | None:
    return None if p is None else float(f"{p:.4g}")


# ------------------------------------------------------------------ multiple comparisons
def holm(ps: list[float | None]) -> list[float | None]:
    """Holm's step-down adjustment of the p-values given (None: no test, left out of the family):
    flagging the adjusted ones under 5% keeps the chance of any false flag among them under 5%."""
    tested = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    m = len(tested)
    out: list[float | None] = [None] * len(ps)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def paired(names: list[str], pairs: list[tuple[dict, dict]]) -> list[dict]:
    """Variant - base for each figure, paired game by game (same seed, same seats): the mean
    difference, its 95% interval and p from a paired t-test (scipy), and ``flagged`` where the
    p-value Holm-adjusted over all the figures is under 5%. ``significant``: the interval alone
    excludes 0 (not corrected)."""
    stats = scipy_stats()
    rows = []
    for name in names:
        base = [b[name] for b, v in pairs if name in b and name in v]
        variant = [v[name] for b, v in pairs if name in b and name in v]
        diffs = [v - b for b, v in zip(base, variant)]
        n = len(diffs)
        mean = sum(diffs) / n if n else 0.0
        ci, p = _t_test(stats, diffs, mean)
        rows.append({"figure": name, "base": round(sum(base) / n, 4) if n else 0,
                     "variant": round(sum(variant) / n, 4) if n else 0, "difference": round(mean, 4),
                     "pairs": n, "ci95": [round(ci[0], 4), round(ci[1], 4)] if ci else None, "p": _rounded(p),
                     "significant": bool(ci) and (ci[0] > 0 or ci[1] < 0)})
    for row, adjusted in zip(rows, holm([row["p"] for row in rows])):
        row["p_holm"] = _rounded(adjusted)
        row["flagged"] = adjusted is not None and adjusted < ALPHA
    return rows


def _t_test(stats, diffs: list[float], mean: float, z: float = 1.96):
    """(95% interval, p) of a paired t-test on ``diffs``; (None, None) under two pairs. Differences
    all alike have no spread: the interval is the point and p is 1 at 0, else 0. Without scipy,
    the normal interval and no p."""
    n = len(diffs)
    if n < 2:
        return None, None
    if all(d == diffs[0] for d in diffs):
        return (mean, mean), (1.0 if mean == 0 else 0.0)
    if stats is None:
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
        return (mean - z * sd / math.sqrt(n), mean + z * sd / math.sqrt(n)), None
    test = stats.ttest_1samp(diffs, 0.0)
    interval = test.confidence_interval(0.95)
    return (float(interval.low), float(interval.high)), float(test.pvalue)
