"""Correctness checks for the hand-written benchmark baselines in ``bench/handwritten.py``.

The benchmark reports regelwerk's speed as a ratio against these games, so a
baseline that plays the wrong game would make every ratio meaningless.  The
perft and game-tree counts below are published values, independent of regelwerk.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

# `bench` is a plain top-level folder, not part of the installed package.
_ROOT = str(Path(__file__).resolve().parents[1])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from bench.handwritten import (  # noqa: E402
    Breakthrough,
    BreakthroughState,
    ConnectFour,
    ConnectFourState,
    TicTacToe,
    TicTacToeState,
    count_complete_games,
    perft,
    playouts_per_second,
    random_playout,
)

GAMES = [TicTacToe(), ConnectFour(), Breakthrough()]
GAME_IDS = [g.name for g in GAMES]


# --------------------------------------------------------------------------
# Helpers: independent, brute-force winner checks used to cross-examine the
# incremental win detection in the games.
# --------------------------------------------------------------------------


def ttt_has_line(board: tuple, player: int) -> bool:
    return any(all(board[i] == player for i in line) for line in TicTacToe.lines)


def c4_has_four(board: tuple, player: int) -> bool:
    cols, rows = ConnectFour.COLUMNS, ConnectFour.ROWS

    def at(c: int, r: int) -> bool:
        return 0 <= c < cols and 0 <= r < rows and board[c * rows + r] == player

    return any(
        all(at(c + k * dc, r + k * dr) for k in range(4))
        for c in range(cols)
        for r in range(rows)
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
    )


def bt_has_won(board: tuple, player: int) -> bool:
    goal = board[56:64] if player == 0 else board[0:8]
    return player in goal or (1 - player) not in board


def play_random(game, seed: int):
    """Like random_playout, but keeps the final state and checks invariants on the way."""
    rng = random.Random(seed)
    state = game.initial()
    moves_played = 0
    while not game.is_over(state):
        moves = game.legal_moves(state)
        assert moves, "a position that is not over must have a legal move"
        before = state
        state = game.apply(state, rng.choice(moves))
        assert state is not before
        moves_played += 1
    assert game.legal_moves(state) == []
    return state, moves_played


# --------------------------------------------------------------------------
# Published counts
# --------------------------------------------------------------------------


def test_tictactoe_complete_games() -> None:
    game = TicTacToe()
    assert count_complete_games(game, game.initial()) == 255_168


@pytest.mark.parametrize(
    ("depth", "expected"),
    list(enumerate([1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872])),
)
def test_tictactoe_perft(depth: int, expected: int) -> None:
    game = TicTacToe()
    assert perft(game, game.initial(), depth) == expected


def test_tictactoe_perft_beyond_the_end_is_zero() -> None:
    game = TicTacToe()
    assert perft(game, game.initial(), 10) == 0


@pytest.mark.parametrize(
    ("depth", "expected"),
    [
        (0, 1),
        (1, 7),
        (2, 49),
        (3, 343),
        (4, 2401),
        (5, 16807),
        pytest.param(6, 117649, marks=pytest.mark.slow),
        pytest.param(7, 823536, marks=pytest.mark.slow),
    ],
)
def test_connect_four_perft(depth: int, expected: int) -> None:
    game = ConnectFour()
    assert perft(game, game.initial(), depth) == expected


@pytest.mark.parametrize(
    ("depth", "expected"),
    [(0, 1), (1, 22), (2, 484), (3, 11132), pytest.param(4, 256036, marks=pytest.mark.slow)],
)
def test_breakthrough_perft(depth: int, expected: int) -> None:
    game = Breakthrough()
    assert perft(game, game.initial(), depth) == expected


# --------------------------------------------------------------------------
# Interface contract shared by all three games
# --------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_initial_position_is_open(game) -> None:
    state = game.initial()
    assert not game.is_over(state)
    assert game.winner(state) is None
    assert game.legal_moves(state)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_apply_does_not_mutate_its_argument(game) -> None:
    state = game.initial()
    snapshot = tuple(state)
    for move in game.legal_moves(state):
        child = game.apply(state, move)
        assert child != state
        assert tuple(state) == snapshot


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_terminal_position_has_perft_zero(game) -> None:
    state, _ = play_random(game, seed=1)
    assert perft(game, state, 0) == 1
    assert perft(game, state, 1) == 0
    assert count_complete_games(game, state) == 1


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_random_playout_is_deterministic_per_seed(game) -> None:
    lengths = [random_playout(game, random.Random(seed)) for seed in range(20)]
    again = [random_playout(game, random.Random(seed)) for seed in range(20)]
    assert lengths == again
    assert all(n > 0 for n in lengths)


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_random_playout_matches_manual_replay(game) -> None:
    for seed in range(10):
        _, expected = play_random(game, seed)
        assert random_playout(game, random.Random(seed)) == expected


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_playouts_per_second_is_positive(game) -> None:
    rate = playouts_per_second(game, seconds=0.05, seed=3)
    assert isinstance(rate, float)
    assert rate > 0


# --------------------------------------------------------------------------
# Random playouts end with a winner the board agrees with
# --------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_tictactoe_random_games_are_consistent(seed: int) -> None:
    game = TicTacToe()
    state, n = play_random(game, seed)
    assert isinstance(state, TicTacToeState)
    assert 5 <= n <= 9
    assert n == sum(cell is not None for cell in state.board)
    winner = game.winner(state)
    if winner is None:
        assert None not in state.board
        assert not ttt_has_line(state.board, 0)
        assert not ttt_has_line(state.board, 1)
    else:
        assert ttt_has_line(state.board, winner)
        assert not ttt_has_line(state.board, 1 - winner)
        # The winner made the last move: X (0) moves on odd plies.
        assert winner == (n - 1) % 2


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_connect_four_random_games_are_consistent(seed: int) -> None:
    game = ConnectFour()
    state, n = play_random(game, seed)
    assert isinstance(state, ConnectFourState)
    assert 7 <= n <= 42
    rows = ConnectFour.ROWS
    # Gravity: every column is filled from the bottom with no gaps.
    for c, h in enumerate(state.heights):
        column = state.board[c * rows : (c + 1) * rows]
        assert all(cell is not None for cell in column[:h])
        assert all(cell is None for cell in column[h:])
    winner = game.winner(state)
    if winner is None:
        assert n == 42
        assert not c4_has_four(state.board, 0)
        assert not c4_has_four(state.board, 1)
    else:
        assert c4_has_four(state.board, winner)
        assert not c4_has_four(state.board, 1 - winner)
        assert winner == (n - 1) % 2


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_breakthrough_random_games_are_consistent(seed: int) -> None:
    game = Breakthrough()
    state, n = play_random(game, seed)
    assert isinstance(state, BreakthroughState)
    winner = game.winner(state)
    assert winner in (0, 1), "Breakthrough has no draws"
    assert winner == (n - 1) % 2
    assert bt_has_won(state.board, winner)
    assert not bt_has_won(state.board, 1 - winner)
    assert state.pieces == (state.board.count(0), state.board.count(1))


# --------------------------------------------------------------------------
# Rule details
# --------------------------------------------------------------------------


def test_connect_four_pieces_stack_and_full_columns_close() -> None:
    game = ConnectFour()
    state = game.initial()
    rows = ConnectFour.ROWS
    # Alternate in column 3 until it is full; nobody gets four (colours alternate).
    for i in range(rows):
        assert 3 in game.legal_moves(state)
        state = game.apply(state, 3)
        assert state.board[3 * rows + i] == i % 2
    assert game.legal_moves(state) == [0, 1, 2, 4, 5, 6]
    assert not game.is_over(state)


@pytest.mark.parametrize(
    "moves",
    [
        [0, 0, 1, 1, 2, 2, 3],  # horizontal
        [0, 1, 0, 1, 0, 1, 0],  # vertical
        [0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3],  # diagonal up-right
        [6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3],  # diagonal up-left
    ],
    ids=["horizontal", "vertical", "diagonal", "anti-diagonal"],
)
def test_connect_four_wins_in_every_orientation(moves: list[int]) -> None:
    game = ConnectFour()
    state = game.initial()
    for move in moves[:-1]:
        state = game.apply(state, move)
        assert not game.is_over(state)
    state = game.apply(state, moves[-1])
    assert game.is_over(state)
    assert game.winner(state) == 0
    assert game.legal_moves(state) == []


def test_tictactoe_draw() -> None:
    game = TicTacToe()
    state = game.initial()
    # X O X / X O O / O X X -- full board, no line.
    for move in [0, 1, 2, 4, 3, 5, 7, 6, 8]:
        state = game.apply(state, move)
    assert game.is_over(state)
    assert game.winner(state) is None


def test_breakthrough_initial_moves() -> None:
    game = Breakthrough()
    moves = set(game.legal_moves(game.initial()))
    assert len(moves) == 22
    assert all(8 <= src < 16 and 16 <= dst < 24 for src, dst in moves)


def test_breakthrough_no_straight_capture_but_diagonal_capture() -> None:
    game = Breakthrough()
    # White on d4 faces Black on d5 (blocked) and e5 (capturable); c5 is empty.
    state = game.position({(3, 3): 0, (3, 4): 1, (4, 4): 1, (0, 7): 1}, to_move=0)
    d4, c5, d5, e5 = 3 * 8 + 3, 4 * 8 + 2, 4 * 8 + 3, 4 * 8 + 4
    assert sorted(game.legal_moves(state)) == sorted([(d4, c5), (d4, e5)])
    after = game.apply(state, (d4, e5))
    assert after.board[e5] == 0 and after.board[d4] is None and after.board[d5] == 1
    assert after.pieces == (1, 2)
    assert after.to_move == 1
    assert not game.is_over(after)


def test_breakthrough_own_pieces_block_diagonals() -> None:
    game = Breakthrough()
    state = game.position({(3, 3): 0, (2, 4): 0, (4, 4): 0, (7, 7): 1}, to_move=0)
    d4 = 3 * 8 + 3
    assert [m for m in game.legal_moves(state) if m[0] == d4] == [(d4, d4 + 8)]


def test_breakthrough_black_moves_south() -> None:
    game = Breakthrough()
    state = game.position({(0, 0): 0, (5, 5): 1}, to_move=1)
    f6 = 5 * 8 + 5
    assert sorted(game.legal_moves(state)) == sorted([(f6, f6 - 8), (f6, f6 - 9), (f6, f6 - 7)])


def test_breakthrough_reaching_far_row_wins() -> None:
    game = Breakthrough()
    state = game.position({(0, 6): 0, (7, 7): 1, (7, 6): 1}, to_move=0)
    a7, a8 = 6 * 8, 7 * 8
    after = game.apply(state, (a7, a8))
    assert game.is_over(after)
    assert game.winner(after) == 0

    state = game.position({(7, 5): 0, (3, 1): 1, (0, 5): 0}, to_move=1)
    d2, c1 = 1 * 8 + 3, 2
    after = game.apply(state, (d2, c1))
    assert game.winner(after) == 1


def test_breakthrough_capturing_the_last_piece_wins() -> None:
    game = Breakthrough()
    state = game.position({(3, 3): 0, (4, 4): 1}, to_move=0)
    after = game.apply(state, (3 * 8 + 3, 4 * 8 + 4))
    assert after.pieces == (1, 0)
    assert game.is_over(after)
    assert game.winner(after) == 0


# --------------------------------------------------------------------------
# bench/plain.py, the speed baseline of `make bench`, plays exactly these games
# --------------------------------------------------------------------------
from bench import plain  # noqa: E402

PAIRS = [(TicTacToe(), plain.TicTacToe), (ConnectFour(), plain.ConnectFour), (Breakthrough(), plain.Breakthrough)]


@pytest.mark.parametrize(("oracle", "cls"), PAIRS, ids=GAME_IDS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_plain_baseline_plays_the_same_game(oracle, cls, seed: int) -> None:
    """Replay one random game on both: the same legal moves at every turn, the same end and winner."""
    rng = random.Random(seed)
    state, fast = oracle.initial(), cls()
    while True:
        moves = oracle.legal_moves(state)
        assert sorted(moves) == sorted(fast.legal_actions())
        assert oracle.is_over(state) == fast.is_terminal()
        if not moves:
            break
        move = rng.choice(moves)
        state = oracle.apply(state, move)
        copy = fast.clone()
        before = list(fast.board)
        fast.apply_action(move)
        assert copy.board == before != fast.board, "a clone is independent of the original"
    want = oracle.winner(state)
    assert fast.winner == (0 if want is None else want + 1)


@pytest.mark.parametrize(("cls", "depth", "expected"), [
    (plain.TicTacToe, 5, 15120), (plain.ConnectFour, 5, 16807), (plain.Breakthrough, 3, 11132)])
def test_plain_baseline_perft(cls, depth: int, expected: int) -> None:
    assert plain.perft(cls(), depth) == expected


# --------------------------------------------------------------------------
# Checkers: bench/plain.py only (no immutable version); the published perft counts of English
# draughts, and the same game as rulesets/classic/checkers.rules move for move
# --------------------------------------------------------------------------
CHECKERS_PERFT = [7, 49, 302, 1469, 7361, 36768, 179740, 845931]


@pytest.mark.parametrize("depth", [*range(1, 8), pytest.param(8, marks=pytest.mark.slow)])
def test_plain_checkers_perft(depth: int) -> None:
    assert plain.perft(plain.Checkers(), depth) == CHECKERS_PERFT[depth - 1]


def _square(name: str) -> int:
    return (int(name[1:]) - 1) * 8 + ord(name[0]) - ord("a")


_STEP = {"NE": 9, "NW": 7, "SE": -7, "SW": -9}


def _path(action) -> tuple[int, ...]:
    """A move of rulesets/classic/checkers.rules as plain.Checkers writes it: the squares visited."""
    if action.name == "step":
        start = _square(action.args[0])
        return (start, start + _STEP[action.args[1]])
    return tuple(_square(s) for s in action.args[0])


@pytest.fixture(scope="module")
def checkers_rules():
    import regelwerk

    return regelwerk.load(Path(_ROOT) / "rulesets" / "classic" / "checkers.rules")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_plain_checkers_plays_the_rulesets_game(checkers_rules, seed: int) -> None:
    """Replay one random game on both: the same legal moves at every turn (multi-jumps, kings,
    crowning included), the same end and winner."""
    rng = random.Random(seed)
    game, fast = checkers_rules.new_game(seed=seed), plain.Checkers()
    while True:
        actions = [] if game.is_over else game.legal_actions()
        moves = {_path(a): a for a in actions}
        assert len(moves) == len(actions)
        assert sorted(moves) == sorted(fast.legal_actions())
        assert game.is_over == fast.is_terminal()
        if not moves:
            break
        move = rng.choice(sorted(moves))
        game.apply(moves[move])
        copy = fast.clone()
        before = list(fast.board)
        fast.apply_action(move)
        assert copy.board == before != fast.board, "a clone is independent of the original"
    assert [{"Black": 1, "White": 2}[w] for w in game.winners] == ([fast.winner] if fast.winner else [])
