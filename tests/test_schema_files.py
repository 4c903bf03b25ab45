# SPDX-License-Identifier: MIT
"""Every shipped content file validates against the schema its modeline names, checked by
jsonschema directly (not through rulekit's loader): game.yaml against the whole game, the
files it includes against the game-part schema, variants and scripts against theirs."""
from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml
from referencing import Registry, Resource

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


def _content_files() -> list[Path]:
    return sorted(p for folder in ("games", "examples") for p in (ROOT / folder).rglob("*.yaml"))


def _registry() -> Registry:
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in SCHEMAS.glob("*.schema.json")]
    return Registry().with_resources((d["$id"], Resource.from_contents(d)) for d in docs)


def _schema_of(path: Path) -> Path:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = MODELINE.match(first)
    assert match, f"{path.relative_to(ROOT)} has no yaml-language-server modeline"
    return (path.parent / match.group(1)).resolve()


@pytest.mark.parametrize("path", _content_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_content_file_validates_against_its_modeline_schema(path):
    schema_path = _schema_of(path)
    assert schema_path.parent == SCHEMAS and schema_path.is_file()
    if path.name == "game.yaml":
        assert schema_path.name == "game.schema.json"
    elif path.parent.name == "variants":
        assert schema_path.name == "variant.schema.json"
    elif "game" in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}):
        assert schema_path.name == "script.schema.json"
    else:
        assert schema_path.name == "game-part.schema.json", "an included file names the game-part schema"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema, registry=_registry())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    assert not errors, "\n".join(f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors[:5])


def test_the_game_part_schema_is_the_game_schema_without_required_sections():
    game = json.loads((SCHEMAS / "game.schema.json").read_text(encoding="utf-8"))
    part = json.loads((SCHEMAS / "game-part.schema.json").read_text(encoding="utf-8"))
    assert not {"required", "if", "then"} & set(part) and "include" not in part["properties"]
    game["properties"].pop("include")
    assert part["properties"] == game["properties"]
    assert part["additionalProperties"] is False


def test_a_variant_with_an_unknown_section_is_flagged(tmp_path, capsys):
    from rulekit.cli.app import main
    overlay = tmp_path / "typo.yaml"
    overlay.write_text("variant: {name: typo}\nprocedurez:\n  turn: {do: pass}\n", encoding="utf-8")
    assert main(["validate", "batavia", "--variant", str(overlay), "--format", "concise"]) == 1
    out = capsys.readouterr().out
    assert "typo.yaml:2:1: error[RK0120]: unknown key `procedurez`" in out and "did you mean `procedures`?" in out
