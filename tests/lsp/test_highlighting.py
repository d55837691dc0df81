"""Highlighting outside the server: the Pygments lexer and the VS Code extension's files."""

from __future__ import annotations

import json
import re

import pytest
from regelwerk.interpreter.stdlib.library import LIBRARY

from regelwerk.lsp.keywords import KEYWORDS

from .conftest import KHAN, ROOT, TICTACTOE

pygments = pytest.importorskip("pygments")
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename  # noqa: E402
from pygments.token import Error, Keyword, Name, String  # noqa: E402

VSCODE = ROOT / "editors" / "vscode"
GRAMMAR = VSCODE / "syntaxes" / "regelwerk.tmLanguage.json"
WORDS = {k for k in KEYWORDS if " " not in k}


def _tokens(text: str) -> list[tuple]:
    return [(t, v) for t, v in get_lexer_by_name("regelwerk").get_tokens(text) if v.strip()]


def test_the_lexer_is_found_by_name_and_file_name():
    assert get_lexer_by_name("regelwerk").name == "regelwerk"
    assert type(get_lexer_for_filename("khan.rules")).__name__ == "RegelwerkLexer"


@pytest.mark.parametrize("path", sorted((ROOT / "rulesets").rglob("*.rules")), ids=lambda p: p.name)
def test_every_bundled_ruleset_lexes_without_errors(path):
    assert [v for t, v in _tokens(path.read_text(encoding="utf-8")) if t is Error] == []


def test_tokens_of_a_rule():
    text = KHAN.read_text(encoding="utf-8")
    start = text.index("action conquer")
    toks = _tokens(text[start: text.index("    do ask_consent", start)])
    assert toks[0] == (Keyword.Declaration, "action")
    assert toks[1] == (Name.Function, "conquer")
    assert (Name.Tag, "KHAN-2C-03") in toks
    assert (String.Other, '"000_2c60e2dc917b8970.txt:38-43"') in toks
    assert any(t is String.Double and v.startswith('"De speler pakt') for t, v in toks)
    assert (Keyword, "require") in toks


def test_every_grammar_keyword_is_highlighted():
    """A keyword added to the grammar must be added to the lexer and the TextMate grammar."""
    from regelwerk import pygments_lexer as lx

    lexer_words = set(lx.DECLARATION_WORDS + lx.STATEMENT_WORDS + lx.SCENARIO_WORDS + lx.OPERATOR_WORDS
                      + lx.CONSTANTS + lx.AGGREGATES) | {"source", "note", "spec", "x"}
    assert sorted(WORDS - lexer_words) == []
    assert (Keyword, "x") in _tokens("board B = grid 3 x 3\n")
    assert (Keyword, "times") in _tokens("    repeat 3 times\n")
    grammar = GRAMMAR.read_text(encoding="utf-8")
    missing = sorted(w for w in WORDS if not re.search(rf"[|(:]{w}[|)]|\\\\b{w}\\\\b", grammar))
    assert missing == []


def test_the_textmate_grammar_is_valid_and_knows_the_library():
    g = json.loads(GRAMMAR.read_text(encoding="utf-8"))
    assert g["scopeName"] == "source.regelwerk" and g["fileTypes"] == ["rules"]
    patterns = []

    def collect(node):
        if isinstance(node, dict):
            for key in ("match", "begin", "end"):
                if key in node:
                    patterns.append(node[key])
            for v in node.values():
                collect(v)
        elif isinstance(node, list):
            for v in node:
                collect(v)

    collect(g)
    for p in patterns:
        re.compile(p)  # Oniguruma accepts these Python-compatible patterns too
    library = next(p for p in patterns if "lines_through" in p)
    assert all(re.search(rf"\b{name}\b", library) for name in LIBRARY)
    header = next(p for p in patterns if p.startswith("^\\s*(action|procedure"))
    m = re.match(header, "action conquer(t in sorted(supply))")
    assert m and m.group(2) == "conquer"
    spec = next(p for p in patterns if p.startswith("[A-Z][A-Z0-9]*"))
    assert re.fullmatch(spec, "KHAN-2C-03") and re.fullmatch(spec, "ROOT-12.5.2-DIG")


def test_the_vscode_extension_points_at_its_files():
    pkg = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    (lang,) = pkg["contributes"]["languages"]
    (grammar,) = pkg["contributes"]["grammars"]
    assert lang["id"] == grammar["language"] == "regelwerk" and lang["extensions"] == [".rules"]
    assert (VSCODE / grammar["path"]).resolve() == GRAMMAR
    assert (VSCODE / lang["configuration"]).is_file()
    json.loads((VSCODE / lang["configuration"]).read_text(encoding="utf-8"))
    main = (VSCODE / pkg["main"]).read_text(encoding="utf-8")
    assert '["regelwerk", "lsp"]' in main and "vscode-languageclient/node" in main
    assert pkg["contributes"]["configuration"]["properties"]["regelwerk.server.command"]["default"] == \
        ["regelwerk", "lsp"]
    assert "node_modules/" in (VSCODE / ".gitignore").read_text(encoding="utf-8")


def test_docs_code_blocks_are_rules(tmp_path):
    """The README's example highlights as rules (no error tokens)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```rules\n", 1)[1].split("```", 1)[0]
    assert [v for t, v in _tokens(block) if t is Error] == []
    assert TICTACTOE.read_text(encoding="utf-8").startswith("# Tic-tac-toe")
