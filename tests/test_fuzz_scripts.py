# SPDX-License-Identifier: MIT
"""Bad scripts and logs never crash ``rulekit run``.

Property-based tests that start from valid scripts (``tests/games/*/scripts``) and
logs (written by ``rulekit run --log`` and ``rulekit autoplay --log``, Batavia's
included), break them and replay them in-process with ``rulekit run FILE``.
Whatever the mutation, the command exits 0 (a harmless change), 1 (a script,
content or replay error) or 2 (a usage error), never 101, never with a traceback;
and every error names a ``file:line`` of a real file.

The mutations: wrong types, unknown and misspelt keys, bad, missing, swapped and
extra actions, wrong players, broken expectations and positions, tampered
``content_hash`` and ``result``, bad pins, truncated and damaged files.

The examples are derandomised; ``RULEKIT_FUZZ_EXAMPLES`` sets how many each test
tries (default 12; 60 in the slow step of ``.ci/run``; ``tests/strategies.py``).
"""
from __future__ import annotations

import copy
import os
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from strategies import FUZZ, cli, dump, get, misspelled, paths_of

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "tests" / "games"


# ------------------------------------------------------------------ the valid starting points

class Source:
    def __init__(self, path: Path):
        self.path = path
        self.text = path.read_text(encoding="utf-8")
        self.data = yaml.safe_load(self.text)

    @property
    def name(self) -> str:
        return self.path.name


@pytest.fixture(scope="module")
def sources(tmp_path_factory) -> list[Source]:
    """Scripts of the test games (with ``game:`` made absolute) and logs written from them
    and from autoplayed games, each in a folder of its own."""
    base = tmp_path_factory.mktemp("fuzz-scripts")
    out: list[Path] = []
    for script in sorted(GAMES.glob("*/scripts/*.yaml")):
        game = script.parent.parent
        folder = base / f"{game.name}-{script.stem}"
        folder.mkdir()
        text = script.read_text(encoding="utf-8")
        text = re.sub(r"^game: .*$", lambda m, game=game: f"game: {game}", text, count=1, flags=re.M)
        (folder / "script.yaml").write_text(text, encoding="utf-8")
        code, _, _ = cli("run", folder / "script.yaml", "--log", folder / "log.yaml")
        out.append(folder / "script.yaml")
        if code == 0:
            out.append(folder / "log.yaml")
    for game, players, seed in (("batavia", 3, 3), (GAMES / "hidden", 2, 4), (GAMES / "auction", 4, 2)):
        folder = base / f"autoplay-{Path(str(game)).name}"
        folder.mkdir()
        code, out_text, _ = cli("autoplay", game, "--players", players, "--seed", seed, "--quiet",
                                "--log", folder / "log.yaml")
        assert code == 0, out_text
        out.append(folder / "log.yaml")
    return [Source(p) for p in out]


def _expected_code(source: Source) -> int:
    return 1 if re.search(r"(wrong_|failing_|bad_|cannot_|after_the_end)", str(source.path.parent)) else 0


def test_the_unmutated_scripts_and_logs_run(sources):
    assert len(sources) >= 8
    for source in sources:
        code, out, err = cli("run", source.path)
        assert code == _expected_code(source), (source.path, out, err)


# ------------------------------------------------------------------ running and checking

LOCATION = re.compile(r"(?:^  --> |^)(?P<path>[^\s:][^:\n]*):(?P<line>\d+):(?P<column>\d+)", re.M)


def run(source: Source, mutated: bytes, data) -> tuple[int, str]:
    """Write the mutated file beside the source (relative game paths still hold), run
    it and check the universal promises."""
    path = source.path.parent / "mutated.yaml"
    path.write_bytes(mutated)
    argv = ["run", path]
    if data.draw(st.booleans(), label="--json"):
        argv.append("--json")
    if data.draw(st.booleans(), label="--force"):
        argv.append("--force")
    if data.draw(st.booleans(), label="--log"):
        argv += ["--log", source.path.parent / "out.yaml"]
    code, out, err = cli(*argv)
    context = f"$ rulekit {' '.join(map(str, argv))}\nexit {code}\n{out}{err}"
    assert code != 101, context
    assert "Traceback" not in out + err and "internal error" not in err, context
    assert code in (0, 1, 2), context
    if code:
        assert "error[RK" in out, context
        places = [m for m in LOCATION.finditer(out) if os.path.isfile(m["path"])]
        assert places, f"no file:line in the message\n{context}"
        for place in places:
            lines = len(Path(place["path"]).read_bytes().decode("utf-8", errors="replace").splitlines()) + 1
            assert 1 <= int(place["line"]) <= lines, context
    return code, out


# ------------------------------------------------------------------ structural edits

WEIRD = [None, True, False, 0, -1, 1, 2, 3, 17, 10**30, -10**30, 1.5, "", " ", "x", "none", "p1", "p0", "p9",
         "🎲", "a" * 3000, [], {}, [1, "a", None], [[[]]], {"a": 1}, {"p1": "pass"}, {"expect": {}},
         {"checkpoint": "c"}, "../../etc/passwd", "/dev/zero", ".", "..", "batavia", "batavai", "sha256:0",
         "sha256:0000000000000000", ["nosuch"], {"rolls": {"dice": [0, 7, -1, 10**30]}},
         {"rolls": {"dice": ["x"]}}, {"shuffles": {"deck": [["nosuch"]]}}, {"shuffles": {"nozone": [[]]}},
         {"shuffles": {"deck": [[]]}}, {"winners": ["p1"]}, {"scores": None}]
KEYS = ["game", "variants", "players", "seed", "pins", "position", "actions", "content_hash", "result",
        "rulekit_log", "title", "text", "$schema", "expect", "checkpoint", "p1", "p2", "extra", "Game", "action",
        "seeds", "", "1", "null", "content_parts"]
weird = st.sampled_from(WEIRD).map(copy.deepcopy)
ACTIONS = ["", " ", "pass", "pass ", "PASS", "bid", "bid 0", "bid -1", "bid 1", "bid 99", "bid 99999999999999",
           "bid 1.5", "play", "play nosuch", "draw", "done", "quit", "skip", "add 1", "add 9", "bonus 0",
           "\x00", "é", "p1: pass", "{x}", "bid {n}", "*", "\n", "pass\npass", "stash", "take", "a" * 500]
EXPECT_EXPRS = ["1", "round", "nosuch", "p1.money", "p9.money", "p1.nosuch", "count(", "1 // 0", "[1][5]",
                "none + 1", "x = 1", "players[0]", "count(players)", "top(nosuch)", "list(p1.hand)", "p1 == p2",
                "", " ", "\n", "if true: 1", "\"{x}\"", "λ", "\x00", "\u2028", "1 if true", "move(x, to=y)",
                "end_game()", "first(players)", "round +", "(" * 150 + "1" + ")" * 150, "1" + " + 1" * 150,
                "not " * 150 + "true"]
POSITIONS = ["pass", "x = 1", "round = 99", "end_game()", "x = (", "p1.money = 3", "players[0].nosuch = 1",
             "while true:\n    x = 1", "nosuch()", "move(nosuch, to=nowhere)", "\tx = 1", "1 // 0", "x = 1 // 0",
             "choose players[0]:\n    \"a\":\n        pass", "return 3", "break", "log(\"{1 // 0}\")",
             "for i in range(3):\n    pass", "x = [y for y in z]", "\x00", "if true:\nx = 1"]


@st.composite
def action_step(draw, known: list):
    kind = draw(st.sampled_from(["known", "garbage", "who", "expect", "checkpoint", "weird"]), label="step")
    if kind == "known" and known:
        return draw(st.sampled_from(known), label="action")
    if kind == "garbage":
        return draw(st.sampled_from(ACTIONS), label="action")
    if kind == "who":
        who = draw(st.sampled_from(["p1", "p2", "p3", "p4", "p9", "p0", "P1", "x"]), label="who")
        return {who: draw(st.sampled_from(known + ACTIONS + [3, None, True]), label="action")}
    if kind == "expect":
        return {"expect": {draw(st.sampled_from(EXPECT_EXPRS), label="expr"):
                           draw(st.sampled_from(WEIRD + [0, 1, 5, "p2"]).map(copy.deepcopy), label="value")}}
    if kind == "checkpoint":
        return {"checkpoint": draw(st.sampled_from(["c", "", None, 3, [1], {"a": 1}]), label="name")}
    return draw(weird, label="step")


@st.composite
def script_edits(draw, source: Source) -> bytes:
    data = yaml.safe_load(source.text)
    known = sorted({a if isinstance(a, str) else str(next(iter(a.values())))
                    for a in data.get("actions") or [] if isinstance(a, str) or
                    (isinstance(a, dict) and len(a) == 1 and not {"expect", "checkpoint"} & set(a))})
    for _ in range(draw(st.integers(1, 3), label="edits")):
        kind = draw(st.sampled_from(["delete", "retype", "rename", "unknown", "misspell", "insert-action",
                                     "drop-action", "swap-actions", "truncate-actions", "hash", "position",
                                     "players", "seed", "pins", "result", "game", "variants"]), label="edit")
        actions = data.get("actions") if isinstance(data, dict) else None
        if kind in ("delete", "retype", "rename", "unknown", "misspell"):
            paths = [p for p in paths_of(data) if p]
            if not paths:
                continue
            path = draw(st.sampled_from(paths), label="path")
            parent, key = get(data, path[:-1]), path[-1]
            if kind == "delete":
                del parent[key]
            elif kind == "retype":
                parent[key] = draw(weird, label="value")
            elif kind == "rename" and isinstance(parent, dict):
                new = draw(misspelled(key), label="key")
                renamed = {(new if k == key else k): v for k, v in parent.items()}
                if path[:-1]:
                    get(data, path[:-2])[path[-2]] = renamed
                else:
                    data = renamed
            elif kind == "unknown" and isinstance(parent, dict):
                parent[draw(st.sampled_from(KEYS), label="key")] = draw(weird, label="value")
            elif kind == "misspell" and isinstance(parent[key], str):
                parent[key] = draw(misspelled(parent[key]), label="value")
        elif not isinstance(data, dict):
            continue
        elif kind == "insert-action" and isinstance(actions, list):
            actions.insert(draw(st.integers(0, len(actions)), label="at"), draw(action_step(known)))
        elif kind == "drop-action" and isinstance(actions, list) and actions:
            del actions[draw(st.integers(0, len(actions) - 1), label="at")]
        elif kind == "swap-actions" and isinstance(actions, list) and len(actions) > 1:
            i = draw(st.integers(0, len(actions) - 2), label="at")
            actions[i], actions[i + 1] = actions[i + 1], actions[i]
        elif kind == "truncate-actions" and isinstance(actions, list):
            del actions[draw(st.integers(0, len(actions)), label="keep"):]
        elif kind == "hash":
            data["content_hash"] = draw(st.sampled_from(["sha256:0000000000000000", "", "x", "sha256:",
                                                         str(data.get("content_hash", "")).upper()]), label="hash")
        elif kind == "position":
            data["position"] = draw(st.sampled_from(POSITIONS), label="position")
        elif kind == "players":
            data["players"] = draw(st.sampled_from([0, 1, 2, 3, 4, 5, 6, 16, 17, -1, 10**30, "3", None]))
        elif kind == "seed":
            data["seed"] = draw(st.sampled_from([0, -1, 1, 2**64, -(2**64), 10**30, "7", 1.5, None]))
        elif kind == "pins":
            data["pins"] = draw(st.sampled_from([w for w in WEIRD if isinstance(w, dict)] +
                                                [{"rolls": {"dice": []}}, {"rolls": {"dice": [1] * 500}},
                                                 {"rolls": {"nosuch": [1]}}, {"rolls": None}, {"shuffles": None},
                                                 {"shuffles": {"deck": [["red-1"] * 9]}}]).map(copy.deepcopy),
                                label="pins")
        elif kind == "result" and isinstance(data.get("result"), dict):
            result = data["result"]
            path = draw(st.sampled_from([p for p in paths_of(result) if p]), label="result path")
            get(result, path[:-1])[path[-1]] = draw(weird, label="value")
        elif kind == "game":
            data["game"] = draw(st.sampled_from(["batavia", "batavai", "nosuch", "", ".", "..", "/", "/dev/null",
                                                 "goa", str(GAMES / "broken" / "unknown_key"),
                                                 str(GAMES / "auction" / "game.yaml"), str(GAMES / "counter")]))
        elif kind == "variants":
            data["variants"] = draw(st.sampled_from([[], ["nosuch"], ["open-route"], ["payday"], ["rich", "payday"],
                                                     ["payday", "payday"], [""], ["../game"], [None]]))
    return dump(data, draw)


sources_st = st.integers(0, 10**6)


def pick(sources, index) -> Source:
    return sources[index % len(sources)]


@FUZZ
@given(index=sources_st, data=st.data())
def test_structural_edits_never_crash(sources, index, data):
    source = pick(sources, index)
    run(source, data.draw(script_edits(source), label="mutated"), data)


# ------------------------------------------------------------------ byte-level edits

BITS = [":", ": ", "-", "- ", " ", "    ", "\t", "\n", "[", "]", "{", "}", "#", "&a ", "*a", "!", "|", ">", "'",
        '"', ",", "?", "%", "@", "`", "\x00", "\ufeff", "é", "\r", "\x0c", "\u2028", "~", "null", "---\n",
        "!!python/object/apply:os.system ['true'] ", "\\", "p1: ", "expect: ", "- pass\n"]


@st.composite
def byte_edits(draw, text: str) -> bytes:
    for _ in range(draw(st.integers(1, 4), label="edits")):
        kind = draw(st.sampled_from(["insert", "delete", "truncate", "dup-line", "drop-line", "indent"]),
                    label="edit")
        pos = draw(st.integers(0, len(text)), label="at")
        if kind == "insert":
            text = text[:pos] + draw(st.sampled_from(BITS), label="bit") + text[pos:]
        elif kind == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 30), label="n"):]
        elif kind == "truncate":
            text = text[:pos]
        else:
            lines = text.splitlines(keepends=True) or [""]
            i = draw(st.integers(0, len(lines) - 1), label="line")
            if kind == "dup-line":
                lines.insert(i, lines[i])
            elif kind == "drop-line":
                del lines[i]
            else:
                lines[i] = "  " + lines[i]
            text = "".join(lines)
    return text.encode("utf-8", errors="surrogatepass")


@FUZZ
@given(index=sources_st, data=st.data())
def test_byte_edits_never_crash(sources, index, data):
    source = pick(sources, index)
    run(source, data.draw(byte_edits(source.text), label="mutated"), data)


@FUZZ
@given(index=sources_st, data=st.data())
def test_truncated_files_never_crash(sources, index, data):
    source = pick(sources, index)
    raw = source.text.encode("utf-8")
    run(source, raw[:data.draw(st.integers(0, len(raw)), label="keep")], data)


HOSTILE = {
    "empty": lambda t: b"",
    "a list": lambda t: b"- game\n- x\n",
    "a scalar": lambda t: b"game\n",
    "binary": lambda t: bytes(range(256)),
    "latin-1": lambda t: ("# café\n" + t).encode("latin-1", errors="replace"),
    "utf-16": lambda t: t.encode("utf-16"),
    "bom": lambda t: b"\xef\xbb\xbf" + t.encode(),
    "nul": lambda t: (t[:len(t) // 2] + "\x00" + t[len(t) // 2:]).encode(),
    "tabs": lambda t: re.sub(r"^  ", "\t", t, flags=re.M).encode(),
    "crlf": lambda t: t.replace("\n", "\r\n").encode(),
    "duplicate keys": lambda t: (t + "\n" + t).encode(),
    "two documents": lambda t: (t + "\n---\ngame: x\n").encode(),
    "python tag": lambda t: re.sub(r"^game:", "game: !!python/object/apply:os.system ['echo pwned']\n_game:", t,
                                   count=1, flags=re.M).encode(),
    "python tag as a file": lambda t: b"--- !!python/object/apply:os.system ['echo pwned']\n",
    "billion laughs": lambda t: (t + "\nl0: &l0 [a, a, a, a, a, a, a, a, a]\n" + "".join(
        f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]\n" for i in range(1, 9))).encode(),
    "deep nesting": lambda t: b"game: " + b"[" * 50_000 + b"]" * 50_000 + b"\n",
    "huge file": lambda t: b"# padding\n" * 500_000,
    "merge key": lambda t: (t + "\nbase: &b {x: 1}\nother:\n  <<: *b\n").encode(),
}


@FUZZ
@given(index=sources_st, hostile=st.sampled_from(sorted(HOSTILE)), data=st.data())
def test_hostile_files_never_crash(sources, index, hostile, data):
    source = pick(sources, index)
    run(source, HOSTILE[hostile](source.text), data)
