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
        folder = self.folder_for(rules_file)
        if folder is None:
            return None
        word = re.compile(rf"(?<![\w.-]){re.escape(spec_id)}(?![\w.-])")
        for path in sorted(folder.glob("*.md")):
            lines = self._lines(path)
            hits = [i for i, line in enumerate(lines) if word.search(line)]
            if not hits:
                continue
            head = next((i for i in hits if "**" in lines[i]), hits[0])
            body = [lines[head]]
            for line in lines[head + 1: head + 9]:
                if not line.strip():
                    break
                body.append(line)
            return SpecEntry(str(path), head + 1, "\n".join(body))
        return None
