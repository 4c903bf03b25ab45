# SPDX-License-Identifier: MIT
"""Hostile input, round 2: every size limit holds where values are built, numbers stay
printable, and checking content is linear in its size.

- texts and lists built by templates (``"{s}{s}"``), ``join``, ``text``, comprehensions
  with two ``for``s (statement, function and argument forms, ``by`` too) and the labels of a
  decision stop at the size limit with RK4015 on the author's line, in a moment and under a
  3 GB memory cap (they used to run out of memory after seconds: exit 1 with RK4000, or
  worse without a cap);
- a written text longer than the limit is RK0117; a long string costs memory in proportion
  to its length (a 3 MB label cost 579 MB in the lexer's regex);
- a number of more than 1,000 digits in YAML (a game, a script, a log) is RK0116 on its
  line, never an internal error; a number computed past about 3,900 digits is RK4015
  before Python refuses to print it (a score, a log, a template);
- the RK0340 pass and the kinds of locals cost work in proportion to a procedure's length
  (counted in function calls, never timed: ``benchmarks/bench_validate.py`` times it).
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import textwrap
import tracemalloc
from pathlib import Path

import pytest

import rulekit
from rulekit.cli.app import main
from rulekit.dsl.texts import parse_text
from rulekit.engine import api
from rulekit.engine.runtime import MAX_BITS, MAX_SIZE
from rulekit.errors import ContentRuntimeError, DiagnosticReport

HEAD = "meta: {title: Limits}\nplayers: {min: 1, max: 2}\nvars:\n  x: 0\n"
FLOW = "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: pass\n"
MEMORY_CAP = 3 << 30


def with_setup(setup: str, extra: str = "") -> str:
    return HEAD + extra + f"setup: |\n{textwrap.indent(setup, '    ')}" + FLOW


def line_of(folder: str, needle: str) -> int:
    lines = Path(folder, "game.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def run(capsys, *argv) -> tuple[int, str]:
    capsys.readouterr()
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _cap_memory() -> None:      # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def autoplay_capped(folder: str) -> subprocess.CompletedProcess:
    """``rulekit autoplay`` in a child process that may use no more than 3 GB."""
    env = dict(os.environ, RULEKIT_CACHE_DIR="off")
    return subprocess.run([sys.executable, "-m", "rulekit", "autoplay", folder, "--quiet"], env=env,
                          preexec_fn=_cap_memory, capture_output=True, text=True, timeout=300)


# ------------------------------------------------------------------ sizes, where values are built

GROWING = {
    "template": ('s = "ab"\nfor i in range(60):\n    s = "{s}{s}"\n', 's = "{s}{s}"', "", "a text of"),
    "join": ('s = "ab"\nfor i in range(60):\n    s = join([s, s], "")\n', "s = join(", "", "a text of more than"),
    "text of a list": ('s = "a" * 1000000\nl = [s for i in range(1000)]\nt = text(l)\n', "t = text(l)", "",
                       "a text of more than"),
    "template of a list": ('s = "a" * 1000000\nl = [s for i in range(1000000)]\nt = "{l}"\n', 't = "{l}"', "",
                           "a text of more than"),
    "join of many texts": ('s = "a" * 1000\nt = join([s for i in range(1000000)], "")\n', "t = join(", "",
                           "a text of more than"),
    "comprehension": ("l = [1]\nfor i in range(60):\n    l = [a for a in l for b in [1, 2]]\n", "l = [a for a",
                      "", "a list of"),
    "comprehension as an argument": ("l = [1]\nfor i in range(60):\n    l = sorted(a for b in [1, 2] for a in l)\n",
                                     "l = sorted(", "", "a list of more than"),
    "comprehension by a key": ("l = [1]\nfor i in range(60):\n    l = sorted(a for b in [1, 2] for a in l by a)\n",
                               "l = sorted(", "", "a list of more than"),
    "comprehension in a function": ("l = [1]\nfor i in range(60):\n    l = twice(l)\n", "l = twice(l)",
                                    "functions:\n  twice:\n    params: [l]\n"
                                    "    expr: \"[a for a in l for b in [1, 2]]\"\n", "a list of"),
    "product of two ranges": ("l = [a for a in range(1000000) for b in range(1000000)]\n", "l = [a for a", "",
                              "a list of"),
}


@pytest.mark.parametrize("case", sorted(GROWING))
def test_a_value_built_past_the_limit_stops_on_its_line_under_a_memory_cap(write_game, case):
    setup, statement, extra, says = GROWING[case]
    folder = write_game(with_setup(setup + "x = 1\n", extra))
    done = autoplay_capped(folder)
    out = done.stdout + done.stderr
    assert done.returncode == 1 and "error[RK4015]" in out and says in out, out[-2000:]
    assert f"game.yaml:{line_of(folder, statement)}:" in out, out[-2000:]


def test_the_labels_of_one_decision_are_bounded_together(write_game):
    """Each label is within the limit, but a million of them would fill the machine."""
    folder = write_game(HEAD + "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: |\n"
                        "        big = \"a\" * 999000\n        choose players[0]:\n"
                        "            \"{big} {k}\" for k in range(1000000):\n                x += k\n")
    done = autoplay_capped(folder)
    out = done.stdout + done.stderr
    assert done.returncode == 1 and "error[RK4015]: the options' labels come to more than" in out, out[-2000:]
    assert f"game.yaml:{line_of(folder, 'choose players[0]')}:" in out


def test_values_within_the_limits_still_print_and_join(write_game):
    folder = write_game(with_setup('l = [a for a in range(3) for b in [1, 2]]\n'
                                   's = "{l}-{join(l, \'+\')}-{text([l, true, none])}"\n'
                                   'x = count([c for c in s]) + count(sorted(a for a in l for b in l by -a))\n'))
    state = api.new_game(rulekit.load_game(folder), 1, 1)
    text = "[0, 0, 1, 1, 2, 2]-0+0+1+1+2+2-[[0, 0, 1, 1, 2, 2], true, none]"
    assert state.g["x"] == len(text) + 36


def test_a_text_written_past_the_limit_is_refused_when_checked(capsys, write_game):
    label = "a" * (MAX_SIZE + 5)
    folder = write_game(HEAD + "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: |\n"
                        f"        choose players[0]:\n            \"{label} {{k}}\" for k in [1, 2]:\n"
                        "                x += k\n")
    code, out = run(capsys, "validate", folder, "--format", "concise")
    assert code == 1 and f"game.yaml:11:13: error[RK0117]: a text of {MAX_SIZE + 6:,} characters" in out


def test_a_long_string_costs_memory_in_proportion_to_its_length():
    """The lexer matched a string one character at a time in a regex group: a 3 MB label
    cost 579 MB. Matched in runs, it costs a few times its length."""
    text = 'x = "' + "a" * 3_000_000 + '"\n'
    parse_text("x = 1\n", None)     # the parser built before measuring
    tracemalloc.start()
    try:
        parse_text(text, None)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 60 * len(text), f"{peak:,} bytes to parse a {len(text):,}-character text"


# ------------------------------------------------------------------ numbers

BIG = "9" * 5000


@pytest.mark.parametrize("where, yaml_text, needle", [
    ("a parameter", HEAD + f"params:\n  big: {BIG}\n" + FLOW, "big:"),
    ("a table", HEAD + f"tables:\n  t: {{a: -{BIG}}}\n" + FLOW, "t: {a:"),
    ("a hexadecimal one", HEAD + f"params:\n  big: 0x{'f' * 5000}\n" + FLOW, "big:"),
])
def test_a_number_of_thousands_of_digits_in_yaml_is_located(capsys, write_game, where, yaml_text, needle):
    folder = write_game(yaml_text)
    code, out = run(capsys, "validate", folder, "--format", "concise")
    column = Path(folder, "game.yaml").read_text().splitlines()[line_of(folder, needle) - 1].index(needle)
    assert code == 1 and "error[RK0116]: a number of 5,000 digits is too long to write (at most 1,000)" in out
    assert f"game.yaml:{line_of(folder, needle)}:{column + 1 + len(needle) + 1}:" in out


@pytest.mark.parametrize("step", [f"seed: {BIG}\n", f"seed: 0x{'f' * 5000}\n",
                                  f"actions:\n  - expect: {{x: 0x{'f' * 5000}}}\n"])
def test_a_number_of_thousands_of_digits_in_a_script_is_located(capsys, write_game, step):
    folder = write_game({"game.yaml": HEAD + FLOW, "scripts/s.yaml": "game: ..\nplayers: 1\n" + step})
    code, out = run(capsys, "run", os.path.join(folder, "scripts", "s.yaml"))
    assert code == 1 and "s.yaml:" in out and "error[RK0116]" in out, out


def test_a_score_too_large_to_print_is_located(capsys, write_game):
    folder = write_game(HEAD + "setup: |\n    x = 1\n    for i in range(20000):\n        x = x + x\n" + FLOW +
                        "scoring:\n  categories:\n    - id: big\n      points: \"x\"\n")
    code, out = run(capsys, "simulate", folder, "--games", "1")     # unrecorded: `x` is kept as it grows
    assert code == 1 and "error[RK4015]: the points of `big`: a number of about 6,000 digits is too large" in out
    assert f"game.yaml:{line_of(folder, 'points:')}:" in out


@pytest.mark.parametrize("setup, statement", [
    ('x = 1\nfor i in range(20000):\n    x = x + x\nlog("x is {x}")\n', "x = x + x"),   # kept by a recorded game
    ('y = 1\nfor i in range(20000):\n    y = y + y\nlog("y is {y}")\n', "log("),         # a local: where printed
    ('n = 3\nfor i in range(20000):\n    n = n + n\nt = text(n)\n', "t = text(n)"),
    ("n = 3 ** 9000\n", "n = 3 ** 9000"),
    ("n = 3\nfor i in range(14):\n    n = n * n\n", "n = n * n"),
])
def test_a_number_too_large_to_print_stops_on_its_line(write_game, setup, statement):
    """Python refuses to print a whole number of more than 4,300 digits: a number stops at
    about 3,900 where it is multiplied, and where it is printed when sums grew it."""
    folder = write_game(with_setup(setup))
    with pytest.raises(ContentRuntimeError) as info:
        api.new_game(rulekit.load_game(folder), 1, 1)
    assert info.value.code == "RK4015" and "digits is too large" in str(info.value)
    assert info.value.span.line == line_of(folder, statement)
    assert len(str(2 ** MAX_BITS)) < 4300


def test_a_variable_grown_too_large_to_print_stops_where_it_is_kept(write_game, capsys, tmp_path):
    """A variable doubled by sums past 4,300 digits is refused where a recorded game keeps it:
    `--verbose`, a log's replay and `render` print every value kept (they were exit 101)."""
    folder = write_game(with_setup("x = 1\nfor i in range(20000):\n    x = x + x\n"))
    where = f"game.yaml:{line_of(folder, 'x = x + x')}:"
    for argv in (["autoplay", folder, "--verbose"], ["autoplay", folder, "--log", tmp_path / "g.log.yaml"]):
        code, said = run(capsys, *argv)
        assert code == 1 and "error[RK4015]" in said and where in said and "`x` grew without end" in said, said
        assert "RK9999" not in said


# ------------------------------------------------------------------ checking is linear

def calls_to_load(folder: str) -> int:
    """Function calls (Python and built-in) made while loading a game: a count of work,
    the same on every run, that a quadratic step makes grow with the square of the size."""
    count = 0

    def profile(_frame, event, _arg):
        nonlocal count
        if event in ("call", "c_call"):
            count += 1
    sys.setprofile(profile)
    try:
        rulekit.load_game(folder)
    except DiagnosticReport:
        pass
    finally:
        sys.setprofile(None)
    return count


def procedure(lines: list[str]) -> str:
    return HEAD + "procedures:\n  big:\n    do: |\n" + "".join(f"      {line}\n" for line in lines) + \
        "flow:\n  rounds: 1\n  phases:\n    - id: m\n      do: big()\n"


def unused_locals(n: int) -> list[str]:
    return [f"v{i} = {i % 7}" for i in range(n)]


def a_chain_of_lists(n: int) -> list[str]:
    """Locals that are lists until the last is given a number, which takes the kind away from
    each before it in turn (one at a time, when every local was asked again after each)."""
    return [f"l{i} = []" for i in range(n + 1)] + [f"l{i} = l{i + 1}" for i in range(n)] + \
        [f"l{n} = 5", "x = count(l0)"]


@pytest.mark.parametrize("shape, small", [(unused_locals, 400), (a_chain_of_lists, 150)])
def test_checking_a_procedure_costs_work_in_proportion_to_its_length(write_game, shape, small):
    work = [calls_to_load(write_game(procedure(shape(n)), name=f"g{n}")) for n in (small, 4 * small)]
    assert work[1] < 6 * work[0], f"4x the lines cost {work[1] / work[0]:.1f}x the calls"
