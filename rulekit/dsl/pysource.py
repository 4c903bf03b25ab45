# SPDX-License-Identifier: MIT
"""Generated Python source of one value, with what the compiler knows of it.

Several of the compiler's choices depend on what a piece of generated source is: a Python
variable or a literal is read twice as it is, a value of any other shape is stored by its first
read; a number or a truth value is never looked up by seat; a tally's key no loop changes is
looked up once. The compiler says so where it writes the source (a fresh
variable, a literal, a local's slot), as the ``kind`` of a :class:`Py`, and never finds it out
by reading the text back. Any other source (an f-string, a concatenation) is plain ``str``, of
no kind: nothing is assumed of it.
"""
from __future__ import annotations

import ast as pyast

NAME = "name"        # one Python variable (a comprehension's, a parameter's, a constant's name)
TEXT = "text"        # a quoted text literal
NUMBER = "number"    # a whole-number literal
CONST = "const"      # True, False or None
SLOT = "slot"        # a local's or a global variable's slot: ``e[...]``, ``s.g[...]``
STEADY = "steady"    # a tally's key that no loop changes: a zone's, a player's zone of a slot

# What generated code calls (a method by its name, a helper by the name the module binds it to) that
# changes nothing and gives the same for the same arguments: a read, arithmetic, a pure built-in of
# Python's. A value read through these alone may be worked out again (dsl/subscripts.py, to word an
# index past the end) or once for two places (dsl/transforms.py, the `repeats` pass).
READ_ONLY_CALLS = frozenset(("get", "len", "DIV", "NOSPACE", "ADD", "MUL", "MAX", "MIN", "SUM", "LIST", "INT", "ANY",
                             "ALL"))


class Py(str):
    """Source text and its ``kind`` (one of the names above); ``denotes``, where the compiler
    says, what value it reads (``("env", key)``: a local of the frame; ``("global", name)``; a
    tally's key...): two sources denoting the same thing read the same value at one point, which
    the compiler learns from this, never from comparing the texts."""

    def __new__(cls, text: str, kind: str | None, denotes: tuple | None = None, node=None):
        source = super().__new__(cls, text)
        source.kind = kind
        source.denotes = denotes
        source.node = node      # its tree, where the writer made it as one (dsl/ir.py)
        return source


def kind(source: str) -> str | None:
    """What is known of ``source``: a kind above, or None (plain text)."""
    return getattr(source, "kind", None)


def literal_kind(value) -> str:
    """The kind of ``repr(value)`` for a value generated code may hold as a literal."""
    if value is None or value is True or value is False:
        return CONST
    return NUMBER if value.__class__ is int else TEXT


def is_variable_or_literal(source: str) -> bool:
    """Read twice as it is (``Compiler._twice``)."""
    return kind(source) in (NAME, CONST, TEXT, NUMBER)


def is_literal(source: str) -> bool:
    """A text, a whole number, a truth value or none written out."""
    return kind(source) in (CONST, TEXT, NUMBER)


def py_identifier(text: str) -> str:
    """``text`` as a fragment of a Python identifier (for readable generated names): ASCII
    letters, digits and ``_`` alone, every other character ``_``. Generated code puts it
    after a prefix of its own (``f_``, ``Z_``, ``call_``), so it never starts a name."""
    return "".join(c if c in _IDENTIFIER_CHARS else "_" for c in str(text))


_IDENTIFIER_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def literal(value) -> str:
    """Text from outside (content, a file name, a title) as generated code holds it, comments
    and file names included: the Python literal ``repr`` makes, never the text itself (a line
    break in a name would end a comment and start code). Numbers, truth values, none too."""
    if value.__class__ not in (str, int, bool, type(None)):
        raise TypeError(f"no literal for a {type(value).__name__}")
    return Py(repr(value), literal_kind(value), None, _literal_node(value))


def _literal_node(value) -> pyast.expr:
    """The tree Python reads ``repr(value)`` into (a negative number is a negation)."""
    if value.__class__ is int and value < 0:
        return pyast.UnaryOp(pyast.USub(), pyast.Constant(-value))
    return pyast.Constant(value)


NONE = literal(None)    # the value of nothing; also what an expression that is an error compiles to


# ------------------------------------------------------------------ lines of a resumable procedure
# The writer threads jumps through the blocks it wrote (blocks.threaded) and skips a jump after
# a line that leaves the block: each such line says what it is when it is written.

class Jump(str):
    """``pc = N`` (the next block to run), or ``f.pc = N`` (where the frame resumes); ``target``
    is N, or ``"f.pc"``: the block a decision bound, known only when the code runs. A line of the
    writer's with its tree (dsl/ir.py)."""

    def __new__(cls, target: int | str, frame: bool = False):
        line = super().__new__(cls, f"{'f.' if frame else ''}pc = {target}")
        line.target, line.frame = target, frame
        where = pyast.Attribute(pyast.Name("f", pyast.Load()), "pc", pyast.Store()) if frame \
            else pyast.Name("pc", pyast.Store())
        value = pyast.Constant(target) if target.__class__ is int else pyast.Attribute(
            pyast.Name("f", pyast.Load()), "pc", pyast.Load())
        line.node, line.lead = pyast.Assign([where], value), None
        return line


class Exit(str):
    """A line that leaves the block: ``continue`` (to the next block), ``return ...``; its tree
    ``node`` (dsl/ir.py makes those of a value, ``ir.exit``)."""

    def __new__(cls, text: str, node=None):
        line = super().__new__(cls, text)
        line.node, line.lead = node, None
        return line


class Comment(str):
    """A comment line."""


CONTINUE = Exit("continue", pyast.Continue())
RETURN_TRUE = Exit("return True", pyast.Return(pyast.Constant(True)))     # it stopped for a decision
RETURN_FALSE = Exit("return False", pyast.Return(pyast.Constant(False)))  # it returned
RETURN_PC = Exit("return pc", pyast.Return(pyast.Name("pc", pyast.Load())))
