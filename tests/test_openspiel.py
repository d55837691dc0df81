"""regelwerk rulesets as OpenSpiel games, checked with OpenSpiel's own tools: its state
enumeration, its random simulation test, CFR with exploitability, and MCTS."""

from __future__ import annotations  # noqa: E402

import pickle
import time
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import get_all_states, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

from regelwerk.api import main_files  # noqa: E402
from regelwerk.openspiel import SHORT_NAME, decode_options, encode_options, load_game  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rulesets"
TICTACTOE = RULES / "classic" / "tictactoe.rules"
CONNECT4 = RULES / "classic" / "connect4.rules"
KUHN = RULES / "examples" / "kuhn.rules"
PIG = RULES / "examples" / "pig.rules"
CLIMB = RULES / "examples" / "climb.rules"
SEED_RULESETS = {"khan.rules", "shogun.rules", "root.rules"}  # large: sampled chance, few games
Mode = pyspiel.GameType.ChanceMode


def _playable() -> list[Path]:
    """Every bundled ruleset that is a game of its own (not a file that others include)."""
    return [p for p in main_files(sorted(RULES.rglob("*.rules")))]


# ---------------------------------------------------------------------- game type and index
def test_tictactoe_is_a_deterministic_perfect_information_zero_sum_game():
    game = load_game(TICTACTOE)
    t = game.get_type()
    assert (t.short_name, t.chance_mode, t.information, t.utility) == (
        SHORT_NAME, Mode.DETERMINISTIC, pyspiel.GameType.Information.PERFECT_INFORMATION,
        pyspiel.GameType.Utility.ZERO_SUM)
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (2, 9, 0)
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    state = game.new_initial_state()
    assert state.legal_actions() == list(range(9))
    assert [state.action_to_string(a) for a in (0, 4, 8)] == ["place(a1)", "place(b2)", "place(c3)"]


def test_tictactoe_has_5478_states_by_openspiels_enumeration():
    game = load_game(TICTACTOE)
    states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True,
                                           include_chance_states=False, to_string=str)
    assert len(states) == 5478
    assert len(get_all_states.get_all_states(pyspiel.load_game("tic_tac_toe"), to_string=str)) == 5478


def test_the_action_index_is_mixed_radix_over_the_parameters_domains():
    game = load_game(RULES / "classic" / "breakthrough.rules")
    index = game.action_index
    assert index.describe() == ["0..511: step (64 x 8)"]  # 64 squares x 8 directions
    state = game.new_initial_state()
    for _ in range(30):
        legal = state.legal_actions()
        assert legal == sorted(legal) and len(set(legal)) == len(legal)
        moves = state.regelwerk_game().legal_actions()
        assert sorted(index.index(m) for m in moves) == legal
        for a in legal:
            assert index.index(index.move(a)) == a
            assert state.action_to_string(a) == str(index.move(a))
        state.apply_action(legal[len(legal) // 2])


def test_checkers_jump_series_play_through_the_bridge_by_position():
    """A move whose parameter is a whole list of squares (checkers' jump series, from a
    definition that calls itself) has no fixed index: the bridge numbers the legal moves by
    their place in the list, and random games still end with a winner."""
    import random

    game = load_game(RULES / "classic" / "checkers.rules")
    assert game.action_index.describe() == [
        "positional: action jump(path in jump_paths(current)): the domain is not a finite type"]
    rnd = random.Random(3)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            moves = [str(m) for m in state.regelwerk_game().legal_actions()]
            assert [state.action_to_string(a) for a in legal] == moves
            state.apply_action(rnd.choice(legal))
        assert sorted(state.returns()) == [-1.0, 1.0] or state.returns() == [0.0, 0.0]


TINY = """\
players A, B

enum Colour = red, green, blue

state
    picked: Player -> Colour? = none
    steps: int = 0

action step(n in 1..3, up: bool)
    add n to steps
    choose c in [green, blue] "which colour?"
    set picked[current] = c

flow
    repeat 2 times
        turn
            play optional step
    finish draw
"""


def test_pass_and_choose_get_their_own_indices(tmp_path):
    path = tmp_path / "tiny.rules"
    path.write_text(TINY)
    game = load_game(path)
    index = game.action_index
    # step: 3 values of n x 2 of up; pass; choose over the enum Colour (the domain's type)
    assert index.describe() == ["0..5: step (3 x 2)", "6: pass", "7..9: choose (3 values)"]
    assert [str(index.move(i)) for i in range(11)] == [
        "step(1, false)", "step(1, true)", "step(2, false)", "step(2, true)", "step(3, false)",
        "step(3, true)", "pass", "choose(red)", "choose(green)", "choose(blue)", "None"]
    state = game.new_initial_state()
    assert state.legal_actions() == list(range(7))
    state.apply_action(3)  # step(2, true)
    assert state.legal_actions() == [8, 9] and state.current_player() == 0
    state.apply_action(9)
    assert state.regelwerk_game().vars["picked"]["A"] == "blue"
    assert state.current_player() == 1
    state.apply_action(6)  # B passes
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
    pig = load_game(PIG, chance="sampled").action_index
    assert [str(pig.move(i)) for i in range(2)] == ["choose(false)", "choose(true)"]


def test_a_domain_that_is_no_finite_type_falls_back_to_positions():
    game = load_game(CLIMB, chance="sampled")
    assert game.action_index.positional == "action lay(c in hand[current]): the domain is not a finite type"
    assert game.num_distinct_actions() == 10_000
    state = game.new_initial_state()
    moves = state.regelwerk_game().legal_actions()
    assert state.legal_actions() == list(range(len(moves)))
    assert [state.action_to_string(a) for a in state.legal_actions()] == [str(m) for m in moves]


def test_chance_and_hidden_state_decide_the_game_type():
    pig = load_game(PIG, chance="sampled").get_type()
    assert (pig.chance_mode, pig.information) == (Mode.SAMPLED_STOCHASTIC,
                                                  pyspiel.GameType.Information.PERFECT_INFORMATION)
    kuhn = load_game(KUHN, chance="sampled").get_type()
    assert kuhn.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


# ---------------------------------------------------------------------- loading and saving
def test_the_game_loads_by_its_string_and_states_serialise():
    game = load_game(TICTACTOE)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again.num_distinct_actions() == 9
    state = game.new_initial_state()
    for a in (4, 0, 8):
        state.apply_action(a)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and state2.history() == [4, 0, 8]
    assert state2.legal_actions() == [1, 2, 3, 5, 6, 7]
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_options_travel_in_the_game_string():
    assert encode_options({"goal": 12}) == "goal:12"
    assert decode_options("goal:12; name:\"a b\"") == {"goal": 12, "name": "a b"}
    with pytest.raises(ValueError, match="cannot hold"):
        encode_options({"names": ["a", "b"]})
    game = load_game(PIG, options={"goal": 12}, chance="sampled")
    assert "options=goal:12" in str(game)
    assert pyspiel.load_game(str(game)).options == {"goal": 12}


def test_sampled_chance_deals_each_new_state_with_the_next_seed():
    game = load_game(KUHN, chance="sampled", seed=7)
    hands = set()
    for _ in range(12):
        g = game.new_initial_state().regelwerk_game()
        hands.add((g.vars["hand"]["Ann"], g.vars["hand"]["Bob"]))
    assert len(hands) == 6  # twelve seeds deal all six deals
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[1])
    copy = game.deserialize_state(state.serialize())
    assert str(copy) == str(state) and copy.history() == state.history()
    clone = state.clone()
    assert str(clone) == str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert not state.is_terminal() and clone.is_terminal()


# ---------------------------------------------------------------------- OpenSpiel's own tests
def _sim_settings(path: Path) -> tuple[dict, int]:
    if path.name in SEED_RULESETS:
        return {"chance": "sampled", "explore": 0}, 1
    return {"chance": "explicit"}, 3


@pytest.mark.parametrize("path", _playable(), ids=lambda p: p.name)
def test_openspiel_random_simulation_passes(path):
    params, sims = _sim_settings(path)
    game = load_game(path, **params)
    serialize = game.get_type().chance_mode != Mode.SAMPLED_STOCHASTIC  # pyspiel: no RNG state for Python games
    pyspiel.random_sim_test(game, num_sims=sims, serialize=serialize, verbose=False)


# ---------------------------------------------------------------------- algorithms
def test_mcts_beats_a_random_player_at_connect_four():
    import numpy as np

    game = load_game(CONNECT4)
    results = []
    start = time.monotonic()
    for i in range(8):
        rng = np.random.RandomState(i)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        searcher = mcts.MCTSBot(game, uct_c=2.0, max_simulations=60, evaluator=evaluator, random_state=rng)
        seat = i % 2
        bots = [searcher, uniform_random.UniformRandomBot(1 - seat, np.random.RandomState(100 + i))]
        if seat == 1:
            bots.reverse()
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        results.append(state.returns()[seat])
    assert results.count(1.0) >= 7, results
    assert time.monotonic() - start < 30


def test_kuhn_has_the_twelve_information_states_of_the_textbook():
    game = load_game(KUHN)
    states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=False,
                                           include_chance_states=False, to_string=str)
    seen = {(s.current_player(), s.information_state_string()) for s in states.values()}
    assert len(states) == 24 and len(seen) == 12  # 6 deals x 4 decisions; 3 cards x 2 histories x 2 seats
    assert {p for p, _ in seen} == {0, 1}


def test_cfr_on_kuhn_matches_openspiels_own_kuhn_poker_iteration_for_iteration():
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    ours, theirs = load_game(KUHN), pyspiel.load_game("kuhn_poker")
    solvers = [cfr.CFRSolver(ours), cfr.CFRSolver(theirs)]
    for _ in range(100):
        for s in solvers:
            s.evaluate_and_update_policy()
    policy = solvers[0].average_policy()
    gap = exploitability.exploitability(ours, policy)
    assert gap == pytest.approx(exploitability.exploitability(theirs, solvers[1].average_policy()), abs=1e-12)
    assert gap < 0.01
    value = expected_game_score.policy_value(ours.new_initial_state(), [policy, policy])
    assert value[0] == pytest.approx(-1 / 18, abs=0.002)  # the game's value for the first player
