# SPDX-License-Identifier: MIT
"""`rulekit run`: play a script (or replay a log) and print its event log."""
from __future__ import annotations

import json
import os

from ...errors import EXIT_OK, UsageError


def add_parser(sub) -> None:
    p = sub.add_parser("run", help="play a script or replay a log",
                       description="Play a scripted game (or replay a log) and print its event log.")
    p.add_argument("script", help="the script or log file")
    p.add_argument("--json", action="store_true", help="print the final state and log as JSON")
    p.add_argument("--force", action="store_true", help="replay a log even if the content changed")
    p.add_argument("--log", metavar="FILE", help="write the game's log (a replayable script) to FILE")


def run(args) -> int:
    from ...engine.view import view
    from ...testing.script import run_script, write_log
    if not os.path.lexists(args.script) or os.path.isdir(args.script):   # the reader refuses a pipe or a device
        raise UsageError(f"no such script file `{args.script}`")
    result = run_script(args.script, force=args.force)
    if args.log:
        write_log(args.log, result.log)
    if args.json:
        print(json.dumps({"state": view(result.state, full=True), "log": result.log}, indent=2, sort_keys=True))
    else:
        for line in result.transcript:
            print(line)
    return EXIT_OK
