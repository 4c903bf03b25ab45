# SPDX-License-Identifier: MIT
"""`rulekit simulate` as the command runs it: the batches a request asks for (plain, ``--compare``d
on the same seeds, a ``--sweep``, or streamed to ``--out FILE.jsonl``), their plots, and the report
in the format asked. The parser is cli/commands/simulate.py; the games are played by simulate.py."""
from __future__ import annotations

import json
import sys

from ..errors import EXIT_OK, UsageError
from ..files import check_writable, write_text
from .progress import with_progress


def cmd_simulate(args) -> int:
    from ..agents import bot_list
    from . import balance_report
    from . import simulate as sim
    sim.check_arguments(args)       # numbers in range, an --out not overwritten unasked (exit 2)
    for path in (args.out, args.plot):
        if path:
            check_writable(path)     # before the games are played, not after
    bots = bot_list(args.bots)
    if args.sweep and (args.compare or sim.streams(args.out) or args.resume):
        raise UsageError("--sweep plays a batch a point: give it without --compare"
                         + ("" if args.compare else ", and without a batch file (--out FILE.jsonl, --resume)"))
    if sim.streams(args.out) or args.resume:
        return _simulate_streamed(args, bots)
    if args.sweep:
        return _simulate_sweep(args, bots)

    def batch(variants, label):
        return with_progress(args.games, label, lambda tick: sim.run_batch(
            args.game, tuple(variants), args.players, args.games, args.seed, bots, args.jobs, args.backend, tick,
            args.max_actions))
    records = _labelled(batch(args.variant, "games"), args.variant)
    summary = sim.summarise(records)
    extra = None
    variant_records: list = []
    if args.compare:
        variant_records = _labelled(batch(list(args.variant) + [args.compare], f"games + {args.compare}"),
                                    [*args.variant, args.compare])
        other = sim.summarise(variant_records)
        extra = {"compare": {"variant": args.compare, "variant_summary": other,
                             "difference": sim.compare(summary, other),
                             "paired": sim.paired_differences(records, variant_records)}}
    if args.plot:
        players = len(records[0]["bots"])
        title = f"{args.game}: {players} players, bots {','.join(bots)}, {summary['games']} games"
        if extra:
            from .sweep import plot_compare
            plot_compare(summary, other, extra["compare"]["paired"], args.plot, title, args.compare)
        else:
            sim.plot(summary, args.plot, title)
        print(f"wrote {args.plot}: " + (f"win rates and scores by seat, base and {args.compare}, and their paired "
                                        "differences" if extra else "win rates by bot and by seat, scores by bot")
              + f" ({summary['games']} games)",
              file=sys.stderr if not args.out and args.format != "table" else sys.stdout)
    if args.format == "json":
        if extra:
            extra["compare"]["games"] = variant_records
        text = sim.to_json(summary, records, extra)
    elif args.format == "csv":
        text = sim.to_csv(records + variant_records)
    else:
        text = balance_report.simulate_table(args, summary, extra)
    _report(args, text)
    return EXIT_OK


def _labelled(records: list[dict], variants) -> list[dict]:
    """The records with the variant each game was played under (``base``: none), for JSON and CSV."""
    label = "+".join(variants) or "base"
    for record in records:
        record["variant"] = label
    return records


def _report(args, text: str) -> None:
    if args.out:
        write_text(args.out, text + ("" if text.endswith("\n") else "\n"))
    else:
        print(text.rstrip("\n"))


def _simulate_sweep(args, bots) -> int:
    """``--sweep``: a batch a point (a parameter's value or a variant) on the same seeds, one table
    and one plot."""
    import tempfile

    from ..games import load_game
    from . import balance_report, sweep
    from . import simulate as sim
    plan = sweep.parse(args.sweep)
    with tempfile.TemporaryDirectory(prefix="rulekit-sweep-") as folder:
        points = sweep.points(load_game(args.game, tuple(args.variant)), plan, folder)
        summaries, records = [], []
        for point in points:
            variants = (*args.variant, *point.variants)
            done = with_progress(args.games, point.label, lambda tick, variants=variants: sim.run_batch(
                args.game, variants, args.players, args.games, args.seed, bots, args.jobs, args.backend, tick,
                args.max_actions))
            summaries.append(sim.summarise(done))
            if args.format != "table":
                records += _labelled(done, [*args.variant, point.label])
    what = plan.param or "variant"
    title = f"{args.game}: {args.games} games a point, bots {','.join(bots)}, seed {args.seed}"
    if args.plot:
        sweep.plot(points, summaries, args.plot, title, what)
        print(f"wrote {args.plot}: win rate, score by seat and rounds against {what} ({len(points)} points)",
              file=sys.stderr if not args.out and args.format != "table" else sys.stdout)
    if args.format == "json":
        text = json.dumps({"sweep": {"param": plan.param, "points": [
            {"label": p.label, "value": p.value, "summary": s} for p, s in zip(points, summaries)]},
            "games": records}, indent=2, sort_keys=True)
    elif args.format == "csv":
        text = sim.to_csv(records)
    else:
        text = balance_report.sweep_table(title, points, summaries, what)
    _report(args, text)
    return EXIT_OK


def _simulate_streamed(args, bots) -> int:
    """``--out FILE.jsonl``: the games go to the file as they finish, the report to standard output."""
    from . import balance_report
    from . import simulate as sim
    if not sim.streams(args.out):
        raise UsageError("--resume continues a batch file: give it with --out FILE.jsonl")
    if args.compare or args.format == "csv":
        raise UsageError(f"`--out {args.out}` holds every game of one batch: "
                         + ("run the variant of --compare into a file of its own" if args.compare
                            else "--format csv would list them again; read the file instead"))
    head, summary = with_progress(args.games, "games", lambda tick: sim.run_to_file(
        args.out, args.resume, args.game, tuple(args.variant), args.players, args.games, args.seed, bots,
        args.jobs, args.backend, tick, args.max_actions))
    if args.plot:
        sim.plot(summary, args.plot, f"{args.game}: {head['players']} players, bots {','.join(bots)}, "
                                     f"{summary['games']} games")
        print(f"wrote {args.plot}: win rates by bot and by seat, scores by bot ({summary['games']} games)",
              file=sys.stderr if args.format != "table" else sys.stdout)
    if args.format == "json":
        print(json.dumps({"summary": summary, "games_file": args.out, "batch": head}, indent=2, sort_keys=True))
    else:
        print(balance_report.simulate_table(args, summary, None))
    return EXIT_OK
