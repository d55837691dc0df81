"""`old value by key` (docs/architecture.md §5, `CodeGen.OLD_BY_KEY`): a traced write one key deep
into a state map keyed by a finite type, the map never replaced whole, reads the old value its
journal entry keeps as `c[k]` instead of `c.get(k, MISSING)`: such a map holds every key from its
start and a save must give them all. Pinned: the form (the maps it takes, those it leaves), and the
same games, saves, results, traces and undos with it on and off."""

from __future__ import annotations

import random
import re

import pytest
from playing import chosen_and_same, compiled_with, switches

RULES = """game "Old values"
players Red, Blue
board Square = grid 3 x 3
state
    cell: Square -> Player? = none
    marks: Square -> int = 0
    seen: int -> int = 0
    last: Square -> Player? = none
action put(s in Square)
    require cell[s] == none
    set cell[s] = current
    add 1 to marks[s]
    add 1 to seen[marks[s]]
    set last[s] = current
    if marks[s] > 100
        set last = {}
flow
    repeat
        turn
            play put else finish draw
"""


def _traced_source(on: bool) -> str:
    rules = compiled_with("OLD_BY_KEY", on, "oldvalues", RULES)
    with switches((("OLD_BY_KEY", on),)):
        return rules.program(True).source


def _olds(src: str, var: int) -> list[str]:
    """How the put's effect reads the old value of each write into state map `_sv<var>`."""
    body = src.split("\ndef AF_")[1].split("\ndef ")[0]
    return re.findall(rf"_o\d+ = (_sv{var}(?:\[\w+\]|\.get\(\w+, MISSING\)))", body)


def test_the_finite_maps_read_by_key() -> None:
    on, off = _traced_source(True), _traced_source(False)
    names = re.findall(r"(_sv\d+) = V\['(\w+)'\]", on.split("\ndef AF_")[1].split("\ndef ")[0])
    index = {name: int(local[3:]) for local, name in names}
    for var in ("cell", "marks"):  # keyed by the board's squares, never replaced: by key
        assert _olds(on, index[var]) and all(o.endswith("]") and ".get(" not in o for o in _olds(on, index[var]))
        assert _olds(off, index[var]) and all(".get(" in o for o in _olds(off, index[var]))
    # keyed by numbers (not every key there), or replaced whole (`set last = {}`): as before
    assert _olds(on, index["seen"]) == _olds(off, index["seen"]) and ".get(" in _olds(on, index["seen"])[0]
    body = on.split("\ndef AF_")[1].split("\ndef ")[0]
    assert re.search(r"_o\d+ = \w+\.get\(p0, MISSING\)\n\s+\w+\[p0\] = _cur\n\s+J\.extend\(\(None, p0, _o\d+, _cur, 'last'\)\)", body)
    rules = compiled_with("OLD_BY_KEY", True, "oldvalues", RULES)
    kinds = {c.detail for c in rules.program(True).choices if c.kind == "old value by key"}
    assert kinds == {"cell", "marks"}
    assert not any(c.kind == "old value by key" for c in rules.program(False).choices)  # traced only


def test_the_same_games_with_and_without() -> None:
    chosen_and_same("OLD_BY_KEY", "old value by key", "oldvalues", RULES, True, "checkers")


@pytest.mark.parametrize("seed", [0, 1])
def test_undo_gives_back_the_same_positions(seed: int) -> None:
    """The journal's old values, read by key, take a checkers game back move by move to the
    positions it passed through, as with the switch off."""

    def positions(on: bool) -> list:
        rules = compiled_with("OLD_BY_KEY", on, "checkers")
        with switches((("OLD_BY_KEY", on),)):
            g, rnd = rules.new_game(seed=seed, record=True), random.Random(seed)
            seen = []
            for _ in range(30):
                if g.is_over:
                    break
                seen.append(g.to_json())
                g.apply(rnd.choice(g.legal_actions()))
            back = []
            for _ in range(len(seen)):
                g.undo()
                back.append(g.to_json())
            assert back == seen[::-1]
            return back

    assert positions(True) == positions(False)
