"""Engine properties over every bundled ruleset, on states reached by seeded random play.

- every enumerated legal action is accepted by apply, and a sampled illegal one is refused
  with a reason and leaves the state untouched;
- clones are independent; save/load at any decision continues identically;
- the same seed gives the same trace.
"""

from __future__ import annotations

import hashlib
import json
import random

from bundled import BUNDLED, PLAYER_COUNTS, PLAYERS
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from playing import reach
from regelwerk.interpreter.tools.agents import RandomAgent, play_game
from regelwerk.interpreter.tools.trace import trace_lines

from regelwerk import Action, Game, IllegalAction

NAMES = sorted(BUNDLED)


def _reach(rulesets, name: str, seed: int, steps: int, record: bool = False) -> Game:
    counts = PLAYER_COUNTS[name]  # the seed also picks the player count
    return reach(rulesets[name], counts[seed % len(counts)], seed, steps, record)


def _snapshot(g: Game) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def _candidate_actions(g: Game) -> list[Action]:
    """Every action a careless player might try: each declared action over its argument types."""
    prog = g.prog
    out = []
    for name, ca in prog.actions.items():
        pools = []
        for p in ca.decl.params:
            if p.type is not None:
                t = p.type.name if hasattr(p.type, "name") else "int"
                pools.append(list(g.domains().get(t, (0, 1))))
            else:  # any value of the ruleset: numbers, and every square, node, member, player
                pools.append(list(range(0, 9)) + [v for t, vs in g.domains().items() if t != "bool" for v in vs])
        rnd = random.Random(len(out))
        for _ in range(40):
            out.append(Action(name, tuple(rnd.choice(pool) for pool in pools)))
    return out


@settings(max_examples=80, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000), steps=st.integers(0, 250))
def test_legal_actions_are_exactly_the_accepted_ones(rulesets, name, seed, steps):
    g = _reach(rulesets, name, seed, steps)
    legal = g.legal_actions()
    assert len(set(legal)) == len(legal), "no action is offered twice"
    for a in legal:
        child = g.clone()
        child.apply(a)  # must not raise
        assert g.explain(a).legal
    before = _snapshot(g)
    for a in _candidate_actions(g):
        if a in legal:
            continue
        ex = g.explain(a)
        assert not ex.legal, f"{a} is accepted by explain but not enumerated"
        assert ex.reason
        try:
            g.apply(a)
        except IllegalAction as err:
            assert err.message
        else:
            raise AssertionError(f"{a} was applied although it is not among the legal actions")
        assert _snapshot(g) == before, "a refused action must leave the state untouched"


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000), steps=st.integers(0, 40))
def test_clone_is_independent(rulesets, name, seed, steps):
    g = _reach(rulesets, name, seed, steps)
    before = _snapshot(g)
    c = g.clone()
    play_game(c, RandomAgent(seed))
    assert _snapshot(g) == before


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000), steps=st.integers(0, 40))
def test_save_load_continues_identically(rulesets, name, seed, steps):
    r = rulesets[name]
    g = _reach(rulesets, name, seed, steps)
    data = json.loads(json.dumps(g.to_json()))
    h = r.load_game(data)
    assert _snapshot(h) == _snapshot(g)
    play_game(g, RandomAgent(seed + 1))
    play_game(h, RandomAgent(seed + 1))
    assert _snapshot(h) == _snapshot(g)
    assert g.winners == h.winners


@settings(max_examples=10, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000))
def test_same_seed_same_trace(rulesets, name, seed):
    def trace_hash() -> str:
        g = rulesets[name].new_game(players=PLAYERS[name], seed=seed, record=True)
        play_game(g, RandomAgent(seed))
        return hashlib.sha256("\n".join(trace_lines(g)).encode()).hexdigest()

    assert trace_hash() == trace_hash()


@settings(max_examples=10, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000))
def test_traced_and_untraced_games_agree(rulesets, name, seed):
    a = rulesets[name].new_game(players=PLAYERS[name], seed=seed, record=True)
    b = rulesets[name].new_game(players=PLAYERS[name], seed=seed, record=False)
    play_game(a, RandomAgent(seed))
    play_game(b, RandomAgent(seed))
    assert a.to_json()["vars"] == b.to_json()["vars"]
    assert a.winners == b.winners


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(NAMES), seed=st.integers(0, 10_000), steps=st.integers(1, 30),
       back=st.integers(1, 5))
@example(name="khan", seed=2632, steps=23, back=1)  # the 23rd move is a conquest the protector refuses
def test_undo_restores_the_state_exactly(rulesets, name, seed, steps, back):
    assume(name != "offers")  # a taken-back move ends the undo history (test_engine covers it)
    g = rulesets[name].new_game(players=PLAYERS[name], seed=seed, record=True)
    rnd = random.Random(seed)
    snapshots = []
    for _ in range(steps):
        if g.is_over:
            break
        snapshots.append((_snapshot(g), len(g.trace)))
        g.apply(rnd.choice(g.legal_actions()))
        if g.trace and (g.trace[-1].get("decision") or {}).get("kind") == "abandoned":
            snapshots.clear()  # undo cannot go back past a move taken back (Khan's refused conquest)
    for _ in range(min(back, len(snapshots))):
        g.undo()
        snap, tlen = snapshots.pop()
        assert _snapshot(g) == snap
        assert len(g.trace) == tlen
    if not g.is_over:
        g.apply(g.legal_actions()[0])  # and play on from there
