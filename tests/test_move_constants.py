"""An action without parameters has one move, made once when the rules are compiled
(interpreter/compiler/actiongen.py `move_table`): every listing hands out that very object,
untraced and traced, so listing it makes nothing new and the OpenSpiel bridge finds its index
by identity. The moves are still only the legal ones, and play as before."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import regelwerk

RULES = Path(__file__).resolve().parent.parent / "rulesets" / "examples"


@pytest.mark.parametrize("name", ["leduc", "kuhn", "climb"])
@pytest.mark.parametrize("record", [False, True])
def test_a_move_without_parameters_is_one_object(name: str, record: bool) -> None:
    rules = regelwerk.load(RULES / f"{name}.rules")
    seen: dict[str, int] = {}
    listed = 0
    for seed in range(6):
        game = rules.new_game(players=2, seed=seed, record=record)
        rnd = random.Random(seed)
        while not game.is_over:
            legal = game.legal_actions()
            for move in legal:
                if not move.args:
                    listed += 1
                    assert seen.setdefault(move.name, id(move)) == id(move), move
            game.apply(rnd.choice(legal))
    assert listed > 10 and seen


def test_the_traced_and_untraced_programs_share_their_move_tables() -> None:
    """A ruleset's two programs hand out the same move objects: its move tables are made once
    (`Program.move_tables`), not once per program (Root's hold some 25,000 moves, which every
    full collection of the garbage collector walks); each program knows their texts."""
    rules = regelwerk.load(RULES.parent / "root" / "root.rules")
    untraced, traced = rules.program(False), rules.program(True)
    assert untraced.move_tables is traced.move_tables and len(untraced.move_tables) > 5
    moves = {record: rules.new_game(players=2, seed=1, record=record).legal_actions() for record in (False, True)}
    assert [str(m) for m in moves[False]] == [str(m) for m in moves[True]]
    tabled = [a for a, b in zip(moves[False], moves[True], strict=True) if id(a) in untraced.move_texts]
    assert len(tabled) >= 4
    assert all(a is b and traced.move_texts[id(a)] == str(a) for a, b in zip(moves[False], moves[True], strict=True)
               if id(a) in untraced.move_texts)
