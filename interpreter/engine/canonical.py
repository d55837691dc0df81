"""Canonical names: every text a game holds is the interpreter's one object for that text.

Why: the generated code compares a looked-up value with the current player on every win test
and most listings (`cell[t] == current`). Where every text the program can read is the
interned object (`sys.intern`), two equal texts are the same object, and `cell[t] is current`
answers exactly what `==` does, in one instruction and without asking the text's type
(compiler/curcompare.py, `names by identity`).

The program's own texts are interned where they are made: the generated code's constants
(`interned_code`), the constants, options and data a game reads, the element tables, the
players. Texts that come from outside are interned where they come in: a save's state, an
option, a scripted chance outcome; a move given as text or made elsewhere is replaced by the
offered move it names before it is played (game.py `_legal_move`). The rules make no new
texts at run time: their values are copies of these, so the invariant holds for every state
the rules reach. `strays` lists the texts that break it (the tests walk every bundled
ruleset's games, clones and loads with it).

Containers are interned in place (dicts, lists, sets), so whatever shares them sees the same
objects; tuples and frozensets are made anew only where something in them changed.
"""

from __future__ import annotations

import sys
from types import CodeType
from typing import Any

_intern = sys.intern


def interned(value: Any, _seen: dict[int, Any] | None = None) -> Any:
    """`value` with every text in it interned: dicts, lists and sets changed in place and
    returned as they are, tuples (named ones too) and frozensets made anew where an item
    changed; anything else returned unchanged."""
    t = type(value)
    if t is str:
        return _intern(value)
    if t in _LEAVES:
        return value
    seen = {} if _seen is None else _seen
    done = seen.get(id(value))
    if done is not None:
        return done[1]
    seen[id(value)] = (value, value)  # a cycle returns the container itself
    if t is dict:
        pairs = [(interned(k, seen), interned(x, seen)) for k, x in value.items()]
        if any(k is not k0 for (k, _x), k0 in zip(pairs, value, strict=True)):
            value.clear()
            value.update(pairs)
        else:
            for k, x in pairs:
                if value[k] is not x:
                    value[k] = x
        out = value
    elif t is list:
        for i, x in enumerate(value):
            y = interned(x, seen)
            if y is not x:
                value[i] = y
        out = value
    elif t is set:
        items = [interned(x, seen) for x in value]
        value.clear()
        value.update(items)
        out = value
    elif isinstance(value, tuple) or t is frozenset:
        items = [interned(x, seen) for x in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            out = value
        elif t is frozenset:
            out = frozenset(items)
        else:
            out = tuple.__new__(t, items) if t is not tuple else tuple(items)
    else:
        out = value
    seen[id(value)] = (value, out)  # the value kept alive: ids are not reused while we walk
    return out


_LEAVES = frozenset({int, bool, float, type(None), bytes, range})


def interned_code(code: CodeType) -> CodeType:
    """`code` with every text constant interned, its nested functions' too. CPython interns
    only constants that look like identifiers; a name such as 'Noord-Holland' or 'Zeeën' would
    otherwise be a second object equal to the state's."""
    consts = tuple(
        interned_code(c) if type(c) is CodeType else interned(c) if type(c) in (str, tuple, frozenset) else c
        for c in code.co_consts
    )
    if all(a is b for a, b in zip(consts, code.co_consts, strict=True)):
        return code
    return code.replace(co_consts=consts)


def strays(value: Any, path: str = "", _seen: set[int] | None = None) -> list[tuple[str, str]]:
    """Every text in `value` that is not the interned object, with where it is: the
    invariant's test. (Asking `sys.intern` interns a text no equal one was interned for; such
    a text is then the interned one, and a second equal object is still reported.)"""
    seen = set() if _seen is None else _seen
    t = type(value)
    if t is str:
        return [] if _intern(value) is value else [(path, value)]
    if t in _LEAVES or id(value) in seen:
        return []
    seen.add(id(value))
    out: list[tuple[str, str]] = []
    if t is dict:
        for k, x in value.items():
            out += strays(k, f"{path} key {k!r}", seen)
            out += strays(x, f"{path}[{k!r}]", seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for i, x in enumerate(value):
            out += strays(x, f"{path}[{i}]", seen)
    return out


def game_strays(game: Any) -> list[tuple[str, str]]:
    """The texts the rules of `game` can read that are not canonical: its variables, players,
    current player, options and constants, the frames' locals, the pending decision, the
    scripted chance outcomes, an open window, and the moves it offers. (A frame's label, such
    as `when:3`, names a rule for the trace; the rules never read it.)"""
    out = strays(game.vars, "vars") + strays(game.players, "players") + strays(game.current, "current")
    out += strays(game.options, "options") + strays(game.consts, "constants")
    for i, frame in enumerate(game.frames):
        out += strays(frame[2], f"frames[{i}].locals")
    out += strays(game.pending, "pending") + strays(game.scripted, "scripted")
    out += strays(getattr(game, "window", None), "window")
    if game.result is None and game.chance_node is None and game.pending is not None:
        for p in game.players:
            out += strays(game.legal_actions(p), f"legal for {p}")
    return out
