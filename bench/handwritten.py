"""Hand-written reference implementations of three classic games.

These are the speed baseline for regelwerk's benchmark: the interpreter's
random-playout rate is reported as a ratio against the rate of these classes.
To keep that ratio honest they are written the way a competent engineer would
write them in an hour -- plain tuples and lists, no bit-boards, no numpy, no C
extensions -- and they do the same work per move an interpreter has to do
(generate the moves, build a new immutable state, detect the end of the game).

All three games share one small interface (see :class:`Game`):
``initial()``, ``legal_moves(state)``, ``apply(state, move)``, ``is_over(state)``
and ``winner(state)``.  States are immutable ``NamedTuple`` values, so
``apply`` never mutates its argument and states can be shared freely between
search branches.  Players are numbered 0 (first to move) and 1.
"""

from __future__ import annotations

import random
import time
from typing import Any, NamedTuple, Protocol

__all__ = [
    "Breakthrough",
    "BreakthroughState",
    "ConnectFour",
    "ConnectFourState",
    "Game",
    "TicTacToe",
    "TicTacToeState",
    "count_complete_games",
    "perft",
    "playouts_per_second",
    "random_playout",
]

#: Cell contents are ``None`` (empty) or the owning player's index, 0 or 1, so a
#: cell can be compared directly with ``winner()`` and ``to_move``.
Cell = int | None


class Game(Protocol):
    """The interface the module-level helpers (playouts, perft) rely on."""

    name: str

    def initial(self) -> Any: ...

    def legal_moves(self, state: Any) -> list[Any]: ...

    def apply(self, state: Any, move: Any) -> Any: ...

    def is_over(self, state: Any) -> bool: ...

    def winner(self, state: Any) -> int | None: ...


# --------------------------------------------------------------------------
# Tic-tac-toe
# --------------------------------------------------------------------------


class TicTacToeState(NamedTuple):
    board: tuple[Cell, ...]  # 9 cells, index = row * 3 + column
    to_move: int
    winner: int | None
    ply: int  # stones on the board; 9 with no winner means a draw


_TTT_LINES: tuple[tuple[int, int, int], ...] = (
    *((r, r + 1, r + 2) for r in (0, 3, 6)),  # rows
    *((c, c + 3, c + 6) for c in (0, 1, 2)),  # columns
    (0, 4, 8),  # diagonals
    (2, 4, 6),
)
# Only lines through the cell just played can have been completed by it, so
# the win check looks at 2-4 lines instead of all 8.
_TTT_LINES_THROUGH: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(line for line in _TTT_LINES if cell in line) for cell in range(9)
)


class TicTacToe:
    """3x3 noughts and crosses; a move is the index (0-8) of an empty cell."""

    name = "tictactoe"
    lines = _TTT_LINES

    def initial(self) -> TicTacToeState:
        return TicTacToeState((None,) * 9, 0, None, 0)

    def legal_moves(self, state: TicTacToeState) -> list[int]:
        if state.winner is not None or state.ply == 9:
            return []
        board = state.board
        return [i for i in range(9) if board[i] is None]

    def apply(self, state: TicTacToeState, move: int) -> TicTacToeState:
        player = state.to_move
        cells = list(state.board)
        cells[move] = player
        winner = None
        for a, b, c in _TTT_LINES_THROUGH[move]:
            if cells[a] == player and cells[b] == player and cells[c] == player:
                winner = player
                break
        return TicTacToeState(tuple(cells), 1 - player, winner, state.ply + 1)

    def is_over(self, state: TicTacToeState) -> bool:
        return state.winner is not None or state.ply == 9

    def winner(self, state: TicTacToeState) -> int | None:
        return state.winner


# --------------------------------------------------------------------------
# Connect Four
# --------------------------------------------------------------------------


class ConnectFourState(NamedTuple):
    board: tuple[Cell, ...]  # column-major: index = column * ROWS + row, row 0 at the bottom
    heights: tuple[int, ...]  # pieces already in each column = row the next piece lands on
    to_move: int
    winner: int | None
    ply: int


class ConnectFour:
    """7 columns x 6 rows; a move is a column index, the piece drops to the lowest empty cell."""

    name = "connect4"
    COLUMNS = 7
    ROWS = 6
    # Right, up, up-right, down-right: each line is walked both ways from the new piece.
    _DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 1), (1, -1))

    def initial(self) -> ConnectFourState:
        return ConnectFourState(
            (None,) * (self.COLUMNS * self.ROWS), (0,) * self.COLUMNS, 0, None, 0
        )

    def legal_moves(self, state: ConnectFourState) -> list[int]:
        if state.winner is not None or state.ply == self.COLUMNS * self.ROWS:
            return []
        rows = self.ROWS
        return [c for c, h in enumerate(state.heights) if h < rows]

    def apply(self, state: ConnectFourState, move: int) -> ConnectFourState:
        columns, rows = self.COLUMNS, self.ROWS
        player = state.to_move
        row = state.heights[move]
        cells = list(state.board)
        cells[move * rows + row] = player
        heights = list(state.heights)
        heights[move] = row + 1

        # Only a line through the piece just dropped can have become four in a row.
        winner = None
        for dc, dr in self._DIRECTIONS:
            run = 1
            for sign in (1, -1):
                c, r = move + sign * dc, row + sign * dr
                while 0 <= c < columns and 0 <= r < rows and cells[c * rows + r] == player:
                    run += 1
                    c += sign * dc
                    r += sign * dr
            if run >= 4:
                winner = player
                break
        return ConnectFourState(tuple(cells), tuple(heights), 1 - player, winner, state.ply + 1)

    def is_over(self, state: ConnectFourState) -> bool:
        return state.winner is not None or state.ply == self.COLUMNS * self.ROWS

    def winner(self, state: ConnectFourState) -> int | None:
        return state.winner


# --------------------------------------------------------------------------
# Breakthrough
# --------------------------------------------------------------------------


class BreakthroughState(NamedTuple):
    board: tuple[Cell, ...]  # 64 cells, index = y * 8 + x; y = 0 is White's home row ("row 1")
    to_move: int  # 0 = White (moves towards +y), 1 = Black (moves towards -y)
    winner: int | None
    pieces: tuple[int, int]  # piece count per player, so "no pieces left" is O(1)


class Breakthrough:
    """8x8 Breakthrough; a move is a ``(from_square, to_square)`` pair of board indices.

    A piece steps one square straight forward onto an empty square, or one square
    diagonally forward onto an empty square or an enemy piece (capturing it).
    A player wins by reaching the far row or by capturing the last enemy piece.
    A side that still has pieces always has a move (its most advanced piece can
    always step diagonally), so there is no stalemate rule to implement.
    """

    name = "breakthrough"
    SIZE = 8
    WHITE = 0
    BLACK = 1
    _FORWARD = (1, -1)  # y direction of travel, indexed by player
    _GOAL_ROW = (7, 0)  # row a player has to reach, indexed by player

    def initial(self) -> BreakthroughState:
        cells: list[Cell] = [None] * 64
        for square in range(16):
            cells[square] = self.WHITE
            cells[63 - square] = self.BLACK
        return BreakthroughState(tuple(cells), self.WHITE, None, (16, 16))

    def position(self, pieces: dict[tuple[int, int], int], to_move: int = 0) -> BreakthroughState:
        """Build a position from ``{(x, y): player}`` (0-based), for rule tests and puzzles."""
        cells: list[Cell] = [None] * 64
        for (x, y), player in pieces.items():
            cells[y * 8 + x] = player
        counts = (cells.count(0), cells.count(1))
        winner = None
        if 0 in cells[56:64] or counts[1] == 0:
            winner = 0
        elif 1 in cells[0:8] or counts[0] == 0:
            winner = 1
        return BreakthroughState(tuple(cells), to_move, winner, counts)

    def legal_moves(self, state: BreakthroughState) -> list[tuple[int, int]]:
        if state.winner is not None:
            return []
        board = state.board
        player = state.to_move
        step = 8 * self._FORWARD[player]
        moves: list[tuple[int, int]] = []
        for square, piece in enumerate(board):
            if piece != player:
                continue
            # A piece is never on its goal row here (the game would be over),
            # so the square ahead is always on the board.
            ahead = square + step
            if board[ahead] is None:
                moves.append((square, ahead))
            x = square % 8
            if x > 0 and board[ahead - 1] != player:
                moves.append((square, ahead - 1))
            if x < 7 and board[ahead + 1] != player:
                moves.append((square, ahead + 1))
        return moves

    def apply(self, state: BreakthroughState, move: tuple[int, int]) -> BreakthroughState:
        src, dst = move
        player = state.to_move
        opponent = 1 - player
        cells = list(state.board)
        captured = cells[dst] == opponent
        cells[dst] = player
        cells[src] = None

        pieces = state.pieces
        if captured:
            pieces = (pieces[0] - 1, pieces[1]) if opponent == 0 else (pieces[0], pieces[1] - 1)
        winner = None
        if dst // 8 == self._GOAL_ROW[player] or pieces[opponent] == 0:
            winner = player
        return BreakthroughState(tuple(cells), opponent, winner, pieces)

    def is_over(self, state: BreakthroughState) -> bool:
        return state.winner is not None

    def winner(self, state: BreakthroughState) -> int | None:
        return state.winner


# --------------------------------------------------------------------------
# Game-independent drivers
# --------------------------------------------------------------------------


def random_playout(game: Game, rng: random.Random) -> int:
    """Play uniformly random legal moves from the initial state to the end; return the count."""
    state = game.initial()
    played = 0
    moves = game.legal_moves(state)
    while moves:
        state = game.apply(state, rng.choice(moves))
        played += 1
        moves = game.legal_moves(state)
    return played


def perft(game: Game, state: Any, depth: int) -> int:
    """Count move sequences of exactly ``depth`` moves from ``state``.

    Every leaf move is really applied (no "bulk counting" of the last ply) so the
    timing exercises ``apply`` as much as move generation, like an interpreter's perft.
    A game that ends before ``depth`` contributes 0; ``depth == 0`` counts 1.
    """
    if depth == 0:
        return 1
    total = 0
    for move in game.legal_moves(state):
        total += perft(game, game.apply(state, move), depth - 1)
    return total


def count_complete_games(game: Game, state: Any) -> int:
    """Count the distinct move sequences from ``state`` that end in a terminal position.

    Only feasible for small games: it walks the whole game tree (tic-tac-toe: 255,168).
    """
    moves = game.legal_moves(state)
    if not moves:
        return 1
    return sum(count_complete_games(game, game.apply(state, move)) for move in moves)


def playouts_per_second(game: Game, seconds: float = 1.0, seed: int = 0) -> float:
    """Run random playouts for about ``seconds`` of wall time and return the rate.

    Always completes at least one playout, and checks the clock only between
    playouts, so the measured span may overshoot ``seconds`` by one game.
    """
    rng = random.Random(seed)
    playouts = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        random_playout(game, rng)
        playouts += 1
        now = time.perf_counter()
        if now >= deadline:
            return playouts / (now - start)


def _main() -> None:
    """Print playout rates, so ``python -m bench.handwritten`` gives a quick baseline."""
    for game in (TicTacToe(), ConnectFour(), Breakthrough()):
        print(f"{game.name:>12}: {playouts_per_second(game, seconds=2.0):10.1f} playouts/s")


if __name__ == "__main__":
    _main()
