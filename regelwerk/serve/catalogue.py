"""The rulesets a server hosts: exactly the files and folders given on its command line.

A file given by name is one ruleset; in a folder, every `.rules` file whose own text declares
a `game` is one (scenario files and included parts are not). A ruleset is named by its file
name without `.rules`; two of the same name are refused at start, so a name always means one
file. Nothing else is ever loaded, whatever a client asks.
"""

from __future__ import annotations

from pathlib import Path

from ..api import Ruleset, load
from ..dsl import ast as A
from ..dsl.diagnostics import RulesError
from ..dsl.sources import parse_file
from .limits import TIME_LIMIT, WORK_BUDGET


class CatalogueError(Exception):
    """A path given to `serve` that is not a loadable ruleset; the message says which and why."""


def _declares_game(path: Path) -> bool:
    try:
        return any(isinstance(d, A.GameDecl) for d in parse_file(path).decls)
    except RulesError:
        return True  # loaded below, where its errors are reported




class Catalogue:
    """Name -> loaded Ruleset, for the paths given; programs compiled up front, every game of
    them held to `time_limit` seconds and `work_budget` steps of work between decisions."""

    def __init__(self, paths: list[str], time_limit: float = TIME_LIMIT, work_budget: int = WORK_BUDGET):
        files: list[Path] = []
        for p in paths:
            path = Path(p)
            if path.is_dir():
                files.extend(f for f in sorted(path.rglob("*.rules")) if _declares_game(f))
            elif path.is_file():
                files.append(path)
            else:
                raise CatalogueError(f"{p}: error: no such file or folder")
        self.rulesets: dict[str, Ruleset] = {}
        self.paths: dict[str, Path] = {}
        for f in files:
            name = f.name.removesuffix(".rules")
            if name in self.rulesets:
                raise CatalogueError(f"{f}: error: a second ruleset named {name!r} (the first is "
                                     f"{self.paths[name]}); serve them from separate servers")
            try:
                rules = load(f)
            except RulesError as err:
                raise CatalogueError(str(err)) from None
            if rules.model.players is None:
                raise CatalogueError(f"{f}: error: no `players` declaration: not a game to serve")
            rules.set_limits(work_budget=work_budget, time_limit=time_limit)
            rules.program(True)  # compiled now, once: games start in worker threads later
            self.rulesets[name] = rules
            self.paths[name] = f
        if not self.rulesets:
            raise CatalogueError("error: no ruleset found in " + ", ".join(paths))

    def get(self, name: object) -> Ruleset | None:
        return self.rulesets.get(name) if isinstance(name, str) else None

    def listing(self) -> list[dict]:
        """`GET /api/rulesets`: name, title and the range of player counts of each."""
        out = []
        for name, r in sorted(self.rulesets.items()):
            decl = r.model.players
            out.append({"name": name, "title": r.title, "players": [decl.min_count, decl.max_count],
                        "names": list(decl.names)})
        return out
