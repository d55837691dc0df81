"""Conservation of pieces over zones: every card lies in exactly one of the deck, the discard
pile and the hands (a `conserve` declaration, docs/language.md §13c).

Why a function and not an aggregate: counting each item over every zone is quadratic as an
aggregate; one pass with a counter is linear, so traced games can check it after every step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator
from typing import Any


def zone_entries(zones: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """(name, contents) for each zone: a list or set, or each entry of a map of them
    (`hand[Red]`, `hand[Blue]`)."""
    for name, value in zones.items():
        if isinstance(value, dict):
            for key, inner in value.items():
                yield f"{name}[{key}]", inner
        else:
            yield name, value


def _counts(zones: Iterable[Any]) -> Counter:
    c: Counter = Counter()
    for z in zones:
        if isinstance(z, dict):
            for inner in z.values():
                c.update(inner)
        else:
            c.update(z)
    return c


def each_once(items: Iterable[Hashable], *zones: Any) -> bool:
    """Whether every item lies in exactly one of the zones, and the zones hold nothing else."""
    want = list(items)
    every: list = []
    for z in zones:
        for part in (z.values() if isinstance(z, dict) else (z,)):
            if isinstance(part, dict):  # a map inside counts its values: the counter below
                break
            every += part
        else:
            continue
        break
    else:
        held = set(every)
        if len(held) == len(every):  # nothing twice in the zones, the usual case: every count is
            # 0 or 1, so the counts below say just this, in a third of their time (traced games
            # check it after every step that writes a zone)
            return len(want) == len(every) and held.issuperset(want)
    got = _counts(zones)
    # every item counted once (`got[x] == 1` for each x, looked up in C: traced games check
    # this after each step that writes a zone), and nothing more in the zones than the items
    return len(want) == sum(got.values()) and set(map(got.__getitem__, want)) <= {1}


def misplaced(items: Iterable[Hashable], zones: dict[str, Any]) -> list[tuple[Hashable, list[str]]]:
    """Each item that does not lie in exactly one zone, with the zones it lies in ([] when in
    none), then each thing in a zone that is not one of the items (with its zones)."""
    where: dict[Hashable, list[str]] = {}
    for name, contents in zone_entries(zones):
        for x in contents:
            where.setdefault(x, []).append(name)
    want = list(items)
    out = [(x, where.get(x, [])) for x in want if len(where.get(x, [])) != 1]
    known = set(want)
    out += [(x, zs) for x, zs in where.items() if x not in known]
    return out
