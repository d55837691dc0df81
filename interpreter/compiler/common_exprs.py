"""Expressions worked out once in a statement list (`common expressions`): a pass over the tree of
a function that changes no state — a definition (`D_n`) or an action's listing (`AE_n`, and so
its copies: the any-move search `AA_n` and the block that lists in place).

Why: `common look-ups` (common.py) keeps a look-up `t[k]` of two plain names, in definitions
only. Root's `rules(p, c)` tests `rule_strength(p, c) > 0` and then, in its `all q in players`,
works the same `warriors[p][c] + buildings_of(p, c)` out again as the loop's invariant
(`_sv0[p0][p1] + (... if p0 == 'Duchy' else ...)`), in the definition and in every listing it
is inlined in; `dig`'s listing keys its rows by `_D4[p0]['suit']` and reads it again twice per
clearing. Here any pure expression — names, constants, look-ups, arithmetic, comparisons,
`and`/`or`, conditionals: no call, attribute, display or nested scope — that a statement
evaluates first and unconditionally (an `if`'s test, or its first part; an assignment's value,
or its first part) and that a later statement of the same list evaluates again is kept in a
local where it is first evaluated (a statement of its own just before, at the same line, or the
name the assignment binds) and read from there after, as common.py does for `t[k]`; and within
one `and`/`or`, an operand that starts with it binds it with `:=` for the later operands.

Sound because the function changes no state, so the value is the one a second evaluation
would give, provided none of the names it reads is bound anew in between (checked per
statement, as common.py does) and no object it reads is changed in place by the function
itself (its own lists and memo tables are: `_changed`, a small may-alias analysis over the
function's bindings). The first evaluation is where it was, so a failure is the same one, and
the later ones cannot fail where the first did not. Names used only as a look-up's key need
just not be bound anew: a key is hashed, never changed in place.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from .common import _lists, _outside_scopes, _Replace, _stores
from .pytree import located

_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_PURE = (ast.Name, ast.Constant, ast.Subscript, ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp,
         ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)
# calls that change none of their arguments: the program's definitions and aggregate helpers
# (which change no state by construction) and a few builtins
# builtins whose value is a number or a range of numbers
_NUMBERS = frozenset({"len", "range", "abs"})


def _numeric(e: ast.BinOp) -> bool:
    """Whether `e`'s value is surely a number: arithmetic other than `+` (which joins lists),
    or `+` with a number written out."""
    return not isinstance(e.op, ast.Add) or any(
        isinstance(x, ast.Constant) and type(x.value) in (int, float) for x in (e.left, e.right))


# a mapping's methods whose first argument is a key
_KEYED = frozenset({"get", "setdefault", "pop"})
_READ_ONLY_CALL = re.compile(r"(D_\d+|_A\d+|len|min|max|range|abs)\Z")
# ... and, with `common lengths`, the library's `len` and the runtime's helpers that only read
# their lists (interpreter/engine/runtime.py: `_joined` copies both, `_charged` counts them)
_READ_ONLY_HELPERS = frozenset({"b_len", "_joined", "_charged"})


def common_expressions(fn: ast.FunctionDef, fresh: Callable[[str], str], lengths: bool = False) -> bool:
    """The pass, in place over `fn`; True when an expression was kept. With `lengths`
    (`common lengths`), `b_len(x)` of a pure `x` is pure too."""
    pass_ = _Pass(fn, fresh, lengths)
    if not pass_.repeated:  # nothing evaluated twice: no analysis needed
        return False
    done = False
    for lst in reversed(_lists(fn.body)):  # outer lists first: an inner one then reads their locals
        done |= pass_.in_list(lst)
    for node in _outside_scopes(fn.body):
        if isinstance(node, ast.BoolOp):
            done |= pass_.in_chain(node)
    if done:
        for lst in _lists(fn.body):
            _settled_invariants(fn, lst)
    return done


def _settled_invariants(fn: ast.FunctionDef, lst: list[ast.stmt]) -> None:
    """A loop's invariant (codegen `invariants`: `X = None` ahead of the loop, `if X is None: X
    = <value>` in the round that first needs it) whose value became a local `N` kept here:
    the loop reads `N` itself, and neither the test nor `X` is left. `N` holds the value
    throughout (nothing in the loop binds it), so `X` would be `N` from that round on, or None
    again while `N` is None; only where `X` is read nowhere but after that test in the loop's
    body, and bound nowhere else."""
    for at, s in enumerate(lst):
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                and isinstance(s.value, ast.Constant) and s.value.value is None):
            continue
        x = s.targets[0].id
        loop = next((t for t in lst[at + 1:] if isinstance(t, ast.For)), None)
        if loop is None or any(x in _stores(t) or _reads(t, x) for t in lst[at + 1:lst.index(loop)]):
            continue
        test = next((i for i, t in enumerate(loop.body) if _lazy(t, x)), None)
        if test is None:
            continue
        n = loop.body[test].body[0].value.id
        after = loop.body[test + 1:]
        if _stored_names(fn).count(x) != 2 or n in _stores(loop) or loop.orelse \
                or _loads(fn, x) != 1 + sum(_loads(t, x) for t in after):  # the test's own read
            continue
        for t in after:
            _Rename(x, n).visit(t)
        del loop.body[test]
        del lst[at]
        return _settled_invariants(fn, lst)


def _lazy(s: ast.stmt, x: str) -> bool:
    """`if x is None: x = N`, N a name."""
    return isinstance(s, ast.If) and not s.orelse and len(s.body) == 1 and isinstance(s.test, ast.Compare) \
        and isinstance(s.test.left, ast.Name) and s.test.left.id == x and len(s.test.ops) == 1 \
        and isinstance(s.test.ops[0], ast.Is) and isinstance(s.test.comparators[0], ast.Constant) \
        and s.test.comparators[0].value is None and isinstance(s.body[0], ast.Assign) \
        and len(s.body[0].targets) == 1 and isinstance(s.body[0].targets[0], ast.Name) \
        and s.body[0].targets[0].id == x and isinstance(s.body[0].value, ast.Name)


def _reads(node: ast.AST, x: str) -> bool:
    return _loads(node, x) > 0


def _loads(node: ast.AST, x: str) -> int:
    return sum(1 for n in ast.walk(node) if isinstance(n, ast.Name) and n.id == x and isinstance(n.ctx, ast.Load))


def _stored_names(node: ast.AST) -> list[str]:
    return [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)]


class _Rename(ast.NodeTransformer):
    """Reads of `old` -> reads of `new`."""

    def __init__(self, old: str, new: str):
        self.old, self.new = old, new

    def visit_Name(self, node: ast.Name) -> ast.AST:  # noqa: N802 - the visitor's protocol
        if node.id == self.old and isinstance(node.ctx, ast.Load):
            return ast.copy_location(ast.Name(self.new, ast.Load()), node)
        return node


def _is_length(node: ast.AST) -> bool:
    """`b_len(x)`: one positional argument, no keywords."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "b_len"
            and len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred))


def _looks_up(shape: tuple) -> bool:
    return shape[0] == "S" or any(isinstance(x, tuple) and _looks_up(x) for x in shape)


def _size(node: ast.AST) -> int:
    """About the bytecodes evaluating `node` takes."""
    return sum(1 for n in ast.walk(node) if isinstance(n, ast.expr))


def _firsts(e: ast.expr, lengths: bool = False) -> list[ast.expr]:
    """`e` and the parts of it evaluated first, always, outermost first. With `lengths`
    (`common lengths`), a look-up in a name (`_T12[p[b_len(p) - 1]]`) leads with its key:
    reading the name fails in nothing and changes nothing."""
    out = [e]
    while True:
        if isinstance(e, ast.UnaryOp):
            e = e.operand
        elif isinstance(e, ast.Compare):
            e = e.left
        elif isinstance(e, ast.BoolOp):
            e = e.values[0]
        elif isinstance(e, ast.BinOp):
            e = e.left
        elif isinstance(e, ast.IfExp):
            e = e.test
        elif isinstance(e, ast.Subscript):
            e = e.slice if lengths and isinstance(e.value, ast.Name) else e.value
        else:
            return out
        out.append(e)


_RULES = (ast.Assign, ast.AugAssign, ast.NamedExpr, ast.For, ast.comprehension, ast.Delete, ast.Call)


class _Objects:
    """A may-point-to analysis of one function, flow-insensitive: which objects each name may
    hold (`pts`), which objects each object may hold (`inside`), and which objects the function
    may change in place (`changed`). An object is a name's own (what it held when the function
    started, or a fresh value bound to it: the name itself), the unknown contents of an object
    (`o*`), or a value made at a node (`@<id>`: a display, a call's result)."""

    def __init__(self, fn: ast.FunctionDef, lengths: bool = False):
        self.lengths = lengths  # `common lengths`: the runtime's read-only helpers known too
        self.pts: dict[str, set[str]] = {}
        self.inside: dict[str, set[str]] = {}
        self.changed: set[str] = set()
        rules = [n for n in ast.walk(fn) if isinstance(n, _RULES)]
        self.grew = True
        while self.grew:  # to a fixed point: every rule only adds
            self.grew = False
            for node in rules:
                self.rule(node)

    def _add(self, into: set[str], items: set[str]) -> None:
        if not items <= into:
            into |= items
            self.grew = True

    def held(self, name: str) -> set[str]:
        return self.pts.setdefault(name, {name})

    def contents(self, objs: set[str]) -> set[str]:
        out: set[str] = set()
        for o in objs:
            out |= self.inside.setdefault(o, {o if o.endswith("*") else o + "*"})
        return out

    def reach(self, objs: set[str]) -> set[str]:
        seen, todo = set(objs), list(objs)
        while todo:
            for o in self.contents({todo.pop()}):
                if o not in seen:
                    seen.add(o)
                    todo.append(o)
        return seen

    def value(self, e: ast.expr | None) -> set[str]:
        """The objects `e`'s value may be."""
        if isinstance(e, ast.Name):
            return self.held(e.id)
        if isinstance(e, (ast.Subscript, ast.Attribute)):
            return self.contents(self.value(e.value))
        if isinstance(e, ast.IfExp):
            return self.value(e.body) | self.value(e.orelse)
        if isinstance(e, ast.BoolOp):
            return set().union(*(self.value(v) for v in e.values))
        if isinstance(e, ast.NamedExpr):
            return self.value(e.value)
        if isinstance(e, ast.BinOp) and _numeric(e):
            return set()
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and (
                e.func.id in _NUMBERS or self.lengths and e.func.id == "b_len"):
            return set()
        if isinstance(e, (ast.Tuple, ast.List, ast.Set, ast.Dict, ast.BinOp, ast.Starred)):  # holds its items
            made = f"@{id(e)}"
            items = set().union(*(self.value(v) for v in ast.iter_child_nodes(e) if isinstance(v, ast.expr)))
            self._add(self.inside.setdefault(made, {made + "*"}), items | self.contents(items))
            return {made}
        if isinstance(e, ast.Call):  # an argument, a part of one or of the receiver, or a new value
            args = self._args(e)
            given = set().union(*(self.value(a) for a in args)) - self.held("G")  # never the game
            given |= self.contents(given)
            if isinstance(e.func, ast.Attribute):
                given |= self.contents(self.value(e.func.value))
            made = f"@{id(e)}"
            self._add(self.inside.setdefault(made, {made + "*"}), given)
            return given | {made}
        return set()  # a comparison, a number, a text: no object anything changes

    @staticmethod
    def _args(call: ast.Call) -> list[ast.expr]:
        args = [*call.args, *(k.value for k in call.keywords)]
        if isinstance(call.func, ast.Attribute) and call.func.attr in _KEYED:
            return args[1:]  # a key is looked up, never handed back or kept
        return args

    def bind(self, target: ast.expr, objs: set[str]) -> None:
        if isinstance(target, ast.Name):
            self._add(self.held(target.id), objs)
        elif isinstance(target, (ast.Tuple, ast.List)):  # unpacked: each part lies inside the value
            for part in target.elts:
                self.bind(part, self.contents(objs))
        elif isinstance(target, ast.Starred):
            self.bind(target.value, self.contents(objs) | {f"@{id(target)}"})
        elif isinstance(target, (ast.Subscript, ast.Attribute)):  # stored into
            holders = self.value(target.value)
            self._add(self.changed, holders)
            for h in holders:
                self._add(self.inside.setdefault(h, {h + "*"}), objs)

    def rule(self, node: ast.AST) -> None:
        if isinstance(node, ast.Assign):
            for t in node.targets:
                self.bind(t, self.value(node.value))
        elif isinstance(node, ast.AugAssign):  # in place for a list; its items kept inside
            holders = self.value(node.target)
            self._add(self.changed, holders)
            for h in holders:
                self._add(self.inside.setdefault(h, {h + "*"}), self.value(node.value))
            if not isinstance(node.target, ast.Name):
                self.bind(node.target, holders)
        elif isinstance(node, ast.NamedExpr):
            self.bind(node.target, self.value(node.value))
        elif isinstance(node, (ast.For, ast.comprehension)):  # an item lies inside what it walks
            self.bind(node.target, self.contents(self.value(node.iter)))
        elif isinstance(node, ast.Delete):
            for t in node.targets:
                self._add(self.changed, self.value(t.value if isinstance(t, (ast.Subscript, ast.Attribute)) else t))
        elif isinstance(node, ast.Call):
            args = self._args(node)
            if isinstance(node.func, ast.Attribute):  # a method: it may change its receiver, and
                holders = self.value(node.func.value)  # keeps its arguments
                self._add(self.changed, holders)
                for h in holders:
                    self._add(self.inside.setdefault(h, {h + "*"}), set().union(*(self.value(a) for a in args)))
            elif not (isinstance(node.func, ast.Name) and (_READ_ONLY_CALL.match(node.func.id) or (
                    self.lengths and node.func.id in _READ_ONLY_HELPERS))):
                for a in args:  # may change all it can reach
                    self._add(self.changed, self.reach(self.value(a)))

    def may_change(self, name: str) -> bool:
        """Whether the object `name` holds, or anything in it, may be changed in place."""
        return bool(self.reach(self.held(name)) & self.changed)


def _changed(fn: ast.FunctionDef, lengths: bool = False) -> set[str]:
    """The names whose object, or something inside it, the function may change in place: a
    method called on it, an entry or attribute stored or deleted, passed to a call other than
    a definition's (`_READ_ONLY_CALL`), through any name that may hold the same object."""
    objects = _Objects(fn, lengths)
    names = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
    return {n for n in names if objects.may_change(n)}


Shape = tuple  # a pure expression's structure, by value: equal shapes are the same expression


class _Pass:
    """The pass over one function: the pure expressions that occur in it more than once, what it
    may change in place (worked out only when there are such), and a fresh-name maker."""

    def __init__(self, fn: ast.FunctionDef, fresh: Callable[[str], str], lengths: bool = False):
        self.fn, self.fresh, self.lengths = fn, fresh, lengths
        self.shapes: dict[int, tuple[ast.AST, Shape | None, frozenset[str]]] = {}  # id -> (node, shape, names)
        seen: dict[Shape, int] = {}
        for node in _outside_scopes(fn.body):
            if isinstance(node, ast.expr):
                shape = self.shape(node)
                if shape is not None and shape[0] != "N":
                    seen[shape] = seen.get(shape, 0) + 1
        self.repeated = {shape for shape, n in seen.items() if n > 1}
        self._changed: set[str] | None = None
        self.counted: dict[int, tuple[ast.AST, dict[Shape, int]]] = {}
        self.stored: dict[int, tuple[ast.AST, set[str]]] = {}

    @property
    def changed(self) -> set[str]:
        if self._changed is None:
            self._changed = _changed(self.fn, self.lengths)
        return self._changed

    def shape(self, node: ast.AST) -> Shape | None:
        """`node`'s shape when it is a pure expression (names, constants, look-ups, arithmetic,
        comparisons, `and`/`or`, conditionals), else None; with the names it reads other than
        as a look-up's key (`self.shapes`)."""
        known = self.shapes.get(id(node))
        if known is not None:
            return known[1]
        shape: Shape | None = None
        names: frozenset[str] = frozenset()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            shape, names = ("N", node.id), frozenset({node.id})
        elif isinstance(node, ast.Constant):
            shape = ("C", type(node.value).__name__, repr(node.value))
        else:
            parts: list[ast.AST] = []
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
                head, parts = ("S",), [node.value, node.slice]
            elif isinstance(node, ast.BinOp):
                head, parts = ("B", type(node.op).__name__), [node.left, node.right]
            elif isinstance(node, ast.UnaryOp):
                head, parts = ("U", type(node.op).__name__), [node.operand]
            elif isinstance(node, ast.Compare):
                head, parts = ("R", *(type(o).__name__ for o in node.ops)), [node.left, *node.comparators]
            elif isinstance(node, ast.BoolOp):
                head, parts = ("L", type(node.op).__name__), list(node.values)
            elif isinstance(node, ast.IfExp):
                head, parts = ("I",), [node.test, node.body, node.orelse]
            elif self.lengths and _is_length(node):
                # `common lengths`: the builtin `len` (the library's `b_len`, a global no
                # function binds) of a pure value changes nothing and gives one value while
                # that value is not changed in place (`names` below, as a look-up's base)
                head, parts = ("F", "b_len"), [node.args[0]]  # type: ignore[attr-defined]
            subs = [self.shape(p) for p in parts]
            if parts and all(x is not None for x in subs):
                shape = (*head, *subs)
                names = frozenset().union(*(self.shapes[id(p)][2] for p in parts
                                            if not (isinstance(node, ast.Subscript) and p is node.slice
                                                    and isinstance(p, ast.Name))))
        self.shapes[id(node)] = (node, shape, names)
        return shape

    def key(self, node: ast.AST) -> Shape | None:
        """The shape of a pure expression worth keeping — one that occurs more than once and
        holds a look-up, no name it reads (but as a key) changed in place by the function."""
        shape = self.shape(node)
        if shape is None or shape not in self.repeated or not _looks_up(shape):
            return None
        if self.shapes[id(node)][2] & self.changed:
            return None
        return shape

    def names(self, node: ast.AST) -> set[str]:
        return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}

    def count(self, node: ast.AST, key: Shape) -> int:
        """Occurrences of `key` in `node`, outside nested scopes (counted once per node until
        the pass changes something: `forget`)."""
        known = self.counted.get(id(node))
        if known is None:
            found: dict[Shape, int] = {}
            todo = [node]
            while todo:
                n = todo.pop()
                if isinstance(n, _SCOPES):
                    continue
                k = self.key(n) if isinstance(n, ast.expr) else None
                if k is not None:
                    found[k] = found.get(k, 0) + 1
                todo.extend(ast.iter_child_nodes(n))
            known = self.counted[id(node)] = (node, found)
        return known[1].get(key, 0)

    def stores(self, s: ast.AST) -> set[str]:
        """The names `s` binds (the pass never changes them: it only replaces reads)."""
        known = self.stored.get(id(s))
        if known is None:
            known = self.stored[id(s)] = (s, _stores(s))
        return known[1]

    def forget(self) -> None:
        self.counted.clear()

    def later(self, lst: list[ast.stmt], at: int, key: Shape, names: set[str]) -> int:
        """Occurrences of `key` in the statements after `at` that would read the kept value:
        up to the first that binds a name it reads."""
        n = 0
        for s in lst[at + 1:]:
            if self.stores(s) & names:
                break
            n += self.count(s, key)
        return n

    def in_list(self, lst: list[ast.stmt]) -> bool:
        """The expressions of one statement list kept where first evaluated, read from the
        local after."""
        kept: dict[Shape, tuple[str, set[str]]] = {}  # key -> (its local, the names it reads)
        done = False
        at = 0
        while at < len(lst):
            s = lst[at]
            stored = self.stores(s)
            valid = {k: v[0] for k, v in kept.items() if not stored & (v[1] | {v[0]})}
            if valid and any(self.count(s, k) for k in valid):
                lst[at] = s = _Reuse(valid, self).visit(s)
                self.forget()
                done = True
            for k in [k for k, v in kept.items() if stored & (v[1] | {v[0]})]:
                del kept[k]  # a name it reads, or its local, bound anew
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                value = s.value
                key = self.key(value)
                names = self.names(value) if key else set()
                if key is not None and key not in kept and not stored & names and self.later(lst, at, key, names):
                    kept[key] = (s.targets[0].id, names)  # `x = E`: x holds it from here on
                    at += 1
                    continue
                firsts = _firsts(value, self.lengths)[1:]
            elif isinstance(s, ast.If):
                firsts = _firsts(s.test, self.lengths)
            else:
                at += 1
                continue
            for part in firsts:
                key = self.key(part)
                if key is None or key in kept:
                    continue
                names = self.names(part)
                if stored & names:
                    continue
                uses = self.count(s, key) - 1 + self.later(lst, at, key, names)
                if uses < 1 or (_size(part) - 1) * uses <= 2:
                    continue
                local = self.fresh("ce")
                lst.insert(at, located(ast.Assign([ast.Name(local, ast.Store())], part), s))
                at += 1
                kept[key] = (local, names)
                lst[at] = _Reuse({key: local}, self).visit(s)
                self.forget()
                done = True
                break
            at += 1
        return done

    def in_chain(self, chain: ast.BoolOp) -> bool:
        """Within one `and`/`or`: an operand that starts with an expression a later operand
        evaluates again binds it with `:=`; the later ones read the name."""
        done = False
        for i, operand in enumerate(chain.values[:-1]):
            rest = chain.values[i + 1:]
            for part in _firsts(operand, self.lengths):
                key = self.key(part)
                if key is None:
                    continue
                names = self.names(part)
                uses = sum(self.count(r, key) for r in rest)
                if any(_stores(r) & names for r in rest) or not uses or (_size(part) - 1) * uses <= 2:
                    continue
                local = self.fresh("ce")
                walrus = located(ast.copy_location(ast.NamedExpr(ast.Name(local, ast.Store()), part), part), part)
                chain.values[i] = _Replace(part, walrus).visit(operand)
                chain.values[i + 1:] = [_Reuse({key: local}, self).visit(r) for r in rest]
                self.forget()
                done = True
                break
        return done


class _Reuse(ast.NodeTransformer):
    """Each expression of `keys`, outside nested scopes, -> a read of its local."""

    def __init__(self, keys: dict[Shape, str], pass_: _Pass):
        self.keys, self.pass_ = keys, pass_

    def visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, _SCOPES):
            return node
        if isinstance(node, ast.expr):
            key = self.pass_.key(node)
            if key is not None and key in self.keys:
                return ast.copy_location(ast.Name(self.keys[key], ast.Load()), node)
        return super().visit(node)
