# SPDX-License-Identifier: MIT
"""``rulekit mutate``: how well a game's rule scripts guard its rules.

Single-rule mutants (:mod:`.mutants`) are planted one at a time in a scratch copy of the game
(the author's files are only read), and each is judged in a child process of its own, stopped
after ``timeout`` seconds:

- *refused*: the mutant no longer loads (``rulekit validate`` would say so: nobody can play it);
- *killed*: a rule script fails on it (a script with an ``expect``, ``legal``, ``refuse`` or
  ``sees`` step: what the script checks on the way, not a recorded game's end);
- *equivalent*: nothing anyone could see changed: every script's transcript, and a few seeded
  random games (each player count, the options offered at every decision, the end) are the same;
- *survived*: play changed and every rule script still passes: a rule no script checks;
- *timed out*: stopped at its bound (a loop the change made endless), reported, never judged.

The score is killed / (killed + survived). A survivor is reported as a diff of the author's file
at its line, with where play first differed.
"""
from __future__ import annotations

import functools
import hashlib
import json
import multiprocessing
import os
import random
import re
import shutil
import sys
import tempfile
import time

import attrs

from ..errors import RulekitError, UsageError
from ..files import write_atomic, write_text
from ..games import find_game
from ..limits import MUTANT_MAX_SECONDS as MAX_BOUND
from ..limits import MUTANT_SECONDS as MIN_BOUND
from ..source import inside
from .mutants import Mutant, mutants_of, read_text

SEEDS = (1, 2)          # the random games each mutant plays, at every player count
FATES = ("refused", "equivalent", "killed", "survived", "timed out")


@attrs.frozen
class Judged:
    """A mutant's fate, and why: the script that killed it, what differed, what refused it."""

    mutant: Mutant
    change: str             # as Mutant.change prints it
    fate: str
    why: str = ""


def plan(game: str, variants: tuple, sample: int, seed: int, survivors: str | None) -> tuple[str, list, int]:
    """(the game's folder, the mutants to try, how many there are in all): every mutant of the game
    and the variants named (all of them when none is), those an earlier run's survivors file
    lists when it exists, then ``sample`` of them drawn with ``seed``."""
    folder = os.path.abspath(find_game(game))
    known = _variant_names(folder)
    for name in variants:
        if name not in known:
            raise UsageError(f"`--variant {name}`: the game has no variant of that name (it has: "
                             f"{', '.join(known) or 'none'}); mutate takes the names of its variants/ files")
    everything = mutants_of(folder, tuple(variants) or None)
    chosen = everything
    if survivors and os.path.isfile(survivors):
        listed = {_unlined(line) for line in _survivor_lines(survivors)}
        chosen = [m for m in chosen if _unlined(m.change(read_text(folder, m.file))) in listed]
    if sample and sample < len(chosen):
        keep = sorted(random.Random(seed).sample(range(len(chosen)), sample))
        chosen = [chosen[i] for i in keep]
    return folder, chosen, len(everything)


def _variant_names(folder: str) -> list:
    from ..games import variants_of
    return variants_of(folder)


def _survivor_lines(path: str) -> list[str]:
    from ..source import read_regular
    try:
        text = read_regular(path).decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the survivors file `{path}`: {exc}") from None
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _unlined(change: str) -> str:
    """A change without its line number: scripts written since may have moved nothing, but the
    author's edits to the rules may have."""
    return re.sub(r"^([^:]+):\d+:", r"\1:", change.strip())


def write_survivors(path: str, judged: list) -> None:
    """The survivors, one change a line, for ``--survivors`` to try again once scripts are written."""
    lines = ["# rulekit mutate: the mutants no rule script noticed; `--survivors` this file tries them again"]
    lines += [j.change for j in judged if j.fate == "survived"]
    write_text(path, "\n".join(lines) + "\n")


# ------------------------------------------------------------------ judging, in a scratch copy
class Scratch:
    """A copy of the game in a folder of its own (its caches too), deleted when done. Only the
    folders and the regular files inside the game's folder are copied, as files: a link leading
    out, a pipe or a device is left behind (the game would refuse it anyway), and nothing written
    into the copy can reach the author's folder through a link."""

    def __init__(self, folder: str, within: str | None = None):
        self.root = tempfile.mkdtemp(prefix="rulekit-mutate-", dir=within)
        self.folder = os.path.join(self.root, os.path.basename(folder))
        self.cache = os.environ.get("RULEKIT_CACHE_DIR")
        os.environ["RULEKIT_CACHE_DIR"] = os.path.join(self.root, "cache")
        try:
            self._copy(folder)
        except OSError as exc:
            self.close()
            raise UsageError(f"cannot copy the game to a scratch folder: {exc}") from None

    def _copy(self, folder: str) -> None:
        for here, dirs, files in os.walk(folder):
            dirs[:] = [d for d in dirs if d != "__snapshots__" and not os.path.islink(os.path.join(here, d))]
            there = os.path.join(self.folder, os.path.relpath(here, folder))
            os.makedirs(there, exist_ok=True)
            for name in files:
                source = os.path.join(here, name)
                if os.path.isfile(source) and inside(folder, source):
                    shutil.copyfile(source, os.path.join(there, name))

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
        if self.cache is None:
            os.environ.pop("RULEKIT_CACHE_DIR", None)
        else:
            os.environ["RULEKIT_CACHE_DIR"] = self.cache


def rule_scripts(folder: str) -> tuple[list, list]:
    """(every script of the game, those that check something on the way: the rule scripts)."""
    from ..testing.snapshots import checks_something
    from ..testing.suite import scripts_in
    every = scripts_in(folder)
    return every, [s for s in every if checks_something(s)]


class Baselines(dict):
    """What the unmutated copy shows, under each variant set a mutant is played in (the game's
    own first): a rule script that fails on it stops the run, since nothing could be judged."""

    def __init__(self, folder: str, timeout: float | None):
        super().__init__()
        self.folder = folder
        self.timeout = max(600.0, 10 * (timeout or 0))      # the author's own game: ample time
        if not rule_scripts(folder)[1]:
            raise UsageError(f"`{os.path.basename(folder)}` has no rule script (a script with an `expect`, "
                             "`legal`, `refuse` or `sees` step) to judge mutants by: write one first "
                             "(docs/authoring.md, Step 11)")
        started = time.perf_counter()
        self[()]
        self.seconds = time.perf_counter() - started

    def bound(self, asked: float | None) -> float:
        """A mutant's time: ``asked``, else four times the unmutated game's trial, at least 10 s."""
        return asked if asked is not None else max(MIN_BOUND, 4 * self.seconds)

    def __missing__(self, variants: tuple) -> dict:
        seen = _bounded(_observe, (self.folder, variants), self.timeout)
        if seen is None or "scripts" not in seen:
            why = f"did not finish in {self.timeout:g} s" if seen is None else next(iter(seen.values()))
            under = "".join(f" with {v}" for v in variants)
            raise UsageError(f"the unmutated game{under} must load and pass its rule scripts first: {why}")
        self[variants] = seen
        return seen


def played_with(mutant: Mutant) -> tuple:
    """The variants a mutant is played under: its own file's, when it mutates a variant."""
    return (os.path.splitext(os.path.basename(mutant.file))[0],) if mutant.file.startswith("variants/") else ()


def judge(folder: str, mutant: Mutant, bases: Baselines, timeout: float) -> tuple[str, str]:
    """(fate, why) of one mutant: written into the scratch copy, judged in a child, put back."""
    path = os.path.join(folder, mutant.file)
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    variants = played_with(mutant)
    base = bases[variants]
    write_atomic(path, mutant.applied(text).encode("utf-8"), durable=False, follow=False)
    try:
        seen = _bounded(_observe, (folder, variants), timeout)
    finally:
        write_atomic(path, text.encode("utf-8"), durable=False, follow=False)
    if seen is None:
        return "timed out", f"stopped after {timeout:g} s"
    if "refused" in seen or "failed" in seen:
        return ("refused", seen["refused"]) if "refused" in seen else ("killed", seen["failed"])
    return ("equivalent", "") if seen == base else ("survived", _difference(seen, base))


def _difference(seen: dict, base: dict) -> str:
    if set(seen["random"]) != set(base["random"]):
        return f"the player counts differ: {_counts(base)} before, {_counts(seen)} now"
    for key, trace in seen["random"].items():
        was = base["random"][key]
        if trace != was:
            at = next((i for i, (a, b) in enumerate(zip(trace, was)) if a != b), min(len(trace), len(was)))
            if at == len(trace) - 1 == len(was) - 1:
                return f"random game {key} ends otherwise (its scores or winners), decision by decision the same"
            return f"random game {key} differs at decision {at + 1}"
    for script, digest in seen["scripts"].items():
        if base["scripts"].get(script) != digest:
            return f"{script}: its transcript changed, yet its checks pass"
    return "play differs"


def _counts(seen: dict) -> str:
    counts = sorted({int(key.split("p ")[0]) for key in seen["random"]})
    return f"{counts[0]}-{counts[-1]}" if counts else "none"


def _bounded(work, args: tuple, timeout: float):
    """``work(*args)`` in a forked child, its answer; None when it did not answer within
    ``timeout`` seconds (it is killed: a mutant that hangs is never left running). The child is tied to
    this process's life (simulate's ``_kill_with_parent``, imported here once, not in each child)."""
    from .simulate import _kill_with_parent
    context = multiprocessing.get_context("fork")
    reader, writer = context.Pipe(duplex=False)
    child = context.Process(target=_answer, args=(os.getpid(), _kill_with_parent, writer, work, args),
                            daemon=True)
    child.start()
    writer.close()
    try:
        return reader.recv() if reader.poll(timeout) else None
    except EOFError:            # the child died without answering (out of memory, a signal)
        return {"refused": "the game's process died"}
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        reader.close()


def _answer(parent: int, tie, writer, work, args) -> None:
    tie()                       # a trial never outlives the process judging it (a worker killed at Ctrl-C)
    if os.getppid() != parent:  # that process died before the kernel was told
        os._exit(1)
    try:
        answer = work(*args)
    except BaseException as exc:  # noqa: BLE001 - whatever the mutant did, the parent is told
        answer = {"refused": f"{type(exc).__name__}: {exc}"}
    writer.send(answer)
    writer.close()


def _observe(folder: str, variants: tuple) -> dict:
    """What a mutant of the game in ``folder`` shows: ``refused`` (it does not load), ``failed``
    (a rule script fails), else a digest of every script's transcript and of seeded random games
    (under ``variants``) decision by decision."""
    from ..games import load_game
    from ..testing.script import run_script
    try:
        game = load_game(folder, variants)
    except RulekitError as exc:
        return {"refused": _first_line(exc.render())}
    every, rules = rule_scripts(folder)
    scripts = {}
    for script in rules + [s for s in every if s not in rules]:
        name = os.path.relpath(script, folder)
        try:
            scripts[name] = _digest(run_script(script).transcript)
        except RulekitError as exc:
            if script in rules:
                return {"failed": f"{name}: {_first_line(exc.render())}"}
            scripts[name] = f"fails: {_first_line(str(exc))}"
    games = {f"{n}p seed {s}" + "".join(f" +{v}" for v in variants): _trace(game, n, s)
             for n in range(game.min_players, game.max_players + 1) for s in SEEDS}
    return {"scripts": scripts, "random": games}


def _trace(game, players: int, seed: int) -> list:
    """A seeded random game (as ``rulekit test`` plays it), a digest per decision: who decides,
    the options offered, the one taken; then how it ended."""
    from ..engine import api
    from ..testing.random_play import seat_agents
    trace: list = []
    try:
        state = api.new_game(game, players, seed, record=False)
        agents = seat_agents(("random",), seed, players)
        while not state.over and len(trace) < 5_000:
            index = agents[state.pending.player].choose(state)
            trace.append(_digest([api.current_players(state), state.pending.choices, index]))
            api.apply_index(state, index, atomic=False)
        trace.append(_digest([state.result]))
    except RulekitError as exc:
        trace.append(f"error: {_first_line(str(exc))}")
    return trace


def _digest(value) -> str:
    return hashlib.sha256(json.dumps(value, default=str, sort_keys=True).encode()).hexdigest()[:16]


def _first_line(text: str) -> str:
    return (text.strip().splitlines() or [""])[0][:200]


# ------------------------------------------------------------------ judging in workers
def judge_all(scratch: Scratch, chosen: list, bases: Baselines, bound: float, jobs: int = 1) -> list:
    """Each mutant's (fate, why), in ``chosen``'s order, whatever ``jobs`` is: one mutant at a time here,
    or in worker processes, each judging in a scratch copy of its own. A mutant's fate depends only on
    the mutant, the unmutated game's baselines (worked out here, once, before any worker starts) and
    the time bound, never on which worker judged it or when: the report is the same for any --jobs."""
    workers = max(1, min(jobs, len(chosen), os.cpu_count() or 1))
    if workers == 1:
        out = []
        for mutant in chosen:
            out.append(judge(scratch.folder, mutant, bases, bound))
            _progress(len(out), len(chosen))
        return out
    for variants in sorted({played_with(m) for m in chosen}):
        bases[variants]
    return _in_workers(workers, (scratch, chosen, bases, bound))


def _in_workers(workers: int, work: tuple) -> list:
    """simulate.py's pool: forked workers that ignore Ctrl-C and die with this process (even by
    SIGKILL); interrupted or failed, the workers are killed at once and the error raised here (Ctrl-C
    is exit 2, cli/entry.py). At most one worker a core: a mutant's time bound was measured on one."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from .simulate import _context, _end_workers, _signals_held
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=_start_worker,
                               initargs=(os.getpid(), work))
    out = []
    try:
        with _signals_held():       # the workers are forked at the first submission
            futures = [pool.submit(_judge_in_worker, k) for k in range(len(work[1]))]
        for future in futures:
            out.append(future.result())
            _progress(len(out), len(futures))
    except BrokenProcessPool:
        _end_workers(pool)
        raise UsageError("a worker of rulekit mutate died (out of memory?): run it again, "
                         "with fewer --jobs") from None
    except BaseException:       # Ctrl-C, SIGTERM (cli/entry.py)
        _end_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return out


_worker: dict = {}      # in a worker: its scratch copy and what it judges by (forked, never pickled)


def _start_worker(parent: int, work: tuple) -> None:
    """simulate.py's worker start, then a copy of the unmutated scratch game of this worker's own,
    inside the parent's scratch folder (so the parent deletes it, however the worker ended)."""
    from .simulate import _worker_start
    _worker_start(parent)
    scratch, chosen, bases, bound = work
    _worker.update(copy=Scratch(scratch.folder, within=scratch.root), chosen=chosen, bases=bases, bound=bound)


def _judge_in_worker(k: int) -> tuple[str, str]:
    return judge(_worker["copy"].folder, _worker["chosen"][k], _worker["bases"], _worker["bound"])


def _progress(done: int, count: int) -> None:
    if sys.stderr.isatty():
        print(f"\r{done}/{count} mutants judged", end="", file=sys.stderr, flush=True)


# ------------------------------------------------------------------ the report
def report(game: str, judged: list, total: int, texts) -> str:
    """The counts, the score, then each survivor as a diff of the author's file at its line."""
    counts = {fate: sum(j.fate == fate for j in judged) for fate in FATES}
    scored = counts["killed"] + counts["survived"]
    score = f"{100 * counts['killed'] / scored:.1f}%" if scored else "n/a (nothing killed or survived)"
    lines = [f"rulekit mutate {game}: {len(judged)} of {total} mutants: "
             + ", ".join(f"{counts[f]} {f}" for f in FATES),
             f"score {score} (killed / (killed + survived))"]
    for j in judged:
        if j.fate in ("survived", "timed out"):
            before, after = j.mutant.lines(texts(j.mutant.file))
            lines += ["", f"{j.fate}: {j.mutant.file}:{j.mutant.line} ({j.mutant.op}): {j.why}",
                      f"-{before}", f"+{after}"]
    if counts["survived"]:
        lines += ["", "each survivor is a rule no script checks: write the script that fails on it"]
    return "\n".join(lines)


def cmd_mutate(args) -> int:
    """``rulekit mutate GAME``: plant, judge, report; the author's folder is only read."""
    if args.sample is not None and args.sample < 1:
        raise UsageError("--sample must be at least 1")
    if args.timeout is not None and not 0 < args.timeout <= MAX_BOUND:      # False for NaN too
        raise UsageError(f"--timeout must be more than 0 and at most {MAX_BOUND:,.0f} seconds (a day), "
                         f"not {args.timeout:g}")
    jobs = getattr(args, "jobs", 1)
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    folder, chosen, total = plan(args.game, tuple(dict.fromkeys(args.variant)), args.sample or 0, args.seed,
                                 args.survivors)
    texts = functools.cache(lambda name: read_text(folder, name))
    scratch = Scratch(folder)
    try:
        bases = Baselines(scratch.folder, args.timeout)
        fates = judge_all(scratch, chosen, bases, bases.bound(args.timeout), jobs)
        judged = [Judged(m, m.change(texts(m.file)), fate, why) for m, (fate, why) in zip(chosen, fates)]
    finally:
        scratch.close()
        if sys.stderr.isatty():
            print("\r\033[K", end="", file=sys.stderr, flush=True)
    print(report(os.path.basename(folder), judged, total, texts))
    if args.survivors:
        write_survivors(args.survivors, judged)
        left = sum(j.fate == "survived" for j in judged)
        print(f"\nwrote {args.survivors}: {left} survivor{'' if left == 1 else 's'} "
              "(give `--survivors` it again to try only those)")
    return 0
