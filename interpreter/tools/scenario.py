"""Scenarios: the rulebook's worked examples as given / do / expect blocks, run as tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...dsl import ast as A
from ...dsl.ast import iter_nodes
from ...dsl.printer import expr_text
from ..engine.errors import EngineError, IllegalAction, InvariantBroken
from ..engine.game import Action, Game
from ..engine.values import value_text
from . import conserve


@dataclass
class ScenarioResult:
    name: str
    span: A.Span
    passed: bool
    failure: str | None = None
    at: A.Span | None = None
    specs: tuple[str, ...] = field(default_factory=tuple)


class _Failed(Exception):  # noqa: N818 - control flow: a line fails, possibly blaming an earlier one
    def __init__(self, failure: str, at: A.ScenarioStep | None = None):
        super().__init__(failure)
        self.failure = failure
        self.at = at


class _Run:
    """One scenario being run: the game it sets up and plays, line by line.

    The ruleset's invariants are checked on the scenario's position, traced or not, so the
    verdict never depends on tracing: after the start (blaming the `before start` or `start in
    phase` line that made the position, if any), after `given`, and after every `do`."""

    _STEPS: ClassVar[dict[str, Callable[[_Run, A.ScenarioStep], str | None]]]  # kind -> method (below)

    def __init__(self, ruleset: Any, sc: A.ScenarioDecl, record: bool = False):
        self.ruleset = ruleset
        self.sc = sc
        self.record = record  # a traced game: the same verdict, and `game.trace` to look at
        self.players: int | None = None
        self.seed = 0
        self.options: dict = {}
        self.game: Game | None = None
        self.phase: str | None = None  # `start in phase NAME`
        self.setup: A.ScenarioStep | None = None  # the last `before start` / `start in phase` line

    def created(self) -> Game:
        """The game, built but not yet started (so scripts can queue outcomes first)."""
        if self.game is None:
            self.game = self.ruleset.new_game(players=self.players, seed=self.seed, options=self.options,
                                              record=self.record, start=False)
            self.started = False
        return self.game

    def ensure(self) -> Game:
        g = self.created()
        if not self.started:
            self.started = True
            try:  # a traced game checks the invariants as it starts, an untraced one here
                g.start(self.phase)
            except InvariantBroken:
                pass  # said below, in the same words as untraced
            failure = self.broken("the position the game starts from")
            if failure:
                raise _Failed(failure, self.setup)
        return g

    def broken(self, what: str) -> str | None:
        """What the position breaks, naming each invariant (file:line:col and its message) and,
        for a `conserve`, the pieces out of place; None when every invariant holds."""
        g = self.game
        broken = g.broken_invariants()
        if broken:
            return f"{what} breaks an invariant: " + "; ".join(broken + conserve.details(g))
        return None

    def value(self, e: A.Node) -> Any:
        g = self.ensure()
        return g.prog.expr(e)(g)

    def names(self, e: A.Node) -> list[tuple[str, Any]]:
        """The value of every state variable, constant and game value an expectation names,
        also those its evaluation never reached (`a and b` stops at a false `a`)."""
        g = self.ensure()
        m = g.prog.model
        bound = {n.var if isinstance(n, A.Aggregate) else n.name for n in iter_nodes(e)
                 if isinstance(n, (A.Aggregate, A.LetExpr))}
        out: list[tuple[str, Any]] = []
        for n in iter_nodes(e):
            if not isinstance(n, A.Name) or n.name in bound or n.name in {x for x, _ in out}:
                continue
            if n.name in m.vars or n.name in m.consts or n.name in m.options or n.name in _GAME_VALUES:
                out.append((n.name, g.prog.expr(n)(g)))
        return out

    def action(self, call: A.ActionCall) -> Action:
        return Action(call.name, tuple(self.value(a) for a in call.args))

    def step(self, st: A.ScenarioStep) -> str | None:
        """Run one line of a scenario: None when it holds, else what went wrong. One method
        per kind of line (`_STEPS`)."""
        k = st.kind
        if k in ("players", "seed", "option", "start_phase") and self.game is not None:
            return (f"'{k.replace('_', ' ')}' must come before the lines that set up or play the game "
                    "(it would be ignored here)")
        return self._STEPS[k](self, st)

    def _line_players(self, st: A.ScenarioStep) -> str | None:
        self.players = st.value
        return None

    def _line_seed(self, st: A.ScenarioStep) -> str | None:
        self.seed = st.value
        return None

    def _line_option(self, st: A.ScenarioStep) -> str | None:
        name, e = st.value
        g = self.ruleset.new_game(start=False)
        self.options[name] = g.prog.expr(e)(g)
        return None

    def _line_script(self, st: A.ScenarioStep) -> str | None:
        name, e = st.value
        g = self.created()
        g.script(name, g.prog.expr(e)(g), next_draw=True)  # a line after the start means a later draw
        return None

    def _line_before_start(self, st: A.ScenarioStep) -> str | None:
        self.setup = st
        g = self.created().prepare()
        _compiled().compile_stmts(g.prog, st.body)(g)
        return None

    def _line_start_phase(self, st: A.ScenarioStep) -> str | None:
        self.setup = self.setup or st
        self.phase = st.value
        return None

    def _line_given(self, st: A.ScenarioStep) -> str | None:
        g = self.ensure()
        before = conserve.snapshot(g)
        _compiled().compile_stmts(g.prog, st.body)(g)
        problem = conserve.keep(g, before, st)  # a card set into a hand leaves the deck
        g.invalidate()
        if problem:
            return problem
        return self.broken("the position 'given' sets up")

    def _line_do(self, st: A.ScenarioStep) -> str | None:
        g = self.ensure()
        a = self.action(st.call)
        try:  # `by P`: for that player (a simultaneous decision), else for who decides
            g.apply(a, player=self.value(st.by) if st.by is not None else None)
        except IllegalAction as err:
            return f"'{a}' was refused: {err.message}"
        except InvariantBroken:
            pass  # a traced game checks after the move: said below, in the same words as untraced
        return self.broken(f"the position after '{a}'")

    def _line_expect(self, st: A.ScenarioStep) -> str | None:
        g = self.ensure()
        value, subs = _compiled().compile_explained(g.prog, st.value)(g)
        if value is not True:
            shown = [(t, v) for t, v in subs if t != expr_text(st.value)]
            seen = {t for t, _ in shown}  # a map already shown through `cell[a1]` is not repeated
            shown += [(n, v) for n, v in self.names(st.value)
                      if n not in seen and not any(t.startswith((n + "[", n + ".")) for t in seen)]
            detail = ", ".join(f"{t} = {_short(value_text(v))}" for t, v in shown)
            msg = st.message or f"expected {expr_text(st.value)}"
            return msg + (f"  (where {detail})" if detail else "")

    def _line_legal_or_illegal(self, st: A.ScenarioStep) -> str | None:
        k = st.kind
        g = self.ensure()
        a = self.action(st.call)
        ex = g.explain(a, player=self.value(st.by) if st.by is not None else None)
        if k == "legal" and not ex.legal:
            why = f"expected '{a}' to be legal, but: {ex.reason}" + (f" (line {ex.at})" if ex.at else "")
            return f"{st.message}  ({why})" if st.message else why
        if k == "illegal":
            why = None
            if ex.legal:
                why = f"expected '{a}' to be illegal, but it is legal"
            elif st.message is not None and st.message not in (ex.reason, ex.own_reason):
                why = f"'{a}' is illegal, but because: {ex.reason!r}, not {st.message!r}"
            if why:
                return f"{st.value}  ({why})" if st.value else why

    def _line_winner(self, st: A.ScenarioStep) -> str | None:
        g = self.ensure()
        want = self.value(st.value)
        want = list(want) if isinstance(want, (list, tuple, frozenset)) else [want]
        if not g.is_over:
            return f"expected {', '.join(map(str, want))} to win, but the game is not over"
        if sorted(g.winners) != sorted(want):
            got = ", ".join(g.winners) or "nobody (a draw)"
            return f"expected winner {', '.join(map(str, want))}, got {got}"

    def _line_draw(self, st: A.ScenarioStep) -> str | None:
        g = self.ensure()
        if not g.is_over or g.winners:
            return "expected a draw, got " + ("winner " + ", ".join(g.winners) if g.is_over else "a game not over")

    def _line_decider(self, st: A.ScenarioStep) -> str | None:
        g = self.ensure()
        want = self.value(st.value)
        waiting = g.pending["players"] if g.pending is not None and g.pending["kind"] == "simultaneous" \
            else [g.decision_player()]
        if want not in waiting:
            why = f"expected a decision by {want}, but it is {g.decision_player() or 'nobody'}'s"
            return f"{st.message}  ({why})" if st.message else why

    def _line_over(self, st: A.ScenarioStep) -> str | None:
        if not self.ensure().is_over:
            return "expected the game to be over"

    def _line_not_over(self, st: A.ScenarioStep) -> str | None:
        if self.ensure().is_over:
            return "expected the game not to be over"


_Run._STEPS = {
    "players": _Run._line_players,
    "seed": _Run._line_seed,
    "option": _Run._line_option,
    "script": _Run._line_script,
    "before_start": _Run._line_before_start,
    "start_phase": _Run._line_start_phase,
    "given": _Run._line_given,
    "do": _Run._line_do,
    "expect": _Run._line_expect,
    "legal": _Run._line_legal_or_illegal,
    "illegal": _Run._line_legal_or_illegal,
    "winner": _Run._line_winner,
    "draw": _Run._line_draw,
    "decider": _Run._line_decider,
    "over": _Run._line_over,
    "not_over": _Run._line_not_over,
}


_GAME_VALUES = frozenset({"current", "round", "current_phase", "player_count"})


def _short(text: str, n: int = 120) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _played(ruleset: Any, sc: A.ScenarioDecl,
            record: bool = False) -> tuple[_Run, str | None, A.ScenarioStep | None]:
    """The scenario run up to its end or its first failing line: the run, the failure and
    that line (None, None when every line held)."""
    run = _Run(ruleset, sc, record)
    for st in sc.steps:
        try:
            failure = run.step(st)
        except _Failed as f:
            failure, st = f.failure, f.at or st
        except EngineError as err:
            failure = f"error: {err.message}"
        if failure is not None:
            return run, failure, st
    return run, None, None


def run_scenario(ruleset: Any, sc: A.ScenarioDecl, record: bool = False) -> ScenarioResult:
    """Run one scenario; a failure names the line and says what was seen. `record=True` plays
    it traced; the verdict is the same either way."""
    _, failure, st = _played(ruleset, sc, record)
    if failure is not None:
        return ScenarioResult(sc.name, sc.span, False, failure, st.span, sc.prov.specs)
    return ScenarioResult(sc.name, sc.span, True, specs=sc.prov.specs)


def scenario_position(ruleset: Any, sc: A.ScenarioDecl) -> Any:
    """The game as the scenario leaves it (after its last line, or the line that failed);
    None when it never set one up. For pictures of worked examples (regelwerk book)."""
    return _played(ruleset, sc)[0].game


def run_scenarios(ruleset: Any, record: bool = False) -> list[ScenarioResult]:
    return [run_scenario(ruleset, sc, record) for sc in ruleset.model.scenarios]


def _compiled():
    """The compiler, imported when a scenario runs (so `check` does not import it)."""
    from ..compiler import compile

    return compile
