"""A player's view written straight to its canonical JSON text, without the view's dicts.

Information states digest every player's view after every move (interpreter/observe/infostate.py),
and building `Observer.shared_view` / `own_view` as dicts, then encoding them, was the largest
part of noting a move's observation in the OpenSpiel bridge's first walk of a tree. A
`ViewText` is made once per observer (one player of one ruleset) from what
interpreter/observe/visibility.py decides is visible (its per-variable plan, `_hide`, `_owned`,
`pending`, `revealed`): generated code reads each state variable and writes it, in sorted
order, with code for its declared type or visibility.py's mask, exactly the text `view_json`
writes for the plain view, byte for byte (tests/test_view_text.py compares the two over whole
games of every ruleset with hidden state). Anything it has no short way for (a set, a hidden
map, an unexpected type) it writes the plain way, so it never decides visibility itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from json import encoder as json_encoder
from typing import Any

from ...dsl.types import BOOL, INT, TEXT, Elem, ListOf, MapOf, Opt
from ..engine.values import jsonable
from .visibility import HIDDEN, Observer, _hide, _owned

Writer = Callable[[Any], str]

_ENCODE_TEXT = json_encoder.encode_basestring  # what json writes a text as (ensure_ascii=False)
# one encoder for every view: json.dumps with options would build a new one per call
_VIEW_JSON = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
# ... and its C core made once too (JSONEncoder.encode makes one per call), where there is one
_C_ENCODE = None if json_encoder.c_make_encoder is None else json_encoder.c_make_encoder(
    None, str, _ENCODE_TEXT, None, ":", ",", True, False, True)


def view_json(view: Any) -> str:
    """A view as compact JSON with sorted keys (views are trees: no cycle check needed)."""
    if _C_ENCODE is None:
        return _VIEW_JSON.encode(view)
    return "".join(_C_ENCODE(view, 0))


_json = view_json  # the plain way: the canonical JSON of an already JSON-ready value


def _raw(v: Any) -> str:
    """A top-level field of the view (current player, phase, round), as json writes it."""
    t = type(v)
    if t is str:
        return _ENCODE_TEXT(v)
    if t is int:
        return int.__repr__(v)
    if v is None:
        return "null"
    return _json(v)


def public_text(v: Any) -> str:
    """`view_json(jsonable(v))` for a value the player sees whole, with short ways for the
    values state holds most: numbers, names, none, true/false, lists and maps of them."""
    t = type(v)
    if t is int:
        return int.__repr__(v)
    if t is str:
        return _ENCODE_TEXT(v)
    if v is None:
        return "null"
    if t is bool:
        return "true" if v else "false"
    if t is dict:
        keys = sorted(v) if all(type(k) is str for k in v) else None
        if keys is not None:  # json sorts a map by its (text) keys: the same order
            return "{" + ",".join(_ENCODE_TEXT(k) + ":" + public_text(v[k]) for k in keys) + "}"
    elif t is list or t is tuple:
        return "[" + ",".join(public_text(x) for x in v) + "]"
    return _json(jsonable(v))


def _hidden_writer(inner: Any, model: Any) -> Writer:
    """`view_json(_hide(v, inner, model))`: a list's or set's size, that there is something,
    or none (a hidden map goes the plain way: which keys show depends on its type)."""
    size, there = "{" + _ENCODE_TEXT(HIDDEN) + ":", "{" + _ENCODE_TEXT(HIDDEN) + ":true}"

    def hidden_text(v: Any) -> str:
        t = type(v)
        if v is None:
            return "null"
        if t is list or t is tuple or t is frozenset or t is set:
            return size + int.__repr__(len(v)) + "}"
        if t is dict:
            return _json(_hide(v, inner, model))
        return there
    return hidden_text


def _owned_writer(inner: Any, me: str, model: Any) -> Writer:
    """`view_json(_owned(v, inner, me, model))`: a `hidden except owner` value, this player's
    own entry whole and the others' entries hidden. When the entries' type is one json writes
    as it is (a card, a list of cards), the map is written by json itself with the others'
    entries masked by visibility.py's `_hide`, as `_owned` does, without `jsonable`."""
    if not _ready(inner):
        return lambda v: _json(_owned(v, inner, me, model))

    def owned_text(v: Any) -> str:
        if type(v) is not dict:
            return public_text(v)
        return _json({k: (x if k == me else None if x is None else _hide(x, inner, model)) for k, x in v.items()})
    if not _scalar(inner):
        return owned_text
    hidden = "{" + _ENCODE_TEXT(HIDDEN) + ":true}"  # what _hide makes of a name, number or truth value

    def owned_scalar_text(v: Any) -> str:
        """The common case (a card each, `hand: Player -> Card? hidden except owner`) entry by
        entry, in json's order, with no dicts made; anything else the way above."""
        if type(v) is not dict:
            return public_text(v)
        parts = []
        for k in sorted(v):
            x = v[k]
            t = type(x)
            if type(k) is not str or (t is not str and t is not int and t is not bool and x is not None):
                return owned_text(v)
            if x is None:
                text = "null"
            elif k != me:
                text = hidden
            elif t is str:
                text = _ENCODE_TEXT(x)
            elif t is bool:
                text = "true" if x else "false"
            else:
                text = int.__repr__(x)
            parts.append(_ENCODE_TEXT(k) + ":" + text)
        return "{" + ",".join(parts) + "}"
    return owned_scalar_text


def _ready(t: Any) -> bool:
    """A type whose values json writes as `view_json(jsonable(v))` does: names, numbers,
    true/false, none, and lists of them (not sets: jsonable sorts them; not maps: their keys)."""
    if isinstance(t, Opt):
        t = t.inner
    return _scalar(t) or isinstance(t, ListOf) and _scalar(t.elem)


def _scalar(t: Any) -> bool:
    """A type whose values json writes as they are (jsonable leaves them alone)."""
    if isinstance(t, Opt):
        t = t.inner
    return t in (INT, BOOL, TEXT) or isinstance(t, Elem)


def _emit(t: Any, x: str) -> str:
    """Python code that writes the local `x`, a state value of type `t` the player sees
    whole, as `view_json(jsonable(x))` writes it. A value of another type than declared
    fails it (TypeError, KeyError): the plain way then."""
    if t == INT:
        return f"_int({x})"
    if t == BOOL:
        return f"_bool[{x}]"
    if t == TEXT or isinstance(t, Elem):
        return f"_enc({x})"
    if isinstance(t, Opt):
        return f'("null" if {x} is None else {_emit(t.inner, x)})'
    if _ready(t):
        return f"_json({x})"  # a list of names and numbers: json writes it as it is
    if isinstance(t, MapOf) and (t.key == TEXT or isinstance(t.key, Elem)) and _scalar(t.val):
        return f"_json({x})"  # keys are texts, values as they are: json sorts the keys alike
    return f"_pub({x})"


def _fstring(parts: list[tuple[bool, str]]) -> str:
    """An f-string of literal parts (False, text) and expressions (True, code)."""
    body = "".join("{" + code + "}" if is_code else code.replace("{", "{{").replace("}", "}}")
                   for is_code, code in parts)
    return "f'''" + body + "'''"


class ViewText:
    """One observer's views as text: `shared`, `own` and the whole `view` (the texts of
    `view_json(observer.shared_view(game))`, `...own_view(game)` and `...view(game)`).

    The three writers are generated once per observer: each state variable read into a local,
    then one f-string with the variables in sorted order, each written by code for its
    declared type (`_emit`), the hidden ones by visibility.py's masks (`_hidden_writer`,
    `_owned_writer`)."""

    __slots__ = ("seer", "count", "_shared", "_own", "_view")

    def __init__(self, seer: Observer):
        self.seer = seer
        model = seer.model
        plan = seer._var_plan()
        space: dict[str, Any] = {"_int": int.__repr__, "_bool": {True: "true", False: "false"},
                                 "_enc": _ENCODE_TEXT, "_json": _json, "_pub": public_text, "_raw": _raw,
                                 "_me": _ENCODE_TEXT(seer.player)}
        reads: dict[str, str] = {}
        shared: list[tuple[str, str]] = []
        own: list[tuple[str, str]] = []
        for i, name in enumerate(sorted(model.vars)):
            how, x = plan.get(name), f"x{i}"
            reads[name] = f"{x} = v[{name!r}]"
            if how is None:
                code, part = _emit(model.var_types[name], x), shared
            elif how[0] == "all":
                space[f"_w{i}"] = _hidden_writer(how[1], model)
                code, part = f"_w{i}({x})", shared
            else:
                space[f"_w{i}"] = _owned_writer(how[1], seer.player, model)
                code, part = f"_w{i}({x})", own
            part.append((name, code))
        self.count = len(model.vars)

        def fields(which: list[tuple[str, str]]) -> list[tuple[bool, str]]:
            out: list[tuple[bool, str]] = [(False, "{")]
            for j, (name, code) in enumerate(which):
                out += [(False, ("," if j else "") + _ENCODE_TEXT(name) + ":"), (True, code)]
            return out + [(False, "}")]

        top = {"current": [(True, "_raw(g.current)")], "phase": [(True, "_raw(g.phase)")],
               "result": [(True, '"null" if g.result is None else _json(g.result)')],
               "round": [(True, "_raw(g.round)")], "pending": [(True, "pending")], "player": [(True, "_me")]}

        def writer(name: str, keys: list[str], which: list[tuple[str, str]]) -> Any:
            parts: list[tuple[bool, str]] = [(False, "{")]
            for j, key in enumerate(keys):
                if key == "revealed":  # only when something was: its text comes with its comma
                    parts.append((True, "revealed"))
                    continue
                parts.append((False, ("," if j else "") + _ENCODE_TEXT(key) + ":"))
                parts += fields(which) if key == "vars" else top[key]
            parts.append((False, "}"))
            # only the variables this part writes are read (the own part: a few of them)
            src = (f"def {name}(g, pending, revealed):\n    v = g.vars\n    "
                   + "\n    ".join(reads[n] for n, _code in which)
                   + "\n    return " + _fstring(parts) + "\n")
            exec(compile(src, f"<view text of {seer.player}: {name}>", "exec"), space)  # noqa: S102 - our own code
            return space[name]

        self._shared = writer("shared", ["current", "phase", "result", "round", "vars"], shared)
        self._own = writer("own", ["pending", "player", "revealed", "vars"], own)
        self._view = writer("view", ["current", "pending", "phase", "player", "result", "revealed", "round",
                                     "vars"], sorted(shared + own))

    def _pending(self, game: Any) -> str:
        """The pending decision as this player sees it (a plain move to make: the short way)."""
        p = game.pending
        if p is None or game.result is not None:
            return "null"
        kind = p["kind"]
        if kind != "choose" and kind != "simultaneous":
            return '{"kind":' + _raw(kind) + ',"player":' + _raw(p["player"]) + "}"
        return _json(self.seer.pending(game))

    def _revealed(self, game: Any) -> str:
        if not getattr(game, "revealed", ()):
            return ""
        shown = self.seer.revealed(game)
        return ',"revealed":' + _json(shown) if shown else ""

    def _written(self, game: Any, writer: Any, plain: Any, mine: bool) -> str:
        """The generated `writer`'s text (`mine`: it needs the pending decision and what was
        revealed); the plain view's, `plain(game)`, for state that does not hold exactly the
        declared variables (a save from another version) or a value of an undeclared type."""
        if len(game.vars) == self.count:
            try:
                if mine:
                    return writer(game, self._pending(game), self._revealed(game))
                return writer(game, None, None)
            except (KeyError, TypeError, AttributeError):
                pass
        return _json(plain(game))

    def shared(self, game: Any) -> str:
        """The part every player sees alike."""
        return self._written(game, self._shared, self.seer.shared_view, False)

    def own(self, game: Any) -> str:
        """This player's own part: their name, their own entries, the pending decision as they
        see it, what was revealed to them."""
        return self._written(game, self._own, self.seer.own_view, True)

    def view(self, game: Any) -> str:
        """The whole view: the shared part and this player's own part together."""
        return self._written(game, self._view, self.seer.view, True)


def view_text(seer: Observer) -> ViewText:
    """The observer's text writer, made on first use and kept with it."""
    found = seer._text
    if found is None:
        found = seer._text = ViewText(seer)
    return found
