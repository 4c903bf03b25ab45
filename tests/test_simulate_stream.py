# SPDX-License-Identifier: MIT
"""`rulekit simulate --out FILE.jsonl` (issue 39): a line per game as it finishes, `--resume`, interrupts,
64-bit game seeds, and a game shipped to Ray workers as its content's bytes.

The interrupt tests run the real command in a session of its own and signal it; they poll the file
rather than sleep (the machine may be loaded)."""
from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

import pytest

from rulekit.batch import simulate as sim
from rulekit.batch.game_bundle import GameBundle
from rulekit.cli.app import main

REPO = Path(__file__).resolve().parents[1]
SCRIPT = Path(sysconfig.get_path("scripts")) / "rulekit"
AUCTION = str(REPO / "tests" / "games" / "auction")
GOA = ["goa", "--players", "4"]


def lines(path) -> list[bytes]:
    return Path(path).read_bytes().splitlines(keepends=True)


def uninterrupted(path, game_ref: str, games: int, **options) -> list[bytes]:
    sim.run_to_file(str(path), False, game_ref, games=games, **options)
    return lines(path)


def test_a_line_per_game_after_a_header_and_the_same_records_as_in_memory(tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    assert main(["simulate", "batavia", "--players", "3", "--games", "5", "--seed", "4", "--bots",
                 "random,greedy", "--out", str(out)]) == 0
    assert "batavia: 5 games, bots random,greedy, seed 4" in capsys.readouterr().out   # the report: stdout
    head, *records = [json.loads(line) for line in lines(out)]
    assert {key: head[key] for key in ("format", "game", "players", "seed", "bots", "variants")} == {
        "format": "rulekit-simulate-batch", "game": "batavia", "players": 3, "seed": 4,
        "bots": ["random", "greedy"], "variants": []}
    game = sim._load("batavia", ())
    assert head["content_hash"] == game.content_hash and head["max_actions"] == sim.batch_cap(game, 3, None)
    assert records == sim.run_batch("batavia", players=3, games=5, seed=4, bots=["random", "greedy"])
    assert main(["simulate", "batavia", "--players", "3", "--games", "5", "--seed", "4", "--bots",
                 "random,greedy", "--out", str(out), "--format", "json", "--overwrite"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["summary"] == sim.summarise(records) and report["games_file"] == str(out)


def test_jobs_give_the_same_file_byte_for_byte(tmp_path):
    one = uninterrupted(tmp_path / "one.jsonl", AUCTION, 300, seed=9, jobs=1)
    two = uninterrupted(tmp_path / "two.jsonl", AUCTION, 300, seed=9, jobs=2)
    assert one == two and len(one) == 301


def test_game_seeds_are_64_bits_from_sha256_of_the_batch_seed_and_index():
    seeds = [sim.game_seed(7, i) for i in range(100_000)]
    assert seeds[3] == int.from_bytes(hashlib.sha256(b"7:game3").digest()[:8], "little")    # docs/cli.md
    assert len(set(seeds)) == len(seeds) and max(seeds) >= 2 ** 63 and min(seeds) >= 0


def test_summary_is_one_pass_in_any_order():
    records = sim.run_batch(AUCTION, games=60, seed=2, bots=["random", "greedy"])
    shuffled = list(records)
    random.Random(1).shuffle(shuffled)
    assert sim.summarise(iter(shuffled)) == sim.summarise(records)
    wins = sum(row["rate"] * row["games"] for row in sim.summarise(records)["win_rate_by_seat"].values())
    assert round(wins, 6) == 60    # a shared win is shared


def test_resume_plays_only_what_the_file_lacks(tmp_path, monkeypatch):
    whole = uninterrupted(tmp_path / "whole.jsonl", AUCTION, 120, seed=3)
    part = tmp_path / "part.jsonl"
    part.write_bytes(b"".join(whole[:1] + whole[1:41:2]))       # 20 games, every other one
    played = []
    real = sim.play_game
    monkeypatch.setattr(sim, "play_game", lambda game, p, s, b, index, cap: played.append(index) or
                        real(game, p, s, b, index, cap))
    sim.run_to_file(str(part), True, AUCTION, games=120, seed=3)
    assert sorted(lines(part)) == sorted(whole)
    assert len(played) == 100 and not set(played) & set(range(0, 40, 2))
    played.clear()
    sim.run_to_file(str(part), True, AUCTION, games=120, seed=3)    # complete: nothing to play
    assert played == [] and sorted(lines(part)) == sorted(whole)


def test_a_missing_file_resumed_is_a_new_batch(tmp_path):
    whole = uninterrupted(tmp_path / "whole.jsonl", AUCTION, 30)
    sim.run_to_file(str(tmp_path / "new.jsonl"), True, AUCTION, games=30)
    assert lines(tmp_path / "new.jsonl") == whole


def test_corrupt_cut_short_and_repeated_lines_are_reported_dropped_and_replayed(tmp_path, capsys):
    whole = uninterrupted(tmp_path / "whole.jsonl", AUCTION, 40, seed=5)
    broken = list(whole)
    broken[4] = broken[4][:30] + b"\n"                              # game 3: cut in the middle
    broken[9] = b'{"index": 8, "seed": 1, "bots": []}\n'             # game 8: another batch's seed
    broken.insert(12, whole[11])                                    # game 10 twice
    broken[-1] = broken[-1][:25]                                    # the last line, cut short by a kill
    path = tmp_path / "r.jsonl"
    path.write_bytes(b"".join(broken))
    assert main(["simulate", AUCTION, "--games", "40", "--seed", "5", "--out", str(path), "--resume"]) == 0
    err = capsys.readouterr().err
    assert f"warning[RK0961]: {path}:5: not JSON" in err and "its game is played again" in err
    assert f"{path}:10: game 8: seed 1, not this batch's {sim.game_seed(5, 8)}" in err
    assert f"{path}:13: game 10 again (its first line is kept)" in err
    assert f"{path}:42: a line cut short" in err and "Traceback" not in err
    assert lines(path)[0] == whole[0] and sorted(lines(path)) == sorted(whole)


@pytest.mark.parametrize("change, differs", [
    (["--seed", "6"], "seed 5 in the file, 6 here"),
    (["--bots", "random,greedy"], "bots random in the file, random,greedy here"),
    (["--players", "2"], "players 3 in the file, 2 here"),
    (["--max-actions", "50"], "action cap (--max-actions)"),
    (["--variant", "rich"], "content hash"),
])
def test_resuming_another_batch_is_refused_saying_what_differs(tmp_path, capsys, change, differs):
    path = tmp_path / "r.jsonl"
    base = ["simulate", AUCTION, "--games", "4", "--seed", "5", "--out", str(path)]
    assert main(base) == 0
    before = path.read_bytes()
    capsys.readouterr()
    code = main([*base, "--resume", *change])      # the last --seed given is the one taken
    said = capsys.readouterr()
    assert code == 2 and "Traceback" not in said.err
    assert f"error[RK0960]: cannot resume `{path}`: it is another batch (" in said.out and differs in said.out
    assert path.read_bytes() == before


def test_resuming_another_game_or_no_batch_is_refused(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    assert main(["simulate", AUCTION, "--games", "2", "--out", str(path)]) == 0
    capsys.readouterr()
    assert main(["simulate", "batavia", "--games", "2", "--players", "3", "--out", str(path), "--resume"]) == 2
    out = capsys.readouterr().out
    assert "game auction in the file, batavia here" in out and "content hash sha256:" in out
    other = tmp_path / "notes.jsonl"
    other.write_text('{"hello": 1}\n')
    assert main(["simulate", AUCTION, "--games", "2", "--out", str(other), "--resume"]) == 2
    assert "its first line is not a `rulekit simulate` batch header" in capsys.readouterr().out
    assert other.read_text() == '{"hello": 1}\n'


def test_streaming_usage_errors(tmp_path, capsys):
    for extra, said in ((["--out", str(tmp_path / "r.json"), "--resume"], "give it with --out FILE.jsonl"),
                        (["--out", str(tmp_path / "r.jsonl"), "--compare", "x"], "its own"),
                        (["--out", str(tmp_path / "r.jsonl"), "--format", "csv"], "read the file instead"),
                        (["--out", str(tmp_path / "no-folder" / "r.jsonl")], "cannot write")):
        assert main(["simulate", AUCTION, "--games", "2", *extra]) == 2
        assert said in capsys.readouterr().out
    assert not (tmp_path / "r.jsonl").exists()


# ------------------------------------------------------------------ real signals
def _start(argv: list[str]) -> subprocess.Popen:
    return subprocess.Popen([str(SCRIPT), *argv], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for t in os.listdir(f"/proc/{pid}/task")
                for c in Path(f"/proc/{pid}/task/{t}/children").read_text().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _interrupt_half_way(argv: list[str], path: Path, games: int, signum: int) -> tuple[int, str, list[int]]:
    """Run, signal once the file holds half the games; (exit code, stderr, the workers it had)."""
    proc = _start(argv)
    try:
        deadline = time.monotonic() + 300
        workers: set[int] = set()
        while time.monotonic() < deadline and proc.poll() is None:
            workers.update(_children(proc.pid))
            if path.exists() and len(lines(path)) > games // 2:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the batch ended before it was interrupted"
        proc.send_signal(signum)
        _out, err = proc.communicate(timeout=60)
        return proc.returncode, err.decode(), sorted(workers)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds processes in /proc")
@pytest.mark.parametrize("signum, jobs", [(signal.SIGINT, "1"), (signal.SIGTERM, "2")],
                         ids=["sigint", "sigterm-jobs-2"])
def test_interrupted_half_way_and_resumed_gives_the_same_records(tmp_path, signum, jobs):
    games = 160
    whole = uninterrupted(tmp_path / "whole.jsonl", "goa", games, players=4, seed=1)
    path = tmp_path / "r.jsonl"
    argv = ["simulate", *GOA, "--games", str(games), "--seed", "1", "--jobs", jobs, "--out", str(path)]
    code, err, workers = _interrupt_half_way(argv, path, games, signum)
    assert code == 2 and "Traceback" not in err, err
    kept = len(lines(path)) - 1
    assert games // 2 <= kept < games
    assert f"{path} keeps {kept} of {games} games; the same command with --resume plays the rest" in err
    assert err.rstrip().endswith("interrupted")
    if jobs == "2":
        assert len(workers) >= 2 and not any(_alive(pid) for pid in workers)     # no orphan left
    assert set(lines(path)) <= set(whole)          # every line kept is whole and right
    assert main(argv + ["--resume"]) == 0
    assert sorted(lines(path)) == sorted(whole)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds processes in /proc")
def test_goa_2000_games_interrupted_half_way_and_resumed(tmp_path):
    """The issue's bar at its own size: `rulekit simulate goa --players 4 --games 2000 --out r.jsonl`."""
    path, whole = tmp_path / "r.jsonl", tmp_path / "whole.jsonl"
    argv = ["simulate", *GOA, "--games", "2000", "--jobs", "2", "--out"]
    code, err, _workers = _interrupt_half_way([*argv, str(path)], path, 2000, signal.SIGINT)
    assert code == 2 and "keeps" in err
    assert subprocess.run([str(SCRIPT), *argv, str(path), "--resume"], cwd=REPO, capture_output=True).returncode == 0
    assert subprocess.run([str(SCRIPT), *argv, str(whole)], cwd=REPO, capture_output=True).returncode == 0
    assert sorted(lines(path)) == sorted(lines(whole)) and len(lines(whole)) == 2001


# ------------------------------------------------------------------ content shipped to workers
def test_a_bundle_builds_the_game_without_its_folder(tmp_path, capsys):
    """A worker needs the content's bytes, not the folder at the same path: the folder is gone."""
    folder = tmp_path / "copy" / "batavia"
    shutil.copytree(REPO / "games" / "batavia", folder)
    game = sim._load(str(folder), ("open-route",))
    bundle = GameBundle.of(str(folder), ("open-route",), game)
    assert {rel for rel, _data in bundle.files} == set(game.files) - {"variants/open-route.yaml"}
    shipped = __import__("pickle").loads(__import__("pickle").dumps(bundle))
    shutil.rmtree(tmp_path / "copy")
    built, _root = shipped._build()
    assert built.content_hash == game.content_hash and built.name == "batavia"
    assert sim.play_game(built, 3, 4, ["random"], 2) == sim.play_game(game, 3, 4, ["random"], 2)


def test_a_workers_error_names_the_drivers_files(write_game, tmp_path, monkeypatch):
    folder = write_game("""\
        meta: {title: Breaks in setup}
        players: {min: 1, max: 2}
        vars:
          total: {initial: 0, min: 0}
        setup: |
          total -= 1
        flow: {rounds: 1, phases: [{id: main, do: pass}]}
        """)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(Exception) as local:
        sim.run_batch("g", players=1, games=1)
    bundle = GameBundle.of("g", (), sim._load("g", ()))
    with pytest.raises(Exception) as shipped:
        sim._shipped_chunk(bundle, 1, 0, ["random"], 100, [0])
    assert shipped.value.render() == local.value.render() and "g/game.yaml:" in shipped.value.render()
    assert os.path.isdir(folder)


@pytest.mark.slow
@pytest.mark.ray_driver    # run in a pytest of its own: tests/test_ray_own_process.py
def test_ray_streams_the_same_file_as_a_local_run(tmp_path, monkeypatch):
    pytest.importorskip("ray")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    local = uninterrupted(tmp_path / "local.jsonl", AUCTION, 200, seed=8, bots=["random", "greedy"])
    remote = uninterrupted(tmp_path / "ray.jsonl", AUCTION, 200, seed=8, bots=["random", "greedy"],
                           backend="ray", jobs=2)
    assert remote == local


if __name__ == "__main__":   # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_a_two_node_cluster_started_with_ray_start_plays_a_folder_it_was_sent(tmp_path):
    """docs/scale.md's local cluster: a head and a second node (`ray start --block`, each in a session
    of its own, ended by its id), the driver reaching it through RAY_ADDRESS, the game a folder copy."""
    pytest.importorskip("ray")
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled")   # a throwaway local cluster
    env.pop("RAY_ADDRESS", None)
    gcs = _free_port()

    def node(*options: str) -> subprocess.Popen:
        ports = [f"--{name}-port={_free_port()}" for name in ("dashboard-agent-listen", "dashboard-agent-grpc",
                                                                "metrics-export", "runtime-env-agent",
                                                                "node-manager", "object-manager")]
        log = open(tmp_path / f"node{len(nodes)}.log", "w")
        return subprocess.Popen(["ray", "start", "--block", "--num-cpus=1", "--node-ip-address=127.0.0.1",
                                 *ports, *options], env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
    nodes: list[subprocess.Popen] = []
    game = tmp_path / "copy" / "auction"
    shutil.copytree(AUCTION, game)
    sessions = tempfile.mkdtemp(prefix="rk-ray-")      # short: Ray's sockets live there
    try:
        nodes.append(node("--head", f"--port={gcs}", "--include-dashboard=false", f"--temp-dir={sessions}"))
        _poll_port(gcs, 120)
        nodes.append(node(f"--address=127.0.0.1:{gcs}"))
        code = ("import ray, time, sys\n"
                f"ray.init(address='127.0.0.1:{gcs}', logging_level='ERROR')\n"
                "deadline = time.monotonic() + 120\n"
                "while ray.cluster_resources().get('CPU', 0) < 2 and time.monotonic() < deadline:\n"
                "    time.sleep(0.5)\n"
                "sys.exit(0 if ray.cluster_resources().get('CPU', 0) == 2 else 1)\n")
        assert subprocess.run([sys.executable, "-c", code], env=env, timeout=300).returncode == 0, "no 2 nodes"
        out = tmp_path / "cluster.jsonl"
        run = subprocess.run([str(SCRIPT), "simulate", str(game), "--games", "300", "--seed", "4", "--backend",
                              "ray", "--out", str(out)], env=dict(env, RAY_ADDRESS=f"127.0.0.1:{gcs}"),
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0 and "auction: 300 games" in run.stdout, run.stdout + run.stderr
        assert lines(out) == uninterrupted(tmp_path / "local.jsonl", str(game), 300, seed=4)
    finally:
        for started in reversed(nodes):
            os.killpg(started.pid, signal.SIGTERM)
        for started in nodes:
            started.wait(120)
        shutil.rmtree(sessions, ignore_errors=True)


def _poll_port(port: int, timeout: float) -> None:
    import socket
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"nothing listens on port {port} after {timeout} s")
