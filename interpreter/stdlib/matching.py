"""Bipartite matching: can every item get its own slot? (Root's Sway: each revealed card
needs its own clearing of a matching suit.)"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def matching_size(options: Sequence[Sequence[Hashable]]) -> int:
    """Size of a maximum matching where item i may take any slot in options[i] and every slot
    serves one item at most (augmenting paths; items and slots are few in board games)."""
    owner: dict[Hashable, int] = {}

    def place(i: int, seen: set) -> bool:
        for slot in options[i]:
            if slot in seen:
                continue
            seen.add(slot)
            if slot not in owner or place(owner[slot], seen):
                owner[slot] = i
                return True
        return False

    return sum(1 for i in range(len(options)) if place(i, set()))
