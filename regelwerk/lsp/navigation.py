"""Go to definition and find references, across the files of a ruleset."""

from __future__ import annotations

from .analysis import Analysis
from .index import Loc


def definition(an: Analysis, path: str, line: int, column: int) -> list[Loc]:
    """Where the name under the position is declared (several places for an ambiguous field)."""
    occ = an.index.at(path, line, column)
    if occ is None:
        return []
    key = occ.key
    if key[0] == "field" and key[1] == "*":
        return [s.where for k, s in an.index.symbols.items()
                if k[0] == "field" and k[2] == key[2] and k[1] != "*" and s.where is not None]
    sym = an.index.symbols.get(key)
    return [sym.where] if sym is not None and sym.where is not None else []


def references(an: Analysis, path: str, line: int, column: int, include_declaration: bool) -> list[Loc]:
    """Every use of the name under the position, in file order."""
    occ = an.index.at(path, line, column)
    if occ is None:
        return []
    occs = an.index.occurrences(occ.key)
    return [o.loc for o in occs if include_declaration or not o.is_def]
