"""The Python API: load a ruleset (parse, check, compile) and start games from it."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .dsl import ast as A
from .dsl.check import Model, check_modules
from .dsl.diagnostics import Diagnostic, RulesError
from .dsl.files import FileRefused, inside
from .dsl.sources import _parse_cached, parse_file, parse_text, read_rules
from .interpreter.engine.errors import EngineError

if TYPE_CHECKING:  # the engine is imported when a game is made, so `check` starts fast
    from .interpreter.compiler.compile import Program
    from .interpreter.engine.game import Game

MAX_INCLUDES = 64


class Ruleset:
    """A checked ruleset. Programs (traced and untraced) are compiled on first use; games are
    started from them (`new_game`), by cloning a started template when the start is the same
    for every seed."""

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
        self._move_tables: dict[tuple, tuple] = {}  # shared by both programs (Program.move_tables)
        self._templates: dict[tuple, Game | None] = {}
        # the started default game per `record`, for new_game's hot path: the same games as
        # `_templates[(None, record)]` where not None, found without a key tuple made and hashed
        self._defaults: dict[bool, Game] = {}
        # per template key whose start draws on chance: the game prepared (every variable at its
        # start value, worked out once) but not started, cloned and started for each new game
        self._prepared: dict[tuple, Game] = {}
        self.limits: dict[str, float] = {}  # set_limits: the runaway limits of its new games

    def set_limits(self, work_budget: int | None = None, time_limit: float | None = None) -> None:
        """The runaway limits of every game made from now on (None: the default): steps of
        work and seconds allowed between two decisions (docs/architecture.md §13)."""
        if work_budget is not None and (type(work_budget) is not int or work_budget <= 0):
            raise EngineError(f"a work budget is a whole number above 0, not {work_budget!r}")
        if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                       or not time_limit > 0):
            raise EngineError(f"a time limit is a number of seconds above 0, not {time_limit!r}")
        self.limits = {k: v for k, v in (("work_budget", work_budget), ("time_limit", time_limit)) if v is not None}
        self._templates.clear()  # started with the old limits
        self._defaults.clear()
        self._prepared.clear()

    @property
    def player_names(self) -> tuple[str, ...]:
        return self.model.players.names

    def program(self, record: bool) -> Program:
        """The compiled program (traced or untraced variant), compiled once."""
        prog = self._programs.get(record)
        if prog is None:
            from .interpreter.compiler.compile import Identity, compile_program

            prog = self._programs[record] = compile_program(self.model, record,
                                                            Identity(self.title, self.hash, self.path),
                                                            self._move_tables)
        return prog

    def options(self, given: dict | None) -> dict[str, Any]:
        """`given` option values checked against the declared options and decoded by type."""
        from .interpreter.engine.values import decode_options

        return decode_options(self.model, given)

    def new_game(self, players: int | None = None, seed: int = 0, options: dict | None = None,
                 record: bool = False, start: bool = True, chance: str = "sampled",
                 history: bool = False) -> Game:
        """A new game with the first `players` names of the ruleset, started to its first
        decision (or, with `start=False`, built but not started: scripts and set-up first).
        `chance="explicit"` makes every chance event a node of the game tree instead of a
        draw from the seeded generator; `history=True` keeps the moves and what each player
        observed (information states). Both are for analysis (docs/analysis.md)."""
        if players is None and start and not options and chance == "sampled" and not history and \
                type(seed) is int:  # the hot path of playouts: a copy of the started default game
            template = self._defaults.get(record)
            if template is not None:
                return template._reseeded(seed, seed & _SEED_MASK)
        decl = self.model.players
        n = decl.min_count if players is None else players
        if type(n) is not int or not decl.min_count <= n <= decl.max_count:
            raise EngineError(f"{self.title} is for {decl.min_count}"
                              f"{'' if decl.min_count == decl.max_count else '..' + str(decl.max_count)}"
                              f" players, not {n}")
        if type(seed) is not int:
            raise EngineError(f"a seed is a whole number, not {seed!r}")
        if start and not options and chance == "sampled" and not history:  # the common case, kept short
            template = self._templates.get((n, record))
            if template is not None:
                return template._reseeded(seed, seed & _SEED_MASK)
        from .interpreter.engine.game import game_class

        opts = self.options(options)
        prog = self.program(record)
        Game = game_class(prog)  # noqa: N806 - the class of this program's games
        names = tuple(decl.names[:n])
        if not start:
            return Game(prog, names, seed, opts, self, chance, history)
        key = (n, record) if not opts and chance == "sampled" and not history else \
            (n, record, repr(sorted(opts.items())), chance, history)
        if key not in self._templates:
            self._templates[key] = self._template(prog, names, opts, chance, history, key)
        template = self._templates[key]
        if players is None and key == (n, record):  # for the hot path above
            self._templates[(None, record)] = template
            if template is not None:
                self._defaults[record] = template
        if template is None:  # the start draws on chance: every seed starts differently
            prepared = self._prepared.get(key)
            if prepared is None:
                return Game(prog, names, seed, opts, self, chance, history).start()
            return _from_template(prepared, seed).start()
        return _from_template(template, seed)

    def _template(self, prog: Program, names: tuple[str, ...], opts: dict, chance: str, history: bool,
                  key: tuple) -> Game | None:
        """A started game to clone new games from, if starting used no chance (so the start is
        the same for every seed); otherwise None, and the game as `prepare` left it kept in
        `_prepared[key]` (the start values cost Shogun about 0.2 ms a game; a clone 4 µs). An
        explicit game never draws: its start is the same for every seed, stopped at a chance
        node or not."""
        from .interpreter.engine.game import game_class
        from .interpreter.stdlib.rng import seed_state

        game = game_class(prog)(prog, names, 0, opts, self, chance, history).prepare()
        prepared = game.clone() if game.rng == seed_state(0) and not game.scripted else None
        game.start()
        if game.rng == seed_state(0) and not game.scripted:
            return game.as_template()
        if prepared is not None:  # the start values drew on nothing: the same for every seed
            self._prepared[key] = prepared
        return None

    def load_game(self, data: Any, record: bool = False) -> Game:
        """A saved game continued on this ruleset's program (`record`: traced or not)."""
        from .interpreter.engine.game import load_game
        from .interpreter.engine.saves import check_format

        check_format(data)  # before compiling anything for it
        return load_game(data, self.program(record), origin=self)


_SEED_MASK = (1 << 64) - 1  # interpreter/stdlib/rng.py's seed_state, for an int already checked


def _from_template(template: Game, seed: int) -> Game:
    """A new game: a copy of the template (started, or only prepared) with its own seed (the
    hot path of playouts)."""
    return template._reseeded(seed, seed & _SEED_MASK)


def _load_modules(path: Path, seen: set[Path], sources: dict[str, str], root: Path,
                  scenarios: bool = True) -> list[A.Module]:
    text = read_rules(path)  # read once, checked (dsl/files.py): the text parsed is the text hashed
    mod = _parse_cached(text, str(path))
    sources[str(path)] = text
    if not scenarios:  # included `without scenarios`: its rules only, transitively
        mod = replace(mod, decls=tuple(d for d in mod.decls if not isinstance(d, A.ScenarioDecl)))
    out = [mod]
    for d in mod.decls:
        if isinstance(d, A.IncludeDecl):
            try:
                named = inside(root, path.parent, d.path)
            except FileRefused as err:
                raise RulesError([Diagnostic("E008", f"cannot include '{d.path}': {err}", d.span,
                                             "a ruleset's files stay inside its folder (or give --root)")],
                                 sources) from None
            if not d.path.endswith(".rules"):
                raise RulesError([Diagnostic("E008", f"cannot include '{d.path}': only .rules files are "
                                             "included", d.span)], sources)
            target = named.resolve()
            if target in seen:
                continue
            if len(seen) >= MAX_INCLUDES or not target.is_file():
                why = "too many includes" if len(seen) >= MAX_INCLUDES else \
                    "not a regular file" if target.exists() else "no such file"
                raise RulesError([Diagnostic("E008", f"cannot include '{d.path}': {why}", d.span)], sources)
            seen.add(target)
            rel = Path(str(path.parent / d.path))
            out.extend(_load_modules(rel, seen, sources, root, scenarios and not d.without_scenarios))
    return out


def _finish(modules: list[A.Module], sources: dict[str, str], root: Path | None = None) -> Ruleset:
    model, diags = check_modules(modules, root)
    errors = [d for d in diags if d.severity == "error"]
    if errors:
        raise RulesError(errors, sources)
    return Ruleset(model, modules, sources, [d for d in diags if d.severity != "error"])


def load(path: str | Path, root: str | Path | None = None) -> Ruleset:
    """Parse, check and prepare a `.rules` file (and the files it includes). Included, data
    and board files are read only inside `root`: by default the file's own folder."""
    p = Path(path)
    top = Path(root) if root is not None else (p.parent if str(p.parent) else Path("."))
    sources: dict[str, str] = {}
    try:
        if root is not None and not top.is_dir():
            raise RulesError([Diagnostic("E007", f"--root {root}: not a folder", A.Span(str(p), 1, 1, 1, 1))])
        if root is not None:
            inside(top, p.parent, p.name)  # the main file itself is inside an explicit root
        modules = _load_modules(p, {p.resolve()}, sources, top)
    except FileRefused as err:
        raise RulesError([Diagnostic("E007", f"cannot read file: {err}", A.Span(str(p), 1, 1, 1, 1))]) from None
    except RulesError as err:
        err.sources = {**sources, **err.sources}
        raise
    ruleset = _finish(modules, sources, top)
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
            if isinstance(d, A.IncludeDecl) and not d.without_scenarios:
                included.add((f.parent / d.path).resolve())  # its scenarios run with f's
    return [f for f in files if f.resolve() not in included]


def load_text(text: str, path: str = "<text>") -> Ruleset:
    """Like `load`, from a string (includes are not followed)."""
    return _finish([parse_text(text, path)], {path: text})
