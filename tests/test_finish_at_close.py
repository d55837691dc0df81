"""`finish at close` (interpreter/compiler/stepclose.py `_ended_at_close`,
`CodeGen.FINISH_AT_CLOSE`): where a traced fused apply's effect finishes the game, the move's
step and the result are kept right there from the step's locals, as `after_traced` would keep
them after making the step first and closing it (`_close`, `_emit_result`). The same games,
traces, saves and bookkeeping left at the end, with the switch on and off."""

from __future__ import annotations

import random

import pytest
from playing import chosen_and_same, compiled_with
from test_fused_steps import _fused
from test_listing_follows import GRAVITY, TWICE

FLAG = "FINISH_AT_CLOSE"


def test_tictactoe_keeps_its_last_step_and_result_where_it_finishes() -> None:
    on, off = _fused(FLAG, True, "tictactoe", True), _fused(FLAG, False, "tictactoe", True)
    assert on.count("G._steps.append({'result': G.result})") == 2  # a win, a draw
    assert "_after_traced_kept(G, True, F, 1)" not in on and off.count("_after_traced_kept(G, True, F, 1)") == 2
    assert "_je" not in _fused(FLAG, True, "tictactoe", False)  # untraced: no step


@pytest.mark.parametrize("name,text", [("twice", TWICE), ("gravity", GRAVITY)])
def test_the_same_games_with_and_without(name: str, text: str) -> None:
    chosen_and_same(FLAG, "finish at close", name, text, True, "connect4")


@pytest.mark.parametrize("name", ["tictactoe", "connect4"])
def test_the_game_left_at_the_end_is_the_same(name: str) -> None:
    """Every field the end of the game sets or leaves, the trace read whole and the save."""
    left = []
    for on in (True, False):
        rules = compiled_with(FLAG, on, name)
        out = []
        for seed in range(12):
            g = rules.new_game(seed=seed, record=True)
            rnd = random.Random(seed)
            while not g.is_over:
                g.apply(rnd.choice(g.legal_actions()))
            out.append((g.result, g.pending, g._step, g._jmark, g._jdict, [list(f) for f in g.frames],
                        g._steps[-12:], g.trace, g.to_json(), g.legal_actions()))
            g.undo()  # the undo log kept the last move
            out.append((g.is_over, [str(m) for m in g.legal_actions()]))
        left.append(out)
    assert left[0] == left[1]

