"""Root's Underground Duchy (rulesets/root): scenarios, seeded random games, legal-actions property."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from regelwerk.interpreter.agents import RandomAgent, play_game
from regelwerk.interpreter.scenario import run_scenarios

import regelwerk
from regelwerk import Action, IllegalAction

RULES = Path(__file__).resolve().parent.parent / "rulesets" / "root" / "root.rules"


@pytest.fixture(scope="module")
def root():
    return regelwerk.load(RULES)


def test_scenarios_pass(root):
    results = run_scenarios(root)
    assert len(results) >= 30
    assert [(r.name, r.failure) for r in results if not r.passed] == []


def _play(root, seed):
    g = root.new_game(players=2, seed=seed)
    play_game(g, RandomAgent(seed))
    return g


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_random_games_finish(root, seed):
    g = _play(root, seed)
    assert g.is_over
    assert g.winners


@pytest.mark.slow
def test_200_random_games_finish(root):
    for seed in range(200):
        g = _play(root, 1000 + seed)
        assert g.is_over, seed


def test_spec_ids_are_all_cited_or_out_of_scope():
    ids_file = RULES.parent.parent.parent.parent / "shared" / "spec" / "ids.txt"
    if not ids_file.exists():
        pytest.skip("spec inventory not available")
    wanted = {line.split()[1] for line in ids_file.read_text().splitlines() if line.startswith("root-duchy ")}
    text = "".join(p.read_text() for p in RULES.parent.glob("*.rules")) + (RULES.parent / "README.md").read_text()
    assert sorted(i for i in wanted if i not in text) == []


def _snapshot(g) -> str:
    return json.dumps(g.to_json(), sort_keys=True)


def _reach(root, seed, steps):
    g = root.new_game(players=2, seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rnd.choice(g.legal_actions()))
    return g


def _candidates(g):
    prog = g.prog
    out = []
    for name, ca in prog.actions.items():
        pools = []
        for p in ca.decl.params:
            if p.type is not None:
                t = p.type.name if hasattr(p.type, "name") else "int"
                pools.append(list(g.domains().get(t, (0, 1))))
            else:
                pools.append(list(range(0, 5)) + list(g.domains().get("Clearing", ())) + ["fox", "citadel"])
        rnd = random.Random(len(out))
        for _ in range(15):
            out.append(Action(name, tuple(rnd.choice(pool) for pool in pools)))
    return out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_legal_actions_are_exactly_the_accepted_ones(root, seed, steps):
    g = _reach(root, seed, steps)
    legal = g.legal_actions()
    assert len(set(legal)) == len(legal)
    for a in legal:
        child = g.clone()
        child.apply(a)
        assert g.explain(a).legal
    before = _snapshot(g)
    for a in _candidates(g):
        if a in legal:
            continue
        ex = g.explain(a)
        assert not ex.legal, f"{a} is accepted by explain but not enumerated"
        assert ex.reason
        with pytest.raises(IllegalAction):
            g.apply(a)
        assert _snapshot(g) == before


def _started(root):
    g = root.new_game(players=2, seed=0)
    g.apply(Action("stub_setup", ("c1",)))
    g.apply(Action("emerge", ("c3",)))
    return g


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda v: v["warriors"]["Stub"].__setitem__("burrow", 2), "in het Hol"),
        (lambda v: v.__setitem__("tunnels", ["c1", "c2", "c3", "c4"]), "meer dan drie tunnels"),
        (lambda v: v.__setitem__("swayed", ["earl"]), "tegelijk beïnvloed"),
    ],
)
def test_bad_saves_get_a_located_error(root, edit, message):
    from regelwerk.interpreter.errors import SaveError

    data = _started(root).to_json()
    edit(data["vars"])
    with pytest.raises(SaveError) as err:  # the ruleset's invariants are checked on load
        root.load_game(data)
    assert message in str(err.value)
    assert "root.rules:" in str(err.value)


def test_a_minister_listed_twice_is_refused_on_load(root):
    from regelwerk.interpreter.errors import SaveError

    data = _started(root).to_json()
    data["vars"]["swayed"] = ["earl", "earl"]
    with pytest.raises(SaveError):
        root.load_game(data)
