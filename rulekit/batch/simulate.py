# SPDX-License-Identifier: MIT
"""Many bot games, and what they say about a game or a variant.

Game ``i`` of a batch is seeded from the batch seed and ``i`` alone (:func:`game_seed`, 64
bits), and its bots rotate through the seats with ``i``, so a batch gives the same records
however it is spread: one process, ``--jobs J`` local processes, or a Ray cluster, in one
run or resumed. Records reach the caller chunk by chunk, in game order, as they finish
(:func:`stream_batch`); nothing here keeps a list of them all but :func:`run_batch`.
"""
from __future__ import annotations

import collections
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
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor

from ..agents import RandomAgent, action_cap, make_agent, play_out, play_out_at_random
from ..codes import NO_END
from ..engine import api, rng, watchdog
from ..engine.state import PLAYERS
from ..errors import ContentRuntimeError, UsageError
from ..limits import MAX_ACTIONS_CAP, MAX_GAMES, MAX_GAMES_HELD, MAX_JOBS, MAX_SEED
from . import balance, figures
from .balance import wilson

_GAMES: dict = {}
PIECE = 25              # games a worker plays at a time, at most
AHEAD = 4               # pieces submitted per worker ahead of the one consumed (flat memory, quick refill)


def check_arguments(args) -> None:
    """``rulekit simulate``'s command line before anything is played: its numbers (:func:`_check_numbers`)
    and an ``--out`` that is there already, replaced only with ``--overwrite`` (continued with ``--resume``)."""
    _check_numbers(args)
    if args.out and not args.resume and not args.overwrite and os.path.isfile(args.out):
        more = "--resume to play the rest of its batch, " if streams(args.out) else ""
        raise UsageError(f"`{args.out}` is there already: give {more}--overwrite to replace it, or another --out")


def _check_numbers(args) -> None:
    """Every number of the command line in its range, before any is used (a usage error, exit 2,
    saying the range): ``--games 10**19`` sized a bitmap with it."""
    streamed = streams(args.out) or args.resume
    most = MAX_GAMES if streamed else MAX_GAMES_HELD
    _within("--games", args.games, 1, most, "" if streamed else
            "; a larger batch goes to a file, one line a game: --out FILE.jsonl")
    _within("--jobs", args.jobs, 1, MAX_JOBS)
    _within("--seed", args.seed, -MAX_SEED, MAX_SEED)
    if args.max_actions is not None:
        _within("--max-actions", args.max_actions, 1, MAX_ACTIONS_CAP)
    if args.players is not None:
        _within("--players", args.players, 1, 1000)


def _within(option: str, value: int, low: int, high: int, hint: str = "") -> None:
    if not low <= value <= high:
        shown = f"{value:,}" if abs(value) < 10 ** 30 else ("-" if value < 0 else "") + "more than 10^30"
        raise UsageError(f"{option} must be from {low:,} to {high:,}, not {shown}{hint}")


def game_seed(seed: int, index: int) -> int:
    """Game ``index``'s seed: the first 8 bytes (little-endian) of SHA-256 of ``"{seed}:game{index}"``
    (docs/cli.md). 64 bits: a million games repeat no seed (31 bits repeated some 250)."""
    return rng.stream_seed(seed, f"game{index}")


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
    """One full bot game of the game ``game_ref`` names; a JSON-ready record of it."""
    return play_game(_load(game_ref, variants), players, seed, bots, index, cap)


def play_game(game, players: int | None, seed: int, bots: list[str], index: int, cap: int | None = None) -> dict:
    """One full bot game; a JSON-ready record of it. A game still running after ``cap``
    actions is recorded as stalled (with no scores nor winners) rather than stopping the
    batch: bots that stall a game are one of the things a batch measures."""
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
        if exc.code != NO_END:
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
    records: list[dict] = []

    def keep(done: list[dict]) -> None:
        records.extend(done)
        if progress:
            progress(len(done))
    stream_batch(game_ref, variants, players, range(games), seed, bots, jobs, backend, keep, max_actions)
    records.sort(key=lambda r: r["index"])
    if records and all(r.get("stalled") for r in records):
        raise all_stalled(_load(game_ref, tuple(variants)), records[0]["error"])
    return records


def streams(path: str | None) -> bool:
    """Whether ``--out`` names a batch file, written as games finish (``.jsonl``), not a report."""
    return bool(path) and path.lower().endswith(".jsonl")


def run_to_file(path: str, resume: bool, game_ref: str, variants=(), players=None, games: int = 100,
                seed: int = 0, bots=("random",), jobs: int = 1, backend: str = "local", progress=None,
                max_actions: int | None = None) -> tuple[dict, dict]:
    """Play a batch into the batch file ``path`` (docs/cli.md), one line a game as it finishes;
    ``resume`` plays only the games the file lacks. Returns (its header, its summary), read back
    from the file. Interrupted, the file keeps every game that reached this process and a line
    on standard error says so."""
    from . import batch_io
    variants = tuple(variants)
    game = _load(game_ref, variants)
    n = game.default_players if players is None else players
    api.new_game(game, n, 0, record=False)      # a player count the game does not take: before any file
    head = batch_io.header(game, variants, n, seed, list(bots), batch_cap(game, n, max_actions))
    with batch_io.locked(path):
        return head, _write_batch(path, resume, head, game_ref, variants, n, games, seed, bots, jobs, backend,
                                  progress, max_actions)


def _write_batch(path: str, resume: bool, head: dict, game_ref: str, variants: tuple, n: int, games: int,
                 seed: int, bots, jobs: int, backend: str, progress, max_actions) -> dict:
    """run_to_file's work while it holds the batch's lock: the games the file lacks, then its summary."""
    from . import batch_io
    game = _load(game_ref, variants)
    if resume:
        held = batch_io.resume(path, head, games, lambda r: _foreign(r, seed, list(bots), n))
    else:
        batch_io.start(path, head)
        held = batch_io.Held(games)
    out = batch_io.Appender(path)

    def write(done: list[dict]) -> None:
        out(done)
        if progress:
            progress(len(done))
    try:
        stream_batch(game_ref, variants, n, held.missing(), seed, bots, jobs, backend, write, max_actions,
                     count=games - held.count)
    except KeyboardInterrupt:
        out.close()
        print(f"{path} keeps {held.count + out.written} of {games} games; the same command with --resume "
              "plays the rest", file=sys.stderr)
        raise
    finally:
        out.close()
    summary = summarise(batch_io.records(path, games))
    if summary["games"] and summary["stalled"] == summary["games"]:
        first = next(r for r in batch_io.records(path, games) if r.get("stalled"))
        raise all_stalled(game, first.get("error", "stalled"))
    return summary


def _foreign(record: dict, seed: int, bots: list[str], players: int) -> str | None:
    """Why a record read from a batch file is not one of this batch's games, if it is not."""
    from .batch_io import record_problem
    index = record["index"]
    if record.get("seed") != game_seed(seed, index):
        return f"seed {str(record.get('seed'))[:40]}, not this batch's {game_seed(seed, index)}"
    if record.get("bots") != seat_bots(bots, players, index):
        return "other bots in the seats"
    shape = record_problem(record, players)
    if shape:
        return shape
    missing = [key for key in ("scores", "winners", "rounds", "decisions", "actions") if key not in record]
    if missing or not isinstance(record["actions"], dict) or not isinstance(record["scores"], list):
        return "not a whole game record" + (f" (no {', '.join(missing)})" if missing else "")
    return None


def all_stalled(game, message: str) -> ContentRuntimeError:
    """The error of a batch whose every game stalled: nothing to report but the first one's RK4012."""
    return ContentRuntimeError(message, game.source_map.span(("flow",), key=True), NO_END)


def batch_cap(game, players: int | None, max_actions: int | None) -> int:
    """The action cap of every game of a batch (part of what a resumed batch must share). Its probe
    games go on past a content error, but one stopped by the step watchdog ends the command with its
    error, at once, rather than each probe and then each game paying the bound again."""
    if max_actions:
        return max_actions
    with watchdog.first_stop_ends() as fired:
        cap = action_cap(game, game.default_players if players is None else players)
    if fired() is not None:
        raise fired()
    return cap


def stream_batch(game_ref: str, variants, players, indices: Iterable[int], seed: int, bots,
                 jobs: int, backend: str, emit: Callable[[list[dict]], None],
                 max_actions: int | None = None, count: int | None = None) -> None:
    """Play the games ``indices`` (ascending), handing their records to ``emit`` a few at a time,
    in game order, as they finish. Interrupted (Ctrl-C, SIGTERM) or failed, the records that have
    reached this process are emitted (some perhaps out of order) before the exception goes on, and
    the games in play are dropped. ``count``: how many ``indices`` there are, if it is not ``len``."""
    variants = tuple(variants)
    bots = list(bots)
    for spec in bots:
        make_agent(spec, 0)  # a bad bot name is a usage error before any work
    game = _load(game_ref, variants)
    head = (game_ref, variants, players, seed, bots, batch_cap(game, players, max_actions))
    count = len(indices) if count is None else count
    if backend == "ray":
        _run_ray(game, head, indices, count, emit, jobs)
    elif local_workers(jobs, count) <= 1:
        _run_here(game, head, indices, emit)
    else:
        workers = local_workers(jobs, count)
        _run_local(head, _pieces(indices, _piece_size(count, workers)), workers, emit)


def _run_here(game, head: tuple, indices: Iterable[int], emit) -> None:
    """The batch in this process, emitted every :data:`PIECE` games (and whatever is done when stopped)."""
    _ref, _variants, players, seed, bots, cap = head
    done: list[dict] = []
    try:
        for index in indices:
            done.append(play_game(game, players, seed, bots, index, cap))
            if len(done) >= PIECE:
                emit(done)
                done = []
    finally:
        if done:
            emit(done)


def local_workers(jobs: int, games: int) -> int:
    """The local processes for ``--jobs``: no more than the games, nor than twice the cores
    (``--jobs 1000`` would fork a thousand processes for no gain; records do not depend on it)."""
    return max(1, min(jobs, games, 2 * (os.cpu_count() or 1)))


def _piece_size(games: int, workers: int) -> int:
    """About four pieces a worker, at most :data:`PIECE` games a piece, so progress shows and the
    last pieces finish together."""
    return max(1, min(PIECE, games // max(1, workers * 4)))


def _pieces(indices: Iterable[int], size: int) -> Iterator[list[int]]:
    piece: list[int] = []
    for index in indices:
        piece.append(index)
        if len(piece) == size:
            yield piece
            piece = []
    if piece:
        yield piece


def _run_local(head: tuple, pieces: Iterator[list[int]], workers: int, emit) -> None:
    """The batch in ``workers`` local processes that die with this one, even by SIGKILL (they would
    otherwise sleep forever holding the caller's pipes). At most :data:`AHEAD` pieces a worker are
    submitted ahead of the one consumed, in order, so memory stays flat however long the batch.
    Interrupted or failed, it emits what has finished and ends the workers at once rather than
    letting them finish the pieces they are playing."""
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=_worker_start,
                               initargs=(os.getpid(),))
    pending: collections.deque = collections.deque()

    def refill() -> None:
        while len(pending) < workers * AHEAD:
            piece = next(pieces, None)
            if piece is None:
                return
            pending.append(pool.submit(_chunk, (*head, piece)))
    try:
        with _signals_held():       # the workers are forked at the first submission
            refill()
        while pending:
            emit(pending.popleft().result())
            refill()
    except BaseException:       # Ctrl-C, SIGTERM (cli/entry.py) or a game's error
        try:
            for future in pending:
                if future.done() and not future.cancelled() and future.exception() is None:
                    emit(future.result())
        finally:
            _end_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
def _run_ray(game, head: tuple, indices: Iterable[int], count: int, emit, jobs: int) -> None:
    """The batch as Ray tasks, in pieces for the cluster's CPUs, the game shipped as its content's
    bytes (put once in the object store), so that a node needs rulekit but not the game's folder."""
    from . import ray_driver
    from .game_bundle import GameBundle
    game_ref, variants, players, seed, bots, cap = head
    bundle = GameBundle.of(game_ref, variants, game)
    with watchdog.paused(), ray_driver.connected(jobs) as ray:     # content runs on the workers, not here
        cpus = ray_driver.cpus(ray)
        shipped = ray.put(bundle)
        tasks = ((shipped, players, seed, bots, cap, piece) for piece in _pieces(indices, _piece_size(count, cpus)))
        ray_driver.drive(ray, ray.remote(_shipped_chunk), tasks, emit, ray_driver.window(cpus))


def _shipped_chunk(bundle, players, seed, bots, cap, indices) -> list[dict]:
    """A piece of a batch on a Ray worker, played on the game built from its shipped content."""
    armed = watchdog.arm()      # a Ray worker's step is bounded as a local one (its main thread only)
    try:
        with bundle.errors_shown():
            game = bundle.game()
            return [play_game(game, players, seed, bots, i, cap) for i in indices]
    finally:
        if armed:
            watchdog.disarm()


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
    watchdog.arm()          # a fork keeps the parent's handler but not its timer: one step is bounded here too
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



# ------------------------------------------------------------------ figures
def summarise(records: Iterable[dict]) -> dict:
    """The batch's figures, in one pass over ``records`` in any order (a streamed batch is
    summarised as its file is read back). Stalled games count in ``games``, ``stalled`` and
    the action shares, but in no win rate, score or length: they have no result."""
    tally = Tally()
    for record in records:
        tally.add(record)
    return tally.summary()


class Moments:
    """Count, sum, sum of squares, min and max of numbers seen one at a time: exact for whole
    numbers (scores, lengths), whatever their order."""

    def __init__(self):
        self.n, self.total, self.squares, self.low, self.high = 0, 0, 0, None, None

    def add(self, value) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value
        self.low = value if self.low is None or value < self.low else self.low
        self.high = value if self.high is None or value > self.high else self.high

    def stats(self) -> dict:
        if not self.n:
            return {"mean": 0, "sd": 0, "min": 0, "max": 0}
        spread = max(0, self.n * self.squares - self.total * self.total)
        return {"mean": round(self.total / self.n, 2), "sd": round(math.sqrt(spread) / self.n, 2),
                "min": self.low, "max": self.high}


class Tally:
    """A batch's figures gathered record by record, in memory that does not grow with the games.
    A win shared by m winners counts 1/m, kept as whole counts by m so that the order of the
    records changes nothing."""

    def __init__(self):
        self.games = self.finished = self.discarded = 0
        self.seats: dict[int, list] = {}        # seat -> [{m: wins shared by m}, games]
        self.bots: dict[str, list] = {}
        self.scores: dict[str, Moments] = {}
        self.rounds, self.decisions = Moments(), Moments()
        self.actions: dict[str, int] = {}
        self.balance = balance.Balance()

    def add(self, r: dict) -> None:
        self.games += 1
        self.discarded += r.get("discarded_worlds", 0)
        for verb, count in r["actions"].items():
            self.actions[verb] = self.actions.get(verb, 0) + count
        if r.get("stalled"):
            return
        self.finished += 1
        shared = len(r["winners"])
        for k, spec in enumerate(r["bots"]):
            won = k in r["winners"]
            for row in (self.seats.setdefault(k, [{}, 0]), self.bots.setdefault(spec, [{}, 0])):
                if won:
                    row[0][shared] = row[0].get(shared, 0) + 1
                row[1] += 1
            self.scores.setdefault(spec, Moments()).add(r["scores"][k])
        self.rounds.add(r["rounds"])
        self.decisions.add(r["decisions"])
        self.balance.add(r)

    def summary(self) -> dict:
        total_actions = sum(self.actions.values()) or 1

        def rate(row):
            return _rate(sum(count / shared for shared, count in sorted(row[0].items())), row[1])
        return {
            "games": self.games,
            "stalled": self.games - self.finished,
            "win_rate_by_seat": {str(PLAYERS[k]): rate(v) for k, v in sorted(self.seats.items())},
            "win_rate_by_bot": {b: rate(v) for b, v in sorted(self.bots.items())},
            "score_by_bot": {b: v.stats() for b, v in sorted(self.scores.items())},
            "rounds": self.rounds.stats(),
            "decisions": self.decisions.stats(),
            "action_share": {v: round(c / total_actions, 4)
                             for v, c in sorted(self.actions.items(), key=lambda kv: (-kv[1], kv[0]))},
            "discarded_worlds": self.discarded,
            **self.balance.summary([str(PLAYERS[k]) for k in sorted(self.seats)], self.finished,
                                   [self.wins(k) for k in sorted(self.seats)]),
        }

    def wins(self, seat: int) -> float:
        """The seat's wins, a win shared by m counting 1/m (summed in the same order whatever the records')."""
        return sum(count / shared for shared, count in sorted(self.seats[seat][0].items()))


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


def paired_differences(base: list[dict], variant: list[dict]) -> list[dict]:
    """Variant - base for each figure, paired game by game (same seed, same seats): the mean
    difference, its 95% interval and p (paired t-test), Holm-adjusted over the figures
    (:func:`rulekit.batch.balance.paired`)."""
    pairs = [(_per_game(b), _per_game(v)) for b, v in zip(base, variant)
             if not b.get("stalled") and not v.get("stalled")]    # a stalled game has no figures to pair
    return balance.paired(list(pairs[0][0]) if pairs else [], pairs)


def to_csv(records: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    width = max(len(r["bots"]) for r in records) if records else 0
    writer.writerow(["game", "seed", "rounds", "decisions", "winners"]
                    + [f"bot_p{k + 1}" for k in range(width)] + [f"score_p{k + 1}" for k in range(width)]
                    + ["discarded_worlds", "stalled", "variant"])
    for r in records:
        scores = r["scores"] or [""] * len(r["bots"])      # a stalled game has no scores
        writer.writerow([r["index"], r["seed"], r["rounds"], r["decisions"],
                         " ".join(f"p{w + 1}" for w in r["winners"])] + r["bots"] + scores
                        + [r.get("discarded_worlds", 0), int(bool(r.get("stalled"))), r.get("variant", "base")])
    return out.getvalue()


def to_json(summary: dict, records: list[dict], extra: dict | None = None) -> str:
    data = {"summary": summary, "games": records}
    if extra:
        data.update(extra)
    return json.dumps(data, indent=2, sort_keys=True)


def plot(summary: dict, path: str, title: str | None = None) -> None:
    """Win rates by bot and by seat (with their 95% intervals) and scores by bot, as one PNG."""
    plt = figures.pyplot()

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
    figures.save(plt, fig, path)
