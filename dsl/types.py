"""Types of the rules language as small immutable objects, shared by checker, compiler and saves.

The checker works out a `Type` for every expression and keeps it in the model's side table
(`Model.types`, keyed by node identity, as a resolver annotates a tree); the code generator
only reads that table, and state values are decoded, initialised and cleared by the same
objects. `str(t)` spells a type the way rules write it (`Square -> Player?`, `list int`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import ast as A


@dataclass(frozen=True, slots=True)
class Type:
    """A type. Subclasses say which; the helpers below answer the questions code asks."""

    @property
    def base(self) -> Type:
        """The type without `?`."""
        return self

    @property
    def item(self) -> Type:
        """What iterating over a value of this type gives."""
        return ANY

    @property
    def value(self) -> Type:
        """What indexing a value of this type gives."""
        return ANY

    def default(self) -> Any:
        """The empty value: 0, false, "", [], an empty set; none for the rest."""
        return None

    @property
    def is_collection(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class Simple(Type):
    """int, bool, text, none (the type of the literal), any (unknown), range (an int range)."""

    name: str

    def __str__(self) -> str:
        return self.name

    @property
    def item(self) -> Type:
        return INT if self.name == "range" else ANY

    @property
    def is_collection(self) -> bool:
        return self.name == "range"

    def default(self) -> Any:
        return {"int": 0, "bool": False, "text": ""}.get(self.name)


@dataclass(frozen=True, slots=True)
class Elem(Type):
    """A finite type whose values are names: Player, Direction, an enum, a board's squares."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Record(Type):
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class ListOf(Type):
    elem: Type

    def __str__(self) -> str:
        return "list" if self.elem == ANY else f"list {self.elem}"

    @property
    def item(self) -> Type:
        return self.elem

    @property
    def value(self) -> Type:
        return self.elem

    @property
    def is_collection(self) -> bool:
        return True

    def default(self) -> Any:
        return []


@dataclass(frozen=True, slots=True)
class SetOf(Type):
    elem: Type

    def __str__(self) -> str:
        return "set" if self.elem == ANY else f"set {self.elem}"

    @property
    def item(self) -> Type:
        return self.elem

    @property
    def is_collection(self) -> bool:
        return True

    def default(self) -> Any:
        return frozenset()


@dataclass(frozen=True, slots=True)
class MapOf(Type):
    key: Type
    val: Type
    # A map declared as state is total: an entry never set reads as the value type's default
    # (`score: int -> int` gives 0); a constant table or a map value built by rules is not, so a
    # typo in a key fails loudly. Equal maps types compare equal whatever this says.
    total: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        return f"{self.key} -> {self.val}"

    @property
    def item(self) -> Type:
        return self.key

    @property
    def value(self) -> Type:
        return self.val

    @property
    def is_collection(self) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class Opt(Type):
    inner: Type

    def __str__(self) -> str:
        return f"{self.inner}?"

    @property
    def base(self) -> Type:
        return self.inner

    @property
    def item(self) -> Type:
        return self.inner.item

    @property
    def value(self) -> Type:
        return self.inner.value


INT = Simple("int")
BOOL = Simple("bool")
TEXT = Simple("text")
NONE = Simple("none")
ANY = Simple("any")
RANGE = Simple("range")
PLAYER = Elem("Player")
DIRECTION = Elem("Direction")
LIST = ListOf(ANY)


def optional(t: Type) -> Type:
    """`t?`, without doubling the question mark."""
    return t if isinstance(t, Opt) or t in (ANY, NONE) else Opt(t)


def as_state(t: Type) -> Type:
    """The type of a state variable declared as `t`: its maps are total (see MapOf)."""
    if isinstance(t, MapOf):
        return MapOf(t.key, as_state(t.val), True)
    if isinstance(t, Opt):
        return Opt(as_state(t.inner))
    return t


def is_int(t: Type) -> bool:
    return t.base in (INT, ANY)


def is_bool(t: Type) -> bool:
    return t.base in (BOOL, ANY)


def is_player(t: Type) -> bool:
    return t.base in (PLAYER, ANY)


def is_finite(t: Type) -> bool:
    """Whether the type's values can be listed: the domain of a parameter or of map keys."""
    return isinstance(t, Elem) or t == BOOL


def compatible(a: Type, b: Type) -> bool:
    """Whether values of the two types can meaningfully be compared or assigned."""
    a, b = a.base, b.base
    if a == b or ANY in (a, b) or NONE in (a, b):
        return True
    if a.is_collection and b.is_collection and not isinstance(a, MapOf) and not isinstance(b, MapOf):
        if ANY in (a.item, b.item) or RANGE in (a, b):
            return True
        return compatible(a.item, b.item)
    if _empty_braces(a) and isinstance(b, SetOf) or _empty_braces(b) and isinstance(a, SetOf):
        return True  # `{}` is an empty map or an empty set, as its place decides
    return isinstance(a, MapOf) and isinstance(b, MapOf)


def fits(want: Type, got: Type) -> bool:
    """Whether a value of type `got` may be stored where `want` is declared: `compatible`, and
    also item by item, key by key and value by value, and none only where `?` allows it."""
    if ANY in (want, got):
        return True
    if got == NONE:
        return isinstance(want, Opt)
    if isinstance(want, Opt):
        return fits(want.inner, got.base)
    if isinstance(got, Opt):
        return False
    if not compatible(want, got):
        return False
    if isinstance(want, MapOf) and isinstance(got, MapOf):
        return _empty_braces(got) or fits(want.key, got.key) and fits(want.val, got.val)
    if isinstance(want, (ListOf, SetOf)) and isinstance(got, (ListOf, SetOf)):
        return fits(want.elem, got.elem)
    return True


def _empty_braces(t: Type) -> bool:
    """The type of `{}`: a map of nothing known, which is also an empty set."""
    return isinstance(t, MapOf) and t.key == ANY and t.val == ANY


def resolve(node: A.Node | None, kinds: dict[str, str]) -> Type:
    """The Type of a written type; `kinds` says what each declared type name is
    ('elem' for enums, boards, Player and Direction; 'record'). Unknown names give `any`
    (the checker reports them)."""
    if node is None:
        return ANY
    if isinstance(node, A.NamedType):
        if node.name in ("int", "bool", "text"):
            return Simple(node.name)
        kind = kinds.get(node.name)
        if kind == "elem":
            return Elem(node.name)
        if kind == "record":
            return Record(node.name)
        return ANY
    if isinstance(node, A.OptionalType):
        return optional(resolve(node.inner, kinds))
    if isinstance(node, A.ListType):
        return ListOf(resolve(node.item, kinds))
    if isinstance(node, A.SetType):
        return SetOf(resolve(node.item, kinds))
    if isinstance(node, A.MapType):
        return MapOf(resolve(node.key, kinds), resolve(node.value, kinds))
    return ANY
