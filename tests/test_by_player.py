"""`by player` (interpreter/compiler/perplayer.py, `CodeGen.BY_PLAYER`): a listing's value of the
current player alone (breakthrough's `steps(current)`) is worked out per player when the
program is compiled. The pass on small functions (what it takes and what it leaves), the
choice and its code on breakthrough, and the same moves, games and traces as without it."""

from __future__ import annotations

import pytest
from playing import chosen_and_same, compiled_with, games_digest, source_with
from regelwerk.interpreter.compiler.perplayer import by_player
from regelwerk.interpreter.engine.runtime import RUNTIME
from treepass import passed, run

CONSTANTS = {"_FWD": {"Ann": "N", "Bob": "S", None: "S"}, "_LEFT": {"N": "NW", "S": "SE"}, "_ORD": {"N": 0, "NW": 1, "SE": 2, "S": 3}}
PLAYERS = ("Ann", "Bob")

LISTING = """
def f(_cur, pieces):
    out = []
    dom = _uniq([_LEFT[_FWD[_cur]], _FWD[_cur], 'N' if _cur == 'Ann' else 'S'])
    pairs = [(v, _ORD.get(v)) for v in dom]
    for p in pieces:
        for d, n in pairs:
            out.append((p, d, n))
    return out
"""


def _pass(code: str, players: tuple[str, ...] = PLAYERS) -> tuple[str, dict, bool]:
    """`code` (one function) after the pass, the constants it made, and its answer."""
    return passed(code, CONSTANTS, lambda fn, made: by_player(fn, players, made.constants, RUNTIME, made.const))


def _run(code: str, constants: dict, *args: object) -> object:
    return run(code, constants, *args, _uniq=RUNTIME["_uniq"])


def test_values_of_the_current_player_alone_are_looked_up_per_player() -> None:
    after, constants, done = _pass(LISTING)
    assert done
    assert "_uniq" not in after and "_ORD" not in after  # both worked out when compiled
    assert "pairs = _PP" in after and "[_cur]" in after
    assert "dom = " not in after  # read only by the pairs, which no longer read it
    table = next(v for k, v in constants.items() if k.startswith("_PP") and "pairs = " + k in after)
    assert table == {"Ann": [("NW", 1), ("N", 0)], "Bob": [("SE", 2), ("S", 3)], None: [("SE", 2), ("S", 3)]}
    for cur in (*PLAYERS, None):
        assert _run(after, constants, cur, ["a1", "b2"]) == _run(LISTING, CONSTANTS, cur, ["a1", "b2"])


LEFT_ALONE = {
    "a read of the game": LISTING.replace("_FWD[_cur]]", "G.vars[_cur]]"),
    "a value changed in place": LISTING.replace("    for p in pieces:", "    pairs.append(('W', 9))\n    for p in pieces:"),
    "a value bound twice": LISTING.replace("    for p in pieces:", "    pairs = pairs[1:]\n    for p in pieces:"),
    "a call of something not known to be pure": LISTING.replace("_uniq(", "sorted("),
    "an attribute read": LISTING.replace("_ORD.get(v)", "_ORD.get(v).real"),
    "a value that does not depend on the player": LISTING.replace("_FWD[_cur]", "_FWD['Ann']").replace(
        "'N' if _cur == 'Ann' else 'S'", "'N'"),
}


@pytest.mark.parametrize("why", sorted(LEFT_ALONE))
def test_what_is_left_alone(why: str) -> None:
    code = LEFT_ALONE[why]
    assert code != LISTING
    after, _constants, done = _pass(code)
    if why in ("a value bound twice", "a value changed in place", "an attribute read"):  # `dom` still qualifies
        assert done and "pairs = [(v, _ORD.get(v)" in after and "for v in dom]" in after
        return
    assert not done and "_PP" not in after, why


def test_where_no_current_player_fails_the_value_is_worked_out_as_written_then() -> None:
    code = LISTING.replace("_FWD[_cur]", "{'Ann': 'N', 'Bob': 'S'}[_cur]")
    after, constants, done = _pass(code)
    assert done and "dom = _PP" in after and "if _cur in _PP" in after and "else _uniq(" in after
    assert " in _PP" not in _pass(LISTING)[0]  # worked out for None too: looked up without the test
    for cur in PLAYERS:
        assert _run(after, constants, cur, ["a1"]) == _run(code, CONSTANTS, cur, ["a1"])
    with pytest.raises(KeyError):
        _run(after, constants, None, ["a1"])


def test_a_value_that_fails_for_one_player_is_left_to_fail_where_it_did() -> None:
    code = LISTING.replace("_FWD[_cur]]", "{'Ann': 'N', None: 'N'}[_cur]]")
    after, _constants, done = _pass(code)
    assert not done and "_PP" not in after
    with pytest.raises(KeyError):
        _run(after, CONSTANTS, "Bob", [])
    assert not _pass(LISTING, players=())[2]  # no declared players: nothing to work out


def test_the_choice_is_made_and_the_code_has_the_form() -> None:
    on = compiled_with("BY_PLAYER", True, "breakthrough")
    for record in (False, True):
        assert [c.rule for c in on.program(record).choices if c.kind == "by player"] == ["action step"]
    source = source_with("JOINED_ROWS", False, "breakthrough")  # before joined.py joins the player's domain
    assert "= _PP" in source and "[_cur]" in source and "[_mover]" in source  # the listing's copy in the block too
    off = source_with("BY_PLAYER", False, "breakthrough")
    assert "_PP" not in off and "_uniq([" in off


@pytest.mark.parametrize("record", [False, True])
def test_the_same_bundled_games_with_and_without(record: bool) -> None:
    assert games_digest(compiled_with("BY_PLAYER", True, "breakthrough"), 2, range(8), record) == \
        games_digest(compiled_with("BY_PLAYER", False, "breakthrough"), 2, range(8), record)


LANES = """game "Lanes"
players Ann, Bob, Cy
board Square = grid 4 x 4
state
    cell: Square -> Player? = none
    moved: int = 0
procedure set_up
    set cell[a1] = Ann
    set cell[d1] = Bob
    set cell[a4] = Cy
define ways(p: Player) = if p == Ann then [N, E] else if p == Bob then [N, W] else [S, E]
action go(from: Square, d in ways(current))
    "A piece moves one square its way."
    require cell[from] == current else "not yours"
    let to = neighbour(from, d)
    require to != none else "off the board"
    require cell[to] == none else "taken"
    set cell[to] = current
    clear cell[from]
    add 1 to moved
    if moved >= 12
        finish draw
flow
    do set_up
    repeat
        turn
            if possible(go)
                play go
            else
                finish draw
"""


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    chosen_and_same("BY_PLAYER", "by player", "lanes", LANES, record, bundled="breakthrough")
