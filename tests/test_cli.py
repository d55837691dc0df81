"""The command line as users and outside checks call it (design §6 contract)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from bundled import BUNDLED, CLASSIC, GOLDEN_GAMES, PLAYERS
from regelwerk.dsl.parse import parse_text
from regelwerk.dsl.printer import print_module
from regelwerk.dsl.sources import parse_file

from regelwerk.cli import main

GOLDEN = Path(__file__).parent / "golden"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_check_ok_and_errors(capsys, tmp_path):
    code, out, _ = run(capsys, "check", *BUNDLED.values())
    assert code == 0 and out.count(": ok") == len(BUNDLED)


@pytest.mark.parametrize("name", ["khan", "shogun", "root"])
def test_seed_rulesets_give_identical_traces(capsys, tmp_path, name):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out in (a, b):
        code, _, _ = run(capsys, "run", BUNDLED[name], "--players", PLAYERS[name], "--seed", "5",
                         "--stop-after", "60", "--trace", out)
        assert code == 0
    assert a.read_bytes() == b.read_bytes()
    assert a.stat().st_size > 1000
    bad = tmp_path / "bad.rules"
    bad.write_text("players X, O\nflow\n    repeat\n        turn\n            play plya\n", encoding="utf-8")
    code, _, err = run(capsys, "check", bad)
    assert code == 1
    assert f"{bad}:5:13: error: unknown action 'plya' [E219]" in err
    assert "^^^^" in err


def test_check_missing_file_is_a_message_not_a_traceback(capsys, tmp_path):
    code, _, err = run(capsys, "check", tmp_path / "nope.rules")
    assert code == 2 and "no such file" in err and "Traceback" not in err


@pytest.mark.parametrize("name", GOLDEN_GAMES)
def test_run_is_byte_identical_and_matches_golden(capsys, tmp_path, name):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    code, out, _ = run(capsys, "run", BUNDLED[name], "--players", "2", "--seed", "7", "--trace", a)
    assert code == 0 and "winner:" in out
    run(capsys, "run", BUNDLED[name], "--players", "2", "--seed", "7", "--trace", b)
    assert a.read_bytes() == b.read_bytes()
    golden = GOLDEN / f"{name}-seed7.jsonl"
    if os.environ.get("REGELWERK_REGEN"):
        golden.write_bytes(a.read_bytes())
    assert a.read_bytes() == golden.read_bytes(), "trace changed: rerun with REGELWERK_REGEN=1 if intended"
    lines = [json.loads(x) for x in a.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["format"] == "regelwerk-trace" and lines[0]["seed"] == 7
    assert "result" in lines[-1]
    for step in lines[1:-1]:
        for key in ("step", "phase", "player", "rule", "source", "spec", "bindings", "checks",
                    "changes", "chance", "automatic"):
            assert key in step


def test_trace_show_quotes_the_rule(capsys, tmp_path):
    t = tmp_path / "t.jsonl"
    run(capsys, "run", BUNDLED["tictactoe"], "--seed", "7", "--trace", t)
    code, out, _ = run(capsys, "trace", "show", t)
    assert code == 0
    assert "„Players take turns putting their mark in an empty square.”" in out
    assert "game over" in out


def test_legal_and_explain(capsys, tmp_path):
    save = tmp_path / "s.json"
    run(capsys, "run", BUNDLED["tictactoe"], "--seed", "3", "--stop-after", "3", "--save", save)
    code, out, _ = run(capsys, "legal", BUNDLED["tictactoe"], "--state", save)
    assert code == 0 and len(out.splitlines()) == 6
    taken = json.loads(save.read_text())["vars"]["cell"]
    square = next(s for s, v in taken.items() if v is not None)
    code, out, _ = run(capsys, "explain", BUNDLED["tictactoe"], "--state", save, f"place({square})")
    assert code == 1
    assert f"place({square}) is illegal: the square is already taken" in out
    assert "tictactoe.rules:19:5" in out and "cell[s] = " in out
    free = next(s for s, v in taken.items() if v is None)
    code, out, _ = run(capsys, "explain", BUNDLED["tictactoe"], "--state", save, f"place({free})")
    assert code == 0 and "is legal" in out


@pytest.mark.parametrize("content,needle", [
    ("{not json", "not JSON"),
    ('{"format": "regelwerk-save", "version": 99}', "newer than this regelwerk understands"),
    ('{"format": "something"}', "not a regelwerk save"),
])
def test_corrupt_saves_get_a_message(capsys, tmp_path, content, needle):
    save = tmp_path / "s.json"
    save.write_text(content, encoding="utf-8")
    code, _, err = run(capsys, "legal", BUNDLED["tictactoe"], "--state", save)
    assert code == 1 and needle in err and "Traceback" not in err


def test_save_with_a_bad_value_is_located(capsys, tmp_path):
    save = tmp_path / "s.json"
    run(capsys, "run", BUNDLED["tictactoe"], "--seed", "3", "--stop-after", "2", "--save", save)
    data = json.loads(save.read_text())
    data["vars"]["cell"]["b2"] = "Q"
    save.write_text(json.dumps(data))
    code, _, err = run(capsys, "legal", BUNDLED["tictactoe"], "--state", save)
    assert code == 1 and "save.vars.cell.b2: 'Q' is not a Player" in err


def test_test_command_counts(capsys):
    code, out, _ = run(capsys, "test", CLASSIC)
    assert code == 0
    assert out.splitlines()[-1] == "11 passed, 0 failed"


def test_test_command_reports_a_failing_scenario(capsys, tmp_path):
    f = tmp_path / "t.rules"
    f.write_text(
        BUNDLED["tictactoe"].read_text(encoding="utf-8")
        + '\nscenario "wrong"\n    do place(a1)\n    expect cell[a1] == O\n',
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "test", f)
    assert code == 1
    assert out.splitlines()[-1] == "1 passed, 1 failed"
    assert "expected cell[a1] == O  (where cell[a1] = X)" in out


def test_perft_lines(capsys):
    code, out, _ = run(capsys, "perft", BUNDLED["connect4"], "--depth", "3")
    assert code == 0 and out.splitlines() == ["1 7", "2 49", "3 343"]


def test_fmt_is_idempotent_and_round_trips(capsys, tmp_path):
    for path in BUNDLED.values():
        source = path.read_text(encoding="utf-8")
        mod = parse_file(path)
        text = print_module(mod, source)
        assert text == source, f"{path.name} is not in canonical form: run regelwerk fmt"
        again = parse_text(print_module(mod), str(path))
        assert again.decls == mod.decls
    f = tmp_path / "x.rules"
    f.write_text("players X,O\n# the flow\nflow\n    repeat\n        turn  # each player\n"
                 "            play  p\naction p\n    log  \"hi # not a comment\"\n# the end\n")
    code, out, _ = run(capsys, "fmt", f)
    assert code == 0 and "reformatted" in out
    assert f.read_text() == (
        "players X, O\n\n# the flow\nflow\n    repeat\n        # each player\n        turn\n"
        "            play p\n\naction p\n    log \"hi # not a comment\"\n\n# the end\n"
    )
    code, _, _ = run(capsys, "fmt", "--check", f)
    assert code == 0


def test_unknown_option_and_bad_player_count(capsys):
    code, _, err = run(capsys, "run", BUNDLED["tictactoe"], "--players", "3")
    assert code == 1 and "players, not 3" in err
    code, _, err = run(capsys, "run", BUNDLED["tictactoe"], "--option", "x=1")
    assert code == 2 and "unknown option" in err


@pytest.mark.parametrize("name", ["climb", "pig"])
def test_same_seed_same_trace_in_other_processes(tmp_path, name):
    """Hash seeds differ between processes; traces must not."""
    import subprocess
    import sys

    outs = []
    for hashseed in ("1", "2"):
        out = tmp_path / f"{hashseed}.jsonl"
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        subprocess.run([sys.executable, "-m", "regelwerk.cli", "run", str(BUNDLED[name]), "--players", "3",
                        "--seed", "11", "--trace", str(out)], check=True, env=env, capture_output=True)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_play_at_the_terminal_with_undo(tmp_path):
    import subprocess
    import sys

    moves = "1\nu\n" + "1\n" * 30
    res = subprocess.run([sys.executable, "-m", "regelwerk.cli", "play", str(BUNDLED["connect4"]), "--seed", "2"],
                         input=moves, capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert "Red to decide:" in res.stdout
    assert "  1 " in res.stdout and "a b c d e f g" in res.stdout
    assert "game over" in res.stdout
    assert "Traceback" not in res.stderr


def test_files_are_written_whole_with_their_permissions(capsys, tmp_path):
    f = tmp_path / "x.rules"
    f.write_text("players X\nflow\n    finish  draw\n")
    f.chmod(0o644)
    run(capsys, "fmt", f)
    assert f.stat().st_mode & 0o777 == 0o644
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "no temporary file left"
    t = tmp_path / "t.jsonl"
    run(capsys, "run", BUNDLED["tictactoe"], "--trace", t)
    assert t.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    m = os.umask(0)
    os.umask(m)
    return m


def test_simulate_reports_known_random_play_rates(capsys, tmp_path):
    """Random tic-tac-toe: the first player wins about 58.5%, the second 28.8%, 12.7% draws."""
    out = tmp_path / "sim.json"
    code, text, _ = run(capsys, "simulate", BUNDLED["tictactoe"], "--games", "2000", "--seed", "1", "--json", out)
    assert code == 0 and text.startswith("2000 games, 0 failed")
    data = json.loads(out.read_text())
    assert 0.55 < data["wins"]["X"] / 2000 < 0.62
    assert 0.25 < data["wins"]["O"] / 2000 < 0.32
    assert 0.10 < data["draws"] / 2000 < 0.16
    assert data["length"]["min"] == 5 and data["length"]["max"] == 9


def test_check_json_for_editors(capsys, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text("players X, O\nflow\n    repeat\n        turn\n            play plya\n", encoding="utf-8")
    code, out, err = run(capsys, "check", "--json", bad)
    assert code == 1 and err == ""
    [d] = [json.loads(line) for line in out.splitlines()]
    assert (d["line"], d["column"], d["code"], d["severity"]) == (5, 13, "E219", "error")
    assert d["message"] == "unknown action 'plya'" and d["file"] == str(bad)
