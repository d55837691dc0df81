"""Card-zone helpers over plain lists where index -1 is the TOP of the pile.

Why: decks, discard piles and hands are just lists in game state; these pure functions
return new lists (inputs are never modified) so state changes stay explicit and undoable.

Convention: whenever a function takes or returns several cards, they are in DRAW ORDER --
the first element is the one nearest the top -- so draw and put_on_top undo each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def _check_count(n: int, what: str) -> None:
    """Reject negative or non-int counts with a message naming the argument."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"{what} must be an int >= 0, got {n!r}")


def _check_cards(cards: Sequence[T]) -> None:
    """A bare string is a single card, not a sequence of one-letter cards: refuse it."""
    if isinstance(cards, str):
        raise TypeError("pass a list of cards, e.g. [card], not a bare string")


def draw(deck: Sequence[T], n: int) -> tuple[list[T], list[T]]:
    """Take the top n cards: (drawn in draw order, rest of the deck). Raises ValueError if
    the deck is short, because running out is a rule decision (reshuffle? game end?)."""
    _check_count(n, "n")
    if n > len(deck):
        raise ValueError(f"cannot draw {n} cards from a deck of {len(deck)}")
    rest = list(deck[: len(deck) - n])
    drawn = list(deck[len(deck) - n :])
    drawn.reverse()
    return drawn, rest


def peek(deck: Sequence[T], n: int) -> list[T]:
    """Look at up to n top cards in draw order without removing them (fewer if the deck is
    short, as a player looking at "the top 3" of a 2-card deck simply sees 2)."""
    _check_count(n, "n")
    top = list(deck[max(0, len(deck) - n) :])
    top.reverse()
    return top


def put_on_top(deck: Sequence[T], cards: Sequence[T]) -> list[T]:
    """New deck with `cards` on top, cards[0] becoming the new top card (draw order)."""
    _check_cards(cards)
    return [*deck, *reversed(cards)]


def put_on_bottom(deck: Sequence[T], cards: Sequence[T]) -> list[T]:
    """New deck with `cards` underneath, in draw order: after the old deck is drawn,
    cards[0] comes next and cards[-1] is the new bottom card."""
    _check_cards(cards)
    return [*reversed(cards), *deck]


def deal(deck: Sequence[T], hands: int, n: int) -> tuple[list[list[T]], list[T]]:
    """Deal n cards to each of `hands` hands one at a time, round-robin from the top, as at
    a real table: (hands, each in the order received; rest of the deck)."""
    _check_count(hands, "hands")
    _check_count(n, "n")
    drawn, rest = draw(deck, hands * n)
    return [drawn[i::hands] for i in range(hands)], rest
