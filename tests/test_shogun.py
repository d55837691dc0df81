"""Shogun (rulesets/shogun): the rulebook's worked examples and the battle branches as scenarios,
whole seeded games for 3, 4 and 5 players, the legal-equals-apply property, the tower's trace,
and the bad inputs the issue names (impossible tower script, unknown province, negative rice)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from regelwerk.interpreter.tools.agents import RandomAgent, play_game
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk
from regelwerk import RuleFailure, RulesError

ROOT = Path(__file__).resolve().parent.parent
SHOGUN = ROOT / "rulesets" / "shogun" / "shogun.rules"
PLAYER_CUBE = {"Blue": "blue", "Yellow": "yellow", "Red": "red", "Purple": "purple", "Black": "black"}


@pytest.fixture(scope="module")
def shogun() -> regelwerk.Ruleset:
    return regelwerk.load(SHOGUN)


def _cubes_accounted_for(g) -> None:
    """Every cube is in the supply, in a province, in the tray or stuck in the tower."""
    v = g.vars
    for cube in ["blue", "yellow", "red", "purple", "black", "peasant"]:
        on_board = sum(n for q, n in v["armies"].items() if PLAYER_CUBE.get(v["owner"][q]) == cube)
        total = v["supply"][cube] + on_board + v["tray"][cube] + v["inside"][cube]
        assert total == (20 if cube == "peasant" else 62), cube
    for q, n in v["armies"].items():
        assert n >= 0
        if v["owner"][q] is None:
            assert n == 0 and not v["buildings"][q] and v["unrest"][q] == 0, q


def test_all_scenarios_pass(shogun):
    results = run_scenarios(shogun)
    failed = [f"{r.name}: {r.failure}" for r in results if not r.passed]
    assert not failed, "\n".join(failed)
    assert len(results) >= 24
    specs = {s for r in results for s in r.specs}
    for ex in ["SHOGUN-EX-01", "SHOGUN-EX-02", "SHOGUN-EX-03", "SHOGUN-EX-04", "SHOGUN-EX-05"]:
        assert ex in specs


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("seed", range(1, 6))
def test_random_games_finish(shogun, players, seed):
    g = shogun.new_game(players=players, seed=seed)
    play_game(g, RandomAgent(seed))
    assert g.is_over and g.winners
    assert g.vars["year"] == 2
    _cubes_accounted_for(g)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4, 5])
def test_many_random_games_finish(shogun, players):
    for seed in range(200):
        g = shogun.new_game(players=players, seed=seed)
        play_game(g, RandomAgent(seed))
        assert g.is_over, seed
        _cubes_accounted_for(g)


def test_three_players_leave_eight_provinces_out(shogun):
    g = shogun.new_game(players=3, seed=4)
    unused = {"mutsu", "echigo", "awa_boso", "kazusa", "sanuki", "tosa", "izumo", "iwami"}
    owned = [q for q, p in g.vars["owner"].items() if p is not None]
    assert len(owned) == 27 and not unused & set(owned)
    play_game(g, RandomAgent(4))
    assert not unused & {q for q, p in g.vars["owner"].items() if p is not None}


def test_every_throw_is_in_the_trace(shogun):
    g = shogun.new_game(players=4, seed=7, record=True)
    play_game(g, RandomAgent(7))
    throws = [c for step in g.trace for c in step.get("chance", []) if c["kind"] == "device"]
    assert throws, "the tower fill at least"
    for c in throws:
        assert c["what"] == "tower"
        (cubes_in,) = c["inputs"]
        assert set(cubes_in) == set(c["outcome"]) == {"blue", "yellow", "red", "purple", "black", "peasant"}
    stuck = [ch for step in g.trace for ch in step.get("changes", []) if ch["path"].startswith("inside[")]
    assert stuck, "settle shows the cubes that stayed inside"


def test_each_throw_is_a_device_step_with_the_towers_sentence(shogun):
    """Issue 9: the tower's roll is a step of its own (kind `device`): its quote, what went in,
    what fell out, what stays inside (detail, and the settle's changes)."""
    g = shogun.new_game(players=3, seed=1, record=True)
    play_game(g, RandomAgent(1))
    steps = [s for s in g.trace if s.get("kind") == "device"]
    assert len(steps) > 3
    for st in steps:
        assert st["rule"] == "tower" and st["automatic"]
        assert st["quote"] == "Ook hier worden alle in de schaal aanwezige legers mee in de toren geworpen."
        assert st["source"] == ["001_56f83dc17109b5bc.txt:28-29"] and st["note"].startswith("The tower's model")
        (c,) = st["chance"]
        inside = {k: c["detail"]["upper"][k] + c["detail"]["lower"][k] for k in c["outcome"]}
        assert any(ch["path"].startswith("tray[") for ch in st["changes"])
        for ch in st["changes"]:
            if ch["path"].startswith("inside["):
                assert ch["new"] == inside[ch["path"][7:-1]]  # the detail is what stays inside
    others = [c for s in g.trace if s.get("kind") != "device" for c in s.get("chance", [])]
    assert all(c["kind"] != "device" for c in others)


def test_inferred_rules_are_notes_where_they_act(shogun):
    """The tax-revolt trigger, the +1 marker per action and the neutral province's peasant are
    readings: their steps say so in a note, not under a Dutch quote."""
    rules: dict[str, dict] = {}
    for seed in range(1, 6):
        g = shogun.new_game(players=3, seed=seed, record=True)
        play_game(g, RandomAgent(seed))
        for st in g.trace:
            rules.setdefault(st.get("rule"), st)
    assert rules["add_unrest"]["quote"] is None and "Inferred" in rules["add_unrest"]["note"]
    assert "not in the fragments" in rules["throw_against_neutral"]["note"]
    assert rules["throw_against_neutral"]["quote"] == "Speler tegen speler of een neutrale provincie"
    assert "collect" not in rules or rules["collect"]["quote"] is None


def test_battle_10_is_a_condition_of_its_own(shogun):
    r = regelwerk.load(SHOGUN)
    sc = next(s for s in r.model.scenarios if s.name.startswith("a defender who would win with peasants alone"))
    from regelwerk.interpreter.tools.scenario import _Run

    run = _Run(r, sc, record=True)  # the scenario's game, recorded
    assert [run.step(st) for st in sc.steps] == [None] * len(sc.steps)
    step = next(s for s in run.game.trace if s.get("rule") == "peasants_alone_draw")
    assert step["quote"].startswith("Opmerking: Als er voor de verdediger enkel boeren")
    assert step["spec"] == ["SHOGUN-BATTLE-10"]


def test_impossible_tower_script_is_a_located_error(shogun, tmp_path):
    sc = """
scenario "more blue cubes out than went in"
    players 3
    start in phase summer
    before start
        do prepare_year_one
    script tower returns {blue: 5, yellow: 0, red: 0, purple: 0, black: 0, peasant: 0}
    given
        set owner[shinano] = Blue
        move 5 from supply[blue] to armies[shinano]
        set owner[kozuke] = Yellow
        move 3 from supply[yellow] to armies[kozuke]
    do bid(0)
    do assign(march_a, shinano)
    do pass
    do bid(0)
    do pass
    do bid(0)
    do pass
    do march(kozuke, 4)
"""
    text = SHOGUN.read_text().split("# ---------------------------------------------------------------- scenarios")[0] + sc
    ruleset = _load_text_in_folder(text, tmp_path)
    (res,) = run_scenarios(ruleset)
    assert not res.passed
    assert "scripted: more cubes fell out of the tower than went in plus were inside" in res.failure
    # the same through the Python API: the error carries the rule's location
    g = _year_one(ruleset)
    g.script("tower", {"blue": 2, "yellow": 0, "red": 0, "purple": 0, "black": 0, "peasant": 1})
    g.start("summer")
    g.vars["owner"]["mikawa"] = "Blue"
    g.vars["armies"]["mikawa"] = 2
    g.invalidate()
    for who in ("Red", "Yellow", "Blue"):  # secret, simultaneous planning: in any order
        g.apply("bid(0)", player=who)
    g.apply("assign(march_a, mikawa)", player="Blue")
    for who in ("Yellow", "Blue", "Red"):
        g.apply("pass", player=who)
    with pytest.raises(RuleFailure) as err:
        g.apply("march(owari, 1)")
    assert "more cubes fell out" in err.value.message and err.value.span is not None


def _load_text_in_folder(text: str, folder: Path) -> regelwerk.Ruleset:
    """A variant of the ruleset, loaded from a copy of its folder (for the data files)."""
    shutil.copytree(SHOGUN.parent / "data", folder / "data")
    (folder / "variant.rules").write_text(text)
    return regelwerk.load(folder / "variant.rules")


def test_unknown_province_is_a_located_error(tmp_path):
    text = SHOGUN.read_text().split("# ---------------------------------------------------------------- scenarios")[0]
    text += '\nscenario "a province that does not exist"\n    given\n        set owner[edo] = Blue\n'
    with pytest.raises(RulesError) as err:
        _load_text_in_folder(text, tmp_path)
    assert "edo" in str(err.value) and "E202" in str(err.value)


def test_negative_rice_is_a_located_error(shogun):
    g = _year_one(shogun)
    g.vars["rice"]["Blue"] = -1
    g.vars["year_events"] = ["e5"]
    with pytest.raises(RuleFailure) as err:
        g.start("winter")
    assert "the rice track cannot go below 0" in err.value.message and err.value.span is not None
    # a traced game checks the invariant, a save is refused
    g = _year_one(shogun, record=True)
    g.vars["rice"]["Blue"] = -1
    assert any("the rice track cannot go below 0" in b for b in g.broken_invariants())


def _year_one(ruleset, record=False):
    """A game on an empty board at the start of year one, not yet started: the state a
    scenario's `before start: do prepare_year_one` gives."""
    g = ruleset.new_game(players=3, start=False, record=record)
    g.prepare()
    for p in ("Blue", "Yellow", "Red"):
        g.vars["chests"][p] = 18
    g.vars["order"] = ["Blue", "Yellow", "Red"]
    g.vars["autumn_order"] = ["Blue", "Yellow", "Red"]
    g.vars["year"] = 1
    g.vars["event_deck"] = ["e4", "e5", "e6", "e7", "e8", "e9", "e10", "e11"]
    g.vars["year_events"] = ["e0", "e1", "e2", "e3"]
    return g


def test_cubes_not_accounted_for_break_an_invariant(shogun):
    g = shogun.new_game(players=4, seed=3)
    assert g.broken_invariants() == []
    q = next(q for q, p in g.vars["owner"].items() if p is not None)
    g.vars["armies"][q] += 1
    broken = g.broken_invariants()
    assert len(broken) == 1 and "cubes not accounted for" in broken[0] and "shogun.rules:" in broken[0]


def test_a_scenario_position_that_loses_cubes_fails(tmp_path):
    text = SHOGUN.read_text().split("# ---------------------------------------------------------------- scenarios")[0]
    text += """
scenario "armies out of nowhere"
    players 3
    start in phase summer
    before start
        do prepare_year_one
    given
        set owner[kai] = Blue
        set armies[kai] = 3
"""
    (res,) = run_scenarios(_load_text_in_folder(text, tmp_path))
    assert not res.passed and "cubes not accounted for" in res.failure
