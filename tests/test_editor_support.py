# SPDX-License-Identifier: MIT
"""Editor support: every shipped content file points its editor at a schema that exists."""
from __future__ import annotations

import json
import os
import re

from rulekit.cli.app import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def _content_files():
    for top in ("games", "examples"):
        for folder, _dirs, files in os.walk(os.path.join(ROOT, top)):
            for name in files:
                if name.endswith(".yaml"):
                    yield os.path.join(folder, name)


def test_every_content_file_has_a_modeline_to_a_real_schema():
    files = list(_content_files())
    assert len(files) > 40
    for path in files:
        with open(path, encoding="utf-8") as handle:
            first = handle.readline().rstrip("\n")
        match = MODELINE.match(first)
        assert match, f"{os.path.relpath(path, ROOT)}: first line is not a yaml-language-server modeline"
        target = match.group(1)
        if target.startswith("http"):
            assert target.rsplit("/", 1)[-1] in os.listdir(os.path.join(ROOT, "schemas")), path
        else:
            assert os.path.isfile(os.path.normpath(os.path.join(os.path.dirname(path), target))), (path, target)


def test_schemas_carry_ids_and_rulekit_schema_writes_them(tmp_path, capsys):
    assert main(["schema", "--out", str(tmp_path)]) == 0
    for name in ("game", "variant", "script"):
        src = json.load(open(os.path.join(ROOT, "schemas", f"{name}.schema.json"), encoding="utf-8"))
        written = json.load(open(tmp_path / f"{name}.schema.json", encoding="utf-8"))
        assert src == written
        assert src["$id"].endswith(f"/{name}.schema.json")
