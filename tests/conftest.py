# SPDX-License-Identifier: MIT
"""Shared helpers for the engine tests.

The core tests run on the small games under ``tests/games/`` (not on the shipped
games), so that each engine feature is pinned by content written for it:

- ``auction``  a two-round auction (procedures with ``choose``, return values, rolls,
               ``rounds``, owner-visible money, variants, scripts);
- ``counter``  loops with ``break``/``continue`` inside options, nested choosing
               procedures, ``end_game()``, ``end_after_round_if`` and a counter minimum;
- ``hidden``   per-player zones and variables of every visibility, shuffles;
- ``subsets``  a subset choice (11-card hands, 2,048 options), numbered `generate`, `let`;
- ``redeal``   hands a free redeal gets wrong: search bots' discarded worlds, `dealt_from:`;
- ``broken/*`` one content mistake per folder, for the diagnostics tests.
"""
from __future__ import annotations

import os
import shlex
import textwrap
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
GAMES = TESTS / "games"

# Every mistake the code writer meets must have been said by the front end first (dsl/check_names.py):
# in the tests a miss is an internal error, so any game of the suite that slips past the front end
# fails (subprocesses inherit it). Users get the writer's words instead.
os.environ["RULEKIT_STRICT_FRONT_END"] = "1"

RAY_CHILD = "RULEKIT_TEST_RAY_CHILD"     # set in the pytest that tests/test_ray_own_process.py starts


def pytest_collection_modifyitems(config, items):
    """A test that drives Ray from the test process runs only in a pytest of its own (a Ray driver
    that loses its cluster ends its process: tests/test_ray_own_process.py)."""
    if os.environ.get(RAY_CHILD):
        return
    for item in items:
        if item.get_closest_marker("ray_driver") is not None:
            item.add_marker(pytest.mark.skip(reason="drives Ray: run by tests/test_ray_own_process.py"))


@pytest.fixture(autouse=True, scope="session")
def _parse_cache_in_a_scratch_folder(tmp_path_factory):
    """The tests load hundreds of scratch games: their parse-cache files go to a
    folder of the test session, not the user's cache (rulekit/dsl/parse_cache.py)."""
    saved = os.environ.get("RULEKIT_CACHE_DIR")
    os.environ["RULEKIT_CACHE_DIR"] = str(tmp_path_factory.mktemp("parse-cache"))
    yield
    if saved is None:
        os.environ.pop("RULEKIT_CACHE_DIR", None)
    else:
        os.environ["RULEKIT_CACHE_DIR"] = saved


def game_dir(name: str) -> str:
    """The folder of a test game (``"auction"``, ``"broken/two_files"``...)."""
    return str(GAMES / name)


@pytest.fixture
def load():
    """``load("auction", variants=())`` -> a compiled test game (cached per test session)."""
    return load_test_game


_CACHE: dict = {}


def load_test_game(name: str, variants=()):
    import rulekit
    key = (name, tuple(variants))
    if key not in _CACHE:
        _CACHE[key] = rulekit.load_game(game_dir(name), tuple(variants))
    return _CACHE[key]


def compact(result) -> list[str]:
    """A script result as short lines for snapshots: the transcript without the noisy
    ``start`` line, the final scores as ``pN total (breakdown)`` and the winners."""
    lines = [line.rstrip() for line in result.transcript
             if not line.startswith("start ") and not line.startswith("result: ")]
    state = result.state
    if state.result is not None:
        for player in state.result["ranking"]:
            row = state.result["scores"][player]
            parts = ", ".join(f"{k}={v}" for k, v in row["breakdown"].items())
            lines.append(f"score {player} {row['total']} ({parts})")
        lines.append("winners " + ", ".join(state.result["winners"]))
    elif state.pending is not None:
        lines.append(f"waiting for p{state.pending.player + 1}: {', '.join(state.pending.labels)}")
    return lines


@pytest.fixture
def play_script():
    """``play_script(path)`` runs a script (a path, or a name relative to tests/games)
    and returns its compact transcript (a list of str) for syrupy snapshots."""
    from rulekit.testing.script import run_script

    def play(path, force: bool = False) -> list[str]:
        path = Path(path)
        if not path.is_absolute() and not path.exists():
            path = GAMES / path
        return compact(run_script(str(path), force=force))
    return play


@pytest.fixture
def write_game(tmp_path):
    """``write_game(files, name="g")`` writes a game folder under tmp_path.

    ``files`` maps file names to YAML text (dedented); a plain string is game.yaml.
    Returns the folder path as a str.
    """
    def write(files, name: str = "g") -> str:
        if isinstance(files, str):
            files = {"game.yaml": files}
        folder = tmp_path / name
        for rel, text in files.items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(text, bytes):
                path.write_bytes(text)
            else:
                path.write_text(textwrap.dedent(text), encoding="utf-8")
        return str(folder)
    return write


# The end of a small test game whose rules run in its `setup:`: one round of one decision, "go",
# and a score of nothing (append it to the game's own sections).
ONE_DECISION = """\
flow:
  rounds: 1
  phases:
    - id: p
      do: |
        choose players[0]:
            "go":
                pass
scoring:
  categories:
    - id: none
      points: "0"
"""


def codes(report) -> list[str]:
    """The diagnostic codes of a DiagnosticReport, in order."""
    return [d.code for d in report.diagnostics]


def where(diagnostic) -> tuple:
    """(file name, line, column) of a diagnostic's span."""
    span = diagnostic.span
    return (os.path.basename(span.path), span.line, span.column)


def run_cli(capsys, *argv):
    """(exit code, stdout, stderr) of `rulekit argv...`; argparse exits are caught too."""
    from rulekit.cli.app import main
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def logged(state) -> list[str]:
    """The lines the game has logged so far (`log(...)` events)."""
    return [e[1] for e in state.events if e[0] == "log"]


def failure(game, players: int, action: str):
    """The content error that playing ``action`` in a new game raises (the test fails if none)."""
    import pytest

    from rulekit.engine import api
    from rulekit.errors import ContentRuntimeError
    state = api.new_game(game, players, 0)
    with pytest.raises(ContentRuntimeError) as info:
        api.apply(state, action)
    return info.value


# A game random play ends within a few actions, but that a bot that always waits never ends.
STALLS = """\
meta: {title: Stalls}
players: {min: 2, max: 2, default: 2}
vars:
  done: false
flow:
  end_after_round_if: "done"
  phases:
    - id: turn
      do: |
        for p in players:
            choose p:
                "wait":
                    pass
                "end":
                    done = true
scoring:
  categories:
    - id: none
      points: "0"
bots:
  waiter:
    text: "never ends the game"
    rules:
      - prefer: "wait"
"""


def regenerating_command(listing: str) -> list[str]:
    """The words of the command a listing's header says regenerates it (its lines joined where
    they end in `` \\``, as the shell joins them)."""
    lines = listing.split("\n")
    start = lines.index("# Regenerate it with:") + 1
    words = []
    for line in lines[start:]:
        assert line.startswith("#   "), line
        text = line[2:]
        words += shlex.split(text.removesuffix(" \\"))
        if not text.endswith(" \\"):
            return words
    raise AssertionError("the command never ends")

