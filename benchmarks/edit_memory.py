# SPDX-License-Identifier: MIT
"""Memory kept by the language server's work on each edit (issue 50: an 80-procedure game grew
359 KB an edit and never settled), measured in one process with the server's own functions.

Each edit changes one line of a procedure in the buffer, then does what the server does: check
the game as the editor has it (lsp/checking.py's load) and build the index of its names
(lsp/names.py). What Python still holds after a full collection, every tenth of the edits, is
printed: a leak shows as a slope. Usage::

    python benchmarks/edit_memory.py [--procedures 80] [--edits 200]
"""
from __future__ import annotations

import argparse
import gc
import os
import tempfile
import tracemalloc

from rulekit.errors import RulekitError
from rulekit.lsp import checking, names


def game_text(procedures: int, edit: int) -> str:
    body = "".join(f"""\
  step{i}:
    params: [p]
    do: |
      p.score += {i if i != edit % procedures else edit}
      if p.score > {i * 3}:
          total += 1
""" for i in range(procedures))
    calls = "".join(f"            step{i}(p)\n" for i in range(procedures))
    return f"""\
meta: {{title: Edits}}
players: {{min: 2, max: 2}}
vars:
  total: 0
player:
  vars:
    score: 0
procedures:
{body}flow:
  rounds: 1
  phases:
    - id: main
      do: |
        for p in players:
{calls}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--procedures", type=int, default=80)
    parser.add_argument("--edits", type=int, default=200)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="rk-edits-")
    path = os.path.realpath(os.path.join(folder, "game.yaml"))
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(game_text(args.procedures, 0))

    def edit(n: int) -> None:
        texts = {path: game_text(args.procedures, n)}
        try:
            checking.load(folder, texts)
        except RulekitError:
            pass
        names.build(folder, texts)

    edit(0)
    tracemalloc.start()
    gc.collect()
    start = tracemalloc.get_traced_memory()[0]
    first = None
    for n in range(1, args.edits + 1):
        edit(n)
        if first is None:
            gc.collect()
            first = tracemalloc.get_traced_memory()[0]
        if n % max(args.edits // 10, 1) == 0:
            gc.collect()
            print(f"after {n:4d} edits: {(tracemalloc.get_traced_memory()[0] - start) / 2 ** 20:7.2f} MB kept")
    gc.collect()
    end = tracemalloc.get_traced_memory()[0]
    print(f"{args.procedures} procedures, {args.edits} edits: {(end - start) / 2 ** 20:.2f} MB kept; "
          f"then {(end - first) / max(args.edits - 1, 1) / 1024:.1f} KB an edit after the first")


if __name__ == "__main__":
    main()
