"""Formatting through the printer `regelwerk fmt` uses, comments kept."""

from __future__ import annotations

from ..dsl.diagnostics import RulesError
from ..dsl.parse import parse_text
from ..dsl.printer import print_module


def formatted(text: str, path: str) -> str | None:
    """The canonical text, or None when the text does not parse (nothing to format safely)."""
    try:
        module = parse_text(text, path)
    except RulesError:
        return None
    return print_module(module, text)
