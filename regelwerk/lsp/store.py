"""The texts the server knows: open editor buffers first, files on disk otherwise.

Each file keeps its own incremental parser, so an edit re-parses only the declarations it
touched; files read from disk are read again only when their modification time changes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from ..dsl import ast as A
from .parsing import IncrementalParser, Parsed


def norm(path: str) -> str:
    """One spelling per file: absolute and normalised (symlinks are kept as the editor sees them)."""
    return os.path.normpath(os.path.abspath(path))


@dataclass
class _Disk:
    stamp: tuple[int, int]
    text: str


@dataclass
class Store:
    """Texts, parses and last good parses of every file the server has looked at."""

    open: dict[str, tuple[str, int | None]] = field(default_factory=dict)  # path -> text, version
    _disk: dict[str, _Disk] = field(default_factory=dict)
    _parsers: dict[str, IncrementalParser] = field(default_factory=dict)
    _parsed: dict[str, tuple[str, Parsed]] = field(default_factory=dict)
    good: dict[str, tuple[str, A.Module]] = field(default_factory=dict)  # last text that parsed
    disk_reads: int = 0

    def set_open(self, path: str, text: str, version: int | None) -> None:
        self.open[path] = (text, version)

    def close(self, path: str) -> None:
        self.open.pop(path, None)

    def version(self, path: str) -> int | None:
        return self.open[path][1] if path in self.open else None

    def text(self, path: str) -> str | None:
        """The buffer's text if the file is open, else the file's text (None if unreadable)."""
        if path in self.open:
            return self.open[path][0]
        try:
            st = os.stat(path)
        except OSError:
            return None
        stamp = (st.st_mtime_ns, st.st_size)
        cached = self._disk.get(path)
        if cached is not None and cached.stamp == stamp:
            return cached.text
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError):
            return None
        self.disk_reads += 1
        self._disk[path] = _Disk(stamp, text)
        return text

    def parse(self, path: str) -> Parsed | None:
        """The parse of the file's current text (None if it cannot be read)."""
        text = self.text(path)
        if text is None:
            return None
        cached = self._parsed.get(path)
        if cached is not None and cached[0] is text:
            return cached[1]
        parser = self._parsers.get(path)
        if parser is None:
            parser = self._parsers[path] = IncrementalParser(path)
        parsed = parser.parse(text)
        self._parsed[path] = (text, parsed)
        if parsed.module is not None:
            self.good[path] = (text, parsed.module)
        return parsed

    def module(self, path: str) -> A.Module | None:
        """The current module if it parses, else the last one that did."""
        got = self.module_and_text(path)
        return got[1] if got is not None else None

    def module_and_text(self, path: str) -> tuple[str, A.Module] | None:
        """The module to use for the file, and the text it was parsed from."""
        parsed = self.parse(path)
        if parsed is not None and parsed.module is not None:
            return self.text(path), parsed.module
        return self.good.get(path)

    def parsed_chunks(self, path: str) -> int:
        parser = self._parsers.get(path)
        return parser.parsed_chunks if parser is not None else 0
