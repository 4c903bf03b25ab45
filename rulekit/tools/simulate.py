# SPDX-License-Identifier: MIT
"""Many bot games, and what they say about a game or a variant.

Game ``i`` of a batch is seeded from the batch seed and ``i`` alone, and its bots
rotate through the seats with ``i``, so a batch gives the same records however it
is spread: one process, ``--jobs J`` local processes, or a Ray cluster. Records are
sorted by game index before any figure is computed.
"""
from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import multiprocessing
import os
import signal
import sys
import threading
import warnings
from concurrent.futures import ProcessPoolExecutor

from ..agents import RandomAgent, action_cap, make_agent, play_out, play_out_at_random
from ..engine import api, rng
from ..engine.state import PLAYERS
from ..errors import ContentRuntimeError, UsageError
from ..files import write_bytes

_GAMES: dict = {}
STALLED = "RK4012"      # the code of a game stopped at its action cap (agents.stalled)


def game_seed(seed: int, index: int) -> int:
    return rng.stream_seed(seed, f"game{index}") % (2 ** 31)


def seat_bots(bots: list[str], n: int, index: int) -> list[str]:
    if len(bots) == 1:
        return [bots[0]] * n
    return [bots[(k + index) % len(bots)] for k in range(n)]


def _load(game_ref: str, variants: tuple):
    key = (game_ref, variants)
    if key not in _GAMES:
        from ..games import load_game
        _GAMES[key] = load_game(game_ref, variants)
    return _GAMES[key]


def play_one(game_ref: str, variants: tuple, players: int | None, seed: int, bots: list[str], index: int,
             cap: int | None = None) -> dict:
    """One full bot game; a JSON-ready record of it. A game still running after ``cap``
    actions is recorded as stalled (with no scores nor winners) rather than stopping the
    batch: bots that stall a game are one of the things a batch measures."""
    game = _load(game_ref, variants)
    s_seed = game_seed(seed, index)
    state = api.new_game(game, players, s_seed, record=False)
    seats = seat_bots(bots, state.n, index)
    agents = [make_agent(spec, s_seed * 31 + k) for k, spec in enumerate(seats)]
    verbs: dict[str, int] = {}

    def count_verb(state, _who, index):
        verb = state.pending.verb(index)
        verbs[verb] = verbs.get(verb, 0) + 1
    record = {"index": index, "seed": s_seed, "bots": seats}
    try:
        if all(agent.__class__ is RandomAgent for agent in agents):     # the same game, quicker
            play_out_at_random(state, agents, verbs, cap or action_cap(game, state.n))
        else:
            play_out(state, agents, count_verb, cap or action_cap(game, state.n))
    except ContentRuntimeError as exc:
        if exc.code != STALLED:
            raise
        record.update(stalled=True, scores=[], winners=[], error=str(exc))
    else:
        result = state.result
        record.update(stalled=False, scores=[result["scores"][str(PLAYERS[k])]["total"] for k in range(state.n)],
                      winners=[int(w[1:]) - 1 for w in result["winners"]])
    record.update(rounds=state.g.get("round"), decisions=len(state.actions), actions=verbs,
                  discarded_worlds=sum(getattr(agent, "discarded", 0) for agent in agents))
    return record


def _chunk(args) -> list[dict]:
    game_ref, variants, players, seed, bots, cap, indices = args
    return [play_one(game_ref, variants, players, seed, bots, i, cap) for i in indices]


def run_batch(game_ref: str, variants=(), players=None, games: int = 100, seed: int = 0,
              bots=("random",), jobs: int = 1, backend: str = "local", progress=None,
              max_actions: int | None = None) -> list[dict]:
    """Play ``games`` games; returns their records in game order. A game past ``max_actions``
    actions (default: ``agents.action_cap``) is recorded as stalled; when every game stalls
    there is nothing to report, and the first one's RK4012 is raised."""
    variants = tuple(variants)
    bots = list(bots)
    for spec in bots:
        make_agent(spec, 0)  # a bad bot name is a usage error before any work
    game = _load(game_ref, variants)
    cap = max_actions or action_cap(game, game.default_players if players is None else players)
    head = (game_ref, variants, players, seed, bots, cap)
    records: list[dict] = []
    if backend == "ray":
        records = _run_ray(head, games, progress, jobs)
    elif local_workers(jobs, games) <= 1:
        for chunk in _split(head, games, 1):
            done = _chunk(chunk)
            records.extend(done)
            if progress:
                progress(len(done))
    else:
        records = _run_local(head, games, local_workers(jobs, games), progress)
    records.sort(key=lambda r: r["index"])
    if records and all(r.get("stalled") for r in records):
        raise ContentRuntimeError(records[0]["error"], game.source_map.span(("flow",), key=True), STALLED)
    return records


def local_workers(jobs: int, games: int) -> int:
    """The local processes for ``--jobs``: no more than the games, nor than twice the cores
    (``--jobs 1000`` would fork a thousand processes for no gain; records do not depend on it)."""
    return max(1, min(jobs, games, 2 * (os.cpu_count() or 1)))


def _run_local(head: tuple, games: int, workers: int, progress) -> list[dict]:
    """The batch in ``workers`` local processes that die with this one, even by SIGKILL (they would
    otherwise sleep forever holding the caller's pipes). Interrupted or failed, it ends the workers at
    once rather than letting them finish the pieces they are playing."""
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=_worker_start,
                               initargs=(os.getpid(),))
    records: list[dict] = []
    try:
        with _signals_held():
            futures = [pool.submit(_chunk, chunk) for chunk in _split(head, games, workers)]
        for future in futures:
            done = future.result()
            records.extend(done)
            if progress:
                progress(len(done))
    except BaseException:       # Ctrl-C, SIGTERM (tools/entry.py) or a game's error
        _end_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return records


@contextlib.contextmanager
def _signals_held():
    """Ctrl-C or SIGTERM while the workers are forked is handled just after: raised inside Python's
    at-fork hooks, a KeyboardInterrupt would be printed and lost, and a lock left held."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    saved = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    saved = {number: handler for number, handler in saved.items() if handler is not None}   # None: not Python's
    for number in saved:
        signal.signal(number, lambda number, _frame: came.append(number))
    try:
        yield
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)
        for number in came[:1]:
            signal.raise_signal(number)


def _context():
    """Fork where the kernel can tie a worker's life to its parent's (Linux), else spawn: either
    way this process is the workers' parent (a fork server would be instead)."""
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")


def _worker_start(parent: int) -> None:
    """In each worker: Ctrl-C reaches the whole process group, but it is the parent that ends
    its workers; and a worker ends when its parent does, however the parent ended."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if not _kill_with_parent():
        threading.Thread(target=_end_with_parent, name="rulekit-parent-watch", daemon=True).start()
    if os.getppid() != parent:      # the parent died before the kernel was told
        os._exit(1)


def _kill_with_parent() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies (prctl PR_SET_PDEATHSIG); False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) == 0     # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return False


def _end_with_parent() -> None:
    """The portable way: wait on the parent's sentinel (a pipe that reaches its end, or a process
    handle, when the parent is gone) and end this worker then."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        parent.join()
        os._exit(1)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers now (Python 3.14 has ``kill_workers``; earlier, its process table)."""
    kill = getattr(pool, "kill_workers", None)
    if kill is not None:
        kill()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            process.kill()
        except (OSError, ValueError):       # already gone or already closed
            pass


def _split(head: tuple, games: int, workers: int) -> list:
    """The batch in pieces for ``workers`` workers: about four pieces each, at most 25 games
    a piece, so progress shows and the last pieces finish together."""
    size = max(1, min(25, games // max(1, workers * 4)))
    return [(*head, list(range(k, min(k + size, games)))) for k in range(0, games, size)]


def _run_ray(head: tuple, games: int, progress, jobs: int = 1) -> list[dict]:
    """The batch as Ray tasks, split for the cluster's CPUs; records in game order.

    Uses the Ray instance this process is already connected to, if any; else connects
    to the cluster at ``RAY_ADDRESS`` when it is set; else starts a private local
    instance with ``jobs`` CPUs (every core when ``jobs`` is 1). A connection or
    instance made here is shut down again when the batch is done."""
    try:
        with warnings.catch_warnings():     # Ray's own deprecation notices are not part of a report
            warnings.simplefilter("ignore")
            import ray
            import ray.exceptions
    except ImportError:
        raise UsageError("the Ray backend needs Ray: pip install 'rulekit[ray]'") from None
    started = not ray.is_initialized()
    if started:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _ray_init(ray, jobs)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        remote = ray.remote(_chunk)
        refs = [remote.remote(_portable(chunk)) for chunk in _split(head, games, cpus)]
        position = {ref: k for k, ref in enumerate(refs)}
        results: list = [None] * len(refs)
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            try:
                done = ray.get(ready[0])
            except ray.exceptions.RayTaskError as exc:
                cause = getattr(exc, "cause", None)
                if isinstance(cause, BaseException):
                    raise _as_local(cause) from None  # the same error a local run gives
                raise
            except ray.exceptions.RayError as exc:
                raise UsageError(f"the Ray cluster failed while playing the batch: {_first_line(exc)}") from None
            results[position[ready[0]]] = done
            if progress:
                progress(len(done))
    finally:
        if started:
            ray.shutdown()
    return [record for done in results for record in done]


def _ray_init(ray, jobs: int) -> None:
    import logging
    address = os.environ.get("RAY_ADDRESS") or None
    if address is None:
        options = {"address": "local", "num_cpus": jobs if jobs > 1 else (os.cpu_count() or 1),
                   "include_dashboard": False}
        where = "a local Ray instance"
    else:
        _check_reachable(address)
        options = {"address": address}
        where = f"the Ray cluster at `{address}` (RAY_ADDRESS)"
    try:
        ray.init(log_to_driver=False, logging_level=logging.ERROR, **options)
    except ImportError as exc:  # ray:// addresses need the Ray Client extra
        raise UsageError(f"cannot connect to {where}: {exc}; pip install 'ray[client]' for ray:// addresses") from None
    except Exception as exc:  # noqa: BLE001 - Ray raises ConnectionError, RuntimeError, ValueError...
        if ray.is_initialized():
            ray.shutdown()
        raise UsageError(f"cannot start or reach {where}: {_first_line(exc)}") from None


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a cluster address nothing listens on (Ray itself retries for minutes)."""
    import socket
    if address in ("auto", "local"):
        return
    scheme, _, rest = address.rpartition("://")
    host, sep, port = rest.rpartition(":")
    if not sep:
        host, port = rest, ("10001" if scheme == "ray" else "6379")
    host = host.strip("[]")
    try:
        number = int(port)
    except ValueError:
        raise UsageError(f"RAY_ADDRESS `{address}` is not HOST:PORT") from None
    try:
        socket.create_connection((host, number), timeout=timeout).close()
    except OSError as exc:
        raise UsageError(f"cannot reach the Ray cluster at `{address}` (RAY_ADDRESS): {exc.strerror or exc}; "
                         "is it running (`ray start --head`)?") from None


def _portable(chunk):
    """A chunk whose game reference works from any worker: a folder becomes an absolute path."""
    from ..games import ROOT_FILE
    game_ref, *rest = chunk
    if os.path.isfile(os.path.join(game_ref, ROOT_FILE)) or (
            os.path.isfile(game_ref) and os.path.basename(game_ref) == ROOT_FILE):
        game_ref = os.path.abspath(game_ref)
    return (game_ref, *rest)


def _as_local(exc: BaseException) -> BaseException:
    """A worker's error with its source path shown as a local run shows it (relative
    to the current folder when inside it), since the worker was given an absolute one."""
    span = getattr(exc, "span", None)
    if span is not None and os.path.isabs(getattr(span, "path", "")):
        import attrs

        from ..source import display_path
        exc.span = attrs.evolve(span, path=display_path(span.path))
    return exc


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# ------------------------------------------------------------------ figures
def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float, float]:
    """Win rate with its 95% Wilson interval."""
    if n == 0:
        return 0.0, 0.0, 0.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, max(0.0, centre - half), min(1.0, centre + half)


def summarise(records: list[dict]) -> dict:
    """The batch's figures. Stalled games count in ``games``, ``stalled`` and the action
    shares, but in no win rate, score or length: they have no result."""
    n_games = len(records)
    finished = [r for r in records if not r.get("stalled")]
    seats: dict[int, list] = {}
    bots: dict[str, list] = {}
    scores: dict[str, list] = {}
    for r in finished:
        share = 1 / len(r["winners"])
        for k, spec in enumerate(r["bots"]):
            won = share if k in r["winners"] else 0.0
            seats.setdefault(k, [0.0, 0])
            seats[k][0] += won
            seats[k][1] += 1
            bots.setdefault(spec, [0.0, 0])
            bots[spec][0] += won
            bots[spec][1] += 1
            scores.setdefault(spec, []).append(r["scores"][k])
    actions: dict[str, int] = {}
    for r in records:
        for verb, count in r["actions"].items():
            actions[verb] = actions.get(verb, 0) + count
    total_actions = sum(actions.values()) or 1

    def stats(values):
        if not values:
            return {"mean": 0, "sd": 0, "min": 0, "max": 0}
        mean = sum(values) / len(values)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
        return {"mean": round(mean, 2), "sd": round(sd, 2), "min": min(values), "max": max(values)}
    return {
        "games": n_games,
        "stalled": n_games - len(finished),
        "win_rate_by_seat": {str(PLAYERS[k]): _rate(*v) for k, v in sorted(seats.items())},
        "win_rate_by_bot": {b: _rate(*v) for b, v in sorted(bots.items())},
        "score_by_bot": {b: stats(v) for b, v in sorted(scores.items())},
        "rounds": stats([r["rounds"] for r in finished]),
        "decisions": stats([r["decisions"] for r in finished]),
        "action_share": {v: round(c / total_actions, 4) for v, c in sorted(actions.items(), key=lambda kv: -kv[1])},
        "discarded_worlds": sum(r.get("discarded_worlds", 0) for r in records),
    }


def _rate(wins, n):
    p, low, high = wilson(wins, n)
    return {"rate": round(p, 4), "ci95": [round(low, 4), round(high, 4)], "games": n}


def compare(base: dict, variant: dict) -> dict:
    """Differences variant - base on the same seeds."""
    out = {"win_rate_by_seat": {}, "score_by_bot": {}, "rounds": None, "decisions": None}
    for seat, row in variant["win_rate_by_seat"].items():
        out["win_rate_by_seat"][seat] = round(row["rate"] - base["win_rate_by_seat"].get(seat, {"rate": 0})["rate"], 4)
    for bot, row in variant["score_by_bot"].items():
        out["score_by_bot"][bot] = round(row["mean"] - base["score_by_bot"].get(bot, {"mean": 0})["mean"], 2)
    out["rounds"] = round(variant["rounds"]["mean"] - base["rounds"]["mean"], 2)
    out["decisions"] = round(variant["decisions"]["mean"] - base["decisions"]["mean"], 2)
    return out


def _per_game(record: dict) -> dict:
    """The figures of one game that a comparison pairs: wins by seat and bot, scores by bot, length."""
    share = 1 / len(record["winners"])
    out: dict = {}
    by_bot: dict = {}
    for k, spec in enumerate(record["bots"]):
        won = share if k in record["winners"] else 0.0
        out[f"win rate {PLAYERS[k]}"] = won
        by_bot.setdefault(spec, []).append((won, record["scores"][k]))
    for spec, rows in sorted(by_bot.items()):
        out[f"win rate {spec}"] = sum(w for w, _s in rows) / len(rows)
    for spec, rows in sorted(by_bot.items()):
        out[f"score {spec}"] = sum(sc for _w, sc in rows) / len(rows)
    out["rounds"] = record["rounds"]
    out["decisions"] = record["decisions"]
    return out


def paired_differences(base: list[dict], variant: list[dict], z: float = 1.96) -> list[dict]:
    """Variant - base for each figure, paired game by game (same seed, same seats): the mean
    difference with its 95% interval (normal approximation) and whether that excludes 0."""
    pairs = [(_per_game(b), _per_game(v)) for b, v in zip(base, variant)
             if not b.get("stalled") and not v.get("stalled")]    # a stalled game has no figures to pair
    names = list(pairs[0][0]) if pairs else []
    rows = []
    for name in names:
        diffs = [v[name] - b[name] for b, v in pairs if name in b and name in v]
        n = len(diffs)
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
        half = z * sd / math.sqrt(n) if n > 1 else math.inf
        low, high = mean - half, mean + half
        rows.append({"figure": name, "base": round(sum(b[name] for b, _v in pairs) / len(pairs), 4),
                     "variant": round(sum(v[name] for _b, v in pairs) / len(pairs), 4),
                     "difference": round(mean, 4),
                     "ci95": [round(low, 4), round(high, 4)] if n > 1 else None,
                     "significant": n > 1 and (low > 0 or high < 0)})
    return rows


def to_csv(records: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    width = max(len(r["bots"]) for r in records) if records else 0
    writer.writerow(["game", "seed", "rounds", "decisions", "winners"]
                    + [f"bot_p{k + 1}" for k in range(width)] + [f"score_p{k + 1}" for k in range(width)]
                    + ["discarded_worlds", "stalled"])
    for r in records:
        scores = r["scores"] or [""] * len(r["bots"])      # a stalled game has no scores
        writer.writerow([r["index"], r["seed"], r["rounds"], r["decisions"],
                         " ".join(f"p{w + 1}" for w in r["winners"])] + r["bots"] + scores
                        + [r.get("discarded_worlds", 0), int(bool(r.get("stalled")))])
    return out.getvalue()


def to_json(summary: dict, records: list[dict], extra: dict | None = None) -> str:
    data = {"summary": summary, "games": records}
    if extra:
        data.update(extra)
    return json.dumps(data, indent=2, sort_keys=True)


def plot(summary: dict, path: str, title: str | None = None) -> None:
    """Win rates by bot and by seat (with their 95% intervals) and scores by bot, as one PNG."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'rulekit[plot]'") from None

    def rates(ax, table: dict, title: str) -> None:
        ax.bar(list(table), [row["rate"] for row in table.values()],
               yerr=[[row["rate"] - row["ci95"][0] for row in table.values()],
                     [row["ci95"][1] - row["rate"] for row in table.values()]], capsize=4)
        ax.set_ylim(0, 1)
        ax.set_title(title)

    fig, (by_bot, by_seat, scores) = plt.subplots(1, 3, figsize=(14, 4))
    rates(by_bot, summary["win_rate_by_bot"], "win rate by bot (95% interval)")
    rates(by_seat, summary["win_rate_by_seat"], "win rate by seat (95% interval)")
    bots = summary["score_by_bot"]
    scores.bar(list(bots), [row["mean"] for row in bots.values()], yerr=[row["sd"] for row in bots.values()],
               capsize=4)
    scores.set_title("score by bot (mean and sd)")
    fig.suptitle(title or f"{summary['games']} games")
    fig.tight_layout()
    picture = io.BytesIO()
    try:
        fig.savefig(picture, format="png")
    finally:
        plt.close(fig)
    write_bytes(path, picture.getvalue())
