"""Saves: version-1 saves (made before the compiler's middle was redesigned) still load, are
upgraded to version 2 and continue exactly as the old engine continued them; bad saves are
refused with the JSON path of the bad field."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest
from regelwerk.interpreter.engine.moves import Action
from regelwerk.interpreter.engine.saves import SAVE_VERSION

import regelwerk
from regelwerk import SaveError

V1 = Path(__file__).parent / "fixtures" / "saves_v1"
CASES = json.loads((V1 / "cases.json").read_text(encoding="utf-8"))


def _digest(g) -> str:
    d = g.to_json()
    return hashlib.sha256(json.dumps({k: d[k] for k in ("vars", "current", "phase", "result", "round")},
                                     sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize("fname", sorted(CASES))
def test_version_1_saves_continue_as_they_did(fname):
    rules = regelwerk.load(V1 / fname)
    assert CASES[fname], "fixtures hold cases"
    for case in CASES[fname]:
        save = case["save"]
        assert save["version"] == 1
        g = rules.load_game(copy.deepcopy(save))
        upgraded = g.to_json()
        assert upgraded["version"] == SAVE_VERSION
        for name, args in case["moves"]:
            g.apply(Action(name, tuple(args)))
        assert _digest(g) == case["after"], f"{fname}: a version-1 save went on differently"
        assert g.result == case["result"]
        # and the upgraded save loads as version 2
        h = rules.load_game(json.loads(json.dumps(upgraded)))
        for name, args in case["moves"]:
            h.apply(Action(name, tuple(args)))
        assert _digest(h) == case["after"]


def test_version_1_slots_become_version_2_slots():
    rules = regelwerk.load(V1 / "climb.rules")
    case = next(c for c in CASES["climb.rules"] if len(c["save"]["frames"]) == 2)
    flow = case["save"]["frames"][0]
    assert sorted(flow[2]) == ["_h80", "_n82", "_p81"]
    g = rules.load_game(copy.deepcopy(case["save"]))
    slots = g.to_json()["frames"][0][2]
    assert all(k.startswith("#") for k in slots), slots
    # the phase and count slots carry over; the rotating turn's (_p81) is no longer kept
    assert sorted(slots.values(), key=str) == sorted([flow[2]["_h80"], flow[2]["_n82"]], key=str)


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d.update(version=True), "save.version: True is not a save version"),
    (lambda d: d.update(version=0), "save.version: 0 is not a save version"),
    (lambda d: d.update(version="1"), "save.version: '1' is not a save version"),
    (lambda d: d.update(version=99), "save.version: 99 is newer"),
    (lambda d: d.update(rng="x"), "save.rng: expected the generator state"),
    (lambda d: d.update(rng=str(2**64)), "save.rng: expected the generator state"),
    (lambda d: d.update(current="Nobody"), "save.current: 'Nobody' is not a player"),
    (lambda d: d.update(phase="winter"), "save.phase: 'winter' is not a phase"),
    (lambda d: d["frames"][0].__setitem__(1, 99), "save.frames[0][1]: no op 99"),
    (lambda d: d["frames"][0].__setitem__(3, "action:place"), "save.frames[0][3]: block 0 belongs to 'flow'"),
    (lambda d: d.update(pending=None), "save.pending: a game in progress waits for a decision"),
    (lambda d: d.update(pending={"kind": "choose", "player": "X", "var": "v", "options": [1]}),
     "save.frames: the top frame is not at a 'choose' decision"),
    (lambda d: d.update(trig_last=[True]), "save.trig_last: expected 0 true/false values"),
    (lambda d: d.update(scripted={"dice": [1]}), "save.scripted.dice: not a chance device"),
    (lambda d: d["vars"].update(cell={"a1": "Q"}), "save.vars.cell.a1: 'Q' is not a Player"),
    (lambda d: d.pop("step_no"), "save.step_no: missing"),
    (lambda d: d.update(frames=[]), "save.frames: expected a non-empty list of frames"),  # in progress
    (lambda d: d.update(frames={}), "save.frames: expected a non-empty list of frames"),
])
def test_bad_saves_name_the_field(edit, message):
    rules = regelwerk.load(Path(__file__).parent.parent / "rulesets" / "classic" / "tictactoe.rules")
    g = rules.new_game(seed=1)
    g.apply("place(b2)")
    data = json.loads(json.dumps(g.to_json()))
    edit(data)
    with pytest.raises(SaveError) as err:
        rules.load_game(data)
    assert message in err.value.message


def test_a_missing_or_bad_slot_is_named():
    """climb's main phase keeps the phase it interrupted and the plays left in the turn."""
    rules = regelwerk.load(Path(__file__).parent.parent / "rulesets" / "examples" / "climb.rules")
    data = json.loads(json.dumps(rules.new_game(players=2, seed=1).to_json()))
    local = data["frames"][0][2]
    assert len(local) == 2, local  # a phase slot and a count slot; the rotating turn keeps none
    name = sorted(local)[0]
    broken = copy.deepcopy(data)
    del broken["frames"][0][2][name]
    with pytest.raises(SaveError, match=rf"save.frames\[0\]\[2\].{name}: missing"):
        rules.load_game(broken)
    broken = copy.deepcopy(data)
    broken["frames"][0][2][name] = [1, 2, 3]
    with pytest.raises(SaveError, match="does not fit this slot"):
        rules.load_game(broken)


def test_a_frame_without_a_local_its_rule_reads_later_is_refused():
    """Khan's take_actions keeps `let before = actions_left` across the decision; a save whose
    frame lost it (or the procedure's parameter) is refused naming the field, not loaded to fail
    later with a KeyError."""
    rules = regelwerk.load(Path(__file__).parent.parent / "rulesets" / "khan" / "khan.rules")
    saved = rules.new_game(players=3, seed=1).to_json()
    assert saved["frames"][-1][2] == {"may_stop": False, "before": 2}
    for name in ("before", "may_stop"):
        broken = copy.deepcopy(saved)
        del broken["frames"][-1][2][name]
        with pytest.raises(SaveError, match=rf"frames\[2\]\[2\]\.{name}: missing: the rule reads it"):
            rules.load_game(broken)
    assert rules.load_game(saved).to_json() == saved


RUNS_OUT = """players Ann, Bob
state
    n: int = 0
action tick
    "Tick."
    add 1 to n
flow
    repeat 2 times
        turn Ann
            play tick
"""


def test_a_game_whose_flow_ran_to_its_end_saves_and_loads():
    """The flow's last frame is gone when it runs to its end (a draw): such a save was refused
    as having no frames."""
    rules = regelwerk.load_text(RUNS_OUT, "runs_out.rules")
    g = rules.new_game()
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    again = rules.load_game(json.loads(json.dumps(g.to_json())))
    assert (again.is_over, again.result, again.vars["n"], again.legal_actions()) == (True, g.result, 2, [])
