"""Split a rules text into top-level declarations, so an edit re-parses only its own.

A declaration starts on a line whose first character is neither blank nor `#`, outside any
bracket: the grammar's `start: _NL? decl*` makes such a line the start of a new `decl`. Blank
and comment lines stay with the declaration before them; lines before the first declaration
belong to the first chunk.

A bracket left open while typing would otherwise join every later declaration to the one being
edited (and re-parse them all at each key), so a line that starts with a declaration keyword at
column 0 always starts a declaration. The grammar would let such a line continue a bracketed
expression; the printer never writes one, so only hand-made, unformatted text can differ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..dsl.brackets import OPENING, brackets

_DECLARATION = re.compile(
    r"(game|players|enum|board|record|data|state|const|option|define|action|procedure|when|on"
    r"|flow|scoring|include|device|display|invariant|conserve|scenario)\b")


@dataclass(frozen=True, slots=True)
class Chunk:
    """One declaration's text and the 1-based line it starts on."""

    line: int
    text: str


def _bracket_delta(line: str) -> int:
    """Net bracket depth change of one line, ignoring strings and comments."""
    return sum(1 if ch in OPENING else -1 for ch, _line, _col in brackets(line))


def split_chunks(text: str) -> list[Chunk]:
    """The declarations of `text` in order; joining their texts gives `text` back."""
    lines = text.splitlines(keepends=True)
    chunks: list[Chunk] = []
    start = 0
    depth = 0
    for i, line in enumerate(lines):
        first = line[:1]
        starts_decl = first not in ("", " ", "\t", "#", "\n", "\r", "\f") and (
            depth <= 0 or _DECLARATION.match(line) is not None)
        if starts_decl:
            depth = 0
        if starts_decl and i > start:
            chunks.append(Chunk(start + 1, "".join(lines[start:i])))
            start = i
        depth += _bracket_delta(line)
    if start < len(lines) or not chunks:
        chunks.append(Chunk(start + 1, "".join(lines[start:])))
    return chunks
