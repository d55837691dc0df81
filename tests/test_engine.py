"""Engine behaviours that scenarios cannot express: errors, budgets, views, chance devices."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import regelwerk
from regelwerk import BudgetExceeded, RuleFailure

VALID = Path(__file__).parent / "corpus" / "valid"
ROOT = Path(__file__).resolve().parent.parent


def test_impossible_scripted_device_outcome_is_refused():
    r = regelwerk.load(VALID / "device.rules")
    g = r.new_game(start=False)
    g.script("tower", {"blue": 5, "yellow": 0, "green": 0})
    g.start()
    with pytest.raises(RuleFailure, match="scripted: more cubes fell out than were in the tower"):
        g.apply("attack(1)")


def test_device_throw_is_in_the_trace():
    r = regelwerk.load(VALID / "device.rules")
    g = r.new_game(start=False, record=True)
    g.script("tower", {"blue": 1, "yellow": 0, "green": 0})
    g.start()
    g.apply("attack(2)")
    decided = next(i for i, s in enumerate(g.trace) if s.get("decision"))
    step = g.trace[decided + 1]  # the throw is a step of its own, right after the decision
    assert (step["rule"], step["kind"], step["automatic"]) == ("tower", "device", True)
    assert step["chance"] == [{"kind": "device", "what": "tower(scripted)",
                               "outcome": {"blue": 1, "yellow": 0, "green": 0},
                               "inputs": [{"blue": 2, "yellow": 0, "green": 0}]}]
    assert {"path": "inside[blue]", "old": 0, "new": 1} in step["changes"]
    assert g.trace[decided]["chance"] == []


def test_runaway_loop_hits_the_budget():
    text = "players X\nstate\n    n: int = 0\nflow\n    while true\n        add 1 to n\n"
    r = regelwerk.load_text(text, "loop.rules")
    with pytest.raises(BudgetExceeded):
        # the loop has no decision inside, so it runs in one Python function: bound it by ops
        r.new_game()


def test_runaway_trigger_chain_hits_the_budget():
    text = (
        "players X\nstate\n    n: int = 0\n"
        "when n == 0\n    set n = 1\n"
        "when n == 1\n    set n = 0\n"
        "action a\n    set n = n\n"
        "flow\n    repeat\n        turn\n            play a\n"
    )
    r = regelwerk.load_text(text, "chain.rules")
    with pytest.raises(BudgetExceeded, match="keep firing each other: when n == 0; when n == 1"):
        r.new_game()


def test_view_hides_other_hands():
    r = regelwerk.load(Path(__file__).parent.parent / "rulesets" / "examples" / "climb.rules")
    g = r.new_game(players=2, seed=1)
    v = g.view("North")
    assert isinstance(v["vars"]["hand"]["North"], list)
    assert v["vars"]["hand"]["East"] == {"hidden": 4}
    assert v["vars"]["deck"] == {"hidden": 16}


def test_bad_index_in_a_rule_is_a_rule_failure_not_a_crash():
    text = (
        "players X\nstate\n    m: int -> int = 0\n    xs: list int = []\n"
        "action a\n    set m[1] = xs[3]\n"
        "flow\n    repeat\n        turn\n            play a\n"
    )
    g = regelwerk.load_text(text, "idx.rules").new_game()
    with pytest.raises(RuleFailure, match=r"action 'a' failed: no such place in the list .*\[IndexError\]") as info:
        g.apply("a")
    assert str(info.value.span) == "idx.rules:6:5" and info.value.rule == "action:a"  # the statement


def test_game_from_json_finds_its_rules_file(tmp_path):
    import json

    from regelwerk import Game

    r = regelwerk.load(Path(__file__).parent.parent / "rulesets" / "classic" / "tictactoe.rules")
    g = r.new_game(seed=1)
    g.apply("place(b2)")
    data = json.loads(json.dumps(g.to_json()))
    h = Game.from_json(data)
    assert h.legal_actions() == g.legal_actions()
    data["ruleset_file"] = str(tmp_path / "gone.rules")
    with pytest.raises(regelwerk.SaveError, match="save.ruleset_file: cannot"):
        Game.from_json(data)


def test_display_layers_draw_pieces_over_terrain():
    from regelwerk.interpreter.tools.board_text import draw_boards

    g = regelwerk.load(VALID / "records_and_data.rules").new_game()
    assert draw_boards(g).splitlines() == [
        "Square (terrain):",
        "  3 r p m",
        "  2 p p m",
        "  1 r r p",
        "    a b c",
        "    terrain: r = river, p = plain, m = mountain",
    ]


def test_scripted_outcome_missing_a_key_is_a_located_error():
    r = regelwerk.load(VALID / "device.rules")
    g = r.new_game(start=False)
    g.script("tower", {"blue": 1})
    g.start()
    with pytest.raises(RuleFailure, match=r"impossible scripted outcome: script tower: missing entries for yellow, green") as err:
        g.apply("attack(1)")
    assert "device.rules:" in str(err.value)


def test_let_rebinding_accumulates_in_loops_and_across_decisions():
    text = (
        "players X\nstate\n    out: list int = []\n"
        "action a(n in 1..3)\n    add n to out\n"
        "flow\n    let total = 0\n    for i in 1..4\n        if i > 1\n            let total = total + i\n"
        "    add total to out\n"
        "    repeat 2 times\n        turn\n            play a\n        let total = total + 100\n"
        "    add total to out\n    finish draw\n"
    )
    g = regelwerk.load_text(text, "acc.rules").new_game()
    g.apply("a(1)")
    g.apply("a(2)")
    assert g.vars["out"] == [9, 1, 2, 209]


def test_device_detail_reaches_settle_and_its_draws_stay_out_of_the_trace():
    text = (
        "players A\nstate\n    kept: int = 0\n    mode: text = \"\"\n"
        "device bag(n: int): int\n    roll\n        let hits = 0\n        for i in 1..n\n"
        "            let h = bernoulli(1, 2)\n            if h\n                let hits = hits + 1\n"
        "        result hits with n - hits\n"
        "    settle\n        set kept = if detail != none then detail else 0\n"
        "        set mode = if detail != none then \"rolled\" else \"scripted\"\n"
        "action draw\n    let x = bag(10)\n"
        "flow\n    repeat 2 times\n        turn\n            play draw\n    finish draw\n"
    )
    r = regelwerk.load_text(text, "bag.rules")
    g = r.new_game(seed=3, record=True)
    g.apply("draw")
    step = next(s for s in g.trace if s.get("kind") == "device")
    assert [c["kind"] for c in step["chance"]] == ["device"] and step["rule"] == "bag"
    hits = step["chance"][0]["outcome"]
    assert step["chance"][0]["detail"] == 10 - hits  # what `result ... with` handed to settle
    assert g.vars["kept"] == 10 - hits and g.vars["mode"] == "rolled"
    g.script("bag", 4)
    g.apply("draw")
    assert g.vars["kept"] == 0 and g.vars["mode"] == "scripted"


def test_scenario_setting_after_the_game_is_built_is_an_error_not_ignored():
    from regelwerk.interpreter.tools.scenario import run_scenarios

    text = (
        "players X\noption n: int = 1\nstate\n    v: int = 0\n"
        "flow\n    set v = n\n    finish draw\n"
        "scenario \"late option\"\n    expect v == 1\n    option n = 2\n    expect v == 2\n"
    )
    [res] = run_scenarios(regelwerk.load_text(text, "late.rules"))
    assert not res.passed and "'option' must come before" in res.failure


def test_a_block_of_only_trace_lines_compiles_untraced_too():
    text = ("players X\nstate\n    n: int = 0\naction step\n    add 1 to n\n"
            "flow\n    repeat 3 times\n        turn\n            if n > 1\n                log \"big\"\n"
            "            elif n > 0\n                reveal n\n            play step\n    finish draw\n")
    for record in (False, True):
        g = regelwerk.load_text(text, "log.rules").new_game(record=record)
        for _ in range(3):
            g.apply("step")
        assert g.is_over and g.vars["n"] == 3


def _offers(record=False, seed=0):
    return regelwerk.load(VALID / "abandon.rules").new_game(seed=seed, record=record)


def test_abandon_rolls_back_and_the_trace_says_why():
    g = _offers(record=True)
    g.apply("offer(3)")
    g.apply("choose(false)")
    assert g.vars["table"] == [] and g.vars["gold"] == {"A": 0, "B": 0}
    assert "offer(3)" not in [str(a) for a in g.legal_actions()]
    last = g.trace[-1]
    assert last["decision"] == {"kind": "abandoned", "by": "A", "action": "offer(3)"}
    assert last["events"] == [{"event": "abandoned", "reason": "the other player said no"}]
    assert not g.explain("offer(3)").legal


def test_abandon_survives_save_and_load_in_the_middle_of_the_move():
    import json

    g = _offers()
    g.apply("offer(2)")  # now B must consent: the way back is part of the save
    h = regelwerk.Game.from_json(json.loads(json.dumps(g.to_json())))
    for game in (g, h):
        game.apply("choose(false)")
    assert h.to_json() == g.to_json()
    assert h.vars["table"] == []


def test_when_every_move_is_taken_back_the_play_is_skipped():
    g = _offers()
    for n in (1, 2, 3):
        g.apply(f"offer({n})")
        g.apply("choose(false)")
    g.apply("stubborn")
    assert g.current == "B" and not g.is_over  # A's play was skipped: nothing was left to try


def test_undo_history_ends_at_a_taken_back_move():
    g = _offers(record=True)
    g.apply("offer(1)")
    g.apply("choose(false)")
    with pytest.raises(regelwerk.EngineError, match="nothing to undo"):
        g.undo()
    g.apply("offer(2)")
    g.undo()  # moves after it can be undone again
    assert g.legal_actions() and "offer(1)" not in [str(a) for a in g.legal_actions()]


def test_hostile_names_and_texts_never_become_code():
    """User text reaches generated code only as repr()'d constants or mapped names."""
    text = (
        'players os, sys\nenum eval = exec, compile\n'
        'state\n    G: text = "\\"); import os; os.system(\\"echo pwned"\n    V: eval = exec\n'
        'action print(K in [exec, compile])\n    "__import__(\'os\')"\n    set V = K\n'
        '    set G = "x\\" + __import__(\'os\').getcwd() + \\""\n'
        'flow\n    repeat 2 times\n        turn\n            play print\n    finish draw\n'
    )
    g = regelwerk.load_text(text, "hostile.rules").new_game(record=True)
    g.apply("print(compile)")
    g.apply("print(exec)")
    assert g.vars["V"] == "exec"
    assert g.vars["G"] == "x\" + __import__('os').getcwd() + \""
    assert g.is_over


def test_dunder_names_are_refused():
    with pytest.raises(regelwerk.RulesError) as err:
        regelwerk.load_text("players X\nstate\n    __class__: int = 0\nflow\n    finish draw\n", "d.rules")
    assert err.value.diagnostics[0].code == "E101"


def test_graph_boards_are_drawn_as_a_table_of_nodes():
    from regelwerk.interpreter.tools.board_text import draw_boards

    text = ("players A, B\nboard Node = graph\n    n1 - n2 - n3\nstate\n    owner: Node -> Player? = {n2: B}\n"
            "    marked: set Node = [n3]\ndisplay Node: owner, marked\nflow\n    finish draw\n")
    g = regelwerk.load_text(text, "g.rules").new_game()
    assert draw_boards(g).splitlines() == ["Node (owner, marked):", "  n2: owner B", "  n3: marked"]


def _state(g: regelwerk.Game) -> tuple:
    import json

    return json.dumps(g.to_json(), sort_keys=True), json.dumps(g.trace, sort_keys=True)


def test_undo_all_the_way_back_across_snapshots():
    """Undo keeps a full snapshot for one decision in UNDO_EVERY and plays the others again:
    taking back 40 moves one by one gives every earlier state and trace exactly."""
    import random

    from regelwerk.interpreter.engine.game import UNDO_EVERY

    rules = regelwerk.load(ROOT / "rulesets/classic/connect4.rules")
    for seed in range(100):  # the first random game that lasts 40 moves
        g = rules.new_game(seed=seed, record=True)
        rnd = random.Random(seed)
        seen = []
        while not g.is_over and len(seen) < 40:
            seen.append(_state(g))
            g.apply(rnd.choice(g.legal_actions()))
        if len(seen) == 40:
            break
    assert len(seen) > 2 * UNDO_EVERY
    while seen:
        g.undo()
        assert _state(g) == seen.pop()
    with pytest.raises(regelwerk.EngineError, match="nothing to undo"):
        g.undo()


def test_undo_never_plays_again_across_a_change_from_outside():
    """A change made from outside the rules (then `invalidate()`) is where undo's replay
    starts: moves after it are taken back onto the changed state, not played from before."""
    g = regelwerk.load(ROOT / "rulesets/classic/tictactoe.rules").new_game(record=True)
    g.apply("place(a1)")
    g.vars["cell"]["a1"] = None  # the outside change: the move before it, wiped
    g.invalidate()
    after_change = _state(g)
    g.apply("place(b2)")
    g.apply("place(c1)")
    g.undo()
    g.undo()
    assert _state(g) == after_change
    assert g.vars["cell"]["a1"] is None  # not place(a1) played again


def test_undo_never_plays_again_across_a_scripted_outcome():
    """`script()` queues an outcome from outside the rules: the next move keeps a snapshot with
    the queue in it, so undo gives the game back with its scripted outcome still queued (a
    replay from the snapshot before it would have lost the queue)."""
    g = regelwerk.load(VALID / "device.rules").new_game(record=True)
    g.apply("attack(1)")
    g.script("tower", {"blue": 0, "yellow": 0, "green": 0})  # nothing falls out next time
    after_script = _state(g)
    g.apply("attack(2)")
    assert g.vars["inside"]["yellow"] == 2  # the scripted outcome was taken
    g.undo()
    assert _state(g) == after_script
    assert g.scripted == {"tower": [{"blue": 0, "yellow": 0, "green": 0}]}


RECORD_THEN_FIELD = """
game "Record, then its field"
players A, B
record Pos(x: int)
state
    p: Pos = Pos(x: 0)
    m: Player -> list int = {}
action place
    set p = Pos(x: 1)
    set m[current] = [1]
action nudge
    set p.x = 5
flow
    repeat
        turn
            play place, nudge
"""


@pytest.mark.parametrize("read_late", [False, True])
def test_a_step_that_wrote_a_record_whole_shows_it_as_it_was_then(read_late: bool):
    """A decided step's changes are worked out when the trace is read (recording.py), except
    when it wrote a map or record whole: that value changes in place later, so it is copied
    at once. Read after the later change, the step still shows the value it wrote."""
    g = regelwerk.load_text(RECORD_THEN_FIELD).new_game(record=True)
    g.apply("place")
    if not read_late:
        g.trace  # noqa: B018 - reading the trace works the steps out now
    g.apply("nudge")
    placed = next(s for s in g.trace if s["rule"] == "place")
    assert {"path": "p", "old": {"x": 0}, "new": {"x": 1}} in placed["changes"]
    assert {"path": "m[A]", "old": [], "new": [1]} in placed["changes"]
    nudged = next(s for s in g.trace if s["rule"] == "nudge")
    assert nudged["changes"] == [{"path": "p[x]", "old": 1, "new": 5}]


def test_is_over_follows_the_result_through_undo_saves_and_clones():
    """Every way a game's result changes (a finishing move, undo, a save loaded, a clone) is
    seen by `is_over`, the question every playout loop asks."""
    rules = regelwerk.load(ROOT / "rulesets" / "classic" / "tictactoe.rules")
    g = rules.new_game(record=True)
    for square in ("a1", "b1", "b2", "c1"):
        g.apply(f"place({square})")
    mid = g.to_json()
    g.apply("place(c3)")
    assert g.is_over and g.result is not None
    assert g.clone().is_over
    assert rules.load_game(g.to_json()).is_over
    g.undo()
    assert not g.is_over and g.result is None
    assert not rules.load_game(mid).is_over
    g.apply("place(c3)")
    assert g.is_over and g.winners == ["X"]


LOOK_THEN_NUDGE = """
game "Look, then nudge"
players A, B
record Pos(x: int)
state
    pos: Player -> Pos = {A: Pos(x: 0), B: Pos(x: 0)}
    seen: Player -> list Pos = {A: [Pos(x: 0)], B: [Pos(x: 0)]}
action look
    require pos[current].x >= 0
    require len(seen[current]) > 0
action nudge
    set pos[A].x = 5
flow
    repeat
        turn
            play look, nudge
"""


def test_a_check_shows_a_record_as_it_was_when_a_later_step_changes_it_in_place():
    """A traced move's checks keep the values read (codegen `explained`): a record some
    statement writes into (`pos[A].x`) is copied; one read below every write (`seen[current]`:
    nothing writes into it) is kept as it is. Both show what the check saw."""
    g = regelwerk.load_text(LOOK_THEN_NUDGE).new_game(record=True)
    g.apply("look")
    g.apply("nudge")
    looked = next(s for s in g.trace if s["rule"] == "look")
    values = {k: v for c in looked["checks"] for k, v in c["values"].items()}
    assert values["pos[current]"] == {"x": 0} and values["pos[current].x"] == 0
    assert values["seen[current]"] == [{"x": 0}]


def test_the_generated_program_does_not_depend_on_string_hashing():
    """The same ruleset gives the same Python source in every process (set and dict orders
    that follow string hashes would not): a failure's line and the docs' examples stay put."""
    import subprocess
    import sys

    code = ("import regelwerk, sys; r = regelwerk.load(sys.argv[1]); "
            "sys.stdout.write(r.program(True).source + r.program(False).source)")
    path = str(ROOT / "rulesets" / "root" / "root.rules")
    sources = {subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2")}
    assert len(sources) == 1 and len(next(iter(sources))) > 10_000


NESTED_RECORDS = """
game "Records in lists in a list"
players A, B
record Pos(x: int)
state
    grid: list (list Pos) = [[Pos(x: 0)]]
    twin: list (list Pos) = []
action look
    require len(grid + []) > 0
action copy
    set twin = grid
action nudge
    set grid[0][0].x = 5
flow
    repeat
        turn
            play look, copy, nudge
"""


def test_records_nested_in_lists_are_copied_when_stored_and_when_a_check_keeps_them():
    """A record inside a list inside a list is a dict that changes in place: `set twin = grid`
    stores its own copy (runtime `_own`), and a check keeps the value it saw (`_fz`), however
    deep the record lies."""
    g = regelwerk.load_text(NESTED_RECORDS).new_game(record=True)
    g.apply("look")
    g.apply("copy")
    g.apply("nudge")
    assert g.vars["grid"] == [[{"x": 5}]] and g.vars["twin"] == [[{"x": 0}]]
    looked = next(s for s in g.trace if s["rule"] == "look")
    assert looked["checks"][0]["values"]["grid + []"] == [[{"x": 0}]]


def test_nested_quantifiers_run_as_two_loops_and_agree_with_python():
    """`any x in xs: all y in x: ...` and its three siblings are generated as two loops where the
    inner loop's break or else settles the outer value (codegen.nested_quantifier); empty lists
    at either level included, traced and untraced."""
    import itertools

    cases = [[], [[]], [[1]], [[0]], [[1, 0]], [[0], [1]], [[1], [1, 1]], [[0, 0], []], [[], [0]]]
    lines = ["players A", "state", "    r: list bool = []", "flow"]
    expect = []
    kinds = {"any": any, "all": all}
    for c in cases:
        for outer, inner in itertools.product(kinds, repeat=2):
            lines.append(f"    add {outer} x in {c}: {inner} y in x: y > 0 to r")
            expect.append(kinds[outer](kinds[inner](y > 0 for y in x) for x in c))
    lines.append("    finish draw")
    rs = regelwerk.load_text("\n".join(lines) + "\n", "nested.rules")
    for record in (False, True):
        g = rs.new_game(record=record)
        assert g.vars["r"] == expect
        nested = [c for c in g.prog.choices if c.kind == "nested quantifier"]
        assert len(nested) == len(expect)  # the loops, not generator calls


def test_model_wide_facts_are_worked_out_once_per_program(monkeypatch):
    """Each expression compiled on its own (a variable's start value, the scoring) makes a
    CodeGen; the walks of the whole model it needs are made once per program and shared
    (compile.Program.facts), not once per expression: Shogun's first game took 170 ms for them."""
    from regelwerk.interpreter.compiler import compile as compiler

    made = []
    real = compiler.model_facts
    monkeypatch.setattr(compiler, "model_facts", lambda model: made.append(model) or real(model))
    rules = regelwerk.load(ROOT / "rulesets" / "classic" / "tictactoe.rules")
    for record in (False, True):
        g = rules.new_game(record=record)
        for square in ("a1", "b1", "b2", "c1", "c3"):
            g.apply(f"place({square})")
        assert g.winners == ["X"]
    assert len(made) == 2  # one per program: untraced and traced


def test_a_listing_reads_a_replaced_variable_as_it_is_after_the_move():
    """A listing binds the variables it reads once (CodeGen.still); inlined into the block that
    plays the move, a variable the move replaces whole is bound where the listing starts, not
    at the block's top, so the next decision sees the move (machine.bound_here)."""
    rules = regelwerk.load_text(
        "players A, B\nstate\n    used: set int\n"
        "action pick(n in 1..3)\n    require not (n in used)\n    add n to used\n"
        "    if len(used) == 3\n        finish draw\n"
        "flow\n    repeat\n        turn\n            play pick\n", "used.rules")
    def offered(g, text):  # the move object itself: apply() plays it in place, in the block
        return next(a for a in g.legal_actions() if str(a) == text)

    for record in (False, True):
        g = rules.new_game(record=record)
        g.apply(offered(g, "pick(1)"))
        assert [str(a) for a in g.legal_actions()] == ["pick(2)", "pick(3)"]
        g.apply(offered(g, "pick(3)"))
        assert [str(a) for a in g.legal_actions()] == ["pick(2)"]
        g.apply(offered(g, "pick(2)"))
        assert g.is_over


def test_a_save_loads_on_a_program_alone():
    """Loading needs the compiled program, not the Ruleset (issue 24): the game continues
    exactly as the original, and a program of other rules refuses the save by its hash."""
    import json

    from regelwerk.interpreter.engine.game import load_game

    classic = Path(__file__).parent.parent / "rulesets" / "classic"
    r = regelwerk.load(classic / "connect4.rules")
    g = r.new_game(seed=3)
    for move in ("drop(3)", "drop(4)", "drop(3)"):
        g.apply(move)
    data = json.loads(json.dumps(g.to_json()))
    h = load_game(data, r.program(False))
    assert h.ruleset is None and h.legal_actions() == g.legal_actions()
    for game in (g, h):
        game.apply("drop(5)")
    assert h.to_json() == g.to_json()
    other = regelwerk.load(classic / "tictactoe.rules").program(False)
    with pytest.raises(regelwerk.SaveError, match="save.ruleset_hash: saved from a different ruleset"):
        load_game(data, other)
