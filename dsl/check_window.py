"""What a part of `simultaneously` may do (E248).

`simultaneously for p in PLAYERS` + body lets every player decide against the same position,
secretly: nobody's choice may show before all are in. So a part (the body, with the actions it
offers and the procedures it calls, run as that player's turn) may only change what only its
own player sees, an entry of a `hidden except owner` variable indexed by that player
(`set bid[p] = n`, `add o to plan[current]`), and its own locals. What would show a choice, or
let one part see another's, is refused: writing state others see, chance (a draw is a public
event), `log` and `reveal`, turns, phases, `goto`, `finish`, a `choose` or `play` by another
player, and another `simultaneously`. The rules pay, reveal and resolve after the statement.
"""

from __future__ import annotations

from collections.abc import Callable

from . import ast as A
from .printer import expr_text

Report = Callable[[str, str, A.Span, str | None], None]
CHANCE = ("roll", "random", "shuffled", "bernoulli")
_WRITES = (A.SetStmt, A.AddStmt, A.RemoveStmt, A.ClearStmt, A.ShuffleStmt)
HELP = ("a secret, simultaneous choice may only change what only its player sees: an entry of a "
        "`hidden except owner` variable indexed by that player; pay, show or resolve it after the "
        "`simultaneously` statement")


class WindowCheck:
    def __init__(self, model: object, report: Report):
        self.m = model
        self.report = report
        self.owner = {n for n, d in model.vars.items() if d.hidden == "owner"}
        self.done: set[tuple] = set()

    def run(self) -> None:
        for node in _bodies(self.m):
            for s in A.iter_nodes(node):
                if isinstance(s, A.SimultaneousStmt):
                    self.body(s.body, frozenset({s.var, "current"}), f"'simultaneously for {s.var}'")

    def err(self, node: A.Node, what: str, where: str) -> None:
        self.report("E248", f"{what} inside {where}", node.span, HELP)

    def body(self, stmts: tuple, me: frozenset[str], where: str) -> None:
        for s in stmts:  # a `let` naming the part's player again holds for the statements after it
            me = self.stmt(s, me, where)

    def stmt(self, s: A.Node, me: frozenset[str], where: str) -> frozenset[str]:
        """Check one statement; the names of the part's own player after it (`let q = p` adds q)."""
        m = self.m
        if isinstance(s, _WRITES):
            self.target(s.target, s, me, where)
        elif isinstance(s, (A.MoveStmt, A.DrawStmt)):
            self.target(s.source, s, me, where)
            self.target(s.dest, s, me, where)
        elif isinstance(s, A.LetStmt):
            if isinstance(s.value, A.Call) and (s.value.func in CHANCE or s.value.func in m.devices):
                self.err(s, f"'{s.value.func}' draws on chance, a public event,", where)
            if isinstance(s.value, A.Name) and s.value.name in me:
                me = me | {s.name}
            else:  # the name now holds something else, whatever it held before
                me = me - {s.name}
        elif isinstance(s, (A.TurnStmt, A.PhaseStmt, A.GotoStmt, A.FinishStmt, A.SimultaneousStmt)):
            word = {A.TurnStmt: "turn", A.PhaseStmt: "phase", A.GotoStmt: "goto", A.FinishStmt: "finish",
                    A.SimultaneousStmt: "simultaneously"}[type(s)]
            self.err(s, f"'{word}' cannot stand", where)
        elif isinstance(s, (A.LogStmt, A.RevealStmt)):
            word = "log" if isinstance(s, A.LogStmt) else "reveal"
            self.err(s, f"'{word}' would show the others what was chosen: it cannot stand", where)
        elif isinstance(s, A.ChooseStmt):
            if s.by is not None and expr_text(s.by) not in me:
                self.err(s.by, f"a choice by '{expr_text(s.by)}', not the part's own player,", where)
        elif isinstance(s, A.PlayStmt):
            if s.by is not None and expr_text(s.by) not in me:
                self.err(s.by, f"a move by '{expr_text(s.by)}', not the part's own player,", where)
            for name in s.actions:
                a = m.actions.get(name)
                if a is not None and ("action", name) not in self.done:
                    self.done.add(("action", name))
                    self.body(a.body, frozenset({"current"}), f"action '{name}', offered inside {where}")
            for body in A.bodies(s):  # its `else`
                self.body(body, me, where)
        elif isinstance(s, A.DoStmt):
            p = m.procedures.get(s.name)
            if p is not None:
                own = frozenset(q.name for q, a in zip(p.params, s.args, strict=False) if expr_text(a) in me)
                key = ("procedure", s.name, own)
                if key not in self.done:
                    self.done.add(key)
                    self.body(p.body, own | {"current"}, f"procedure '{s.name}', called inside {where}")
        else:
            for body in A.bodies(s):  # an `if`'s branches, a loop's body
                self.body(body, me, where)
        return me

    def target(self, t: A.Target, s: A.Node, me: frozenset[str], where: str) -> None:
        if t.root not in self.m.vars:
            return  # the checker reports it already
        first = t.steps[0] if t.steps else None
        own = t.root in self.owner and isinstance(first, A.Node) and expr_text(first) in me
        if not own:
            self.err(s, f"writing '{expr_text(_place(t))}', which the other players see,", where)


def _place(t: A.Target) -> A.Node:
    node: A.Node = A.Name(t.span, t.root)
    for step in t.steps:
        node = A.Field(t.span, node, step) if isinstance(step, str) else A.Index(t.span, node, step)
    return node


def _bodies(m: object) -> list[A.Node]:
    out: list[A.Node] = [*m.procedures.values(), *m.triggers]
    if m.flow is not None:
        out.append(m.flow)
    return out


def check_windows(model: object, report: Report) -> None:
    """Report what the parts of every `simultaneously` may not do (E248)."""
    WindowCheck(model, report).run()
