"""The OpenSpiel bridge's states share games until they differ and keep answers by history
(regelwerk/openspiel_memo.py). Every state must answer exactly as a state of the same game
without the memo would, whatever mix of clones, children and moves in place made it."""

from __future__ import annotations  # noqa: E402

import pickle
import warnings
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from regelwerk.openspiel import load_game  # noqa: E402

RULES = Path(__file__).resolve().parent.parent / "rulesets"
GAMES = {  # one of each kind: hidden cards and explicit chance, deterministic, dice, simultaneous
    "kuhn": RULES / "examples" / "kuhn.rules",
    "leduc": RULES / "examples" / "leduc.rules",
    "tictactoe": RULES / "classic" / "tictactoe.rules",
    "pig": RULES / "examples" / "pig.rules",
    "goofspiel": RULES / "examples" / "goofspiel.rules",
}
_LOADED: dict[tuple, object] = {}


def _game(name: str, memo: int) -> object:
    key = (name, memo)
    if key not in _LOADED:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _LOADED[key] = load_game(GAMES[name], memo=memo, explore=2_000)
    return _LOADED[key]


def answers(state: object) -> tuple:
    """Everything a state tells OpenSpiel's algorithms."""
    game = state.get_game()
    n = game.num_players()
    player = state.current_player()
    out = [player, state.is_terminal(), tuple(state.returns()), str(state), tuple(state.history())]
    if state.is_chance_node():
        out.append(tuple(state.chance_outcomes()))
    elif player == pyspiel.PlayerId.SIMULTANEOUS:
        out.append(tuple(tuple(state.legal_actions(p)) for p in range(n)))
    elif not state.is_terminal():
        out.append(tuple(state.legal_actions()))
    if game.get_type().provides_information_state_string:
        out += [state.information_state_string(p) for p in range(n)]
    out += [state.observation_string(p) for p in range(n)]
    _as_openspiel_answers(state)
    return tuple(out)


def _as_openspiel_answers(state: object) -> None:
    """The questions RegelwerkState answers in Python from its memo answer as OpenSpiel's own
    methods (the C++ way round, through the overridden hooks) do."""
    base = pyspiel.State
    n = state.get_game().num_players()
    assert state.legal_actions() == base.legal_actions(state)
    assert state.legal_actions_mask() == base.legal_actions_mask(state)
    for p in range(n):
        assert state.legal_actions(p) == base.legal_actions(state, p)
        assert state.legal_actions_mask(p) == base.legal_actions_mask(state, p)
        if state.get_game().get_type().provides_information_state_string:
            assert state.information_state_string(p) == base.information_state_string(state, p)
    assert state.is_chance_node() == base.is_chance_node(state)
    assert state.is_simultaneous_node() == base.is_simultaneous_node(state)
    if state.current_player() >= 0:
        assert state.information_state_string() == base.information_state_string(state)


def _move(state: object, pick: int) -> object:
    """The `pick`-th legal action (chance outcome, or one action per player at a
    simultaneous node), as `apply_action` or `apply_actions` takes it."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return outcomes[pick % len(outcomes)][0]
    if state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
        return [legal[pick % len(legal)] for legal in
                (state.legal_actions(p) for p in range(state.get_game().num_players()))]
    legal = state.legal_actions()
    return legal[pick % len(legal)]


def _play(state: object, move: object) -> None:
    if isinstance(move, list):
        state.apply_actions(move)
    else:
        state.apply_action(move)


# one step of a walk: which state (by position in the pool), what to do, which legal move
STEP = st.tuples(st.integers(0, 7), st.sampled_from(["child", "clone", "apply", "ask"]), st.integers(0, 30))


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(STEP, max_size=40), capacity=st.sampled_from([100_000, 3]))
def test_memo_and_shared_games_answer_as_plain_states_do(name, steps, capacity):
    """The same walk of clones, children, moves in place and questions on a game with the memo
    (large, or nearly full at 3 histories) and on one without: every state answers alike, and
    (both sides share games between states) as the state its history makes afresh does. A
    state is asked only when the walk says so, so a clone may still share its game when the
    original moves on (asking makes the game behind a shared state)."""
    pools = []
    for memo in (capacity, 0):
        game = _game(name, memo)
        pools.append([game.new_initial_state()])
    for which, what, pick in steps:
        results = []
        for pool in pools:
            state = pool[which % len(pool)]
            if what == "ask" or state.is_terminal():
                results.append(answers(state))
                continue
            move = _move(state, pick)
            if what == "child":
                pool.append(state.child(move) if not isinstance(move, list) else _joint_child(state, move))
            elif what == "clone":
                pool.append(state.clone())
            else:
                _play(state, move)
        if results:
            assert results[0] == results[1]
    for with_memo, without in zip(*pools, strict=True):
        assert answers(with_memo) == answers(without)
        if name != "goofspiel":  # and as the state its history makes afresh (both sides share boxes)
            assert answers(with_memo) == answers(_afresh(_game(name, 0), with_memo.history()))


def _afresh(game: object, history: list[int]) -> object:
    """A new state that plays `history` from the start, cloning nothing."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def _joint_child(state: object, moves: list) -> object:
    child = state.clone()
    child.apply_actions(moves)
    return child


def test_a_clone_keeps_its_position_when_the_original_moves_on():
    """Copy on write: the original's move in place must not reach the clone sharing its game,
    nor a child made before."""
    game = _game("tictactoe", 100_000)
    state = game.new_initial_state()
    state.apply_action(4)
    copy = state.clone()
    child = state.child(0)
    state.apply_action(8)
    state.apply_action(2)
    assert copy.history() == [4] and str(copy) == str(_game("tictactoe", 0).new_initial_state().child(4))
    assert copy.legal_actions() == [0, 1, 2, 3, 5, 6, 7, 8]
    assert child.history() == [4, 0] and child.legal_actions() == [1, 2, 3, 5, 6, 7, 8]
    assert state.legal_actions() == [0, 1, 3, 5, 6, 7]
    plain = _game("tictactoe", 0).new_initial_state()
    for a in (4, 8, 2):
        plain.apply_action(a)
    assert str(state) == str(plain)


def test_an_illegal_action_is_refused_whether_or_not_its_answers_are_kept():
    game = _game("tictactoe", 100_000)
    state = game.new_initial_state()
    state.apply_action(4)
    state.legal_actions()  # kept: the next move could be deferred
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(4)
    assert state.history() == [4] and 4 not in state.legal_actions()


def test_what_a_caller_gets_is_a_copy_of_what_is_kept():
    game = _game("pig", 100_000)
    state = game.new_initial_state()
    for _ in range(10):
        if state.is_chance_node():
            break
        state.apply_action(state.legal_actions()[0])
    outcomes = state.chance_outcomes()
    outcomes.clear()
    assert state.chance_outcomes()
    kuhn = _game("kuhn", 100_000).new_initial_state()
    for _ in range(10):
        if kuhn.is_terminal():
            break
        kuhn.apply_action(_move(kuhn, 0))
    returns = kuhn.returns()
    returns[0] = 99.0
    assert kuhn.returns()[0] != 99.0


def test_the_regelwerk_game_handed_out_is_the_states_own():
    """Changing it may break that state's history (as documented), never a clone's."""
    game = _game("tictactoe", 100_000)
    state = game.new_initial_state()
    state.apply_action(0)
    copy = state.clone()
    state.regelwerk_game().vars["cell"] = {}
    assert str(copy) == str(_game("tictactoe", 0).new_initial_state().child(0))


def test_a_state_with_moves_deferred_pickles_as_its_position():
    game = _game("leduc", 100_000)
    state = game.new_initial_state()
    walk = [state]
    for pick in (0, 1, 0, 1, 1):  # two cards dealt, call, raise, call
        walk[-1].chance_outcomes() if walk[-1].is_chance_node() else walk[-1].legal_actions()
        walk.append(walk[-1].child(_move(walk[-1], pick)))
    last = walk[-1]
    assert last._box.made is None and last._box.since  # nothing asked yet: the moves wait
    again = pickle.loads(pickle.dumps(last))
    assert answers(again)[:5] == answers(last)[:5]


def test_sampled_chance_keeps_no_memo_and_memo_0_turns_it_off():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert load_game(GAMES["pig"], chance="sampled").memo is None
    assert _game("kuhn", 0).memo is None and _game("kuhn", 100_000).memo is not None
    with pytest.raises(Exception, match="memo=-1"):
        load_game(GAMES["kuhn"], memo=-1)


@pytest.mark.parametrize("name", ["kuhn", "pig"])
def test_every_state_answers_in_python_as_openspiel_does(name):
    """Every state of Kuhn poker's whole tree (and pig's first moves), asked once so the memo
    knows its answers, then compared with OpenSpiel's own methods: decisions, chance nodes
    and finished games alike."""
    game = _game(name, 100_000)
    todo, seen = [game.new_initial_state()], 0
    while todo and seen < 300:
        state = todo.pop()
        answers(state)  # fills the memo (and compares once)
        _as_openspiel_answers(state)  # now from the memo
        seen += 1
        if not state.is_terminal():
            todo += [state.child(a) for a in state.legal_actions()]
    assert seen >= 58
