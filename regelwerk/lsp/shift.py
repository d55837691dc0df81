"""Move a parsed declaration to another line: a cached parse stays valid when lines above it
are inserted or deleted, so only the edited declaration is parsed again."""

from __future__ import annotations

from dataclasses import fields, replace
from functools import cache
from typing import Any

from ..dsl import ast as A


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls) if f.name != "span")


def _shift_span(span: A.Span, delta: int) -> A.Span:
    if span.line == 0:  # an empty node: no position to move
        return span
    return A.Span(span.file, span.line + delta, span.column, span.end_line + delta, span.end_column)


def shift_lines(value: Any, delta: int) -> Any:
    """A copy of `value` (a node, a tuple of nodes, or a plain value) `delta` lines lower."""
    if delta == 0:
        return value
    if isinstance(value, A.Node):
        cls = type(value)
        args = [shift_lines(getattr(value, n), delta) for n in _field_names(cls)]
        return cls(_shift_span(value.span, delta), *args)
    if isinstance(value, tuple):
        return tuple(shift_lines(v, delta) for v in value)
    if isinstance(value, A.Provenance):  # its quote and source lines, for located warnings
        return replace(value, quote_span=value.quote_span and _shift_span(value.quote_span, delta),
                       source_span=value.source_span and _shift_span(value.source_span, delta))
    return value  # str, int, bool, None
