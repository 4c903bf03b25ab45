# SPDX-License-Identifier: MIT
"""Known syntax mistakes, as examples. The parser matches a failing input against
these (lark's ``match_examples``: same parser state, same message), then falls back
to "expected one of ...". The tests loop over this table, so every entry is proven.

Each row: (code, message, help, start rule, example snippets that make the mistake).
"""

CATALOGUE = [
    ("RK0210", "missing `:` at the end of a block header",
     "write `if cond:`, `for x in xs:`, `while cond:` or `choose p:` and indent the block below",
     "start", ["if x\n  pass\n", "for x in y\n  pass\n", "while x\n  pass\n", "choose p\n  \"a\": pass\n"]),
    ("RK0211", "`choose` lists its options as quoted labels",
     "write each option as `\"label\": ...`, for example `\"bid {n}\" for n in range(1, 5): ...`",
     "start", ["choose p:\n  bid: pass\n", "choose p:\n  pass\n"]),
    ("RK0212", "`=` assigns; compare with `==`",
     "write `if a == b:`",
     "start", ["if a = b:\n  pass\n", "while a = 1:\n  pass\n"]),
    ("RK0213", "expected an indented block",
     "indent the statements of the block below its header",
     "start", ["if x:\nfoo()\n", "for x in y:\npass\n"]),
    ("RK0214", "an expression is incomplete",
     "an operator needs a value on its right",
     "start", ["x = 1 +\n", "x = a and\n", "x = \n"]),
    ("RK0215", "unbalanced brackets",
     "close every `(` with `)` and every `[` with `]`",
     "start", ["x = f(1\n", "x = [1, 2\n", "if x:\n  y = f(1\n", "if x:\n  y = [1, 2\n"]),
    ("RK0216", "use `and`, `or` and `not`, not symbols",
     "write `a and b`, `a or b`, `not a`",
     "start", ["if a && b:\n  pass\n", "if a || b:\n  pass\n", "if !a:\n  pass\n"]),
    ("RK0217", "a statement must be an assignment or an effect call",
     "a bare value does nothing; assign it (`x = ...`) or call an effect (`move(...)`)",
     "start", ["x\n", "1 + 2\n", "a.b\n"]),
    ("RK0218", "an expression is incomplete",
     "an operator needs a value on its right",
     "expr_start", ["1 +\n", "a and\n", "not\n"]),
]
