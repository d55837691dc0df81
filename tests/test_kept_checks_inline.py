"""`kept checks inline` (interpreter/compiler/actiongen.py `kept_checks_inline`): a traced
listing explains its action's requires that need no parameter in its own lines instead of
calling `AXP_n` (the entries kept in `G._xpre` for the move it offers, as before). Pinned here:
the form of the listing, and the same games, traces and saves as with the switch off."""

from __future__ import annotations

from playing import chosen_and_same, compiled_with
from regelwerk.interpreter.compiler.codegen import CodeGen

GATES = """
game "Gates"
players A, B
board Square = grid 3 x 3
state
    cell: Square -> Player? = none
    count: int = 0
action mark(s: Square)
    require count < 6 else "too late"
    require count != 3 or current == A else "A's turn to open"
    require cell[s] == none else "taken"
    set cell[s] = current
    add 1 to count
action wait
    add 1 to count
    if count >= 8
        finish draw
flow
    repeat
        turn
            play mark, wait
"""


def _traced(on: bool, name: str, text: str | None) -> str:
    """The traced program's text with the switch as given (`source` compiles it again)."""
    rules = compiled_with("KEPT_CHECKS_INLINE", on, name, text)
    before = CodeGen.KEPT_CHECKS_INLINE
    CodeGen.KEPT_CHECKS_INLINE = on
    try:
        return rules.program(True).source
    finally:
        CodeGen.KEPT_CHECKS_INLINE = before


def _listing(source: str, action_fn: str) -> str:
    return ("\n" + source).split(f"\ndef {action_fn}(")[1].split("\ndef ")[0]


def test_the_listing_explains_its_requires_without_a_call() -> None:
    on = compiled_with("KEPT_CHECKS_INLINE", True, "gates", GATES)
    assert any(c.kind == "kept checks inline" for c in on.program(True).choices)
    enum = on.program(True).actions["mark"].enum.__name__
    listing = _listing(_traced(True, "gates", GATES), enum)
    assert "AXP_" not in listing and "= G._xpre['mark'] = []" in listing
    assert listing.count(".append((") == 2 and listing.count("return\n") == 2  # each require, each way out
    off = _listing(_traced(False, "gates", GATES), enum)
    assert "= G._xpre['mark'] = AXP_" in off
    assert "kept checks inline" not in {c.kind for c in compiled_with("KEPT_CHECKS_INLINE", False, "gates", GATES)
                                        .program(True).choices}
    assert "_xpre" not in on.program(False).source  # traced only


def test_the_same_games_with_the_switch_off() -> None:
    chosen_and_same("KEPT_CHECKS_INLINE", "kept checks inline", "gates", GATES, True, "checkers")
