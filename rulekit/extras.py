# SPDX-License-Identifier: MIT
"""The optional extras and the one command that installs an extra where the user is.

The import package and the command are ``rulekit``, but on the package index the distribution is
``rulekit-games``: ``rulekit`` there is another project, and ``pip install 'rulekit[lsp]'`` would
install it. So a hint never names a distribution by habit; it is worked out here, once:

- in a checkout (this package beside the ``pyproject.toml`` of ``rulekit-games``), an editable
  install of that checkout: ``pip install -e '.[lsp]'`` from its root, its path from elsewhere;
- where ``rulekit-games`` is installed, ``pip install 'rulekit-games[lsp]'``;
- anywhere else (no checkout, no known distribution: a copied folder on ``PYTHONPATH``), the
  extra's packages by name, which work whatever rulekit was installed as.

``EXTRAS`` is pyproject.toml's ``[project.optional-dependencies]`` for the extras a command may
need; ``tests/test_install_hints.py`` checks that the two agree.
"""
from __future__ import annotations

import functools
import shlex
from pathlib import Path

DISTRIBUTION = "rulekit-games"

EXTRAS = {
    "lsp": ("pygls>=2.0,<3", "lsprotocol>=2025.0.0"),
    "plot": ("matplotlib>=3.7",),
    "ray": ("ray>=2.9",),
    "rl": ("pettingzoo>=1.24", "gymnasium>=0.29", "numpy"),
    "rl-train": ("pettingzoo>=1.24", "gymnasium>=0.29", "numpy", "stable-baselines3>=2.3", "sb3-contrib>=2.3"),
    "stats": ("scipy>=1.11",),
}


@functools.cache
def checkout() -> Path | None:
    """The root of the checkout this package runs from, or None when it was installed (a wheel)."""
    import tomllib
    root = Path(__file__).resolve().parents[1]
    try:
        with open(root / "pyproject.toml", "rb") as file:
            project = tomllib.load(file).get("project", {})
    except (OSError, ValueError):
        return None
    return root if project.get("name") == DISTRIBUTION else None


def _installed() -> bool:
    from importlib import metadata
    try:
        metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return False
    return True


def install_command(extra: str) -> str:
    """The shell command that installs ``extra`` here (see the module's docstring)."""
    root = checkout()
    if root is not None:
        where = "." if Path.cwd().resolve() == root else str(root)
        return f"pip install -e {shlex.quote(f'{where}[{extra}]')}"
    if _installed():
        return f"pip install {shlex.quote(f'{DISTRIBUTION}[{extra}]')}"
    return "pip install " + " ".join(shlex.quote(requirement) for requirement in EXTRAS[extra])


def needs(what: str, extra: str) -> str:
    """``WHAT needs the `EXTRA` extra: COMMAND``, the sentence every missing extra is reported with."""
    return f"{what} needs the `{extra}` extra: {install_command(extra)}"
