# SPDX-License-Identifier: MIT
"""House rule 1: the engine knows no game. No game noun may appear in rulekit/."""
from __future__ import annotations

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOUNS = re.compile(
    r"\b(goa|batavia|spices?|ginger|pepper|cinnamon|nutmeg|clove|ducats?|colonists?|colony|colonies|"
    r"plantations?|expeditions?|pirates?|bonds?|cannon|merchants?|warehouses?|quilon|cochin|madras|"
    r"calicut|viceroy|ships?|crates?|seals?)\b", re.IGNORECASE)


def test_no_game_nouns_in_the_engine():
    hits = []
    for folder, _dirs, files in os.walk(os.path.join(ROOT, "rulekit")):
        for name in files:
            if name.endswith((".py", ".lark")):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    for number, line in enumerate(handle, 1):
                        if NOUNS.search(line):
                            hits.append(f"{os.path.relpath(path, ROOT)}:{number}: {line.strip()}")
    assert not hits, "game nouns in the engine:\n" + "\n".join(hits)
