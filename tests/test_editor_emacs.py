# SPDX-License-Identifier: MIT
"""docs/editors.md's Emacs snippets, exactly as printed, in a real Emacs run headless (``emacs
--batch``) against the real ``rulekit lsp``: opening a rule file with a mistake brings rulekit's
diagnostic at its line and column. Debian 12's Emacs 28 with its eglot (``elpa-eglot``, built into
Emacs 29) and its lsp-mode (``elpa-lsp-mode`` 8.0, beside the real yaml-language-server from the
npm registry, as the guide runs it); ``.ci/run`` installs them, and each test skips, saying why,
where its part is missing. A batch Emacs runs no command loop, so the driver does by hand what
an interactive start does: it activates the installed packages and starts flymake when it waits."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from editor_game import game_with_a_mistake, lay_out

from tools.yaml_language_server import installed

pytest.importorskip("pygls")

ROOT = Path(__file__).resolve().parent.parent
EMACS = shutil.which("emacs")
pytestmark = pytest.mark.skipif(EMACS is None, reason="no emacs on PATH (.ci/run installs Debian's emacs-nox)")

# Starts the client as the guide says (M-x eglot; M-x lsp, the game's folder taken as the project's
# root, which lsp-mode asks for once), waits for the buffer's diagnostics (RULEKIT_WAIT s at most)
# and writes them one a line (with RULEKIT_FIX, eglot then applies the first one's quick fix and the
# line is written as it reads after), or why it could not, then quits whatever happened.
DRIVER = """\
(package-activate-all)
(require 'flymake)
(defun rulekit-test-write (lines)
  (with-temp-file (getenv "RULEKIT_RESULT") (insert (mapconcat #'identity lines "\\n"))))
(condition-case failure
    (let ((client (intern (getenv "RULEKIT_CLIENT"))))
      (unless (require client nil t)
        (rulekit-test-write (list (format "missing: %s" client)))
        (kill-emacs 0))
      (find-file (getenv "RULEKIT_FILE"))
      (if (eq client 'eglot)
          (call-interactively #'eglot)
        (lsp-workspace-folders-add (expand-file-name default-directory))
        (lsp))
      (let ((deadline (+ (float-time) (string-to-number (getenv "RULEKIT_WAIT")))))
        (while (and (null (flymake-diagnostics)) (< (float-time) deadline))
          (accept-process-output nil 0.1)
          (when (and (bound-and-true-p flymake-mode) (null (flymake-running-backends)))
            (flymake-start))))
      (let ((shown (mapcar (lambda (d)
                             (save-excursion
                               (goto-char (flymake-diagnostic-beg d))
                               (format "%d:%d %s" (line-number-at-pos) (1+ (current-column))
                                       (replace-regexp-in-string "\\n" " / " (flymake-diagnostic-text d)))))
                           (flymake-diagnostics))))
        (when (and (eq client 'eglot) (getenv "RULEKIT_FIX") (flymake-diagnostics))
          ;; the quick fix, as `M-x eglot-code-action-quickfix' on the diagnostic applies it
          (let ((d (car (flymake-diagnostics))))
            (eglot-code-actions (flymake-diagnostic-beg d) (flymake-diagnostic-end d) "quickfix" t)
            (goto-char (flymake-diagnostic-beg d))
            (setq shown (append shown (list (concat "fixed: " (string-trim (thing-at-point 'line t))))))))
        (rulekit-test-write shown)))
  (error (rulekit-test-write (list (format "error: %S" failure)))))
(kill-emacs 0)
"""


def _snippets() -> list[str]:
    """The Emacs section's elisp blocks: eglot's, then lsp-mode's."""
    page = (ROOT / "docs" / "editors.md").read_text()
    section = page[page.index("## Emacs"):]
    section = section[:section.index("\n## ", 1)]
    return re.findall(r"```elisp\n(.*?)```", section, re.S)


def _diagnostics(tmp_path: Path, client: str, init: str, path: str = "", wait: int = 60,
                 fix: bool = False) -> list[str]:
    result = lay_out(tmp_path, "pig", {"init.el": init, "driver.el": DRIVER})
    bin_dir = os.path.dirname(sys.executable)       # where this Python's `rulekit` command is
    env = dict(os.environ, HOME=str(tmp_path / "home"), RULEKIT_RESULT=str(result), RULEKIT_CLIENT=client,
               RULEKIT_FILE="pig/game.yaml", RULEKIT_WAIT=str(wait), **({"RULEKIT_FIX": "1"} if fix else {}),
               PATH=os.pathsep.join(p for p in (path, bin_dir, os.environ.get("PATH", "")) if p))
    done = subprocess.run([EMACS, "--batch", "-q", "-l", "init.el", "-l", "driver.el"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=180, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = result.read_text().splitlines() if result.exists() else []
    if lines and lines[0].startswith("missing: "):
        pytest.skip(f"{lines[0][9:]} is not installed (.ci/run installs Debian's elpa-{lines[0][9:]})")
    return lines


def test_the_eglot_snippet_brings_rulekit_s_diagnostic_and_its_quick_fix(tmp_path):
    """The diagnostic, then its quick fix asked and applied by eglot itself: the line reads right."""
    eglot = _snippets()[0]
    assert "eglot-server-programs" in eglot
    where = game_with_a_mistake()[1]
    assert _diagnostics(tmp_path, "eglot", eglot, fix=True) == [
        f"{where} rulekit [RK0303]: unknown attribute `bankd` / help: did you mean `banked`?",
        "fixed: p.banked += pot"]


@pytest.mark.slow
def test_the_lsp_mode_snippet_runs_rulekit_beside_the_yaml_language_server(tmp_path):
    """lsp-mode starts both servers on the buffer; rulekit's diagnostic is the one the file has (the
    YAML language server finds its shape right)."""
    lsp_mode = _snippets()[1]
    assert "lsp-register-client" in lsp_mode
    script = installed()
    if isinstance(script, str):
        pytest.skip(script)
    shown = _diagnostics(tmp_path, "lsp-mode", lsp_mode, path=str(Path(script).parents[2] / ".bin"))
    where = game_with_a_mistake()[1]
    assert shown == [f"{where} unknown attribute `bankd` / help: did you mean `banked`?"]


def test_without_the_snippet_no_diagnostic_arrives(tmp_path):
    """The check above could fail: with an empty init file, eglot knows no server for YAML but the
    YAML language server, which is not on this PATH, and no diagnostic comes."""
    shown = _diagnostics(tmp_path, "eglot", "", wait=3)
    assert not any("RK0303" in line or "bankd" in line for line in shown), shown
