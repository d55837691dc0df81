"""Types as text for people: the ONE place that reads the checker's type representation.

The checker's types are about to become objects; when they do, only this module changes.
"""

from __future__ import annotations

from ..dsl import ast as A
from ..dsl.check import pretty_types, type_str


def type_text(t: A.Node | str | None) -> str:
    """`Square -> Player?` for a declared type node, or for a type the checker inferred."""
    if t is None:
        return "any"
    raw = t if isinstance(t, str) else type_str(t)
    return pretty_types(raw)
