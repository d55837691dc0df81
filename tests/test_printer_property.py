"""fmt round-trips: for generated expressions and statements, parse(print(ast)) == ast."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from regelwerk.dsl import ast as A
from regelwerk.dsl.parse import parse_text
from regelwerk.dsl.printer import expr_text, print_module

S = A.NO_SPAN
names = st.sampled_from(["x", "y", "cell", "score", "a1", "Blue", "n"])


def _exprs() -> st.SearchStrategy:
    leaves = st.one_of(
        st.integers(0, 99).map(lambda v: A.IntLit(S, v)),
        st.text("abc ", max_size=4).map(lambda v: A.StrLit(S, v)),
        st.booleans().map(lambda v: A.BoolLit(S, v)),
        st.just(A.NoneLit(S)),
        names.map(lambda n: A.Name(S, n)),
    )

    def extend(inner: st.SearchStrategy) -> st.SearchStrategy:
        return st.one_of(
            st.tuples(st.sampled_from(["+", "-", "*", "//", "%"]), inner, inner).map(lambda t: A.BinOp(S, *t)),
            st.tuples(st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "in", "not in"]), inner, inner)
            .map(lambda t: A.Compare(S, *t)),
            st.tuples(st.sampled_from(["and", "or"]), st.lists(inner, min_size=2, max_size=3))
            .map(lambda t: A.BoolOp(S, t[0], tuple(t[1]))),
            inner.map(lambda e: A.Not(S, e)),
            inner.map(lambda e: A.Neg(S, e)),
            st.tuples(inner, inner).map(lambda t: A.Index(S, *t)),
            st.tuples(inner, names).map(lambda t: A.Field(S, *t)),
            st.tuples(names, st.lists(inner, max_size=2)).map(lambda t: A.Call(S, t[0], tuple(t[1]))),
            st.lists(inner, max_size=3).map(lambda xs: A.ListLit(S, tuple(xs))),
            st.tuples(inner, inner).map(lambda t: A.Range(S, *t)),
            st.tuples(inner, inner, inner).map(lambda t: A.CondExpr(S, *t)),
            st.tuples(st.sampled_from(["all", "any", "count", "sum", "max", "list", "first"]), names, inner,
                      st.none() | inner, inner).map(lambda t: A.Aggregate(S, *t)),
        )

    return st.recursive(leaves, extend, max_leaves=12)


EXPRS = _exprs()


def _flatten_boolops(e):
    """The parser flattens `a or (b or c)` into one BoolOp: normalise generated trees the same way."""
    if isinstance(e, A.BoolOp):
        items = []
        for x in e.items:
            x = _flatten_boolops(x)
            if isinstance(x, A.BoolOp) and x.op == e.op:
                items.extend(x.items)
            else:
                items.append(x)
        return A.BoolOp(S, e.op, tuple(items))
    if isinstance(e, A.Node):
        kwargs = {}
        for name in e.__dataclass_fields__:
            v = getattr(e, name)
            if isinstance(v, A.Node):
                v = _flatten_boolops(v)
            elif isinstance(v, tuple):
                v = _flatten_tuple(v)
            kwargs[name] = v
        return type(e)(**kwargs)
    return e


def _flatten_tuple(t: tuple) -> tuple:
    return tuple(_flatten_tuple(x) if isinstance(x, tuple) else _flatten_boolops(x) for x in t)


@settings(max_examples=300, deadline=None)
@given(EXPRS)
def test_expressions_round_trip(expr):
    text = f"const c = {expr_text(expr)}\n"
    parsed = parse_text(text, "gen.rules").decls[0].value
    assert parsed == _flatten_boolops(expr)


@settings(max_examples=100, deadline=None)
@given(EXPRS, EXPRS, names)
def test_statements_round_trip(a, b, n):
    body = (
        A.SetStmt(S, A.Target(S, n, (a,)), b),
        A.IfStmt(S, ((a, (A.AddStmt(S, b, A.Target(S, n, ())),)),), (A.LogStmt(S, "x"),)),
        A.ForStmt(S, n, a, (A.RequireStmt(S, b, "why"),)),
    )
    mod = A.Module(S, "gen.rules", (A.ProcedureDecl(S, "p", (), A.Provenance("Een zin.", ("f.txt:1-2",), ("X-1",), "Onze lezing."), body),))
    again = parse_text(print_module(mod), "gen.rules")
    assert again.decls == tuple(_flatten_boolops(d) for d in mod.decls)
    assert print_module(again) == print_module(A.Module(S, "gen.rules", again.decls))
    text = print_module(again)
    assert print_module(parse_text(text, "gen.rules")) == text
