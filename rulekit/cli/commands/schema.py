# SPDX-License-Identifier: MIT
"""`rulekit schema`: write the JSON Schemas of the content files for editors."""
from __future__ import annotations

import os

from ...errors import EXIT_OK, UsageError
from ...files import write_text


def add_parser(sub) -> None:
    p = sub.add_parser("schema", help="write the JSON Schemas for editors")
    p.add_argument("--out", default="schemas", metavar="DIR", help="folder to write them to (created if missing)")


def run(args) -> int:
    from ...content.schema import schemas_dir
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        raise UsageError(f"cannot write the schemas to `{args.out}`: it is a file, not a folder")
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make the folder `{args.out}`: {exc.strerror or exc}") from None
    src = schemas_dir()
    written = 0
    for name in sorted(os.listdir(src)):
        if name.endswith(".schema.json"):
            target = os.path.join(args.out, name)
            if os.path.abspath(target) != os.path.abspath(os.path.join(src, name)):
                with open(os.path.join(src, name), encoding="utf-8") as handle:
                    write_text(target, handle.read())
            written += 1
    print(f"{written} schemas in {args.out}")
    return EXIT_OK
