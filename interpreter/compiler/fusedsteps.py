"""The fused apply's own steps trimmed (`fused steps trimmed`): exact rewrites of the
copied block lines in a fused `apply` (machine.py `fused_apply`), made on its tree once the
copies are in (pytree.expand).

Why: a fused apply is every move's fixed cost in a random playout of tic-tac-toe or connect
four, and its copy of the block repeats what the lines before it already did (architecture
§17, 2026-12-07):

- the move's arguments unpacked twice: once for its effect, once more where the listing
  follows the move (follows.py), `p0, = action[1]` both times. The second is dropped where
  the first is the first statement of a `try` whose handlers all raise (so it ran whenever
  the lines after the `try` run), in the same statement list, and nothing between binds
  those names again; `action` is the apply's parameter, never bound in it.
- `m = None` after the move's effect (the block's signal that the move was played): dropped
  where nothing after it reads `m` and it stands in no loop.
- `who = G.current` just after `G.current = nxt_p`: `who = nxt_p`, and so for each
  assignment of `G.current` to a name that follows in the same statement list, over
  assignments to other names whose values call nothing (nothing can change `G.current`
  there).
- `m = action` at the top (the block's name for the move): dropped, and `m` read as
  `action`, where it is then the only binding of `m` (`action` is never bound either).
- traced, the turn's step `rt`: its `rt = None` first is dropped where the next statement of
  its list that names `rt` binds it anew and none between can jump out of a loop around it
  (no handler reads it); and `if rt is None:` / `if rt is not None:` after `rt = (...)`, its
  only binding, is the branch taken. `G.current` is read as the local just read from it
  (`_tp0 = G.current`) too, in the statements that follow while they call nothing.
"""

from __future__ import annotations

import ast

from .pytree import statement_lists


def fused_steps_trimmed(fn: ast.FunctionDef) -> bool:
    """The rewrites above, in place over the fused apply `fn`; True when something changed."""
    stored = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    changed = False
    for lst in statement_lists(fn.body):
        if "action" not in stored:
            changed |= _unpacked_once(lst)
        changed |= _current_known(lst)
        while _overwritten_first(lst, fn) or _known_not_none(lst, fn):
            changed = True
    changed |= _dead_move_signal(fn)
    changed |= _move_is_action(fn)
    return changed


def _move_is_action(fn: ast.FunctionDef) -> bool:
    """`m = action` dropped and `m` read as `action` where that is the only binding of `m`
    left (the fourth case)."""
    binds = [n for n in ast.walk(fn) if type(n) is ast.Name and n.id == "m" and type(n.ctx) is not ast.Load]
    if len(binds) != 1:
        return False
    for lst in statement_lists(fn.body):
        for i, s in enumerate(lst):
            if type(s) is ast.Assign and len(s.targets) == 1 and s.targets[0] is binds[0] \
                    and type(s.value) is ast.Name and s.value.id == "action" and len(lst) > 1:
                del lst[i]
                for n in ast.walk(fn):
                    if type(n) is ast.Name and n.id == "m":
                        n.id = "action"
                return True
    return False


def _args_unpack(s: ast.stmt) -> tuple[str, ...] | None:
    """The names of `p0, p1, = action[1]` (the move's arguments unpacked), else None."""
    if not (type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Tuple):
        return None
    v = s.value
    if not (type(v) is ast.Subscript and type(v.value) is ast.Name and v.value.id == "action"
            and type(v.slice) is ast.Constant and v.slice.value == 1):
        return None
    names = tuple(getattr(e, "id", None) for e in s.targets[0].elts)
    return None if None in names or any(type(e) is not ast.Name for e in s.targets[0].elts) else names  # type: ignore[return-value]


def _binds(nodes: list[ast.AST], names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and n.id in names
               for node in nodes for n in ast.walk(node))


def _always_raises(h: ast.ExceptHandler) -> bool:
    return bool(h.body) and type(h.body[-1]) is ast.Raise


def _unpacked_once(lst: list[ast.stmt]) -> bool:
    """The second unpack of the move's arguments dropped (module docstring, the first case)."""
    for j in range(len(lst) - 1, -1, -1):
        names = _args_unpack(lst[j])
        if names is None:
            continue
        for i in range(j - 1, -1, -1):
            t = lst[i]
            if type(t) is ast.Try and t.body and _args_unpack(t.body[0]) == names and not t.orelse \
                    and not t.finalbody and all(_always_raises(h) for h in t.handlers):
                if not _binds([*t.body[1:], *t.handlers, *lst[i + 1:j]], set(names)):
                    del lst[j]
                    return True
                break
    return False


def _current_known(lst: list[ast.stmt]) -> bool:
    """`G.current` read as the local it was last set from or read into (`G.current = nxt_p`,
    `_tp0 = G.current`) in the statements that follow in the same list, while they call
    nothing and bind neither (module docstring, the third case)."""
    changed = False
    for i, s in enumerate(lst):
        if not (type(s) is ast.Assign and len(s.targets) == 1):
            continue
        target, value = s.targets[0], s.value
        if _is_current(target) and type(value) is ast.Name:
            source = value.id
        elif type(target) is ast.Name and _is_current(value) and target.id != "G":
            source = target.id
        else:
            continue
        for t in lst[i + 1:]:
            inner = list(ast.walk(t))
            if any(type(n) in (ast.Call, ast.NamedExpr, ast.Lambda) or _is_current(n) and type(n.ctx) is not ast.Load
                   or type(n) is ast.Name and n.id in (source, "G") and type(n.ctx) is not ast.Load
                   or isinstance(n, (ast.FunctionDef, ast.ClassDef)) for n in inner):
                break
            for n in inner:
                for field, child in ast.iter_fields(n):
                    if isinstance(child, ast.expr) and _is_current(child) and type(child.ctx) is ast.Load:
                        setattr(n, field, ast.copy_location(ast.Name(source, ast.Load()), child))
                        changed = True
                    elif isinstance(child, list):
                        for j, c in enumerate(child):
                            if isinstance(c, ast.expr) and _is_current(c) and type(c.ctx) is ast.Load:
                                child[j] = ast.copy_location(ast.Name(source, ast.Load()), c)
                                changed = True
    return changed


def _overwritten_first(lst: list[ast.stmt], fn: ast.FunctionDef) -> bool:
    """`x = None` dropped where the next statement of its list that names `x` binds it anew
    (`x = ...`, not reading it) and none between can jump (`break`, `continue`): a traced
    fused apply's `rt = None` before the turn's step sets it. No handler reads `x` (an error
    between would reach one with the old value)."""
    handled = {n.id for h in ast.walk(fn) if type(h) is ast.ExceptHandler
               for n in ast.walk(h) if type(n) is ast.Name and type(n.ctx) is ast.Load}
    for i, s in enumerate(lst):
        if not (type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name
                and type(s.value) is ast.Constant and s.value.value is None) or s.targets[0].id in handled:
            continue
        x = s.targets[0].id
        for t in lst[i + 1:]:
            inner = list(ast.walk(t))
            if _jumps_out(t):
                break
            if not any(type(n) is ast.Name and n.id == x for n in inner):
                continue
            if type(t) is ast.Assign and len(t.targets) == 1 and type(t.targets[0]) is ast.Name \
                    and t.targets[0].id == x and not any(type(n) is ast.Name and n.id == x for n in ast.walk(t.value)) \
                    and len(lst) > 1:
                del lst[i]
                return True
            break
    return False


def _known_not_none(lst: list[ast.stmt], fn: ast.FunctionDef) -> bool:
    """`if x is None:` / `if x is not None:` after `x = (a tuple display)` where that is the
    only binding of `x` in the function and the test stands in a statement that follows it in
    its list: the branch taken, in its place (a traced fused apply's `rt`, the turn's step,
    always made on its way back to the decision)."""
    for i, s in enumerate(lst):
        if not (type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name
                and type(s.value) is ast.Tuple):
            continue
        x = s.targets[0].id
        if sum(type(n) is ast.Name and n.id == x and type(n.ctx) is not ast.Load for n in ast.walk(fn)) != 1:
            continue
        for inner in [lst, *(sub for t in lst[i + 1:] for sub in _nested_lists(t))]:
            for j, t in enumerate(inner):
                test = t.test if type(t) is ast.If else None
                if (inner is not lst or j > i) and type(test) is ast.Compare and type(test.left) is ast.Name \
                        and test.left.id == x and len(test.ops) == 1 and type(test.ops[0]) in (ast.Is, ast.IsNot) \
                        and type(test.comparators[0]) is ast.Constant and test.comparators[0].value is None:
                    taken = t.orelse if type(test.ops[0]) is ast.Is else t.body
                    inner[j:j + 1] = taken or [ast.copy_location(ast.Pass(), t)]
                    return True
    return False


def _nested_lists(s: ast.stmt) -> list[list[ast.stmt]]:
    """Every statement list inside `s` (its bodies, else parts, handlers, and theirs)."""
    out: list[list[ast.stmt]] = []
    for name in ("body", "orelse", "finalbody"):
        inner = getattr(s, name, None)
        if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
            out.extend(statement_lists(inner))
    for h in getattr(s, "handlers", ()):
        out.extend(statement_lists(h.body))
    return out


def _jumps_out(s: ast.stmt) -> bool:
    """Whether `s` holds a `break` or `continue` of a loop around it (not of a loop inside it)."""
    if type(s) in (ast.Break, ast.Continue):
        return True
    if type(s) in (ast.For, ast.While, ast.AsyncFor, ast.FunctionDef, ast.ClassDef):
        return any(_jumps_out(t) for t in s.orelse) if hasattr(s, "orelse") else False
    return any(_jumps_out(t) for t in ast.iter_child_nodes(s) if isinstance(t, (ast.stmt, ast.ExceptHandler))
               ) if type(s) is not ast.ExceptHandler else any(_jumps_out(t) for t in s.body)


def _is_current(e: ast.expr) -> bool:
    return type(e) is ast.Attribute and e.attr == "current" and type(e.value) is ast.Name and e.value.id == "G"


def _dead_move_signal(fn: ast.FunctionDef) -> bool:
    """`m = None` dropped where no later line reads `m` and no loop holds it (the second case).
    "Later" is the order of the statements in the function (the copies keep the line numbers
    of the functions they came from, so those say nothing here)."""
    order: list[tuple[str, ast.stmt | None, list[ast.stmt] | None]] = []  # ("load", ...) / ("signal", stmt, its list)

    def walk(lst: list[ast.stmt], looped: bool) -> None:
        for s in lst:
            if not looped and type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name \
                    and s.targets[0].id == "m" and type(s.value) is ast.Constant and s.value.value is None:
                order.append(("signal", s, lst))
                continue
            for field, value in ast.iter_fields(s):
                parts = value if isinstance(value, list) else [value]
                if parts and isinstance(parts[0], ast.stmt):
                    walk(parts, looped or type(s) in (ast.For, ast.While, ast.AsyncFor))
                elif field == "handlers":
                    for h in parts:
                        walk(h.body, looped or type(s) in (ast.For, ast.While, ast.AsyncFor))
                else:
                    for part in parts:
                        if isinstance(part, ast.AST) and any(type(n) is ast.Name and n.id == "m"
                                                             and type(n.ctx) is ast.Load for n in ast.walk(part)):
                            order.append(("load", None, None))

    walk(fn.body, False)
    changed = False
    read_later = False
    for kind, stmt, lst in reversed(order):
        if kind == "load":
            read_later = True
        elif not read_later and lst is not None and len(lst) > 1:
            lst.remove(stmt)  # type: ignore[arg-type]
            changed = True
    return changed
