# SPDX-License-Identifier: MIT
"""The shipped games and schemas travel with the wheel, and are found by name there.

Building a wheel takes a while: marked slow, run by the second step of ``.ci/run``."""
from __future__ import annotations

import os
import subprocess
import sys
import zipfile

import pytest

pytestmark = pytest.mark.slow
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", ROOT, "--no-deps",
                           "-q", "-w", str(out)], capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail(f"building the wheel failed:\n{proc.stdout}\n{proc.stderr}")
    [path] = [os.path.join(out, f) for f in os.listdir(out) if f.endswith(".whl")]
    return path


def test_wheel_carries_games_grammar_and_schemas(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in ("rulekit/dsl/grammar.lark", "rulekit/schemas/game.schema.json",
                     "rulekit/schemas/script.schema.json", "rulekit/schemas/variant.schema.json",
                     "rulekit_games/batavia/game.yaml", "rulekit_games/batavia/variants/open-route.yaml"):
        assert required in names, f"{required} missing from the wheel"


def test_installed_wheel_finds_shipped_game_by_name(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), wheel],
                   check=True, capture_output=True)
    code = ("import rulekit, rulekit.games as c; g = rulekit.load_game('batavia');"
            f"print(g.title, c.shipped_games_dir().startswith({str(target)!r}))")
    env = dict(os.environ, PYTHONPATH=str(target))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["Batavia", "True"]


def test_installed_wheel_names_its_own_distribution_in_install_hints(wheel, tmp_path):
    """Outside a checkout a hint names the distribution the wheel installed, not `rulekit`, which
    on the package index is another project."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), wheel],
                   check=True, capture_output=True)
    code = ("from rulekit import extras; from importlib import metadata;"
            "print(extras.checkout(), metadata.version(extras.DISTRIBUTION), extras.install_command('lsp'))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                          env=dict(os.environ, PYTHONPATH=str(target)))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["None", "0.1.0", "pip", "install", "'rulekit-games[lsp]'"]
