"""`removed where offered`: a pass over a fused apply (machine.py `fused_apply`) once its copies
are in (codegen `fused_finished`).

Why: the fused apply first finds the move among those offered, by identity, and where the next
listing follows the move (follows.py) it later takes the move out of a copy of that list:

    for offered in legal:
        if offered is action:
            break
    else:
        return _GAME_APPLY(G, action, player)
    ...
    legal = legal.copy()
    legal.remove(action)

`list.remove` compares by equality: every move before it is a tuple compared with the move's
(its name, then its arguments' tuple, compared twice over where they differ), about a hundred
nanoseconds a tic-tac-toe move. The scan has found the move's position already; it is counted
there and the copy loses the item at it:

    _ix = 0
    for offered in legal:
        if offered is action:
            break
        _ix += 1
    ...
    legal = legal.copy()
    del legal[_ix]

The same list less the same item: the offered list has each move once (a listing offers a move
once), it is the game's `_legal`, never changed in place, and here `legal` is bound only to it
and to copies of itself, changed only by the one removal, which runs at most once.

The count costs four bytecodes a move scanned past, every move, so the code generator runs the
pass only where the removal runs every move too: the move surely fails its own test once played
(follows.py `taken_by_its_move`, tic-tac-toe's `place`), where machine.py `follow_lines` writes
the removal without that test. Connect four, which removes a move only when its column fills,
keeps `remove` (counting there cost 1.4%).
"""

from __future__ import annotations

import ast

from .pytree import located, statement_lists

_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse",
                       "__setitem__", "__delitem__", "__iadd__", "__imul__"})


def removed_where_offered(fn: ast.FunctionDef) -> bool:
    """The rewrite above, in place over fused apply `fn`; True when it was made."""
    scan = _scan(fn)
    if scan is None or any(type(n) is ast.Name and n.id == "_ix" for n in ast.walk(fn)):
        return False
    removals = [(lst, k) for lst in statement_lists(fn.body) for k, s in enumerate(lst) if _is_removal(s)]
    if len(removals) != 1:
        return False
    lst, k = removals[0]
    if k == 0 or ast.unparse(lst[k - 1]) != "legal = legal.copy()" or not _once(fn, lst[k]):
        return False
    if not _legal_kept(fn, lst[k]):
        return False
    holder, at, loop = scan
    holder.insert(at, located(ast.Assign([ast.Name("_ix", ast.Store())], ast.Constant(0)), loop))
    loop.body.append(located(ast.AugAssign(ast.Name("_ix", ast.Store()), ast.Add(), ast.Constant(1)), loop.body[-1]))
    lst[k] = located(ast.Delete([ast.Subscript(ast.Name("legal", ast.Load()), ast.Name("_ix", ast.Load()), ast.Del())]),
                     lst[k])
    return True


def _scan(fn: ast.FunctionDef) -> tuple[list[ast.stmt], int, ast.For] | None:
    """The scan for the move among those offered (`for offered in legal: if offered is action:
    break`, `else` a return), with the list holding it and its place there."""
    for lst in statement_lists(fn.body):
        for at, s in enumerate(lst):
            if type(s) is ast.For and ast.unparse(s.target) == "offered" and ast.unparse(s.iter) == "legal" \
                    and [ast.unparse(x) for x in s.body] == ["if offered is action:\n    break"] \
                    and len(s.orelse) == 1 and type(s.orelse[0]) is ast.Return:
                return lst, at, s
    return None


def _is_removal(s: ast.stmt) -> bool:
    return type(s) is ast.Expr and ast.unparse(s) == "legal.remove(action)"


def _once(fn: ast.FunctionDef, removal: ast.stmt) -> bool:
    """The removal runs at most once a call: in no loop, or directly in a `while True:` that it
    leaves at once (`break` after it), itself in no other loop."""
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(fn):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    loops: list[ast.AST] = []
    node: ast.AST = removal
    while id(node) in parents:
        node = parents[id(node)]
        if type(node) in (ast.For, ast.While, ast.AsyncFor):
            loops.append(node)
    if not loops:
        return True
    if len(loops) != 1 or type(loops[0]) is not ast.While or ast.unparse(loops[0].test) != "True":
        return False
    for lst in statement_lists(loops[0].body):
        if removal in lst:
            k = lst.index(removal)
            return k + 1 < len(lst) and type(lst[k + 1]) is ast.Break
    return False


def _legal_kept(fn: ast.FunctionDef, removal: ast.stmt) -> bool:
    """`legal` bound only to the game's list (`legal = G._legal`) and to copies of itself, and
    changed by nothing but `removal`; `action` never bound again."""
    removed = removal.value  # type: ignore[attr-defined]
    allowed: set[int] = set()  # the targets of `legal = G._legal` and `legal = legal.copy()`
    for node in ast.walk(fn):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name \
                and node.targets[0].id == "legal" and ast.unparse(node.value) in ("G._legal", "legal.copy()"):
            allowed.add(id(node.targets[0]))
    for node in ast.walk(fn):
        kind = type(node)
        if kind is ast.Name and type(node.ctx) is not ast.Load and (
                node.id == "action" or node.id == "legal" and id(node) not in allowed):
            return False
        if kind is ast.Call and node is not removed and type(node.func) is ast.Attribute \
                and type(node.func.value) is ast.Name and node.func.value.id == "legal" \
                and node.func.attr in _MUTATORS:
            return False
        if kind is ast.Subscript and type(node.value) is ast.Name and node.value.id == "legal" \
                and type(node.ctx) is not ast.Load:
            return False
        if kind is ast.Call and any(type(a) is ast.Name and a.id == "legal" for a in [*node.args, *(k.value for k in node.keywords)]) \
                and not _reads_only(node):
            return False
    return True


def _reads_only(call: ast.Call) -> bool:
    """A call handed `legal` that only reads it: `len`, or a copy of it kept as the game's."""
    return type(call.func) is ast.Name and call.func.id in ("len", "list", "tuple", "bool")
