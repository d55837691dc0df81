"""Types as text for people: the one place the server turns the checker's types into text."""

from __future__ import annotations

from typing import Any

from ..dsl import ast as A
from ..dsl.printer import type_text as written_type
from ..dsl.types import ANY, Type


def type_text(t: A.Node | Type | Any) -> str:
    """`Square -> Player?` for a declared type node, a checked Type, or a library result
    (which may depend on the arguments)."""
    if t is None:
        return "any"
    if isinstance(t, A.Node):
        return written_type(t)
    if isinstance(t, Type):
        return str(t)
    if callable(t):  # a library result that follows its arguments: shown for arguments of any type
        return str(t([ANY] * 3, ANY))
    return str(t)
