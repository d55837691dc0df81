"""The placement search that covers a square to touch (issue 27): the library's
`placements_touching(shape, allowed, touching[, mirror])` and the compiler's use of it for a
require that needs such a square (interpreter/compiler/pushdown.py, `touching`).

The library form must list exactly the placements of `placements(shape, allowed)` that cover
one of the squares, in the same order; the listing that uses it must offer the same moves in
the same order as the program without it, and fail where that one fails."""

from __future__ import annotations

import random

import pytest
from playing import listed, without
from regelwerk.interpreter.compiler import pushdown
from regelwerk.interpreter.stdlib.boards import Boards
from regelwerk.interpreter.stdlib.grid import Grid
from regelwerk.interpreter.stdlib.polyomino import PlacementTable, placements

import regelwerk

SHAPES = {
    "monomino": {(0, 0)},
    "domino": {(0, 0), (1, 0)},
    "ell": {(0, 0), (1, 0), (0, 1)},
    "tee": {(0, 0), (1, 0), (2, 0), (1, 1)},
    "ess": {(0, 0), (1, 0), (1, 1), (2, 1)},
    "apart": {(0, 0), (2, 1)},  # cells that do not touch: the anchor is not beside the others
    "long": {(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)},
}


def _brute(shape: set, grid: Grid, allowed: set, touch: set, mirror: bool) -> list[list[str]]:
    found = [sorted(p) for p in placements(shape, grid, allowed.__contains__, True, mirror)]
    return [p for p in found if touch & set(p)]


@pytest.mark.parametrize("mirror", [True, False])
@pytest.mark.parametrize("name", SHAPES)
def test_touching_is_the_placements_that_cover_a_square(name: str, mirror: bool):
    """Random allowed and touching squares (the touching ones partly outside `allowed`) on a
    board that is not square: every placement kept, none added, in `placements()` order."""
    grid = Grid(7, 5)
    table = PlacementTable(SHAPES[name], grid, True, mirror)
    rnd = random.Random(name)
    for density, touching in [(0.9, 0.05), (0.7, 0.15), (0.4, 0.4), (1.0, 1.0), (0.6, 0.0)]:
        for _ in range(40):
            allowed = {s for s in grid.squares if rnd.random() < density}
            touch = {s for s in grid.squares if rnd.random() < touching}
            want = _brute(SHAPES[name], grid, allowed, touch, mirror)
            assert table.touching(table.mask(allowed), table.mask(touch)) == want
            # the cached answer is the same list
            assert table.touching(table.mask(allowed), table.mask(touch)) == want


def test_a_placement_touching_at_an_edge_is_kept_and_one_beyond_it_is_not():
    """Squares on the board's edges (where a shifted cell would wrap to the next row without
    the padding) are touched like any other."""
    grid = Grid(4, 3)
    table = PlacementTable(SHAPES["domino"], grid)
    every = table.mask(grid.squares)
    assert table.touching(every, table.mask(["d1"])) == [["c1", "d1"], ["d1", "d2"]]
    assert table.touching(every, table.mask(["a3"])) == [["a2", "a3"], ["a3", "b3"]]
    assert table.touching(table.mask(["a1", "d1", "a2"]), table.mask(["d1"])) == []


def test_the_boards_form_with_none_is_the_plain_search():
    """`touching` none (a listing whose squares to touch failed to work out) lists every
    placement within `allowed`; `allowed` none, every placement on the board."""
    grid = Grid(3, 3)
    boards = Boards({"Sq": grid}, {})
    shape = [[0, 0], [1, 0]]
    allowed = ["a1", "b1", "c1", "b2"]
    assert boards.placements_touching(shape, allowed, None) == boards.placements(shape, allowed)
    assert boards.placements_touching(shape, None, None) == boards.placements(shape)
    assert boards.placements_touching(shape, allowed, ["b2"]) == [["b1", "b2"]]
    assert boards.placements_touching(shape, None, ["a1"]) == [["a1", "a2"], ["a1", "b1"]]
    assert boards.placements_touching(shape, allowed, []) == []
    assert boards.placements_touching(shape, allowed, ["c3"]) == []
    # the mask of the last list is remembered: another list gives its own answer
    assert boards.placements_touching(shape, allowed, ["c1"]) == [["b1", "c1"]]


RULES = """players Ann, Bob, Cid
board Sq = grid 5 x 4
enum Piece = dom, tri, ell
const SHAPE = {dom: [[0, 0], [1, 0]], tri: [[0, 0], [1, 0], [2, 0]], ell: [[0, 0], [1, 0], [0, 1]]}
state
    stone: Sq -> Player? = none
    flag: set Sq = {}
    weight: Sq -> int = 1
    left: list Piece = [dom, tri, ell, dom]
define ground: list Sq = list s in Sq where s != e4
define own(p: Player, area: list Sq): int = count s in area where stone[s] == p
define most(p: Player, area: list Sq): bool =
    own(p, area) >= 1 and (all q in players: own(q, area) <= own(p, area))
define heavy(s: Sq): bool = 6 // weight[s] <= 2
action lay(k in sorted(left), area in placements(SHAPE[k], ground()))
    "Cover stones: one of yours at least, and no one with more."
    require all s in area: stone[s] != none else "an empty square"
    require k != tri or not (c1 in area) else "no tri on c1"
    require most(current, area) else "not your majority"
    for s in area
        set stone[s] = none
    remove k from left
action flagged(area in placements([[0, 0], [1, 0]], ground()))
    "Two squares, one of them flagged."
    require any s in area: s in flag else "no flag"
    for s in area
        set stone[s] = current
action counted(area in placements([[0, 0], [0, 1]], ground()))
    "Two squares, one of them heavy."
    require (count s in area where heavy(s)) > 0 else "nothing heavy"
    for s in area
        set weight[s] = 1
action risky(area in placements([[0, 0], [1, 0], [2, 0]], ground()))
    "A require that can fail comes first: nothing is pushed past it."
    require 6 // weight[area[0]] >= 1 else "no weight"
    require own(current, area) >= 1 else "none of yours"
action either(area in placements([[0, 0], [1, 0]], ground()))
    "Not a square to touch: the flag is needed only while there is one."
    require (any s in area: s in flag) or len(flag) == 0 else "no flag"
action always(area in placements([[0, 0]], ground()))
    "Not a square to touch: a count of at least 0 holds for every placement."
    require (count s in area where s in flag) >= 0 else "never"
action give(q in players, area in placements([[0, 0], [1, 0]], ground()))
    "Squares to touch that depend on another parameter are not worked out once."
    require own(q, area) >= 1 else "none of theirs"
action put(s: Sq)
    "A stone."
    set stone[s] = current
action mark(s: Sq)
    "A flag."
    add s to flag
action weigh(s: Sq, w in 0..3)
    "A weight: 0 makes heavy(s) fail there."
    set weight[s] = w
flow
    repeat 60 times
        for p in players
            turn p
                play lay, flagged, counted, risky, either, always, give, put, mark, weigh
"""


@pytest.fixture(scope="module")
def both() -> tuple[regelwerk.Ruleset, regelwerk.Ruleset]:
    touched = regelwerk.load_text(RULES, "touch.rules")
    return touched, without(lambda: regelwerk.load_text(RULES, "touch.rules"), pushdown, "touching")


def test_the_compiler_notes_the_requires_it_pushed_as_squares_to_touch(both):
    touched, plain = both
    assert _touching(touched) == {"most(current, area) into placements(SHAPE[k], ground())",
                    "any s in area: s in flag into placements([[0, 0], [1, 0]], ground())",
                    "(count s in area where heavy(s)) > 0 into placements([[0, 0], [0, 1]], ground())"}
    assert not _touching(plain)


POSITIONS = {
    "no stones": [],
    "a few stones": ["put(a1)", "put(b1)", "put(c1)", "put(a2)", "mark(b2)", "put(b2)"],
    "stones of all": ["put(a1)", "put(b1)", "put(c1)", "put(d1)", "put(a2)", "put(b2)", "put(c2)",
                      "put(d2)", "put(e1)", "mark(a1)", "weigh(c2, 3)", "put(e2)"],
    "heavy squares fail to evaluate off the placements": ["weigh(e4, 0)", "weigh(a1, 3)"],
}


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("moves", POSITIONS.values(), ids=POSITIONS.keys())
def test_the_same_moves_in_the_same_order(both, moves: list[str], record: bool):
    touched, plain = both
    a, b = touched.new_game(seed=1, record=record), plain.new_game(seed=1, record=record)
    for m in moves:
        assert _applied(a, m) == _applied(b, m)
    assert listed(a) == listed(b)


def _applied(g: regelwerk.Game, move: str) -> str:
    """The move played, or the rules' error (the next decision's listing can fail)."""
    try:
        g.apply(move)
    except regelwerk.RuleFailure as err:
        return f"error: {err}"
    return "played"


def test_a_condition_that_fails_on_a_square_of_a_placement_fails_the_listing_alike(both):
    """`heavy(s)` fails on a square of weight 0: where a placement covers it, the listing as
    written fails at the require, and so does the one that searches with squares to touch (its
    squares could not be worked out, so it runs the requires as written)."""
    touched, plain = both
    a, b = touched.new_game(seed=1), plain.new_game(seed=1)
    one, other = _applied(a, "weigh(a1, 0)"), _applied(b, "weigh(a1, 0)")
    assert one == other and one.startswith("error: touch.rules:30:") and "division by zero" in one


@pytest.mark.parametrize("seed", range(4))
def test_random_games_list_the_same_moves(both, seed: int):
    """Whole random games: every position lists the same moves (or fails the same way)."""
    touched, plain = both
    a, b = touched.new_game(seed=seed), plain.new_game(seed=seed)
    rnd = random.Random(seed)
    lays = 0
    for _ in range(150):
        if a.is_over:
            break
        moves_now = listed(a)
        assert moves_now == listed(b)
        if isinstance(moves_now, str):
            return
        lays += sum(m.startswith("lay(") for m in moves_now)
        move = rnd.choice([m for m in moves_now if not m.endswith(", 0)")])  # no failing weights
        a.apply(move)
        b.apply(move)
    assert lays > 0


def _touching(ruleset: regelwerk.Ruleset) -> set[str]:
    return {c.detail for c in ruleset.program(False).choices if c.kind == "touching"}


def test_a_require_that_can_fail_before_it_keeps_the_search_plain(both):
    """`risky` tests `6 // weight[...]` first: a placement skipped for touching none of the
    mover's stones would not have run it, so its own require is not pushed."""
    touched, _plain = both
    assert not any("own(current, area) >= 1" in d for d in _touching(touched))


@pytest.mark.parametrize("require", ["(any s in area: s in flag) or len(flag) == 0",
                                     "(count s in area where s in flag) >= 0", "own(q, area) >= 1"])
def test_requires_that_need_no_square_to_touch_keep_the_search_plain(both, require: str):
    """An `or`, a count of at least 0, and squares that depend on another parameter."""
    touched, _plain = both
    assert require in RULES
    assert not any(d.startswith(require) for d in _touching(touched))


def test_the_rules_can_ask_for_it_themselves():
    """`placements_touching` is a library function of the language too."""
    text = RULES.replace("action flagged(area in placements([[0, 0], [1, 0]], ground()))",
                         "action flagged(area in placements_touching([[0, 0], [1, 0]], ground(), flag))")
    r = regelwerk.load_text(text, "own.rules")
    g = r.new_game(seed=1)
    g.apply("mark(b2)")
    flagged = [m for m in listed(g) if m.startswith("flagged(")]
    assert flagged == ["flagged([a2, b2])", "flagged([b1, b2])", "flagged([b2, b3])", "flagged([b2, c2])"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_khan_lists_the_same_conquests(players: int):
    """Khan's `conquer`: `has_majority(current, area)` as squares to touch (the mover's
    yurts), past the bridge's require (which cannot fail); the same moves at every
    position of random games as without it."""
    path = "rulesets/khan/khan.rules"
    touched = regelwerk.load(path)
    assert any(c.kind == "touching" and c.detail.startswith("has_majority(current, area)")
               for c in touched.program(False).choices)
    plain = without(lambda: regelwerk.load(path), pushdown, "touching")
    conquests = 0
    for seed in range(2):
        a, b = touched.new_game(players=players, seed=seed), plain.new_game(players=players, seed=seed)
        rnd = random.Random(seed)
        while not a.is_over:
            moves_now = [str(m) for m in a.legal_actions()]
            assert moves_now == [str(m) for m in b.legal_actions()]
            conquests += sum(m.startswith("conquer(") for m in moves_now)
            move = rnd.choice(moves_now)
            a.apply(move)
            b.apply(move)
    assert conquests > 100


# ---------------------------------------------------------------- fixed parts of a comprehension
# Khan's `layable(t)` reads `TILES[t].bridge` for each of 144 squares, behind an `or`: worked out
# once ahead of the comprehension, but only a part that cannot fail to evaluate (total.py), for
# the comprehension may never reach it.

FIXED = """players Ann, Bob
board Sq = grid 3 x 2
enum Kind = plain, odd
state
    stone: Sq -> Player? = none
    order: list Sq = []
    kind: Kind = plain
    oddness: Kind -> bool = false
define open_or_odd(k: Kind): list Sq = list s in Sq where stone[s] == none or oddness[k]
define open_or_far: list Sq = list s in Sq where stone[s] == none or order[0] == a1
define open_or_split(n: int): list Sq = list s in Sq where stone[s] == none or 6 // n > 1
action pick(s in open_or_odd(kind))
    "Any open square, or any square while the kind is odd."
    set stone[s] = current
action far(s in open_or_far())
    "order[0] fails, but only once a square is taken."
    set stone[s] = current
action split(n in 0..1, s in open_or_split(n))
    "6 // 0 fails, but only once a square is taken."
    set stone[s] = current
action flip
    "The odd kind, which is odd."
    set kind = odd
    set oddness[odd] = true
flow
    repeat 12 times
        for p in players
            turn p
                play pick, far, split, flip
"""


def test_a_fixed_part_that_cannot_fail_is_worked_out_once():
    r = regelwerk.load_text(FIXED, "fixed.rules")
    fixed = {c.detail for c in r.program(False).choices if c.kind == "fixed part"}
    assert fixed == {"oddness[k] in list s in Sq where stone[s] == none or oddness[k]"}


def test_fixed_parts_change_no_move_and_no_error():
    """No square taken: `order[0]` and `6 // 0` are never reached, so every move is listed,
    with and without the transform (worked out ahead, they would fail); once a square is
    taken, both fail at the same rule."""
    from regelwerk.interpreter.compiler import codegen

    fixed = regelwerk.load_text(FIXED, "fixed.rules")
    plain = without(lambda: regelwerk.load_text(FIXED, "fixed.rules"), codegen.CodeGen, "fixed_once", [])
    a, b = fixed.new_game(seed=1), plain.new_game(seed=1)
    assert listed(a) == listed(b) and "split(0, a1)" in listed(a) and "far(c2)" in listed(a)
    assert _applied(a, "flip") == _applied(b, "flip") == "played"
    assert listed(a) == listed(b)
    one, other = _applied(a, "pick(c2)"), _applied(b, "pick(c2)")
    assert one == other and one.startswith("error: ") and "fixed.rules:" in one


def test_kept_rows_read_in_place_give_the_rows_of_the_table():
    """A prefiltered domain read from its table in place (no call at each use) gives what
    `_kept_rows` gives, an empty row too."""
    from regelwerk.interpreter.compiler.codegen import kept_rows
    from regelwerk.interpreter.engine.runtime import _kept_rows

    table: dict = {(1,): [], (2,): ["a"]}
    for key in [(1,), (2,), (3,)]:
        code = kept_rows("T", repr(key), "['made']", "['dom']")
        got = eval(code, {"T": dict(table), "_kept_rows": _kept_rows})  # noqa: S307 - generated text
        assert got == _kept_rows(dict(table), key, lambda: ["made"], lambda: ["dom"])


# ---------------------------------------------------------------- bounded parameters
def test_the_squares_of_a_placement_are_not_charged_to_the_work_budget():
    """A parameter drawn from a bounded domain (`placements(...)`: lists of at most the board's
    squares) is bounded, as an aggregate's variable is, and so is a definition's parameter
    that receives it (`own(q, area)`) and an aggregate helper's: looping over its squares
    costs no work, where before each loop was charged (Khan's listing charged six a placement).
    The domains themselves (a board, a placement search) were bounded already."""
    r = regelwerk.load_text(RULES, "touch.rules")
    g = r.new_game(seed=1)
    for m in ["put(a1)", "put(b1)", "mark(b1)", "put(c1)"]:
        g.apply(m)
    prog = r.program(False)
    for action in ["lay", "flagged", "counted", "give"]:
        before = g.work
        moves: list = []
        prog.actions[action].enum(g, moves)
        assert g.work == before, action
        assert moves or action == "counted"


def test_a_product_may_fail_and_a_sum_may_not():
    """`*` past runtime.MAX_BITS is the rules' failure (runtime._mul): not something a listing
    may skip; `+` and `-` of whole numbers cannot fail."""
    from regelwerk.interpreter.compiler.total import cannot_fail

    r = regelwerk.load_text('game "Sums"\nplayers A, B\ndefine sum(a: int) = a + a - 1\n'
                            'define product(a: int) = a * a\nflow\n    finish draw\n', "sums.rules")
    m = r.model
    assert cannot_fail(m, m.defines["sum"].value)
    assert not cannot_fail(m, m.defines["product"].value)
