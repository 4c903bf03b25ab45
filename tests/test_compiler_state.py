"""The compiler's state is a handful of named parts, each saying what it holds (issue #37): a
choice made while writing code reads ``at`` (what the code written so far knows), never a field
some other method left behind."""
import ast
from pathlib import Path

import rulekit
from rulekit.dsl import compiler

DSL = Path(compiler.__file__).parent
# what it is given (v, passes, static_memo), what the content says (inlining: frozen, dsl/analysis.py;
# kinds: dsl/kinds.py), and the four parts writing changes (ns, names, at, out)
PARTS = {"v", "passes", "static_memo", "inlining", "kinds", "ns", "names", "at", "out"}


def _assigned_fields(path: Path, cls: str) -> set:
    """Every ``self.NAME`` the methods of class ``cls`` in ``path`` assign (``self.NAME = ...``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            for part in target.elts if isinstance(target, ast.Tuple) else [target]:
                if isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name) and part.value.id == "self":
                    found.add(part.attr)
    return found


def test_a_compiler_holds_a_handful_of_parts():
    game = rulekit.load_game("goa")
    assert set(vars(game.program.module.comp)) == PARTS


def test_no_method_of_the_compiler_adds_a_field():
    assert _assigned_fields(DSL / "compiler.py", "Compiler") == PARTS
    for module, part in (("loops", "Loops"), ("calls", "Calls"), ("tallies", "Tallies"), ("forms", "Forms")):
        assert _assigned_fields(DSL / f"{module}.py", part) == set(), part
