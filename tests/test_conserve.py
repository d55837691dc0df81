"""`conserve ITEMS across ZONES`: each piece in exactly one zone, checked on saves and traced
steps, kept by a scenario's `given` (issue 9 §5)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from regelwerk.dsl.parse import parse_text
from regelwerk.dsl.printer import print_module
from regelwerk.interpreter.stdlib.zones import each_once, misplaced
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk
from regelwerk import SaveError

VALID = Path(__file__).parent / "corpus" / "valid" / "conserve.rules"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from("abcd"), max_size=5),
       st.lists(st.lists(st.sampled_from("abcdz"), max_size=4), max_size=3))
def test_each_once_counts_every_item_once_and_nothing_else(items, zones):
    """The library's one-pass check agrees with its definition, counted item by item."""
    total = sum(len(z) for z in zones)
    every_once = all(sum(z.count(x) for z in zones) == 1 for x in items)
    assert each_once(items, *zones) == (len(items) == total and every_once)


def test_each_once_over_lists_sets_and_maps():
    assert each_once(["a", "b", "c"], ["a"], frozenset({"b"}), {"X": ["c"], "O": []})
    assert not each_once(["a", "b", "c"], ["a", "b"], {"X": ["b", "c"]})  # b twice
    assert not each_once(["a", "b", "c"], ["a"], {"X": ["c"]})  # b nowhere
    assert not each_once(["a"], ["a", "z"])  # z is no piece
    assert misplaced(["a", "b", "c"], {"deck": ["a", "b"], "hand": {"X": ["b"], "O": ["z"]}}) == [
        ("b", ["deck", "hand[X]"]), ("c", []), ("z", ["hand[O]"])]


def test_the_declaration_prints_back():
    text = 'conserve Card across deck, hand else "één plaats"\n    note "n"\n'
    assert print_module(parse_text(text, "c.rules")) == text


def test_given_keeps_conservation():
    results = run_scenarios(regelwerk.load(VALID))
    assert [(r.name, r.failure) for r in results if not r.passed] == []
    assert len(results) == 4


def _with(scenario: str) -> str:
    return VALID.read_text(encoding="utf-8").split("scenario ")[0] + scenario


def test_a_card_the_set_up_puts_in_two_places_fails_with_its_line():
    r = regelwerk.load_text(_with('scenario "twice"\n    given\n        set hand[A] = [c1]\n'
                                  '        set hand[B] = [c1]\n'), "c.rules")
    (res,) = run_scenarios(r)
    assert not res.passed and res.at.line == 28
    assert res.failure == ("the set-up puts c1 in hand[A] and hand[B] (line 29), but 'conserve' "
                           "(line 11) allows one place")
    r = regelwerk.load_text(_with('scenario "twice"\n    given\n        set hand[A] = [c1, c1]\n'),
                            "c.rules")
    assert "puts c1 in hand[A] twice (line 29)" in run_scenarios(r)[0].failure


def test_the_set_up_cannot_lose_a_card():
    r = regelwerk.load_text(_with('scenario "lost"\n    given\n        remove c1 from deck\n'
                                  '    expect deck == [c1, c2]\n'), "c.rules")
    assert run_scenarios(r)[0].passed


def test_a_card_in_two_places_before_the_set_up_is_named():
    r = regelwerk.load_text(_with('scenario "broken"\n    before start\n        set discard = [c1]\n'
                                  '    given\n        set hand[A] = [c5, c6]\n'), "c.rules")
    (res,) = run_scenarios(r)
    assert not res.passed
    assert "een kaart ligt op twee plaatsen of nergens" in res.failure
    assert "c1 lies in deck and discard (line 11)" in res.failure


def test_saves_and_traced_steps_are_checked():
    r = regelwerk.load(VALID)
    g = r.new_game(record=True)
    g.apply(g.legal_actions()[0])
    data = g.to_json()
    data["vars"]["hand"]["B"].append(data["vars"]["deck"][0])
    with pytest.raises(SaveError) as err:
        r.load_game(data)
    assert "conserve.rules:11" in str(err.value) and "een kaart ligt op twee plaatsen" in str(err.value)


def test_a_zone_set_to_the_value_it_had_is_written_too():
    """`set deck = ...` writes the deck even when it already lay so: a card the set-up also put
    in a hand is then in two places by the set-up's own hand, which fails (either order)."""
    for lines in (("set hand[B] = [c2]", "set deck = [c1, c2]"), ("set deck = [c1, c2]", "set hand[B] = [c2]")):
        body = "".join(f"        {line}\n" for line in lines)
        r = regelwerk.load_text(_with(f'scenario "same"\n    given\n{body}'), "c.rules")
        (res,) = run_scenarios(r)
        assert not res.passed and "puts c2 in " in res.failure and "allows one place" in res.failure, res.failure
