"""`choose in place` (interpreter/compiler/machine.py `_op_choose`, CodeGen.CHOOSE_IN_PLACE):
in an untraced game, apply() hands a choice it offered to the block that asked it, which binds
the option and goes on, as it does with a move played in place; before, the choice went
through `_play_checked`, `_take` and `_run` and the block was entered again. The same games
with the switch on and off; traced programs and programs that can `abandon` take no choice in
place. And `choice moves listed` (machine.py `choice_table`, CodeGen.CHOICE_MOVES_LISTED): a
choice among values of a finite type lists its moves with its options, the program's own
moves for them (`Program.choice_moves`, which `game._choice_moves` hands out too)."""

from __future__ import annotations

import json
import random
import re

import pytest
from playing import (
    chosen_and_same,
    compiled_with,
    same_with_and_without,
    source_with,
    with_undo_and_clone,
)

import regelwerk

# choices in the flow (one per round, in a loop), with `where` and by another player, in a
# procedure, in a trigger's body, and one whose options are lists
CHOICES = """players A, B

enum Colour = red, green, blue

state
    total: Player -> int = 0
    said: Player -> text = ""
    back: int = 0
    kept: list int = []
    last: Player -> Colour? = none
    bank: Player -> list Colour = []
    judge: Player? = none
    again: bool = false

action take(n in 1..3)
    require n + total[current] <= 30 else "too many"
    add n to total[current]

procedure pick_word
    choose word in ["ok", "pity", "fine"] where word != said[current] "what do you say?"
    set said[current] = word

when total[A] > 12 and back == 0
    "Once A is past twelve, B sends some back."
    choose k in [1, 2] by B "how many back?"
    set back = k
    remove k from total[A]

flow
    repeat 6 times
        turn
            choose k in 1..3 where k != total[current] % 3 "how many first?"
            add k to total[current]
            play take
            do pick_word
            choose pair in [[1, 2], [3]] by other(current) "which pair?"
            set kept = pair
            choose c in Colour where c != last[current] "which colour?"
            set last[current] = c
            add c to bank[current]
            choose b in bank[current] "which from the bank?"
            set last[other(current)] = b
            choose j in [none, current, other(current)] "who judges?"
            set judge = j
            choose yes in [true, false] where yes or total[current] > 3 "again?"
            set again = yes
    finish draw
"""

ABANDONS = """players A, B

state
    n: int = 0

action step
    add 1 to n
    choose yes in [true, false] by other(current) "let it stand?"
    if not yes
        abandon "the other player said no"

flow
    repeat 4 times
        turn
            play step
    finish draw
"""


def test_the_block_binds_the_choice_it_asked() -> None:
    on = compiled_with("CHOOSE_IN_PLACE", True, "choices", CHOICES)
    prog = on.program(False)
    assert {c.detail for c in prog.choices if c.kind == "choose in place"} >= \
        {"choose k", "choose word", "choose pair"}
    assert "L['word'] = m[1][0]" in source_with("CHOOSE_IN_PLACE", True, "choices", CHOICES)
    assert "choose" in prog.plain
    traced = on.program(True)  # traced, apply() hands it over itself (`Game._take_choice`)
    assert "choose" not in traced.plain and traced.takes_choices
    assert any(c.kind == "choose in place" for c in traced.choices)
    assert on.new_game(record=True)._choices and not on.new_game()._choices
    off = compiled_with("CHOOSE_IN_PLACE", False, "choices", CHOICES).program(False)
    assert "L['word'] = m[1][0]" not in source_with("CHOOSE_IN_PLACE", False, "choices", CHOICES)
    assert "choose" not in off.plain


def test_a_program_that_can_abandon_takes_its_choices_the_long_way() -> None:
    rules = regelwerk.load_text(ABANDONS, "abandons.rules")
    prog = rules.program(False)
    assert "choose" not in prog.plain and all(c.kind != "choose in place" for c in prog.choices)
    g = rules.new_game(seed=1)
    g.apply("step")
    no = next(m for m in g.legal_actions() if m.args == (False,))  # the offered move itself
    g.apply(no)  # taken back: A's only move is gone, so A's play is skipped
    assert g.vars["n"] == 0 and g.pending == {"kind": "play", "player": "B"}


def test_the_same_games_with_and_without() -> None:
    chosen_and_same("CHOOSE_IN_PLACE", "choose in place", "choices", CHOICES, False, "root")


def test_traced_games_are_unchanged() -> None:
    same_with_and_without("CHOOSE_IN_PLACE", True, {"choices": CHOICES}, bundled="root")


def test_traced_choices_taken_back_and_cloned() -> None:
    """Undo plays a choice again from its note; a clone goes on where its original was."""
    out = []
    for on in (True, False):
        rules = compiled_with("CHOOSE_IN_PLACE", on, "choices", CHOICES)
        g = rules.new_game(seed=5, record=True)
        rnd = random.Random(5)
        n = 0
        while not g.is_over and n < 300:
            n += 1
            g.apply(rnd.choice(g.legal_actions()))
            g = with_undo_and_clone(g, n, 7)
        out.append(json.dumps([g.result, g.trace, g.vars, g.step_no], default=str, sort_keys=True))
    assert out[0] == out[1]


@pytest.mark.parametrize("on", [True, False])
def test_a_choice_named_anew_or_as_text_is_taken(on: bool) -> None:
    """A choice not taken from `legal_actions()` (its text, or a move made anew) goes the long
    way, checked; one taken from it goes in place: the same game either way."""
    rules = compiled_with("CHOOSE_IN_PLACE", on, "choices", CHOICES)
    games = []
    for how in ("offered", "text", "anew"):
        g = rules.new_game(seed=3)
        rnd = random.Random(3)
        while not g.is_over:
            m = rnd.choice(g.legal_actions())
            if g.pending["kind"] == "choose" and how == "text":
                g.apply(str(m))
            elif g.pending["kind"] == "choose" and how == "anew":
                g.apply(regelwerk.Action("choose", tuple(m.args)))
            else:
                g.apply(m)
        games.append((g.result, g.vars["total"], g.vars["said"], g.vars["kept"], g.step_no))
    assert games[0] == games[1] == games[2]
    with pytest.raises(regelwerk.IllegalAction):
        g = rules.new_game(seed=3)
        g.apply("choose(0)")  # not one of the options


def test_playouts_are_the_same_with_and_without() -> None:
    for name, text in (("choices", CHOICES), ("root", None)):
        ends = []
        for on in (True, False):
            rules = compiled_with("CHOOSE_IN_PLACE", on, name, text)
            for seed in range(3):
                g = rules.new_game(seed=seed, players=2)
                made = g.playout(random.Random(seed))
                ends.append((on, seed, made, g.result, g.step_no))
        half = len(ends) // 2
        assert [e[1:] for e in ends[:half]] == [e[1:] for e in ends[half:]]


def test_choices_of_a_finite_type_list_their_moves() -> None:
    on = compiled_with("CHOICE_MOVES_LISTED", True, "choices", CHOICES)
    for record in (False, True):
        prog = on.program(record)
        assert {c.detail for c in prog.choices if c.kind == "choice moves listed"} == \
            {"choose c", "choose b", "choose j", "choose yes"}  # not ints, texts or lists
    assert "legal.append(_CM" in source_with("CHOICE_MOVES_LISTED", True, "choices", CHOICES)
    assert "legal.append(_CM" not in source_with("CHOICE_MOVES_LISTED", False, "choices", CHOICES)
    prog = on.program(False)
    g = on.new_game(seed=2)
    rnd = random.Random(2)
    seen = 0
    while not g.is_over:
        moves = g.legal_actions()
        if g.pending["kind"] == "choose":  # the moves of the options, in their order
            assert [m.args[0] for m in moves] == g.pending["options"]
            if type(g.pending["options"][0]) is str and g.pending["options"][0] in ("red", "green", "blue"):
                seen += 1  # the program's own moves: those `_choice_moves` hands out
                assert all(m is prog.choice_moves[str][m.args[0]] for m in moves)
        g.apply(rnd.choice(moves))
    assert seen


def test_the_same_games_with_and_without_listed_moves() -> None:
    chosen_and_same("CHOICE_MOVES_LISTED", "choice moves listed", "choices", CHOICES, False, "root")
    same_with_and_without("CHOICE_MOVES_LISTED", True, {"choices": CHOICES}, bundled="root")


@pytest.mark.parametrize("flag", ["CHOOSE_IN_PLACE", "CHOICE_MOVES_LISTED"])
@pytest.mark.parametrize("on", [True, False])
def test_each_choice_lists_its_options_once(flag: str, on: bool) -> None:
    """Every `choose` of Root (`one per` among them) works its options out once before asking."""
    source = source_with(flag, on, "root")
    chunks = source.split("if not opts:")[:-1]
    assert len(chunks) > 10
    for chunk in chunks:
        since = chunk.rsplit("G.pending = {'kind': 'choose'", 1)[-1]
        assert len(re.findall(r"^\s*opts = ", since, flags=re.M)) == 1, since[-600:]
