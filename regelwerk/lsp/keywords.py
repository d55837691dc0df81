"""The language's keywords, read from the grammar so they never drift from it."""

from __future__ import annotations

import re
from pathlib import Path

from ..dsl import parse

_GRAMMAR = Path(parse.__file__).with_name("regelwerk.lark").read_text(encoding="utf-8")

KEYWORDS: frozenset[str] = frozenset(re.findall(r'"([a-z_]+)"', _GRAMMAR)) | {"turn start", "turn end"}
AGGREGATES: tuple[str, ...] = ("all", "any", "count", "sum", "max", "min", "argmax", "argmin",
                               "first", "streak", "list", "set", "map")
# Words that open a top-level declaration (offered at the start of an unindented line).
DECLARATIONS: tuple[str, ...] = (
    "game", "players", "enum", "board", "record", "data", "state", "const", "option", "define",
    "action", "procedure", "when", "on", "flow", "scoring", "include", "device", "display",
    "invariant", "conserve", "scenario",
)
# Words that open a statement or a scenario line (offered at the start of an indented line).
STATEMENTS: tuple[str, ...] = (
    "set", "add", "remove", "clear", "let", "move", "draw", "shuffle", "require", "finish", "do",
    "play", "choose", "break", "goto", "log", "reveal", "result", "abandon", "if", "elif", "else",
    "for", "repeat", "while", "turn", "phase", "source", "spec", "roll", "settle", "given", "expect",
    "script", "seed", "players", "option", "before start", "start in phase",
)
EXPRESSIONS: tuple[str, ...] = ("and", "or", "not", "in", "if", "then", "else", "true", "false",
                                "none", "where", *AGGREGATES)


def is_keyword(word: str) -> bool:
    return word in KEYWORDS
