"""Issue 22 ("Trust III"), one regression test per defect, each failing before its fix: a
ruleset that checks clean never fails for a reason the checker could see."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from bundled import BUNDLED
from regelwerk.dsl.diagnostics import RulesError
from regelwerk.interpreter.tools.scenario import run_scenarios
from test_docs import EXAMPLES

import regelwerk
from regelwerk.cli import main

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted((ROOT / "tests" / "corpus" / "valid").glob("*.rules"))


def run(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def errors(text: str) -> list[tuple[int, int, str, str]]:
    """(line, column, code, message) of every error `check` reports for `text`."""
    with pytest.raises(RulesError) as info:
        regelwerk.load_text(text, "t.rules")
    return [(d.span.line, d.span.column, d.code, d.message) for d in info.value.diagnostics
            if d.severity == "error"]


def play_out(ruleset: regelwerk.Ruleset, seed: int = 1, steps: int = 200, **kw) -> regelwerk.Game:
    game = ruleset.new_game(seed=seed, **kw)
    for i in range(steps):
        if game.is_over:
            break
        moves = game.legal_actions()
        game.apply(moves[(i * 7 + seed) % len(moves)])
    return game


# ---------------------------------------------------------------------- §1 valid rules that crash
CARDS = """\
players A, B

enum Card = J, Q, K, V, L, G, F, m, pc, out, legal, st, key, MISSING, E, SPANS

const RANK = {J: 1, Q: 2, K: 3, V: 4, L: 5, G: 6, F: 7}

state
    total: int = 0
    last: Card? = none

action take(c: Card)
    "the _cur mark is placed by out.append( and K"
    add (if c in RANK then RANK[c] else 1) to total
    set last = c
    log "the _cur mark is placed, V K J L _sv0 _kc0 _T1[p0][ out.append( return"
    if total > 12
        finish winner current

flow
    repeat
        turn
            play take
"""


def test_user_names_and_texts_are_not_captured_by_the_generated_code(capsys, tmp_path):
    """An enum member `K` was read as the generated code's constants binding `K`, so `run`
    ended in "AttributeError: '_ConstHolder' object has no attribute 'journal'"; a log text
    naming `_cur` was traced as "_mover"."""
    path = tmp_path / "cards.rules"
    path.write_text(CARDS, encoding="utf-8")
    code, out, err = run(capsys, "run", path, "--seed", 3, "--trace", tmp_path / "t.jsonl")
    assert code == 0 and "internal error" not in err, err
    ruleset = regelwerk.load(path)
    for record in (False, True):
        game = play_out(ruleset, record=record)
        assert game.is_over
    game = play_out(ruleset, record=True)
    logs = [ev["message"] for st in game.trace for ev in st.get("events") or () if ev.get("event") == "log"]
    assert logs and set(logs) == {"the _cur mark is placed, V K J L _sv0 _kc0 _T1[p0][ out.append( return"}
    assert {st["quote"] for st in game.trace if st.get("rule") == "take"} == {
        "the _cur mark is placed by out.append( and K"}


START_DIVISION = """\
players A, B
state
    x: int = 1 // 0
action go
    add 1 to x
flow
    turn
        play go
"""


@pytest.mark.parametrize(("text", "where", "code"), [
    (START_DIVISION, (3, 19), "E240"),
    ("players A, B\noption d: int = 0\nconst Q = 10 // d\nstate\n    x: int = Q\n"
     "flow\n    finish draw\n", (3, 17), "E240"),
    ("players A, B\nconst Z = 0\nstate\n    x: int = 5 % Z\nflow\n    finish draw\n", (4, 18), "E240"),
    ("players A, B\noption n: int = 3 // 0\nflow\n    finish draw\n", (2, 22), "E240"),
    ("players A, B\nconst XS = [1, 2]\nconst Y = XS[2]\nflow\n    finish draw\n", (3, 11), "E244"),
    ("players A, B\nenum C = a, b\nconst T = {a: 1}\nconst Y = T[b]\nflow\n    finish draw\n", (4, 11), "E244"),
])
def test_constant_values_are_worked_out_at_check_time(text, where, code):
    """`x: int = 1 // 0` checked clean and `run` ended in "internal error: ZeroDivisionError"
    (exit 70): start values, option defaults and constants are worked out when checking."""
    got = errors(text)
    assert [(line, col, c) for line, col, c, _m in got] == [(*where, code)], got


def test_a_start_value_that_fails_with_a_chosen_option_fails_located():
    """A start value that only fails for an option chosen at the start (not the default)
    is a located RuleFailure, never a Python error."""
    text = "players A, B\noption d: int = 1\nstate\n    x: int = 10 // d\nflow\n    finish draw\n"
    ruleset = regelwerk.load_text(text, "t.rules")
    with pytest.raises(regelwerk.RuleFailure) as info:
        ruleset.new_game(options={"d": 0})
    assert "t.rules:4" in str(info.value) and "division by zero" in str(info.value)


def _programs() -> list[tuple[str, str | Path]]:
    out: list[tuple[str, str | Path]] = [(name, path) for name, path in BUNDLED.items()]
    out += [(p.name, p) for p in CORPUS]
    out += [(where, text) for where, text in EXAMPLES]
    out.append(("none-compare", "players A, B\nenum Card = ace, king\nstate\n    x: int = 3\n"
                "action go(c: Card)\n    require c != none\n    require ace != none\n"
                "    require 3 != none and [1] != none and none == none\n    add 1 to x\n"
                "flow\n    turn\n        play go\n"))
    return out


@pytest.mark.parametrize(("name", "source"), _programs(), ids=[n for n, _s in _programs()])
def test_generated_code_compiles_without_warnings(name, source):
    """`require ace != none` made Python print `SyntaxWarning: "is not" with a literal` from
    the generated code: every program compiles with warnings as errors, traced and not, and
    the scenarios' expressions too."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ruleset = regelwerk.load(source) if isinstance(source, Path) else regelwerk.load_text(source, "d.rules")
        for record in (False, True):
            game = ruleset.new_game(record=record)
            for move in game.legal_actions()[:3]:
                game.explain(move)
        assert [r.name for r in run_scenarios(ruleset) if not r.passed] == []


# ---------------------------------------------------------------------- §2 type errors at run time
BASE = """\
players A, B
enum Col = red, blue
record Unit(size: int)
state
    warriors: int = 3
    supply: int = 0
    count: Col -> int = 0
    pick: Col? = none
    army: Player -> Unit? = none
    log_: list Col = []
procedure bump(n: int)
    add n to supply
procedure keep(c: Col)
    add c to log_
"""


def _game(body: str, options: str = "") -> str:
    return BASE + options + "action go\n" + "".join(f"    {line}\n" for line in body.splitlines()) + \
        "    finish draw\nflow\n    turn\n        play go\n"


@pytest.mark.parametrize(("options", "body", "where", "code"), [
    ("", "move [1, 2] from warriors to supply", (16, 10), "E216"),
    ('option goal: int = "ten"\n', "add goal to supply", (15, 20), "E216"),
    ("", "add 1 to count[pick]", (16, 20), "E245"),
    ("", "do bump([1, 2])", (16, 13), "E204"),
    ("", "do keep(pick)", (16, 13), "E245"),
    ("", "set army[current].size = 2", (16, 9), "E245"),
    ("", "add 1 to count[none]", (16, 20), "E245"),
    ("", "set supply = supply + (first c in log_: 1)", (16, 28), "E245"),
    ("", "if pick != none\n    set pick = none\n    add 1 to count[pick]", (18, 24), "E245"),
    ("", "if pick != none\n    do bump(1)\n    add 1 to count[pick]", (18, 24), "E245"),
    ("", "if pick == none or true\n    add 1 to count[pick]", (17, 24), "E245"),
    ("", "if let c = pick\n    log \"ok\"\nadd 1 to count[c]", (18, 20), "E202"),
])
def test_the_checker_refuses_what_would_fail_at_run_time(options, body, where, code):
    """Each of these checked clean and then failed inside a move with a Python error
    (`TypeError: unsupported operand type(s) for -: 'int' and 'list'`, `'>=' not supported
    between 'int' and 'str'`, `no entry None in the map or table`): now one located error. A
    test proves a value is not none only until something may change it (a write, a procedure)."""
    got = errors(_game(body, options))
    assert [(line, col, c) for line, col, c, _m in got] == [(*where, code)], got


@pytest.mark.parametrize("body", [
    "if pick != none\n    add 1 to count[pick]",
    "if let c = pick\n    add 1 to count[c]\n    do keep(c)",
    "if pick == none\n    log \"none\"\nelse\n    add 1 to count[pick]",
    "if pick == none\n    log \"none\"\nelif pick == red\n    add 1 to count[pick]",
    "if not (pick == none)\n    add 1 to count[pick]",
    "if pick != none and count[pick] > 0\n    log \"some\"",
    "if pick == none or count[pick] > 0\n    log \"some\"",
    "if pick in [red, blue]\n    add 1 to count[pick]",
    "if pick == none\n    set pick = red\nadd 1 to count[pick]",
    "if pick != none\n    add 1 to supply\n    add 1 to count[pick]",
    "set supply = if pick == none then 0 else count[pick]",
    "set supply = sum c in [pick, none, red] where c != none: count[c]",
    "if army[current] != none\n    set army[current].size = 2",
    "set pick = red\nadd 1 to count[pick]",
])
def test_a_test_shows_the_value_is_there(body):
    """The narrowing forms (`x != none`, `if let`, `else` of `== none`, `and`, `or`, `in`, a
    value just stored) let the rules use an optional where a value is needed, and the game runs."""
    ruleset = regelwerk.load_text(_game(body), "t.rules")
    game = ruleset.new_game(seed=1)
    game.apply("go")
    assert game.is_over


def test_require_shows_the_value_is_there_for_the_effect():
    text = BASE + "action go\n    require pick != none else \"nothing picked\"\n    add 1 to count[pick]\n" \
        "action choose_it(c: Col)\n    require pick == none\n    set pick = c\n" \
        "flow\n    repeat 2 times\n        turn\n            play go, choose_it\n"
    game = regelwerk.load_text(text, "t.rules").new_game(seed=1)
    assert [str(m) for m in game.legal_actions()] == ["choose_it(red)", "choose_it(blue)"]
    assert game.explain("go").reason.endswith("nothing picked")
    game.apply("choose_it(blue)")
    game.apply("go")
    assert game.vars["count"] == {"red": 0, "blue": 1}


def test_a_division_by_zero_worked_out_in_play_is_the_rules_failure():
    """A divisor that is 0 only while the game runs fails as the rules' own located error,
    never as Python's ZeroDivisionError."""
    ruleset = regelwerk.load_text(_game("set supply = warriors // supply"), "t.rules")
    game = ruleset.new_game(seed=1)
    with pytest.raises(regelwerk.RuleFailure) as info:
        game.apply("go")
    assert "t.rules:16:5" in str(info.value) and "division by zero" in str(info.value)
    assert "ZeroDivisionError" not in str(info.value)


@pytest.mark.parametrize(("decl", "where"), [
    ("option g: int = len(log_)\n", (15, 17)),
    ("define n_logged = len(log_)\nconst Q = n_logged() + 1\n", (16, 11)),
])
def test_fixed_values_do_not_read_state(decl, where):
    """Option defaults, constants and start values are worked out before the game has a state:
    reading one failed the first game with `no entry log_ in the map or table`."""
    got = errors(_game('log "x"', decl))
    assert [(line, col, c) for line, col, c, _m in got] == [(*where, "E246")], got
    got = errors(BASE.replace("    supply: int = 0", "    supply: int = len(log_)") +
                 "flow\n    finish draw\n")
    assert [(line, col, c) for line, col, c, _m in got] == [(6, 19, "E246")], got


def test_a_definition_s_value_fits_its_declared_type():
    got = errors(BASE + "define best(): int = pick\nflow\n    finish draw\n")
    assert [(line, col, c) for line, col, c, _m in got] == [(15, 22, "E216")], got


def test_a_list_started_from_a_type_s_values_is_a_list():
    """`deck: list Card = Card` started as the tuple of the type's values: the first `remove`
    from it failed with "cannot remove from tuple" (found writing Leduc hold'em)."""
    text = ("players A, B\nenum Card = c1, c2, c3\nstate\n    deck: list Card = Card\n"
            "    pile: set Card = Card\naction take(c in deck)\n    remove c from deck\n    remove c from pile\n"
            "flow\n    repeat 3 times\n        turn\n            play take\n")
    game = regelwerk.load_text(text, "t.rules").new_game(seed=1)
    assert game.vars["deck"] == ["c1", "c2", "c3"] and type(game.vars["deck"]) is list
    game.apply("take(c2)")
    assert game.vars["deck"] == ["c1", "c3"] and game.vars["pile"] == {"c1", "c3"}


TABLE = """\
players A, B
enum Col = red, blue, green
const VALUE = {red: 1, blue: 2}
state
    n: int = 0
    pick: Col = green
"""


@pytest.mark.parametrize(("body", "ok"), [
    ("add VALUE[pick] to n", False),
    ("add VALUE[green] to n", False),
    ("add VALUE[red] to n", True),
    ("if pick in VALUE\n    add VALUE[pick] to n", True),
    ("if pick in VALUE\n    set pick = green\n    add VALUE[pick] to n", False),
    ("set n = sum c in Col where c in VALUE: VALUE[c]", True),
    ("set n = sum c in Col: VALUE[c]", False),
])
def test_a_table_without_every_key_is_read_only_where_the_key_is_known_to_be_in_it(body, ok):
    """`VALUE[c]` with `VALUE` lacking a member of `c`'s type checked clean and failed a move
    with "no entry green in the map or table" (found by the battery once its classification
    read that form too): now E249 unless `c in VALUE` was tested."""
    text = TABLE + "action go\n" + "".join(f"    {line}\n" for line in body.splitlines()) + \
        "flow\n    turn\n        play go\n"
    if ok:
        game = regelwerk.load_text(text, "t.rules").new_game()
        game.apply("go")
    else:
        assert [code for _l, _c, code, _m in errors(text)] == ["E249"]
