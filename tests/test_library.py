"""The library table (interpreter/stdlib/library.py): every entry has an implementation of its kind,
and the functions behave as documented when called from rules."""

from __future__ import annotations

from regelwerk.interpreter.stdlib.boards import Boards
from regelwerk.interpreter.stdlib.library import LIBRARY

import regelwerk


def test_every_entry_is_implemented_by_its_kind():
    boards = Boards({}, {}, None)
    for name, b in LIBRARY.items():
        assert b.kind in ("pure", "board", "game", "chance"), name
        fn = b.bind(boards)
        assert callable(fn), name
        if b.kind == "board":
            assert getattr(fn, "__self__", None) is boards, name
        assert b.min_args <= b.max_args, name


def _eval(text: str, players: str = "A, B, C"):
    rules = f"players {players}\nboard Sq = grid 4 x 3\nconst v = {text}\nflow\n    finish draw\n"
    r = regelwerk.load_text(rules, "lib.rules")
    return r.program(False).constants({})["v"]


def test_library_values_from_rules():
    assert _eval("ceil_div(7, 2)") == 4
    assert _eval("flatten([[1, 2], [3]])") == [1, 2, 3]
    assert _eval("values({a1: 3, b1: 4})") == [3, 4]
    assert _eval("matching_size([[a1], [a1, b1], [b1]])") == 2
    assert _eval("ray(a1, NE)") == ["b2", "c3"]
    assert _eval("neighbour(d3, E)") is None
    assert _eval("rotate_cw(NW)") == "N"
    assert _eval("len(lines_through(b2, 3))") == 5  # two rows, a column, two diagonals
    assert _eval("column_squares(2)") == ["b1", "b2", "b3"]
    assert _eval("relative_majority({a1: 2, b1: 2, c1: 1})") == ["a1", "b1"]
    assert _eval("nth_largest([5, 5, 3, 1], 2)") == 3
    assert _eval("placements([[0, 0], [1, 0]], [a1, b1, a2])") == [["a1", "a2"], ["a1", "b1"]]
    assert _eval("components([a1, b1, d1, d2])") == [["a1", "b1"], ["d1", "d2"]]


def test_seat_functions_need_a_game():
    rules = ("players A, B, C\nstate\n    r: list Player = []\n"
             "flow\n    set r = players_from(B) + [previous_player(A), next_player(C)]\n    finish draw\n")
    g = regelwerk.load_text(rules, "seats.rules").new_game(players=3)
    assert g.vars["r"] == ["B", "C", "A", "C", "A"]


def test_possible_asks_whether_an_action_has_a_legal_move():
    rules = ("players A, B\nboard Sq = grid 2 x 1\nstate\n    taken: Sq -> Player? = none\n"
             "    seen: list bool = []\n"
             "action take(s: Sq)\n    require taken[s] == none\n    set taken[s] = current\n"
             "    add possible(take) to seen\n"
             "flow\n    repeat\n        turn\n            if not possible(take, current)\n"
             "                finish draw\n            play take\n")
    g = regelwerk.load_text(rules, "possible.rules").new_game()
    g.apply("take(a1)")
    g.apply("take(b1)")
    assert g.vars["seen"] == [True, False]
    assert g.is_over and g.winners == []


def test_lists_compare_like_words_in_a_dictionary():
    assert _eval("[3, 2] > [3, 1, 5]") is True
    assert _eval("[2] < [2, 0]") is True


def test_map_aggregate_builds_a_map():
    assert _eval("map p in [a1, b1, c1] where p != b1: column(p) * 10") == {"a1": 10, "c1": 30}


def test_every_library_function_shows_how_it_is_called():
    """The call text the editor shows (completion, hover) names the parameters and marks the
    optional ones, and agrees with the argument counts the checker enforces."""
    from regelwerk.interpreter.stdlib.library import LIBRARY

    assert LIBRARY["placements"].call_text == "placements(shape, allowed[, mirror])"
    assert LIBRARY["each_once"].call_text == "each_once(items, zones...)"
    for name, b in LIBRARY.items():
        text = b.call_text
        inner = text[len(name) + 1:-1]
        required = [p for p in inner.split("[")[0].split(", ") if p]
        assert len(required) == b.min_args, text
        assert inner.count("[") == (0 if inner.endswith("...") else b.max_args - b.min_args), text
