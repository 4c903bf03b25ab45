# SPDX-License-Identifier: MIT
"""``xs[i] = v`` in amortised constant time, with value semantics kept.

Generated code writes an element assignment as ``xs = REPLACED(xs, i, v)`` (dsl/codegen.py,
``_store_element``): a new list with the element set, since a value is never changed in place
(another name may hold the same one). Copying makes a loop of n assignments cost n², so the
copy is skipped when nobody could tell: the list is changed in place when

- its only holder is the variable the result is stored back into: CPython's reference count
  says there is one holder besides this call's own references (another name, a list holding
  it, a kept event, a clone of the state, a constant of the game: each is one more), and
- the call's result is stored straight back into that same place, a Python local
  (``l_xs = REPLACED(l_xs, ...)``) or a frame's slot (``e['xs'] = REPLACED(e['xs'], ...)``),
  as its bytecode shows. That rules out the inner call of ``grid[r][c] = v`` (its list is held
  by ``grid``, which another name may share) and a variable stored through its setter (which
  compares the old value with the new one to log the change).

Anything else copies, as before: the rule fails safe. What the bytecode says is worked out once
per call site.

A game variable's element (``v[i] = x``, ``p.v[i] = x``) is set by ``SET_ELEMENT``
(expressions._set_element) in place on the same terms: the row of the state holds the list and
nothing else does (:func:`held_once`; a clone of the state, another name, a memo, a loop walking
it or an event keeping the whole value is one more). A recorded game logs the element's change
alone (``set_element``: engine/mutate.py), so it too sets in place; :func:`value_before` reads
such events back.
"""
from __future__ import annotations

import dis
import sys

_getrefcount = sys.getrefcount
_frame = sys._getframe
_SITES: dict = {}        # (code, offset of the call) -> whether the result goes back where it was read


def _probe(container):
    return _getrefcount(container)


def _holders() -> int:
    """The count a container held by one local shows inside a call like ours (3 on CPython 3.11:
    the local, the parameter, getrefcount's argument), measured rather than assumed."""
    local = [0]
    return _probe(local)


EXPECTED = _holders()


def _in_row(row: dict, name: str) -> int:
    """The count a container held by one row (a dict of the state) shows when read into a local
    and asked about through a call, as :func:`expressions._set_element` asks (:func:`held_once`)."""
    container = row[name]
    return _probe(container)


ROW_EXPECTED = _in_row({"x": [0]}, "x")


def held_once(container) -> bool:
    """True when the row a game variable lives in is the only holder of ``container`` besides the
    local of the caller that read it (no other name, no clone of the state, no memo, no loop
    walking it): it may then be changed in place and nobody can tell."""
    return _getrefcount(container) == ROW_EXPECTED


def unshared(container) -> bool:
    """True when ``container`` may be changed in place by the REPLACED that called us (two frames
    up: this function, then REPLACED's own)."""
    if _getrefcount(container) != EXPECTED + 1:      # + 1: the parameter of REPLACED and this one
        return False
    frame = _frame(2)
    site = (frame.f_code, frame.f_lasti)
    known = _SITES.get(site)
    if known is None:
        known = _SITES[site] = _stored_back(*site)
    return known


def _stored_back(code, offset: int) -> bool:
    """Whether the call ending at ``offset`` stores its result into the very place its first
    argument was read from (see the module's docstring)."""
    ops = [i for i in dis.get_instructions(code) if i.opname != "CACHE"]
    after = [i for i in ops if i.offset > offset][:3]
    starts = [n for n, i in enumerate(ops) if i.offset <= offset and i.opname == "LOAD_GLOBAL"
              and i.argval == "REPLACED"]
    if not after or not starts:
        return False
    read = [(i.opname, i.argval) for i in ops[starts[-1] + 1:starts[-1] + 4]]
    wrote = [(i.opname, i.argval) for i in after]
    if wrote[0][0] == "STORE_FAST":
        return read[:1] == [("LOAD_FAST", wrote[0][1])]
    if len(wrote) == 3 and wrote[0][0] == "LOAD_FAST" and wrote[1][0] == "LOAD_CONST" \
            and wrote[2][0] == "STORE_SUBSCR":
        return read == wrote[:2] + [("BINARY_SUBSCR", None)]
    return False


def value_before(after, events):
    """A variable's value before ``events`` (its own ``set`` and ``set_element`` events, in the
    order they happened), worked back from its value ``after`` them: each element's change undone
    on one copy, a whole ``set`` giving its old value. Nothing the events or ``after`` hold is
    changed."""
    value, own = after, False
    for event in reversed(events):
        if event[0] == "set":
            value, own = event[2], False
            continue
        if not own:
            value, own = (list(value) if value.__class__ is list else dict(value)), True
        if len(event) == 5:
            value[event[2]] = event[3]
        else:               # the key was new
            del value[event[2]]
    return value
