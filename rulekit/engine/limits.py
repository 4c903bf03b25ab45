# SPDX-License-Identifier: MIT
"""How large a value content may build: a text or list of MAX_SIZE elements, a whole number
of MAX_BITS bits (about 3,900 digits: Python prints no more than 4,300). Beyond them a runaway
rule (`s = s + s` in a loop) is stopped on its line, in a moment, instead of eating the
machine's memory or failing where the value is printed: where values are built (runtime.add,
mul, power; templates; the built-ins that build texts) and where a recorded game keeps one
(mutate's setters). The numbers, with their reasons, are rulekit/limits.py's."""
from __future__ import annotations

from ..codes import STEP_BUILT_TOO_MUCH, VALUE_TOO_LARGE
from ..errors import ContentRuntimeError
from ..limits import MAX_BITS, MAX_BUILT, MAX_LABELS, MAX_SIZE, MAX_STEP_MEMORY  # noqa: F401 - state, watchdog


def too_long_message(text: bool, size: int, more: bool = False) -> str:
    what, unit = ("text", "characters") if text else ("list", "items")
    return f"a {what} of {'more than ' if more else ''}{size:,} {unit} is too long (at most {MAX_SIZE:,}; " \
           "a value that grows without end?)"


def too_many_digits(bits: int, why: str = "a runaway value?", span=None, subject: str | None = None):
    """A whole number past MAX_BITS bits: refused before it is worked out, printed or kept
    (``subject``: what it is the value of, said first)."""
    said = f"a number of about {bits * 3 // 10:,} digits is too large (at most about {MAX_BITS * 3 // 10:,}; {why})"
    raise ContentRuntimeError(f"{subject}: {said}" if subject else said, span, VALUE_TOO_LARGE)


# ------------------------------------------------------------------ what one step builds
# One run of the rules (from a decision to the next: engine/vm.py counts runs in watchdog.RUNS) may
# build at most MAX_BUILT elements (items of lists, characters of texts, entries of mappings) in the
# copies the engine makes (slices, element assignments that copy, the built-ins that build lists and
# texts); rulekit/limits.py says why. The values the compiler builds inline (`a + b`, templates) are
# counted where it checks their size (CountedBound, below); what is left (a comprehension's items)
# is bounded by the watchdog's memory bound (MAX_STEP_MEMORY, ticking 4 times a CPU second) on the
# command line.
RUNS = [0]              # odd while the VM runs content: increased as a run starts and as it ends (vm.py)
_built = [-1, 0]        # [the run it counts, elements built in it]


def built(size: int) -> None:
    """Count ``size`` elements built by the running step; past MAX_BUILT, the content's error
    (RK4024) on the statement that runs. Counted per run of the VM (a new run starts at zero)."""
    run = RUNS[0]
    if _built[0] != run:
        _built[0] = run
        _built[1] = size
    else:
        _built[1] += size
    if _built[1] > MAX_BUILT:
        _built[1] = 0
        raise ContentRuntimeError(f"one step of the rules built more than {MAX_BUILT:,} elements in copies of lists, "
                                  "slices, mappings or texts without reaching a decision (a value copied in a "
                                  "loop?)", None, STEP_BUILT_TOO_MUCH)


class CountedBound(int):
    """MAX_SIZE as generated code sees it (engine/expressions.py binds it in a game's namespace):
    the compiler checks each text or list it builds inline (``a + b``, ``a * n``, a template) as
    ``len(v) <= MAX_SIZE``, and Python asks an ``int`` subclass on the right first, so each value
    built there is counted in what the step builds (:func:`built`) where it is checked, with no
    change to the code the compiler writes. (A comprehension's running check, ``len(acc) >
    MAX_SIZE`` at each item, is left alone: it is no value built.) Anywhere else it is the number."""

    def __ge__(self, size):             # len(v) <= MAX_SIZE
        built(size)
        return int.__ge__(self, size)


COUNTED_MAX_SIZE = CountedBound(MAX_SIZE)
