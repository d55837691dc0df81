"""Diagnostics: one constructor for every problem regelwerk reports about a rules file.

Every stage (parse, check, load of data, scenarios) reports through `Diagnostic`, so the
format `path:line:col: error: message`, the caret excerpt and the `help:` line are the same
everywhere. Codes are stable and listed in docs/errors.md.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from .ast import Span


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    message: str
    span: Span
    help: str | None = None
    severity: str = "error"

    def format(self, source: str | None = None) -> str:
        """Render as `path:line:col: error: message [CODE]`, the caret excerpt, and help."""
        head = f"{self.span}: {self.severity}: {self.message} [{self.code}]"
        lines = [head]
        if source is not None and self.span.line > 0:
            text_lines = source.split("\n")  # lines as the parser counts them: U+2028 is no break
            if 0 < self.span.line <= len(text_lines):
                text = _printable(text_lines[self.span.line - 1].rstrip("\r"))
                gutter = f"{self.span.line:>5} | "
                start = max(self.span.column - 1, 0)
                if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                    width = self.span.end_column - self.span.column
                else:
                    width = max(len(text.rstrip()) - start, 1)
                if len(text) > MAX_EXCERPT:  # a window around the column, marked with ellipses
                    lo = max(0, min(start - MAX_EXCERPT // 3, len(text) - MAX_EXCERPT))
                    hi = lo + MAX_EXCERPT
                    text = ("…" if lo else "") + text[lo:hi] + ("…" if hi < len(text) else "")
                    start = start - lo + (1 if lo else 0)
                    width = min(width, len(text) - start)
                lines.append(gutter + text)
                lines.append(" " * (len(gutter) - 2) + "| " + " " * start + "^" * max(width, 1))
        if self.help:
            lines.append(f"help: {self.help}")
        return "\n".join(lines)


MAX_EXCERPT = 100  # characters of a long line shown around the error


def _printable(line: str) -> str:
    """The line with characters that would move the terminal's cursor shown one for one, so
    the caret stays under its column: a tab as a space, other control characters and line
    breaks as U+FFFD."""
    return "".join(ch if ch.isprintable() or ch == " " else " " if ch == "\t" else "\ufffd" for ch in line)


class RulesError(Exception):
    """Raised by library code with every diagnostic found; the CLI prints them and exits 1."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None):
        self.diagnostics = diagnostics
        self.sources = sources or {}
        super().__init__("\n".join(d.format() for d in diagnostics))

    def format(self) -> str:
        return "\n".join(d.format(self.sources.get(d.span.file)) for d in self.diagnostics)


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A `help:` text naming the closest known spelling, if one is close enough."""
    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{matches[0]}'?" if matches else None
