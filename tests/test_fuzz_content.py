# SPDX-License-Identifier: MIT
"""Bad content never crashes ``rulekit validate``.

Property-based tests that start from valid games (``games/batavia`` and the small
test games under ``tests/games/``), break one file in many ways and run
``rulekit validate FOLDER --format json|full|concise`` in-process. Whatever the
mutation, the command must exit 0 (the mutation happened to be harmless) or 1
(content errors), never 101 (an internal error) and never print a traceback; and
every error it reports must point at a real line of a real file of the game.

The mutations: byte-level edits (inserted YAML punctuation, tabs, NULs, BOMs,
deleted ranges, duplicated, swapped and re-indented lines, truncation), structural
edits (deleted keys, swapped value types, misspelled keys and names, unknown fields,
moved subtrees), edits inside effect-language strings (``do:``, ``expr:``...), and a
catalogue of hostile files (empty files, wrong encodings, python tags, billion
laughs, deep nesting, huge files, several documents...). Rules changed so that they
still validate must also play: ``rulekit autoplay`` ends the game or stops with a
runtime error on a line of the game.

The examples are derandomised; ``RULEKIT_FUZZ_EXAMPLES`` sets how many each test
tries (default 12; 60 in the slow step of ``.ci/run``; ``tests/strategies.py``)::

    RULEKIT_FUZZ_EXAMPLES=2000 python -m pytest tests/test_fuzz_content.py
"""
from __future__ import annotations

import contextlib
import copy
import json
import os
import re
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from strategies import FUZZ, Styled, cli, dump, get, misspelled, paths_of

ROOT = Path(__file__).resolve().parents[1]

SOURCES = {
    "batavia": ROOT / "games" / "batavia",
    "auction": ROOT / "tests" / "games" / "auction",
    "counter": ROOT / "tests" / "games" / "counter",
    "hidden": ROOT / "tests" / "games" / "hidden",
}
SOURCES = {name: path for name, path in SOURCES.items() if (path / "game.yaml").is_file()}
FORMATS = ("json", "full", "concise")
DSL_KEYS = {"do", "expr", "when", "points", "setup", "finish", "end_after_round_if", "estimate", "options"}


# ------------------------------------------------------------------ the games, copied once

class Game:
    """A copy of a valid game in a scratch folder; one file at a time is replaced and restored."""

    def __init__(self, name: str, folder: Path):
        self.name = name
        self.folder = folder
        self.files = sorted(str(p.relative_to(folder)).replace(os.sep, "/")
                            for p in folder.rglob("*.yaml"))
        self.variants = sorted(p.stem for p in (folder / "variants").glob("*.yaml"))
        self.original = {rel: (folder / rel).read_bytes() for rel in self.files}

    def text(self, rel: str) -> str:
        return self.original[rel].decode("utf-8")

    @contextlib.contextmanager
    def edited(self, rel: str, data: bytes | None):
        """The game with ``rel`` replaced by ``data`` (None: the file is removed)."""
        path = self.folder / rel
        try:
            if data is None:
                path.unlink()
            else:
                path.write_bytes(data)
            yield
        finally:
            path.write_bytes(self.original[rel])


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> dict[str, Game]:
    base = tmp_path_factory.mktemp("fuzz-content")
    out = {}
    for name, source in SOURCES.items():
        target = base / name
        target.mkdir()
        for path in source.rglob("*.yaml"):
            rel = path.relative_to(source)
            if rel.parts[0] not in ("scripts", "scenarios"):   # scripts are not content
                (target / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target / rel)
        out[name] = Game(name, target)
    return out


# ------------------------------------------------------------------ running and checking

LOCATION = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<column>\d+)$")


def check_location(game: Game, path: str, line: int, column: int, context: str) -> None:
    """A diagnostic's place is a line of a file of the game (a variant file included)."""
    full = Path(path) if os.path.isabs(path) else Path.cwd() / path
    assert full.is_file(), f"diagnostic names `{path}`, which is not a file\n{context}"
    assert game.folder.resolve() in full.resolve().parents, f"`{path}` is not in the game\n{context}"
    # every character some tool takes for a line break counts (YAML also breaks at U+2028...)
    lines = len(full.read_bytes().decode("utf-8", errors="replace").splitlines()) + 1
    assert 1 <= line <= lines + 1, f"line {line} is not in `{path}` ({lines} lines)\n{context}"
    assert column >= 1, context


def validate(game: Game, fmt: str, variants=(), provenance: bool = False) -> tuple[int, str]:
    """Run ``rulekit validate`` and check the universal promises; returns (code, output)."""
    argv = ["validate", game.folder, "--format", fmt] + (["--provenance"] if provenance else [])
    for variant in variants:
        argv += ["--variant", variant]
    code, out, err = cli(*argv)
    context = f"$ rulekit {' '.join(map(str, argv[1:]))}\nexit {code}\n{out}{err}"
    assert code != 101, context
    assert "Traceback" not in out + err and "internal error" not in err, context
    assert code in (0, 1), context       # never 2: the folder and the variant names exist
    if fmt == "json":
        data = json.loads(out)
        assert data["ok"] is (code == 0), context
        errors = [d for d in data["diagnostics"] if d["severity"] == "error"]
        if code == 1:
            assert errors, context
        for diag in errors:
            assert re.fullmatch(r"RK\d{4}", diag["code"]), context
            assert "path" in diag and "line" in diag, f"an error without a place\n{context}"
            check_location(game, diag["path"], diag["line"], diag["column"], context)
    elif fmt == "concise":
        errors = [line for line in out.splitlines() if "error[RK" in line]
        if code == 1:
            assert errors, context
        for line in errors:
            where, _, _ = line.partition(": error[RK")
            match = LOCATION.match(where)
            assert match, f"an error without a place\n{context}"
            check_location(game, match["path"], int(match["line"]), int(match["column"]), context)
    else:
        blocks = [b for b in out.split("\n\n") if b.startswith("error[RK")]
        if code == 1:
            assert blocks and re.search(r"^Found \d+ errors?( and \d+ warnings?)? in \d+ files?\.$", out, re.M), context
        for block in blocks:
            match = re.search(r"^  --> (.+)$", block, re.M)
            assert match, f"an error without a place\n{context}"
            where = LOCATION.match(match.group(1))
            check_location(game, where["path"], int(where["line"]), int(where["column"]), context)
    if code == 0:
        assert "error[" not in out, context
    return code, out


def pick_file(data, game: Game) -> str:
    return data.draw(st.sampled_from(game.files), label="file")


def variants_for(data, game: Game, rel: str) -> tuple:
    """Apply the variant whose file was mutated, or (sometimes) any other."""
    if rel.startswith("variants/"):
        return (Path(rel).stem,)
    if game.variants and data.draw(st.booleans(), label="with a variant"):
        return (data.draw(st.sampled_from(game.variants), label="variant"),)
    return ()


games_st = st.sampled_from(sorted(SOURCES))


# ------------------------------------------------------------------ the valid starting points

@pytest.mark.parametrize("name", sorted(SOURCES))
def test_the_unmutated_games_are_valid(games, name):
    game = games[name]
    assert validate(game, "json")[0] == 0
    for variant in game.variants:
        assert validate(game, "concise", (variant,))[0] == 0


# ------------------------------------------------------------------ byte-level edits

YAML_BITS = [":", ": ", "-", "- ", " ", "    ", "\t", "\n", "\n\n", "[", "]", "{", "}", "#", "&a ", "*a", "*b",
             "!", "!!", "|", ">", "'", '"', ",", "?", "? ", "%", "@", "`", "\x00", "\ufeff", "é", "\r", "\r\n",
             "\x0c", "\x1b", "\u2028", "\u202e", "~", "null", "0x", "1e9", "<<: *a", "---\n", "...\n",
             "key: value\n", "- item\n", "!!python/object/apply:os.system ['true'] ", "\\", "{{", "}}"]


@st.composite
def byte_edits(draw, text: str) -> bytes:
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 4), label="edits")):
        kind = draw(st.sampled_from(["insert", "delete", "dup-line", "drop-line", "swap-lines", "indent",
                                     "dedent", "truncate", "replace-char"]), label="edit")
        text = "".join(lines)
        if not text:
            text = draw(st.sampled_from(YAML_BITS))
        pos = draw(st.integers(0, len(text)), label="at")
        if kind == "insert":
            text = text[:pos] + draw(st.sampled_from(YAML_BITS), label="bit") + text[pos:]
        elif kind == "delete":
            text = text[:pos] + text[pos + draw(st.integers(1, 40), label="n"):]
        elif kind == "replace-char" and pos < len(text):
            text = text[:pos] + draw(st.sampled_from(YAML_BITS), label="bit") + text[pos + 1:]
        elif kind == "truncate":
            text = text[:pos]
        lines = text.splitlines(keepends=True) or [""]
        i = draw(st.integers(0, len(lines) - 1), label="line")
        j = draw(st.integers(0, len(lines) - 1), label="other line")
        if kind == "dup-line":
            lines.insert(i, lines[i] if lines[i].endswith("\n") else lines[i] + "\n")
        elif kind == "drop-line":
            del lines[i]
        elif kind == "swap-lines":
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "indent":
            lines[i] = " " * draw(st.integers(1, 4), label="n") + lines[i]
        elif kind == "dedent":
            lines[i] = lines[i][2:] if lines[i].startswith("  ") else lines[i].lstrip(" ")
    return "".join(lines).encode("utf-8", errors="surrogatepass")


@FUZZ
@given(name=games_st, fmt=st.sampled_from(FORMATS), data=st.data())
def test_byte_edits_never_crash(games, name, fmt, data):
    game = games[name]
    rel = pick_file(data, game)
    mutated = data.draw(byte_edits(game.text(rel)), label="mutated")
    with game.edited(rel, mutated):
        validate(game, fmt, variants_for(data, game, rel), data.draw(st.booleans(), label="--provenance"))


# ------------------------------------------------------------------ structural edits

WEIRD_VALUES = [None, True, False, 0, -1, 1, 2, 10**30, -10**30, 1.5, float("inf"), "", " ", "x", "none", "null",
                "p1", "box", "🎲", "a" * 5000, [], {}, [1, "a", None], [[[]]], {"a": 1}, {"do": "pass"},
                {"id": "x"}, {"expr": "1"}, "{x}", "{n}", "{{", "%s", "../../etc/passwd", "/dev/zero", ".",
                "game.yaml", "variants", "pass", "x = (", "public", "owner", "face_up", [1, 2], ["a", "b"],
                {"min": 1, "max": 0}, {"initial": [1, 2]}, {"range": [3, 1]}, {"keys": "nosuch"}]
weird = st.sampled_from(WEIRD_VALUES).map(copy.deepcopy)
UNKNOWN_KEYS = ["extra", "Do", "params ", "provenance", "text", "ruling", "id", "do", "when", "expr", "include",
                "remove", "replace", "variant", "<<", "1", "null", "", " ", "x-y", "visibility", "capacity",
                "copies", "generate", "items", "start", "state", "keys", "range", "rounds", "phases",
                "finish", "categories", "tiebreak", "meta", "players", "flow", "min", "max", "initial",
                "$schema", "render", "layout", "option_groups", "options"]


def _rename(parent: dict, old, new) -> dict:
    return {(new if k == old else k): v for k, v in parent.items()}


@st.composite
def structural_edits(draw, text: str) -> bytes:
    data = yaml.safe_load(text)
    for _ in range(draw(st.integers(1, 3), label="edits")):
        paths = list(paths_of(data))
        path = draw(st.sampled_from(paths), label="path")
        kind = draw(st.sampled_from(["delete", "retype", "rename", "unknown", "misspell-value", "move",
                                     "duplicate", "empty"]), label="edit")
        if not path:
            if kind in ("retype", "empty"):
                data = draw(weird, label="value")
            continue
        parent, key = get(data, path[:-1]), path[-1]
        value = parent[key]
        if kind == "delete":
            del parent[key]
        elif kind == "retype":
            parent[key] = draw(weird, label="value")
        elif kind == "empty":
            parent[key] = type(value)() if isinstance(value, (dict, list, str)) else None
        elif kind == "rename" and isinstance(parent, dict):
            new = draw(misspelled(key), label="new key")
            renamed = _rename(parent, key, new)
            if path[:-1]:
                get(data, path[:-2])[path[-2]] = renamed
            else:
                data = renamed
        elif kind == "unknown":
            target = value if isinstance(value, dict) else parent if isinstance(parent, dict) else None
            if target is not None:
                target[draw(st.sampled_from(UNKNOWN_KEYS), label="key")] = \
                    draw(weird, label="value")
        elif kind == "misspell-value" and isinstance(value, (str, int)) and not isinstance(value, bool):
            parent[key] = draw(misspelled(value), label="new value")
        elif kind == "move":
            other = draw(st.sampled_from(paths), label="to")
            if other and other[:len(path)] != path:
                try:
                    get(data, other[:-1])[other[-1]] = value
                except (KeyError, IndexError, TypeError):
                    pass
        elif kind == "duplicate" and isinstance(parent, list):
            parent.insert(key, value)
    return dump(data, draw)


@FUZZ
@given(name=games_st, fmt=st.sampled_from(FORMATS), data=st.data())
def test_structural_edits_never_crash(games, name, fmt, data):
    game = games[name]
    rel = pick_file(data, game)
    mutated = data.draw(structural_edits(game.text(rel)), label="mutated")
    with game.edited(rel, mutated):
        validate(game, fmt, variants_for(data, game, rel), data.draw(st.booleans(), label="--provenance"))


# ------------------------------------------------------------------ edits inside effect-language text

DSL_BITS = ["(", ")", ":", "\n", "    ", "  ", "\t", " ", "=", "==", "+=", "+", "-", "*", "//", "%", ",", ".",
            "[", "]", "{", "}", '"', "'", "#", "if ", "else", "elif x:", "for ", " in ", "while ", "choose ",
            "return", "break", "continue", "pass", "none", "true", "false", "not ", " and ", " or ", "x", "p",
            "p1", "move(", "to=", 'log("{', "\\", "@", "$", "!", "1e5", "0x10", "9" * 30, "λ", "\x00", "\r",
            "\u2028", "\x0c", "\ufeff", "include ", "end_game()", "count(", "range(", "lambda", "import os",
            "__class__", "._x", "**", "->", ";", "\"{x\"", "{{", "}}", "\"{}\"", "\"{1 +}\""]
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@st.composite
def dsl_edit(draw, source: str) -> str:
    for _ in range(draw(st.integers(1, 3), label="edits")):
        kind = draw(st.sampled_from(["insert", "delete", "replace", "misspell-name", "dup-line", "drop-line",
                                     "indent", "dedent", "tabs", "truncate"]), label="dsl edit")
        pos = draw(st.integers(0, len(source)), label="at")
        if kind == "insert":
            source = source[:pos] + draw(st.sampled_from(DSL_BITS), label="bit") + source[pos:]
        elif kind == "delete":
            source = source[:pos] + source[pos + draw(st.integers(1, 12), label="n"):]
        elif kind == "replace":
            source = source[:pos] + draw(st.sampled_from(DSL_BITS), label="bit") + source[pos + 1:]
        elif kind == "truncate":
            source = source[:pos]
        elif kind == "misspell-name":
            names = list(NAME.finditer(source))
            if names:
                m = draw(st.sampled_from(names), label="name")
                source = source[:m.start()] + draw(misspelled(m.group()), label="typo") + source[m.end():]
        else:
            lines = source.split("\n")
            i = draw(st.integers(0, len(lines) - 1), label="line")
            if kind == "dup-line":
                lines.insert(i, lines[i])
            elif kind == "drop-line":
                del lines[i]
            elif kind == "indent":
                lines[i] = "    " + lines[i]
            elif kind == "dedent":
                lines[i] = lines[i][4:] if lines[i].startswith("    ") else lines[i].lstrip()
            else:
                lines[i] = lines[i].replace("    ", "\t")
            source = "\n".join(lines)
    return source


def dsl_paths(data) -> list[tuple]:
    out = []
    for path in paths_of(data):
        if path and isinstance(get(data, path), str) and (
                path[-1] in DSL_KEYS or (len(path) > 1 and path[-2] == "tiebreak")):
            out.append(path)
    return out


def draw_dsl_site(data, game) -> tuple:
    """Draw a content file with effect-language text and one such text in it:
    (file, its parsed content, the mapping or list holding the text, the text's key)."""
    candidates = [rel for rel in game.files if dsl_paths(yaml.safe_load(game.text(rel)))]
    rel = data.draw(st.sampled_from(candidates), label="file")
    content = yaml.safe_load(game.text(rel))
    path = data.draw(st.sampled_from(dsl_paths(content)), label="path")
    return rel, content, get(content, path[:-1]), path[-1]


@FUZZ
@given(name=games_st, fmt=st.sampled_from(FORMATS), data=st.data())
def test_effect_language_edits_never_crash(games, name, fmt, data):
    game = games[name]
    rel, content, parent, key = draw_dsl_site(data, game)
    edited = Styled(data.draw(dsl_edit(parent[key]), label="text"))
    edited.style = data.draw(st.sampled_from(["|", '"', "'", None, ">"]), label="style")
    parent[key] = edited
    with game.edited(rel, dump(content, data.draw)):
        validate(game, fmt, variants_for(data, game, rel))


# ------------------------------------------------------------------ hostile files

def _laughs(levels: int = 9) -> str:
    out = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels):
        out.append(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]")
    return "\n".join(out) + "\n"


def _tabs(text: str) -> str:
    return "\n".join(re.sub(r"^( {2})+", lambda m: "\t" * (len(m.group()) // 2), line)
                     for line in text.split("\n"))


def _nested_blocks(depth: int) -> str:
    return "".join("  " * i + f"k{i}:\n" for i in range(depth)) + "  " * depth + "end\n"


TAGS = ["!!python/object/apply:os.system ['echo pwned']", "!!python/name:os.system",
        "!!python/object/new:os.system [ls]",
        "!!python/tuple [1, 2]", "!<tag:yaml.org,2002:python/object/apply:os.system> [ls]", "!!binary aGVsbG8=",
        "!!set {a, b}", "!!omap [a: 1]", "!!timestamp 2001-12-14", "!!int abc", "!!float x", "!!bool maybe",
        "!!null x", "!custom value", "!!str 1", "!!map {a: 1}", "!!seq [1]", "!!merge x", "!!value x"]

HOSTILE = {
    # whole-file replacements (the original text is ignored)
    "empty": lambda t: b"",
    "blank": lambda t: b"   \n\n  \n",
    "comment only": lambda t: b"# nothing here\n",
    "bom only": lambda t: b"\xef\xbb\xbf",
    "a list": lambda t: b"- a\n- b\n",
    "a scalar": lambda t: b"just words\n",
    "null document": lambda t: b"~\n",
    "binary": lambda t: bytes(range(256)) * 4,
    "nul bytes": lambda t: b"\x00" * 64,
    "billion laughs": lambda t: _laughs().encode(),
    "billion laughs in a section": lambda t: (t + "\nlaughs:\n" +
                                              "".join("  " + line + "\n" for line in _laughs().splitlines())).encode(),
    "recursive alias": lambda t: b"a: &a [*a]\n",
    "deep flow lists": lambda t: b"x: " + b"[" * 100_000 + b"]" * 100_000 + b"\n",
    "deep flow maps": lambda t: b"x: " + b"{a: " * 50_000 + b"1" + b"}" * 50_000 + b"\n",
    "unclosed flow lists": lambda t: b"x: " + b"[" * 100_000 + b"\n",
    "deep blocks": lambda t: _nested_blocks(200).encode(),
    "huge file": lambda t: b"# padding\n" * 500_000,
    "huge string": lambda t: b"meta: {title: '" + b"x" * (5 * 1024 * 1024) + b"'}\n",
    "long line": lambda t: b"meta: {title: " + b"y" * 1_000_000 + b"}\n",
    # the original text, damaged
    "bom": lambda t: b"\xef\xbb\xbf" + t.encode(),
    "two boms": lambda t: b"\xef\xbb\xbf\xef\xbb\xbf" + t.encode(),
    "latin-1": lambda t: ("# café\n" + t).encode("latin-1", errors="replace"),
    "latin-1 at the end": lambda t: (t + "\n# ñandú\n").encode("latin-1", errors="replace"),
    "utf-16": lambda t: t.encode("utf-16"),
    "utf-32": lambda t: t.encode("utf-32"),
    "nul in the middle": lambda t: (t[:len(t) // 2] + "\x00" + t[len(t) // 2:]).encode(),
    "control character": lambda t: (t[:len(t) // 3] + "\x07" + t[len(t) // 3:]).encode(),
    "surrogate bytes": lambda t: t.encode() + b"\n# \xed\xa0\x80\n",
    "tabs": lambda t: _tabs(t).encode(),
    "crlf": lambda t: t.replace("\n", "\r\n").encode(),
    "cr only": lambda t: t.replace("\n", "\r").encode(),
    "unicode line separators": lambda t: t.replace("\n", "\u2028").encode(),
    "form feeds": lambda t: t.replace("\n\n", "\n\x0c\n").encode(),
    "duplicated file": lambda t: (t + "\n" + t).encode(),
    "two documents": lambda t: (t + "\n---\nmeta: {title: again}\n").encode(),
    "document end marker": lambda t: (t + "\n...\n").encode(),
    "directive": lambda t: ("%YAML 1.1\n%TAG ! tag:evil.com,2000:\n---\n" + t).encode(),
    "merge key": lambda t: (t + "\nbase: &base {a: 1}\nmerged:\n  <<: *base\n").encode(),
    "complex key": lambda t: (t + "\n? [a, b]\n: 1\n").encode(),
    "non-string keys": lambda t: (t + "\n1: a\nnull: b\ntrue: c\n1.5: d\n~: e\n").encode(),
    "aliases of sections": lambda t: re.sub(r"^(\w+):", r"\1: &\1", t, count=1, flags=re.M).encode(),
    "huge integer": lambda t: re.sub(r"\b\d+\b", "9" * 400, t, count=3).encode(),
    "huge float": lambda t: re.sub(r"\b\d+\b", "1e999", t, count=3).encode(),
    "nan": lambda t: re.sub(r"\b\d+\b", ".nan", t, count=3).encode(),
    "dates": lambda t: re.sub(r"\b\d+\b", "2001-12-14", t, count=3).encode(),
    "truncated utf-8": lambda t: t.encode()[:-1] + b"\xc3",
}
for _i, _tag in enumerate(TAGS):
    HOSTILE[f"tag {_tag}"] = (lambda tag: lambda t: re.sub(r"^(\w+):",
                                                           lambda m: f"{m.group(1)}: {tag}\n_old_{m.group(1)}:",
                                                           t, count=1, flags=re.M).encode())(_tag)
    HOSTILE[f"tag {_tag} as a file"] = (lambda tag: lambda t: f"--- {tag}\n".encode())(_tag)


@pytest.mark.parametrize("hostile", sorted(HOSTILE))
def test_hostile_files_never_crash(games, hostile):
    game = games["auction"] if "auction" in games else next(iter(games.values()))
    for rel, fmt in (("game.yaml", "json"), (game.files[-1], "full")):
        with game.edited(rel, HOSTILE[hostile](game.text(rel))):
            validate(game, fmt, variants_for_file(game, rel))


def variants_for_file(game: Game, rel: str) -> tuple:
    return (Path(rel).stem,) if rel.startswith("variants/") else ()


@FUZZ
@given(name=games_st, hostile=st.sampled_from(sorted(HOSTILE)), fmt=st.sampled_from(FORMATS), data=st.data())
def test_hostile_files_anywhere_never_crash(games, name, hostile, fmt, data):
    game = games[name]
    rel = pick_file(data, game)
    with game.edited(rel, HOSTILE[hostile](game.text(rel))):
        validate(game, fmt, variants_for(data, game, rel))


@FUZZ
@given(name=games_st, data=st.data())
def test_removed_and_redirected_files_never_crash(games, name, data):
    """An included file deleted, or ``include:`` pointing somewhere strange."""
    game = games[name]
    if data.draw(st.booleans(), label="remove a file"):
        rel = data.draw(st.sampled_from([f for f in game.files if f != "game.yaml"] or ["game.yaml"]))
        if rel == "game.yaml":
            return
        with game.edited(rel, None):
            validate(game, "json", ())
        return
    root = yaml.safe_load(game.text("game.yaml"))
    target = data.draw(st.sampled_from([
        "game.yaml", ".", "..", "variants", "/dev/null", "/dev/zero", "/etc/passwd", "../../../../etc/passwd",
        "nosuch.yaml", "", " ", "game.yaml\x00.txt", "a" * 5000, "variants/../game.yaml", "*.yaml",
        "~/x.yaml", "C:\\x.yaml", "\\\\server\\share", "rules.yaml ", "RULES.YAML"]), label="include")
    includes = list(root.get("include") or [])
    includes.insert(data.draw(st.integers(0, len(includes)), label="at"), target)
    root["include"] = includes
    with game.edited("game.yaml", dump(root, data.draw)):
        validate(game, data.draw(st.sampled_from(FORMATS), label="format"), ())


# ------------------------------------------------------------------ games that still validate also play

SEMANTIC_EDITS = ["number", "operator", "comparison", "name", "negate", "drop-line", "swap-args"]


@st.composite
def semantic_edit(draw, source: str) -> str:
    """Edits that often keep effect-language text valid but change what it does."""
    for _ in range(draw(st.integers(1, 2), label="edits")):
        kind = draw(st.sampled_from(SEMANTIC_EDITS), label="semantic edit")
        if kind == "number" and re.search(r"\b\d+\b", source):
            numbers = list(re.finditer(r"\b\d+\b", source))
            m = draw(st.sampled_from(numbers), label="number")
            value = draw(st.sampled_from(["0", "1", "2", "-1", "99", "100000"]), label="value")
            source = source[:m.start()] + value + source[m.end():]
        elif kind in ("operator", "comparison"):
            ops = ["+", "-", "*", "//", "%"] if kind == "operator" else ["<", ">", "==", "!=", "<=", ">="]
            found = [m for m in re.finditer(r"(?<![<>=!/])(" + "|".join(map(re.escape, ops)) + r")(?![=/])", source)]
            if found:
                m = draw(st.sampled_from(found), label="operator")
                source = source[:m.start()] + draw(st.sampled_from(ops), label="new operator") + source[m.end():]
        elif kind == "name":
            names = sorted(set(NAME.findall(source)))
            if len(names) > 1:
                old = draw(st.sampled_from(names), label="name")
                new = draw(st.sampled_from(names), label="other name")
                source = re.sub(rf"\b{re.escape(old)}\b", new, source, count=1)
        elif kind == "negate":
            source = source.replace("not ", "", 1) if "not " in source else source.replace("if ", "if not ", 1)
        elif kind == "drop-line":
            lines = source.split("\n")
            if len(lines) > 2:
                del lines[draw(st.integers(0, len(lines) - 2), label="line")]
            source = "\n".join(lines)
        elif kind == "swap-args":
            source = re.sub(r"\(([^(),]+), ([^(),]+)\)", r"(\2, \1)", source, count=1)
    return source


PLAYABLE = [name for name in sorted(SOURCES) if name != "batavia"]   # small games: a full game is quick


@pytest.mark.skipif(not PLAYABLE, reason="no small test games")
@FUZZ
@given(name=st.sampled_from(PLAYABLE or ["-"]), seed=st.integers(0, 50), data=st.data())
def test_changed_rules_that_validate_also_play_without_crashing(games, name, seed, data):
    """Content that checks clean but does something else: `rulekit autoplay` ends the game
    (exit 0) or stops with a content error on a line of the game (exit 1)."""
    game = games[name]
    rel, content, parent, key = draw_dsl_site(data, game)
    parent[key] = data.draw(semantic_edit(parent[key]), label="text")
    variants = variants_for(data, game, rel)
    with game.edited(rel, dump(content, data.draw)):
        if validate(game, "concise", variants)[0] != 0:
            return
        argv = ["autoplay", game.folder, "--seed", seed, "--quiet", "--max-actions", 3000]
        for variant in variants:
            argv += ["--variant", variant]
        code, out, err = cli(*argv)
        context = f"$ rulekit {' '.join(map(str, argv))}\nexit {code}\n{out}{err}"
        assert code in (0, 1) and "Traceback" not in out + err and "internal error" not in err, context
        if code == 1:
            where = re.search(r"^  --> (.+)$", out, re.M)
            assert where and "error[RK4" in out, f"a runtime error without a place\n{context}"
            match = LOCATION.match(where.group(1))
            check_location(game, match["path"], int(match["line"]), int(match["column"]), context)
