# SPDX-License-Identifier: MIT
"""``rulekit compile``: a game's generated Python module, listed for reading.

rulekit compiles every game into one Python module (``game.program.module``, see
dsl/codegen.py). That source names many things it does not define: constants taken
from the content (``K73``, ``Z_deck_90``, ``CHOOSE3_122``...) and rulekit's helpers
(``SEQ``, ``CALL``, ``DECIDE``...), all bound in the namespace the module runs in
(``game.program.module.comp.ns``). :func:`listing` prints the source with a header and a
commented table of those names, so an author or a contributor can read what their
rules became. The listing is valid Python (everything added is a comment) but it is
not meant to run on its own.

The output is deterministic: the same game, read from the same folder, gives the
same bytes. Nothing in it depends on memory addresses, on hash order, or on how many
games the process compiled before.
"""
from __future__ import annotations

import ast
import functools
import os
import re
import shlex
import symtable
import types

from .. import __version__

REPR_WIDTH = 80     # a bound value's description is cut to about this many characters
_DEPTH = 4          # containers nested deeper than this are shown as `...`


def listing(game) -> str:
    """The generated module of a loaded game (``rulekit.load_game``), for reading."""
    program = game.program.module
    if program is None:
        raise ValueError(f"`{game.name}` has no generated module (it did not compile)")
    source = program.source()
    ns = program.comp.ns
    names = bound_names(source)
    functions = _content_functions(game, ns)
    places = [name for name in names if _place(name, ns.get(name))]
    table = [f"# {name} = {describe(ns[name], functions=functions) if name in ns else '<not bound>'}"
             for name in names if name not in places] + _places(places, ns, game.path)
    head = _header(game, len(names))
    top = head + [f"# Bound names ({len(names)}), in order of first use:"] + table + [""]
    filename = re.sub(r"#\d+", "#N", str(getattr(program, "filename", "") or "<rulekit module>"))
    offset = len(top) + 2       # the two lines below come before the module's first line
    top += [(f"# ---- the module ----  (tracebacks and profiles name it `{printable(filename)}`; "
             f"its line L is line L+{offset} here)"), ""]
    return "\n".join(top) + "\n" + source


def _place(name: str, value) -> bool:
    """``name`` is ``AT_L_C``, the place in the content it stands for (line L, column C): it says
    what it holds, and the table says it once for all of them (``_places``)."""
    return value.__class__.__name__ == "Span" and getattr(value, "line", None) is not None and \
        name == f"AT_{value.line}_{value.column or 0}"


def _places(names: list, ns: dict, home: str) -> list[str]:
    """One entry for the ``AT_L_C`` names: how many, and the files they are places of."""
    if not names:
        return []
    files: dict = {}
    for name in names:
        path = str(ns[name].path)
        files[path] = files.get(path, 0) + 1
    where = ", ".join(f"{_relative(path, home)}: {n}" for path, n in sorted(files.items()))
    return [f"# AT_L_C = <span FILE:L:C> ({len(names)} names): where a statement is in the content, line L and",
            f"#   column C of its file ({where})"]


def _relative(path: str, home: str) -> str:
    try:
        return os.path.relpath(path, home)
    except ValueError:          # (another drive)
        return path


def _header(game, count: int) -> list[str]:
    variants = ", ".join(game.variants) if game.variants else "none"
    lines = [
        f"rulekit's generated code for {game.title}",
        f"variants: {variants}",
        f"content hash: {game.content_hash}",
        f"compiled by: rulekit {__version__}",
        f"passes: {_passes(game)}",
        "",
        "This is for reading. It is the Python module rulekit compiles the game's rules into, but",
        "it does not run on its own: rulekit runs it inside its own namespace, which binds every",
        f"name the code uses without defining it ({count} names, listed below with a short",
        "description of each: values taken from the content, and rulekit's helpers). A comment",
        "`# 'NAME' ('FILE:LINE')` at each function names the content it was compiled from, and",
        "`# line N` the content line of each statement in it. Content values are bound in the",
        "namespace, never pasted into the code.",
        "",
        "Regenerate it with:",
        *_wrapped_command(_command(game) + ["--out", "FILE"]),
        "",
    ]
    return [("# " + printable(line)).rstrip() for line in lines]


def _wrapped_command(argv: list, width: int = 110) -> list[str]:
    """``argv`` as shell lines of at most ``width`` columns where its words allow (a listing's
    lines stay within 120), each but the last ending in `` \\`` (the shell joins them); an option
    stays on the line of the value it takes."""
    words = [shlex.quote(word) for word in argv]
    groups: list[str] = []
    for word in words:
        if groups and groups[-1].startswith("-") and " " not in groups[-1] and not word.startswith("-") \
                and "=" not in groups[-1]:
            groups[-1] += " " + word        # `--variant PATH`, `--out FILE`
        else:
            groups.append(word)
    lines = ["  " + groups[0]]
    for group in groups[1:]:
        if len(lines[-1]) + 1 + len(group) + 2 <= width:
            lines[-1] += " " + group
        else:
            lines[-1] += " \\"
            lines.append("      " + group)
    return lines


def _command(game) -> list[str]:
    """The command that lists this game again (a shipped game by its name), as words."""
    from ..games import find_game
    target = game.path
    try:
        if os.path.samefile(find_game(game.name), game.path):
            target = game.name
    except Exception:  # noqa: BLE001, S110 - not a shipped game, or a folder that moved: its path
        pass
    argv = ["rulekit", "compile", target]
    for variant in game.variants:
        argv += ["--variant", variant]
    setting = game.program.module.comp.passes.setting()
    return argv + ([f"--passes={setting}"] if setting else [])


def _passes(game) -> str:
    """The optimisations the code was compiled with (dsl/passes.py)."""
    return game.program.module.comp.passes.describe()


# ------------------------------------------------------------------ which names
def bound_names(source: str) -> list[str]:
    """Names the source reads but does not define (its functions' free globals), in
    order of first use. They are the names its namespace must bind."""
    top = symtable.symtable(source, "<rulekit listing>", "exec")
    defined = {s.get_name() for s in top.get_symbols()
               if s.is_assigned() or s.is_imported() or s.is_namespace()}
    free: set = set()
    tables = [top]
    while tables:
        table = tables.pop()
        for sym in table.get_symbols():
            if sym.is_referenced() and sym.is_global():
                free.add(sym.get_name())
        tables.extend(table.get_children())
    free -= defined
    used = sorted(((node.lineno, node.col_offset), node.id) for node in ast.walk(ast.parse(source))
                  if isinstance(node, ast.Name) and node.id in free)
    return list(dict.fromkeys(name for _where, name in used))


def _content_functions(game, ns: dict) -> dict:
    """id of a function object -> the content function it computes (the generated
    ``f_NAME`` functions), plus the names themselves (under their own text) so that a
    remembering caller of ``NAME`` is shown as ``<function NAME>`` too."""
    out: dict = {}
    for name, fn in game.program.functions.items():
        if isinstance(name, str):
            out[name] = name
            if callable(fn):
                out[id(fn)] = name
    for entry in getattr(game.program.module, "functions", None) or ():   # (content name, python name, ...)
        if isinstance(entry, tuple) and len(entry) >= 2 and isinstance(entry[0], str) and entry[1] in ns:
            out[id(ns[entry[1]])] = entry[0]
    return out


# ------------------------------------------------------------------ short descriptions
class _Full(Exception):
    """The description has reached its width."""


def describe(value, width: int = REPR_WIDTH, functions: dict | None = None) -> str:
    """A short, one-line, deterministic description of a bound value: about ``width``
    characters, control characters escaped (content text cannot end the comment it
    is printed in), no memory addresses. ``functions`` names content functions
    (:func:`_content_functions`)."""
    functions = functions or {}
    parts: list[str] = []
    size = 0

    def put(text: str) -> None:
        nonlocal size
        text = printable(text)
        parts.append(text)
        size += len(text)
        if size > width:
            raise _Full

    try:
        _walk(value, put, 0, functions)
    except _Full:
        return "".join(parts)[:width - 3] + "..."
    return "".join(parts)


def _walk(value, put, depth: int, functions: dict) -> None:
    from ..engine.state import Family, ZoneKey
    from ..source import Span
    kind = type(value)
    if value is None or kind in (bool, int, float, complex, str, bytes):
        put(repr(value))
    elif kind is ZoneKey or kind is Family:
        put(str(value))
    elif kind is Span:
        put(f"<span {value}>")
    elif kind in (list, tuple, set, frozenset, dict):
        if depth >= _DEPTH:
            put("...")
            return
        if kind is dict:
            put("{")
            for i, (key, item) in enumerate(value.items()):
                put(", " if i else "")
                _walk(key, put, depth + 1, functions)
                put(": ")
                _walk(item, put, depth + 1, functions)
            put("}")
            return
        items = list(value)
        if kind in (set, frozenset):    # hash order differs from run to run
            if not items:
                put("set()" if kind is set else "frozenset()")
                return
            items = sorted(items, key=lambda x: describe(x, 10 ** 6, functions))
        open_, close = {list: "[]", tuple: "()", set: "{}", frozenset: "{}"}[kind]
        put(("frozenset(" if kind is frozenset else "") + open_)
        for i, item in enumerate(items):
            put(", " if i else "")
            _walk(item, put, depth + 1, functions)
        put(("," if kind is tuple and len(items) == 1 else "") + close + (")" if kind is frozenset else ""))
    elif callable(value) and not isinstance(value, type):
        put(_callable(value, functions))
    else:
        put(_object(value))


def _callable(fn, functions: dict) -> str:
    from ..engine.library import REGISTRY
    if id(fn) in functions:
        return f"<function {functions[id(fn)]}>"
    for name, builtin in REGISTRY.items():
        if builtin.impl is fn:
            return f"<built-in {name}>"
    if isinstance(fn, types.BuiltinFunctionType):       # len, any, next...
        return f"<built-in {fn.__name__}>"
    if isinstance(fn, functools.partial):
        return f"<partial {_callable(fn.func, functions)}>"
    if isinstance(fn, types.MethodType):
        return f"<method {getattr(fn, '__name__', '?')}>"
    if isinstance(fn, types.FunctionType):
        code = fn.__code__
        cells = _closure(fn)
        name = cells.get("name")
        if isinstance(name, str) and fn.__qualname__ == "attribute_reader.<locals>.read":
            return f"<attribute .{name}>"          # `x.prop` when x may be a player or an item
        if isinstance(name, str) and name in functions:
            return f"<function {name}>"             # a remembering caller of a content function
        what, span = cells.get("what"), cells.get("span")
        if isinstance(what, str) and span is not None:
            return f"<expression {what} at {span}>"
        if re.fullmatch(r"line\d+", code.co_name) and not code.co_filename.startswith("<"):
            return f"<expression at {code.co_filename}:{code.co_firstlineno}>"
        return f"<function {fn.__name__}>"
    return _object(fn)


def _closure(fn) -> dict:
    out = {}
    for var, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            out[var] = cell.cell_contents
        except ValueError:      # an empty cell
            pass
    return out


def _object(value) -> str:
    kind = type(value).__name__
    if kind == "Code" and hasattr(value, "pyname"):       # engine/runtime.Code: a procedure
        prefix = "run" if getattr(value, "stops", True) else "call"
        return f"<procedure {getattr(value, 'name', '?')}: {prefix}_{value.pyname}>"
    if kind == "ChooseSpec" and isinstance(getattr(value, "keys", None), dict):
        options = ", ".join(f"{target}" + (f" ({', '.join(map(str, keys))})" if keys else "")
                            for target, keys in value.keys.items())
        return f"<choose at {getattr(value, 'span', None)}: options {options}>"
    if isinstance(value, types.ModuleType):
        return f"<module {value.__name__}>"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a value that cannot describe itself
        text = f"<{kind}>"
    return re.sub(r" at 0x[0-9A-Fa-f]+", "", text)


def printable(text: str) -> str:
    """Control and other unprintable characters (newlines, NUL, U+2028...) as escapes."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
