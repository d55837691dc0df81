"""Explicit chance (interpreter/engine/explicit.py), information states (interpreter/observe/infostate.py),
observation tensors (interpreter/observe/encode.py) and exact analysis (interpreter/tools/analysis.py)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from bundled import BUNDLED, PLAYER_COUNTS
from hypothesis import given, settings
from hypothesis import strategies as st
from regelwerk.interpreter.tools.analysis import (
    count_terminal,
    expected_outcome,
    perft_tree,
    position_key,
)

import regelwerk
from regelwerk import EngineError, Game, IllegalAction
from regelwerk.cli import main

ROOT = Path(__file__).resolve().parent.parent

SHUFFLE = """players A, B

state
    deck: list text = []
    coin: bool = false

action go
    finish winner current

flow
    let d = shuffled(["x", "x", "y"])
    set deck = d
    let b = bernoulli(1, 3)
    set coin = b
    repeat
        turn
            play go
"""

# Three cards, one to each player, hidden from the other: what each player can tell apart.
DEAL = """players A, B

state
    deck: list int = [] hidden
    hand: Player -> list int = [] hidden except owner
    guessed: int = 0

action guess(n in 1..3)
    set guessed = n
    finish draw

flow
    let cards = shuffled([1, 2, 3])
    set deck = cards
    for p in players
        draw 1 from deck to hand[p]
    repeat
        turn
            play guess
"""


def _explicit(text: str, **kw) -> Game:
    return regelwerk.load_text(text, "t.rules").new_game(chance="explicit", **kw)


def _deal(order: list[int]) -> Game:
    """The deck shuffled to start with `order`; players draw from its end: A the third card,
    B the second."""
    g = _explicit(DEAL)
    for card in order[:2]:  # the third card is the only one left: nobody decides it
        g.apply(card)
    return g


# ---------------------------------------------------------------------- chance nodes
def test_a_die_is_six_equally_likely_outcomes():
    g = regelwerk.load(ROOT / "rulesets/examples/pig.rules").new_game(chance="explicit")
    assert g.is_chance_node and g.decision_player() is None and g.legal_actions() == []
    assert g.chance_event() == {"kind": "roll", "what": "die 1 of 1d6"}
    assert g.chance_outcomes() == [(v, Fraction(1, 6)) for v in range(1, 7)]
    g.apply("4")  # an outcome by its text, as the command line gives it
    assert not g.is_chance_node and g.decision_player() == "Ann" and g.vars["turn_total"] == 4
    assert [str(a) for a in g.legal_actions()] == ["choose(true)", "choose(false)"]
    assert g.history() == [("chance", 3, "4")]


def test_a_shuffle_is_one_event_per_place_weighted_by_copies():
    g = _explicit(SHUFFLE)
    assert g.chance_event() == {"kind": "shuffle", "what": "item 1 of 3"}
    assert g.chance_outcomes() == [("x", Fraction(2, 3)), ("y", Fraction(1, 3))]
    g.apply("y")  # then only x is left, twice: nobody decides that
    assert g.chance_event() == {"kind": "bernoulli", "what": "1/3"}
    assert g.chance_outcomes() == [(True, Fraction(1, 3)), (False, Fraction(2, 3))]
    g.apply(False)
    assert g.vars["deck"] == ["y", "x", "x"] and g.vars["coin"] is False
    assert g.legal_actions()[0].name == "go"
    h = _explicit(SHUFFLE)
    h.apply("x")
    assert h.chance_outcomes() == [("x", Fraction(1, 2)), ("y", Fraction(1, 2))]


def test_a_chance_node_refuses_moves_and_non_outcomes_and_stays_as_it_was():
    g = _explicit(SHUFFLE)
    before = json.dumps(g.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction, match=r"z: not an outcome of the chance event the game waits for \(shuffle item 1 of 3: x, y\)"):
        g.apply("z")
    with pytest.raises(IllegalAction, match=r"go: the game waits for chance \(shuffle item 1 of 3\), not for a move"):
        g.apply(regelwerk.Action("go"))
    assert not g.explain("go").legal and "waits for chance" in g.explain("go").reason
    assert json.dumps(g.to_json(), sort_keys=True) == before


def test_sampled_games_are_unchanged_and_never_wait_for_chance():
    r = regelwerk.load(ROOT / "rulesets/examples/pig.rules")
    g = r.new_game(seed=3)
    assert not g.is_chance_node and g.chance_outcomes() == [] and g.chance_event() is None
    assert r.new_game(seed=3).to_json() == g.to_json()
    with pytest.raises(EngineError, match="keeps no history"):
        g.history()
    with pytest.raises(EngineError, match="'sampled' or 'explicit'"):
        r.new_game(chance="maybe")


def test_a_device_exposes_its_primitive_draws():
    text = """players A, B

state
    total: int = 0

device pair: int
    roll
        let a = random([1, 2])
        let b = random([10, 20, 20])
        result a + b
    settle
        set total = outcome

action go
    finish winner current

flow
    let x = pair()
    repeat
        turn
            play go
"""
    g = _explicit(text)
    assert g.chance_outcomes() == [(1, Fraction(1, 2)), (2, Fraction(1, 2))]
    g.apply(2)
    assert g.chance_outcomes() == [(10, Fraction(1, 3)), (20, Fraction(2, 3))]
    g.apply(20)
    assert g.vars["total"] == 22 and not g.is_chance_node


def test_explicit_play_fed_the_sampled_draws_follows_the_same_game():
    """A sampled game's trace says what each chance event gave; fed those outcomes one by
    one, the explicit game takes the same course and ends the same."""
    for name in ("pig", "climb", "khan"):
        r = regelwerk.load(BUNDLED[name])
        n = PLAYER_COUNTS[name][0]
        sampled = r.new_game(players=n, seed=11, record=True)
        explicit = r.new_game(players=n, chance="explicit")
        rnd = random.Random(5)
        moves = []
        while not sampled.is_over and len(moves) < 400:
            a = rnd.choice(sampled.legal_actions())
            moves.append(str(a))
            sampled.apply(a)
        draws = []
        for step in sampled.trace:
            for c in step.get("chance", []) if isinstance(step, dict) else []:
                out = c["outcome"]
                if c["kind"] == "shuffle":  # the places where more than one kind of item was left
                    draws.extend(x for i, x in enumerate(out) if len({json.dumps(y) for y in out[i:]}) > 1)
                else:
                    draws.extend(out if c["kind"] == "roll" else [out])
        draws.reverse()
        for text in moves:
            while explicit.is_chance_node:
                explicit.apply(_next_draw(explicit, draws))
            explicit.apply(text)
        while explicit.is_chance_node:
            explicit.apply(_next_draw(explicit, draws))
        assert explicit.vars == sampled.vars and explicit.result == sampled.result, name
        assert not draws, f"{name}: {len(draws)} draws left over"


def _next_draw(game: Game, draws: list) -> object:
    """The next sampled draw, which must be one of the outcomes the explicit game offers."""
    v = draws.pop()
    assert v in [x for x, _p in game.chance_outcomes()], (v, game.chance_event())
    return v


# ---------------------------------------------------------------------- the game tree
def test_perft_counts_chance_plies():
    g = regelwerk.load(ROOT / "rulesets/examples/pig.rules").new_game(chance="explicit")
    # 6 faces; after a 1 the turn passes to Bob (6 faces), after 2-6 Ann chooses (2 moves)
    assert [perft_tree(g, d) for d in (1, 2)] == [6, 6 + 5 * 2]
    deal = _explicit(DEAL)
    assert perft_tree(deal, 2) == 6 and count_terminal(deal, 3) == 6 * 3


def test_analysis_of_tictactoe_is_exact():
    """Uniform random play: X wins 737/1260, O 121/420, a draw 8/63; 5,478 positions (each
    worked out, without merging the board's symmetric images: tests/test_symmetry.py)."""
    g = regelwerk.load(BUNDLED["tictactoe"]).new_game(chance="explicit")
    out = expected_outcome(g, symmetry=False)
    assert (out.win["X"], out.win["O"], out.draw) == (Fraction(737, 1260), Fraction(121, 420), Fraction(8, 63))
    assert out.positions == 5478 and out.score is None


def test_analysis_weighs_chance_exactly():
    out = expected_outcome(_explicit(SHUFFLE))  # A moves first and wins, whatever the cards
    assert out.win == {"A": 1, "B": 0} and out.draw == 0
    text = SHUFFLE.replace("    finish winner current", "    if coin\n        finish winner current\n"
                           "    else\n        finish draw")
    out = expected_outcome(_explicit(text))
    assert out.win["A"] == Fraction(1, 3) and out.draw == Fraction(2, 3)


def test_analysis_needs_explicit_chance_and_stops_when_too_large():
    r = regelwerk.load(BUNDLED["connect4"])
    with pytest.raises(EngineError, match="explicit chance"):
        expected_outcome(r.new_game())
    with pytest.raises(EngineError, match="more than 1,000 positions"):
        expected_outcome(r.new_game(chance="explicit"), max_positions=1000)


# A one-player game that can flip back to where it was: no forward progress to sum over.
LOOP = """players A

state
    on: bool = false

action flip
    set on = not on

action stop
    finish winner current

flow
    turn
        repeat
            play flip, stop
"""


def test_analysis_refuses_games_that_cycle_or_run_too_deep():
    with pytest.raises(EngineError, match="come back to a position"):
        expected_outcome(_explicit(LOOP))
    pig = regelwerk.load(ROOT / "rulesets/examples/pig.rules").new_game(chance="explicit")
    with pytest.raises(EngineError, match="more than 500 moves and chance outcomes deep"):
        expected_outcome(pig)


def test_cli_analyze_and_perft_chance(capsys):
    assert main(["analyze", str(BUNDLED["tictactoe"])]) == 0
    out = capsys.readouterr().out
    assert "737/1260 (0.5849)" in out and "765" in out
    assert main(["analyze", str(BUNDLED["tictactoe"]), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["win"]["O"] == "121/420"
    assert main(["perft", str(ROOT / "rulesets/examples/pig.rules"), "--depth", "2", "--chance"]) == 0
    assert capsys.readouterr().out.split() == ["1", "6", "2", "16"]
    assert main(["analyze", str(BUNDLED["connect4"]), "--max-positions", "50"]) == 1
    assert "more than 50 positions" in capsys.readouterr().err


# ---------------------------------------------------------------------- information states
def test_a_player_cannot_tell_apart_deals_that_differ_only_in_hidden_cards():
    a1, a2, a3 = _deal([1, 2]), _deal([2, 1]), _deal([1, 3])
    assert a1.information_state("A") == a2.information_state("A")  # A holds 3 both times
    assert a1.information_state("B") != a2.information_state("B")  # B holds 2, then 1
    assert a1.information_state("A") != a3.information_state("A")  # A holds 2
    assert a1.observation("A") == a2.observation("A")
    assert '"hand":{"A":[3],"B":{"hidden":1}}' in a1.observation("A")  # B's hand: its size only
    assert '"deck":{"hidden":1}' in a1.observation("A")


def test_information_states_remember_what_was_seen_before():
    """Two games that end in the same position but passed different ones differ for who saw."""
    text = """players A, B

state
    shown: int = 0
    moves: int = 0

action show(n in 1..2)
    set shown = n
    add 1 to moves

action hide
    set shown = 0
    add 1 to moves

flow
    repeat
        turn
            play show, hide
        if moves >= 2
            finish draw
"""
    r = regelwerk.load_text(text, "t.rules")
    g1, g2 = r.new_game(history=True), r.new_game(history=True)
    g1.apply("show(1)")
    g2.apply("show(2)")
    g1.apply("hide")
    g2.apply("hide")
    assert g1.vars == g2.vars and g1.observation("A") == g2.observation("A")
    assert g1.information_state("A") != g2.information_state("A")


def test_information_states_need_a_history():
    g = regelwerk.load(BUNDLED["tictactoe"]).new_game()
    with pytest.raises(EngineError, match="keeps its history"):
        g.information_state("X")
    with pytest.raises(EngineError, match="unknown player 'Z'"):
        g.observation("Z")


CARDS = DEAL.replace("players A, B\n", "players A, B\n\nenum Card = J, Q, K\n").replace(
    "list int", "list Card").replace("[1, 2, 3]", "[J, Q, K]")


def test_observation_tensor_has_a_fixed_shape_and_hides_what_is_hidden():
    def deal(order: list[str]) -> Game:
        g = _explicit(CARDS)
        for card in order:
            g.apply(card)
        return g

    g = deal(["J", "Q"])  # A holds K, B holds Q, J stays in the deck
    assert g.observation_shape() == (2 + 2 + 2 + 0 + 1 + (3 + 1) + 2 * (3 + 1) + 1,)
    a, b = g.observation_tensor("A"), g.observation_tensor("B")
    assert len(a) == len(b) == g.observation_shape()[0]
    head = [1, 0, 1, 0, 0, 0, 0]  # A to move and deciding; not chance, not over; round 0
    assert a == head + [0, 0, 0, 1] + [0, 0, 1, 1] + [0, 0, 0, 1] + [0]  # deck: size only
    assert b == head + [0, 0, 0, 1] + [0, 0, 0, 1] + [0, 1, 0, 1] + [0]
    assert deal(["Q", "J"]).observation_tensor("A") == a  # A cannot tell who holds J or Q
    assert deal(["Q", "J"]).observation_tensor("B") != b
    assert len(_explicit(CARDS).observation_tensor("B")) == len(a)


# ---------------------------------------------------------------------- saves and properties
def test_save_and_load_at_a_chance_node_continue_identically():
    g = _explicit(DEAL)
    g.apply(2)
    saved = json.loads(json.dumps(g.to_json()))
    assert saved["version"] == 4 and saved["chance"] == "explicit" and saved["chance_node"]["fed"] == [1]
    back = Game.from_json(saved, g.ruleset)
    assert back.chance_outcomes() == g.chance_outcomes() and back.history() == g.history()
    back.apply(3)
    g.apply(3)
    assert back.to_json() == g.to_json()
    assert back.information_state("B") == g.information_state("B")


def test_a_corrupt_chance_node_in_a_save_is_refused_with_its_path():
    g = _explicit(DEAL)
    g.apply(2)
    saved = g.to_json()
    saved["chance_node"]["fed"] = [1, 1, 0]
    with pytest.raises(regelwerk.SaveError, match=r"save.chance_node: the move (cannot be replayed|needs no further)"):
        Game.from_json(saved, g.ruleset)
    saved["chance_node"]["fed"] = ["x"]
    with pytest.raises(regelwerk.SaveError, match=r"save.chance_node: expected"):
        Game.from_json(saved, g.ruleset)


def test_a_version_2_save_still_loads():
    r = regelwerk.load(BUNDLED["connect4"])
    g = r.new_game(seed=1)
    g.apply(g.legal_actions()[3])
    old = g.to_json()
    old["version"] = 2
    for key in ("chance", "history", "past", "seen", "chance_node"):
        old.pop(key)
    back = Game.from_json(old, r)
    assert back.chance_mode == "sampled" and not back.tracking and back.to_json() == g.to_json()


def test_undo_is_refused_where_no_journal_is_kept():
    g = regelwerk.load(BUNDLED["tictactoe"]).new_game(chance="explicit", record=True)
    g.apply(g.legal_actions()[0])
    with pytest.raises(EngineError, match="clone"):
        g.undo()


NAMES = sorted(BUNDLED)


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000), steps=st.integers(0, 100))
def test_explicit_outcomes_are_exactly_the_accepted_ones_and_saves_continue(rulesets, name, seed, steps):
    counts = PLAYER_COUNTS[name]
    g = rulesets[name].new_game(players=counts[seed % len(counts)], chance="explicit")
    rnd = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        if g.is_chance_node:
            outcomes = g.chance_outcomes()
            assert sum(p for _v, p in outcomes) == 1 and len(outcomes) >= 2
            assert all(p > 0 for _v, p in outcomes)
            for v, _p in rnd.sample(outcomes, min(3, len(outcomes))):
                g.clone().apply(v)  # listed outcomes are accepted
            g.apply(rnd.choices([v for v, _p in outcomes], [float(p) for _v, p in outcomes])[0])
        else:
            g.apply(rnd.choice(g.legal_actions()))
    back = Game.from_json(json.loads(json.dumps(g.to_json())), g.ruleset)
    assert back.history() == g.history()
    for p in g.players:
        assert back.information_state(p) == g.information_state(p)
        assert back.observation_tensor(p) == g.observation_tensor(p)
    for x in ("no such outcome", 10**9):
        if g.is_chance_node:
            with pytest.raises(IllegalAction):
                g.clone().apply(x)
    keys = {position_key(g), position_key(back)}
    assert len(keys) == 1


def test_agents_play_explicit_games_and_tree_counts_refuse_chance_nodes():
    from regelwerk.interpreter.tools.agents import RandomAgent, count_games, perft, play_game

    pig = regelwerk.load(ROOT / "rulesets/examples/pig.rules")
    games = [play_game(pig.new_game(chance="explicit", seed=3), RandomAgent(1)) for _ in range(2)]
    assert games[0].is_over and games[0].history() == games[1].history()
    assert any(e[0] == "chance" for e in games[0].history())
    other = play_game(pig.new_game(chance="explicit", seed=4), RandomAgent(1))
    assert other.history() != games[0].history()  # the seed decides the chance nodes
    start = pig.new_game(chance="explicit")
    for count in (perft, count_games):
        with pytest.raises(EngineError, match="through chance nodes"):
            count(start, 2)
    with pytest.raises(EngineError, match="waits for chance"):
        RandomAgent(0)(start)


def test_start_is_refused_on_a_started_game():
    kuhn = regelwerk.load(ROOT / "rulesets/examples/kuhn.rules")
    for game in (kuhn.new_game(), kuhn.new_game(chance="explicit")):
        with pytest.raises(EngineError, match="started already"):
            game.start()
    later = kuhn.new_game(start=False, chance="explicit")
    later.start()
    assert later.is_chance_node


def test_the_seed_rulesets_play_to_the_end_with_explicit_chance():
    """Shogun's tower (a stateful device) shows its primitive draws as bernoulli nodes with
    exact weights; Shogun and Root play to a result through their chance nodes."""
    from regelwerk.interpreter.tools.agents import sample_outcome

    for name, n in (("shogun", 4), ("root", 2)):
        game = regelwerk.load(BUNDLED[name]).new_game(players=n, chance="explicit", seed=1)
        rng, kinds = random.Random(1), set()
        while not game.is_over:
            if game.is_chance_node:
                outcomes = game.chance_outcomes()
                assert sum(p for _v, p in outcomes) == 1 and all(p > 0 for _v, p in outcomes)
                kinds.add(game.chance_event()["kind"])
                game.apply(sample_outcome(game, rng))
            else:
                game.apply(rng.choice(game.legal_actions()))
        assert game.result is not None
        if name == "shogun":
            assert {"bernoulli", "shuffle"} <= kinds


@pytest.mark.parametrize("kwargs", [{}, {"record": True}, {"history": True}, {"chance": "explicit"},
                                    {"record": True, "chance": "explicit"}])
def test_modes_are_named_as_new_games_parameters(kwargs):
    """`game.modes` gives back new_game's parameters; passing them makes the same kind of game,
    and the older attribute names agree with them (issue 24)."""
    r = regelwerk.load(BUNDLED["tictactoe"])
    g = r.new_game(**kwargs)
    expect = {"record": False, "chance": "sampled", "history": False, **kwargs}
    if expect["chance"] == "explicit":
        expect["history"] = True  # explicit chance keeps the history it needs
    assert g.modes._asdict() == expect
    again = r.new_game(**g.modes._asdict())
    assert again.modes == g.modes
    assert (g.record, g.chance, g.chance_mode, g.explicit, g.tracking) == (
        expect["record"], expect["chance"], expect["chance"], expect["chance"] == "explicit", expect["history"])
    assert (g.trace is None) == (not g.modes.record)
    if g.modes.history:
        assert g.history() == []
    else:
        with pytest.raises(EngineError, match="keeps no history"):
            g.history()
