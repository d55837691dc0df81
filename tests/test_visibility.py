"""The visibility module (interpreter/observe/visibility.py), case by case: each way hidden state
could reach a player, and the outputs that go through it (issue 10 §1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from regelwerk.interpreter.observe.visibility import HIDDEN, observer
from regelwerk.interpreter.tools.trace import (
    filter_for,
    filter_step,
    read_trace,
    render,
    write_trace,
)

import regelwerk
from regelwerk.cli import main

ROOT = Path(__file__).resolve().parent.parent
CLIMB = ROOT / "rulesets" / "examples" / "climb.rules"
CANARY = Path(__file__).resolve().parent / "fixtures" / "visibility" / "canary.rules"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def climb_trace(tmp_path_factory) -> Path:
    """The game of the issue: climb, 2 players, seed 0 (random agent)."""
    path = tmp_path_factory.mktemp("climb") / "t.jsonl"
    assert main(["run", str(CLIMB), "--players", "2", "--seed", "0", "--trace", str(path)]) == 0
    return path


def east_hands(path: Path) -> list[list[int]]:
    """Every value East's hand took during the game (from the unfiltered trace)."""
    out = []
    for step in read_trace(path)[1:]:
        for c in step.get("changes", []):
            if c["path"] == "hand[East]":
                out.append(c["new"])
    return [h for h in out if h]


@pytest.mark.parametrize("with_rules", [True, False])
def test_the_issues_leak_is_closed(capsys, climb_trace, with_rules):
    """North's filtered trace showed `hand[q] = [4, 5, 9, 6], q = East`."""
    args = ["trace", "show", climb_trace, "--player", "North"] + (["--rules", CLIMB] if with_rules else [])
    code, out, _ = run(capsys, *args)
    assert code == 0
    assert "hand[q] = (hidden)" in out
    for hand in east_hands(climb_trace):
        assert f"hand[q] = {hand}".replace("'", "") not in out.replace("'", "")
        assert json.dumps(hand).replace('"', "") not in out
    assert "seed hidden" in out and "as seen by North" in out
    code, full, _ = run(capsys, "trace", "show", climb_trace)
    assert "hand[q] = [" in full and "seed 0" in full  # the designer's view keeps everything


def test_filter_step_masks_checks_and_bindings():
    model = regelwerk.load(CLIMB).model
    step = {"step": 3, "rule": "swap", "kind": "action", "player": "East", "phase": "main",
            "bindings": {"c": 9}, "decision": {"kind": "action", "by": "East", "action": "swap(9)"},
            "checks": [{"require": "hand[q] != []", "at": "50:5", "message": None, "value": True,
                        "values": {"hand[q]": [10, 2, 3], "q": "North", "hand[q] != []": True}},
                       {"require": "not shielded[q]", "at": "49:5", "message": None, "value": True,
                        "values": {"q": "North", "shielded[q]": False}}],
            "changes": [], "chance": [], "events": []}
    north = filter_step(step, "North", model)
    assert north["bindings"] == {"c": HIDDEN}  # a card from East's hidden hand
    assert north["decision"]["action"] == "swap(?)"
    assert north["checks"][0]["values"] == {"hand[q]": [10, 2, 3], "q": "North", "hand[q] != []": True}
    assert north["checks"][1]["values"] == {"q": "North", "shielded[q]": False}
    south = filter_step(step, "South", model)
    assert south["checks"][0]["values"]["hand[q]"] == HIDDEN  # not South's own hand
    assert south["checks"][0]["values"]["hand[q] != []"] is True  # but its size is public (issue 22)
    east = filter_step(step, "East", model)
    assert east["bindings"] == {"c": 9} and east["decision"]["action"] == "swap(9)"
    assert east["checks"][0]["values"]["hand[q]"] == HIDDEN  # North's hand, although East decided
    blind = filter_step(step, "North")  # without the rules: everything that might be secret
    assert blind["bindings"] == {"c": HIDDEN}
    assert set(blind["checks"][1]["values"].values()) == {HIDDEN}


def test_view_is_decided_by_the_module_and_hides_the_options_of_others():
    rules = regelwerk.load(CLIMB)
    game = rules.new_game(players=2, seed=3)
    game.apply("swap(" + str(game.vars["hand"]["North"][0]) + ")")
    assert game.pending["kind"] == "choose" and game.pending["player"] == "East"
    north, east = game.view("North"), game.view("East")
    assert north == observer(rules.model, "North").view(game)
    assert north["vars"]["hand"]["East"] == {"hidden": 4} and north["vars"]["deck"] == {"hidden": 16}
    assert east["pending"]["options"] == [True, False]
    assert north["pending"] == {"kind": "choose", "player": "East", "var": "agree", "prompt": "accept the swap?",
                                "options": [True, False]}  # a public choice
    assert "seed" not in json.dumps(north)


def test_a_secret_choice_shows_its_options_only_to_the_chooser():
    rules = regelwerk.load(CANARY)
    game = rules.new_game(players=2, seed=1)
    game.apply("give")
    assert game.pending["var"] == "c"
    ann = observer(rules.model, "Ann").pending(game)
    bob = observer(rules.model, "Bob").pending(game)
    assert ann["options"] == sorted(game.vars["hand"]["Ann"], key=list(rules.model.enums["Card"].members).index)
    assert bob["options"] == {"hidden": 3}
    assert observer(rules.model, "Bob").legal(game) is None


def test_explain_answers_the_decider_only_and_masks_what_they_cannot_see(capsys, tmp_path):
    rules = regelwerk.load(CLIMB)
    game = rules.new_game(players=2, seed=3)
    mine = game.vars["hand"]["North"][0]
    save = tmp_path / "s.json"
    save.write_text(json.dumps(game.to_json()), encoding="utf-8")
    code, out, _ = run(capsys, "explain", CLIMB, "--state", save, f"swap({mine})")
    assert code == 0 and "hand[q] = \"hidden\"" in out and "q = \"East\"" in out
    for card in game.vars["hand"]["East"]:
        assert f"{card}," not in out.split("\n", 1)[1] and f"[{card}" not in out
    code, out, _ = run(capsys, "explain", CLIMB, "--state", save, f"swap({mine})", "--all")
    assert json.dumps(game.vars["hand"]["East"]) in out.replace('"', "")
    code, out, _ = run(capsys, "explain", CLIMB, "--state", save, "lay(5)", "--player", "East")
    assert code == 1 and "North decides now: only they may ask about their moves" in out


def test_messages_mask_values_that_stand_only_in_hidden_state():
    rules = regelwerk.load(CANARY)
    game = rules.new_game(players=2, seed=2)
    bob = game.vars["hand"]["Bob"]
    mine = game.vars["hand"]["Ann"]
    text = f"cannot remove {bob[0]}: it is not there (canary.rules:42:5); you hold {mine[0]}"
    shown = observer(rules.model, "Ann").message(text, game)
    assert bob[0] not in shown and mine[0] in shown and "canary.rules:42:5" in shown
    assert observer(rules.model, "Bob").message(text, game) == text.replace(mine[0], "?")


def test_whole_map_writes_are_marked_and_masked_per_entry():
    text = ("players A, B\nstate\n    hand: Player -> list int = [] hidden except owner\n"
            "action deal\n    set hand = {A: [1, 2], B: [3, 4]}\n"
            "flow\n    repeat\n        turn\n            play deal\n")
    rules = regelwerk.load_text(text, "w.rules")
    game = rules.new_game(record=True)
    game.apply("deal")
    step = next(s for s in game.trace if any(c["path"] == "hand" for c in s.get("changes", [])))
    change = next(c for c in step["changes"] if c["path"] == "hand")
    assert change.get("per_owner") is True
    for model in (rules.model, None):
        ch = next(c for c in filter_step(step, "A", model)["changes"] if c["path"] == "hand")
        assert ch["new"] == {"A": [1, 2], "B": {"hidden": 2}}


def test_logs_and_reasons_under_a_secret_condition_are_masked():
    text = ("players A, B\nstate\n    hand: Player -> list int = [] hidden except owner\n    n: int = 0\n"
            "action deal\n    add 7 to hand[current]\n    log \"dealt\"\n"
            "action check\n    if 7 in hand[other(current)]\n        log \"they hold a seven\"\n"
            "    if n > 5\n        log \"many\"\n"
            "action try(k in hand[current])\n    if k == 7\n        abandon \"not the seven\"\n    set n = k\n"
            "flow\n    repeat\n        turn\n            play deal, check, try\n")
    rules = regelwerk.load_text(text, "log.rules")
    seen = observer(rules.model, "B")
    steps = {"step": 0, "rule": "check", "kind": "action", "player": "A", "bindings": {}, "checks": [],
             "changes": [], "chance": [], "decision": {"kind": "action", "by": "A", "action": "check"},
             "events": [{"event": "log", "message": "they hold a seven"}, {"event": "log", "message": "dealt"}]}
    assert [e["message"] for e in seen.step(steps)["events"]] == [HIDDEN, "dealt"]
    taken_back = {"step": 1, "rule": "try", "kind": "action", "player": "A", "bindings": {}, "checks": [],
                  "changes": [], "chance": [], "decision": {"kind": "abandoned", "by": "A", "action": "try(7)"},
                  "events": [{"event": "abandoned", "reason": "not the seven"}]}
    out = seen.step(taken_back)
    assert out["decision"]["action"] == "try(?)" and out["events"][0]["reason"] == HIDDEN
    assert observer(rules.model, "A").step(taken_back)["decision"]["action"] == "try(7)"


def test_writes_into_a_hidden_map_hide_which_key_changed():
    model = regelwerk.load(CANARY).model
    step = {"step": 0, "rule": "deal", "kind": "procedure", "player": "Ann", "bindings": {}, "checks": [],
            "chance": [], "events": [], "decision": None, "automatic": True,
            "changes": [{"path": "holder[agate]", "old": None, "new": "Bob", "hidden": True,
                         "keys": ["holder", "agate"]},
                        {"path": "known[Bob]", "old": [], "new": ["beryl"], "owner": "Bob"}]}
    out = observer(model, "Ann").step(step)["changes"]
    assert out[0]["path"] == "holder[?]" and out[0]["keys"] == ["holder", "?"] and out[0]["new"] == HIDDEN
    assert out[1]["path"] == "known[Bob]" and out[1]["new"] == {"hidden": 1}


def test_random_outcomes_that_went_into_hidden_state_are_masked():
    model = regelwerk.load(CANARY).model
    step = {"step": 0, "rule": "steal", "kind": "action", "player": "Ann", "bindings": {"agree": True},
            "checks": [], "events": [], "automatic": False,
            "decision": {"kind": "choose", "by": "Bob", "action": "choose(true)"},
            "chance": [{"kind": "random", "what": "1 of 3", "outcome": "coral"}, {"kind": "roll", "what": "1d6",
                                                                                 "outcome": [4]}],
            "changes": [{"path": "hand[Bob]", "old": ["coral"], "new": [], "owner": "Bob"},
                        {"path": "hand[Ann]", "old": [], "new": ["coral"], "owner": "Ann"}]}
    cid = observer(model, "Cid").step(step)
    assert cid["chance"][0]["outcome"] == HIDDEN and cid["chance"][1]["outcome"] == [4]
    assert "coral" not in json.dumps(cid)


def test_filtered_trace_header_has_no_seed(tmp_path):
    rules = regelwerk.load(CANARY)
    game = rules.new_game(players=2, seed=9, record=True)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    path = tmp_path / "t.jsonl"
    write_trace(game, path)
    lines = filter_for(read_trace(path), "Bob", rules.model)
    assert lines[0]["seed"] is None and lines[0]["viewer"] == "Bob"
    assert render(lines).splitlines()[0].endswith("seed hidden · as seen by Bob")


def test_play_draws_hidden_layers_empty(capsys, monkeypatch, tmp_path):
    text = ("players X, O\nboard Square = grid 3 x 3\nstate\n    mine: Square -> bool = false hidden\n"
            "    cell: Square -> Player? = none\n"
            "procedure arm\n    set mine[b2] = true\n"
            "action place(s: Square)\n    require cell[s] == none\n    set cell[s] = current\n"
            "flow\n    do arm\n    repeat\n        turn\n            play place\n")
    (tmp_path / "m.rules").write_text(text, encoding="utf-8")
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    code, out, _ = run(capsys, "play", tmp_path / "m.rules")
    assert code == 0 and "mine:" in out and "cell:" in out
    assert "True" not in out  # the mine on b2 is not drawn
