"""Rename a declared name in every file of its ruleset.

Only names the ruleset declares can be renamed (not keywords, the standard library, squares
named by a grid, or built-in values), and the new name must be a name the grammar accepts
that no other declaration already uses.
"""

from __future__ import annotations

import re

from ..dsl.check_expr import DIRECTIONS, KEYWORD_VALUES
from ..interpreter.stdlib.library import LIBRARY
from .analysis import Analysis
from .index import Loc, Occurrence
from .keywords import is_keyword

NAME = re.compile(r"(?!\d)[^\W]\w*\Z")
RENAMABLE = {"state", "constant", "option", "data", "definition", "action", "procedure", "device",
             "enum", "member", "record", "field", "board", "node", "player", "phase", "parameter",
             "local"}


class RenameError(Exception):
    """A rename that cannot be done, with the reason for the user."""


def renamable(an: Analysis, path: str, line: int, column: int) -> Occurrence:
    occ = an.index.at(path, line, column)
    if occ is None:
        raise RenameError("no renamable name here")
    sym = an.index.symbols.get(occ.key)
    if sym is None or sym.kind not in RENAMABLE or occ.key[:2] == ("field", "*"):
        kind = sym.kind if sym is not None else "name"
        raise RenameError(f"a {kind} cannot be renamed here")
    return occ


def rename(an: Analysis, path: str, line: int, column: int, new_name: str) -> dict[str, list[Loc]]:
    """The places to rewrite, by file; raises RenameError with the reason when it cannot."""
    occ = renamable(an, path, line, column)
    sym = an.index.symbols[occ.key]
    if not NAME.match(new_name) or is_keyword(new_name):
        raise RenameError(f"'{new_name}' is not a name (a keyword, or not a letter then letters/digits)")
    if new_name.startswith("__"):
        raise RenameError("names may not start with '__'")
    if new_name != sym.name:
        clash = _clash(an, occ, new_name)
        if clash:
            raise RenameError(f"'{new_name}' is already {clash}")
    out: dict[str, list[Loc]] = {}
    for o in an.index.occurrences(occ.key):
        out.setdefault(o.loc.file, []).append(o.loc)
    return out


def _clash(an: Analysis, occ: Occurrence, new_name: str) -> str | None:
    kind = occ.key[0]
    taken = {k: s for k, s in an.index.symbols.items()}
    if kind == "field":
        if ("field", occ.key[1], new_name) in taken:
            return f"a field of {occ.key[1]}"
        return None
    if kind == "phase":
        return "a phase" if new_name in an.model.phases else None
    if new_name in LIBRARY or new_name in KEYWORD_VALUES or new_name in DIRECTIONS:
        return "a built-in name"
    g = ("global", new_name)
    if g in taken and taken[g].kind != "builtin":
        return f"declared ({taken[g].kind})"
    if new_name in an.model.element_type:
        return "declared (a square, node, player or enum member)"
    if kind == "local":
        scope = an.index.locals_at(occ.loc.file, occ.loc.line)
        if new_name in scope:
            return "a local name here"
    return None
