"""What one player may see: the single place that decides it, for every output.

`observer(model, player)` answers, for one player of one ruleset: the view of a position
(`Game.view`), a trace step or a whole trace (`trace show --player`, `play`, the viewer), an
explanation (`explain`), the pending decision and its options, an error message, and the
state as it may be drawn. A player sees

- public state; their own entries of `hidden except owner` variables; of the rest only sizes
  (lists, sets, maps over open keys) or that there is something;
- values revealed to them (`reveal ... to P`) or to everybody;
- the arguments of their own moves, and of others' moves unless the value is hidden: drawn
  from hidden state, stored in it, or required to be in it (interpreter/observe/flows.py);
- the sizes of hidden lists, sets and maps, in checks too (`len(hand[q])`, `hand[q] != []`);
- never the seed (with it and the rules every shuffle can be replayed).

Everything derived from hidden state is masked as `"hidden"` (or `?` in a move's text): a
check's sub-expression values, bindings, the options of a choice, `random` outcomes that went
into hidden state, `log` lines and `abandon` reasons under a secret condition, keys of writes
into hidden maps, and tokens of error messages. Which names are secret is worked out once per
ruleset by interpreter/observe/secrets.py.
"""

from __future__ import annotations

import json
import re
import weakref
from typing import Any, NamedTuple

from ...dsl.check import Model
from ...dsl.types import BOOL, Elem, MapOf, Opt, Record, Type
from ..engine.moves import Action
from ..engine.runtime import _cleared
from ..engine.values import jsonable, value_text
from .secrets import NoSecrets, Secrets, UnknownSecrets, secrets_of

HIDDEN = "hidden"
_ENTRY = re.compile(r"([^\W\d]\w*)\[([^\[\]]+)\]\Z")
_LOCATION = re.compile(r"(\S+:\d+:\d+|\(line \d+(?::\d+)?\)|line \d+(?::\d+)?|column \d+)")


class Moves(NamedTuple):
    """The legal moves as one player sees them: who decides, the moves shown, and the
    offered actions (or the choice) whose moves are hidden from this player."""

    decider: str | None
    shown: list[str]
    hidden: list[str]


class Observer:
    """One player's window onto games of one ruleset."""

    def __init__(self, model: Model | None, player: str, players: tuple[str, ...] = (),
                 secrets: NoSecrets | UnknownSecrets | None = None):
        self.model = model
        self.player = player
        self.secrets: Secrets | UnknownSecrets | NoSecrets = (
            secrets_of(model) if model is not None else secrets if secrets is not None else UnknownSecrets())
        names = model.players.names if model is not None and model.players is not None else players
        self.players = frozenset(names)
        self._plan: dict[str, tuple] | None = None  # _var_plan, made on first use
        self._owned: list[tuple] | None = None  # the plan's `hidden except owner` variables, in order
        self._text: Any = None  # interpreter/observe/viewtext.py's writer of this player's views, made on first use

    # ------------------------------------------------------------------ positions
    def _var_plan(self) -> dict[str, tuple]:
        """Per state variable that is not public: how this player sees it, worked out once
        (information states ask for views after every move: tools/openspiel's hot path)."""
        plan: dict[str, tuple] = {}
        for name, decl in self.model.vars.items():
            t = self.model.var_types.get(name)
            if decl.hidden == "all":
                plan[name] = ("all", t)
            elif decl.hidden == "owner":
                plan[name] = ("owner", t.base.val if isinstance(t, MapOf) else None)  # entries' type
        return plan

    def vars(self, values: dict[str, Any], part: str | None = None) -> dict[str, Any]:
        """The state variables as JSON, hidden parts replaced by their sizes: all of them, or
        `part` "shared" (those every player sees alike) or "own" (the `hidden except owner`
        ones, which differ per player)."""
        plan = self._plan
        if plan is None:
            plan = self._plan = self._var_plan()
        out = {}
        model, me = self.model, self.player
        if part == "own":  # a player's own part: only the few `hidden except owner` variables
            owned = self._owned
            if owned is None:
                owned = self._owned = [(name, how[1]) for name, how in plan.items() if how[0] == "owner"]
            for name, inner in owned:
                if name in values:
                    v = values[name]
                    out[name] = _owned(v, inner, me, model)
            return out
        for name, v in values.items():
            how = plan.get(name)
            if how is None or how[0] == "all":
                if part == "own":
                    continue
                if how is None:  # public: most variables, and most of them plain values
                    t = type(v)
                    out[name] = v if t is int or t is str or v is None or t is bool else jsonable(v)
                else:
                    out[name] = _hide(v, how[1], model)
            elif part == "shared":
                continue
            else:
                out[name] = _owned(v, how[1], me, model)
        return out

    def view(self, game: Any) -> dict:
        """The position as this player may see it, with what was revealed to them: the shared
        part and this player's own part, together."""
        out = self.shared_view(game)
        own = self.own_view(game)
        out["vars"].update(own.pop("vars"))
        out.update(own)
        return out

    def shared_view(self, game: Any) -> dict:
        """The part of the view that is the same for every player (information states write it
        once a move, not once per player)."""
        return {"current": game.current, "phase": game.phase, "round": game.round,
                "vars": self.vars(game.vars, "shared"), "result": game.result}

    def own_view(self, game: Any) -> dict:
        """The part of the view that is this player's own: their name, their entries of
        `hidden except owner` state, the pending decision as they see it, what was revealed
        to them."""
        out = {"player": self.player, "vars": self.vars(game.vars, "own"), "pending": self.pending(game)}
        shown = self.revealed(game)
        if shown:
            out["revealed"] = shown
        return out

    def revealed(self, game: Any) -> list[dict]:
        """What `reveal` showed this player (or everybody), oldest first."""
        return [{"what": what, "value": value, "step": step}
                for what, value, to, step in getattr(game, "revealed", ()) if to is None or to == self.player]

    def pending(self, game: Any) -> dict | None:
        """The decision the game waits for; a choice's options only for the one who makes it,
        or when they come from public things."""
        p = game.pending
        if p is None or game.result is not None:
            return None
        if p["kind"] == "simultaneous":  # who is still to choose, and only this player's own decision
            out = {"kind": "simultaneous", "players": list(p["players"])}
            own = game.window["pending"].get(self.player) if game.window is not None else None
            if own is not None:
                out["yours"] = {"kind": own["kind"], "player": own["player"]}
                if own["kind"] == "choose":
                    out["yours"].update(var=own["var"], prompt=own.get("prompt"), options=jsonable(own["options"]))
            return out
        out: dict[str, Any] = {"kind": p["kind"], "player": p["player"]}
        if p["kind"] == "choose":
            out["var"] = p["var"]
            out["prompt"] = p.get("prompt")
            mine = p["player"] == self.player
            out["options"] = (jsonable(p["options"]) if mine or not self.secrets.options_are_secret(p["var"])
                              else {HIDDEN: len(p["options"])})
        return out

    def moves(self, game: Any) -> Moves:
        """The legal moves as this player may see them. The one who decides sees all. Anyone
        else sees the moves of each offered action whose legality they can tell themselves
        (interpreter/observe/secrets.py `legality_is_public`), passing, and a choice's options when
        they are public; the other actions are named as hidden whether or not they have a
        legal move (that they have one could tell what a hand holds), and a secret choice
        shows only its number of options (as views do)."""
        if game.window is not None and game.pending is not None:  # a `simultaneously`: one's own only
            if self.player in game.window["pending"]:
                return Moves(self.player, [str(a) for a in game.legal_actions(player=self.player)], [])
            return Moves(" and ".join(game.pending["players"]), [], [])
        decider = game.decision_player()
        if decider is None or decider == self.player:
            return Moves(decider, [str(a) for a in game.legal_actions()], [])
        p = game.pending
        if p["kind"] == "choose":
            if not self.secrets.options_are_secret(p["var"]):
                return Moves(decider, [str(a) for a in game.legal_actions()], [])
            n = len(p["options"])
            return Moves(decider, [], [f"choose ({n} option{'' if n == 1 else 's'})"])
        actions, _ = game.offered()
        public = {a for a in actions if self.secrets.legality_is_public(a)}
        shown = [str(m) for m in game.legal_actions() if m.name in public or m.name == "pass"]
        return Moves(decider, shown, sorted(set(actions) - public))

    def legal(self, game: Any) -> list[str] | None:
        """The legal moves, for the player who decides; None for everyone else (another
        player's moves can show their hidden cards)."""
        if game.window is not None:
            mine = game.legal_actions(player=self.player)
            return [str(a) for a in mine] if mine else None
        if game.decision_player() != self.player:
            return None
        return [str(a) for a in game.legal_actions()]

    def masked_state(self, game: Any) -> dict[str, Any]:
        """The state values with what this player may not see emptied (for drawing boards)."""
        out = dict(game.vars)
        for name, decl in self.model.vars.items():
            if name not in out:
                continue
            if decl.hidden == "all":
                out[name] = _cleared(out[name])
            elif decl.hidden == "owner" and isinstance(out[name], dict):
                out[name] = {k: (x if k == self.player else _cleared(x)) for k, x in out[name].items()}
        return out

    # ------------------------------------------------------------------ traces
    def header(self, head: dict) -> dict:
        """A trace header without the seed, naming whose view this is."""
        return {**head, "seed": None, "viewer": self.player}

    def trace(self, lines: list[dict]) -> list[dict]:
        """A whole trace (header first) as this player may see it."""
        if not lines:
            return []
        return [self.header(lines[0])] + [self.step(s) for s in lines[1:]]

    def step(self, step: dict) -> dict:
        """One trace step as this player may see it."""
        if "result" in step:
            return dict(step)
        s = dict(step)
        changes = [c for c in step.get("changes", []) if isinstance(c, dict)]
        masked = [self._masked(c) for c in changes]
        s["changes"] = [self._change(c, m) for c, m in zip(changes, masked, strict=True)]
        events = [self._event(e) for e in step.get("events", []) if isinstance(e, dict)]
        unseen = any(masked) or any(e.get("value") == HIDDEN for e in events if e.get("event") == "reveal")
        s["events"] = events
        dec = step.get("decision") if isinstance(step.get("decision"), dict) else None
        mine = bool(dec) and dec.get("by") == self.player
        bindings = step.get("bindings") if isinstance(step.get("bindings"), dict) else {}
        public_args = self._public_bindings(step, bindings, unseen and not mine, mine, _shown(s["changes"]))
        s["bindings"] = {k: (v if k in public_args else HIDDEN) for k, v in bindings.items()}
        if dec:
            s["decision"] = self._decision(dec, step, s["bindings"], mine)
        secret_args = bool(set(bindings) - public_args)
        s["chance"] = [self._chance(c, unseen or secret_args) for c in step.get("chance", []) if isinstance(c, dict)]
        rule = step.get("rule") if isinstance(step.get("rule"), str) else ""
        known = self.secrets.public_locals(rule, public_args) if step.get("kind") == "action" else public_args
        s["checks"] = [self._check(c, rule, known) for c in step.get("checks", []) if isinstance(c, dict)]
        return s

    def _masked(self, change: dict) -> bool:
        """Whether this player may not see the values of a change."""
        if change.get("hidden"):
            return True
        if "owner" in change:
            return change["owner"] != self.player
        if change.get("per_owner"):
            return False
        root = _root(change.get("path"))
        return root in self.secrets.hidden_vars and root not in self.secrets.owner_vars

    def _change(self, change: dict, masked: bool) -> dict:
        root = _root(change.get("path"))
        if masked:
            keep = 1 if "owner" in change and not change.get("hidden") else 0
            out = {**change, "old": _size(change.get("old")), "new": _size(change.get("new"))}
            out.update(_masked_path(change, keep, self.players))
            return out
        if change.get("per_owner") or (root in self.secrets.owner_vars and "[" not in str(change.get("path"))):
            return {**change, "old": self._own_entry(change.get("old")), "new": self._own_entry(change.get("new"))}
        return change

    def _own_entry(self, value: Any) -> Any:
        """A whole-map write to a `hidden except owner` variable, masked per entry."""
        if not isinstance(value, dict):
            return _size(value)
        return {k: (v if k == self.player else _size(v)) for k, v in value.items()}

    def _event(self, ev: dict) -> dict:
        kind = ev.get("event")
        if kind == "reveal" and ev.get("to", self.player) != self.player:
            return {**ev, "value": HIDDEN}
        if kind == "log" and self.secrets.log_is_secret(str(ev.get("message"))):
            return {**ev, "message": HIDDEN}
        if kind == "abandoned" and self.secrets.reason_is_secret(str(ev.get("reason"))):
            return {**ev, "reason": HIDDEN}
        return ev

    def _chance(self, c: dict, secret_step: bool) -> dict:
        kind = c.get("kind")
        if kind == "shuffle" or (kind == "random" and secret_step):
            return {**c, "outcome": HIDDEN}
        return c

    def _public_bindings(self, step: dict, bindings: dict, wrote_secret: bool, mine: bool,
                         shown: set[str]) -> set[str]:
        if mine:
            return set(bindings)
        dec = step.get("decision") or {}
        if dec.get("simultaneous"):  # a secret choice of a `simultaneously`: nothing of it shows
            return set()
        if not dec:  # an automatic step: its bindings (a hook's player) are the engine's own
            return set(bindings)
        # what the step put in plain sight (the card laid on the pile), when it moved hidden things
        laid = {k for k, v in bindings.items() if _key(v) in shown} if wrote_secret else set()
        if isinstance(self.secrets, UnknownSecrets):
            return {k for k, v in bindings.items() if _key(v) in shown}
        if dec.get("kind") == "choose":
            return laid | {k for k in bindings if not self.secrets.choice_is_secret(k)}
        rule = str(step.get("rule", ""))  # an argument is hidden only when its value is (secrets.py)
        return laid | {k for k in bindings if not self.secrets.param_is_secret(rule, k)}

    def _decision(self, dec: dict, step: dict, bindings: dict, mine: bool) -> dict:
        """The decision with the arguments this player may not see written as `?`."""
        if mine:
            return dec
        kind = dec.get("kind")
        if kind == "abandoned":
            return {**dec, "action": self._abandoned_text(str(dec.get("action", "")), str(step.get("rule", "")))}
        if HIDDEN not in bindings.values():
            return dec
        def arg(v: Any) -> str:
            return "?" if v == HIDDEN else value_text(v)
        if kind == "choose":
            return {**dec, "action": "choose(" + ", ".join(arg(v) for v in bindings.values()) + ")"}
        action = self.model.actions.get(str(step.get("rule", ""))) if self.model is not None else None
        if action is None:
            raw = step.get("bindings") if isinstance(step.get("bindings"), dict) else {}
            return {**dec, "action": _masked_text(str(dec.get("action", "")), str(step.get("rule", "")), raw, bindings)}
        return {**dec, "action": f"{step.get('rule')}("
                + ", ".join(arg(bindings.get(p.name, HIDDEN)) for p in action.params) + ")"}

    def _abandoned_text(self, text: str, rule: str) -> str:
        """A move taken back: its secret arguments as `?` (the trace keeps no bindings for it)."""
        from ..engine.moves import parse_action

        action = self.model.actions.get(rule) if self.model is not None else None
        if action is None:
            return text if isinstance(self.secrets, NoSecrets) or "(" not in text else f"{rule}(?)"
        try:
            move = parse_action(text)
        except Exception:  # noqa: BLE001 - an edited trace: show nothing of it
            return f"{rule}(?)"
        names = [p.name for p in action.params]
        if len(names) != len(move.args):
            return f"{rule}(?)"
        shown = ["?" if self.secrets.param_is_secret(rule, n) else value_text(a)
                 for n, a in zip(names, move.args, strict=True)]
        return str(Action(move.name)) + ("(" + ", ".join(shown) + ")" if shown else "")

    def _check(self, check: dict, rule: str, known: set[str]) -> dict:
        values = check.get("values") if isinstance(check.get("values"), dict) else {}
        def public(text: str) -> bool:
            return self.secrets.is_public(self.secrets.names_of_check(rule, text), known)
        return {**check, "values": {
            text: (v if public(text) or self._own_entry_text(text, values, public) else HIDDEN)
            for text, v in values.items()}}

    def _own_entry_text(self, text: str, values: dict, public: Any) -> bool:
        """`hand[q]` is this player's own entry when `q`, itself public, is this player."""
        m = _ENTRY.match(text)
        if m is None or m[1] not in self.secrets.owner_vars:
            return False
        key = m[2]
        if key in self.players:
            return key == self.player
        return key in values and public(key) and values[key] == self.player

    # ------------------------------------------------------------------ explanations and messages
    def explanation(self, ex: Any, game: Any) -> Any:
        """An `Explanation` as this player may see it. Only the player who decides may ask
        about a move (whether East may lay a 5 says whether East holds one); the values of
        checks that read hidden state are masked, and so are secret tokens of the reason."""
        decider = game.decision_player()
        if game.window is not None and game.pending is not None:
            decider = self.player if self.player in game.window["pending"] else " and ".join(game.pending["players"])
        if decider is not None and decider != self.player and game.result is None:
            return ex._replace(legal=False, reason=f"{decider} decides now: only they may ask about "
                               "their moves", at=None, checks=[])
        rule = ex.action.split("(", 1)[0].strip()
        action = self.model.actions.get(rule) if self.model is not None else None
        params = {p.name for p in action.params} if action else set()
        known = self.secrets.public_locals(rule, params)
        checks = [self._check(c, rule, known) for c in ex.checks]
        return ex._replace(reason=self.message(ex.reason, game), checks=checks)

    def message(self, text: str, game: Any) -> str:
        """An error message as this player may see it: every value that stands only in state
        hidden from them (another hand, the deck, a secret local) becomes `?`; locations stay."""
        secret = self._secret_tokens(game)
        if not secret:
            return text
        words = sorted(secret, key=len, reverse=True)
        pattern = re.compile(r"(?<![\w])(" + "|".join(re.escape(w) for w in words) + r")(?![\w])")
        parts = _LOCATION.split(text)
        return "".join(p if i % 2 else pattern.sub("?", p) for i, p in enumerate(parts))

    def _secret_tokens(self, game: Any) -> set[str]:
        hidden: set[str] = set()
        for name, decl in self.model.vars.items():
            v = game.vars.get(name)
            if decl.hidden == "all":
                _tokens(v, hidden)
            elif decl.hidden == "owner" and isinstance(v, dict):
                for k, x in v.items():
                    if k != self.player:
                        _tokens(x, hidden)
        for frame in game.frames:  # locals: a secret `let` holds a value from a hidden zone
            if isinstance(frame[2], dict):
                _tokens(list(frame[2].values()), hidden)
        if game.pending and game.pending.get("player") != self.player:
            _tokens(game.pending.get("options"), hidden)
        seen: set[str] = set(game.players)
        _tokens(self.vars(game.vars), seen)
        return {t for t in hidden - seen if t and t != HIDDEN}


def _masked_text(text: str, rule: str, raw: dict, masked: dict) -> str:
    """A move's text with the arguments masked in `bindings` written `?`, when the rules are
    not at hand to give the parameters' order: a trace keeps bindings (`raw`, and `masked` as
    this player sees them) as a JSON object with sorted keys, so the order comes from the text
    itself. An argument shows only when every binding of its value is public; a text that
    cannot be read shows no argument."""
    from ..engine.moves import parse_action

    try:
        move = parse_action(text)
    except Exception:  # noqa: BLE001 - an edited trace: show nothing of it
        return f"{rule}(?)"
    public: dict[str, bool] = {}  # a value's text -> whether every binding of it is public
    for k, v in raw.items():
        t = value_text(v)
        public[t] = public.get(t, True) and masked.get(k, HIDDEN) != HIDDEN
    shown = [value_text(a) if public.get(value_text(a)) else "?" for a in move.args]
    return str(Action(move.name)) + ("(" + ", ".join(shown) + ")" if shown else "")


def _tokens(v: Any, out: set[str]) -> None:
    """The texts of the atomic values inside `v`, map keys included."""
    if isinstance(v, dict):
        for k, x in v.items():
            _tokens(k, out)
            _tokens(x, out)
    elif isinstance(v, (list, tuple, frozenset, set)):
        for x in v:
            _tokens(x, out)
    elif isinstance(v, bool) or v is None:
        return
    elif isinstance(v, (int, str)):
        out.add(str(v))


def _owned(v: Any, inner: Type | None, me: str, model: Model) -> Any:
    """A `hidden except owner` value as `me` sees it: their own entry whole, the others hidden."""
    if isinstance(v, dict):
        return {k: (jsonable(x) if k == me else _hide(x, inner, model)) for k, x in v.items()}
    return jsonable(v)


def _hide(v: Any, t: Type | None, model: Model) -> Any:
    """A hidden value: its size (lists, sets, maps over open keys), its keys and the hidden
    values of its entries (maps over a finite type, records), or that there is one."""
    base = t.base if isinstance(t, Opt) else t
    if v is None:
        return None  # nothing there: "there is one" would say otherwise
    if isinstance(v, (list, tuple, frozenset, set)):
        return {HIDDEN: len(v)}
    if isinstance(v, dict):
        if isinstance(base, MapOf) and _open_keys(base.key, model):
            return {str(k): _hide(x, base.val, model) for k, x in v.items()}
        if isinstance(base, Record):
            fields = model.record_fields.get(base.name, {})
            return {str(k): _hide(x, fields.get(k), model) for k, x in v.items()}
        return {HIDDEN: len(v)}
    return {HIDDEN: True}


def _open_keys(key: Type, model: Model) -> bool:
    """Keys a hidden map may show: squares and nodes of a board (to draw it), players,
    true/false. Keys from an enum (`holder: Card -> Player? hidden`) would list the cards."""
    return key == BOOL or (isinstance(key, Elem) and (key.name == "Player" or key.name in model.boards))


def _size(v: Any) -> Any:
    return {HIDDEN: len(v)} if isinstance(v, list) else HIDDEN


def _key(v: Any) -> str:
    return json.dumps(v, sort_keys=True)


def _root(path: Any) -> str:
    return str(path).split("[", 1)[0].split(".", 1)[0]


def _has_hidden(v: Any) -> bool:
    return HIDDEN in json.dumps(v) if isinstance(v, (dict, list)) else v == HIDDEN


def _shown(changes: list[dict]) -> set[str]:
    """Values a step showed everyone: the keys of its visible writes, the values they wrote,
    and the items that came into or left a visible list or set."""
    out: set[str] = set()
    for c in changes:
        if c.get("hidden") or "owner" in c or _has_hidden(c.get("old")) or _has_hidden(c.get("new")):
            continue
        out.update(_key(k) for k in (c.get("keys") or [])[1:])
        out.update(_key(k) for k in split_path(str(c.get("path", "")))[1:])
        old, new = c.get("old"), c.get("new")
        if isinstance(old, list) and isinstance(new, list):
            before = [_key(x) for x in old]
            after = [_key(x) for x in new]
            out.update(x for x in after if after.count(x) > before.count(x))
            out.update(x for x in before if before.count(x) > after.count(x))
        else:
            out.update({_key(old), _key(new)})
    return out


def split_path(path: str) -> list[str]:
    """`hand[North]` → ['hand', 'North']; keys may hold brackets and quotes (`seen[[a1, b2]]`)."""
    out: list[str] = []
    i = path.find("[")
    if i < 0:
        return [path]
    out.append(path[:i])
    depth, start, quoted, escaped = 0, i, False, False
    for j in range(i, len(path)):
        ch = path[j]
        if quoted:
            escaped = ch == "\\" and not escaped
            if ch == '"' and not escaped:
                quoted = False
            continue
        if ch == '"':
            quoted = True
        elif ch == "[":
            depth += 1
            if depth == 1:
                start = j
        elif ch == "]":
            depth -= 1
            if depth == 0:
                out.append(path[start + 1:j])
    return out


def _masked_path(change: dict, keep: int, players: frozenset[str]) -> dict:
    """The path (and resolved keys) of a hidden write with its keys past the first `keep`
    masked, unless they are player names: `location[agate]` says which card moved."""
    parts = split_path(str(change.get("path", "")))
    root, keys = parts[0], parts[1:]
    shown = [k if i < keep or k in players else "?" for i, k in enumerate(keys)]
    out: dict[str, Any] = {"path": root + "".join(f"[{k}]" for k in shown)}
    if isinstance(change.get("keys"), list):
        ks = change["keys"]
        out["keys"] = ks[:1] + [k if i < keep or k in players else "?" for i, k in enumerate(ks[1:])]
    return out


_OBSERVERS: dict[tuple[int, str], Observer] = {}


def observer(model: Model, player: str) -> Observer:
    """The observer of `player` for games of `model` (made once per model and player)."""
    key = (id(model), player)
    found = _OBSERVERS.get(key)
    if found is None or found.model is not model:
        found = _OBSERVERS[key] = Observer(model, player)
        weakref.finalize(model, _OBSERVERS.pop, key, None)
    return found


def trace_observer(header: dict, player: str, model: Model | None = None) -> Observer:
    """The observer for a trace file: with the ruleset's model when it is at hand, else one
    that masks everything that might be secret (the trace's marks say which writes are)."""
    if model is not None:
        return observer(model, player)
    players = header.get("players") if isinstance(header.get("players"), list) else []
    secrets = NoSecrets() if header.get("hidden_state") is False else None
    return Observer(None, player, tuple(str(p) for p in players), secrets)
