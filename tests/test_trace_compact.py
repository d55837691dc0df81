"""A flow's step that only ends one turn and starts the next, between a move played in place and
the next decision, is kept as one short tuple while the game is played (recording.turns_code,
machine.py's round trip) and made the step it stands for when the trace is read. The same moves
given as text take the engine's long path (Game._take), which keeps that step as a list the usual
way, so both games must have the same trace, byte for byte; and the short form must have been
used, or the comparison would prove nothing. Rulesets: the classic games, one with phases (the
step's key is worked out from the phase), one whose turns are given to a named player and back,
and one where a player cannot move right after a round trip (the kept step is opened again
for the event that says so)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from grouped import GROUPED
from playing import invariant_breaks, without_fused
from regelwerk.interpreter.engine import recording
from regelwerk.interpreter.tools.trace import trace_lines

import regelwerk

ROOT = Path(__file__).resolve().parent.parent
VALID = Path(__file__).parent / "corpus" / "valid"

PHASED = """
game "Phased"
players A, B
state
    n: int = 0
action step(k in 1..2)
    add k to n
    if n >= 24
        finish draw
flow
    phase opening
        repeat 2 times
            turn
                play step
    phase main
        repeat
            turn
                play step
"""

# a player who cannot move right after a move played in place: 'no legal action' is noted in the
# flow's step that the round trip kept as a tuple
STUCK = """
game "Stuck"
players A, B
state
    n: int = 0
action step(k in 1..2)
    require current == A or n % 3 != 0
    add k to n
    if n >= 30
        finish draw
flow
    repeat
        turn
            play step
"""

# turns given to a named player and back (`turn B`): the turn's player is an expression and
# its end gives the turn back instead of passing it on
NAMED = """
game "Named turns"
players A, B
state
    n: int = 0
action step(k in 1..2)
    add k to n
    if n >= 20
        finish draw
flow
    repeat
        turn B
            play step
"""

CASES = ["rulesets/classic/tictactoe.rules", "rulesets/classic/connect4.rules",
         "rulesets/classic/breakthrough.rules", PHASED, STUCK, NAMED]


def _load(source: str) -> regelwerk.Ruleset:
    return regelwerk.load(ROOT / source) if source.endswith(".rules") else regelwerk.load_text(source)


def _play(ruleset: regelwerk.Ruleset, seed: int, as_text: bool) -> tuple[object, int]:
    """A random game; its moves given as offered (played in place) or as text (the long path).
    Also how many flow steps were kept as tuples, counted before the trace is read."""
    g = ruleset.new_game(seed=seed, record=True)
    rnd = random.Random(seed)
    tuples = 0
    for _ in range(150):
        if g.is_over:
            break
        move = rnd.choice(g.legal_actions())
        g.apply(str(move) if as_text else move)
        # before any read makes them records; a closed step's slots are flat, a turns tuple one slot
        tuples = sum(type(g._steps[i]) is tuple for i in recording.step_starts(g._steps))
    return g, tuples


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("source", CASES, ids=lambda s: Path(s).stem if s.endswith(".rules") else s.split('"')[1])
def test_a_flow_step_kept_as_a_tuple_is_traced_as_the_step_it_stands_for(source: str, seed: int) -> None:
    ruleset = _load(source)
    offered, tuples = _play(ruleset, seed, as_text=False)
    given, none = _play(ruleset, seed, as_text=True)
    assert tuples > 0 and none == 0  # the short form was used, and only on the short path
    assert json.dumps(offered.trace, sort_keys=True) == json.dumps(given.trace, sort_keys=True)
    assert trace_lines(offered) == trace_lines(given)


def test_no_legal_action_after_a_round_trip_is_noted_in_the_kept_step() -> None:
    """The event goes in the flow's step the tuple stands for, after its turn events."""
    g, _ = _play(_load(STUCK), 1, as_text=False)
    stuck = [s for s in g.trace if any(e["event"] == "no legal action" for e in s.get("events", ()))]
    assert stuck
    for s in stuck:
        assert [e["event"] for e in s["events"]][:3] == ["turn end", "turn start", "no legal action"]
        assert s["rule"] == "flow" and s["automatic"] is True and s["changes"] == []


def test_phased_flow_steps_name_their_phase() -> None:
    g, _ = _play(_load(PHASED), 3, as_text=False)
    kinds = {(s["phase"], s["rule"]) for s in g.trace if "events" in s and s["decision"] is None}
    assert ("main", "main") in kinds or any(p == "main" for p, _ in kinds)
    assert {p for p, _ in kinds} >= {"opening", "main"}


@pytest.mark.parametrize("source", ["rulesets/classic/tictactoe.rules", PHASED])
def test_undo_clone_and_save_across_kept_steps(source: str) -> None:
    """Undo cuts the step list at a kept tuple, a clone shares the tuples, a save and load starts
    afresh: each game goes on with the same trace as a twin that took every move as text."""
    ruleset = _load(source)
    games = []
    for as_text in (False, True):
        g = ruleset.new_game(seed=5, record=True)
        rnd = random.Random(5)
        for n in range(6):
            if g.is_over:
                break
            move = rnd.choice(g.legal_actions())
            g.apply(str(move) if as_text else move)
            if n == 3:
                g.undo()
        twin = g.clone()
        for game, r in ((g, random.Random(1)), (twin, random.Random(2))):
            while not game.is_over:
                move = r.choice(game.legal_actions())
                game.apply(str(move) if as_text else move)
        games.append([json.dumps(x.trace, sort_keys=True) for x in (g, twin)])
    assert games[0] == games[1]


# ---------------------------------------------------------------------- invariants after each step
# A traced game checks, after each step, the invariants that read a variable the step wrote (or
# more than state); the pick is worked out once per set of variables (Program.invariants_for),
# and the messages only when one fails (Game.broken_invariants).
GUARDED = """
game "Guarded"
players A, B
state
    a: int = 0
    b: int = 0
    c: int = 0
action up_a(k in 1..2)
    add k to a
action up_ab(k in 1..2)
    add k to a
    add k to b
action up_c(k in 1..2)
    add k to c
    if c >= 40
        finish draw
invariant a <= 4 else "a is at most 4"
invariant b <= 2 else "b is at most 2"
invariant a + b <= 5 else "a and b are at most 5 together"
invariant c >= 0 and current != none else "c is not negative"
flow
    repeat
        turn
            play up_a, up_ab, up_c
"""


def test_the_invariants_picked_for_a_step_are_those_that_read_what_it_wrote() -> None:
    prog = regelwerk.load_text(GUARDED).new_game(record=True).prog
    names = ["a", "b", "c", "n"]
    for mask in range(16):
        written = frozenset(n for i, n in enumerate(names) if mask >> i & 1)
        want = sorted({*prog.invariants_unread, *(i for n in written for i in prog.invariants_reading.get(n, ()))})
        assert prog.invariants_for(written) == tuple(want)
        assert prog.invariants_for(frozenset(written)) == tuple(want)  # remembered: the same again


def test_a_step_that_breaks_invariants_names_every_one_it_broke() -> None:
    """up_ab(2) twice: b = 4 breaks 'b' and 'a and b' (a = 4 still holds); the error lists both,
    in order, and nothing about the invariant on c, which the step did not write."""
    g = regelwerk.load_text(GUARDED).new_game(record=True)
    g.apply("up_ab(2)")
    with pytest.raises(regelwerk.InvariantBroken) as err:
        g.apply("up_ab(2)")
    assert [b.split(": ", 1)[1] for b in err.value.broken] == ["b is at most 2", "a and b are at most 5 together"]


def test_a_step_with_one_write_picks_its_invariants_by_the_variable_s_path() -> None:
    """The pick after a step is found by the set of journal paths it wrote (Program.invariant_plan,
    remembered per set): for one write, that of its variable; and a break is caught."""
    g = regelwerk.load_text(GUARDED).new_game(record=True)
    prog = g.prog
    for name in ["a", "b", "c", "n"]:
        assert prog.invariant_plan(frozenset([(name,)])) == (prog.invariants_for(frozenset([name])), ())
        assert prog.invariant_plans[frozenset([(name,)])] == prog.invariant_plan(frozenset([(name,)]))
    g.apply("up_a(2)")
    g.apply("up_a(2)")  # a = 4 holds
    with pytest.raises(regelwerk.InvariantBroken) as err:
        g.apply("up_a(1)")  # one write: a = 5
    assert [b.split(": ", 1)[1] for b in err.value.broken] == ["a is at most 4"]


# ---------------------------------------------------------------------- choices kept as the move
@pytest.mark.parametrize("source,players", [("rulesets/examples/pig.rules", 2), ("rulesets/examples/climb.rules", 3),
                                            ("rulesets/root/root.rules", 2)])
def test_a_choice_of_a_plain_value_is_traced_with_its_variable_player_and_text(source: str, players: int) -> None:
    """A choice of a plain value keeps the move itself and the variable's name while the game is
    played (Game._take); read, its step has the bindings and decision the choice had when made."""
    g = regelwerk.load(ROOT / source).new_game(players=players, seed=3, record=True)
    rnd = random.Random(3)
    want = []
    for _ in range(300):
        if g.is_over:
            break
        pending = g.pending
        move = rnd.choice(g.legal_actions())
        if pending["kind"] == "choose":
            want.append(({pending["var"]: move.args[0]},
                         {"kind": "choose", "by": pending["player"], "action": str(move)}))
        g.apply(move)
    got = [(s["bindings"], s["decision"]) for s in g.trace
           if s.get("decision") and s["decision"]["kind"] == "choose"]
    assert want and got == want
    assert json.dumps(got) == json.dumps(want)  # the same order of keys too


# ---------------------------------------------------------------------- a step used again for a procedure
# `push_rule` and `pop_rule` (interpreter/engine/recording.py) make the open step the step of the
# procedure or device that starts, or of the rule that goes on after it; when the open step is
# automatic and has noted and written nothing (closing it would drop it), its list is used again
# (`_renew`) instead of a new one. The trace must be the one the engine gave when it always closed
# the step and opened a new one, byte for byte; and the shortcut must have been taken.
HOOKED = """
game "Hooked"
players A, B
state
    n: int = 0
    m: int = 0
procedure bump(k: int)
    add k to n
procedure quiet()
    log "nothing written"
action step(k in 1..2)
    do quiet()
    do bump(k)
    do quiet()
    if n >= 20
        finish draw
on turn start
    do bump(1)
    do bump(0)
    add 1 to m
    do quiet()
flow
    repeat
        turn
            play step
"""


@pytest.mark.parametrize("source,players", [(HOOKED, 2), ("rulesets/khan/khan.rules", 3),
                                            ("rulesets/shogun/shogun.rules", 4), ("rulesets/root/root.rules", 2)],
                         ids=["hooked", "khan", "shogun", "root"])
def test_a_procedure_step_made_from_the_empty_step_before_it_is_traced_as_a_new_one(
        source: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from regelwerk.interpreter.compiler import compile as compile_module
    from regelwerk.interpreter.engine.recording import TraceRecorder

    # the engine's push_rule and pop_rule (generated code writes the same steps out itself:
    # tests/test_loop_forms.py compares the two)
    monkeypatch.setattr(compile_module, "RULE_STEPS_INLINE", False)
    ruleset = _load(source)
    ruleset.program(True)
    renew = TraceRecorder._renew
    used = [0]

    def counted(self: TraceRecorder, st: list, key: str) -> bool:
        done = renew(self, st, key)
        used[0] += done
        return done

    def play() -> list[str]:
        g = ruleset.new_game(players=players, seed=4, record=True)
        rnd = random.Random(4)
        for _ in range(120):
            if g.is_over:
                break
            g.apply(rnd.choice(g.legal_actions()))
        return trace_lines(g)

    monkeypatch.setattr(TraceRecorder, "_renew", counted)
    short = play()
    monkeypatch.setattr(TraceRecorder, "_renew", lambda self, st, key: False)  # always a new step
    long = play()
    assert used[0] > 0
    assert short == long


# ---------------------------------------------------------------------- journal paths one key deep
def test_a_write_one_key_deep_keeps_its_variable_name_and_reads_as_the_full_path() -> None:
    """The journal entry of `set cell[s] = ...` holds the name 'cell' as its path (no tuple per
    write); read, it is the path ('cell', s), as are deeper and whole-variable paths as written.
    A step's changes made from such entries name the full path."""
    from regelwerk.interpreter.engine.recording import changes_of, entry_path, entry_var

    g = regelwerk.load(ROOT / "rulesets/classic/tictactoe.rules").new_game(record=True)
    g.apply("place(b2)")
    by_key = {e[1]: e for e in recording.entries(g.journal)}
    assert by_key["b2"][4] == "cell" and by_key["moves"][4] == ("moves",)
    assert entry_path(by_key["b2"]) == ("cell", "b2") and entry_var(by_key["b2"]) == "cell"
    assert entry_path(by_key["moves"]) == ("moves",) and entry_var(by_key["moves"]) == "moves"
    deep = ({}, "c3", 0, 2, ("warriors", "Marquise", "c3"))
    assert entry_path(deep) == ("warriors", "Marquise", "c3") and entry_var(deep) == "warriors"
    assert changes_of(list(g.journal)) == ((("cell", "b2"), None, "X"), (("moves",), 0, 1))
    assert [c["path"] for c in g.trace[-2]["changes"]] == ["cell[b2]", "moves"]


# ---------------------------------------------------------------------- invariants tested by key
# An invariant `all x in D: ...` that reads state only as `m[x]` is tested after a step at the keys
# the step wrote (INVP_n), not over all of D; a map written whole has it tested whole.
POINTWISE = """
game "Pointwise"
players A, B
enum Slot = s1, s2, s3
state
    m: Slot -> int = 0
    spare: Slot -> int = 9
    cap: Slot -> int = 4
action two(x: Slot, y: Slot)
    add 1 to m[x]
    add 3 to m[y]
action swap
    set m = spare
action shrink(x: Slot)
    remove 1 from cap[x]
invariant all s in Slot where cap[s] > 0: m[s] <= cap[s] else "no slot holds more than its cap"
flow
    repeat
        turn
            play two, swap, shrink
"""


def test_a_pointwise_invariant_is_picked_for_its_maps() -> None:
    prog = regelwerk.load_text(POINTWISE).program(True)
    assert {i: sorted(maps) for i, (maps, _test) in prog.invariant_points.items()} == {0: ["cap", "m"]}
    assert regelwerk.load_text(POINTWISE).program(False).invariant_points == {}  # untraced: never checked
    assert prog.invariant_plan(frozenset(["m"]))[0] == () and prog.invariant_plan(frozenset(["m"]))[1][0][0] == 0
    assert prog.invariant_plan(frozenset(["cap", ("m",)])) == ((0,), ())  # `m` written whole: tested whole


@pytest.mark.parametrize("moves", [["two(s1, s2)", "two(s3, s2)"],  # the second key written breaks it
                                   ["two(s2, s2)", "two(s2, s3)"],  # the first
                                   ["two(s1, s1)", "shrink(s1)"],  # the other map it reads
                                   ["shrink(s3)", "swap"]])  # the map written whole (not the first
# decision: after a start every invariant is tested whole)
def test_a_pointwise_invariant_is_broken_at_the_step_that_wrote_the_key(moves: list[str]) -> None:
    g = regelwerk.load_text(POINTWISE).new_game(record=True)
    for move in moves[:-1]:
        g.apply(move)
    with pytest.raises(regelwerk.InvariantBroken) as err:
        g.apply(moves[-1])
    assert [b.split(": ", 1)[1] for b in err.value.broken] == ["no slot holds more than its cap"]


@pytest.mark.parametrize("seed", range(6))
def test_testing_by_key_reports_the_same_breaks_at_the_same_steps_as_testing_whole(seed: int) -> None:
    """Random games, played on through every break: the steps that raise and their messages are
    the same whether the invariant is tested at the keys written or whole."""
    def breaks(by_key: bool) -> list:
        return invariant_breaks(regelwerk.load_text(POINTWISE), seed, 40, by_key)

    assert breaks(True) == breaks(False)
    assert breaks(True)  # the games do break it


# ---------------------------------------------------------------------- chance kept as noted
# A chance event is kept as the values it noted (maps of plain values copied, lists as they are,
# others made JSON at once) and made the trace's record when the step is read.
def test_a_device_s_inputs_and_outcome_are_traced_as_they_were_at_the_throw() -> None:
    """The tower is thrown the state map `inside` itself, which its settle changes right after
    the note: the trace shows the map as it was thrown, and the outcome as it fell."""
    text = (VALID / "device.rules").read_text(encoding="utf-8").replace(
        "let out = tower({blue: if current == Blue then n else 0, yellow: if current == Yellow then n else 0, "
        "green: 0})", "let out = tower(inside)")
    g = regelwerk.load_text(text, "alias.rules").new_game(start=False, record=True)
    g.script("tower", {"blue": 0, "yellow": 0, "green": 0})
    g.script("tower", {"blue": 0, "yellow": 0, "green": 0}, next_draw=True)
    g.start()
    g.apply("attack(1)")
    g.invalidate()
    g.state.vars["inside"].update({"blue": 3, "yellow": 1})  # a position set from outside the rules
    g.apply("attack(2)")
    throws = [c for s in g.trace for c in s.get("chance", ())]
    assert throws[-1] == {"kind": "device", "what": "tower(scripted)", "outcome": {"blue": 0, "yellow": 0, "green": 0},
                          "inputs": [{"blue": 3, "yellow": 1, "green": 0}]}
    assert g.state.vars["inside"] == {"blue": 6, "yellow": 2, "green": 0}  # the map thrown did change


def test_chance_values_are_kept_copied_and_made_json_when_read() -> None:
    from regelwerk.interpreter.engine.recording import _kept, chance_record

    flat, nested, cards = {"a": 1, "b": None}, {"lower": {"blue": 2}, "n": 1}, [3, 1]
    kept = [_kept(v) for v in (flat, nested, cards, frozenset({"y", "x"}), "x")]
    flat["a"], nested["lower"]["blue"] = 9, 9  # changed in place after the note
    assert kept[0] == {"a": 1, "b": None} and kept[0] is not flat
    assert kept[1] == {"lower": {"blue": 2}, "n": 1} and kept[2] is cards and kept[3] == ["x", "y"]
    assert chance_record(("device", "t", kept[0], kept[2], kept[3])) == {
        "kind": "device", "what": "t", "outcome": {"a": 1, "b": None}, "inputs": [3, 1], "detail": ["x", "y"]}
    assert chance_record(("roll", "2d6", [4, 2], None, None)) == {"kind": "roll", "what": "2d6", "outcome": [4, 2]}
    assert chance_record(("random", "1 of 3", {1: "x"}, None, None))["outcome"] == {"1": "x"}


# ---------------------------------------------------------------------- sums grouped in one pass
# An invariant `all c in D: ... f(c) ...` whose definition `f(p)` sums (or counts) over E where
# `... and F == p` is tested after a step by INVG_n: the sums for every c in one pass over E,
# grouped by F; its own test (INV_n) still gives the messages.
# (the game: tests/grouped.py GROUPED)


def test_a_sum_grouped_by_the_quantified_value_is_tested_in_one_pass() -> None:
    prog = regelwerk.load_text(GROUPED).program(True)
    assert [t.__name__ for t in prog.invariant_tests] == ["INVG_0", "INVG_1"]
    assert [t.__name__ for t in regelwerk.load_text(GROUPED).program(False).invariant_tests] == ["INV_0", "INV_1"]


def test_a_grouped_test_agrees_with_the_invariant_s_own_test_in_any_position() -> None:
    """Random positions, most of them breaking one invariant or both: the grouped tests say
    exactly what the invariants' own tests say."""
    g = regelwerk.load_text(GROUPED).new_game(record=True)
    prog, vars_, rnd = g.prog, g.state.vars, random.Random(5)
    seen = set()
    for _ in range(400):
        for q in ("p1", "p2", "p3", "p4"):
            vars_["owner"][q] = rnd.choice(["A", "B", None])
            vars_["armies"][q] = rnd.randrange(3)
        for c in ("red", "blue", "green"):
            vars_["supply"][c] = rnd.randrange(5)
        for i, (own, _decl) in enumerate(prog.invariants):
            assert prog.invariant_tests[i](g) == own(g)
            seen.add((i, own(g)))
    assert seen == {(0, True), (0, False), (1, True), (1, False)}


@pytest.mark.parametrize("seed", range(4))
def test_grouped_tests_report_the_same_breaks_at_the_same_steps_as_the_invariants_own(seed: int) -> None:
    def breaks(grouped: bool) -> list:
        ruleset = regelwerk.load_text(GROUPED)
        prog = ruleset.program(True)
        if not grouped:
            prog.invariant_tests[:] = [own for own, _decl in prog.invariants]
        g = ruleset.new_game(record=True, seed=seed)
        rnd, out = random.Random(seed), []
        for n in range(30):
            if g.is_over or not g.legal_actions():
                break
            try:
                g.apply(rnd.choice(g.legal_actions()))
            except regelwerk.InvariantBroken as err:
                out.append((n, err.broken))
        return out

    assert breaks(True) == breaks(False)
    assert breaks(True)  # the games do break them


# ---------------------------------------------------------------------- records written, kept as written
# A step that writes a map or record value keeps the journal's entries as they are (made changes
# when read) unless some statement writes deeper into that variable, which could change the
# written dict in place later: then its changes are worked out at once (G._jdict).
RECORDS = """
game "Records"
players A, B
record Unit(hp: int)
state
    units: Player -> list Unit = []
    champ: Player -> Unit? = none
action recruit(hp in 1..3)
    set units[current] = units[current] + [Unit(hp: hp)]
action train
    set champ[current] = Unit(hp: 5)
action hurt
    require champ[current] != none and champ[current].hp > 0
    set champ[current].hp = champ[current].hp - 1
flow
    repeat
        turn
            play recruit, train, hurt
"""


def test_records_written_are_traced_as_they_were_whether_kept_or_worked_out_at_once() -> None:
    prog = regelwerk.load_text(RECORDS).program(True)
    assert without_fused(prog.source).count("G._jdict = True") == 2  # champ: written deeper by `hurt`; units: never
    g = regelwerk.load_text(RECORDS).new_game(record=True)
    for move in ["recruit(2)", "train", "train", "hurt", "recruit(3)", "hurt"]:
        g.apply(move)
    got = [(s["decision"]["action"], s["changes"]) for s in g.trace if s.get("changes")]
    assert got == [
        ("recruit(2)", [{"path": "units[A]", "old": [], "new": [{"hp": 2}]}]),
        ("train", [{"path": "champ[B]", "old": None, "new": {"hp": 5}}]),  # 3 now: worked out at once
        ("train", [{"path": "champ[A]", "old": None, "new": {"hp": 5}}]),
        ("hurt", [{"path": "champ[B][hp]", "old": 5, "new": 4}]),
        ("recruit(3)", [{"path": "units[A]", "old": [{"hp": 2}], "new": [{"hp": 2}, {"hp": 3}]}]),
        ("hurt", [{"path": "champ[B][hp]", "old": 4, "new": 3}]),
    ]
