"""What generated rule code and the run-time helpers call on a game: one named interface.

Generated functions (interpreter/compiler/) receive the game as `G`. Besides its state fields
(`G.vars`, `G.current`, `G.phase`, `G.round`, `G.frames`, `G.pending`, `G.result`, ...; the
engine declares them once, engine/saves.py `DYNAMIC`), its constants (`G.consts`, `G.players`;
`G.player_list`, the same as a list: `Player` as a value)
and the work counter (`G.work`, `G.work_budget`), they call only the methods of this class and
the recording calls of `TraceRecorder` (engine/recording.py: `_open`, `_close`, `_auto`,
`push_rule`, `pop_rule`, `note_chance`, `note_log`, in the traced variant). The user API is
`Game` (engine/game.py), which inherits these; nothing here is meant for a user, and a change
to a signature here is a change to the code generator.
"""

from __future__ import annotations

import time
from typing import Any

from . import explicit as _explicit
from .errors import BudgetExceeded, RuleFailure, SaveError
from .limits import CALL_WORK, MAX_TRIGGER_CHAIN, RECURSIVE_CALL_WORK, SKIPPED_PLAY_WORK, WORK_CHUNK
from .locate import plain, statement_span
from .moves import Action
from .recording import AUTO
from .runtime import MISSING
from .values import decode, jsonable, value_text


class RuleCalls:
    """The calls generated code makes on the game `G` (see the module docstring)."""

    # ------------------------------------------------------------------ the game's end
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
        scores = self.prog.scores(self)
        self.result = {"kind": kind, "winners": winners, "scores": None if scores is None else jsonable(scores)}
        self.is_over = True
        if kind == "ranking":
            order = sorted(self.players, key=lambda p: keyed[p], reverse=True)
            self.result["ranking"] = [{"player": p, "keys": jsonable(list(keyed[p]))} for p in order]
        self.pending = None

    # ------------------------------------------------------------------ the work budget and failures
    def out_of_work(self, span: Any) -> None:
        """Called by generated code when a chunk of the work budget is used up: count it, and
        stop a decision that has done more work than the budget allows, or run longer than the
        time limit, naming the rule that was running."""
        used = self._worked + WORK_CHUNK - self.work
        if self._worked == 0:
            self._clock = time.monotonic()
        self._worked = used
        self.work = WORK_CHUNK
        if used > self.work_budget:
            why = (f"more than {self.work_budget:,} steps of work since the last decision "
                   f"(loop rounds, items gone over, {CALL_WORK:,} for each procedure call, "
                   f"{RECURSIVE_CALL_WORK} for each call of a definition that calls itself and "
                   f"{SKIPPED_PLAY_WORK:,} for each play nobody could make): a rule that never ends?")
        elif time.monotonic() - self._clock > self.time_limit:
            why = f"more than {self.time_limit:g} s of work since the last decision: a rule that never ends?"
        else:
            return
        frames = self.frames
        defined = self._definition_at(span)
        if defined is not None:  # a definition that calls itself: it is what runs on
            raise BudgetExceeded(f"definition '{defined}' (line {span.line}): {why}", span)
        rule = self._rule_at(span) or (self._rule_key(frames[-1]) if frames else "flow")
        info = self.prog.rules.get(rule, {})
        where = f" at line {span.line}" if span is not None and getattr(span, "line", 0) else ""
        raise BudgetExceeded(f"rule '{info.get('name', rule)}' ({info.get('at', '?')}){where}: {why}", span)

    def _definition_at(self, span: Any) -> str | None:
        """The definition whose first line `span` is (the span a recursive definition's calls
        are charged at), or None."""
        if span is None or not getattr(span, "line", 0):
            return None
        for name, d in self.prog.model.defines.items():
            if d.span.file == span.file and d.span.line == span.line and d.span.column == span.column:
                return name
        return None

    def _rule_at(self, span: Any) -> str | None:
        """The key of the rule whose text holds `span` (an action's effect runs without a frame
        of its own, so the frames alone would name the rule that offered it)."""
        if span is None or not getattr(span, "line", 0):
            return None
        m = self.prog.model
        found = None
        for key, decl in [*((f"action:{n}", d) for n, d in m.actions.items()),
                          *((f"procedure:{n}", d) for n, d in m.procedures.items()),
                          *((f"when:{i}", d) for i, d in enumerate(m.triggers)),
                          *((f"on:{i}", d) for i, d in enumerate(m.hooks)),
                          *((f"device:{n}", d) for n, d in m.devices.items())]:
            ds = decl.span
            if ds.file == span.file and ds.line <= span.line <= max(ds.end_line, ds.line):
                if found is None or ds.line >= found[1]:
                    found = (key, ds.line)
        return found[0] if found else None

    def _action_failure(self, move: Action, err: Exception) -> RuleFailure:
        """A Python error in a move's effect, at the statement that raised it."""
        span = statement_span(err.__traceback__)
        return RuleFailure(f"action '{move}' failed: {plain(err)}", span, f"action:{move.name}" if span else None)

    # ------------------------------------------------------------------ blocks
    def left(self, frame: list) -> None:
        """A block's frame was popped: a move that could be taken back is now done."""
        if self.abandon is not None and frame[3] == self.abandon[1]:
            self.abandon = None
        if self.record:  # `open_decision()` written out: a decided step closes with its frame
            st = self._step
            if st is not None and st[AUTO] is False:
                self._close()

    def reveal(self, what: str, value: Any, to: str | None) -> None:
        """`reveal X [to P]`: X is part of P's view (everybody's without `to`) from now on, so of
        their observation and information state too; a traced game notes it in the step."""
        self.revealed = (*self.revealed, (what, jsonable(value), to, self.step_no))
        if self.record:
            self.note_reveal(what, value, to)

    def open_window(self, frame: list, block: int, var: str, players: Any, outer: dict) -> bool:
        """Called by the block at a `simultaneously` (its frame already points after it): each
        player's part starts as that player's turn and runs to its first decision. True when
        some part waits (the game stops with a simultaneous decision), False when all are done."""
        order = []
        for p in players:
            if p not in self.players:
                raise RuleFailure(f"'simultaneously' goes over players, not {value_text(p)}")
            if p not in order:
                order.append(p)
        self.window = {"players": tuple(order), "pending": {},
                       "parts": {p: [[block, 0, {**outer, var: p}, frame[3]]] for p in order}}
        for p in order:
            self._advance_part(p, None)
        return self.result is None and self._window_waits()

    # ------------------------------------------------------------------ triggers and hooks
    def fire_now(self, watched: tuple[int, ...], here: bool = True) -> bool:
        """Generated code calls this right after a statement that wrote a state variable the
        conditions of triggers `watched` read ("as soon as", docs/language.md §10). A trigger
        whose condition became true fires: a body that runs straight through runs here, before
        the rule's next statement (unless `here` is False: inside a device); a body that stops
        for a decision or jumps waits in `_deferred` until the running rule can pause. True
        when a body finished the game (the rule that wrote then ends too)."""
        trig = self.prog.triggers
        last = self.trig_last
        new = None
        rising = []
        here = here and self._part is None  # a part of `simultaneously` runs no other rule
        for i in watched:
            now = bool(trig[i][0](self))
            if now != last[i]:
                if new is None:
                    new = list(last)  # replaced, never changed in place (clones share it)
                new[i] = now
                if now:
                    rising.append(i)
        if new is None:
            return False
        self.trig_last = new
        for i in rising:
            fn = trig[i][1]
            if fn is None or not here:
                self._deferred += (i,)
                continue
            if self._run_straight_trigger(i, fn):
                return True
        return False

    def _run_straight_trigger(self, i: int, fn: Any) -> bool:
        """Run trigger `i`'s straight body inside the rule that set it off; True if it finished
        the game. Bodies that keep setting each other off stop at the chain budget."""
        if not self._nest:
            self._fired = []
        self._fired.append(i)
        self._nest += 1
        if self._nest > MAX_TRIGGER_CHAIN:
            self._nest = 0
            self._runaway(self._fired[0])
        prev = self.push_rule(f"when:{i}") if self.record else None
        try:
            finished = fn(self)
        finally:
            self._nest -= 1
        if self.record and self.result is None:
            self.pop_rule(prev)
        return bool(finished) or self.result is not None

    def _run_deferred(self) -> None:
        """Start the first trigger that waits (`_deferred`): push its block, or run its
        straight body (one that waited for a device to end)."""
        i, self._deferred = self._deferred[0], self._deferred[1:]
        _test, fn, blk, _decl = self.prog.triggers[i]
        if not self._chain:
            self._fired = []
        self._fired.append(i)
        if self.record:
            self._open(f"when:{i}", True, None, None)
        if fn is None:
            self.frames.append([blk, 0, {}, f"when:{i}"])
            return
        fn(self)
        if self.record and self.result is None:
            self._close()

    def fire_triggers(self) -> bool:
        """Fire the triggers whose conditions just became true (edge-triggered), in declaration
        order, after those waiting to run (`_deferred`). True if any fired: the caller then
        looks again, within the chain budget."""
        if self._part is not None:  # tested when the `simultaneously` is over
            return False
        if self._deferred:
            self._run_deferred()
            return self._chained()
        trig = self.prog.triggers
        last = self.trig_last
        if not self._chain:
            self._fired = []  # the triggers of this chain, named if it runs away
        now = [bool(test(self)) for test, _fn, _blk, _d in trig]
        if now == last:
            self._chain = 0  # a chain is a run of rounds that each fire something
            return False
        return self._fire_changed(now)

    def _fire_changed(self, now: list[bool]) -> bool:
        """`fire_triggers` once the conditions' values `now` differ from `trig_last` (also
        called by a program's `FT` with the values it worked out in place: `triggers at once`,
        docs/architecture.md §5)."""
        trig = self.prog.triggers
        last = self.trig_last
        rising = [i for i, v in enumerate(now) if v and not last[i]]
        if not rising:
            self.trig_last = now
            self._chain = 0
            return False
        new = [now[i] if i not in rising else False for i in range(len(now))]
        self.trig_last = new
        for i in rising:
            _test, fn, blk, _decl = trig[i]
            new[i] = True
            self._fired.append(i)
            if self.record:
                self._open(f"when:{i}", True, None, None)
            if fn is None:
                self.frames.append([blk, 0, {}, f"when:{i}"])
                return self._chained()
            self._nest += 1  # triggers its writes set off run inside it (fire_now)
            try:
                fn(self)
            finally:
                self._nest -= 1
            if self.record and self.result is None:
                self._close()
            if self.result is not None:
                return False
        return self._chained()

    def _chained(self) -> bool:
        self._chain += 1
        if self._chain > MAX_TRIGGER_CHAIN:
            self._runaway()
        return True

    def _runaway(self, at: int | None = None) -> None:
        """A chain of triggers that never ends; located at trigger `at` when it is known (the
        one that began a chain of bodies run inside one another), else where the engine finds
        the last one fired."""
        names = sorted({self.prog.rules[f"when:{i}"]["name"] for i in self._fired[-20:]})
        span = None if at is None else self.prog.model.triggers[at].span
        raise BudgetExceeded(f"trigger chain longer than {MAX_TRIGGER_CHAIN}: "
                             f"these rules keep firing each other: {'; '.join(names)}", span,
                             None if at is None else f"when:{at}")

    def run_hooks(self, event: str) -> bool:
        """Run the `on <event>` hooks; True if one finished the game."""
        for fn, key in self.prog.hooks.get(event, ()):
            if self.record:
                self._open(key, True, {"player": self.current}, None)
            if fn(self):
                return True
            if self.record:
                self._close()
        return False

    # ------------------------------------------------------------------ chance
    def chance_pick(self, kind: str, what: str, values: list, weights: list[int] | None) -> Any:
        """Called by chance events of an explicit game: the outcome, or a chance node."""
        return _explicit.pick(self, kind, what, values, weights)

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
