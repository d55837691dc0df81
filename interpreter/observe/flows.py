"""Which decisions' values are secret although they come from public domains.

A move's argument or a chosen value is announced, unless its value is hidden: it is a
value of hidden state. Beside arguments drawn from a hidden domain (`c in hand[current]`,
interpreter/observe/secrets.py), two ways, worked out here from the rules alone:

- its value is stored in hidden state: written into a hidden variable (`set bid[current] = n`,
  a sealed bid), moved out of or into a hidden zone (`move c from hand[current] to pile`: the
  card was in the hand), or used as a key of a hidden map that is not a player's own entry
  (`set holder[c] = p`); through `let`s, loop variables and procedure parameters too;
- a `require` says it is one: `require c in hand[current]`, `require c == top(deck)`.

A value that only steers a test is not stored: `if agree` before moving hidden cards, or
`set plan[p] = list o in plan[p] where o.province != q` (the province a march attacks), show
only what every player sees anyway (the sizes of hidden lists), so "let them steal?" and the
march's target stay public; so does a minister named under `require (count ...) >= COST[m]`.
Sizes of hidden lists, sets and maps are public (`Secrets.exposed`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ...dsl import ast as A
from ...dsl.check import Model
from ...dsl.types import Elem

Source = tuple[str, ...]  # ("param", action, name) | ("choice", var) | ("proc", procedure, name)
_WRITES = (A.SetStmt, A.AddStmt, A.RemoveStmt, A.ClearStmt, A.MoveStmt, A.DrawStmt, A.ShuffleStmt)


@dataclass
class Flows:
    """The analysis of one model: `escaped` holds every decision source whose value is secret."""

    model: Model
    hidden_vars: set[str]
    owner_vars: set[str]
    names: Callable[[A.Node], set[str]]  # the names an expression's value tells about
    secret_names: set[str]  # hidden variables and the definitions that read them
    secret_params: dict[str, set[str]]  # per action, the parameters drawn from secret domains
    escaped: set[Source] = field(default_factory=set)

    def run(self) -> Flows:
        known = -1
        while known != len(self.escaped):  # until no new decision turns secret
            known = len(self.escaped)
            for env, secret, body in self._bodies():
                self._walk(body, env, secret)
        return self

    def action_params(self, action: str) -> set[str]:
        return {s[2] for s in self.escaped if s[0] == "param" and s[1] == action}

    def choices(self) -> set[str]:
        return {s[1] for s in self.escaped if s[0] == "choice"}

    # ------------------------------------------------------------------ walking
    def _bodies(self) -> list[tuple[dict[str, set[Source]], set[str], tuple]]:
        m = self.model
        out: list[tuple[dict[str, set[Source]], set[str], tuple]] = []
        for name, a in m.actions.items():
            env = {p.name: {("param", name, p.name)} for p in a.params}
            secret = {p.name for p in a.params if p.name in self.secret_params.get(name, set())
                      or ("param", name, p.name) in self.escaped}
            out.append((env, secret, a.body))
        for name, p in m.procedures.items():
            env = {x.name: {("proc", name, x.name)} for x in p.params}
            out.append((env, {x.name for x in p.params if ("proc", name, x.name) in self.escaped}, p.body))
        out.extend(({}, set(), b.body) for b in (*m.triggers, *m.hooks))
        if m.flow is not None:
            out.append(({}, set(), m.flow.body))
        return out

    def _sources(self, node: A.Node | None, env: dict[str, set[Source]]) -> set[Source]:
        """The decisions whose values `node`'s value may hold (not those that only steer a
        test inside it)."""
        if node is None:
            return set()
        out: set[Source] = set()
        for n in self.names(node) & stored_names(node, self.hidden_vars):
            out |= env.get(n, set())
        return out

    def _secret(self, node: A.Node | None, secret: set[str]) -> bool:
        return node is not None and bool(self.names(node) & (self.secret_names | secret))

    def _walk(self, stmts: tuple, env: dict[str, set[Source]], secret: set[str]) -> None:
        for s in stmts:
            if isinstance(s, A.LetStmt):
                env[s.name] = self._sources(s.value, env)
                if self._secret(s.value, secret):
                    secret.add(s.name)
            elif isinstance(s, A.ChooseStmt):
                env[s.name] = {("choice", s.name)}
                if (self._secret(s.domain, secret) or self._secret(s.where, secret)
                        or ("choice", s.name) in self.escaped):
                    secret.add(s.name)
            elif isinstance(s, A.ForStmt):
                env[s.var] = self._sources(s.domain, env)
                if self._secret(s.domain, secret):
                    secret.add(s.var)
                self._walk(s.body, env, secret)
            elif isinstance(s, A.RequireStmt):
                for part in _conjuncts(s.test):  # `c in hand[current]`: c is a hidden value
                    if isinstance(part, A.Compare) and part.op in ("in", "=="):
                        if self._secret(part.right, secret):
                            self.escaped |= self._sources(part.left, env)
                        if part.op == "==" and self._secret(part.left, secret):
                            self.escaped |= self._sources(part.right, env)
            elif isinstance(s, _WRITES):
                self._write(s, env)
            elif isinstance(s, A.DoStmt) and s.name in self.model.procedures:
                params = self.model.procedures[s.name].params
                for p, arg in zip(params, s.args, strict=False):
                    if ("proc", s.name, p.name) in self.escaped:
                        self.escaped |= self._sources(arg, env)
            elif isinstance(s, A.IfStmt):
                for _, body in s.branches:
                    self._walk(body, env, secret)
                self._walk(s.orelse, env, secret)
            elif isinstance(s, (A.WhileStmt, A.RepeatStmt, A.TurnStmt, A.PhaseStmt)):
                self._walk(s.body, env, secret)

    def _write(self, s: A.Node, env: dict[str, set[Source]]) -> None:
        """A write into hidden state hides the decisions its values and keys come from."""
        targets = [t for t in (getattr(s, "target", None), getattr(s, "source", None), getattr(s, "dest", None))
                   if isinstance(t, A.Target) and t.root in self.hidden_vars]
        if not targets:
            return
        for value in (getattr(s, "value", None), getattr(s, "item", None), getattr(s, "count", None)):
            self.escaped |= self._sources(value, env)
        for t in targets:
            keys = [k for k in t.steps if isinstance(k, A.Node)]
            for i, k in enumerate(keys):
                if (i == 0 and t.root in self.owner_vars) or self._is_player(k):
                    continue  # a player's name stays in a hidden write's path (`hand[Bob]`)
                self.escaped |= self._sources(k, env)

    def _is_player(self, node: A.Node) -> bool:
        t = self.model.type_of(node)
        return isinstance(t, Elem) and t.name == "Player"


def stored_names(node: object, hidden: set[str]) -> set[str]:
    """The names whose values an expression's value may hold: not those inside a comparison,
    `and`/`or`/`not`, an aggregate's `where` or a conditional's test, which only steer it, nor
    the key of an entry read from a hidden variable (`plan[p]` holds cards, not `p`)."""
    if isinstance(node, tuple):
        return set().union(*(stored_names(x, hidden) for x in node)) if node else set()
    if not isinstance(node, A.Node) or isinstance(node, (A.Compare, A.BoolOp, A.Not)):
        return set()
    if isinstance(node, A.Name):
        return {node.name}
    if isinstance(node, A.Aggregate):
        return stored_names(node.domain, hidden) | stored_names(node.body, hidden)
    if isinstance(node, A.LetExpr):  # a definition's `let`: its value is stored where its name is
        inner = stored_names(node.body, hidden)
        return (inner - {node.name}) | (stored_names(node.value, hidden) if node.name in inner else set())
    if isinstance(node, A.CondExpr):
        return stored_names(node.then, hidden) | stored_names(node.orelse, hidden)
    if isinstance(node, A.Index) and isinstance(node.base, A.Name) and node.base.name in hidden:
        return {node.base.name}
    return set().union(*(stored_names(getattr(node, f), hidden) for f in node.__dataclass_fields__ if f != "span"))


def _conjuncts(test: A.Node) -> list[A.Node]:
    """`a and b and c` → [a, b, c]: each part of a require constrains the move on its own."""
    if isinstance(test, A.BoolOp) and test.op == "and":
        return [p for item in test.items for p in _conjuncts(item)]
    return [test]
