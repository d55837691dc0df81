"""`regelwerk serve` on the command line: bad paths and databases are one clear line and a
non-zero exit before anything listens; folders host only the files that declare a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from regelwerk.cli import main
from regelwerk.serve.catalogue import Catalogue, CatalogueError

from .server_proc import ROOT


def test_a_missing_path_is_one_line_and_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "no/such/folder", "--port", "1"]) == 1
    err = capsys.readouterr().err
    assert "no/such/folder: error: no such file or folder" in err and "Traceback" not in err


def test_a_broken_ruleset_is_reported_with_its_location(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.rules"
    bad.write_text('game "Bad"\nplayers 2 from A, B\nstate\n    x: int = nope\n')
    assert main(["serve", str(bad), "--db", str(tmp_path / "g.sqlite")]) == 1
    err = capsys.readouterr().err
    assert "bad.rules:2:11: error" in err and "Traceback" not in err


def test_a_database_that_cannot_be_opened(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = str(ROOT / "rulesets/classic/tictactoe.rules")
    assert main(["serve", rules, "--db", str(tmp_path / "no" / "such" / "g.sqlite")]) == 1
    assert "cannot open the game database" in capsys.readouterr().err


def test_folders_host_the_files_that_declare_a_game() -> None:
    names = set(Catalogue([str(ROOT / "rulesets/khan"), str(ROOT / "rulesets/classic")]).rulesets)
    assert names == {"khan", "tictactoe", "connect4", "breakthrough", "checkers"}  # no scenario files


def test_two_rulesets_of_one_name_are_refused(tmp_path: Path) -> None:
    (tmp_path / "tictactoe.rules").write_text((ROOT / "rulesets/classic/tictactoe.rules").read_text())
    with pytest.raises(CatalogueError, match="a second ruleset named 'tictactoe'"):
        Catalogue([str(ROOT / "rulesets/classic/tictactoe.rules"), str(tmp_path)])
