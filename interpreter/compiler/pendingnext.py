"""`pending with the successor`: a pass over a generated function's final tree (codegen).

Why: a turn that rotates finds the next seat in a table the game made of its players, and the
decision that follows looks up that player's pending record in the program's `PLAYING`:

    nxt_p, new_round, nxt_pending = G._next[G.current]
    if new_round:
        G.round += 1
    G.current = nxt_p
    who = nxt_p
    try:
        G.pending = PLAYING[who]
    except KeyError:
        G.pending = {'kind': 'play', 'player': who}

The table's entry holds the successor's pending record too (`Game.__init__`: the same object as
`PLAYING[successor]`, or a record of its own where the program has none), so where the player
asked is the successor the table just gave, the look-up by name is the record already at hand:

    who = nxt_p
    G.pending = nxt_pending

a dict look-up by a player's name less a turn (about 80 instructions; 0.4% of a tic-tac-toe
game). The pass rewrites a look-up only where it is sure the name is that successor: the
successor's unpacking comes before it in the same run of statements, and between the two nothing
binds the successor's name again, and the name looked up is the successor's own or a name bound
to it there (and not bound again before the look-up). Anything else keeps the look-up.
"""

from __future__ import annotations

import ast

from .pytree import located, statement_lists

SUCCESSOR, PENDING = "nxt_p", "nxt_pending"


def pending_with_next(fn: ast.FunctionDef) -> bool:
    """Rewrite each sure look-up of the successor's pending record in `fn`; whether any was."""
    done = False
    for body in statement_lists(fn.body):
        for i, st in enumerate(list(body)):
            if _unpacks_successor(st):
                done |= _rewrite_after(body, i)
    return done


def _unpacks_successor(st: ast.stmt) -> bool:
    """`nxt_p, new_round, nxt_pending = G._next[...]`."""
    if not (type(st) is ast.Assign and len(st.targets) == 1 and type(st.targets[0]) is ast.Tuple):
        return False
    names = [e.id if type(e) is ast.Name else None for e in st.targets[0].elts]
    value = st.value
    return len(names) == 3 and names[0] == SUCCESSOR and names[2] == PENDING and type(value) is ast.Subscript \
        and type(value.value) is ast.Attribute and value.value.attr == "_next" \
        and type(value.value.value) is ast.Name and value.value.value.id == "G"


def _rewrite_after(body: list[ast.stmt], i: int) -> bool:
    """The look-ups after `body[i]`'s unpacking, up to where the successor's name is bound
    again: those of the successor's name or of a name bound to it on the way."""
    same = {SUCCESSOR}  # names that hold the successor here
    done = False
    for j in range(i + 1, len(body)):
        st = body[j]
        subject = _pending_lookup(st)
        if subject is not None and subject in same:
            body[j] = located(ast.Assign([ast.Attribute(ast.Name("G", ast.Load()), "pending", ast.Store())],
                                         ast.Name(PENDING, ast.Load())), st)
            done = True
            continue
        bound = _bound(st)
        if SUCCESSOR in bound or PENDING in bound:
            break
        alias = _alias(st)
        same -= bound
        if alias is not None:
            same.add(alias)
    return done


def _alias(st: ast.stmt) -> str | None:
    """`who = nxt_p` (or a name bound to it): the name it binds to the successor."""
    if type(st) is ast.Assign and len(st.targets) == 1 and type(st.targets[0]) is ast.Name \
            and type(st.value) is ast.Name and st.value.id == SUCCESSOR:
        return st.targets[0].id
    return None


def _bound(st: ast.stmt) -> set[str]:
    """Every name `st` binds, anywhere inside it."""
    return {n.id for n in ast.walk(st) if type(n) is ast.Name and not isinstance(n.ctx, ast.Load)}


def _pending_lookup(st: ast.stmt) -> str | None:
    """The name of `try: G.pending = PLAYING[name] / except KeyError: G.pending = {...}`."""
    if not (type(st) is ast.Try and len(st.body) == 1 and len(st.handlers) == 1 and not st.orelse
            and not st.finalbody):
        return None
    handler = st.handlers[0]
    if not (type(handler.type) is ast.Name and handler.type.id == "KeyError" and handler.name is None
            and len(handler.body) == 1 and _sets_pending(handler.body[0]) is not None
            and type(handler.body[0].value) is ast.Dict):  # type: ignore[attr-defined]
        return None
    value = _sets_pending(st.body[0])
    if not (type(value) is ast.Subscript and type(value.value) is ast.Name and value.value.id == "PLAYING"
            and type(value.slice) is ast.Name):
        return None
    return value.slice.id


def _sets_pending(st: ast.stmt) -> ast.expr | None:
    """The value of `G.pending = value`."""
    if type(st) is ast.Assign and len(st.targets) == 1 and type(st.targets[0]) is ast.Attribute \
            and st.targets[0].attr == "pending" and type(st.targets[0].value) is ast.Name \
            and st.targets[0].value.id == "G":
        return st.value
    return None
