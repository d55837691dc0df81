"""Exact analysis of small games over the explicit game tree: chance outcomes are branches
with their probabilities (interpreter/engine/explicit.py), decisions branch on the legal moves.

`perft_tree` and `count_terminal` count plies of either kind (`regelwerk perft --chance`);
`expected_outcome` works out, exactly as fractions, each player's chance to win and expected
final score when every player picks uniformly at random among the legal moves
(`regelwerk analyze`). Positions reached along different paths are worked out once: they are
recognised by their state (not their history), so a game like tic-tac-toe is 5,478 positions,
not 255,168 games.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..engine.errors import EngineError
from .liveness import history_only_vars
from .positions import position_key
from .symmetry import SymmetricKeys, Symmetries, board_symmetries

MAX_POSITIONS = 2_000_000
# A tree whose estimated size (Progress.estimate_left, checked each second after WARM_UP
# seconds) is more than HOPELESS times the position limit is refused then, not when the limit
# is reached minutes later (13-card Goofspiel: about 1.5e28 positions, refused after 7 min 25 s
# before). Early estimates run high where later positions are found worked out already
# (5-card Goofspiel: 3.7x the true count after 5 s), so the margin is wide.
HOPELESS = 1000
WARM_UP = 10.0
MAX_DEPTH = 500  # moves and outcomes on one path; deeper games are simulated


def children(game: Any) -> list[tuple[Any, Fraction | None]]:
    """The branches at a position: chance outcomes with their probabilities, or the legal
    moves (probability None: a player decides)."""
    if game.chance_node is not None:
        return game.chance_outcomes()
    return [(a, None) for a in game.legal_actions()]


def perft_tree(game: Any, depth: int) -> int:
    """Sequences of exactly `depth` plies, a ply being a move or a chance outcome."""
    if depth == 0:
        return 1
    total = 0
    for x, _p in children(game):
        child = game.clone()
        child.apply(x)
        total += perft_tree(child, depth - 1)
    return total


def count_terminal(game: Any, depth: int) -> int:
    """Complete games (terminal histories) of at most `depth` plies."""
    if game.is_over:
        return 1
    if depth == 0:
        return 0
    total = 0
    for x, _p in children(game):
        child = game.clone()
        child.apply(x)
        total += count_terminal(child, depth - 1)
    return total


@dataclass
class Outcome:
    """Exact results of uniform random play from a position."""

    players: tuple[str, ...]
    win: dict[str, Fraction]  # the chance that the player is among the winners
    draw: Fraction  # the chance that nobody wins
    score: dict[str, Fraction] | None  # expected final score, when the ruleset scores
    positions: int = 0  # distinct positions worked out
    seconds: float = 0.0
    terminal: int = field(default=0)  # distinct finished positions
    # the chance that the player shares the win with others (a tie for first place in
    # `finish ranking`, or `finish winner [A, B]`: a shared win, not a draw), and that anyone does
    shared: dict[str, Fraction] = field(default_factory=dict)
    shared_win: Fraction = Fraction(0)
    # the board symmetries positions were merged by (symmetry.py), or why there were none
    symmetry: Symmetries = field(default_factory=lambda: Symmetries(None, (), "not looked for"))

    @property
    def outright(self) -> dict[str, Fraction]:
        """The chance that the player wins alone."""
        return {p: self.win[p] - self.shared.get(p, Fraction(0)) for p in self.players}


@dataclass
class Progress:
    """How far a long count or analysis is: what a progress display shows. `done` is the share
    of the tree worked out, by probability (each branch weighed as uniform random play and
    chance would reach it), so `positions / done` estimates the whole."""

    positions: int
    done: float
    seconds: float

    @property
    def estimate_left(self) -> int | None:
        """About how many more positions, from the share done so far (None before any is)."""
        if self.done <= 0:
            return None
        return max(0, round(self.positions / self.done) - self.positions)


@dataclass
class Partial:
    """What an interrupted analysis knows: each player's chance to win lies between `win` and
    `win + (1 - done)`; the draw between `draw` and `draw + (1 - done)`."""

    players: tuple[str, ...]
    done: float
    win: dict[str, float]
    draw: float
    positions: int
    seconds: float


class Interrupted(EngineError):
    """An analysis stopped before it finished (Ctrl-C): `partial` holds what it had."""

    def __init__(self, partial: Partial):
        super().__init__(f"interrupted after {partial.positions:,} positions, "
                         f"{100 * partial.done:.1f}% of the tree worked out")
        self.partial = partial


class _Solver:
    def __init__(self, max_positions: int, time_limit: float | None, history_only: frozenset[str] = frozenset(),
                 on_progress: Callable[[Progress], None] | None = None, every: float = 1.0,
                 key: Callable[[Any], str] | None = None):
        self.memo: dict[str, tuple] = {}
        self.max_positions = max_positions
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.terminal = 0
        self.open: set[str] = set()  # positions on the path being worked out
        self.history_only = history_only
        self.key = key or (lambda g: position_key(g, history_only))  # a position's memo key
        self.on_progress, self.every = on_progress, every
        self.started = time.monotonic()
        self.next_report = self.started + every
        self.next_estimate = self.started + WARM_UP
        # the share of the tree finished, and what it adds to each chance (floats: for progress
        # and for an interrupted run's bounds; the answer itself is exact)
        self.done = 0.0
        self.win_so_far: list[float] = []
        self.draw_so_far = 0.0

    def progress(self) -> Progress:
        return Progress(len(self.memo), self.done, time.monotonic() - self.started)

    def _finished(self, mass: float, out: tuple) -> None:
        """A part of the tree known (a finished game or a position worked out before)."""
        self.done += mass
        win = self.win_so_far or [0.0] * len(out[0])
        self.win_so_far = [w + mass * float(x) for w, x in zip(win, out[0], strict=True)]
        self.draw_so_far += mass * float(out[1])

    def _done_text(self) -> str:
        return f" ({100 * self.done:.1f}% of the tree worked out)"

    def _limits(self, key: str) -> None:
        if key in self.open:
            raise EngineError("the game can come back to a position it has been in (a cycle): exact "
                              "analysis works on games that always move forward; simulate instead")
        if len(self.open) >= MAX_DEPTH:
            raise EngineError(f"more than {MAX_DEPTH} moves and chance outcomes deep: too deep to work "
                              "out exactly (simulate instead)")
        if len(self.memo) >= self.max_positions:
            raise EngineError(f"more than {self.max_positions:,} positions{self._done_text()}: too large to "
                              "work out exactly (raise --max-positions, or simulate instead)")
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise EngineError(f"out of time{self._done_text()}: too large to work out exactly (simulate instead)")
        if now >= self.next_estimate:
            self.next_estimate = now + 1.0
            self._hopeless()
        if self.on_progress is not None and now >= self.next_report:
            self.next_report = now + self.every
            self.on_progress(self.progress())

    def _hopeless(self) -> None:
        """Refuse a tree whose estimated size is far past the position limit (HOPELESS)."""
        p = self.progress()
        left = p.estimate_left
        if left is None or p.positions + left <= HOPELESS * self.max_positions:
            return
        total = p.positions + left
        size = f"{total:,}" if total < 10 ** 9 else f"{total:.1e}"
        raise EngineError(f"about {size} positions by the estimate after {p.seconds:.0f} s{self._done_text()}, "
                          f"more than {HOPELESS:,} times the limit of {self.max_positions:,}: too large to work "
                          "out exactly (simulate instead, or raise --max-positions)")

    def value(self, game: Any, mass: float = 1.0) -> tuple:
        """(win chances, draw chance, expected scores or None, shared-win chances, chance of a
        shared win), the per-player ones as tuples. `mass`: the chance of reaching `game`."""
        key = self.key(game)
        hit = self.memo.get(key)
        if hit is not None:
            self._finished(mass, hit)
            return hit
        self._limits(key)
        if game.is_over:
            self.terminal += 1
            out = _final(game)
            self._finished(mass, out)
            self.memo[key] = out
            return out
        # the children, each weighed by its chance (in this frame: a deep game needs every one)
        branches = children(game)
        if not branches:
            raise EngineError("a position with no move and no outcome that is not the end")
        n = len(branches)
        win = [Fraction(0)] * len(game.players)
        shared = [Fraction(0)] * len(game.players)
        draw = tie = Fraction(0)
        score: list[Fraction] | None = [Fraction(0)] * len(game.players)
        self.open.add(key)
        for x, p in branches:
            weight = p if p is not None else Fraction(1, n)
            child = game.clone()
            child.apply(x)
            cw, cd, cs, csh, ct = self.value(child, mass * float(weight))
            win = [a + weight * b for a, b in zip(win, cw, strict=True)]
            shared = [a + weight * b for a, b in zip(shared, csh, strict=True)]
            draw += weight * cd
            tie += weight * ct
            if cs is None or score is None:
                score = None
            else:
                score = [a + weight * b for a, b in zip(score, cs, strict=True)]
        self.open.discard(key)
        out = (tuple(win), draw, None if score is None else tuple(score), tuple(shared), tie)
        self.memo[key] = out
        return out


def _final(game: Any) -> tuple:
    """The value of a finished game: who won (alone or shared), a draw, the scores."""
    winners = set(game.winners)
    scores = game.scores
    tie = len(winners) > 1
    return (tuple(Fraction(int(p in winners)) for p in game.players), Fraction(int(not winners)),
            None if not scores else tuple(Fraction(scores.get(p, 0)) for p in game.players),
            tuple(Fraction(int(tie and p in winners)) for p in game.players), Fraction(int(tie)))


def expected_outcome(game: Any, max_positions: int = MAX_POSITIONS, time_limit: float | None = None,
                     on_progress: Callable[[Progress], None] | None = None, every: float = 1.0,
                     symmetry: bool = True) -> Outcome:
    """Each player's exact chance to win and expected final score under uniform random play,
    from `game` on (a game with explicit chance: every chance event is weighed exactly).
    Positions are recognised by their state, leaving out variables that only record the past
    (liveness.py), and with `symmetry`, up to the board's rotations and reflections the rules
    cannot tell apart (symmetry.py). `on_progress` is called about every `every` seconds;
    Ctrl-C raises `Interrupted` with the bounds known so far."""
    if not game.explicit:
        raise EngineError("exact analysis needs a game with explicit chance: new_game(chance=\"explicit\")")
    started = time.perf_counter()
    model = game.prog.model
    history_only = history_only_vars(model)
    sym = board_symmetries(model, game.prog.boards) if symmetry else Symmetries(None, (), "turned off")
    key = SymmetricKeys(model, sym, history_only).key if sym else None
    solver = _Solver(max_positions, time_limit, history_only, on_progress, every, key)
    players = tuple(game.players)
    game = game.clone()
    game._observing = False  # no information states are asked for: not worth noting them
    try:
        win, draw, score, shared, tie = solver.value(game)
    except KeyboardInterrupt:
        raise Interrupted(Partial(players, solver.done, dict(zip(players, solver.win_so_far or [0.0] * len(players),
                                                                  strict=True)),
                                  solver.draw_so_far, len(solver.memo), time.perf_counter() - started)) from None
    return Outcome(players, dict(zip(players, win, strict=True)), draw,
                   None if score is None else dict(zip(players, score, strict=True)),
                   len(solver.memo), time.perf_counter() - started, solver.terminal,
                   dict(zip(players, shared, strict=True)), tie, sym)


def partial_text(title: str, part: Partial) -> str:
    """What `regelwerk analyze` prints when interrupted: the bounds known so far."""
    left = 1 - part.done
    width = max(6, *(len(p) for p in part.players))
    rows = [f"{title}: interrupted after {part.positions:,} positions in {part.seconds:.1f} s, "
            f"{100 * part.done:.1f}% of the tree worked out (by the chance of reaching each part)", "",
            f"{'player':<{width}}  {'wins at least':>14}  {'at most':>8}"]
    rows += [f"{p:<{width}}  {part.win[p]:>14.4f}  {min(1.0, part.win[p] + left):>8.4f}" for p in part.players]
    rows.append(f"{'draw':<{width}}  {part.draw:>14.4f}  {min(1.0, part.draw + left):>8.4f}")
    return "\n".join(rows)


def outcome_text(title: str, out: Outcome) -> str:
    """The table `regelwerk analyze` prints."""
    rows = [f"{title}: {len(out.players)} players, every move uniformly at random, chance exact",
            f"positions worked out: {out.positions:,} ({out.terminal:,} finished) in {out.seconds:.2f} s",
            symmetry_text(out.symmetry), ""]
    sharing = out.shared_win != 0
    width = max(10 if sharing else 6, *(len(p) for p in out.players))
    head = f"{'player':<{width}}  {'wins':>22}"
    if sharing:
        head += f"  {'of them shared':>22}"
    if out.score is not None:
        head += f"  {'expected score':>22}"
    rows.append(head)
    for p in out.players:
        line = f"{p:<{width}}  {_frac(out.win[p]):>22}"
        if sharing:
            line += f"  {_frac(out.shared[p]):>22}"
        if out.score is not None:
            line += f"  {_frac(out.score[p]):>22}"
        rows.append(line)
    if sharing:
        rows.append(f"{'shared win':<{width}}  {_frac(out.shared_win):>22}")
    rows.append(f"{'draw':<{width}}  {_frac(out.draw):>22}")
    if sharing:
        rows += ["", "A shared win (a tie for first place) is not a draw: each player in it counts it "
                 "among their wins, so the wins and the draw add up to more than 1."]
    return "\n".join(rows)


def symmetry_text(sym: Symmetries) -> str:
    """One line on the board symmetries used, or why none were."""
    if sym:
        return (f"positions that are rotations or reflections of each other worked out once "
                f"({len(sym.maps)} symmetries of the board besides itself)")
    return f"no board symmetry used: {sym.reason}"


def outcome_json(title: str, out: Outcome) -> dict:
    return {"ruleset": title, "players": list(out.players),
            "win": {p: str(v) for p, v in out.win.items()}, "draw": str(out.draw),
            "outright": {p: str(v) for p, v in out.outright.items()},
            "shared": {p: str(out.shared.get(p, 0)) for p in out.players}, "shared_win": str(out.shared_win),
            "score": None if out.score is None else {p: str(v) for p, v in out.score.items()},
            "positions": out.positions, "finished_positions": out.terminal,
            "symmetries": len(out.symmetry.maps), "symmetry_note": symmetry_text(out.symmetry)}


def _frac(x: Fraction) -> str:
    text = str(x)
    return f"{text} ({float(x):.4f})" if x.denominator != 1 else text


class CountInterrupted(EngineError):
    """A count stopped before it finished (Ctrl-C): what it had counted, and how much of the
    tree that was (`done`, each branch of the first plies weighed alike)."""

    def __init__(self, counted: int, done: float):
        super().__init__(f"interrupted after {100 * done:.1f}% of the tree: {counted:,} counted so far")
        self.counted, self.done = counted, done


def count_with_progress(game: Any, depth: int, count: Callable[[Any, int], int],
                        branches: Callable[[Any], list], on_progress: Callable[[Progress], None],
                        every: float = 1.0, levels: int = 3) -> int:
    """`count(game, depth)` (perft, perft_tree, count_games, count_terminal: each the sum of its
    children's counts one ply less, below a position that is not over) worked out subtree by
    subtree for the first `levels` plies, so `on_progress` hears how far it is; the subtrees
    themselves run at full speed. Ctrl-C raises CountInterrupted with the count so far."""
    started = time.monotonic()
    state = {"counted": 0, "done": 0.0, "next": started + every}

    def split(g: Any, d: int, left: int, mass: float) -> int:
        kids = [] if left == 0 or d <= 1 or g.is_over else branches(g)
        if not kids:
            n = count(g, d)
            state["counted"] += n
            state["done"] += mass
            now = time.monotonic()
            if now >= state["next"]:
                state["next"] = now + every
                on_progress(Progress(state["counted"], state["done"], now - started))
            return n
        total = 0
        for x in kids:
            child = g.clone()
            child.apply(x)
            total += split(child, d - 1, left - 1, mass / len(kids))
        return total

    try:
        return split(game, depth, levels, 1.0)
    except KeyboardInterrupt:
        raise CountInterrupted(state["counted"], state["done"]) from None


def decision_branches(game: Any) -> list:
    """The moves at a decision (perft and count_games branch on these)."""
    return game.legal_actions()


def ply_branches(game: Any) -> list:
    """The moves or chance outcomes at a position (perft_tree and count_terminal)."""
    return [x for x, _p in children(game)]
