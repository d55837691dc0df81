"""One ruleset checked as the command line checks it: the main file, its includes, the checker.

Includes are followed from the editor's buffers (an unsaved include counts), data files are
resolved relative to the file that names them (the checker does that from each span's file),
and a file that does not parse right now is checked with its last good parse, so one broken
line does not turn every name it declares into "unknown" in the other files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property

from ..dsl import ast as A
from ..dsl.check import Model, check_modules
from ..dsl.diagnostics import Diagnostic
from .index import Index, build_index
from .linemap import LineMap
from .store import Store, norm
from .tokens import Tokens

MAX_INCLUDES = 64  # as regelwerk.load


@dataclass
class Analysis:
    """The result of checking one ruleset: per-file diagnostics, the model, a lazy index."""

    root: str
    files: list[str]  # the root first, then includes in load order
    modules: list[A.Module]
    model: Model
    diagnostics: dict[str, list[Diagnostic]]
    texts: dict[str, str] = field(default_factory=dict)  # current texts (diagnostics refer to them)
    broken: set[str] = field(default_factory=set)  # files whose current text does not parse
    sources: dict[str, str] = field(default_factory=dict)  # the texts `modules` were parsed from
    _maps: dict[str, LineMap] = field(default_factory=dict, repr=False)

    @cached_property
    def tokens(self) -> dict[str, Tokens]:
        """Tokens of the texts the modules come from, so AST spans and tokens agree."""
        return {path: Tokens(text) for path, text in self.sources.items()}

    @cached_property
    def index(self) -> Index:
        return build_index(self.modules, self.model, self.tokens)

    def line_map(self, path: str) -> LineMap | None:
        """For a file that does not parse now: its current lines against the parsed version."""
        if path not in self.broken or path not in self.sources or path not in self.texts:
            return None
        if path not in self._maps:
            self._maps[path] = LineMap(self.sources[path], self.texts[path])
        return self._maps[path]

    def module(self, path: str) -> A.Module | None:
        return next((m for m in self.modules if m.path == path), None)


def includes_of(module: A.Module) -> list[tuple[A.IncludeDecl, str]]:
    """The include declarations of a module with the path each names."""
    base = os.path.dirname(module.path)
    return [(d, norm(os.path.join(base, d.path))) for d in module.decls if isinstance(d, A.IncludeDecl)]


def analyse(store: Store, root: str) -> Analysis:
    """Parse the ruleset that starts at `root` (following includes) and check it whole."""
    files: list[str] = []
    modules: list[A.Module] = []
    diags: dict[str, list[Diagnostic]] = {}
    texts: dict[str, str] = {}
    sources: dict[str, str] = {}
    broken: set[str] = set()
    seen = {root}

    def load(path: str) -> None:
        files.append(path)
        diags.setdefault(path, [])
        parsed = store.parse(path)
        text = store.text(path)
        if text is not None:
            texts[path] = text
        if parsed is not None and parsed.module is None:
            broken.add(path)
            diags[path].extend(parsed.diagnostics)
        got = store.module_and_text(path)
        if got is None:
            return
        sources[path], module = got
        modules.append(module)
        for d, target in includes_of(module):
            if target in seen:
                continue
            if len(seen) >= MAX_INCLUDES or not os.path.isfile(target):
                why = "too many includes" if len(seen) >= MAX_INCLUDES else "no such file"
                if path not in broken:
                    diags[path].append(Diagnostic("E008", f"cannot include '{d.path}': {why}", d.span))
                continue
            seen.add(target)
            load(target)

    load(root)
    if root in broken and root not in store.good:
        return Analysis(root, files, modules, Model(), diags, texts, broken, sources)
    model, found = check_modules(modules) if modules else (Model(), [])
    for d in found:
        path = d.span.file if d.span.file in diags else root
        if path not in broken:
            diags[path].append(d)
    for path in diags:
        diags[path].sort(key=lambda d: (d.span.line, d.span.column))
    return Analysis(root, files, modules, model, diags, texts, broken, sources)
