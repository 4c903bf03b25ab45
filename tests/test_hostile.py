# SPDX-License-Identifier: MIT
"""Hostile and careless input: planted or altered cache files, interrupted writes, cut or
foreign logs, very long games. Each case ends in a clear error or in the right game,
and nothing the user had is lost (issue 14)."""
from __future__ import annotations

import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rulekit
from rulekit.agents import RandomAgent
from rulekit.dsl import parse_cache
from rulekit.engine import api
from rulekit.errors import ContentRuntimeError

from conftest import STALLS

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"


def rulekit_cli(*args, env=None, timeout=300) -> subprocess.CompletedProcess:
    """`python -m rulekit args...` in a new process (nothing cached in memory)."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("RULEKIT_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "rulekit", *map(str, args)], capture_output=True, text=True,
                          env=env, timeout=timeout)


# ------------------------------------------------------------------ caches
class _Opens:
    """Unpickling this creates the probe file (what a planted pickle would do)."""

    def __init__(self, probe):
        self.probe = str(probe)

    def __reduce__(self):
        return (open, (self.probe, "w"))


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(folder))
    parse_cache.forget()
    yield folder
    parse_cache.forget()


def _scores(game, seed=3):
    """The scores of one seeded random game (or the content error it ends in)."""
    try:
        s = api.new_game(game, 3, seed, record=False)
        bot = RandomAgent(seed)
        while not s.over:
            api.apply_index(s, bot.choose(s), atomic=False)
    except ContentRuntimeError as exc:
        return str(exc)
    return {p: row["total"] for p, row in s.result["scores"].items()}


def test_a_planted_cache_file_never_runs(private_cache, tmp_path):
    scratch_tmp = tmp_path / "tmp"
    scratch_tmp.mkdir()
    env = dict(os.environ, RULEKIT_CACHE_DIR=str(private_cache), TMPDIR=str(scratch_tmp))
    first = rulekit_cli("validate", "batavia", env=env)
    assert first.returncode == 0, first.stdout + first.stderr
    probe = tmp_path / "probe"
    payload = pickle.dumps(_Opens(probe))
    planted = [p for p in private_cache.iterdir() if p.name != "key"]
    assert {p.name.split("-")[0] for p in planted} == {"code", "grammar", "parsed"}
    old_name = parse_cache.cache_file(str(GAMES / "batavia")).with_suffix(".pickle")
    for path in [*planted, old_name, scratch_tmp / ".lark_cache_planted.tmp"]:
        path.write_bytes(payload)
    again = rulekit_cli("validate", "batavia", env=env)
    assert again.returncode == 0, again.stdout + again.stderr
    assert not probe.exists(), "a cache file was unpickled"
    assert all(p.read_bytes() != payload for p in planted), "the planted files were written afresh"
    assert [p.name for p in scratch_tmp.iterdir()] == [".lark_cache_planted.tmp"], "lark keeps nothing in TMPDIR"


def _tampered(body: bytes) -> bytes:
    """Every number literal n of every rule made (n + 1) * 1000."""
    return re.sub(rb'("n":"Num","s":\[[^\]]*\],"f":\[)(\d+)',
                  lambda m: m.group(1) + b"%d" % ((int(m.group(2)) + 1) * 1000), body)


@pytest.fixture
def cached_copy(private_cache, tmp_path):
    """A copy of Batavia loaded once: (folder, game, its cache file, the file's signed line, its body)."""
    folder = tmp_path / "batavia"
    shutil.copytree(GAMES / "batavia", folder)
    game = rulekit.load_game(str(folder))
    cache = parse_cache.cache_file(str(folder))
    head, _, body = cache.read_bytes().partition(b"\n")
    parse_cache.forget()
    return folder, game, cache, head, body


def test_a_tampered_cache_never_changes_a_score(cached_copy):
    folder, game, cache, head, body = cached_copy
    assert _tampered(body) != body
    cache.write_bytes(head + b"\n" + _tampered(body))
    again = rulekit.load_game(str(folder))
    assert again.content_hash == game.content_hash
    assert _scores(again) == _scores(game)
    assert cache.read_bytes() == head + b"\n" + body, "the altered file was written afresh"


def test_the_signature_is_what_keeps_a_tampered_cache_out(cached_copy, private_cache):
    # the same alteration, signed with the folder's own key, is believed: so the test above
    # changes something that matters, and the key (0600, in a 0700 folder) is what stops it
    folder, game, cache, _head, body = cached_copy
    key = (private_cache / "key").read_bytes()
    assert (private_cache / "key").stat().st_mode & 0o777 == 0o600
    cache.write_bytes(parse_cache._MAGIC + parse_cache._sign(key, _tampered(body)) + b"\n" + _tampered(body))
    assert _scores(rulekit.load_game(str(folder))) != _scores(game)


def _not_used(folder: Path, monkeypatch) -> None:
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(folder))
    parse_cache.forget()
    assert parse_cache.private_folder() is None
    rulekit.load_game("batavia")
    assert list(folder.iterdir()) == []
    parse_cache.forget()


def test_a_folder_others_may_write_is_not_used(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    _not_used(folder, monkeypatch)


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to give a folder away")
def test_a_folder_another_user_owns_is_not_used(tmp_path, monkeypatch):
    folder = tmp_path / "theirs"
    folder.mkdir(mode=0o700)
    os.chown(folder, 65534, 65534)
    _not_used(folder, monkeypatch)


def test_a_new_cache_folder_is_private(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKIT_CACHE_DIR", str(tmp_path / "a" / "cache"))
    parse_cache.forget()
    rulekit.load_game("batavia")
    assert (tmp_path / "a" / "cache").stat().st_mode & 0o777 == 0o700
    parse_cache.forget()


# ------------------------------------------------------------------ writes and logs
def _log_of(tmp_path, name="game.log.yaml", seed=7) -> Path:
    """A finished Batavia log written by `rulekit autoplay --log`."""
    from rulekit.cli.app import main
    path = tmp_path / name
    assert main(["autoplay", "batavia", "--players", "3", "--seed", str(seed), "--quiet", "--log", str(path)]) == 0
    return path


def _run(capsys, *argv):
    from rulekit.cli.app import main
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out + err


def test_ctrl_c_during_a_save_keeps_the_old_save(tmp_path, capsys, monkeypatch):
    from rulekit import files
    save = _log_of(tmp_path)
    capsys.readouterr()
    before = save.read_bytes()

    def interrupted(fd):
        raise KeyboardInterrupt
    monkeypatch.setattr(files.os, "fsync", interrupted)   # half-way: the new text written, not yet moved
    code, said = _run(capsys, "autoplay", "batavia", "--players", "3", "--seed", 8, "--quiet", "--log", save)
    assert code == 2 and said.endswith("interrupted\n")
    assert save.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == [save.name], "no temporary file is left behind"


def test_a_kill_during_saves_leaves_one_whole_log(tmp_path):
    # a process that saves two different logs over one file again and again, killed at any moment
    path = tmp_path / "save.log.yaml"
    code = ("import sys, itertools; from rulekit.testing.script import write_log\n"
            "logs = [{'game': 'batavia', 'seed': s, 'actions': ['pass'] * 20000 * s} for s in (1, 2)]\n"
            "for s in itertools.cycle(logs):\n"
            "    write_log(sys.argv[1], s); print('saved', flush=True)\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, env=env)
    for _ in range(5):
        proc.stdout.readline()
    proc.kill()
    proc.wait()
    data = __import__("yaml").safe_load(path.read_text(encoding="utf-8"))
    assert data["action_count"] == len(data["actions"]) in (20000, 40000)


def test_a_log_cut_short_is_refused(tmp_path, capsys):
    log = _log_of(tmp_path)
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    actions_at = lines.index("actions:\n")
    for keep in (3, actions_at + 40, len(lines) - 1):        # the header, a part of the actions, all but the end
        cut = tmp_path / f"cut{keep}.yaml"
        cut.write_text("".join(lines[:keep]), encoding="utf-8")
        code, said = _run(capsys, "run", cut)
        assert code == 1 and "error[RK5021]" in said and "cut short" in said, (keep, said)
    # a number cut in the middle of the count line
    cut.write_text("".join(lines[:-1]) + lines[-1][:-2] + "\n", encoding="utf-8")
    code, said = _run(capsys, "run", cut)
    assert code == 1 and "error[RK5021]" in said and "cut short or edited" in said and f"{cut.name}:" in said


def test_a_log_of_a_newer_format_is_refused(tmp_path, capsys):
    log = _log_of(tmp_path)
    log.write_text(log.read_text(encoding="utf-8").replace("rulekit_log: 2", "rulekit_log: 3"), encoding="utf-8")
    code, said = _run(capsys, "run", log)
    assert code == 1 and "error[RK5020]" in said and "version 3" in said and f"{log.name}:1:" in said


def test_a_pin_for_an_unknown_zone_is_refused_on_its_line(tmp_path, capsys):
    script = tmp_path / "s.yaml"
    script.write_text("game: batavia\nplayers: 3\npins:\n  shuffles:\n    nowhere: [[a, b]]\nactions: []\n",
                      encoding="utf-8")
    code, said = _run(capsys, "run", script)
    assert code == 1 and "error[RK5022]" in said and "`nowhere`" in said and "s.yaml:5:" in said


def test_schema_out_to_a_file_is_a_usage_error(tmp_path, capsys):
    target = tmp_path / "taken"
    target.write_text("mine", encoding="utf-8")
    code, said = _run(capsys, "schema", "--out", target)
    assert code == 2 and "is a file" in said and target.read_text(encoding="utf-8") == "mine"


def test_simulate_to_a_bad_path_fails_before_playing(tmp_path, capsys, monkeypatch):
    from rulekit.batch import simulate

    def never(*args, **kwargs):
        raise AssertionError("a game was played")
    monkeypatch.setattr(simulate, "run_batch", never)
    for flag in ("--out", "--plot"):
        code, said = _run(capsys, "simulate", "batavia", flag, tmp_path / "no-such-folder" / "report.txt")
        assert code == 2 and "no-such-folder" in said, said


# ------------------------------------------------------------------ long games
def _history_copied(monkeypatch) -> list:
    """Counts the history entries (events and actions) that state copies copy."""
    from rulekit.engine.state import State
    copied = [0]
    clone = State.clone

    def counting(self):
        copied[0] += len(self.events) + len(self.actions)
        return clone(self)
    monkeypatch.setattr(State, "clone", counting)
    return copied


@pytest.mark.parametrize("variants", [("short",), ()], ids=["500", "2000"])
def test_a_replay_never_copies_the_history(load, tmp_path, monkeypatch, variants):
    # every action used to clone the whole state with its history (a quadratic replay: 40k
    # actions took minutes); an action's checkpoint now shares the history, which is only cut back
    from rulekit.testing.script import make_log, run_script, write_log
    game = load("long", variants)
    s = api.new_game(game, 2, 1)
    bot = RandomAgent(1)
    while not s.over:
        api.apply_index(s, bot.choose(s), atomic=False)
    length = len(s.actions)
    assert length == game.program.params["length"]
    log = tmp_path / "long.log.yaml"
    write_log(str(log), make_log(s, list(variants), 1, None))
    copied = _history_copied(monkeypatch)
    result = run_script(str(log))
    assert result.state.over and len(result.state.actions) == length
    assert copied[0] == 0


def test_a_refused_action_still_leaves_the_history_as_it_was(load):
    s = api.new_game(load("counter"), 2, 0)
    rulekit.apply(s, "spend")
    events, actions = list(s.events), list(s.actions)
    with pytest.raises(ContentRuntimeError):
        rulekit.apply(s, "spend")             # breaks a minimum half-way through the action
    assert s.events == events and s.actions == actions
    rulekit.apply(s, "add 2")
    assert s.actions == actions + ["add 2"]




def test_bots_that_stall_a_game_stop_at_a_default_cap(write_game, capsys):
    # random play ends this game within a few actions; a bot that always waits never would
    folder = write_game(STALLS, name="stalls")
    from rulekit.agents import CAP_MIN, action_cap
    assert action_cap(rulekit.load_game(folder), 2) == CAP_MIN
    code, said = _run(capsys, "autoplay", folder, "--bots", "bot:waiter", "--quiet")
    assert code == 1 and f"error[RK4012]: stalled: the game has not ended after {CAP_MIN} actions" in said
    assert "stalls/game.yaml:5:1" in said                       # the flow's line
    code, said = _run(capsys, "simulate", folder, "--bots", "bot:waiter", "--games", "2", "--max-actions", "50")
    assert code == 1 and "stalled: the game has not ended after 50 actions" in said


def test_the_cap_grows_with_the_game(load):
    from rulekit.agents import CAP_FACTOR, action_cap
    assert action_cap(load("long"), 1) == CAP_FACTOR * 2000


@pytest.mark.parametrize("value", ["-1", "0", "many"])
def test_max_actions_must_be_a_positive_count(capsys, value):
    from rulekit.cli.app import main
    with pytest.raises(SystemExit) as info:
        main(["autoplay", "batavia", "--max-actions", value])
    assert info.value.code == 2 and "--max-actions" in capsys.readouterr().err


def test_jobs_are_capped_at_something_sane():
    from rulekit.batch.simulate import local_workers
    cores = os.cpu_count() or 1
    assert local_workers(1000, 10_000) == 2 * cores
    assert local_workers(8, 3) == 3 and local_workers(1, 100) == 1


# ------------------------------------------------------------------ what reaches the terminal
TERMINAL_GAME = r'''meta: {title: "Bell\a"}
players: {min: 1, max: 2, default: 1}
flow:
  rounds: 1
  phases:
    - id: go
      do: "log(\"title\e]0;owned\a\")\nchoose players[0]:\n    \"go\e[2J\":\n        pass\n"
scoring:
  categories:
    - id: none
      points: "0"
'''


def test_control_characters_from_content_are_escaped(write_game, tmp_path, capsys):
    folder = write_game(TERMINAL_GAME, name="bell")
    code, said = _run(capsys, "autoplay", folder, "--log", tmp_path / "bell.log.yaml")
    assert code == 0 and "go\\x1b[2J" in said
    code, said = _run(capsys, "run", tmp_path / "bell.log.yaml")
    assert code == 0 and "title\\x1b]0;owned\\x07" in said and "go\\x1b[2J" in said
    code, said = _run(capsys, "validate", folder)
    assert code == 0 and "Bell\\x07" in said
    assert "\x1b" not in said and "\x07" not in said


def test_a_very_long_line_is_quoted_in_part(write_game, capsys):
    folder = write_game({"game.yaml": "nosuch: " + "x" * 4_000_000 + "\n"})
    code, said = _run(capsys, "validate", folder)
    assert code == 1 and "error[RK0120]" in said and len(said) < 2000
    excerpt = [line for line in said.splitlines() if line.startswith("1 | ")]
    assert excerpt and excerpt[0].endswith("...") and len(excerpt[0]) < 200


def test_a_huge_file_is_refused_without_reading_it_whole(tmp_path, capsys):
    import tracemalloc
    folder = tmp_path / "huge"
    folder.mkdir()
    with open(folder / "game.yaml", "wb") as handle:
        handle.truncate(1 << 30)           # 1 GB (sparse: no disk used), a single line
    tracemalloc.start()
    try:
        code, said = _run(capsys, "validate", folder)
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert code == 1 and "error[RK0106]" in said and "game.yaml:1:1" in said and len(said) < 2000
    assert peak < 64 << 20, f"{peak} bytes held to quote line 1"


def test_schema_errors_speak_yaml_not_python(tmp_path, capsys):
    script = tmp_path / "s.yaml"
    script.write_text("game: batavia\nplayers: 0\nactions:\n  - expect:\n  - null\n", encoding="utf-8")
    code, said = _run(capsys, "run", script)
    assert code == 1 and "None" not in said and "'expect'" not in said
    assert "expected an object, got null" in said and "expected a string or object, got null" in said
    assert "`0` is below the minimum of 1" in said


def test_pinned_rolls_for_a_stream_no_roll_draws_from_are_refused_on_their_line(tmp_path, capsys):
    script = tmp_path / "s.yaml"
    script.write_text("game: batavia\nplayers: 3\npins:\n  rolls:\n    dize: [3]\nactions: []\n", encoding="utf-8")
    code, said = _run(capsys, "run", script)
    assert code == 1 and "error[RK5022]" in said and "`dize`" in said and "s.yaml:5:" in said
    assert "did you mean `dice`" in said
    assert rulekit.load_game("batavia").program.roll_streams == {"dice"}
