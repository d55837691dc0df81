"""Look-ups made once in a statement list (`common look-ups`): a pass over a definition's tree.

Why: a definition's loop body often reads the same entry several times: checkers' jump scan
reads the jump table's row `_row[d]` in the test that the jump exists, again in the `let` of the
square landed on and again in the jump it appends, and `cell[over]` twice in one `and`. A
look-up `t[k]` (both plain names) is made once and kept in a local where it is evaluated first,
unconditionally, and read from the local everywhere after that point in its statement list:

- a statement whose first evaluated part is `t[k]` (an `if` whose test starts with it, an
  assignment of it) has it worked out in a statement of its own just before it (at the same
  line, so an error is located as before), or, for an assignment `x = t[k]`, kept in `x`;
- inside one `and`/`or`, an operand whose first evaluated part is `t[k]` binds it with `:=`
  when a later operand of the same chain reads it again.

Sound because a definition changes no state, and the pass only takes `t` and `k` that nothing
in the statement list binds between the look-up and its reuse, nor changes in place (`t` is
never stored into, deleted from, passed to a call or used for a method anywhere in the
function): the kept value is the one a second look-up would give, and the first look-up is
where it was, so a failure is the same one. Only definitions (`D_n`), whose code is read-only.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .pytree import located

Key = tuple[str, str]


def common_lookups(fn: ast.FunctionDef, fresh: Callable[[str], str]) -> bool:
    """The pass, in place over `fn`; True when a look-up was kept."""
    mutable = _changed_in_place(fn)
    done = False
    for lst in _lists(fn.body):
        done |= _in_list(lst, mutable, fresh)
    for node in _outside_scopes(fn.body):
        if isinstance(node, ast.BoolOp):
            done |= _in_chain(node, mutable, fresh)
    return done


def _outside_scopes(stmts: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of `stmts` not inside a comprehension or lambda (where `:=` would bind in
    the function around it, or is not allowed at all)."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _lists(stmts: list[ast.stmt]) -> list[list[ast.stmt]]:
    """Every statement list in `stmts`, inner ones first (each is changed in place)."""
    out: list[list[ast.stmt]] = []
    for s in stmts:
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(s, name, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                out += _lists(inner)
        for h in getattr(s, "handlers", ()):
            out += _lists(h.body)
    out.append(stmts)
    return out


def _changed_in_place(fn: ast.FunctionDef) -> set[str]:
    """Names whose value may change without a new binding: stored into (`t[k] = ...`, `del`),
    used for a method or attribute, or passed to a call (a callee may change it)."""
    out: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name):
            out.add(node.value.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            out.add(node.value.id)
        elif isinstance(node, ast.Call):
            out.update(a.id for a in [*node.args, *(k.value for k in node.keywords)] if isinstance(a, ast.Name))
            out.update(a.value.id for a in node.args if isinstance(a, ast.Starred) and isinstance(a.value, ast.Name))
    return out


def _key(node: ast.AST, mutable: set[str]) -> Key | None:
    """`(t, k)` when `node` is the look-up `t[k]` of two plain names, `t` never changed in place."""
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name) \
            and isinstance(node.slice, ast.Name) and node.value.id not in mutable:
        return node.value.id, node.slice.id
    return None


def _first(e: ast.expr) -> ast.expr:
    """The part of `e` evaluated first, always: a look-up's own node, or `e` itself."""
    while True:
        if isinstance(e, ast.UnaryOp):
            e = e.operand
        elif isinstance(e, ast.Compare):
            e = e.left
        elif isinstance(e, ast.BoolOp):
            e = e.values[0]
        elif isinstance(e, ast.BinOp):
            e = e.left
        else:
            return e


def _stores(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}


def _count(node: ast.AST, key: Key, mutable: set[str]) -> int:
    return sum(1 for n in ast.walk(node) if _key(n, mutable) == key)


class _Reuse(ast.NodeTransformer):
    """Each look-up of `keys` -> a read of its local."""

    def __init__(self, keys: dict[Key, str], mutable: set[str]):
        self.keys, self.mutable = keys, mutable

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:  # noqa: N802 - the visitor's protocol
        key = _key(node, self.mutable)
        if key is not None and key in self.keys:
            return ast.copy_location(ast.Name(self.keys[key], ast.Load()), node)
        self.generic_visit(node)
        return node


def _in_list(lst: list[ast.stmt], mutable: set[str], fresh: Callable[[str], str]) -> bool:
    """The look-ups of one statement list kept where first made, read from the local after."""
    kept: dict[Key, str] = {}  # look-up -> the local holding it, valid at this point of the list
    done = False
    at = 0
    while at < len(lst):
        s = lst[at]
        stored = _stores(s)
        if kept and not stored & {n for k in kept for n in (*k, kept[k])} \
                and any(_count(s, k, mutable) for k in kept):
            lst[at] = s = _Reuse(kept, mutable).visit(s)
            done = True
        first = _first(s.test) if isinstance(s, ast.If) else s.value if isinstance(s, ast.Assign) else None
        key = _key(first, mutable) if first is not None else None
        for k in [k for k in kept if stored & {*k, kept[k]}]:
            del kept[k]  # a name it reads, or its local, bound anew
        if key is not None and key not in kept and not stored & set(key):
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                later = sum(_count(t, key, mutable) for t in lst[at + 1:])
                if later:  # `x = t[k]`: x holds it from here on
                    kept[key] = s.targets[0].id
            elif isinstance(s, ast.If) and _count(s, key, mutable) + sum(_count(t, key, mutable) for t in lst[at + 1:]) > 1:
                local = fresh("cl")
                lst.insert(at, located(ast.Assign([ast.Name(local, ast.Store())],
                                                  ast.Subscript(ast.Name(key[0], ast.Load()),
                                                                ast.Name(key[1], ast.Load()), ast.Load())), s))
                at += 1
                kept[key] = local
                lst[at] = _Reuse({key: local}, mutable).visit(s)
                done = True
        at += 1
    return done


def _in_chain(chain: ast.BoolOp, mutable: set[str], fresh: Callable[[str], str]) -> bool:
    """Within one `and`/`or`: an operand that starts with a look-up read again by a later
    operand binds it with `:=`; the later ones read the name."""
    done = False
    for i, operand in enumerate(chain.values[:-1]):
        first = _first(operand)
        key = _key(first, mutable)
        rest = chain.values[i + 1:]
        if key is None or any(_stores(r) & set(key) for r in rest) or not sum(_count(r, key, mutable) for r in rest):
            continue
        local = fresh("cl")
        walrus = located(ast.copy_location(ast.NamedExpr(ast.Name(local, ast.Store()), first), first), first)
        chain.values[i] = _Replace(first, walrus).visit(operand)
        reuse = _Reuse({key: local}, mutable)
        chain.values[i + 1:] = [reuse.visit(r) for r in rest]
        done = True
    return done


class _Replace(ast.NodeTransformer):
    """The one node `old` (by identity) -> `new`."""

    def __init__(self, old: ast.AST, new: ast.AST):
        self.old, self.new = old, new

    def visit(self, node: ast.AST) -> ast.AST:
        if node is self.old:
            return self.new
        return super().visit(node)
