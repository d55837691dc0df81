"""A listing's memo keyed by what changes (interpreter/compiler/codegen.py `CodeGen.remembered`,
`MEMO_FIXED_OUT`): the arguments that stay the same all through a listing (`current`,
literals) name the memo's table instead of being part of every key, so Root's `rules(current,
c)` is looked up by `c` alone, with no tuple made and hashed twice per look-up. A call with the
fixed argument in another place has a table of its own. The same moves and games as without."""

from __future__ import annotations

import pytest
from bundled import BUNDLED, ruleset
from playing import played
from regelwerk.interpreter.compiler.codegen import CodeGen

import regelwerk

# `beats(current, x)` and `beats(x, current)` are both remembered, keyed by x: two tables
MEMO = """game "Memo"
players Ann, Bob, Cid
board Square = grid 3 x 3
state
    heap: Square -> int = 0
    owner: Square -> Player? = none
    n: int = 0
define score(p: Player): int = sum s in Square where owner[s] == p: heap[s]
define beats(p: Player, q: Player): bool = (if p == q then false else score(p) >= score(q) + 1)
action put(x in players, s: Square)
    "Put."
    require beats(current, x) or heap[s] == 0 else "no"
    require beats(x, current) or heap[s] < 2 else "no more"
    add 1 to heap[s]
    set owner[s] = x
    add 1 to n
    if n == 15
        finish draw
flow
    repeat
        turn
            play put
"""


def _without(load: object, keyed: str = "") -> regelwerk.Ruleset:
    """A ruleset compiled with the fixed parts kept in the key (both programs compiled, and their
    source written, while off: `source` compiles again), its listings holding the look-up `keyed`."""
    rules = load()
    CodeGen.MEMO_FIXED_OUT = False
    try:
        for record in (False, True):
            assert keyed in rules.program(record).source
    finally:
        CodeGen.MEMO_FIXED_OUT = True
    return rules


def _memo() -> regelwerk.Ruleset:
    return regelwerk.load_text(MEMO, "memo.rules")


def test_the_fixed_argument_names_the_table_and_the_key_is_the_rest() -> None:
    listing = _memo().program(False).source.split("def AE_")[1].split("\ndef ")[0]
    looked = [line.strip() for line in listing.splitlines() if ".setdefault(" in line]
    assert len(looked) == 2 and all("(_cur, p0)" not in line and "(p0, _cur)" not in line for line in looked)
    tables = {line.split(" = ")[1].split("[")[0] for line in looked}
    assert len(tables) == 2  # beats(current, x) and beats(x, current) do not share answers
    assert "D_1(G, _cur, p0)" in looked[0] and "D_1(G, p0, _cur)" in looked[1]
    _without(_memo, "[p0, _cur] if (p0, _cur) in ")
    _without(_memo, "[_cur, p0] if (_cur, p0) in ")


def test_the_same_moves_and_games_with_and_without() -> None:
    kept, whole = _memo(), _without(_memo)
    for record in (False, True):
        assert played(kept, None, record, range(8), 20, saved=True) == played(whole, None, record, range(8), 20, saved=True)


@pytest.mark.parametrize("record", [False, True])
def test_root_looks_rules_up_by_the_clearing_and_plays_the_same_games(record: bool) -> None:
    # with `memo dropped` off: the memos of `take_move` and `cat_move`, keyed by the outer loop's
    # clearing, are never hit, and that pass makes them straight calls (test_memo_dropped.py);
    # `hoisted tests` would test `rules(current, from)` in place (test_hoisted_tests.py)
    CodeGen.MEMO_DROPPED = CodeGen.HOISTED_TESTS = False
    try:
        kept = regelwerk.load(BUNDLED["root"])
        kept.program(False), kept.program(True)
        src = kept.program(record).source
        whole = _without(lambda: regelwerk.load(BUNDLED["root"]), "[_cur, p0] if (_cur, p0) in _mz")
    finally:
        CodeGen.MEMO_DROPPED = CodeGen.HOISTED_TESTS = True
    assert "_cur, p0) in _mz" not in src and "_mover, p0) in _mz" not in src
    assert " if p0 in _mz" in src
    assert " if p0 in _mz" not in ruleset("root/root.rules").program(record).source
    seeds = range(2 if record else 4)
    assert played(kept, None, record, seeds, 300, saved=True) == played(whole, None, record, seeds, 300, saved=True)
