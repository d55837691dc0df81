"""`regelwerk simulate` as designers use it: Ctrl-C leaves a valid partial report that
`--resume` completes, the report folder, progress, and clear messages for bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from bundled import BUNDLED, ROOT
from terminal import cli_command

import regelwerk
from regelwerk.cli import main
from regelwerk.simulation import PlaySettings, report_json, run_simulation, without_timing
from regelwerk.simulation.progress import BarProgress, LineProgress, Progress, progress_for

RACE = ROOT / "tests" / "fixtures" / "sim" / "game" / "race.rules"


def run(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def test_ctrl_c_leaves_a_partial_report_and_resume_completes_it(tmp_path, capsys):
    """SIGINT to the whole process group, as a terminal's Ctrl-C sends it, in the middle of a
    two-process run: exit 130, a valid report of the games that finished, every one of them in
    the results file; `--resume` plays the rest, and its report is the uninterrupted one's."""
    out = tmp_path / "sim.json"
    results = tmp_path / "sim.games.jsonl"
    argv = [BUNDLED["tictactoe"], "--games", "16", "--seed", "3", "--agent", "X=mcts:400",
            "--json", out]
    proc = subprocess.Popen(cli_command("simulate", *map(str, argv), "--jobs", "2"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 90
    while len(lines_of(results)) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted after" in stderr and "--resume" in stderr and "Traceback" not in stderr
    partial = json.loads(out.read_text())
    played = [json.loads(x) for x in lines_of(results)[1:]]
    assert not partial["complete"] and 2 <= partial["games"] < 16
    assert partial["games"] == len({r["game"] for r in played})
    assert stdout.startswith(f"{partial['games']} games, 0 failed")

    code, text, _ = run(capsys, "simulate", *argv, "--resume", "--jobs", "1", "-q")
    assert code == 0 and text.startswith("16 games, 0 failed")
    resumed = json.loads(out.read_text())
    assert resumed["complete"] and resumed["timing"]["resumed"] == partial["games"]
    ttt = regelwerk.load(BUNDLED["tictactoe"])
    whole = run_simulation(ttt, 16, PlaySettings(seed=3, agents={"X": "mcts:400"}), jobs=1).report
    assert report_json(without_timing(resumed)) == report_json(without_timing(whole))


def test_resume_drops_a_torn_last_line_and_refuses_other_settings(tmp_path, capsys):
    out = tmp_path / "r.json"
    code, _, _ = run(capsys, "simulate", RACE, "--root", RACE.parent.parent, "--games", "12", "--json", out, "--jobs", "1", "-q")
    assert code == 1  # some games fail: exit 1, but every figure is written
    full = json.loads(out.read_text())
    results = tmp_path / "r.games.jsonl"
    text = results.read_text()
    keep = text.splitlines(keepends=True)
    results.write_text("".join(keep[:5]) + keep[5][:20])  # killed in the middle of a line
    code, _, _ = run(capsys, "simulate", RACE, "--root", RACE.parent.parent, "--games", "12", "--json", out, "--jobs", "1", "-q", "--resume")
    assert code == 1
    again = json.loads(out.read_text())
    assert again["timing"]["resumed"] == 4
    assert report_json(without_timing(again)) == report_json(without_timing(full))
    assert len(lines_of(results)) == 13  # the torn line went, the missing games came
    code, _, err = run(capsys, "simulate", RACE, "--root", RACE.parent.parent, "--games", "12", "--json", out, "--seed", "1", "--resume")
    assert code == 2 and "r.games.jsonl:1: written with seed 0, this run has 1" in err


@pytest.mark.parametrize(("content", "message"), [
    ("", "empty results file"),
    ("not json\n", ":1: not a results line"),
    ('{"format": "something else"}\n', ":1: not a regelwerk results file"),
    (None, ":2: not a game record"),
])
def test_corrupt_results_files_are_refused_clearly(tmp_path, capsys, content, message):
    results = tmp_path / "g.jsonl"
    if content is None:
        run(capsys, "simulate", BUNDLED["tictactoe"], "--games", "3", "--results", results, "-q", "--jobs", "1")
        head = lines_of(results)[0]
        content = head + '\n{"game": "one"}\n'
    results.write_text(content)
    code, out, err = run(capsys, "simulate", BUNDLED["tictactoe"], "--games", "3", "--results", results,
                         "--resume")
    assert code == 2 and message in err and "Traceback" not in err and out == ""


@pytest.mark.parametrize(("argv", "message"), [
    (["--agent", "greedy"], "--agent: unknown agent 'greedy' (known: random, first, mcts:ITERATIONS, mcts-cheat:ITERATIONS)"),
    (["--agent", "mcts:lots"], "write mcts:ITERATIONS with a whole number"),
    (["--agent", "Xx=random"], "'Xx' is not a player here (X, O)"),
    (["--resume"], "--resume needs the results file"),
    (["--jobs", "0"], "--jobs 0: at least one job"),
    (["--games", "0"], "--games 0: play at least one game"),
    (["--dask", "tcp://127.0.0.1:1", "--jobs", "2"], "a Dask cluster has its own workers"),
    (["--json", "no/such/folder/r.json"], "no folder no/such/folder to write into"),
])
def test_bad_input_is_a_message_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, "simulate", BUNDLED["tictactoe"], "--games", "5", *argv)
    assert code == 2 and message in err and out == ""


def test_missing_file_and_bad_player_count(capsys, tmp_path):
    code, _, err = run(capsys, "simulate", tmp_path / "nope.rules")
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, "simulate", BUNDLED["tictactoe"], "--players", "3")
    assert code == 1 and "not 3" in err and "Traceback" not in err


def test_report_folder_has_the_page_and_the_plots(tmp_path, capsys):
    folder = tmp_path / "rep"
    code, out, _ = run(capsys, "simulate", BUNDLED["pig"], "--games", "30", "--report", folder, "--jobs", "1",
                       "-q", "--agent", "Ann=first")
    assert code == 0 and f"{folder / 'index.html'}: written" in out
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["firings.png", "games.jsonl", "index.html", "lengths.png", "report.json",
                     "scores.png", "win-rates.png"]
    for png in folder.glob("*.png"):
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000
    page = (folder / "index.html").read_text()
    for text in ("Pig: 30 simulated games", "win-rates.png", "Ann: first", "PIG-1", "95% interval"):
        assert text in page
    rep = json.loads((folder / "report.json").read_text())
    assert rep["games"] == 30 and rep["settings"]["agents"]["Ann"] == "first"


def test_timing_figures_live_under_timing_only(tmp_path, capsys):
    out = tmp_path / "t.json"
    run(capsys, "simulate", BUNDLED["tictactoe"], "--games", "20", "--json", out, "--jobs", "1", "-q")
    rep = json.loads(out.read_text())
    assert set(rep["timing"]) >= {"seconds", "games_per_second", "backend", "workers", "played"}

    def keys(x: object) -> set[str]:
        if isinstance(x, dict):
            return set(x) | {k for v in x.values() for k in keys(v)}
        if isinstance(x, list):
            return {k for v in x for k in keys(v)}
        return set()

    assert not keys(without_timing(rep)) & {"seconds", "games_per_second", "backend", "workers", "played"}


def test_progress_bar_on_a_terminal_lines_elsewhere_nothing_when_quiet(tmp_path):
    class Tty:
        def __init__(self):
            self.text = ""

        def write(self, s):
            self.text += s

        def flush(self):
            pass

        def isatty(self):
            return True

    tty = Tty()
    bar = progress_for(tty, quiet=False)
    assert isinstance(bar, BarProgress)
    bar.start(10, 2)
    bar.advance(3)
    bar.close()
    assert "5/10" in tty.text and "game/s" in tty.text
    log = tmp_path / "log.txt"
    with open(log, "w") as fh:
        lines = progress_for(fh, quiet=False)
        assert isinstance(lines, LineProgress)
        lines.every = 0.0
        lines.start(4, 0)
        lines.advance(2)
        lines.close()
    text = log.read_text()
    assert "simulate: 2/4 games (50%)" in text and "games/s, about" in text and "\r" not in text
    assert type(progress_for(tty, quiet=True)) is Progress


def test_the_games_own_note_travels_with_its_results(tmp_path, capsys):
    """Root's note says its results depend on unverified values: whoever reads them must see it."""
    from regelwerk.cli import main

    out = tmp_path / "root.json"
    assert main(["simulate", str(BUNDLED["root"]), "--games", "2", "--jobs", "1", "-q", "--no-firings",
                 "--json", str(out)]) == 0
    text = capsys.readouterr().out
    note = json.loads(out.read_text(encoding="utf-8"))["note"]
    assert "unverified" in note and f"note (the rule authors', not the rulebook's): {note}" in text
    assert main(["run", str(BUNDLED["root"]), "--seed", "2"]) == 0
    assert "unverified building, crown and card values" in capsys.readouterr().out
    assert main(["simulate", str(BUNDLED["tictactoe"]), "--games", "2", "--jobs", "1", "-q",
                 "--json", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["note"] is None
