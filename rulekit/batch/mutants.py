# SPDX-License-Identifier: MIT
"""The single-rule mutants ``rulekit mutate`` plants in a game: each one change to the text of
one rule file (a number one more or less, a flag flipped, a comparison or an operator swapped, a
statement made ``pass``, a condition negated, an option's condition dropped), written where the
designer wrote it so that a survivor reads as a diff of their own file.

Only rules are changed: prose (``text:``, ``ruling:``...), names, and the sections that say how a
game is told or drawn or how bots play (``narrate``, ``render``, ``bots``...) are left alone, and
so are quoted texts and comments inside code. The same game gives the same mutants in the same
order. ``benchmarks/mutants.py`` is the project's fuller harness (a second family that writes the
wrong name); this is the designer's, on their own files.
"""
from __future__ import annotations

import os
import re

import attrs
import yaml

from ..source import read_regular

NOT_RULES = frozenset({"meta", "render", "narrate", "bots", "search", "estimate", "include", "variant",
                       "players"})      # the player counts: every script names its own
PROSE = frozenset({"text", "ruling", "provenance", "title", "designer", "publisher", "source", "year", "id", "type",
                   "layout", "label", "color_by", "player_color_by"})
CODE = frozenset({"do", "expr", "points", "when", "setup", "finish", "end_after_round_if", "eligible", "options",
                  "tiebreak"})
SWAP = {"<=": "<", "<": "<=", ">=": ">", ">": ">=", "==": "!=", "!=": "==", "+=": "-=", "-=": "+=", "+": "-",
        "-": "+", "and": "or", "or": "and", "true": "false", "false": "true", "min": "max", "max": "min"}
_TOKEN = re.compile(r"(?<![<>=!+\-*/])(?:<=|>=|==|!=|\+=|-=|<|>)(?!=)|(?<=\s)[+-](?=\s)"
                    r"|\b(?:and|or|true|false|min|max)\b|(?<![\w.])\d+(?![\w.])")
_HEADER = re.compile(r"^(\s*)(if|elif|while)\s+(.*):\s*$")
_OPTION_IF = re.compile(r"\sif\s")


@attrs.frozen
class Mutant:
    """One change: in ``file`` (from the game folder), at ``line``, the text ``span`` (start, end)
    becomes ``new``; ``op`` names the kind of change."""

    file: str
    line: int
    span: tuple
    new: str
    op: str

    def applied(self, text: str) -> str:
        start, end = self.span
        return text[:start] + self.new + text[end:]

    def lines(self, text: str) -> tuple[str, str]:
        """The changed line, before and after."""
        start, end = self.span
        begin = text.rfind("\n", 0, start) + 1
        stop = text.find("\n", end)
        line = text[begin:len(text) if stop < 0 else stop]
        return line, self.applied(text)[begin:begin + len(line) - (end - start) + len(self.new)]

    def change(self, text: str) -> str:
        """``rules.yaml:81: swap: `if a >= 10:` -> `if a > 10:```, on one line."""
        before, after = self.lines(text)
        return f"{self.file}:{self.line}: {self.op}: `{_squeezed(before)}` -> `{_squeezed(after)}`"


def _squeezed(line: str, width: int = 100) -> str:
    line = " ".join(line.split())
    return line if len(line) <= width else line[:width - 3] + "..."


def rule_files(folder: str, variants: tuple | None = None) -> list[str]:
    """The game's files that hold rules (any section but how it is told, drawn or botted), then
    its variants' files (``variants``: the names to take; None, all of them)."""
    own = sorted(f for f in os.listdir(folder) if f.endswith((".yaml", ".yml")))
    here = os.path.join(folder, "variants")
    extra = sorted(f"variants/{f}" for f in (os.listdir(here) if os.path.isdir(here) else ())
                   if f.endswith((".yaml", ".yml")) and (variants is None or os.path.splitext(f)[0] in variants))
    return [name for name in own + extra if _holds_rules(folder, name)]


def _holds_rules(folder: str, name: str) -> bool:
    try:
        data = yaml.safe_load(read_text(folder, name))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and bool(set(data) - NOT_RULES)


def read_text(folder: str, name: str) -> str:
    """A file of the game, read only as a regular file inside its folder."""
    return read_regular(os.path.join(folder, name), folder).decode("utf-8")


def mutants_of(folder: str, variants: tuple | None = None) -> list[Mutant]:
    """Every mutant of the game in ``folder``, file by file, in text order, each change once."""
    out: list[Mutant] = []
    for name in rule_files(folder, variants):
        text = read_text(folder, name)
        seen = set()
        for start, end, new, op in sorted(_walk(yaml.compose(text), (), text), key=lambda m: m[:2] + (m[3], m[2])):
            if (start, end, new) not in seen and text[start:end] != new:
                seen.add((start, end, new))
                out.append(Mutant(name, text.count("\n", 0, start) + 1, (start, end), new, op))
    return out


def _walk(node, path: tuple, text: str):
    """(start, end, new, op) of each change of ``node``, found at ``path`` of its file."""
    if path and path[0] in NOT_RULES:
        return
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value not in PROSE:
                yield from _walk(value, path + (key.value,), text)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            yield from _walk(item, path + (i,), text)
    elif isinstance(node, yaml.ScalarNode):
        yield from _scalar(node, path, text)


def _scalar(node, path: tuple, text: str):
    start, end = node.start_mark.index, node.end_mark.index
    key = next((k for k in reversed(path) if isinstance(k, str)), None)
    plain = node.style is None
    if plain and node.tag.endswith(":int") and not (path[:1] == ("params",) and key in ("min", "max")):
        value = int(node.value, 0)
        yield start, end, str(value + 1), "number +1"
        yield start, end, str(value - 1), "number -1"
    elif plain and node.tag.endswith(":bool"):
        yield start, end, "false" if node.value.lower() == "true" else "true", "flip"
    elif key in CODE and isinstance(node.value, str):
        yield from _tokens(text, start, end, node.style)
        if node.style == "|":
            yield from _statements(text, start, end)


def _tokens(text: str, start: int, end: int, style):
    """An operator swapped or a number moved by one, in the code of a scalar (never in a quoted
    text or a comment)."""
    raw = text[start:end]
    code = _code_only(raw, style)
    for match in _TOKEN.finditer(code):
        word, at = match.group(0), start + match.start()
        if word.isdigit():
            yield at, at + len(word), str(int(word) + 1), "number +1"
            yield at, at + len(word), str(int(word) - 1), "number -1"
        else:
            yield at, at + len(word), SWAP[word], "swap"


_TEXTS = {None: r"\"[^\"\n]*\"?|'[^'\n]*'?", '"': r"'[^'\n]*'?", "'": r'"[^"\n]*"?'}
_NOT_CODE = {style: re.compile(texts) for style, texts in _TEXTS.items()}
_NOT_CODE["|"] = re.compile(_TEXTS[None] + r"|#[^\n]*")       # a block of statements has comments too


def _code_only(raw: str, style) -> str:
    """``raw`` with everything that is not code (a block's header, the scalar's own quotes, quoted
    texts, comments) made blanks, so that positions still match."""
    begin = raw.find("\n") + 1 if style in ("|", ">") else 0
    inner = raw[begin:]
    if style in ('"', "'"):
        inner = " " + inner[1:-1] + " "
    pattern = _NOT_CODE.get(style, _NOT_CODE[None])
    return " " * begin + pattern.sub(lambda m: " " * len(m.group(0)), inner)


def _statements(text: str, start: int, end: int):
    """In a block of statements: a statement made ``pass``, a condition negated, an option's
    condition dropped or negated (a ``log`` line is no rule and is left alone)."""
    raw = text[start:end]
    code = _code_only(raw, "|")
    at = start + raw.find("\n") + 1
    for line, masked in zip(raw[at - start:].split("\n"), code[at - start:].split("\n")):
        body = line[:len(masked.rstrip())] if masked.strip() else ""
        stripped = body.strip()
        if stripped and stripped != "pass":
            yield from _line_mutants(at, body, masked)
        at += len(line) + 1


def _line_mutants(at: int, body: str, masked: str):
    indent = body[:len(body) - len(body.lstrip())]
    stripped = body.strip()
    header = _HEADER.match(body)
    if header:
        yield at, at + len(body), f"{header.group(1)}{header.group(2)} not ({header.group(3)}):", "negate condition"
    elif stripped[0] in "\"'" and stripped.endswith(":"):
        yield from _option(at, body, masked)
    elif not stripped.endswith(":") and not stripped.startswith("log("):
        yield at, at + len(body), indent + "pass", "statement -> pass"


def _option(at: int, body: str, masked: str):
    """A ``choose`` option ``"label" ... if COND [says "..."]:`` with COND dropped or negated."""
    says = masked.find(" says ")
    tail_at = says if says >= 0 else len(body.rstrip()) - 1
    found = [m for m in _OPTION_IF.finditer(masked[:tail_at])]
    if not found:
        return
    cond_at = found[-1]
    cond, tail = body[cond_at.end():tail_at].strip(), body[tail_at:]
    yield at, at + len(body), body[:cond_at.start()] + tail, "drop option condition"
    yield at, at + len(body), body[:cond_at.end()] + f"not ({cond})" + tail, "negate option condition"
