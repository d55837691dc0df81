"""The speed baseline of `make bench`: the classic games written plainly by hand.

Mutable objects with lists of cells, moves applied in place, a `clone()` for search, and a
random playout that picks uniformly among the legal moves: the way a competent engineer
writes a game engine for one game in an hour, with no bitboards and no C. regelwerk's
random-playout rate is reported as a ratio against these (`bench/run.py`); they are checked
against the independent immutable versions in `bench/handwritten.py` by
tests/test_handwritten_baselines.py, so a ratio never compares against a wrong game (checkers,
which has no immutable version there, against the published perft counts and, move for move,
against rulesets/classic/checkers.rules).

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


# ---------------------------------------------------------------------- checkers
CK = 8
_CK_DIRS = ((1, 1), (-1, 1), (1, -1), (-1, -1))  # NE, NW, SE, SW as (column, row) steps
_CK_FORWARD = {1: (0, 1), 2: (2, 3)}  # the men's directions (indices into _CK_DIRS) per player
_CK_ALL = (0, 1, 2, 3)


def _ck_tables() -> tuple:
    """For each square (row * 8 + column) and direction: the next square, and (over, landing)
    of a jump; -1 off the board."""
    step, jump = [], []
    for s in range(CK * CK):
        c, r = s % CK, s // CK
        srow, jrow = [], []
        for dc, dr in _CK_DIRS:
            c1, r1, c2, r2 = c + dc, r + dr, c + 2 * dc, r + 2 * dr
            srow.append(r1 * CK + c1 if 0 <= c1 < CK and 0 <= r1 < CK else -1)
            jrow.append((r1 * CK + c1, r2 * CK + c2) if 0 <= c2 < CK and 0 <= r2 < CK else (-1, -1))
        step.append(tuple(srow))
        jump.append(tuple(jrow))
    return tuple(step), tuple(jump)


_CK_STEP, _CK_JUMP = _ck_tables()


class Checkers:
    """English draughts. Black (1) starts on the dark squares of rows 0-2 and its men move up;
    White (2) on rows 5-7 and moves down; kings move both ways. A move is the path of squares
    the piece visits: a step is (from, to), a multi-jump (from, landing, landing, ...), taken
    as one move. Captures are compulsory and a series goes on while it can; a man that reaches
    the far row is crowned and stops. Pieces taken leave the board when the move is complete.
    A player who cannot move loses; 80 moves in a row without a capture or a man moving are a
    draw (as in rulesets/classic/checkers.rules)."""

    __slots__ = ("board", "king", "player", "winner", "quiet", "moves", "over")

    def __init__(self) -> None:
        b = [0] * (CK * CK)
        for s in range(CK * CK):
            c, r = s % CK, s // CK
            if (c + r) % 2 == 0:
                b[s] = 1 if r <= 2 else 2 if r >= 5 else 0
        self.board = b
        self.king = [False] * (CK * CK)
        self.player = 1
        self.winner = 0
        self.quiet = 0
        self.over = False
        self.moves = self._generate()

    def clone(self) -> Checkers:
        c = Checkers.__new__(Checkers)
        c.board, c.king = self.board[:], self.king[:]
        c.player, c.winner, c.quiet, c.over, c.moves = self.player, self.winner, self.quiet, self.over, self.moves
        return c

    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self) -> list[tuple[int, ...]]:
        return self.moves[:]

    def _generate(self) -> list[tuple[int, ...]]:
        """The legal moves of the player to move: every complete series of jumps if there is
        one, otherwise every step."""
        b, kings, p = self.board, self.king, self.player
        forward, enemy = _CK_FORWARD[p], 3 - p
        jumps: list[tuple[int, ...]] = []
        for s in range(CK * CK):
            if b[s] == p:
                dirs = _CK_ALL if kings[s] else forward
                jrow = _CK_JUMP[s]
                for d in dirs:
                    over, land = jrow[d]
                    if land >= 0 and b[over] == enemy and b[land] == 0:
                        b[s] = 0  # the piece has left its square while it jumps
                        self._extend([s, land], [over], dirs, kings[s], jumps)
                        b[s] = p
        if jumps:
            return jumps
        steps = []
        for s in range(CK * CK):
            if b[s] == p:
                srow = _CK_STEP[s]
                for d in _CK_ALL if kings[s] else forward:
                    to = srow[d]
                    if to >= 0 and b[to] == 0:
                        steps.append((s, to))
        return steps

    def _extend(self, path: list[int], taken: list[int], dirs: tuple, is_king: bool, out: list) -> None:
        """Add every complete series that continues `path` (the pieces `taken` stay on the
        board until the move is complete, and are not jumped twice)."""
        at = path[-1]
        if not is_king and at // CK == (CK - 1 if self.player == 1 else 0):
            out.append(tuple(path))  # crowned: the move ends here
            return
        b, enemy, jrow, went_on = self.board, 3 - self.player, _CK_JUMP[at], False
        for d in dirs:
            over, land = jrow[d]
            if land >= 0 and b[over] == enemy and b[land] == 0 and over not in taken:
                went_on = True
                path.append(land)
                taken.append(over)
                self._extend(path, taken, dirs, is_king, out)
                path.pop()
                taken.pop()
        if not went_on:
            out.append(tuple(path))

    def apply_action(self, move: tuple[int, ...]) -> None:
        b, kings, p = self.board, self.king, self.player
        src, dst = move[0], move[-1]
        was_king = kings[src]
        b[src], kings[src] = 0, False
        if abs(move[1] - src) in (7, 9):  # a step
            self.quiet = self.quiet + 1 if was_king else 0
        else:
            for a, z in zip(move, move[1:], strict=False):
                mid = (a + z) // 2
                b[mid], kings[mid] = 0, False
            self.quiet = 0
        b[dst] = p
        kings[dst] = was_king or dst // CK == (CK - 1 if p == 1 else 0)
        self.player = 3 - p
        if self.quiet == 80:
            self.over, self.moves = True, []
            return
        self.moves = self._generate()
        if not self.moves:
            self.over, self.winner = True, p

# ---------------------------------------------------------------------- measuring
GAMES = {"tictactoe": TicTacToe, "connect4": ConnectFour, "breakthrough": Breakthrough, "checkers": Checkers}


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
