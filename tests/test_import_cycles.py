# SPDX-License-Identifier: MIT
"""No rulekit module imports, however lazily, a module that imports it back, and none imports a
folder later in the pipeline than its own (issue 15): the tree reads as the data flows."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "rulekit"


def _modules() -> dict:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _graph(modules: dict) -> dict:
    """Module -> the rulekit modules it imports anywhere in its text (function bodies too)."""
    graph: dict = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                named = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules]
                found = named or [target]
            elif isinstance(node, ast.Import):
                found = [a.name for a in node.names]
            else:
                continue
            graph[name].update(t for t in found if t in modules and t != name)
    return graph


def _cycle(graph: dict) -> list | None:
    """One import cycle as a list of modules, or None."""
    state: dict = {}
    path: list = []

    def visit(node):
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        state[node] = "done"
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_module_imports_one_that_imports_it_back():
    cycle = _cycle(_graph(_modules()))
    assert cycle is None, " -> ".join(cycle)


def test_the_check_finds_a_planted_cycle():
    graph = _graph(_modules())
    graph["rulekit.engine.state"].add("rulekit.model")      # the engine reading the builder back
    assert _cycle(graph) is not None


# The folders in the order data flows, each with the folders it may import. The engine sits below the
# language because generated code calls it; it never reads content, a model or a bot.
LAYERS = {
    "base": set(),                                   # spans, errors, codes, files
    "engine": {"base"},                              # state, effects, flow, decisions: the runtime
    "content": {"base"},                             # YAML with positions, schemas, typed values
    "dsl": {"base", "engine", "content"},            # the effect language, compiled to calls on the engine
    "builder": {"base", "engine", "content", "dsl"},  # checked content -> each section's record
    "model": {"base", "engine", "content", "dsl", "builder"},   # a checked game, compiled
    "games": {"base", "engine", "content", "dsl", "builder", "model"},   # find and load a game
    "agents": {"base", "engine"},                    # bots play through the engine's api alone
    "testing": {"base", "engine", "content", "dsl", "builder", "model", "games", "agents"},
    "lsp": {"base", "engine", "content", "dsl", "builder", "model", "games", "testing"},   # the language server
    # what people run, by who runs it (issue 56): three packages side by side, none reading another,
    # and the command line over them all; each may read the package's version (face)
    "view": {"base", "engine", "content", "dsl", "builder", "model", "games", "agents", "testing", "lsp", "face"},
    "batch": {"base", "engine", "content", "dsl", "builder", "model", "games", "agents", "testing", "lsp", "face"},
    "rl": {"base", "engine", "content", "dsl", "builder", "model", "games", "agents", "testing", "lsp", "face"},
    "cli": {"base", "engine", "content", "dsl", "builder", "model", "games", "agents", "testing", "lsp", "face",
            "view", "batch", "rl"},
    # the old paths for one release (rulekit/tools/__init__.py): it names its modules only as text
    "tools": {"base", "engine", "content", "dsl", "builder", "model", "games", "agents", "testing", "lsp", "face",
              "view", "batch", "rl", "cli"},
    "face": {"base", "engine", "content", "dsl", "builder", "model", "games", "agents", "testing", "lsp", "view",
             "batch", "rl", "cli", "tools"},
}
BASE = {"rulekit.source", "rulekit.errors", "rulekit.codes", "rulekit.files", "rulekit.extras", "rulekit.limits"}
FACE = {"rulekit", "rulekit.__main__"}   # the package's public names (and __version__), `python -m rulekit`


def _layer(module: str) -> str:
    if module in BASE:
        return "base"
    if module in FACE:
        return "face"
    part = module.split(".")[1]
    assert part in LAYERS, f"{module} is in no layer: put it in a folder of the pipeline (or in BASE)"
    return part


def _upward(graph: dict) -> list:
    return sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets
                  if _layer(b) != _layer(a) and _layer(b) not in LAYERS[_layer(a)])


def test_no_import_runs_back_up_the_pipeline():
    assert _upward(_graph(_modules())) == []


def test_the_layer_check_finds_an_upward_import():
    graph = _graph(_modules())
    graph["rulekit.dsl.compiler"].add("rulekit.games")        # the language reading a loaded game
    graph["rulekit.agents"].add("rulekit.model")             # a bot reading the compiled content
    assert _upward(graph) == ["rulekit.agents -> rulekit.model", "rulekit.dsl.compiler -> rulekit.games"]
