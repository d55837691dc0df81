"""Which parts of a ruleset can carry hidden information: a static taint analysis of the model.

A value is secret when it is derived from a `hidden` or `hidden except owner` state variable:
directly, through a definition that reads one, through a local (`let`, a loop variable, a
parameter or a choice) bound to something secret, or through control flow (a `log` inside an
`if` that looks at a hidden hand says something about that hand). The visibility module
(interpreter/observe/visibility.py) asks these questions for every value it shows a player; the
answers depend only on the rules, so they are worked out once per model.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterable
from typing import Any

from ...dsl import ast as A
from ...dsl.ast import iter_nodes
from ...dsl.check import Model
from ...dsl.check_expr import DIRECTIONS, KEYWORD_VALUES
from ...dsl.printer import expr_text
from ...dsl.types import BOOL, Elem, MapOf
from ..stdlib.library import LIBRARY
from .flows import Flows

_WORDS = {"and", "or", "not", "in", "where", "if", "then", "else", "none", "true", "false", "by",
          "Player", "Direction", "int", "bool", "text", *DIRECTIONS}
_QUANTIFIERS = r"(?:all|any|count|sum|max|min|argmax|argmin|first|streak|list|set|map)"
_BOUND = re.compile(rf"\b{_QUANTIFIERS}\s+([A-Za-z_]\w*)\s+in\b")
_NAME = re.compile(r"(?<![.\w])([^\W\d]\w*)")
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')


def text_names(text: str) -> set[str]:
    """The names an expression's text reads, for texts the model does not know (an older
    trace): every identifier outside quotes, without aggregate-bound names."""
    bare = _STRING.sub('""', text)
    return set(_NAME.findall(bare)) - set(_BOUND.findall(bare))


class Secrets:
    """The secret names of one ruleset, and the secret parts of each rule."""

    def __init__(self, model: Model):
        self.model = model
        self.hidden_vars = {n for n, d in model.vars.items() if d.hidden}
        self.owner_vars = {n for n, d in model.vars.items() if d.hidden == "owner"}
        self.secret_defines = self._secret_defines()
        self.public = self._public_names()
        self.secret_params: dict[str, set[str]] = {}
        self.check_texts: dict[str, dict[str, set[str]]] = {}  # action -> sub-expression -> names
        self.lets: dict[str, list[tuple[str, set[str]]]] = {}  # action -> its precondition lets
        for name, a in model.actions.items():
            self.secret_params[name] = self._secret_domains(a)
            self.check_texts[name] = self._sub_texts(a)
            self.lets[name] = [(s.name, self.exposed(s.value)) for s in a.body if isinstance(s, A.LetStmt)]
        flows = Flows(model, self.hidden_vars, self.owner_vars, self.exposed,
                      self.hidden_vars | self.secret_defines, self.secret_params).run()
        for name in model.actions:  # values that go into hidden state, or whose legality reads it
            self.secret_params[name] |= flows.action_params(name)
        self.secret_choices: set[str] = flows.choices()
        self.secret_options: set[str] = set()  # choices among secret things: their options too
        self.secret_logs: set[str] = set()
        self.secret_reasons: set[str] = set()
        self._secret_proc_params: set[tuple[str, str]] = set()
        known = -1
        while known != len(self._secret_proc_params):  # until no call passes a new secret
            known = len(self._secret_proc_params)
            for params, body in self._bodies():
                self._walk(body, False, set(params))

    # ------------------------------------------------------------------ names
    def _secret_defines(self) -> set[str]:
        reads = {name: self.exposed(d.value) - {p.name for p in d.params} for name, d in self.model.defines.items()}
        secret: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, names in reads.items():
                if name not in secret and names & (self.hidden_vars | secret):
                    secret.add(name)
                    changed = True
        return secret

    def _public_names(self) -> set[str]:
        m = self.model
        names = set(m.vars) - self.hidden_vars
        names |= set(m.consts) | set(m.data) | set(m.options) | set(m.records) | set(m.boards)
        names |= set(m.enums) | set(m.element_type) | set(m.defines) - self.secret_defines
        names |= set(m.devices) | set(LIBRARY) | KEYWORD_VALUES | _WORDS
        return names

    def is_public(self, names: Iterable[str], known: set[str] | frozenset[str] = frozenset()) -> bool:
        """Whether an expression reading `names` reads only public things (and `known`, the
        locals whose values are public to the viewer)."""
        return all(n in self.public or n in known for n in names)

    def _secret_domains(self, a: A.ActionDecl) -> set[str]:
        """The parameters drawn from a secret domain: one that reads hidden state, or an earlier
        parameter that is secret (`area in placements(TILES[t].shape, ...)` is public when `t` is)."""
        secret: set[str] = set()
        known: set[str] = set()
        for p in a.params:
            if p.domain is not None and not self.is_public(self.exposed(p.domain), known):
                secret.add(p.name)
            else:
                known.add(p.name)
        return secret

    def param_is_secret(self, action: str, name: str) -> bool:
        return name in self.secret_params.get(action, ())

    def choice_is_secret(self, var: str) -> bool:
        """Whether the value chosen for `var` is secret (from a secret domain, or kept hidden)."""
        return var in self.secret_choices

    def options_are_secret(self, var: str) -> bool:
        """Whether the options offered for `var` are: a public range stays public even when
        the value chosen from it goes into hidden state (a sealed bid of 1 to 5)."""
        return var in self.secret_options

    def log_is_secret(self, message: str) -> bool:
        return message in self.secret_logs

    def reason_is_secret(self, reason: str) -> bool:
        return reason in self.secret_reasons

    def legality_is_public(self, action: str) -> bool:
        """Whether every player can tell which moves of `action` are legal: no argument is
        secret and no `require` reads more than what everybody sees (sizes of hidden hands
        included). `take` with `require deck != []` is; `lay(c in hand[current])` is not."""
        a = self.model.actions.get(action)
        if a is None or self.secret_params.get(action):
            return False
        known = self.public_locals(action, {p.name for p in a.params})
        return all(self.is_public(self.exposed(s.test), known) for s in a.body if isinstance(s, A.RequireStmt))

    def names_of_check(self, action: str, text: str) -> set[str]:
        """The names one sub-expression of an action's preconditions reads."""
        names = self.check_texts.get(action, {}).get(text)
        return names if names is not None else text_names(text)

    def public_locals(self, action: str, public_params: set[str]) -> set[str]:
        """The parameters and precondition `let`s of an action whose values are public, given
        which parameters are."""
        known = set(public_params)
        for name, names in self.lets.get(action, []):
            if self.is_public(names, known):
                known.add(name)
            else:
                known.discard(name)
        return known

    # ------------------------------------------------------------------ statements
    def _bodies(self) -> list[tuple[set[str], tuple]]:
        """Each rule body with its parameters that are secret from the start: an action's
        drawn from a secret domain, a procedure's that some call passes a secret value."""
        m = self.model
        out: list[tuple[set[str], tuple]] = []
        for name, a in m.actions.items():
            out.append((self.secret_params[name], a.body))
        for name, p in m.procedures.items():
            out.append(({x.name for x in p.params if (name, x.name) in self._secret_proc_params}, p.body))
        out.extend((set(), t.body) for t in m.triggers)
        out.extend((set(), h.body) for h in m.hooks)
        if m.flow is not None:
            out.append((set(), m.flow.body))
        return out

    def _walk(self, stmts: tuple, secret_flow: bool, secret_locals: set[str]) -> None:
        """Mark the choices, logs and abandon reasons that depend on something secret."""
        def secret(node: Any) -> bool:
            names = self.exposed(node)
            return bool(names & (self.hidden_vars | self.secret_defines | secret_locals))

        for s in stmts:
            if isinstance(s, A.LetStmt):
                if secret(s.value) or secret_flow:  # once secret, a name stays secret in the body:
                    secret_locals.add(s.name)  # a public `let` in one branch does not clear another
            elif isinstance(s, A.ChooseStmt):
                if secret_flow or secret(s.domain) or (s.where is not None and secret(s.where)):
                    self.secret_options.add(s.name)
                    self.secret_choices.add(s.name)
                if s.name in self.secret_choices:
                    secret_locals.add(s.name)
            elif isinstance(s, A.LogStmt) and secret_flow:
                self.secret_logs.add(s.message)
            elif isinstance(s, A.AbandonStmt) and secret_flow:
                self.secret_reasons.add(s.reason)
            elif isinstance(s, A.IfStmt):
                flow = secret_flow
                for test, body in s.branches:
                    flow = flow or secret(test)
                    self._walk(body, flow, secret_locals)
                self._walk(s.orelse, flow, secret_locals)
            elif isinstance(s, A.ForStmt):
                inner = secret_flow or secret(s.domain)
                if inner:
                    secret_locals.add(s.var)
                self._walk(s.body, inner, secret_locals)
            elif isinstance(s, A.WhileStmt):
                self._walk(s.body, secret_flow or secret(s.test), secret_locals)
            elif isinstance(s, A.RepeatStmt):
                self._walk(s.body, secret_flow or (s.times is not None and secret(s.times)), secret_locals)
            elif isinstance(s, (A.TurnStmt, A.PhaseStmt, A.SimultaneousStmt)):
                self._walk(s.body, secret_flow, secret_locals)
            elif isinstance(s, A.DoStmt) and s.name in self.model.procedures:
                params = self.model.procedures[s.name].params
                for p, arg in zip(params, s.args, strict=False):
                    if secret_flow or secret(arg):
                        self._secret_proc_params.add((s.name, p.name))


    # ------------------------------------------------------------------ sizes
    def exposed(self, node: Any) -> set[str]:
        """The names an expression's value tells about: its free names, except that the size
        of a hidden list, set or map (`len(hand[q])`, `hand[q] != []`, `deck == []`) tells only
        about its keys (`q`). Every player sees those sizes (views show `{"hidden": 4}`)."""
        out: set[str] = set()
        bound: set[str] = set()
        called: set[str] = set()  # a local cannot be called: a call's name is never a bound one
        self._exposed(node, out, bound, called)
        return (out - bound) | called

    def _exposed(self, node: Any, out: set[str], bound: set[str], called: set[str]) -> None:
        if isinstance(node, tuple):
            for item in node:
                self._exposed(item, out, bound, called)
            return
        if not isinstance(node, A.Node):
            return
        inner = _sized(node)
        if inner is not None:
            keys = self._container(inner, 0)
            if keys is not None:
                out |= keys
                return
        if isinstance(node, A.Name):
            out.add(node.name)
        elif isinstance(node, A.Call):
            called.add(node.func)
        elif isinstance(node, A.Aggregate):
            bound.add(node.var)
        elif isinstance(node, A.LetExpr):
            bound.add(node.name)
        for name in node.__dataclass_fields__:
            if name != "span":
                self._exposed(getattr(node, name), out, bound, called)

    def _container(self, node: A.Node, depth: int) -> set[str] | None:
        """For an expression that is a hidden list, set or map whose size every player sees,
        the names its keys read; None for anything else."""
        if isinstance(node, A.Name) and node.name in self.hidden_vars:
            return set()
        if isinstance(node, A.Index) and isinstance(node.base, A.Name) and self._open_entries(node.base.name):
            return self.exposed(node.key)
        if isinstance(node, A.Call) and node.func in self.model.defines and depth < 8:
            d = self.model.defines[node.func]
            keys = self._container(d.value, depth + 1)
            if keys is None:
                return None
            return (keys - {p.name for p in d.params}) | self.exposed(node.args)
        return None

    def _open_entries(self, var: str) -> bool:
        """Whether each entry of a hidden map shows its size: a `hidden except owner` map, or
        a `hidden` one over players, board squares or true/false (views list their keys)."""
        if var in self.owner_vars:
            return True
        t = self.model.var_types.get(var)
        if var not in self.hidden_vars or not isinstance(t, MapOf):
            return False
        k = t.key
        return k == BOOL or (isinstance(k, Elem) and (k.name == "Player" or k.name in self.model.boards))

    def _sub_texts(self, a: A.ActionDecl) -> dict[str, set[str]]:
        """Every sub-expression text of an action's requires (the keys of a check's values), with
        the names it reveals; a text that reads different names in two places gets both."""
        out: dict[str, set[str]] = {}
        for s in a.body:
            if not isinstance(s, A.RequireStmt):
                continue
            for node in iter_nodes(s.test):
                if isinstance(node, A.Node) and not isinstance(node, A.Target):
                    try:
                        text = expr_text(node)
                    except (TypeError, ValueError, AttributeError):
                        continue
                    out.setdefault(text, set()).update(self.exposed(node))
        return out


def _sized(node: A.Node) -> A.Node | None:
    """`len(E)`, `E == []`, `E != []` (either side, an empty list, set or map): E, whose size
    is all the expression tells; None for other expressions."""
    if isinstance(node, A.Call) and node.func == "len" and len(node.args) == 1:
        return node.args[0]
    if isinstance(node, A.Compare) and node.op in ("==", "!="):
        if _empty(node.right):
            return node.left
        if _empty(node.left):
            return node.right
    return None


def _empty(node: A.Node) -> bool:
    return isinstance(node, (A.ListLit, A.SetLit, A.MapLit)) and not node.items


class _Blanket:
    """The answers when the rules are not at hand: one answer to every question of secrecy
    (`SECRET`); hidden writes are still known from the trace's own marks."""

    SECRET = True
    hidden_vars: frozenset[str] = frozenset()
    owner_vars: frozenset[str] = frozenset()

    def is_public(self, names: Iterable[str], known: set[str] | frozenset[str] = frozenset()) -> bool:
        return not self.SECRET or all(n in known for n in names)

    def param_is_secret(self, action: str, name: str) -> bool:
        return self.SECRET

    def choice_is_secret(self, var: str) -> bool:
        return self.SECRET

    def options_are_secret(self, var: str) -> bool:
        return self.SECRET

    def log_is_secret(self, message: str) -> bool:
        return self.SECRET

    def reason_is_secret(self, reason: str) -> bool:
        return self.SECRET

    def names_of_check(self, action: str, text: str) -> set[str]:
        return text_names(text)

    def public_locals(self, action: str, public_params: set[str]) -> set[str]:
        return set(public_params)


class UnknownSecrets(_Blanket):
    """The answers when the rules are not at hand (a trace shown without its rules file):
    every argument, choice, log line and sub-expression might be secret. Hidden writes are
    still known from the trace's own marks (`hidden`, `owner`, `per_owner`)."""

    SECRET = True


class NoSecrets(_Blanket):
    """The answers for a trace whose header says its ruleset declares no hidden state
    (`hidden_state: false`): nothing is derived from a secret, so every argument, choice, log
    line and value may be shown (the seed still is not)."""

    SECRET = False


_CACHE: dict[int, Secrets] = {}


def secrets_of(model: Model) -> Secrets:
    """The analysis of `model`, worked out once while the model lives."""
    found = _CACHE.get(id(model))
    if found is None or found.model is not model:
        found = _CACHE[id(model)] = Secrets(model)
        weakref.finalize(model, _CACHE.pop, id(model), None)
    return found
