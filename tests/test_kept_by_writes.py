"""`kept by writes` (docs/architecture.md §5 and §9, `CodeGen.KEPT_BY_WRITES`): a traced program
logs the key of every write of a map a grouped invariant's kept sums read (`G._ilog`, while sums
are kept), and `INVS_n` brings the sums up to date at the keys logged since its last check instead
of scanning the journal for them (`_keys_written`); a write of such a map whole drops the kept
sums. Pinned: the choice and the form (the test, the writes, nothing untraced); the kept sums
equal a fresh pass after every step of seeded games with undo and clones; a whole write and a
change from outside the rules drop them; the same games, traces and reported breaks with the
transform on and off."""

from __future__ import annotations

import random

import pytest
from grouped import GROUPED_WITH_TAKE
from playing import compiled_with, fresh_with, games_digest, played_with_undo_and_clones

import regelwerk

GROUPED = GROUPED_WITH_TAKE

# a whole write of a logged map (`wipe`: every army gone, the supply not given them back, so the
# cube count breaks) and one of a map no sum reads (`refill`)
WIPED = GROUPED.replace("action leak(q: Province)", """action wipe()
    require armies[p1] + armies[p2] + armies[p3] + armies[p4] > 1
    set armies = NO_ARMIES
action refill()
    set supply = FULL
action leak(q: Province)""").replace(
    "play place, take, leak", "play place, take, wipe, refill, leak").replace(
    "const COLOUR = {A: red, B: blue}",
    "const COLOUR = {A: red, B: blue}\nconst NO_ARMIES = {p1: 0, p2: 0, p3: 0, p4: 0}\n"
    "const FULL = {red: 4, blue: 4, green: 4}")


def _body(src: str, name: str) -> str:
    return src.split(f"\ndef {name}(")[1].split("\ndef ")[0]


def test_the_choice_and_its_form(monkeypatch: pytest.MonkeyPatch) -> None:
    on = fresh_with("KEPT_BY_WRITES", True, WIPED, "grouped.rules", monkeypatch)
    prog = on.program(True)
    assert [t.__name__ for t in prog.invariant_steps] == ["INVS_0", "INVS_1"]
    assert [(c.kind, c.rule, c.detail) for c in prog.choices if c.kind == "kept by writes"] == \
        [("kept by writes", "invariant 0", "on_board(c)"), ("kept by writes", "invariant 1", "held(c)")]
    src = prog.source
    body = _body(src, "INVS_0")
    assert "_keys_written" not in src and "G._ilog" in body and "frozenset(" in body
    assert "G._ilog = []" in _body(src, "INVG_0")
    # each write of an entry of `owner` or `armies` logs its key while sums are kept; a whole
    # write of `armies` drops them; `supply` (read by the invariant, not by a part) logs nothing
    assert src.count("G._ilog.append(") >= 4 and "G._invg = None" in src
    assert "_ilog" not in "".join(line for line in src.splitlines() if "'supply'" in line)
    assert not any(c.kind == "kept by writes" for c in on.program(False).choices)  # traced programs only
    assert "_ilog" not in on.program(False).source and "_invg" not in on.program(False).source
    shogun = compiled_with("KEPT_BY_WRITES", True, "shogun").program(True)
    assert ("kept by writes", "invariant 0", "on_board(c)") in [(c.kind, c.rule, c.detail) for c in shogun.choices]
    assert "G._ilog" in _body(shogun.source, "INVS_0")
    # (`source` is generated again under the switches as they are: read before turning it off)
    monkeypatch.setattr("regelwerk.interpreter.compiler.codegen.CodeGen.KEPT_BY_WRITES", False)
    off = regelwerk.load_text(WIPED, "grouped.rules").program(True)
    assert "_ilog" not in off.source and "_keys_written(G.journal, " in _body(off.source, "INVS_0")
    assert not any(c.kind == "kept by writes" for c in off.choices)
    assert [t.__name__ for t in off.invariant_steps] == ["INVS_0", "INVS_1"]


def test_nothing_logged_without_kept_sums(monkeypatch: pytest.MonkeyPatch) -> None:
    """`KEPT_SUMS` off: no sums kept, so no write logs a key."""
    monkeypatch.setattr("regelwerk.interpreter.compiler.codegen.CodeGen.KEPT_SUMS", False)
    prog = regelwerk.load_text(WIPED, "grouped.rules").program(True)
    assert "_ilog" not in prog.source and not any(c.kind == "kept by writes" for c in prog.choices)


def _kept_checked(g: regelwerk.Game, checks: list[int]) -> None:
    """After each of the program's after-step tests, the sums it kept compared with a fresh
    pass's (INVG_n); `checks` counts (calls, calls that found sums kept for this game's log)."""
    prog = g.prog
    ns = prog.invariants[0][0].__globals__
    for i, step in enumerate(list(prog.invariant_steps)):
        if not step.__name__.startswith("INVS_"):
            continue
        full = ns[f"INVG_{i}"]

        def checked(G: regelwerk.Game, step: object = step, full: object = full, i: int = i) -> bool:
            before = (G._invg or {}).get(i)
            checks[0] += 1
            checks[1] += before is not None and before[1] is G._ilog
            ok = step(G)  # type: ignore[operator]
            kept, others = G._invg[i], dict(G._invg)
            assert full(G) == ok  # type: ignore[operator]
            fresh = G._invg[i]
            assert kept[3] == fresh[3] and kept[4] == fresh[4]  # the sums and each item's part
            assert kept[1] is G._ilog and kept[2] == len(G._ilog)
            G._invg = others
            return ok

        prog.invariant_steps[i] = checked


def _restore_steps(rules: regelwerk.Ruleset) -> None:
    prog = rules.program(True)
    ns = prog.invariants[0][0].__globals__
    for i, step in enumerate(prog.invariant_steps):
        if step.__name__ == "checked":
            prog.invariant_steps[i] = ns[f"INVS_{i}"]


@pytest.mark.parametrize("seed", range(4))
def test_the_kept_sums_are_a_fresh_pass_s_after_every_step_with_undo_and_clones(seed: int) -> None:
    rules = compiled_with("KEPT_BY_WRITES", True, "grouped_by_writes", WIPED)
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
    rules = compiled_with("KEPT_BY_WRITES", True, "shogun")
    checks = [0, 0]
    g = rules.new_game(players=4, seed=seed, record=True)
    _kept_checked(g, checks)
    try:
        played_with_undo_and_clones(g, seed, None, 7)
    finally:
        _restore_steps(rules)
    assert checks[0] > 50 and checks[1] > checks[0] // 2


def test_a_whole_write_drops_the_kept_sums_and_the_break_is_reported() -> None:
    rules = compiled_with("KEPT_BY_WRITES", True, "grouped_by_writes", WIPED)
    g = rules.new_game(seed=1, record=True)
    for _ in range(2):
        g.apply(next(m for m in g.legal_actions() if m.name == "place"))
    assert g._invg is not None and 0 in g._invg and g._ilog is not None
    with pytest.raises(regelwerk.InvariantBroken, match="every army is in the supply or on the board"):
        g.apply(next(m for m in g.legal_actions() if m.name == "wipe"))


def test_a_change_from_outside_the_rules_drops_the_kept_sums() -> None:
    rules = compiled_with("KEPT_BY_WRITES", True, "grouped_by_writes", WIPED)
    g = rules.new_game(seed=1, record=True)
    g.apply(next(m for m in g.legal_actions() if m.name == "place"))
    log = g._ilog
    assert g._invg is not None and 0 in g._invg
    g.vars["armies"] = {**g.vars["armies"], "p4": 3}
    g.vars["owner"] = {**g.vars["owner"], "p4": "A"}
    g.invalidate()
    assert g._invg is None
    with pytest.raises(regelwerk.InvariantBroken, match="every army is in the supply or on the board"):
        g.apply(g.legal_actions()[0])
    assert g._ilog is not log  # worked out afresh: a new log
    assert g.clone()._invg is None


def _breaks(on: bool, seed: int) -> list:
    rules = compiled_with("KEPT_BY_WRITES", on, "grouped_by_writes", WIPED)
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


@pytest.mark.parametrize("seed", range(6))
def test_the_same_breaks_at_the_same_steps_with_and_without(seed: int) -> None:
    with_kept = _breaks(True, seed)
    assert with_kept == _breaks(False, seed)
    assert len(with_kept) > 1  # the games do break them


def test_the_same_shogun_games_with_and_without() -> None:
    seeds = range(8)
    assert games_digest(compiled_with("KEPT_BY_WRITES", True, "shogun"), 4, seeds, True) == \
        games_digest(compiled_with("KEPT_BY_WRITES", False, "shogun"), 4, seeds, True)
