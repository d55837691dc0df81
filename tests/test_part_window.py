"""After a part's move in a `simultaneously`, the window is made anew from copies of its dicts
(`Game._leave_part`): the same keys in the same order, the same values, as the comprehension it
replaced; the window is never changed in place (clones and kept listings hold it)."""

from __future__ import annotations

import json
import random

import pytest
from regelwerk.interpreter.engine import game as game_mod

import regelwerk


def _old_leave_part(self, saved, player, copy):  # the code before, kept to compare with
    frames, pending, legal = self.frames, self.pending, self._legal
    self.frames, self.current, self.pending, self._legal, self._part = saved
    if copy and self.window is not None:
        pend = {k: v for k, v in self.window["pending"].items() if k != player}
        if pending is not None:
            pend[player] = {**pending, "simultaneous": True}
        self.window = {**self.window, "parts": {**self.window["parts"], player: frames}, "pending": pend}
        if legal is not None and pending is not None:
            self._part_legal = (self.window, player, legal)


def _windows(seed: int, record: bool) -> list:
    rs = regelwerk.load("rulesets/shogun/shogun.rules")
    g = rs.new_game(players=4, seed=seed, record=record)
    rnd = random.Random(seed)
    seen, before = [], None
    while not g.is_over:
        w = g.window
        if w is not None:
            seen.append(json.dumps([list(w["pending"]), list(w["parts"]), g.to_json()], sort_keys=False, default=str))
            if before is not None and before is not w:
                assert before["pending"] is not w["pending"]  # a new window, the old one as it was
        before, frozen = w, json.dumps(w, sort_keys=False, default=str) if w is not None else None
        g.apply(rnd.choice(g.legal_actions()))
        if before is not None:
            assert json.dumps(before, sort_keys=False, default=str) == frozen  # never changed in place
    return seen


@pytest.mark.parametrize("seed", [1, 4])
def test_the_same_windows_as_before(seed: int, monkeypatch: pytest.MonkeyPatch):
    for record in (False, True):
        new = _windows(seed, record)
        with monkeypatch.context() as m:
            m.setattr(game_mod.Game, "_leave_part", _old_leave_part)
            old = _windows(seed, record)
        assert new == old and len(new) > 20
