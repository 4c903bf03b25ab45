# SPDX-License-Identifier: MIT
"""`--backend ray`: the same batch on a (local) Ray instance gives the same records.

Ray is the `ray` extra, which `.ci/run` installs before its second step (they are marked slow); without Ray
they are skipped. Each test keeps the batch small: starting Ray costs a few seconds, the games a little more.

They run in a pytest of their own (tests/test_ray_own_process.py runs every `ray_driver` test there): a
Ray driver can end its process with `_exit(1)` when it loses its cluster, and in the test process that ends
the whole run with no report (most likely what stopped a CI run after 115 of 118 slow tests: exit 1, nothing
more printed); in a child it is that test's failure, with the child's output.
"""
from __future__ import annotations

import json

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.ray_driver]     # Ray start-ups: the slow step of .ci/run
ray = pytest.importorskip("ray")

from rulekit.batch import simulate as sim  # noqa: E402
from rulekit.cli.app import main  # noqa: E402
from rulekit.errors import ContentRuntimeError  # noqa: E402
from rulekit.extras import install_command  # noqa: E402

BATAVIA = dict(players=3, games=4, seed=7, bots=["random", "greedy"])
GOA = dict(players=2, games=2, seed=3, bots=["greedy", "random"])


@pytest.fixture(autouse=True)
def quiet_local_ray(monkeypatch):
    """A private local instance: no cluster from the caller's environment, no usage report."""
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")


@pytest.fixture
def ray_instance():
    """A local instance the test starts (in its fork) and stops; run_batch uses it and leaves it running."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("RAY_ADDRESS", raising=False)
        patch.setenv("RAY_USAGE_STATS_ENABLED", "0")
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            yield ray
        finally:
            ray.shutdown()


def test_cli_starts_and_stops_its_own_instance_with_the_local_summary(capsys, tmp_path):
    assert not ray.is_initialized()
    args = ["simulate", "batavia", "--players", "3", "--games", "4", "--seed", "7",
            "--bots", "random,greedy", "--format", "json"]
    assert main(args + ["--out", str(tmp_path / "local.json")]) == 0
    assert main(args + ["--backend", "ray", "--jobs", "2", "--out", str(tmp_path / "ray.json")]) == 0
    local = json.loads((tmp_path / "local.json").read_text())
    remote = json.loads((tmp_path / "ray.json").read_text())
    assert remote["summary"] == local["summary"] and remote["games"] == local["games"]
    assert not ray.is_initialized()              # the instance it started is shut down
    assert "Traceback" not in capsys.readouterr().err


def test_unreachable_cluster_is_a_usage_error(capsys, monkeypatch):
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")   # nothing listens on port 1
    assert main(["simulate", "batavia", "--games", "1", "--backend", "ray"]) == 2
    out = capsys.readouterr()
    assert "error[RK0001]: cannot reach the Ray cluster at `127.0.0.1:1`" in out.out
    assert "Traceback" not in out.err
    assert not ray.is_initialized()


def test_missing_ray_is_a_usage_error(capsys, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "ray", None)   # `import ray` fails
    assert main(["simulate", "batavia", "--games", "1", "--backend", "ray"]) == 2
    assert install_command("ray") in capsys.readouterr().out


def test_batavia_records_and_summary_match_a_local_run(ray_instance):
    local = sim.run_batch("batavia", backend="local", jobs=1, **BATAVIA)
    ticks: list[int] = []
    remote = sim.run_batch("batavia", backend="ray", jobs=2, progress=ticks.append, **BATAVIA)
    assert remote == local
    assert [r["index"] for r in remote] == [0, 1, 2, 3]
    assert sim.summarise(remote) == sim.summarise(local)
    assert sum(ticks) == 4                       # the progress callback saw every game
    assert ray.is_initialized()                  # an instance the caller started stays up


def test_goa_two_players_match_a_local_run(ray_instance):
    local = sim.run_batch("goa", backend="local", jobs=1, **GOA)
    remote = sim.run_batch("goa", backend="ray", **GOA)
    assert remote == local and sim.summarise(remote) == sim.summarise(local)


def test_a_content_error_in_a_worker_is_the_local_error(ray_instance, write_game, monkeypatch, tmp_path):
    write_game("""\
        meta: {title: Breaks in setup}
        players: {min: 1, max: 2}
        vars:
          total: {initial: 0, min: 0}
        setup: |
          total -= 1
        flow: {rounds: 1, phases: [{id: main, do: pass}]}
        """)
    monkeypatch.chdir(tmp_path)                  # a relative folder still reaches the workers
    with pytest.raises(ContentRuntimeError) as local:
        sim.run_batch("g", players=1, games=1, backend="local")
    with pytest.raises(ContentRuntimeError) as remote:
        sim.run_batch("g", players=1, games=1, backend="ray")
    assert remote.value.code == local.value.code == "RK4003"
    assert remote.value.render() == local.value.render()
