"""`kept sums` (docs/architecture.md §5 and §9, `CodeGen.KEPT_SUMS`): a traced game keeps a
grouped invariant's sums (`INVG_n`, invtests.py: Shogun's cubes on the board per colour) from one
check to the next, with each item's part of them, and after a step brings them up to date at the
keys the journal says were written since (`INVS_n`), instead of a pass over every province.
Pinned: the choice and the form; the kept sums equal a fresh pass after every step of seeded
games with undo and clones; changes from outside the rules (`invalidate`) drop them; the same
games, traces, results and reported breaks with the transform on and off."""

from __future__ import annotations

import random
from typing import Any

import pytest
from grouped import GROUPED_WITH_TAKE
from playing import compiled_with, fresh_with, games_digest, played_with_undo_and_clones

import regelwerk

# Shogun's form, small (tests/grouped.py): a sum and a count grouped by colour over the provinces,
# and actions that move armies between the groups (place, take) and break the first one (leak)
GROUPED = GROUPED_WITH_TAKE


def _kept_checked(g: Any, checks: list[int]) -> None:
    """Wrap the program's after-step tests so that each, after it ran, also compares what it
    kept with a fresh pass (INVG_n) and gives the same answer; counts (calls, calls that found
    sums kept for this journal) in `checks`."""
    prog = g.prog
    ns = prog.invariants[0][0].__globals__
    for i, step in enumerate(list(prog.invariant_steps)):
        if not step.__name__.startswith("INVS_"):
            continue
        full = ns[f"INVG_{i}"]

        def checked(G: Any, step: Any = step, full: Any = full, i: int = i) -> bool:
            before = (G._invg or {}).get(i)
            checks[0] += 1
            checks[1] += before is not None and before[0] is G.journal
            ok = step(G)
            kept = G._invg[i]
            others = dict(G._invg)
            assert full(G) == ok
            fresh = G._invg[i]
            assert (kept[0], kept[1], kept[2], kept[3]) == (fresh[0], fresh[1], fresh[2], fresh[3])
            assert kept[0] is G.journal
            G._invg = others
            return ok

        prog.invariant_steps[i] = checked


def _restore_steps(rules: regelwerk.Ruleset) -> None:
    prog = rules.program(True)
    ns = prog.invariants[0][0].__globals__
    for i, step in enumerate(prog.invariant_steps):
        if step.__name__ == "checked":
            prog.invariant_steps[i] = ns[f"INVS_{i}"]


def test_the_choice_and_its_form(monkeypatch: pytest.MonkeyPatch) -> None:
    # compiled (and shared by other tests) with every switch on: before the one turned off
    shogun = compiled_with("KEPT_SUMS", True, "shogun").program(True)
    assert ("kept sums", "invariant 0", "on_board(c)") in [(c.kind, c.rule, c.detail) for c in shogun.choices]
    assert shogun.invariant_steps[0].__name__ == "INVS_0"
    # the journal's form: with `kept by writes` (test_kept_by_writes.py) the writes log the keys
    monkeypatch.setattr("regelwerk.interpreter.compiler.codegen.CodeGen.KEPT_BY_WRITES", False)
    on = fresh_with("KEPT_SUMS", True, GROUPED, "grouped.rules", monkeypatch)
    prog = on.program(True)
    assert [t.__name__ for t in prog.invariant_steps] == ["INVS_0", "INVS_1"]
    assert [t.__name__ for t in prog.invariant_tests] == ["INVG_0", "INVG_1"]
    assert [(c.kind, c.rule, c.detail) for c in prog.choices if c.kind == "kept sums"] == \
        [("kept sums", "invariant 0", "on_board(c)"), ("kept sums", "invariant 1", "held(c)")]
    src = prog.source
    body = src.split("\ndef INVS_0(")[1].split("\ndef ")[0]
    assert "_keys_written(G.journal, " in body and "return INVG_0(G)" in body
    assert "G._invg[0] = (G.journal, len(G.journal), " in src.split("\ndef INVG_0(")[1].split("\ndef ")[0]
    assert not any(c.kind == "kept sums" for c in on.program(False).choices)  # traced programs only
    assert "INVS_" not in on.program(False).source
    monkeypatch.setattr("regelwerk.interpreter.compiler.codegen.CodeGen.KEPT_SUMS", False)
    off = regelwerk.load_text(GROUPED, "grouped.rules").program(True)
    assert [t.__name__ for t in off.invariant_steps] == ["INVG_0", "INVG_1"]
    assert not any(c.kind == "kept sums" for c in off.choices) and "INVS_" not in off.source


def test_not_kept_where_a_part_reads_more_than_the_item_s_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    """A part that reads a map at another key than the item's, a scalar variable, or a map of
    lists (whose lists can be written at an index, a deeper path) could change with a write the
    journal files under another path: such sums are worked out afresh."""
    other = GROUPED.replace("COLOUR[owner[q]] == c: armies[q]", "COLOUR[owner[q]] == c: armies[p1]")
    scalar = GROUPED.replace("    supply: Colour -> int = 4", "    supply: Colour -> int = 4\n    bonus: int = 0") \
        .replace("COLOUR[owner[q]] == c: armies[q]", "COLOUR[owner[q]] == c: armies[q] + bonus")
    lists = GROUPED.replace("    supply: Colour -> int = 4", "    supply: Colour -> int = 4\n    stacks: Province -> list int = []") \
        .replace("COLOUR[owner[q]] == c: armies[q]", "COLOUR[owner[q]] == c: armies[q] + len(stacks[q])")
    for text in (other, scalar, lists):
        prog = fresh_with("KEPT_SUMS", True, text, "grouped.rules", monkeypatch).program(True)
        assert prog.invariant_steps[0].__name__ == "INVG_0"
        assert prog.invariant_steps[1].__name__ == "INVS_1"


@pytest.mark.parametrize("seed", range(4))
def test_the_kept_sums_are_a_fresh_pass_s_after_every_step_with_undo_and_clones(seed: int) -> None:
    rules = compiled_with("KEPT_SUMS", True, "grouped", GROUPED)
    checks = [0, 0]
    g = rules.new_game(seed=seed, record=True)
    _kept_checked(g, checks)
    try:
        played_with_undo_and_clones(g, seed, 59, 5, breaks=True)
    finally:
        _restore_steps(rules)
    assert checks[0] > 40 and checks[1] > checks[0] // 2  # most checks found their sums kept


@pytest.mark.parametrize("seed", range(2))
def test_shogun_s_kept_sums_are_a_fresh_pass_s_with_undo_and_clones(seed: int) -> None:
    rules = compiled_with("KEPT_SUMS", True, "shogun")
    checks = [0, 0]
    g = rules.new_game(players=4, seed=seed, record=True)
    _kept_checked(g, checks)
    try:
        played_with_undo_and_clones(g, seed, None, 7)
    finally:
        _restore_steps(rules)
    assert checks[0] > 50 and checks[1] > checks[0] // 2


def test_a_change_from_outside_the_rules_drops_the_kept_sums() -> None:
    """Armies set by hand and `invalidate()`: the next check works the sums out afresh and
    reports the break (kept sums brought up to date by the journal alone would miss it)."""
    rules = compiled_with("KEPT_SUMS", True, "grouped", GROUPED)
    g = rules.new_game(seed=1, record=True)
    g.apply(next(m for m in g.legal_actions() if m.name == "place"))
    assert g._invg is not None and 0 in g._invg
    g.vars["armies"] = {**g.vars["armies"], "p4": 3}
    g.vars["owner"] = {**g.vars["owner"], "p4": "A"}
    g.invalidate()
    assert g._invg is None
    with pytest.raises(regelwerk.InvariantBroken, match="every army is in the supply or on the board"):
        g.apply(g.legal_actions()[0])
    assert g.clone()._invg is None


def _breaks(on: bool, seed: int) -> list:
    rules = compiled_with("KEPT_SUMS", on, "grouped", GROUPED)
    g = rules.new_game(record=True, seed=seed)
    rnd, out = random.Random(seed), []
    for n in range(40):
        if g.is_over or not g.legal_actions():
            break
        try:
            g.apply(rnd.choice(g.legal_actions()))
        except regelwerk.InvariantBroken as err:
            out.append((n, err.broken))
    return out + [g.trace]


@pytest.mark.parametrize("seed", range(4))
def test_the_same_breaks_at_the_same_steps_with_and_without(seed: int) -> None:
    with_kept = _breaks(True, seed)
    assert with_kept == _breaks(False, seed)
    assert len(with_kept) > 1  # the games do break them


@pytest.mark.parametrize("record", [True, False])
def test_the_same_shogun_games_with_and_without(record: bool) -> None:
    seeds = range(10 if record else 4)
    assert games_digest(compiled_with("KEPT_SUMS", True, "shogun"), 4, seeds, record) == \
        games_digest(compiled_with("KEPT_SUMS", False, "shogun"), 4, seeds, record)
