"""Trace recording: how a traced game turns its journal and events into step records.

Only traced games (`record=True`) call these; an untraced game's generated code never does,
so simulations pay nothing for traces (see docs/traces.md for the step format).

While a game is played a step is a short list (KEY, AUTO, ... below name its slots); its changes
are the range of the journal's entries it wrote (worked out at once, dicts copied, where it
wrote a dict that can change in place later) and its checks the values an action's explain
function saw. Reading `game.trace` turns the steps recorded since
the last read into the dicts of the trace format, once.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import compress
from typing import Any

from .errors import RULE_ERRORS, BudgetExceeded, RuleFailure
from .limits import WORK_CHUNK
from .moves import Action
from .runtime import MISSING
from .values import jsonable, value_text

# The slots of a step while it is recorded (generated code writes EVENTS = 7 and reads KEY = 0).
# An event is a dict, or (event, player) for the flow's player events, which generated code
# notes at every turn: the record {"event": ..., "player": ...} is made when the step is read;
# or (event, "phase", phase) for a phase's start and end and a goto (`phase_event_code`): a
# constant tuple, where a dict would keep the step's tuple of events tracked by the collector.
# Likewise a move whose arguments are plain values keeps the move itself as its decision, no
# bindings, and as its checks what its explain function gave, until the step is read; a choice
# of a plain value keeps the move too, and as its bindings the name of the variable chosen.
# BINDINGS is None for an automatic step; CHANCE and EVENTS are () until something is noted,
# then tuples made one longer by each item (`_note`, and generated code for events; few steps
# note more than one), as CHECKS is the tuple an explain function returns: not lists, since the
# collector stops tracking a tuple of untracked items the first time it sees it, where a list
# stays tracked and is promoted and walked by every later collection until the game ends (a
# traced Root game kept about 470 such lists, a quarter of its tracked objects). A
# chance event is a tuple (kind, what, outcome, inputs, detail) of the values as noted (`_kept`),
# made the trace's record when the step is read (`chance_record`).
# CHANGES is a tuple of (path, old, new), or the range of the journal's entries the step wrote
# (a range: no container the collector tracks, where a slice of the entries was one per kept
# step), which `changes_of` turns into that tuple when the step is read (`TraceRecorder._close`,
# `_cook`); a list of those entries once the steps outlive their journal (`settle_changes`).
KEY, AUTO, BINDINGS, DECISION, CHECKS, CHANGES, CHANCE, EVENTS, PHASE, PLAYER = range(10)
# Closed steps are kept flat: `game._steps` holds each step's WIDTH slots one after another
# (its list's items copied in, the list itself freed), so a kept step adds no container for the
# collector to track and count towards its next collection (about 940 lists a traced Shogun game,
# a quarter of what it kept). A flow's tuple of turn events (below) or the game's result (a
# dict) takes one slot only: a step's first slot says how many it has (a key, a str: WIDTH;
# else 1), so the steps are read in order from a step's start (`step_starts`), and a turn
# step costs one append, not a ten-slot tuple made and copied (tic-tac-toe keeps one a move).
WIDTH = 10
# The journal is flat too: an entry (container, key, old, new, path) is its ENTRY slots appended
# one after another (generated code, interpreter/compiler/codegen.py `write`), so a write keeps no
# tuple to its game's end (about 2,250 a traced Shogun game, the most numerous objects a traced
# game kept). Journal lengths and marks count slots; `entries` gives the entries as tuples.
ENTRY = 5
# BINDINGS of a step that keeps the move itself as its decision, when the move is a part's of a
# `simultaneously` (a secret commitment): its decision record says "simultaneous" when read.
IN_PART = True
# BINDINGS of such a step whose checks are worked out when the step is read (`deferred checks`,
# interpreter/compiler/actiongen.py `deferred_checks`): its CHECKS slot then holds only the
# listing's kept entries its explain function takes (`G._xpre`), and `deferred_explain` gives
# the checks from the step's own journal entries, which never change.
DEFERRED = False


class _Mark:
    """A named mark for a step's slot."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


# BINDINGS of a step whose move's explain runs when the step is read (`state kept for checks`,
# interpreter/compiler/compile.py `state_kept`): its CHECKS slot holds the current player and
# copies of the state variables that explain reads, taken before the move (`kept_explain`).
STATE_KEPT = _Mark("STATE_KEPT")
# A flow's step that only changed whose turn it is, between a move played in place and the next
# decision (the round trip of interpreter/compiler/machine.py), is kept as one short tuple
# instead: (key, the kinds of its player events, phase, the player of each event). It is one
# step of the trace like any other; `turns_step` makes it the list it stands for when it is read
# (or opened again, `_reopen_turns`). Its player is its first event's, as when it was opened by
# that event; it wrote nothing and drew nothing.


def bindings_of(ca: Any, args: tuple) -> dict:
    """A recorded move's parameters by name, as JSON values (a legal move has the arity)."""
    params = ca.params
    if not ca.plain_args:
        return {n: (x if type(x) in _PLAIN else jsonable(x)) for n, x in zip(params, args, strict=False)}
    if len(params) == 1:  # a dict display: dict(zip(...)) costs several times as much
        return {params[0]: args[0]}
    if len(params) == 2:
        return {params[0]: args[0], params[1]: args[1]}
    return dict(zip(params, args, strict=False))


def auto_step_code(key: str, phase: str, player: str, events: str = "()") -> str:
    """The Python display of a new automatic step, slots in order, for generated code that
    opens the flow's step in place (interpreter/compiler/machine.py): what `_open(key, True, None, None)`
    makes when no step is open, with its events list when the code knows its first event."""
    slots = {KEY: key, AUTO: "True", BINDINGS: "None", DECISION: "None", CHECKS: "()", CHANGES: "None",
             CHANCE: "()", EVENTS: events, PHASE: phase, PLAYER: player}
    return "[" + ", ".join(slots[i] for i in range(len(slots))) + "]"


def kept_close_code(st: str, ind: str, wrote: bool = True) -> list[str]:
    """The lines with which generated code closes step `st` when it knows the step is open, is
    kept (it noted an event) and wrote no map or record whole (`_jdict` is False): what
    `TraceRecorder._close` does then, without the call (interpreter/compiler/machine.py).
    `wrote=False`: the code knows the step wrote nothing (its changes are empty)."""
    changes = "range(G._jmark, len(G.journal))" if wrote else "()"
    return [f"{ind}G._step = None", f"{ind}{st}[{CHANGES}] = {changes}", f"{ind}G._steps.extend({st})"]


def keep_turns_code(rt: str) -> str:
    """The line with which generated code keeps a flow's tuple of turn events (`turns_code`) as a
    closed step: the tuple is the step's one slot (WIDTH)."""
    return f"G._steps.append({rt})"


def turns_code(key: str, kinds: tuple[str, ...], players: list[str]) -> str:
    """The Python display of a flow's step that noted only player events (`kinds`, each of the
    player that the expression in `players` named when it was noted), as generated code keeps
    it: a tuple that `turns_step` makes a step list."""
    return f"({key}, {kinds!r}, G.phase, {', '.join(players)})"


def phase_event_code(kind: str, phase: str) -> str:
    """The Python display of a phase's event `kind` (phase start, phase end, goto) as generated
    code notes it: a constant tuple of texts (the slots' comment above), made its record
    {"event": kind, "phase": phase} when the step is read (`event_record`)."""
    return repr((kind, "phase", phase))


def event_record(ev: Any) -> dict:
    """An event of a step as the trace has it, from what was noted: a dict as it is; a flow's
    player event (event, player) or a phase's event (event, "phase", phase) made a dict."""
    if type(ev) is dict:
        return ev
    if len(ev) == 2:
        return {"event": ev[0], "player": ev[1]}
    return {"event": ev[0], ev[1]: ev[2]}


def turns_step(rec: tuple) -> list:
    """The step list a flow's tuple of turn events (`turns_code`) stands for, as if the step
    had been opened by its first event and closed at the decision without writing anything."""
    key, kinds, phase, *players = rec
    return [key, True, None, None, (), (), (), tuple(zip(kinds, players, strict=True)), phase, players[0]]


def move_close_code(ind: str) -> list[str]:
    """The lines with which generated code closes a move's step after the move's effect, played
    in place (interpreter/compiler/machine.py): when the open step is still the move's own (a
    procedure's step would have replaced it with an automatic one) and wrote no map or record
    whole, what `TraceRecorder._close` does then, without the call; when it is an automatic step
    that noted and wrote nothing (a procedure's step at the effect's end, made its caller's again
    by `pop_rule_code`: checkers crowns after every move), dropped as `_close` drops it; else the
    call."""
    return [f"{ind}st = G._step",
            f"{ind}if st is not None and st[{AUTO}] is False and not G._jdict:  # decided: kept",
            *kept_close_code("st", ind + "    "),
            f"{ind}elif st is not None and {_renewable('st')}:  # nothing to keep: dropped",
            f"{ind}    G._step = None",
            f"{ind}    G._jdict = False",
            f"{ind}else:",
            f"{ind}    G._close()"]


def push_rule_code(key: str, ind: str, in_place: bool = False) -> list[str]:
    """The lines with which generated code starts a procedure's or device's own step (`key`, a
    Python string display), leaving the caller's key in `prev`: what `prev = G.push_rule(key)`
    does, written out (`_open`, `_renew`), and a move's step (a decision's: kept whatever it
    wrote) closed in place when no map or record was written whole. Checkers crowns after
    every move, and the calls were a tenth of a traced game. `in_place`: an automatic step
    that wrote is closed in place too (`auto_close_code`)."""
    new = [f"{ind}    G._step = {auto_step_code(key, 'G.phase', 'G.current')}",
           f"{ind}    G._jmark = len(G.journal)"]
    return _caller_step_ended(key, ind, new, _renew_code("st", key, ind + "    "), new, in_place)


# A step's close written out where generated code ends an automatic step (a procedure's or
# device's, or its caller's as one starts): `_close`'s common case there, an automatic step
# that wrote and noted nothing (no map or record written whole), without the call; any other
# step is closed by `_close` (`step closed in place`, `CodeGen.AUTO_CLOSED_IN_PLACE`: some 600
# of the 1,070 closes of a traced Shogun game). An automatic step never has a decision.
_CLOSE_LOCALS = ("_co", "_cn")


def auto_close_code(st: str, ind: str, known: bool = False, mark: str = "G._jmark") -> list[str]:
    """The lines that close the open step `st` as `_close` does, its common case at the end of
    an automatic step written out: kept when a write changed something (its first entry tested
    here, the others by `_changed_after`), as the range of the journal it wrote. `known`: the
    code knows `st` is that case (open, automatic, wrote, noted nothing, no map or record
    written whole); else it tests that first and calls `_close` for any other. `mark`: where
    the step's entries start (`G._jmark`, or a local holding it)."""
    co, cn = _CLOSE_LOCALS
    out = []
    if not known:
        out += [f"{ind}if {st} is None or G._jdict or {st}[{AUTO}] is not True or {st}[{EVENTS}] or {st}[{CHANCE}]"
                f" or len(G.journal) == {mark}:",
                f"{ind}    G._close()",
                f"{ind}else:  # automatic, wrote, noted nothing: kept if a write changed something (_close)"]
        ind += "    "
    return [*out,
            f"{ind}G._step = None",
            f"{ind}{co} = G.journal[{mark} + 2]",  # the first entry's old and new (ENTRY)
            f"{ind}{cn} = G.journal[{mark} + 3]",
            f"{ind}if not ({co} is {cn} or (type({co}) is type({cn}) and {co} == {cn})) or G._changed_after({mark}):",
            f"{ind}    {st}[{CHANGES}] = range({mark}, len(G.journal))",
            f"{ind}    G._steps.extend({st})"]


def _caller_step_ended(key: str, ind: str, if_none: list[str], if_renewable: list[str],
                       after_close: list[str], in_place: bool = False) -> list[str]:
    """The lines that end the caller's step as a procedure's or device's own step starts,
    leaving the caller's key in `prev` (`push_rule_code`, `quiet_push_code`); each branch then
    goes on with the caller's lines: no step open (`if_none`), an automatic one that noted and
    wrote nothing (`if_renewable`, after `prev` is set), any other, once it is closed
    (`after_close`; `in_place`: by `auto_close_code`). A watched game calls `G.push_rule`."""
    other = auto_close_code("st", ind + "        ") if in_place else [f"{ind}        G._close()"]
    return [f"{ind}st = G._step",
            f"{ind}if G._watched:",
            f"{ind}    prev = G.push_rule({key})",
            f"{ind}elif st is None:",
            f"{ind}    prev = None",
            *if_none,
            f"{ind}elif {_renewable('st')}:",
            f"{ind}    prev = st[{KEY}]",
            *if_renewable,
            f"{ind}else:",
            f"{ind}    prev = st[{KEY}]",
            f"{ind}    if st[{AUTO}] is False and not G._jdict:",
            *kept_close_code("st", ind + "        "),
            f"{ind}    else:",
            *other,
            *after_close]


def pop_rule_code(ind: str, in_place: bool = False) -> list[str]:
    """The lines that end the step `push_rule_code` started: what `G.pop_rule(prev)` does,
    written out (the procedure's step, if it noted and wrote nothing, made the caller's again
    as `_renew` does; else closed, and the caller's goes on in a new one). `in_place`: the
    close's common case written out (`auto_close_code`)."""
    def close(at: str) -> list[str]:
        return auto_close_code("st", at) if in_place else [f"{at}G._close()"]
    return [f"{ind}st = G._step",
            f"{ind}if G._watched:",
            f"{ind}    G.pop_rule(prev)",
            f"{ind}elif prev is None:",
            *close(ind + "    "),
            f"{ind}elif st is not None and {_renewable('st')}:",
            *_renew_code("st", "prev", ind + "    "),
            f"{ind}else:",
            *close(ind + "    "),
            f"{ind}    G._step = {auto_step_code('prev', 'G.phase', 'G.current')}",
            f"{ind}    G._jmark = len(G.journal)"]


def quiet_push_code(key: str, ind: str, in_place: bool = False) -> list[str]:
    """`push_rule_code` for a procedure whose body only writes state (`quiet_body`: it notes
    nothing, opens no step and calls nothing that could): its step is opened only if it wrote
    something (`quiet_pop_code`), where most such calls write nothing (checkers crowns after
    every move, mostly nobody). The caller's step is ended as `push_rule_code` ends it; `st`
    is left the caller's step while it is open and could be renewed, None once closed, and
    `jm` the journal's length."""
    first, *rest = _caller_step_ended(key, ind, [], [], [f"{ind}    st = None"], in_place)
    return [first, f"{ind}jm = len(G.journal)", *rest]


def quiet_pop_code(key: str, ind: str, in_place: bool = False) -> list[str]:
    """The end of a step `quiet_push_code` began: when the procedure wrote nothing, what
    `pop_rule_code` leaves after `push_rule_code` (its step dropped: the caller's goes on in
    the step it had, renewed, or in a new one); else its step made as `push_rule_code` makes
    it (the phase and player cannot have changed: `quiet_body`) and ended as `pop_rule_code`
    ends a step that wrote, its list (copied into `game._steps` or dropped) then the caller's
    new step: the same slots as a new list's (automatic, nothing noted, the same phase and
    player), one list fewer."""
    return [f"{ind}if G._watched:",
            f"{ind}    G.pop_rule(prev)",
            f"{ind}elif len(G.journal) == jm:  # it wrote nothing: its step would be dropped",
            f"{ind}    G._jdict = False",
            f"{ind}    if prev is None:",
            f"{ind}        G._jmark = jm",
            f"{ind}    elif st is not None:",
            *[f"{ind}        {x.strip()}" for x in _renew_code("st", "prev", "")[1:4]],
            f"{ind}    else:",
            f"{ind}        G._step = {auto_step_code('prev', 'G.phase', 'G.current')}",
            f"{ind}        G._jmark = jm",
            f"{ind}else:  # it wrote: its step as push_rule_code made it, ended as pop_rule_code ends it",
            f"{ind}    if st is None:",
            f"{ind}        st = G._step = {auto_step_code(key, 'G.phase', 'G.current')}",
            f"{ind}        G._jmark = jm",
            f"{ind}    else:",
            *_renew_code("st", key, ind + "        "),
            *(auto_close_code("st", ind + "    ", known=True, mark="jm") if in_place else
              [f"{ind}    G._close()  # it wrote: not renewable"]),
            f"{ind}    if prev is not None:  # the caller goes on in a new step: the list, closed, used again",
            f"{ind}        st[{KEY}] = prev",
            f"{ind}        st[{CHANGES}] = None",
            f"{ind}        G._step = st",
            f"{ind}        G._jmark = len(G.journal)"]


def _renewable(st: str) -> str:
    """The test of `TraceRecorder._renew`: step `st` is automatic and noted and wrote nothing."""
    return f"{st}[{AUTO}] is True and not ({st}[{EVENTS}] or {st}[{CHANCE}]) and len(G.journal) == G._jmark"


def _renew_code(st: str, key: str, ind: str) -> list[str]:
    """What `TraceRecorder._renew` does to a renewable step `st`, made a new step of `key`."""
    return [f"{ind}{st}[{KEY}] = {key}", f"{ind}{st}[{BINDINGS}] = None", f"{ind}{st}[{PHASE}] = G.phase",
            f"{ind}{st}[{PLAYER}] = G.current", f"{ind}G._jdict = False"]


class TraceRecorder:
    """Mixed into Game: the open step, and the methods generated code calls while tracing."""

    # True on a game whose rule entries are watched through `_open` and `_renew`
    # (interpreter/tools/simulate.py, `Firings.watch`): procedures and devices then start and
    # end their steps by calling `push_rule` and `pop_rule`, not in their own code
    _watched = False

    def _open(self, key: str, automatic: bool, bindings: dict | None, decision: dict | None,
              checks: Any = ()) -> None:
        st = self._step
        if st is not None:
            if len(self.journal) == self._jmark:  # `_close` of a step that wrote nothing, without the call
                self._jdict = False
                if st[DECISION] or st[EVENTS] or st[CHANCE]:
                    st[CHANGES] = ()
                    self._steps.extend(st)
            else:
                self._close()
        self._step = [key, automatic, bindings, decision, checks, None, (), (),
                      self.phase, decision["by"] if decision else self.current]
        self._jmark = len(self.journal)

    def _reopen_turns(self, rec: tuple) -> None:
        """Open again the flow's step generated code kept as a tuple (`turns_step`), to note
        what follows in it (no player could move: generated code notes that next)."""
        st = turns_step(rec)
        st[CHANGES] = None
        self._step = st
        self._jmark = len(self.journal)

    def _note(self, slot: int, item: Any) -> None:
        """Add an event or a chance record to the open step: its tuple made one longer (a list
        would stay tracked by the collector to the game's end: the slots' comment above)."""
        self._step[slot] += (item,)

    def push_rule(self, key: str) -> str | None:
        """Traced games only: the changes that follow belong to rule `key` (a procedure or a
        device). An open automatic step that has noted and written nothing would be dropped
        by `_close`, so its list is used again for the new step (`_renew`): a procedure is
        mostly called where its caller's step is still empty, and the churn of steps opened and
        dropped around each call was a few percent of a traced Shogun game."""
        st = self._step
        if st is None:
            self._open(key, True, None, None)
            return None
        prev = st[KEY]
        if not self._renew(st, key):
            self._open(key, True, None, None)
        return prev

    def pop_rule(self, prev: str | None) -> None:
        """The rule that called the procedure (`prev`, from `push_rule`) goes on in a step of its own."""
        st = self._step
        if prev is None:
            self._close()
        elif st is None or not self._renew(st, prev):
            self._open(prev, True, None, None)

    def _renew(self, st: list, key: str) -> bool:
        """Make the open step `st` a new automatic step of rule `key`, as `_open(key, True, None,
        None)` would after closing it, if closing would drop it (automatic, nothing noted or
        written); whether it did. Generated code does the same in place (`pop_rule_code`)."""
        if st[AUTO] is True and not (st[EVENTS] or st[CHANCE]) and len(self.journal) == self._jmark:
            st[KEY] = key
            st[BINDINGS] = None
            st[PHASE] = self.phase
            st[PLAYER] = self.current
            self._jdict = False
            return True
        return False

    def _auto(self, frame: list) -> None:
        """Make the open step the automatic step of `frame`'s rule, opening it if need be: what
        `_open(key, True, None, None)` does, written out (blocks call this before each run of
        statements: some 200-250 opened a traced Shogun or Root game)."""
        key = frame[3]
        phase = self.phase
        if key == "flow" and frame[0] is not None and phase is not None:
            key = f"phase:{phase}"
        st = self._step
        if st is None or st[KEY] != key:
            if st is None:
                pass
            elif len(self.journal) == self._jmark:  # `_close` of a step that wrote nothing, without the call
                self._jdict = False
                if st[DECISION] or st[EVENTS] or st[CHANCE]:  # the flow's turn events: kept
                    st[CHANGES] = ()
                    self._steps.extend(st)
            else:
                self._close()
            self._step = [key, True, None, None, (), None, (), (), phase, self.current]
            self._jmark = len(self.journal)

    def _quiet_steps(self, key: str, jm: int) -> None:
        """The steps a quiet procedure's tail form (`PT_n`, interpreter/compiler/quiettail.py),
        which left its caller's step open, makes when its body wrote from journal length `jm`
        on, or failed: those `P_n` would have made (`quiet_push_code` with the journal as it was
        at the call, then `quiet_pop_code`), its writes then put back."""
        journal = self.journal
        wrote = journal[jm:]
        del journal[jm:]
        st = self._step  # quiet_push_code: the caller's step ended (renewed where empty)
        if st is None:
            prev = None
        elif st[AUTO] is True and not (st[EVENTS] or st[CHANCE]) and len(journal) == self._jmark:
            prev = st[KEY]
        else:
            prev = st[KEY]
            if st[AUTO] is False and not self._jdict:  # kept_close_code
                self._step = None
                st[CHANGES] = range(self._jmark, len(journal))
                self._steps.extend(st)
            else:
                self._close()
            st = None
        journal.extend(wrote)
        if not wrote:  # quiet_pop_code, when it wrote nothing (it failed)
            self._jdict = False
            if prev is None:
                self._jmark = jm
            elif st is not None:
                st[BINDINGS], st[PHASE], st[PLAYER] = None, self.phase, self.current
            else:
                self._step = [prev, True, None, None, (), None, (), (), self.phase, self.current]
                self._jmark = jm
            return
        if st is None:  # quiet_pop_code, when it wrote
            st = self._step = [key, True, None, None, (), None, (), (), self.phase, self.current]
            self._jmark = jm
        else:
            st[KEY], st[BINDINGS], st[PHASE], st[PLAYER] = key, None, self.phase, self.current
            self._jdict = False
        self._close()
        if prev is not None:
            st[KEY] = prev
            st[CHANGES] = None
            self._step = st
            self._jmark = len(journal)

    def _event(self, frame: list, ev: dict) -> None:
        self._auto(frame)
        self._note(EVENTS, ev)

    def note_event(self, ev: dict) -> None:
        """An event of the step that is open (the engine's own, e.g. a move taken back)."""
        self._note(EVENTS, ev)

    def note_chance(self, kind: str, what: str, outcome: Any, args: Any = None,
                    detail: Any = None) -> None:
        """One chance event of the open step; a device adds its inputs and the `detail` its roll
        gave (`result ... with DETAIL`: what stays inside a tower), if any."""
        if not self.record or self.quiet_chance:
            return
        if self._step is None:
            self._auto(self.frames[-1] if self.frames else [None, None, None, "flow"])
        # kept as a tuple of the values as they are now, made the trace's record when read
        # (`chance_record`): a tower's throw notes three maps, and most steps are never read
        self._note(CHANCE, (kind, what, _kept(outcome), None if args is None else _kept(args),
                            None if detail is None else _kept(detail)))

    def note_reveal(self, text: str, value: Any, to: str | None) -> None:
        if self._step is None:
            self._auto(self.frames[-1])
        ev = {"event": "reveal", "what": text, "value": jsonable(value)}
        if to is not None:
            ev["to"] = to
        self._note(EVENTS, ev)

    def note_log(self, message: str) -> None:
        if self._step is None:
            self._auto(self.frames[-1])
        self._note(EVENTS, {"event": "log", "message": message})

    def open_decision(self) -> bool:
        """Whether the open step is a decided one (closed when its rule's frame is popped)."""
        return self._step is not None and self._step[AUTO] is False

    def _close(self) -> None:
        """Finish the open step: keep it if it decided, changed, noted or drew anything. A kept
        step keeps the journal's entries as they are, and they become changes when the trace is
        read (`_cook`); one that wrote a map or record as a whole where a deeper write can
        change it in place later (generated code sets `_jdict`) has them worked out now.
        Some thousand calls a traced Shogun or Root game (the commonest traced-only function by
        bytecodes): the journal's bounds are read once, and whether the step decided, noted or
        drew is asked only where the answer matters (a step that wrote and did not decide is
        tested first at its first entry, which mostly changed something)."""
        st = self._step
        if st is None:
            return
        self._step = None
        mark = self._jmark
        end = len(self.journal)
        if end == mark:  # it wrote nothing (most automatic steps)
            self._jdict = False
            if st[DECISION] or st[EVENTS] or st[CHANCE]:
                st[CHANGES] = ()
                self._steps.extend(st)
            return
        if self._jdict:  # a dict written whole: its changes worked out now (it can change in place)
            self._jdict = False
            if st[BINDINGS] is DEFERRED and type(st[DECISION]) is Action:  # its entries are not kept
                ca = self.prog.actions[st[DECISION].name]
                st[CHECKS] = deferred_explain(ca, st[DECISION].args, st[CHECKS], st[PLAYER], self.journal[mark:])
                st[BINDINGS] = None
            changes = changes_of(self.journal[mark:])
            if changes or st[DECISION] or st[EVENTS] or st[CHANCE]:
                st[CHANGES] = changes
                self._steps.extend(st)
            return
        # the entries hold values that stay as they are: kept as a range, worked out when read
        if not (st[DECISION] or st[EVENTS] or st[CHANCE]):  # automatic: kept if a write changed something
            journal = self.journal
            old, new = journal[mark + 2], journal[mark + 3]  # the first entry's old and new (ENTRY)
            if old is new or (type(old) is type(new) and old == new):
                for i in range(mark + 2 + ENTRY, end, ENTRY):  # the other entries'
                    old, new = journal[i], journal[i + 1]
                    if not (old is new or (type(old) is type(new) and old == new)):
                        break
                else:
                    return
        st[CHANGES] = range(mark, end)
        self._steps.extend(st)

    def _changed_after(self, mark: int) -> bool:
        """Whether a journal entry after the first from `mark` on changed its value (the test of
        `_close` for an automatic step whose first entry did not; `auto_close_code`)."""
        journal = self.journal
        for i in range(mark + 2 + ENTRY, len(journal), ENTRY):
            old, new = journal[i], journal[i + 1]
            if not (old is new or (type(old) is type(new) and old == new)):
                return True
        return False

    def _slots_of(self, changes: Any) -> Any:
        """The journal slots of a step's CHANGES slot: a range of the journal, or the entries
        themselves once settled (`settle_changes`); `()` when it wrote nothing."""
        if type(changes) is range:
            return self.journal[changes.start:changes.stop]
        return changes if type(changes) is list else ()

    def _emit_result(self) -> None:
        steps = self._steps
        # a step's last slot is its player (a str or None): a dict there is the result (WIDTH)
        if steps is not None and (not steps or type(steps[-1]) is not dict or "result" not in steps[-1]):
            steps.append({"result": self.result})

    @property
    def trace(self) -> list[dict] | None:
        """The steps so far (docs/traces.md), or None for an untraced game."""
        steps = self._steps
        if steps is None:
            return None
        trace = self._trace
        if self._cooked < len(steps):  # the flat slots of the steps since the last read (WIDTH)
            for i in step_starts(steps, self._cooked):
                first = steps[i]
                if type(first) is str:  # a step's key: its slots
                    trace.append(self._cook(steps[i:i + WIDTH], len(trace)))
                elif type(first) is tuple:  # a flow's step of turn events (turns_step)
                    trace.append(self._cook(turns_step(first), len(trace)))
                else:  # the result
                    trace.append(first)
            self._cooked = len(steps)
        return trace

    def _cook(self, st: list, number: int) -> dict:
        prog = self.prog
        key = st[KEY]
        info = prog.rules.get(key) or {"name": key, "source": [], "spec": [], "quote": None, "at": None}
        checks = st[CHECKS]
        hidden = prog.hidden
        bindings = st[BINDINGS]
        changes = st[CHANGES]
        decision = st[DECISION]
        if type(decision) is Action and type(bindings) is str:  # a choice of a plain value
            bindings = {bindings: decision.args[0]}
            decision = {"kind": "choose", "by": st[PLAYER], "action": str(decision)}
        elif type(decision) is Action:  # a move of plain values: its records made now
            ca = prog.actions[decision.name]
            if bindings is DEFERRED:  # its checks too, from its journal entries
                checks = deferred_explain(ca, decision.args, checks, st[PLAYER], self._slots_of(changes))
            elif bindings is STATE_KEPT:  # ... or from the state it kept
                checks = kept_explain(ca, decision.args, checks, self.work_budget)
            checks = (ca, checks) if checks else ()
            secret = bindings is IN_PART
            bindings = bindings_of(ca, decision.args)
            decision = {"kind": "action", "by": st[PLAYER],
                        "action": prog.move_texts.get(id(decision)) or str(decision)}
            if secret:  # a part's move of a `simultaneously`
                decision["simultaneous"] = True
        return {
            "step": number,
            "phase": st[PHASE],
            "player": st[PLAYER],
            "rule": info["name"],
            "kind": key.split(":", 1)[0],
            "source": info["source"],
            "spec": info["spec"],
            "quote": info["quote"],
            "at": info["at"],
            "bindings": {} if bindings is None else bindings,
            "checks": cooked_checks(*checks) if type(checks) is tuple and checks else list(checks),
            "changes": [_change(path, old, new, hidden) for path, old, new in (
                changes_of(self.journal[changes.start:changes.stop] if type(changes) is range else changes)
                if type(changes) is not tuple else changes)],
            "chance": [chance_record(c) for c in st[CHANCE]],
            "events": [event_record(e) for e in st[EVENTS]],
            "automatic": st[AUTO],
            "decision": decision,
            **({"note": info["note"]} if "note" in info else {}),  # authored words, apart from the quote
        }


_PLAIN = (str, int, bool, type(None))
_PLAIN_TYPES = frozenset(_PLAIN)


def settle_changes(steps: list, first: int, journal: list) -> None:
    """Steps from `first` on that keep their changes as a range of `journal` keep the entries
    themselves (their slots, flat) instead: before the steps are shared with a copy that has a journal of its own
    (`Game.clone`; `abandon`'s roll-back starts a new one from such a copy)."""
    for i in step_starts(steps, first):  # a step's slots are flat (WIDTH)
        if type(steps[i]) is str:  # a step's key: its CHANGES slot may hold a range
            r = steps[i + CHANGES]
            if type(r) is range:
                steps[i + CHANGES] = journal[r.start:r.stop]


def step_starts(steps: list, first: int = 0, end: int | None = None) -> Iterator[int]:
    """The index of each closed step's first slot in the flat `steps`, from `first` (a step's
    start) up to `end` (one too, or the end): a step whose first slot is its key has WIDTH
    slots, a flow's tuple of turn events and the result one."""
    i, end = first, len(steps) if end is None else end
    while i < end:
        yield i
        i += WIDTH if type(steps[i]) is str else 1


def entries(journal: list, start: int = 0) -> zip:
    """The entries (container, key, old, new, path) of a flat journal (ENTRY slots each) from
    slot `start` (an entry's first) on, as tuples."""
    it = iter(journal[start:])
    return zip(it, it, it, it, it, strict=True)


def entry_path(entry: tuple) -> tuple:
    """The state path a journal entry wrote. An entry (container, key, old, new, path) of a write
    one key deep (`cell[s]`, most writes) holds its variable's name as its path, for (name, key):
    generated code makes no tuple per write (interpreter/compiler/codegen.py `target_parts`)."""
    path = entry[4]
    return (path, entry[1]) if type(path) is str else path


def container_of(entry: tuple, state: dict) -> Any:
    """The dict a journal entry wrote into. An entry (container, key, old, new, path) of a write
    one key deep or of a whole variable holds None as its container (generated code,
    interpreter/compiler/codegen.py `write`): the collector then untracks an entry of plain
    values, where a traced game keeps thousands to its end and the full collections they set off
    walked the whole heap. Undo reverts the entries newest first, so when it reaches one, `state`
    holds the very dicts it wrote into: the variable's (`state[name]`) or `state` itself (state
    put in place other than by the rules starts a new journal, `abandon`'s roll-back, or keeps a
    snapshot at the next decision, `invalidate`)."""
    container, path = entry[0], entry[4]
    if container is not None:
        return container
    return state[path] if type(path) is str else state


def member_keys(old: object, new: object) -> frozenset:
    """The elements whose membership a whole write of a set changed, from its journal entry's
    old and new value: an invariant that reads the set as `x in s` (reads.pointwise_reads) is
    tested at those."""
    return frozenset(old or ()) ^ frozenset(new or ())


def keys_written(journal: list, start: int, names: frozenset[str], wholes: tuple[tuple[str], ...]) -> set | None:
    """The keys of the maps `names` (of plain values: every write is of one entry or of the whole
    map) that the journal's entries from slot `start` on wrote, found in C; None when one of them
    was written whole (`wholes`: their paths `(name,)`), so that nothing kept of it holds. A
    grouped invariant's kept sums are brought up to date at these keys (invtests.py `INVS_n`)."""
    paths = journal[start + 4::ENTRY]
    if not KEYS_BY_ONE_TEST:
        for whole in wholes:
            if whole in paths:
                return None
        return set(compress(journal[start + 1::ENTRY], map(names.__contains__, paths)))
    # one hashed test an entry (`keys by one test`): `whole in paths` compared each path with
    # each whole in turn, a rich comparison of a tuple with a str for most entries
    picked = list(map(_names_and_wholes(names, wholes).__contains__, paths))
    for path in compress(paths, picked):
        if type(path) is tuple:  # one of `wholes`
            return None
    return set(compress(journal[start + 1::ENTRY], picked))


# `keys by one test`: `keys_written` picks the entries of its maps, one key deep or whole, by one
# membership test of their path, then looks among the few picked for a whole write. Off: tests
# compare.
KEYS_BY_ONE_TEST = True
_BOTH: dict[tuple, frozenset] = {}


def _names_and_wholes(names: frozenset[str], wholes: tuple[tuple[str], ...]) -> frozenset:
    """The paths `keys_written` picks: `names` (an entry one key deep) and `wholes` (a whole
    write), one set per pair of a program's constants (`INVS_n`'s, one a grouped invariant)."""
    key = (names, wholes)
    both = _BOTH.get(key)
    if both is None:
        both = names | frozenset(wholes)
        if len(_BOTH) < 256:  # bounded: a process may compile many programs
            _BOTH[key] = both
    return both


def entry_var(entry: tuple) -> str:
    """The state variable a journal entry wrote (the first name of its path)."""
    path = entry[4]
    return path if type(path) is str else path[0]


def _kept(value: Any) -> Any:
    """A noted value as it is now, for `chance_record` to make JSON later: plain values and lists
    of them as they are (lists are never changed in place), a map or record of plain values
    copied (dicts change in place), one of others and a list of others item by item (the
    tower's detail, a map of maps, noted at every throw), anything else made JSON now."""
    t = type(value)
    if t in _PLAIN:
        return value
    if t is dict:  # the types of its values tested in C (a tower's throw notes a few a step)
        if _PLAIN_TYPES.issuperset(map(type, value.values())):
            return value.copy()
        return {k: _kept(x) for k, x in value.items()}
    if t is list:
        if _PLAIN_TYPES.issuperset(map(type, value)):
            return value
        return [_kept(x) for x in value]  # a device's inputs: the maps thrown in
    return jsonable(value)


def chance_record(entry: tuple) -> dict:
    """A chance event of a step as the trace has it, from what `note_chance` kept: its kind, what
    it is, its outcome, and a device's inputs and detail when it has them, as JSON values."""
    kind, what, outcome, args, detail = entry
    record = {"kind": kind, "what": what, "outcome": jsonable(outcome)}
    if args is not None:
        record["inputs"] = jsonable(args)
    if detail is not None:
        record["detail"] = jsonable(detail)
    return record


def changes_of(written: list) -> tuple:
    """Journal entries (container, key, old, new, path), their slots flat (ENTRY), as a step's
    changes (path, old, new): the writes that changed something, dicts copied (they change in
    place later)."""
    changes = []
    for (_c, key, old, new, path) in entries(written):
        if old is new or (type(old) is type(new) and old == new):
            continue  # written but not changed
        if type(old) is dict:
            old = jsonable(old)
        if type(new) is dict:
            new = jsonable(new)
        changes.append(((path, key) if type(path) is str else path, old, new))
    return tuple(changes)


def _change(path: tuple, old: Any, new: Any, hidden: dict[str, str]) -> dict:
    ch = {"path": _path_text(path),
          "old": None if old is MISSING else (old if type(old) in _PLAIN else jsonable(old)),
          "new": new if type(new) in _PLAIN else jsonable(new)}
    how = hidden.get(path[0])
    if how == "all":
        ch["hidden"] = True
    elif how == "owner":
        if len(path) > 1:
            ch["owner"] = path[1]
        else:  # the whole map written at once: each player sees only their own entry
            ch["per_owner"] = True
    return ch


def raw_checks(ca: Any, args: tuple, game: Any, errors: tuple) -> tuple:
    """A decided action's checks as its explain function gives them, with values that could
    still change (dicts) copied now; `cooked_checks` turns them into trace records."""
    try:  # the explain function copies values that could still change (codegen.explained)
        return (ca, ca.explain(game, *args))
    except errors:
        return ()


class _Before:
    """A state map as it was before a step, read from the step's journal entries (`Game.vars`'
    map for `deferred_explain`): an entry the step did not write was not read by its checks."""

    __slots__ = ("name", "before")

    def __init__(self, name: str, before: dict) -> None:
        self.name, self.before = name, before

    def __getitem__(self, key: Any) -> Any:
        value = self.before.get((self.name, key), MISSING)
        if value is MISSING:
            raise KeyError(key)
        return value


class _BeforeGame:
    """What a move's explain function reads of the game (`vars`, `current`, `_xpre`), as it
    was when the move was played: for `deferred_explain`."""

    __slots__ = ("vars", "current", "_xpre")

    def __init__(self, before: dict, current: Any, xpre: dict) -> None:
        self.vars = {name: _Before(name, before) for name in {k[0] for k in before}}
        self.current, self._xpre = current, xpre


def deferred_explain(ca: Any, args: tuple, kept: Any, player: Any, slots: Any) -> tuple:
    """A `deferred checks` move's checks, as its explain function gave them when the move was
    played: the entries it read are those the effect wrote first, and the first journal entry
    of each holds the value before the move as its old value (actiongen `deferred_checks`
    proves it); `kept` is the listing's kept entries (`G._xpre`: one, or a tuple of them)."""
    before: dict = {}
    for i in range(0, len(slots), ENTRY):
        path = slots[i + 4]
        if type(path) is str:  # an entry one key deep: (None, key, old, new, variable)
            before.setdefault((path, slots[i + 1]), slots[i + 2])
    n = ca.deferred
    xpre = {ca.name: [kept] if n == 1 else list(kept)} if n else {}
    try:
        return ca.explain_offered(_BeforeGame(before, player, xpre), *args)
    except (RuleFailure, *RULE_ERRORS):
        return ()


class _KeptGame:
    """What a `state kept for checks` move's explain function reads of the game (compile
    `_KEPT_GAME_READS`): the state it kept, the mover and a fresh work budget, as `Game.
    _take_recorded` would have explained the move (the budget counted as `out_of_work` does)."""

    __slots__ = ("vars", "current", "work", "_worked", "work_budget")

    def __init__(self, state: dict, current: Any, budget: int) -> None:
        self.vars, self.current, self.work, self._worked, self.work_budget = state, current, WORK_CHUNK, 0, budget

    def out_of_work(self, span: Any) -> None:
        used = self._worked + WORK_CHUNK - self.work
        self._worked, self.work = used, WORK_CHUNK
        if used > self.work_budget:
            raise BudgetExceeded("the work budget of an explanation", span)


def kept_explain(ca: Any, args: tuple, kept: tuple, budget: int) -> tuple:
    """A `state kept for checks` move's checks: its explain function run on the state copied
    when the move was played (`kept`: the mover, then the variables `ca.state_kept` names)."""
    try:
        return ca.explain_offered(_KeptGame(dict(zip(ca.state_kept, kept[1:], strict=True)), kept[0], budget), *args)
    except (RuleFailure, *RULE_ERRORS):
        return ()


def cooked_checks(ca: Any, results: list) -> list[dict]:
    """An explain function's results as trace records: each is (index of the require, its
    value, the texts of its sub-expressions, then their values, MISSING for one not evaluated):
    flat, one tuple a check (codegen.CodeGen.explained, `packed`)."""
    out = []
    for idx, value, texts, *values in results:
        req = ca.requires[idx]
        out.append({
            "require": ca.require_texts[idx],
            "at": f"{req.span.line}:{req.span.column}",
            "message": req.message,
            "value": bool(value),
            "values": {t: (v if type(v) in _PLAIN else jsonable(v))
                       for t, v in zip(texts, values, strict=True) if v is not MISSING},
        })
    return out


def _path_text(path: tuple) -> str:
    if len(path) == 2 and type(path[1]) is str and path[1].isidentifier():  # cell[b2]
        return f"{path[0]}[{path[1]}]"
    out = str(path[0])
    for k in path[1:]:
        out += f"[{value_text(k)}]"
    return out
