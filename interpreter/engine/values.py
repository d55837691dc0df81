"""Typed encoding of state values to JSON and back, with located validation errors.

The state store holds plain Python values: str (players, enum members, squares, nodes),
int, bool, None, list (never mutated in place), frozenset, and dict (the only mutable
container). Types are the checker's Type objects (dsl/types.py), so a save can be validated value by
value and a bad one is reported with its JSON path.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from ...dsl.types import ANY, BOOL, INT, TEXT, Elem, ListOf, MapOf, Opt, Record, SetOf, Type
from .errors import EngineError, SaveError

_ATOMS = frozenset({str, int, bool, type(None)})  # values jsonable hands back as they are


def jsonable(v: Any) -> Any:
    """A JSON-ready copy of a state value (sets become sorted lists)."""
    t = type(v)
    if t in _ATOMS:
        return v
    if t is frozenset or t is set:
        return sorted((jsonable(x) for x in v), key=_sort_key)
    if t is list or t is tuple or t is range:
        return [x if type(x) in _ATOMS else jsonable(x) for x in v]
    if t is dict:  # the entries that are atoms without a call each (scores, stakes, hands)
        return {str(k): x if type(x) in _ATOMS else jsonable(x) for k, x in v.items()}
    return str(v)


_NAME = re.compile(r"(?!\d)[^\W]\w*\Z")
_WORDS = frozenset({"true", "false", "none", "and", "or", "not", "in", "if", "then", "else"})


def value_text(x: Any) -> str:
    """A value as rules write it: none, true/false, names and numbers bare, other texts in
    quotes, [lists], {sets} and {key: maps}; the move parser reads exactly this back."""
    if x is None:
        return "none"
    if x is True:
        return "true"
    if x is False:
        return "false"
    if isinstance(x, str):
        return x if _NAME.match(x) and x not in _WORDS else _quoted(x)
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(value_text(i) for i in x) + "]"
    if isinstance(x, (frozenset, set)):
        items = sorted(x, key=_sort_key)
        return ("{" + ", ".join(value_text(i) for i in items) + "}") if items else "[]"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{value_text(k)}: {value_text(v)}" for k, v in x.items()) + "}"
    return str(x)


def _quoted(text: str) -> str:
    """A text in the rules' quotes: backslash escapes for quote, backslash and line breaks."""
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{body}"'


def _sort_key(x: Any) -> tuple:
    return (type(x).__name__, str(x))


def deep_copy(v: Any) -> Any:
    """Copy the mutable part of a state value: dicts (maps, records), also inside lists.
    Lists and sets themselves are values and are never changed in place, so they are shared
    unless they hold a record."""
    t = type(v)
    if t is dict:
        return {k: (deep_copy(x) if type(x) in (dict, list) else x) for k, x in v.items()}
    if t is list and any(type(x) in (dict, list) for x in v):
        return [deep_copy(x) for x in v]
    return v


def copier(t: Type) -> Callable[[Any], Any] | None:
    """A function that copies the mutable part of a value of type `t` (its dicts), or None
    when values of `t` have none: state copies are then as shallow as the types allow."""
    if isinstance(t, Opt):
        inner = copier(t.inner)
        return None if inner is None else (lambda v: None if v is None else inner(v))
    if isinstance(t, MapOf):
        val = copier(t.val)
        if val is None:
            return dict.copy
        return lambda d: {k: val(x) for k, x in d.items()}
    if isinstance(t, ListOf):
        item = copier(t.elem)
        return None if item is None else (lambda xs: [item(x) for x in xs])
    if isinstance(t, Record) or t == ANY:
        return deep_copy
    return None  # numbers, texts, named values, sets: never changed in place


def _fail(path: str, msg: str) -> SaveError:
    return SaveError(f"{path}: {msg}")


def decode(t: Type, j: Any, path: str, domains: dict[str, tuple],
           records: dict[str, dict[str, Type]] | None = None) -> Any:
    """Turn JSON `j` back into a value of type `t`, checking it on the way."""
    if isinstance(t, Opt):
        return None if j is None else decode(t.inner, j, path, domains, records)
    if t == ANY:
        return j
    if t == INT:
        if type(j) is not int:
            raise _fail(path, f"expected a whole number, found {j!r}")
        return j
    if t == BOOL:
        if type(j) is not bool:
            raise _fail(path, f"expected true or false, found {j!r}")
        return j
    if t == TEXT:
        if type(j) is not str:
            raise _fail(path, f"expected text, found {j!r}")
        return j
    if isinstance(t, ListOf):
        if type(j) is not list:
            raise _fail(path, f"expected a list, found {j!r}")
        return [decode(t.elem, x, f"{path}[{i}]", domains, records) for i, x in enumerate(j)]
    if isinstance(t, SetOf):
        if type(j) is not list:
            raise _fail(path, f"expected a list (a set), found {j!r}")
        items = [decode(t.elem, x, f"{path}[{i}]", domains, records) for i, x in enumerate(j)]
        if len(set(items)) != len(items):
            raise _fail(path, "a set holds each item once")
        return frozenset(items)
    if isinstance(t, MapOf):
        return _decode_map(t, j, path, domains, records)
    if isinstance(t, Elem):
        if t.name in domains and j not in domains[t.name]:
            raise _fail(path, f"{j!r} is not a {t}")
        return j
    if isinstance(t, Record) and records and t.name in records:
        fields = records[t.name]
        if type(j) is not dict:
            raise _fail(path, f"expected a {t} record (a map of its fields), found {j!r}")
        unknown = [k for k in j if k not in fields]
        if unknown:
            raise _fail(f"{path}.{unknown[0]}", f"a {t} has no field {unknown[0]!r}")
        missing = [k for k in fields if k not in j]
        if missing:
            raise _fail(path, f"a {t} needs field {missing[0]!r}")
        return {k: decode(ft, j[k], f"{path}.{k}", domains, records) for k, ft in fields.items()}
    return j


def _decode_map(t: MapOf, j: Any, path: str, domains: dict[str, tuple],
                records: dict[str, dict[str, Type]] | None) -> dict:
    if type(j) is not dict:
        raise _fail(path, f"expected a map, found {j!r}")
    kt = t.key
    keys = domains.get(kt.name) if isinstance(kt, Elem) else None
    out = {}
    for k, x in j.items():
        key: Any = k
        if kt == INT:
            try:
                key = int(k)
            except ValueError:
                raise _fail(path, f"map key {k!r} is not a number") from None
        elif kt == BOOL:
            key = k == "True" or k == "true"
        elif keys is not None and k not in keys:
            raise _fail(f"{path}.{k}", f"{k!r} is not a {kt}")
        out[key] = decode(t.val, x, f"{path}.{k}", domains, records)
    if keys is not None:
        missing = [k for k in keys if k not in out]
        if missing:
            raise _fail(path, f"missing entries for {', '.join(map(str, missing[:5]))}")
    return out


def _as_is(value: Any) -> Any:
    return value


def materialize(t: Type, default: Any, domains: dict[str, tuple], each: bool = False) -> Any:
    """The initial value of a state variable of type `t` (maps over finite keys filled in).
    With `each`, `default` is the start value of every entry of the map, each its own copy (a
    record is changed in place), not the map's entries."""
    if isinstance(t, MapOf):
        keys = domains.get(t.key.name) if isinstance(t.key, Elem) else None
        if each:  # a record or list each its own copy; a plain value (none, a number) shared
            fresh = copy.deepcopy if isinstance(default, (dict, list)) else _as_is
            return {k: materialize(t.val, fresh(default), domains) for k in keys or ()}
        if keys is not None:
            if isinstance(default, dict):
                return {k: materialize(t.val, default.get(k), domains) for k in keys} | {
                    k: v for k, v in default.items() if k not in keys
                }
            return {k: materialize(t.val, default, domains) for k in keys}
        return dict(default) if isinstance(default, dict) else {}
    if default is not None:
        if isinstance(t.base, SetOf) and not isinstance(default, frozenset):
            return frozenset(default)
        if isinstance(t.base, ListOf) and type(default) is not list:
            return list(default)  # a range, or a type's values (`deck: list Card = Card`)
        return default
    return t.default()


def decode_options(model: Any, given: dict | None) -> dict[str, Any]:
    """`given` option values checked against the model's declared options and decoded by
    type: the same for a new game and for a save, so both refuse the same values."""
    given = dict(given or {})
    unknown = sorted(set(given) - set(model.options))
    if unknown:
        raise EngineError(f"unknown option '{unknown[0]}'; known: {', '.join(model.options) or 'none'}")
    out = {}
    for name, value in given.items():
        t = model.option_types[name]
        try:
            out[name] = decode(t, jsonable(value), f"option '{name}'", model.domains(), model.record_fields)
        except SaveError as err:
            raise EngineError(f"{err.message} (the option is {t})") from None
    return out
