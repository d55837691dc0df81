"""E247 (dsl/check_hidden.py, issue 23 §5): a player's legal moves may depend only on what that
player sees. In a Leduc variant whose legality read the opponent's card, 584 of 936 information
states had two different sets of legal moves and OpenSpiel's CFR stopped with "action 0 (fold)
is not legal now"; such rules are now refused where they read the hidden value."""

from __future__ import annotations

from pathlib import Path

import pytest
from regelwerk.dsl.diagnostics import RulesError

import regelwerk

HEAD = """\
players Ann, Bob
enum Card = jack, queen, king
state
    hand: Player -> list Card = [] hidden except owner
    deck: list Card = [jack, queen, king] hidden
    secret: Card? = none hidden
    table: list Card = []
    n: int = 0
define holds(p: Player, c: Card): bool = c in hand[p]
define their_hand(p: Player) = hand[other(p)]
"""
FLOW = "flow\n    repeat 2 times\n        turn\n            play {actions}\n"


def errors(text: str) -> list[tuple[int, int, str]]:
    with pytest.raises(RulesError) as info:
        regelwerk.load_text(text, "t.rules")
    return [(d.span.line, d.span.column, d.code) for d in info.value.diagnostics if d.severity == "error"]


def clean(text: str) -> None:
    regelwerk.load_text(text, "t.rules")


def game(body: str, actions: str = "a") -> str:
    return HEAD + body + FLOW.format(actions=actions)


@pytest.mark.parametrize(("body", "where"), [
    ("action a(c: Card)\n    require c in hand[Bob]\n    add 1 to n\n", (12, 13)),
    ("action a(c: Card)\n    require c in hand[other(current)]\n    add 1 to n\n", (12, 13)),
    ("action a(c in deck)\n    add 1 to n\n", (11, 15)),
    ("action a(c: Card)\n    require holds(other(current), c)\n    add 1 to n\n", (12, 13)),
    ("action a(c: Card)\n    require c in their_hand(current)\n    add 1 to n\n", (12, 13)),
    ("action a(c: Card)\n    let t = top(deck)\n    require c != t\n    add 1 to n\n", (13, 13)),
    ("action a(c: Card)\n    require secret == c\n    add 1 to n\n", (12, 13)),
    ("action a\n    add 1 to n\n    choose c in hand[other(current)] \"which?\"\n    add c to table\n", (13, 17)),
    ("action a\n    let q = other(current)\n    choose c in hand[current] by q \"which?\"\n    add c to table\n",
     (13, 17)),
    ("action a\n    add 1 to n\n    if top(deck) == king\n        choose c in [jack, queen] \"which?\"\n"
     "        add c to table\n", (13, 8)),
])
def test_legality_that_reads_what_the_decider_cannot_see_is_refused(body, where):
    assert errors(game(body)) == [(*where, "E247")]


@pytest.mark.parametrize("body", [
    "action a(c in hand[current])\n    move c from hand[current] to table\n",
    "action a(c: Card)\n    require holds(current, c)\n    add 1 to n\n",
    "action a\n    require deck != [] and len(hand[other(current)]) < 3 and top(deck) != none\n    add 1 to n\n",
    "action a\n    add 1 to n\n    let q = other(current)\n    choose c in Card where c not in table by q \"which?\"\n",
    "action a\n    add 1 to n\n    let q = other(current)\n    choose c in hand[q] by q \"which?\"\n    add c to table\n",
    "action a\n    let c = top(deck)\n    add 1 to n\n",
])
def test_what_the_decider_sees_may_decide(body):
    clean(game(body))


def test_a_condition_seen_by_the_player_whose_turn_it_is_may_offer_a_move():
    text = HEAD + ("action a\n    add 1 to n\nflow\n    for p in players\n        if jack in hand[p]\n"
                   "            turn p\n                play a\n")
    clean(text)
    refused = HEAD + ("action a\n    add 1 to n\nflow\n    for p in players\n        if jack in hand[p]\n"
                      "            turn other(p)\n                play a\n")
    assert errors(refused) == [(15, 12, "E247")]


UMPIRE = HEAD + 'umpire "the umpire refuses a move that would take a card the other player holds"\n' + \
    "action a(c: Card)\n    require c not in hand[other(current)]\n    add c to table\n" + FLOW.format(actions="a")


def test_an_umpire_declared_allows_it_and_the_bridge_refuses_it(tmp_path):
    rules = regelwerk.load_text(UMPIRE, "umpire.rules")
    assert rules.model.umpire.reason.startswith("the umpire refuses")
    assert errors(UMPIRE.replace('umpire "', '# umpire "')) == [(13, 13, "E247")]
    pytest.importorskip("pyspiel")
    from regelwerk.openspiel import load_game

    path = tmp_path / "umpire.rules"
    path.write_text(UMPIRE, encoding="utf-8")
    with pytest.raises(ValueError, match="declares umpire .*differ between positions of one information state"):
        load_game(path)


def test_every_bundled_ruleset_checks_clean():
    root = Path(__file__).resolve().parent.parent
    for path in sorted((root / "rulesets").rglob("*.rules")):
        if path.name in ("khan.rules", "shogun.rules", "root.rules") or path.parent.name in ("classic", "examples"):
            regelwerk.load(path)
