"""The engine: one Game is one play of a compiled Program.

Everything a game is lives in plain data on this object (interpreter/engine/saves.py declares it):
the state store (`vars`), the current player and phase, the generator state (one int), the
frames of the blocks that are running (block, pc, locals, rule) and the pending decision.
That is why `clone` is a copy of dicts and `to_json` is a dump; no Python generator or closure
holds game state. Between decisions the compiled block functions run (interpreter/compiler/machine.py);
this class asks them to run, offers the legal moves, plays one, and explains refusals.
"""

from __future__ import annotations

import contextlib
import random
import sys
from collections import deque
from collections.abc import Callable, Iterator
from fractions import Fraction
from itertools import compress
from typing import TYPE_CHECKING, Any, NamedTuple

from ..stdlib import rng
from . import explicit as _explicit
from .canonical import interned
from .carried import kept_for_clone
from .errors import RULE_ERRORS as _RULE_ERRORS
from .errors import Abandoned, EngineError, IllegalAction, InvariantBroken, RuleFailure
from .limits import (
    TIME_LIMIT,
    UNDO_EVERY,
    WORK_BUDGET,
    WORK_CHUNK,
)
from .locate import failing_rule, plain, statement_span
from .moves import Action, as_action, parse_action, same_move, same_value
from .recording import (
    ENTRY,
    IN_PART,
    STATE_KEPT,
    TraceRecorder,
    bindings_of,
    container_of,
    cooked_checks,
    entries,
    entry_var,
    member_keys,
    raw_checks,
    settle_changes,
    step_starts,
)
from .rule_calls import RuleCalls
from .runtime import MISSING
from .saves import (
    COPIED,
    State,
    check_format,
    game_to_json,
    put_state,
    read_header,
    restore_state,
    ruleset_of,
    start_state,
    state_fields,
    state_of,
)
from .saves import copy_frames as _copy_frames
from .values import jsonable, value_text

if TYPE_CHECKING:  # compiling is done by the Ruleset; a game only runs what was compiled
    from ..compiler import ir
    from ..compiler.compile import Program

__all__ = ["Action", "Explanation", "Game", "parse_action"]

PASS = Action("pass")
_CHECK_ERRORS = (RuleFailure, *_RULE_ERRORS)
_PLAIN = (str, int, bool, type(None))  # values that never change: a choice of one is kept as the move
_new = object.__new__

if tuple(f.name for f in COPIED) != ("vars", "frames"):  # pragma: no cover - a new field copied
    raise AssertionError("Game.clone, _reseeded and _reseeded_traced copy saves.COPIED's fields in "
                         "line (vars, frames): write the new one there too")
_INFOSTATE: list = []  # interpreter/observe/infostate.py once imported (see _infostate)


def _infostate() -> Any:
    """The information-state module, imported on first use (it imports the engine, so not at
    load) and then kept: an import statement in a method costs a microsecond per call, and
    the OpenSpiel bridge asks for information states and copies games thousands of times."""
    if not _INFOSTATE:
        from ..observe import infostate

        _INFOSTATE.append(infostate)
    return _INFOSTATE[0]

# Undo keeps every dynamic field but vars (the journal restores those) as it was: all are
# replaced rather than changed in place, except the frames, which are copied.
# Undo keeps a full snapshot of the fields before one move in UNDO_EVERY (limits.py; and after
# a change from outside the rules); the moves in between are played again from the nearest
# snapshot.


class GameModes(NamedTuple):
    """How a game runs: exactly `new_game`'s parameters of the same names, so
    `ruleset.new_game(players=n, **game.modes._asdict())` makes the same kind of game."""

    record: bool  # traced: `game.trace` holds the steps
    chance: str  # "sampled" (drawn from the seed) or "explicit" (a chance node per event)
    history: bool  # the moves and outcomes are kept: `game.history()`, `information_state()`


class Explanation(NamedTuple):
    """Why a move is or is not legal: the reason, where the deciding precondition stands
    (`line:col`), and each check with the values it saw."""

    legal: bool
    action: str
    reason: str
    at: str | None
    checks: list[dict]
    own_reason: str | None = None  # an action not offered now: what its own requires say


MAX_CHOICE_MOVES = 1024  # the moves of one type of option a program keeps (Program.choice_moves)


def _choice_moves(kept: dict, options: list) -> list[Action]:
    """The moves of a `choose` among `options`: each option's move made once per program, as a
    move table's are (Root's Marquise and Duchy choose among clearings, cards and actions at
    most of their decisions; each move was a new object, checked, at every one), kept by the
    option's type and then the option, so that `1` and `true` are not one key; options that are
    not hashable (records, lists) get new moves each time, a type that never hashes without a
    failed look-up per option (an exception each: Khan's choices among 16 subsets of cards). Kept by option, not by the list of
    options: the lists (a hand of cards) rarely repeat, so a cache of lists made new moves and
    lists that lived on in it, and each was promoted by the collector and set its full
    collections off sooner (docs/architecture.md §17, 2026-12-07)."""
    moves = []
    last = by_type = None
    for o in options:
        t = type(o)
        if t is not last:
            last = t
            if t.__hash__ is None:  # a list, dict or set (Khan's subsets of cards): never a key
                by_type = None
            else:
                by_type = kept.get(t)
                if by_type is None:
                    by_type = kept[t] = {}
        if by_type is None:
            moves.append(Action("choose", (o,)))
            continue
        try:
            m = by_type.get(o)
        except TypeError:  # a hashable type holding something that is not (a tuple of lists)
            moves.append(Action("choose", (o,)))
            continue
        if m is None:
            if len(by_type) >= MAX_CHOICE_MOVES:
                by_type.clear()
            m = by_type[o] = Action("choose", (o,))
        moves.append(m)
    return moves

class Game(RuleCalls, TraceRecorder):
    """One game in progress. Build it with `Ruleset.new_game`; see docs/architecture.md."""

    # the move (and the decision it answered) whose observation is not yet in `seen`:
    # interpreter/observe/infostate.py notes it when asked, or before the game changes again
    _unobserved: tuple | None = None
    # (window, player, moves): the moves listed last for a part of an open `simultaneously`.
    # A window is replaced, never changed in place, whenever a part moves, so while the game
    # holds the same window object those moves still hold (`invalidate` forgets them).
    _part_legal: tuple | None = None
    # an invariant was reported broken: from then on each is checked whole (check_invariants)
    _inv_whole = False
    # traced: grouped invariants' kept sums by invariant, (journal, its length, sums, parts),
    # brought up to date from the journal (compiler/invtests.py `INVS_n`); forgotten whenever the
    # state changes other than by the rules (put_state, invalidate, a clone)
    _invg: dict[int, tuple] | None = None
    # traced: the keys of the maps those sums read, logged by the writes themselves while sums
    # are kept (`kept by writes`: codegen.write, invtests.py); made anew when `_invg` is
    _ilog: list | None = None
    # during `playout`: how many moves the blocks may still pick and play themselves, and the
    # generator's `choice` they pick with (machine.py `pick_in_place`); 0 and None otherwise
    _picks = 0
    _pick: Callable[[list], Any] | None = None

    def __init__(self, prog: Program, players: tuple[str, ...], seed: int, options: dict,
                 ruleset: Any = None, chance: str = "sampled", history: bool = False):
        # fixed for the whole game
        self.prog = prog
        self.ruleset = ruleset  # where the program came from (saves of nested games load with it)
        self.record = prog.record
        players = interned(players)  # canonical names: the state's are these objects (canonical.py)
        self.players = players
        self.player_list = list(players)  # `Player` as a value of the rules: a list, as its type says
        self.seed = seed
        self.options = interned(options)
        self.consts = prog.constants(options)
        limits = getattr(ruleset, "limits", None) or {}  # Ruleset.set_limits, for every game of it
        self.work_budget = limits.get("work_budget") or WORK_BUDGET  # steps of work between decisions
        self.time_limit = limits.get("time_limit") or TIME_LIMIT  # seconds allowed between decisions
        if chance not in _explicit.CHANCE_MODES:
            raise EngineError(f"chance is 'sampled' or 'explicit', not {chance!r}")
        self.chance_mode = chance
        self.explicit = chance == "explicit"  # chance events are nodes (interpreter/engine/explicit.py)
        self.tracking = history or self.explicit  # moves go the long way, keeping the history
        # what each player observed is noted after every move (information states); exact
        # analysis, which never asks, turns it off on its own copy (tools/analysis.py)
        self._observing = True
        self._plain = set() if prog.record or self.tracking else prog.plain  # moves apply() plays directly
        self._blocks = prog.block_fns  # the compiled blocks, one attribute away on the hot path
        # who plays after whom, whether that starts a new round (a turn that rotates), and the
        # successor's pending record (the program's own, `PLAYING`: compiler/pendingnext.py)
        playing = prog.namespace.get("PLAYING") or {}
        self._next = {p: (nxt, i + 1 == len(players), playing.get(nxt) or {"kind": "play", "player": nxt})
                      for i, p in enumerate(players) for nxt in (players[(i + 1) % len(players)],)}
        # traced: the plain actions apply() records and plays in one short path (_take_recorded),
        # each name with its compiled action
        self._recorded = {n: prog.actions[n] for n in prog.in_place} if prog.record and not self.tracking else {}
        # traced: apply() hands an offered choice to the block that asked it (`_take_choice`)
        self._choices = prog.record and not self.tracking and prog.takes_choices
        # those apply() plays itself, by their step's rule key: checks worked out in the block, no
        # invariants to check after the move (the traced tic-tac-toe move)
        self._recorded_here = {} if prog.invariants else \
            {n: ca.key for n, ca in self._recorded.items() if ca.checks_in_place}
        # the dynamic state, one value declared once (saves.DYNAMIC, saves.State): clone, undo,
        # roll-back and saves all go through it
        put_state(self, start_state(self))
        self._template = False  # only cloned, never played (`as_template`)
        # a traced template's fields as its every new game starts with them, but for those made
        # afresh (`_reseeded`); None until its first new game is cloned the long way
        self._fresh: dict | None = None
        # `playout`'s, not bookkeeping (a move taken back within a playout keeps them): the
        # class's defaults, kept in the instance since generated code reads them at every decision
        self._picks, self._pick = 0, None
        self._bookkeeping(self.record)

    def _bookkeeping(self, record: bool) -> None:
        """What is not the game's state: caches, the trace being recorded, the undo log."""
        self.quiet_chance = 0  # > 0 inside a device's roll: its draws are not traced one by one
        self.journal: list = []
        self._steps: list | None = [] if record else None  # closed steps, their slots flat (recording.WIDTH, step_starts)
        self._trace: list[dict] | None = [] if record else None  # read as `trace`: the steps cooked
        self._cooked = 0  # the slots of `_steps` before this one are cooked into `_trace`
        self._settled = 0  # kept steps before this one hold their changes, not a range (clone)
        self._step: dict | None = None
        self._jmark = 0
        self._jdict = False  # the open step wrote a map or record whole (recording.py, _close)
        self._legal: list[Action] | None = None
        # the moves of `_legal` not taken back at this decision: (`_legal`, `abandoned`, the moves),
        # both matched by identity (each is replaced, never changed in place); `_not_taken_back`
        self._cut: tuple | None = None
        # traced: per action, the checks of its requires that need no parameter, as the listing
        # that offered its moves found them in this state (actiongen._shared_checks); forgotten
        # whenever the state changes other than by the rules (undo, invalidate, a clone)
        self._xpre: dict[str, list] = {}
        self._undo: list = []  # per decision, its move (a part's: (move, player))
        self._snaps: dict[int, tuple] = {}  # decision number -> a snapshot of the fields before it
        self._snap_next = True  # the next decision keeps a full snapshot (undo replays from it)
        # traced: the template this game was cloned from, while its state is this game's but for
        # the generator: the snapshot of the first decision, taken for free (`_keep_undo`)
        self._start_of: Game | None = None
        self._chain = 0
        self._fired: list[int] = []
        # triggers whose conditions became true where their bodies could not run (they stop for
        # a decision or jump, or a device was running): they run as soon as the rule that made
        # them true can pause (`_run`, the end of a block's run of statements, a decision point)
        self._deferred: tuple[int, ...] = ()
        self._nest = 0  # straight trigger bodies running inside one another (fire_now)
        # while a block lists the moves of a `play`: the calls its listings share, by definition
        # and arguments (interpreter/compiler/shared_calls.py); None at every other time
        self._shared: dict | None = None
        self._part: str | None = None  # the player whose part of a `simultaneously` is running
        self.work = WORK_CHUNK  # what is left of this chunk of the decision's work budget
        self._worked = 0  # work of the decision before this chunk
        self._clock = 0.0  # when the decision's first chunk ran out
        self._feed: deque = deque()  # explicit chance: the outcomes a replayed move is given

    # ------------------------------------------------------------------ set-up
    def prepare(self) -> Game:
        """Give every state variable its declared start value; the flow has not run yet."""
        if not self.frames:
            self.vars = self.prog.initial_vars(self)
            self._forget_carried()
            self.frames = [[self.prog.flow_block, 0, {}, "flow"]]
        return self

    def start(self, phase: str | None = None) -> Game:
        """Run the flow to the first decision; with `phase`, jump straight to that top-level
        phase of the flow (scenarios set up a position and begin, say, in winter)."""
        if self.pending is not None or self.result is not None or self.chance_node is not None:
            raise EngineError("the game has started already: start() is for a game made with "
                              "new_game(start=False)")
        self.prepare()
        if phase is not None and phase not in self.prog.phase_labels:
            known = ", ".join(self.prog.phase_labels) or "none"
            raise EngineError(f"no phase '{phase}' at the top of the flow (top-level phases: {known})")
        if self.tracking:  # the start may stop at a chance node (a deal), and is remembered
            _explicit.start(self, phase)
        else:
            self._start_now(phase)
        return self

    def _start_now(self, phase: str | None) -> None:
        if phase is not None:
            self.frames[0][1] = self.prog.phase_labels[phase]
        self.work, self._worked = WORK_CHUNK, 0
        self._run()
        if self.record:  # traced games (tests, debugging) also check invariants as they go
            self.check_invariants()

    def domains(self) -> dict[str, tuple]:
        d = dict(self.prog.elements)
        d["Player"] = self.players
        return d

    # ------------------------------------------------------------------ queries
    @property
    def state(self) -> State:
        """The game's dynamic state as one value (`saves.State`: vars, current, phase, round,
        the generator, frames, the pending decision, the result, ...): the values themselves,
        shared with the game, not copied; `clone()` makes an independent game."""
        return state_of(self)

    @property
    def scores(self) -> dict[str, int] | None:
        return self.prog.scores(self)

    @property
    def winners(self) -> list[str]:
        return list(self.result["winners"]) if self.result else []

    def decision_player(self) -> str | None:
        """Who decides now; None at a chance node and at the end. While a `simultaneously` waits
        for several players, the first of them (the plain `legal_actions()` and `apply()` act
        for that one; pass `player=` to act for another)."""
        p = self.pending
        if p is None:
            return None
        return p["players"][0] if p["kind"] == "simultaneous" else p["player"]

    # ------------------------------------------------------------------ chance and history
    @property
    def is_chance_node(self) -> bool:
        """Whether the game waits for a chance outcome (only with explicit chance)."""
        return self.chance_node is not None

    def chance_outcomes(self) -> list[tuple[Any, Fraction]]:
        """The outcomes of the chance event the game waits for, each with its exact
        probability (they sum to 1); empty when it waits for none."""
        node = self.chance_node
        return node.outcomes() if node is not None else []

    def chance_event(self) -> dict | None:
        """The chance event the game waits for: its kind (`roll`, `random`, `shuffle`,
        `bernoulli`) and what it is (`die 1 of 2d6`, `item 3 of 18`)."""
        node = self.chance_node
        return None if node is None else {"kind": node.kind, "what": node.what}

    @property
    def modes(self) -> GameModes:
        """The modes this game was made with, named as `new_game`'s parameters."""
        return GameModes(self.record, self.chance_mode, self.tracking)

    @property
    def chance(self) -> str:
        """`"sampled"` or `"explicit"`: `new_game`'s `chance` (also `chance_mode`)."""
        return self.chance_mode

    def history(self) -> list[tuple]:
        """The moves and chance outcomes so far, in order: `("move", player, text)` and
        `("chance", outcome number, text)`; kept with `history=True` or explicit chance."""
        if not self.tracking:
            raise EngineError("this game keeps no history: new_game(history=True) or chance=\"explicit\"")
        return _explicit.history(self)

    def information_state(self, player: str) -> str:
        """Everything `player` has observed so far, as a stable string (interpreter/observe/infostate.py)."""
        return _infostate().information_state(self, player)

    def observation(self, player: str) -> str:
        """What `player` observes now, as a stable string."""
        return _infostate().observation(self, player)

    def observation_tensor(self, player: str) -> list[float]:
        """`observation(player)` as numbers, laid out by the declared types (interpreter/observe/encode.py)."""
        from ..observe.encode import encoder

        if player not in self.players:
            raise EngineError(f"unknown player '{player}'; players: {', '.join(self.players)}")
        return encoder(self).encode(self, player)

    def observation_shape(self) -> tuple[int]:
        """The length of every `observation_tensor` of this ruleset, player count and options."""
        from ..observe.encode import encoder

        return (encoder(self).size,)

    def offered(self) -> tuple[tuple[str, ...], bool]:
        """The actions the pending `play` offers and whether it may be passed: what the flow
        says here, whoever asks; ((), False) at a choice, at a chance node and at the end."""
        p = self.pending
        if p is None or p["kind"] != "play" or self.result is not None:
            return (), False
        op = self._op()
        return tuple(op.actions), bool(op.optional)

    def _op(self) -> ir.Op:
        """The `play` op the pending decision stands at. A rule that failed part-way through a
        step (RuleFailure, BudgetExceeded) can leave the decision noted but the flow elsewhere:
        said so, not a Python error (docs/api.md: discard such a game, restore a clone or undo)."""
        frame = self.frames[-1]
        op = self.prog.blocks[frame[0]].ops[frame[1]]
        if not hasattr(op, "actions"):
            raise EngineError("the game stopped part-way through a step when a rule failed: discard it, "
                              "restore a clone() taken before, or undo() a traced game")
        return op

    def _moves(self) -> list[Action]:
        """The legal moves at the pending decision, worked out once per decision."""
        legal = self._legal
        if legal is None:
            p = self.pending
            if p["kind"] == "choose":
                legal = _choice_moves(self.prog.choice_moves, p["options"])
            else:
                op = self._op()
                legal = []
                actions = self.prog.actions
                for name in op.actions:
                    actions[name].enum(self, legal)
                if op.optional:
                    legal.append(PASS)
            self._legal = legal
        return legal

    def legal_actions(self, player: str | None = None) -> list[Action]:
        """Every move the deciding player (or `player`) may make now, in a stable order; empty
        for a player who has no decision now."""
        if player is not None or (self.window is not None and self._part is None):
            if player is None and PARTS_HANDED_OUT:  # the first waiting part's moves, listed at this
                kept, w, p = self._part_legal, self.window, self.pending  # very window (`_part_moves`)
                if kept is not None and kept[0] is w and p is not None and p["kind"] == "simultaneous" \
                        and kept[1] == p["players"][0] and kept[1] in w["pending"] and not self.abandoned:
                    return kept[2].copy()  # what `_legal_for` hands out, without its four calls
            return self._legal_for(player)
        legal = self._legal
        if legal is not None and self.pending is not None and not self.abandoned:
            return legal.copy()  # the common case: a copy of the moves the block listed (not `[:]`,
            # which makes a slice object: 0.24 k more instructions a call, a tenth of the call)
        if self.pending is None:  # also when the game is over
            return []
        if legal is None:
            legal = self._moves()
        if self.abandoned:
            return self._not_taken_back(legal)
        return list(legal)

    def _not_taken_back(self, legal: list[Action]) -> list[Action]:
        """The moves of `legal` whose text is not in `abandoned`, as a new list. The filter is kept
        for the same list and the same `abandoned` (both replaced, never changed in place): after
        a move is taken back, `_roll_back`, `legal_actions()` and `apply`'s check each ask for it,
        and each move's text (Khan's conquest with its squares) is most of what it costs."""
        cut, abandoned = self._cut, self.abandoned
        if cut is None or cut[0] is not legal or cut[1] is not abandoned:
            cut = self._cut = (legal, abandoned, [a for a in legal if str(a) not in abandoned])
        return cut[2][:]

    def invalidate(self) -> None:
        """Forget cached legal moves after the state was changed from outside the rules, and make
        the texts written canonical (the rules compare names by identity: canonical.py)."""
        interned(self.vars)
        self._legal = None
        self._part_legal = None
        self._xpre = {}
        self._start_of = None
        self._snap_next = True  # undo must not play moves again across the outside change
        self._forget_carried()

    def _forget_carried(self) -> None:
        """Forget the definitions' values carried from one decision to the next (engine/carried.py):
        whoever writes `vars` other than through the rules calls this (or `invalidate`)."""
        self._carried = {}
        self._wlog = []
        if self._invg is not None:  # traced: a grouped invariant's sums (compiler/invtests.py)
            self._invg = None

    # ------------------------------------------------------------------ legality
    def explain(self, action: Any, player: str | None = None) -> Explanation:
        """Why `action` is or is not legal now for the deciding player (or `player`): the first
        failing precondition and its values."""
        if player is not None or (self.window is not None and self._part is None):
            who = self._who(player)
            if who is None or (self.window is None and who != self.decision_player()) or (
                    self.window is not None and who not in self.window["pending"]):
                return Explanation(False, str(as_action(action)), f"{player} has no decision now", None, [])
            if self.window is not None:
                with self._in_part(who, copy=False):
                    return self.explain(action)
        a = as_action(action)
        text = str(a)
        p = self.pending
        if self.result is not None:
            return Explanation(False, text, "the game is over", None, [])
        if self.chance_node is not None:
            return Explanation(False, text, f"the game waits for chance ({self.chance_node.kind} "
                               f"{self.chance_node.what}): apply one of its outcomes", None, [])
        if p is None:
            return Explanation(False, text, "no decision is pending", None, [])
        if p["kind"] == "choose":
            opts = ", ".join(map(value_text, p["options"]))
            if a.name != "choose" or len(a.args) != 1:
                return Explanation(False, text, f"a choice of '{p['var']}' is pending: choose one of {opts}",
                                   None, [])
            if not any(same_value(a.args[0], o) for o in p["options"]):
                return Explanation(False, text, f"{value_text(a.args[0])} is not one of the options "
                                   f"for '{p['var']}': {opts}", None, [])
            return Explanation(True, text, "one of the options", None, [])
        op = self._op()
        if a.name == "pass":
            if op.optional:
                return Explanation(True, text, "passing is allowed here", None, [])
            return Explanation(False, text, "passing is not allowed here", None, [])
        if a.name not in op.actions:
            offered = ", ".join(op.actions)
            if a.name not in self.prog.actions:
                return Explanation(False, text, f"unknown action '{a.name}'; offered: {offered}", None, [])
            own = self._explain_requires(a, text, offered=False)  # what the action itself would say
            said = "its own conditions hold" if own.legal else f"its own conditions say: {own.reason}"
            return Explanation(False, text, f"'{a.name}' is not offered now (offered: {offered}); "
                               f"{said}", own.at, own.checks, None if own.legal else own.reason)
        if text in self.abandoned:
            return Explanation(False, text, f"taken back at this decision: {self.abandoned[text]}", None, [])
        return self._explain_requires(a, text)

    def _explain_requires(self, a: Action, text: str, offered: bool = True) -> Explanation:
        """The action's own arity, parameter domains and preconditions, judged now."""
        ca = self.prog.actions[a.name]
        if len(a.args) != len(ca.params):
            return Explanation(False, text, f"'{a.name}' takes {len(ca.params)} argument(s) "
                               f"({', '.join(ca.params)}), got {len(a.args)}", None, [])
        try:
            idx = ca.check(self, *a.args)
        except (RuleFailure, *_RULE_ERRORS) as err:
            return Explanation(False, text, f"cannot evaluate its preconditions: {err}", None, [])
        if idx == -1:
            if offered and not any(same_move(m, a) for m in self._moves()):
                return Explanation(False, text, "not one of the legal moves: an argument has the wrong "
                                   "kind of value", None, [])
            return Explanation(True, text, "every precondition holds", None, self._checks(ca, a.args))
        if idx <= -2:
            checks = self._checks(ca, a.args)  # a precondition that says why, in the rule's words
            failed = next((c for c in checks if not c["value"]), None)
            if failed is not None:
                return Explanation(False, text, failed["message"] or f"requirement failed: "
                                   f"{failed['require']}", failed["at"], checks)
            pname = ca.params[-idx - 2]
            decl = ca.decl.params[-idx - 2]
            return Explanation(False, text, f"{value_text(a.args[-idx - 2])} is not a possible value "
                               f"of '{pname}'", f"{decl.span.line}:{decl.span.column}", [])
        req = ca.requires[idx]
        reason = req.message or f"requirement failed: {ca.require_texts[idx]}"
        return Explanation(False, text, reason, f"{req.span.line}:{req.span.column}", self._checks(ca, a.args))

    def _checks(self, ca: Any, args: tuple) -> list[dict]:
        raw = raw_checks(ca, args, self, (RuleFailure, *_RULE_ERRORS))
        return cooked_checks(*raw) if raw else []

    def is_legal(self, action: Any, player: str | None = None) -> bool:
        return self.explain(action, player).legal

    # ------------------------------------------------------------------ playing
    def apply(self, action: Any, player: str | None = None) -> None:
        """Play one legal move (or choice) of the deciding player, or of `player`; an illegal one
        raises IllegalAction and leaves the game untouched. A move taken from `legal_actions()`
        is played without checking again. Traced games also check the ruleset's invariants after
        the step. While a `simultaneously` waits, the move commits that player's part."""
        if self.chance_node is None and (player is not None or (self.window is not None and self._part is None)):
            self._apply_for(action, player)
            return
        move = None
        legal = self._legal
        if legal is not None and not self.abandoned:
            for offered in legal:  # by identity: cheaper than index()'s comparisons of moves
                if offered is action:
                    break
            else:
                offered = None
            if offered is not None:  # the very move offered: no need to check it
                if action[0] in self._plain:  # an untraced plain move: `_play_in_block`, inline
                    self.work, self._worked = WORK_CHUNK, 0
                    self._legal = self.pending = None
                    self.step_no += 1
                    top = self.frames[-1]
                    try:  # the block that offered the move plays it and goes on (machine.py)
                        if self._blocks[top[0]](self, top, action) and self.result is None:
                            return  # the next decision is pending
                    except _RULE_ERRORS as err:
                        raise self._failure(err) from err
                    self._run()
                    return
                key = self._recorded_here.get(action[0])
                if key is None or self._part is not None:
                    ca = self._recorded.get(action[0])
                    if ca is not None:
                        self._take_recorded(action, ca)
                        return
                    if action[0] == "choose" and self._choices and self._part is None \
                            and type(action[1][0]) in _PLAIN:
                        self._take_choice(action)
                        return
                else:
                    # _take_recorded for a move whose block works its checks out itself (plain
                    # arguments), outside a `simultaneously`, without invariants: the traced
                    # tic-tac-toe move, whose fixed cost is what tracing adds to a small game
                    # (LeanTracedGame.apply has the same steps: keep the two alike)
                    undo = self._undo
                    if self._snap_next or not len(undo) % UNDO_EVERY:
                        self._keep_undo(action)
                    else:
                        undo.append(action)
                    self.work, self._worked = WORK_CHUNK, 0
                    who = self.pending["player"]
                    self._legal = self.pending = None
                    self.step_no += 1
                    if self._step is not None:
                        self._close()
                    self._step = [key, False, None, action, (), None, (), (), self.phase, who]
                    self._jmark = len(self.journal)
                    self.abandon = None
                    top = self.frames[-1]
                    try:  # the block that offered the move plays it, closes its step, goes on
                        waiting = self._blocks[top[0]](self, top, action)
                    except _RULE_ERRORS as err:
                        raise self._failure(err) from err
                    if not waiting:
                        self._run()
                    elif self.result is not None:  # the game ended, in the move's effect or after
                        self.pending = None
                        self._close()
                        self._emit_result()
                    return  # (nothing was taken back at this decision: `self.abandoned` is empty)
                move = action
        if self.tracking:  # explicit chance or a kept history: played on a copy, then taken
            _explicit.play(self, move or action, move is not None)
            return
        self._play_checked(move or self._legal_move(action))

    def playout(self, rng: random.Random, limit: int | None = None) -> int:
        """A random playout: play on until the game is over, or `limit` moves were made, each
        move `rng.choice` of the deciding player's legal moves. Returns the number of moves
        made (chance outcomes of a game with explicit chance count too: each is drawn from `rng`
        by its probability). Move for move and error for error the same as the loop
        `while not g.is_over: g.apply(rng.choice(g.legal_actions()))`, without that loop's two
        calls and one copy a move: an untraced plain move is played in the block that offered
        it at once (as `apply` does); anything else goes through `apply`. For searches'
        rollouts and balance runs (MCTSAgent). A generator of another class than
        `random.Random` (a subclass too) has every move it picks checked, as `apply` does."""
        plain, choice = self._plain, rng.choice
        trusted = type(rng) is random.Random  # its `choice` returns one of the moves, unchanged
        # the blocks pick and play the moves of a decision whose moves are all plain themselves
        # (machine.py `pick_in_place`), up to what is left of the limit: untraced games without
        # a kept history only (`plain` is empty otherwise), each pick counted in `self._picks`
        picks = trusted and bool(plain)
        room = sys.maxsize if limit is None else limit
        made = 0
        try:
            if picks:
                self._pick = choice
            while not self.is_over and made < room:
                made += 1
                if picks:
                    self._picks = given = room - made
                legal = self._legal
                if not trusted or legal is None or self.pending is None or self.abandoned \
                        or self.chance_node is not None or self.window is not None:  # the loop's own steps
                    if self.chance_node is not None:  # explicit chance: an outcome by its probability
                        self.apply(_explicit.sample(self, rng))
                    else:
                        self.apply(choice(self.legal_actions()))
                else:
                    action = choice(legal)  # one of the moves offered: `random.choice` only reads the list
                    if action[0] in plain:
                        self._play_in_block(action)
                    else:
                        self.apply(action)
                if picks:
                    made += given - self._picks
        finally:
            self._picks, self._pick = 0, None
        return made

    def _play_checked(self, move: Action) -> None:
        """Play a legal move, roll it back if it abandons itself, check invariants when traced."""
        since = self._check_from() if self.record and self.prog.invariants else None
        try:
            self._take(move)
        except Abandoned as ab:
            self._roll_back(ab)
            return
        if self.abandoned:
            self.abandoned = {}  # a move went through: the next decision starts afresh
        if self.record and self.prog.invariants:
            self.check_invariants(since)

    def _check_from(self) -> int | None:
        """Where the journal of the step about to be played starts, for checking the invariants
        it may have broken; None (check them all) after a change from outside the rules."""
        return None if self._snap_next else len(self.journal)

    def _legal_move(self, action: Any) -> Action:
        """The offered move that `action` names, or IllegalAction saying why there is none."""
        a = as_action(action)
        if self.result is not None:
            raise IllegalAction(f"{a}: the game is over")
        if self.chance_node is not None:
            raise IllegalAction(f"{a}: {self.explain(a).reason}")
        if self.pending is None:
            raise IllegalAction(f"{a}: no decision is pending")
        legal = self.legal_actions()
        for m in legal:  # the very move offered, by identity first: cheaper than comparing moves
            if m is a:
                return m
        for m in legal:
            if same_move(m, a):
                return m
        raise IllegalAction(f"{a}: {self.explain(a).reason}")

    def _take_recorded(self, a: Action, ca: Any) -> None:
        """`_take` for the common traced move: a plain action (its effect a function that
        neither stops for a decision nor can be taken back) offered by `legal_actions()`.
        The same steps in the same order, without the branches the other kinds of move need;
        the block that offered the move plays it in place, as in an untraced game. `apply`
        holds a copy of these steps for the commonest such move (checks worked out in the
        block, no `simultaneously`, no invariants): a change here is a change there too."""
        invariants = self.prog.invariants
        since = (None if self._snap_next else len(self.journal)) if invariants else None  # _check_from
        self.work, self._worked = WORK_CHUNK, 0
        if self._part is None:  # _keep_undo, its common case inline
            undo = self._undo
            if self._snap_next or not len(undo) % UNDO_EVERY:
                self._keep_undo(a)
            else:
                undo.append(a)
        who = self.pending["player"]
        self._legal = self.pending = None
        self.step_no += 1
        if self._step is not None:
            self._close()
        # a part's move of a `simultaneously` is a secret commitment: its decision says so
        part = None if self._part is None else IN_PART
        if ca.checks_in_place:  # plain arguments; the block works the checks out before the effect
            self._step = [ca.key, False, part, a, (), None, (), (), self.phase, who]
        elif ca.state_kept is not None and self.window is None:  # explained when read (kept_explain)
            v = self.vars
            kept = [self.current]
            for name in ca.state_kept:  # copies of what its explain reads (compile.state_kept)
                x = v[name]
                kept.append(x.copy() if type(x) is dict else x)
            self._step = [ca.key, False, STATE_KEPT, a, tuple(kept), None, (), (), self.phase, who]
        else:
            try:  # the move was offered just now, by a listing in this state
                seen = (ca.explain_offered if self.window is None else ca.explain)(self, *a[1])
            except _CHECK_ERRORS:
                seen = ()
            if ca.kept_args:  # immutable values: the move itself, its records made when read
                self._step = [ca.key, False, part, a, seen, None, (), (), self.phase, who]
            else:
                decision = {"kind": "action", "by": who, "action": self.prog.move_texts.get(id(a)) or str(a)}
                if part is not None:
                    decision["simultaneous"] = True
                self._step = [ca.key, False, bindings_of(ca, a[1]), decision,
                              (ca, seen) if seen else (), None, (), (), self.phase, who]
        self._jmark = len(self.journal)
        self.abandon = None
        top = self.frames[-1]
        try:  # the block that offered the move plays it, closes its step and goes on (machine.py)
            waiting = self._blocks[top[0]](self, top, a)
        except _RULE_ERRORS as err:
            raise self._failure(err) from err
        if not waiting:
            self._run()
        elif self.result is not None:  # the game ended: in the move's effect or in the flow after it
            self.pending = None
            self._close()
            self._emit_result()
        if self.abandoned:
            self.abandoned = {}  # a move went through: the next decision starts afresh
        if invariants:
            self.check_invariants(since)

    def _take_choice(self, a: Action) -> None:
        """`_play_checked` and `_take` for an offered choice of a plain value in a traced game
        whose blocks take their choices (`choose in place`, machine.py `_op_choose`): the same
        steps in the same order (its step is the choice itself, as `_take` keeps it), then the
        block that asked binds the option and goes on, without `_run` entering it anew."""
        invariants = self.prog.invariants
        since = (None if self._snap_next else len(self.journal)) if invariants else None  # _check_from
        self.work, self._worked = WORK_CHUNK, 0
        undo = self._undo  # _keep_undo, its common case inline
        if self._snap_next or not len(undo) % UNDO_EVERY:
            self._keep_undo(a)
        else:
            undo.append(a)
        p = self.pending
        self._legal = self.pending = None
        self.step_no += 1
        if self._step is not None:
            self._close()
        top = self.frames[-1]
        self._step = [top[3], False, p["var"], a, (), None, (), (), self.phase, p["player"]]
        self._jmark = len(self.journal)
        try:
            waiting = self._blocks[top[0]](self, top, a)
        except _RULE_ERRORS as err:
            raise self._failure(err) from err
        if not waiting:
            self._run()
        elif self.result is not None:  # the game ended in the flow after the choice
            self.pending = None
            self._close()
            self._emit_result()
        if self.abandoned:
            self.abandoned = {}
        if invariants:
            self.check_invariants(since)

    def _play_in_block(self, a: Action) -> None:
        """An untraced plain move: the block that offered it plays it and goes on (machine.py).
        `apply` has these steps inline for the moves it was handed from `legal_actions()`, the
        hot path of playouts, where a call costs a few percent: a change here is a change there.
        `playout` calls this (the call costs it about 4%; a third copy was not worth that)."""
        self.work, self._worked = WORK_CHUNK, 0
        self._legal = self.pending = None
        self.step_no += 1
        top = self.frames[-1]
        try:
            if self._blocks[top[0]](self, top, a) and self.result is None:
                return  # the next decision is pending
        except _RULE_ERRORS as err:
            raise self._failure(err) from err
        self._run()

    def _take(self, a: Action) -> None:
        """Play a move that is legal now."""
        p = self.pending
        record = self.record
        if not record and a[0] in self.prog.in_place and p["kind"] == "play" and self.window is None:
            self._play_in_block(a)  # a game that keeps its history: apply() plays the others so itself
            return
        frame = self.frames[-1]
        ca = None
        if p["kind"] == "play" and a.name != "pass":
            ca = self.prog.actions[a.name]
        self.work, self._worked = WORK_CHUNK, 0
        if record and self._part is None:  # before the way back below is kept: undo restores the
            self._keep_undo(a)  # state before the move (a part's move keeps its note in _apply_for)
        if ca is not None and ca.abandonable:  # keep the way back until the move's effects are done
            self.abandon = (self.clone(), f"action:{a.name}", str(a))
        self._legal = None
        self.step_no += 1
        self.pending = None
        secret = {"simultaneous": True} if self._part is not None else {}  # a part's commitment
        if p["kind"] == "choose":
            if record:
                if not secret and type(a.args[0]) in _PLAIN:  # the move itself, its records made when read
                    if self._step is not None:
                        self._close()
                    self._step = [frame[3], False, p["var"], a, (), None, (), (), self.phase, p["player"]]
                    self._jmark = len(self.journal)
                else:
                    self._open(frame[3], False, {p["var"]: jsonable(a.args[0])},
                               {"kind": "choose", "by": p["player"], "action": str(a), **secret})
            frame[2][p["var"]] = a.args[0]
            frame[1] += 1
        elif ca is None:  # pass
            if record:
                self._open(self._rule_key(frame), False, {}, {"kind": "pass", "by": p["player"], "action": "pass",
                                                              **secret})
            frame[1] = self.prog.blocks[frame[0]].ops[frame[1]].pass_to
        else:
            if record and ca.plain_args and not secret:  # the move itself, its records made when read
                try:  # (as in _take_recorded: the move was found among those listed in this state)
                    seen = (ca.explain_offered if self.window is None else ca.explain)(self, *a.args)
                except _CHECK_ERRORS:
                    seen = ()
                if self._step is not None:
                    self._close()
                self._step = [ca.key, False, None, a, seen, None, (), (), self.phase, p["player"]]
                self._jmark = len(self.journal)
            elif record:
                args = a.args
                bindings = bindings_of(ca, args)
                try:  # the checks as the explain function saw them (made trace records when read)
                    checks = (ca, ca.explain(self, *args))
                except _CHECK_ERRORS:
                    checks = ()
                self._open(ca.key, False, bindings,
                           {"kind": "action", "by": p["player"],
                            "action": self.prog.move_texts.get(id(a)) or str(a), **secret}, checks)
            frame[1] += 1
            if ca.block is not None:
                self.frames.append([ca.block, 0, dict(zip(ca.params, a.args, strict=True)), ca.key])
            else:
                try:
                    finished = ca.effect(self, *a.args)
                except _RULE_ERRORS as err:
                    raise self._action_failure(a, err) from err
                self.abandon = None
                if finished:
                    if record:
                        self._close()
                        self._emit_result()
                    return
                if record:
                    self._close()
        self._run()

    def _roll_back(self, ab: Abandoned) -> None:
        """`abandon`: the game is again as it was before the move, which is not offered again
        at this decision; the trace keeps a step saying so."""
        if self.abandon is None:
            raise RuleFailure(f"'abandon' outside a move that can be taken back: {ab.reason}", ab.span)
        point, rule, action = self.abandon
        back = point.clone()
        put_state(self, state_of(back))
        self._deferred = ()  # triggers the abandoned move set off are undone with it
        self._bookkeeping(False)
        self._steps, self._trace, self._cooked, self._settled = back._steps, back._trace, back._cooked, back._settled
        self.abandoned = {**self.abandoned, action: ab.reason}
        if self.record:
            self._open(rule, False, {}, {"kind": "abandoned", "by": self.decision_player(), "action": action})
            self.note_event({"event": "abandoned", "reason": ab.reason})
            self._close()
        if self.pending and self.pending["kind"] == "play" and not self.legal_actions():
            self.frames[-1][1] += 1  # every move was taken back: the play is skipped
            self.pending = None
            self.abandoned = {}
            self._run()

    # ------------------------------------------------------------------ invariants
    def broken_invariants(self, written: set[str] | None = None) -> list[str]:
        """Every declared invariant the current state breaks, as 'file:line: message'; with
        `written`, only those that read one of these state variables (or more than state)."""
        out = []
        invariants = self.prog.invariants
        # only those that read a variable written (or more than state): the others still hold
        todo = range(len(invariants)) if written is None else self.prog.invariants_for(frozenset(written))
        for i in todo:
            test, decl = invariants[i]
            try:
                ok = test(self)
            except (KeyError, IndexError, TypeError, ValueError) as err:
                ok, why = False, f"cannot be evaluated ({type(err).__name__}: {err})"
            else:
                why = None
            if not ok:
                from ...dsl.printer import expr_text

                msg = why or decl.message or f"invariant {expr_text(decl.test)} does not hold"
                out.append(f"{decl.span.file}:{decl.span.line}:{decl.span.column}: {msg}")
        return out

    def check_invariants(self, since: int | None = None) -> None:
        """Raise if the state breaks an invariant. With `since` (a journal length from before a
        step), only the invariants that read a state variable the step wrote are checked, and
        one that holds element by element over a map or set (reads.pointwise_reads) only at the keys
        the step wrote (when it wrote at most `_BY_KEY_WRITES` entries): it held before the step, so only they
        can break it. After a break has been reported, each is checked whole again (the state
        no longer holds them all)."""
        points: tuple = ()
        keyed = None
        if since is None:
            tests = self.prog.invariant_tests
            todo: Any = range(len(tests))
        else:  # after a step: the tests that take the journal since the last check in (INVS_n)
            tests = self.prog.invariant_steps
            journal = self.journal
            if len(journal) == since:  # nothing written: only those that read more than state
                todo = self.prog.invariants_unread
            else:  # the plan by the paths written: few sets, as a step writes names one key deep
                # each entry's path (recording.ENTRY); a step of one write (most of Shogun's:
                # `plan`, `bids`) by its one path, the last slot (`one path`: no slice, no set)
                paths = journal[-1] if len(journal) == since + ENTRY and ONE_PATH else \
                    frozenset(journal[since + 4::ENTRY])
                plan = self.prog.invariant_plans.get(paths) or self.prog.invariant_plan(paths)
                todo, points = plan
                if points and not self._inv_whole:  # `keyed points`: tested at a set of keys
                    keyed = self.prog.keyed_plans.get(paths, MISSING)
                    if keyed is MISSING:
                        keyed = self.prog.keyed_plan(paths, points)
                if points and keyed is None and (self._inv_whole or len(journal) - since > _BY_KEY_WRITES * ENTRY):
                    todo, points = (*todo, *(i for i, _m, _t in points)), ()
        for i in todo:  # the common case, all hold, without the messages broken_invariants makes
            try:
                if tests[i](self):
                    continue
            except (KeyError, IndexError, TypeError, ValueError):
                pass
            self._invariant_broken(since)
            return
        if keyed is not None:  # the keys of the maps they read, picked in C, each test one call
            names, keyed_tests = keyed
            journal = self.journal
            keys = set(compress(journal[since + 1::ENTRY], map(names.__contains__, journal[since + 4::ENTRY])))
            try:
                for test in keyed_tests:
                    if not test(self, keys):
                        break
                else:
                    return
            except (KeyError, IndexError, TypeError, ValueError):
                pass
            self._invariant_broken(since)
        elif points:  # each (path, key) written once, found in C: a step often writes a key twice
            members = self.prog.member_sets
            journal = self.journal
            pairs = set(zip(journal[since + 4::ENTRY], journal[since + 1::ENTRY], strict=True)) if not members else \
                self._written_keys(since, members)
            try:  # each key written tested by the tests that read its map (none whole: the plan)
                if _points_hold(self, pairs, self.prog.points_by_map(points)):
                    return
            except (KeyError, IndexError, TypeError, ValueError):
                pass
            self._invariant_broken(since)

    def _written_keys(self, since: int, members: frozenset[str]) -> set:
        """The (path, key) pairs the step from `since` wrote, where a set of `members` written
        whole counts as the elements it gained or lost (recording.member_keys), each under the
        set's name."""
        pairs: set = set()
        for entry in entries(self.journal, since):
            path = entry[4]
            if type(path) is tuple and len(path) == 1 and path[0] in members:
                pairs.update((path[0], k) for k in member_keys(entry[2], entry[3]))
            else:
                pairs.add((path, entry[1]))
        return pairs

    def _invariant_broken(self, since: int | None) -> None:
        """An invariant failed after the step whose journal starts at `since`: raise with the
        message of every invariant that read what it wrote (or of all, with `since` None)."""
        written = None
        if since is not None:
            written = frozenset([entry_var(entry) for entry in entries(self.journal, since)])
        broken = self.broken_invariants(written)  # the tests again, whole, for every message
        if broken:
            self._inv_whole = True
            raise InvariantBroken(broken)

    # ------------------------------------------------------------------ undo
    def _keep_undo(self, a: Action) -> None:
        """Note a decision for undo: a full snapshot of the fields before it for one decision in
        UNDO_EVERY (and the first after a change from outside the rules), else just the move."""
        undo = self._undo
        if self._start_of is not None and not undo:  # a new game's first decision: the state
            # before it is its template's, with its own generator (made a snapshot by _restore)
            self._snaps[0] = (self._start_of, self.rng)
            self._start_of = None
            self._snap_next = False
        elif self._snap_next or not len(undo) % UNDO_EVERY:
            self._snap_next = False
            # the fields as a plain tuple, and the frames (changed in place) copied; vars are
            # restored from the journal, so the tuple's own are never put back
            self._snaps[len(undo)] = (state_fields(self), _copy_frames(self.frames), self._legal,
                                      len(self.journal), len(self._steps))
        undo.append(a)  # the move alone: no tuple per decision for the collector to walk

    def undo(self) -> None:
        """Take back the last decision, from the journal of a recorded game: back to the nearest
        snapshot, then the decisions after it (at most UNDO_EVERY - 1) played again."""
        if not self.record:
            raise EngineError("undo needs a recorded game (record=True): only it keeps a journal")
        if self.tracking:
            raise EngineError("undo is not kept for games with explicit chance or a history: "
                              "clone() the game before the move instead")
        undo = self._undo
        if not undo:
            raise EngineError("nothing to undo")
        snaps = self._snaps
        i = len(undo) - 1
        while i not in snaps:  # the first decision always keeps a snapshot
            i -= 1
        again = undo[i:-1]
        snapshot = snaps.pop(i)
        del undo[i:]
        self._restore(snapshot)
        self._snap_next = True  # the decision played first again keeps its snapshot
        for move in again:  # the engine is deterministic: the same moves give the same game
            if isinstance(move, tuple) and len(move) == 2 and isinstance(move[1], str):
                self.apply(move[0], player=move[1])  # a part's move of a `simultaneously`
            else:
                self.apply(move)

    def _restore(self, snapshot: tuple) -> None:
        """The game as it was before a decision: its writes reverted, its fields put back."""
        if len(snapshot) == 2:  # (template, generator): the start of a game cloned from it
            template, generator = snapshot
            fields = State._make(state_fields(template))._replace(rng=generator)
            snapshot = (fields, _copy_frames(template.frames), template._legal, 0, len(template._steps))
        fields, frames, legal, jstart, tlen = snapshot
        self._step = None
        state = self.vars
        for entry in reversed(list(entries(self.journal, jstart))):
            container, key, old = container_of(entry, state), entry[1], entry[2]
            if old is MISSING:
                del container[key]
            else:
                container[key] = old
        del self.journal[jstart:]
        if self._cooked > tlen:  # the trace holds steps read since: as many as start after tlen
            del self._trace[len(self._trace) - sum(1 for _ in step_starts(self._steps, tlen, self._cooked)):]
        del self._steps[tlen:]
        self._cooked = min(self._cooked, tlen)
        self._settled = min(self._settled, tlen)
        kept = State._make(fields)._replace(vars=self.vars, frames=frames)  # the frames copied when kept
        put_state(self, kept)
        self._legal = legal
        self._xpre = {}  # listed in a later state
        self._jmark = len(self.journal)

    # ------------------------------------------------------------------ the end
    # ------------------------------------------------------------------ running the blocks
    def _rule_key(self, frame: list) -> str:
        key = frame[3]
        if key == "flow" and self.phase is not None:
            return f"phase:{self.phase}"
        return key

    def _run(self) -> None:
        """Run the top frame's block until a decision or the end; a frame pushed or popped
        on the way hands over to the new top frame."""
        fns = self.prog.block_fns
        frames = self.frames
        try:
            while self.result is None:
                if not frames and self._part is not None:  # a part of `simultaneously` is done
                    break
                if not frames:  # the flow is done: a ranking by `scoring`, or else a draw
                    scores = self.scores
                    if scores:
                        self.finish("ranking", [lambda p, s=scores: (s[p],)], -1)
                    else:
                        self.finish("draw", [], -1)
                    break
                if self._deferred and self._part is None:  # a trigger that waited for the rule to pause
                    self._run_deferred()
                    self._chained()
                    continue
                top = frames[-1]
                if fns[top[0]](self, top):
                    break
        except _RULE_ERRORS as err:
            raise self._failure(err) from err
        if self.result is not None:
            self.pending = None
            if self.record:
                self._close()
                self._emit_result()

    def _failure(self, err: Exception) -> RuleFailure:
        """A Python error inside a rule, as a failure naming the rule, at the statement that
        raised it (else the rule's own line)."""
        frames = self.frames
        rule = failing_rule(self, err.__traceback__) or (self._rule_key(frames[-1]) if frames else "flow")
        info = self.prog.rules.get(rule, {})
        span = statement_span(err.__traceback__)
        if span is not None:
            return RuleFailure(f"rule '{info.get('name', rule)}' failed: {plain(err)}", span, rule)
        return RuleFailure(f"rule '{info.get('name', rule)}' ({info.get('at', '?')}) failed: {plain(err)}")

    # ------------------------------------------------------------------ simultaneously
    def _window_waits(self) -> bool:
        """After a part moved: the simultaneous decision of those still to choose, or (all done)
        the window closed. True while some part waits."""
        w = self.window
        still = [*filter(w["pending"].__contains__, w["players"])]  # in C: a tenth of a comprehension's bytecodes
        self._legal = None
        if still:
            self.pending = {"kind": "simultaneous", "players": still}
            return True
        self.window = None
        self.pending = None
        return False

    @contextlib.contextmanager
    def _in_part(self, player: str, copy: bool = True) -> Iterator[None]:
        """The engine running `player`'s part: its frames (a copy when it may change them, so
        the window is never changed in place), its pending decision, `player` as the current
        player; the window takes back what changed. (The hot paths below call `_enter_part`
        and `_leave_part` themselves: a generator-based context costs a microsecond a use.)"""
        saved = self._enter_part(player, copy)
        try:
            yield
        finally:
            self._leave_part(saved, player, copy)

    def _enter_part(self, player: str, copy: bool) -> tuple:
        w = self.window
        saved = (self.frames, self.current, self.pending, self._legal, self._part)
        self.frames = _copy_frames(w["parts"][player]) if copy else w["parts"][player]
        self.current, self.pending, self._legal, self._part = player, w["pending"].get(player), None, player
        return saved

    def _leave_part(self, saved: tuple, player: str, copy: bool) -> None:
        """The window made anew with what the part changed (its frames, its pending decision
        last among the pending ones, marked simultaneous), never changed in place. The dicts
        are copied and the player's entry taken out and put back, the same keys in the same
        order as a comprehension without it would make, but in C (about 1% of a random
        Shogun game's instructions)."""
        frames, pending, legal = self.frames, self.pending, self._legal
        self.frames, self.current, self.pending, self._legal, self._part = saved
        w = self.window
        if copy and w is not None:
            pend = w["pending"].copy()
            pend.pop(player, None)
            if pending is not None:  # marked: what others see of the move is that it was made
                pend[player] = {**pending, "simultaneous": True}
            parts = w["parts"].copy()
            parts[player] = frames
            self.window = w = {**w, "parts": parts, "pending": pend}
            if legal is not None and pending is not None:  # the moves its block listed at its
                self._part_legal = (w, player, legal)  # decision: not listed again

    def _advance_part(self, player: str, move: Any, offered: bool = False) -> None:
        """Run `player`'s part (after their `move`, if any) to its next decision or its end. A
        plain move is played by the part's block in place, as `apply` plays one outside a window
        (traced: `_take_recorded`, its step marked a part's); the rest go the long way (`_take`).
        `offered`: `move` is one of the part's kept moves itself (`_part_legal`), found so by
        the caller at this very position (`_apply_for`): not looked for again. `_enter_part`,
        `_leave_part` and, for an untraced plain move, `_play_in_block` are written out here:
        three Python calls of each of Shogun's some 200 part moves a game."""
        kept = self._part_legal
        w = self.window  # `_enter_part(player, True)`
        saved = (self.frames, self.current, self.pending, self._legal, self._part)
        frames = w["parts"][player]
        if len(frames) == 1:  # `_copy_frames`' usual case, without its call
            f = frames[0]
            self.frames = [[f[0], f[1], f[2].copy(), f[3]]]
        else:
            self.frames = _copy_frames(frames)
        self.current, self.pending, self._legal, self._part = player, w["pending"].get(player), None, player
        try:
            if move is None:
                self._run()
            else:  # no history of its own (the window's commit keeps it)
                m = None
                if offered:
                    self._legal = kept[2]
                    m = move
                elif kept is not None and kept[0] is self.window and kept[1] == player:
                    self._legal = kept[2]  # listed at this very position: not listed again
                    if not self.abandoned and self.pending is not None and self.result is None \
                            and self.chance_node is None:  # as _legal_move asks
                        for x in kept[2]:  # the very move offered: no copy of the moves to look in
                            if x is move:
                                m = move
                                break
                if m is None:
                    m = self._legal_move(move)
                ca = self._recorded.get(m[0])
                if ca is not None:  # traced plain move: the part's block plays it in place
                    self._take_recorded(m, ca)
                elif m[0] in self._plain:  # untraced plain move: likewise, as apply() does
                    self.work, self._worked = WORK_CHUNK, 0  # `_play_in_block(m)`
                    self._legal = self.pending = None
                    self.step_no += 1
                    top = self.frames[-1]
                    try:
                        waits = self._blocks[top[0]](self, top, m) and self.result is None
                    except _RULE_ERRORS as err:
                        raise self._failure(err) from err
                    if not waits:  # else the next decision is pending
                        self._run()
                    if self.abandoned:
                        self.abandoned = {}  # a move went through: the next decision starts afresh
                else:  # the long way: a block, a choice, a pass, `abandon`, explicit chance
                    self._play_checked(m)
        finally:  # `_leave_part(saved, player, True)`
            frames, pending, legal = self.frames, self.pending, self._legal
            self.frames, self.current, self.pending, self._legal, self._part = saved
            w = self.window
            if w is not None:
                pend = w["pending"].copy()
                pend.pop(player, None)
                if pending is not None:  # marked: what others see of the move is that it was made
                    pend[player] = {**pending, "simultaneous": True}
                parts = w["parts"].copy()
                parts[player] = frames
                self.window = w = {**w, "parts": parts, "pending": pend}
                if legal is not None and pending is not None:  # the moves its block listed at its
                    self._part_legal = (w, player, legal)  # decision: not listed again

    def _part_moves(self, player: str) -> list[Action]:
        """The legal moves of `player`'s part of the open window (before any taken back at
        this decision are left out), listed once per window (see `_part_legal`)."""
        kept = self._part_legal
        if kept is not None and kept[0] is self.window and kept[1] == player:
            return kept[2]
        saved = self._enter_part(player, False)
        try:
            legal = self._moves() if self.pending is not None else []
        finally:
            self._leave_part(saved, player, False)
        self._part_legal = (self.window, player, legal)
        return legal

    def _who(self, player: str | None) -> str | None:
        if player is not None and player not in self.players:
            raise EngineError(f"unknown player '{player}'; players: {', '.join(self.players)}")
        return player if player is not None else self.decision_player()

    def _legal_for(self, player: str | None) -> list[Action]:
        who = self._who(player)
        if self.window is None:
            return Game.legal_actions(self) if who is not None and who == self.decision_player() else []
        if who not in self.window["pending"]:
            return []
        legal = self._part_moves(who)
        if self.abandoned:
            return self._not_taken_back(legal)
        return list(legal)

    def _apply_for(self, action: Any, player: str | None) -> None:
        """`apply` for `player`: in a `simultaneously`, commit their part's decision."""
        w, p = self.window, self.pending
        if w is not None and p is not None and self.result is None and not self.abandoned and not self.tracking:
            kept = self._part_legal  # a move handed out from the part's moves listed at this very position
            if kept is not None and kept[0] is w and kept[1] == (player if player is not None else (
                    p["players"][0] if p["kind"] == "simultaneous" else p["player"])):  # decision_player()
                for m in kept[2]:  # by identity: the very move offered (the loop below, without copies)
                    if m is action:
                        if not PARTS_HANDED_OUT:
                            self.commit(m, kept[1], offered=True)
                            return
                        if self.record:  # `commit`, written out
                            self._keep_undo((m, kept[1]))
                        self._advance_part(kept[1], m, True)
                        if self.result is None:  # `_window_waits()`, written out
                            w = self.window
                            still = [*filter(w["pending"].__contains__, w["players"])]
                            self._legal = None
                            if still:
                                self.pending = {"kind": "simultaneous", "players": still}
                            else:
                                self.window = self.pending = None
                                self._run()
                        return
        who = self._who(player)
        if self.window is None:
            if who is None or who != self.decision_player():
                decides = self.decision_player()
                raise IllegalAction(f"{as_action(action)}: {player} has no decision now"
                                    + (f" ({decides} decides)" if decides else ""))
            self.apply(action)
            return
        if who not in self.window["pending"]:
            raise IllegalAction(f"{as_action(action)}: {who} has no decision in this simultaneous one "
                                f"(waiting for {', '.join(self.pending['players'])})")
        a = as_action(action)
        legal = self._legal_for(who)  # an illegal move is refused before anything changes
        match = next((m for m in legal if m is a), None) or next((m for m in legal if same_move(m, a)), None)
        if match is None:
            with self._in_part(who, copy=False):
                raise IllegalAction(f"{a}: {self.explain(a).reason}")
        if self.tracking:  # explicit chance may stop the rules after the window at a chance node
            _explicit.play_part(self, match, who)
            return
        self.commit(match, who)

    def commit(self, move: Action, player: str, offered: bool = False) -> None:
        """`player` makes their legal `move` in the open `simultaneously`: their part goes on to
        its next decision or its end, and when every part is done the rules go on after it.
        `offered`: the move is one of the part's kept moves itself (`_advance_part`)."""
        if self.record:
            self._keep_undo((move, player))
        self._advance_part(player, move, offered)
        if self.result is None and not self._window_waits():
            self._run()

    # ------------------------------------------------------------------ chance scripting
    def script(self, device: str, outcome: Any, next_draw: bool = False) -> None:
        """Queue an outcome for the next use of a chance device (tests and scenarios). Right
        after a start that drew on chance (a deal), that is refused: the outcome would go to the
        next draw, not to the deal it was surely meant for; `next_draw=True` says it is meant so."""
        started = self.pending is not None or self.result is not None or self.chance_node is not None
        if started and not next_draw and self.step_no == 0 and not self.explicit \
                and self.rng != rng.seed_state(self.seed):
            raise EngineError(f"script({device!r}, ...): this game has started already, and its start drew "
                              "on chance (a deal or a shuffle), so the outcome would go to the next draw. "
                              "To script the start, make the game with new_game(start=False), script, "
                              "then start(); to script that next draw, say script(..., next_draw=True)")
        self.scripted = {**self.scripted, device: [*self.scripted.get(device, []), interned(outcome)]}
        self._snap_next = True
        self._start_of = None

    # ------------------------------------------------------------------ copies and saves
    def _settle_observation(self) -> None:
        """Fold the last move's observation into each player's record now, if it is not yet
        (interpreter/observe/infostate.py `settle`): before this position is copied, moved on
        from in place, or saved, while it is still the position right after that move."""
        if self._unobserved is not None:
            _infostate().settle(self)

    def clone(self) -> Game:
        """An independent copy: the same state, frames, generator and pending decision."""
        if self._unobserved is not None:  # before either copy moves on, while this is the position
            self._settle_observation()
        g = _new(type(self))
        # fixed fields, and the dynamic ones that are never changed in place; then the copy's
        # own values, each an attribute store at its field's known place (as `_reseeded`)
        g.__dict__ = self.__dict__.copy()
        g.vars = self.prog.copy_vars(self.vars)  # saves.COPIED's fields: vars, frames
        frames = self.frames
        if len(frames) == 1:  # copy_frames' usual case written out: a call less a clone
            f = frames[0]
            g.frames = [[f[0], f[1], f[2].copy(), f[3]]]
        else:
            g.frames = _copy_frames(frames)
        if self.record:  # an untraced game's bookkeeping is idle between decisions: share it
            # the copy's journal starts empty; only the steps since the last copy (Khan's
            # `abandon` keeps a copy before every move that can be taken back)
            steps = self._steps
            if max(self._cooked, self._settled) < len(steps):  # (a template's are settled at its first copy)
                settle_changes(steps, max(self._cooked, self._settled), self.journal)
                g._settled = self._settled = len(steps)
            g.journal = []
            g._undo = []
            g._snaps = {}
            g._steps = steps[:]
            g._step = None
            g._jmark = 0
            g._xpre = {}
            if self._invg is not None:  # kept against this game's journal (compiler/invtests.py)
                g._invg = None
            g._trace = self._trace[:]
            g._start_of = self if self._template else None
            g._template = False
        # carried values: the copy works out its own, but takes the keys by value along (each
        # list copied: a perft node is a fresh clone that would make them again; carried.py)
        kept = self._carried
        if kept:
            g._carried = kept_for_clone(kept, len(self._wlog))
        else:
            g._carried = {}
        g._wlog = []  # _legal is shared: legal_actions() hands out copies, never the list
        return g

    def _reseeded(self, seed: int, rng: int) -> Game:
        """`clone()` with its own seed and generator state: `Ruleset.new_game`'s copy of a
        template, the fixed cost of every playout: `clone`'s steps in this one call. The copy
        takes the template's fields first and then its own values field by field, as attribute
        stores: each finds its place by the hint the copied dict keeps, where a subscript on
        the dict (`d["seed"] = ...`) hashes and probes 71 keys (1,750 instructions less a
        tic-tac-toe game, 1.4%)."""
        if self.record:
            return self._reseeded_traced(seed, rng)
        if self._unobserved is not None:
            g = self.clone()
            g.seed, g.rng = seed, rng
            return g
        g = _new(type(self))
        g.__dict__ = self.__dict__.copy()  # then each change a store at the field's known place
        g.seed = seed
        g.rng = rng
        g.vars = self.prog.copy_vars(self.vars)
        frames = self.frames
        if len(frames) == 1:  # clone's steps for saves.COPIED's fields
            f = frames[0]
            g.frames = [[f[0], f[1], f[2].copy(), f[3]]]
        else:
            g.frames = _copy_frames(frames)
        kept = self._carried
        if kept:
            g._carried = kept_for_clone(kept, len(self._wlog))
        else:
            g._carried = {}
        g._wlog = []
        return g

    def _reseeded_traced(self, seed: int, rng: int) -> Game:
        """`_reseeded` of a traced game. A template never changes once marked, so what
        `clone` works out for its copies (its steps settled, the copy's journal, undo log and
        step not yet begun, this template as the first decision's snapshot) is the same for
        every copy: worked out once, at the first, and kept as `_fresh`; later copies take it
        and make only their own lists (about 60 bytecodes less a traced tic-tac-toe game)."""
        base = self._fresh
        if base is None:
            g = self.clone()
            g.seed, g.rng = seed, rng
            if self._template and self._unobserved is None and self._invg is None:
                base = g.__dict__.copy()  # the copy's fields as clone left them,
                for name in ("vars", "frames", "_carried"):  # made anew from the template's
                    base[name] = getattr(self, name)
                base["_fresh"] = None  # (a copy is never a template itself)
                self._fresh = base
            return g
        g = _new(type(self))
        g.__dict__ = base.copy()  # then each field of its own a store at its known place
        g.seed = seed
        g.rng = rng
        g.vars = self.prog.copy_vars(self.vars)
        frames = self.frames
        if len(frames) == 1:  # clone's steps for saves.COPIED's fields
            f = frames[0]
            g.frames = [[f[0], f[1], f[2].copy(), f[3]]]
        else:
            g.frames = _copy_frames(frames)
        g.journal = []
        g._undo = []
        g._snaps = {}
        g._steps = self._steps[:]
        g._xpre = {}
        g._trace = self._trace[:]
        kept = self._carried
        if kept:
            g._carried = kept_for_clone(kept, len(self._wlog))
        else:
            g._carried = {}
        g._wlog = []
        return g

    def as_template(self) -> Game:
        """Mark this started game as a template: it is only cloned, never played or changed
        again (Ruleset.new_game), so a traced clone's undo can start from its state."""
        self._template = True
        return self

    def to_json(self) -> dict:
        """A versioned, self-checking snapshot; `Game.from_json` continues it identically."""
        return game_to_json(self)

    @classmethod
    def from_json(cls, data: Any, ruleset: Any = None, record: bool = False) -> Game:
        """Rebuild a saved game; without `ruleset`, the rules file the save names is loaded."""
        check_format(data)
        if ruleset is None:
            ruleset = ruleset_of(data)
        return load_game(data, ruleset.program(record), origin=ruleset)

    def _load_nested(self, data: Any, path: str) -> Game:
        """A game saved inside this one's save (the position an abandoned move rolls back to),
        on the same program."""
        return load_game(data, self.prog, self.ruleset, path)

    def view(self, player: str) -> dict:
        """The position as `player` may see it (interpreter/observe/visibility.py decides what that is)."""
        from ..observe.visibility import observer

        return observer(self.prog.model, player).view(self)


class SecretsGame(Game):
    """A game of a ruleset with hidden state. The errors its API raises (an illegal move, a rule
    that fails or runs away) reach whoever plays, so every value in them that stands in hidden
    state is written `?` for everybody (interpreter/observe/visibility.py, `Observer.message`); the whole
    message stays in `err.full` for a caller that asks for it. Games without hidden state are
    plain `Game`s, so their hot path pays nothing for this."""

    def apply(self, action: Any, player: str | None = None) -> None:
        try:
            if PARTS_HANDED_OUT and self.chance_node is None and (
                    player is not None or (self.window is not None and self._part is None)):
                self._apply_for(action, player)  # what Game.apply does first, without its call
            else:
                Game.apply(self, action, player)
        except EngineError as err:
            self._hide_in(err)
            raise

    def playout(self, rng: random.Random, limit: int | None = None) -> int:
        try:
            return Game.playout(self, rng, limit)
        except EngineError as err:
            self._hide_in(err)
            raise

    def start(self, phase: str | None = None) -> Game:
        try:
            return Game.start(self, phase)
        except EngineError as err:
            self._hide_in(err)
            raise

    def legal_actions(self, player: str | None = None) -> list[Action]:
        if player is None and PARTS_HANDED_OUT and self.window is not None and self._part is None:
            kept, w, p = self._part_legal, self.window, self.pending  # as Game.legal_actions: no
            if kept is not None and kept[0] is w and p is not None and p["kind"] == "simultaneous" \
                    and kept[1] == p["players"][0] and kept[1] in w["pending"] and not self.abandoned:
                return kept[2].copy()  # error can come of it, so nothing to hide, and no call
        try:
            return Game.legal_actions(self, player)
        except EngineError as err:
            self._hide_in(err)
            raise

    def _hide_in(self, err: EngineError) -> None:
        from ..observe.visibility import observer

        err.hide(observer(self.prog.model, "").message(err.full, self))


class LeanGame(Game):
    """A game of a lean program (compile.py `Program.lean`: untraced, no hidden state, no
    `simultaneously`; `lean apply`, CodeGen.LEAN_APPLY). Its `apply` and `legal_actions` go
    straight to the offered moves without the tests for a part's window (never open here), a
    chance node (only explicit chance has them, and its games play no move in the block) and
    a player named; anything else is `Game`'s. `apply` is a random playout's fixed cost per
    move: the tests left out were a tenth of it (tic-tac-toe)."""

    def apply(self, action: Any, player: str | None = None) -> None:
        legal = self._legal
        if player is None and legal is not None and not self.abandoned:
            for offered in legal:  # by identity, as Game.apply
                if offered is action:
                    if action[0] in self._plain:  # Game.apply's in-place move, the same steps
                        self.work, self._worked = WORK_CHUNK, 0
                        self._legal = self.pending = None
                        self.step_no += 1
                        top = self.frames[-1]
                        try:
                            if self._blocks[top[0]](self, top, action) and self.result is None:
                                return
                        except _RULE_ERRORS as err:
                            raise self._failure(err) from err
                        self._run()
                        return
                    # offered, not played in place: untraced, so Game.apply's tail for it
                    if self.tracking:
                        _explicit.play(self, action, True)
                    else:
                        self._play_checked(action)
                    return
        Game.apply(self, action, player)

    def legal_actions(self, player: str | None = None) -> list[Action]:
        if player is None:
            legal = self._legal
            if legal is not None and self.pending is not None and not self.abandoned:
                return legal.copy()
        return Game.legal_actions(self, player)


class LeanTracedGame(Game):
    """A game of a lean traced program (compile.py `Program.lean_traced`: traced, no hidden
    state, no `simultaneously`, no invariants; `lean traced apply`, CodeGen.LEAN_APPLY). Its
    `apply` takes an offered move whose block works its checks out itself straight to
    its block, without `Game.apply`'s tests for a part's window, a chance node, a player
    named and an untraced in-place move, which such a program never meets on that path (a
    game with explicit chance or a kept history records nothing here: `_recorded_here` is
    empty and every move goes `Game.apply`'s way); `legal_actions` is `LeanGame`'s. The tests
    left out were a sixth of a traced tic-tac-toe `apply`."""

    def apply(self, action: Any, player: str | None = None) -> None:
        legal = self._legal
        if player is None and legal is not None and not self.abandoned:
            for offered in legal:  # by identity, as Game.apply
                if offered is action:
                    key = self._recorded_here.get(action[0])
                    if key is None:
                        break
                    # Game.apply's steps for such a move, in line (a call costs what the tests
                    # left out save): keep the two alike
                    undo = self._undo
                    if self._snap_next or not len(undo) % UNDO_EVERY:
                        self._keep_undo(action)
                    else:
                        undo.append(action)
                    self.work, self._worked = WORK_CHUNK, 0
                    who = self.pending["player"]
                    self._legal = self.pending = None
                    self.step_no += 1
                    if self._step is not None:
                        self._close()
                    self._step = [key, False, None, action, (), None, (), (), self.phase, who]
                    self._jmark = len(self.journal)
                    self.abandon = None
                    top = self.frames[-1]
                    try:
                        waiting = self._blocks[top[0]](self, top, action)
                    except _RULE_ERRORS as err:
                        raise self._failure(err) from err
                    if not waiting:
                        self._run()
                    elif self.result is not None:
                        self.pending = None
                        self._close()
                        self._emit_result()
                    return
        Game.apply(self, action, player)

    legal_actions = LeanGame.legal_actions


# `parts handed out`: `legal_actions()` hands out the first waiting part's kept moves itself, and
# `_apply_for` commits one of them without calling `decision_player` and `commit` (Shogun's
# simultaneous planning, some 200 part moves a game: four and two Python calls a move fewer).
# Off: tests compare.
PARTS_HANDED_OUT = True

# A step that wrote more than this many entries has every invariant tested whole: testing each
# key it wrote would cost more than the loop over the domain.
_BY_KEY_WRITES = 40
# `one path`: after a step of one write, the invariants' plan looked up by that write's path
# (`Program.invariant_plan` takes it for the set of it); off: by the set of the paths always
ONE_PATH = True


def _points_hold(game: Game, pairs: set, by_map: dict[str, tuple]) -> bool:
    """Whether every (path, key) a step wrote passes the tests at one key of the invariants that
    read its map (`Program.points_by_map`): one walk over the keys for all of them, where a walk
    per test asked each pair whether its map was the test's (Shogun: three tests by key)."""
    get = by_map.get
    for path, key in pairs:
        if type(path) is str:
            tests = get(path)
            if tests is not None:
                for test in tests:
                    if not test(game, key):
                        return False
        else:  # deeper than one key: the map's entry at its first key
            tests = get(path[0])
            if tests is not None:
                for test in tests:
                    if not test(game, path[1]):
                        return False
    return True


def load_game(data: Any, prog: Program, origin: Any = None, path: str = "save") -> Game:
    """A saved game rebuilt on `prog` alone: the save's header checked against the program,
    the game built (not started), its state restored and checked (engine/saves.py).
    `origin` is only remembered (the Ruleset the program came from, for its limits)."""
    data, head = read_header(data, prog, path)
    game = game_class(prog)(prog, head.players, head.seed, head.options, origin, head.chance, head.history)
    return restore_state(game, data, head.version, path)


def game_class(prog: Any) -> type[Game]:
    """The class of a game of `prog`: `SecretsGame` when its rules hide state, `LeanGame`
    for a lean program (`Program.lean`), `LeanTracedGame` for a lean traced one — either as a
    subclass of the program's own (`fused_class`) where it has a fused apply."""
    if prog.lean_class is not None:
        return prog.lean_class
    return SecretsGame if prog.hidden else LeanGame if prog.lean else \
        LeanTracedGame if prog.lean_traced else Game


def fused_class(prog: Any) -> type[Game]:
    """`fused apply` (compiler/machine.py `fused_apply`): the class of a lean (or lean traced)
    program's games whose `apply` is the program's own, made once when the program is
    compiled (compile.py, `Program.lean_class`)."""
    base = LeanGame if prog.lean else LeanTracedGame
    return type(base.__name__, (base,), {
        "apply": prog.fused_apply, "__slots__": (), "__module__": base.__module__,
        "__doc__": f"A {base.__name__} whose `apply` plays its program's moves itself (`fused apply`)."})


def after_block(G: Any, waiting: bool) -> None:
    """A fused apply's copied block lines returned `waiting` (`fused apply`): the game runs on
    as `LeanGame.apply` runs it after its block call returned that. Keep the two alike."""
    if not waiting or G.result is not None:
        G._run()


def after_block_kept(G: Any, waiting: bool, F: list, k: int) -> None:
    """`after_block` for a fused apply that left the frame at the decision's op `k` and the
    game's listing as it was while the move played (`decision kept`, compiler/machine.py
    `_decision_kept`): what its first lines would have set, first."""
    if F[1] == k:
        F[1] = k + 1
    G._legal = None
    if not waiting or G.result is not None:
        G._run()


def after_traced_kept(G: Any, waiting: bool, F: list, k: int) -> None:
    """`after_traced` for a traced fused apply that left the frame at the decision's op `k`
    (`decision kept`): the frame's op set first."""
    if F[1] == k:
        F[1] = k + 1
    after_traced(G, waiting)


def recorded_step(G: Any, a: Any, who: Any) -> list:
    """`fused kept checks` (compiler/machine.py `fused_apply`): the step `Game._take_recorded`
    opens for move `a` of a lean traced game whose block does not work its checks out (its
    state kept for them, or it explained now, in the state it was listed in), so that the
    fused apply plays such a move itself. The same branches as there: keep the two alike."""
    ca = G._recorded[a[0]]
    if ca.state_kept is not None:  # explained when read (kept_explain): copies of what it reads
        v = G.vars
        kept = [G.current]
        for name in ca.state_kept:
            x = v[name]
            kept.append(x.copy() if type(x) is dict else x)
        return [ca.key, False, STATE_KEPT, a, tuple(kept), None, (), (), G.phase, who]
    try:  # the move was offered just now, by a listing in this state
        seen = ca.explain_offered(G, *a[1])
    except _CHECK_ERRORS:
        seen = ()
    if ca.kept_args:
        return [ca.key, False, None, a, seen, None, (), (), G.phase, who]
    decision = {"kind": "action", "by": who, "action": G.prog.move_texts.get(id(a)) or str(a)}
    return [ca.key, False, bindings_of(ca, a[1]), decision, (ca, seen) if seen else (), None, (), (), G.phase, who]


def after_traced(G: Any, waiting: bool) -> None:
    """The same for a traced fused apply: as `LeanTracedGame.apply` after its block call."""
    if not waiting:
        G._run()
    elif G.result is not None:
        G.pending = None
        G._close()
        G._emit_result()
