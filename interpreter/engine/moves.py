"""Moves: a bound, playable action (`Action`), written as text and read back.

`str(move)` writes a move the way rules and scenarios do (`place(b2)`, `say("a, b")`,
`conquer(3, [e5, d5])`), and `parse_action` reads it with the rules' own grammar, so the two
round-trip: `parse_action(str(m)) == m` for every move a game offers.
"""

from __future__ import annotations

import sys
from typing import Any, NamedTuple

from ...dsl import ast as A
from ...dsl.diagnostics import RulesError
from .canonical import interned
from .errors import IllegalAction
from .values import value_text


class _Move(NamedTuple):
    name: str
    args: tuple = ()


class Action(_Move):
    """A bound, playable move: an action name and its arguments (`pass`, `choose` built in).
    Made from anything else (`Action(None)`, `Action("place", "b2")`) it is IllegalAction,
    saying what a move is; the engine makes its own moves without this check."""

    __slots__ = ()

    def __new__(cls, name: str, args: tuple = ()) -> Action:
        if type(name) is not str or not name:
            raise IllegalAction(f"not a move: Action({_short(repr(name))}, ...): the first part is the "
                                "action's name, a text such as 'place'")
        if type(args) is not tuple:
            if type(args) is not list:
                raise IllegalAction(f"not a move: Action({name!r}, {_short(repr(args))}): the arguments "
                                    f"are a tuple, e.g. Action({name!r}, ('b2',))")
            args = tuple(args)
        return tuple.__new__(cls, (name, args))

    def __hash__(self) -> int:  # list arguments (a tile's squares) still make a hashable move
        return hash((self.name, _frozen(self.args)))

    def __str__(self) -> str:
        if not self.args:
            return self.name
        return f"{self.name}(" + ", ".join(value_text(a) for a in self.args) + ")"


def _frozen(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return tuple(_frozen(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _frozen(x)) for k, x in v.items()))
    if isinstance(v, frozenset):
        return v
    return v


def same_value(a: Any, b: Any) -> bool:
    """Equal and of the same kind: `1` is not `true`, `[1]` is not `[true]`."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    return a == b


def same_move(a: Action, b: Action) -> bool:
    """The same move, arguments of the same kinds. Plain equality first (in C): moves that
    differ are told apart without the kind-aware walk, which only the match needs (equal
    values of the same kind are equal, so this never turns a match away)."""
    return a is b or (a == b and a.name == b.name and (a.args is b.args or same_value(a.args, b.args)))


def parse_action(text: str) -> Action:
    """Read a move: `name`, or `name(arg, ...)` with names, numbers, texts, true/false/none,
    lists, sets and maps as arguments (what `str(move)` writes)."""
    from ...dsl.parse import parse_action_call

    if not isinstance(text, str):
        raise IllegalAction(f"not a move: {text!r}")
    try:
        call = parse_action_call(text)
    except RulesError as err:
        d = err.diagnostics[0]
        raise IllegalAction(f"cannot read move {_shown(text)}: {d.message} (column {d.span.column})") from None
    try:
        return Action(sys.intern(call.name), tuple(literal_value(a) for a in call.args))
    except ValueError as err:
        raise IllegalAction(f"cannot read move {_shown(text)}: {err}") from None


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def _shown(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def literal_value(e: A.Node) -> Any:
    """The value a literal argument stands for (a name stands for itself)."""
    if isinstance(e, A.StrLit):
        return sys.intern(e.value)  # canonical names (canonical.py)
    if isinstance(e, (A.IntLit, A.BoolLit)):
        return e.value
    if isinstance(e, A.NoneLit):
        return None
    if isinstance(e, A.Name):
        return sys.intern(e.name)
    if isinstance(e, A.Neg) and isinstance(e.operand, A.IntLit):
        return -e.operand.value
    if isinstance(e, A.ListLit):
        return [literal_value(x) for x in e.items]
    if isinstance(e, A.SetLit):
        return frozenset(literal_value(x) for x in e.items)
    if isinstance(e, A.MapLit):
        return {literal_value(k): literal_value(v) for k, v in e.items}
    if isinstance(e, A.RecordLit):
        return {n: literal_value(v) for n, v in e.fields}
    raise ValueError("an argument is a value (a name, number, text, list or map), not an expression")


def as_action(x: Any) -> Action:
    """What the API accepts as a move: an Action, its text, or a (name, args) pair; its names
    canonical (canonical.py), so that rules asked about it (`explain`) compare them rightly."""
    if isinstance(x, Action):
        return interned(x)  # the same move where it is canonical already (an offered one)
    if isinstance(x, str):
        return parse_action(x)
    if isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) and isinstance(x[1], (list, tuple)):
        return interned(Action(x[0], tuple(x[1])))
    raise IllegalAction(f"not a move: {_shown(repr(x))} (give an Action, its text, or a (name, args) pair)")
