# SPDX-License-Identifier: MIT
"""``rulekit test --coverage``: which rules the scripts exercised.

Three measures, so an author sees which rulings have no scenario yet:

- **statements**: every statement of a procedure, of ``setup``, of a phase or of ``finish``,
  and every content function, by its line in the content file;
- **options**: every option of every ``choose``, chosen by some script's action or not;
- **components**: every component kind, and whether an item of it moved or changed in play
  (after the first action: setup moves everything).

Nothing is added to the generated code: while the scripts run, a trace function
(``sys.settrace``) follows only the frames of a game's generated module, whose lines map to
content spans (:data:`~rulekit.engine.runtime.LINE_SPANS`), notes the option each resumed
decision takes, and notes each expression compiled on its own that runs (an option's label,
a score or tie-break, an invariant, a `narrate:` template: code put on its content line by
``compiler.located_code``, named ``lineN``), so that a function written in place of its call
there counts as run. After each script, the estimate is asked for every seat and the game's
events are narrated, so what only they call is measured too. Without ``--coverage`` no trace
function is installed, so the measure costs nothing.
"""
from __future__ import annotations

import os
import sys

import attrs

from ..engine import steps, vm
from ..engine.runtime import LINE_SPANS, ChooseSpec, decide
from ..engine.state import PLAYERS
from ..model import ESTIMATE
from ..source import source_line

# a decision applied: vm.resume, or apply_index's own copy of it (a bot's fast path), each called
# with the state and the index of the option taken while the decision is still pending
_APPLIED = (vm.resume.__code__, steps.apply_index.__code__)
_TAKEN = decide.__code__   # a rollout's decision taken as it came (a `choice` bound): no resume
SHOWN = 40     # missed lines and options listed under the summary (the annotated files show them all)


class Tracer:
    """Records, while active, the generated lines run and the options chosen."""

    def __init__(self):
        self.lines: dict[str, set] = {}       # generated file -> its line numbers that ran
        self.programs: dict[str, object] = {}  # generated file -> its Module (None: not a game's rules)
        self.chosen: set = set()              # (ChooseSpec, target pc) of every option taken
        self.functions: dict = {}             # code of a content function -> called?
        self.moved: set = set()               # (id of its rules' Module, item id) moved or changed in play
        self.games: dict = {}                 # id of a Module -> the game it is the rules of
        self.exprs: set = set()               # (content file, line) of each expression compiled alone that ran
        self._previous = None

    def __enter__(self) -> Tracer:
        self._previous = sys.gettrace()
        sys.settrace(self._call)
        return self

    def __exit__(self, *exc) -> None:
        sys.settrace(self._previous)

    def _call(self, frame, event, arg):
        code = frame.f_code
        name = code.co_filename
        if name in LINE_SPANS:
            if name not in self.programs:
                state = frame.f_locals.get("s")
                if getattr(state, "game", None) is None:
                    return None             # the module's own top level, run as it loads
                self._adopt(name, state)
            if self.programs[name] is None:
                return None
            return self._line
        if code in self.functions:
            self.functions[code] = True
            return None
        if code.co_name.startswith("line"):     # an expression on its content line (compiler.located_code)
            self.exprs.add((name, code.co_firstlineno))
            return None
        if code is _TAKEN:
            return self._taken
        if code in _APPLIED:
            state, index = frame.f_locals.get("s"), frame.f_locals.get("index")
            decision = getattr(state, "pending", None)
            if decision is not None and isinstance(index, int) and 0 <= index < len(decision.choices):
                spec, target = decision.spec, decision.choices[index][0]
                sim = getattr(decision, "sim", None)
                if sim is not None:         # a choose_all pick: (record block, (player, option))
                    spec, target = sim.inner, decision.choices[index][1][1][0]
                self.chosen.add((spec, target))
        return None

    def _taken(self, frame, event, arg):
        """A decision a rollout took as it came: its option once the draw bound it."""
        if event == "return" and "choice" in frame.f_locals:
            self.chosen.add((frame.f_locals["spec"], frame.f_locals["choice"][0]))
        return self._taken

    def _line(self, frame, event, arg):
        if event == "line":
            self.lines[frame.f_code.co_filename].add(frame.f_lineno)
        return self._line

    def _adopt(self, name: str, state) -> None:
        """A generated file seen for the first time: the rules of the game it runs in, or code
        of a script (its `position:`), which is not counted."""
        program = state.game.program.module
        self.programs[name] = program if getattr(program, "filename", None) == name else None
        if self.programs[name] is not None:     # its content functions run as code of their own line
            self.games[id(program)] = state.game
            for _name, pyname, _params, _body, _span, _reused in program.comp.out.function_defs:
                self.functions.setdefault(program.comp.ns[pyname].__code__, False)
        self.lines.setdefault(name, set())

    def note_game(self, state) -> None:
        """The items a script's game moved or changed after its first action; and, traced, the
        estimate of every seat and the narration of its events (content that runs in play)."""
        _estimate_and_narrate(state)
        key = id(state.game.program.module)
        self.games[key] = state.game
        started = False
        for event in state.events:
            if event[0] == "action":
                started = True
            elif started and event[0] in ("move", "prop"):
                self.moved.add((key, event[1]))


def _estimate_and_narrate(state) -> None:
    """Ask what a script never asks but play does: the estimate (bots) and the narration
    (`autoplay`, `play`). A content error there is not the script's: it is left to them."""
    from ..dsl.narrate import Teller
    from ..errors import RulekitError
    estimate = state.game.scoring.estimate
    try:
        for seat in range(len(state.p)):
            if estimate is not None:
                estimate(state, {"p": PLAYERS[seat]})
        Teller().since(state)
    except RulekitError:
        pass


@attrs.define
class Report:
    statements: dict = attrs.Factory(dict)    # content path -> {line: ran?}
    options: dict = attrs.Factory(dict)       # (path, line, column) -> chosen?
    kinds: dict = attrs.Factory(dict)         # component kind -> (items exercised, items)
    names: dict = attrs.Factory(dict)         # content path -> how it is shown: `mygame/rules.yaml`


def report(tracer: Tracer) -> Report:
    """What the traced scripts exercised, over every game they ran."""
    out = Report()
    for name, program in tracer.programs.items():
        if program is None:
            continue
        ran = tracer.lines[name]
        for number, (text, span) in enumerate(zip(program.lines, LINE_SPANS.get(name, ())), 1):
            if span is not None and span.path and os.path.isfile(span.path) and not text.startswith("def "):
                _mark(out.statements, span, number in ran)      # (a `def` line runs as the module loads)
        _functions(out.statements, program, tracer)
        for value in program.comp.ns.values():
            if isinstance(value, ChooseSpec):
                for target, span in value.options.items():
                    key = (span.path, span.line, span.column)
                    out.options[key] = out.options.get(key, False) or (value, target) in tracer.chosen
    for key, game in tracer.games.items():
        _kinds(out.kinds, key, game, tracer.moved)
    folders = [os.path.abspath(game.path) for game in tracer.games.values()]
    for path in set(out.statements) | {p for p, _l, _c in out.options}:
        full = os.path.abspath(path)
        home = next((f for f in folders if full.startswith(f + os.sep)), None)
        out.names[path] = os.path.relpath(full, os.path.dirname(home)).replace(os.sep, "/") if home else path
    return out


def _functions(table: dict, program, tracer: Tracer) -> None:
    """Content functions: run when called, or, for one written in place of its calls (a cheap
    body), when a statement or function on the line of such a call ran. A call written in a
    body that is itself written in place ran when that body did: the lines that ran grow until
    none is added."""
    comp = program.comp
    ran = {(span.path, span.line) for _n, pyname, _p, _b, span, _r in comp.out.function_defs
           if span is not None and tracer.functions.get(comp.ns[pyname].__code__)}
    starts = _starts(table, comp)
    defs = [(name, span) for name, _pyname, _params, _body, span, _reused in comp.out.function_defs
            if span is not None and span.path and name != ESTIMATE]   # the estimate is for bots; scripts never ask it
    grown = True
    while grown:
        grown = False
        for name, span in defs:
            if (span.path, span.line) not in ran and any(
                    table.get(at.path, {}).get(at.line) or (at.path, at.line) in ran
                    or _in_expression_run(at, starts, tracer.exprs) for at in comp.out.inlined_at.get(name, ())):
                ran.add((span.path, span.line))
                grown = True
    for _name, span in defs:
        _mark(table, span, (span.path, span.line) in ran)


def _starts(table: dict, comp) -> dict:
    """Content file -> the sorted lines where something compiled starts: statements, functions,
    and the expressions compiled on their own (what a call's line may belong to)."""
    out: dict = {}
    for path, lines in table.items():
        out.setdefault(path, set()).update(lines)
    for _n, _py, _p, _b, span, _r in comp.out.function_defs:
        if span is not None:
            out.setdefault(span.path, set()).add(span.line)
    for fn in getattr(comp, "_fn_cache", {}).values():
        code = getattr(fn, "__code__", None)
        if code is not None and code.co_name.startswith("line"):
            out.setdefault(code.co_filename, set()).add(code.co_firstlineno)
    return {path: sorted(lines) for path, lines in out.items()}


def _in_expression_run(at, starts: dict, exprs: set) -> bool:
    """Whether the call at ``at`` lies in an expression that ran: the one starting at the
    nearest line at or above it (an expression may run over several lines)."""
    if (at.path, at.line) in exprs:
        return True
    above = [line for line in starts.get(at.path, ()) if line <= at.line]
    return bool(above) and (at.path, above[-1]) in exprs


def _mark(table: dict, span, ran: bool) -> None:
    lines = table.setdefault(span.path, {})
    lines[span.line] = lines.get(span.line, False) or ran


def _kinds(table: dict, key: int, game, moved: set) -> None:
    for kind, items in game.components.kinds.items():
        done, total = table.get(kind, (set(), set()))
        table[kind] = (done | {i for i in items if (key, i) in moved}, total | set(items))


# ------------------------------------------------------------------ what it prints and writes
def summary(rep: Report, shown: int = SHOWN) -> str:
    """A table per content file, the options and components, then what was missed."""
    show = rep.names.get
    width = max([len(show(p, p)) for p in rep.statements] + [4])
    lines = ["", "coverage by the scripts", f"{'file':<{width}}  statements   run  missed  cover"]
    total_run = total = 0
    for path in sorted(rep.statements):
        marks = rep.statements[path]
        ran = sum(marks.values())
        total_run, total = total_run + ran, total + len(marks)
        lines.append(f"{show(path, path):<{width}}  {len(marks):>10}  {ran:>4}  {len(marks) - ran:>6}  "
                     f"{_percent(ran, len(marks))}")
    lines.append(f"{'total':<{width}}  {total:>10}  {total_run:>4}  {total - total_run:>6}  "
                 f"{_percent(total_run, total)}")
    chosen = sum(rep.options.values())
    lines.append(f"options chosen: {chosen} of {len(rep.options)} ({_percent(chosen, len(rep.options)).strip()})")
    used = sum(1 for done, _all in rep.kinds.values() if done)
    lines.append(f"components moved or changed in play: {used} of {len(rep.kinds)} kinds")
    missed = [f"  {show(p, p)}:{n}  {_text(p, n)}" for p in sorted(rep.statements)
              for n, ran in sorted(rep.statements[p].items()) if not ran]
    lines += _listed("statements never run", missed, shown)
    never = [f"  {show(p, p)}:{n}  {_text(p, n)}" for (p, n, _c), ok in sorted(rep.options.items()) if not ok]
    lines += _listed("options never chosen", never, shown)
    idle = [f"  {kind} ({len(items)} item{'s' if len(items) != 1 else ''})"
            for kind, (done, items) in sorted(rep.kinds.items()) if not done]
    lines += _listed("components never moved or changed in play", idle, shown)
    return "\n".join(lines)


def _listed(title: str, rows: list, shown: int) -> list:
    if not rows:
        return []
    more = [f"  ... {len(rows) - shown} more (`--annotate DIR` marks them all)"] if len(rows) > shown else []
    return ["", f"{title}:"] + rows[:shown] + more


def annotate(rep: Report, folder: str) -> list[str]:
    """Each content file with a mark per line, as ``FOLDER/NAME.cover``: ``>`` a statement that
    ran, ``!`` one that never ran, ``+`` an option chosen, ``-`` one never chosen. Returns the
    files written."""
    from ..files import write_text
    marks: dict = {}
    for path, lines in rep.statements.items():
        for number, ran in lines.items():
            marks.setdefault(path, {})[number] = ">" if ran else "!"
    for (path, number, _column), chosen in rep.options.items():
        table = marks.setdefault(path, {})
        table[number] = "+" if chosen or table.get(number) == "+" else "-"
    written = []
    for path in sorted(marks):
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read().splitlines()
        except OSError:
            continue
        name = rep.names.get(path, os.path.basename(path))
        body = [f"{marks[path].get(i, ' ')} {i:>5}  {line}".rstrip() for i, line in enumerate(text, 1)]
        target = os.path.join(folder, name + ".cover")
        write_text(target, f"# {name}: > ran, ! never ran, + option chosen, - option never chosen\n"
                   + "\n".join(body) + "\n", make_folder=True)
        written.append(target)
    return written


def _text(path: str, number: int) -> str:
    return (source_line(path, number) or "").strip()[:80]


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    -"
