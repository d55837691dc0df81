"""Root's Underground Duchy against the Marquise de Cat (rulesets/root): scenarios, seeded random
games, bad saves, legal-actions property."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playing import reach
from regelwerk.interpreter.tools.agents import RandomAgent, play_game
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk
from regelwerk import Action

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


def _started(root):
    g = root.new_game(players=2, seed=0)
    g.apply(Action("place_keep", ("c1",)))
    g.apply(Action("place_starting_buildings", ("c1", "c5", "c9")))
    g.apply(Action("emerge", ("c3",)))
    return g


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda v: v["warriors"]["Marquise"].__setitem__("burrow", 2), "in het Hol"),
        (lambda v: v["wood_at"].__setitem__("c1", 9), "more than eight wood tokens"),
        (lambda v: v["sawmills"].__setitem__("c5", 7), "more than six buildings"),
        (lambda v: v["items"].__setitem__("hammer", 2), "meer voorwerpen"),
        (lambda v: v.__setitem__("tunnels", ["c1", "c2", "c3", "c4"]), "meer dan drie tunnels"),
        (lambda v: v.__setitem__("swayed", ["earl"]), "tegelijk beïnvloed"),
    ],
)
def test_bad_saves_get_a_located_error(root, edit, message):
    from regelwerk.interpreter.engine.errors import SaveError

    data = _started(root).to_json()
    edit(data["vars"])
    with pytest.raises(SaveError) as err:  # the ruleset's invariants are checked on load
        root.load_game(data)
    assert message in str(err.value)
    assert re.search(r"(root|marquise)\.rules:\d+:\d+", str(err.value)), "located at the invariant"


def test_a_minister_listed_twice_is_refused_on_load(root):
    from regelwerk.interpreter.engine.errors import SaveError

    data = _started(root).to_json()
    data["vars"]["swayed"] = ["earl", "earl"]
    with pytest.raises(SaveError):
        root.load_game(data)


@pytest.mark.parametrize("seed,steps", [(1, 10), (2, 40), (3, 80), (4, 150), (5, 150), (6, 80), (1, 300), (2, 300)])
def test_legal_actions_apply_and_explain(root, seed, steps):
    """Every enumerated move is accepted (including the Banker's card sets, the Sway reveal
    choices and the Marquise's builds and moves), and moves that are not enumerated are refused
    with a reason."""
    g = reach(root, 2, seed, steps)
    assert not g.is_over, "the pinned seed and step count reach a position with moves to test"
    legal = g.legal_actions()
    assert len({str(a) for a in legal}) == len(legal), "no action is offered twice"
    for a in legal[:: max(1, len(legal) // 60)]:
        child = g.clone()
        child.apply(a)
        assert g.explain(a).legal
    names = {str(a) for a in legal}
    hand = g.to_json()["vars"]["hand"]["Duchy"]
    tries = [
        Action("take_move", ("c1", "burrow", 1)),
        Action("sway", ("foremole",)),
        Action("use_banker", (len(hand), hand)),
        Action("dig", (hand[0] if hand else "fox_anvil", "burrow", 0)),
        Action("cat_move", ("c1", "burrow", 1)),
        Action("cat_build", ("sawmill", "burrow")),
        Action("hire_hawk", ("fox_anvil",)),
    ]
    for a in tries:
        if str(a) not in names:
            ex = g.explain(a)
            assert not ex.legal and ex.reason, a


MARQUISE = RULES.parent / "marquise.rules"
MARQUISE_SCENARIOS = RULES.parent / "marquise_scenarios.rules"


def _rules_declared_in(path: Path) -> set[str]:
    return set(re.findall(r"^(?:action|procedure) (\w+)", path.read_text(encoding="utf-8"), re.M))


def test_marquise_scenarios_each_cite_a_law_section_and_quote_nothing():
    """Issue 25: at least 20 scenarios for the Marquise and the new base rules, each citing its
    Law section in a note; the Law is English and ours to paraphrase, so nothing is quoted."""
    blocks = re.split(r"^scenario ", MARQUISE_SCENARIOS.read_text(encoding="utf-8"), flags=re.M)[1:]
    assert len(blocks) >= 20
    for block in blocks:
        assert re.search(r'^    note "Law §\d', block, re.M), block.splitlines()[0]
        assert not re.search(r'^    "', block, re.M), block.splitlines()[0]


def test_marquise_rules_are_notes_with_their_law_section_never_quotes():
    text = MARQUISE.read_text(encoding="utf-8")
    assert not re.search(r'^\s+"', text, re.M), "the Marquise quotes nothing"
    assert not re.search(r"^\s+source ", text, re.M)
    for name in _rules_declared_in(MARQUISE):
        body = re.search(rf"^(?:action|procedure) {name}\b.*?(?=^\S|\Z)", text, re.M | re.S).group(0)
        assert 'note "Law §' in body, name


@pytest.mark.parametrize("seed", [3, 8])
def test_a_marquise_step_shows_its_law_section(root, seed):
    """Issue 25 §6: every step in the Marquise's turn shows a Law section in its note, unless it
    is one of the Duchy's rules (the Price of Failure, say), which keeps its Dutch quote and
    source; no step of a rule of marquise.rules quotes anything."""
    g = root.new_game(players=2, seed=seed, record=True)
    play_game(g, RandomAgent(seed))
    hers = _rules_declared_in(MARQUISE)
    seen = set()
    for step in g.trace:
        if step.get("player") == "Marquise":
            assert "Law §" in (step.get("note") or "") or (step.get("quote") and step.get("source")), step
        if step.get("rule") in hers:
            seen.add(step["rule"])
            assert "Law §" in step["note"] and not step.get("quote") and not step.get("source"), step
    assert {"cat_build", "marquise_birdsong", "marquise_evening", "place_keep"} <= seen


def test_score_sources_add_up_to_the_scores_simulate_reports(root):
    """tools/score_sources.py (the VP sources in the README) plays simulate's games: the same
    winners, and points by rule that add up to the final scores."""
    import importlib.util

    from regelwerk.interpreter.tools.simulate import PlaySettings, play_record

    path = RULES.parent.parent.parent / "tools" / "score_sources.py"
    spec = importlib.util.spec_from_file_location("score_sources", path)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    report = tool.run(RULES, 2, 3, 5, [], "vp")
    records = [play_record(root, i, PlaySettings(players=2, seed=5)) for i in range(3)]
    wins: dict[str, float] = {}
    for rec in records:
        for w in rec["winners"]:
            wins[w] = wins.get(w, 0) + 1 / len(rec["winners"])
    assert report["wins"] == wins
    for p in ("Marquise", "Duchy"):
        total = sum(report["mean_points_by_rule"][p].values()) * 3
        assert round(total) == sum(rec["scores"][p] for rec in records), p
