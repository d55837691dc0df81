"""Tests for interpreter.stdlib.deck: list zones with the top at index -1."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from regelwerk.interpreter.stdlib.deck import deal, draw, peek, put_on_bottom, put_on_top

DECK = ["bottom", "c2", "c3", "c4", "top"]
decks = st.lists(st.integers(0, 99), max_size=30)


def test_draw_takes_from_the_top_in_draw_order() -> None:
    drawn, rest = draw(DECK, 2)
    assert drawn == ["top", "c4"]
    assert rest == ["bottom", "c2", "c3"]
    assert draw(DECK, 0) == ([], DECK)
    assert draw(DECK, 5) == (list(reversed(DECK)), [])
    assert DECK == ["bottom", "c2", "c3", "c4", "top"]  # untouched


def test_draw_refuses_a_short_deck() -> None:
    with pytest.raises(ValueError, match="cannot draw 6 cards from a deck of 5"):
        draw(DECK, 6)
    with pytest.raises(ValueError):
        draw(DECK, -1)


def test_peek() -> None:
    assert peek(DECK, 2) == ["top", "c4"]
    assert peek(DECK, 9) == list(reversed(DECK))  # a short deck shows what it has
    assert peek([], 3) == []
    assert peek(DECK, 0) == []


def test_put_on_top_and_bottom() -> None:
    assert put_on_top(["x"], ["a", "b"]) == ["x", "b", "a"]  # "a" is the new top card
    assert put_on_bottom(["x"], ["a", "b"]) == ["b", "a", "x"]  # "a" drawn right after "x"
    assert draw(put_on_bottom(["x"], ["a", "b"]), 3)[0] == ["x", "a", "b"]
    with pytest.raises(TypeError):
        put_on_top(["x"], "ace")


def test_deal_round_robin() -> None:
    deck = [f"card{i}" for i in range(10)]  # card9 is on top
    hands, rest = deal(deck, 3, 2)
    assert hands == [["card9", "card6"], ["card8", "card5"], ["card7", "card4"]]
    assert rest == ["card0", "card1", "card2", "card3"]
    assert deal(deck, 0, 4) == ([], deck)
    with pytest.raises(ValueError):
        deal(deck, 4, 3)


@given(decks, st.data())
def test_draw_then_put_back_restores_the_deck(deck: list[int], data: st.DataObject) -> None:
    n = data.draw(st.integers(0, len(deck)))
    drawn, rest = draw(deck, n)
    assert put_on_top(rest, drawn) == deck
    assert peek(deck, n) == drawn
    assert put_on_bottom(rest, []) == rest


@given(decks, st.integers(1, 5), st.integers(0, 6))
def test_deal_is_a_partition(deck: list[int], hands: int, n: int) -> None:
    if hands * n > len(deck):
        with pytest.raises(ValueError):
            deal(deck, hands, n)
        return
    dealt, rest = deal(deck, hands, n)
    assert len(dealt) == hands and all(len(h) == n for h in dealt)
    assert sorted([c for h in dealt for c in h] + rest) == sorted(deck)
    assert rest == deck[: len(deck) - hands * n]
