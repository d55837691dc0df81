"""interpreter/compiler/memo.py: which definitions are remembered, by what key, and that remembering
never changes a game (the moves listed are the same as without it)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from regelwerk.interpreter.compiler.memo import memo_keys, state_free

import regelwerk

RULES = """
game "Memo"
    source "test"

players A, B

enum Kind = k1, k2, k3, k4
record KindInfo(big: bool, size: int)
data INFO: Kind -> KindInfo from "info.json"

board Square = grid 4 x 4

state
    owner: Square -> Player? = none
    left: set Kind = Kind

define open_for(k: Kind): list Square =
    list s in Square where owner[s] == none or INFO[k].big
define taken(p: Player): int = count s in Square where owner[s] == p
define span(area: list Square): int = count s in area where s != a1
define cheap(k: Kind): bool = INFO[k].big
define by_kind(k: Kind): int = count s in Square where owner[s] == none and k != k1

action put(k in sorted(left), s in open_for(k))
    "Put a piece."
    require span([s]) >= 0 and by_kind(k) >= 0
    set owner[s] = current
    remove k from left
    if left == {}
        finish draw

flow
    repeat
        turn
            play put
"""


@pytest.fixture(scope="module")
def ruleset(tmp_path_factory: pytest.TempPathFactory) -> regelwerk.Ruleset:
    d: Path = tmp_path_factory.mktemp("memo")
    (d / "memo.rules").write_text(RULES, encoding="utf-8")
    info = {"k1": {"big": False, "size": 1}, "k2": {"big": False, "size": 2},
            "k3": {"big": True, "size": 3}, "k4": {"big": False, "size": 1}}
    (d / "info.json").write_text(json.dumps(info), encoding="utf-8")
    return regelwerk.load(d / "memo.rules")


def test_enumeration_keys_follow_what_a_definition_reads(ruleset: regelwerk.Ruleset) -> None:
    keys = memo_keys(ruleset.model)
    # open_for reads k only as INFO[k].big: keyed by that value, so k1, k2 and k4 share one answer
    (parts,) = keys["open_for"].parts
    assert parts is not None and len(parts) == 1
    # by_kind compares k itself: keyed by k; taken reads a player: keyed by the player
    assert keys["by_kind"].parts == (None,)
    assert keys["taken"].parts == (None,)
    # a list argument cannot be a key for the enumeration memo; a definition without a loop is
    # not worth one
    assert "span" not in keys and "cheap" not in keys


def test_state_free_definitions(ruleset: regelwerk.Ruleset) -> None:
    free = state_free(ruleset.model)
    assert free == {"span": ("list",)}  # the others read `owner` (state), or do not loop


def test_generated_code_uses_the_memo(ruleset: regelwerk.Ruleset) -> None:
    choices = ruleset.new_game(seed=0).prog.choices
    memo = {c.detail for c in choices if c.kind == "memo"}
    assert "open_for by INFO[k].big" in memo  # open_for looked up by what it reads of k
    assert [c.rule for c in choices if c.kind == "remember"] == ["define span"]  # for the program's life


def test_remembering_changes_no_game(ruleset: regelwerk.Ruleset) -> None:
    """Every listed move is what a plain evaluation of the rules allows, move after move: the
    big kind (k3) may go on taken squares, the others share one remembered answer."""
    for g in _positions(ruleset):
        listed = [str(a) for a in g.legal_actions()]
        owner, left = g.vars["owner"], g.vars["left"]
        big = {"k3"}
        want = [f"put({k}, {s})" for k in sorted(left) for s in sorted(owner, key=_square_order)
                if owner[s] is None or k in big]
        assert listed == want


def _positions(ruleset: regelwerk.Ruleset, games: int = 20):
    """Every position of `games` random games, one seed each."""
    for seed in range(games):
        g = ruleset.new_game(seed=seed)
        rnd = random.Random(seed)
        while not g.is_over:
            yield g
            g.apply(rnd.choice(g.legal_actions()))


def _square_order(sq: str) -> tuple[int, str]:
    return (int(sq[1:]), sq[0])


LEVEL_RULES = RULES.replace("            play put\n", "            play put, place\n").replace(
    "flow\n", """action place(k in sorted(left), s in open_for(k))
    "Place a piece: a kind of size 1 anywhere it may go, a larger one not on a1."
    require INFO[k].size == 1 or s != a1
    set owner[s] = current
    remove k from left
    if left == {}
        finish draw

flow
""")


@pytest.fixture(scope="module")
def level_ruleset(ruleset: regelwerk.Ruleset, tmp_path_factory: pytest.TempPathFactory) -> regelwerk.Ruleset:
    d: Path = tmp_path_factory.mktemp("level")
    (d / "memo.rules").write_text(LEVEL_RULES, encoding="utf-8")
    (d / "info.json").write_text((Path(ruleset.path).parent / "info.json").read_text(encoding="utf-8"), encoding="utf-8")
    return regelwerk.load(d / "memo.rules")


def test_inner_loops_keyed_by_the_data_they_read(level_ruleset: regelwerk.Ruleset) -> None:
    """`place` reads `k` below its first loop only as INFO[k].big (through open_for) and
    INFO[k].size: the squares found for one kind are the squares of every kind with the same
    two values (k1 and k4 share them; k2 is as big, but larger). `put` reads `k` itself below the first loop (by_kind), so it has no such memo."""
    from regelwerk.interpreter.compiler.memo import level_key

    model = level_ruleset.model
    place, put = model.actions["place"], model.actions["put"]
    assert level_key(model, [place.params[1].domain, place.body[0].test], "k") is not None
    assert level_key(model, [put.params[1].domain, put.body[0].test], "k") is None
    rows = {(c.rule, c.detail) for c in level_ruleset.new_game(seed=0).prog.choices if c.kind == "rows"}
    assert rows == {("action place", "k by INFO[k].big, INFO[k].size")}


def test_the_inner_loop_memo_changes_no_game(level_ruleset: regelwerk.Ruleset) -> None:
    """Every listed move is what a plain reading of the rules allows, move after move."""
    info = {"k1": (False, 1), "k2": (False, 2), "k3": (True, 3), "k4": (False, 1)}
    for g in _positions(level_ruleset):
        listed = [str(a) for a in g.legal_actions()]
        owner, left = g.vars["owner"], g.vars["left"]
        squares = sorted(owner, key=_square_order)
        want = [f"put({k}, {s})" for k in sorted(left) for s in squares if owner[s] is None or info[k][0]]
        want += [f"place({k}, {s})" for k in sorted(left)
                 for s in squares if (owner[s] is None or info[k][0]) and (info[k][1] == 1 or s != "a1")]
        assert listed == want


@pytest.mark.parametrize(("path", "players"), [("rulesets/khan/khan.rules", 3), ("rulesets/root/root.rules", 2)])
def test_seed_rulesets_list_the_same_moves_without_the_inner_loop_memo(path: str, players: int,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Khan's conquer (two parameters) and Root's three-parameter actions are keyed by data:
    move for move, the same moves as a program compiled without the memo."""
    from regelwerk.interpreter.compiler import actiongen

    root = Path(__file__).parent.parent
    keyed = regelwerk.load(root / path)
    assert any(c.kind == "rows" for c in keyed.program(False).choices)
    monkeypatch.setattr(actiongen, "level_key", lambda *_args: None)
    plain = regelwerk.load(root / path)
    assert not any(c.kind == "rows" for c in plain.program(False).choices)
    for seed in range(3):
        a, b = keyed.new_game(players=players, seed=seed), plain.new_game(players=players, seed=seed)
        rnd = random.Random(seed)
        while not a.is_over:
            moves = a.legal_actions()
            assert [str(m) for m in moves] == [str(m) for m in b.legal_actions()]
            i = rnd.randrange(len(moves))
            a.apply(moves[i])
            b.apply(b.legal_actions()[i])
        assert b.is_over and a.result == b.result
