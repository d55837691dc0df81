"""Values of the current player worked out per player once (`by player`): a pass over a listing.

Why: a listing often starts by working out something of the current player alone: breakthrough's
`steps(current)`, the three directions a piece may step in, is `_uniq([...])` of conditional
look-ups, made again at every decision, and the numbered domain made from it (numbered.py) is a
list of pairs made again too. Both depend on nothing but `current` and the program's constants.

The pass: a statement at the top of a listing `x = E`, where `E` reads only `_cur` (the current
player, bound by the function's prologue), the program's constants, `_uniq`, locals bound so
already, and names its own comprehensions bind, is worked out for every declared player when
the program is compiled, and for no current player (None) where that works too; the statement
becomes `x = T[_cur]` for that table `T` (`T[_cur] if _cur in T else E` where None is not in
it: a listing outside any turn works `E` out as written). Only where `x`
is bound once and read only as a loop's iterable (so no code changes the shared value), and
where working `E` out succeeds for every player (a failure is left to happen where it did).

Sound because `E` is a function of `_cur` alone: the same expression over the same constants
gives the same value, and `_uniq` makes a new list from its items without changing them.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from .pytree import located, name_uses

CURRENT = "_cur"  # the current player in a listing, bound by CodeGen.prologue
PURE = {"_uniq"}  # the runtime helpers `E` may call: they read their arguments only


def by_player(fn: ast.FunctionDef, players: tuple[str, ...], constants: dict[str, Any],
              helpers: dict[str, Any], const: Callable[[Any, str], str]) -> bool:
    """The pass, in place over `fn`; True when a value was worked out per player."""
    if not players:
        return False
    stores, loads, iterated = name_uses(fn)
    tabled: dict[str, dict[str, Any]] = {}  # local -> its value per player
    done = False
    for s in fn.body:
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
            continue
        x = s.targets[0].id
        if stores.get(x) != 1 or iterated.get(x, 0) != loads.get(x, 0) or not _reads_current_only(s.value, constants, tabled):
            continue
        values = _per_player(s.value, players, constants, helpers, tabled)
        if values is None:
            continue
        table = ast.Name(const(values, "PP"), ast.Load())
        looked_up = ast.Subscript(table, ast.Name(CURRENT, ast.Load()), ast.Load())
        if None not in values:  # no current player (a listing outside any turn): as written
            looked_up = ast.IfExp(ast.Compare(ast.Name(CURRENT, ast.Load()), [ast.In()], [table]), looked_up, s.value)
        tabled[x] = values
        s.value = located(looked_up, s.value)
        done = True
    if done:  # a value read only by another worked out per player is read no more
        read = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        fn.body = [s for s in fn.body if not (isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name)
                                              and s.targets[0].id in tabled and s.targets[0].id not in read)]
    return done


def _reads_current_only(e: ast.expr, constants: dict[str, Any], tabled: dict[str, dict]) -> bool:
    """Whether `e` reads the current player and nothing else of the game: every name it loads is
    `_cur`, a constant, a pure helper, a local worked out per player already, or bound by one
    of its comprehensions; and it does nothing but look up, compare, choose and build."""
    bound = {n.id for n in ast.walk(e) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    reads_current = False
    for n in ast.walk(e):
        if isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom)):
            return False
        if isinstance(n, ast.Attribute) and not _constant_get(n, constants):
            return False
        if isinstance(n, ast.Call) and not (isinstance(n.func, ast.Name) and n.func.id in PURE) \
                and not (isinstance(n.func, ast.Attribute) and _constant_get(n.func, constants)):
            return False
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            if n.id == CURRENT:
                reads_current = True
            elif not (n.id in constants or n.id in PURE or n.id in tabled or n.id in bound):
                return False
            reads_current |= n.id in tabled
    return reads_current


def _constant_get(n: ast.Attribute, constants: dict[str, Any]) -> bool:
    """`C.get` of a constant dict (a numbered domain's look-up of a value's number)."""
    return n.attr == "get" and isinstance(n.value, ast.Name) and isinstance(constants.get(n.value.id), dict)


def _per_player(e: ast.expr, players: tuple[str, ...], constants: dict[str, Any], helpers: dict[str, Any],
                tabled: dict[str, dict]) -> dict[str, Any] | None:
    """`e`'s value for each player, or None where working it out fails for one."""
    code = compile(located(ast.Expression(e), e), "<by player>", "eval")
    out = {}
    for p in (*players, None):
        try:  # (a local worked out before that failed for None fails this one for None too)
            scope = {**constants, **{h: helpers[h] for h in PURE}, CURRENT: p,
                     **{x: values[p] for x, values in tabled.items()}, "__builtins__": {}}
            out[p] = eval(code, scope)  # noqa: S307 - generated from the checked rules, as the program is
        except Exception:  # noqa: BLE001 - left to fail (or not) where it did, at run time
            if p is not None:
                return None
    return out
