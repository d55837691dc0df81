"""Reading the files a ruleset names: JSON data, graph files and text maps.

The checker calls these while it checks a ruleset, so a checked model holds its data and a
bad file is a located diagnostic (E401-E404) like any other mistake in the rules. Every file
read is remembered with its text, because the ruleset's hash covers its data too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import ast as A
from .brackets import brackets
from .files import FileRefused, inside, read_text
from .types import MapOf, Type

Report = Callable[[str, str, A.Span], None]  # (code, message, span)


MAX_JSON_DEPTH = 100
MAX_DIGITS = 100


class DataReader:
    """Reads files relative to the rules file that names them, inside the ruleset's root
    folder (dsl/files.py), reporting through `report`."""

    def __init__(self, report: Report, files: dict[str, str], root: Path | None = None):
        self.report = report
        self.files = files  # path -> text, for the ruleset hash
        self.root = root

    def text(self, rel: str, span: A.Span) -> str | None:
        base = Path(span.file).parent
        try:
            path = inside(self.root if self.root is not None else base, base, rel)
            text = read_text(path)
        except FileRefused as err:
            self.report("E401", f"cannot read data file '{rel}': {err}", span)
            return None
        self.files[str(path)] = text
        return text

    def json(self, rel: str, span: A.Span) -> Any:
        text = self.text(rel, span)
        if text is None:
            return None
        deep = _too_deep(text)
        if deep is not None:
            self.report("E402", f"'{rel}':{deep[0]}:{deep[1]}: nested deeper than {MAX_JSON_DEPTH} levels", span)
            return None
        try:
            return json.loads(text, parse_int=_whole_number)
        except json.JSONDecodeError as err:
            self.report("E402", f"'{rel}':{err.lineno}:{err.colno}: not JSON: {err.msg}", span)
        except _LongNumber as err:
            at = text.find(err.digits)
            line = text.count("\n", 0, at) + 1
            col = at - text.rfind("\n", 0, at)
            self.report("E402", f"'{rel}':{line}:{col}: a number of more than {MAX_DIGITS} digits", span)
        except (ValueError, RecursionError) as err:
            self.report("E402", f"'{rel}': not JSON: {type(err).__name__}", span)
        return None

    def grid_size(self, d: A.GridDecl) -> A.GridDecl | None:
        """A grid whose size comes from a text map: one line per row, one character per square."""
        text = self.text(d.path, d.span)
        if text is None:
            return None
        rows = [r for r in text.splitlines() if r.strip()]
        widths = {len(r) for r in rows}
        if not rows or len(widths) != 1:
            self.report("E403", f"'{d.path}': a text map needs rows of equal length", d.span)
            return None
        return A.GridDecl(d.span, d.name, widths.pop(), len(rows), d.path)

    def graph(self, d: A.GraphFileDecl) -> tuple[list[str], list[tuple[str, str]]] | None:
        data = self.json(d.path, d.span)
        if data is None:
            return None
        try:
            nodes = [str(n) for n in data["nodes"]]
            edges = [(str(a), str(b)) for a, b in data["edges"]]
        except (KeyError, TypeError, ValueError):
            self.report("E402", f"'{d.path}': a graph file is {{\"nodes\": [...], \"edges\": [[a, b], ...]}}",
                        d.span)
            return None
        unknown = [x for e in edges for x in e if x not in nodes]
        if unknown:
            self.report("E402", f"'{d.path}': edge names unknown node '{unknown[0]}'", d.span)
            return None
        return nodes, edges

    def text_map(self, d: A.DataDecl, t: Type, grid: A.Node | None) -> dict | None:
        """A `data x: Square -> T from "map.txt" legend {...}`: one character per square."""
        text = self.text(d.path, d.span)
        if text is None:
            return None
        if not isinstance(t, MapOf) or not isinstance(grid, A.GridDecl) or not isinstance(d.legend, A.MapLit):
            self.report("E403", "a text map needs a type 'Square -> T' over a grid and a legend "
                        "map like {\"M\": mountain}", d.span)
            return None
        legend = {}
        for k, v in d.legend.items:
            if not isinstance(k, A.StrLit) or not isinstance(v, (A.Name, A.NoneLit, A.IntLit, A.BoolLit)):
                self.report("E403", "legend keys are one-character texts, values are names", k.span)
                return None
            legend[k.value] = None if isinstance(v, A.NoneLit) else getattr(v, "name", getattr(v, "value", None))
        rows = [r for r in text.splitlines() if r.strip()]
        if len(rows) != grid.height:
            self.report("E403", f"'{d.path}' has {len(rows)} rows, the grid {grid.height}", d.span)
            return None
        from ..interpreter.stdlib.grid import square_name

        value: dict = {}
        for i, row in enumerate(rows):
            y = grid.height - 1 - i
            if len(row) != grid.width:
                self.report("E403", f"'{d.path}' line {i + 1} has {len(row)} columns, the grid {grid.width}",
                            d.span)
                return None
            for x, ch in enumerate(row):
                if ch not in legend:
                    self.report("E403", f"'{d.path}' line {i + 1} column {x + 1}: "
                                f"{ch!r} is not in the legend", d.span)
                    return None
                value[square_name(x, y)] = legend[ch]
        return value


def decode_data(reader: DataReader, d: A.DataDecl, t: Type, raw: Any, domains: dict[str, tuple],
                records: dict[str, dict[str, Type]]) -> Any:
    """The data value decoded by its declared type, or None after reporting E404."""
    from ..interpreter.engine.errors import SaveError
    from ..interpreter.engine.values import decode

    try:
        return decode(t, raw, d.path, domains, records)
    except SaveError as err:
        reader.report("E404", f"data file {err.message}", d.span)
        return None



class _LongNumber(ValueError):
    def __init__(self, digits: str):
        super().__init__(digits[:20])
        self.digits = digits


def _whole_number(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _LongNumber(digits)
    return int(digits)


def _too_deep(text: str) -> tuple[int, int] | None:
    """The line and column of the first bracket nested deeper than MAX_JSON_DEPTH (outside
    strings), before the JSON reader recurses into it."""
    depth = 0
    for ch, line, col in brackets(text, comments=False):
        if ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return line, col
        elif ch in "]}":
            depth -= 1
    return None
