# SPDX-License-Identifier: MIT
"""Hypothesis strategies and helpers shared by the fuzz tests (``test_fuzz_content.py``,
``test_fuzz_scripts.py``): one settings object, running the command in-process, walking and
editing YAML data, misspelling a word, writing YAML back in a drawn style.

``RULEKIT_FUZZ_EXAMPLES`` sets how many examples each property tries: 12 in the default run,
60 in the slow step of ``.ci/run`` (which runs the fuzz files again with that value).
"""
from __future__ import annotations

import contextlib
import io
import os

import yaml
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from rulekit.cli.app import main

EXAMPLES = int(os.environ.get("RULEKIT_FUZZ_EXAMPLES", "12"))
FUZZ = settings(derandomize=True, max_examples=EXAMPLES, deadline=None, database=None,
                phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
                suppress_health_check=list(HealthCheck))


def cli(*argv) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``rulekit argv...`` run in-process; argparse exits too."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:   # argparse
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def paths_of(node, path=()):
    """Every path (a tuple of keys and indices) into YAML data, the root's () first."""
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths_of(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from paths_of(value, path + (i,))


def get(node, path):
    for key in path:
        node = node[key]
    return node


@st.composite
def misspelled(draw, word) -> str:
    """``word`` with one typo: a letter inserted, dropped, swapped or replaced, its case
    swapped, an ``s`` or a space added."""
    word = str(word)
    kind = draw(st.sampled_from(["insert", "delete", "swap", "case", "plural", "space", "replace"]), label="typo")
    i = draw(st.integers(0, max(0, len(word) - 1)), label="at")
    letter = draw(st.sampled_from("aeiouxyz_-. 1é"), label="letter")
    if kind == "insert":
        return word[:i] + letter + word[i:]
    if kind == "delete":
        return word[:i] + word[i + 1:]
    if kind == "swap" and len(word) > 1:
        i = min(i, len(word) - 2)
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if kind == "case":
        return word.swapcase()
    if kind == "plural":
        return word + "s"
    if kind == "space":
        return word + " "
    return word[:i] + letter + word[i + 1:]


class Styled(str):
    """A string dumped in a chosen YAML style (the dumper falls back when it cannot)."""

    style: str | None = None


class _Dumper(yaml.SafeDumper):
    pass


def _represent_str(dumper, value):
    style = getattr(value, "style", None)
    if style is None and "\n" in value:
        style = "|"
    return dumper.represent_scalar("tag:yaml.org,2002:str", str(value), style=style)


_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(Styled, _represent_str)


def dump(data, draw) -> bytes:
    """YAML data written back in a drawn style (block or flow, narrow or wide lines)."""
    flow = draw(st.sampled_from([False, None]), label="flow style")
    text = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=flow,
                     width=draw(st.sampled_from([80, 10**6]), label="width"))
    return text.encode("utf-8", errors="surrogatepass")
