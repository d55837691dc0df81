"""Incremental parsing: declaration by declaration equals the whole file, and an edit re-parses
only the declaration it touched (in process: no server needed to count parses)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from regelwerk.dsl.parse import iter_nodes, parse_text

from regelwerk.lsp.chunks import split_chunks
from regelwerk.lsp.parsing import IncrementalParser
from regelwerk.lsp.store import Store
from regelwerk.lsp.workspace import Workspace

from .conftest import KHAN, ROOT

# Khan (every kind of declaration, includes, Dutch text), two small games and both corpora
FILES = (sorted((ROOT / "rulesets" / "khan").glob("*.rules"))
         + [ROOT / "rulesets" / "classic" / "tictactoe.rules", ROOT / "rulesets" / "examples" / "climb.rules"]
         + sorted((ROOT / "tests" / "corpus").rglob("*.rules")))


def _spans(module):
    return [(type(n).__name__, n.span) for n in iter_nodes(module)][1:]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_declaration_by_declaration_is_the_whole_parse(path):
    text = path.read_text(encoding="utf-8")
    assert "".join(c.text for c in split_chunks(text)) == text
    got = IncrementalParser(str(path)).parse(text)
    try:
        whole = parse_text(text, str(path))
    except Exception as err:  # a corpus file with a syntax error: the same first error
        assert got.module is None
        assert got.diagnostics[0] == err.diagnostics[0]
        return
    assert got.module.decls == whole.decls
    assert _spans(got.module) == _spans(whole)


def test_a_keystroke_reparses_one_declaration_and_a_new_line_moves_the_rest():
    text = KHAN.read_text(encoding="utf-8")
    parser = IncrementalParser(str(KHAN))
    parser.parse(text)
    first = parser.parsed_chunks
    at = text.index("require has_majority")
    typed = text[:at] + "x" + text[at:]
    bad = parser.parse(typed)
    assert parser.parsed_chunks == first + 1
    assert bad.module is None and bad.diagnostics[0].code == "E003"
    assert bad.diagnostics[0].span.line == text.count("\n", 0, at) + 1
    parser.parse(text)  # undo: the old declaration is still cached
    assert parser.parsed_chunks == first + 1
    top = text.index("players 2..4")
    moved = text[:top] + "\n\n" + text[top:]  # two lines inserted near the top
    got = parser.parse(moved)
    assert parser.parsed_chunks == first + 2  # only the declaration that holds the new lines
    assert _spans(got.module) == _spans(parse_text(moved, str(KHAN)))


def test_an_open_bracket_does_not_join_the_declarations_after_it():
    text = KHAN.read_text(encoding="utf-8")
    parser = IncrementalParser(str(KHAN))
    parser.parse(text)
    first = parser.parsed_chunks
    at = text.index("    if guardians(current, area) == []\n")
    typed = text[:at] + "    let k = yurt[\n" + text[at:]
    got = parser.parse(typed)
    assert parser.parsed_chunks == first + 1
    (d,) = got.diagnostics
    assert d.span.line < text.count("\n", 0, text.index("procedure ask_consent")) + 1
    parser.parse(text)
    assert parser.parsed_chunks == first + 1


def test_included_files_are_read_once_until_they_change(tmp_path):
    main = tmp_path / "main.rules"
    inc = tmp_path / "inc.rules"
    main.write_text((ROOT / "rulesets/classic/tictactoe.rules").read_text(encoding="utf-8")
                    + '\ninclude "inc.rules"\n', encoding="utf-8")
    inc.write_text('scenario "nothing"\n    expect moves == 0\n', encoding="utf-8")
    ws = Workspace(Store())
    ws.store.set_open(str(main), main.read_text(encoding="utf-8"), 1)
    an = ws.analysis_for(str(main), fresh=True)
    assert an.files == [str(main), str(inc)] and an.diagnostics[str(inc)] == []
    reads = ws.store.disk_reads
    for version in range(2, 5):
        ws.store.set_open(str(main), main.read_text(encoding="utf-8") + "\n" * version, version)
        ws.analysis_for(str(main), fresh=True)
    assert ws.store.disk_reads == reads
    assert ws.root_of(str(inc), refresh=True) == str(main)


def test_without_the_extra_the_command_says_how_to_get_it():
    """The command imports the server lazily: plain `regelwerk` never loads pygls, and without
    it `regelwerk lsp` says how to install it."""
    code = ("import sys, regelwerk.cli\n"
            "assert 'pygls' not in sys.modules\n"
            "sys.modules['pygls'] = None; sys.modules['lsprotocol'] = None\n"
            "sys.exit(regelwerk.cli.main(['lsp']))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2, out.stderr
    assert "pip install 'regelwerk[lsp]'" in out.stderr and "Traceback" not in out.stderr
