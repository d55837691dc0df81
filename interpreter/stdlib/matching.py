"""Bipartite matching: can every item get its own slot? (Root's Sway: each revealed card
needs its own clearing of a matching suit.)"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def matching_size(options: Sequence[Sequence[Hashable]]) -> int:
    """Size of a maximum matching where item i may take any slot in options[i] and every slot
    serves one item at most (augmenting paths; items and slots are few in board games).

    No closure: a recursive inner function is a reference cycle (the function, its cell), so
    every call left garbage only the cyclic collector frees (Root: about 65 calls a game, all
    of an untraced game's collections, docs/architecture.md §17)."""
    owner: dict[Hashable, int] = {}
    size = 0
    for i, slots in enumerate(options):
        for slot in slots:  # a free slot is an augmenting path of one edge
            if slot not in owner:
                owner[slot] = i
                size += 1
                break
        else:
            if slots and _augment(i, set(), options, owner):
                size += 1
    return size


def _augment(i: int, seen: set, options: Sequence[Sequence[Hashable]], owner: dict[Hashable, int]) -> bool:
    """Whether item i gets a slot along an augmenting path that avoids `seen` (Kuhn's search)."""
    for slot in options[i]:
        if slot in seen:
            continue
        seen.add(slot)
        if slot not in owner or _augment(owner[slot], seen, options, owner):
            owner[slot] = i
            return True
    return False
