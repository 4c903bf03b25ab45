# SPDX-License-Identifier: MIT
"""The modules of ``rulekit/tools/`` moved into packages by who uses them (issue 56); their old paths
import for one release, warning with the new path, and give the very module at its new one."""
from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("old, new", [("rulekit.tools.cli", "rulekit.cli.app"),
                                      ("rulekit.tools.simulate", "rulekit.batch.simulate"),
                                      ("rulekit.tools.observe_log", "rulekit.rl.observe_log"),
                                      ("rulekit.tools.extras", "rulekit.extras")])
def test_an_old_path_imports_the_new_module_with_a_warning_naming_it(old, new):
    sys.modules.pop(old, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    [warning] = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert new in str(warning.message) and old in str(warning.message)


def test_the_old_paths_work_as_statements_in_a_fresh_process():
    """``import a.b.c`` and ``from a.b import c`` both reach the moved module; the warning names the
    importing line (the import system's own frames skipped)."""
    code = ("import warnings; warnings.simplefilter('always')\n"
            "import rulekit.tools.cli\n"
            "from rulekit.tools import simulate as sim\n"
            "from rulekit.tools.extras import install_command\n"
            "import rulekit.cli.app, rulekit.batch.simulate\n"
            "assert rulekit.tools.cli is rulekit.cli.app and sim is rulekit.batch.simulate\n"
            "assert callable(rulekit.tools.cli.main) and callable(install_command)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("DeprecationWarning") == 3, proc.stderr
    assert "<string>:2: DeprecationWarning: rulekit.tools.cli moved to rulekit.cli.app" in proc.stderr


def test_an_unknown_old_path_is_still_an_import_error():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("rulekit.tools.no_such_module")


def test_rulekit_itself_imports_no_old_path():
    """The old paths are for others' code: rulekit's own modules use the new ones."""
    shim = ROOT / "rulekit" / "tools" / "__init__.py"
    users = [str(p.relative_to(ROOT)) for p in (ROOT / "rulekit").rglob("*.py")
             if p != shim and ("rulekit.tools" in p.read_text(encoding="utf-8")
                               or "from ..tools" in p.read_text(encoding="utf-8"))]
    assert users == []
    assert [p.name for p in (ROOT / "rulekit" / "tools").glob("*.py")] == ["__init__.py"]


def test_the_batchs_old_score_table_still_answers_with_a_warning():
    """The batch's table of scores by seat was `balance_report.score_table` before there was one
    `score_table` (view/report.py); its old name answers for one release, with a warning."""
    from rulekit.batch import balance_report
    with pytest.warns(DeprecationWarning, match="scores_by_seat"):
        old = balance_report.score_table
    assert old is balance_report.scores_by_seat
    with pytest.raises(AttributeError):
        assert balance_report.no_such_table is None     # raises first
