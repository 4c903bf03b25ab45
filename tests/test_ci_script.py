# SPDX-License-Identifier: MIT
"""`.ci/run` runs exactly the README's test command, then the steps the README's "Testing" lists,
in that order: the README cannot promise a CI that the script does not run."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUICK_START = "python -m pip install -e '.[dev]' && python -m pytest"


def _commands(lines) -> list[str]:
    """The commands of shell lines, comments and continuation-free `&&` chains split, blank lines left out."""
    out = []
    for line in lines:
        line = re.sub(r"\s+#.*$", "", line).strip()
        if line and not line.startswith("#"):
            out += [part.strip() for part in line.split(" && ")]
    return out


def _ci_steps() -> list[str]:
    """.ci/run's commands after its set-up (the headless browser): from its first pip install on."""
    commands = _commands((ROOT / ".ci" / "run").read_text().splitlines())
    first = commands.index("python -m pip install -e '.[dev]'")
    return commands[first:]


def _readme_ci_block() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    testing = readme[readme.index("## Testing"):]
    block = re.search(r"```sh\n(.*?)```", testing, re.S).group(1)
    return _commands(block.splitlines())


def test_ci_runs_the_readme_test_command_first_then_the_steps_the_readme_lists():
    assert QUICK_START in (ROOT / "README.md").read_text()
    steps = _ci_steps()
    assert steps[:2] == QUICK_START.split(" && ")
    assert steps == _readme_ci_block()


def test_every_marker_ci_selects_on_is_declared():
    markers = {line.split(":")[0] for line in tomllib.loads((ROOT / "pyproject.toml").read_text())
               ["tool"]["pytest"]["ini_options"]["markers"]}
    selected = 0
    for step in _ci_steps():
        selection = re.search(r"pytest\s+-m\s+(?:'([^']*)'|(\S+))", step)
        if selection:
            names = set(re.findall(r"[a-z_]+", selection.group(1) or selection.group(2))) - {"and", "or", "not"}
            assert names <= markers, step
            selected += 1
    assert selected == 1
