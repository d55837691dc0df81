"""Canonical names (interpreter/engine/canonical.py) and `names by identity`
(interpreter/compiler/curcompare.py, `CodeGen.NAMES_BY_IDENTITY`): every text the rules can read
is the one interned object for that text, so the generated code may compare a look-up with the
current player by identity. The invariant is pinned source by source: the program's constants,
elements, players, data and options, a save, a move given as text or made anew, a script."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from playing import chosen_and_same, source_with
from regelwerk.interpreter.engine.canonical import game_strays, interned, interned_code, strays
from regelwerk.interpreter.engine.moves import Action, as_action, parse_action

import regelwerk

ROOT = Path(__file__).resolve().parent.parent

# Player, enum and square names CPython does not intern on its own (not ASCII): each would be
# a second object equal to the state's without the interning.
ZEEEN = """game "Zeeën"
players Zeeën, Wolkën
board Veld = grid 3 x 2
enum Kleur = rood, blauwgroen
option punten: Kleur -> int = {rood: 1, blauwgroen: 2} "points per colour"
state
    mark: Veld -> Player? = none
    score: Player -> int = 0
define mine(s: Veld): bool = mark[s] == current
action put(s in Veld, k in Kleur)
    "Mark a square that is not yours."
    require mark[s] != current else "yours"
    require (count t in Veld where mark[t] == none) > 0 else "full"
    set mark[s] = current
    add punten[k] to score[current]
    if (count t in Veld where mine(t)) >= 3
        finish winner current
flow
    repeat
        turn
            play put
"""


def _fresh(text: str) -> str:
    """An equal text that is a new object (not the interned one)."""
    return "".join(list(text))


def test_interned_changes_containers_in_place_and_makes_tuples_anew_only_where_needed() -> None:
    ann = sys.intern("Ann-1")
    fresh = _fresh("Ann-1")
    assert fresh is not ann
    inner = {"k": fresh}
    kept = ("x", 1)
    value = {fresh: [fresh, inner, kept], "s": {fresh}, "f": frozenset({fresh}),
             "a": Action("put", (fresh,))}
    out = interned(value)
    assert out is value and inner is value[ann][1] and value[ann][1]["k"] is ann
    assert next(iter(value)) is ann and value[ann][0] is ann
    assert value[ann][2] is kept  # nothing in it changed: the same tuple
    assert next(iter(value["s"])) is ann and next(iter(value["f"])) is ann
    assert type(value["a"]) is Action and value["a"].args[0] is ann
    assert strays(value) == []
    assert strays({"x": [_fresh("Ann-1")]}) == [("['x'][0]", "Ann-1")]
    loop: list = []
    loop.append(loop)
    assert interned(loop) is loop  # a cycle ends


def test_interned_code_interns_every_text_constant_nested_functions_too() -> None:
    ref = sys.intern(_fresh("Noord-Holland ë"))
    code = compile("def f():\n    return ('Noord-Holland ë', 'Zeeën')\nx = 'Noord-Holland ë'\n", "<t>", "exec")
    inner = next(c for c in code.co_consts if hasattr(c, "co_consts"))
    assert "Noord-Holland ë" in inner.co_consts[1] and not any(c is ref for c in inner.co_consts[1])
    out = interned_code(code)
    ns: dict = {}
    exec(out, ns)  # noqa: S102 - a test's own code
    assert ns["x"] is ref and ns["f"]()[0] is ref and ns["f"]()[1] is sys.intern("Zeeën")
    assert interned_code(out) is out  # nothing left to change: the same code


def _played(rules: regelwerk.Ruleset, players: int | None, seed: int, record: bool, every: int, limit: int) -> int:
    """A seeded random game whose moves are given, in turn, as the offered move, as text and as
    a move made anew, its texts checked every `every` moves, in the game, a clone and a load."""
    g = rules.new_game(players=players, seed=seed, record=record)
    rng = random.Random(seed)
    assert game_strays(g) == []
    n = 0
    while g.result is None and n < limit:
        legal = g.legal_actions()
        move = rng.choice(legal)
        given = (move, parse_action(str(move)), Action(_fresh(move.name), tuple(
            _fresh(a) if type(a) is str else a for a in move.args)))[n % 3]
        g.apply(given)
        n += 1
        if n % every == 0 or g.result is not None:
            assert game_strays(g) == [], n
            assert game_strays(g.clone()) == [], n
            loaded = rules.load_game(json.loads(json.dumps(g.to_json())), record=record)
            assert game_strays(loaded) == [], n
    return n


BUNDLED = [
    ("rulesets/classic/tictactoe.rules", None, 3),
    ("rulesets/classic/connect4.rules", None, 1),
    ("rulesets/classic/checkers.rules", None, 1),
    ("rulesets/examples/goofspiel.rules", None, 1),
    ("rulesets/examples/leduc.rules", None, 2),
    ("rulesets/khan/khan.rules", 3, 1),
    ("rulesets/shogun/shogun.rules", 4, 1),
    ("rulesets/root/root.rules", 2, 1),
]


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize(("path", "players", "games"), BUNDLED)
def test_every_text_the_rules_read_is_canonical_in_play_clones_and_loads(
        path: str, players: int | None, games: int, record: bool) -> None:
    rules = regelwerk.load(ROOT / path)
    played = sum(_played(rules, players, seed, record, every=7, limit=160) for seed in range(games))
    assert played > 0


def test_options_saves_and_scripts_are_made_canonical() -> None:
    rules = regelwerk.load_text(ZEEEN, "zeeen.rules")
    g = rules.new_game(seed=3, options={"punten": {_fresh("rood"): 5, _fresh("blauwgroen"): 1}})
    assert game_strays(g) == [] and next(iter(g.options["punten"])) is sys.intern("rood")
    assert g.current is sys.intern("Zeeën")
    save = json.loads(json.dumps(g.to_json()))
    assert game_strays(rules.load_game(save)) == []
    pig = regelwerk.load(ROOT / "rulesets/examples/pig.rules")
    p = pig.new_game(start=False)
    p.script("roll", [_fresh("Zeeën-x")])  # any outcome is kept canonical, a text too
    assert strays(p.scripted) == []


def test_moves_from_outside_are_made_canonical_and_offered_ones_kept() -> None:
    for given in (Action(_fresh("put"), (_fresh("a1"), _fresh("rood"))), (_fresh("put"), [_fresh("a1"), "rood"]),
                  _fresh("put(a1, rood)"), 'put("a1", [rood, "Zeeën x"])'):
        move = as_action(given)
        assert strays(move) == [] and move.args[0] is sys.intern("a1"), given
    assert parse_action(_fresh('say("Noord-Holland ë")')).args[0] is sys.intern("Noord-Holland ë")
    g = regelwerk.load_text(ZEEEN, "zeeen.rules").new_game(seed=2)
    offered = g.legal_actions()[0]
    assert as_action(offered) is offered
    assert g.explain(Action("put", (_fresh(offered.args[0]), offered.args[1]))).legal


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_by_identity_and_by_value(record: bool) -> None:
    chosen_and_same("NAMES_BY_IDENTITY", "names by identity", "zeeen", ZEEEN, record, "connect4")


def test_the_win_tests_compare_by_identity() -> None:
    on = source_with("NAMES_BY_IDENTITY", True, "connect4")
    assert " is _mover" in on and ":= _sv0[" not in on
    off = source_with("NAMES_BY_IDENTITY", False, "connect4")
    assert ":= _sv0[" in off
    assert " is _mover" in source_with("NAMES_BY_IDENTITY", True, "zeeen", ZEEEN) or \
        " is _cur" in source_with("NAMES_BY_IDENTITY", True, "zeeen", ZEEEN)


@pytest.mark.parametrize("path", ["rulesets/classic/breakthrough.rules", "rulesets/root/root.rules",
                                  "rulesets/khan/khan.rules", "rulesets/shogun/shogun.rules"])
def test_no_literal_is_compared_by_identity(path: str) -> None:
    """A literal side keeps `==` (`is` on a literal is a SyntaxWarning, and CPython's own text
    comparison takes it fast): every program compiles without one."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", SyntaxWarning)
        rules = regelwerk.load(ROOT / path)
        rules.program(False), rules.program(True)
    if "breakthrough" in path:
        src = rules.program(False).source
        assert "_cur == 'White'" in src and " is 'White'" not in src and " is _cur" in src


def test_a_change_by_hand_is_made_canonical_by_invalidate() -> None:
    """State changed from outside the rules (api.md: call `invalidate()` after it) holds the
    canonical names again afterwards, so the rules' identity comparisons read it rightly."""
    g = regelwerk.load_text(ZEEEN, "zeeen.rules").new_game(seed=4)
    g.vars["mark"][_fresh("a1")] = _fresh("Zeeën")
    g.vars["mark"][sys.intern("b1")] = _fresh("Wolkën")
    assert game_strays(g) != []
    g.invalidate()
    assert game_strays(g) == [] and g.vars["mark"]["b1"] is sys.intern("Wolkën")
    put = next(m for m in g.legal_actions() if m.args[0] == "c1")
    g.apply(put)  # Zeeën marks c1: a1 and c1 are hers now, and the rules count them by identity
    assert sum(1 for v in g.vars["mark"].values() if v is sys.intern("Zeeën")) == 2
