"""Khan (rulesets/khan): scenarios, seeded random games for 2-4 players, legal-actions property."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playing import reach
from regelwerk.interpreter.tools.agents import RandomAgent, play_game
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk
from regelwerk import Action, Game

KHAN = Path(__file__).resolve().parent.parent / "rulesets" / "khan" / "khan.rules"


@pytest.fixture(scope="module")
def khan() -> regelwerk.Ruleset:
    return regelwerk.load(KHAN)


def test_scenarios_pass(khan):
    results = run_scenarios(khan)
    assert len(results) >= 40
    assert [(r.name, r.failure) for r in results if not r.passed] == []


def _play(khan, players: int, seed: int) -> Game:
    g = khan.new_game(players=players, seed=seed)
    play_game(g, RandomAgent(seed))
    assert g.is_over
    assert set(g.scores) == set(g.players)
    return g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_finish(khan, players):
    for seed in range(10):
        g = _play(khan, players, seed)
        assert g.winners


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_200_random_games_finish(khan, players):
    for seed in range(200):
        _play(khan, players, 1000 + seed)


@pytest.mark.parametrize("players,seed,steps", [(2, 1, 15), (3, 2, 40), (4, 3, 70), (3, 4, 100), (2, 5, 105)])
def test_legal_actions_apply_and_explain(khan, players, seed, steps):
    g = reach(khan, players, seed, steps)
    assert not g.is_over, "the pinned seed and step count reach a position with moves to test"
    legal = g.legal_actions()
    assert len({str(a) for a in legal}) == len(legal), "no action is offered twice"
    for a in legal[:: max(1, len(legal) // 40)]:
        child = g.clone()
        child.apply(a)
        assert g.explain(a).legal
    # a few actions that are not enumerated are refused with a reason
    for a in [Action("invade", ("seljuk_mountains", "g10")), Action("conquer", ("cd2a", ["a1", "a2"])), Action("drive_off", ("seljuk",))]:
        if str(a) not in {str(x) for x in legal}:
            ex = g.explain(a)
            assert not ex.legal and ex.reason


@pytest.mark.parametrize(
    "edit,message",
    [
        (lambda v: v["yurt"].__setitem__(v["ruler_at"]["seljuk"], "Red"), "een heerser staat op een bezet vakje"),
        (lambda v: v.__setitem__("neutral", sorted(set(v["neutral"]) | {next(s for s, p in v["yurt"].items() if p)})),
         "twee yurts op één vakje"),
        (lambda v: v["yurt"].__setitem__("a1", "Red"), "een yurt staat niet op land"),
        (lambda v: v["yurt"].__setitem__("g10", "Red"), "een yurt staat niet op land"),
        (lambda v: v["tile_on"].__setitem__("a1", "cr6"), "een stuk staat buiten het speelveld"),
        (lambda v: v["hand"]["Red"].append(99), "save.vars.hand.Red[4]: 99 is not a Card"),
        (lambda v: v["hand"]["Red"].append(v["deck"][0]), "elke kaart ligt op precies één plaats"),
        (lambda v: v["discard"].pop(), "elke kaart ligt op precies één plaats"),
    ],
)
def test_bad_saves_get_a_located_error(khan, edit, message):
    """Two pieces on one square, a yurt on the river or off the board, a tile off the board, a
    card that does not exist, a card in two places, a card in none (`conserve`)."""
    from regelwerk import SaveError

    g = khan.new_game(players=3, seed=4)
    rnd = random.Random(4)
    for _ in range(12):
        g.apply(rnd.choice(g.legal_actions()))
    data = g.to_json()
    edit(data["vars"])
    with pytest.raises(SaveError) as err:
        khan.load_game(data)
    assert message in str(err.value) and ("khan.rules:" in str(err.value) or "is not a" in message)


def test_a_refused_conquest_is_taken_back_not_executed(khan):
    """Issue 9: a refusal shows as an abandoned move with the rulebook's reason, not as an
    executed `conquer` step; consent is asked (and traced) only when someone is protected."""
    data = khan.new_game(players=3, seed=0).to_json()
    data["vars"].update(protector="Yellow")
    data["vars"]["active_card"]["Yellow"] = "protection_card"
    data["vars"]["yurt"].update(d2="Red", e2="Yellow", d3="Red", e3="Red", f3="Yellow")
    g = khan.load_game(data, record=True)
    g.apply("conquer(cd2a, [d2, e2])")
    g.apply("choose(false)")
    (step,) = g.trace
    assert step["rule"] == "conquer" and step["decision"]["kind"] == "abandoned"
    assert step["events"] == [{"event": "abandoned", "reason": "Als de beschermde speler weigert, mag "
                               "de andere speler zijn veroveringsactie niet uitvoeren."}]
    assert step["changes"] == []
    g.apply("conquer(cd2a, [d2, d3])")  # no protected yurt under it: nobody is asked
    assert "ask_consent" not in [s["rule"] for s in g.trace]
    g.apply("conquer(cd2b, [e3, f3])")  # joint with the protected player: he is asked
    g.apply("choose(true)")
    asked = [s for s in g.trace if s["rule"] == "ask_consent"]
    assert asked and asked[0]["quote"].startswith("Als een andere speler een vorm wil neerleggen")


def test_step_four_and_the_extra_action_quote_their_sentences(khan):
    g = khan.new_game(players=3, seed=0, record=True)
    rnd = random.Random(0)
    while not g.is_over and len(g.trace) < 400:
        g.apply(rnd.choice(g.legal_actions()))
    quotes = {s["rule"]: s.get("quote") for s in g.trace if "step" in s}
    assert quotes["special_card_step"].startswith("4. Gebruik een speciale kaart (optioneel) De speler heeft nu")
    assert all(len(s.get("quote") or "") < 700 for s in g.trace if s.get("rule") == "conquer")


def test_undo_of_a_move_that_may_be_taken_back_restores_the_state(khan):
    """A conquest that asks consent keeps a way back (`abandon`); undo must not keep it."""
    data = khan.new_game(players=3, seed=0).to_json()
    data["vars"].update(protector="Yellow")
    data["vars"]["active_card"]["Yellow"] = "protection_card"
    data["vars"]["yurt"].update(d2="Red", e2="Yellow")
    g = khan.load_game(data, record=True)
    before = g.to_json()
    g.apply("conquer(cd2a, [d2, e2])")
    assert g.decision_player() == "Yellow"
    g.undo()
    assert g.to_json() == before
