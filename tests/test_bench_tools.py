"""The measuring tools of issue 27 (bench/bytecodes.py, bench/instructions.py): the counts they
report are the games' own, the same at every run, and what they say when they cannot count."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# `bench` is a plain top-level folder, not part of the installed package.
_ROOT = Path(__file__).resolve().parents[1]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

import regelwerk  # noqa: E402
from bench import bytecodes, instructions  # noqa: E402

TTT = _ROOT / "rulesets/classic/tictactoe.rules"


@pytest.fixture(scope="module")
def ttt() -> regelwerk.Ruleset:
    return regelwerk.load(TTT)


def _moves_played_in(rules: regelwerk.Ruleset) -> str:
    """The generated function that plays tic-tac-toe's moves: its games' fused apply (compiler
    `fused apply`), where it has one, else its block."""
    return "BA_0" if rules.program(False).fused_apply is not None else "B_0"


def test_the_same_games_count_the_same_bytecodes(ttt: regelwerk.Ruleset) -> None:
    first, again = bytecodes.count(ttt, None, 5), bytecodes.count(ttt, None, 5)
    assert first.total == again.total > 1_000 and first.by_function == again.by_function
    assert first.total == sum(first.by_function.values())
    hot = _moves_played_in(ttt)
    block = [n for (name, file), n in first.by_function.items() if name == hot and file.startswith("<regelwerk:")]
    assert block and sum(n for (name, _line), n in first.by_line.items() if name == hot) == block[0]


def test_traced_games_and_the_apply_loop_count_what_they_run(ttt: regelwerk.Ruleset) -> None:
    untraced = bytecodes.count(ttt, None, 5)
    traced = bytecodes.count(ttt, None, 5, record=True)
    playout = bytecodes.count(ttt, None, 5, playout=True)
    assert traced.total > untraced.total  # the same games, each step recorded
    if _moves_played_in(ttt) == "BA_0":  # the games' apply is the program's own
        assert any(name == "BA_0" and n > 0 for (name, _file), n in untraced.by_function.items())
    else:
        assert untraced.by_function[("apply", "game.py")] > 0
    assert playout.by_function.get(("apply", "game.py"), 0) == 0  # playouts play in the block
    assert not any(name == "BA_0" for (name, _file) in playout.by_function)
    assert playout.by_function[("playout", "game.py")] > 0


def test_the_report_names_the_busiest_generated_lines(ttt: regelwerk.Ruleset) -> None:
    counts = bytecodes.count(ttt, None, 5)
    text = bytecodes.report(counts, bytecodes.line_texts(ttt, False), top=3, lines=3)
    head, *rest = text.splitlines()
    assert head == f"{counts.total / 5:,.0f} bytecodes a game (5 games)"
    assert _moves_played_in(ttt) in text and "busiest lines of the generated program" in text
    # the listing copied into the block keeps its own function's lines
    assert any("'s line):" in line and "_sv0[" in line for line in rest)


def test_an_unreadable_ruleset_is_an_error_not_a_traceback(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    assert bytecodes.main([str(tmp_path / "missing.rules")]) == 1
    assert "missing.rules" in capsys.readouterr().err


def test_callgrind_s_count_is_read_and_its_absence_said() -> None:
    stderr = "==11258== Events    : Ir\n==11258== Collected : 1144439782\n==11258==\n"
    assert instructions.collected(stderr) == 1144439782
    with pytest.raises(ValueError):
        instructions.collected("valgrind: no such tool\n")


def test_without_valgrind_it_says_what_it_needs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    monkeypatch.setattr(instructions.shutil, "which", lambda _name: None)
    assert instructions.main([str(TTT), "--games", "2"]) == 1
    assert "needs valgrind" in capsys.readouterr().err
    assert instructions.main([str(TTT), "--games", "0"]) == 2


def test_the_collector_is_turned_off_in_the_counted_process_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "--no-gc" in instructions._child_args(str(TTT), None, 1, False, False, (), True)
    assert "--no-gc" not in instructions._child_args(str(TTT), None, 1, False, False)
    seen = []
    monkeypatch.setattr(instructions, "play", lambda *a: seen.append(instructions.gc.isenabled()))
    monkeypatch.setattr(instructions.gc, "disable", lambda: seen.append("off"))
    instructions._child(str(TTT), None, 1, False, False, True)
    assert seen[0] == "off" and len(seen) == 3  # off before game 0, then games 0 and 1
    seen.clear()
    instructions._child(str(TTT), None, 1, False, False)
    assert "off" not in seen


def test_a_bytecode_without_a_line_is_reported_without_its_text(ttt: regelwerk.Ruleset) -> None:
    # Python 3.11 gives some bytecodes (a generator's or a loop's set-up) no line number
    counts = bytecodes.Counts(games=1, total=10)
    counts.by_function[("B_0", "<regelwerk:x>")] = 10
    counts.by_line[("B_0", None)] = 6
    counts.by_line[("B_0", 1)] = 4
    text = bytecodes.report(counts, bytecodes.line_texts(ttt, False), top=1, lines=2)
    none_line, first_line = text.splitlines()[-2:]
    assert none_line.split() == ["6", "B_0:None"]  # counted, with no text to show
    assert first_line.split()[:4] == ["4", "B_0", "(D_0's", "line):1"]


def test_a_switch_is_turned_off_by_name_and_an_unknown_one_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from regelwerk.interpreter.compiler.codegen import CodeGen

    monkeypatch.setattr(CodeGen, "NONE_FIRST", True)  # restored after the test
    assert bytecodes.switched_off(["NOPE"]) == "no CodeGen switch named 'NOPE'"
    assert bytecodes.switched_off(["record"]) is not None  # an attribute, but no switch
    assert bytecodes.switched_off(["NONE_FIRST"]) is None and CodeGen.NONE_FIRST is False
    off = regelwerk.load(TTT).program(False)
    assert not any(c.kind == "none first" for c in off.choices)


def test_a_dump_s_count_is_read_and_its_absence_said() -> None:
    dump = "version: 1\ncreator: callgrind-3.19.0\npart: 1\nevents: Ir\nsummary: 38771190\ntotals: 38771190\n"
    assert instructions.dumped(dump) == 38771190
    with pytest.raises(ValueError):
        instructions.dumped("events: Ir\n")


def test_games_only_marks_the_games_in_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """The child calls what callgrind zeroes at before the games and dumps at after them."""
    import os

    calls: list[str] = []
    monkeypatch.setattr(os, "getppid", lambda: calls.append("zero") or 1)
    monkeypatch.setattr(os, "getpgrp", lambda: calls.append("dump") or 1)
    monkeypatch.setattr(instructions, "play", lambda *_a: calls.append("game"))
    instructions._child(str(TTT), None, 2, False, False, marked=True)
    assert calls == ["game", "zero", "game", "game", "dump"]
    assert "--games-only" in instructions._child_args(str(TTT), None, 2, False, False, marked=True)
