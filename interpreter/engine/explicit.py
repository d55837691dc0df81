"""Explicit chance and the history of a game: chance events as nodes of the game tree.

A game made with `new_game(chance="explicit")` never draws on its generator. Each primitive
chance event (one die, one item of a `random`, the next item of a shuffle, one `bernoulli`;
interpreter/stdlib/chance.py) asks the game which outcome happened. When nobody has said so yet,
the move that ran into it stops: the game stays exactly as it was before the move and becomes
a *chance node* (`is_chance_node`), whose `chance_outcomes()` are the event's outcomes with
exact probabilities. Playing an outcome (`apply(value)`) plays the move again from the same
position on a copy, with the outcomes chosen so far fed to its chance events in order, until
the move either reaches its next decision (the copy becomes the game) or needs one more
outcome (the next chance node). Generated rule code therefore needs no way to pause inside an
effect: a move with k chance events runs k + 1 times, which analysis of small games affords.

The same route keeps a game's *history* (`history=True`, implied by explicit chance): every
move and outcome in order, and for each player a digest of everything they have observed
(interpreter/observe/infostate.py), from which information states are built.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import EngineError, IllegalAction
from .moves import Action, same_value
from .values import value_text

CHANCE_MODES = ("sampled", "explicit")
_NO_FEED: deque = deque()  # the feed of a move given no outcomes: shared, never added to (only popped when not empty)


class ChanceNeeded(Exception):  # noqa: N818 - control flow, never shown to a user
    """Raised by a chance event that no outcome has been chosen for yet."""

    def __init__(self, kind: str, what: str, values: list, weights: list[int] | None):
        super().__init__(what)
        self.kind = kind
        self.what = what
        self.values = values
        self.weights = weights


class Spoiled(Exception):  # noqa: N818 - control flow, never shown to a user
    """A move played in place (`advance(..., in_place=True)`) needed a chance outcome part-way:
    the game is left half-moved, so the caller makes it again and plays the move the usual
    way, on a copy, which stops at a chance node."""


@dataclass(frozen=True, slots=True)
class ChanceNode:
    """Where a game waits for chance: the move being played (None: the start of the game)
    and the decision it answers, the outcomes chosen so far (indices, in order), and the
    event that needs one now."""

    move: Action | None
    phase: str | None  # start(phase=...): where the start jumps to
    pending: dict | None
    fed: tuple[int, ...]
    kind: str
    what: str
    values: tuple
    weights: tuple[int, ...] | None  # None: every outcome equally likely

    def outcomes(self) -> list[tuple[Any, Fraction]]:
        n = len(self.values)
        if self.weights is None:
            return [(v, Fraction(1, n)) for v in self.values]
        total = sum(self.weights)
        return [(v, Fraction(w, total)) for v, w in zip(self.values, self.weights, strict=True)]

    def index_of(self, outcome: Any) -> int:
        """The outcome `outcome` names: one of the values, or its text (`"4"`, `"K"`)."""
        for i, v in enumerate(self.values):
            if same_value(v, outcome):
                return i
        if isinstance(outcome, str):
            for i, v in enumerate(self.values):
                if value_text(v) == outcome.strip():
                    return i
        raise IllegalAction(f"{value_text(outcome)}: not an outcome of the chance event the game "
                            f"waits for ({self.kind} {self.what}: {self.shown()})")

    def shown(self) -> str:
        return ", ".join(value_text(v) for v in self.values)

    def to_json(self) -> dict:
        from .values import jsonable

        return {"move": None if self.move is None else str(self.move), "phase": self.phase,
                "pending": jsonable(self.pending), "fed": list(self.fed)}


def sample(game: Any, rng: Any) -> object:
    """One outcome of the chance node `game` waits at, drawn by its exact probabilities with
    `rng.random()` (a random playout's or an agent's generator, not the game's)."""
    x = rng.random()
    outcomes = game.chance_outcomes()
    for value, p in outcomes:
        x -= p
        if x < 0:
            return value
    return outcomes[-1][0]


def pick(game: Any, kind: str, what: str, values: list, weights: list[int] | None) -> Any:
    """The outcome of one chance event in an explicit game: decided by nobody if there is
    only one, else the next fed outcome, else the move stops at a chance node."""
    if len(values) == 1:
        return values[0]
    feed = game._feed
    if feed:
        i = feed.popleft()
        if not 0 <= i < len(values):
            raise EngineError(f"outcome {i} of {kind} {what} does not exist: the replayed move "
                              f"took another course (rules that read the clock or the seed?)")
        return values[i]
    raise ChanceNeeded(kind, what, values, None if weights is None else weights)


# ---------------------------------------------------------------------- playing
def play(game: Any, x: Any, offered: bool = False, in_place: bool = False) -> None:
    """`Game.apply` for a game that keeps its history or has explicit chance: a move at a
    decision, an outcome at a chance node. `offered`: `x` is the very move object the game
    listed at its decision (found by identity), so it need not be looked for again.
    `in_place`: see `advance`."""
    node = game.chance_node
    if node is None:
        move = x if offered else game._legal_move(x)
        remember(game, ("move", game.pending["player"], str(move)))
        advance(game, move, None, game.pending, (), offered, in_place)
        return
    if isinstance(x, Action):
        raise IllegalAction(f"{x}: the game waits for chance ({node.kind} {node.what}), not for a "
                            f"move: apply one of its outcomes ({node.shown()})")
    i = node.index_of(x)
    remember(game, ("chance", i, value_text(node.values[i])))
    advance(game, node.move, node.phase, node.pending, (*node.fed, i), in_place=in_place)


def can_play_in_place(game: Any) -> bool:
    """Whether `play(game, ..., in_place=True)` may be used: an untraced game between moves
    (not inside an open `simultaneously`, no move taken back at this decision)."""
    return game.tracking and not game.record and game.window is None and not game.abandoned


def play_part(game: Any, move: Action, player: str) -> None:
    """`Game.apply` for such a game in an open `simultaneously`: `player` commits `move`."""
    pending = game.window["pending"][player]
    remember(game, ("move", player, str(move)))
    advance(game, move, None, pending, ())


def start(game: Any, phase: str | None) -> None:
    """`Game.start` for such a game: the start may stop at a chance node too (a deal)."""
    advance(game, None, phase, None, ())


def advance(game: Any, move: Action | None, phase: str | None, pending: dict | None,
            fed: tuple[int, ...], offered: bool = False, in_place: bool = False) -> None:
    """Play `move` (or the start) on a copy with the outcomes `fed`; the copy becomes the game
    when the move is done, or the game becomes a chance node when it needs another outcome.
    `offered`: `move` is one of the moves listed at this decision, the very object.
    `in_place`: the caller has a spare copy of the game (the OpenSpiel bridge replays moves on
    a copy it just made), so the move is played on the game itself, not on another copy; if it
    then needs a chance outcome, the half-moved game is no use and `Spoiled` is raised (see
    `can_play_in_place` for the games this may be used on)."""
    if in_place:
        game._settle_observation()  # before the position moves on, as clone() does
        trial = game
    else:
        trial = game.clone()
    resumed = trial.chance_node is not None  # the move waited for chance: its decision comes back
    trial.chance_node = None
    window = trial.window is not None  # the move commits a part of an open `simultaneously`
    if window:
        trial.pending = {"kind": "simultaneous", "players": [p for p in trial.window["players"]
                                                             if p in trial.window["pending"]]}
    else:
        trial.pending = pending
    if resumed or window or move is None:  # else the moves listed at the decision still hold
        trial._legal = None
    trial._feed = deque(fed) if fed else _NO_FEED
    try:
        if move is None:
            trial._start_now(phase)
        elif window:
            trial.commit(trial._legal_for(pending["player"])[_index(trial, move, pending["player"])],
                         pending["player"])
        else:
            trial._play_checked(move if offered and trial._legal is not None else trial._legal_move(move))
    except ChanceNeeded as need:
        if in_place:
            raise Spoiled(need.kind, need.what) from None
        game.chance_node = ChanceNode(move, phase, pending, fed, need.kind, need.what,
                                      tuple(need.values), None if need.weights is None else tuple(need.weights))
        game.pending = None
        game._legal = None
        return
    if trial._feed:
        raise EngineError("the replayed move needed fewer chance outcomes than were chosen")
    trial._feed = _NO_FEED
    if not in_place:
        game.__dict__ = trial.__dict__
    if game._observing:  # noted when next needed (infostate.settle): a last move's never is
        game._unobserved = (move, pending)


def _index(game: Any, move: Action, player: str) -> int:
    """Where `move` stands among `player`'s legal moves in the open window."""
    from .moves import same_move

    for i, m in enumerate(game._legal_for(player)):
        if same_move(m, move):
            return i
    raise IllegalAction(f"{move}: {game.explain(move, player).reason}")


# ---------------------------------------------------------------------- history
def remember(game: Any, entry: tuple) -> None:
    """Add an entry to the history, a linked list of (earlier, entry) pairs: appending and
    copying a game cost the same however long it has run."""
    game.past = (game.past, entry)


def history(game: Any) -> list[tuple]:
    out = []
    cell = game.past
    while cell is not None:
        cell, entry = cell
        out.append(entry)
    out.reverse()
    return out


