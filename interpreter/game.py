"""The engine: one Game is one play of a ruleset, run by a small VM over compiled blocks.

Everything a game is lives in plain data on this object: the state store (`vars`), the
current player and phase, the generator state (one int), the VM frames (block, pc, locals,
rule) and the pending decision. That is why `clone` is a copy of dicts and `to_json` is a
dump; no Python generator or closure holds game state.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .compile import MISSING, Program
from .errors import Abandoned, BudgetExceeded, EngineError, IllegalAction, RuleFailure, SaveError
from .recording import TraceRecorder
from .saves import game_from_json, game_to_json
from .stdlib import rng
from .values import decode, deep_copy, jsonable, materialize, value_text

MAX_OPS_BETWEEN_DECISIONS = 2_000_000
MAX_TRIGGER_CHAIN = 200


class Action(NamedTuple):
    """A bound, playable move: an action name and its arguments (`pass`, `choose` built in)."""

    name: str
    args: tuple = ()

    def __hash__(self) -> int:  # list arguments (a tile's squares) still make a hashable move
        return hash((self.name, _frozen(self.args)))

    def __str__(self) -> str:
        if not self.args:
            return self.name
        return f"{self.name}(" + ", ".join(_fmt_arg(a) for a in self.args) + ")"


_fmt_arg = value_text


def _frozen(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return tuple(_frozen(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _frozen(x)) for k, x in v.items()))
    return v


class Explanation(NamedTuple):
    legal: bool
    action: str
    reason: str
    at: str | None
    checks: list[dict]


class Game(TraceRecorder):
    """One game in progress. Build it with `Ruleset.new_game`; see docs/architecture.md."""

    def __init__(self, ruleset: Any, players: tuple[str, ...], seed: int, options: dict, record: bool):
        self.ruleset = ruleset
        self.prog: Program = ruleset.program(record)
        self.record = record
        self.players = players
        self.seed = seed
        self.options = options
        self.consts = ruleset.constants(options)
        self.vars: dict[str, Any] = {}
        self.current: str = players[0]
        self.phase: str | None = None
        self.round = 0
        self.rng = rng.seed_state(seed)
        self.frames: list[list] = []
        self.pending: dict | None = None
        self.result: dict | None = None
        self.step_no = 0
        self.trig_last: list[bool] = [False] * len(self.prog.triggers)
        self.scripted: dict[str, list] = {}
        self.quiet_chance = 0  # > 0 inside a device's roll: its draws are not traced one by one
        self.journal: list = []
        self.trace: list[dict] | None = [] if record else None
        self._step: dict | None = None
        self._jmark = 0
        self._legal: list[Action] | None = None
        self._undo: list[tuple] = []
        self.abandoned: dict[str, str] = {}  # moves taken back at this decision, with the reason
        self._abandon_point: Game | None = None  # the game as it was before an abandonable move
        self._abandon_rule: str | None = None
        self._abandon_action: str | None = None

    # ------------------------------------------------------------------ set-up
    def prepare(self) -> Game:
        """Give every state variable its declared start value; the flow has not run yet."""
        if not self.frames:
            domains = self.domains()
            for name, decl in self.prog.model.vars.items():
                t = self.prog.var_types[name]
                default = self.ruleset.eval_static(decl.default, self) if decl.default is not None else None
                self.vars[name] = materialize(t, default, domains)
            self.frames = [[self.prog.flow_block, 0, {}, "flow"]]
        return self

    def start(self, phase: str | None = None) -> Game:
        """Run the flow to the first decision; with `phase`, jump straight to that top-level
        phase of the flow (scenarios set up a position and begin, say, in winter)."""
        self.prepare()
        if phase is not None:
            if phase not in self.prog.phase_labels:
                known = ", ".join(self.prog.phase_labels) or "none"
                raise EngineError(f"no phase '{phase}' at the top of the flow (top-level phases: {known})")
            self.frames[0][1] = self.prog.phase_labels[phase]
        self._run()
        if self.record:  # traced games (tests, debugging) also check invariants as they go
            self.check_invariants()
        return self

    def domains(self) -> dict[str, tuple]:
        d = dict(self.prog.elements)
        d["Player"] = self.players
        return d

    # ------------------------------------------------------------------ queries
    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def scores(self) -> dict[str, int] | None:
        s = self.prog.model.scoring
        if s is None:
            return None
        value = self.ruleset.eval_static(s.value, self)
        return {p: value[p] for p in self.players}

    @property
    def winners(self) -> list[str]:
        return list(self.result["winners"]) if self.result else []

    def decision_player(self) -> str | None:
        return self.pending["player"] if self.pending else None

    def legal_actions(self) -> list[Action]:
        """Every action the deciding player may take now, in a stable order."""
        p = self.pending
        if p is None or self.result is not None:
            return []
        if p["kind"] == "choose":
            return [Action("choose", (o,)) for o in p["options"]]
        if self._legal is None:
            frame = self.frames[-1]
            self._legal = self._enumerate(self.prog.blocks[frame[0]][frame[1]])
        if self.abandoned:
            return [a for a in self._legal if str(a) not in self.abandoned]
        return list(self._legal)

    def _enumerate(self, op: tuple) -> list[Action]:
        out: list = []
        actions = self.prog.actions
        for name in op[1]:
            actions[name].enum(self, out)
        if op[2]:
            out.append(Action("pass"))
        return out

    def invalidate(self) -> None:
        """Forget cached legal actions after the state was changed from outside the rules."""
        self._legal = None

    # ------------------------------------------------------------------ legality
    def _parse(self, action: Any) -> Action:
        if isinstance(action, Action):
            return action
        if isinstance(action, str):
            return parse_action(action)
        if isinstance(action, tuple) and len(action) == 2:
            return Action(action[0], tuple(action[1]))
        raise IllegalAction(f"not an action: {action!r}")

    def explain(self, action: Any) -> Explanation:
        """Why `action` is or is not legal now: the first failing precondition and its values."""
        a = self._parse(action)
        text = str(a)
        p = self.pending
        if self.result is not None:
            return Explanation(False, text, "the game is over", None, [])
        if p is None:
            return Explanation(False, text, "no decision is pending", None, [])
        if p["kind"] == "choose":
            if a.name != "choose" or len(a.args) != 1:
                return Explanation(False, text, f"a choice of '{p['var']}' is pending: "
                                   f"choose one of {', '.join(map(_fmt_arg, p['options']))}", None, [])
            if a.args[0] not in p["options"]:
                return Explanation(False, text, f"{_fmt_arg(a.args[0])} is not one of the options "
                                   f"for '{p['var']}': {', '.join(map(_fmt_arg, p['options']))}", None, [])
            return Explanation(True, text, "one of the options", None, [])
        frame = self.frames[-1]
        op = self.prog.blocks[frame[0]][frame[1]]
        if a.name == "pass":
            if op[2]:
                return Explanation(True, text, "passing is allowed here", None, [])
            return Explanation(False, text, "passing is not allowed here", None, [])
        if a.name not in op[1]:
            known = a.name in self.prog.actions
            why = (f"'{a.name}' is not offered now" if known else f"unknown action '{a.name}'")
            return Explanation(False, text, f"{why}; offered: {', '.join(op[1])}", None, [])
        if text in self.abandoned:
            return Explanation(False, text, f"taken back at this decision: {self.abandoned[text]}", None, [])
        ca = self.prog.actions[a.name]
        if len(a.args) != len(ca.params):
            return Explanation(False, text, f"'{a.name}' takes {len(ca.params)} argument(s) "
                               f"({', '.join(ca.params)}), got {len(a.args)}", None, [])
        try:
            idx = ca.check(self, *a.args)
        except (RuleFailure, TypeError, KeyError, IndexError, ValueError) as err:
            return Explanation(False, text, f"cannot evaluate its preconditions: {err}", None, [])
        if idx == -1:
            return Explanation(True, text, "every precondition holds", None, self._checks(ca, a.args))
        if idx <= -2:
            pname = ca.params[-idx - 2]
            decl = ca.decl.params[-idx - 2]
            return Explanation(False, text, f"{_fmt_arg(a.args[-idx - 2])} is not a possible value "
                               f"of '{pname}'", f"{decl.span.line}:{decl.span.column}", [])
        req = ca.requires[idx]
        from ..dsl.printer import expr_text

        reason = req.message or f"requirement failed: {expr_text(req.test)}"
        checks = self._checks(ca, a.args)
        return Explanation(False, text, reason, f"{req.span.line}:{req.span.column}", checks)

    def _checks(self, ca: Any, args: tuple) -> list[dict]:
        try:
            results = ca.explain(self, *args)
        except (RuleFailure, TypeError, KeyError, IndexError, ValueError):
            return []
        out = []
        for idx, value, subs in results:
            req = ca.requires[idx]
            out.append({
                "require": ca.require_texts[idx],
                "at": f"{req.span.line}:{req.span.column}",
                "message": req.message,
                "value": bool(value),
                "values": {t: jsonable(v) for t, v in subs},
            })
        return out

    def is_legal(self, action: Any) -> bool:
        return self.explain(action).legal

    # ------------------------------------------------------------------ playing
    def apply(self, action: Any) -> None:
        """Play one legal action (or choice); illegal ones raise IllegalAction, state untouched.
        Traced games also check the ruleset's invariants after the step."""
        try:
            self._apply(action)
        except Abandoned as ab:
            self._roll_back(ab)
            return
        self.abandoned = {}  # a move went through: the next decision starts afresh
        if self.record and self.prog.invariants:
            self.check_invariants()

    def _about_to_change(self) -> None:
        """The move is legal and its effects begin: note the way back for `undo`."""
        if self.record:
            self._undo.append((self._meta(), len(self.journal), len(self.trace)))
        self._legal = None

    def _roll_back(self, ab: Abandoned) -> None:
        """`abandon`: the game is again as it was before the move, which is not offered again
        at this decision; the trace keeps a step saying so."""
        point = self._abandon_point
        if point is None:
            raise RuleFailure(f"'abandon' outside a move that can be taken back: {ab.reason}", ab.span)
        action, rule = self._abandon_action, self._abandon_rule
        back = point.clone()
        for name in ("vars", "current", "phase", "round", "rng", "frames", "pending", "result",
                     "step_no", "trig_last", "scripted", "trace", "abandoned"):
            setattr(self, name, getattr(back, name))
        self.abandoned = {**self.abandoned, action: ab.reason}
        self.journal, self._step, self._jmark, self._legal = [], None, 0, None
        self._abandon_point = self._abandon_rule = self._abandon_action = None
        if self.record:
            self._open(rule or "flow", False, {}, {"kind": "abandoned", "by": self.decision_player(),
                                                  "action": action})
            self._step["events"].append({"event": "abandoned", "reason": ab.reason})
            self._close()
        self._undo = []  # the journal behind earlier steps belongs to the state that was dropped
        if self.pending and self.pending["kind"] == "play" and not self.legal_actions():
            frame = self.frames[-1]  # every move was taken back: the play is skipped
            frame[1] += 1
            self.pending = None
            self.abandoned = {}
            self._run()

    def _apply(self, action: Any) -> None:
        a = self._parse(action)
        p = self.pending
        if self.result is not None:
            raise IllegalAction(f"{a}: the game is over")
        if p is None:
            raise IllegalAction(f"{a}: no decision is pending")
        frame = self.frames[-1]
        if p["kind"] == "choose":
            if a.name != "choose" or len(a.args) != 1 or a.args[0] not in p["options"]:
                raise IllegalAction(self.explain(a).reason)
            self._about_to_change()
            self.step_no += 1
            if self.record:
                self._open(frame[3], False, {p["var"]: jsonable(a.args[0])},
                           {"kind": "choose", "by": p["player"], "action": str(a)})
            frame[2][p["var"]] = a.args[0]
            frame[1] += 1
            self.pending = None
            self._run()
            return
        op = self.prog.blocks[frame[0]][frame[1]]
        if a.name == "pass":
            if not op[2]:
                raise IllegalAction(f"{a}: passing is not allowed here")
            self._about_to_change()
            self.step_no += 1
            if self.record:
                self._open(self._rule_key(frame), False, {}, {"kind": "pass", "by": p["player"], "action": "pass"})
            frame[1] = op[4]
            self.pending = None
            self._run()
            return
        ca = self.prog.actions.get(a.name)
        if ca is None or a.name not in op[1] or len(a.args) != len(ca.params):
            raise IllegalAction(self.explain(a).reason)
        if str(a) in self.abandoned:
            raise IllegalAction(f"{a}: taken back at this decision: {self.abandoned[str(a)]}")
        try:
            idx = ca.check(self, *a.args)
        except (RuleFailure, TypeError, KeyError, IndexError, ValueError):
            idx = -99
        if idx != -1:
            raise IllegalAction(f"{a}: {self.explain(a).reason}")
        self._about_to_change()
        if ca.abandonable:  # keep the way back until the move's effects are done
            self._abandon_point = self.clone()
            self._abandon_rule, self._abandon_action = f"action:{a.name}", str(a)
        self.step_no += 1
        if self.record:
            self._open(f"action:{a.name}", False, dict(zip(ca.params, map(jsonable, a.args), strict=True)),
                       {"kind": "action", "by": p["player"], "action": str(a)}, self._checks(ca, a.args))
        frame[1] += 1
        self.pending = None
        if ca.effect is not None:
            try:
                finished = ca.effect(self, *a.args)
            except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError, AttributeError) as err:
                raise RuleFailure(f"action '{a}' failed: {type(err).__name__}: {err}") from err
            self._abandon_point = self._abandon_rule = self._abandon_action = None
            if finished:
                self._finish_effects()
                return
            if self.record:
                self._close()
        else:
            self.frames.append([ca.block, 0, dict(zip(ca.params, a.args, strict=True)), f"action:{a.name}"])
        self._run()

    # ------------------------------------------------------------------ invariants
    def broken_invariants(self) -> list[str]:
        """Every declared invariant the current state breaks, as 'file:line: message'."""
        out = []
        for test, decl in self.prog.invariants:
            try:
                ok = test(self)
            except (KeyError, IndexError, TypeError, ValueError) as err:
                ok, why = False, f"cannot be evaluated ({type(err).__name__}: {err})"
            else:
                why = None
            if not ok:
                from ..dsl.printer import expr_text

                msg = why or decl.message or f"invariant {expr_text(decl.test)} does not hold"
                out.append(f"{decl.span.file}:{decl.span.line}:{decl.span.column}: {msg}")
        return out

    def check_invariants(self) -> None:
        broken = self.broken_invariants()
        if broken:
            raise RuleFailure("the state breaks an invariant: " + "; ".join(broken))

    # ------------------------------------------------------------------ undo
    def _meta(self) -> tuple:
        return (self.current, self.phase, self.round, self.rng,
                [[f[0], f[1], dict(f[2]), f[3]] for f in self.frames], dict(self.pending or {}) or None,
                self.result, self.step_no, self.trig_last, self.scripted, self._legal, self.abandoned,
                (self._abandon_point, self._abandon_rule, self._abandon_action))

    def undo(self) -> None:
        """Take back the last decision, from the journal of a recorded game."""
        if not self.record:
            raise EngineError("undo needs a recorded game (record=True): only it keeps a journal")
        if not self._undo:
            raise EngineError("nothing to undo")
        meta, jstart, tlen = self._undo.pop()
        self._step = None
        for container, key, old, _new, _path in reversed(self.journal[jstart:]):
            if old is MISSING:
                del container[key]
            else:
                container[key] = old
        del self.journal[jstart:]
        del self.trace[tlen:]
        (self.current, self.phase, self.round, self.rng, self.frames, self.pending, self.result,
         self.step_no, self.trig_last, self.scripted, self._legal, self.abandoned,
         (self._abandon_point, self._abandon_rule, self._abandon_action)) = meta
        self._jmark = len(self.journal)

    def _finish_effects(self) -> None:
        if self.record:
            self._close()
            self._emit_result()

    def finish(self, kind: str, values: list, span_id: int) -> None:
        """Called by rules: end the game with winners, a draw, or a ranking."""
        if self.result is not None:
            return
        if kind == "draw":
            winners: list = []
        elif kind == "winner":
            v = values[0]
            winners = list(v) if isinstance(v, (list, tuple, frozenset)) else [v]
        else:
            rank_key = values[0]
            keyed = {p: rank_key(p) for p in self.players}
            best = max(keyed.values())
            winners = [p for p in self.players if keyed[p] == best]
        self.result = {"kind": kind, "winners": winners, "scores": jsonable(self.scores)}
        if kind == "ranking":
            order = sorted(self.players, key=lambda p: keyed[p], reverse=True)
            self.result["ranking"] = [{"player": p, "keys": jsonable(list(keyed[p]))} for p in order]
        self.pending = None

    # ------------------------------------------------------------------ the VM
    def _rule_key(self, frame: list) -> str:
        key = frame[3]
        if key == "flow" and self.phase is not None:
            return f"phase:{self.phase}"
        return key

    def _run(self) -> None:
        try:
            self._run_vm()
        except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError, AttributeError) as err:
            rule = self._rule_key(self.frames[-1]) if self.frames else "flow"
            info = self.prog.rules.get(rule, {})
            raise RuleFailure(f"rule '{info.get('name', rule)}' ({info.get('at', '?')}) failed: "
                              f"{type(err).__name__}: {err}") from err

    def _run_vm(self) -> None:
        blocks = self.prog.blocks
        frames = self.frames
        budget = MAX_OPS_BETWEEN_DECISIONS
        chain = 0
        self._fired: list[int] = []
        record = self.record
        while self.result is None:
            budget -= 1
            if budget < 0:
                raise BudgetExceeded(
                    f"more than {MAX_OPS_BETWEEN_DECISIONS} steps without a decision in "
                    f"{self._rule_key(frames[-1])}: a rule loops forever?")
            frame = frames[-1]
            op = blocks[frame[0]][frame[1]]
            kind = op[0]
            if kind == "seg":
                frame[1] += 1
                if record:
                    self._auto(frame)
                if op[1](self, frame[2]):
                    break
            elif kind == "play" or kind == "choose":
                if self._fire_triggers():
                    chain += 1
                    if chain > MAX_TRIGGER_CHAIN:
                        names = sorted({self.prog.rules[f"when:{i}"]["name"] for i in self._fired[-20:]})
                        raise BudgetExceeded(f"trigger chain longer than {MAX_TRIGGER_CHAIN}: "
                                             f"these rules keep firing each other: {'; '.join(names)}")
                    continue
                if self.result is not None:
                    break
                L = frame[2]
                if kind == "play":
                    who = op[3](self, L) if op[3] is not None else self.current
                    self.pending = {"kind": "play", "player": who}
                    legal = self._enumerate(op)
                    if not legal:  # nobody can be asked to do the impossible: the play is skipped
                        self.pending = None
                        if record:
                            self._event(frame, {"event": "no legal action", "player": who})
                        frame[1] += 1
                        continue
                    self._legal = legal
                else:
                    _k, var, dom_fn, where, by, prompt, span = op
                    who = by(self, L) if by is not None else self.current
                    seq = self.prog.namespace["_seq"]
                    if where is not None:
                        opts = [x for x in seq(dom_fn(self, L)) if where(self, {**L, var: x})]
                    else:
                        opts = list(seq(dom_fn(self, L)))
                    if not opts:
                        raise RuleFailure(f"nothing to choose for '{var}'", span)
                    self.pending = {"kind": "choose", "player": who, "var": var,
                                    "options": opts, "prompt": prompt}
                if record:
                    self._close()
                return
            elif kind == "jf":
                frame[1] = frame[1] + 1 if op[1](self, frame[2]) else op[2]
            elif kind == "jmp":
                frame[1] = op[1]
            elif kind == "for_init":
                frame[2][op[1]] = [list(self.prog.namespace["_seq"](op[2](self, frame[2]))), 0]
                frame[1] += 1
            elif kind == "for_next":
                items, i = frame[2][op[1]]
                if i < len(items):
                    L = frame[2]
                    L[op[2]] = items[i]
                    L[op[1]] = [items, i + 1]
                    frame[1] += 1
                else:
                    frame[1] = op[3]
            elif kind == "cnt_init" or kind == "rep_init":
                frame[2][op[1]] = op[2] if kind == "cnt_init" else op[2](self, frame[2])
                frame[1] += 1
            elif kind == "cnt_next" or kind == "rep_next":
                n = frame[2][op[1]]
                if n > 0:
                    frame[2][op[1]] = n - 1
                    frame[1] += 1
                else:
                    frame[1] = op[2]
            elif kind == "turn_begin":
                L = frame[2]
                L[op[2]] = self.current
                if op[1] is not None:
                    self.current = op[1](self, L)
                frame[1] += 1
                if record:
                    self._event(frame, {"event": "turn start", "player": self.current})
                if self._hooks("turn start"):
                    break
            elif kind == "turn_end":
                frame[1] += 1
                if self._hooks("turn end"):
                    break
                if record:
                    self._event(frame, {"event": "turn end", "player": self.current})
                if op[1]:
                    ps = self.players
                    i = ps.index(self.current) + 1
                    if i == len(ps):
                        self.round += 1
                        i = 0
                    self.current = ps[i]
                else:
                    self.current = frame[2][op[2]]
            elif kind == "phase_begin":
                L = frame[2]
                L[op[2]] = self.phase
                self.phase = op[1]
                frame[1] += 1
                if record:
                    self._event(frame, {"event": "phase start", "phase": op[1]})
            elif kind == "phase_end":
                if record:
                    self._event(frame, {"event": "phase end", "phase": op[1]})
                self.phase = frame[2].get(op[2])
                frame[1] += 1
            elif kind == "call":
                frame[1] += 1
                pk, ref = self.prog.procedures[op[1]]
                args = [f(self, frame[2]) for f in op[2]]
                if pk == "fn":
                    if record:
                        self._auto([None, None, None, f"procedure:{op[1]}"])
                    if ref(self, *args):
                        break
                else:
                    frames.append([ref, 0, dict(zip(op[3], args, strict=True)), f"procedure:{op[1]}"])
            elif kind == "goto":
                if record:
                    self._event(frame, {"event": "goto", "phase": op[1]})
                del frames[1:]
                self.phase = None
                frames[0][1] = self.prog.phase_labels[op[1]]
            elif kind == "ret":
                frames.pop()
                if self._abandon_rule is not None and frame[3] == self._abandon_rule:
                    self._abandon_point = self._abandon_rule = self._abandon_action = None
                if record and self._step is not None and self._step["automatic"] is False:
                    self._close()
                if not frames:
                    scores = self.scores
                    if scores:
                        self.finish("ranking", [lambda p, s=scores: (s[p],)], -1)
                    else:
                        self.finish("draw", [], -1)
                    break
            else:  # pragma: no cover - the compiler emits only the kinds above
                raise RuleFailure(f"unknown op {kind}")
        if self.result is not None:
            self.pending = None
            if record:
                self._close()
                self._emit_result()

    def _fire_triggers(self) -> bool:
        """Fire the triggers whose conditions just became true (edge-triggered), in declaration
        order. True if any fired: the caller then looks again, within the chain budget."""
        trig = self.prog.triggers
        if not trig:
            return False
        last = self.trig_last
        now = [bool(test(self)) for test, _fn, _blk, _d in trig]
        rising = [i for i, v in enumerate(now) if v and not last[i]]
        if now == last:
            return False
        new = [now[i] if i not in rising else False for i in range(len(now))]
        self.trig_last = new
        for i in rising:
            _test, fn, blk, _decl = trig[i]
            new[i] = True
            self._fired.append(i)
            if self.record:
                self._open(f"when:{i}", True, {}, None)
            if fn is None:
                self.frames.append([blk, 0, {}, f"when:{i}"])
                return True
            fn(self)
            if self.record:
                self._close()
            if self.result is not None:
                return False
        return bool(rising)

    def _hooks(self, event: str) -> bool:
        for fn, key in self.prog.hooks.get(event, ()):
            if self.record:
                self._open(key, True, {"player": self.current}, None)
            if fn(self):
                return True
            if self.record:
                self._close()
        return False

    # ------------------------------------------------------------------ tracing
    def script(self, device: str, outcome: Any) -> None:
        """Queue an outcome for the next use of a chance device (tests and scenarios)."""
        self.scripted = {**self.scripted, device: [*self.scripted.get(device, []), outcome]}

    def scripted_value(self, device: str, value: Any, span: Any) -> Any:
        """A scripted outcome, checked against the device's declared type like a saved value."""
        model = self.prog.model
        t = model.type_of_decl(model.devices[device].type)
        try:
            return decode(t, jsonable(value), f"script {device}", self.domains(), model.record_fields)
        except SaveError as err:
            raise RuleFailure(f"impossible scripted outcome: {err.message}", span) from None

    def take_script(self, device: str) -> Any:
        queue = self.scripted.get(device)
        if not queue:
            return MISSING
        self.scripted = {**self.scripted, device: queue[1:]}
        return queue[0]

    def clone(self) -> Game:
        """An independent copy: the same state, frames, generator and pending decision."""
        g = Game.__new__(Game)
        g.ruleset = self.ruleset
        g.prog = self.prog
        g.record = self.record
        g.players = self.players
        g.seed = self.seed
        g.options = self.options
        g.consts = self.consts
        g.vars = {k: (deep_copy(v) if type(v) in (dict, list) else v) for k, v in self.vars.items()}
        g.current = self.current
        g.phase = self.phase
        g.round = self.round
        g.rng = self.rng
        g.frames = [[f[0], f[1], dict(f[2]), f[3]] for f in self.frames]
        g.pending = dict(self.pending) if self.pending is not None else None
        g.result = self.result
        g.step_no = self.step_no
        g.trig_last = self.trig_last
        g.scripted = self.scripted
        g.quiet_chance = 0
        g.journal = []
        g.trace = list(self.trace) if self.trace is not None else None
        g._step = None
        g._jmark = 0
        g._legal = self._legal
        g._undo = []
        g.abandoned = self.abandoned  # replaced, never changed in place
        g._abandon_point = self._abandon_point  # restored only through a clone of it
        g._abandon_rule = self._abandon_rule
        g._abandon_action = self._abandon_action
        return g

    def to_json(self) -> dict:
        """A versioned, self-checking snapshot; `Game.from_json` continues it identically."""
        return game_to_json(self)

    @classmethod
    def from_json(cls, data: Any, ruleset: Any = None, record: bool = False) -> Game:
        """Rebuild a saved game; without `ruleset`, the rules file the save names is loaded."""
        return game_from_json(data, ruleset, record)

    def view(self, player: str) -> dict:
        """The state as `player` may see it: hidden zones show only their size."""
        out = {}
        for name, decl in self.prog.model.vars.items():
            v = self.vars[name]
            if decl.hidden == "all":
                out[name] = _hide(v)
            elif decl.hidden == "owner" and isinstance(v, dict):
                out[name] = {k: (jsonable(x) if k == player else _hide(x)) for k, x in v.items()}
            else:
                out[name] = jsonable(v)
        return {"player": player, "current": self.current, "phase": self.phase, "vars": out}


def _hide(v: Any) -> Any:
    if isinstance(v, (list, frozenset)):
        return {"hidden": len(v)}
    if isinstance(v, dict):
        return {k: _hide(x) for k, x in v.items()}
    return {"hidden": True}


def parse_action(text: str) -> Action:
    """Parse `name`, `name(a, b)` or `choose(x)`: arguments are names, numbers, true/false/none."""
    s = text.strip()
    if "(" not in s:
        if not s or not all(ch.isalnum() or ch == "_" for ch in s):
            raise IllegalAction(f"cannot read action {text!r}: expected name(arg, ...)")
        return Action(s, ())
    if not s.endswith(")"):
        raise IllegalAction(f"cannot read action {text!r}: missing ')'")
    name, rest = s[:-1].split("(", 1)
    name = name.strip()
    args: list[Any] = []
    for raw in _split_args(rest):
        args.append(_parse_value(raw, text))
    return Action(name, tuple(args))


def _split_args(s: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return out


def _parse_value(raw: str, text: str) -> Any:
    r = raw.strip()
    if r.startswith("[") and r.endswith("]"):
        return [_parse_value(x, text) for x in _split_args(r[1:-1])]
    if r in ("true", "false"):
        return r == "true"
    if r == "none":
        return None
    if r.lstrip("-").isdigit():
        return int(r)
    if r.startswith('"') and r.endswith('"'):
        return r[1:-1]
    if r and all(ch.isalnum() or ch == "_" for ch in r):
        return r
    raise IllegalAction(f"cannot read argument {r!r} in {text!r}")
