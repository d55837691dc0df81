"""Long tree walks (issue 27): `analyze` and `perft` report how far they are with an estimate of
what is left, stop on Ctrl-C with what they have, and `analyze` recognises positions that
differ only in a record of the past (interpreter/tools/liveness.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from fractions import Fraction
from pathlib import Path

import pytest
from regelwerk.interpreter.tools import analysis
from regelwerk.interpreter.tools.agents import count_games, perft
from regelwerk.interpreter.tools.liveness import history_only_vars
from terminal import cli_command

import regelwerk

ROOT = Path(__file__).resolve().parent.parent
GOOFSPIEL = ROOT / "rulesets" / "examples" / "goofspiel.rules"

RECORDS = """
game "Records"
players A, B
state
    n: int = 0
    log_of_n: list int = []
    seen_by_rule: list int = []
    fed: list int = []
    pool: list int = [1, 2]
    taken: list int = []
action step
    add 1 to n
    set log_of_n = log_of_n + [n]
    set seen_by_rule = seen_by_rule + [1]
    set fed = fed + [1]
    draw 1 from pool to taken
flow
    repeat 2 times
        turn
            play step
    if len(seen_by_rule) > 1
        finish winner A
    finish draw
"""


def test_history_only_variables_are_those_read_only_to_write_themselves():
    model = regelwerk.load_text(RECORDS, "records.rules").model
    # n feeds log_of_n; seen_by_rule decides the winner; pool's cards flow into taken
    assert history_only_vars(model) == {"log_of_n", "fed", "taken"}
    assert history_only_vars(regelwerk.load(GOOFSPIEL).model) == {"won"}
    for name in ("tictactoe", "connect4"):
        assert history_only_vars(regelwerk.load(ROOT / "rulesets" / "classic" / f"{name}.rules").model) == set()


@pytest.mark.parametrize("cards", [3, 4])
def test_leaving_out_the_record_of_the_past_changes_no_answer(cards, monkeypatch):
    r = regelwerk.load(GOOFSPIEL)
    lean = analysis.expected_outcome(r.new_game(options={"cards": cards}, chance="explicit"))
    monkeypatch.setattr(analysis, "history_only_vars", lambda _model: frozenset())
    full = analysis.expected_outcome(r.new_game(options={"cards": cards}, chance="explicit"))
    assert (lean.win, lean.draw, lean.score) == (full.win, full.draw, full.score)
    assert lean.positions < full.positions  # 238 against 271, 6,989 against 11,233


def test_progress_estimates_and_an_interrupted_analysis_bounds_the_answer():
    r = regelwerk.load(GOOFSPIEL)
    exact = analysis.expected_outcome(r.new_game(options={"cards": 4}, chance="explicit"))
    seen: list[analysis.Progress] = []

    def note(p: analysis.Progress) -> None:
        seen.append(p)
        if len(seen) == 40:
            raise KeyboardInterrupt  # what Ctrl-C does, at a known moment

    with pytest.raises(analysis.Interrupted) as stop:
        analysis.expected_outcome(r.new_game(options={"cards": 4}, chance="explicit"), on_progress=note, every=0)
    dones = [p.done for p in seen]
    assert dones == sorted(dones) and 0 < dones[-1] < 1
    assert all(p.estimate_left is None or p.estimate_left >= 0 for p in seen)
    part = stop.value.partial
    assert 0 < part.done < 1 and part.positions == seen[-1].positions
    for p in exact.players:  # the exact chance lies within the bounds it had
        assert part.win[p] - 1e-9 <= float(exact.win[p]) <= part.win[p] + (1 - part.done) + 1e-9
    assert part.draw - 1e-9 <= float(exact.draw) <= part.draw + (1 - part.done) + 1e-9
    assert "wins at least" in analysis.partial_text("Goofspiel", part)


def test_a_finished_analysis_worked_out_the_whole_tree():
    r = regelwerk.load(GOOFSPIEL)
    seen: list[analysis.Progress] = []
    out = analysis.expected_outcome(r.new_game(options={"cards": 3}, chance="explicit"),
                                    on_progress=seen.append, every=0)
    # with every=0, each position is reported once, as it is begun (counted once it is done)
    assert len(seen) == out.positions
    counts = [p.positions for p in seen]
    assert counts == sorted(counts) and counts[-1] < out.positions
    assert 0 < seen[-1].done < 1
    assert out.win == {"Ann": Fraction(13, 36), "Bob": Fraction(13, 36)}


def test_a_tree_far_past_the_limit_is_refused_by_its_estimate(monkeypatch):
    """13-card Goofspiel (about 1e28 positions) ran 7 min 25 s to the 2,000,000-position limit;
    the estimate says so within seconds. Here the warm-up is 0, so the first check refuses it."""
    r = regelwerk.load(GOOFSPIEL)
    monkeypatch.setattr(analysis, "WARM_UP", 0.0)
    start = time.monotonic()
    with pytest.raises(regelwerk.EngineError) as refused:
        analysis.expected_outcome(r.new_game(chance="explicit"))
    assert time.monotonic() - start < 60
    assert "positions by the estimate after" in str(refused.value)
    assert "more than 1,000 times the limit of 2,000,000: too large to work out exactly" in str(refused.value)


def test_the_estimate_a_refusal_relies_on_is_far_within_its_margin():
    """The refusal trusts the estimate to within HOPELESS (1000x). Once 1% of the tree is worked
    out (5-card Goofspiel is at 5.7% after the 10 s warm-up), the estimated size of a tree that
    fits is within 20x of its true size (5 cards: 3.7x after 5 s, 2.5x after 20 s)."""
    r = regelwerk.load(GOOFSPIEL)
    seen: list[analysis.Progress] = []
    out = analysis.expected_outcome(r.new_game(options={"cards": 4}, chance="explicit"),
                                    on_progress=seen.append, every=0)
    sizes = [p.positions + p.estimate_left for p in seen if p.done >= 0.01]
    assert sizes and max(sizes) <= 20 * out.positions < analysis.HOPELESS * out.positions


@pytest.mark.parametrize(("count", "branches", "depth"), [(perft, analysis.decision_branches, 5),
                                                          (count_games, analysis.decision_branches, 9)])
def test_counting_with_progress_counts_the_same(count, branches, depth):
    r = regelwerk.load(ROOT / "rulesets" / "classic" / "tictactoe.rules")
    seen: list[analysis.Progress] = []
    n = analysis.count_with_progress(r.new_game(), depth, count, branches, seen.append, every=0)
    assert n == count(r.new_game(), depth)
    assert abs(seen[-1].done - 1) < 1e-9 and seen[-1].positions == n


def test_an_interrupted_count_says_how_far_it_was():
    r = regelwerk.load(ROOT / "rulesets" / "classic" / "connect4.rules")
    calls = []

    def note(p: analysis.Progress) -> None:
        calls.append(p)
        if len(calls) == 10:
            raise KeyboardInterrupt

    with pytest.raises(analysis.CountInterrupted) as stop:
        analysis.count_with_progress(r.new_game(), 6, perft, analysis.decision_branches, note, every=0)
    assert stop.value.counted == calls[-1].positions and 0 < stop.value.done < 1


def test_ctrl_c_stops_analyze_with_the_bounds_it_has(tmp_path):
    """The command line: a long analysis shows progress lines on a pipe and, on SIGINT, prints
    the bounds known so far and exits 130."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    cmd = cli_command("analyze", str(GOOFSPIEL), "--option", "cards=6")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(7)  # past the first progress line (every 5 s on a pipe)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "analyze: " in err and "% of the tree" in err and "left" in err
    assert "interrupted after" in out and "wins at least" in out and "Traceback" not in err


def test_progress_says_huge_estimates_and_tiny_shares_readably():
    """13-card Goofspiel's first minutes: a share of the tree too small for one decimal and an
    estimate of what is left beyond any unit (it once read `14867305293098233856.0G left`)."""
    from regelwerk.tree_progress import describe

    early = analysis.Progress(positions=1_900_000, done=1.3e-22, seconds=515.0)
    assert early.estimate_left > 10**27
    assert describe(early) == "under 0.1% of the tree, 1.9M positions, about 1.5e28 left"
    later = analysis.Progress(positions=1_234_567, done=0.412, seconds=5.0)
    assert describe(later) == "41.2% of the tree, 1.2M positions, about 1.8M left"
    assert describe(analysis.Progress(positions=12, done=0.0, seconds=0.0)) == \
        "0.0% of the tree, 12 positions, about ? left"
