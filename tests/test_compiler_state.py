"""The compiler's state is a handful of named parts, each saying what it holds (issue #37): a
choice made while writing code reads ``at`` (what the code written so far knows), never a field
some other method left behind."""
import ast
from pathlib import Path

import attrs

import rulekit
from rulekit.dsl import compiler, writing

DSL = Path(compiler.__file__).parent
# what it is given (v, passes, static_memo; front_end: the checks every text passes before it is written,
# dsl/check.py), what the content says (inlining: frozen, dsl/analysis.py; kinds: dsl/kinds.py), and the
# four parts writing changes (ns, names, at, out)
PARTS = {"v", "passes", "static_memo", "front_end", "inlining", "kinds", "ns", "names", "at", "out"}


def _assigned_fields(path: Path, cls: str | None, receiver: str = "self") -> set:
    """Every ``RECEIVER.NAME`` the methods of class ``cls`` in ``path`` (or, ``cls`` None, the
    module's functions) assign (``self.NAME = ...``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    top = tree if cls is None else next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    for node in ast.walk(top):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
            if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            for part in target.elts if isinstance(target, ast.Tuple) else [target]:
                if isinstance(part, ast.Attribute) and isinstance(part.value, ast.Name) and part.value.id == receiver:
                    found.add(part.attr)
    return found


def test_a_compiler_holds_a_handful_of_parts():
    game = rulekit.load_game("goa")
    assert set(vars(game.program.module.comp)) == PARTS


def test_no_method_of_the_compiler_adds_a_field():
    assert _assigned_fields(DSL / "compiler.py", "Compiler") == PARTS
    # the compiler's other parts are plain modules whose functions take it first (`compiler`)
    for module in ("loops", "calls", "tallies", "forms"):
        assert _assigned_fields(DSL / f"{module}.py", None, "compiler") == set(), module


def _dsl_imports(name: str) -> set:
    """The modules of rulekit/dsl that module ``name`` of it imports."""
    tree = ast.parse((DSL / f"{name}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {node.module} if node.module else {a.name for a in node.names}
    return {m for m in found if (DSL / f"{m}.py").exists()}


def _writers() -> set:
    """The code writer's modules: codegen and every module of rulekit/dsl it imports, directly or
    not, but three that read what was written on purpose and decide nothing of what to write (the
    printer, printer.py, reads each written line into Python's tree and prints it, its meaning
    unchanged; its fallback, layout.py, lays lines out by tokens, whitespace alone; verify.py refuses
    a generated module that breaks its rules, a bug of rulekit; ir.py reads the writer's constant
    forms into trees, ``$0`` holes and all, and the values it fills them with are trees), the parser
    and the caches (they read content and files)."""
    outside = {"layout", "printer", "verify", "parser", "parse_cache", "code_cache", "syntax_errors", "ir"}
    found, todo = set(), ["codegen"]
    while todo:
        name = todo.pop()
        if name not in found and name not in outside:
            found.add(name)
            todo.extend(_dsl_imports(name))
    return found


WRITERS = sorted(_writers())
SEARCHES = {"find", "rfind", "index", "startswith", "endswith", "isidentifier", "split", "rsplit", "replace", "strip",
            "lstrip", "rstrip", "partition", "search", "match", "fullmatch", "sub", "isdigit", "isalpha"}
# each call above that reads text, and the text it reads: never what the compiler wrote
READS_CONTENT = {
    ("compiler", "fn.__code__.replace("),           # a code object's fields, not text
    ("compiler", "stem.isidentifier()"),            # a content name, for a readable variable
    ("compiler", "''.join((c if c.isascii()"),      # a text constant's words, for a readable name
    ("kinds", "kind.startswith('item:')"),           # a kind the front end names (`item:card`), never code
    ("codegen", "name.isidentifier()"),             # a content name, for a readable local
    ("codegen", "line[span.column - 1:span.end_column - 1].strip()"),     # the content's own line
    ("choices", "label.value.split(' ', 1)"),       # an option's text in the content
    ("choices", "label.parts[0].split(' ', 1)"),
    ("choices", "within.index("),                   # the option groups being included
    ("compiler", "builtin.params.index("),          # a tuple of parameter names
    ("check_names", "builtin.params.index("),       # the same, as the front end checks the call
    ("check_statements", "within.index("),          # the option groups being expanded, as the front end checks
    ("passes", "part.strip()"), ("passes", "text.split(',')"), ("passes", "item[1:].strip()"),   # a user's setting
}


def test_the_writers_modules_are_found_from_its_imports():
    assert {"compiler", "calls", "forms", "tallies", "loops", "codegen", "choices", "blocks", "analysis", "kinds",
            "writing", "pysource", "templates", "aggregates", "passes"} <= set(WRITERS)
    assert "layout" not in WRITERS and "printer" not in WRITERS


def test_what_the_code_written_so_far_knows_is_five_things():
    """``Compiler.at``: a value's reuse within one body (its own part: an inlined body swaps it
    whole), whether a comprehension's iterable is being written, a listing's table locals, the
    parameters of the content function being written (which hold one value all through it), and
    the values a statement's loops left in locals."""
    assert [f.name for f in attrs.fields(writing.Writing)] == ["reuse", "in_iterable", "listing", "steady",
                                                               "lowered"]


def test_the_code_writer_never_reads_the_text_it_wrote():
    """Issue #37's bar: no regular expression or string search reads generated code in rulekit/dsl.
    What a piece of generated source is, the compiler says where it writes it (dsl/pysource.py);
    the writer's modules import no `re` or `tokenize` (layout.py, the printer's last step, lays
    lines out by tokens and changes whitespace alone), and every text search they make is listed
    above with what it reads."""
    found = set()
    for name in WRITERS:
        tree = ast.parse((DSL / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                assert not {"re", "tokenize"} & set(modules), name
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SEARCHES:
                text = ast.unparse(node)
                match = next((known for module, known in READS_CONTENT if module == name and text.startswith(known)),
                             None)
                assert match is not None, f"{name}.py:{node.lineno} `{text}` searches text: what does it read?"
                found.add((name, match))
    assert found == READS_CONTENT       # each one listed is still there
