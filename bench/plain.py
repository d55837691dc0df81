"""The speed baseline of `make bench`: the three classic games written plainly by hand.

Mutable objects with lists of cells, moves applied in place, a `clone()` for search, and a
random playout that picks uniformly among the legal moves: the way a competent engineer
writes a game engine for one game in an hour, with no bitboards and no C. regelwerk's
random-playout rate is reported as a ratio against these (`bench/run.py`); they are checked
against the independent immutable versions in `bench/handwritten.py` by
tests/test_handwritten_baselines.py, so a ratio never compares against a wrong game.

Cells hold 0 (empty), 1 (first player) or 2 (second player).
"""

from __future__ import annotations

import random

# ---------------------------------------------------------------------- tic-tac-toe
_TTT_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_TTT_THROUGH = tuple(tuple(line for line in _TTT_LINES if i in line) for i in range(9))


class TicTacToe:
    __slots__ = ("board", "free", "player", "winner", "moves")

    def __init__(self) -> None:
        self.board = [0] * 9  # index = row * 3 + column
        self.free = list(range(9))  # the empty cells, in order: the legal moves
        self.player = 1
        self.winner = 0
        self.moves = 0

    def clone(self) -> TicTacToe:
        c = TicTacToe.__new__(TicTacToe)
        c.board, c.free = self.board[:], self.free[:]
        c.player, c.winner, c.moves = self.player, self.winner, self.moves
        return c

    def is_terminal(self) -> bool:
        return self.winner != 0 or self.moves == 9

    def legal_actions(self) -> list[int]:
        return [] if self.winner else self.free[:]

    def apply_action(self, a: int) -> None:
        b, p = self.board, self.player
        b[a] = p
        self.free.remove(a)
        self.moves += 1
        for x, y, z in _TTT_THROUGH[a]:
            if b[x] == p and b[y] == p and b[z] == p:
                self.winner = p
                break
        self.player = 3 - p


# ---------------------------------------------------------------------- connect four
C4_COLS, C4_ROWS = 7, 6


def _c4_rays() -> tuple:
    """For each cell (col * ROWS + row) and each of the 4 line directions, the cells walked
    forwards and backwards, so a win check is list look-ups only."""
    out = []
    for c in range(C4_COLS):
        for r in range(C4_ROWS):
            dirs = []
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                fwd, back = [], []
                for sign, ray in ((1, fwd), (-1, back)):
                    cc, rr = c + sign * dc, r + sign * dr
                    while 0 <= cc < C4_COLS and 0 <= rr < C4_ROWS and len(ray) < 3:
                        ray.append(cc * C4_ROWS + rr)
                        cc, rr = cc + sign * dc, rr + sign * dr
                dirs.append((tuple(fwd), tuple(back)))
            out.append(tuple(dirs))
    return tuple(out)


_C4_RAYS = _c4_rays()


class ConnectFour:
    __slots__ = ("board", "height", "player", "winner", "moves")

    def __init__(self) -> None:
        self.board = [0] * (C4_COLS * C4_ROWS)
        self.height = [0] * C4_COLS
        self.player = 1
        self.winner = 0
        self.moves = 0

    def clone(self) -> ConnectFour:
        c = ConnectFour.__new__(ConnectFour)
        c.board, c.height = self.board[:], self.height[:]
        c.player, c.winner, c.moves = self.player, self.winner, self.moves
        return c

    def is_terminal(self) -> bool:
        return self.winner != 0 or self.moves == C4_COLS * C4_ROWS

    def legal_actions(self) -> list[int]:
        if self.winner:
            return []
        h = self.height
        return [c for c in range(C4_COLS) if h[c] < C4_ROWS]

    def apply_action(self, col: int) -> None:
        b, p = self.board, self.player
        cell = col * C4_ROWS + self.height[col]
        b[cell] = p
        self.height[col] += 1
        self.moves += 1
        for fwd, back in _C4_RAYS[cell]:
            n = 1
            for i in fwd:
                if b[i] != p:
                    break
                n += 1
            for i in back:
                if b[i] != p:
                    break
                n += 1
            if n >= 4:
                self.winner = p
                break
        self.player = 3 - p


# ---------------------------------------------------------------------- breakthrough
BT = 8


class Breakthrough:
    """White (1) starts on rows 0-1 and moves up; Black (2) on rows 6-7 and moves down. A piece
    steps forward straight or diagonally; only a diagonal step captures. Reaching the far row
    or taking every enemy piece wins."""

    __slots__ = ("board", "player", "winner", "pieces")

    def __init__(self) -> None:
        self.board = [1] * (2 * BT) + [0] * (4 * BT) + [2] * (2 * BT)  # index = row * 8 + column
        self.player = 1
        self.winner = 0
        self.pieces = [0, 2 * BT, 2 * BT]

    def clone(self) -> Breakthrough:
        c = Breakthrough.__new__(Breakthrough)
        c.board, c.pieces = self.board[:], self.pieces[:]
        c.player, c.winner = self.player, self.winner
        return c

    def is_terminal(self) -> bool:
        return self.winner != 0

    def legal_actions(self) -> list[tuple[int, int]]:
        if self.winner:
            return []
        b, p = self.board, self.player
        step = BT if p == 1 else -BT
        out = []
        for src in range(BT * BT):
            if b[src] != p:
                continue
            dst = src + step
            if not 0 <= dst < BT * BT:
                continue
            col = src % BT
            if col > 0 and b[dst - 1] != p:
                out.append((src, dst - 1))
            if b[dst] == 0:
                out.append((src, dst))
            if col < BT - 1 and b[dst + 1] != p:
                out.append((src, dst + 1))
        return out

    def apply_action(self, move: tuple[int, int]) -> None:
        src, dst = move
        b, p = self.board, self.player
        if b[dst]:
            self.pieces[b[dst]] -= 1
        b[dst] = p
        b[src] = 0
        if dst // BT == (BT - 1 if p == 1 else 0) or self.pieces[3 - p] == 0:
            self.winner = p
        self.player = 3 - p


# ---------------------------------------------------------------------- measuring
GAMES = {"tictactoe": TicTacToe, "connect4": ConnectFour, "breakthrough": Breakthrough}


def playout(cls: type, rng: random.Random) -> int:
    """One random game from the start; the number of moves played."""
    s = cls()
    n = 0
    choice = rng.choice
    while not s.is_terminal():
        s.apply_action(choice(s.legal_actions()))
        n += 1
    return n


def perft(state: object, depth: int) -> int:
    """Move sequences of exactly `depth` moves: clone and apply down to the last level, whose
    moves are counted, not played (as regelwerk's perft does: like for like)."""
    if depth == 0:
        return 1
    if depth == 1:
        return len(state.legal_actions())
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += perft(child, depth - 1)
    return total
