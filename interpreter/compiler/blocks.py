"""Blocks: the bodies that can stop for a decision, as lists of ops (interpreter/compiler/ir.py).

A body with `play`, `choose`, `turn`, `phase`, `goto` or a call of such a procedure becomes a
block; runs of statements that cannot stop become one `Seg` op each. The order of the ops is
part of the save format (a frame's pc indexes it), so this builder keeps it stable: version-1
saves index the same lists.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ...dsl import ast as A
from ...dsl.ast import iter_nodes
from ...dsl.check import Model, suspends
from ...dsl.printer import expr_text
from ...dsl.types import ANY, PLAYER, Type
from ..engine.errors import RuleFailure
from ..stdlib.library import CHANCE_FUNCTIONS
from . import ir


def prov_info(name: str, prov: A.Provenance, span: A.Span, base: str = "") -> dict:
    """What a trace step says about the rule behind it: name, sources, spec ids, quote (the
    rulebook's words), note (authored words, only when the rule has one), place."""
    file = os.path.relpath(span.file, base) if base and os.path.isabs(span.file) == os.path.isabs(base) else span.file
    info = {
        "name": name,
        "source": list(prov.sources),
        "spec": list(prov.specs),
        "quote": prov.quote,
        "at": f"{file}:{span.line}:{span.column}",
    }
    if prov.note:
        info["note"] = prov.note
    return info


@dataclass(frozen=True, slots=True)
class _Break(ir.Op):
    """A `break` waiting for its loop's end to be known."""

    loop: object


class BlockBuilder:
    """Builds the blocks of one program, numbered in the order they are made."""

    def __init__(self, model: Model, rules: dict[str, dict]):
        self.model = model
        self.rules = rules  # rule key -> provenance; phases add theirs as they are met
        self.blocks: list[ir.Block] = []
        self.phase_labels: dict[str, int] = {}

    def block(self, body: tuple, names: list[str], rule: str, params: list[str], top: bool = False,
              types: dict | None = None) -> int:
        """Build one block; `names` are the local names it starts with (parameters), `types`
        what is known of their types."""
        bid = len(self.blocks)
        blk = ir.Block([], rule, params, [], dict(types or {}))
        self.blocks.append(blk)
        self._emit(body, list(names), blk, loops=[], top=top)
        blk.ops.append(ir.Ret())
        return bid

    def _slot(self, blk: ir.Block, op_type: type) -> str:
        return f"#{len(blk.ops)}"

    def _live(self, blk: ir.Block, slot: str, pc: int, start: int, end: int, op_type: type,
              kept: bool = True) -> None:
        blk.slots.append(ir.Slot(slot, pc, ir.SLOT_LETTER[op_type], start, end, kept))

    def _emit(self, body: tuple, names: list[str], blk: ir.Block, loops: list, top: bool = False) -> None:
        ops = blk.ops
        run: list = []

        def flush() -> None:
            if run:
                self._seg(list(run), names, ops, blk)
                run.clear()

        for s in body:
            if (not suspends((s,), self.model.suspends) and not isinstance(s, (A.BreakStmt, A.FinishStmt))
                    and not (loops and _has_loose_break(s))):
                run.append(s)
                continue
            flush()
            here = tuple(names)
            if isinstance(s, A.FinishStmt):
                self._seg([s], names, ops, blk)
            elif isinstance(s, A.BreakStmt):
                ops.append(_Break(loops[-1]))
            elif isinstance(s, A.PlayStmt):
                self._play(s, here, blk, loops)
            elif isinstance(s, A.ChooseStmt):
                ops.append(ir.Choose(s.name, s.domain, s.where, s.by, s.prompt, s.span, here))
                self._typed(blk, s.name, self.model.type_of(s.domain).base.item)
                if s.name not in names:
                    names.append(s.name)
            elif isinstance(s, A.DoStmt):
                proc = self.model.procedures[s.name]
                ops.append(ir.Call(s.name, tuple(s.args), tuple(p.name for p in proc.params), here))
            elif isinstance(s, A.TurnStmt):
                slot, pc = self._slot(blk, ir.TurnBegin), len(ops)
                ops.append(ir.TurnBegin(s.player, slot, here))
                self._emit(s.body, list(names), blk, loops)
                ops.append(ir.TurnEnd(s.player is None, slot))
                # a turn that passes to the next seat gives nothing back: it keeps no slot
                self._live(blk, slot, pc, pc + 1, len(ops), ir.TurnBegin, kept=s.player is not None)
            elif isinstance(s, A.PhaseStmt):
                slot, pc = self._slot(blk, ir.PhaseBegin), len(ops)
                if top:
                    self.phase_labels[s.name] = pc
                ops.append(ir.PhaseBegin(s.name, slot))
                self.rules[f"phase:{s.name}"] = prov_info(s.name, s.prov, s.span, self.model.base_dir)
                self._emit(s.body, list(names), blk, loops)
                ops.append(ir.PhaseEnd(s.name, slot))
                self._live(blk, slot, pc, pc + 1, len(ops), ir.PhaseBegin)
            elif isinstance(s, A.GotoStmt):
                ops.append(ir.Goto(s.phase))
            elif isinstance(s, A.SimultaneousStmt):  # each part a block of its own, its locals
                inner = [*here, s.var] if s.var not in here else list(here)  # those in scope here
                body = self.block(s.body, inner, blk.rule, [], types={**blk.local_types, s.var: PLAYER})
                ops.append(ir.Window(s.var, s.domain, body, here))
            elif isinstance(s, A.IfStmt):
                ends = []
                for test, branch in s.branches:
                    jf = len(ops)
                    ops.append(ir.Ret())  # placeholder: patched below
                    self._emit(branch, list(names), blk, loops)
                    ends.append(len(ops))
                    ops.append(ir.Ret())
                    ops[jf] = ir.JumpUnless(test, len(ops), here)
                if s.orelse:
                    self._emit(s.orelse, list(names), blk, loops)
                for e in ends:
                    ops[e] = ir.Jump(len(ops))
            elif isinstance(s, (A.ForStmt, A.RepeatStmt, A.WhileStmt)):
                self._loop(s, names, blk, loops)
            else:
                raise RuleFailure(f"cannot compile {type(s).__name__} here", s.span)
        flush()

    def _seg(self, stmts: list, names: list[str], ops: list, blk: ir.Block | None = None) -> None:
        ops.append(ir.Seg(tuple(stmts), tuple(names)))
        for s in stmts:  # new names live on in the frame
            if isinstance(s, A.LetStmt):
                if blk is not None:
                    self._typed(blk, s.name, self.model.type_of(s.value))
                if s.name not in names:
                    names.append(s.name)

    def _typed(self, blk: ir.Block, name: str, t: Type) -> None:
        """Note a local's type; a name bound to values of two types is read back as it is."""
        known = blk.local_types.get(name)
        blk.local_types[name] = t if known is None or known == t else ANY

    def _play(self, s: A.PlayStmt, here: tuple, blk: ir.Block, loops: list) -> None:
        ops = blk.ops
        if s.up_to == 1:
            pc = len(ops)
            if s.otherwise is not None:  # a move goes past the `else`; nothing legal goes into it
                ops.append(ir.Ret())  # placeholders: patched below
                ops.append(ir.Ret())
                self._emit((s.otherwise,), list(here), blk, loops)
                ops[pc] = ir.Play(tuple(s.actions), s.optional, s.by, None, s.span, here, pc + 2)
                ops[pc + 1] = ir.Jump(len(ops))
                return
            ops.append(ir.Play(tuple(s.actions), s.optional, s.by, pc + 1 if s.optional else None, s.span, here))
            return
        slot, pc = self._slot(blk, ir.CountInit), len(ops)
        ops.append(ir.CountInit(slot, s.up_to))
        head = len(ops)
        end = head + 3
        ops.append(ir.CountNext(slot, end))
        ops.append(ir.Play(tuple(s.actions), True, s.by, end, s.span, here))
        ops.append(ir.Jump(head))
        self._live(blk, slot, pc, head, end, ir.CountInit)

    def _loop(self, s: A.Node, names: list[str], blk: ir.Block, loops: list) -> None:
        ops = blk.ops
        marker = object()
        here = tuple(names)
        inner = list(names)
        slot = None
        if isinstance(s, A.ForStmt):
            slot, made = self._slot(blk, ir.ForInit), len(ops)
            ops.append(ir.ForInit(slot, s.domain, here))
            self._typed(blk, s.var, self.model.type_of(s.domain).base.item)
            if s.var not in inner:
                inner.append(s.var)
        elif isinstance(s, A.RepeatStmt) and s.times is not None:
            slot, made = self._slot(blk, ir.RepeatInit), len(ops)
            ops.append(ir.RepeatInit(slot, s.times, here))
        head = len(ops)
        if isinstance(s, (A.ForStmt, A.WhileStmt)) or (isinstance(s, A.RepeatStmt) and s.times is not None):
            ops.append(ir.Ret())  # placeholder for the loop's head, patched below
        self._emit(s.body, inner, blk, loops + [marker])
        ops.append(ir.Jump(head))
        end = len(ops)
        if isinstance(s, A.ForStmt):
            ops[head] = ir.ForNext(slot, s.var, end)
            self._live(blk, slot, made, head, end, ir.ForInit)
        elif isinstance(s, A.RepeatStmt) and s.times is not None:
            ops[head] = ir.CountNext(slot, end)
            self._live(blk, slot, made, head, end, ir.RepeatInit)
        elif isinstance(s, A.WhileStmt):
            ops[head] = ir.JumpUnless(s.test, end, here)
        for i in range(head, end):  # the breaks of this loop leave it
            if isinstance(ops[i], _Break) and ops[i].loop is marker:
                ops[i] = ir.Jump(end)


def param_types(params: tuple, model: Model) -> dict:
    """The checked type of each parameter of an action or procedure (a save's locals)."""
    return {p.name: model.type_of_decl(p.type) if p.type is not None else model.type_of(p.domain).base.item
            for p in params}


def action_preconditions(a: A.ActionDecl, model: Model) -> tuple[list[A.Node], list[A.Node]]:
    """An action's leading `require` and plain `let` lines, and the rest (its effects). A `let`
    that draws on chance ends the preconditions, so listing moves never advances the generator."""
    pre: list[A.Node] = []
    rest: list[A.Node] = []
    for s in a.body:
        if not rest and isinstance(s, (A.LetStmt, A.RequireStmt)) and not is_chance_let(s, model):
            pre.append(s)
        else:
            rest.append(s)
    return pre, rest


def is_chance_let(s: A.Node, model: Model) -> bool:
    """A `let` that draws on chance is an effect, never part of an action's preconditions."""
    return (isinstance(s, A.LetStmt) and isinstance(s.value, A.Call)
            and (s.value.func in model.devices or s.value.func in CHANCE_FUNCTIONS))


def names_in(node: Any) -> set[str]:
    return {n.name for n in iter_nodes(node) if isinstance(n, A.Name)}


def require_texts(requires: list[A.RequireStmt]) -> list[str]:
    return [expr_text(r.test) for r in requires]


def _has_loose_break(s: A.Node) -> bool:
    """Whether `s` holds a `break` aimed at a loop outside it (so it must become ops)."""
    if isinstance(s, A.BreakStmt):
        return True
    if isinstance(s, A.IfStmt):
        return any(_has_loose_break(x) for _, body in s.branches for x in body) or any(
            _has_loose_break(x) for x in s.orelse)
    if isinstance(s, (A.TurnStmt, A.PhaseStmt)):
        return any(_has_loose_break(x) for x in s.body)
    if isinstance(s, A.PlayStmt) and s.otherwise is not None:  # `play ... else break`
        return _has_loose_break(s.otherwise)
    return False
