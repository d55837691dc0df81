"""Imperfect information (issue 23): what a player cannot see never decides what they may do,
nor what an agent playing for them does.

Positions a player cannot tell apart are made with interpreter/observe/determinize.py (the cards they
have not seen dealt anew), over random games of every bundled ruleset with hidden state:
- they show that player the same view and offer them the same legal moves (the checker's E247
  keeps legality from reading hidden state);
- a determinisation reads nothing hidden: made from either position with the same generator
  state, it is the same position;
- MCTS for that player (information-set search, the default for hidden state) picks the same
  move from either, with the same seed; the search that peeks (`mcts-cheat`) may not.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled import HIDDEN
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from regelwerk.interpreter.observe.determinize import determinize
from regelwerk.interpreter.tools.agents import MCTSAgent, make_agent

import regelwerk

ROOT = Path(__file__).resolve().parent.parent
CANARY = ROOT / "tests" / "fixtures" / "visibility" / "canary.rules"
_RULES: dict[str, regelwerk.Ruleset] = {}
FEW = settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))


def rules(name: str) -> regelwerk.Ruleset:
    if name not in _RULES:
        _RULES[name] = regelwerk.load(CANARY if name == "canary" else ROOT / "rulesets" / name)
    return _RULES[name]


def a_position(name: str, seed: int, moves: int) -> regelwerk.Game | None:
    """A random game of `name` after up to `moves` random moves, at a decision."""
    players = HIDDEN.get(name, 3)
    game = rules(name).new_game(players=players, seed=seed)
    pick = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            return None
        game.apply(pick.choice(game.legal_actions()))
    return None if game.is_over else game


def moves_of(game: regelwerk.Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


CASES = st.tuples(st.sampled_from([*HIDDEN, "canary"]), st.integers(0, 10_000), st.integers(0, 60))


@FEW
@given(case=CASES, deal=st.integers(0, 2**32))
def test_positions_a_player_cannot_tell_apart_offer_the_same_moves(case, deal):
    game = a_position(*case)
    if game is None:
        return
    player = game.decision_player()
    other = determinize(game, player, random.Random(deal))
    assert other.view(player) == game.view(player)
    assert moves_of(other) == moves_of(game), "legality read something the player cannot see"


@FEW
@given(case=CASES, deal=st.integers(0, 2**32), seed=st.integers(0, 2**32))
def test_a_determinisation_reads_nothing_hidden(case, deal, seed):
    game = a_position(*case)
    if game is None:
        return
    player = game.decision_player()
    other = determinize(game, player, random.Random(deal))
    one, two = determinize(game, player, random.Random(seed)), determinize(other, player, random.Random(seed))
    assert one.vars == two.vars and one.rng == two.rng


@settings(FEW, max_examples=12)
@given(case=CASES, deal=st.integers(0, 2**32), seed=st.integers(0, 2**16))
def test_mcts_plays_from_what_the_player_knows(case, deal, seed):
    """Two positions that differ only in what the deciding player cannot see: the same move."""
    game = a_position(*case)
    if game is None:
        return
    player = game.decision_player()
    other = determinize(game, player, random.Random(deal))
    assert MCTSAgent(6, seed, rollout_limit=200)(game) == MCTSAgent(6, seed, rollout_limit=200)(other)


def test_the_cheating_search_is_asked_for_by_name_and_does_peek():
    """`mcts:N` searches from what the player knows, `mcts-cheat:N` from the true position: on
    positions that differ only in others' hidden cards, the honest search always picks alike
    and the cheating one does not (so the property above could fail)."""
    assert make_agent("mcts:5", 1).peek is False
    assert make_agent("mcts-cheat:5", 1).peek is True
    honest = cheat = 0
    for seed in range(4):
        game = a_position("khan/khan.rules", seed, 12)
        player = game.decision_player()
        other = determinize(game, player, random.Random(seed))
        honest += MCTSAgent(20, seed, rollout_limit=200)(game) != MCTSAgent(20, seed, rollout_limit=200)(other)
        cheat += make_agent("mcts-cheat:20", seed)(game) != make_agent("mcts-cheat:20", seed)(other)
    assert honest == 0 and cheat > 0


REVEAL = """\
players Ann, Bob
enum Card = c1, c2, c3, c4, c5, c6
state
    deck: list Card = Card hidden
    hand: Player -> list Card = [] hidden except owner
    n: int = 0
action show
    "Show your hand to the other player."
    reveal hand[current] to other(current)
action wait
    "Do nothing."
    add 1 to n
flow
    for p in players
        draw 2 from deck to hand[p]
    turn Bob
        play show
    repeat 3 times
        turn
            play wait
"""


def test_a_reveal_is_part_of_the_players_view_from_then_on():
    rules = regelwerk.load_text(REVEAL, "reveal.rules")
    game = rules.new_game(seed=4, history=True)
    before = game.information_state("Ann")
    bob = list(game.vars["hand"]["Bob"])
    game.apply("show")
    assert game.view("Ann")["revealed"] == [{"what": "hand[current]", "value": bob, "step": 1}] or \
        game.view("Ann")["revealed"][0]["value"] == bob
    assert "revealed" not in game.view("Bob")
    assert game.information_state("Ann") != before
    assert rules.load_game(game.to_json()).view("Ann") == game.view("Ann")


def test_what_was_revealed_stays_where_it_was_shown_in_every_determinisation():
    text = REVEAL.replace("reveal hand[current] to other(current)", "reveal hand[Bob] to Ann")
    rules = regelwerk.load_text(text, "reveal.rules")
    game = rules.new_game(seed=4)
    bob = list(game.vars["hand"]["Bob"])
    game.apply("show")
    for k in range(10):
        assert determinize(game, "Ann", random.Random(k)).vars["hand"]["Bob"] == bob
    assert len({tuple(determinize(game, "Bob", random.Random(k)).vars["hand"]["Ann"]) for k in range(10)}) > 1


LOOK = """\
players Ann, Bob
enum Card = axolotl9, beryl, coral
const VALUE = {beryl: 2, coral: 3, axolotl9: 0}
state
    hand: Player -> list Card = [] hidden except owner
    n: int = 0
action look
    "Count the other hand."
    for c in hand[Bob]
        remove c from hand[Ann]
flow
    set hand[Bob] = [axolotl9]
    turn
        play look
"""


def test_a_message_says_nothing_hidden_unless_asked_for_the_whole(capsys, tmp_path):
    rules = regelwerk.load_text(LOOK, "look.rules")
    game = rules.new_game()
    with pytest.raises(regelwerk.RuleFailure) as info:
        game.apply("look")
    assert "axolotl9" not in str(info.value) and "cannot remove ?" in info.value.message
    assert "cannot remove axolotl9" in info.value.full, "the whole message, for a caller who asks"
    path = tmp_path / "look.rules"
    path.write_text(LOOK, encoding="utf-8")
    from regelwerk.cli import main

    assert main(["run", str(path), "--seed", "1"]) == 1
    assert "axolotl9" not in capsys.readouterr().err
