"""A device roll's draws in place take their SplitMix64 outputs from a batch of steps worked
out at once in big-int lanes (`batched draws`: rng.draws, codegen `batched_draw`): Shogun's
tower made each of its thousands of draws a game as ten big-int operations. The batch's
outputs and states are the steps' own; a batch is made again when used up or when the
generator moved otherwise (a shuffle between draws, an output above rng.SAFE drawn the long
way), so the same games, generator states, traces, budget run-outs and failures as without."""

from __future__ import annotations

import json
import random

import pytest
from bundled import BUNDLED
from playing import chosen_and_same, fresh_with, games_digest
from regelwerk.interpreter.compiler import codegen
from regelwerk.interpreter.engine.errors import BudgetExceeded
from regelwerk.interpreter.stdlib import rng
from test_rng_draws import GAMMA, TWO64, ref_next, ref_randbelow, state_before

import regelwerk
from regelwerk import RuleFailure

RULES = """players Ann, Bob
option p_in_10: int = 3 "chance in 10"
option scale: int = 9 "coins a flip, times n"
state
    total: int = 0
    order: list int = [1, 2, 3, 4, 5]
    pick: int = 0
device coins(n: int): int
    "Flip n coins, shuffle, flip n more; the heads, and a pick from a list that may be too short."
    roll
        let heads = []
        for i in 1..n
            let h = bernoulli(p_in_10, 10)
            if h
                let heads = heads + [i]
        let mixed = shuffled(order)
        for i in 1..n
            let f = bernoulli(1, 2)
            if f
                let heads = heads + [mixed[0]]
        let extra = [0, 1, 2][pick]
        result len(heads) + extra
action flip(n in 1..8)
    "Flip some coins."
    let heads = coins(n * scale)
    set total = total + heads
action bump(n in 1..2)
    "Move the pick on."
    set pick = pick + n
flow
    repeat 4 times
        for p in players
            turn p
                play flip, bump
"""


def _rules(on: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    return fresh_with("BATCHED_DRAWS", on, RULES, "batched.rules", monkeypatch)


@pytest.mark.parametrize("state", [0, 1, rng.MASK64, rng.MASK64 - GAMMA + 1, 2**63, 0x123456789ABCDEF0,
                                   *(random.Random(5).getrandbits(64) for _ in range(40))])
def test_a_batch_is_the_steps_one_by_one(state: int):
    outputs, states, before = rng.draws(state)
    assert len(outputs) == len(states) == rng.DRAWS and len(before) == rng.DRAWS + 1
    s = state
    for i in range(rng.DRAWS):
        assert before[i] == s
        z, s = ref_next(s)
        assert (outputs[i], states[i]) == (z, s)
        assert i == 0 or before[i] is states[i - 1]  # a draw's state is the next one's test
    assert before[-1] is None  # used up: made again


@pytest.mark.parametrize("record", [False, True])
def test_the_roll_takes_its_outputs_from_a_batch(record: bool, monkeypatch: pytest.MonkeyPatch):
    prog = _rules(True, monkeypatch).program(record)
    assert ("batched draws", "bernoulli(p_in_10, 10)") in {(c.kind, c.detail) for c in prog.choices}
    roll = prog.source.split("def DR_0(")[1].split("\ndef ")[0]
    assert f"{codegen.DRAW_BEFORE} = (None,)" in roll and roll.count("_draws_from(") == 2
    assert f"_DRAWS_LEFT[0] = ({codegen.DRAW_OUTPUTS}, " in roll  # what it leaves of its last batch
    assert str(rng.MIX1) not in roll and hex(rng.MIX1) not in roll  # no step written out
    assert "c_bernoulli(G, " in roll  # the long way is still there
    off = _rules(False, monkeypatch).program(record)
    off_roll = off.source.split("def DR_0(")[1].split("\ndef ")[0]
    assert not any(c.kind == "batched draws" for c in off.choices)
    assert "_draws_from(" not in off_roll and "_draw_" not in off_roll and "_DRAWS_LEFT" not in off_roll
    assert str(rng.MIX1) in off_roll or hex(rng.MIX1) in off_roll


def _played(rules: regelwerk.Ruleset, seed: int, record: bool, options: dict, start: int | None = None) -> tuple:
    g = rules.new_game(seed=seed, record=record, options=options)
    if start is not None:
        g.rng = start
    rnd = random.Random(seed)
    moves = 0
    try:
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
            moves += 1
    except (RuleFailure, BudgetExceeded) as err:
        return "failed", moves, str(err), g.rng, g.work, g.vars["total"]
    return g.vars["total"], g.rng, g.work, json.dumps(g.trace, sort_keys=True, default=str) if record else None


@pytest.mark.parametrize("options", [{}, {"p_in_10": 10}, {"p_in_10": 11}])
def test_the_same_games_traces_and_failures(options: dict, monkeypatch: pytest.MonkeyPatch):
    """Rolls of up to 144 draws (several batches, one made again after the shuffle); a pick past
    the list's end fails after the draws; an option out of range sends every draw the long way."""
    outcomes = []
    for record in (False, True):
        for seed in range(5):
            batched = _played(_rules(True, monkeypatch), seed, record, options)
            assert batched == _played(_rules(False, monkeypatch), seed, record, options)
            outcomes.append(batched)
    assert any(o[0] == "failed" and "[IndexError]" in o[2] for o in outcomes) or options.get("p_in_10") == 11
    assert any(o[0] != "failed" for o in outcomes) or options.get("p_in_10") == 11


@pytest.mark.parametrize("at", [0, 1, rng.DRAWS - 1, rng.DRAWS, rng.DRAWS + 3])
@pytest.mark.parametrize("output", [rng.SAFE, rng.SAFE + 1, TWO64 - 1])
def test_an_output_above_safe_in_a_batch_takes_the_long_way(at: int, output: int, monkeypatch: pytest.MonkeyPatch):
    """The game's generator set so that the roll's draw `at` (of the first flip) meets `output`:
    above rng.SAFE it is drawn again by `c_bernoulli` from that state, and the batch, which
    does not go on from the state the call leaves, is made again."""
    start = (state_before(output) - at * GAMMA) % TWO64
    assert rng.draws(start)[0][at] == output if at < rng.DRAWS else True
    for record in (False, True):
        for seed in range(3):
            batched = _played(_rules(True, monkeypatch), seed, record, {}, start)
            assert batched == _played(_rules(False, monkeypatch), seed, record, {}, start)


def test_the_budget_runs_out_where_it_did(monkeypatch: pytest.MonkeyPatch):
    outcomes = []
    for on in (True, False):
        rules = _rules(on, monkeypatch)
        rules.set_limits(work_budget=150_000)
        outcomes.append([_played(rules, seed, False, {"p_in_10": 10, "scale": 300}) for seed in range(6)])
    assert outcomes[0] == outcomes[1]
    assert any(o[0] == "failed" and "steps of work" in o[2] for o in outcomes[0])


def test_a_script_queue_and_explicit_chance_do_not_batch(monkeypatch: pytest.MonkeyPatch):
    rules = _rules(True, monkeypatch)
    g = rules.new_game(start=False)
    for _ in range(200):
        g.script("bernoulli", True)
    g.start()
    g.apply("flip(1)")
    assert g.vars["total"] == 9 + 9 * 1  # every coin scripted heads; the shuffle's first is 1 or more
    e = rules.new_game(chance="explicit")
    e.apply("flip(1)")
    assert e.is_chance_node


@pytest.mark.parametrize("record", [False, True])
def test_chosen_and_the_same_games_as_without(record: bool):
    text = RULES.replace("[pick]", "[pick % 3]")  # games that play to their end
    chosen_and_same("BATCHED_DRAWS", "batched draws", "batched", text, record, "shogun")


@pytest.mark.parametrize("record", [False, True])
def test_shogun_plays_the_same_games(record: bool, monkeypatch: pytest.MonkeyPatch):
    def digest(on: bool) -> list:
        monkeypatch.setattr(codegen.CodeGen, "BATCHED_DRAWS", on)
        rules = regelwerk.load(BUNDLED["shogun"])
        assert any(c.kind == "batched draws" and c.rule == "device tower" for c in rules.program(record).choices) == on
        return games_digest(rules, 4, range(3) if record else range(10), record)

    assert digest(True) == digest(False)


def _ref_shuffle(state: int, items: list) -> tuple[list, int]:
    """Fisher-Yates by the reference randbelow, one draw at a time."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = ref_randbelow(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return out, state


@pytest.mark.parametrize("n", [*range(0, 12), 31, 32, 33, 34, 65, 100])
def test_a_shuffle_in_batches_draws_as_one_by_one(n: int):
    """Lists of more than rng.SHUFFLE_STEPS items take their draws from batches of steps."""
    r = random.Random(n)
    for state in (0, rng.MASK64, *(r.getrandbits(64) for _ in range(30))):
        assert rng.shuffle(state, range(n)) == _ref_shuffle(state, list(range(n)))


@pytest.mark.parametrize("output", [rng.SAFE, rng.SAFE + 1, TWO64 - 1])
@pytest.mark.parametrize("n", [6, 12, 40, 70])
def test_a_shuffles_output_above_safe_takes_the_long_way(output: int, n: int):
    for at in {0, 1, n // 2, n - 2, 31, 32, 33} - set(range(n - 1, 100)):
        state = (state_before(output) - at * GAMMA) % TWO64
        assert rng.steps(state, at + 1)[0][at] == output if at < rng.DRAWS else True
        assert rng.shuffle(state, range(n)) == _ref_shuffle(state, list(range(n)))


def test_a_shuffle_refuses_a_corrupt_state():
    for bad in (-1, TWO64, "7"):
        with pytest.raises(ValueError, match="rng state must be an int"):
            rng.shuffle(bad, range(10))


def test_a_shuffle_goes_on_from_the_steps_left():
    """What a roll or shuffle leaves of its last batch (`rng.LEFT`) serves the next shuffle
    from that very state object, and only that: an equal state that is another object, or
    another state, makes a batch anew; the draws are the same either way."""
    state = random.Random(1).getrandbits(64)
    first, after = rng.shuffle(state, range(12))
    outputs, states, before, k = rng.LEFT[0]
    assert k == 11 and before[k] is after and states[k - 1] is after  # 11 steps of one batch taken
    again = int(str(after))  # equal, not the same object
    assert again is not after
    assert rng.shuffle(after, range(12)) == _ref_shuffle(after, list(range(12)))
    assert rng.LEFT[0][0] is outputs and rng.LEFT[0][3] == 22  # the same batch went on
    assert rng.shuffle(again, range(12)) == _ref_shuffle(again, list(range(12)))
    assert rng.LEFT[0][0] is not outputs and rng.LEFT[0][3] == 11  # a batch anew
    assert rng.draws_from(rng.LEFT[0][2][11])[3] == 11 and rng.draws_from(again)[3] == 0
    for _ in range(5):  # through the batch's end: a new one
        state, new = rng.shuffle(state, range(40))[1], rng.LEFT[0]
        assert new[2][new[3]] is state


def test_a_roll_leaves_its_steps_and_the_next_throw_goes_on(monkeypatch: pytest.MonkeyPatch):
    rules = _rules(True, monkeypatch)
    g = rules.new_game(seed=3)
    g.apply("flip(2)")
    outputs, states, before, k = rng.LEFT[0]
    assert before[k] is g.rng  # the roll left its batch at the game's state
    assert _played(_rules(True, monkeypatch), 3, False, {}) == _played(_rules(False, monkeypatch), 3, False, {})
