"""`let` lines in a definition's body (docs/language.md §3.10): a name for a part of the value,
worked out once. Parsing, types and scope, evaluation (in lines, in one expression, in an
explanation), traced and untraced play alike, `regelwerk fmt`, the hidden-state check and the
language server."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from regelwerk.dsl import ast as A
from regelwerk.dsl.check_hidden import HiddenLegality
from regelwerk.dsl.parse import parse_text
from regelwerk.dsl.printer import print_module
from regelwerk.interpreter.compiler.compile import compile_explained, compile_expr

import regelwerk
from regelwerk import RulesError

ROOT = Path(__file__).resolve().parent.parent
CHECKERS = ROOT / "rulesets/classic/checkers.rules"

RULES = """players A, B

board Square = grid 3 x 3

state
    n: int = 0
    owner: Square -> Player? = none

# the sum of the squares up to k, and k itself
define squares_to(k: int): int =
    let sq = k * k
    let before = if k <= 1 then 0 else squares_to(k - 1)
    sq + before

define spare(s: Square) =
    let o = owner[s]
    o == none or o == current

define ranked =
    let mine = count s in Square where owner[s] == current
    let theirs = count s in Square where owner[s] != none and owner[s] != current
    [mine, theirs, mine - theirs]

define shadowing(n2: int) =
    let n2 = n2 + 1
    let n2 = n2 * 10
    n2

action take(s: Square)
    require spare(s) else "taken by the other"
    require owner[s] == none else "already yours"
    set owner[s] = current
    set n = squares_to(ranked()[0])
    if ranked()[0] == 3
        finish winner current

flow
    repeat
        turn
            play take

scenario "let lines work out their value"
    expect squares_to(3) == 14
    expect shadowing(1) == 20
    do take(a1)
    expect n == 1
    expect ranked() == [0, 1, -1]
    expect illegal take(a1) because "taken by the other"
"""


def _load(text: str) -> regelwerk.Ruleset:
    return regelwerk.load_text(text, "let.rules")


def _errors(text: str) -> list[tuple[str, int, str]]:
    with pytest.raises(RulesError) as err:
        _load(text)
    return [(d.code, d.span.line, d.message) for d in err.value.diagnostics]


def _line(text: str, needle: str) -> int:
    """The 1-based line of the first line of `text` holding `needle`."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def _define(module: A.Module, name: str) -> A.DefineDecl:
    return next(d for d in module.decls if isinstance(d, A.DefineDecl) and d.name == name)


# ------------------------------------------------------------------ parsing
def test_let_lines_parse_to_nested_let_expressions():
    d = _define(parse_text(RULES, "let.rules"), "squares_to")
    assert isinstance(d.value, A.LetExpr) and d.value.name == "sq"
    inner = d.value.body
    assert isinstance(inner, A.LetExpr) and inner.name == "before"
    assert isinstance(inner.value, A.CondExpr)
    assert isinstance(inner.body, A.BinOp) and inner.body.op == "+"
    assert (d.value.span.line, inner.span.line, inner.body.span.line) == (11, 12, 13)


def test_a_let_line_needs_a_value_after_it():
    text = RULES.replace("    [mine, theirs, mine - theirs]\n", "")
    with pytest.raises(RulesError) as err:
        _load(text)
    (d,) = err.value.diagnostics
    assert (d.code, d.span.line, d.message) == ("E003", _line(text, "let theirs"),
                                                "a definition's 'let' lines need its value after them")


# ------------------------------------------------------------------ types and scope
def test_the_local_has_its_value_s_type_and_the_definition_the_body_s():
    r = _load(RULES)
    m = r.model
    assert str(m.define_types["ranked"]) == "list int"
    assert str(m.define_types["spare"]) == "bool"
    le = m.defines["spare"].value
    assert str(m.type_of(le.value)) == "Player?"


def test_a_declared_type_is_checked_against_the_value_below_the_let_lines():
    text = RULES.replace("define squares_to(k: int): int =", "define squares_to(k: int): bool =")
    errs = [e for e in _errors(text) if e[0] == "E216" and "declared" in e[2]]
    assert errs == [("E216", 13, "'squares_to' is declared bool, but its value is int")]


def test_a_local_is_typed_where_it_is_used():
    text = RULES.replace("    sq + before\n", "    sq + (before > 2)\n")
    assert ("E207", 13, "'+' needs numbers, not bool") in _errors(text)


def test_a_local_is_unknown_outside_its_definition():
    text = RULES.replace("    set n = squares_to(ranked()[0])", "    set n = sq")
    errs = _errors(text)
    assert ("E202", _line(text, "set n = sq"), "unknown name 'sq'") in errs


def test_a_local_is_unknown_in_its_own_value():
    text = RULES.replace("    let sq = k * k", "    let sq = sq * k")
    assert ("E202", 11, "unknown name 'sq'") in _errors(text)


def test_a_local_may_not_hide_a_state_variable_or_constant():
    text = RULES.replace("    let sq = k * k\n    let before", "    let n = k * k\n    let before")
    text = text.replace("    sq + before", "    n + before")
    assert ("E217", 11, "'let n' would hide the state or constant 'n'") in _errors(text)


def test_a_local_may_not_take_a_built_in_name():
    text = RULES.replace("let sq = k * k", "let round = k * k").replace("    sq + before", "    round + before")
    assert any(c == "E101" and line == 11 and "'round' is a built-in name" in msg for c, line, msg in _errors(text))


def test_chance_in_a_let_line_is_refused_with_the_way_out():
    text = RULES.replace("let sq = k * k", "let sq = roll(1, 6)")
    errs = [e for e in _errors(text) if e[0] == "E215"]
    assert errs == [("E215", 11, "'roll' draws on chance, and a definition may not: use it in a rule, as "
                     "the statement 'let sq = roll(...)', and pass the value to the definition")]


def test_a_test_on_a_local_narrows_it():
    """`o == none or o == current`: no E245, and `owner[s]` read once into `o`."""
    text = RULES.replace("    o == none or o == current", "    o == none or column(s) + 0 < 9 and o == current")
    _load(text)  # checks clean
    bad = RULES.replace("    o == none or o == current", "    o.x == 1")
    assert any(c in ("E245", "E206") for c, _l, _m in _errors(bad))


# ------------------------------------------------------------------ evaluation
def test_the_values_and_the_scenario(tmp_path, capsys):
    from regelwerk.cli import main

    r = _load(RULES)
    g = r.new_game()
    assert g.prog.expr(parse_text("const x = squares_to(4)\n", "e").decls[0].value)(g) == 30
    path = tmp_path / "let.rules"
    path.write_text(RULES, encoding="utf-8")
    assert main(["test", str(path)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "1 passed, 0 failed"


def test_one_expression_form_and_the_explanation_agree_with_the_lines():
    """A `let` compiled as one expression (where the code generator cannot write statements)
    and in an explanation gives the same value; the explanation shows the local's value."""
    r = _load(RULES)
    g = r.new_game()
    g.apply("take(b2)")
    prog = r.program(False)
    value = r.model.defines["ranked"].value
    want = g.prog.expr(A.Call(value.span, "ranked", ()))(g)
    assert compile_expr(prog, value)(g) == want == [0, 1, -1]
    got, subs = compile_explained(prog, value)(g)
    assert got == want
    shown = dict(subs)
    assert shown["mine"] == 0 and shown["theirs"] == 1 and shown["mine - theirs"] == -1


def test_a_let_in_a_comprehension_s_iterable_compiles():
    """Python allows no assignment expression in a comprehension's iterable: a `let` there
    (only the compiler puts one there) becomes a lambda's parameter."""
    r = _load(RULES)
    le = r.model.defines["ranked"].value
    span = le.span
    # list q in (let mine = ...: [mine, mine]): q + 1
    domain = A.LetExpr(span, "mine", le.value, A.ListLit(span, (A.Name(span, "mine"), A.Name(span, "mine"))))
    agg = A.Aggregate(span, "list", "q", domain, None, A.BinOp(span, "+", A.Name(span, "q"), A.IntLit(span, 1)))
    g = r.new_game()
    g.apply("take(b2)")
    g.apply("take(a1)")
    prog = r.program(False)
    assert compile_expr(prog, agg)(g) == [2, 2]
    got, subs = compile_explained(prog, agg)(g)
    assert got == [2, 2]


def test_traced_and_untraced_games_agree():
    r = regelwerk.load(CHECKERS)
    for seed in range(6):
        rnd_a, rnd_b = random.Random(seed), random.Random(seed)
        a, b = r.new_game(seed=seed, record=True), r.new_game(seed=seed, record=False)
        while not a.is_over:
            la, lb = a.legal_actions(), b.legal_actions()
            assert [str(x) for x in la] == [str(x) for x in lb]
            a.apply(rnd_a.choice(la))
            b.apply(rnd_b.choice(lb))
        assert b.is_over and a.vars == b.vars and a.result == b.result


def test_checkers_keeps_its_perft_counts_with_let_lines():
    from regelwerk.interpreter.tools.agents import perft

    r = regelwerk.load(CHECKERS)
    assert any(isinstance(d.value, A.LetExpr) for d in r.model.defines.values())
    assert [perft(r.new_game(), d) for d in (1, 2, 3, 4, 5)] == [7, 49, 302, 1469, 7361]


# ------------------------------------------------------------------ fmt
def test_fmt_writes_let_lines_and_reads_them_back():
    module = parse_text(RULES, "let.rules")
    text = print_module(module, RULES)
    assert "define squares_to(k: int): int =\n    let sq = k * k\n    let before = " in text
    assert "# the sum of the squares up to k, and k itself\ndefine squares_to" in text
    again = parse_text(text, "let.rules")
    assert again == module
    assert print_module(again, text) == text


def test_a_comment_between_let_lines_stays_there():
    text = RULES.replace("    let before =", "    # the squares below k\n    let before =")
    out = print_module(parse_text(text, "let.rules"), text)
    assert "    let sq = k * k\n    # the squares below k\n    let before = " in out


# ------------------------------------------------------------------ hidden state
HIDDEN = """players A, B

state
    hand: Player -> list int = [] hidden except owner
    secret: int = 3 hidden

define mine_big =
    let h = hand[current]
    len(h) > 2

define theirs_big(p: Player) =
    let h = hand[other(p)]
    len(h) > 2 and h[0] > 1

define peek =
    let s = secret
    s > 2

action own
    require mine_big()
    finish winner current

action other_hand
    require theirs_big(current)
    finish winner current

action sneak
    require peek()
    finish winner current

flow
    repeat
        turn
            play own, other_hand, sneak
"""


def test_a_local_carries_what_its_value_reads_to_the_hidden_state_check():
    with pytest.raises(RulesError) as err:
        _load(HIDDEN)
    got = sorted((d.span.line, d.message) for d in err.value.diagnostics if d.code == "E247")
    assert [line for line, _m in got] == [24, 28]
    assert "'hand[other(p)], read by theirs_big(...)' is hidden" in got[0][1]
    assert "'secret, read by peek(...)' is hidden" in got[1][1]


def test_hidden_check_binds_the_local_for_its_body_only():
    m = _load(HIDDEN.replace("    require theirs_big(current)\n", "").replace(
        "    require peek()\n", "")).model
    found = []
    HiddenLegality(m, lambda *a: found.append(a)).run()
    assert found == []


# ------------------------------------------------------------------ language server
def test_the_language_server_knows_the_local(tmp_path):
    pytest.importorskip("pygls")
    from regelwerk.lsp.analysis import analyse
    from regelwerk.lsp.hover import hover_md
    from regelwerk.lsp.navigation import definition
    from regelwerk.lsp.rename import rename
    from regelwerk.lsp.specs import SpecInventory
    from regelwerk.lsp.store import Store, norm

    path = norm(str(tmp_path / "let.rules"))
    Path(path).write_text(RULES, encoding="utf-8")
    an = analyse(Store(), path)
    lines = RULES.splitlines()
    use_line = 13  # `    sq + before`
    assert lines[use_line - 1] == "    sq + before"
    (loc,) = definition(an, path, use_line, 5)
    assert (loc.line, loc.column) == (11, 9)  # `let sq`
    md = hover_md(an, SpecInventory(), path, use_line, 5)
    assert md is not None and "(local) sq" in md and "let sq = k * k" in md
    edits = rename(an, path, use_line, 5, "area")
    assert sorted((x.line, x.column) for x in edits[path]) == [(11, 9), (13, 5)]
    # `before` of the other definition is another name
    edits = rename(an, path, use_line, 10, "below")
    assert sorted((x.line, x.column) for x in edits[path]) == [(12, 9), (13, 10)]


REBIND = """players A, B

const XS = [1, 2, 3, 0]

state
    n: int = 0

define pick(i: int) =
    let i = XS[i]
    XS[i]

action go
    set n = pick(0)
    finish winner current

flow
    repeat
        turn
            play go
"""


def test_a_part_of_the_body_that_reads_a_rebound_name_is_not_the_same_part_of_the_value():
    """`XS[i]` in the value reads the parameter, in the body the local: a definition inlined
    where it is called works each out on its own (interpreter/compiler/hoist.py)."""
    r = _load(REBIND)
    for record in (False, True):
        g = r.new_game(record=record)
        g.apply("go")
        assert g.vars["n"] == 2  # XS[XS[0]]


# ------------------------------------------------------------------ every walker
def test_every_table_of_expression_handlers_has_one_for_a_let():
    """The printer, the checker and the code generator each pick a handler per node class; a
    class without its own would fall to a base class's ("cannot compile LetExpr")."""
    from regelwerk.dsl import printer
    from regelwerk.dsl.check_expr import ExprChecker
    from regelwerk.interpreter.compiler.codegen import CodeGen

    for table in (printer._EXPR, ExprChecker._EXPR, CodeGen._EXPRS):
        assert A.LetExpr in table._handlers, table.what


# modules that walk expressions with names bound inside them (an aggregate's variable) and
# need not know a definition's `let`, with the reason
_NO_SCOPES = {
    "dsl/sugar.py": "builds aggregates, walks none",
    "interpreter/compiler/machine.py": "matches the `one per` sugar's shape (one_per_parts), walks none",
    "interpreter/compiler/optionsunrolled.py": "matches a `choose` over a filtered list's shape; "
                                               "its filter is compiled by CodeGen in its scope, walks none",
}


def test_every_walker_that_knows_an_aggregate_s_variable_knows_a_let():
    """A walker that binds an aggregate's variable (its scope: `.var`) and not a `let`'s name
    reads a local as a global of the same name, or misses it. Each such module names LetExpr."""
    import re

    missing = []
    for folder in ("dsl", "interpreter", "regelwerk"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            text = path.read_text(encoding="utf-8")
            if "A.Aggregate" in text and re.search(r"\.var\b", text) and "LetExpr" not in text \
                    and rel not in _NO_SCOPES and "isinstance" in text:
                missing.append(rel)
    assert missing == []


SYMMETRIC = """players A, B

board Square = grid 3 x 3

state
    cell: Square -> Player? = none

define free_near(s: Square) =
    let around = neighbours(s)
    count t in around where cell[t] == none

action put(s: Square)
    require cell[s] == none and free_near(s) >= 0
    set cell[s] = current

flow
    repeat 9 times
        turn
            play put
"""


def test_symmetry_reads_the_local_s_type():
    """A `let` line holding squares is read like any expression: indexing its list of squares
    depends on the board's order, so the board's symmetries are not used."""
    from regelwerk.interpreter.tools.symmetry import board_symmetries

    prog = _load(SYMMETRIC).program(False)
    assert board_symmetries(prog.model, prog.boards).maps
    indexed = SYMMETRIC.replace("    count t in around where cell[t] == none",
                                "    if around == [] then 0 else (if cell[around[0]] == none then 1 else 0)")
    prog = _load(indexed).program(False)
    why = board_symmetries(prog.model, prog.boards).reason
    assert why == f"the rules index a list of squares (line {_line(indexed, 'cell[around[0]]')}), whose order is the board's"


UMPIRE = """players A, B

umpire "the umpire knows the secret"

state
    secret: int = 3 hidden
    n: int = 0

define peek = secret > 2

define peeks_too =
    let peek = 1
    peek == 1 and peek()

define peeks_three = any peek in [1]: peek()

action go
    require peeks_too()
    set n = 1
    finish winner current

flow
    repeat
        turn
            play go
"""


def test_a_local_named_as_a_definition_does_not_unmask_the_definition_s_secret():
    """`let peek = 1` beside a call of the secret definition `peek()`: the name the local
    binds is not the call's, so `peeks_too()` reads hidden state and its value in a check is
    masked for the other player (before, the local's name struck the call's from the names
    read, and the value was shown; an aggregate's variable did the same)."""
    from regelwerk.interpreter.observe.secrets import secrets_of
    from regelwerk.interpreter.observe.visibility import HIDDEN
    from regelwerk.interpreter.tools.trace import filter_step

    r = _load(UMPIRE)
    assert {"peeks_too", "peeks_three"} <= secrets_of(r.model).secret_defines
    g = r.new_game(record=True)
    g.apply("go")
    step = next(s for s in g.trace if s.get("rule") == "go")
    assert step["checks"][0]["values"]["peeks_too()"] is True
    assert filter_step(step, "B", r.model)["checks"][0]["values"]["peeks_too()"] == HIDDEN
