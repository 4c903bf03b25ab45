# SPDX-License-Identifier: MIT
"""How long `rulekit lsp` takes to re-diagnose games/goa/rules.yaml after a one-character edit.

Drives the real server over stdio (tests/lsp_client.py): opens Goa's files, then types one
character into a procedure's `do: |` block (`p.ships += 1` becomes `+= 2`, then back) and times
each edit to (a) the first diagnostics published for that version of rules.yaml (the game
checked) and (b) the end of the round (the game and its variants), as the median of --edits.
Prints figures only; nothing is asserted.

    python benchmarks/lsp_latency.py [--edits 20]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from lsp_client import Editor  # noqa: E402

GOA = ROOT / "games" / "goa"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20)
    args = parser.parse_args()
    editor = Editor(str(ROOT))
    try:
        rules = editor.open(GOA / "rules.yaml")
        for name in ("game.yaml", "components.yaml", "narrate.yaml"):
            editor.open(GOA / name)
        started = time.perf_counter()
        editor.diagnostics(rules, 1, settle=2.0)
        print(f"first round on open (game and 3 variants, caches warm on disk): "
              f"{time.perf_counter() - started - 2.0:.2f} s")
        lines = (GOA / "rules.yaml").read_text(encoding="utf-8").splitlines()
        row = next(i for i, text in enumerate(lines) if text.rstrip().endswith("p.ships += 1"))
        column = len(lines[row].rstrip()) - 1
        first, whole = [], []
        for k in range(args.edits):
            sent = time.perf_counter()
            version = editor.edit(rules, row, column, "2" if k % 2 == 0 else "1", column + 1)
            found = editor.diagnostics(rules, version, settle=1.0)
            assert not found, found
            stamps = [p[2] for p in editor.published[rules] if (p[0] or 0) >= version]
            first.append(stamps[0] - sent)
            whole.append(stamps[-1] - sent)
        print(f"one-char edit in rules.yaml -> its diagnostics: median {statistics.median(first) * 1000:.0f} ms, "
              f"max {max(first) * 1000:.0f} ms ({args.edits} edits)")
        print(f"one-char edit -> the round's end (game + variants): median "
              f"{statistics.median(whole) * 1000:.0f} ms, max {max(whole) * 1000:.0f} ms")
    finally:
        editor.close()


if __name__ == "__main__":
    main()
