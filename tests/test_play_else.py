"""`play a, b else STATEMENT` (docs/language.md §6.4): what happens when nothing is legal,
with the moves listed once (no `possible` before the `play`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from regelwerk.dsl.printer import print_module
from regelwerk.dsl.sources import parse_text

import regelwerk
from regelwerk import RulesError

CHECKERS = Path(__file__).resolve().parent.parent / "rulesets/classic/checkers.rules"

# Each player takes 1 or 2 stones; who cannot take loses. `give_up` is a procedure with a
# decision of its own, reached from the `else`.
NIM = """players A, B

state
    stones: int = 5
    said: Player -> text = ""

action take(n in 1..2)
    require n <= stones else "not that many stones left"
    remove n from stones

procedure give_up
    choose word in ["ok", "pity"] "what do you say?"
    set said[current] = word

flow
    repeat
        turn
            play take else do give_up
            if said[current] != ""
                finish winner other(current)
"""


def _play_out(rules: regelwerk.Ruleset, seed: int, record: bool) -> regelwerk.Game:
    g = rules.new_game(seed=seed, record=record)
    rnd = random.Random(seed)
    while not g.is_over:
        g.apply(rnd.choice(g.legal_actions()))
    return g


def test_the_player_who_cannot_take_runs_the_else_and_loses():
    rules = regelwerk.load_text(NIM, "nim.rules")
    g = rules.new_game()
    for move in ("take(2)", "take(2)", "take(1)"):  # A, B, A: no stones left for B
        g.apply(move)
    assert g.pending["kind"] == "choose" and g.decision_player() == "B"
    g.apply(g.legal_actions()[1])
    assert g.vars["said"]["B"] == "pity" and g.winners == ["A"]


def test_a_move_goes_on_past_the_else():
    g = regelwerk.load_text(NIM, "nim.rules").new_game()
    g.apply("take(1)")
    assert g.vars["said"] == {"A": "", "B": ""} and g.decision_player() == "B"


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000))
def test_traced_and_untraced_play_alike_and_a_save_loads_alike(seed):
    rules = regelwerk.load_text(NIM, "nim.rules")
    untraced, traced = _play_out(rules, seed, False), _play_out(rules, seed, True)
    assert (untraced.vars, untraced.result) == (traced.vars, traced.result)
    assert any("no legal action" in str(e) for s in traced.trace for e in s.get("events", []))
    back = rules.load_game(traced.to_json(), record=True)
    assert (back.vars, back.result) == (traced.vars, traced.result)


def test_break_out_of_a_loop_from_the_else():
    text = NIM.replace("play take else do give_up", "play take else break").replace(
        "            if said[current] != \"\"\n                finish winner other(current)\n",
        "    finish winner other(current)\n")
    g = regelwerk.load_text(text, "nim.rules").new_game()
    for move in ("take(2)", "take(2)", "take(1)"):
        g.apply(move)
    assert g.winners == ["A"]  # B could not take: the loop ended in B's turn, B the current player


def test_checker_and_formatter():
    with pytest.raises(RulesError) as err:
        regelwerk.load_text(NIM.replace("play take else", "play optional take else"), "nim.rules")
    assert [d.code for d in err.value.diagnostics] == ["E311"]
    with pytest.raises(RulesError) as err:
        regelwerk.load_text(NIM.replace("else do give_up", "else do nothing_here"), "nim.rules")
    assert "nothing_here" in str(err.value)
    text = print_module(parse_text(NIM, "nim.rules"), NIM)
    assert "            play take else do give_up\n" in text
    assert regelwerk.load_text(text, "nim.rules").new_game().legal_actions()


def test_checkers_plays_its_perft_with_the_else():
    from regelwerk.interpreter.tools.agents import perft

    r = regelwerk.load(CHECKERS)
    assert "else finish winner other(current)" in CHECKERS.read_text()
    assert [perft(r.new_game(), d) for d in (1, 2, 3, 4)] == [7, 49, 302, 1469]
