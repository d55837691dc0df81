"""The fix for syntax errors that are known mistakes, not only their place.

The parser says where it stopped and what it expected there; for some mistakes that list
misleads (an aggregate after `and` stops at its variable, with a list of operators). Each hint
here recognises one such mistake from the unexpected token, what the parser expected and the
text around it, and says what to write instead. `dsl/parse.py` asks `hint` before its generic
messages; docs/errors.md (E003) lists the mistakes recognised.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # parse.py stays the only module that imports Lark at run time
    from lark import Token

AGGREGATES = ("all", "any", "count", "sum", "max", "min", "argmax", "argmin", "first", "streak",
              "list", "set", "map")
_AGG_BEFORE = re.compile(r"\b(" + "|".join(AGGREGATES) + r")\s+$")
_IN_AFTER = re.compile(r"^\s+in\b")
# a line that ends inside an expression: an operator or a word that needs a right-hand side
_OPEN_END = re.compile(r"(\band|\bor|\bnot|\bin|\bthen|\belse|\bwhere|[-+*%,:=<>(\[{]|//|\.\.)\s*(#.*)?$")
_CONTINUES = re.compile(r"^\s*(and|or|then|else|where|in|not\s+in|==|!=|<=|>=|<|>|\+|-|\*|//|%|\.\.|:)(\s|$)")
_DEFINE = re.compile(r"^\s*(define\b[^=]*=)\s*(.*?)\s*(#.*)?$")
_LET = re.compile(r"^\s+let\b")
_COMPARED = re.compile(r"(==|!=|<=|>=|<|>|\bin\b)")
_HEADERS = {"NOTE": "note", "SOURCE": "source", "SPEC": "spec"}
_PARENS = ("an expression continues on the next line only inside parentheses: open one before it "
           "and close it after its last line")


def hint(tok: Token, expected: Collection[str], text: str) -> tuple[str, str] | None:
    """(message, help) for a known mistake at the unexpected token `tok`, or None."""
    lines = text.split("\n")
    row = lines[tok.line - 1] if tok.line and 0 < tok.line <= len(lines) else ""
    before = row[: max((tok.column or 1) - 1, 0)]
    if tok.type == "ELIF":
        if "ELSE" in expected:
            return ("'elif' inside an 'if … then … else' expression",
                    "an 'if' expression has no 'elif': write 'else if', as in "
                    "'if a then x else if b then y else z'")
        return ("'elif' without its 'if'",
                "'elif' follows the indented block of an 'if', at the same indentation as the 'if'")
    if tok.type in _HEADERS or tok.type == "STRING" and not before.strip():
        word = _HEADERS.get(tok.type, "a quote")
        what = f"a '{word}' line" if tok.type in _HEADERS else "a quote line"
        return (f"{what} cannot stand here",
                "'note', 'source', 'spec' and quote lines head a rule (action, procedure, when, on, "
                "flow, turn, phase), above its statements; an 'if', 'for', 'repeat' or 'while' block "
                "holds statements only: move the line to the head of the turn, phase or rule around "
                "it, or say it with 'log \"...\"' when the block runs")
    if tok.value == ".." and _COMPARED.search(before):
        return ("a range here needs parentheses",
                "a range and a comparison do not chain: write the range in parentheses, as in "
                "'x in (0..1)'")
    if tok.type == "NAME":
        agg = _AGG_BEFORE.search(before)
        if agg and _IN_AFTER.match(row[(tok.column or 1) - 1 + len(str(tok.value)):]):
            word = agg.group(1)
            return (f"'{word} {tok.value} in …' needs parentheses here",
                    f"after 'and', 'or', 'not', a comparison or an operator, an aggregate goes in "
                    f"parentheses: '({word} {tok.value} in …)'; its ':' part runs to the end of the "
                    f"expression")
    if tok.type == "_INDENT":
        define = _DEFINE.match(row)
        if define:
            head, first = define.group(1), define.group(2)
            return ("unexpected indent: a definition continues on the next line",
                    f"a definition over several lines needs its expression in parentheses: "
                    f"'{head} ({first}' and a ')' after its last line")
        nxt = next((r for r in lines[tok.line:] if r.strip() and not r.lstrip().startswith("#")), "")
        if _CONTINUES.match(nxt):
            return ("unexpected indent: an expression continues on the next line", _PARENS)
    if tok.type == "_DEDENT" and _LET.match(row) and _in_define(lines, tok.line):
        return ("a definition's 'let' lines need its value after them",
                "write the definition's value on the line below its last 'let' line, indented as "
                "the 'let' lines are")
    if tok.type == "_NL" and "NAME" in expected and _OPEN_END.search(row):
        return ("unexpected end of line: the expression is unfinished", _PARENS)
    if not before.strip() and _CONTINUES.match(row) and tok.type not in ("_NL", "_DEDENT"):
        return (f"unexpected '{tok.value}': a line cannot go on with the expression of the line above",
                _PARENS)
    return None


def _in_define(lines: list[str], line: int) -> bool:
    """Whether the 1-based `line` is inside a `define` (the declaration above it, at the left
    margin, is one)."""
    for row in reversed(lines[: max(line - 1, 0)]):
        if row.strip() and not row[0].isspace() and not row.startswith("#"):
            return row.startswith("define ")
    return False
