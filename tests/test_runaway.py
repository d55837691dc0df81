"""Rules that would never end, or never compile, stop with a message that names the rule and
its line (issue: the engine's one work budget, a time limit, and what the checker sees)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from regelwerk.interpreter.engine import game as engine

import regelwerk
from regelwerk import BudgetExceeded, RuleFailure, RulesError

HEAD = "players X, O\nstate\n    n: int = 0\n    xs: list int = []\n"


def start(body: str, flow_extra: str = "", budget: int | None = None):
    text = HEAD + body + "flow\n" + (flow_extra or "    repeat\n        turn\n            play go\n")
    rules = regelwerk.load_text(text, "runaway.rules")
    return rules


def codes(text: str) -> list[str]:
    with pytest.raises(RulesError) as err:
        regelwerk.load_text(text, "runaway.rules")
    return [d.code for d in err.value.diagnostics]


@pytest.mark.parametrize("loop", [
    "    while true\n        while true\n            add 1 to n\n",  # nested while
    "    repeat 1000000000000 times\n        add 1 to n\n",  # a huge repeat
    "    set n = count x in 1..1000000000000: x > 0\n",  # an aggregate over a huge range
    "    for x in 1..1000000000000\n        add 1 to n\n",  # a for over a huge range
    "    set xs = list x in 1..10000: x\n    set n = sum a in xs: count b in xs: a < b\n",  # nested over state
    "    while true\n        set xs = xs + [1]\n",  # a list growing without end: each copy is charged
])
def test_runaway_loops_stop_with_the_rule_and_its_line(loop):
    text = HEAD + "action go\n    \"Go.\"\n" + loop + "flow\n    repeat\n        turn\n            play go\n"
    g = regelwerk.load_text(text, "runaway.rules").new_game()
    g.work_budget = 2_000_000  # the default allows 50,000,000: the same stop, just later
    t = time.perf_counter()
    with pytest.raises(BudgetExceeded) as err:
        g.apply("go")
    assert time.perf_counter() - t < 30
    assert "rule 'go' (runaway.rules:" in err.value.message and "never ends" in err.value.message


def test_the_budget_is_per_decision_and_can_be_set():
    text = HEAD + "action go\n    repeat 300000 times\n        add 1 to n\n" \
        "flow\n    repeat\n        turn\n            play go\n"
    g = regelwerk.load_text(text, "b.rules").new_game()
    for _ in range(3):  # each decision has its own budget
        g.apply("go")
    assert g.vars["n"] == 900_000
    g.work_budget = 200_000
    with pytest.raises(BudgetExceeded):
        g.apply("go")


def test_a_decision_that_takes_too_long_is_stopped():
    text = HEAD + "action go\n    while true\n        set n = count x in 1..200: x > n\n" \
        "flow\n    repeat\n        turn\n            play go\n"
    g = regelwerk.load_text(text, "slow.rules").new_game()
    g.time_limit = 0.5
    g.work_budget = 10**12
    t = time.perf_counter()
    with pytest.raises(BudgetExceeded, match=r"more than 0\.5 s"):
        g.apply("go")
    assert time.perf_counter() - t < 20


def test_a_flow_without_decisions_is_stopped():
    text = "players X\naction go\n    set n = 1\nstate\n    n: int = 0\n" \
        "flow\n    repeat\n        turn\n            if n == 5\n                play go\n"
    with pytest.raises(BudgetExceeded, match="rule 'flow'"):
        regelwerk.load_text(text, "flow.rules").new_game()


def test_numbers_cannot_grow_without_bound():
    text = HEAD + "action go\n    set n = 3\n    repeat 40 times\n        set n = n * n\n" \
        "flow\n    repeat\n        turn\n            play go\n"
    g = regelwerk.load_text(text, "big.rules").new_game()
    with pytest.raises(RuleFailure, match="grew beyond 4096 bits"):
        g.apply("go")


@pytest.mark.parametrize(("call", "message"), [
    ("let r = roll(1000000000, 6)", "at most 100,000 dice"),
    ("let s = subsets(1..40, 20)", "137,846,528,820 lists"),
])
def test_library_functions_refuse_huge_results(call, message):
    text = HEAD + f"action go\n    set n = 1\n    {call}\nflow\n    repeat\n        turn\n            play go\n"
    g = regelwerk.load_text(text, "lib.rules").new_game()
    with pytest.raises(RuleFailure, match=message):
        g.apply("go")


def test_what_the_checker_sees():
    assert "E240" in codes("players X\nconst C = 1 // 0\nflow\n    finish draw\n")
    # a definition may call itself only with a declared type (tests/test_recursion.py)
    assert "E241" in codes("players X\ndefine f(k: int) = f(k - 1) + f(k - 1)\n"
                           "const C = f(3)\nflow\n    finish draw\n")
    assert "E241" in codes("players X\ndefine f(k: int): int = g(k)\ndefine g(k: int) = f(k)\n"
                           "const C = f(3)\nflow\n    finish draw\n")
    regelwerk.load_text("players X\ndefine f(k: int): int = if k <= 0 then 0 else f(k - 1)\n"
                        "const C = f(3)\nflow\n    finish draw\n", "runaway.rules")  # checks clean
    assert "E242" in codes(HEAD + "action go\n    require possible(go)\n    add 1 to n\n"
                           "flow\n    repeat\n        turn\n            play go\n")
    assert "E243" in codes("players X\nconst C = count x in 5: x > 1\nflow\n    finish draw\n")


def test_deep_nesting_is_refused_whatever_the_indentation():
    for step in (1, 2, 4):  # 1-space indentation no longer defeats the guard
        pad = " " * step
        lines = ["players X", "state", f"{pad}n: int = 0", "flow"]
        for i in range(21):
            lines.append(pad * (i + 1) + f"for x{i} in 1..2")
        lines.append(pad * 22 + "add 1 to n")
        lines.append(pad + "finish draw")
        assert "E005" in codes("\n".join(lines) + "\n"), step


def test_long_chains_compile():
    """140 chained + (and 140 chained and: the parser allows syntax trees 150 deep) compile to
    Python the interpreter accepts; a longer chain is a located E005, not a crash."""
    chain = " + ".join(["1"] * 140)
    conj = " and ".join(["n >= 0"] * 140)
    text = f"players X\nstate\n    n: int = 0\nflow\n    set n = {chain}\n    if {conj}\n        finish draw\n"
    g = regelwerk.load_text(text, "chain.rules").new_game()
    assert g.vars["n"] == 140 and g.is_over
    with pytest.raises(RulesError) as err:
        regelwerk.load_text(text.replace(chain, " + ".join(["1"] * 300)), "chain.rules")
    assert [(d.code, d.span.line) for d in err.value.diagnostics] == [("E005", 5)]


def test_a_constant_that_fails_is_located_at_check_time():
    text = "players X\nconst Z = 0\nconst C = 1 // Z\nflow\n    finish draw\n"
    with pytest.raises(RulesError) as err:
        regelwerk.load_text(text, "c.rules")
    assert [(d.code, d.span.line, d.span.column) for d in err.value.diagnostics] == [("E240", 3, 16)]


def test_recursive_procedures_are_a_rule_failure():
    text = HEAD + "procedure p\n    add 1 to n\n    do p\naction go\n    do p\n" \
        "flow\n    repeat\n        turn\n            play go\n"
    g = regelwerk.load_text(text, "rec.rules").new_game()
    with pytest.raises(RuleFailure, match="RecursionError"):
        g.apply("go")


def test_no_bundled_ruleset_comes_near_the_budget():
    assert engine.WORK_BUDGET >= 10_000_000 and engine.TIME_LIMIT >= 10


def test_limits_per_run_from_the_ruleset_and_the_command_line(tmp_path, capsys):
    """`Ruleset.set_limits` and `--work-budget` / `--time-limit` (issue 10 §3: configurable per
    run): a loop the default budget lets through is stopped at its line with a smaller one."""
    from regelwerk.cli import main

    path = tmp_path / "bud.rules"
    path.write_text("players A, B\nstate\n    n: int = 0\naction go\n    for i in 1..300000\n"
                    "        add 1 to n\nflow\n    repeat 3 times\n        turn\n            play go\n",
                    encoding="utf-8")
    rules = regelwerk.load(path)
    game = rules.new_game()
    game.apply("go")  # the default budget: fine
    rules.set_limits(work_budget=500)
    game = rules.new_game()
    assert game.work_budget == 500 and game.clone().work_budget == 500
    with pytest.raises(regelwerk.BudgetExceeded, match="more than 500 steps of work"):
        game.apply("go")
    rules.set_limits()
    assert rules.new_game().work_budget == 50_000_000
    with pytest.raises(regelwerk.EngineError, match="whole number above 0"):
        rules.set_limits(work_budget=0)
    assert main(["run", str(path), "--work-budget", "500"]) == 1
    assert "bud.rules:5:5" in capsys.readouterr().err
    assert main(["run", str(path), "--time-limit", "-1"]) == 2
    assert "a time limit is a number of seconds above 0" in capsys.readouterr().err
    assert main(["run", str(path)]) == 0


def test_a_flow_that_only_offers_impossible_moves_stops_in_seconds(tmp_path):
    """Breakthrough without its set-up: no piece, so no move, and `repeat turn play step` goes
    round. Each play nobody can make is charged 10,000 steps, so the budget stops it in about
    a second (it took the 60 s time limit before), at the flow."""
    import time

    text = (Path(__file__).parent.parent / "rulesets" / "classic" / "breakthrough.rules").read_text(encoding="utf-8")
    assert "    do set_up\n" in text
    rules = regelwerk.load_text(text.replace("    do set_up\n", ""), "bt.rules")
    start = time.monotonic()
    with pytest.raises(regelwerk.BudgetExceeded, match="10,000 for each play nobody could make") as info:
        rules.new_game()
    assert time.monotonic() - start < 10
    assert "rule 'flow'" in info.value.message


def test_a_loop_of_procedure_calls_stops_on_the_budget_not_the_clock():
    """Each `do` costs 1,000 steps: a `repeat` of calls (the slow battery's mutant of Khan's
    phase_one, its `break` dropped) stops on the work budget, located at the call, instead
    of running to the time limit with one step counted per round."""
    text = HEAD + ("procedure bump\n    add 1 to n\n    if n > 1000000000\n        add 1 to n\n"
                   "procedure spin\n    repeat\n        do bump\n"
                   "action go\n    do spin\n"
                   "flow\n    repeat\n        turn\n            play go\n")
    g = regelwerk.load_text(text, "calls.rules").new_game()
    with pytest.raises(BudgetExceeded, match="steps of work") as err:
        g.apply("go")
    assert "calls.rules:" in str(err.value) and "procedure call" in str(err.value)
    assert g.vars["n"] < 100_000  # about 50,000 rounds, not 50,000,000


@pytest.mark.parametrize("body", [
    "        if n > 100\n            turn\n                play go\n",  # the play is skipped
    "        while n > 100\n            turn\n                play go\n",  # a loop that never starts
])
def test_a_round_that_may_miss_its_play_is_still_charged(body: str):
    """A loop round that meets a `play` on every path needs no charge of its own (the play
    stops or charges); one that can go round without meeting it still stops on the budget."""
    text = HEAD + "action go\n    add 1 to n\nflow\n    repeat\n" + body
    rules = regelwerk.load_text(text, "miss.rules")
    # a small budget: it runs out in milliseconds, long before the clock's 10 s, which a busy
    # machine could reach first with the default budget (then the message is the clock's)
    rules.set_limits(work_budget=200_000)
    with pytest.raises(BudgetExceeded, match="steps of work"):
        rules.new_game().apply("go")
