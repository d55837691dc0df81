"""Loops where a comprehension would have to call (interpreter/compiler/codegen.py): a `list`
or `set` whose filter or body uses a definition that is inlined where evaluated is built by a
loop that appends (`collect_loop`), an aggregate's `where` of `a and b` is two tests, a loop's
domain is worked out as statements, a one-expression definition is inlined as an expression
(`tiny_call`), and a parameter's domain that is always a list of distinct literals is not
stripped of repeats (actiongen `distinct`). Checkers' `first_jumps` called `jumpable` and
`enemy_on` once per own piece and direction at every decision. None of this changes a listed
move, an explanation or a trace: the tests compare whole games with and without. Likewise a
traced procedure's step started and ended by its own code, not by calls of the recorder."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from bundled import BUNDLED
from playing import played as _games
from regelwerk.interpreter.compiler import codegen, machine
from regelwerk.interpreter.compiler import compile as compile_module

import regelwerk


def _written(tmp_path: Path, name: str, text: str) -> tuple[Path, regelwerk.Ruleset, set]:
    """A ruleset written to a file and loaded, with the (kind, detail) of each of its choices."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    ruleset = regelwerk.load(path)
    return path, ruleset, {(c.kind, c.detail) for c in ruleset.program(False).choices}


def _load(path: Path, monkeypatch: pytest.MonkeyPatch | None = None) -> regelwerk.Ruleset:
    if monkeypatch is not None:  # comprehensions and calls, as before these forms
        monkeypatch.setattr(codegen.CodeGen, "LOOP_FORMS", False)
    return regelwerk.load(path)


def test_checkers_builds_its_jumps_by_loops_and_inlines_its_one_line_definitions():
    chosen = {(c.kind, c.detail) for c in regelwerk.load(BUNDLED["checkers"]).program(False).choices}
    loops = {d for k, d in chosen if k in ("loop", "flat loop")}  # flattened: tests/test_flat_loops.py
    assert any(d.startswith("list s in Square where cell[s] == p:") for d in loops), loops
    inlined = {d for k, d in chosen if k == "inlined expression"}
    assert {"enemy_on", "ways"} <= inlined, inlined
    assert ("distinct domain", "ways(from)") in chosen
    source = regelwerk.load(BUNDLED["checkers"]).program(False).source
    assert "_uniq(_seq(D_" not in source and "_uniq(D_1(" not in source


def test_a_definition_that_holds_a_loop_is_not_inlined_as_an_expression():
    chosen = {(c.kind, c.detail) for c in regelwerk.load(BUNDLED["checkers"]).program(False).choices}
    inlined = {d for k, d in chosen if k == "inlined expression"}
    assert "first_jumps" not in inlined and "can_capture" not in inlined  # aggregates: loops instead


@pytest.mark.parametrize(("name", "players", "seeds", "limit"), [
    ("checkers", 2, range(3), 400), ("breakthrough", 2, range(2), 400),
    ("khan", 3, range(1), 120), ("shogun", 4, range(1), 120), ("root", 2, range(1), 120)])
@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_as_with_comprehensions_and_calls(name: str, players: int, seeds: range, limit: int,
                                                         record: bool, monkeypatch: pytest.MonkeyPatch):
    fast = _games(_load(BUNDLED[name]), players, record, seeds, limit)
    plain = _games(_load(BUNDLED[name], monkeypatch), players, record, seeds, limit)
    assert fast == plain


REPEATS = """players Ann, Bob
state
    steps: int = 0
define ways(p: Player) = if p == Ann then [N, E] else [S, S]
define odd(i: int) = if i % 2 == 1 then [1, 3] else [2, 2, 4]
define small(i: int): bool = i >= 1 and i <= 4
action go(d in ways(current), k in odd(steps))
    "Step one way, as far as there are remainders."
    add len(set i in 1..k where small(i): i % 2) to steps
flow
    repeat 2 times
        for p in players
            turn p
                play go
"""


def test_a_domain_with_a_repeat_still_lists_each_move_once_and_a_set_keeps_no_repeat(tmp_path: Path):
    path, ruleset, chosen = _written(tmp_path, "repeats.rules", REPEATS)
    assert ("distinct domain", "ways(current)") not in chosen and ("distinct domain", "odd(steps)") not in chosen
    g = ruleset.new_game()
    assert [str(m) for m in g.legal_actions()] == ["go(N, 2)", "go(N, 4)", "go(E, 2)", "go(E, 4)"]
    assert ("loop", "set i in 1..k where small(i): i % 2") in chosen
    g.apply(g.legal_actions()[1])  # go(N, 4): the remainders of 1..4 are 1 and 0
    assert g.vars["steps"] == 2
    assert [str(m) for m in g.legal_actions()] == ["go(S, 2)", "go(S, 4)"]


SPLIT = """players Ann, Bob
state
    taken: int -> bool = false
define fits(k: int): bool = 10 // k >= 3 and not taken[k]
define majority(p: Player): bool = p == Ann and (all q in players: q == p or not taken[0])
action pick(k in 0..4)
    "Pick zero, or a number that still fits, while Ann holds the majority or one is taken."
    require k == 0 or fits(k) else "does not fit"
    require taken[1] or taken[2] or majority(current) else "no majority"
    set taken[k] = true
flow
    repeat 3 times
        for p in players
            turn p
                play pick else finish draw
"""


def test_a_split_test_keeps_the_order_and_the_short_circuit_of_and_and_or(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch):
    path, ruleset, chosen = _written(tmp_path, "split.rules", SPLIT)
    assert {("split test", "fits"), ("split test", "majority")} <= chosen
    g = ruleset.new_game()
    assert [str(m) for m in g.legal_actions()] == ["pick(0)", "pick(1)", "pick(2)", "pick(3)"]  # no 10 // 0
    g.apply(g.legal_actions()[2])  # Ann takes 2: Bob may pick now that one is taken
    assert [str(m) for m in g.legal_actions()] == ["pick(0)", "pick(1)", "pick(3)"]
    assert g.explain("pick(2)").reason == "does not fit"
    assert _games(ruleset, 2, True, range(5), 50) == _games(_load(path, monkeypatch), 2, True, range(5), 50)


def test_khan_tests_its_majorities_as_statements():
    chosen = {(c.kind, c.detail) for c in regelwerk.load(BUNDLED["khan"]).program(False).choices}
    assert ("split test", "has_majority") in chosen


CONSTANT = """players Ann, Bob
option extra: list int = [4, 4, 1]
const NUMS = [1, 2, 2, 3, 1]
state
    sum: int = 0
action pick(n in NUMS, m in extra)
    "Add a number and an extra."
    add n + m to sum
flow
    repeat 2 times
        for p in players
            turn p
                play pick
"""


def test_a_constant_domain_with_repeats_lists_each_move_once_in_every_game(tmp_path: Path):
    path, ruleset, chosen = _written(tmp_path, "constant.rules", CONSTANT)
    assert {("distinct once", "NUMS"), ("distinct once", "extra")} <= chosen
    for options in ({}, {"extra": [2, 5, 2]}, {}):
        g = ruleset.new_game(options=options)
        extra = options.get("extra", [4, 4, 1])
        expected = [f"pick({n}, {m})" for n in (1, 2, 3) for m in dict.fromkeys(extra)]
        assert [str(a) for a in g.legal_actions()] == expected
        g.apply(g.legal_actions()[-1])
        assert [str(a) for a in g.legal_actions()] == expected


PREFILTER = """players Ann, Bob
enum Kind = k1, k2, k3, k4
record Info(form: text, worth: int)
data INFO: Kind -> Info from "info.json"
option least: int = 2
const BIG = list k in Kind where INFO[k].worth >= least
state
    held: Kind -> Player? = none
action take(f in ["bar", "ell"], k in Kind)
    "Take a big enough kind of the form, that nobody holds."
    require INFO[k].form == f and k in BIG else "not that form, or too small"
    require held[k] == none else "held"
    set held[k] = current
flow
    repeat 2 times
        for p in players
            turn p
                play take else finish draw
"""


def _prefilter_rules(tmp_path: Path, info: dict) -> Path:
    (tmp_path / "info.json").write_text(json.dumps(info), encoding="utf-8")
    path = tmp_path / "prefilter.rules"
    path.write_text(PREFILTER, encoding="utf-8")
    return path


def test_a_prefiltered_domain_is_kept_per_value_of_the_outer_parameters_and_of_the_options(tmp_path: Path):
    info = {"k1": {"form": "bar", "worth": 1}, "k2": {"form": "bar", "worth": 3},
            "k3": {"form": "ell", "worth": 2}, "k4": {"form": "bar", "worth": 5}}
    ruleset = regelwerk.load(_prefilter_rules(tmp_path, info))
    chosen = {(c.kind, c.detail) for c in ruleset.program(False).choices}
    assert ("prefilter", "k by INFO[k].form == f and k in BIG") in chosen
    for least, expected in ((2, ["take(bar, k2)", "take(bar, k4)", "take(ell, k3)"]),
                            (4, ["take(bar, k4)"]), (2, ["take(bar, k2)", "take(bar, k4)", "take(ell, k3)"]),
                            (1, ["take(bar, k1)", "take(bar, k2)", "take(bar, k4)", "take(ell, k3)"])):
        g = ruleset.new_game(options={"least": least})
        assert [str(m) for m in g.legal_actions()] == expected, least
        g.apply(g.legal_actions()[0])  # the next decision: the same kept items, one of them held
        assert [str(m) for m in g.legal_actions()] == expected[1:], least


def test_a_prefilter_that_fails_walks_the_domain_and_fails_where_it_would_have(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch):
    info = {"k1": {"form": "bar", "worth": 1}, "k2": {"form": "bar", "worth": 3},
            "k3": {"form": "bar", "worth": 0}, "k4": {"form": "ell", "worth": 5}}
    path = _prefilter_rules(tmp_path, info)
    path.write_text(PREFILTER.replace("k in BIG", "10 // INFO[k].worth >= 2"), encoding="utf-8")  # fails at k3

    def failure(ruleset: regelwerk.Ruleset) -> str:
        with pytest.raises(regelwerk.EngineError) as caught:
            ruleset.new_game().legal_actions()
        return str(caught.value)

    fast = regelwerk.load(path)
    assert any(c.kind == "prefilter" for c in fast.program(False).choices)
    assert "division by zero" in failure(fast) or "divid" in failure(fast)
    assert failure(fast) == failure(_load(path, monkeypatch))


PROCEDURES = """players Ann, Bob
state
    n: int = 0
    mark: Player? = none
procedure bump(k: int)
    "Add k when it is positive."
    if k > 0
        add k to n
procedure both(k: int)
    "Bump twice."
    do bump(k)
    do bump(k - 1)
action go(k in 0..2)
    "Go on."
    do both(k)
    set mark = current
    do bump(0)
    if n >= 9
        finish winner current
flow
    do bump(1)
    repeat
        turn
            do bump(0)
            play go
"""


def _steps_by_calls(path: Path, monkeypatch: pytest.MonkeyPatch, players: int, seeds: range, limit: int) -> list:
    """The games with procedures and devices starting and ending their steps by calling the
    engine (`push_rule`, `pop_rule`), not in their own code (recording.push_rule_code)."""
    with monkeypatch.context() as m:
        m.setattr(compile_module, "RULE_STEPS_INLINE", False)
        return _games(regelwerk.load(path), players, True, seeds, limit)


def test_a_procedure_starts_and_ends_its_step_as_the_engine_would(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Called with no step open (the flow's first statement), in an empty automatic step (the
    turn's), in a move's step, inside another procedure, writing and not writing, before the
    game ends: the same steps, keys, bindings and changes."""
    path, ruleset, _chosen = _written(tmp_path, "procedures.rules", PROCEDURES)
    inline = _games(ruleset, 2, True, range(6), 60)
    assert '"kind": "procedure"' in inline[-1][1] and '"automatic": true' in inline[-1][1]
    assert inline == _steps_by_calls(path, monkeypatch, 2, range(6), 60)


@pytest.mark.parametrize(("name", "players", "seeds", "limit"), [
    ("checkers", 2, range(2), 400), ("breakthrough", 2, range(1), 400),
    ("khan", 3, range(1), 120), ("shogun", 4, range(1), 120), ("root", 2, range(1), 120)])
def test_the_same_traces_as_with_the_steps_of_procedures_started_by_calls(
        name: str, players: int, seeds: range, limit: int, monkeypatch: pytest.MonkeyPatch):
    inline = _games(_load(BUNDLED[name]), players, True, seeds, limit)
    assert inline == _steps_by_calls(BUNDLED[name], monkeypatch, players, seeds, limit)


AGAIN = """players Ann, Bob
state
    n: int = 0
    passes: int = 0
action go(k in 1..2)
    "Go on, never onto a multiple of four, nor past seven."
    require n + k <= 7 and (n + k) % 4 != 0 else "not there"
    add k to n
procedure stuck()
    "Start again from nothing; the third time ends the game."
    add 1 to passes
    set n = 0
    if passes >= 3
        finish draw
flow
    repeat
        turn
            play go else do stuck
"""


def _round_the_block(path: Path, monkeypatch: pytest.MonkeyPatch, players: int, record: bool, seeds: range,
                     limit: int) -> list:
    """The games with every move going round the block's `pc` sections to the next decision
    (no round trip in place: machine.MachineBuilder.round_trip)."""
    with monkeypatch.context() as m:
        m.setattr(machine.MachineBuilder, "round_trip", lambda self, k: None)
        return _games(regelwerk.load(path), players, record, seeds, limit)


@pytest.mark.parametrize("record", [False, True])
def test_a_play_with_an_else_goes_round_to_the_next_decision_in_place(tmp_path: Path, record: bool,
                                                                      monkeypatch: pytest.MonkeyPatch):
    """`play go else do stuck`: a move goes on past the `else` to the turn's end, the next turn's
    start and the next listing in place; a player who cannot move still gets the `else` part
    and the `no legal action` event, in the flow's step of that turn."""
    path, ruleset, _chosen = _written(tmp_path, "again.rules", AGAIN)
    trips = []
    real = machine.MachineBuilder.round_trip
    with monkeypatch.context() as m:  # the play's round trip: past the jump over `else`, round the loop
        m.setattr(machine.MachineBuilder, "round_trip", lambda self, k: trips.append(real(self, k)) or trips[-1])
        regelwerk.load(path).program(record)
    assert trips and all(trip is not None and trip[0] for trip in trips), trips  # [0]: the turn end
    fast = _games(ruleset, 2, record, range(8), 80)
    if record:
        assert all("no legal action" in trace for _result, trace in fast[-1:])
    assert fast == _round_the_block(path, monkeypatch, 2, record, range(8), 80)


@pytest.mark.parametrize("record", [False, True])
def test_checkers_goes_round_in_place_as_round_the_block(record: bool, monkeypatch: pytest.MonkeyPatch):
    fast = _games(_load(BUNDLED["checkers"]), 2, record, range(3), 400)
    assert fast == _round_the_block(BUNDLED["checkers"], monkeypatch, 2, record, range(3), 400)


def _eager(ruleset: regelwerk.Ruleset) -> regelwerk.Ruleset:
    """The ruleset with a traced move of lists (checkers' path) made its bindings and text at
    once, as a move of other values is, not when its step is read (`kept_args`)."""
    for ca in ruleset.program(True).actions.values():
        ca.kept_args = ca.plain_args
    return ruleset


def _read_as_played(ruleset: regelwerk.Ruleset, players: int, seeds: range, limit: int) -> list:
    """Every step of random traced games as read right after it (the recorded values of that
    moment) and the whole trace read again at the end."""
    out = []
    for seed in seeds:
        g = ruleset.new_game(players=players, seed=seed, record=True)
        rnd = random.Random(seed)
        n = 0
        while not g.is_over and n < limit:
            g.apply(rnd.choice(g.legal_actions()))
            out.append(json.dumps(g.trace[-1], default=str, sort_keys=True))
            n += 1
        out.append(json.dumps(g.trace, default=str, sort_keys=True))
    return out


@pytest.mark.parametrize(("name", "players", "seeds", "limit"), [
    ("checkers", 2, range(3), 400), ("breakthrough", 2, range(1), 400),
    ("khan", 3, range(1), 120), ("shogun", 4, range(1), 120), ("root", 2, range(1), 120)])
def test_a_move_of_lists_kept_as_itself_gives_the_trace_it_gave_at_once(name: str, players: int, seeds: range,
                                                                         limit: int):
    kept = regelwerk.load(BUNDLED[name])
    if name == "checkers":
        assert kept.program(True).actions["jump"].kept_args and not kept.program(True).actions["jump"].plain_args
    fast = _games(kept, players, True, seeds, limit)
    assert fast == _games(_eager(regelwerk.load(BUNDLED[name])), players, True, seeds, limit)
    assert _read_as_played(kept, players, seeds, limit) == \
        _read_as_played(_eager(regelwerk.load(BUNDLED[name])), players, seeds, limit)
