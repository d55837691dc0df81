"""The regelwerk AST: frozen dataclasses, every node with the Span it came from.

The parser (dsl/parse.py) builds these from Lark's tree; the checker, printer and compiler
read them. Nodes are declarations (`*Decl`), statements (`*Stmt`) and expressions; an
`ActionDecl` is a schema, never a bound move (that is `interpreter.game.Action`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Span:
    """Where a node stands in its file: 1-based line and column, end exclusive."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


NO_SPAN = Span("<none>", 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Node:
    span: Span = field(compare=False, repr=False)


# ------------------------------------------------------------------ types
@dataclass(frozen=True, slots=True)
class NamedType(Node):
    name: str


@dataclass(frozen=True, slots=True)
class OptionalType(Node):
    inner: Node


@dataclass(frozen=True, slots=True)
class ListType(Node):
    item: Node


@dataclass(frozen=True, slots=True)
class SetType(Node):
    item: Node


@dataclass(frozen=True, slots=True)
class MapType(Node):
    key: Node
    value: Node


# ------------------------------------------------------------------ expressions
@dataclass(frozen=True, slots=True)
class IntLit(Node):
    value: int


@dataclass(frozen=True, slots=True)
class StrLit(Node):
    value: str


@dataclass(frozen=True, slots=True)
class BoolLit(Node):
    value: bool


@dataclass(frozen=True, slots=True)
class NoneLit(Node):
    pass


@dataclass(frozen=True, slots=True)
class Name(Node):
    name: str


@dataclass(frozen=True, slots=True)
class ListLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class SetLit(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class MapLit(Node):
    items: tuple[tuple[Node, Node], ...]


@dataclass(frozen=True, slots=True)
class Index(Node):
    base: Node
    key: Node


@dataclass(frozen=True, slots=True)
class Field(Node):
    base: Node
    name: str


@dataclass(frozen=True, slots=True)
class Call(Node):
    func: str
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class RecordLit(Node):
    record: str
    fields: tuple[tuple[str, Node], ...]


@dataclass(frozen=True, slots=True)
class BinOp(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Compare(Node):
    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class BoolOp(Node):
    op: str  # "and" | "or"
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Not(Node):
    operand: Node


@dataclass(frozen=True, slots=True)
class Neg(Node):
    operand: Node


@dataclass(frozen=True, slots=True)
class Range(Node):
    low: Node
    high: Node


@dataclass(frozen=True, slots=True)
class CondExpr(Node):
    test: Node
    then: Node
    orelse: Node


@dataclass(frozen=True, slots=True)
class LetExpr(Node):
    """`let name = value` written on its own line before a definition's value: `body` is
    worked out with `name` bound to `value` (worked out once). The body is the value, or the
    next `let`."""

    name: str
    value: Node
    body: Node


@dataclass(frozen=True, slots=True)
class Aggregate(Node):
    """`all|any|count|sum|max|min|argmax|argmin|first|streak|list|set|map x in D where C: E`."""

    kind: str
    var: str
    domain: Node
    where: Node | None
    body: Node | None


# ------------------------------------------------------------------ statements
@dataclass(frozen=True, slots=True)
class Target(Node):
    """An assignable state path: a root name then index keys and fields."""

    root: str
    steps: tuple[Node | str, ...]  # expression = index key, str = field name


@dataclass(frozen=True, slots=True)
class SetStmt(Node):
    target: Target
    value: Node


@dataclass(frozen=True, slots=True)
class AddStmt(Node):
    value: Node
    target: Target


@dataclass(frozen=True, slots=True)
class RemoveStmt(Node):
    value: Node
    target: Target


@dataclass(frozen=True, slots=True)
class ClearStmt(Node):
    target: Target


@dataclass(frozen=True, slots=True)
class LetStmt(Node):
    name: str
    value: Node


@dataclass(frozen=True, slots=True)
class MoveStmt(Node):
    item: Node
    source: Target
    dest: Target


@dataclass(frozen=True, slots=True)
class DrawStmt(Node):
    count: Node
    source: Target
    dest: Target


@dataclass(frozen=True, slots=True)
class ShuffleStmt(Node):
    target: Target


@dataclass(frozen=True, slots=True)
class RequireStmt(Node):
    test: Node
    message: str | None


@dataclass(frozen=True, slots=True)
class FinishStmt(Node):
    kind: str  # "winner" | "draw" | "ranking"
    exprs: tuple[Node, ...]  # the winner, or the ranking keys (best first), in terms of `var`
    var: str | None = None


@dataclass(frozen=True, slots=True)
class DoStmt(Node):
    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class PlayStmt(Node):
    actions: tuple[str, ...]
    up_to: int  # how many actions at most; 1 for a plain `play`
    optional: bool  # whether passing is allowed (always true for `up to`)
    by: Node | None
    otherwise: Node | None = None  # `play ... else STATEMENT`: what happens when nothing is legal


@dataclass(frozen=True, slots=True)
class ChooseStmt(Node):
    name: str
    domain: Node
    where: Node | None
    by: Node | None
    prompt: str | None


@dataclass(frozen=True, slots=True)
class ResultStmt(Node):
    """`result EXPR [with DETAIL]`: the outcome of a device's roll part, and what its settle
    part needs to know about how it came about (none when a scenario scripted the outcome)."""

    value: Node
    detail: Node | None = None


@dataclass(frozen=True, slots=True)
class AbandonStmt(Node):
    """`abandon "reason"`: the action is taken back, as if never chosen; the player chooses
    again (a refused consent: "dan mag de andere speler zijn actie niet uitvoeren")."""

    reason: str


@dataclass(frozen=True, slots=True)
class BreakStmt(Node):
    pass


@dataclass(frozen=True, slots=True)
class GotoStmt(Node):
    phase: str


@dataclass(frozen=True, slots=True)
class LogStmt(Node):
    message: str


@dataclass(frozen=True, slots=True)
class RevealStmt(Node):
    """Show a value in the trace: to everybody, or (with `to`) to one player only."""

    value: Node
    to: Node | None


@dataclass(frozen=True, slots=True)
class IfStmt(Node):
    branches: tuple[tuple[Node, tuple[Node, ...]], ...]
    orelse: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class ForStmt(Node):
    var: str
    domain: Node
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class RepeatStmt(Node):
    times: Node | None  # None: forever (until break, goto or finish)
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class WhileStmt(Node):
    test: Node
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Provenance:
    """The rulebook behind a rule: the quoted sentence (only the rulebook's own words, verbatim
    from the cited seed lines), seed lines, spec ids, and an authored `note` (a reading, a
    paraphrase, substrate: words that are not the rulebook's, shown as such). The spans say
    where the quote and source lines stand, for located warnings; they do not take part in
    equality, so printing and parsing again gives an equal tree."""

    quote: str | None = None
    sources: tuple[str, ...] = ()
    specs: tuple[str, ...] = ()
    note: str | None = None
    quote_span: Span | None = field(default=None, compare=False, repr=False)
    source_span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class TurnStmt(Node):
    player: Node | None  # None: the current player, then pass to the next in turn order
    prov: Provenance
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class SimultaneousStmt(Node):
    """`simultaneously for p in PLAYERS` + body: every player's part (the body, as their turn)
    decides against the same position, secretly; the statement ends when every part is done."""

    var: str
    domain: Node
    prov: Provenance
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class PhaseStmt(Node):
    name: str
    prov: Provenance
    body: tuple[Node, ...]


# ------------------------------------------------------------------ declarations
@dataclass(frozen=True, slots=True)
class Param(Node):
    name: str
    type: Node | None
    domain: Node | None


@dataclass(frozen=True, slots=True)
class GameDecl(Node):
    title: str
    prov: Provenance


@dataclass(frozen=True, slots=True)
class PlayersDecl(Node):
    names: tuple[str, ...]
    min_count: int
    max_count: int


@dataclass(frozen=True, slots=True)
class EnumDecl(Node):
    name: str
    members: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GridDecl(Node):
    name: str
    width: int
    height: int
    path: str | None = None  # `grid from "map.txt"`: the size is read from a text map


@dataclass(frozen=True, slots=True)
class GraphDecl(Node):
    name: str
    paths: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class GraphFileDecl(Node):
    """A graph board read from a JSON file: {"nodes": [...], "edges": [[a, b], ...]}."""

    name: str
    path: str


@dataclass(frozen=True, slots=True)
class RecordDecl(Node):
    name: str
    fields: tuple[tuple[str, Node], ...]


@dataclass(frozen=True, slots=True)
class DataDecl(Node):
    """A constant read from a data file (JSON, or a text map with a legend)."""

    name: str
    type: Node
    path: str
    legend: Node | None


@dataclass(frozen=True, slots=True)
class VarDecl(Node):
    name: str
    type: Node
    default: Node | None
    hidden: str | None  # None | "all" | "owner"


@dataclass(frozen=True, slots=True)
class StateDecl(Node):
    vars: tuple[VarDecl, ...]


@dataclass(frozen=True, slots=True)
class ConstDecl(Node):
    name: str
    value: Node


@dataclass(frozen=True, slots=True)
class OptionDecl(Node):
    name: str
    type: Node
    default: Node
    doc: str | None


@dataclass(frozen=True, slots=True)
class DefineDecl(Node):
    name: str
    params: tuple[Param, ...]
    type: Node | None
    value: Node


@dataclass(frozen=True, slots=True)
class ActionDecl(Node):
    name: str
    params: tuple[Param, ...]
    prov: Provenance
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class ProcedureDecl(Node):
    name: str
    params: tuple[Param, ...]
    prov: Provenance
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class TriggerDecl(Node):
    test: Node
    prov: Provenance
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class HookDecl(Node):
    event: str  # "turn start" | "turn end"
    prov: Provenance
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class FlowDecl(Node):
    prov: Provenance
    body: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class ScoringDecl(Node):
    value: Node


@dataclass(frozen=True, slots=True)
class UmpireDecl(Node):
    """`umpire "why"`: an umpire refuses moves by what the player cannot see (Kriegspiel), so
    legality may read hidden state (E247 is not reported)."""

    reason: str


@dataclass(frozen=True, slots=True)
class IncludeDecl(Node):
    path: str
    without_scenarios: bool = False  # `include "x.rules" without scenarios`: its rules only


@dataclass(frozen=True, slots=True)
class DeviceDecl(Node):
    """A chance device: `roll` draws an outcome (or a scenario scripts it), the requires
    check it, `settle` applies it to the device's state. The same settle runs in both modes."""

    name: str
    params: tuple[Param, ...]
    type: Node
    prov: Provenance
    roll: tuple[Node, ...]
    requires: tuple[RequireStmt, ...]
    settle: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class InvariantDecl(Node):
    """A condition every reachable state satisfies; saves and scenario set-ups are checked.
    `conserve ITEMS in Z1, Z2` is one too (`conserve` true): its test is
    `each_once(ITEMS, Z1, Z2)`, and scenarios' `given` keeps it (docs/language.md §13c)."""

    test: Node
    message: str | None
    prov: Provenance
    conserve: bool = False


@dataclass(frozen=True, slots=True)
class DisplayDecl(Node):
    """How `regelwerk play` draws a board: maps over its squares, later layers on top."""

    board: str
    layers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ActionCall(Node):
    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class ScenarioStep(Node):
    """One line of a scenario: `kind` names it, the other fields hold what it needs."""

    kind: str  # players|seed|option|before_start|start_phase|given|script|do|expect|legal|illegal|...
    value: object = None
    call: ActionCall | None = None
    message: str | None = None
    body: tuple[Node, ...] = ()
    by: Node | None = None  # `do ... by P`, `expect legal ... by P`: for that player


@dataclass(frozen=True, slots=True)
class ScenarioDecl(Node):
    name: str
    prov: Provenance
    steps: tuple[ScenarioStep, ...]


@dataclass(frozen=True, slots=True)
class Module(Node):
    """One parsed file: its declarations in source order."""

    path: str
    decls: tuple[Node, ...]


# ------------------------------------------------------------------ sugar (dsl/sugar.py)
# Forms that read like rulebook sentences and are built, by the parser, out of the constructs
# above. Each is a subclass with no fields of its own: the checker and the compiler see the
# construct it stands for; the printer (and people) see the sentence.
@dataclass(frozen=True, slots=True)
class CountOnePer(Call):
    """`count k in ITEMS one per c in SLOTS where FITS`: how many items can each have their own
    slot. Stands for `matching_size(list k in ITEMS: (list c in SLOTS where FITS))`."""


@dataclass(frozen=True, slots=True)
class ChooseOnePer(IfStmt):
    """`choose N of k in ITEMS one per c in SLOTS where FITS ["prompt"]` + body: N choices, each
    item still leaving every chosen item a slot of its own; the body runs for each."""


@dataclass(frozen=True, slots=True)
class ForChosen(IfStmt):
    """`for m in ITEMS chosen [optional] [by P] ["prompt"]` + body: the body runs once for each
    item, in the order the player picks them one at a time (with `optional`, he may stop)."""


@dataclass(frozen=True, slots=True)
class IfLet(IfStmt):
    """`if let p = E` + body [elif/else]: the body runs with `p` bound to E's value when E is not
    none. Stands for `if E != none` whose body starts with `let p = E`."""


def iter_nodes(node) -> Iterator:
    """Every AST node below (and including) `node`, depth first: for generic walks."""
    if isinstance(node, Node):
        yield node
        for name in node.__dataclass_fields__:
            if name == "span":
                continue
            yield from iter_nodes(getattr(node, name))
    elif isinstance(node, tuple):
        for item in node:
            yield from iter_nodes(item)
    elif isinstance(node, Provenance):
        return


def bodies(s: Node) -> tuple[tuple[Node, ...], ...]:
    """The statement lists directly inside the statement `s`: an `if`'s branches and its `else`
    (when written), the body of a loop, a `turn`, a `phase` or a `simultaneously`, the `else` of
    a `play`; none for a simple statement. The walks over nested statements share it (the checker's, E005's, E248's),
    so a statement that holds others is named here once."""
    if isinstance(s, IfStmt):
        return tuple(body for _test, body in s.branches) + ((s.orelse,) if s.orelse else ())
    if isinstance(s, (ForStmt, RepeatStmt, WhileStmt, TurnStmt, PhaseStmt, SimultaneousStmt)):
        return (s.body,)
    if isinstance(s, PlayStmt) and s.otherwise is not None:
        return ((s.otherwise,),)
    return ()


def _reduce(node: object) -> tuple:
    """Pickled as its class and its fields in order, so unpickling calls the class: the
    dataclass's own `__init__`, several times faster than the `__setstate__` frozen slots
    dataclasses get (the syntax trees `check` reads from its cache, dsl/sources.py)."""
    return type(node), tuple([getattr(node, name) for name in node.__dataclass_fields__])


for _cls in list(globals().values()):
    if isinstance(_cls, type) and _cls.__module__ == __name__ and "__dataclass_fields__" in _cls.__dict__:
        _cls.__reduce__ = _reduce
del _cls
