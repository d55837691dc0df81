"""A traced procedure whose body only writes state (`compile.quiet_body`: it notes nothing, calls
nothing that could, and leaves the phase and the player alone) opens its own step only when it
wrote something (`recording.quiet_push_code`, `quiet_pop_code`): checkers crowns after every
move, mostly nobody, and the step opened and dropped around each call was a sixth of the
bytecodes tracing adds to a checkers game. Pinned here: which procedures are quiet, the code's
form, and the same traces, saves and results as the usual steps give, through undo, clones and
games whose rule entries are watched (`push_rule`/`pop_rule` called)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from bundled import BUNDLED
from playing import played, without
from regelwerk.interpreter.compiler import compile as compile_module

import regelwerk

GAMES = [("checkers", 2, range(4), 400), ("shogun", 4, range(2), 200), ("root", 2, range(2), 200),
         ("khan", 3, range(1), 150)]


def _quiet(ruleset: regelwerk.Ruleset) -> set[str]:
    return {c.rule for c in ruleset.program(True).choices if c.kind == "quiet procedure"}


def test_procedures_that_only_write_are_quiet_and_others_are_not():
    assert _quiet(regelwerk.load(BUNDLED["checkers"])) == {"procedure crown", "procedure set_up"}
    shogun = _quiet(regelwerk.load(BUNDLED["shogun"]))
    assert {"procedure add_unrest", "procedure build", "procedure recruit"} <= shogun
    # a procedure that draws (chance notes into its step) or calls another is not quiet
    source = regelwerk.load(BUNDLED["shogun"]).program(True).source
    assert "procedure:setup_game" in source and "procedure setup_game" not in shogun
    untraced = regelwerk.load(BUNDLED["checkers"]).program(False)  # its procedures open no steps
    assert not any(c.kind == "quiet procedure" for c in untraced.choices)


LOGS = """players Ann, Bob
state
    n: int = 0
    m: int = 0
procedure bump
    "Counts to two."
    if n < 2
        add 1 to n
procedure told
    "Logs."
    log "told"
    add 1 to m
procedure both
    "Calls another."
    do bump
    add 2 to m
action go
    "Go."
    do bump
    add 1 to m
    do told
    do both
flow
    repeat 3 times
        for p in players
            turn p
                play go
"""


def test_a_procedure_that_logs_or_calls_another_keeps_the_usual_step(tmp_path: Path):
    path = tmp_path / "logs.rules"
    path.write_text(LOGS, encoding="utf-8")
    ruleset = regelwerk.load(path)
    assert _quiet(ruleset) == {"procedure bump"}
    source = ruleset.program(True).source
    bump = source[source.index("def P_0("):source.index("def P_1(")]
    assert "jm = len(G.journal)" in bump and "elif len(G.journal) == jm:" in bump
    assert "['procedure:bump'" not in bump.split("try:")[0]  # no step list made before the body
    told = source[source.index("def P_1("):source.index("def P_2(")]
    assert "jm = len(G.journal)" not in told
    traces = [played(r, 2, True, range(1), 20, saved=True) for r in
              (ruleset, without(lambda: regelwerk.load(path), compile_module, "quiet_body", False))]
    assert traces[0] == traces[1]
    steps = json.loads(traces[0][-2][1])
    assert [s["rule"] for s in steps[:7]] == ["flow", "go", "bump", "go", "told", "bump", "both"]
    # once `n` is 2, `bump` writes nothing: no step of its own, and the move's writes after it
    # are a step of the move's rule
    assert [(s["rule"], s["automatic"]) for s in steps[-6:-2]] == [
        ("go", False), ("go", True), ("told", True), ("both", True)]


@pytest.mark.parametrize(("name", "players", "seeds", "limit"), GAMES)
@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_as_with_the_usual_steps(name: str, players: int, seeds: range, limit: int, record: bool):
    quiet = regelwerk.load(BUNDLED[name])
    usual = without(lambda: regelwerk.load(BUNDLED[name]), compile_module, "quiet_body", False)
    if record:
        assert _quiet(quiet) and not _quiet(usual)
    assert played(quiet, players, record, seeds, limit, saved=True) == \
        played(usual, players, record, seeds, limit, saved=True)


def _undone_and_cloned(ruleset: regelwerk.Ruleset, players: int, seed: int, watched: bool) -> list:
    """A traced game with two moves taken back every 7 decisions and played on as a clone every
    14 (the trace read now and then); with `watched`, its rule entries go through the recorder's
    `push_rule` and `pop_rule`."""
    g = ruleset.new_game(players=players, seed=seed, record=True)
    g._watched = watched
    rnd = random.Random(seed)
    out = []
    for n in range(1, 160):
        if g.is_over:
            break
        g.apply(rnd.choice(g.legal_actions()))
        if n % 7 == 0 and not g.is_over:
            try:
                g.undo()
                g.undo()
            except regelwerk.EngineError:
                pass
            if n % 14 == 0:
                g = g.clone()
                g._watched = watched
                out.append(len(g.trace))
    save = g.to_json()
    save.pop("ruleset_file", None)
    return [out, json.dumps(g.trace, default=str, sort_keys=True), g.result, save]


@pytest.mark.parametrize(("name", "players"), [("checkers", 2), ("shogun", 4), ("root", 2)])
@pytest.mark.parametrize("watched", [False, True])
def test_the_same_traces_through_undo_clones_and_watched_rules(name: str, players: int, watched: bool):
    quiet = regelwerk.load(BUNDLED[name])
    usual = without(lambda: regelwerk.load(BUNDLED[name]), compile_module, "quiet_body", False)
    for seed in (1, 2):
        assert _undone_and_cloned(quiet, players, seed, watched) == _undone_and_cloned(usual, players, seed, False)
