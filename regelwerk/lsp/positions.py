"""Positions between regelwerk and the editor.

regelwerk spans are 1-based lines and columns counted in code points (Lark counts characters);
LSP positions are 0-based and counted in the negotiated encoding's code units (UTF-16 unless
the client asked otherwise). A rule text full of „Dutch” quotes and ë differs in UTF-8 and, for
characters beyond the BMP, in UTF-16: every conversion goes through here.
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types as T
from pygls.workspace.position_codec import PositionCodec

from ..dsl import ast as A
from .index import Loc


def _units(codec: PositionCodec, lines: Sequence[str], line0: int, col0: int) -> int:
    text = lines[line0] if 0 <= line0 < len(lines) else ""
    return codec.client_num_units(text[:col0])


def to_position(codec: PositionCodec, lines: Sequence[str], line: int, column: int) -> T.Position:
    """A 1-based (line, code-point column) as an LSP position."""
    line0, col0 = max(line - 1, 0), max(column - 1, 0)
    return T.Position(line=line0, character=_units(codec, lines, line0, col0))


def span_range(codec: PositionCodec, lines: Sequence[str], span: A.Span) -> T.Range:
    """The LSP range of a span; a span without a position becomes the file's first character."""
    if span.line <= 0:
        return T.Range(start=T.Position(line=0, character=0), end=T.Position(line=0, character=1))
    start = to_position(codec, lines, span.line, span.column)
    end_line, end_col = span.end_line, span.end_column
    if (end_line, end_col) <= (span.line, span.column):
        end_line, end_col = span.line, span.column + 1
    return T.Range(start=start, end=to_position(codec, lines, end_line, end_col))


def loc_range(codec: PositionCodec, lines: Sequence[str], loc: Loc) -> T.Range:
    return T.Range(start=to_position(codec, lines, loc.line, loc.column),
                   end=to_position(codec, lines, loc.line, loc.end_column))


def from_position(codec: PositionCodec, lines: Sequence[str], pos: T.Position) -> tuple[int, int]:
    """An LSP position as a 1-based (line, code-point column)."""
    text = lines[pos.line] if 0 <= pos.line < len(lines) else ""
    units = 0
    for i, ch in enumerate(text):
        if units >= pos.character:
            return pos.line + 1, i + 1
        units += codec.client_num_units(ch)
    return pos.line + 1, len(text) + 1
