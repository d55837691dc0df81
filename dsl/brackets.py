"""The brackets of a text outside its strings and comments, one scanner for every caller.

Nesting guards (dsl/parse.py for rules, dsl/data_files.py for JSON) and the language server's
declaration splitter (regelwerk/lsp/chunks.py) all need to know where brackets open and close
without being fooled by a bracket inside a text ("...", with backslash escapes) or a `#`
comment. A text or comment ends at the end of its line, as in rules files.
"""

from __future__ import annotations

from collections.abc import Iterator

OPENING = "([{"
CLOSING = ")]}"


def brackets(text: str, comments: bool = True) -> Iterator[tuple[str, int, int]]:
    """Each bracket outside texts (and, with `comments`, outside `#` comments), in order:
    (the bracket, its 1-based line, its 1-based column)."""
    line, col = 1, 0
    quoted = escaped = comment = False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
            quoted = escaped = comment = False
        elif comment:
            continue
        elif quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "#" and comments:
            comment = True
        elif ch in OPENING or ch in CLOSING:
            yield ch, line, col
