"""Legality that reads what the deciding player cannot see (E247).

A player's legal moves must depend only on what that player knows: two positions they cannot
tell apart must offer them the same moves. Otherwise the set of moves itself tells them a
secret (a `require c in hand[Bob]` in Ann's action says what Bob holds), and game-theory tools
stop: OpenSpiel's CFR asks one policy per information state and finds an action that is legal
in one position of it and not in another.

So the checker refuses, for each decision, a hidden read in what decides the options:

- an action's parameter domains and its preconditions (the leading `require` and `let` lines),
  decided by `current`, or by the player a `play ... by` names;
- a `choose`'s options and `where`, decided by its `by` player (else `current`);
- a condition that decides whether a decision comes at all: an `if`/`elif`/`while` test, a
  `for` domain or a `repeat` count around a `play` or `choose` in the flow, a procedure or a
  trigger.

What a player sees: public state; their own entry of a `hidden except owner` variable (an
index whose text names the decider: `hand[current]`, `plan[p]` inside `choose ... by p`); the
size of any hidden zone (`len(deck)`, `deck != []`). Everything else of a hidden variable is
hidden, and so is whatever is computed from it: a definition that reads it, a local bound to
it, a loop variable over it, a procedure parameter passed it. Games in which an umpire refuses
moves by hidden information (Kriegspiel) declare it with `umpire "..."`; then nothing here is
reported, and the OpenSpiel bridge refuses the ruleset with the same reason.
"""

from __future__ import annotations

from collections.abc import Callable

from . import ast as A
from .printer import expr_text

Report = Callable[[str, str, A.Span, str | None], None]
_SIZE_CALLS = {"len"}
HELP = ("a player's legal moves may depend only on what that player sees: public state, their own "
        "entries of `hidden except owner` state, and the sizes of hidden zones. If an umpire refuses "
        "moves by what the player cannot see (as in Kriegspiel), declare it: umpire \"why\"")


class _Env:
    """What is known at a point of a rule body: the local names whose values are secret (and the
    text of what made them so), and the names that stand for the deciding player."""

    def __init__(self, secret: dict[str, tuple[str, str | None]] | None = None,
                 me: frozenset[str] = frozenset({"current"})):
        self.secret = dict(secret or {})  # name -> (what made it secret, the key of the one who sees it)
        self.me = me

    def copy(self) -> _Env:
        return _Env(self.secret, self.me)


class HiddenLegality:
    """Walks every rule of a checked model for hidden reads that decide a player's options."""

    def __init__(self, model: object, report: Report):
        self.m = model
        self.report = report
        self.hidden_all = {n for n, d in model.vars.items() if d.hidden == "all"}
        self.owner = {n for n, d in model.vars.items() if d.hidden == "owner"}
        self.by_of: dict[str, list[A.Node | None]] = {}  # action -> the `by` of each play offering it
        self._define_memo: dict[tuple, str | None] = {}
        self._zone_busy: set[str] = set()  # definitions being read by zone()
        self._proc_done: set[tuple] = set()
        self._calling: set[str] = set()  # procedures being walked now (a procedure may call itself)
        self.reported: set[tuple] = set()

    # ------------------------------------------------------------------ expressions
    def hidden(self, e: A.Node, env: _Env) -> str | None:
        """The text of a hidden part `e` reads (for the player `env.me` names), or None."""
        if isinstance(e, A.Name):
            if e.name in env.secret:
                what, owner = env.secret[e.name]
                return None if owner is not None and owner in env.me else what
            if e.name in self.hidden_all or e.name in self.owner:
                return e.name
            return None
        if isinstance(e, A.Index):
            if isinstance(e.base, A.Name) and e.base.name in self.owner and e.base.name not in env.secret:
                if expr_text(e.key) in env.me:
                    return self.hidden(e.key, env)
                return expr_text(e)
            return self.hidden(e.base, env) or self.hidden(e.key, env)
        if isinstance(e, A.Call):
            if e.func in _SIZE_CALLS and len(e.args) == 1 and self.zone(e.args[0], env):
                return None
            if e.func == "possible":
                return None  # that action's own legality is checked where it is offered
            for a in e.args:
                found = self.hidden(a, env)
                if found is not None:
                    return found
            d = self.m.defines.get(e.func)
            if d is not None:
                me_params = frozenset(p.name for p, a in zip(d.params, e.args, strict=False)
                                      if expr_text(a) in env.me)
                return self.define_hidden(e.func, me_params | (env.me & {"current"}))
            return None
        if isinstance(e, A.Compare) and e.op in ("==", "!=") and self.emptiness(e, env):
            return None  # `deck != []`, `top(deck) == none`: only the size
        if isinstance(e, A.LetExpr):  # a definition's `let`: the local carries what its value reads
            found = self.hidden(e.value, env)
            if found is not None:
                return found
            inner = env.copy()
            self.bind(inner, e.name, e.value)
            return self.hidden(e.body, inner)
        if isinstance(e, A.Aggregate):
            found = self.hidden(e.domain, env)
            if found is not None:
                return found
            inner = env.copy()
            inner.secret.pop(e.var, None)
            for part in (e.where, e.body):
                if part is not None:
                    found = self.hidden(part, inner)
                    if found is not None:
                        return found
            return None
        for child in _children(e):
            found = self.hidden(child, env)
            if found is not None:
                return found
        return None

    def emptiness(self, e: A.Compare, env: _Env) -> bool:
        """`ZONE == []`, `ZONE != {}`, `top(ZONE) == none`: whether a hidden zone is empty."""
        for x, other in ((e.left, e.right), (e.right, e.left)):
            if isinstance(x, (A.ListLit, A.SetLit, A.MapLit)) and not x.items and self.zone(other, env):
                return True
            if isinstance(x, A.NoneLit) and isinstance(other, A.Call) and other.func == "top" \
                    and len(other.args) == 1 and self.zone(other.args[0], env):
                return True
        return False

    def zone(self, e: A.Node, env: _Env) -> bool:
        """Whether `e` is a hidden zone whose size alone is read: a hidden variable, any entry
        of a `hidden except owner` one (the key itself public), or a definition that gives one."""
        if isinstance(e, A.Name):
            return e.name in self.hidden_all or e.name in self.owner
        if isinstance(e, A.Index) and isinstance(e.base, A.Name) and e.base.name in self.owner | self.hidden_all:
            return self.hidden(e.key, env) is None
        if isinstance(e, A.Call) and e.func in self.m.defines and e.func not in self._zone_busy:
            d = self.m.defines[e.func]
            self._zone_busy.add(e.func)  # a definition that calls itself is read once
            try:
                return all(self.hidden(a, env) is None for a in e.args) and self.zone(d.value, _Env())
            finally:
                self._zone_busy.discard(e.func)
        return False

    def taint(self, e: A.Node, env: _Env) -> tuple[str, str | None] | None:
        """What a local bound to `e` carries: None when it is public; else the hidden part, and
        the key of the player who sees it all (`o` over `plan[p]` is seen by `p`), if one does."""
        found = self.hidden(e, _Env(env.secret, frozenset()))
        if found is None:
            return None
        keys = {expr_text(n.key) for n in A.iter_nodes(e)
                if isinstance(n, A.Index) and isinstance(n.base, A.Name) and n.base.name in self.owner}
        keys |= {k for name in _names(e) if name in env.secret for k in [env.secret[name][1]] if k is not None}
        for k in sorted(keys):
            if self.hidden(e, _Env(env.secret, frozenset({k}))) is None:
                return found, k
        return found, None

    def define_hidden(self, name: str, me: frozenset[str]) -> str | None:
        key = (name, me)
        if key not in self._define_memo:
            self._define_memo[key] = None  # a definition reached again while being read
            d = self.m.defines[name]
            found = self.hidden(d.value, _Env({}, me))
            self._define_memo[key] = None if found is None else f"{found}, read by {name}(...)"
        return self._define_memo[key]

    # ------------------------------------------------------------------ rules
    def run(self) -> None:
        m = self.m
        if not (self.hidden_all or self.owner) or getattr(m, "umpire", None) is not None:
            return
        for node in _all_bodies(m):
            for s in A.iter_nodes(node):
                if isinstance(s, A.PlayStmt):
                    for a in s.actions:
                        self.by_of.setdefault(a, []).append(s.by)
        for name, a in m.actions.items():
            self.action(name, a)
        for p in m.procedures.values():
            self.body(p.body, _Env())
        for t in m.triggers:
            self.body(t.body, _Env())
        if m.flow is not None:
            self.body(m.flow.body, _Env())

    def action(self, name: str, a: A.ActionDecl) -> None:
        bys = self.by_of.get(name, [None])
        for by in dict.fromkeys(expr_text(b) if b is not None else None for b in bys):
            env = _Env(me=frozenset({by}) if by is not None else frozenset({"current"}))
            who = by or "current"
            for p in a.params:
                if p.domain is not None:
                    self.need_visible(p.domain, env, f"the moves of '{name}'", who)
            for s in a.body:
                if isinstance(s, A.LetStmt):
                    self.bind(env, s.name, s.value)
                elif isinstance(s, A.RequireStmt):
                    self.need_visible(s.test, env, f"whether '{name}' is legal", who)
                else:
                    break
            self.body(a.body, _Env(me=env.me))

    def need_visible(self, e: A.Node, env: _Env, what: str, who: str) -> None:
        found = self.hidden(e, env)
        if found is not None:
            key = (e.span.file, e.span.line, e.span.column)
            if key not in self.reported:
                self.reported.add(key)
                self.report("E247", f"{what} depends on what '{who}' cannot see: '{found}' is hidden from "
                            f"the player who decides", e.span, HELP)

    def body(self, stmts: tuple, env: _Env, guard: tuple = ()) -> None:
        """A statement list; `guard` holds the conditions the statements run under (each with
        the locals known where it was tested): a decision under one that is hidden from its
        player is reported at the condition."""
        for s in stmts:
            if isinstance(s, A.LetStmt):
                self.bind(env, s.name, s.value)
                if isinstance(s.value, A.Name) and s.value.name in env.me:
                    env.me = env.me | {s.name}
            elif isinstance(s, A.ChooseStmt):
                who = expr_text(s.by) if s.by is not None else "current"
                me = frozenset({who}) | (env.me if who in env.me else frozenset())
                inner = _Env(env.secret, me)
                self.need_visible(s.domain, inner, f"the options of 'choose {s.name}'", who)
                if s.where is not None:
                    inner.secret.pop(s.name, None)
                    self.need_visible(s.where, inner, f"the options of 'choose {s.name}'", who)
                self.decision(s, guard, who, me)
                env.secret.pop(s.name, None)
            elif isinstance(s, A.PlayStmt):
                who = expr_text(s.by) if s.by is not None else "current"
                self.decision(s, guard, who, frozenset({who}) | (env.me if who in env.me else frozenset()))
                if s.otherwise is not None:  # whether anything is legal is public (E247)
                    self.body((s.otherwise,), env.copy(), guard)
            elif isinstance(s, A.IfStmt):
                g = guard
                for test, branch in s.branches:
                    g = (*g, (test, env.copy()))
                    self.body(branch, env.copy(), g)
                self.body(s.orelse, env.copy(), g)
            elif isinstance(s, A.ForStmt):
                inner = env.copy()
                self.bind(inner, s.var, s.domain)
                self.body(s.body, inner, (*guard, (s.domain, env.copy())))
            elif isinstance(s, A.WhileStmt):
                self.body(s.body, env.copy(), (*guard, (s.test, env.copy())))
            elif isinstance(s, A.RepeatStmt):
                g = (*guard, (s.times, env.copy())) if s.times is not None else guard
                self.body(s.body, env.copy(), g)
            elif isinstance(s, A.TurnStmt):
                inner = env.copy()
                g = guard
                if s.player is not None:  # inside, `current` is that player: where the conditions
                    who = expr_text(s.player)  # around were tested, it is named so
                    inner.me = frozenset({"current", who})
                    g = tuple((t, _Env(e.secret, e.me | {who})) for t, e in guard)
                self.body(s.body, inner, g)
            elif isinstance(s, A.PhaseStmt):
                self.body(s.body, env.copy(), guard)
            elif isinstance(s, A.SimultaneousStmt):  # each part is its player's turn
                inner = env.copy()
                inner.me = frozenset({"current", s.var})
                self.body(s.body, inner, tuple((t, _Env(e.secret, e.me | {s.var})) for t, e in guard))
            elif isinstance(s, A.DoStmt):
                self.call(s, env, guard)

    def bind(self, env: _Env, name: str, value: A.Node) -> None:
        """A local bound to `value` (a `let`, or the items of a `for`)."""
        found = self.taint(value, env)
        if found is not None:
            env.secret[name] = found
        else:
            env.secret.pop(name, None)

    def decision(self, s: A.Node, guards: tuple, who: str, me: frozenset[str]) -> None:
        """A decision by `who` (named by the texts `me`) under the conditions `guards`: each
        must be visible to that player."""
        for test, env in guards:  # `env.me`: what names, in the condition's scope, the player whose turn it is then
            found = self.hidden(test, _Env(env.secret, env.me if "current" in me else me))
            if found is not None:
                break
        else:
            return
        key = (test.span.file, test.span.line, test.span.column)
        if key not in self.reported:
            self.reported.add(key)
            self.report("E247", f"whether '{who}' is asked to decide (line {s.span.line}) depends on what "
                        f"they cannot see: '{found}' is hidden from the player who decides", test.span, HELP)

    def call(self, s: A.DoStmt, env: _Env, guard: tuple) -> None:
        """A procedure with what its arguments carry: secret parameters, parameters that name
        the deciding player, and the hidden condition it is called under."""
        p = self.m.procedures.get(s.name)
        if p is None:
            return
        secret = {}
        me = set(env.me & {"current"})
        for q, a in zip(p.params, s.args, strict=False):
            found = self.taint(a, env)
            if found is not None:
                what, owner = found  # seen inside by the player it names, if that is the decider
                secret[q.name] = (what, "current" if owner is not None and owner in env.me else None)
            if expr_text(a) in env.me:
                me.add(q.name)
        key = (s.name, frozenset(secret.items()), frozenset(me), frozenset(id(t) for t, _e in guard))
        if key in self._proc_done or s.name in self._calling:  # walked so already, or recursion
            return
        self._proc_done.add(key)
        self._calling.add(s.name)
        try:
            self.body(p.body, _Env(secret, frozenset(me) or frozenset({"current"})), guard)
        finally:
            self._calling.discard(s.name)


def _children(e: A.Node) -> list[A.Node]:
    """The direct sub-expressions of `e` (inside tuples too: a map literal's pairs)."""
    out: list[A.Node] = []

    def add(v: object) -> None:
        if isinstance(v, A.Node):
            out.append(v)
        elif isinstance(v, tuple):
            for x in v:
                add(x)

    for name in getattr(e, "__slots__", ()):
        if name != "span":
            add(getattr(e, name, None))
    return out


def _names(e: A.Node) -> set[str]:
    return {n.name for n in A.iter_nodes(e) if isinstance(n, A.Name)}


def _all_bodies(m: object) -> list[A.Node]:
    out: list[A.Node] = [*m.actions.values(), *m.procedures.values(), *m.triggers, *m.hooks]
    if m.flow is not None:
        out.append(m.flow)
    return out


def check_hidden_legality(model: object, report: Report) -> None:
    """Report every decision whose options depend on what its player cannot see (E247)."""
    HiddenLegality(model, report).run()
