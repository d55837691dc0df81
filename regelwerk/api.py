"""The Python API: load a ruleset (parse, check, compile) and start games from it."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from .dsl import ast as A
from .dsl.check import Model, check_modules
from .dsl.diagnostics import Diagnostic, RulesError
from .dsl.parse import parse_file, parse_text
from .interpreter.compile import Program, compile_expr, compile_model
from .interpreter.errors import EngineError
from .interpreter.game import Game

MAX_INCLUDES = 64


class Ruleset:
    """A checked ruleset. Programs (traced and untraced) are compiled on first use."""

    def __init__(self, model: Model, modules: list[A.Module], sources: dict[str, str],
                 warnings: list[Diagnostic]):
        self.model = model
        self.modules = modules
        self.sources = sources
        self.warnings = warnings
        self.title = model.title
        digest = hashlib.sha256()
        for path in sorted(sources):  # rules texts, then the data files they read
            digest.update(sources[path].encode("utf-8"))
        for path in sorted(model.data_files):
            digest.update(model.data_files[path].encode("utf-8"))
        self.hash = digest.hexdigest()
        self.path: str | None = None  # the main rules file, when loaded from one
        self._programs: dict[bool, Program] = {}
        self._exprs: dict[int, Any] = {}

    @property
    def player_names(self) -> tuple[str, ...]:
        return self.model.players.names

    def program(self, record: bool) -> Program:
        prog = self._programs.get(record)
        if prog is None:
            try:
                prog = self._programs[record] = compile_model(self.model, record)
            except EngineError:
                raise
            except Exception as err:  # a compiler bug must still reach the user as a message
                raise EngineError(f"internal error compiling {self.title!r}: {type(err).__name__}: {err}; "
                                  "please report this with the rules file") from err
        return prog

    def eval_static(self, expr: A.Node, game: Game, scope: dict | None = None) -> Any:
        """Evaluate an expression outside any rule (defaults, scoring, scenario checks)."""
        fn = self._exprs.get(id(expr))
        if fn is None:
            fn = self._exprs[id(expr)] = compile_expr(game.prog, expr, tuple(scope or ()))
        return fn(game, *(scope or {}).values())

    def constants(self, options: dict) -> dict[str, Any]:
        """Options (defaults overridden by `options`) and constants, evaluated once per game."""
        unknown = set(options) - set(self.model.options)
        if unknown:
            raise EngineError(f"unknown option '{sorted(unknown)[0]}'; known: "
                              f"{', '.join(self.model.options) or 'none'}")
        prog = self.program(False)
        holder = _ConstHolder(prog)
        for name, o in self.model.options.items():
            holder.consts[name] = options[name] if name in options else self.eval_static(o.default, holder)
        holder.consts.update(self.model.data_values)
        for name, c in self.model.consts.items():
            holder.consts[name] = self.eval_static(c.value, holder)
        return holder.consts

    def new_game(self, players: int | None = None, seed: int = 0, options: dict | None = None,
                 record: bool = False, start: bool = True) -> Game:
        """A new game with the first `players` names of the ruleset, started to its first decision."""
        decl = self.model.players
        n = decl.min_count if players is None else players
        if not decl.min_count <= n <= decl.max_count:
            raise EngineError(f"{self.title} is for {decl.min_count}"
                              f"{'' if decl.min_count == decl.max_count else '..' + str(decl.max_count)}"
                              f" players, not {n}")
        game = Game(self, tuple(decl.names[:n]), int(seed), dict(options or {}), record)
        return game.start() if start else game

    def load_game(self, data: Any, record: bool = False) -> Game:
        return Game.from_json(data, self, record)


class _ConstHolder:
    """Enough of a Game for evaluating constants before a game exists."""

    def __init__(self, prog: Program):
        self.prog = prog
        self.vars: dict = {}
        self.consts: dict = {}
        self.players: tuple = ()
        self.current = None
        self.round = 0


def _load_modules(path: Path, seen: set[Path], sources: dict[str, str]) -> list[A.Module]:
    mod = parse_file(path)
    sources[str(path)] = path.read_text(encoding="utf-8")
    out = [mod]
    for d in mod.decls:
        if isinstance(d, A.IncludeDecl):
            target = (path.parent / d.path).resolve()
            if target in seen:
                continue
            if len(seen) >= MAX_INCLUDES or not target.is_file():
                why = "too many includes" if len(seen) >= MAX_INCLUDES else "no such file"
                raise RulesError([Diagnostic("E008", f"cannot include '{d.path}': {why}", d.span)], sources)
            seen.add(target)
            rel = Path(str(path.parent / d.path))
            out.extend(_load_modules(rel, seen, sources))
    return out


def _finish(modules: list[A.Module], sources: dict[str, str]) -> Ruleset:
    model, diags = check_modules(modules)
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise RulesError(errors, sources)
    return Ruleset(model, modules, sources, [d for d in diags if d.severity != "error"])


def load(path: str | Path) -> Ruleset:
    """Parse, check and prepare a `.rules` file (and the files it includes)."""
    p = Path(path)
    sources: dict[str, str] = {}
    try:
        modules = _load_modules(p, {p.resolve()}, sources)
    except RulesError as err:
        err.sources = {**sources, **err.sources}
        raise
    ruleset = _finish(modules, sources)
    ruleset.model.base_dir = str(p.parent)
    ruleset.path = str(p.resolve())
    return ruleset


def main_files(files: list[Path]) -> list[Path]:
    """The files among `files` that no other file of them includes: each is one ruleset."""
    included: set[Path] = set()
    for f in files:
        try:
            decls = parse_file(f).decls
        except RulesError:
            continue  # reported when the file itself is loaded
        for d in decls:
            if isinstance(d, A.IncludeDecl):
                included.add((f.parent / d.path).resolve())
    return [f for f in files if f.resolve() not in included]


def load_text(text: str, path: str = "<text>") -> Ruleset:
    """Like `load`, from a string (includes are not followed)."""
    return _finish([parse_text(text, path)], {path: text})
