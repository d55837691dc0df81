"""A traced write of a whole variable, or one key deep (most writes), journals no container: undo
finds it again by the entry's path (`recording.container_of`), so the collector untracks the
entries of plain values that a traced game keeps to its end (issue 27: Shogun's traced games
set off full collections that walked the whole heap). A deeper write keeps its container. Undo
must give back the very states it gave when every entry held its container."""

from __future__ import annotations

import gc
import json
import random
from pathlib import Path

import pytest
from regelwerk.interpreter.compiler import codegen
from regelwerk.interpreter.engine import recording

import regelwerk

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("rulesets/shogun/shogun.rules", 4), ("rulesets/root/root.rules", 2), ("rulesets/khan/khan.rules", 3),
         ("rulesets/classic/checkers.rules", 2), ("rulesets/examples/goofspiel.rules", None)]


@pytest.fixture(scope="module", params=GAMES, ids=[p.split("/")[-1] for p, _n in GAMES])
def game(request) -> tuple[str, int | None, regelwerk.Ruleset]:
    path, players = request.param
    return path, players, regelwerk.load(ROOT / path)


def states_and_undo(ruleset: regelwerk.Ruleset, players: int | None, seed: int, moves: int, back: int) -> list:
    """The saves before each of `moves` random decisions, then those `back` undos give."""
    g = ruleset.new_game(players=players, seed=seed, record=True)
    rnd = random.Random(seed)
    before = []
    while not g.is_over and len(before) < moves:
        before.append(json.dumps(g.to_json(), sort_keys=True))
        g.apply(rnd.choice(g.legal_actions()))
    undone = []
    for _ in range(min(back, len(before))):
        try:
            g.undo()
        except regelwerk.EngineError:  # a move taken back (`abandon`) ends the history
            break
        undone.append(json.dumps(g.to_json(), sort_keys=True))
    return [before, undone, len(g.trace)]


def test_undo_gives_back_every_state_before(game):
    _path, players, ruleset = game
    for seed in (0, 1):
        before, undone, _ = states_and_undo(ruleset, players, seed, 60, 25)
        assert undone == list(reversed(before))[:len(undone)] and len(undone) >= 10


def with_containers_held(path: str) -> tuple[regelwerk.Ruleset, str]:
    """The ruleset compiled with every journal entry holding its container, as before, and the
    traced program's source (worked out when read: read while the patch holds)."""
    original = codegen.CodeGen.write

    def write(self, t, sc, value_fn, out, ind, needs_old):
        n = len(out)
        original(self, t, sc, value_fn, out, ind, needs_old)
        held = "V" if not t.steps else f"V[{t.root!r}]"
        out[n:] = [line.replace("J.extend((None, ", f"J.extend(({held}, ") for line in out[n:]]

    mp = pytest.MonkeyPatch()
    mp.setattr(codegen.CodeGen, "write", write)
    try:
        ruleset = regelwerk.load(ROOT / path)
        source = ruleset.program(True).source
    finally:
        mp.undo()
    return ruleset, source


def test_undo_is_the_same_as_with_containers_held(game):
    path, players, ruleset = game
    held, source = with_containers_held(path)
    assert "J.extend((None, " not in source
    assert "J.extend((None, " in ruleset.program(True).source
    for seed in (2, 3):
        assert states_and_undo(held, players, seed, 80, 30) == states_and_undo(ruleset, players, seed, 80, 30)


def test_the_entries_hold_no_container_where_undo_finds_it_by_path():
    g = regelwerk.load(ROOT / "rulesets/classic/tictactoe.rules").new_game(record=True)
    g.apply("place(b2)")
    by_key = {e[1]: e for e in recording.entries(g.journal)}
    assert by_key["b2"][0] is None and by_key["moves"][0] is None
    assert recording.container_of(by_key["b2"], g.vars) is g.vars["cell"]
    assert recording.container_of(by_key["moves"], g.vars) is g.vars
    assert not any(type(x) is dict for x in by_key["moves"])  # its path, a constant, may be frozen
    gc.collect()  # (an earlier gc.freeze() in the process keeps such a constant tracked)
    first = g.journal.index("b2") - 1  # the entry's slots, flat in the journal (recording.ENTRY)
    assert g.journal[first:first + recording.ENTRY] == list(by_key["b2"])
    assert not any(gc.is_tracked(x) for x in by_key["b2"])
    g.undo()
    assert g.vars["cell"]["b2"] is None and g.vars["moves"] == 0


def test_a_deeper_write_keeps_its_container():
    ruleset = regelwerk.load(ROOT / "rulesets/root/root.rules")
    g = ruleset.new_game(players=2, seed=0, record=True)
    rnd = random.Random(0)
    while not any(type(e[4]) is tuple and len(e[4]) > 2 for e in recording.entries(g.journal)):
        g.apply(rnd.choice(g.legal_actions()))
    deep = [e for e in recording.entries(g.journal) if type(e[4]) is tuple and len(e[4]) > 2]
    assert all(type(e[0]) is dict for e in deep)
    assert all(e[0] is None for e in recording.entries(g.journal) if type(e[4]) is str or len(e[4]) == 1)


def test_a_kept_step_holds_the_range_of_its_entries_until_a_copy_shares_it():
    """A kept step's changes are the range of the journal's entries it wrote (no list per step for
    the collector to track), until a clone, which starts a journal of its own, shares the steps:
    then they hold the entries themselves, and both games' traces still read the same."""
    ruleset = regelwerk.load(ROOT / "rulesets/classic/tictactoe.rules")
    g = ruleset.new_game(record=True)
    g.apply("place(b2)")
    g.apply("place(a1)")
    # the CHANGES slots of the kept steps (a closed step's slots are flat, recording.WIDTH)
    kept = [i + recording.CHANGES for i in recording.step_starts(g._steps, g._cooked)
            if type(g._steps[i]) is str and g._steps[i + recording.CHANGES]]
    assert kept and all(type(g._steps[i]) is range for i in kept)
    assert sum(len(g._steps[i]) for i in kept) <= len(g.journal)  # both count slots
    copy = g.clone()
    assert all(type(g._steps[i]) is list for i in kept)
    copy.apply("place(c3)")
    g.apply("place(c3)")
    assert json.dumps(copy.trace, sort_keys=True) == json.dumps(g.trace, sort_keys=True)
    assert any(c["path"] == "cell[b2]" for s in g.trace for c in s["changes"])


def test_a_copy_after_undo_settles_the_steps_recorded_since():
    """Each clone settles only the steps since the last one (`Game._settled`: Khan keeps a
    copy before every move that can be taken back); undo takes that mark back with the steps,
    so a copy after undo and new moves still gets its steps' entries, not ranges of a journal
    it does not have."""
    ruleset = regelwerk.load(ROOT / "rulesets/classic/tictactoe.rules")
    g = ruleset.new_game(record=True)
    for move in ("place(b2)", "place(a1)", "place(c3)", "place(a3)"):
        g.apply(move)
    g.clone()
    g.undo()
    g.undo()
    g.apply("place(c1)")
    g.apply("place(a2)")
    copy = g.clone()
    for game in (g, copy):
        game.apply("place(b1)")
    assert json.dumps(copy.trace, sort_keys=True) == json.dumps(g.trace, sort_keys=True)
    assert [c["path"] for c in copy.trace[-4]["changes"]] == ["cell[a2]", "moves"]
