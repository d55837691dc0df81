"""What one player may see: the single place the viewer filters for `--player`.

Everything written into a player's page passes through `for_player`, so when the engine's
own visibility module arrives only this file changes. It builds on the engine's rules
(`Game.view` for a position, `interpreter.trace.filter_step` for a step) and closes the
gaps those leave (issue 10):

- `checks[].values`: a sub-expression's value is kept only when its text names nothing
  secret: no hidden variable, no definition that reads one, no local or parameter whose
  value is itself secret. `require lay(c)`'s `hand[q] = [...]` no longer shows the other
  player's hand.
- `bindings` and the decision's text: another player's move keeps its arguments only when
  they are public: a parameter drawn from a hidden zone, a choice among hidden things, or
  any argument of a move that changed what this player cannot see, becomes `?`.
- a whole-map write to a `hidden except owner` variable (`set hand = ...`) is masked per
  entry; `filter_step` masks only writes into one player's entry.
- a `random` outcome of a step that changed hidden state is masked like a shuffle's.
- the seed is left out: with the seed and the rules, every shuffle can be replayed.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..dsl import ast as A
from ..dsl.check import Model
from ..dsl.check_expr import KEYWORD_VALUES
from ..dsl.parse import iter_nodes
from ..interpreter.game import Game
from ..interpreter.library import LIBRARY
from ..interpreter.trace import filter_step
from ..interpreter.values import value_text

HIDDEN = "hidden"
_WORDS = {"and", "or", "not", "in", "where", "if", "then", "else", "none", "true", "false", "by",
          "N", "NE", "E", "SE", "S", "SW", "W", "NW"}
_QUANTIFIERS = r"(?:all|any|count|sum|max|min|argmax|argmin|first|streak|list|set|map)"
_BOUND = re.compile(rf"\b{_QUANTIFIERS}\s+([A-Za-z_]\w*)\s+in\b")
_NAME = re.compile(r"(?<![.\w])([A-Za-z_]\w*)")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def for_player(data: dict, player: str, game: Game) -> dict:
    """The page data as `player` may see it. `game` is the position the page starts from
    (the prepared start of a trace, or a loaded save)."""
    secrets = Secrets(game.ruleset.model)
    out = dict(data)
    out["viewer"] = player
    out["seed"] = None
    out["start"] = game.view(player)["vars"]
    out["steps"] = [secrets.step(step, player) for step in data.get("steps", [])]
    decider = game.decision_player() if data.get("legal") is not None else None
    if data.get("legal") is not None and decider != player:
        out["legal"] = None  # another player's options can show their hidden cards
        out["pending"] = {"player": decider, "kind": (game.pending or {}).get("kind")} if decider else None
    return out


class Secrets:
    """Which names in a ruleset can carry hidden information."""

    def __init__(self, model: Model):
        self.model = model
        self.hidden_vars = {n for n, d in model.vars.items() if d.hidden}
        self.owner_vars = {n for n, d in model.vars.items() if d.hidden == "owner"}
        self.secret_defines = self._secret_defines()
        self.public = self._public_names()
        self.secret_params = {
            name: {p.name for p in a.params if p.domain is not None and not self.is_public_node(p.domain)}
            for name, a in model.actions.items()
        }
        self.secret_choices = {
            n.name for d in _bodies(model) for n in iter_nodes(d)
            if isinstance(n, A.ChooseStmt)
            and not (self.is_public_node(n.domain) and (n.where is None or self.is_public_node(n.where)))
        }

    # ------------------------------------------------------------------ names
    def _secret_defines(self) -> set[str]:
        reads = {name: _names_in(d.value) - {p.name for p in d.params} for name, d in self.model.defines.items()}
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
        names |= set(LIBRARY) | KEYWORD_VALUES | _WORDS | {"Player", "Direction", "int", "bool", "text"}
        return names

    def is_public_node(self, node: Any) -> bool:
        return not (_names_in(node) - self.public)

    def is_public_text(self, text: str, known: set[str]) -> bool:
        """Whether an expression's text names only public things (and `known` locals)."""
        bare = _STRING.sub('""', text)
        bound = set(_BOUND.findall(bare))
        return all(n in self.public or n in known or n in bound for n in _NAME.findall(bare))

    # ------------------------------------------------------------------ steps
    def step(self, step: dict, player: str) -> dict:
        """One step as `player` may see it."""
        s = filter_step(step, player)
        s["changes"] = [self._change(c, player) for c in s.get("changes", [])]
        unseen = any(self._masked(c, player) for c in step.get("changes", []))
        dec = step.get("decision") or None
        mine = bool(dec) and dec.get("by") == player
        public_args = self._public_bindings(step, unseen and not mine, mine, _shown(s["changes"]))
        s["bindings"] = {k: (v if k in public_args else HIDDEN) for k, v in step.get("bindings", {}).items()}
        if dec and set(s["bindings"]) - public_args:
            s["decision"] = {**dec, "action": _action_text(dec, step, s["bindings"], self.model)}
        if unseen:
            s["chance"] = [{**c, "outcome": HIDDEN} if c.get("kind") == "random" else c for c in s["chance"]]
        s["checks"] = [self._check(c, public_args) for c in step.get("checks", [])]
        return s

    def _public_bindings(self, step: dict, wrote_secret: bool, mine: bool, shown: set[str]) -> set[str]:
        bindings = step.get("bindings", {})
        if mine:
            return set(bindings)
        if wrote_secret:  # only what the step put in plain sight (the card laid on the pile)
            return {k for k, v in bindings.items() if _key(v) in shown}
        dec = step.get("decision") or {}
        if dec.get("kind") == "choose":
            return {k for k in bindings if k not in self.secret_choices}
        secret = self.secret_params.get(step.get("rule", ""), set())
        return {k for k in bindings if k not in secret}

    def _check(self, check: dict, public_args: set[str]) -> dict:
        values = check.get("values", {})
        return {**check, "values": {
            text: (v if self.is_public_text(text, public_args) else HIDDEN) for text, v in values.items()}}

    def _masked(self, change: dict, player: str) -> bool:
        root = change["path"].split("[", 1)[0]
        if change.get("hidden"):
            return True
        if "owner" in change:
            return change["owner"] != player
        return root in self.owner_vars

    def _change(self, change: dict, player: str) -> dict:
        """A whole-map write to a `hidden except owner` variable, masked per entry."""
        root = change["path"].split("[", 1)[0]
        if root in self.owner_vars and "[" not in change["path"]:
            return {**change, "old": _own_entry(change["old"], player), "new": _own_entry(change["new"], player)}
        return change


def _key(v: Any) -> str:
    return json.dumps(v, sort_keys=True)


def _shown(changes: list[dict]) -> set[str]:
    """Values a step showed everyone: the keys of its visible writes, the values they
    wrote, and the items that came into or left a visible list or set."""
    out: set[str] = set()
    for c in changes:
        if c.get("hidden") or "owner" in c or _has_hidden(c["old"]) or _has_hidden(c["new"]):
            continue
        out.update(_key(k) for k in c.get("keys", [])[1:])
        old, new = c["old"], c["new"]
        if isinstance(old, list) and isinstance(new, list):
            before = [_key(x) for x in old]
            after = [_key(x) for x in new]
            out.update(x for x in after if after.count(x) > before.count(x))
            out.update(x for x in before if before.count(x) > after.count(x))
        else:
            out.update({_key(old), _key(new)})
    return out


def _has_hidden(v: Any) -> bool:
    return HIDDEN in json.dumps(v) if isinstance(v, (dict, list)) else v == HIDDEN


def _own_entry(value: Any, player: str) -> Any:
    if not isinstance(value, dict):
        return _size(value)
    return {k: (v if k == player else _size(v)) for k, v in value.items()}


def _size(v: Any) -> Any:
    return {"hidden": len(v)} if isinstance(v, list) else HIDDEN


def _names_in(node: Any) -> set[str]:
    out: set[str] = set()
    bound: set[str] = set()
    for n in iter_nodes(node):
        if isinstance(n, A.Name):
            out.add(n.name)
        elif isinstance(n, A.Call):
            out.add(n.func)
        var = getattr(n, "var", None)
        if isinstance(var, str):  # an aggregate's bound name
            bound.add(var)
    return out - bound


def _bodies(model: Model) -> list[Any]:
    return [*model.actions.values(), *model.procedures.values(), *model.triggers, *model.hooks,
            *([model.flow] if model.flow else [])]


def _action_text(dec: dict, step: dict, bindings: dict, model: Model) -> str:
    """The decision as text with its secret arguments as `?`."""
    def arg(v: Any) -> str:
        return "?" if v == HIDDEN else value_text(v)
    if dec.get("kind") == "choose":
        return "choose(" + ", ".join(arg(v) for v in bindings.values()) + ")"
    action = model.actions.get(step.get("rule", ""))
    order = [p.name for p in action.params] if action else list(bindings)
    return f"{step.get('rule')}(" + ", ".join(arg(bindings.get(p, HIDDEN)) for p in order) + ")"

