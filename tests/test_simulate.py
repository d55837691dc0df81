"""Simulation at scale (issue 12): the same report whatever the number of processes or the
hash seed, failures kept as findings, rule firings counted, rules shipped as texts."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from bundled import BUNDLED, ROOT
from regelwerk.interpreter.tools.simulate import PlaySettings, play_record

import regelwerk
from regelwerk.simulation import bundle_of, load_bundle, report_json, run_simulation, without_timing
from regelwerk.simulation.bundle import BundleError
from regelwerk.simulation.progress import Progress

RACE = ROOT / "tests" / "fixtures" / "sim" / "game" / "race.rules"


def same(a: dict, b: dict) -> bool:
    return report_json(without_timing(a)) == report_json(without_timing(b))


@pytest.fixture(scope="module")
def race() -> regelwerk.Ruleset:
    return regelwerk.load(RACE, root=RACE.parent.parent)  # it includes ../common/steps.rules


def test_one_and_two_jobs_give_the_same_report(race):
    """Workers are fresh interpreters loading the rules from their texts (an include from a
    sibling folder, a data file); games come back in any order, the report does not change."""
    settings = PlaySettings(players=3, seed=5, agents={"Ann": "mcts:8", "Cas": "first"})
    one = run_simulation(race, 90, settings, jobs=1)
    two = run_simulation(race, 90, settings, jobs=2, games_per_chunk=4)
    assert (one.report["timing"]["backend"], two.report["timing"]["backend"]) == ("in-process", "processes")
    assert same(one.report, two.report)
    rep = one.report
    assert rep["complete"] and rep["games"] == 90 and rep["finished"] + rep["failed"] == 90
    assert 0 < rep["failed"] < 40  # a six on the first roll of a game fails
    assert sum(rep["wins"].values()) + rep["draws"] == rep["finished"]
    assert rep["settings"]["agents"] == {"Ann": "mcts:8", "Bob": "random", "Cas": "first"}


class KillAWorker(Progress):
    """SIGKILLs one of this process's pool workers once the first games are back."""

    def __init__(self, after: int):
        self.after, self.done, self.killed = after, 0, None
        self.others = {p.pid for p in multiprocessing.active_children()}  # not the pool's

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self.done == self.after:
            victim = [p for p in multiprocessing.active_children() if p.pid not in self.others][0]
            self.killed = victim.pid
            os.kill(victim.pid, signal.SIGKILL)


def test_a_killed_local_worker_loses_no_game(race):
    """The pool breaks; a new one plays the games that were in flight."""
    settings = PlaySettings(players=2, seed=2, agents={"Ann": "mcts:20"})
    one = run_simulation(race, 40, settings, jobs=1)
    killer = KillAWorker(after=3)
    two = run_simulation(race, 40, settings, jobs=2, games_per_chunk=2, progress=killer)
    assert killer.killed is not None
    assert same(one.report, two.report)


def test_failures_are_findings_with_seed_place_and_moves(race):
    """A failing game does not stop the batch: it is a record with its seed, the located
    error and the moves that led to it, and replaying those moves fails the same way."""
    run = run_simulation(race, 40, PlaySettings(seed=0), jobs=1)
    rep = run.report
    f = rep["failures"][0]
    assert f["seed"] == f["game"] + 0 and f["type"] == "RuleFailure"
    assert f["at"] == "race.rules:24:9" and "IndexError" in f["error"]  # the statement that failed
    assert "moves" not in f  # kept in the game's record (the results file), not the report
    game = race.new_game(seed=f["seed"])
    with pytest.raises(regelwerk.RuleFailure, match="IndexError"):
        for move in run.records[f["game"]]["failure"]["moves"]:
            game.apply(move)
    assert rep["finished"] == 40 - rep["failed"] > 0


def test_rule_firings_count_every_kind_and_name_the_dead_ones(race):
    rep = run_simulation(race, 60, PlaySettings(seed=3), jobs=1).report
    fir = rep["firings"]
    assert fir["games"] == rep["finished"]
    assert fir["never_fired"] == ["action:teleport"]
    assert fir["specs_never_fired"] == ["RACE-NEVER"]
    rules = fir["rules"]
    # take_turn only hosts a `play`: it shows no step of its own, yet it ran in every game
    assert rules["procedure:take_turn"]["games"] == fir["games"]
    assert rules["procedure:take_turn"]["steps"] == 0
    # tidy runs every turn and changes nothing: only the rule keys the game opens show it
    assert rules["procedure:tidy"]["games"] == fir["games"] and rules["procedure:tidy"]["steps"] == 0
    assert rules["on:0"]["games"] == fir["games"] and rules["when:0"]["games"] > 0
    walks = rules["action:walk"]
    assert walks["decisions"] == walks["steps"] > 0 and walks["at"] == "race.rules:19:1"
    assert rules["procedure:advance"]["at"] == "../common/steps.rules:14:1"
    assert rep["firings"]["specs"]["RACE-WALK"]["steps"] == walks["steps"]
    plain = run_simulation(race, 60, PlaySettings(seed=3, firings=False), jobs=1).report
    assert plain["firings"] is None
    for key in ("wins", "draws", "length", "scores", "failed", "seats"):
        assert plain[key] == rep[key], key  # traced and untraced games play the same


def test_the_report_holds_the_balance_figures():
    khan = regelwerk.load(BUNDLED["khan"])
    rep = run_simulation(khan, 4, PlaySettings(players=3, seed=1), jobs=1).report
    assert rep["failed"] == 0 and set(rep["scores"]) == {"Red", "Yellow", "Blue"}
    s = rep["scores"]["Red"]
    assert s["min"] <= s["q1"] <= s["median"] <= s["q3"] <= s["max"] and s["n"] == 4
    assert [x["seat"] for x in rep["seats"]] == [1, 2, 3]
    assert sum(sum(x["players"].values()) for x in rep["seats"]) == 3 * 4
    for wr in rep["win_rate"].values():
        assert 0 <= wr["low"] <= wr["rate"] <= wr["high"] <= 1
    fp = rep["first_player"]
    assert fp["fair"] == pytest.approx(1 / 3, abs=1e-6) and fp["low"] <= fp["advantage"] <= fp["high"]
    assert rep["length"]["min"] > 50
    assert "action:divine_support_region" in rep["firings"]["never_fired"]  # only with 4 players
    assert set(rep["timing"]) >= {"seconds", "games_per_second", "backend", "workers"}


def test_the_same_report_under_any_hash_seed(tmp_path):
    """PYTHONHASHSEED must not matter: two CLI runs with different hash seeds (and different
    job counts) write the same JSON once `timing` is taken out."""
    outs = []
    for hashseed, jobs in (("1", "1"), ("2024", "2")):
        out = tmp_path / f"r{hashseed}.json"
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        proc = subprocess.run([sys.executable, "-m", "regelwerk.cli", "simulate", str(BUNDLED["pig"]),
                               "--games", "40", "--seed", "9", "--jobs", jobs, "--json", str(out), "-q",
                               "--agent", "Bob=mcts:5"],
                              env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outs.append(json.loads(out.read_text()))
    assert same(outs[0], outs[1])
    assert outs[0]["timing"]["workers"] == 1 and outs[1]["timing"]["workers"] == 2


def test_a_bundle_is_texts_and_loads_as_the_same_ruleset(race, tmp_path):
    b = bundle_of(race)
    assert b.main == "game/race.rules"
    assert set(b.files) == {"game/race.rules", "common/steps.rules", "game/data/steps.json"}
    again = load_bundle(b)
    assert again.hash == race.hash
    rec = play_record(again, 1, PlaySettings())
    assert rec == {**play_record(race, 1, PlaySettings()), "seconds": rec["seconds"],
                   "cpu_seconds": rec["cpu_seconds"]}
    forged = type(b)(b.main, {**b.files, "game/data/steps.json": "[1, 1, 1, 1, 1, 1]"}, b.hash)
    with pytest.raises(BundleError, match="hash"):
        load_bundle(forged)
    escape = type(b)(b.main, {**b.files, "../evil.rules": "x"}, b.hash)
    with pytest.raises(BundleError, match="leaves its folder"):
        load_bundle(escape)
    text = regelwerk.load_text(Path(BUNDLED["tictactoe"]).read_text(), "ttt.rules")
    assert load_bundle(bundle_of(text)).hash == text.hash
