# SPDX-License-Identifier: MIT
"""Every install hint names an install that works where the user is, and an extra that exists.

rulekit's distribution is not called ``rulekit`` on the package index (another project is), so
``pip install 'rulekit[lsp]'`` would install someone else's package. The hints are made in one
place (``rulekit/extras.py``): an editable install of the checkout in a checkout, the
distribution's own name where it is installed, the packages by name anywhere else. Each missing
extra is tried through the command that reports it, as a user meets it: exit 2, the command, and
no traceback; the brackets of ``[stats]`` survive the terminal table's markup."""
from __future__ import annotations

import ast
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rulekit import extras

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
OPTIONAL = PYPROJECT["project"]["optional-dependencies"]
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "examples").rglob("*.py")), *sorted((ROOT / "examples").rglob("*.md"))]
# a file not yet changed by the session that owns it, and the exact line it still has: the test
# fails once the line is fixed, so that the entry goes with it
PENDING: dict = {}      # file -> a hint known to be wrong, taken out of the check until its owner fixes it
# a requirement after `pip install`, quoted (a line of prose may break before it) or bare
_SPEC = r"(?:\s+(?:'[^'\n]*'|\"[^\"\n]*\")|[ \t]+[\w.\-/\[\],<>=~]+)"
_COMMAND = re.compile(rf"pip install((?:[ \t]+(?:-e|--editable)(?=\s))?(?:{_SPEC})+)")


def _installs(text: str):
    """Each requirement named after a ``pip install`` in ``text``, unquoted, with its line number."""
    for match in _COMMAND.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        for token in shlex.split(match.group(1).replace("\n", " ")):
            if not token.startswith("-"):
                yield line, token


def _wrong(requirement: str) -> str | None:
    """Why ``requirement`` is a wrong install of rulekit, or None (another package is not ours to judge)."""
    base, _, rest = requirement.partition("[")
    ours = base in (".", extras.DISTRIBUTION) or base.startswith(("/", "./", "../"))
    if base.lower() == "rulekit" and extras.DISTRIBUTION != "rulekit":
        return f"`rulekit` on the package index is another project: the distribution is {extras.DISTRIBUTION}"
    if ours and rest:
        unknown = [name for name in rest.rstrip("]").split(",") if name not in OPTIONAL]
        if unknown:
            return f"no extra {unknown} in pyproject.toml"
    return None


def test_the_distribution_is_the_one_pyproject_names_and_the_extras_agree():
    assert PYPROJECT["project"]["name"] == extras.DISTRIBUTION
    assert PYPROJECT["project"]["scripts"] == {"rulekit": "rulekit.cli.entry:main"}
    for extra, requirements in extras.EXTRAS.items():
        assert tuple(OPTIONAL[extra]) == requirements, extra


def test_every_extra_a_command_asks_for_exists():
    asked = set()
    for path in (ROOT / "rulekit").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                    "needs", "install_command"):
                extra = node.args[-1]
                assert isinstance(extra, ast.Constant) or path.name == "extras.py", f"{path}: {ast.unparse(node)}"
                if isinstance(extra, ast.Constant):
                    asked.add(extra.value)
    assert asked == {"lsp", "plot", "ray", "stats"}
    assert asked <= set(extras.EXTRAS) <= set(OPTIONAL)


def test_no_doc_or_source_line_installs_another_project_or_an_unknown_extra():
    checked = 0
    for path in [*DOCS, *sorted((ROOT / "rulekit").rglob("*.py"))]:
        name = path.relative_to(ROOT).as_posix()
        if name == "rulekit/extras.py":
            continue                        # the one that makes hints: tried below
        text = path.read_text()
        if name in PENDING:
            assert PENDING[name] in text, f"{name} was fixed: take it out of PENDING"
            text = text.replace(PENDING[name], "")
        for line, requirement in _installs(text):
            checked += 1
            assert _wrong(requirement) is None, f"{name}:{line}: pip install {requirement}: {_wrong(requirement)}"
    assert checked > 10


def test_the_check_catches_what_it_is_for():
    assert _wrong("rulekit[lsp]") and _wrong("rulekit") and _wrong(".[nope]")
    assert [r for _, r in _installs("run `pip install -e '.[lsp,stats]'`, or pip install 'ray[client]' for")] == [
        ".[lsp,stats]", "ray[client]", "for"]
    assert [r for _, r in _installs("extra (`pip install\n'rulekit[lsp]'`), and\npip install -e .\nrulekit lsp")] == [
        "rulekit[lsp]", "."]
    assert not _wrong(".[lsp,stats]") and not _wrong(f"{extras.DISTRIBUTION}[plot]") and not _wrong("ray[client]")


def _run(code: str, cwd: Path, env: dict | None = None, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *options, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=cwd, env=env)


def _without(modules: str, argv: list[str]) -> str:
    """Python that runs the console script with ``modules`` missing (``import`` of each fails)."""
    return ("import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in modules.split())
            + f"from rulekit.cli.entry import main\nsys.exit(main({argv!r}))\n")


@pytest.mark.parametrize("missing, argv, extra", [
    ("pygls pygls.lsp", ["lsp"], "lsp"),
    ("matplotlib", ["simulate", "batavia", "--games", "1", "--players", "3", "--plot", "x.png"], "plot"),
    ("ray", ["simulate", "batavia", "--games", "1", "--players", "3", "--backend", "ray"], "ray"),
])
def test_a_missing_extra_is_a_usage_error_naming_the_command_that_installs_it(missing, argv, extra, tmp_path):
    for cwd, where in ((ROOT, "."), (tmp_path, str(ROOT))):
        done = _run(_without(missing, argv), cwd)
        assert done.returncode == 2, done.stdout + done.stderr
        assert f"needs the `{extra}` extra" in done.stdout
        assert f"pip install -e '{where}[{extra}]'" in done.stdout, done.stdout
        assert "Traceback" not in done.stderr and "rulekit[" not in done.stdout
    assert not (tmp_path / "x.png").exists()


def test_the_seat_verdict_without_scipy_prints_its_hint_whole_through_the_table(tmp_path):
    done = _run(_without("scipy", ["simulate", "batavia", "--games", "2", "--players", "3", "--compare",
                                   "open-route"]), ROOT)
    assert done.returncode == 0, done.stderr
    assert "  seat test needs scipy: pip install -e '.[stats]'\n" in done.stdout


def test_the_lsp_help_names_the_install():
    done = _run("from rulekit.cli.entry import main; main(['lsp', '--help'])", ROOT)
    assert "It needs the `lsp` extra: pip install -e '.[lsp]'." in " ".join(done.stdout.split())


def _copy_of_the_package(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    shutil.copytree(ROOT / "rulekit", site / "rulekit", ignore=shutil.ignore_patterns("__pycache__"))
    return site


def _hint_from(site: Path, extra: str) -> str:
    code = ("import rulekit.extras as e, sys\n"
            f"assert e.__file__.startswith({str(site)!r}), e.__file__\n"
            f"print(e.install_command({extra!r}))")
    # -S: no site-packages, where an installed rulekit-games (this checkout's, say) would be found
    done = _run(code, site, {"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"}, "-S")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_outside_a_checkout_the_hint_names_the_distribution_or_else_the_packages(tmp_path):
    site = _copy_of_the_package(tmp_path)
    assert _hint_from(site, "lsp") == "pip install 'pygls>=2.0,<3' 'lsprotocol>=2025.0.0'"
    info = site / "rulekit_games-0.1.0.dist-info"           # what installing the wheel leaves beside it
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {extras.DISTRIBUTION}\nVersion: 0.1.0\n")
    assert _hint_from(site, "stats") == f"pip install '{extras.DISTRIBUTION}[stats]'"


def test_the_training_example_without_sb3_names_the_install_and_exits_2():
    example = ROOT / "examples" / "rl" / "train_for_sale.py"
    done = _run(f"import runpy, sys\nsys.modules['sb3_contrib'] = None\nrunpy.run_path({str(example)!r}, "
                "run_name='__main__')", ROOT)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "needs the `rl-train` extra: pip install -e '.[rl-train]' (sb3_contrib is missing)" in done.stderr
