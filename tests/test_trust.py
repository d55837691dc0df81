"""Issue 10 §2 and §4, one regression test per defect: files stay inside the ruleset's folder
and have limits, every error is located, no input gives exit 70."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from regelwerk.dsl.diagnostics import RulesError
from regelwerk.dsl.parse import parse_text
from regelwerk.interpreter.engine.moves import Action

import regelwerk
from regelwerk import EngineError, IllegalAction, RuleFailure
from regelwerk.cli import main

ROOT = Path(__file__).resolve().parent.parent
CLIMB = ROOT / "rulesets" / "examples" / "climb.rules"
TTT = ROOT / "rulesets" / "classic" / "tictactoe.rules"
BASE = "players X\nflow\n    finish draw\n"


def run(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def diagnostics(path: Path, root: Path | None = None) -> list[tuple[int, int, str, str]]:
    with pytest.raises(RulesError) as info:
        regelwerk.load(path, root)
    return [(d.span.line, d.span.column, d.code, d.message) for d in info.value.diagnostics]


# ---------------------------------------------------------------------- §2 files
@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "game").mkdir()
    (tmp_path / "secret.txt").write_text("root:$6$secret\n", encoding="utf-8")
    (tmp_path / "game" / "data").mkdir()
    (tmp_path / "game" / "data" / "ok.json").write_text("[1, 2]", encoding="utf-8")
    return tmp_path / "game"


@pytest.mark.parametrize(("line", "code", "message"), [
    ('include "../secret.rules"', "E008", "cannot include '../secret.rules': it is outside the ruleset's folder"),
    ('include "/etc/passwd"', "E008", "cannot include '/etc/passwd': an absolute path"),
    ('include "data/ok.json"', "E008", "cannot include 'data/ok.json': only .rules files are included"),
    ('data d: list int from "../secret.txt"', "E401", "cannot read data file '../secret.txt': it is outside"),
    ('data d: list int from "/etc/shadow"', "E401", "cannot read data file '/etc/shadow': an absolute path"),
    ('board B = graph from "../../etc/hosts"', "E401", "cannot read data file '../../etc/hosts': it is outside"),
    ('board B = grid from "/dev/zero"', "E401", "cannot read data file '/dev/zero': an absolute path"),
])
def test_files_outside_the_ruleset_are_refused(folder: Path, line: str, code: str, message: str):
    path = folder / "g.rules"
    path.write_text(f"{line}\n{BASE}", encoding="utf-8")
    got = diagnostics(path)
    assert len(got) == 1 and got[0][:3] == (1, 1, code) and got[0][3].startswith(message), got


def test_a_symlink_out_of_the_folder_is_refused_and_nothing_of_it_is_printed(folder: Path, capsys):
    (folder / "link.json").symlink_to(folder.parent / "secret.txt")
    (folder / "link.rules").symlink_to(folder.parent / "secret.txt")
    (folder / "g.rules").write_text('data d: list int from "link.json"\n' + BASE, encoding="utf-8")
    (folder / "h.rules").write_text('include "link.rules"\n' + BASE, encoding="utf-8")
    code, out, err = run(capsys, "check", folder / "g.rules", folder / "h.rules")
    assert code == 1 and "$6$secret" not in out + err
    assert "g.rules:1:1: error: cannot read data file 'link.json': it is outside the ruleset's folder" in err
    assert "h.rules:1:1: error: cannot include 'link.rules': it is outside the ruleset's folder" in err


def test_root_widens_the_folder(folder: Path):
    (folder.parent / "common.rules").write_text("const SHARED = 3\n", encoding="utf-8")
    path = folder / "g.rules"
    path.write_text('include "../common.rules"\n' + BASE, encoding="utf-8")
    assert diagnostics(path)[0][2] == "E008"
    assert regelwerk.load(path, root=folder.parent).model.consts["SHARED"]


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: os.mkfifo(p), "not a regular file (a device, pipe or socket)"),
    (lambda p: os.mkdir(p), "it is a folder, not a file"),
    (lambda p: os.truncate(p.open("wb").name, 200_000_000) if p.touch() is None else None, "larger than 5,000,000 bytes"),
    (lambda p: p.write_bytes(b"[1, \xff]"), "not UTF-8 text: byte 0xff at line 1, column 5"),
])
def test_data_files_are_regular_small_utf8_files(folder: Path, make, message: str):
    make(folder / "d.json")
    path = folder / "g.rules"
    path.write_text('data d: list int from "d.json"\n' + BASE, encoding="utf-8")
    got = diagnostics(path)  # a FIFO would block for ever before this was fixed
    assert got == [(1, 1, "E401", f"cannot read data file 'd.json': {message}")]


@pytest.mark.parametrize(("content", "message"), [
    ("[" * 5000 + "]" * 5000, "'d.json':1:101: nested deeper than 100 levels"),
    ("[" + "7" * 5000 + "]", "'d.json':1:2: a number of more than 100 digits"),
    ('{"nodes": [' + "1" * 5000 + "]}", "'d.json':1:12: a number of more than 100 digits"),
])
def test_hostile_json_is_a_located_error_not_exit_70(folder: Path, capsys, content: str, message: str):
    (folder / "d.json").write_text(content, encoding="utf-8")
    path = folder / "g.rules"
    path.write_text('data d: list int from "d.json"\n' + BASE, encoding="utf-8")
    code, _, err = run(capsys, "check", path)
    assert code == 1 and f"g.rules:1:1: error: {message} [E402]" in err


# ---------------------------------------------------------------------- §4 positions
def test_invalid_utf8_is_located_at_the_bad_byte(tmp_path: Path, capsys):
    path = tmp_path / "bad.rules"
    path.write_bytes(b"players X\nflow\n    fin\xe9sh draw\n")
    code, _, err = run(capsys, "check", path)
    assert code == 1
    assert err.startswith(f"{path}:3:8: error: cannot read file: not UTF-8 text: byte 0xe9 at line 3, column 8 [E007]")
    assert "    3 |     fin\ufffdsh draw" in err


def test_nesting_is_located_and_texts_and_comments_do_not_count():
    deep = "players X\nconst a = " + "(" * 70 + "1" + ")" * 70 + "\nflow\n    finish draw\n"
    with pytest.raises(RulesError) as info:
        parse_text(deep, "d.rules")
    d = info.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.column, d.message) == ("E005", 2, 71, "nesting deeper than 60 levels")
    quiet = 'players X\nconst a = "' + "(" * 70 + '"  # ' + "[" * 70 + "\nflow\n    finish draw\n"
    parse_text(quiet, "q.rules")  # brackets in a text or a comment are no nesting


def test_deep_expression_chains_are_located_not_a_recursion_error():
    chain = "players X\nconst a = " + "not " * 3000 + "true\nflow\n    finish draw\n"
    with pytest.raises(RulesError) as info:
        parse_text(chain, "c.rules")
    d = info.value.diagnostics[0]
    assert d.code == "E005" and d.span.line == 2 and d.span.column > 1
    assert d.message == "an expression nested deeper than 150 levels"


def test_a_line_separator_does_not_shift_the_excerpt():
    text = "players X\n# a note\u2028 that goes on\nflow\n    repeat\n        turn\n            play zz\n"
    with pytest.raises(RulesError) as info:
        regelwerk.load_text(text, "ls.rules")
    assert info.value.format() == ("ls.rules:6:13: error: unknown action 'zz' [E219]\n"
                                   "    6 |             play zz\n"
                                   "      |             ^^^^^^^")


# ---------------------------------------------------------------------- §4 run-time failures
@pytest.mark.parametrize(("body", "message"), [
    ("remove 3 from xs", "a.rules:7:5: cannot remove 3: it is not in a list of 0 items (in action 'a')"),
    ("draw 1 from xs to ys", "a.rules:7:5: cannot draw 1: only 0 left (in action 'a')"),
    ("set n = 1\n    let x = random(xs)\n    set n = x",
     "a.rules:8:5: random() of an empty list: there is nothing to choose from (in action 'a')"),
])
def test_run_time_failures_name_the_rule_and_where_it_stands(body: str, message: str):
    text = (f"players X\nstate\n    xs: list int = []\n    ys: list int = []\n    n: int = 0\n"
            f"action a\n    {body}\nflow\n    repeat\n        turn\n            play a\n")
    game = regelwerk.load_text(text, "a.rules").new_game()
    with pytest.raises(RuleFailure) as info:
        game.apply("a")
    assert str(info.value) == message
    game = regelwerk.load_text(text, "a.rules").new_game()
    with pytest.raises(RuleFailure) as info:  # the offered move, played in place by the flow's block
        game.apply(game.legal_actions()[0])
    assert str(info.value) == message


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("padding", [0, 60])  # a short effect is inlined in the block, a long one called
def test_a_move_played_in_place_fails_as_the_move_and_a_later_op_is_not_placed_at_it(padding: int, record: bool):
    pad = "    set n = n + 1\n" * padding
    text = (f"players X, O\nstate\n    n: int = 0\n    xs: list int = []\naction a(k in 1..2)\n{pad}"
            f"    remove k from xs\naction b\n{pad}    set n = n + 1\nflow\n    repeat\n        turn\n"
            f"            play a, b\n        set n = [1][n]\n")
    line = 6 + padding
    game = regelwerk.load_text(text, "a.rules").new_game(record=record)
    move = next(m for m in game.legal_actions() if str(m) == "a(2)")
    with pytest.raises(RuleFailure) as info:
        game.apply(move)
    assert str(info.value) == (f"a.rules:{line}:5: cannot remove 2: it is not in a list of 0 items "
                               "(in action 'a')")
    game = regelwerk.load_text(text, "a.rules").new_game(record=record)
    with pytest.raises(RuleFailure) as info:  # b's effect is fine; the flow's next line fails
        game.apply(next(m for m in game.legal_actions() if str(m) == "b"))
    assert str(info.value).startswith(f"a.rules:{13 + 2 * padding}:9: rule 'flow' failed: no such place in the list")


def test_budgets_and_python_errors_are_located_on_the_command_line(tmp_path: Path, capsys):
    chain = tmp_path / "chain.rules"
    chain.write_text("players X\nstate\n    n: int = 0\nwhen n == 0\n    set n = 1\nwhen n == 1\n    set n = 0\n"
                     "action a\n    set n = n\nflow\n    repeat\n        turn\n            play a\n", encoding="utf-8")
    code, _, err = run(capsys, "run", chain)
    assert code == 1 and f"{chain}:4:1: trigger chain longer than 200" in err
    index = tmp_path / "idx.rules"
    index.write_text("players X\nconst T = [1, 2]\nstate\n    n: int = 0\naction a\n    set n = T[5]\n"
                     "flow\n    repeat\n        turn\n            play a\n", encoding="utf-8")
    code, _, err = run(capsys, "run", index)
    assert code == 1 and f"{index}:6:5: action 'a' failed: no such place in the list" in err  # the statement


# ---------------------------------------------------------------------- §4 moves
@pytest.mark.parametrize("move", ["place(²)", "place(" + "9" * 5000 + ")", "place(" + "[" * 3000 + "]" * 3000 + ")",
                                  ("place", None), ("place",), None, 5, "place(" + "1 + " * 3000 + "1)"])
def test_bad_moves_are_illegal_actions_not_python_errors(move):
    game = regelwerk.load(TTT).new_game()
    with pytest.raises(IllegalAction):
        game.apply(move)
    try:
        assert game.explain(move).legal is False
    except IllegalAction as err:  # a text that is no move at all: said so, with where
        assert err.message.startswith(("cannot read move", "not a move"))


def test_choose_1_is_not_choose_true():
    game = regelwerk.load(CLIMB).new_game(players=2, seed=3)
    game.apply(Action("swap", (game.vars["hand"]["North"][0],)))
    assert not game.is_legal("choose(1)") and game.is_legal("choose(true)")
    assert game.explain("choose(1)").reason == "1 is not one of the options for 'agree': true, false"


# ---------------------------------------------------------------------- §4 command line
def test_a_broken_pipe_is_not_success(tmp_path: Path):
    """`check DIR | head -c 1` exits 141 (the shell's SIGPIPE status), not 0, and quietly."""
    for i in range(300):
        (tmp_path / f"g{i}.rules").write_text(BASE, encoding="utf-8")
    for _ in range(3):
        proc = subprocess.run(
            f"{sys.executable} -m regelwerk.cli check {tmp_path} | head -c 1 >/dev/null; echo ${{PIPESTATUS[0]}}",
            shell=True, capture_output=True, executable="/bin/bash", cwd=ROOT)
        assert proc.stdout.decode().strip() == "141", proc
        assert b"Traceback" not in proc.stderr and b"Exception ignored" not in proc.stderr


def test_check_accepts_folders(capsys):
    code, out, _ = run(capsys, "check", ROOT / "rulesets" / "root")  # its included files are not rulesets
    lines = out.splitlines()
    assert code == 0 and len(lines) == 1 and lines[0].startswith(f"{ROOT / 'rulesets' / 'root' / 'root.rules'}: ok (")


def test_a_state_variable_cannot_hide_a_square():
    text = ("players X\nboard Square = grid 3 x 3\nstate\n    b2: int = 0\n"
            "flow\n    finish draw\n")
    with pytest.raises(RulesError) as info:
        regelwerk.load_text(text, "s.rules")
    d = info.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.column, d.message) == (
        "E102", 4, 5, "'b2' is a square of board 'Square' and also declared here")


def test_trace_show_names_the_line_and_field(tmp_path: Path, capsys):
    t = tmp_path / "t.jsonl"
    assert main(["run", str(TTT), "--seed", "1", "--trace", str(t)]) == 0
    capsys.readouterr()
    lines = t.read_text(encoding="utf-8").splitlines()
    step = json.loads(lines[2])
    step["changes"][0]["path"] = 7
    lines[2] = json.dumps(step)
    t.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "trace", "show", t)
    assert code == 1 and err.strip() == f"{t}:3: error: step.changes[0].path: expected a text, found 7"


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("padding", [0, 40])  # a short listing is copied into the flow's block, a long one called
@pytest.mark.parametrize(("require", "after", "message"), [
    ("require 10 // (n - 1) > k", 1, "division by zero (the divisor of // was 0)"),
    ("require [1, 2, 3][n - 2 + k] > 0", 9, "no such place in the list"),
    ("require half(k) >= 0", 1, "division by zero (the divisor of // was 0)"),
])
def test_a_failing_precondition_is_placed_at_its_require_in_its_action(padding: int, record: bool, require: str,
                                                                       after: int, message: str):
    """Listing the moves after a move runs the actions' requires: one that fails is reported at
    the require, in the action, however the listing was compiled (copied into the flow's block
    or called); a failing definition at the require that called it."""
    pad = "".join(f"    require k != {j + 100} or k == {j} else \"no {j}\"\n" for j in range(padding))
    text = (f"players X, O\nstate\n    n: int = 2\ndefine half(k: int) = k // (n - 1)\naction go(k in 1..2)\n"
            f"    {require}\n{pad}    set n = 2\naction wait\n    set n = {after}\n"
            f"flow\n    repeat\n        turn\n            play go, wait\n")
    game = regelwerk.load_text(text, "a.rules").new_game(record=record)
    with pytest.raises(RuleFailure) as info:
        game.apply(next(m for m in game.legal_actions() if str(m) == "wait"))
    assert str(info.value).startswith("a.rules:6:5: "), str(info.value)
    said = str(info.value)
    assert message in said and ("action 'go'" in said or "rule 'go'" in said) and "flow" not in said, said


@pytest.mark.parametrize("record", [False, True])
def test_a_game_left_part_way_by_a_failing_rule_says_so(record: bool):
    """A rule that fails while the next moves are listed leaves the game part-way through the
    step (docs/api.md): asking it for moves, an explanation or a move says so as an
    EngineError, never a Python error; a traced game's undo takes the failed move back."""
    text = ("players X, O\nstate\n    n: int = 2\naction go(k in 1..2)\n    require 10 // (n - 1) > k\n"
            "    set n = 2\naction wait\n    set n = 1\nflow\n    repeat\n        turn\n            play go, wait\n")
    game = regelwerk.load_text(text, "a.rules").new_game(record=record)
    with pytest.raises(RuleFailure):
        game.apply("wait")
    for ask in (game.legal_actions, lambda: game.explain("go(1)"), lambda: game.apply("go(1)")):
        with pytest.raises(EngineError) as info:
            ask()
        assert "part-way" in str(info.value) or "division by zero" in str(info.value), str(info.value)
    if record:
        game.undo()
        assert game.vars["n"] == 2 and "wait" in [str(m) for m in game.legal_actions()]
