"""The bridge's states: games shared until they differ, and answers kept by history.

OpenSpiel's algorithms make nearly every state as `parent.child(action)`, a clone and one
move, and CFR walks the same tree once per iteration asking every state the same questions:
whose turn, which moves, the information state, the returns. Two things make that cheap:

- **Copy on write** (`Box`): a clone shares its parent's regelwerk game and notes the moves
  played since. The game is made (the shared one copied, those moves replayed) only when a
  question needs it; a shared game is never changed in place.
- **Answers by history** (`Memo`): when a position is a function of the moves and chance
  outcomes that led to it (explicit chance, or none: not sampled chance, where the seed
  decides too), each history's answers are kept once worked out. A state whose questions
  are all answered never makes its game. The memo holds at most `capacity` histories (the
  `memo` game parameter); beyond that, new histories are answered without being kept.

The answers are the ones the game would give: information states are each player's own
(interpreter/observe/infostate.py), so keeping them shows nothing to anybody else.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

from .interpreter.engine.explicit import Spoiled
from .interpreter.engine.game import Game

__all__ = ["Answers", "Box", "Memo"]

Entry = Any  # one step of a history: an action index, or a tuple of them (a simultaneous node)


class Answers:
    """What one history's state answered so far (None: not asked yet). What differs per player
    (legal moves, information state, observation) sits in one small map, made when first
    needed: most histories are asked for one player's, many for nobody's."""

    __slots__ = ("player", "chance", "terminal", "returns", "by_player", "kids")

    LEGAL, INFO, OBSERVATION, TENSOR = range(4)  # by_player's keys: 4 * player + kind (openspiel.py
    # reads LEGAL and INFO that way inline, on its shortest paths)

    def __init__(self) -> None:
        self.player: int | None = None
        self.chance: list[tuple[int, float]] | None = None
        self.terminal: bool | None = None
        self.returns: list[float] | None = None
        self.by_player: dict[int, Any] | None = None  # 4 * player + kind -> answer
        # the answers of the histories one entry longer, by that entry, once states went there twice:
        # a child finds its answers without hashing its whole history (and the entry was legal)
        self.kids: dict[Entry, Answers] | None = None

    def get(self, kind: int, player: int) -> Any:
        kept = self.by_player
        return None if kept is None else kept.get(4 * player + kind)

    def put(self, kind: int, player: int, value: Any) -> Any:
        kept = self.by_player
        if kept is None:
            kept = self.by_player = {}
        kept[4 * player + kind] = value
        return value


class Memo:
    """Answers by history, for at most `capacity` histories."""

    __slots__ = ("capacity", "entries", "promote")

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.entries: dict[tuple, Answers] = {}
        self.promote = True  # see `made`

    def made(self) -> None:
        """A game was made for a state while the memo fills (a first walk of the tree): move
        every object the cyclic collector tracks to its oldest generation, without a
        collection, which also restarts the count of new objects that sets one off.

        A walk that fills the memo (CFR's set-up: every state's game made once) makes many
        small objects that live as long as the game: the memo's answers, the states OpenSpiel
        keeps, their games. The collector takes them for young garbage, examines them again
        as they age, and the full collection that sets off walks the whole heap (10-15% of
        Leduc's set-up). This changes no setting (enabled, thresholds) and leaves no object
        frozen. A process that turned the collector off is left alone, and so is one that
        froze objects of its own (`gc.freeze`, a server before it forks: `unfreeze` would
        thaw them): seen once, this memo stops. What it defers is only garbage in reference
        cycles, to the next full collection: the bridge's walk makes none
        (tests/test_openspiel_collector.py), and a search beyond a full memo is collected
        as usual."""
        if self.promote and len(self.entries) < self.capacity and gc.isenabled():
            if gc.get_freeze_count():  # counts the frozen objects: 0 at once when there are none
                self.promote = False
            else:
                gc.freeze()  # every generation into the permanent one, the counts to 0 ...
                gc.unfreeze()  # ... and all back into the oldest: nothing is left frozen

    def answers(self, key: tuple) -> Answers | None:
        """The answers kept for `key`, new ones while there is room, else None."""
        found = self.entries.get(key)
        if found is None and len(self.entries) < self.capacity:
            found = self.entries[key] = Answers()
        return found


class Box:
    """A state's regelwerk game, made when first needed and copied on write.

    `key` is the history from the initial state (kept only with a memo). Either `made` is the
    game at that history, or `base` is a game no one changes any more and `since` the history
    entries that lead from it to this state. OpenSpiel clones a Python state by deep-copying
    its attributes: `__deepcopy__` lets the copy hold the same box (the cheapest deep copy
    there is: Python's `copy.deepcopy` skips its bookkeeping for an object that is its own
    copy), and a state about to change its box takes `mine()` first, which copies a box
    that more than one state may hold. (OpenSpiel pickles states too: regelwerk/openspiel.py
    registers how a box is pickled, as its game's save.)"""

    __slots__ = ("made", "shared", "held", "base", "since", "key", "memo", "replay", "found", "up")

    def __init__(self, game: Game, memo: Memo | None, replay: Callable[[Game, Entry, bool], None] | None):
        self.made: Game | None = game
        self.shared = False  # `made` is also another box's base: change a copy of it
        self.held = False  # more than one state may hold this box: change a copy of it (mine())
        self.base: Game | None = None
        self.since: tuple = ()
        self.key: tuple = ()
        self.memo = memo
        self.replay = replay
        self.found: Answers | None = None  # the memo's answers for `key`, once looked up
        self.up: Answers | None = None  # the parent history's answers, while `found` is not looked up

    @classmethod
    def sharing(cls, game: Game, memo: Memo | None, replay: Callable[[Game, Entry, bool], None] | None) -> Box:
        """A box whose game is a copy of `game`, made when first needed (`game` is never changed)."""
        box = cls(game, memo, replay)
        box.made, box.base = None, game
        return box

    def game(self) -> Game:
        """The game at this state, to read. The moves since `base` are played on the copy
        itself (it is this box's own), not each on a copy of its own as `Game.apply` does;
        a move that stops for chance part-way is played again the usual way."""
        g = self.made
        if g is None:
            g = self.base.clone()
            for i, entry in enumerate(self.since):
                try:
                    self.replay(g, entry, True)
                except Spoiled:  # half-moved: made again, the usual way (rare: only where chance stops it)
                    g = self.base.clone()
                    for done in self.since[:i + 1]:
                        self.replay(g, done, False)
            self.made, self.base, self.since = g, None, ()
            if self.memo is not None:
                self.memo.made()
        return g

    def own(self) -> Game:
        """The game at this state, to change in place (copied first if another box shares it)."""
        g = self.game()
        if self.shared:
            g = self.made = g.clone()
            self.shared = False
        return g

    def answers(self) -> Answers | None:
        """This history's answers (None: no memo, or a full one that does not hold it)."""
        found = self.found
        if found is None and self.memo is not None:
            found = self.found = self.memo.answers(self.key)
            up, self.up = self.up, None
            if up is not None and found is not None and found.player is not None:
                # a history some state reached before: its parent leads here directly from now on
                # (not on the first visit: a walk that goes everywhere once would pay for nothing)
                kids = up.kids
                if kids is None:
                    kids = up.kids = {}
                kids[self.key[-1]] = found
        return found

    def played(self, entry: Entry) -> None:
        """`entry` was applied to the game in place: the history grows by it."""
        if self.memo is not None:
            self._grow(entry)

    def defer(self, entry: Entry, kid: Answers | None = None) -> None:
        """Play `entry` later, when a question needs the game (its legality is known); `kid`:
        the answers of the history it leads to, when the caller has them at hand."""
        g = self.made
        if g is not None:
            self.base, self.since, self.made, self.shared = g, (entry,), None, False
        else:
            self.since = (*self.since, entry)
        if kid is None:
            self._grow(entry)
        else:
            self.key, self.found, self.up = (*self.key, entry), kid, None

    def _grow(self, entry: Entry) -> None:
        """The history grows by `entry`: its answers are the parent's kid, if a state went
        there twice before, else looked up in the memo when first asked (see `answers`)."""
        parent = self.found
        self.key = (*self.key, entry)
        kids = parent.kids if parent is not None else None
        kid = kids.get(entry) if kids is not None else None
        self.found, self.up = kid, (parent if kid is None else None)

    def __deepcopy__(self, memo: dict) -> Box:
        self.held = True  # the copied state holds this very box: whoever changes it takes mine()
        return self

    def moved(self, entry: Entry, kid: Answers) -> Box:
        """`mine()` then `defer(entry, kid)` in one step: the box of a state that plays `entry`
        to a history whose answers `kid` its parent's answers lead to (every child of a walk
        after the second)."""
        if not self.held:
            self.defer(entry, kid)
            return self
        copy = Box.__new__(Box)
        copy.made, copy.shared, copy.held, copy.memo, copy.replay = None, False, False, self.memo, self.replay
        if self.made is not None:
            self.shared = True
            copy.base, copy.since = self.made, (entry,)
        else:
            copy.base, copy.since = self.base, (*self.since, entry)
        copy.key, copy.found, copy.up = (*self.key, entry), kid, None
        return copy

    def mine(self) -> Box:
        """This box, to change, if only one state holds it; else a new box at the same history
        (sharing its game, copied on write) for the state about to change."""
        if not self.held:
            return self
        copy = Box.__new__(Box)
        copy.made, copy.shared, copy.held, copy.key, copy.memo, copy.replay = \
            None, False, False, self.key, self.memo, self.replay
        copy.found, copy.up = self.found, self.up
        if self.made is not None:
            self.shared = True
            copy.base, copy.since = self.made, ()
        else:
            copy.base, copy.since = self.base, self.since
        return copy
