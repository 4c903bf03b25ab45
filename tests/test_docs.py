# SPDX-License-Identifier: MIT
"""Docs that cannot rot.

The reference docs make promises the code must keep, so this module reads them
and checks them against the code:

- every entry of ``REGISTRY`` has a ``### name`` section in docs/language.md, under
  the heading for its kind, showing its current signature; and every such section
  names a real entry;
- every statement rule of ``rulekit/dsl/grammar.lark`` (the alternatives of
  ``simple_stmt``, ``compound_stmt`` and ``choice``) is named in a heading;
- every fenced block tagged ``console`` in README.md and docs/*.md runs: each
  ``$ rulekit ...`` line goes through ``rulekit.cli.app.main`` in a scratch folder and
  must exit 0, or N when the fence says ``console exit=N``. Fenced blocks whose
  first line is ``# file: PATH`` are written into that folder first, so a
  documented script or game is also the one the commands run;
- every deliberate mistake (a ``# mistake:`` diff block) planted in a copy of its game makes
  the command of the ``text`` block after it print what that block shows;
- every ``pycon`` block runs as a doctest, the blocks of a page as one session;
- every ``rulekit`` block (effect-language examples) parses;
- every ``# from: PATH`` block quotes lines that exist in that file;
- relative links and ``#anchors`` resolve.

The output a console block shows under a command must be what the command prints, on a
terminal ``DOC_COLUMNS`` wide: ``...`` stands for any lines (or any text within a line); runs
of spaces and timings (``0.21s``) are not compared. Only a block marked ``console
output=any``, which must say why in its first line (a ``#`` comment: timings of a
machine, paths that depend on where rulekit is installed), is shown for the reader with
its exit code checked alone.
"""
from __future__ import annotations

import doctest
import io
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from rulekit.cli.app import main
from rulekit.dsl.parser import parse_script
from rulekit.engine import mutate
from rulekit.engine.library import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
LANGUAGE = ROOT / "docs" / "language.md"
GRAMMAR = ROOT / "rulekit" / "dsl" / "grammar.lark"
STATEMENT_RULES = {"assign", "aug_assign", "if_stmt", "for_stmt", "while_stmt", "choose_stmt", "break_stmt",
                   "continue_stmt", "return_stmt", "pass_stmt", "call_stmt"}
SECTION_OF_KIND = {"function": "Built-in functions", "effect": "Built-in effects"}


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ------------------------------------------------------------------ markdown helpers
class Block:
    def __init__(self, info: str, lines: list[str], line: int):
        self.info = info          # the fence's info string: "console exit=2", "yaml", ...
        self.lines = lines        # the lines between the fences
        self.line = line          # 1-based line of the opening fence

    @property
    def lang(self) -> str:
        return self.info.split()[0] if self.info.split() else ""


def fenced_blocks(text: str) -> list[Block]:
    """Fenced code blocks (``` or ~~~), with their info string and position."""
    blocks, current, fence = [], None, None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if current is None:
            match = re.match(r"^(`{3,}|~{3,})(.*)$", stripped)
            if match:
                fence = match.group(1)
                current = Block(match.group(2).strip(), [], number)
        elif stripped.startswith(fence) and stripped.strip(fence[0]) == "":
            blocks.append(current)
            current = None
        else:
            current.lines.append(line)
    assert current is None, f"unclosed code fence opened at line {current.line}"
    return blocks


def headings(text: str) -> list[tuple[int, str, int]]:
    """(level, title, line) of every ATX heading outside code blocks."""
    out, fence = [], None
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        match = re.match(r"^(`{3,}|~{3,})", stripped)
        if match and (fence is None or stripped.startswith(fence)):
            fence = None if fence else match.group(1)
            continue
        if fence is None:
            heading = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
            if heading:
                out.append((len(heading.group(1)), heading.group(2), number))
    return out


def slug(title: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


def sections(text: str, level: int) -> dict[str, tuple[str, str]]:
    """Title -> (body, enclosing heading one level up) for headings of ``level``."""
    lines = text.splitlines()
    heads = headings(text)
    out = {}
    parent = ""
    for i, (lvl, title, line) in enumerate(heads):
        if lvl == level - 1:
            parent = title
        if lvl != level:
            continue
        end = len(lines)
        for lvl2, _t, line2 in heads[i + 1:]:
            if lvl2 <= level:
                end = line2 - 1
                break
        out[title] = ("\n".join(lines[line:end]), parent)
    return out


# ------------------------------------------------------------------ the registry
def doc_signature(builtin) -> str:
    """A built-in's signature as the docs write it (strings quoted, as in the language)."""
    def literal(value):
        return f'"{value}"' if isinstance(value, str) else mutate.fmt(value)
    parts = list(builtin.params) + [f"{name}={literal(default)}" for name, default in builtin.optional]
    return f"{builtin.name}({', '.join(parts)})"


@pytest.fixture(scope="module")
def language() -> str:
    return LANGUAGE.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_builtin_has_a_section(language, name):
    builtin = REGISTRY[name]
    found = sections(language, 3)
    assert name in found, f"docs/language.md has no `### {name}` section for the {builtin.kind} `{name}`"
    body, parent = found[name]
    assert parent == SECTION_OF_KIND[builtin.kind], (
        f"`### {name}` sits under `## {parent}`; a {builtin.kind} belongs under `## {SECTION_OF_KIND[builtin.kind]}`")
    signature = doc_signature(builtin)
    assert f"`{signature}`" in body, f"`### {name}` must show the current signature `{signature}`"
    assert "```rulekit" in body, f"`### {name}` needs an example in a ```rulekit block"


def test_every_builtin_section_is_a_builtin(language):
    for title, (_body, parent) in sections(language, 3).items():
        if parent in SECTION_OF_KIND.values():
            assert title in REGISTRY, f"docs/language.md documents `{title}`, which is not in REGISTRY"


# ------------------------------------------------------------------ the grammar
def statement_rules() -> set[str]:
    """Alternatives of the statement-level rules of grammar.lark."""
    text = GRAMMAR.read_text(encoding="utf-8")
    out = set()
    for rule in ("simple_stmt", "compound_stmt", "choice"):
        match = re.search(rf"^\??{rule}\s*:(.*?)(?=^\S|\Z)", text, re.M | re.S)
        if match:
            body = re.sub(r"//[^\n]*", "", match.group(1))
            out |= set(re.findall(r"(?:^|\|)\s*([a-z_][a-z0-9_]*)\s*(?=\||$)", body, re.M))
    return out


def test_grammar_statement_rules_are_found():
    missing = STATEMENT_RULES - statement_rules()
    assert not missing, f"grammar.lark no longer has statement rules {sorted(missing)}; update this test"


@pytest.mark.parametrize("rule", sorted(STATEMENT_RULES | statement_rules()))
def test_every_statement_rule_is_documented(language, rule):
    titles = [title for _lvl, title, _line in headings(language)]
    assert any(f"`{rule}`" in title for title in titles), (
        f"docs/language.md has no heading naming the grammar rule `{rule}`, e.g. `### ... (`{rule}`)`")


# ------------------------------------------------------------------ code examples
@pytest.mark.parametrize("path", doc_files(), ids=_id)
def test_rulekit_examples_parse(path):
    for block in fenced_blocks(path.read_text(encoding="utf-8")):
        if block.lang == "rulekit":
            text = "\n".join(block.lines) + "\n"
            try:
                parse_script(text, path=f"{_id(path)}:{block.line}")
            except Exception as exc:  # pragma: no cover - the message is the point
                pytest.fail(f"{_id(path)}:{block.line}: example does not parse:\n{exc}")


@pytest.mark.parametrize("path", doc_files(), ids=_id)
def test_quoted_excerpts_exist(path):
    for block in fenced_blocks(path.read_text(encoding="utf-8")):
        if block.lines and block.lines[0].startswith("# from: "):
            source = ROOT / block.lines[0][len("# from: "):].strip()
            assert source.is_file(), f"{_id(path)}:{block.line}: quoted file {source} does not exist"
            have = {line.strip() for line in source.read_text(encoding="utf-8").splitlines()}
            for line in block.lines[1:]:
                if line.strip() and line.strip() != "...":
                    assert line.strip() in have, (
                        f"{_id(path)}:{block.line}: `{line.strip()}` is no longer in {_id(source)}")


# ------------------------------------------------------------------ links
@pytest.mark.parametrize("path", doc_files(), ids=_id)
def test_links_resolve(path):
    text = path.read_text(encoding="utf-8")
    prose = re.sub(r"(?ms)^\s*(`{3,}|~{3,}).*?^\s*\1\s*$", "", text)
    for target in re.findall(r"\]\(([^)\s]+)\)", prose):
        if re.match(r"^[a-z]+:", target):
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        assert linked.exists(), f"{_id(path)}: link to missing {file_part}"
        if anchor and linked.suffix == ".md":
            anchors = {slug(title) for _lvl, title, _line in headings(linked.read_text(encoding="utf-8"))}
            assert anchor in anchors, f"{_id(path)}: link to missing anchor #{anchor} in {linked.name}"


# ------------------------------------------------------------------ console blocks
DOC_COLUMNS = 100     # the terminal width the documented outputs were printed at


def console_commands(path: Path) -> list[tuple[int, list[str], int, str | None, list[str], str]]:
    """(line, argv, expected exit code, stdin file, documented output, the fence's info) for each `$ rulekit`
    line of the console blocks."""
    out = []
    for block in fenced_blocks(path.read_text(encoding="utf-8")):
        if block.lang != "console":
            continue
        match = re.search(r"\bexit=(\d+)\b", block.info)
        expected = int(match.group(1)) if match else 0
        commands = [(block.line + i + 1, line) for i, line in enumerate(block.lines) if line.startswith("$ ")]
        assert commands, f"{_id(path)}:{block.line}: a console block without a `$ rulekit` line"
        assert "output=any" not in block.info or block.lines[0].startswith("# "), (
            f"{_id(path)}:{block.line}: a block marked output=any says why in a first `# ...` line")
        if expected:
            assert len(commands) == 1, (
                f"{_id(path)}:{block.line}: a block with exit={expected} must hold exactly one command")
        for k, (line, command) in enumerate(commands):
            end = commands[k + 1][0] - block.line - 1 if k + 1 < len(commands) else len(block.lines)
            shown = block.lines[line - block.line:end]
            argv = shlex.split(command[2:])
            assert argv[0] == "rulekit", (
                f"{_id(path)}:{line}: console blocks may only run `rulekit` (use ```sh for other commands)")
            stdin = None
            if len(argv) >= 2 and argv[-2] == "<":  # `$ rulekit play ... < answers.txt`
                stdin, argv = argv[-1], argv[:-2]
            out.append((line, argv[1:], expected, stdin, shown, block.info))
    return out


def _normal(line: str) -> str:
    return " ".join(re.sub(r"\b\d+\.\d\ds\b", "#s", line).split())


def output_matches(shown: list[str], printed: str) -> bool:
    """Whether the documented lines are the printed ones, ``...`` standing for any lines."""
    pattern = "\n".join(".*?" if line.strip() == "..." else re.escape(_normal(line)).replace(r"\.\.\.", ".*?")
                        for line in shown)
    pattern = pattern.replace("\n.*?\n", "(?:\n.*?)?\n").replace(".*?\n", "(?:.*?\n)?")
    lines = "\n".join(_normal(line) for line in printed.rstrip("\n").splitlines())
    return re.fullmatch(pattern, lines, re.S) is not None


def first_difference(shown: list[str], printed: str) -> str:
    """Where documented and printed output part: the longest documented start that still
    matches, the next documented line, and the printed lines around it."""
    good = 0
    for k in range(1, len(shown) + 1):
        head = shown[:k] + ["..."]
        if output_matches(head, printed):
            good = k
        else:
            break
    lines = printed.rstrip("\n").splitlines()
    return (f"the docs' line {good + 1} of {len(shown)} does not follow:\n--- docs (from there)\n"
            + "\n".join(shown[good:good + 8]) + "\n--- printed (first 40 lines)\n" + "\n".join(lines[:40]))


def documented_files(path: Path) -> dict[str, str]:
    """``# file: PATH`` blocks of a document: PATH -> content."""
    files = {}
    for block in fenced_blocks(path.read_text(encoding="utf-8")):
        if block.lines and block.lines[0].startswith("# file: "):
            name = block.lines[0][len("# file: "):].strip()
            assert not Path(name).is_absolute() and ".." not in Path(name).parts, name
            files[name] = "\n".join(block.lines[1:]) + "\n"
    return files


def write_documented_files(path: Path, folder: Path) -> None:
    for name, content in documented_files(path).items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")


@pytest.mark.parametrize("path", [p for p in doc_files() if console_commands(p)], ids=_id)
def test_console_blocks_run(path, tmp_path, monkeypatch, capsys):
    write_documented_files(path, tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", str(DOC_COLUMNS))    # help and tables wrap as the docs show them
    failures = []
    for line, argv, expected, stdin, shown, info in console_commands(path):
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO((tmp_path / stdin).read_text(encoding="utf-8")))
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: --help, usage errors
            code = exc.code if isinstance(exc.code, int) else 1
        captured = capsys.readouterr()
        if code != expected:
            failures.append(f"{_id(path)}:{line}: `rulekit {shlex.join(argv)}` exited {code}, the docs say "
                            f"{expected}\n--- stdout\n{captured.out[-2000:]}--- stderr\n{captured.err[-2000:]}")
        elif shown and "output=any" not in info and not output_matches(
                shown, captured.out + captured.err):
            failures.append(f"{_id(path)}:{line}: `rulekit {shlex.join(argv)}` printed other output than the docs "
                            f"show; {first_difference(shown, captured.out + captured.err)}")
    assert not failures, "\n\n".join(failures)


# ------------------------------------------------------------------ deliberate mistakes
MISTAKE = re.compile(r"^# mistake: (?P<copy>[\w.-]+)/(?P<file>\S+)(?: \(a copy of (?P<source>[\w./-]+)\))?$")


def mistakes(path: Path) -> list[tuple[int, str, str, str, list[tuple[str, str]], list[str], int]]:
    """A page's deliberate mistakes: (line, copy, source, file, [(right line, wrong line)], shown, exit code).

    A ``diff`` block whose first line is ``# mistake: COPY/FILE`` (the game ``games/COPY`` or
    ``examples/COPY``), or ``# mistake: COPY/FILE (a copy of SOURCE)``, holds pairs of a ``-``
    line (the content) and a ``+`` line (the mistake); only ``+`` lines make FILE a new file.
    The next ``text`` block starts with the ``$ rulekit ...`` command run on the copy and shows
    what it prints; ``text exit=N`` if it does not exit 1."""
    out = []
    blocks = fenced_blocks(path.read_text(encoding="utf-8"))
    for i, block in enumerate(blocks):
        match = MISTAKE.match(block.lines[0]) if block.lang == "diff" and block.lines else None
        if match is None:
            continue
        right = [ln[1:] for ln in block.lines[1:] if ln.startswith("-")]
        wrong = [ln[1:] for ln in block.lines[1:] if ln.startswith("+")]
        assert wrong and len(right) in (0, len(wrong)), f"{_id(path)}:{block.line}: pair each `-` line with a `+` line"
        shown = next((b for b in blocks[i + 1:] if b.lang == "text"), None)
        assert shown is not None and shown.lines[0].startswith("$ rulekit "), (
            f"{_id(path)}:{block.line}: a mistake is followed by a ```text block starting with `$ rulekit ...`")
        code = re.search(r"\bexit=(\d+)\b", shown.info)
        source = match["source"] or next((f"{top}/{match['copy']}" for top in ("games", "examples")
                                          if (ROOT / top / match["copy"]).is_dir()), None)
        assert source is not None, f"{_id(path)}:{block.line}: no games/{match['copy']} or examples/{match['copy']}"
        pairs = list(zip(right, wrong)) if right else [("", "\n".join(wrong))]
        out.append((block.line, match["copy"], source, match["file"], pairs, shown.lines, int(code[1]) if code else 1))
    return out


def make_mistake(folder: Path, source: str, target: str, pairs: list[tuple[str, str]]) -> None:
    """Copy the game to ``folder`` and plant the mistake in its file ``target``."""
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(ROOT / source, folder)
    path = folder / target
    if pairs[0][0] == "":
        assert not path.exists(), f"{target} exists in {source}: write the lines it changes as `-`/`+` pairs"
        path.write_text(pairs[0][1] + "\n", encoding="utf-8")
        return
    text = path.read_text(encoding="utf-8")
    for right, wrong in pairs:
        assert text.count(right + "\n") == 1, f"`{right}` is not (once) in {source}/{target}"
        text = text.replace(right + "\n", wrong + "\n")
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("path", [p for p in doc_files() if mistakes(p)], ids=_id)
def test_deliberate_mistakes_print_what_the_docs_show(path, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", str(DOC_COLUMNS))
    failures = []
    for line, copy, source, target, pairs, shown, expected in mistakes(path):
        make_mistake(tmp_path / copy, source, target, pairs)
        argv = shlex.split(shown[0][2:])[1:]
        code = main(argv)
        captured = capsys.readouterr()
        printed = captured.out + captured.err
        if code != expected or not output_matches(shown[1:], printed):
            failures.append(f"{_id(path)}:{line}: after the mistake in {copy}/{target}, `{shown[0][2:]}` exited "
                            f"{code} (the docs say {expected}); {first_difference(shown[1:], printed)}")
    assert not failures, "\n\n".join(failures)


def test_readme_quick_start():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in ("python -m pip install -e . && rulekit autoplay goa",
                    "python -m pip install -e '.[dev]' && python -m pytest"):
        assert command in readme, f"README.md must show the quick-start command `{command}`"


# ------------------------------------------------------------------ Python sessions
def python_sessions(path: Path) -> list[Block]:
    return [block for block in fenced_blocks(path.read_text(encoding="utf-8")) if block.lang == "pycon"]


@pytest.mark.parametrize("path", [p for p in doc_files() if python_sessions(p)], ids=_id)
def test_python_sessions_run(path, tmp_path, monkeypatch):
    """Every ``pycon`` block runs as a doctest and must print what it shows (``...`` for any
    text, spacing ignored). The blocks of one page are one session, in a scratch folder
    holding the page's ``# file:`` blocks."""
    write_documented_files(path, tmp_path)
    monkeypatch.chdir(tmp_path)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    session: dict = {"__name__": "__docs__"}
    report: list[str] = []
    for block in python_sessions(path):
        test = parser.get_doctest("\n".join(block.lines), session, f"{_id(path)}:{block.line}", str(path), block.line)
        runner.run(test, out=report.append, clear_globs=False)
        session = test.globs    # a DocTest copies what it is given: the next block goes on from this one's names
    assert runner.failures == 0, "".join(report)
