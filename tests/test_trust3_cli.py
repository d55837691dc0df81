"""Issue 22 ("Trust III"), the command line, trace display, what a player sees and simulate:
one regression test per defect, each failing before its fix."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from regelwerk.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
BREAKTHROUGH = ROOT / "rulesets" / "classic" / "breakthrough.rules"
CANARY = FIXTURES / "visibility" / "canary.rules"


def run(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


# ---------------------------------------------------------------------- 1. --version
def test_version_prints_the_installed_version_and_exits_0(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"regelwerk {version('regelwerk')}\n"
    done = subprocess.run([sys.executable, "-m", "regelwerk.cli", "--version"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"regelwerk {version('regelwerk')}" and not done.stderr


# ---------------------------------------------------------------------- 2. trace show without --rules
def _decisions(text: str) -> list[str]:
    """`#4    Black: step(b7, SW)  [step]` → `Black: step(b7, SW)`."""
    return [line.split(None, 1)[1].split("  [")[0] for line in text.splitlines()
            if line.startswith("#") and "(automatic)" not in line]


@pytest.fixture(scope="module")
def breakthrough_trace(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("bt") / "t.jsonl"
    assert main(["run", str(BREAKTHROUGH), "--seed", "7", "--trace", str(path)]) == 0
    return path


def test_trace_show_of_a_game_without_hidden_state_masks_no_move(capsys, breakthrough_trace):
    """`step(?, b7)` for `step(b7, SW)`: the order of the sorted bindings, and `?` although
    breakthrough has no secret."""
    assert json.loads(breakthrough_trace.read_text().splitlines()[0])["hidden_state"] is False
    _, full, _ = run(capsys, "trace", "show", breakthrough_trace)
    for player in ("White", "Black"):
        code, seen, _ = run(capsys, "trace", "show", breakthrough_trace, "--player", player)
        assert code == 0 and "?" not in seen
        assert _decisions(seen) == _decisions(full) and len(_decisions(full)) > 10
        assert "seed hidden" in seen  # the seed still is not shown
        _, with_rules, _ = run(capsys, "trace", "show", breakthrough_trace, "--player", player, "--rules", BREAKTHROUGH)
        assert _decisions(with_rules) == _decisions(full)


def test_an_old_trace_without_the_mark_masks_arguments_in_their_order(capsys, breakthrough_trace, tmp_path):
    """A trace written before `hidden_state` existed: others' arguments that might be secret
    are still masked, each in its own place (the text gives the order, not the sorted keys)."""
    lines = breakthrough_trace.read_text().splitlines()
    head = json.loads(lines[0])
    del head["hidden_state"]
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n", encoding="utf-8")
    _, full, _ = run(capsys, "trace", "show", old)
    code, seen, _ = run(capsys, "trace", "show", old, "--player", "White")
    assert code == 0
    pairs = list(zip(_decisions(full), _decisions(seen), strict=True))
    assert any("?" in s for _, s in pairs)
    for f, s in pairs:
        if f.startswith("White"):
            assert s == f
        else:  # `Black: step(b7, ?)`: the square left (it shows on the board), the direction masked
            fa, sa = f.split("(")[1].rstrip(")").split(", "), s.split("(")[1].rstrip(")").split(", ")
            assert sa[0] == fa[0] and sa[1] == "?", (f, s)


def test_trace_show_without_rules_still_masks_hidden_arguments(capsys, tmp_path):
    """A game with hidden state (the canary): without --rules every argument that might be
    secret stays masked, and no card a player never saw is shown."""
    from test_visibility_property import CARDS, RULES, leaks, seen_by, start_of

    masked = 0
    for seed in range(4):
        path = tmp_path / f"c{seed}.jsonl"
        assert main(["run", str(CANARY), "--players", "3", "--seed", str(seed), "--trace", str(path)]) == 0
        capsys.readouterr()
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
        assert lines[0]["hidden_state"] is True
        for p in ("Ann", "Cid"):
            code, seen, _ = run(capsys, "trace", "show", path, "--player", p)
            assert code == 0
            secret = CARDS - seen_by(p, lines, RULES.model, start_of(RULES, 3, seed))
            assert not leaks(seen, secret)
            masked += sum("?" in d for d in _decisions(seen))
    assert masked > 0
