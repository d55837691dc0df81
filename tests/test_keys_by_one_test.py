"""`keys by one test` (`recording.KEYS_BY_ONE_TEST`, docs/architecture.md §9): `keys_written`,
which brings a traced game's kept invariant sums up to date (`INVS_n`, `kept sums`), picks the
journal entries of its maps by one membership test of each entry's path (the maps' names and
their whole paths in one set), then looks among the few picked for a whole write, where it
compared every path with every whole path in turn. Pinned: the same answer as the old form on
journals with entries one key deep, whole, deeper and of other variables; the same kept-sums
games (traces, results, breaks) with the switch on and off."""

from __future__ import annotations

import random

import pytest
from grouped import GROUPED_WITH_TAKE
from playing import compiled_with, games_digest, with_undo_and_clone
from regelwerk.interpreter.engine import recording
from regelwerk.interpreter.engine.recording import ENTRY, keys_written

import regelwerk

NAMES = frozenset({"armies", "owner"})
WHOLES = (("armies",), ("owner",))


def _journal(rnd: random.Random, n: int, wholes: bool) -> list:
    """A flat journal of `n` entries (recording.ENTRY slots each) of the paths a step writes."""
    paths = ["armies", "owner", "supply", ("quiet",), ("supply",), ("plan", "Ann"), ("armies", "x", "y")]
    if wholes:
        paths += [("armies",), ("owner",)]
    out: list = []
    for _ in range(n):
        path = rnd.choice(paths)
        key = rnd.choice(["a", "b", "c", 1, 2]) if type(path) is str else path[-1]
        out.extend((None, key, rnd.randrange(3), rnd.randrange(3), path))
    return out


@pytest.mark.parametrize("wholes", [False, True], ids=["by key", "with wholes"])
def test_the_same_keys_as_the_old_form(wholes: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = random.Random(7)
    for n in [0, 1, 2, 5, 40, 200] * 20:
        journal = _journal(rnd, n, wholes)
        for start in {0, ENTRY * (n // 2), ENTRY * n}:
            monkeypatch.setattr(recording, "KEYS_BY_ONE_TEST", True)
            on = keys_written(journal, start, NAMES, WHOLES)
            monkeypatch.setattr(recording, "KEYS_BY_ONE_TEST", False)
            off = keys_written(journal, start, NAMES, WHOLES)
            assert on == off
    assert keys_written([None, "a", 0, 1, "supply"], 0, NAMES, WHOLES) == set()
    assert keys_written([None, "a", 0, 1, "armies", None, "armies", 0, 1, ("armies",)], 0, NAMES, WHOLES) is None
    assert keys_written([None, "a", 0, 1, "armies", None, "b", 0, 1, ("armies", "b", "c")], 0, NAMES, WHOLES) == {"a"}


def test_no_wholes_and_other_names() -> None:
    """A map of another program (other names, no whole paths) gets a set of its own."""
    journal = [None, "k", 0, 1, "cubes", None, "j", 0, 1, ("cubes",), None, "m", 0, 1, "armies"]
    assert keys_written(journal, 0, frozenset({"cubes"}), ()) == {"k"}
    assert keys_written(journal, 0, frozenset({"cubes"}), (("cubes",),)) is None
    assert keys_written(journal, 0, NAMES, WHOLES) == {"m"}


def test_the_same_games_with_and_without(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = compiled_with("KEPT_SUMS", True, "grouped", GROUPED_WITH_TAKE)
    shogun = compiled_with("KEPT_SUMS", True, "shogun")

    def played() -> list:
        out = []
        for seed in range(4):
            g = rules.new_game(seed=seed, record=True)
            rnd = random.Random(seed)
            for n in range(1, 60):
                if g.is_over:
                    break
                try:
                    g.apply(rnd.choice(g.legal_actions()))
                except regelwerk.InvariantBroken as err:
                    out.append(str(err))
                g = with_undo_and_clone(g, n, 5)
            out.append((g.result, g.trace))
        return out + games_digest(shogun, 4, range(2), True)

    on = played()
    monkeypatch.setattr(recording, "KEYS_BY_ONE_TEST", False)
    assert played() == on
