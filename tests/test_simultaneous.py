"""`simultaneously` (issue 23 §1): several players decide against the same position, secretly;
nothing of a pending or committed choice reaches another player until the rules reveal it."""

from __future__ import annotations

import json

import pytest
from regelwerk.dsl.diagnostics import RulesError

import regelwerk

PLAN = """\
players Ann, Bob, Cas
enum Card = c1, c2, c3
state
    hand: Player -> list Card = [c1, c2, c3]
    plan: Player -> list Card = [] hidden except owner
    bid: Player -> int? = none hidden except owner
    chests: Player -> int = 3
    order: list Player = []
    fired: int = 0
    quiet: bool = false

when len(plan[Ann]) == 2
    "As soon as Ann's plan holds two cards (a trigger waits until the window ends)."
    add 1 to fired

action pick(c in Card)
    "Put a card of your hand on your plan, face down."
    require c in hand[current] else "not in your hand"
    require c not in plan[current] else "already planned"
    add c to plan[current]

action offer(n in 0..3)
    "Bid chests, face down."
    require n <= chests[current] else "you cannot bid more than you have"
    set bid[current] = n

procedure planning
    simultaneously for p in players
        play offer
        repeat 2 times
            play pick

flow
    do planning
    for p in players
        if let n = bid[p]
            remove n from chests[p]
    set quiet = true
"""


@pytest.fixture(scope="module")
def rules() -> regelwerk.Ruleset:
    return regelwerk.load_text(PLAN, "plan.rules")


def test_each_part_decides_against_the_same_position_one_decision_after_another(rules):
    g = rules.new_game(seed=1, record=True)
    assert g.pending == {"kind": "simultaneous", "players": ["Ann", "Bob", "Cas"]}
    assert g.decision_player() == "Ann"
    assert [str(m) for m in g.legal_actions(player="Cas")] == ["offer(0)", "offer(1)", "offer(2)", "offer(3)"]
    g.apply("offer(3)", player="Cas")
    g.apply("pick(c2)", player="Cas")
    assert g.pending["players"] == ["Ann", "Bob", "Cas"], "Cas still picks a second card"
    assert [str(m) for m in g.legal_actions(player="Cas")] == ["pick(c1)", "pick(c3)"]
    g.apply("pick(c3)", player="Cas")
    assert g.pending["players"] == ["Ann", "Bob"] and g.legal_actions(player="Cas") == []
    assert g.vars["chests"]["Cas"] == 3, "the bid is paid after the window, not before"
    for who in ("Bob", "Ann"):
        g.apply("offer(1)", player=who)
        g.apply("pick(c1)", player=who)
    assert g.vars["fired"] == 0, "a trigger set off inside a part waits for the window's end"
    g.apply("pick(c2)", player="Bob")
    g.apply("pick(c3)")  # plain: for Ann, the only one still to choose
    assert g.is_over and g.vars["chests"] == {"Ann": 2, "Bob": 2, "Cas": 0}
    assert g.vars["fired"] == 1
    assert g.vars["plan"] == {"Ann": ["c1", "c3"], "Bob": ["c1", "c2"], "Cas": ["c2", "c3"]}


def test_nobody_sees_another_players_choice(rules):
    g = rules.new_game(seed=1, record=True)
    g.apply("offer(2)", player="Bob")
    g.apply("pick(c3)", player="Bob")
    view = g.view("Ann")
    assert view["vars"]["bid"]["Bob"] == {"hidden": True} and view["vars"]["plan"]["Bob"] == {"hidden": 1}
    assert view["pending"] == {"kind": "simultaneous", "players": ["Ann", "Bob", "Cas"],
                               "yours": {"kind": "play", "player": "Ann"}}
    assert "yours" in g.view("Bob")["pending"]
    shown = json.dumps(regelwerk.interpreter.observe.visibility.observer(rules.model, "Ann").trace(
        [{"format": "regelwerk-trace"}, *g.trace]))
    assert "offer(2)" not in shown and "c3" not in shown.split('"plan')[0] or "pick(c3)" not in shown
    assert "offer(?)" in shown and "pick(?)" in shown


def test_ann_cannot_tell_what_bob_chose(rules):
    states = set()
    for n in (0, 2):
        g = rules.new_game(seed=1, history=True)
        g.apply(f"offer({n})", player="Bob")
        states.add((g.information_state("Ann"), json.dumps(g.view("Ann"), sort_keys=True),
                    tuple(map(str, g.legal_actions(player="Ann")))))
    assert len(states) == 1


def test_a_wrong_player_or_move_is_refused_and_changes_nothing(rules):
    g = rules.new_game(seed=1)
    g.apply("offer(1)", player="Cas")
    before = g.to_json()
    g.apply("offer(3)", player="Bob")
    g.apply("pick(c1)", player="Bob")
    before = g.to_json()
    with pytest.raises(regelwerk.IllegalAction, match="offer\\(1\\): 'offer' is not offered now"):
        g.apply("offer(1)", player="Bob")
    g.apply("pick(c1)", player="Cas")
    g.apply("pick(c2)", player="Cas")
    before = g.to_json()
    with pytest.raises(regelwerk.IllegalAction, match="Cas has no decision in this simultaneous one"):
        g.apply("pick(c3)", player="Cas")
    with pytest.raises(regelwerk.IllegalAction, match="pick\\(c9\\): not in your hand"):
        g.apply("pick(c9)", player="Bob")
    with pytest.raises(regelwerk.EngineError, match="unknown player 'Dan'"):
        g.legal_actions(player="Dan")
    assert g.to_json() == before


def test_clone_save_and_undo_inside_the_window(rules):
    g = rules.new_game(seed=1, record=True)
    g.apply("offer(2)", player="Bob")
    copy = g.clone()
    saved = rules.load_game(json.loads(json.dumps(g.to_json())))
    copy.apply("offer(1)", player="Ann")
    assert g.pending["players"] == ["Ann", "Bob", "Cas"] and "Ann" in g.window["pending"]
    assert g.legal_actions(player="Ann") == saved.legal_actions(player="Ann")
    g.apply("offer(3)", player="Ann")
    g.undo()
    assert [str(m) for m in g.legal_actions(player="Ann")][0] == "offer(0)"
    for game in (g, saved):
        for who in ("Ann", "Bob", "Cas"):
            while game.pending is not None and who in game.pending["players"]:
                game.apply(game.legal_actions(player=who)[0], player=who)
    assert g.vars == saved.vars and g.is_over and saved.is_over


@pytest.mark.parametrize(("body", "word"), [
    ("        set quiet = true\n", "writing 'quiet'"),
    ("        let d = roll(1, 6)\n", "'roll' draws on chance"),
    ('        log "I bid"\n', "'log' would show"),
    ("        reveal hand[p]\n", "'reveal' would show"),
    ("        turn p\n            play pick\n", "'turn' cannot stand"),
    ("        finish draw\n", "'finish' cannot stand"),
    ("        choose c in Card by other_of(p) \"which?\"\n", "a choice by 'other_of(p)'"),
    ("        simultaneously for q in players\n            play offer\n", "cannot hold another"),
    ("        set bid[Ann] = 1\n", "writing 'bid[Ann]'"),
])
def test_what_a_part_may_not_do(body, word):
    text = PLAN.replace("procedure planning\n    simultaneously for p in players\n        play offer\n",
                        "define other_of(p: Player) = next_player(p)\nprocedure planning\n"
                        "    simultaneously for p in players\n        play offer\n" + body)
    with pytest.raises(RulesError) as info:
        regelwerk.load_text(text, "plan.rules")
    assert any(word in d.message and d.code in ("E248",) for d in info.value.diagnostics), \
        [d.message for d in info.value.diagnostics]


def test_random_games_with_windows_play_to_the_end_and_replay(rules):
    from regelwerk.interpreter.tools.agents import RandomAgent

    for seed in range(8):
        g = rules.new_game(seed=seed, record=True)
        agent = RandomAgent(seed)
        moves = []
        while not g.is_over:
            who = g.decision_player()
            m = agent(g)
            moves.append((m, who))
            g.apply(m, player=who)
        again = rules.new_game(seed=seed, record=True)
        for m, who in moves:
            again.apply(str(m), player=who)
        assert again.vars == g.vars and len(again.trace) == len(g.trace)


def test_play_never_takes_back_a_choice_once_the_others_choices_are_shown(tmp_path):
    """`regelwerk play` Goofspiel: after both bids are shown, `u` is refused (before, Bob could
    take his bid back knowing Ann's); with nothing seen since, undo still works (connect four,
    tests/test_cli.py)."""
    import subprocess
    import sys
    from pathlib import Path

    goof = Path(__file__).resolve().parent.parent / "rulesets" / "examples" / "goofspiel.rules"
    res = subprocess.run([sys.executable, "-m", "regelwerk.cli", "play", str(goof), "--seed", "2",
                          "--option", "cards=3", "--seat", "Bob"],
                         input="1\nu\nq\n", capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert "cannot take it back: you have seen what came after it" in res.stdout
    assert "Traceback" not in res.stderr


def test_legal_and_explain_as_a_player_in_a_window(tmp_path, capsys):
    """`legal --player P` and `explain --player P` in a `simultaneously`: P's own moves while P
    is still to choose; once P has chosen, who is still to choose and nothing of their moves."""
    from pathlib import Path

    from regelwerk.cli import main

    goof = Path(__file__).resolve().parent.parent / "rulesets" / "examples" / "goofspiel.rules"
    g = regelwerk.load(goof).new_game(options={"cards": 3}, seed=2)
    g.apply("play_card(3)", player="Ann")
    state = tmp_path / "s.json"
    state.write_text(json.dumps(g.to_json()), encoding="utf-8")
    assert main(["legal", str(goof), "--state", str(state), "--player", "Bob"]) == 0
    assert capsys.readouterr().out.splitlines() == ["play_card(1)", "play_card(2)", "play_card(3)"]
    assert main(["legal", str(goof), "--state", str(state), "--player", "Ann"]) == 0
    assert capsys.readouterr().out.splitlines() == ["Bob decides now; as Ann sees it:"]
    assert main(["explain", str(goof), "--state", str(state), "play_card(2)", "--player", "Bob"]) == 0
    assert capsys.readouterr().out.startswith("play_card(2) is legal")
    assert main(["explain", str(goof), "--state", str(state), "play_card(2)", "--player", "Ann"]) == 1
    assert "Bob decides now: only they may ask" in capsys.readouterr().out


ALIAS = """game "Alias"
players A, B
state
    bid: Player -> int = 0 hidden except owner
flow
    simultaneously for p in players
        let q = p
        set bid[q] = 1
        let q = other(p)
        set bid[q] = 2
    finish draw
"""


def test_a_let_naming_the_parts_player_holds_for_the_statements_after_it():
    """`let q = p` inside a part: a write through `q` is the part's own (it was reported as
    E248 because the alias was forgotten at the next statement); once `q` names another
    player, a write through it is refused again."""
    with pytest.raises(regelwerk.RulesError) as info:
        regelwerk.load_text(ALIAS, "alias.rules")
    found = [(d.code, d.span.line) for d in info.value.diagnostics]
    assert found == [("E248", 10)]
    assert regelwerk.load_text(ALIAS.replace("        let q = other(p)\n        set bid[q] = 2\n", ""), "alias.rules")
