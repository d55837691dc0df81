"""`possible(a)` for the current player calls a's any-move search `AA_n(G)` itself
(interpreter/compiler/pytree.py `direct_possible`, `CodeGen.DIRECT_POSSIBLE`) instead of
`library.game_possible`, which looked the action up and saved and restored the current player;
`possible(a, p)` still goes through it. Root's Marquise asks `possible` of five actions at
every step of her turn. The same moves, games and traces as without it."""

from __future__ import annotations

import pytest
from playing import compiled_with, same_with_and_without, source_with

ASKS = """game "Asks"
players Ann, Bob
board Square = grid 2 x 2
state
    stones: Square -> int = 0
    passes: int = 0
define stuck: bool = not possible(put)
define bob_stuck: bool = not possible(put, Bob)
action put(s: Square)
    "Put."
    require stones[s] < 2 else "full"
    add 1 to stones[s]
action wait()
    "Wait."
    require stuck() or bob_stuck() or passes < 3 else "move instead"
    add 1 to passes
flow
    repeat
        turn
            if possible(put) or passes < 3
                play put, wait
            else
                finish draw
"""


def test_possible_for_the_current_player_calls_the_search() -> None:
    search = compiled_with("DIRECT_POSSIBLE", True, "asks", ASKS).program(False).actions["put"].any.__name__
    assert search.startswith("AA_")
    source = source_with("DIRECT_POSSIBLE", True, "asks", ASKS)
    assert f"not {search}(G)" in source  # `stuck` and the flow's test
    assert "c_possible(G, 'put', None)" not in source
    assert "c_possible(G, 'put', 'Bob')" in source  # another player: through game_possible
    assert "c_possible(G, 'put', None)" in source_with("DIRECT_POSSIBLE", False, "asks", ASKS)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("DIRECT_POSSIBLE", record, {"asks": ASKS})
