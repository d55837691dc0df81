"""`regelwerk fmt` breaks a line longer than the width (dsl/printer.py, WIDTH) at the outermost
form of its expression, in brackets the parser reads back to the same syntax tree; short lines
are left as they were. Idempotent and tree-preserving on every bundled ruleset."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from regelwerk.dsl import ast as A
from regelwerk.dsl import printer
from regelwerk.dsl.parse import parse_text
from regelwerk.dsl.printer import WIDTH, print_module
from test_printer_property import EXPRS, _flatten_boolops

from regelwerk.cli import main

ROOT = Path(__file__).resolve().parent.parent
ALL_RULES = sorted(list((ROOT / "rulesets").rglob("*.rules")) + list((ROOT / "tests/corpus/valid").rglob("*.rules")))
S = A.NO_SPAN


def _fmt(text: str, path: str = "x.rules") -> str:
    return print_module(parse_text(text, path), text)


@pytest.mark.parametrize("path", ALL_RULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_fmt_keeps_the_tree_and_is_idempotent_on_every_bundled_ruleset(path: Path):
    source = path.read_text(encoding="utf-8")
    module = parse_text(source, str(path))
    text = print_module(module, source)
    assert parse_text(text, str(path)).decls == module.decls
    assert _fmt(text, str(path)) == text


@pytest.mark.parametrize("path", ALL_RULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_only_what_cannot_break_is_longer_than_the_width(path: Path):
    """A longer line holds a text, a comment, or a list of names that the grammar gives no
    brackets (an enum's members, spec ids)."""
    source = path.read_text(encoding="utf-8")
    for line in _fmt(source, str(path)).splitlines():
        if len(line) > WIDTH:
            assert '"' in line or "#" in line or line.lstrip().startswith(("enum ", "spec ")), line


def test_checkers_series_from_breaks_before_else():
    text = (ROOT / "rulesets/classic/checkers.rules").read_text(encoding="utf-8")
    assert ("    (if crowned_by(p, path) or next == [] then [path]\n"
            "        else flatten(list q in next where q != none: series_from(p, path + [q])))\n") in _fmt(text)


HEAD = """players A, B

board Square = grid 8 x 8

state
    cell: Square -> Player? = none
    n: int = 0

"""
TAIL = """    set cell[s] = current
    finish winner current

flow
    repeat
        turn
            play put
"""

RULES = HEAD + """define near(s: Square) = list t in Square where distance(s, t) == 1 and cell[t] == none and row(t) > 1 and column(t) < 8

define table = {a1: row(a1) + column(a1) + 100, b2: row(b2) + column(b2) + 200, c3: row(c3) + column(c3) + 300, d4: 4}

action put(s: Square)
    require cell[s] == none and len(near(s)) > 0 and row(s) + column(s) > 2 and distance(s, a1) < 9 and n < 9 else "no"
    if cell[s] == none and len(near(s)) > 0 and row(s) + column(s) > 2 and distance(s, a1) < 9 and n < 99
        set n = if cell[s] == none then row(s) + column(s) + len(near(s)) + 12345 else row(s) * column(s) * 2
""" + TAIL

WANT = HEAD + """define near(s: Square) =
    list t in Square where distance(s, t) == 1 and cell[t] == none and row(t) > 1 and column(t) < 8

define table =
    {
        a1: row(a1) + column(a1) + 100,
        b2: row(b2) + column(b2) + 200,
        c3: row(c3) + column(c3) + 300,
        d4: 4
    }

action put(s: Square)
    require (cell[s] == none
        and len(near(s)) > 0
        and row(s) + column(s) > 2
        and distance(s, a1) < 9
        and n < 9) else "no"
    if (cell[s] == none
            and len(near(s)) > 0
            and row(s) + column(s) > 2
            and distance(s, a1) < 9
            and n < 99)
        set n = (if cell[s] == none then row(s) + column(s) + len(near(s)) + 12345
            else row(s) * column(s) * 2)
""" + TAIL


def test_long_lines_break_at_and_before_else_and_after_commas():
    assert _fmt(RULES) == WANT
    assert _fmt(WANT) == WANT
    assert parse_text(WANT, "x.rules").decls == parse_text(RULES, "x.rules").decls


def test_short_lines_stay_as_they_were():
    text = (ROOT / "rulesets/classic/tictactoe.rules").read_text(encoding="utf-8")
    assert _fmt(text) == text
    width, printer._width[0] = printer._width[0], 10**9
    try:
        unbounded = _fmt(RULES)
    finally:
        printer._width[0] = width
    short = [line for line in unbounded.splitlines() if len(line) <= WIDTH]
    assert all(line in _fmt(RULES).splitlines() for line in short)


def test_an_aggregate_breaks_after_its_colon_and_a_call_after_its_commas():
    text = ("players A, B\n\nconst xs = [1, 2, 3]\n\nconst total = sum x in xs where x > 1 and x < 100 and x != 50 and x != 51: "
            "max_of([x * 1000000, x + 2000000, x - 3000000, x // 4000000])\n")
    out = _fmt(text)
    assert out == ("players A, B\n\nconst xs = [1, 2, 3]\n\n"
                   "const total = (sum x in xs where x > 1 and x < 100 and x != 50 and x != 51:\n"
                   "    max_of([x * 1000000, x + 2000000, x - 3000000, x // 4000000]))\n")
    assert parse_text(out, "x").decls == parse_text(text, "x").decls


def test_a_long_head_fills_its_parameters_onto_lines():
    text = ("players A, B\n\naction a_rather_long_action_name(first_parameter in 1..3, second_parameter in 1..3, "
            "third_parameter in 1..3)\n    finish draw\n\nflow\n    repeat\n        turn\n            play a_rather_long_action_name\n")
    out = _fmt(text)
    assert ("action a_rather_long_action_name(first_parameter in 1..3, second_parameter in 1..3,\n"
            "        third_parameter in 1..3)\n    finish draw\n") in out
    assert parse_text(out, "x").decls == parse_text(text, "x").decls
    assert _fmt(out) == out


def test_play_else_stays_on_its_line():
    long_winner = "finish winner " + " + ".join(["other(current)"] * 1)
    text = ("players A, B\n\naction a\n    finish draw\n\nflow\n    repeat\n        turn\n            play a else "
            + long_winner + "\n")
    assert _fmt(text) == text


def test_the_command_wraps(tmp_path, capsys):
    f = tmp_path / "x.rules"
    f.write_text(RULES, encoding="utf-8")
    assert main(["fmt", "--check", str(f)]) == 1
    assert main(["fmt", str(f)]) == 0
    assert f.read_text(encoding="utf-8") == WANT
    assert main(["fmt", "--check", str(f)]) == 0
    assert main(["check", str(f)]) == 0


@pytest.fixture
def narrow():
    """A width small enough, and no expression too short to break, so that the generated
    expressions break everywhere."""
    saved = printer._width[0], printer._UNBROKEN
    printer._width[0], printer._UNBROKEN = 24, 0
    yield
    printer._width[0], printer._UNBROKEN = saved


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(EXPRS)
def test_narrow_expressions_round_trip(narrow, expr):
    mod = A.Module(S, "gen.rules", (A.ConstDecl(S, "c", expr),))
    text = print_module(mod)
    again = parse_text(text, "gen.rules")
    assert again.decls[0].value == _flatten_boolops(expr)
    canonical = print_module(again)  # `a and (b and c)` is read as one `and`: printed once so
    assert print_module(parse_text(canonical, "gen.rules")) == canonical


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(EXPRS, EXPRS, st.sampled_from(["x", "cell", "n"]))
def test_narrow_statements_round_trip(narrow, a, b, n):
    body = (
        A.SetStmt(S, A.Target(S, n, (a,)), b),
        A.IfStmt(S, ((a, (A.AddStmt(S, b, A.Target(S, n, ())),)),), (A.LogStmt(S, "x"),)),
        A.ForStmt(S, n, a, (A.RequireStmt(S, b, "why"),)),
        A.WhileStmt(S, b, (A.LetStmt(S, "q", a),)),
    )
    mod = A.Module(S, "gen.rules", (A.ProcedureDecl(S, "p", (), A.Provenance(), body),
                                    A.DefineDecl(S, "d", (), None, A.LetExpr(S, "k", a, b))))
    text = print_module(mod)
    again = parse_text(text, "gen.rules")
    assert again.decls == tuple(_flatten_boolops(d) for d in mod.decls)
    canonical = print_module(again)
    assert print_module(parse_text(canonical, "gen.rules")) == canonical


@pytest.mark.parametrize("path", ALL_RULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_bundled_ruleset_broken_everywhere_reads_back_the_same(narrow, path: Path):
    source = path.read_text(encoding="utf-8")
    module = parse_text(source, str(path))
    text = print_module(module, source)
    assert parse_text(text, str(path)).decls == module.decls
    assert _fmt(text, str(path)) == text
