"""Incremental parsing of one document: each top-level declaration is parsed on its own and
cached by its text, so a keystroke re-parses one declaration instead of the whole file."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from ..dsl import ast as A
from ..dsl.diagnostics import Diagnostic, RulesError
from ..dsl.files import MAX_SOURCE_BYTES
from ..dsl.parse import parse_text
from .chunks import split_chunks
from .shift import shift_lines


@dataclass(frozen=True, slots=True)
class Parsed:
    """The result of parsing one text: a module when it parsed, else its syntax errors."""

    module: A.Module | None
    diagnostics: tuple[Diagnostic, ...]


@dataclass
class _Entry:
    line: int  # where the cached declarations were parsed
    decls: tuple[A.Node, ...] | None
    diagnostics: tuple[Diagnostic, ...]


@dataclass
class IncrementalParser:
    """Parses successive versions of one file; counts the declarations it really parsed."""

    path: str
    # declarations by text, least recently used first; older versions are kept (a few times the
    # file's declarations) so undo, or closing a bracket that joined declarations, parses nothing
    _cache: OrderedDict[str, _Entry] = field(default_factory=OrderedDict)
    parsed_chunks: int = 0  # declarations parsed so far (the benchmark and tests read it)

    def parse(self, text: str) -> Parsed:
        if len(text.encode("utf-8", errors="replace")) > MAX_SOURCE_BYTES or "\x00" in text:
            return self._whole(text)
        decls: list[A.Node] = []
        diags: list[Diagnostic] = []
        chunks = split_chunks(text)
        for chunk in chunks:
            entry = self._cache.get(chunk.text)
            if entry is None or (entry.decls is None and entry.line != chunk.line):
                entry = self._parse_chunk(chunk.text, chunk.line)
            elif entry.line != chunk.line:  # lines above were added or removed: move it
                entry = _Entry(chunk.line, shift_lines(entry.decls, chunk.line - entry.line), ())
            self._cache[chunk.text] = entry
            self._cache.move_to_end(chunk.text)
            if entry.decls is None:
                diags.extend(entry.diagnostics)
            else:
                decls.extend(entry.decls)
        while len(self._cache) > 3 * len(chunks) + 64:
            self._cache.popitem(last=False)
        if diags:
            return Parsed(None, tuple(diags))
        end = text.count("\n") + 1
        return Parsed(A.Module(A.Span(self.path, 1, 1, end, 1), self.path, tuple(decls)), ())

    def _parse_chunk(self, text: str, line: int) -> _Entry:
        self.parsed_chunks += 1
        try:
            mod = parse_text("\n" * (line - 1) + text, self.path)
        except RulesError as err:
            return _Entry(line, None, tuple(err.diagnostics))
        return _Entry(line, mod.decls, ())

    def _whole(self, text: str) -> Parsed:
        """Too large or binary: the parser's own whole-file guard reports it."""
        try:
            return Parsed(parse_text(text, self.path), ())
        except RulesError as err:
            return Parsed(None, tuple(err.diagnostics))
