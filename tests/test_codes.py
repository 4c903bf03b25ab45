# SPDX-License-Identifier: MIT
"""The table of codes in rulekit/codes.py stays complete and true.

- each code is raised by its name: no code number is written as a string anywhere else in
  rulekit/ (a docstring or comment may mention one);
- every name in rulekit/codes.py is raised somewhere in rulekit/ (no stale entries);
- every code in ``CODES`` is covered by the "Diagnostic codes" table of
  docs/language.md, by number or inside a range such as ``RK0200-RK0220``, and that
  table names no unknown code;
- every meaning is one non-empty line, and no two codes share one.
"""
from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

from rulekit import codes
from rulekit.codes import CODES, meaning

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "rulekit"
TABLE_MODULE = PACKAGE / "codes.py"
LANGUAGE = ROOT / "docs" / "language.md"
CODE = re.compile(r"\bRK\d{4}\b")
# in the docs table's first column: `RK0001`, `RK0200-RK0220` (a comma may separate several)
DOC_ENTRY = re.compile(r"\b(RK\d{4})(?:\s*[-\u2013]\s*(RK\d{4}))?\b")
NAMES = {name: code for name, code in vars(codes).items() if name.isupper() and isinstance(code, str) and code in CODES}


def _sources():
    for path in sorted(PACKAGE.rglob("*.py")):
        if path != TABLE_MODULE:
            yield path, path.read_text(encoding="utf-8")


def numbers_in_code() -> dict[str, list[str]]:
    """Code numbers written in rulekit/'s code (string literals that are not docstrings) -> where."""
    found: dict[str, list[str]] = {}
    for path, text in _sources():
        previous = None
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            docstring = previous in (None, tokenize.INDENT, tokenize.NEWLINE, tokenize.DEDENT)
            if tok.type == tokenize.STRING and not docstring:
                for code in CODE.findall(tok.string):
                    found.setdefault(code, []).append(f"{path.relative_to(ROOT)}:{tok.start[0]}")
            if tok.type not in (tokenize.COMMENT, tokenize.NL):
                previous = tok.type
    return found


def names_in_source() -> set[str]:
    """The code names rulekit/ raises (every upper-case word naming a code)."""
    words = set()
    for _path, text in _sources():
        words |= set(re.findall(r"\b[A-Z][A-Z0-9_]+\b", text))
    return words & set(NAMES)


def docs_table_rows() -> list[str]:
    """The first cell of every row of the table under docs/language.md's "## Diagnostic codes"."""
    text = LANGUAGE.read_text(encoding="utf-8")
    match = re.search(r"^## Diagnostic codes[ \t]*\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, "docs/language.md has no `## Diagnostic codes` section"
    cells = []
    for line in match.group(1).splitlines():
        if not line.startswith("|"):
            continue
        first = line.strip("|").split("|")[0].strip()
        if first == "codes" or set(first) <= {"-", ":", " "}:
            continue  # the header and its separator
        cells.append(first)
    assert cells, "the `## Diagnostic codes` section of docs/language.md has no table rows"
    return cells


def docs_ranges() -> list[tuple[str, str]]:
    """(low, high) for every code or range in the docs table (a single code is (code, code))."""
    ranges = []
    for cell in docs_table_rows():
        entries = DOC_ENTRY.findall(cell)
        assert entries, f"docs table row `{cell}` names no code or range"
        for low, high in entries:
            ranges.append((low, high or low))
    return ranges


def test_every_code_has_one_name():
    assert sorted(NAMES.values()) == sorted(CODES), "each code in CODES is a name of rulekit/codes.py"
    assert len(NAMES) == len(CODES)


def test_codes_are_raised_by_name_only():
    """No number outside the table: a code is changed in one place, and a name mistyped is an error
    Python reports at import, where a mistyped number would be a new code."""
    assert not numbers_in_code(), f"code numbers written outside rulekit/codes.py: {numbers_in_code()}"


def test_the_scan_finds_a_number_written_out(tmp_path):
    text = 'def f():\n    """Raises RK0301 (a docstring may say so)."""\n    return Diagnostic("RK0301", "x")\n'
    found = [tok.string for tok in tokenize.generate_tokens(io.StringIO(text).readline)
             if tok.type == tokenize.STRING and CODE.search(tok.string)]
    assert found == ['"""Raises RK0301 (a docstring may say so)."""', '"RK0301"']


def test_no_stale_codes():
    used = names_in_source()
    assert {"UNKNOWN_NAME", "INTERNAL", "STEP_LIMIT", "ILLEGAL_SCRIPT_ACTION"} <= used     # the scan works
    stale = sorted(NAMES[name] + " " + name for name in set(NAMES) - used
                   if NAMES[name] not in DOCUMENTED_ONLY)
    assert not stale, f"codes in rulekit/codes.py that nothing in rulekit/ raises any more: {stale}"
    assert DOCUMENTED_ONLY <= set(CODES), f"DOCUMENTED_ONLY names unknown codes: {sorted(DOCUMENTED_ONLY - set(CODES))}"


# Codes that are documented in CODES but raised nowhere in rulekit/ (say why for each).
# None today: keep it that way unless a code is reserved on purpose.
DOCUMENTED_ONLY: frozenset[str] = frozenset()


def test_docs_cover_every_code():
    ranges = docs_ranges()
    uncovered = sorted(code for code in CODES if not any(low <= code <= high for low, high in ranges))
    assert not uncovered, ("codes not covered by the `## Diagnostic codes` table of docs/language.md "
                           f"(add them, or widen a range): {uncovered}")


def test_docs_table_names_known_codes():
    for low, high in docs_ranges():
        assert low <= high, f"docs table range {low}-{high} is backwards"
        for code in {low, high}:
            assert code in CODES, f"docs table names {code}, which is not in rulekit/codes.py CODES"


def test_codes_are_well_formed_and_in_order():
    bad = [code for code in CODES if not re.fullmatch(r"RK\d{4}", code)]
    assert not bad, f"malformed codes: {bad}"
    assert list(CODES) == sorted(CODES), "keep CODES sorted by code, grouped by range"


def test_meanings_are_one_line_and_unique():
    for code, text in CODES.items():
        assert isinstance(text, str) and text.strip(), f"{code} has an empty meaning"
        assert text == text.strip() and "\n" not in text, f"{code}'s meaning must be one trimmed line"
    seen: dict[str, str] = {}
    for code, text in CODES.items():
        key = text.casefold()
        assert key not in seen, f"{seen.get(key)} and {code} share the meaning `{text}`"
        seen[key] = code


@pytest.mark.parametrize("code", ["RK0301", "RK4009", "RK9999"])
def test_meaning_looks_up_the_table(code):
    assert meaning(code) == CODES[code]


def test_meaning_of_an_unknown_code_says_so():
    assert "RK1234" in meaning("RK1234")
    assert "RK1234" not in CODES
