"""A traced game keeps its steps in a short form while it plays and makes them trace records
only when `game.trace` is read (interpreter/engine/recording.py): the move itself instead of its
bindings and text, an explain function's raw values instead of check records, the journal's
entries instead of changes. Whatever is kept that way must give the same records as if each
step had been made a record the moment it closed: a value that changed in place after the step
would show up here. So each game is played twice with the same moves, its trace read after
every move (eager) and once at the end (lazy), and both must be equal, byte for byte as JSON;
also for a clone made mid-game and a game saved and loaded mid-game, both played on.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from regelwerk.interpreter.engine.game import Game
from regelwerk.interpreter.tools.trace import trace_lines

import regelwerk

ROOT = Path(__file__).resolve().parent.parent
# Records written whole and then changed in place (a step's changes must show them as they were),
# preconditions that read records and maps (their values copied for the checks) and moves whose argument is
# a record (their bindings): what the bundled rulesets do seldom or never.
KEEPSAKES = """
game "Keepsakes"
players A, B
record Pos(x: int)
state
    pos: Player -> Pos = {A: Pos(x: 0), B: Pos(x: 0)}
    seen: Player -> list Pos = {A: [Pos(x: 0)], B: [Pos(x: 0)]}
    p: Pos = Pos(x: 0)
    n: int = 0
    tally: Player -> int = {A: 0, B: 0}
action place(k in 1..3)
    require pos[current].x >= 0
    require len(seen[current]) > 0
    require len(tally) == 2
    set p = Pos(x: k)
    set seen[current] = [Pos(x: k), p]
    add 1 to n
    if n >= 30
        finish draw
action nudge(k in 1..3)
    set pos[current].x = k
    set p.x = k + 1
    add k to tally[current]
    add 1 to n
    if n >= 30
        finish draw
action pick(q in seen[current])
    require q.x >= 0
    set pos[current] = q
    add 1 to n
    if n >= 30
        finish draw
flow
    repeat
        turn
            play place, nudge, pick
"""
# A device noted with maps of records (its inputs, and maps of them in its detail) that the
# move then changes in place: each step must show them as they were when it rolled.
NOTED = """
game "Noted maps"
players A, B
record Pos(x: int)
state
    pos: Player -> Pos = {A: Pos(x: 0), B: Pos(x: 0)}
    n: int = 0
device peek(m: Player -> Pos): int
    "Roll against the positions."
    roll
        let ds = roll(1, 6)
        result ds[0] with {"seen": m, "twice": {"first": m}}
action go(k in 1..3)
    "Move and look."
    let r = peek(pos)
    set pos[current].x = pos[current].x + k + r
    add 1 to n
    if n >= 8
        finish draw
flow
    repeat
        turn
            play go
"""
CASES = [("rulesets/khan/khan.rules", 3), ("rulesets/root/root.rules", 2),
         ("rulesets/classic/tictactoe.rules", 2), ("rulesets/classic/checkers.rules", 2),
         ("rulesets/shogun/shogun.rules", 4), (KEEPSAKES, 2), (NOTED, 2)]
MOVES = 150  # per game at most: enough for every kind of step, short enough for the suite
SPLIT = 5  # the move after which a clone and a save are made (tic-tac-toe ends by the ninth)


def _dump(trace: list | None) -> str:
    return json.dumps(trace, ensure_ascii=False, sort_keys=True)


def _play(game: Game, rnd: random.Random, moves: int, eager: bool) -> None:
    """Random moves; every third one given as its text, so that the engine's long path
    (`_take`) records it, the others as offered (`_take_recorded` where it applies)."""
    for n in range(moves):
        if game.is_over:
            return
        move = rnd.choice(game.legal_actions())
        game.apply(str(move) if n % 3 == 2 else move)
        if eager:
            assert game.trace is not None  # reading makes every step so far a record now


@pytest.fixture(scope="module", params=CASES, ids=lambda c: Path(c[0]).stem if c[0].endswith(".rules") else c[0].split('"')[1])
def case(request: pytest.FixtureRequest) -> tuple[regelwerk.Ruleset, int]:
    source, players = request.param
    if source.endswith(".rules"):
        return regelwerk.load(ROOT / source), players
    return regelwerk.load_text(source), players


@pytest.mark.parametrize("seed", [1, 2])
def test_lazy_trace_equals_eager(case: tuple, seed: int) -> None:
    ruleset, players = case
    games = {}
    for eager in (True, False):
        g = ruleset.new_game(players=players, seed=seed, record=True)
        _play(g, random.Random(seed), MOVES, eager)
        games[eager] = g
    assert _dump(games[False].trace) == _dump(games[True].trace)
    assert trace_lines(games[False]) == trace_lines(games[True])
    assert len(games[True].trace) > 2 * min(MOVES, games[True].step_no) // 3  # steps were recorded


@pytest.mark.parametrize("seed", [3])
def test_lazy_trace_equals_eager_after_clone_and_load(case: tuple, seed: int) -> None:
    """The clone shares the steps recorded before it (still in their short form) with the
    game it was made from; both play on differently, and each is checked against an eager twin."""
    ruleset, players = case
    out: dict[bool, list[str]] = {}
    for eager in (True, False):
        g = ruleset.new_game(players=players, seed=seed, record=True)
        _play(g, random.Random(seed), SPLIT, eager)
        twin = g.clone()
        loaded = Game.from_json(json.loads(json.dumps(g.to_json())), ruleset, record=True)
        _play(g, random.Random(seed + 1), MOVES, eager)
        _play(twin, random.Random(seed + 2), MOVES, eager)
        _play(loaded, random.Random(seed + 3), MOVES, eager)
        out[eager] = [_dump(x.trace) for x in (g, twin, loaded)]
    assert out[False] == out[True]
    assert out[False][0] != out[False][1]  # the clone went its own way
    assert out[False][2] != "[]"  # the loaded game recorded its own steps


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_checks_of_an_offered_move_are_those_explain_gives(seed: int) -> None:
    """A traced move's checks take the values of the requires that need no parameter from the
    listing that offered it (checkers' `not can_capture(current)`: the whole board), kept per
    game in `_xpre` (actiongen._shared_checks). They must be what `explain` works out anew in
    the same position, also right after undo put back a position and its listed moves."""
    ruleset = regelwerk.load(ROOT / "rulesets/classic/checkers.rules")
    g = ruleset.new_game(seed=seed, record=True)
    rnd = random.Random(seed)
    compared = 0
    for n in range(200):
        if g.is_over:
            break
        move = rnd.choice(g.legal_actions())
        want = g.explain(move).checks
        g.apply(move)
        decided = [s for s in g.trace if s.get("decision") is not None]
        assert decided[-1]["checks"] == want, (n, str(move))
        compared += 1
        if n % 7 == 6:  # back one move, then on with another
            g.undo()
    assert compared > 30


@pytest.mark.parametrize("source", ["rulesets/examples/pig.rules", "rulesets/khan/khan.rules",
                                    "rulesets/classic/tictactoe.rules"])
def test_undo_back_to_the_start_of_a_game_made_from_a_template(source: str) -> None:
    """A new game is a clone of a started template; the snapshot undo keeps of its first
    decision is that template (with the game's own generator), not a copy. Undone to the
    start, the game is again as new: the same save, the same trace, the same game after."""
    ruleset = regelwerk.load(ROOT / source)
    fresh = ruleset.new_game(seed=7, record=True)
    g = ruleset.new_game(seed=7, record=True)
    played = []
    for _ in range(3):
        move = random.Random(len(played)).choice(g.legal_actions())
        played.append(str(move))
        g.apply(move)
    for _ in played:
        g.undo()
    assert g.to_json() == fresh.to_json()
    assert _dump(g.trace) == _dump(fresh.trace)
    for move in played:
        g.apply(move)
        fresh.apply(move)
    assert g.to_json() == fresh.to_json() and _dump(g.trace) == _dump(fresh.trace)


def test_undo_to_the_start_keeps_a_change_made_before_the_first_move() -> None:
    """A position set up from outside before the first move (then `invalidate()`) is where
    undo goes back to, not the template's start."""
    ruleset = regelwerk.load(ROOT / "rulesets/classic/tictactoe.rules")
    g = ruleset.new_game(record=True)
    g.vars["cell"]["b2"], g.current = "X", "O"  # X has played; O moves (a field undo restores)
    g.invalidate()
    set_up = g.to_json()
    g.apply("place(a1)")
    g.undo()
    assert g.to_json() == set_up


WHO_MAY = """
game "Who may"
players A, B
state
    n: int = 0
    tokens: Player -> int = {A: 1, B: 0}
action take(k in 1..2)
    require tokens[current] >= 0
    add 1 to n
    if n >= 6
        finish draw
action look(k in 1..2)
    require possible(take, other(current))
    add 1 to n
    if n >= 6
        finish draw
flow
    repeat
        turn
            play take, look
"""


def test_possible_for_another_player_does_not_change_the_checks_kept_for_the_offered_moves():
    """`take`'s require needs no parameter, so the listing keeps its checks for the move it
    offers; `look`'s require asks `possible(take, other(current))`, the same search as the
    other player, right after. A traced `take` must still show its own player's values."""
    g = regelwerk.load_text(WHO_MAY).new_game(record=True)
    while not g.is_over:
        move = next(m for m in g.legal_actions() if m.name == "take")
        want = g.explain(move).checks
        g.apply(move)
        decided = [s for s in g.trace if s.get("decision") is not None]
        assert decided[-1]["checks"] == want
        assert decided[-1]["checks"][0]["values"]["current"] == decided[-1]["player"]


WITH_A_PROCEDURE = """
game "With a procedure"
players A, B
state
    n: int = 0
    m: int = 0
procedure tally
    add 1 to m
    log "tallied"
action bump(k in 1..2)
    add k to n
    do tally
    if n >= 9
        finish draw
action plain(k in 1..2)
    add k to n
    if n >= 9
        finish draw
flow
    repeat
        turn
            play bump, plain
"""


@pytest.mark.parametrize("source", ["rulesets/classic/tictactoe.rules", "rulesets/classic/connect4.rules",
                                    "rulesets/classic/breakthrough.rules", "rulesets/classic/checkers.rules",
                                    "rulesets/root/root.rules", WITH_A_PROCEDURE])
def test_a_move_played_in_place_is_traced_as_the_same_move_given_as_text(source: str) -> None:
    """A move offered by legal_actions() is played by the block that offered it, which closes
    its step and works out its checks itself (machine.py: in place, without looking when the
    effect surely keeps the step open); the same move given as text takes the engine's long
    path (Game._take). Both games must have the same trace."""
    ruleset = regelwerk.load(ROOT / source) if source.endswith(".rules") else regelwerk.load_text(source)
    traces = []
    for as_text in (False, True):
        g = ruleset.new_game(seed=4, record=True)
        rnd = random.Random(4)
        for _ in range(120):
            if g.is_over:
                break
            move = rnd.choice(g.legal_actions())
            g.apply(str(move) if as_text else move)
        traces.append(_dump(g.trace))
    assert traces[0] == traces[1]
    assert '"tallied"' in traces[0] or source.endswith(".rules")
