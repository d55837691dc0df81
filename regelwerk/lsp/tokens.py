"""A lexical view of a rules text: where each name, string and spec id stands.

The AST gives spans for whole nodes; the names inside a node (an action's name, the target of
`do`, the layers of `display`) are plain strings. Tokens give them their positions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_TOKEN = re.compile(
    r'(?P<string>"[^"\\\n]*(?:\\.[^"\\\n]*)*"?)'
    r"|(?P<comment>#.*)"
    r"|(?P<name>(?!\d)[^\W]\w*)"
    r"|(?P<number>\d+)"
    r"|(?P<punct>==|!=|<=|>=|->|\.\.|//|\S)"
)
_SPEC_ID = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Za-z0-9.]+)+")


@dataclass(frozen=True, slots=True)
class Token:
    """One token: kind, text, 1-based line and column (code points), end column exclusive."""

    kind: str  # name | string | comment | number | punct | spec
    text: str
    line: int
    column: int

    @property
    def end_column(self) -> int:
        return self.column + len(self.text)


@lru_cache(maxsize=20_000)
def _line_tokens(text: str) -> tuple[tuple[str, str, int], ...]:
    out: list[tuple[str, str, int]] = []
    spec_line = text.lstrip().startswith("spec ")
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "punct"
        if spec_line and kind == "name":
            spec = _SPEC_ID.match(text, m.start())
            if spec is not None:
                out.append(("spec", spec.group(), m.start()))
                continue
        if spec_line and out and out[-1][0] == "spec" and m.start() < out[-1][2] + len(out[-1][1]):
            continue  # inside a spec id already taken
        out.append((kind, m.group(), m.start()))
    return tuple(out)


class Tokens:
    """The tokens of one text, by line."""

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self._by_line: dict[int, list[Token]] = {}

    def line(self, line: int) -> list[Token]:
        """The tokens of a 1-based line."""
        got = self._by_line.get(line)
        if got is None:
            raw = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
            got = [Token(k, t, line, c + 1) for k, t, c in _line_tokens(raw)]
            self._by_line[line] = got
        return got

    def in_range(self, line: int, column: int, end_line: int, end_column: int):
        """Tokens from (line, column) up to (end_line, end_column), in order."""
        for ln in range(line, end_line + 1):
            for tok in self.line(ln):
                if ln == line and tok.column < column:
                    continue
                if ln == end_line and tok.column >= end_column:
                    break
                yield tok

    def at(self, line: int, column: int) -> Token | None:
        """The token under a 1-based position (or ending right at it)."""
        best = None
        for tok in self.line(line):
            if tok.column <= column < tok.end_column:
                return tok
            if tok.end_column == column and tok.kind in ("name", "spec"):
                best = tok
        return best
