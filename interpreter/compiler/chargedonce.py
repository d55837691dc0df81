"""A loop's fixed charges taken once, ahead of it (`charged once`): a pass over every block
(`B_n`) of a program, after the copies are made.

Why: a listing's scan charges the work budget at the top of every round, the length of a list
the loop does not change (Shogun's `assign(a: Act, q in provinces_of(current))` asks `all o in
plan[current]: o.act != a` for each act, and the same of `o.province` for each province; the
answers are kept, the charges are not):

    for p0 in _E370:
        _d372 = _h367
        _lw -= len(_d372)
        if _lw < 0:
            ...out_of_work
        ...

Six of some fifteen bytecodes a round, some 3,700 rounds a game. Here a `for` loop over a name
whose body starts with such a charge (an amount `len(H)` of a name the loop never binds, through
an alias bound just before it, or a literal), and whose other statements touch the counter only
in loops of that same form nested in it, is written twice:

    if _lw - len(_E370) * (len(_h367) + len(_dom368) * len(_h367)) >= 0:
        _lw -= len(_E370) * len(_h367)
        for p0 in _E370:
            _d372 = _h367
            ...                                   # the nested loop, likewise:
                _lw -= len(_dom368) * len(_h367)  # its rounds' charges at its top
                for p1 in _dom368: ...
    else:
        for p0 in _E370: ...                      # as it was

Sound because every charge is a length of something the loop does not change, so each nested
loop's rounds charge at most its length times its amount, and it runs at most once per round
around it: when the counter covers that bound, no round's test can find it below 0, the charges
add up to what they did (a `continue` skips nothing after them: they come first, and there is no
`break`), and nothing in the loop reads the counter between them. What the loop may do is
pinned: no `break`, `return`, `raise`, `try`, `while`, assignment expression or name of the game
`G`, and calls only to `len`, `map` and `append` / `extend` of a list the function made itself
(a display or comprehension, never put into a subscript: so neither the charged names nor the
loops' names, never bound to a field of the game or to what one of its methods gave, can be that
list). A loop's name is a local never bound to an iterator
(`map`, `zip`, ...: its length is asked once), a parameter or a table. A rules error inside the
loop (a missing key) leaves the counter lower than the charges so far: so not inside a `try`
that goes on after an error, and only in blocks, where the error ends the move (the next step
sets the counter afresh).
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field

_ITERATORS = frozenset({"map", "filter", "zip", "iter", "reversed", "enumerate"})
_GROWN = frozenset({"append", "extend"})
_SCOPES = (ast.Lambda, ast.GeneratorExp, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
           ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)


class _No(Exception):
    """The loop is not of the form."""


@dataclass
class _Loop:
    """A loop of the form: its charge's counter `work` (a local name or `G.work`), its amount
    a round (`len(<name>)` or a literal), the statements of its head, the loops of the form
    nested in it."""

    node: ast.For
    work: ast.expr
    amount: ast.expr
    head: int  # statements of the charge: the `if` that tests it is the last
    alias: str | None
    inner: list[_Loop] = field(default_factory=list)


def charged_once(fn: ast.FunctionDef) -> bool:
    """The pass, in place over `fn`; True when a loop's charges were taken ahead of it."""
    if not any(type(n) is ast.For and _head(n) is not None for n in ast.walk(fn)):
        return False  # one walk decides for most functions
    fresh = _fresh_lists(fn)
    values: dict[str, list[ast.expr]] = {}  # what each local is bound to (a name: bound otherwise)
    plain: set[int] = set()
    for n in ast.walk(fn):
        if type(n) is ast.Assign and all(type(t) is ast.Name for t in n.targets):
            for t in n.targets:
                values.setdefault(t.id, []).append(n.value)  # type: ignore[attr-defined]
                plain.add(id(t))
        elif type(n) is ast.Name and type(n.ctx) is not ast.Load and id(n) not in plain:
            values.setdefault(n.id, []).append(n)
    params = {a.arg for a in ast.walk(fn.args) if type(a) is ast.arg}
    known = params | {n.id for n in ast.walk(fn) if type(n) is ast.Name and n.id not in values}
    return _lists(fn.body, fresh, values, known)


def _lists(stmts: list[ast.stmt], fresh: set[str], values: dict[str, list[ast.expr]], known: set[str]) -> bool:
    """The pass over `stmts`; `known`: the names surely bound before them (parameters, tables,
    locals bound by a plain assignment before them here or in the statements around them)."""
    done = False
    known = set(known)
    for i, s in enumerate(stmts):
        if type(s) is ast.For:
            try:
                loop = _loop(s, fresh, values, known)
            except _No:
                loop = None
            if loop is not None:
                stmts[i] = _written_twice(loop)
                done = True
                continue
        if isinstance(s, ast.Try) and not all(h.body and type(h.body[-1]) is ast.Raise and h.body[-1].exc is None
                                              for h in s.handlers):
            bodies = [s.orelse, s.finalbody]  # an error caught and gone on from: the counter as it was
        else:
            bodies = _bodies(s)
        for body in bodies:
            done = _lists(body, fresh, values, known) or done
        if type(s) is ast.Assign:
            known.update(t.id for t in s.targets if type(t) is ast.Name)
    return done


def _bodies(s: ast.stmt) -> list[list[ast.stmt]]:
    if isinstance(s, (ast.For, ast.While, ast.If)):
        return [s.body, s.orelse]
    if isinstance(s, ast.Try):
        return [s.body, *(h.body for h in s.handlers), s.orelse, s.finalbody]
    return []


def _target_names(t: ast.expr) -> list[str]:
    return [n.id for n in ast.walk(t) if type(n) is ast.Name]


def _fresh_lists(fn: ast.FunctionDef) -> set[str]:
    """The locals bound only to lists the function makes (a display, a comprehension), None or
    one another, and read only where no other name or subscript can come to hold them (grown,
    measured, looped over, compared, tested, handed to the game's own methods, kept in a
    field of the game or returned): the only lists a loop of the form may grow."""
    bound: dict[str, list[ast.expr]] = {}
    out: set[str] = {a.arg for a in ast.walk(fn.args) if type(a) is ast.arg}
    parents: dict[int, ast.AST] = {}
    for n in ast.walk(fn):
        for c in ast.iter_child_nodes(n):
            parents[id(c)] = n
        if type(n) is ast.Assign:
            for t in n.targets:
                if type(t) is ast.Name:
                    bound.setdefault(t.id, []).append(n.value)
                else:
                    out.update(_target_names(t))
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.comprehension, ast.NamedExpr)):
            out.update(_target_names(n.target))
        elif isinstance(n, (ast.With, ast.ExceptHandler, ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom)):
            out.update(_target_names(n) if not isinstance(n, (ast.Global, ast.Nonlocal)) else n.names)
    fresh = {name for name in bound if name not in out}
    loads = [n for n in ast.walk(fn) if type(n) is ast.Name and type(n.ctx) is ast.Load]
    changed = True
    while changed:
        changed = False
        for name in list(fresh):
            if any(not (type(v) in (ast.List, ast.ListComp) or type(v) is ast.Constant and v.value is None
                        or type(v) is ast.Name and v.id in fresh) for v in bound[name]):
                fresh.discard(name)
                changed = True
        for n in loads:
            if n.id in fresh and not _kept_in(n, parents.get(id(n)), fresh):
                fresh.discard(n.id)
                changed = True
    return fresh


def _kept_in(n: ast.Name, parent: ast.AST | None, fresh: set[str]) -> bool:
    """Whether the list read at `n` stays where `_fresh_lists` allows."""
    kind = type(parent)
    if kind is ast.Attribute:  # `xs.append(...)`, `xs.extend(...)`
        return parent.attr in _GROWN  # type: ignore[union-attr]
    if kind is ast.Call:  # `len(xs)`, `map(f, xs)`, `G._pick(xs)`
        f = parent.func  # type: ignore[union-attr]
        return n is not f and (type(f) is ast.Name and f.id in ("len", "map") or type(f) is ast.Attribute
                               and (f.attr in _GROWN or type(f.value) is ast.Name and f.value.id == "G"))
    if kind in (ast.For, ast.comprehension):
        return n is parent.iter  # type: ignore[union-attr]
    if kind in (ast.Compare, ast.If, ast.While, ast.UnaryOp, ast.Return, ast.IfExp):
        return kind is not ast.IfExp or n is parent.test  # type: ignore[union-attr]
    if kind is ast.Assign:
        return all(type(t) is ast.Name and t.id in fresh or type(t) is ast.Attribute
                   and type(t.value) is ast.Name and t.value.id == "G" for t in parent.targets)  # type: ignore[union-attr]
    return False


def _head(loop: ast.For) -> tuple[ast.expr, ast.expr, int, str | None] | None:
    """The charge the body of `loop` starts with: (counter, amount, statements, alias) or None."""
    body = loop.body
    alias = None
    i = 0
    if body and type(body[0]) is ast.Assign and len(body[0].targets) == 1 \
            and type(body[0].targets[0]) is ast.Name and type(body[0].value) is ast.Name:
        alias, i = body[0].targets[0].id, 1
    if len(body) < i + 2:
        return None
    charge, test = body[i], body[i + 1]
    if not (type(charge) is ast.AugAssign and type(charge.op) is ast.Sub and _counter(charge.target)):
        return None
    work = charge.target
    amount = charge.value
    if type(amount) is ast.Constant:
        if type(amount.value) is not int or amount.value < 0:
            return None
    elif type(amount) is ast.Call and type(amount.func) is ast.Name and amount.func.id == "len" \
            and len(amount.args) == 1 and not amount.keywords and type(amount.args[0]) is ast.Name:
        name = amount.args[0].id
        if alias is not None and name == alias:
            assert isinstance(body[0], ast.Assign) and isinstance(body[0].value, ast.Name)
            amount = ast.Call(ast.Name("len", ast.Load()), [ast.Name(body[0].value.id, ast.Load())], [])
        elif alias is not None:
            return None
    else:
        return None
    if not (type(test) is ast.If and not test.orelse and type(test.test) is ast.Compare
            and _same(test.test.left, work) and len(test.test.ops) == 1 and type(test.test.ops[0]) is ast.Lt
            and type(test.test.comparators[0]) is ast.Constant and test.test.comparators[0].value == 0):
        return None
    return work, amount, i + 2, alias


def _counter(e: ast.expr) -> bool:
    """A work counter: a local (`_lw`, `_wk`) or `G.work`."""
    return type(e) is ast.Name or (type(e) is ast.Attribute and type(e.value) is ast.Name
                                   and e.value.id == "G" and e.attr == "work")


def _same(a: ast.expr, b: ast.expr) -> bool:
    """The same counter, read or written."""
    return ast.unparse(a) == ast.unparse(b)


def _loop(s: ast.For, fresh: set[str], values: dict[str, list[ast.expr]], known: set[str],
          work: ast.expr | None = None) -> _Loop:
    """`s` as a loop of the form (its counter `work`, where nested), else _No."""
    head = _head(s)
    if head is None or s.orelse or type(s.target) is not ast.Name or type(s.iter) is not ast.Name:
        raise _No
    counter, amount, n, alias = head
    if work is not None and not _same(counter, work):
        raise _No
    loop = _Loop(s, counter, amount, n, alias)
    _body(s.body[n:], loop, fresh, values, known)
    if work is None:  # the outermost: what its bound reads is bound before it, unchanged, sized
        stored = {x.id for x in ast.walk(s) if type(x) is ast.Name and type(x.ctx) is not ast.Load}
        for lp in _all(loop):
            it = lp.node.iter.id  # type: ignore[attr-defined]
            names = [it]
            if type(lp.amount) is ast.Call:
                names.append(lp.amount.args[0].id)  # type: ignore[attr-defined]
            for name in names:
                if name in stored or name in fresh or name == "G" or name not in known:
                    raise _No
                for v in values.get(name, ()):  # not a field of the game, nor what a method gave:
                    if type(v) is ast.Attribute or type(v) is ast.Call and type(v.func) is ast.Attribute:
                        raise _No  # (where one of its lists could come back)
            for v in values.get(it, ()):
                if type(v) in (ast.GeneratorExp, ast.Name) or (
                        type(v) is ast.Call and type(v.func) is ast.Name and v.func.id in _ITERATORS):
                    raise _No  # (a name bound otherwise than plainly, or to an iterator)
    return loop


def _all(loop: _Loop) -> list[_Loop]:
    return [loop, *(x for lp in loop.inner for x in _all(lp))]


def _body(stmts: list[ast.stmt], loop: _Loop, fresh: set[str], values: dict[str, list[ast.expr]],
          known: set[str]) -> None:
    """Check the statements after a loop's charge; the nested loops of the form are kept."""
    for s in stmts:
        kind = type(s)
        if kind is ast.For:
            if _head(s) is not None:  # type: ignore[arg-type]
                loop.inner.append(_loop(s, fresh, values, known, loop.work))  # type: ignore[arg-type]
            else:
                if s.orelse or type(s.target) is not ast.Name:  # type: ignore[attr-defined]
                    raise _No
                _expr(s.iter, loop, fresh)  # type: ignore[attr-defined]
                _body(s.body, _Loop(s, loop.work, loop.amount, 0, None), fresh, values, known)  # type: ignore[arg-type,attr-defined]
                if any(type(x) is ast.For and x is not s and _head(x) is not None for x in ast.walk(s)):
                    raise _No  # a charged loop inside an uncharged one: more than once a round
        elif kind is ast.If:
            _expr(s.test, loop, fresh)  # type: ignore[attr-defined]
            _body(s.body, loop, fresh, values, known)  # type: ignore[attr-defined]
            _body(s.orelse, loop, fresh, values, known)  # type: ignore[attr-defined]
        elif kind is ast.Assign:
            if not all(type(t) is ast.Name for t in s.targets):  # type: ignore[attr-defined]
                raise _No
            _expr(s.value, loop, fresh)  # type: ignore[attr-defined]
        elif kind is ast.Expr:
            _expr(s.value, loop, fresh)  # type: ignore[attr-defined]
        elif kind in (ast.Continue, ast.Pass):
            pass
        else:  # break, return, raise, try, while, augmented assignments, ...
            raise _No


def _expr(e: ast.expr, loop: _Loop, fresh: set[str]) -> None:
    """An expression of the loop's body: no game, no counter, calls only of the kinds allowed."""
    work = loop.work
    for n in ast.walk(e):
        kind = type(n)
        if kind is ast.Name:
            if n.id == "G" or (type(work) is ast.Name and n.id == work.id):  # type: ignore[attr-defined]
                raise _No
        elif kind is ast.Call:
            f = n.func  # type: ignore[attr-defined]
            if n.keywords:  # type: ignore[attr-defined]
                raise _No
            if type(f) is ast.Name and f.id in ("len", "map"):
                continue
            if type(f) is ast.Attribute and f.attr in _GROWN and type(f.value) is ast.Name and f.value.id in fresh:
                continue
            raise _No
        elif isinstance(n, _SCOPES):
            raise _No


def _written_twice(loop: _Loop) -> ast.If:
    """`if <counter> - <bound> >= 0: <the loops without their tests> else: <as it was>`."""
    slow = loop.node
    fast = _fast(loop)
    test = ast.Compare(ast.BinOp(_load(loop.work), ast.Sub(), _bound(loop)), [ast.GtE()], [ast.Constant(0)])
    out = ast.If(test, fast, [slow])
    return ast.fix_missing_locations(ast.copy_location(out, slow))


def _load(e: ast.expr) -> ast.expr:
    if type(e) is ast.Name:
        return ast.Name(e.id, ast.Load())
    assert isinstance(e, ast.Attribute)
    return ast.Attribute(ast.Name("G", ast.Load()), "work", ast.Load())


def _store(e: ast.expr) -> ast.expr:
    if type(e) is ast.Name:
        return ast.Name(e.id, ast.Store())
    return ast.Attribute(ast.Name("G", ast.Load()), "work", ast.Store())


def _rounds(loop: _Loop) -> ast.expr:
    return ast.Call(ast.Name("len", ast.Load()), [ast.Name(loop.node.iter.id, ast.Load())], [])  # type: ignore[attr-defined]


def _bound(loop: _Loop) -> ast.expr:
    """At most what `loop` charges: its rounds times (its amount + its nested loops' bounds)."""
    each: ast.expr = _copy(loop.amount)
    for inner in loop.inner:
        each = ast.BinOp(each, ast.Add(), _bound(inner))
    return ast.BinOp(_rounds(loop), ast.Mult(), each)


def _copy(e: ast.expr) -> ast.expr:
    return copy.deepcopy(e)


def _fast(loop: _Loop) -> list[ast.stmt]:
    """The rounds' charges at the loop's top, the loop without them (its nested ones alike)."""
    node = loop.node
    head = node.body[:loop.head - 2]  # the alias, if any
    rest = [_without(s, loop) for s in node.body[loop.head:]]
    body = [*(_copy_stmt(s) for s in head), *(x for s in rest for x in s)] or [ast.Pass()]
    charge = ast.AugAssign(_store(loop.work), ast.Sub(), ast.BinOp(_rounds(loop), ast.Mult(), _copy(loop.amount)))
    new = ast.For(ast.Name(node.target.id, ast.Store()), ast.Name(node.iter.id, ast.Load()), body, [])  # type: ignore[attr-defined]
    return [ast.copy_location(charge, node), ast.copy_location(new, node)]


def _copy_stmt(s: ast.stmt) -> ast.stmt:
    return copy.deepcopy(s)


def _without(s: ast.stmt, loop: _Loop) -> list[ast.stmt]:
    """`s` with the nested loops of the form in their fast form."""
    for inner in loop.inner:
        if s is inner.node:
            return _fast(inner)
    if type(s) is ast.If:
        body = [x for b in s.body for x in _without(b, loop)] or [ast.Pass()]
        orelse = [x for b in s.orelse for x in _without(b, loop)]
        return [ast.copy_location(ast.If(_copy(s.test), body, orelse), s)]
    return [_copy_stmt(s)]
