"""A look-up compared with the current player, none tested first (`current compared`): a pass
over every function of a program, after the copies are made.

Why: connect four's win test walks each ray from the square just filled while `cell[t] ==
current`, and the square that ends a run is most often empty. CPython compares two texts in a
specialised instruction, but None against a text goes through `PyObject_RichCompare`, which asks
both types and falls back to identity, and a site that sees both loses its specialisation
(`none first`, nonefirst.py, which writes such forms only where both sides are local names, since
it evaluates them twice). Here the look-up is evaluated once, into a local:

    m[k] == cur      ->  ((t := m[k]) is cur or t is not None and t == cur)
    m[k] != cur      ->  ((t := m[k]) is None or t is not cur and t != cur)

Exact for any value `m[k]` may hold, because `cur` is never None: it is `_cur` or `_mover`, which
generated code binds only to `G.current`, and the engine keeps `G.current` one of the players
(set from them, checked when a save is loaded; the checker refuses a `turn` for a value that may
be none, E245). A text is equal to itself, so identity answers the same as `==` where it holds;
None equals no text. The look-up is evaluated where it was, once, so a failure is the same one.

`names by identity` (switch `CodeGen.NAMES_BY_IDENTITY`) goes further: `m[k] is cur` and
`m[k] is not cur`. Exact because every text the rules can read is the interpreter's one object
for that text (engine/canonical.py: the program's constants, elements, players, data and
options interned where they are made, a save's and a script's texts where they come in, and no
rule makes a new text), so two equal texts are one object; and a value that is not a text
(None, a number) is neither equal nor identical to a player.

Not inside a comprehension or lambda (`:=` would bind in the function around it, or is not
allowed in a comprehension's iterable), nor in the explain functions, which record each
comparison's values as written (their look-ups are recorded values, `(_x1 := ...)`, and do not
have the pattern anyway).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .pytree import located

CURRENT_NAMES = ("_cur", "_mover")


def current_compared(fn: ast.FunctionDef, fresh: Callable[[str], str], identity: bool = False) -> bool:
    """The pass, in place over `fn`; True when a comparison was rewritten. With `identity`
    (`names by identity`), the comparison is `m[k] is cur` / `is not`. One walk finds the
    comparisons of the pattern and the bindings of the names; most functions have none and
    end there (the pass runs over every function of a program: Root's compile time)."""
    candidates = False
    plain: set[int] = set()  # the targets of `name = G.current`
    bound: list[ast.AST] = []  # every other binding of a name of CURRENT_NAMES, a parameter too
    for node in ast.walk(fn):
        kind = type(node)
        if kind is ast.Compare:
            candidates = candidates or _looked_up_and_current(node) is not None
        elif kind is ast.Assign:
            t = node.targets  # type: ignore[attr-defined]
            if len(t) == 1 and type(t[0]) is ast.Name and t[0].id in CURRENT_NAMES and _is_g_current(node.value):  # type: ignore[attr-defined]
                plain.add(id(t[0]))
        elif kind is ast.Name:
            if node.id in CURRENT_NAMES and type(node.ctx) is not ast.Load:  # type: ignore[attr-defined]
                bound.append(node)
        elif kind is ast.arg and node.arg in CURRENT_NAMES:  # type: ignore[attr-defined]
            bound.append(node)
    if not candidates:
        return False
    names = set(CURRENT_NAMES) - {getattr(n, "id", None) or n.arg for n in bound if id(n) not in plain}  # type: ignore[attr-defined]
    if not names:
        return False
    done = False
    for node in _outside_scopes(fn.body):
        for field, value in ast.iter_fields(node):
            if isinstance(value, list):
                for i, item in enumerate(value):
                    new = _rewritten(item, names, fresh, identity)
                    if new is not None:
                        value[i] = new
                        done = True
            else:
                new = _rewritten(value, names, fresh, identity)
                if new is not None:
                    setattr(node, field, new)
                    done = True
    return done


def _is_g_current(e: ast.expr) -> bool:
    return isinstance(e, ast.Attribute) and e.attr == "current" and isinstance(e.value, ast.Name) and e.value.id == "G"


def _outside_scopes(stmts: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of `stmts` not inside a comprehension or lambda."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
                             ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _simple(e: ast.expr) -> bool:
    return isinstance(e, (ast.Name, ast.Constant))


def _looked_up_and_current(e: ast.Compare) -> tuple[ast.Subscript, ast.Name] | None:
    """(the look-up, the name) of `m[k] == cur` or `!=` (either way round), `cur` one of
    CURRENT_NAMES, `m` a name and `k` a name or a constant; None for any other comparison."""
    if len(e.ops) != 1 or type(e.ops[0]) not in (ast.Eq, ast.NotEq):
        return None
    left, right = e.left, e.comparators[0]
    if type(right) is ast.Name and right.id in CURRENT_NAMES and type(left) is ast.Subscript:
        look, cur = left, right
    elif type(left) is ast.Name and left.id in CURRENT_NAMES and type(right) is ast.Subscript:
        look, cur = right, left
    else:
        return None
    if type(look.value) is not ast.Name or not _simple(look.slice):
        return None
    return look, cur


def _rewritten(e: object, names: set[str], fresh: Callable[[str], str], identity: bool) -> ast.expr | None:
    """The form above for the comparison `e`, or None where `e` does not have its pattern."""
    if not isinstance(e, ast.Compare):
        return None
    found = _looked_up_and_current(e)
    if found is None or found[1].id not in names:
        return None
    look, cur = found
    if identity:  # every text the rules read is canonical (engine/canonical.py)
        op = ast.Is() if isinstance(e.ops[0], ast.Eq) else ast.IsNot()
        return located(ast.copy_location(ast.Compare(look, [op], [ast.Name(cur.id, ast.Load())]), e), e)
    t = fresh("cq")

    def name(store: bool = False) -> ast.Name:
        return ast.Name(t, ast.Store() if store else ast.Load())

    def c(a: ast.expr, op: ast.cmpop, b: ast.expr) -> ast.Compare:
        return ast.Compare(a, [op], [b])

    kept = ast.NamedExpr(name(True), look)
    none = ast.Constant(None)
    cur_ = ast.Name(cur.id, ast.Load())
    if isinstance(e.ops[0], ast.Eq):
        form = ast.BoolOp(ast.Or(), [c(kept, ast.Is(), cur_),
                                     ast.BoolOp(ast.And(), [c(name(), ast.IsNot(), none), c(name(), ast.Eq(), cur_)])])
    else:
        form = ast.BoolOp(ast.Or(), [c(kept, ast.Is(), none),
                                     ast.BoolOp(ast.And(), [c(name(), ast.IsNot(), cur_), c(name(), ast.NotEq(), cur_)])])
    return located(ast.copy_location(form, e), e)
