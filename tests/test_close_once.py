"""`TraceRecorder._close` (interpreter/engine/recording.py), some thousand calls a traced Shogun or
Root game, reads the journal's bounds once and asks whether a step decided, noted or drew only
where the answer matters; an automatic step that wrote is tested at its first entry before the
loop over the others. The same steps are kept, with the same changes: the games below are
compared with the method as it was (kept here), traced, through undo and clones, and a step
whose first write changed nothing but whose second did is kept, one whose writes all changed
nothing is dropped."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from bundled import BUNDLED
from playing import played
from regelwerk.interpreter.engine import recording
from regelwerk.interpreter.engine.recording import (
    CHANCE,
    CHANGES,
    DECISION,
    ENTRY,
    EVENTS,
    TraceRecorder,
    changes_of,
)

import regelwerk


def _close_before(self: TraceRecorder) -> None:
    """`_close` as it was (53e6025)."""
    st = self._step
    if st is None:
        return
    self._step = None
    kept = st[DECISION] or st[EVENTS] or st[CHANCE]
    if len(self.journal) == self._jmark:
        self._jdict = False
        if kept:
            st[CHANGES] = ()
            self._steps.extend(st)
        return
    if not self._jdict:
        if not kept:
            journal = self.journal
            for i in range(self._jmark + 2, len(journal), ENTRY):
                old, new = journal[i], journal[i + 1]
                if not (old is new or (type(old) is type(new) and old == new)):
                    break
            else:
                return
        changes: range | tuple = range(self._jmark, len(self.journal))
    else:
        self._jdict = False
        changes = changes_of(self.journal[self._jmark:])
        if not (kept or changes):
            return
    st[CHANGES] = changes
    self._steps.extend(st)


def _undone_and_cloned(ruleset: regelwerk.Ruleset, players: int, seed: int) -> list:
    g = ruleset.new_game(players=players, seed=seed, record=True)
    rnd = random.Random(seed)
    for n in range(1, 150):
        if g.is_over:
            break
        g.apply(rnd.choice(g.legal_actions()))
        if n % 9 == 0 and not g.is_over:
            try:
                g.undo()
            except regelwerk.EngineError:
                pass
            if n % 18 == 0:
                g = g.clone()
    save = g.to_json()
    save.pop("ruleset_file", None)
    return [json.dumps(g.trace, default=str, sort_keys=True), g.result, save]


@pytest.mark.parametrize(("name", "players", "seeds", "limit"), [
    ("shogun", 4, range(2), 200), ("root", 2, range(2), 200), ("khan", 3, range(1), 150),
    ("checkers", 2, range(3), 400), ("pig", 2, range(3), 200)])
def test_the_same_traces_as_before(name: str, players: int, seeds: range, limit: int,
                                   monkeypatch: pytest.MonkeyPatch):
    ruleset = regelwerk.load(BUNDLED[name])
    now = played(ruleset, players, True, seeds, limit, saved=True), _undone_and_cloned(ruleset, players, 5)
    monkeypatch.setattr(TraceRecorder, "_close", _close_before)
    before = played(ruleset, players, True, seeds, limit, saved=True), _undone_and_cloned(ruleset, players, 5)
    assert now == before


SAME_FIRST = """players Ann, Bob
state
    n: int = 0
    m: int = 0
procedure same_then_more
    "Writes n as it is, then m anew."
    set n = n
    add 1 to m
procedure same
    "Writes n as it is."
    set n = n
action go
    "Go."
    add 1 to n
flow
    repeat 2 times
        do same_then_more
        do same
        for p in players
            turn p
                play go
"""


def test_an_automatic_step_is_kept_when_a_later_write_changed_something(tmp_path: Path):
    path = tmp_path / "same.rules"
    path.write_text(SAME_FIRST, encoding="utf-8")
    g = regelwerk.load(path).new_game(seed=1, record=True)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    rules = [(s["rule"], [c["path"] for c in s["changes"]]) for s in g.trace if "rule" in s]
    assert rules.count(("same_then_more", ["m"])) == 2  # n unchanged, then m changed: kept
    assert not any(r == "same" for r, _c in rules)  # wrote only n, unchanged: dropped
    assert recording.TraceRecorder._close is not _close_before
