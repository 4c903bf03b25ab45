# SPDX-License-Identifier: MIT
"""Lines of generated code laid out within :data:`WIDTH` columns, as a careful engineer would wrap them.

The code writer builds a statement as one logical line; a long one (a call with a dozen
arguments, a test of five parts) is broken here inside its brackets, where Python joins lines
by itself: after the opening bracket, at each comma (or, with none, before each ``for``,
``if``, ``else``, ``and``, ``or`` or comparison), and before the closing bracket, each part one
level deeper; a part still too long with no bracket of its own (deep in a nest) is cut at its
words and operators the same way. Only whitespace between tokens changes, never a token, so
the code means exactly what the logical line meant (tests/test_generated_code.py compares the
trees). This is the printer's last step: nothing here decides what code to write.
"""
from __future__ import annotations

import functools
import io
import tokenize

WIDTH = 120
STEP = "    "

_OPEN, _CLOSE = "([{", ")]}"
_WORDS = frozenset(("for", "if", "else", "and", "or"))
_COMPARE = frozenset(("==", "!=", "<", "<=", ">", ">=", "is", "in", "not"))


_ARITHMETIC = frozenset(("+", "-", "*", "/", "//", "%"))


def _binary(before: str) -> bool:
    """An operator after ``before`` joins two operands (not a sign: ``-1``, ``(-x``, ``, -y``)."""
    return before in _CLOSE or before.isidentifier() and before not in _WORDS | _COMPARE | {"return", "lambda"} \
        or before[:1].isdigit() or before[:1] in "'\""


def _starts_comparison(tokens: list, k: int) -> bool:
    """Token ``k`` begins a comparison operator (``not`` only as ``not in``; ``in`` and ``not``
    not as the second word of ``not in`` or ``is not``)."""
    string = tokens[k][2]
    if string == "not":
        return k + 1 < len(tokens) and tokens[k + 1][2] == "in" and tokens[k - 1][2] != "is"
    if string == "in":
        return tokens[k - 1][2] != "not"
    return True


def lay_out(indent: str, text: str, note: str = "", width: int | None = None) -> list[str]:
    """The physical lines of the logical line ``text`` at ``indent``, with ``note`` (a comment,
    ``# line 12``) at the end of the first, all within ``width`` where a bracket allows it."""
    width = WIDTH if width is None else width
    room = width - (len(note) + 2 if note else 0)
    lines = list(_wrapped(indent, str(text), room)) if len(indent) + len(text) > room else [indent + text]
    if note:
        lines[0] = f"{lines[0]}  {note}"
    return lines


@functools.lru_cache(maxsize=4096)
def _wrapped(indent: str, text: str, room: int) -> tuple:
    """(Kept: a game loaded again lays out the same lines.)"""
    tokens = _tokens(text)
    if not tokens:
        return (indent + text,)
    text, tokens = _bracketed(text, tokens)
    return tuple(_split(indent, text, tokens, 0, len(tokens), room))


def _split(indent: str, text: str, tokens: list, lo: int, hi: int, room: int, lead: str = "",
           inside: bool = False) -> list[str]:
    """The lines of tokens ``lo``..``hi - 1`` of ``text`` (``lead`` before the first: a closing
    bracket the line before opened; ``inside``: within brackets, where a line may end anywhere)."""
    piece = lead + text[tokens[lo][0]:tokens[hi - 1][1]] if hi > lo else lead
    if len(indent) + len(piece) <= room or hi <= lo:
        return [indent + piece]
    group = _widest_group(tokens, lo, hi)
    if group is None:
        cut = _parts(tokens, lo, hi) if inside else []
        if len(cut) < 2:
            return [indent + piece]
        # a part with no brackets left, deep in a nest (`if x.__class__ is LIST`): cut at its operators
        (begin, end), rest = cut[0], cut[1:]
        lines = _split(indent, text, tokens, begin, end, room, lead, inside)
        for begin, end in rest:
            lines.extend(_split(indent + STEP, text, tokens, begin, end, room, "", inside))
        return lines
    first, last = group
    head = lead + text[tokens[lo][0]:tokens[first][1]]
    inner = indent + STEP
    body = text[tokens[first][1]:tokens[last][0]].strip()
    if len(inner) + len(body) <= room:          # the brackets' contents fit on a line of their own
        lines = [indent + head, inner + body]
    else:
        lines = [indent + head]
        for begin, end in _parts(tokens, first + 1, last):
            lines.extend(_split(inner, text, tokens, begin, end, room, inside=True))
    return lines + _split(indent, text, tokens, last + 1, hi, room, tokens[last][2], inside)


_LEADS = frozenset(("if", "elif", "while", "return", "for", "assert"))
_KEYWORDS = _WORDS | _COMPARE | _LEADS | {"lambda", "await", "yield"}


def _bracketed(text: str, tokens: list) -> tuple:
    """(``text``, its tokens) with its expression in brackets of its own where it is not one group
    already (``if a and (b):`` as ``if (a and (b)):``): Python then lets it be broken anywhere."""
    first, last = 0, len(tokens)
    lead = tokens[0][2]
    if lead in _LEADS:
        first = 1
        if lead == "for":
            first = next((k + 1 for k, tok in enumerate(tokens) if tok[2] == "in" and _depth(tokens, k) == 0), 0)
    else:
        first = next((k + 1 for k, tok in enumerate(tokens) if tok[2] == "=" and _depth(tokens, k) == 0), 0)
    if tokens[-1][2] == ":" and lead in ("if", "elif", "while", "for"):
        last -= 1
    if first == 0 and lead not in _LEADS or first >= last or _primary(tokens, first, last):
        return text, tokens
    begin, end = tokens[first][0], tokens[last - 1][1]
    moved = [(a + 1, b + 1, string) for a, b, string in tokens[first:last]]
    after = [(a + 2, b + 2, string) for a, b, string in tokens[last:]]
    return (f"{text[:begin]}({text[begin:end]}){text[end:]}",
            tokens[:first] + [(begin, begin + 1, "(")] + moved + [(end + 1, end + 2, ")")] + after)


def _depth(tokens: list, k: int) -> int:
    """How many brackets are open before token ``k``."""
    return sum((tok[2] in _OPEN) - (tok[2] in _CLOSE) for tok in tokens[:k])


def _primary(tokens: list, first: int, last: int) -> bool:
    """Tokens ``first``..``last - 1`` are names, dots and brackets with what they hold (``f(x)``,
    ``(a).get(b)[0]``), ending in a bracket: already broken inside its own brackets."""
    if tokens[last - 1][2] not in _CLOSE:
        return False
    depth = 0
    for k in range(first, last):
        string = tokens[k][2]
        if string in _OPEN:
            depth += 1
        elif string in _CLOSE:
            depth -= 1
        elif depth == 0 and not (string == "." or string.isidentifier() and string not in _KEYWORDS):
            return False
    return True


def _tokens(text: str) -> list[tuple]:
    """(start, end, string) of each token of a one-line statement."""
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.COMMENT, tokenize.INDENT,
                            tokenize.DEDENT):
                continue
            if tok.start[0] != 1 or tok.end[0] != 1:
                return []   # more than one line (nothing the writer makes): left as it is
            out.append((tok.start[1], tok.end[1], tok.string))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []           # not one line of Python on its own (a part of one): left as it is
    return out


def _widest_group(tokens: list, lo: int, hi: int) -> tuple | None:
    """(index of the opening bracket, of its closing one) of the widest outermost pair among
    tokens ``lo``..``hi - 1``."""
    best, depth, start = None, 0, 0
    for k in range(lo, hi):
        string = tokens[k][2]
        if string in _OPEN:
            if depth == 0:
                start = k
            depth += 1
        elif string in _CLOSE:
            depth -= 1
            if depth == 0 and k > start + 1:
                if best is None or tokens[k][0] - tokens[start][0] > tokens[best[1]][0] - tokens[best[0]][0]:
                    best = (start, k)
    return best


def _parts(tokens: list, lo: int, hi: int) -> list[tuple]:
    """Tokens ``lo``..``hi - 1`` cut at their outermost commas (each part keeping its comma), or
    else before their outermost words, comparisons or arithmetic: (first, end) of each part."""
    commas, words, compares, operators = [], [], [], []
    depth = 0
    for k in range(lo, hi):
        string = tokens[k][2]
        if string in _OPEN:
            depth += 1
        elif string in _CLOSE:
            depth -= 1
        elif depth != 0 or k == lo:
            continue
        elif string == ",":
            commas.append(k + 1)
        elif string in _WORDS:
            words.append(k)
        elif string in _COMPARE and _starts_comparison(tokens, k):
            compares.append(k)
        elif string in _ARITHMETIC and _binary(tokens[k - 1][2]):
            operators.append(k)
    cuts = [cut for cut in (commas or words or compares or operators) if lo < cut < hi]
    bounds = [lo] + cuts + [hi]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]
