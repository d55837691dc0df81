"""`tested body` (interpreter/compiler/compile.py `_tested_body`, `CodeGen.TESTED_BODIES`): a
definition whose truth value is a conditional or an `and` is written as tests — `return False`
at the first that fails, else `return True` — so its branches and parts are statements and the
loops in them run in place (Root's `rules(p, c)`: its `all q in players ...` was a helper
function called on every call). The same moves, games and traces as without it."""

from __future__ import annotations

import pytest
from playing import compiled_with, played, same_with_and_without, source_with
from test_split_conditionals import HILLS

TEXTS = {"hills": HILLS}


def _function(source: str, name: str) -> str:
    return ("\n" + source).split(f"\ndef {name}(")[1].split("\ndef ")[0]


def test_the_choice_is_made_and_the_definition_returns_from_its_tests() -> None:
    rules = compiled_with("TESTED_BODIES", True, "hills", HILLS)
    assert "define holds" in {c.rule for c in rules.program(False).choices if c.kind == "tested body"}
    fn = rules.program(False).namespace  # the function of `holds`: the one that tests h == 'h3' first
    on = source_with("TESTED_BODIES", True, "hills", HILLS)
    holds = next(_function(on, n) for n in fn if n.startswith("D_") and "if p1 == 'h3':" in _function(on, n))
    assert "return False" in holds and holds.rstrip().endswith("return True")
    assert "in G.player_list:" in holds and "_A" not in holds  # the `all` in place, no helper
    off = source_with("TESTED_BODIES", False, "hills", HILLS)
    assert all("return False" not in _function(off, n) for n in fn if n.startswith("D_") and f"def {n}(" in off)
    root = compiled_with("TESTED_BODIES", True, "root").program(False).choices
    assert {"define rules", "define matches"} <= {c.rule for c in root if c.kind == "tested body"}


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("TESTED_BODIES", record, TEXTS, bundled="root")


def test_the_same_checkers_and_khan_games_with_and_without() -> None:
    for name, seeds in (("checkers", range(4)), ("khan", range(2))):
        assert played(compiled_with("TESTED_BODIES", True, name), None, False, seeds, 250, saved=True) == \
            played(compiled_with("TESTED_BODIES", False, name), None, False, seeds, 250, saved=True)
