"""Completion, the outline, formatting and the scenario code lenses, on real rulesets."""

from __future__ import annotations

from regelwerk.dsl.parse import parse_text
from regelwerk.dsl.printer import print_module

from .conftest import KHAN, KHAN_ACTIONS, TICTACTOE, write
from .lsp_client import find

KIND = {"keyword": 14, "field": 5, "function": 3, "enum_member": 20}  # CompletionItemKind
METHOD = 6  # SymbolKind


def _complete(client, u: str, line: int, character: int) -> dict[str, dict]:
    got = client.request("textDocument/completion", client.at(u, line, character))
    return {item["label"]: item for item in got["items"]}


def _typing(client, u: str, text: str, after: str, typed: str) -> tuple[int, int]:
    """Insert `typed` on a new line after the line holding `after`; the cursor's position."""
    line, _ = find(text, after)
    indent = len(text.splitlines()[line]) - len(text.splitlines()[line].lstrip())
    new = " " * indent + typed
    client.change(u, [{"range": {"start": {"line": line + 1, "character": 0},
                                 "end": {"line": line + 1, "character": 0}}, "text": new + "\n"}])
    return line + 1, len(new)


def test_completion_after_do_offers_procedures(client, tmp_path):
    text = KHAN.read_text(encoding="utf-8")
    folder = tmp_path / "khan"
    folder.mkdir()
    for f in KHAN.parent.glob("*.rules"):
        write(folder, f.name, f.read_text(encoding="utf-8"))
    (folder / "data").symlink_to(KHAN.parent / "data")
    u = client.open(folder / "khan.rules")
    items = _complete(client, u, *_typing(client, u, text, "do ask_consent(", "do "))
    assert {"ask_consent", "lay_tile", "phase_one", "setup"} <= set(items)
    assert "conquer" not in items and "set" not in items
    items = _complete(client, u, *_typing(client, u, text, "do ask_consent(", "let k = TILES[t]."))
    assert set(items) == {"form", "bridge", "shape", "value"}
    assert items["shape"]["kind"] == KIND["field"] and items["shape"]["detail"] == "list list int"
    scenarios = (folder / "scenarios-actions.rules").read_text(encoding="utf-8")
    su = client.open(folder / "scenarios-actions.rules")
    items = _complete(client, su, *_typing(client, su, scenarios, "do drive_off(seljuk)", "do "))
    assert {"conquer", "drive_off"} <= set(items) and "ask_consent" not in items  # actions here


def test_completion_offers_locals_bound_above(client, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8").replace(
        "    add 1 to moves\n", "    let before = moves\n    add 1 to moves\n")
    u = client.open(write(tmp_path, "t.rules", text))
    client.diagnostics(u)
    line, char = find(text, "add 1 to moves", len("add 1 to "))
    items = _complete(client, u, line, char)
    assert items["before"]["detail"] == "int" and items["s"]["detail"] == "Square"
    line, char = find(text, "let before = moves", len("let before = "))
    assert "before" not in _complete(client, u, line - 1, char)


def test_completion_of_names_members_and_library_functions(client, khan):
    text = KHAN.read_text(encoding="utf-8")
    line, char = find(text, "require has_majority(current, area)", len("require has_"))
    items = _complete(client, khan, line, char)
    assert items["has_majority"]["kind"] == KIND["function"]
    assert items["mountains"]["kind"] == KIND["enum_member"]
    assert items["mountains"]["detail"] == "Terrain"
    assert items["area"]["detail"] == "in placements(TILES[t].shape, layable(t))"  # a parameter
    lib = items["lines_through"]
    assert lib["detail"] == "lines_through(sq, n) → list list"
    assert "containing a square" in lib["documentation"]["value"]
    assert items["not"]["kind"] == KIND["keyword"]


def test_completion_of_keywords_and_types(client, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8")
    u = client.open(write(tmp_path, "t.rules", text))
    items = _complete(client, u, *_typing(client, u, text, "    moves: int = 0", "    spare: "))
    assert {"int", "bool", "Square", "Player", "list"} <= set(items) and "cell" not in items
    text = "\n".join(text.splitlines()[:4] + ["    spare: ", *text.splitlines()[4:]]) + "\n"
    line = len(text.splitlines())
    client.change(u, [{"range": {"start": {"line": line, "character": 0},
                                 "end": {"line": line, "character": 0}}, "text": "\nac"}])
    items = _complete(client, u, line + 1, 2)
    assert {"action", "procedure", "scenario", "state"} <= set(items)
    assert all(i["kind"] == KIND["keyword"] for i in items.values())


def test_outline_nests_phases_under_the_flow(client, khan):
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": khan}})
    by_name = {s["name"]: s for s in symbols}
    assert by_name["conquer"]["kind"] == METHOD
    assert [c["name"] for c in by_name["flow"]["children"]] == ["main", "endphase"]
    text = KHAN.read_text(encoding="utf-8")
    assert by_name["conquer"]["selectionRange"]["start"] == dict(zip(
        ("line", "character"), find(text, "action conquer", 7), strict=True))
    state = by_name["state"]["children"]
    assert (state[0]["name"], state[0]["detail"]) == ("ruler_at", "Ruler -> Land?")


def test_outline_lists_the_scenarios_of_a_file(client, khan):
    u = client.open(KHAN_ACTIONS)
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": u}})
    text = KHAN_ACTIONS.read_text(encoding="utf-8")
    assert [s["name"] for s in symbols] == [line[len('scenario "'):-1] for line in text.splitlines()
                                            if line.startswith("scenario ")]
    assert symbols[0]["name"] == "the ruler moves south when south-east is blocked"


def test_formatting_gives_the_printers_text(client, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8").replace("cell[s] == none", "cell[ s ]==none").replace(
        "moves: int = 0", "moves:int=0   # counted")
    path = write(tmp_path, "messy.rules", text)
    u = client.open(path)
    (edit,) = client.request("textDocument/formatting", {"textDocument": {"uri": u},
                                                         "options": {"tabSize": 4, "insertSpaces": True}})
    assert edit["range"]["start"] == {"line": 0, "character": 0}
    assert edit["newText"] == print_module(parse_text(text, str(path)), text)
    assert "cell[s] == none" in edit["newText"] and "# counted\n    moves: int = 0" in edit["newText"]
    clean = client.open(write(tmp_path, "clean.rules", edit["newText"]))
    assert client.request("textDocument/formatting", {"textDocument": {"uri": clean},
                                                      "options": {"tabSize": 4, "insertSpaces": True}}) == []


def test_code_lenses_run_the_scenarios_and_show_the_outcome(client, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8") + (
        '\nscenario "the first mark is an O"\n    do place(b2)\n    expect cell[b2] == O\n')
    u = client.open(write(tmp_path, "t.rules", text))
    lenses = client.request("textDocument/codeLens", {"textDocument": {"uri": u}})
    titles = [lens["command"]["title"] for lens in lenses]
    count = text.count("\nscenario ")
    assert titles == [f"▶ run all {count} scenarios"] + ["▶ run scenario"] * count
    run = lenses[0]["command"]
    mark = client.mark()
    result = client.request("workspace/executeCommand", {"command": run["command"],
                                                         "arguments": run["arguments"]})
    assert (result["passed"], result["failed"]) == (count - 1, 1)
    (failed,) = [r for r in result["results"] if not r["passed"]]
    assert failed["name"] == "the first mark is an O"
    assert failed["failure"].startswith("expected cell[b2] == O")
    expect_line = find(text, "expect cell[b2] == O")[0]
    assert failed["line"] == expect_line + 1
    diags = client.diagnostics(u, since=mark)
    assert [(d["source"], d["range"]["start"]["line"]) for d in diags] == [("regelwerk test", expect_line)]
    titles = [lens["command"]["title"] for lens in
              client.request("textDocument/codeLens", {"textDocument": {"uri": u}})]
    assert titles[0] == f"{count - 1} passed, 1 failed — run all {count} again"
    assert titles[-1].startswith("✗ failed: expected cell[b2] == O")
    assert all(t.startswith("✓ passed") for t in titles[1:-1])
