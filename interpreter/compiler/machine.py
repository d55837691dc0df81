"""Each block's ops (interpreter/compiler/ir.py) compiled into one resumable Python function.

`def B_<id>(G, F, m=None)` runs the block of frame `F = [block id, pc, locals, rule]` from `F[1]` on:
a `while True` over `if pc == k:` sections, one per op, falling through to the next op and
jumping back with `continue`. So between decisions no interpreter loop dispatches ops; the
function returns only when the game must wait for a player or has finished (True), or when
the frame stack changed (False: a procedure or trigger frame was pushed, or this one was
popped), and the engine's driver then continues with the top frame. Locals that must outlive
a decision live in the frame's dict (`L`), so a suspended game is still plain data. `apply`
hands a plain move offered at a `play` back to its block as `m`, and the block plays it in
place and goes on (`play_in_place`): one call per move.

What a ruleset does not use is not generated: no trigger look-ups without triggers, no hook
calls without hooks, and no trace calls in the untraced variant.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, ClassVar

from ...dsl import ast as A
from ...dsl.dispatch import NodeTable, node_table
from ...dsl.printer import expr_text
from ...dsl.types import BOOL, Elem, ListOf, Opt
from ..engine.limits import CALL_WORK, SKIPPED_PLAY_WORK, UNDO_EVERY, WORK_CHUNK
from ..engine.moves import Action
from ..engine.recording import (
    BINDINGS,
    CHECKS,
    DEFERRED,
    EVENTS,
    KEY,
    auto_step_code,
    keep_turns_code,
    kept_close_code,
    move_close_code,
    phase_event_code,
    turns_code,
)
from . import hoist, ir
from .codegen import CodeGen
from .follows import listing_follows, taken_by_its_move
from .optionsunrolled import options_unrolled
from .pytree import Inline
from .slots import item_slots, kept_slots, split_slots
from .total import cannot_fail

MAX_INLINE = 40  # lines of an action's enumeration inlined where a block offers it
# the same for the traced variant: a traced write takes about three lines where an untraced one
# takes one (the old value read, the write, its journal entry), so at twice the lines a block plays
# in place the effects it plays untraced (checkers' `step`: 74 lines traced, a call per move)
MAX_INLINE_TRACED = 2 * MAX_INLINE
_GROUP = 8  # a block of more than twice this many sections tests them by groups (`pc < k`)


_STRAIGHT = (ir.Seg, ir.Play, ir.Choose, ir.TurnBegin, ir.TurnEnd)  # ops that never jump


def _target(op: ir.Op) -> int | None:
    """Where an op can send the pc other than to the next op."""
    match op:
        case ir.Jump(target) | ir.JumpUnless(_, target, _):
            return target
        case ir.ForNext(_, _, end) | ir.CountNext(_, end):
            return end
        case ir.Play() if op.otherwise is not None:  # `play ... else`: nothing legal
            return op.otherwise
    return None  # a play's `pass_to` is reached only by a decision (a pass)


class MachineBuilder:
    """Writes the Python source of block functions into a CodeGen's program."""

    _OPS: ClassVar[NodeTable[Callable[..., None]]]  # op class -> its method (set below the class)

    def __init__(self, g: CodeGen, record: bool, blocks: list[ir.Block], procedures: dict[str, tuple[str, Any]],
                 actions: dict[str, Any], triggers: bool, hooks: set[str], phase_labels: dict[str, int]):
        self.g = g
        self.record = record
        self.blocks = blocks
        self.procedures = procedures  # name -> ("fn", generated name) | ("block", block id)
        self.actions = actions  # name -> its generated functions (interpreter/compiler/actiongen.py)
        self.triggers = triggers
        self.at_once = False  # the program has `FT` (compile._triggers_at_once)
        self.hooks = hooks
        self.phase_labels = phase_labels
        # traced: what the code being emitted knows of the open step (`event`): None, nothing;
        # "closed", no step is open; "open", the local `st` is it, with events noted already;
        # "turns", no step is open and the flow's step of turn events is kept as a tuple
        # (`turn_players` the kinds and players noted so far, recording.turns_code)
        self.step_known: str | None = None
        self.turn_players: list[tuple[str, str]] = []
        # `fused apply`: each play op whose move's path back to it is straight (block id, op,
        # its section's lines from the move on, but a pick in place, their indent, whether
        # every move it offers is played in place, the actions offered, whether the current
        # player decides)
        self.fusable: list[tuple[int, int, list[str], str, bool, tuple[str, ...], bool]] = []
        self.picked: list[str] = []  # the block's locals holding a move just picked (`pick_in_place`)
        # `choose in place`: the blocks take a choice handed in by apply() (Program.plain;
        # traced, Program.takes_choices and Game._take_choice)
        self.takes_choices = CodeGen.CHOOSE_IN_PLACE

    def build(self, bid: int) -> str:
        blk = self.blocks[bid]
        self.bid = bid
        self.rule = blk.rule
        self.ops = blk.ops
        name = f"B_{bid}"
        lines = ["    pc = F[1]", "    while True:"]
        self.g.in_block = True  # `current` changes inside a block: read it each time
        n = len(blk.ops)
        size = max(_GROUP, math.isqrt(n)) if n > 2 * _GROUP else n
        ind = "        "
        for k, op in enumerate(blk.ops):
            if size < n and k % size == 0:  # a resumed block tests one `pc < ...` per group
                lines.append(f"        if pc < {min(k + size, n)}:  # @S-")  # passed, not each section's `pc == k`
                ind = "            "
            lines.append(f"{ind}if pc == {k}:  # {type(op).__name__}  # @S-")
            self.step_known = None  # a section is entered from anywhere
            body: list[str] = []
            self.op(k, op, body, ind + "    ")
            lines.extend(body)
        self.g.in_block = False
        for picked in self.picked:  # no move picked yet in this call (`listing follows the move`)
            lines.insert(0, f"    {picked} = None")
        self.picked = []
        self.g.function(name, ["F", "m=None"], lines)
        return name

    # ------------------------------------------------------------------ helpers
    def scope(self, names: tuple[str, ...]) -> dict:
        return {n: (f"L[{n!r}]", None) for n in names}

    def ex(self, e: A.Node, names: tuple[str, ...]) -> str:
        return self.g.ex(e, self.scope(names))

    def goto_pc(self, k: int, target: int, out: list[str], ind: str) -> None:
        out.append(f"{ind}pc = {target}")
        if target <= k:  # backwards: another round of the loop, charged to the work budget
            if not self.decides_every_round(target, k):
                out.append(f"{ind}G.work -= 1")
                out.append(f"{ind}if G.work < 0:")
                out.append(f"{ind}    F[1] = pc")
                out.append(f"{ind}    G.out_of_work(None)")
            out.append(f"{ind}continue")

    def decides_every_round(self, head: int, back: int) -> bool:
        """Whether every round of the loop from op `head` to the jump back at op `back` meets a
        `play` or `choose`, which either stops for a decision or charges the work budget
        itself (a play nobody can make): then the round needs no charge of its own. The body
        qualifies when straight-line ops lead from its head to its first decision and every
        jump after that goes forward within the body (`play ... else`: the `else` part and the
        jump over it), and nothing outside the body jumps into it."""
        ops = self.ops
        first = next((j for j in range(head, back) if isinstance(ops[j], (ir.Play, ir.Choose))), None)
        if first is None or not all(isinstance(op, _STRAIGHT) and _target(op) is None for op in ops[head:first]):
            return False
        for j in range(first, back):
            t = _target(ops[j])
            if t is not None and not j < t <= back:
                return False
        return not any(t is not None and head < t <= back and not head <= j < back
                       for j, t in enumerate(map(_target, ops)))

    def round_trip(self, k: int) -> tuple[list[int], int, list[int]] | None:
        """For play op `k` in a loop that meets no other decision and charges no rounds
        (`decides_every_round`): the straight-line ops after it up to the jump back (past a
        jump forward: over a `play ... else`'s `else` part, which only a play nobody can make
        reaches), the loop's head, and the ops from the head up to `k`. A move played in place
        then runs them inline and lists the next moves without going round the `pc` sections
        (the same ops, in the same order, with the same `pc` at each)."""
        ops = self.ops
        after, back = [], k + 1
        while back < len(ops):
            op = ops[back]
            if isinstance(op, ir.Jump) and op.target > back:  # over a `play ... else`'s `else` part
                back = op.target
            elif isinstance(op, _STRAIGHT) and not isinstance(op, (ir.Play, ir.Choose)):
                after.append(back)
                back += 1
            else:
                break
        if back >= len(ops) or not isinstance(ops[back], ir.Jump):
            return None
        head = ops[back].target
        if head > k or not self.decides_every_round(head, back):
            return None
        if any(isinstance(op, (ir.Play, ir.Choose)) for op in ops[head:k]):
            return None
        return after, head, list(range(head, k))

    def run_deferred(self, k: int, out: list[str], ind: str) -> None:
        """After a run of statements (or a move's effect), the triggers they set off that had to
        wait (Game.fire_now) run before op `k + 1`: the rule can pause here."""
        if self.triggers:
            out.append(f"{ind}if G._deferred:")
            out.append(f"{ind}    F[1] = {k + 1}")
            out.append(f"{ind}    return False")

    def before_decision(self, k: int, out: list[str], ind: str) -> None:
        if self.triggers:
            out.append(f"{ind}if {'FT(G)' if self.at_once else 'G.fire_triggers()'}:")
            out.append(f"{ind}    F[1] = {k}")
            out.append(f"{ind}    return False")
            out.append(f"{ind}if G.result is not None:")
            out.append(f"{ind}    return True")

    def who(self, by: A.Node | None, names: tuple[str, ...]) -> str:
        return self.ex(by, names) if by is not None else "G.current"

    # ------------------------------------------------------------------ ops
    def op(self, k: int, op: ir.Op, out: list[str], ind: str) -> None:
        """The code of op `k`: one method per kind of op (`_OPS`)."""
        if not isinstance(op, (ir.TurnBegin, ir.TurnEnd)):  # only a turn's ends leave the open step known
            self.step_known = None
        self._OPS[type(op)](self, k, op, out, ind)  # a TypeError names a stray op class

    def _op_seg(self, k: int, op: ir.Seg, out: list[str], ind: str) -> None:
        stmts, names = op.stmts, op.names
        nxt = f"{ind}pc = {k + 1}"
        g = self.g
        if self.record:
            out.append(f"{ind}G._auto(F)")
        sc = self.scope(names)
        before = set(sc)
        body: list[str] = []
        g.stmts(stmts, sc, body, ind)
        out.extend(body)
        for n in sc:  # new names bound at this level live on in the frame
            if n not in before:
                out.append(f"{ind}L[{n!r}] = {sc[n][0]}")
        self.run_deferred(k, out, ind)
        out.append(nxt)

    def _op_play(self, k: int, op: ir.Play, out: list[str], ind: str) -> None:
        actions, optional, by, names = op.actions, op.optional, op.by, op.names
        nxt = f"{ind}pc = {k + 1}"
        played = [a for a in actions if self.actions[a].plays_in_place]
        path = self.round_trip(k) if played else None
        # traced: the flow's step a round trip opened, closed in place at the decision
        closes_own = self.record and path is not None and not self.triggers
        # ... and kept as one tuple when the round trip only ends and starts turns (no hooks)
        turns = closes_own and path is not None and self.turns_only([*path[0], *path[2]])
        start = len(out)
        if closes_own:
            out.append(f"{ind}rt = None")
        if played:  # apply() hands over a move offered here: play it, then go on
            self.play_in_place(k, played, out, ind)
            if path is None:
                out.append(f"{ind}else:  # @S-")
                ind += "    "
                nxt = f"{ind}pc = {k + 1}"
            else:  # round the loop back to this play in place, then list its moves below
                after, head, before = path
                self.step_known = "closed" if self.record else None  # the move's step was closed
                if turns:
                    self.step_known, self.turn_players = "turns", []
                for j in after:
                    out.append(f"{ind}    # @S-")
                    self.op(j, self.ops[j], out, ind + "    ")
                out.append(f"{ind}    pc = {head}")
                for j in before:
                    out.append(f"{ind}    # @S-")
                    self.op(j, self.ops[j], out, ind + "    ")
                if turns:  # the flow's step of turn events as one tuple
                    kinds = tuple(kind for kind, _ in self.turn_players)
                    names = [name for _, name in self.turn_players]
                    out.append(f"{ind}    rt = {turns_code(self.step_key(), kinds, names)}")
                elif closes_own and self.step_known == "open":  # kept for its events; no dict written
                    out.append(f"{ind}    rt = st")
                out.append(f"{ind}# @S-")
                self.step_known = None  # the listing below is reached from elsewhere too
        self.before_decision(k, out, ind)
        out.append(f"{ind}who = {self.who(by, names)}")
        # the player's own pending dict by a subscript (specialised), not `.get(who) or` (a method
        # call: 0.15 k more instructions a decision); the try costs nothing unless it fails
        out.append(f"{ind}try:")
        out.append(f"{ind}    G.pending = PLAYING[who]")
        out.append(f"{ind}except KeyError:")
        out.append(f"{ind}    G.pending = {{'kind': 'play', 'player': who}}")
        shared = tuple(dict.fromkeys(actions)) in self.g.shared_plays
        every = not optional and set(played) == set(actions)  # every move offered here is played in place
        # `listing follows the move` (follows.py): the next listing after a move of this one action
        follows = actions[0] if len(actions) == 1 and every and not shared \
            and self.straight(played, path) and CodeGen.LISTING_FOLLOWS \
            and listing_follows(self.g, self.g.m.actions[actions[0]]) else None
        if follows is not None and taken_by_its_move(self.g, self.g.m.actions[follows]):
            self.g.taken_by_move.add(follows)  # the next listing always drops the move (offeredat.py)
        # one action whose moves are kept (carry.kept_listing): the kept list itself, never
        # changed afterwards (`optional` appends to it: a list of its own then). Not where the
        # listing follows the move: listed in full the few times it is listed, nothing is kept,
        # so no write is logged for it either
        kept = follows is None
        alone = kept and len(actions) == 1 and not optional and self.actions[actions[0]].kept is not None
        picks = self.picks_in_place(actions, played, optional)
        listing: list[str] = [f"{ind}legal = []" if not alone else f"{ind}# @S-"]
        if shared:  # definitions these listings share, worked out once (shared_calls.py)
            listing.append(f"{ind}G._shared = {{}}")
            listing.append(f"{ind}try:")
        for a in actions:
            self.enumerate(a, listing, ind + "    " if shared else ind, alone, kept)
        if shared:  # never kept past the listings, whatever they raise
            listing.append(f"{ind}finally:")
            listing.append(f"{ind}    G._shared = None")
        if optional:
            listing.append(f"{ind}legal.append(PASS)")
        before_listing = len(out)
        if follows is not None and picks:  # a move picked here just now: the list it came from, less it
            picked = f"_picked{k}"
            self.picked.append(picked)
            out.append(f"{ind}if {picked} is not None:")
            out.append(f"{ind}    legal = _from{k}")
            out.extend(self.follow_lines(follows, picked, ind + "    "))
            out.append(f"{ind}    {picked} = None")
            out.append(f"{ind}else:")
            out.extend("    " + line for line in listing)
        else:
            out.extend(listing)
        listed = len(out)
        out.append(f"{ind}if legal:")
        if picks:
            self.g.chose("picked in place", f"play {', '.join(dict.fromkeys(actions))}", self.rule)
            self.pick_in_place(k, out, ind + "    ", follows is not None)
        waits = len(out)  # what follows a pick in place: the decision waits
        out.append(f"{ind}    F[1] = {k}")
        out.append(f"{ind}    G._legal = legal")
        if closes_own:
            out.append(f"{ind}    if rt is None:")
            out.append(f"{ind}        G._close()")
            out.append(f"{ind}    else:")
            if turns:  # no step is open: the tuple is the flow's step, kept as it is
                out.append(f"{ind}        {keep_turns_code('rt')}")
            else:  # only a turn's ends and the listing ran since it opened (`step_known`): nothing written
                out.extend(kept_close_code("rt", f"{ind}        ", wrote=False))
        elif self.record:
            out.append(f"{ind}    G._close()")
        out.append(f"{ind}    return True")
        out.append(f"{ind}G.pending = None")  # nobody can be asked to do the impossible
        if turns:  # the flow's step kept as a tuple is open again, for the event below
            out.append(f"{ind}if rt is not None:")
            out.append(f"{ind}    G._reopen_turns(rt)")
        if self.record:
            self.player_event("no legal action", "who", out, ind)
        out.append(nxt if op.otherwise is None else f"{ind}pc = {op.otherwise}")  # `play ... else`
        # where the block goes on, kept in the frame at once: a fused apply goes on from there
        # by running the block anew (`fused_apply`), and the frame is then the same either way
        out.append(f"{ind}F[1] = pc")
        out.append(f"{ind}G.work -= {SKIPPED_PLAY_WORK}")  # it listed every candidate
        out.append(f"{ind}if G.work < 0:")
        out.append(f"{ind}    G.out_of_work(None)")
        if self.fuses(played, path):  # the section but for a pick in place (`fused_apply`)
            # the listing there, where it follows the move, the list the move came from less it
            lists = listing if follows is None else self.follow_lines(follows, "action", ind)
            section = out[start:before_listing] + lists + out[listed:listed + 1] + out[waits:]
            self.fusable.append((self.bid, k, section, ind, every, tuple(dict.fromkeys(actions)), by is None))

    def _op_choose(self, k: int, op: ir.Choose, out: list[str], ind: str) -> None:
        var, domain, where, by, prompt, span, names = op.var, op.domain, op.where, op.by, op.prompt, op.span, op.names
        g = self.g
        if self.takes_choices:  # apply() hands the choice back here: the option bound, then on
            g.chose("choose in place", f"choose {var}", self.rule)
            out.append(f"{ind}if m is not None:")  # the frame as `_take` leaves it: on at k + 1
            out.append(f"{ind}    F[1] = {k + 1}")
            out.append(f"{ind}    L[{var!r}] = m[1][0]")
            out.append(f"{ind}    m = None")
            out.append(f"{ind}    pc = {k + 1}")
            out.append(f"{ind}else:")
            ind += "    "
        self.before_decision(k, out, ind)
        out.append(f"{ind}who = {self.who(by, names)}")
        x = g.fresh("x")
        one_per = one_per_parts(where, var) if CodeGen.SLOTS_ONCE else None
        table = self.choice_table(domain, var) if one_per is None else None
        if one_per is not None:  # `choose N of ... one per`: the chosen items' slots listed once
            self.one_per_options(one_per, var, domain, names, x, out, ind)
        elif where is not None and table is not None:  # options and their moves in one loop
            wsc = {**self.scope(names), var: (x, None)}
            out.append(f"{ind}opts = []")
            out.append(f"{ind}legal = []")
            out.append(f"{ind}for {x} in _seq({self.ex(domain, names)}):")
            out.append(f"{ind}    if {g.ex(where, wsc)}:")
            out.append(f"{ind}        opts.append({x})")
            out.append(f"{ind}        legal.append({table}[{x}])")
        elif where is not None:
            wsc = {**self.scope(names), var: (x, None)}
            out.append(f"{ind}opts = [{x} for {x} in _seq({self.ex(domain, names)}) if {g.ex(where, wsc)}]")
        elif options_unrolled(g, domain, self.scope(names), table, out, ind):  # `options unrolled`
            pass
        else:
            out.append(f"{ind}opts = list(_seq({self.ex(domain, names)}))")
            if table is not None:
                out.append(f"{ind}legal = []")
                out.append(f"{ind}for {x} in opts:")
                out.append(f"{ind}    legal.append({table}[{x}])")
        out.append(f"{ind}if not opts:")
        out.append(f"{ind}    raise RuleFailure({f'nothing to choose for {var!r}'!r}, SPANS[{g.span_id(span)}])")
        out.append(f"{ind}F[1] = {k}")
        out.append(f"{ind}G.pending = {{'kind': 'choose', 'player': who, 'var': {var!r}, "
                   f"'options': opts, 'prompt': {prompt!r}}}")
        if table is not None:  # what `legal_actions()` hands out: no `_moves` made at its call
            out.append(f"{ind}G._legal = legal")
        if self.record:
            out.append(f"{ind}G._close()")
        out.append(f"{ind}return True")

    def choice_table(self, domain: A.Node, var: str) -> str | None:
        """`choice moves listed`: the moves of a `choose` whose options are of a finite type
        (a board's squares, an enum, players, bool, or one of these or none), by option: a
        constant of the program, its moves those `game._choice_moves` hands out for the same
        options (the program's `choice_moves`, filled now), so the block lists the moves with
        the options and `legal_actions()` makes none. None for any other domain."""
        g = self.g
        if not CodeGen.CHOICE_MOVES_LISTED:
            return None
        t = g.static_type(domain).item
        base = t.base
        if isinstance(base, Elem):
            values = list(g.players) if base.name == "Player" else g.elements.get(base.name)
        else:
            values = [True, False] if base == BOOL else None
        if not values:
            return None
        values = [*values, *((None,) if isinstance(t, Opt) else ())]
        table = {}
        for v in values:  # the program's own moves of these options, made now where missing
            by_type = g.choice_moves.setdefault(type(v), {})
            table[v] = by_type.get(v) or by_type.setdefault(v, Action("choose", (v,)))
        g.chose("choice moves listed", f"choose {var}", self.rule)
        name = g.const(table, "CM")
        g.canonical_consts.add(name)  # its options are the elements' or the players': canonical
        return name

    def one_per_options(self, parts: tuple[A.Node, A.Node, A.Node], var: str, domain: A.Node,
                        names: tuple[str, ...], x: str, out: list[str], ind: str) -> None:
        """The options of a `choose N of k in ITEMS one per c in SLOTS where FITS`: each item
        not chosen yet that still leaves every chosen item a slot of its own. The chosen
        items' slot lists are the same for every candidate (nothing changes while options are
        listed), so they are listed once, when the first candidate needs them (in the same
        order as before, so a FITS that fails does so where it did), and each candidate adds
        its own list (`slots once`: Root's Duchy listed them again for each card in hand, 5%
        of a random game's bytecodes)."""
        g = self.g
        chosen, new, inner = parts
        sc = self.scope(names)
        slots, held = g.fresh("sl"), g.fresh("n")
        g.chose("slots once", f"choose {var}", self.rule)
        out.append(f"{ind}opts = []")
        out.append(f"{ind}{slots} = None")
        out.append(f"{ind}for {x} in _seq({self.ex(domain, names)}):")
        out.append(f"{ind}    if not ({g.ex(new, {**sc, var: (x, None)})}):")
        out.append(f"{ind}        continue")
        out.append(f"{ind}    if {slots} is None:")
        each = A.Aggregate(inner.span, "list", var, chosen, None, inner)
        # the slots that pass FITS' parts reading nothing of the item, once for the chosen
        # items and every candidate (slots.py)
        split = split_slots(g, inner, var, sc) if g.SLOTS_FILTERED and g.LOOP_FORMS else None
        if split is not None:
            kept, a = g.fresh("ks"), g.fresh("a")
            out.append(f"{ind}        {kept} = {kept_slots(g, split, sc)}")
            dom = g.seq(g.ex(chosen, sc), chosen, sc)
            if not g.bounded(chosen, sc):  # charged as the aggregate charges it
                dom = f"_charged(G, {dom}, SPANS[{g.span_id(each.span)}])"
            out.append(f"{ind}        {slots} = [{item_slots(g, split, kept, {**sc, var: (a, None)})} for {a} in {dom}]")
            mine = item_slots(g, split, kept, {**sc, var: (x, None)})
            g.chose("slots filtered once", f"choose {var}", self.rule)
        else:
            out.append(f"{ind}        {slots} = {g.ex(each, sc)}")
            mine = g.ex(inner, {**sc, var: (x, None)})
        out.append(f"{ind}        {held} = len({g.ex(chosen, sc)}) + 1")
        out.append(f"{ind}    if b_matching_size([*{slots}, {mine}]) == {held}:")
        out.append(f"{ind}        opts.append({x})")

    def _op_jump_unless(self, k: int, op: ir.JumpUnless, out: list[str], ind: str) -> None:
        test, target, names = op.test, op.target, op.names
        out.append(f"{ind}if {self.ex(test, names)}:")
        out.append(f"{ind}    pc = {k + 1}")
        out.append(f"{ind}else:")
        self.goto_pc(k, target, out, ind + "    ")

    def _op_jump(self, k: int, op: ir.Jump, out: list[str], ind: str) -> None:
        target = op.target
        self.goto_pc(k, target, out, ind)

    def _op_for_init(self, k: int, op: ir.ForInit, out: list[str], ind: str) -> None:
        slot, domain, names = op.slot, op.domain, op.names
        nxt = f"{ind}pc = {k + 1}"
        g = self.g
        listed = g.LIST_ROUNDS and isinstance(g.static_type(domain, self.scope(names)).base, ListOf)
        if listed:  # `list rounds`: the list itself, kept in the slot (lists are values)
            g.chose("list rounds", expr_text(domain), self.rule)
            out.append(f"{ind}items = {self.ex(domain, names)}")
        else:
            out.append(f"{ind}items = _seq({self.ex(domain, names)})")
        out.append(f"{ind}if len(items) > G.work_budget:  # its rounds are charged as they go")
        out.append(f"{ind}    G.work = -len(items)")
        out.append(f"{ind}    G.out_of_work(None)")
        if listed:  # a list value is never changed in place: no copy (any other sequence: a list)
            out.append(f"{ind}L[{slot!r}] = [items if type(items) is list else list(items), 0]")
        else:
            out.append(f"{ind}L[{slot!r}] = [list(items), 0]")
        out.append(nxt)

    def _op_for_next(self, k: int, op: ir.ForNext, out: list[str], ind: str) -> None:
        slot, var, end = op.slot, op.var, op.end
        if self.scanned(k, op, out, ind):
            return
        out.append(f"{ind}items, i = L[{slot!r}]")
        out.append(f"{ind}if i < len(items):")
        out.append(f"{ind}    L[{var!r}] = items[i]")
        out.append(f"{ind}    L[{slot!r}] = [items, i + 1]")
        out.append(f"{ind}    pc = {k + 1}")
        out.append(f"{ind}else:")
        self.goto_pc(k, end, out, ind + "    ")

    def scanned(self, k: int, op: ir.ForNext, out: list[str], ind: str) -> bool:
        """A `for x in xs` of a block whose body starts with `if C` (C cannot fail) and has
        nothing after that `if`: the items failing C are passed over by one plain loop, not a
        trip round the block's `pc` ladder each (`scanned loop`). The flow of Shogun's
        summer, `for o in plan[p]: if o.act == a and owner[o.province] == p: do perform(...)`,
        went through four sections and made a slot list per card. What a round leaves in the
        frame is the same: `L[x]` the item (a local while the scan goes on), the slot `[items,
        i]` wherever the block can stop or fail (C true, the budget's check, the loop's end; only when an item was taken, as
        before), each item passed over charged 1 with `F[1]` at the loop as its jump back
        charged it, and C is tested once per item, after it is bound, where it was."""
        g = self.g
        ops = self.ops
        test = ops[k + 1] if k + 1 < len(ops) else None
        if not g.SCANNED_LOOPS or not isinstance(test, ir.JumpUnless):
            return False
        t = test.target
        back = ops[t] if k + 1 < t < len(ops) else None
        if not (isinstance(back, ir.Jump) and back.target == k) or not cannot_fail(g.m, test.test):
            return False
        slot, var = op.slot, op.var
        x = g.fresh("x")  # the item, in a local while the scan goes on; in the frame where it stops
        sc = {**self.scope(test.names), var: (x, None)}
        out.append(f"{ind}items, i = L[{slot!r}]")
        out.append(f"{ind}n = len(items)")
        out.append(f"{ind}i0 = i")
        self.scan_held(test.test, var, test.names, sc, out, ind)  # `sc` reads the held locals
        charged = not self.decides_every_round(k, t)  # the jump back charged each round
        local_work = charged and g.SCAN_LOCALS  # the budget's counter in a local while the scan goes on
        if local_work:
            out.append(f"{ind}_wk = G.work")
        cond = g.ex(test.test, sc)
        if local_work and g.SCAN_CHARGED_AFTER:  # `scan charged after`: the items' charges where it stops
            self.scan_charged_after(k, op, x, cond, out, ind)
            g.chose("scan charged after", f"for {var} ... if {expr_text(test.test)}", self.rule)
            out.append(f"{ind}else:")
            ind += "    "
        out.append(f"{ind}while i < n:")
        out.append(f"{ind}    {x} = items[i]")
        out.append(f"{ind}    i += 1")
        out.append(f"{ind}    if {cond}:")
        out.append(f"{ind}        L[{var!r}] = {x}")
        out.append(f"{ind}        L[{slot!r}] = [items, i]")
        if local_work:
            out.append(f"{ind}        G.work = _wk")
        out.append(f"{ind}        pc = {k + 2}")
        out.append(f"{ind}        break")
        if charged:
            work = "_wk" if local_work else "G.work"
            out.append(f"{ind}    {work} -= 1")
            out.append(f"{ind}    if {work} < 0:")
            out.append(f"{ind}        L[{var!r}] = {x}")
            out.append(f"{ind}        L[{slot!r}] = [items, i]")
            out.append(f"{ind}        F[1] = {k}")
            if local_work:
                out.append(f"{ind}        G.work = _wk")
            out.append(f"{ind}        G.out_of_work(None)")
            if local_work:
                out.append(f"{ind}        _wk = G.work")
        out.append(f"{ind}else:")
        if local_work:
            out.append(f"{ind}    G.work = _wk")
        out.append(f"{ind}    if i != i0:")
        out.append(f"{ind}        L[{var!r}] = items[i - 1]")
        out.append(f"{ind}        L[{slot!r}] = [items, i]")
        self.goto_pc(k, op.end, out, ind + "    ")
        g.chose("scanned loop", f"for {var} ... if {expr_text(test.test)}", self.rule)
        return True

    def scan_charged_after(self, k: int, op: ir.ForNext, x: str, cond: str, out: list[str], ind: str) -> None:
        """`scan charged after`: a scanned loop whose counter `_wk` covers a charge for every item
        left (`_wk >= n - i`) passes over them uncharged, and the counter takes what their
        charges add up to where the scan stops: `i - i0 - 1` when the test holds for the
        `i`th item (every item before it failed and was charged 1), `n - i0` at the end. Exact:
        each charge is 1 and the counter only falls while the scan goes on (the test cannot
        fail and reads nothing of the game's counter: `scan locals` holds it in `_wk`
        already), so when it covers them all no charge could have found it below 0 and called
        `out_of_work`; otherwise the loop as it was (written after this one's `else`). Shogun's
        summer scans `plan[p]` for each act and player: some 1,400 items passed over a game."""
        slot, var = op.slot, op.var
        out.append(f"{ind}if _wk >= n - i:  # every item left charged where the scan stops")
        out.append(f"{ind}    while i < n:")
        out.append(f"{ind}        {x} = items[i]")
        out.append(f"{ind}        i += 1")
        out.append(f"{ind}        if {cond}:")
        out.append(f"{ind}            L[{var!r}] = {x}")
        out.append(f"{ind}            L[{slot!r}] = [items, i]")
        out.append(f"{ind}            G.work = _wk - (i - i0 - 1)")
        out.append(f"{ind}            pc = {k + 2}")
        out.append(f"{ind}            break")
        out.append(f"{ind}    else:")
        out.append(f"{ind}        G.work = _wk - (n - i0)")
        out.append(f"{ind}        if i != i0:")
        out.append(f"{ind}            L[{var!r}] = items[i - 1]")
        out.append(f"{ind}            L[{slot!r}] = [items, i]")
        self.goto_pc(k, op.end, out, ind + "        ")

    def scan_held(self, test: A.Node, var: str, names: tuple[str, ...], sc: dict, out: list[str],
                  ind: str) -> list[str]:
        """In a scanned loop, the block's locals its test reads other than the item (Shogun's
        `a` and `p` in `o.act == a and owner[o.province] == p`), read from the frame into
        locals once per scan instead of once per item (`scan locals`): nothing in the scan
        writes the frame's locals (the test cannot fail and changes nothing), and each is bound
        in the frame wherever the test can be reached, the rules binding a name before its
        scope. `sc` is changed to read the locals; the names held, in the order read."""
        g = self.g
        if not g.SCAN_LOCALS:
            return []
        held = sorted({n.name for n, bound in hoist.occurrences(test)
                       if isinstance(n, A.Name) and n.name != var and n.name in names and n.name not in bound})
        for n in held:
            local = g.fresh("h")
            out.append(f"{ind}{local} = L[{n!r}]")
            sc[n] = (local, None)
        if held:
            g.chose("scan locals", f"{', '.join(held)} in {expr_text(test)}", self.rule)
        return held

    def _op_repeat_init(self, k: int, op: ir.RepeatInit, out: list[str], ind: str) -> None:
        slot, times, names = op.slot, op.times, op.names
        nxt = f"{ind}pc = {k + 1}"
        out.append(f"{ind}L[{slot!r}] = {self.ex(times, names)}")
        out.append(nxt)

    def _op_count_init(self, k: int, op: ir.CountInit, out: list[str], ind: str) -> None:
        slot, n = op.slot, op.n
        nxt = f"{ind}pc = {k + 1}"
        out.append(f"{ind}L[{slot!r}] = {n}")
        out.append(nxt)

    def _op_count_next(self, k: int, op: ir.CountNext, out: list[str], ind: str) -> None:
        slot, end = op.slot, op.end
        out.append(f"{ind}n = L[{slot!r}]")
        out.append(f"{ind}if n > 0:")
        out.append(f"{ind}    L[{slot!r}] = n - 1")
        out.append(f"{ind}    pc = {k + 1}")
        out.append(f"{ind}else:")
        self.goto_pc(k, end, out, ind + "    ")

    def _op_turn_begin(self, k: int, op: ir.TurnBegin, out: list[str], ind: str) -> None:
        who, slot, names = op.who, op.slot, op.names
        nxt = f"{ind}pc = {k + 1}"
        if who is not None:  # the turn is given back at its end: keep whose it was
            out.append(f"{ind}L[{slot!r}] = G.current")
            out.append(f"{ind}G.current = {self.ex(who, names)}")
        if self.record:
            self.player_event("turn start", "G.current", out, ind)
        self.hook("turn start", k, out, ind)
        out.append(nxt)

    def _op_turn_end(self, k: int, op: ir.TurnEnd, out: list[str], ind: str) -> None:
        rotate, slot = op.rotate, op.slot
        nxt = f"{ind}pc = {k + 1}"
        self.hook("turn end", k, out, ind)
        if self.record:
            self.player_event("turn end", "G.current", out, ind)
        if rotate:  # the next seat, from a table the game made of its players
            out.append(f"{ind}nxt_p, new_round, nxt_pending = G._next[G.current]")  # (pendingnext.py)
            out.append(f"{ind}if new_round:")
            out.append(f"{ind}    G.round += 1")
            out.append(f"{ind}G.current = nxt_p")
        else:
            out.append(f"{ind}G.current = L[{slot!r}]")
        out.append(nxt)

    def _op_phase_begin(self, k: int, op: ir.PhaseBegin, out: list[str], ind: str) -> None:
        name, slot = op.name, op.slot
        nxt = f"{ind}pc = {k + 1}"
        out.append(f"{ind}L[{slot!r}] = G.phase")
        out.append(f"{ind}G.phase = {name!r}")
        if self.record:
            self.event(phase_event_code('phase start', name), out, ind)
        out.append(nxt)

    def _op_phase_end(self, k: int, op: ir.PhaseEnd, out: list[str], ind: str) -> None:
        name, slot = op.name, op.slot
        nxt = f"{ind}pc = {k + 1}"
        if self.record:
            self.event(phase_event_code('phase end', name), out, ind)
        out.append(f"{ind}G.phase = L.get({slot!r})")
        out.append(nxt)

    def _op_call(self, k: int, op: ir.Call, out: list[str], ind: str) -> None:
        proc, args, params, names = op.proc, op.args, op.params, op.names
        nxt = f"{ind}pc = {k + 1}"
        kind, ref = self.procedures[proc]
        values = [self.ex(a, names) for a in args]
        out.append(f"{ind}G.work -= {CALL_WORK}")  # a procedure call (codegen.charge_call)
        out.append(f"{ind}if G.work < 0:")
        out.append(f"{ind}    F[1] = {k}")
        out.append(f"{ind}    G.out_of_work(None)")
        if kind == "fn":
            if self.record:
                out.append(f"{ind}G._auto((None, None, None, {'procedure:' + proc!r}))")
            out.append(f"{ind}if {ref}(G{''.join(', ' + v for v in values)}):")
            out.append(f"{ind}    F[1] = {k + 1}")
            out.append(f"{ind}    return True")
            out.append(nxt)
        else:
            local = "{" + ", ".join(f"{p!r}: {v}" for p, v in zip(params, values, strict=True)) + "}"
            out.append(f"{ind}F[1] = {k + 1}")
            out.append(f"{ind}G.frames.append([{ref}, 0, {local}, {'procedure:' + proc!r}])")
            out.append(f"{ind}return False")

    def _op_window(self, k: int, op: ir.Window, out: list[str], ind: str) -> None:
        var, domain, body, names = op.var, op.domain, op.body, op.names
        nxt = f"{ind}pc = {k + 1}"
        outer = "{" + ", ".join(f"{n!r}: L[{n!r}]" for n in names if n != var) + "}"
        out.append(f"{ind}F[1] = {k + 1}")
        out.append(f"{ind}if G.open_window(F, {body}, {var!r}, _seq({self.ex(domain, names)}), {outer}):")
        out.append(f"{ind}    return True")
        out.append(f"{ind}if G.result is not None:")
        out.append(f"{ind}    return True")
        out.append(nxt)

    def _op_goto(self, k: int, op: ir.Goto, out: list[str], ind: str) -> None:
        phase = op.phase
        if self.record:
            self.event(phase_event_code("goto", phase), out, ind)
        out.append(f"{ind}del G.frames[1:]")
        out.append(f"{ind}G.phase = None")
        out.append(f"{ind}G.frames[0][1] = {self.phase_labels[phase]}")
        out.append(f"{ind}return False")

    def _op_ret(self, k: int, op: ir.Ret, out: list[str], ind: str) -> None:
        out.append(f"{ind}G.frames.pop()")
        out.append(f"{ind}G.left(F)")
        out.append(f"{ind}return False")

    def fuses(self, played: list[str], path: tuple[list[int], int, list[int]] | None) -> bool:
        """`fused apply`: the section from a move back to this decision is straight code
        (`straight`), which `fused_apply` copies."""
        return CodeGen.FUSED_APPLY and self.straight(played, path, CodeGen.FUSED_KEPT_CHECKS)

    def straight(self, played: list[str], path: tuple[list[int], int, list[int]] | None,
                 unchecked: bool = False) -> bool:
        """No triggers, moves played in place (traced: their checks worked out in the block
        too, or, `unchecked`, some not: `fused kept checks`), and the way from the move back to
        this decision only ends and starts turns (no hooks): nothing but the move's effect and
        the turn's change runs before the next listing."""
        return bool(played) and path is not None \
            and not self.triggers and not ({"turn start", "turn end"} & self.hooks) \
            and all(isinstance(self.ops[j], (ir.TurnBegin, ir.TurnEnd)) for j in (*path[0], *path[2])) \
            and (not self.record or unchecked or all(self.actions[a].checks_in_place for a in played))

    def fused_apply(self) -> str | None:
        """`fused apply` (CodeGen.FUSED_APPLY): where the program has one decision whose moves
        `fuses` allows, a function `BA_n` to be its games' `apply` (game.py `game_class`, for
        lean programs): `LeanGame.apply`'s steps for a move offered there (traced,
        `LeanTracedGame.apply`'s for a move recorded in the block), then the block's own section
        from the move to the next decision, copied, so a move costs no call of the block and no
        walk of its `pc` sections. Anything else (a move not offered by identity, another
        decision, a move not played or recorded in place, a game that keeps its history) goes
        the class's own or `Game.apply`'s way. During a playout that picks moves in the block
        (`pick_in_place`: untraced) the copy lists the next moves and stops there: the
        playout's loop then picks from the same listing with the same generator and counts the
        move once, so the game and the count are the same. Where nobody can move, the copy
        leaves the frame at the op the block goes on at and runs the block from there; where
        its lines return (the game finished in the effect), the game runs on as the class's
        `apply` has it run after the block returned that (game.py `after_block`, `after_traced`, put
        in on the tree: `pytree.returns_after`)."""
        if len(self.fusable) != 1:
            return None
        bid, k, region, ind, every, offered, by_current = self.fusable[0]
        # the frame waits at op k of block bid; with one block, its frames are all block bid's
        at = f"F[1] == {k}" if len(self.blocks) == 1 else f"F[0] == {bid} and F[1] == {k}"
        region = _move_known(region, ind)
        if CodeGen.FUSED_STEPS_TRIMMED:  # the move's arguments read from `action` (fusedsteps.py)
            region = [_args_of_action(line) if region[i - 1] == f"{ind}try:" else line for i, line in enumerate(region)]
        waits = region.index(f"{ind}if legal:") + 1
        waits += next(i for i, line in enumerate(region[waits:]) if line == f"{ind}    return True")
        region[waits] = f"{ind}    return"  # the decision waits: nothing ran on (a hook would not be here)
        kept = CodeGen.DECISION_KEPT and _decision_kept(region, ind, k)
        if kept:  # the frame stays at the decision's op while the move plays (`decision kept`)
            region.remove(f"{ind}F[1] = {k + 1}")
            region.remove(f"{ind}    F[1] = {k}")
        self.g.fused_kept = k if kept else None
        self.g.fused_taken = len(offered) == 1 and offered[0] in self.g.taken_by_move
        body = "                "
        lines = [
            "    legal = G._legal",
            "    if player is None and legal is not None and not G.abandoned:",
            "        for offered in legal:  # by identity, as Game.apply",
            "            if offered is action:",
            "                break",
            "        else:",
            "            return _GAME_APPLY(G, action, player)",
            "        F = G.frames[-1]",
        ]
        if self.record:  # LeanTracedGame.apply's steps for a move recorded in the block
            # the step's checks slot as the block's first lines set it (`deferred checks`)
            deferred = f"{ind}    G._step[{BINDINGS}] = {DEFERRED!r}"
            first = region.index(f"{ind}try:") + 1 if f"{ind}try:" in region else -1
            binds = first >= 0 and region[first].startswith(f"{ind}    p0") and region[first].endswith((" = m[1]", " = action[1]"))
            opened = f"{DEFERRED!r}" if first >= 0 and deferred in region[first:first + 1 + binds] else "None"
            if opened != "None":
                region.remove(deferred)
            # `fused kept checks`: the moves played here whose checks the block does not work
            # out, recorded wherever anything is (`Game._recorded`: not a kept history)
            unchecked = tuple(a for a in offered if self.actions[a].plays_in_place and not self.actions[a].checks_in_place)
            self.g.fused_unchecked = unchecked
            if unchecked:
                self.g.chose("fused kept checks", f"{', '.join(unchecked)} in block {bid}'s fused apply", rule="the engine")
            branched = _steps_in_branches(region, ind, offered, unchecked, opened) \
                if CodeGen.STEP_IN_BRANCH and len(offered) > 1 and every else None
            if branched is not None:  # each move's step opened in its own branch, its key known
                self.g.chose("step opened in its branch", f"block {bid}'s fused apply", rule="the engine")
                region = branched
                # every move offered is recorded here whenever anything is (lean traced: no invariants)
                lines.append(f"        if {'G._recorded_here' if len(unchecked) < len(offered) else 'G._recorded'} and {at}:")
            elif unchecked:
                names = f"action[0] == {unchecked[0]!r}" if len(unchecked) == 1 else f"action[0] in {unchecked!r}"
                lines += ["        key = G._recorded_here.get(action[0])",
                          f"        if (key is not None or G._recorded and {names}) and {at}:"]
            elif every and len(offered) == 1:  # one action, recorded here whenever anything is
                lines += [f"        if G._recorded_here and {at}:",
                          f"            key = {'action:' + offered[0]!r}  # CompiledAction.key"]
            else:
                lines += ["        key = G._recorded_here.get(action[0])",
                          f"        if key is not None and {at}:"]
            lines += [
                "            undo = G._undo",
                f"            if G._snap_next or not len(undo) % {UNDO_EVERY}:",
                "                G._keep_undo(action)",
                "            else:",
                "                undo.append(action)",
                f"            G.work = {WORK_CHUNK}",
                "            G._worked = 0",
                # the player the decision asked: the current one, unchanged since it listed
                "            _who = " + ("G.current" if by_current else "G.pending['player']"),
                "            G._legal = G.pending = None",
                "            G.step_no += 1",
                "            if G._step is not None:",
                "                G._close()",
            ]
            step = f"G._step = [key, False, {opened}, action, (), None, (), (), G.phase, _who]"
            if unchecked and branched is None:  # such a move's step as Game._take_recorded opens it
                lines += ["            if key is not None:", f"                {step}",
                          "            else:", "                G._step = _RECORDED_STEP(G, action, _who)"]
            elif branched is None:
                lines.append(f"            {step}")
            lines.append("            G._jmark = len(G.journal)")
            if any(src.abandonable for src in self.actions.values()):  # else never set: nothing to clear
                lines.append("            G.abandon = None")
        else:
            # a game that keeps its history plays nothing in place (`_plain` empty); a playout
            # picking moves in the block (`G._picks`) meets this decision again and picks there
            lines += [f"        if {at} and {'G._plain' if every else 'action[0] in G._plain'}:",
                      f"            G.work = {WORK_CHUNK}",
                      "            G._worked = 0",
                      "            G.pending = None" if kept else "            G._legal = G.pending = None",
                      "            G.step_no += 1"]
        if any("L[" in line for line in region):
            lines.append("            L = F[2]")
        lines += [
            "            m = action",
            "            try:",
            *(body + line[len(ind):] if line.startswith(ind) else line for line in region),
            "            except _RULE_ERRORS as err:",
            *(_left_decision(k, self.record, "                ") if kept else ()),
            "                raise G._failure(err) from err",
            *(("            except _ANY_ERROR:",  # the lines' own failures (RuleFailure, ...) too
               *_left_decision(k, self.record, "                "),
               "                raise") if kept else ()),
            *(_left_decision(k, self.record, "            ") if kept else ()),
            "            G._run()",  # nobody could move: the block runs on from the frame's op
            "            return",
            f"    return {'_LEAN_TRACED_APPLY' if self.record else '_LEAN_APPLY'}(G, action, player)",
        ]
        name = f"BA_{bid}"
        self.g._pending_inlines = True  # it copies the effect's and the listing's bodies too
        self.g.function(name, ["action", "player=None"], lines)
        self.g.chose("fused apply", f"the moves of block {bid}'s decision at op {k}", rule="the engine")
        return name

    def follow_lines(self, action: str, move: str, ind: str) -> list[str]:
        """`listing follows the move` (follows.py, CodeGen.LISTING_FOLLOWS): `legal` is the list
        the move `move` (a local) of `action` was offered from (in the fused apply the game's
        `_legal`: shared with clones, so copied before it changes), copied less the move where
        its own check (`AC_n`'s body, its domain tests dropped: the move was offered) now fails;
        no other move's test read what the move wrote. Where the move surely fails its own check
        once played (follows.py `taken_by_its_move`), the check is not written: the move is dropped."""
        params = len(self.g.m.actions[action].params)
        self.g.chose("listing follows the move", f"action {action}", rule="the engine")
        if action in self.g.taken_by_move and CodeGen.REMOVED_WHERE_OFFERED:  # its check surely fails now
            return [f"{ind}legal = legal.copy()", f"{ind}legal.remove({move})"]
        return [f"{ind}{', '.join(f'p{j}' for j in range(params))}, = {move}[1]",
                ind + self.g.inline(Inline("check", self.actions[action].check,
                                           args=("legal = legal.copy()", f"legal.remove({move})")))]

    def play_in_place(self, k: int, actions: list[str], out: list[str], ind: str) -> None:
        """The section of Play op `k` for a move `m` handed in by `apply`: the move's effect
        (inlined when short, else a call of its effect function), then on to op `k + 1`. An
        error in the effect is the move's failure, as when the effect runs on its own."""
        out.append(f"{ind}if m is not None:")
        out.append(f"{ind}    F[1] = {k + 1}")
        out.append(f"{ind}    try:")
        for i, action in enumerate(actions):
            src = self.actions[action]
            inner = ind + "        "
            if len(actions) > 1:
                out.append(f"{inner}{'if' if i == 0 else 'elif'} m[0] == {action!r}:")
                inner += "    "
            params = len(self.g.m.actions[action].params)
            checked = self.record and src.checks_in_place
            inlined = src.effect_size <= (MAX_INLINE_TRACED if self.record else MAX_INLINE)
            # `checks' lets kept` (actiongen.checks_lets_kept): the effect takes their values
            given = checked and inlined and src.effect_given is not None
            if checked:  # the move's checks (Game._take_recorded left them), its parameters bound
                self.checks(src, params, out, inner, action, src.lets_again if given else None)
            if not inlined:
                out.append(f"{inner}if {src.effect}(G, *m[1]):")
                out.append(f"{inner}    return True")
                continue
            if params and not checked:
                out.append(f"{inner}{', '.join(f'p{j}' for j in range(params))}, = m[1]")
            if given:
                self.g.chose("checks' lets kept", rule=f"action {action}")
            out.append(inner + self.g.inline(Inline("effect", src.effect_given if given else src.effect)))
        out.append(f"{ind}    except _RULE_ERRORS as err:")
        out.append(f"{ind}        raise G._action_failure(m, err) from err")
        if self.record:  # the move's step (Game._take_recorded opened it) ends with its effect
            if all(self.actions[a].keeps_step for a in actions) and not self.triggers:
                out.append(f"{ind}    st = G._step")  # still the move's own, no dict written whole
                out.extend(kept_close_code("st", ind + "    "))
            else:
                out.extend(move_close_code(ind + "    "))
        out.append(f"{ind}    m = None")
        self.run_deferred(k, out, ind + "    ")
        out.append(f"{ind}    pc = {k + 1}")

    def picks_in_place(self, actions: tuple[str, ...], played: list[str], optional: bool) -> bool:
        """Whether the decision of a `play` can pick its random move itself during
        `Game.playout` (`picked in place`): untraced, and every move it offers is played in
        place (no `pass`, no action with a decision or an `abandon` inside)."""
        return not self.record and bool(played) and len(played) == len(actions) and not optional \
            and CodeGen.PICKS

    def pick_in_place(self, k: int, out: list[str], ind: str, follows: bool = False) -> None:
        """During `Game.playout` (`G._picks` moves still to pick here), the random move of this
        decision is drawn from its listing and played at once by the section above, round the
        block's loop: the steps `playout` and `Game._play_in_block` take for a plain move
        (pending and the listing dropped, the work budget reset, the step counted), without
        leaving the block and entering it again. Outside a playout `G._picks` is 0."""
        windows = any(isinstance(op, ir.Window) for b in self.blocks for op in b.ops)
        out.append(f"{ind}if G._picks{' and G.window is None' if windows else ''}:  # @S-")
        out.append(f"{ind}    G._picks -= 1")
        out.append(f"{ind}    m = G._pick(legal)")
        if follows:  # the next listing here follows it (`listing follows the move`)
            out.append(f"{ind}    _picked{k} = m")
            out.append(f"{ind}    _from{k} = legal")
        out.append(f"{ind}    G.pending = None")
        out.append(f"{ind}    G.work = {WORK_CHUNK}")
        out.append(f"{ind}    G._worked = 0")
        out.append(f"{ind}    G.step_no += 1")
        out.append(f"{ind}    pc = {k}")
        out.append(f"{ind}    continue")

    def checks(self, src: Any, params: int, out: list[str], ind: str, action: str = "",
               again: str | None = None) -> None:
        """Traced: the checks of move `m`, worked out before its effect as its explain function
        would (its body copied here, one call less per move) into the step Game._take_recorded
        opened; an error in them leaves the checks empty, as there. Within a `simultaneously`
        the listing's kept values are not used (Game._take_recorded), so then `explain` itself.
        `again`: the function whose body works out the checks' leading `let`s, which the effect
        then reads (`checks' lets kept`): run after checks that failed, outside their guard."""
        windows = any(isinstance(op, ir.Window) for b in self.blocks for op in b.ops)
        if params:
            out.append(f"{ind}{', '.join(f'p{j}' for j in range(params))}, = m[1]")
        if src.deferred is not None and not windows and CodeGen.DEFERRED_CHECKS:
            self.deferred_checks(action, src, params, out, ind)
            return
        out.append(f"{ind}try:")
        out.append(ind + "    " + self.g.inline(Inline("checks", src.explain if windows else src.explain_offered)))
        out.append(f"{ind}except _CHECK_ERRORS:")
        out.append(f"{ind}    _ck = ()")
        if again is not None:
            out.append(ind + "    " + self.g.inline(Inline("effect", again)))
        out.append(f"{ind}G._step[{CHECKS}] = _ck")

    def deferred_checks(self, name: str, src: Any, params: int, out: list[str], ind: str) -> None:
        """Traced, `deferred checks` (actiongen `deferred_checks`): the move's step keeps no
        checks, only `DEFERRED` in its bindings slot and the listing's kept entries (`G._xpre`)
        its explain function would take; `recording.deferred_explain` works the checks out from
        the step's journal entries when the trace is read. A move not listed in this state (no
        kept entries) has them worked out now, as `explain` does."""
        self.g.chose("deferred checks", rule=f"action {name}")
        n = src.deferred
        if n == 0:
            out.append(f"{ind}G._step[{BINDINGS}] = {DEFERRED!r}")
            return
        out.append(f"{ind}xp = G._xpre.get({name!r})")
        out.append(f"{ind}if xp is not None and len(xp) >= {n}:  # listed in this state: its entries kept")
        out.append(f"{ind}    _dst = G._step")
        out.append(f"{ind}    _dst[{BINDINGS}] = {DEFERRED!r}")
        out.append(f"{ind}    _dst[{CHECKS}] = {'xp[0]' if n == 1 else f'tuple(xp[:{n}])'}")
        out.append(f"{ind}else:")
        out.append(f"{ind}    try:")
        out.append(f"{ind}        _ck = {src.explain}(G{''.join(f', p{j}' for j in range(params))})")
        out.append(f"{ind}    except _CHECK_ERRORS:")
        out.append(f"{ind}        _ck = ()")
        out.append(f"{ind}    G._step[{CHECKS}] = _ck")

    def enumerate(self, action: str, out: list[str], ind: str, alone: bool = False, kept: bool = True) -> None:
        """List an action's legal moves into `legal`: its enumerate function's body, inlined
        when short (one call less per decision), else a call; a kept listing's moves from
        those kept (`alone`: they are `legal` itself; `kept` False: listed in full anyway)."""
        src = self.actions[action]
        if src.kept is not None and kept:
            out.append(f"{ind}legal = {src.kept}" if alone else f"{ind}legal.extend({src.kept})")
        elif src.enum_size > MAX_INLINE:
            out.append(f"{ind}{src.enum}(G, legal)")
        else:  # codegen.CodeGen.prepare_inline: into `legal`, leaving where a precondition fails
            out.append(ind + self.g.inline(Inline("enum", src.enum)))

    def turns_only(self, ops: list[int]) -> bool:
        """Whether ops `ops` (a round trip's, `round_trip`) are turn ends and starts only, at
        least one, and no hook runs at them: then they note nothing but player events in the
        flow's step, which is kept as one tuple (recording.turns_code)."""
        return bool(ops) and all(isinstance(self.ops[j], (ir.TurnBegin, ir.TurnEnd)) for j in ops) and \
            not ({"turn start", "turn end"} & self.hooks)

    def step_key(self) -> str:
        """The expression of the key of this block's rule's automatic step."""
        if self.rule == "flow" and self.g.m.phases:
            return "('flow' if G.phase is None else 'phase:' + G.phase)"
        return repr(self.rule)  # a ruleset without phases: the flow's steps are always 'flow'

    def player_event(self, kind: str, who: str, out: list[str], ind: str) -> None:
        """Traced only: note event `kind` of the player `who` names (made a record when read).
        In a round trip that keeps the flow's step as a tuple, the player is only remembered."""
        if self.step_known == "turns":
            name = f"_tp{len(self.turn_players)}"
            out.append(f"{ind}{name} = {who}")
            self.turn_players.append((kind, name))
            return
        self.event(f"({kind!r}, {who})", out, ind)

    def event(self, ev: str, out: list[str], ind: str) -> None:
        """Traced only: note an event in the open step of this block's rule (opened if need be).
        Where the emitting code knows the open step (`step_known`: a move's round trip, after
        its step closed), it opens or extends that step without asking."""
        key = self.step_key()
        if self.step_known == "open":
            out.append(f"{ind}st[{EVENTS}] += ({ev},)")
            return
        if self.step_known == "closed":
            out.append(f"{ind}st = G._step = {auto_step_code(key, 'G.phase', 'G.current', f'({ev},)')}")
            out.append(f"{ind}G._jmark = len(G.journal)")
            self.step_known = "open"
            return
        out.append(f"{ind}key = {key}")
        out.append(f"{ind}st = G._step")
        out.append(f"{ind}if st is None:  # opened in place: what G._open does when no step is open")
        out.append(f"{ind}    st = G._step = {auto_step_code('key', 'G.phase', 'G.current')}")
        out.append(f"{ind}    G._jmark = len(G.journal)")
        out.append(f"{ind}elif st[{KEY}] != key:")
        out.append(f"{ind}    G._open(key, True, None, None)")
        out.append(f"{ind}    st = G._step")
        out.append(f"{ind}st[{EVENTS}] += ({ev},)  # a tuple made longer (recording.py's slots)")

    def hook(self, event: str, k: int, out: list[str], ind: str) -> None:
        if event in self.hooks:
            self.step_known = None  # a hook's rules open and close steps of their own
            out.append(f"{ind}F[1] = {k + 1}")
            out.append(f"{ind}if G.run_hooks({event!r}):")
            out.append(f"{ind}    return True")


MachineBuilder._OPS = node_table("an op", {
    ir.Seg: MachineBuilder._op_seg,
    ir.Play: MachineBuilder._op_play,
    ir.Choose: MachineBuilder._op_choose,
    ir.JumpUnless: MachineBuilder._op_jump_unless,
    ir.Jump: MachineBuilder._op_jump,
    ir.ForInit: MachineBuilder._op_for_init,
    ir.ForNext: MachineBuilder._op_for_next,
    ir.RepeatInit: MachineBuilder._op_repeat_init,
    ir.CountInit: MachineBuilder._op_count_init,
    ir.CountNext: MachineBuilder._op_count_next,
    ir.TurnBegin: MachineBuilder._op_turn_begin,
    ir.TurnEnd: MachineBuilder._op_turn_end,
    ir.PhaseBegin: MachineBuilder._op_phase_begin,
    ir.PhaseEnd: MachineBuilder._op_phase_end,
    ir.Call: MachineBuilder._op_call,
    ir.Window: MachineBuilder._op_window,
    ir.Goto: MachineBuilder._op_goto,
    ir.Ret: MachineBuilder._op_ret,
})


def _move_known(region: list[str], ind: str) -> list[str]:
    """A fused apply's copy of a decision's section (`fused_apply`), where the move is known to
    be there: `if m is not None:` dropped and its body dedented (it ends at the `# @S-` line
    `_op_play` writes after the round trip); `pc = k` kept in the frame at once (`F[1] =
    pc` after it) written as `F[1] = k`; and the stores of `pc` dropped where no line reads
    it then."""
    inner = ind + "    "
    head = f"{ind}if m is not None:"
    if head in region:
        at = region.index(head)
        end = region.index(f"{ind}# @S-", at)
        region = region[:at] + [line[4:] if line.startswith(inner) else line for line in region[at + 1:end]] \
            + region[end:]
    out: list[str] = []
    for line in region:
        if line.strip() == "F[1] = pc" and out and _PC_STORE.match(out[-1]) \
                and out[-1][:len(out[-1]) - len(out[-1].lstrip())] == line[:len(line) - len(line.lstrip())]:
            out[-1] = out[-1].replace("pc = ", "F[1] = ", 1)
            continue
        out.append(line)
    if not any(re.search(r"\bpc\b", line) and not _PC_STORE.match(line) for line in out):
        out = [line for line in out if not _PC_STORE.match(line)]
    return out


_PC_STORE = re.compile(r"\s*pc = \d+$")
_ARGS_OF_M = re.compile(r"(\s*(?:p\d+, )*p\d+,?) = m\[1\]$")


def _steps_in_branches(region: list[str], ind: str, offered: tuple[str, ...], unchecked: tuple[str, ...],
                       opened: str) -> list[str] | None:
    """`step opened in its branch` (traced, CodeGen.STEP_IN_BRANCH): a fused apply's region
    that plays several actions, each move's step opened as the first line of its action's
    branch (`if m[0] == 'name':`), its key written in, rather than before the region by a
    look-up of the key and a test of it; where the branch then sets the step's slots (its
    deferred checks: `G._step[k] = v`, or the listing's kept entries through `_dst`), the step
    is made with them, in each arm of the test that chooses. Nothing before the branch's first
    lines reads the step, and nothing but a move's arguments and the kept entries' look-up
    stands between. None where some action played here has no branch of its own."""
    head, body = f"{ind}    ", f"{ind}        "
    out: list[str] = []
    found = set()
    for line in region:
        out.append(line)
        m = re.fullmatch(rf"{head}(?:if|elif) m\[0\] == '(\w+)':", line)
        if m is None or m.group(1) not in offered or m.group(1) in found:
            continue
        name = m.group(1)
        found.add(name)
        out.append(f"{body}G._step = _RECORDED_STEP(G, action, _who)" if name in unchecked else
                   f"{body}G._step = [{'action:' + name!r}, False, {opened}, action, (), None, (), (), G.phase, _who]")
    if found != set(offered):
        return None
    return _slots_folded(out, body)


def _slots_folded(region: list[str], body: str) -> list[str]:
    """`_steps_in_branches`: the slots a branch sets right after its step's open made with it."""
    out: list[str] = []
    i = 0
    while i < len(region):
        line = region[i]
        out.append(line)
        i += 1
        opened = re.fullmatch(rf"{body}G\._step = \[(.*)\]", line)
        if opened is None:
            continue
        slots = opened.group(1).split(", ")
        if len(slots) != 10:
            continue
        keep = []  # the lines that stand between: a move's arguments
        while i < len(region) and _ARGS_OF_M.match(region[i]) and region[i].startswith(body) \
                and not region[i].startswith(body + " "):
            keep.append(region[i])
            i += 1
        while i < len(region) and (set_slot := re.fullmatch(rf"{body}G\._step\[(\d)\] = (\w+)", region[i])):
            slots[int(set_slot.group(1))] = set_slot.group(2)
            i += 1
        made = f"{body}G._step = [{', '.join(slots)}]"
        xp = region[i:i + 3]
        if len(xp) == 3 and re.fullmatch(rf"{body}xp = G\._xpre\.get\('\w+'\)", xp[0]) \
                and xp[1].startswith(f"{body}if xp is not None and len(xp) >= ") and xp[2] == f"{body}    _dst = G._step":
            j = i + 3
            kept = list(slots)
            while j < len(region) and (set_slot := re.fullmatch(rf"{body}    _dst\[(\d)\] = (.+)", region[j])):
                kept[int(set_slot.group(1))] = set_slot.group(2)
                j += 1
            if j < len(region) and region[j] == f"{body}else:":
                out[-1:] = [*keep, xp[0], xp[1], f"{body}    G._step = [{', '.join(kept)}]", region[j], f"    {made}"]
                i = j + 1
                continue
        out[-1:] = [*keep, made]
    return out


def _decision_kept(region: list[str], ind: str, k: int) -> bool:
    """Whether a fused apply's copied lines may leave the frame at the decision's op `k`
    while the move plays, and (untraced) the game's listing as it was (`decision kept`,
    CodeGen.DECISION_KEPT): the lines set the frame to `k + 1` first (the
    move's op done) and to `k` again where the next decision waits, and set it to `k` nowhere
    else, nor to a computed op; so `F[1] == k` anywhere in between says the move has not left
    it, and every other way out (`_left_decision`, game.py `after_block_kept`) sets what the
    first lines would have. No line reads them in between: the move's effect and the turn's
    step read the state, not the decision. (The pending decision is still set to none first:
    a listing that fails leaves the next one noted, as the block's lines do.)"""
    head, wait = f"{ind}F[1] = {k + 1}", f"{ind}    F[1] = {k}"
    stores = [line.strip() for line in region if line.strip().startswith("F[1] = ")]
    if not stores or stores[0] != head.strip() or head not in region:
        return False
    at = region.index(head)
    if region[at + 1] != f"{ind}try:" or region[region.index(f"{ind}if legal:") + 1] != wait:
        return False
    others = [line for line in stores[1:] if line != wait.strip()]
    return region.count(wait) == 1 and all(
        line.removeprefix("F[1] = ").isdigit() and int(line.removeprefix("F[1] = ")) != k for line in others)


def _left_decision(k: int, record: bool, ind: str) -> list[str]:
    """A fused apply leaving by an error or with nobody to move (`decision kept`): what its
    first lines would have set, where the move's lines have not set the frame since."""
    return [f"{ind}if F[1] == {k}:", f"{ind}    F[1] = {k + 1}", *(() if record else [f"{ind}G._legal = None"])]


def _args_of_action(line: str) -> str:
    """`p0, = m[1]` as `p0, = action[1]` (a fused apply's `m` is `action` there): the form
    fusedsteps.py finds again where the listing follows the move."""
    found = _ARGS_OF_M.match(line)
    return line if found is None else f"{found.group(1)} = action[1]"


def one_per_parts(where: A.Node | None, var: str) -> tuple[A.Node, A.Node, A.Node] | None:
    """(the chosen items, the test that a candidate is new, the list of one item's slots) of a
    `choose N of var in ITEMS one per c in SLOTS where FITS`'s options test (dsl/sugar.py
    `build_choose_one_per`: `var not in chosen and matching_size(list var in chosen + [var]:
    (list c in SLOTS where FITS)) == len(chosen) + 1`), or None for any other test."""
    if not (isinstance(where, A.BoolOp) and where.op == "and" and len(where.items) == 2):
        return None
    new, still = where.items
    if not (isinstance(still, A.Compare) and still.op == "==" and isinstance(still.left, A.CountOnePer)):
        return None
    (each,) = still.left.args
    items = each.domain
    if not (isinstance(each, A.Aggregate) and each.var == var and isinstance(items, A.BinOp) and items.op == "+"
            and isinstance(items.left, A.Name) and isinstance(items.right, A.ListLit)
            and len(items.right.items) == 1 and isinstance(items.right.items[0], A.Name)
            and items.right.items[0].name == var and each.body is not None):
        return None
    chosen = items.left
    if not (isinstance(new, A.Compare) and new.op == "not in" and isinstance(new.left, A.Name)
            and new.left.name == var and isinstance(new.right, A.Name) and new.right.name == chosen.name
            and _one_more_than(still.right, chosen.name)):
        return None
    return chosen, new, each.body


def _one_more_than(e: A.Node, chosen: str) -> bool:
    """Whether `e` is `len(chosen) + 1`, as the sugar writes it."""
    return isinstance(e, A.BinOp) and e.op == "+" and isinstance(e.right, A.IntLit) and e.right.value == 1 \
        and isinstance(e.left, A.Call) and e.left.func == "len" and len(e.left.args) == 1 \
        and isinstance(e.left.args[0], A.Name) and e.left.args[0].name == chosen
