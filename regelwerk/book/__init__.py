"""`regelwerk book FILE.rules`: a ruleset as a readable rulebook page (docs/book.md)."""

from .render import build_book

__all__ = ["build_book"]
