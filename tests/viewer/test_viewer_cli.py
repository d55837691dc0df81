"""`regelwerk view` at the command line: pages written atomically where asked, and every bad
input a located message with a non-zero exit, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from viewer_games import Played

from regelwerk.cli import main


def run(capsys: pytest.CaptureFixture, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_view_writes_one_page_next_to_the_trace(played: dict[str, Played], capsys, tmp_path: Path):
    p = played["khan"]
    trace = tmp_path / "game.jsonl"
    trace.write_bytes(p.trace.read_bytes())
    code, out, _ = run(capsys, "view", trace, "--rules", p.rules)
    assert code == 0 and "game.html" in out and "KiB" in out
    assert (tmp_path / "game.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(x.name for x in tmp_path.iterdir()) == ["game.html", "game.jsonl"]  # no temporary left


def test_view_out_and_player(played: dict[str, Played], capsys, tmp_path: Path):
    p = played["canary"]
    out = tmp_path / "ann.html"
    code, text, _ = run(capsys, "view", p.trace, "--rules", p.rules, "--out", out, "--player", "Ann")
    assert code == 0 and "as seen by Ann" in text
    assert '"viewer":"Ann"' in out.read_text(encoding="utf-8")


def test_view_a_save_names_its_own_rules(capsys, tmp_path: Path):
    save = tmp_path / "s.json"
    code, _, _ = run(capsys, "run", "rulesets/classic/connect4.rules", "--seed", "3", "--stop-after", "5", "--save", save)
    assert code == 0
    code, out, _ = run(capsys, "view", save)
    assert code == 0 and (tmp_path / "s.html").exists()


def test_a_trace_finds_its_rules_by_hash_or_asks_for_them(played: dict[str, Played], capsys, tmp_path: Path,
                                                         monkeypatch):
    p = played["khan"]
    out = tmp_path / "found.html"
    code, text, err = run(capsys, "view", p.trace, "--out", out)  # from the repository: khan.rules
    assert code == 0 and out.exists(), err
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "khan-copy.rules").write_text('game "Khan"\nplayers A, B\nflow\n    finish draw\n',
                                               encoding="utf-8")  # the title, not the text
    monkeypatch.chdir(elsewhere)
    code, _, err = run(capsys, "view", p.trace, "--out", tmp_path / "x.html")
    assert code == 1 and "no .rules file beside it or under the current folder has that hash" in err
    assert "give the rules file with --rules" in err


def test_bad_inputs_are_located_messages(played: dict[str, Played], capsys, tmp_path: Path):
    p = played["khan"]
    cases = []
    cases.append((["view", tmp_path / "missing.jsonl"], "missing.jsonl: error: no such file"))
    cases.append((["view", p.trace, "--rules", "rulesets/root/root.rules"], f"{p.trace}:1: error: written by ruleset 'Khan'"))
    cases.append((["view", p.trace, "--rules", tmp_path / "none.rules"], "none.rules: error: no such rules file"))
    cases.append((["view", p.trace, "--rules", p.rules, "--player", "Mallory"],
                  "--player 'Mallory' is not a player of this game (Red, Yellow, Blue)"))
    broken = tmp_path / "broken.jsonl"
    lines = p.trace.read_text(encoding="utf-8").splitlines()
    broken.write_text("\n".join(lines[:4] + ['{"step": 3, "rule": '] + lines[5:]) + "\n", encoding="utf-8")
    cases.append((["view", broken, "--rules", p.rules], f"{broken}:5: error: not a trace line"))
    wrong = tmp_path / "wrong.jsonl"
    step = json.loads(lines[3])
    step["changes"] = [{"path": "nonsense[a1]", "old": None, "new": 1}]
    wrong.write_text("\n".join(lines[:3] + [json.dumps(step)] + lines[4:]) + "\n", encoding="utf-8")
    cases.append((["view", wrong, "--rules", p.rules], f"{wrong}:4: error: change of 'nonsense[a1]' does not fit"))
    notatrace = tmp_path / "x.json"
    notatrace.write_text('{"hello": 1}\n', encoding="utf-8")
    cases.append((["view", notatrace], "neither a regelwerk trace nor a regelwerk save"))
    for args, message in cases:
        code, _, err = run(capsys, *args)
        assert code != 0 and message in err, (args, err)
    assert not list(tmp_path.glob("*.html")) and not list(tmp_path.glob(".*"))


def test_view_refuses_to_overwrite_its_input(played: dict[str, Played], capsys):
    p = played["khan"]
    code, _, err = run(capsys, "view", p.trace, "--rules", p.rules, "--out", p.trace)
    assert code == 2 and "would overwrite the input" in err
