"""Diagnostics as you type: the checker's own diagnostics, with codes, help and exact ranges."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from .conftest import KHAN, KHAN_ACTIONS, ROOT, TICTACTOE, write
from .lsp_client import find, uri

CORPUS = ROOT / "tests" / "corpus" / "invalid"
EXPECT = re.compile(r"#\s*error:\s*(\d+):(\d+)\s+(\w+)\s+(.*)$")


def _columns(text: str, line0: int, character: int) -> int:
    """A UTF-16 character offset on a line as a 1-based code-point column."""
    line = text.splitlines()[line0]
    units = 0
    for i, ch in enumerate(line):
        if units >= character:
            return i + 1
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line) + 1


def test_bundled_ruleset_is_clean(client, khan):
    assert client.khan_diagnostics == []


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.rules")), ids=lambda p: p.name)
def test_invalid_corpus_gives_the_checkers_diagnostics(client, path):
    """Every error the corpus file states inline, at its line and column, with its code."""
    text = path.read_text(encoding="utf-8")
    want = sorted((int(m[1]), int(m[2]), m[3], m[4].strip())
                  for m in map(EXPECT.search, text.splitlines()) if m)
    got = client.diagnostics(client.open(path))
    errors = sorted((d["range"]["start"]["line"] + 1,
                     _columns(text, d["range"]["start"]["line"], d["range"]["start"]["character"]),
                     d["code"], d["message"].split("\nhelp: ")[0])
                    for d in got if d["severity"] == 1)
    assert errors == want
    assert all(d["source"] == "regelwerk" for d in got)


def test_range_help_and_severity_of_an_unknown_name(client, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8").replace("play place", "play plase")
    u = client.open(write(tmp_path, "t.rules", text))
    w, d = client.diagnostics(u)
    assert (w["code"], w["severity"]) == ("W001", 2)  # and 'place' is now never offered
    line, char = find(text, "play plase")
    assert d["code"] == "E219"
    assert d["message"] == "unknown action 'plase'\nhelp: did you mean 'place'?"
    assert d["range"] == {"start": {"line": line, "character": char},
                          "end": {"line": line, "character": char + len("play plase")}}
    assert d["severity"] == 1


def test_columns_are_utf16_after_dutch_quotes_and_astral_characters(client, tmp_path):
    """„Dutch” quotes and ë are one UTF-16 unit (two or three UTF-8 bytes); a die 🎲 is two."""
    rules = TICTACTOE.read_text(encoding="utf-8").replace(
        'require cell[s] == none else "the square is already taken"',
        'require "„één” 🎲" == "x" and bogus else "het vakje is al bezet"')
    u = client.open(write(tmp_path, "ttt.rules", rules))
    (d,) = [d for d in client.diagnostics(u) if d["code"] == "E202"]
    line, char = find(rules, "bogus")
    prefix = rules.splitlines()[line][: rules.splitlines()[line].index("bogus")]
    assert char == len(prefix) + 1  # the die counts twice in UTF-16
    assert len(prefix.encode("utf-8")) != char  # so byte columns would be wrong
    assert d["range"]["start"] == {"line": line, "character": char}
    assert d["range"]["end"] == {"line": line, "character": char + 5}


def test_a_broken_file_gives_a_syntax_diagnostic_not_a_crash(client, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8") + "\naction (((\n"
    u = client.open(write(tmp_path, "broken.rules", text))
    (d,) = client.diagnostics(u)
    assert d["code"] in ("E002", "E003")
    assert d["range"]["start"]["line"] == text.count("\n") - 1
    assert client.request("textDocument/hover", client.at(u, 0, 0)) is None  # still answering
    # hover and definition use the last version that parsed, positions mapped line by line
    # (the opened text never parsed, so nothing); after a fix and a new break, the fix answers
    good = TICTACTOE.read_text(encoding="utf-8")
    end = {"line": len(text.splitlines()), "character": 0}
    client.change(u, [{"range": {"start": {"line": 0, "character": 0}, "end": end}, "text": good}])
    assert client.diagnostics(u, 2) == []
    client.change(u, [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                       "text": "action (((\n"}])
    assert [d["code"] for d in client.diagnostics(u, 3)] in (["E002"], ["E003"])
    line, char = find(good, "moves == 9")
    hover = client.request("textDocument/hover", client.at(u, line + 1, char))
    assert "(state) moves: int" in hover["contents"]["value"]
    (loc,) = client.request("textDocument/definition", client.at(u, line + 1, char))
    assert loc["range"]["start"]["line"] == find(good, "    moves: int")[0] + 1  # in today's text


def test_typing_updates_and_clears_diagnostics(client, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8")
    u = client.open(write(tmp_path, "typing.rules", text))
    assert client.diagnostics(u, 1) == []
    line, char = find(text, "moves == 9")
    edit = {"range": {"start": {"line": line, "character": char},
                      "end": {"line": line, "character": char + 5}}, "text": "movez"}
    client.change(u, [edit])
    (d,) = client.diagnostics(u, 2)
    assert (d["code"], d["range"]["start"]) == ("E202", {"line": line, "character": char})
    assert "did you mean 'moves'?" in d["message"]
    edit["range"]["end"]["character"] = char + 5
    client.change(u, [{**edit, "text": "moves"}])
    assert client.diagnostics(u, 3) == []


def test_an_include_is_checked_with_the_file_that_includes_it(fresh):
    # a server of its own: it edits a bundled file's buffer
    """scenarios-actions.rules alone names nothing it declares; within khan.rules it is clean,
    and an error in it is reported on its own file."""
    text = KHAN_ACTIONS.read_text(encoding="utf-8")
    u = fresh.open(KHAN_ACTIONS, text)
    assert fresh.diagnostics(u, 1) == []
    line, char = find(text, "do drive_off(seljuk)", offset=3)
    mark = fresh.mark()
    fresh.change(u, [{"range": {"start": {"line": line, "character": char},
                                "end": {"line": line, "character": char + len("drive_off")}},
                      "text": "drive_of"}])
    (d,) = fresh.diagnostics(u, 2, since=mark)
    assert d["code"] == "E219" and "did you mean 'drive_off'?" in d["message"]
    assert fresh.diagnostics(uri(KHAN), since=mark) == []


def test_data_files_are_read_relative_to_the_document(client, tmp_path):
    folder = tmp_path / "game"
    folder.mkdir()
    shutil.copy(TICTACTOE, folder / "ttt.rules")
    (folder / "bonus.json").write_text("[1, 2, 3]", encoding="utf-8")
    text = (folder / "ttt.rules").read_text(encoding="utf-8") + (
        '\ndata BONUS: list int from "bonus.json"\n\ndata MISSING: list int from "missing.json"\n')
    u = client.open(folder / "ttt.rules", text)
    (d,) = client.diagnostics(u)
    assert d["code"] == "E401" and "missing.json" in d["message"]
    assert d["range"]["start"]["line"] == find(text, "data MISSING")[0]


def test_a_missing_include_is_located(client, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8") + '\ninclude "nowhere.rules"\n'
    (d,) = client.diagnostics(client.open(write(tmp_path, "main.rules", text)))
    assert d["code"] == "E008"
    assert d["range"]["start"]["line"] == find(text, "include")[0]


def test_warnings_are_warnings(client, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8") + "\naction idle\n    log \"nothing\"\n"
    (d,) = client.diagnostics(client.open(write(tmp_path, "w.rules", text)))
    assert (d["code"], d["severity"]) == ("W001", 2)


def test_every_error_of_the_cli_is_published(client, tmp_path):
    """The same list as `regelwerk check --json`, for a file with several errors."""
    import json
    import subprocess
    import sys

    text = TICTACTOE.read_text(encoding="utf-8").replace("moves == 9", "movez == 9").replace(
        "set cell[s] = current", "set cel[s] = currant")
    path = write(tmp_path, "many.rules", text)
    exe = Path(sys.executable).with_name("regelwerk")
    out = subprocess.run([str(exe), "check", "--json", str(path)], capture_output=True, text=True)
    cli = [json.loads(line) for line in out.stdout.splitlines()]
    got = client.diagnostics(client.open(path))
    assert len(cli) == 3
    assert [(d["line"] - 1, d["column"] - 1, d["code"]) for d in cli] == \
        [(d["range"]["start"]["line"], d["range"]["start"]["character"], d["code"]) for d in got]
