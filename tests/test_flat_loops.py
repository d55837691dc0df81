"""Two loop forms of the code generator (interpreter/compiler/codegen.py):

- `flatten(list x in D where W: B)` is one loop that puts B's items straight into the result
  (the `flat loop` choice; B's own loop only where a loop pays for it, else B's value): checkers' `first_jumps` made a list of jumps per own piece, almost
  all of them empty, and joined them afterwards;
- a loop over a definition whose value is one of a few constant lists, whatever its arguments
  (checkers' `ways(s)`, through the branches of an `if`), is bounded by the rules themselves, so
  it is not charged to the work budget, as a loop over a board or a literal list is not.

Neither changes a value: the tests compare with the comprehensions of before (LOOP_FORMS off)."""

from __future__ import annotations

from pathlib import Path

import pytest
from regelwerk.interpreter.compiler import codegen
from regelwerk.interpreter.engine.limits import WORK_CHUNK

import regelwerk

FLAT = """players Ann, Bob
board Square = grid 3 x 3
state
    cell: Square -> Player? = none
define free(t: Square) = cell[t] == none
define pairs(p: Player) =
    flatten(list s in Square where cell[s] == p: list t in neighbours(s) where free(t): [s, t])
define twice(p: Player) = flatten(list s in Square where cell[s] == p: list i in 1..2: s)
define free_near(s: Square) = list t in neighbours(s) where cell[t] == none: t
define spots(p: Player) = flatten(list s in Square where cell[s] == p: free_near(s))
define rows_of(p: Player) = flatten(list r in [list s in Square where cell[s] == p: [s]]: r)
action put(s in Square)
    "Put a stone next to one of yours, or anywhere on your first turn."
    require cell[s] == none else "taken"
    require s in spots(current) or spots(current) == [] else "not next to yours"
    set cell[s] = current
flow
    repeat 4 times
        turn
            play put
"""


def _values(ruleset: regelwerk.Ruleset) -> list:
    """The three definitions' values for both players after each of a few moves."""
    prog = ruleset.program(False)
    names = list(ruleset.model.defines)
    fns = [prog.namespace[f"D_{names.index(n)}"] for n in ("pairs", "spots", "rows_of", "twice")]
    g = ruleset.new_game()
    out = []
    for _ in range(5):
        out.append([fn(g, p) for fn in fns for p in ("Ann", "Bob")])
        if g.is_over:
            break
        g.apply(g.legal_actions()[len(out) % len(g.legal_actions())])
    return out


def test_flatten_of_lists_is_one_loop_with_the_same_items_in_the_same_order(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "flat.rules"
    path.write_text(FLAT, encoding="utf-8")
    ruleset = regelwerk.load(path)
    chosen = {c.rule for c in ruleset.program(False).choices if c.kind == "flat loop"}
    # pairs' items are a loop's lists (its filter calls a definition: appended one by one),
    # spots' a definition's and twice's a repeated item (each round extends the result by
    # them); rows_of's list is a comprehension's: no loop pays
    assert chosen == {"define pairs", "define spots", "define twice"}
    source = ruleset.program(False).source
    assert "] * _n" in source  # twice's `list i in 1..2: s` is a run of one item, by its count (`repeated run`)
    looped = {c.rule for c in ruleset.program(False).choices if c.kind == "loop"}
    assert "define pairs" not in looped  # its list is built only by the flat loop, not once more
    flat = _values(ruleset)
    monkeypatch.setattr(codegen.CodeGen, "LOOP_FORMS", False)
    plain = _values(regelwerk.load(path))
    assert flat == plain
    assert any(v for row in flat[1:] for v in row[:2])  # pairs found: the inner lists were not all empty


WAYS = """players Ann, Bob
board Square = grid 3 x 3
state
    cell: Square -> Player? = none
    extra: list Direction = [N, E]
define ways(s: Square) = if cell[s] == none then WAYS else [S]
define open(s: Square) = any d in ways(s): neighbour(s, d) != none
action put(s in Square)
    "Put a stone where a way leads on."
    require cell[s] == none and open(s) else "no way on"
    set cell[s] = current
flow
    repeat 2 times
        turn
            play put
"""


@pytest.mark.parametrize(("ways", "charged"), [("[N, E]", False), ("extra", True)])
def test_a_loop_over_a_definition_of_constant_lists_is_not_charged(tmp_path: Path, ways: str, charged: bool):
    path = tmp_path / "ways.rules"
    path.write_text(WAYS.replace("WAYS", ways), encoding="utf-8")
    g = regelwerk.load(path).new_game()
    assert len(g.legal_actions()) == 9 - 1  # i3 alone: neither north nor east of it is a square
    used = WORK_CHUNK - g.work  # what listing the first moves cost
    assert (used > 0) is charged, used
