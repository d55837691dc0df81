"""`phase keys` (docs/architecture.md §5, `CodeGen.PHASE_KEYS`): in a traced program of a ruleset
with phases, the key of the flow's automatic step (`'phase:' + phase`, or `'flow'` outside any
phase) is looked up in a constant dict of every phase's key, not joined as text wherever the flow
notes an event: no string made per event, and the open step's key is the very same object, so
`st[KEY] != key` is answered by identity. Pinned: the choice and the form, and the same games,
traces, results and saves with and without it (traced and untraced)."""

from __future__ import annotations

import json
import random

import pytest
from playing import compiled_with, games_digest, with_undo_and_clone


def _source(on: bool, name: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr("regelwerk.interpreter.compiler.codegen.CodeGen.PHASE_KEYS", on)
    return compiled_with("PHASE_KEYS", on, name).program(True).source


def test_the_choice_and_its_form(monkeypatch: pytest.MonkeyPatch) -> None:
    on = compiled_with("PHASE_KEYS", True, "root")
    assert ("phase keys", "flow") in [(c.kind, c.rule) for c in on.program(True).choices]
    assert not any(c.kind == "phase keys" for c in on.program(False).choices)  # traced programs only
    assert not any(c.kind == "phase keys" for c in compiled_with("PHASE_KEYS", False, "root").program(True).choices)
    assert not any(c.kind == "phase keys" for c in compiled_with("PHASE_KEYS", True, "tictactoe").program(True).choices)
    src_on, src_off = _source(True, "root", monkeypatch), _source(False, "root", monkeypatch)
    assert "'phase:' + G.phase" in src_off and "G.phase is None else 'phase:'" in src_off
    assert "G.phase is None else 'phase:'" not in src_on
    assert src_on.count(".get(G.phase) or 'phase:' + G.phase") == src_off.count("G.phase is None else 'phase:' + G.phase")


@pytest.mark.parametrize("name, players", [("root", 2), ("shogun", 4), ("khan", 3)])
def test_the_same_games_with_and_without(name: str, players: int) -> None:
    seeds = range(3)
    for record in (True, False):
        assert games_digest(compiled_with("PHASE_KEYS", True, name), players, seeds, record) == \
            games_digest(compiled_with("PHASE_KEYS", False, name), players, seeds, record)


def test_the_same_traces_and_saves_with_undo_and_clones() -> None:
    def played(on: bool) -> str:
        rules = compiled_with("PHASE_KEYS", on, "root")
        g = rules.new_game(players=2, seed=3, record=True)
        rnd, n, saves = random.Random(3), 0, []
        while not g.is_over and n < 150:
            g.apply(rnd.choice(g.legal_actions()))
            n += 1
            g = with_undo_and_clone(g, n, 6)
            if n % 25 == 0:
                saves.append(g.to_json())
        return json.dumps([g.trace, saves, g.result], sort_keys=True, default=str)

    assert played(True) == played(False)
