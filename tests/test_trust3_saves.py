"""Issue 22 §3 and §7: a save is checked against the rules, never taken on trust; moves and
scripts that cannot be meant are refused with a message that says what would be."""

from __future__ import annotations

import json
import random

import pytest

import regelwerk

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


def _at_choice(name: str = "examples/climb.rules", players: int = 2):
    rules = regelwerk.load(ROOT / "rulesets" / name)
    for seed in range(50):
        g = rules.new_game(players=players, seed=seed)
        pick = random.Random(seed)
        for _ in range(200):
            if g.is_over:
                break
            if g.pending["kind"] == "choose":
                return rules, g
            g.apply(pick.choice(g.legal_actions()))
    raise AssertionError("no choice reached")


@pytest.mark.parametrize(("field", "value", "says"), [
    ("options", [999, {"a": 1}, None], "does not follow from the rules"),
    ("options", [True], "does not follow from the rules"),
    ("player", "North", "does not follow from the rules"),
    ("var", "other", "the choice here is of 'agree'"),
    ("prompt", "take it?", "does not follow from the rules"),
])
def test_a_saved_choice_must_be_the_one_the_rules_ask(field, value, says):
    """A save whose pending `choose` of a bool listed [999, {"a": 1}, null] loaded, and `legal`
    offered choose(999): every field of a pending decision is worked out again from the rules."""
    rules, g = _at_choice()
    data = json.loads(json.dumps(g.to_json()))
    if field == "player" and data["pending"]["player"] == "North":
        value = "East"
    data["pending"][field] = value
    with pytest.raises(regelwerk.SaveError, match=says):
        rules.load_game(data)
    assert rules.load_game(json.loads(json.dumps(g.to_json()))).legal_actions() == g.legal_actions()


def test_a_saved_play_for_the_wrong_player_or_kind_is_refused():
    rules = regelwerk.load(ROOT / "rulesets" / "classic" / "tictactoe.rules")
    g = rules.new_game(seed=1)
    g.apply("place(b2)")
    data = g.to_json()
    wrong = {**data, "pending": {"kind": "play", "player": "X"}}
    with pytest.raises(regelwerk.SaveError, match="save.pending: does not follow from the rules"):
        rules.load_game(wrong)
    kind = {**data, "pending": {"kind": "choose", "player": "O", "var": "v", "options": [1], "prompt": None}}
    with pytest.raises(regelwerk.SaveError, match="not at a 'choose' decision"):
        rules.load_game(kind)


def test_frame_locals_of_the_wrong_type_and_foreign_digits_are_refused():
    rules, g = _at_choice()
    data = json.loads(json.dumps(g.to_json()))
    frame = next(f for f in data["frames"] if "q" in f[2] or "c" in f[2])
    name = "q" if "q" in frame[2] else "c"
    frame[2][name] = [1, 2] if name == "q" else "seven"
    with pytest.raises(regelwerk.SaveError, match=rf"save\.frames\[\d\]\[2\]\.{name}: "):
        rules.load_game(data)
    data = json.loads(json.dumps(g.to_json()))
    data["rng"] = "١٢٣"  # Arabic-Indic digits: Python's int() reads them
    with pytest.raises(regelwerk.SaveError, match="save.rng: expected the generator state as a decimal text"):
        rules.load_game(data)


def test_a_resumed_game_traces_the_same_steps_as_the_uninterrupted_one():
    """A write that changes nothing was recorded or skipped depending on whether the game came
    from a save: its locals were read back as raw JSON (a list for a set). They are read back by
    their checked types, so the resumed trace is the uninterrupted one, step for step."""
    text = ("players A, B\nenum C = x, y, z\nstate\n    pool: set C = [x]\n    n: int = 0\n"
            "action go(k in 1..2)\n    let s = pool\n    choose c in C \"pick\"\n    set pool = s\n    add k to n\n"
            "flow\n    repeat 3 times\n        turn\n            play go\n")
    rules = regelwerk.load_text(text, "t.rules")
    whole = rules.new_game(seed=1, record=True)
    whole.apply("go(1)")
    saved = rules.load_game(json.loads(json.dumps(whole.to_json())), record=True)
    for g in (whole, saved):
        g.apply("choose(y)")
        g.apply("go(2)")
    tail = whole.trace[-len(saved.trace):]
    assert [(s.get("rule"), s.get("changes")) for s in saved.trace] == [(s.get("rule"), s.get("changes")) for s in tail]


def test_an_action_made_of_anything_else_says_what_a_move_is():
    with pytest.raises(regelwerk.IllegalAction, match=r"not a move: Action\(None, \.\.\.\): the first part"):
        regelwerk.Action(None)
    with pytest.raises(regelwerk.IllegalAction, match=r"the arguments are a tuple, e.g. Action\('place', \('b2',\)\)"):
        regelwerk.Action("place", "b2")
    assert regelwerk.Action("place", ["b2"]) == regelwerk.Action("place", ("b2",))


def test_scripting_a_started_game_whose_start_drew_is_refused():
    kuhn = regelwerk.load(ROOT / "rulesets" / "examples" / "kuhn.rules")
    with pytest.raises(regelwerk.EngineError, match=r"new_game\(start=False\)"):
        kuhn.new_game(seed=1).script("shuffled", ["king", "jack", "queen"])
    g = kuhn.new_game(seed=1, start=False)
    g.script("shuffled", ["king", "jack", "queen"])
    g.start()
    assert g.vars["hand"] == {"Ann": "king", "Bob": "jack"}
    ttt = regelwerk.load(ROOT / "rulesets" / "classic" / "tictactoe.rules").new_game()
    ttt.script("random", 1)  # a start that drew nothing: a later draw may be scripted
