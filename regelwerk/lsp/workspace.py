"""Which ruleset each file belongs to, and the latest analysis of each ruleset.

A file that another `.rules` file includes (Khan's `scenarios-*.rules`) is checked as part of
the file that includes it, as `regelwerk check` of that file would; a file nobody includes is
its own ruleset.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass, field

from .analysis import Analysis, analyse, includes_of
from .store import Store

MAX_CANDIDATES = 60  # .rules files looked at when searching for the file that includes another


@dataclass
class Workspace:
    store: Store = field(default_factory=Store)
    analyses: dict[str, Analysis] = field(default_factory=dict)  # root -> latest
    _roots: dict[str, str] = field(default_factory=dict)  # file -> root

    def _closure(self, root: str) -> set[str]:
        out, todo = {root}, [root]
        while todo and len(out) <= 64:
            module = self.store.module(todo.pop())
            if module is None:
                continue
            for _d, target in includes_of(module):
                if target not in out and os.path.isfile(target):
                    out.add(target)
                    todo.append(target)
        return out

    def find_root(self, path: str) -> str:
        """The file whose ruleset contains `path`: one that includes it, else itself."""
        if not os.path.isabs(path):  # an editor buffer that is no file (untitled:...)
            return path
        seen = {path}
        while True:
            parent = self._includer(path, seen)
            if parent is None:
                return path
            seen.add(parent)
            path = parent

    def _includer(self, path: str, seen: set[str]) -> str | None:
        folder = os.path.dirname(path)
        candidates: list[str] = []
        for where in (folder, os.path.dirname(folder)):
            candidates.extend(sorted(glob.glob(os.path.join(glob.escape(where), "*.rules"))))
        for cand in candidates[:MAX_CANDIDATES]:
            cand = os.path.normpath(cand)
            if cand not in seen and path in self._closure(cand):
                return cand
        return None

    def root_of(self, path: str, refresh: bool = False) -> str:
        if refresh or path not in self._roots:
            self._roots[path] = self.find_root(path)
        return self._roots[path]

    def analysis_for(self, path: str, fresh: bool = False) -> Analysis:
        """The analysis of the ruleset holding `path`, re-run when asked or when missing."""
        root = self.root_of(path)
        current = self.analyses.get(root)
        if fresh or current is None or path not in current.files:
            current = self.analyses[root] = analyse(self.store, root)
            if path not in current.files:  # the include was removed: the file stands alone
                root = self._roots[path] = path
                current = self.analyses[root] = analyse(self.store, root)
        return current
