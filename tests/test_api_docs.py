"""docs/api.md cannot drift from the code.

Every ```python block of the page runs, in order, in one namespace, from the repository root,
and is held to what it says: a line ending in `# -> value` must give `value`, a `try` must
raise, and a ```text block right after a python block is exactly what that block prints (a
block that prints must show it). Every ```console block is run through `regelwerk.cli.main`
and must print exactly what it shows. Every name of `regelwerk.__all__` and every public
method, property and attribute of `Game` and `Ruleset` is mentioned in code on the page, apart
from the engine hooks that the page's own table "Engine hooks: public names that are not for
users" lists (and those must exist). Links to headings of the page must resolve.

A block may be skipped only when a module it needs is not installed: the comment
`<!-- doc-test: needs MODULE -->` on the line before its fence says so.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib.util
import io
import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

import regelwerk
from regelwerk.cli import main as cli_main

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "api.md"
TEXT = DOC.read_text(encoding="utf-8")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```[ \t]*$", re.S | re.M)
NEEDS = re.compile(r"<!-- doc-test: needs ([\w.]+) -->\s*\Z")
EXPECT = "# -> "
HOOKS = "### Engine hooks: public names that are not for users"


@dataclass(frozen=True)
class Block:
    line: int  # the line of docs/api.md where the code starts
    lang: str
    code: str
    section: str  # the `## ` heading above it
    needs: str | None = None  # a module it needs (skipped without it)
    output: str | None = None  # python: the ```text block right after it, what it prints

    @property
    def id(self) -> str:
        return f"api.md:{self.line} {self.section}"


def parse_blocks(text: str) -> list[Block]:
    """The fenced blocks of a Markdown text, with their sections and printed outputs."""
    blocks: list[Block] = []
    prev_end = -1
    for m in FENCE.finditer(text):
        before = text[: m.start()]
        lang, code = m.group(1), m.group(2)
        if lang == "text" and blocks and blocks[-1].lang == "python" and blocks[-1].output is None \
                and not text[prev_end:m.start()].strip():
            last = blocks[-1]
            blocks[-1] = Block(last.line, last.lang, last.code, last.section, last.needs, code)
        heads = re.findall(r"^## (.+)$", before, re.M)
        needs = NEEDS.search(before)
        blocks.append(Block(before.count("\n") + 2, lang, code, heads[-1] if heads else "top",
                            needs.group(1) if needs else None))
        prev_end = m.end()
    return blocks


BLOCKS = parse_blocks(TEXT)
PYTHON = [b for b in BLOCKS if b.lang == "python"]
CONSOLE = [b for b in BLOCKS if b.lang == "console"]


# ---------------------------------------------------------------------- running the blocks
class _Checks(ast.NodeTransformer):
    """`expr  # -> value` becomes a check that `expr == value`; a `try` with handlers and no
    `else` gets one that fails, so an example that shows an error must raise it."""

    def __init__(self, lines: list[str], first: int):
        self.lines = lines
        self.first = first  # the doc line of the block's first line
        self.checked: set[int] = set()

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        _code, sep, expected = self.lines[node.end_lineno - 1].partition(EXPECT)
        if not sep:
            return node
        self.checked.add(node.end_lineno)
        where = self.first + node.end_lineno - 1
        call = ast.Call(ast.Name("__doc_expect__", ast.Load()),
                        [node.value, ast.Constant(expected.strip()), ast.Constant(where)], [])
        return ast.copy_location(ast.Expr(call), node)

    def visit_Try(self, node: ast.Try) -> ast.AST:
        self.generic_visit(node)
        if node.handlers and not node.orelse:
            where = self.first + node.lineno - 1
            fail = ast.parse(f"raise AssertionError('docs/api.md:{where}: the try block raised "
                             f"nothing, but the example shows an error')").body[0]
            node.orelse = [ast.copy_location(fail, node.body[-1])]
        return node


def _compile(block: Block) -> object:
    lines = block.code.splitlines()
    tree = ast.parse(block.code)
    checks = _Checks(lines, block.line)
    tree = ast.fix_missing_locations(checks.visit(tree))
    unchecked = [block.line + i for i, text in enumerate(lines, 1)
                 if EXPECT in text and i not in checks.checked]
    if unchecked:
        raise AssertionError(f"docs/api.md:{unchecked[0] - 1}: `{EXPECT.strip()}` after something "
                             "that is not an expression: it would not be checked")
    ast.increment_lineno(tree, block.line - 1)  # tracebacks point at the page's own lines
    return compile(tree, str(DOC), "exec")


def _expecter(ns: dict) -> object:
    def expect(value: object, expected: str, where: int) -> None:
        want = eval(expected, ns)
        if value != want:
            raise AssertionError(f"docs/api.md:{where}: the page says {expected}, the code gives {value!r}")
    return expect


def run_blocks(blocks: list[Block]) -> dict[int, BaseException | str | None]:
    """Run python blocks in order in one namespace, from the repository root. Per block (by
    line): None when it did what it says, a reason text when skipped, or the exception."""
    ns: dict = {"__name__": "api_docs"}
    ns["__doc_expect__"] = _expecter(ns)
    results: dict[int, BaseException | str | None] = {}
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        for b in blocks:
            if b.needs and importlib.util.find_spec(b.needs) is None:
                results[b.line] = f"needs {b.needs}, which is not installed"
                continue
            out = io.StringIO()
            try:
                code = _compile(b)
                with contextlib.redirect_stdout(out):
                    exec(code, ns)
                printed = out.getvalue()
                if printed != (b.output or ""):
                    shown = "no ```text block after it" if b.output is None else f"its ```text block:\n{b.output}"
                    raise AssertionError(f"docs/api.md:{b.line}: the block printed:\n{printed}\nbut the page "
                                         f"shows {shown}")
            except Exception as err:  # every failure is reported by the block's own test
                results[b.line] = err
            else:
                results[b.line] = None
    finally:
        os.chdir(cwd)
    return results


@functools.cache
def _page_results() -> dict[int, BaseException | str | None]:
    return run_blocks(PYTHON)


def test_the_page_has_examples_in_every_section():
    assert len(PYTHON) >= 30 and CONSOLE
    sections = re.findall(r"^## (.+)$", TEXT, re.M)
    assert sorted({b.section for b in PYTHON}) == sorted(sections)


@pytest.mark.parametrize("block", PYTHON, ids=[b.id for b in PYTHON])
def test_python_block_runs_and_shows_what_it_does(block):
    result = _page_results()[block.line]
    if isinstance(result, str):
        pytest.skip(result)
    if result is not None:
        raise result


@pytest.mark.parametrize("block", CONSOLE, ids=[b.id for b in CONSOLE])
def test_console_block_prints_what_it_shows(block, monkeypatch):
    monkeypatch.chdir(ROOT)
    runs = re.split(r"^\$ ", block.code, flags=re.M)
    assert runs[0] == "", "a console block starts with a `$ ` command"
    for run in runs[1:]:
        command, _nl, shown = run.partition("\n")
        argv = shlex.split(command)
        assert argv[0] == "regelwerk", f"only regelwerk commands are run: {command}"
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = cli_main(argv[1:])
        assert rc == 0, command
        assert out.getvalue() == shown, command


# ---------------------------------------------------------------------- names
def _code_names(text: str) -> set[str]:
    """Every identifier inside code on the page: fenced blocks and `inline code`."""
    code = [m.group(2) for m in FENCE.finditer(text)]
    rest = FENCE.sub("", text)
    code += re.findall(r"`([^`\n]+)`", rest)
    return set(re.findall(r"[A-Za-z_]\w*", "\n".join(code)))


def _hooks_section() -> str:
    start = TEXT.index(HOOKS)
    end = TEXT.index("\n#", start + len(HOOKS))
    return TEXT[start:end]


def engine_hooks() -> set[str]:
    """The names in the first column of the page's engine-hooks table."""
    rows = [line for line in _hooks_section().splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`(\w+)(?:\(\))?`", row.split("|")[1])}


def _public(obj: object) -> set[str]:
    return {n for n in dir(obj) if not n.startswith("_")}


def test_every_exported_name_is_documented():
    names = _code_names(TEXT)
    assert [n for n in regelwerk.__all__ if n not in names] == []


def test_every_public_name_of_game_and_ruleset_is_documented_or_a_listed_engine_hook():
    rules = regelwerk.load(ROOT / "rulesets" / "examples" / "kuhn.rules")
    game = rules.new_game(record=True, chance="explicit", history=True)  # every optional field set
    game_names = _public(regelwerk.Game) | _public(game)
    rules_names = _public(regelwerk.Ruleset) | _public(rules)
    hooks = engine_hooks()
    assert len(hooks) >= 20
    assert sorted(hooks - game_names) == [], "the hooks table names what Game does not have"
    documented = _code_names(TEXT.replace(_hooks_section(), ""))
    assert sorted(game_names - hooks - documented) == []
    assert sorted(rules_names - documented) == []


def test_links_to_headings_of_the_page_resolve():
    def slug(heading: str) -> str:  # GitHub's anchors
        return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")

    anchors = {slug(h) for h in re.findall(r"^#+ (.+)$", FENCE.sub("", TEXT), re.M)}
    links = re.findall(r"\]\(#([^)]+)\)", TEXT)
    assert links and sorted(set(links) - anchors) == []


# ---------------------------------------------------------------------- the checks can fail
def test_the_checks_catch_a_wrong_value_a_silent_try_and_unshown_output():
    page = "## S\n\n```python\nx = 1 + 1\nx  # -> 3\n```\n\n```python\ntry:\n    pass\nexcept ValueError:\n" \
           "    pass\n```\n\n```python\nprint('hello')\n```\n\n```text\nhallo\n```\n\n" \
           "```python\nprint('quiet')\n```\n\n```python\ny = 2  # -> 2\n```\n\n```python\nx  # -> 2\n```\n"
    blocks = parse_blocks(page)
    assert [(b.lang, b.output) for b in blocks if b.lang != "python" or b.output] == [
        ("python", "hallo\n"), ("text", None)]
    results = run_blocks([b for b in blocks if b.lang == "python"])
    messages = [str(r) for r in results.values()]
    assert "the page says 3, the code gives 2" in messages[0]
    assert "the try block raised nothing" in messages[1]
    assert "the block printed:\nhello\n" in messages[2] and "hallo" in messages[2]
    assert "no ```text block after it" in messages[3]
    assert "not an expression" in messages[4]
    assert results[blocks[-1].line] is None
