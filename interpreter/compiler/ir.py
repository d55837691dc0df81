"""The ops of blocks that can stop for a decision: small dataclasses, one per kind.

A block (the flow, or the body of an action, procedure or trigger that can stop for a
decision) is a list of ops; a suspended game points into it with a frame `[block id, pc,
locals, rule]`. interpreter/compiler/blocks.py builds the lists from the AST and
interpreter/compiler/machine.py compiles each list into one resumable Python function, so at run time
nothing dispatches on these objects; they stay for what needs to read a block: the engine
(which actions a `play` offers, where `pass` goes), saves (which slots are live at a pc) and
anyone inspecting a program. Expressions are kept as AST nodes; `names` are the rule's local
names in scope at the op, which live in the frame's locals between decisions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...dsl import ast as A


@dataclass(frozen=True, slots=True)
class Op:
    """Base of every op."""


@dataclass(frozen=True, slots=True)
class Seg(Op):
    """Straight-line statements (no decision inside), run in one go."""

    stmts: tuple[A.Node, ...]
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Play(Op):
    """Stop: the player (`by`, else the current one) takes one of `actions` (or passes)."""

    actions: tuple[str, ...]
    optional: bool
    by: A.Node | None
    pass_to: int | None
    span: A.Span
    names: tuple[str, ...]
    otherwise: int | None = None  # `play ... else`: where to go when nothing is legal (else the next op)


@dataclass(frozen=True, slots=True)
class Choose(Op):
    """Stop: a player picks a value for `var` among the domain's items where `where` holds."""

    var: str
    domain: A.Node
    where: A.Node | None
    by: A.Node | None
    prompt: str | None
    span: A.Span
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class JumpUnless(Op):
    test: A.Node
    target: int
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Jump(Op):
    target: int


@dataclass(frozen=True, slots=True)
class ForInit(Op):
    """Start a `for` loop: its items and position live in the slot."""

    slot: str
    domain: A.Node
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ForNext(Op):
    slot: str
    var: str
    end: int


@dataclass(frozen=True, slots=True)
class RepeatInit(Op):
    """Start `repeat N times`: the rounds left live in the slot."""

    slot: str
    times: A.Node
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CountInit(Op):
    """Start `play up to N of`: the plays left live in the slot."""

    slot: str
    n: int


@dataclass(frozen=True, slots=True)
class CountNext(Op):
    """One more round of a `repeat N times` or `play up to N of`, or leave it for `end`."""

    slot: str
    end: int


@dataclass(frozen=True, slots=True)
class TurnBegin(Op):
    """A turn starts: the player it interrupts is kept in the slot."""

    who: A.Node | None
    slot: str
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnEnd(Op):
    """A turn ends: pass to the next seat (`rotate`), or give the turn back."""

    rotate: bool
    slot: str


@dataclass(frozen=True, slots=True)
class PhaseBegin(Op):
    name: str
    slot: str


@dataclass(frozen=True, slots=True)
class PhaseEnd(Op):
    name: str
    slot: str


@dataclass(frozen=True, slots=True)
class Call(Op):
    """`do P(...)`: run a straight procedure, or push a frame for one that can stop."""

    proc: str
    args: tuple[A.Node, ...]
    params: tuple[str, ...]
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Window(Op):
    """`simultaneously for var in domain`: every player's part runs block `body` against the
    same position, secretly (Game.open_window); the op is left when every part is done."""

    var: str
    domain: A.Node
    body: int
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Goto(Op):
    phase: str


@dataclass(frozen=True, slots=True)
class Ret(Op):
    """The block is done: pop its frame."""


# Slot-making ops, with the letter their slots had in version-1 saves (`_p9`, `_it12`, ...).
SLOT_LETTER = {TurnBegin: "p", PhaseBegin: "h", ForInit: "it", RepeatInit: "n", CountInit: "n"}


@dataclass(frozen=True, slots=True)
class Slot:
    """A slot of a block: made by the op at `pc`, read by ops at `live_start <= pc < live_end`.
    A turn that passes to the next seat keeps nothing (`kept` is false): its slot exists only
    so that version-1 saves, which did keep it, can be read."""

    name: str
    pc: int
    letter: str
    live_start: int
    live_end: int
    kept: bool = True


@dataclass
class Block:
    ops: list[Op]
    rule: str  # the rule key of the block's frames: flow, action:x, procedure:x, when:i
    params: list[str]
    slots: list[Slot]
    # the checked type of each local name its frames keep (parameters, lets, choices, loop
    # variables): a save's locals are read back by it (interpreter/engine/saves.py)
    local_types: dict = field(default_factory=dict)
