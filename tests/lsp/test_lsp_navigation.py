"""Go to definition, find references and rename, across the files of a ruleset."""

from __future__ import annotations

import re

from .conftest import KHAN, KHAN_ACTIONS, TICTACTOE, write
from .lsp_client import find, uri

KHAN_DIR = KHAN.parent


def _loc(text: str, needle: str, offset: int = 0) -> dict:
    line, char = find(text, needle, offset)
    return {"line": line, "character": char}


def test_definition_of_a_procedure_call(client, khan):
    text = KHAN.read_text(encoding="utf-8")
    (loc,) = client.request("textDocument/definition", client.at(khan, *find(text, "do lay_tile", 3)))
    assert loc["uri"] == khan
    assert loc["range"]["start"] == _loc(text, "procedure lay_tile", len("procedure "))


def test_definition_from_an_included_scenario_file_to_the_action(client, khan):
    text = KHAN_ACTIONS.read_text(encoding="utf-8")
    u = client.open(KHAN_ACTIONS)
    (loc,) = client.request("textDocument/definition", client.at(u, *find(text, "do drive_off", 4)))
    khan_text = KHAN.read_text(encoding="utf-8")
    assert loc["uri"] == uri(KHAN)
    assert loc["range"] == {"start": _loc(khan_text, "action drive_off", 7),
                            "end": _loc(khan_text, "action drive_off", 7 + len("drive_off"))}


def test_definition_of_kinds_of_names(client, khan):
    """State, define, enum (a type and a member), record, data, option and phase."""
    text = KHAN.read_text(encoding="utf-8")
    cases = [
        ("set ruler_at[", 4, "    ruler_at: ", 4),
        ("if game_over()", 3, "define game_over", 7),
        ("ruler_at: Ruler", 10, "enum Ruler", 5),
        ("start: Land)", 7, "board Land", 6),
        ("Tile -> TileKind from", 8, "record TileKind", 7),
        ("TILES[t].shape", 0, "data TILES", 5),
        ("elif not refusal_uses_action", 9, "option refusal_uses_action", 7),
        ("goto endphase", 5, "phase endphase", 6),
    ]
    for use, off, decl, doff in cases:
        got = client.request("textDocument/definition", client.at(khan, *find(text, use, off)))
        assert got is not None, use
        assert got[0]["range"]["start"] == _loc(text, decl, doff), use


def test_definition_of_a_record_field(client, khan):
    text = KHAN.read_text(encoding="utf-8")
    (loc,) = client.request("textDocument/definition", client.at(khan, *find(text, "TILES[t].shape", 9)))
    decl = "record TileKind(form: text, bridge: bool, shape"
    assert loc["range"]["start"] == _loc(text, decl, len(decl) - len("shape"))


def test_references_of_an_action_reach_the_scenario_files(client, khan):
    text = KHAN.read_text(encoding="utf-8")
    params = {**client.at(khan, *find(text, "action conquer", 8)), "context": {"includeDeclaration": True}}
    refs = client.request("textDocument/references", params)
    files = {r["uri"].rsplit("/", 1)[1] for r in refs}
    assert {"khan.rules", "scenarios-actions.rules", "scenarios-end.rules"} <= files
    texts = {p.name: p.read_text(encoding="utf-8") for p in KHAN_DIR.glob("*.rules")}
    for r in refs:  # every place really names it
        line = texts[r["uri"].rsplit("/", 1)[1]].splitlines()[r["range"]["start"]["line"]]
        assert line[r["range"]["start"]["character"]: r["range"]["end"]["character"]] == "conquer"
    want = sum(len(re.findall(r"\bconquer\b", _code(ln))) for t in texts.values() for ln in t.splitlines())
    assert len(refs) == want
    without = client.request("textDocument/references", {**params, "context": {"includeDeclaration": False}})
    assert len(without) == len(refs) - 1


def _code(line: str) -> str:
    """A line without its strings and comment."""
    out, quoted = [], False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            break
        elif not quoted:
            out.append(ch)
    return "".join(out)


def test_a_parameter_is_not_a_global_of_the_same_name(client, tmp_path):
    """`s` the parameter of `place` and `s` of `three_in_a_row` are two names."""
    text = TICTACTOE.read_text(encoding="utf-8")
    u = client.open(write(tmp_path, "t.rules", text))
    params = {**client.at(u, *find(text, "place(s: Square)", 6)), "context": {"includeDeclaration": True}}
    refs = client.request("textDocument/references", params)
    lines = {r["range"]["start"]["line"] for r in refs}
    first, last = find(text, "action place")[0], find(text, "flow")[0]
    assert len(refs) == 4 and all(first <= ln < last for ln in lines)


def test_rename_a_state_variable_everywhere(client, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8")
    u = client.open(write(tmp_path, "t.rules", text))
    edit = client.request("textDocument/rename", {**client.at(u, *find(text, "moves == 9")),
                                                  "newName": "placed"})
    (edits,) = edit["changes"].values()
    assert len(edits) == 3  # declaration, add 1 to moves, moves == 9
    new = _apply(text, edits)
    assert "placed: int = 0" in new and "add 1 to placed" in new and "elif placed == 9" in new
    assert "moves" not in new


def test_rename_an_action_across_includes(client, khan):
    text = KHAN.read_text(encoding="utf-8")
    edit = client.request("textDocument/rename", {**client.at(khan, *find(text, "action drive_off", 7)),
                                                  "newName": "verdrijf"})
    by_file = {k.rsplit("/", 1)[1]: v for k, v in edit["changes"].items()}
    assert {"khan.rules", "scenarios-actions.rules"} <= set(by_file)
    for name, edits in by_file.items():
        new = _apply((KHAN_DIR / name).read_text(encoding="utf-8"), edits)
        assert not re.search(r"\bdrive_off\b", _code_only(new)), name


def _code_only(text: str) -> str:
    return "\n".join(_code(line) for line in text.splitlines())


def test_rename_refuses_a_clash_and_a_keyword(client, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8")
    u = client.open(write(tmp_path, "t.rules", text))
    at = client.at(u, *find(text, "moves == 9"))
    before = len(client.messages)
    assert client.request("textDocument/rename", {**at, "newName": "cell"}) is None
    assert client.request("textDocument/rename", {**at, "newName": "repeat"}) is None
    said = [m["message"] for m in client.messages[before:]]
    assert said == ["cannot rename: 'cell' is already declared (state)",
                    "cannot rename: 'repeat' is not a name (a keyword, or not a letter then letters/digits)"]
    prep = client.request("textDocument/prepareRename", at)
    assert prep["placeholder"] == "moves"
    assert client.request("textDocument/prepareRename", client.at(u, *find(text, "lines_through"))) is None


def _apply(text: str, edits: list[dict]) -> str:
    lines = text.splitlines(keepends=True)
    for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
                    reverse=True):
        s, t = e["range"]["start"], e["range"]["end"]
        assert s["line"] == t["line"]
        line = lines[s["line"]]
        lines[s["line"]] = line[: s["character"]] + e["newText"] + line[t["character"]:]
    return "".join(lines)
