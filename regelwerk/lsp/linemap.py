"""Lines of the text a file last parsed from, matched to the lines of its current text.

While a file does not parse, requests are answered from its last good version; a position in
the editor's text is mapped to that version (and results back), line by unchanged line.
"""

from __future__ import annotations

from difflib import SequenceMatcher


class LineMap:
    """1-based line numbers between an old and a new version of a text."""

    def __init__(self, old: str, new: str):
        self._to_old: dict[int, int] = {}
        self._to_new: dict[int, int] = {}
        matcher = SequenceMatcher(None, old.splitlines(), new.splitlines(), autojunk=False)
        for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
            if tag == "equal":
                for k in range(i2 - i1):
                    self._to_old[j1 + k + 1] = i1 + k + 1
                    self._to_new[i1 + k + 1] = j1 + k + 1

    def to_old(self, line: int) -> int | None:
        """The old line a new, unchanged line was; None for a line that changed."""
        return self._to_old.get(line)

    def to_new(self, line: int) -> int | None:
        return self._to_new.get(line)

    def near_old(self, line: int) -> int:
        """The old line where a new line stands, counting from the closest unchanged line above."""
        for above in range(line, 0, -1):
            if above in self._to_old:
                return self._to_old[above] + (line - above)
        return line
