# SPDX-License-Identifier: MIT
"""How large a value content may build: a text or list of MAX_SIZE elements, a whole number
of MAX_BITS bits (about 3,900 digits: Python prints no more than 4,300). Beyond them a runaway
rule (`s = s + s` in a loop) is stopped on its line, in a moment, instead of eating the
machine's memory or failing where the value is printed: where values are built (runtime.add,
mul, power; templates; the built-ins that build texts) and where a recorded game keeps one
(mutate's setters)."""
from __future__ import annotations

from ..errors import ContentRuntimeError

MAX_SIZE = 1_000_000
MAX_BITS = 13_000


def too_long_message(text: bool, size: int, more: bool = False) -> str:
    what, unit = ("text", "characters") if text else ("list", "items")
    return f"a {what} of {'more than ' if more else ''}{size:,} {unit} is too long (at most {MAX_SIZE:,}; " \
           "a value that grows without end?)"


def too_many_digits(bits: int, what: str = "a runaway value?", span=None):
    """A whole number past MAX_BITS bits: refused before it is worked out, printed or kept."""
    raise ContentRuntimeError(f"a number of about {_digits(bits):,} digits is too large (at most about "
                              f"{_digits(MAX_BITS):,}; {what})", span, "RK4015")


def _digits(bits: int) -> int:
    """How many decimal digits a whole number of ``bits`` bits has (at most; one less at times)."""
    return bits * 30103 // 100000 + 1
