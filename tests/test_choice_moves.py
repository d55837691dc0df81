"""The moves of a `choose` are made once per program and option (game._choice_moves,
`Program.choice_moves`), as a move table's are: the same objects at every decision that offers
the same option, whatever the other options, each decision's list its own, `1` and `true` never
one key, and options that cannot be a key (records) made anew. The same games as when each
decision made its moves."""

from __future__ import annotations

import random
from pathlib import Path

from playing import played
from regelwerk.interpreter.engine import game as engine

import regelwerk

ROOT = Path(__file__).resolve().parent.parent


def test_the_same_options_give_the_same_moves_and_lists_of_their_own():
    kept: dict = {}
    first = engine._choice_moves(kept, ["a", "b", 1])
    again = engine._choice_moves(kept, ["a", "b", 1])
    assert first == again and first is not again and all(x is y for x, y in zip(first, again, strict=True))
    assert [str(m) for m in first] == ["choose(a)", "choose(b)", "choose(1)"]
    ones, trues = engine._choice_moves(kept, [1]), engine._choice_moves(kept, [True])
    assert ones[0].args == (1,) and trues[0].args == (True,) and type(trues[0].args[0]) is bool
    records = engine._choice_moves(kept, [{"x": 1}])
    assert records[0].args == ({"x": 1},) and records[0] is not engine._choice_moves(kept, [{"x": 1}])[0]
    other = engine._choice_moves(kept, ["b", "c"])  # another list of options: the same move for b
    assert other[0] is first[1] and str(other[1]) == "choose(c)"
    assert sum(map(len, kept.values())) == 5  # a, b, c, 1 and true (each type kept on its own)


def test_options_of_a_type_that_never_hashes_are_not_looked_up():
    """Khan chooses among subsets of cards (lists): each gets a move of its own, and the type
    gets no table (no failed look-up, an exception, per option); a tuple holding a list still
    gets its move through the failed look-up."""
    kept: dict = {}
    subsets = [[], ["a"], ["a", "b"]]
    moves = engine._choice_moves(kept, [*subsets, "a", ("x", ["y"])])
    assert [m.args[0] for m in moves] == [*subsets, "a", ("x", ["y"])]
    assert list not in kept and tuple in kept and not kept[tuple] and str in kept
    assert moves[0] is not engine._choice_moves(kept, subsets)[0]


def test_the_kept_moves_are_bounded():
    kept: dict = {}
    for i in range(engine.MAX_CHOICE_MOVES + 5):
        engine._choice_moves(kept, [i, str(i)])
    assert all(len(by_type) <= engine.MAX_CHOICE_MOVES for by_type in kept.values())
    assert [m.args for m in engine._choice_moves(kept, [3, "3"])] == [(3,), ("3",)]


def test_root_plays_the_same_games(monkeypatch):
    rules = regelwerk.load(ROOT / "rulesets/root/root.rules")
    kept = played(rules, 2, False, range(2), 400)
    g = rules.new_game(players=2, seed=0)
    rnd = random.Random(0)
    chosen = 0
    for _ in range(300):
        if g.is_over:
            break
        if g.pending["kind"] == "choose":
            chosen += 1
        g.apply(rnd.choice(g.legal_actions()))
    assert chosen > 5 and rules.program(False).choice_moves

    def made_anew(_kept: dict, options: list) -> list:
        return [regelwerk.Action("choose", (o,)) for o in options]

    monkeypatch.setattr(engine, "_choice_moves", made_anew)
    assert played(regelwerk.load(ROOT / "rulesets/root/root.rules"), 2, False, range(2), 400) == kept
