# SPDX-License-Identifier: MIT
"""How large a value content may build: a text or list of MAX_SIZE elements, a whole number
of MAX_BITS bits (about 3,900 digits: Python prints no more than 4,300). Beyond them a runaway
rule (`s = s + s` in a loop) is stopped on its line, in a moment, instead of eating the
machine's memory or failing where the value is printed: where values are built (runtime.add,
mul, power; templates; the built-ins that build texts) and where a recorded game keeps one
(mutate's setters)."""
from __future__ import annotations

from ..codes import VALUE_TOO_LARGE
from ..errors import ContentRuntimeError

MAX_SIZE = 1_000_000
MAX_BITS = 13_000
MAX_LABELS = 10_000_000     # characters of all the labels of one decision (ten texts of the longest)


def too_long_message(text: bool, size: int, more: bool = False) -> str:
    what, unit = ("text", "characters") if text else ("list", "items")
    return f"a {what} of {'more than ' if more else ''}{size:,} {unit} is too long (at most {MAX_SIZE:,}; " \
           "a value that grows without end?)"


def too_many_digits(bits: int, why: str = "a runaway value?", span=None, subject: str | None = None):
    """A whole number past MAX_BITS bits: refused before it is worked out, printed or kept
    (``subject``: what it is the value of, said first)."""
    said = f"a number of about {bits * 3 // 10:,} digits is too large (at most about {MAX_BITS * 3 // 10:,}; {why})"
    raise ContentRuntimeError(f"{subject}: {said}" if subject else said, span, VALUE_TOO_LARGE)
