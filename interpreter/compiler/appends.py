"""Lists grown in place (`appended in place`): a pass over a generated function's tree.

Why: lists are values in the rules, so `let kept = kept + [s]` makes a new list, and the code
generator writes it as a copy (`codegen.joined`):

    _j = [*_l, s]
    G.work -= len(_j)
    if G.work < 0:
        G.out_of_work(SPANS[k])
    _l = _j

Shogun's tower sorts every cube it throws into `kept` or `through` so, one copy per cube per
ledge: quadratic copying in its inner loop. Where no other live name, container or iterator
can hold the object `_l` names, nothing can see the difference if the list grows in place:

    _l.append(s)
    G.work -= len(_l)
    if G.work < 0:
        G.out_of_work(SPANS[k])

The charge is the same length, so the work budget runs out where it did; the new items are
evaluated before they are added, as in the display, and an expression changes nothing.

Proof, conservatively, by two analyses over the function's statements (`for`, `while`, `if`,
assignments, expression statements, `break`, `continue`, `return`, `raise`, `pass`; any other
statement, a `yield` or an `await` leaves the function as it is):

- liveness (backward): which locals may be read before they are bound again;
- ownership (forward): the set of locals whose list nothing else can reach. A local is owned
  after it is bound to a list display (a new list each time it is evaluated) or to an owned
  local that is not live afterwards (the list moves; the old name is never read again before
  it is bound anew). Any read of an owned local other than one that keeps no reference — `len(x)`,
  `x.append(...)`, `x.extend(...)`, `*x` in a display, `x[i]`, `x + y`, a comparison —
  makes it not owned: it went into a call, a container, an iterator of a `for`, another name.
  Where paths meet (after an `if`, at a loop's head, after a loop), a local is owned only if it
  is owned on every path; a loop is gone over until that settles. A name that a nested scope
  (comprehension, lambda, generator) reads is never owned.

A copy `_j = [*_l, ...]` whose `_l` is owned there, and whose `_j` is read only by the next
three statements of the pattern above, is rewritten. The ownership was worked out on the
function as written: in the rewritten one, the list `_l` holds at the copy is reachable only
through `_l` (no live name reads it later, no container or iterator holds it), so growing it
is seen only where the copy would have been seen.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from .pytree import located


class _Unsupported(Exception):
    """A statement or expression the analyses do not model: the function is left as it is."""


_LOOPS = (ast.For, ast.While)
_SCOPES = (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp,
           ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def appends_in_place(fn: ast.FunctionDef) -> list[str]:
    """The pass, in place over `fn`; the locals whose copies were made appends."""
    sites = _sites(fn)
    if not sites:
        return []
    try:
        scoped = _scoped_names(fn)
        live = _Liveness()
        live.block(fn.body, frozenset())
        owned = _Ownership(live.after, scoped, {id(s[0]): s for s in sites})
        owned.block(fn.body, frozenset())
    except _Unsupported:
        return []
    done = []
    for site in sites:
        if owned.ok.get(id(site[0])):
            _rewrite(site)
            done.append(site[2])
    return done


# ------------------------------------------------------------------ the pattern

Site = tuple[ast.Assign, list[ast.stmt], str, str]  # the copy, its statement list, _l, _j


def _sites(fn: ast.FunctionDef) -> list[Site]:
    """The copies `_j = [*_l, ...]; G.work -= len(_j); if G.work < 0: ...; _l = _j` whose `_j`
    nothing else reads."""
    found = []
    reads: dict[str, int] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            reads[n.id] = reads.get(n.id, 0) + 1
    for body in _bodies(fn):
        for i in range(len(body) - 3):
            s0, s1, s2, s3 = body[i:i + 4]
            if not (isinstance(s0, ast.Assign) and len(s0.targets) == 1 and isinstance(s0.targets[0], ast.Name)
                    and isinstance(s0.value, ast.List) and len(s0.value.elts) >= 2
                    and isinstance(s0.value.elts[0], ast.Starred) and isinstance(s0.value.elts[0].value, ast.Name)):
                continue
            j, lst = s0.targets[0].id, s0.value.elts[0].value.id
            if j == lst or not (_charges_len(s1, j) and isinstance(s2, ast.If) and not s2.orelse
                                and isinstance(s3, ast.Assign) and len(s3.targets) == 1
                                and isinstance(s3.targets[0], ast.Name) and s3.targets[0].id == lst
                                and isinstance(s3.value, ast.Name) and s3.value.id == j):
                continue
            if reads.get(j) != 2 or any(isinstance(n, ast.Name) and n.id in (j, lst)
                                        for part in (s2, *s0.value.elts[1:]) for n in ast.walk(part)):
                continue  # `_j` read elsewhere; the new items or the test read the lists
            found.append((s0, body, lst, j))
    return found


def _charges_len(s: ast.stmt, j: str) -> bool:
    """`G.work -= len(j)`."""
    return (isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Sub) and isinstance(s.target, ast.Attribute)
            and isinstance(s.target.value, ast.Name) and s.target.value.id == "G" and s.target.attr == "work"
            and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name) and s.value.func.id == "len"
            and len(s.value.args) == 1 and not s.value.keywords
            and isinstance(s.value.args[0], ast.Name) and s.value.args[0].id == j)


def _bodies(fn: ast.AST) -> Iterable[list[ast.stmt]]:
    for n in ast.walk(fn):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(n, field, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                yield body


def _rewrite(site: Site) -> None:
    """The copy made an append (one new item) or an extend, its charge read off `_l`, and the
    rebinding `_l = _j` dropped."""
    s0, body, lst, _j = site
    i = next(k for k, s in enumerate(body) if s is s0)
    items = s0.value.elts[1:]
    if len(items) == 1 and not isinstance(items[0], ast.Starred):
        call = ast.Call(ast.Attribute(ast.Name(lst, ast.Load()), "append", ast.Load()), [items[0]], [])
    else:
        call = ast.Call(ast.Attribute(ast.Name(lst, ast.Load()), "extend", ast.Load()),
                        [ast.List(items, ast.Load())], [])
    body[i] = located(ast.Expr(call), s0)
    body[i + 1].value.args[0] = located(ast.Name(lst, ast.Load()), body[i + 1])
    del body[i + 3]


# ------------------------------------------------------------------ the analyses

def _scoped_names(fn: ast.FunctionDef) -> frozenset[str]:
    """Names read or bound inside a nested scope: a closure cell may hold them."""
    out = set()
    for n in ast.walk(fn):
        if isinstance(n, _SCOPES) and n is not fn:
            out.update(x.id for x in ast.walk(n) if isinstance(x, ast.Name))
        if isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr)):
            raise _Unsupported
    return frozenset(out)


def _plain_finally(s: ast.stmt) -> bool:
    """`try: ... finally: ...` with no handler, whose `finally` reads no name its body binds
    and whose body has no `break` or `continue` (a traced procedure's or device's step closed
    round its body): its `finally` runs after the body, or on the way out of the function."""
    if not (isinstance(s, ast.Try) and not s.handlers and not s.orelse and s.finalbody):
        return False
    bound = {n.id for n in ast.walk(ast.Module(s.body, [])) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return not (bound & _reads(ast.Module(s.finalbody, []))) and not any(
        isinstance(n, (ast.Break, ast.Continue)) for n in ast.walk(ast.Module(s.body, [])))


def _reads(node: ast.AST | None) -> set[str]:
    return set() if node is None else {n.id for n in ast.walk(node) if isinstance(n, ast.Name)
                                      and isinstance(n.ctx, ast.Load)}


class _Liveness:
    """Backward: the locals live after each assignment of a name to a name (`after`)."""

    def __init__(self) -> None:
        self.after: dict[int, frozenset[str]] = {}
        self.exits: list[tuple[frozenset[str], frozenset[str]]] = []  # (break, continue) per loop
        self.finals: list[frozenset[str]] = []  # what the `finally` blocks around here read

    def block(self, body: list[ast.stmt], out: frozenset[str]) -> frozenset[str]:
        for s in reversed(body):
            out = self.stmt(s, out)
        return out

    def stmt(self, s: ast.stmt, out: frozenset[str]) -> frozenset[str]:  # noqa: C901 (one case per kind)
        if isinstance(s, ast.Assign):
            if len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                self.after[id(s)] = out
                return (out - {s.targets[0].id}) | _reads(s.value)
            return out | _reads(s)
        if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):  # `x += ...` reads x
            return out | _reads(s) | {s.target.id}
        if isinstance(s, (ast.AugAssign, ast.Expr, ast.Pass)):
            return out | _reads(s)
        if isinstance(s, (ast.Return, ast.Raise)):  # and the `finally` blocks it leaves through
            return frozenset(_reads(s)).union(*self.finals)
        if isinstance(s, ast.If):
            return self.block(s.body, out) | self.block(s.orelse, out) | _reads(s.test)
        if isinstance(s, ast.Break):
            return self.exits[-1][0]
        if isinstance(s, ast.Continue):
            return self.exits[-1][1]
        if isinstance(s, _LOOPS) and not s.orelse:
            return self._loop(s, out)
        if _plain_finally(s):  # the body runs on into `finally`, and so does every way out of it
            after = self.block(s.finalbody, out)
            self.finals.append(frozenset(_reads(ast.Module(s.finalbody, []))))
            try:
                return self.block(s.body, after)
            finally:
                self.finals.pop()
        raise _Unsupported

    def _loop(self, s: ast.For | ast.While, out: frozenset[str]) -> frozenset[str]:
        """The live set at the loop's head, gone over until it settles: `out` (the loop ends
        there) with what its body needs, the target bound first and the test read each round."""
        test = _reads(s.test) if isinstance(s, ast.While) else set()
        bound = {n.id for n in ast.walk(s.target) if isinstance(n, ast.Name)} if isinstance(s, ast.For) else set()
        head = out | test
        while True:
            self.exits.append((out, head))
            try:
                start = self.block(s.body, head)
            finally:
                self.exits.pop()
            new = out | test | (start - bound) | (_reads(s.target) if isinstance(s, ast.For) else set())
            if new == head:
                break
            head = new
        return head | (_reads(s.iter) if isinstance(s, ast.For) else set())


_KEEPS_NO_REFERENCE = ("append", "extend")


class _Ownership:
    """Forward: the owned locals at each statement; `ok` says, per copy, whether its list was
    owned at every visit."""

    def __init__(self, after: dict[int, frozenset[str]], scoped: frozenset[str], sites: dict[int, Site]):
        self.after = after
        self.scoped = scoped
        self.sites = sites
        self.ok: dict[int, bool] = {}
        self.loops: list[tuple[list[frozenset[str]], list[frozenset[str]]]] = []  # breaks, continues

    def block(self, body: list[ast.stmt], owned: frozenset[str] | None) -> frozenset[str] | None:
        for s in body:
            if owned is None:  # no path reaches it
                return None
            owned = self.stmt(s, owned)
        return owned

    def stmt(self, s: ast.stmt, owned: frozenset[str]) -> frozenset[str] | None:  # noqa: C901
        site = self.sites.get(id(s))
        if site is not None:
            self.ok[id(s)] = self.ok.get(id(s), True) and site[2] in owned
        if isinstance(s, ast.Assign):
            return self._assign(s, owned)
        if isinstance(s, ast.AugAssign):
            owned = self.escaped(s.value, owned)
            if isinstance(s.target, ast.Name):
                return owned - {s.target.id}
            return self.escaped(s.target, owned)
        if isinstance(s, ast.Expr):
            return self.escaped(s.value, owned)
        if isinstance(s, ast.Pass):
            return owned
        if isinstance(s, (ast.Return, ast.Raise)):
            return None
        if isinstance(s, ast.If):
            owned = self.escaped(s.test, owned)
            return _meet([self.block(s.body, owned), self.block(s.orelse, owned)])
        if isinstance(s, ast.Break):
            self.loops[-1][0].append(owned)
            return None
        if isinstance(s, ast.Continue):
            self.loops[-1][1].append(owned)
            return None
        if isinstance(s, _LOOPS) and not s.orelse:
            return self._loop(s, owned)
        if _plain_finally(s):  # an exception leaves the function (no handler) after `finally`
            return self.block(s.finalbody, self.block(s.body, owned))
        raise _Unsupported

    def _assign(self, s: ast.Assign, owned: frozenset[str]) -> frozenset[str]:
        target = s.targets[0] if len(s.targets) == 1 else None
        if not isinstance(target, ast.Name):
            owned = self.escaped(s.value, owned, top=True)
            bound = {n.id for t in s.targets for n in ast.walk(t) if isinstance(n, ast.Name)
                     and isinstance(n.ctx, ast.Store)}
            for t in s.targets:
                owned = self.escaped(t, owned)
            return owned - bound
        t, v = target.id, s.value
        if isinstance(v, ast.Name):
            if v.id == t:
                return owned
            if v.id in owned and v.id not in self.after[id(s)] and t not in self.scoped:
                return (owned - {v.id}) | {t}  # the list moves to `t`
            return owned - {t, v.id}
        owned = self.escaped(v, owned, top=True) - {t}
        if isinstance(v, ast.List) and t not in self.scoped:
            return owned | {t}  # a display: a new list each time
        return owned

    def _loop(self, s: ast.For | ast.While, owned: frozenset[str]) -> frozenset[str] | None:
        if isinstance(s, ast.For):
            owned = self.escaped(s.iter, owned, top=True)
            bound = {n.id for n in ast.walk(s.target) if isinstance(n, ast.Name)}
        else:
            bound = set()
        head = owned
        while True:
            here = self.escaped(s.test, head) if isinstance(s, ast.While) else head
            breaks: list[frozenset[str]] = []
            continues: list[frozenset[str]] = []
            self.loops.append((breaks, continues))
            try:
                end = self.block(s.body, here - bound)
            finally:
                self.loops.pop()
            new = _meet([head, end, *continues])
            if new == head:
                return _meet([here, *breaks])
            head = new

    def escaped(self, e: ast.AST | None, owned: frozenset[str], top: bool = False) -> frozenset[str]:
        """`owned` less the locals `e` reads in a way that may keep a reference to their list
        (`top`: `e` is itself the value stored, passed or iterated)."""
        if e is None or not owned:
            return owned
        keep = set()
        if top and isinstance(e, ast.Name):
            keep.add(e.id)
        called = {id(n.func) for n in ast.walk(e) if isinstance(n, ast.Call)}
        for parent in ast.walk(e):
            for child in ast.iter_child_nodes(parent):
                if isinstance(child, ast.Name) and child.id in owned and not _transient(parent, child, called):
                    keep.add(child.id)
        return owned - keep


def _transient(parent: ast.AST, child: ast.Name, called: set[int]) -> bool:
    """Whether `child`, read inside `parent`, leaves no reference to its list behind."""
    if isinstance(parent, ast.Call):
        return isinstance(parent.func, ast.Name) and parent.func.id == "len" and parent.args == [child] \
            and not parent.keywords
    if isinstance(parent, ast.Attribute):  # `x.append(...)` called at once: a bound method kept would hold x
        return parent.attr in _KEEPS_NO_REFERENCE and id(parent) in called
    if isinstance(parent, ast.BinOp):
        return isinstance(parent.op, (ast.Add, ast.Mult))  # `x + y`, `x * n`: a new list
    if isinstance(parent, (ast.Starred, ast.Compare)):
        return True  # `*x` copies the items out; a comparison keeps nothing
    if isinstance(parent, ast.Subscript):
        return parent.value is child  # `x[i]` (an index: an item, not the list)
    return False


def _meet(states: list[frozenset[str] | None]) -> frozenset[str] | None:
    """Owned where every path that reaches this point owns it."""
    reached = [s for s in states if s is not None]
    if not reached:
        return None
    out = reached[0]
    for s in reached[1:]:
        out &= s
    return out
