# SPDX-License-Identifier: MIT
"""Known syntax mistakes, as examples. The parser matches a failing input against
these (lark's ``match_examples``: same parser state, same message), then falls back
to "expected one of ...". The tests loop over this table, so every entry is proven.

Each row: (code, message, help, start rule, example snippets that make the mistake).
"""
from ..codes import (
    ASSIGN_FOR_COMPARE,
    BARE_VALUE_STATEMENT,
    FOREIGN_OPERATOR,
    FOREIGN_OPERATOR_IN_EXPRESSION,
    FORMAT_SPEC,
    INCOMPLETE_EXPRESSION,
    INCOMPLETE_SCRIPT_EXPRESSION,
    MISSING_BLOCK,
    MISSING_COLON,
    OPTION_NOT_A_LABEL,
    UNBALANCED_BRACKETS,
)
from ..errors import FOREIGN_WORDS

CATALOGUE = [
    (MISSING_COLON, "missing `:` at the end of a block header",
     "write `if cond:`, `for x in xs:`, `while cond:` or `choose p:` and indent the block below",
     "start", ["if x\n  pass\n", "for x in y\n  pass\n", "while x\n  pass\n", "choose p\n  \"a\": pass\n"]),
    (OPTION_NOT_A_LABEL, "`choose` lists its options as quoted labels",
     "write each option as `\"label\": ...`, for example `\"bid {n}\" for n in range(1, 5): ...`",
     "start", ["choose p:\n  bid: pass\n", "choose p:\n  pass\n"]),
    (ASSIGN_FOR_COMPARE, "`=` assigns; compare with `==`",
     "write `if a == b:`",
     "start", ["if a = b:\n  pass\n", "while a = 1:\n  pass\n"]),
    (MISSING_BLOCK, "expected an indented block",
     "indent the statements of the block below its header",
     "start", ["if x:\nfoo()\n", "for x in y:\npass\n"]),
    (INCOMPLETE_SCRIPT_EXPRESSION, "an expression is incomplete",
     "an operator needs a value on its right",
     "start", ["x = 1 +\n", "x = a and\n", "x = \n"]),
    (UNBALANCED_BRACKETS, "unbalanced brackets",
     "close every `(` with `)` and every `[` with `]`",
     "start", ["x = f(1\n", "x = [1, 2\n", "if x:\n  y = f(1\n", "if x:\n  y = [1, 2\n"]),
    (FOREIGN_OPERATOR, "use `and`, `or` and `not`, not symbols",
     "write `a and b`, `a or b`, `not a`",
     "start", ["if a && b:\n  pass\n", "if a || b:\n  pass\n", "if !a:\n  pass\n"]),
    (BARE_VALUE_STATEMENT, "a statement must be an assignment or an effect call",
     "a bare value does nothing; assign it (`x = ...`) or call an effect (`move(...)`)",
     "start", ["x\n", "1 + 2\n", "a.b\n"]),
    (INCOMPLETE_EXPRESSION, "an expression is incomplete",
     "an operator needs a value on its right",
     "expr_start", ["1 +\n", "a and\n", "not\n"]),
    # the same mistake outside a rule block: an expression (`points:`, `when:`, a template's hole)
    (FOREIGN_OPERATOR_IN_EXPRESSION, "use `and`, `or` and `not`, not symbols",
     "write `a and b`, `a or b`, `not a`",
     "expr_start", ["a && b\n", "a || b\n", "x == 1 && b\n", "x == 1 || b\n", "f(a && b)\n", "f(a || b)\n"]),
    (FORMAT_SPEC, "a template hole takes an expression, with no format after `:`",
     "write the sign or the digits in the text around the hole: `{'+' if x > 0 else ''}{x}`; "
     "numbers print whole or as fractions (`7/2`)",
     "expr_start", ["x:+\n", "x:d\n", "x:.2f\n", "x:2\n"]),
]

# Words content writers bring from Python, and the language's own word for each: an unknown name
# or function that is one of them says which (errors.suggestion_help reads FOREIGN_WORDS).
PYTHON_WORDS = {"len": "count", "None": "none", "True": "true", "False": "false"}
FOREIGN_WORDS.update(PYTHON_WORDS)
