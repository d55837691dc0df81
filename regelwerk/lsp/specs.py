"""Spec ids (`KHAN-2C-03`) looked up in the rule inventories (`shared/spec/*.md`), when reachable.

The inventories live outside the repository. The folder comes from the `specDir`
initialization option, else the `REGELWERK_SPEC_DIR` environment variable, else the first
`shared/spec` folder found above the rules file. Without one, hover simply shows no entry.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

ENV_VAR = "REGELWERK_SPEC_DIR"
# an id's own entry starts a line: `**ID: title**`, `### ID: title`, `**6. `ID`** — kind`,
# `- **ID** (kind): text`, or a table row `| ID |`; a line that only mentions it does not
HEADING = (r"^\s*(?:[-*+]|\d+[.)]|#+)?\s*(?:\*\*)?\s*(?:\d+[.)]\s*)?`?{id}(?![\w.-])"
           r"|^\s*\|\s*{id}\s*\|")


@dataclass(frozen=True, slots=True)
class SpecEntry:
    file: str
    line: int  # 1-based
    text: str  # the entry's heading line and the lines under it, up to a blank line


@dataclass
class SpecInventory:
    """Finds inventory entries; reads each inventory once."""

    configured: str | None = None
    _texts: dict[str, list[str]] = field(default_factory=dict)

    def folder_for(self, rules_file: str) -> Path | None:
        for candidate in (self.configured, os.environ.get(ENV_VAR)):
            if candidate and Path(candidate).is_dir():
                return Path(candidate)
        for parent in Path(rules_file).resolve().parents:
            spec = parent / "shared" / "spec"
            if spec.is_dir():
                return spec
        return None

    def _lines(self, path: Path) -> list[str]:
        key = str(path)
        if key not in self._texts:
            try:
                self._texts[key] = path.read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                self._texts[key] = []
        return self._texts[key]

    def lookup(self, spec_id: str, rules_file: str) -> SpecEntry | None:
        """The id's own entry (a line it starts, `HEADING`) in any inventory, else the first
        bold line naming it, else its first mention: a line that only mentions it
        (`**Reading:** ... for KHAN-1-09`) is not taken for its entry."""
        folder = self.folder_for(rules_file)
        if folder is None:
            return None
        word = re.compile(rf"(?<![\w.-]){re.escape(spec_id)}(?![\w.-])")
        heading = re.compile(HEADING.format(id=re.escape(spec_id)))
        found: list[tuple[Path, list[str], list[int]]] = []
        for path in sorted(folder.glob("*.md")):
            lines = self._lines(path)
            hits = [i for i, line in enumerate(lines) if word.search(line)]
            if hits:
                found.append((path, lines, hits))
        for good in (heading.search, lambda line: "**" in line, lambda line: True):
            for path, lines, hits in found:
                head = next((i for i in hits if good(lines[i])), None)
                if head is not None:
                    body = [lines[head]]
                    for line in lines[head + 1: head + 9]:
                        if not line.strip():
                            break
                        body.append(line)
                    return SpecEntry(str(path), head + 1, "\n".join(body))
        return None


def entry_title(entry: SpecEntry, spec_id: str) -> str | None:
    """An entry's title, in each inventory format: what follows the id on its heading line
    (`**ID: title**`, `### ID: title`, `- **ID** (kind): text`), the cell after the id in a
    table row, or the entry's `- Rule:` line with the kind after a dash (`**6. `ID`** — effect`).
    Long ones are cut at a word."""
    lines = entry.text.splitlines()
    first = lines[0]
    cells = [c.strip() for c in first.split("|")]
    if first.lstrip().startswith("|") and spec_id in cells:
        at = cells.index(spec_id)
        return _short(cells[at + 1]) if at + 1 < len(cells) else None
    at = first.find(spec_id)
    rest = re.sub(r"\*\*|`", "", first[at + len(spec_id):]).strip() if at >= 0 else ""
    rule = next((x.split(":", 1)[1] for x in lines[1:] if x.strip().lower().startswith("- rule:")), "")
    if rest.startswith(("—", "–")) and rule.strip():  # `**6. `ID`** — effect`: a kind, not a title
        return _short(f"{rule.strip()} ({rest.strip(' —–')})", 110)
    return _short(rest) or _short(rule)


def _short(text: str, n: int = 90) -> str | None:
    """Text without the marks around it (`, **, :, —), cut at a word after `n` characters."""
    text = re.sub(r"\*\*|`", "", text).strip(" :—–-|").strip()
    if len(text) > n:
        text = text[:n].rsplit(" ", 1)[0] + " …"
    return text or None
