"""One handler per node class: how the checker and the printer pick what to do with a node.

A walker over the syntax tree keeps one `NodeTable` per kind of node it handles (statements,
expressions, declarations) and registers one small function for each node class with
`@TABLE.on(A.IfStmt)`, instead of a long `isinstance` ladder. The handlers stay short and
named by what they do (`_check_if`, `_print_if`), and a new node class is one new handler.

The sugar classes of dsl/ast.py are subclasses with no fields of their own (`IfLet` is an
`IfStmt`): a class without a handler of its own gets its nearest base class's, so the checker
sees the construct the sugar stands for, while the printer registers the sugar's own class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

H = TypeVar("H", bound=Callable)


class NodeTable(Generic[H]):
    """Handlers keyed by node class, filled once at import (at class creation for methods).

    Methods are registered as plain functions and called with the instance passed
    explicitly (`TABLE[type(s)](self, s, ...)`): one dictionary look-up per node, which is
    what keeps the checker as fast as the ladder it replaced."""

    def __init__(self, what: str) -> None:
        self.what = what  # "a statement", "an expression", ...: named in the error for a stray class
        self._handlers: dict[type, H] = {}

    def on(self, *classes: type) -> Callable[[H], H]:
        """A decorator: `handler` handles each of `classes` (and their subclasses without a
        handler of their own)."""

        def register(handler: H) -> H:
            for cls in classes:
                if cls in self._handlers:
                    raise ValueError(f"{cls.__name__} has two handlers in the table of {self.what}")
                self._handlers[cls] = handler
            return handler

        return register

    def get(self, cls: type) -> H | None:
        """The handler of `cls` (or of its nearest base class that has one), or None."""
        handler = self._handlers.get(cls)
        if handler is None:
            for base in cls.__mro__[1:]:
                handler = self._handlers.get(base)
                if handler is not None:
                    self._handlers[cls] = handler  # found once: the next look-up is direct
                    break
        return handler

    def __getitem__(self, cls: type) -> H:
        handler = self.get(cls)
        if handler is None:
            raise TypeError(f"not {self.what}: {cls.__name__}")
        return handler


def node_table(what: str, handlers: dict[type, H]) -> NodeTable[H]:
    """A table filled from a mapping (for handlers registered after their class, as the code
    generator's, which are methods named `_ex_<kind>` and `_stmt_<kind>`)."""
    table: NodeTable[H] = NodeTable(what)
    for cls, handler in handlers.items():
        table.on(cls)(handler)
    return table
