"""`options unrolled` (`CodeGen.OPTIONS_UNROLLED`, optionsunrolled.py): a `choose` among `list x
in E where W` of a small enum, its moves listed with its options, tests W once per value in
place, the value a literal so that W's conditionals on it fold, in a one-round `while True:` per
value; a value whose test would hold a loop is tested by W's call, as before. The same games,
traces and saves with the switch on and off (the small ruleset here and Root, whose Marquise
chooses her next action so)."""

from __future__ import annotations

import pytest
from playing import chosen_and_same, source_with

MENU = """game "Menu"
players Ann, Bob
enum Act = rest, push, pull, wait
state
    pile: int = 5
    moves: int = 0
define heavy: int = sum x in Act: (if x == pull then pile else 1)
define can_do(a: Act, tired: bool): bool =
    (if a == rest then moves % 4 != 3 or pile < 2
        else if a == push then pile > 0 and not tired
        else if a == pull then pile < 9 and (count x in [1, 2, 3] where x <= pile) > 1 and heavy() > 4
        else moves % 2 == 0 or pile >= 9)
flow
    repeat
        turn
            let tired = moves % 3 == 0
            choose a in list x in Act where can_do(x, tired) "what next?"
            if a == push
                remove 1 from pile
            elif a == pull
                add 1 to pile
            add 1 to moves
            if moves == 30
                finish draw
"""


def _block(on: bool) -> str:
    src = source_with("OPTIONS_UNROLLED", on, "menu", MENU)
    return src[src.index("\ndef B_0("):]


def test_each_value_tested_in_place() -> None:
    on, off = _block(True), _block(False)
    assert "if D_1(G, _a" in off and "while True:" not in off.split("opts")[1].split("G.pending")[0]
    assert on.count("opts.append(_E") == 4 and on.count("legal.append(_CM") == 4
    assert "== 'push'" not in on.split("G.pending")[0]  # the conditionals on the value folded
    assert "D_1(G, 'pull', _v" in on  # `heavy()` is a loop in place: the call
    assert on.split("G.pending")[0].count("= L['tired']") == 1  # the frame's name read once, ahead
    assert "D_1(G, 'rest'" not in on and "D_1(G, 'push'" not in on and "D_1(G, 'wait'" not in on


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("OPTIONS_UNROLLED", "options unrolled", "menu", MENU, record, "root")
