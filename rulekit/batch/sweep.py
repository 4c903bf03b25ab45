# SPDX-License-Identifier: MIT
"""``rulekit simulate --sweep``: one batch per value of a parameter (or per variant), on the same
seeds, read as one table and one plot; and the plot of a ``--compare``.

A parameter's value is set by a variant overlay written for it into a temporary folder (content,
``params: {NAME: {value: V}}``), so a point of a sweep is a variant like any other: checked,
compiled and shipped to Ray workers the same way.
"""
from __future__ import annotations

import os
import re
from decimal import Decimal, InvalidOperation

import attrs

from ..errors import UsageError, suggestion_help
from ..files import write_text
from ..limits import SWEEP_DIGITS as MAX_DIGITS
from ..limits import SWEEP_POINTS as MAX_POINTS
from . import balance, figures

_RANGE = re.compile(r"^\s*([^=\s]+)\s*=\s*([-+]?[\d.]+)\s*\.\.\s*([-+]?[\d.]+)\s*(?::\s*([-+]?[\d.]+)\s*)?$")
_LIST = re.compile(r"^\s*([^=\s]+)\s*=\s*(.+)$")
USAGE = ("--sweep takes PARAM=LO..HI[:STEP] (`start_money=8..14`, `bonus=0..1:0.25`), PARAM=V1,V2,... "
         "or VARIANT,VARIANT,...")


@attrs.frozen
class Plan:
    """What ``--sweep`` asked for: values of a parameter, or variants (``param`` None)."""

    param: str | None
    values: tuple


@attrs.frozen
class Point:
    """One batch of a sweep: its label, the variants it adds and the parameter's value."""

    label: str
    variants: tuple
    value: object = None


def parse(text: str) -> Plan:
    """``--sweep``'s text as a plan; a malformed one is a usage error saying the forms."""
    found = _RANGE.match(text)
    if found:
        name, low, high, step = found.groups()
        return Plan(name, _range(_number(low), _number(high), _number(step) if step else Decimal(1)))
    found = _LIST.match(text)
    if found:
        name, listed = found.groups()
        return Plan(name, _points(tuple(_value(_number(v)) for v in listed.split(",") if v.strip())))
    names = tuple(v.strip() for v in text.split(",") if v.strip())
    if not names or any("=" in v for v in names):
        raise UsageError(f"bad --sweep `{text}`: {USAGE}")
    return Plan(None, _points(names))


def _number(text: str) -> Decimal:
    if len(text.strip()) > MAX_DIGITS:
        raise UsageError(f"bad --sweep value `{text.strip()[:20]}...`: more than {MAX_DIGITS} digits")
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise UsageError(f"bad --sweep value `{text.strip()}`: expected a number; {USAGE}") from None
    if not value.is_finite():
        raise UsageError(f"bad --sweep value `{text.strip()}`: expected a finite number")
    return value


def _range(low: Decimal, high: Decimal, step: Decimal) -> tuple:
    if step <= 0:
        raise UsageError(f"--sweep step must be above 0, not {step}")
    if high < low:
        raise UsageError(f"--sweep range {low}..{high} runs backwards: give the low end first")
    try:
        count = int((high - low) / step) + 1      # sized before anything is listed
    except ArithmeticError:                     # decimal's Overflow, DivisionUndefined...
        count = MAX_POINTS + 1
    if count > MAX_POINTS:
        raise UsageError(f"--sweep of {_sized(count)} points: at most {MAX_POINTS} (a larger STEP?)")
    return _points(tuple(_value(low + k * step) for k in range(count)))


def _sized(count: int) -> str:
    """A count of points as a message says it, however large (a 4,300-digit int cannot print)."""
    return f"{count:,}" if count < 10 ** 30 else "more than 10^30"


def _points(values: tuple) -> tuple:
    if len(values) > MAX_POINTS:
        raise UsageError(f"--sweep of {len(values)} points: at most {MAX_POINTS} (a larger STEP?)")
    if len(set(values)) != len(values):
        raise UsageError("--sweep names a point twice")
    return values


def _value(number: Decimal):
    return int(number) if number == number.to_integral_value() else float(number)


def points(game, plan: Plan, folder: str) -> list[Point]:
    """The batches of ``plan`` over ``game`` (loaded with the command's own variants), each
    parameter value's overlay written into ``folder``. A parameter the game lacks is a usage
    error with the closest name; so is one computed by an expression, or a value its type or
    bounds refuse."""
    if plan.param is None:
        return [Point("base", ())] + [Point(name, (name,)) for name in plan.values]
    spec = _param(game, plan.param)
    out = []
    for k, value in enumerate(plan.values):
        _fits(plan.param, spec, value)
        path = os.path.join(folder, f"sweep-{k}.yaml")
        write_text(path, _overlay(plan.param, value))
        out.append(Point(f"{plan.param}={value}", (path,), value))
    return out


def _param(game, name: str) -> dict:
    params = game.data.get("params") or {}
    if name not in params:
        hint = suggestion_help(name, params)
        known = ", ".join(sorted(params)) or "none"
        raise UsageError(f"--sweep: `{game.title}` has no parameter `{name}`"
                         + (f"; {hint}" if hint else f" (its parameters: {known})"))
    spec = params[name]
    if not isinstance(spec, dict) or "value" not in spec:
        raise UsageError(f"--sweep: parameter `{name}` is computed (`expr:`), not a value a sweep can set")
    if isinstance(spec["value"], bool) or not isinstance(spec["value"], (int, float)):
        raise UsageError(f"--sweep: parameter `{name}` is {spec['value']!r}, not a number")
    return spec


def _fits(name: str, spec: dict, value) -> None:
    if spec.get("type") == "int" or (isinstance(spec["value"], int) and "type" not in spec):
        if not isinstance(value, int):
            raise UsageError(f"--sweep: parameter `{name}` is a whole number, not {value}")
    for bound, outside in (("min", lambda b: value < b), ("max", lambda b: value > b)):
        if isinstance(spec.get(bound), (int, float)) and outside(spec[bound]):
            raise UsageError(f"--sweep: {name}={value} is outside the parameter's {bound} ({spec[bound]})")


def _overlay(name: str, value) -> str:
    """A variant overlay setting one parameter; written as YAML, values only (never code)."""
    import yaml
    return yaml.safe_dump({"variant": {"name": f"{name}={value}", "title": f"{name} = {value}"},
                           "params": {name: {"value": value}}}, sort_keys=False)


# ------------------------------------------------------------------ the table
def table(points: list[Point], summaries: list[dict], title: str, what: str = "point"):
    """One row per point (a value of the parameter ``what``, or a variant): each seat's win rate, the
    seat test's p, ties, mean score and rounds."""
    from rich.table import Table
    seats = list(summaries[0]["win_rate_by_seat"]) if summaries else []
    out = Table(title=title)
    out.add_column(what, no_wrap=True)
    for col in ("games", *[f"win {s}" for s in seats], "seats p", "ties", "score", "rounds"):
        out.add_column(col, justify="right")
    for point, summary in zip(points, summaries):
        scores = [row["mean"] for row in summary["score_by_seat"].values()]
        verdict = summary["seats"]
        p = balance.fmt_p(verdict["p"]).lstrip("= ") + (" *" if verdict["p"] is not None and
                                                         verdict["p"] < balance.ALPHA else "")
        out.add_row(point.label if point.value is None else str(point.value), str(summary["games"]),
                    *[f"{summary['win_rate_by_seat'].get(s, {'rate': 0})['rate']:.3f}" for s in seats],
                    p, f"{summary['ties']['rate']:.1%}", f"{sum(scores) / len(scores):.1f}" if scores else "-",
                    f"{summary['rounds']['mean']}")
    return out


# ------------------------------------------------------------------ plots
def plot(points: list[Point], summaries: list[dict], path: str, title: str, xlabel: str) -> None:
    """One PNG: win rate by seat (95% intervals), mean score by seat (10th-90th percentile band)
    and rounds (same band) against the sweep's points."""
    plt = figures.pyplot()
    numeric = all(isinstance(p.value, (int, float)) for p in points)
    xs = [p.value for p in points] if numeric else list(range(len(points)))
    fig, (rates, scores, rounds) = plt.subplots(1, 3, figsize=(15, 4.5))
    for seat in summaries[0]["win_rate_by_seat"]:
        rows = [s["win_rate_by_seat"].get(seat) or {"rate": 0, "ci95": [0, 0]} for s in summaries]
        rates.errorbar(xs, [r["rate"] for r in rows], yerr=[[r["rate"] - r["ci95"][0] for r in rows],
                                                            [r["ci95"][1] - r["rate"] for r in rows]],
                       capsize=3, marker="o", label=seat)
        spread = [s["score_by_seat"].get(seat) for s in summaries]
        _band(scores, xs, spread, seat)
    rates.axhline(summaries[0]["seats"]["expected"], color="grey", linestyle=":", linewidth=1)
    rates.set_ylim(0, 1)
    rates.set_title("win rate by seat (95% interval)")
    rates.legend(fontsize="small")
    scores.set_title("score by seat (mean, p10-p90)")
    scores.legend(fontsize="small")
    _band(rounds, xs, [s["length"]["rounds"] for s in summaries], "rounds")
    rounds.set_title("rounds (mean, p10-p90)")
    for ax in (rates, scores, rounds):
        ax.set_xlabel(xlabel)
        if not numeric:
            ax.set_xticks(xs, [p.label for p in points], rotation=20, fontsize="small")
        elif len(xs) <= 15:
            ax.set_xticks(xs, [str(x) for x in xs])
    fig.suptitle(title)
    fig.tight_layout()
    figures.save(plt, fig, path)


def _band(ax, xs: list, spreads: list, label: str) -> None:
    rows = [s or {"mean": 0, "quantiles": {}} for s in spreads]
    line = ax.plot(xs, [r["mean"] for r in rows], marker="o", label=label)[0]
    ax.fill_between(xs, [r["quantiles"].get("p10", r["mean"]) for r in rows],
                    [r["quantiles"].get("p90", r["mean"]) for r in rows], color=line.get_color(), alpha=0.15)


def plot_compare(summary: dict, other: dict, paired: list[dict], path: str, title: str, variant: str) -> None:
    """One PNG for ``--compare``: win rate by seat and score by seat, base beside variant, and the
    paired differences of the win rates with their 95% intervals (flagged ones, after Holm, in red)."""
    plt = figures.pyplot()
    fig, (rates, scores, diffs) = plt.subplots(1, 3, figsize=(15, 4.5))
    seats = list(summary["win_rate_by_seat"])
    xs = range(len(seats))
    for shift, (name, s) in zip((-0.2, 0.2), (("base", summary), (variant, other))):
        rows = [s["win_rate_by_seat"].get(seat) or {"rate": 0, "ci95": [0, 0]} for seat in seats]
        rates.bar([x + shift for x in xs], [r["rate"] for r in rows], width=0.4, label=name, capsize=3,
                  yerr=[[r["rate"] - r["ci95"][0] for r in rows], [r["ci95"][1] - r["rate"] for r in rows]])
        spread = [s["score_by_seat"].get(seat) or {"mean": 0, "sd": 0} for seat in seats]
        scores.bar([x + shift for x in xs], [r["mean"] for r in spread], width=0.4, label=name, capsize=3,
                   yerr=[r["sd"] for r in spread])
    for ax, what in ((rates, "win rate by seat (95% interval)"), (scores, "score by seat (mean and sd)")):
        ax.set_xticks(list(xs), seats)
        ax.set_title(what)
        ax.legend(fontsize="small")
    rates.set_ylim(0, 1)
    rows = [r for r in paired if r["figure"].startswith("win rate") and r["ci95"]]
    for y, row in enumerate(rows):
        low, high = row["ci95"]
        diffs.errorbar([row["difference"]], [y], xerr=[[row["difference"] - low], [high - row["difference"]]],
                       fmt="o", capsize=3, color="tab:red" if row["flagged"] else "tab:blue")
    diffs.axvline(0, color="grey", linestyle=":", linewidth=1)
    diffs.set_yticks(range(len(rows)), [r["figure"] for r in rows], fontsize="small")
    diffs.set_title(f"{variant} - base, paired (red: Holm p < 0.05)")
    fig.suptitle(title)
    fig.tight_layout()
    figures.save(plt, fig, path)


