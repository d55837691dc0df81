"""`the other player` (`CodeGen.OTHER_PLAYER`, codegen `the_other_player`): in a ruleset for
exactly two players, `all q in players where q != p: B` (either side of the `!=`, or `any`) works
`B` out once, for the player `p` is not, with no loop over the two, no filter and no flag; a
literal `p` names the other literal, so the comparisons of `B` with it fold. A ruleset for two
or more players, and a `p` that may be none, keep the loop. The same games, traces and saves
with the switch on and off (the small ruleset here and Root, whose `rules(p, c)` has it)."""

from __future__ import annotations

import pytest
from playing import chosen_and_same, compiled_with, source_with

LEAD = """game "Lead"
players Ann, Bob
board Square = grid 3 x 1
state
    men: Player -> Square -> int
    boss: Square -> Player? = none
    n: int = 0
define leads(p: Player, s: Square): bool = all q in players where q != p: men[q][s] < men[p][s]
define beaten(p: Player, s: Square): bool = any q in Player where p != q: men[q][s] > men[p][s]
define ann_leads(s: Square): bool = leads(Ann, s)
define fair(p: Player, s: Square): bool = men[p][s] >= 0 and (all q in players where q != p: men[q][s] < 5)
define boss_leads(s: Square): bool =
    boss[s] != none and (all q in players where q != boss[s]: men[q][s] <= 1)
action put(s: Square)
    "Put a man."
    require not beaten(current, s) or ann_leads(s) or boss_leads(s) or n % 3 == 0 else "no"
    require fair(current, s) or n > 6 else "unfair"
    add 1 to men[current][s]
    if leads(current, s)
        set boss[s] = current
    add 1 to n
    if n == 12
        finish draw
flow
    repeat
        turn
            play put
"""


def test_the_loop_over_the_two_is_gone() -> None:
    on = source_with("OTHER_PLAYER", True, "lead", LEAD)
    off = source_with("OTHER_PLAYER", False, "lead", LEAD)
    assert "'Bob' if p0 == 'Ann' else 'Ann'" in on  # `leads(p, s)`, `beaten(p, s)`: a local
    assert "for _a" in off and "G.player_list" in off
    # `leads(Ann, s)`: the other player is the literal, looked up as a fixed row
    assert "V['men']['Bob']" in on or "_sv0['Bob']" in on
    rules = compiled_with("OTHER_PLAYER", True, "lead", LEAD)
    chosen = [c.detail for c in rules.program(False).choices if c.kind == "the other player"]
    assert any("q != p" in d for d in chosen) and any("p != q" in d for d in chosen)
    assert not any("boss" in d for d in chosen)  # `boss[s]` is a `Player?`: may be none


def test_a_ruleset_for_two_or_three_keeps_the_loop() -> None:
    text = LEAD.replace("players Ann, Bob", "players 2..3 from Ann, Bob, Cy")
    rules = compiled_with("OTHER_PLAYER", True, "lead3", text)
    assert not any(c.kind == "the other player" for c in rules.program(False).choices)
    g = rules.new_game(players=3, seed=1)
    for _ in range(6):
        g.apply(g.legal_actions()[0])
    assert g.vars["men"]["Cy"]["a1"] >= 1 or g.vars["men"]["Cy"]  # a game of three plays on


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("OTHER_PLAYER", "the other player", "lead", LEAD, record, "root")


def test_as_a_test_it_is_its_body_with_no_flag() -> None:
    """`other tested` (`CodeGen.OTHER_TESTED`): where the quantifier is a test (`require`,
    an `and` of a definition's body), its body is tested as it is, failing straight away."""
    on = source_with("OTHER_TESTED", True, "lead", LEAD)
    off = source_with("OTHER_TESTED", False, "lead", LEAD)
    fair = [("\n" + src).split("< 5")[0].rsplit("\ndef ", 1)[1] for src in (on, off)]  # `fair(p, s)`
    assert "_r" not in fair[0] and "'Bob' if p0 == 'Ann' else 'Ann'" in fair[0]
    assert "_r" in fair[1]


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_tested_with_and_without(record: bool) -> None:
    chosen_and_same("OTHER_TESTED", "the other player", "lead", LEAD, record, "root")
