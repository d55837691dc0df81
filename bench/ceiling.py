"""The ceiling of regelwerk's random-playout speed on tic-tac-toe and connect four: how fast a
game could play if the compiler wrote one ideal class per program, keeping every contract of
the engine's API (`bench/run.py` prints it between the hand-written games and regelwerk).

Each class follows its ruleset's own algorithm (`rulesets/classic/tictactoe.rules`,
`connect4.rules`: a column searched for its lowest free square, runs counted along rays) and
keeps the engine's contracts:

- squares and players are their names, state is keyed by them, `current` is a name;
- a move is an `Action` made once, `legal_actions()` hands out a new list of them each time
  (a caller may keep or change it), in the engine's order; `apply` knows its own moves by
  identity (an `Action`'s hash is a Python method: a look-up by the move itself costs more than
  the whole engine's identity scan) and takes an equal move made elsewhere too;
- `apply` refuses anything that is not a legal move now (`IllegalAction`: not among the moves
  offered now, compared as the engine compares them: the offered object by identity, else an
  equal move), resets the work
  budget and counts the step; turns advance through a successor table that says when a round
  begins, and `round` is counted;
- the result is the engine's record (`{'kind', 'winners', 'scores'}`), and `is_over` an
  attribute.

What it leaves out is the engine's machinery: no frames, program counter, pending decision,
state dict, journal, or generic `Game` object. The listing is kept from move to move: a move
changes only its own square's test (tic-tac-toe) or its own column's (connect four), so only
that one is tested again, as the engine's `listing follows the move` and kept listings do
(architecture §5). Forms measured on the way (2026-12-07, architecture §17): the listing made
when asked, legality by the move's precondition, was 0.82–0.85× the shared reference on
tic-tac-toe; the engine's protocol (the listing made after each move and copied when asked)
5% slower; squares as integers made no difference; the listing kept, as here, 1.12×.
tests/test_ceiling.py plays them against the rulesets, move for move.
"""

from __future__ import annotations

from typing import Any

from regelwerk import Action, IllegalAction

WORK = 100_000  # the engine's work budget a move (interpreter/engine/limits.py WORK_CHUNK)
_FILES = "abcdefg"

class _Ceiling:
    """What both games keep: the board by square name, the count the rules keep (`moves`,
    `discs`), the current player, the round, the result, the work budget and the step count."""

    __slots__ = ("cell", "count", "current", "round", "result", "is_over", "work", "step_no", "offered")
    SQUARES: list[str] = []
    FIRST = ""

    def __init__(self) -> None:
        self.cell: dict[str, str | None] = dict.fromkeys(self.SQUARES)
        self.count = 0
        self.current = self.FIRST
        self.round = 0
        self.result: dict | None = None
        self.is_over = False
        self.work = WORK
        self.step_no = 0

    def _finish(self, kind: str, winners: list[str]) -> None:
        self.result = {"kind": kind, "winners": winners, "scores": None}
        self.is_over = True
        self.offered = []  # nobody moves in a finished game


# ---------------------------------------------------------------------- tic-tac-toe
_TTT_SQUARES = [f"{c}{r}" for r in range(1, 4) for c in "abc"]
_TTT_LINES = [("a1", "b1", "c1"), ("a2", "b2", "c2"), ("a3", "b3", "c3"), ("a1", "a2", "a3"),
              ("b1", "b2", "b3"), ("c1", "c2", "c3"), ("a1", "b2", "c3"), ("c1", "b2", "a3")]
_TTT_THROUGH = {s: tuple(line for line in _TTT_LINES if s in line) for s in _TTT_SQUARES}
_TTT_MOVES = [(s, Action("place", (s,))) for s in _TTT_SQUARES]
_TTT_SQUARE_OF = {mv: s for s, mv in _TTT_MOVES}  # an equal move made elsewhere
_TTT_SQUARE_BY_ID = {id(mv): s for s, mv in _TTT_MOVES}  # the moves handed out, kept for good
_TTT_NEXT = {"X": ("O", False), "O": ("X", True)}


class TicTacToeCeiling(_Ceiling):
    __slots__ = ()
    SQUARES = _TTT_SQUARES
    FIRST = "X"

    def __init__(self) -> None:
        super().__init__()
        self.offered = [mv for _, mv in _TTT_MOVES]  # the listing, kept: a move changes only its own square

    def legal_actions(self) -> list[Action]:
        return self.offered.copy()

    def apply(self, action: Any) -> None:
        try:  # legal now is offered now (the first equal move: the move itself, found by identity)
            self.offered.remove(action)  # its square is taken: no other square's test changed
        except ValueError:
            raise IllegalAction(f"{action} is not legal now") from None
        s = _TTT_SQUARE_BY_ID.get(id(action)) or _TTT_SQUARE_OF[action]
        self.work = WORK
        self.step_no += 1
        cell, cur = self.cell, self.current
        cell[s] = cur
        self.count += 1
        for a, b, c in _TTT_THROUGH[s]:
            if cell[a] is cur and cell[b] is cur and cell[c] is cur:
                self._finish("winner", [cur])
                return
        if self.count == 9:
            self._finish("draw", [])
            return
        self.current, new_round = _TTT_NEXT[cur]
        if new_round:
            self.round += 1


# ---------------------------------------------------------------------- connect four
def _c4_ray(col: int, row: int, dc: int, dr: int) -> tuple[str, ...]:
    out = []
    col, row = col + dc, row + dr
    while 0 <= col < 7 and 0 <= row < 6:
        out.append(f"{_FILES[col]}{row + 1}")
        col, row = col + dc, row + dr
    return tuple(out)


_C4_SQUARES = [f"{_FILES[c]}{r + 1}" for r in range(6) for c in range(7)]
# the rays of `four_through`: for N, E, NE, SE, the ray that way and the opposite one
_C4_RAYS = {f"{_FILES[c]}{r + 1}": tuple((_c4_ray(c, r, dc, dr), _c4_ray(c, r, -dc, -dr))
                                        for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)))
            for c in range(7) for r in range(6)}
_C4_COLUMNS = [(Action("drop", (c + 1,)), tuple(f"{_FILES[c]}{r + 1}" for r in range(6))) for c in range(7)]
_C4_COLUMN_OF = dict(_C4_COLUMNS)  # an equal move made elsewhere
_C4_COLUMN_BY_ID = {id(mv): column for mv, column in _C4_COLUMNS}  # the moves handed out, kept for good
_C4_NEXT = {"Red": ("Yellow", False), "Yellow": ("Red", True)}


class ConnectFourCeiling(_Ceiling):
    __slots__ = ()
    SQUARES = _C4_SQUARES
    FIRST = "Red"

    def __init__(self) -> None:
        super().__init__()
        self.offered = [mv for mv, _ in _C4_COLUMNS]  # the listing, kept: a move changes only its own column

    def legal_actions(self) -> list[Action]:
        return self.offered.copy()

    def apply(self, action: Any) -> None:
        if action not in self.offered:  # legal now is offered now (the move itself found by identity)
            raise IllegalAction(f"{action} is not legal now")
        column = _C4_COLUMN_BY_ID.get(id(action)) or _C4_COLUMN_OF[action]
        cell = self.cell
        for s in column:  # lowest_free(col): there is one, the move was offered
            if cell[s] is None:
                break
        self.work = WORK
        self.step_no += 1
        cur = self.current
        cell[s] = cur
        self.count += 1
        if s is column[-1]:  # require lowest_free(col) != none, tested again for this column alone
            self.offered.remove(action)
        for ray, back in _C4_RAYS[s]:  # four_through(s, current)
            n = 0
            for t in ray:
                if cell[t] is not cur:
                    break
                n += 1
            for t in back:
                if cell[t] is not cur:
                    break
                n += 1
            if n >= 3:
                self._finish("winner", [cur])
                return
        if self.count == 42:
            self._finish("draw", [])
            return
        self.current, new_round = _C4_NEXT[cur]
        if new_round:
            self.round += 1


GAMES = {"tictactoe": TicTacToeCeiling, "connect4": ConnectFourCeiling}
