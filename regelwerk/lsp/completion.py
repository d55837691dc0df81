"""Completion from the text before the cursor and the ruleset's last good analysis.

The line being typed rarely parses, so the context comes from the characters before the
cursor (after `do` a procedure, after `play` an action, after `x.` a field of x's record, after
`:` a type); the names come from the index of the last version that did.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..dsl import ast as A
from ..dsl.check import BUILTIN_TYPES
from ..dsl.check_expr import DIRECTIONS, KEYWORD_VALUES
from ..dsl.diagnostics import RulesError
from ..dsl.parse import parse_text
from ..interpreter.stdlib.library import LIBRARY
from .analysis import Analysis
from .index import record_type_of
from .keywords import DECLARATIONS, EXPRESSIONS, STATEMENTS
from .typetext import type_text

_WORD = re.compile(r"(?!\d)[^\W]\w*$|$")
_CHAIN = re.compile(r"((?!\d)[^\W]\w*(?:\[[^\[\]]*\]|\.(?!\d)[^\W]\w*)*)\.$")
_SQUARE = re.compile(r"[a-z]{1,2}\d+$")
_TYPE_LINE = re.compile(r"^(\s+\w+\s*:|(record|action|procedure|define|device|data|option)\b)")
_TYPE_SLOT = re.compile(r"(:|->)\s*((list|set)\s+)*$")


def _wants_type(before: str) -> bool:
    """Whether the cursor stands where a declaration names a type (`cell: `, `(t: `, `-> `)."""
    return bool(_TYPE_LINE.match(before) and _TYPE_SLOT.search(before))


@dataclass(frozen=True, slots=True)
class Item:
    label: str
    kind: str  # keyword, state, constant, option, data, definition, action, procedure, device,
    # enum, member, record, field, board, square, node, player, phase, parameter, local, library,
    # builtin, type
    detail: str = ""
    doc: str = ""
    insert: str | None = None


def _signature(name: str) -> str:
    sig = LIBRARY[name]
    return f"{sig.call_text} → {type_text(sig.result)}"


def library_items() -> list[Item]:
    return [Item(n, "library", _signature(n), s.doc + (" (chance: only in `let`)" if s.chance else ""),
                 f"{n}(") for n, s in sorted(LIBRARY.items())]


def _symbols_of(an: Analysis, kinds: set[str]) -> list[Item]:
    out = []
    for key, sym in an.index.symbols.items():
        if key[0] == "global" and sym.kind in kinds:
            out.append(Item(sym.name, sym.kind, sym.type or sym.kind, sym.detail))
    return out


def _types(an: Analysis) -> list[Item]:
    items = [Item(t, "type", "built-in type") for t in sorted(BUILTIN_TYPES)]
    items += [Item(w, "keyword", "type constructor") for w in ("list", "set")]
    return items + _symbols_of(an, {"enum", "board", "record"})


def _fields(an: Analysis, chain: str, path: str, line: int) -> list[Item]:
    record = None
    try:
        module = parse_text(f"const v = {chain}\n", path)
        expr = module.decls[0].value
        record = record_type_of(an.index, an.model, expr, an.index.locals_at(path, line))
    except (RulesError, AttributeError, IndexError):
        pass
    records = [record] if record else list(an.model.records)
    return [Item(f, "field", type_text(t), f"field of record {r}")
            for r in records for f, t in an.model.records[r].fields]


def _in_scenario(an: Analysis, path: str, line: int) -> bool:
    """Whether a line stands in a scenario (where `do` plays an action, not a procedure)."""
    module = an.module(path)
    return module is not None and any(
        isinstance(d, A.ScenarioDecl) and d.span.line <= line <= d.span.end_line for d in module.decls)


def complete(an: Analysis, path: str, line: int, column: int, line_text: str) -> list[Item]:
    """Completion items for the 1-based position whose line reads `line_text`."""
    before_cursor = line_text[: column - 1]
    word = _WORD.search(before_cursor).group()
    before = before_cursor[: len(before_cursor) - len(word)]
    stripped = before.strip()
    if before.endswith("."):
        chain = _CHAIN.search(before)
        return _fields(an, chain.group(1), path, line) if chain else []
    if re.search(r"^\s*(do|expect\s+(il)?legal)\s+$", before) and _in_scenario(an, path, line):
        return _symbols_of(an, {"action"})
    if re.search(r"(^|\s)do\s+$", before):
        return _symbols_of(an, {"procedure"})
    if re.search(r"(^|\s)play\s+((up\s+to\s+\d+\s+of|optional)\s+)?([\w\s]+,\s*)*$", before):
        return _symbols_of(an, {"action"})
    if re.search(r"(^|\s)(goto|start\s+in\s+phase)\s+$", before):
        return [Item(n, "phase", "phase") for n in an.model.phases]
    if re.search(r"^\s*script\s+$", before):
        return _symbols_of(an, {"device"}) + [i for i in library_items() if LIBRARY[i.label].chance]
    if _wants_type(before):
        return _types(an)
    if not stripped:
        if not before:  # an unindented line: a declaration
            return [Item(k, "keyword") for k in DECLARATIONS]
        items = [Item(k, "keyword") for k in STATEMENTS]
        return items + _names(an, path, line, word)
    return [Item(k, "keyword") for k in EXPRESSIONS] + _names(an, path, line, word)


def _names(an: Analysis, path: str, line: int, word: str) -> list[Item]:
    """Names in scope at the line: locals of the enclosing rule, then every global value."""
    items: list[Item] = []
    for name, key in an.index.locals_at(path, line).items():
        sym = an.index.symbols.get(key)
        if sym is not None:
            items.append(Item(name, sym.kind, sym.type or sym.detail, sym.detail if sym.type else ""))
    squares = bool(_SQUARE.match(word))
    for key, sym in an.index.symbols.items():
        if key[0] != "global" or sym.kind in ("action", "procedure", "builtin"):
            continue
        if sym.kind == "square" and not squares:
            continue
        items.append(Item(sym.name, sym.kind, sym.type or sym.kind, sym.detail,
                          f"{sym.name}(" if sym.kind in ("definition", "device") else None))
    if squares:
        items += [Item(n, "square", t, f"square of board {t}") for n, t in an.model.element_type.items()
                  if t in an.model.boards and n.startswith(word) and ("global", n) not in an.index.symbols]
    seen = {i.label for i in items}
    items += [Item(n, "builtin", "built-in value") for n in sorted(KEYWORD_VALUES) if n not in seen]
    items += [Item(d, "builtin", "Direction") for d in DIRECTIONS if d not in seen]
    items += [Item(name, "member", enum, f"member of enum {enum}") for enum, decl in an.model.enums.items()
              for name in decl.members if ("global", name) not in an.index.symbols]
    items += [Item(r, "record", "record", "make one: " + r + "(field: value, ...)", f"{r}(")
              for r in an.model.records if ("global", r) not in an.index.symbols]
    return items + library_items() + _unused_globals(an)


def _unused_globals(an: Analysis) -> list[Item]:
    """Declared values that nothing refers to yet (the index creates symbols on first use)."""
    m = an.model
    out = []
    tables = ((m.vars, "state"), (m.consts, "constant"), (m.options, "option"), (m.data, "data"),
              (m.defines, "definition"))
    for table, kind in tables:
        for name, decl in table.items():
            if ("global", name) in an.index.symbols:
                continue
            typ = getattr(decl, "type", None)
            out.append(Item(name, kind, type_text(typ) if isinstance(typ, A.Node) else kind, "",
                            f"{name}(" if kind == "definition" else None))
    return out
