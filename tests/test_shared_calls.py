"""A definition that several listings of one decision ask with the same arguments is worked
out once per decision (interpreter/compiler/shared_calls.py, the `shared call` choice):
checkers' `step` asks `not can_capture(current)`, `can_capture(p)` is `jump_paths(p) != []`,
and `jump` walks `jump_paths(current)`. The memo lives only while a block lists the moves: it
can never hand a later decision, or a state changed since, an old answer. None of this changes
a listed move, an explanation or a trace: the tests compare whole games with and without."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from bundled import BUNDLED
from regelwerk.interpreter.compiler import codegen
from regelwerk.interpreter.compiler.shared_calls import shared_definitions
from regelwerk.interpreter.engine.errors import RuleFailure

import regelwerk


def _written(tmp_path: Path, text: str) -> regelwerk.Ruleset:
    path = tmp_path / "shared.rules"
    path.write_text(text, encoding="utf-8")
    return regelwerk.load(path)


def _without(path: Path, monkeypatch: pytest.MonkeyPatch, record: bool) -> regelwerk.Ruleset:
    """The ruleset compiled with no shared calls (programs compile lazily: compiled here, while
    the switch is off)."""
    monkeypatch.setattr(codegen.CodeGen, "SHARED_CALLS", False)
    ruleset = regelwerk.load(path)
    assert not any(c.kind == "shared call" for c in ruleset.program(record).choices)
    monkeypatch.undo()
    return ruleset


def _games(ruleset: regelwerk.Ruleset, record: bool, seeds: range, limit: int = 400) -> list:
    """Every decision's moves and each move's explanation, and each game's trace and result."""
    out = []
    for seed in seeds:
        g = ruleset.new_game(seed=seed, record=record)
        rnd = random.Random(seed)
        n = 0
        while not g.is_over and n < limit:
            moves = g.legal_actions()
            move = rnd.choice(moves)
            out.append(([str(m) for m in moves], g.explain(move).checks))
            g.apply(move)
            n += 1
        out.append((g.result, json.dumps(g.trace, default=str, sort_keys=True) if record else None))
    return out


def _counted(ruleset: regelwerk.Ruleset, record: bool, name: str) -> tuple[regelwerk.Ruleset, list]:
    """The ruleset with definition `name` counting its calls: per call, whether a listing's
    memo was open and already held the answer."""
    prog = ruleset.program(record)
    fn_name = f"D_{list(ruleset.model.defines).index(name)}"
    inner = prog.namespace[fn_name]
    calls: list[tuple[bool, bool]] = []

    def counting(G, *args):  # noqa: N803 - generated code's name for the game
        memo = G._shared
        calls.append((memo is not None, memo is not None and any(k[1:] == args for k in memo)))
        return inner(G, *args)

    prog.namespace[fn_name] = counting
    return ruleset, calls


def test_checkers_remembers_jump_paths_for_the_decision():
    ruleset = regelwerk.load(BUNDLED["checkers"])
    assert shared_definitions(ruleset.model) == (frozenset({"jump_paths"}), frozenset({("step", "jump")}))
    chosen = [(c.kind, c.rule) for c in ruleset.program(False).choices if c.kind == "shared call"]
    assert chosen == [("shared call", "define jump_paths")]


@pytest.mark.parametrize("record", [False, True])
def test_checkers_looks_for_jumps_once_a_position(record: bool):
    """The block keeps the one call's answer in a local and opens no memo (`shared in block`,
    tests/test_shared_in_block.py); traced too, since `step`'s explained check writes
    `can_capture(current)` as `jump_paths(current) != []` (`explained inline`)."""
    ruleset, calls = _counted(regelwerk.load(BUNDLED["checkers"]), record, "jump_paths")
    g = ruleset.new_game(seed=3, record=record)
    rnd = random.Random(3)
    per_move = []
    while not g.is_over and len(per_move) < 60:
        n = len(calls)
        g.apply(rnd.choice(g.legal_actions()))
        per_move.append(calls[n:])
    assert len(per_move) >= 40
    # the first traced move also explains the template's position
    assert all(sum(1 for _open, held in made if not held) == 1 for made in per_move[1:])  # one scan
    assert not any(opened for made in per_move for opened, _held in made)
    assert g._shared is None  # and the memo is gone once the moves are listed


@pytest.mark.parametrize("record", [False, True])
def test_the_same_checkers_games_with_and_without_shared_calls(record: bool, monkeypatch: pytest.MonkeyPatch):
    plain = _games(_without(BUNDLED["checkers"], monkeypatch, record), record, range(3))
    shared = _games(regelwerk.load(BUNDLED["checkers"]), record, range(3))
    assert shared == plain


SHARED = """players Ann, Bob
state
    chips: Player -> int = 1
    left: int = 5
    last: int = 0
define spare(p: Player): int = count i in 1..chips[p] where 6 // left >= i
action take(k in 1..3)
    "Take up to your spare chips."
    require k <= spare(current) else "not that many spare"
    add k to chips[current]
    set last = spare(current)
    remove 1 from left
action give(k in 1..3)
    "Give the other player chips, up to what the other has spare."
    require k <= spare(other(current)) and spare(current) >= 1 else "the other has none spare"
    remove k from chips[current]
    add k to chips[other(current)]
    remove 1 from left
flow
    repeat
        turn
            play take, give
"""


def test_a_shared_call_keys_its_arguments_and_holds_only_for_its_decision(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch):
    ruleset = _written(tmp_path, SHARED)
    assert shared_definitions(ruleset.model) == (frozenset({"spare"}), frozenset({("take", "give")}))
    plain = _without(tmp_path / "shared.rules", monkeypatch, False)
    g, h = ruleset.new_game(), plain.new_game()
    seen = []
    while True:  # the same moves at every decision, each worked out from that decision's state
        assert [str(m) for m in g.legal_actions()] == [str(m) for m in h.legal_actions()]
        assert g.vars == h.vars  # an effect's call after the listings is worked out afresh
        seen.append(len(g.legal_actions()))
        if g.vars["left"] == 1:
            break
        wanted = ("give", "take")[len(seen) % 2]  # a give, then a take, ...
        move = ([m for m in g.legal_actions() if m.name == wanted] or g.legal_actions())[-1]
        g.apply(move)
        h.apply(str(move))
    assert len(set(seen)) > 1  # the answers changed from decision to decision
    with pytest.raises(RuleFailure):  # `6 // left` with nothing left: the listing fails
        g.apply(g.legal_actions()[0])
    assert g._shared is None  # ... and leaves no memo behind


TWO_ACTIONS = """players Ann, Bob
board Square = grid 3 x 1
state
    cell: Square -> Player? = none
define near(s: Square): int = count t in Square where cell[t] != none and t != s
define mine(p: Player): int = count t in Square where cell[t] == p
define lead(p: Player): bool = mine(p) >= 1 or mine(p) == 0
action put(s in Square)
    "Put a stone."
    require cell[s] == none and PUT else "taken"
    set cell[s] = current
action point(s in Square)
    "Point at a square."
    require POINT else "not now"
flow
    repeat 3 times
        turn
            play put, point
"""


@pytest.mark.parametrize(("put", "point", "shared"), [
    ("near(s) <= 2", "near(s) >= 0", set()),  # asked per square: the arguments change
    ("lead(current)", "lead(current)", {"lead"}),  # the first on the way, not `mine` inside it
    ("lead(current)", "mine(current) >= 0", {"mine"}),  # reached through lead, asked by point
    ("lead(current)", "true", set()),  # one listing asks
])
def test_which_definitions_are_shared(tmp_path: Path, put: str, point: str, shared: set):
    text = TWO_ACTIONS.replace("PUT", put).replace("POINT", point)
    names, plays = shared_definitions(_written(tmp_path, text).model)
    assert names == shared
    assert plays == ({("put", "point")} if shared else set())
