"""Every name of a ruleset with its position: what it is, where it is declared, where used.

Built from the parsed modules, the checker's `Model` and the tokens of each file. Hover,
definition, references, rename, completion and symbols all read it. Locals (parameters,
`let`, loop and aggregate variables, choices) are resolved by scope, so a parameter that
happens to share a global's name is not renamed with it.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..dsl import ast as A
from ..dsl.check import Model
from ..dsl.check_expr import DIRECTIONS, KEYWORD_VALUES
from ..dsl.printer import expr_text
from ..interpreter.stdlib.library import LIBRARY
from .tokens import Token, Tokens
from .typetext import type_text

Key = tuple  # ("global", name) | ("phase", name) | ("field", record, name) | ("local", file, line, col)


@dataclass(frozen=True, slots=True)
class Loc:
    """A one-line range in a file: 1-based line, columns in code points, end exclusive."""

    file: str
    line: int
    column: int
    end_column: int


@dataclass
class Symbol:
    """A declared thing: its kind, name, declaring node and where its name is written."""

    key: Key
    name: str
    kind: str  # state, constant, option, data, definition, action, procedure, device, enum,
    # member, record, field, board, square, node, player, phase, parameter, local, library, builtin
    decl: A.Node | None = None
    where: Loc | None = None
    type: str | None = None
    detail: str = ""
    type_node: A.Node | None = None  # a local's declared or inferred type, for record fields


@dataclass(frozen=True, slots=True)
class Occurrence:
    loc: Loc
    key: Key
    is_def: bool


@dataclass
class Index:
    """The symbols of a ruleset and every occurrence of each, per file."""

    symbols: dict[Key, Symbol] = field(default_factory=dict)
    by_file: dict[str, list[Occurrence]] = field(default_factory=dict)
    # per file: (the declaration's span, a local's name, its key, the line it is bound on)
    scopes: dict[str, list[tuple[A.Span, str, Key, int]]] = field(default_factory=dict)

    def at(self, file: str, line: int, column: int) -> Occurrence | None:
        """The occurrence under a 1-based position (its end counts, for a cursor after a name)."""
        occs = self.by_file.get(file, [])
        i = bisect.bisect_right(occs, (line, column), key=lambda o: (o.loc.line, o.loc.column))
        for o in occs[max(i - 2, 0): i + 1]:
            if o.loc.line == line and o.loc.column <= column <= o.loc.end_column:
                return o
        return None

    def occurrences(self, key: Key) -> list[Occurrence]:
        return [o for occs in self.by_file.values() for o in occs if o.key == key]

    def locals_at(self, file: str, line: int) -> dict[str, Key]:
        """Names bound above a line in its declaration: parameters, `let`, loop variables, ...
        (by line, not by block: a completion list may offer a name from a closed block)."""
        out: dict[str, Key] = {}
        for span, name, key, bound in self.scopes.get(file, []):
            if span.line <= line <= span.end_line and bound <= line:
                out[name] = key
        return out


def _globals(model: Model) -> dict[str, tuple[str, A.Node | None]]:
    """Global names → (kind, declaring node)."""
    out: dict[str, tuple[str, A.Node | None]] = {}
    tables = [
        (model.vars, "state"), (model.consts, "constant"), (model.options, "option"),
        (model.data, "data"), (model.defines, "definition"), (model.actions, "action"),
        (model.procedures, "procedure"), (model.devices, "device"), (model.enums, "enum"),
        (model.records, "record"), (model.boards, "board"),
    ]
    for table, kind in tables:
        for name, node in table.items():
            out.setdefault(name, (kind, node))
    return out


class _Builder:
    def __init__(self, model: Model, tokens: dict[str, Tokens]):
        self.m = model
        self.tokens = tokens
        self.ix = Index()
        self.globals = _globals(model)
        self.file = ""
        self.decl_span: A.Span | None = None  # the declaration being walked

    # ------------------------------------------------------------ recording
    def occ(self, tok: Token | None, key: Key | None, is_def: bool = False) -> None:
        if tok is None or key is None:
            return
        loc = Loc(self.file, tok.line, tok.column, tok.end_column)
        self.ix.by_file.setdefault(self.file, []).append(Occurrence(loc, key, is_def))
        sym = self.ix.symbols.get(key)
        if sym is not None and is_def and sym.where is None:
            sym.where = loc

    def find(self, span: A.Span, name: str, after: tuple[int, int] | None = None) -> Token | None:
        """The first name token `name` inside `span` (after a position, if given)."""
        toks = self.tokens.get(span.file)
        if toks is None or span.line <= 0:
            return None
        line, col = after if after is not None else (span.line, span.column)
        for tok in toks.in_range(line, col, span.end_line, span.end_column):
            if tok.kind == "name" and tok.text == name:
                return tok
        return None

    def nth_name(self, span: A.Span, n: int) -> Token | None:
        """The n-th (0-based) name token of a span: the name after a statement's keyword."""
        toks = self.tokens.get(span.file)
        if toks is None or span.line <= 0:
            return None
        i = 0
        for tok in toks.in_range(span.line, span.column, span.end_line, span.end_column):
            if tok.kind == "name":
                if i == n:
                    return tok
                i += 1
        return None

    # ------------------------------------------------------------ symbols
    def symbol(self, key: Key, name: str, kind: str, decl: A.Node | None = None,
               type_: str | None = None, detail: str = "") -> Key:
        if key not in self.ix.symbols:
            self.ix.symbols[key] = Symbol(key, name, kind, decl, None, type_, detail)
        return key

    def global_key(self, name: str) -> Key | None:
        """The key of a global name, creating its symbol on first use."""
        key = ("global", name)
        if key in self.ix.symbols:
            return key
        m = self.m
        if name in self.globals:
            kind, node = self.globals[name]
            return self.symbol(key, name, kind, node, self.global_type(name, kind, node))
        if name in m.element_type:
            owner = m.element_type[name]
            if owner == "Player":
                return self.symbol(key, name, "player", m.players, "Player", "a player")
            if owner in m.enums:
                return self.symbol(key, name, "member", m.enums[owner], owner, f"member of enum {owner}")
            board = m.boards.get(owner)
            kind = "node" if isinstance(board, (A.GraphDecl, A.GraphFileDecl)) else "square"
            self.symbol(key, name, kind, board, owner, f"{kind} of board {owner}")
            if kind == "square" and board is not None:  # a grid names its squares itself
                tok = self.find(board.span, owner)
                if tok is not None:
                    self.ix.symbols[key].where = Loc(board.span.file, tok.line, tok.column, tok.end_column)
            return key
        if name in DIRECTIONS:
            return self.symbol(key, name, "builtin", None, "Direction", "a compass direction")
        if name in KEYWORD_VALUES or name in ("Player", "Direction"):
            return self.symbol(key, name, "builtin", None, None, "built in")
        return None

    def global_type(self, name: str, kind: str, node: A.Node | None) -> str | None:
        m = self.m
        if kind in ("state", "data", "option"):
            return type_text(node.type)
        if kind == "constant":
            return type_text(m.const_types.get(name))
        if kind == "definition":
            return type_text(m.define_types.get(name))
        if kind == "device":
            return type_text(node.type)
        if kind in ("enum", "record", "board"):
            return "type"
        return None

    def call_key(self, name: str) -> Key | None:
        if name in self.globals:
            return self.global_key(name)
        if name in LIBRARY:
            sig = LIBRARY[name]
            return self.symbol(("library", name), name, "library", None, type_text(sig.result), sig.doc)
        return None

    def type_node(self, t: A.Node | None) -> None:
        if t is None:
            return
        if isinstance(t, A.NamedType):
            toks = self.tokens[self.file]
            tok = next(iter(toks.in_range(t.span.line, t.span.column, t.span.end_line,
                                          t.span.end_column)), None)
            if t.name in self.m.enums or t.name in self.m.boards or t.name in self.m.records:
                self.occ(tok, self.global_key(t.name))
        elif isinstance(t, A.OptionalType):
            self.type_node(t.inner)
        elif isinstance(t, (A.ListType, A.SetType)):
            self.type_node(t.item)
        elif isinstance(t, A.MapType):
            self.type_node(t.key)
            self.type_node(t.value)

    # ------------------------------------------------------------ types of expressions
    def record_of(self, e: A.Node, scope: dict[str, Key]) -> str | None:
        """The record type of an expression when it can be told from declarations alone."""
        t = self.type_of(e, scope)
        while isinstance(t, A.OptionalType):
            t = t.inner
        if isinstance(t, A.NamedType) and t.name in self.m.records:
            return t.name
        return None

    def type_of(self, e: A.Node, scope: dict[str, Key]) -> A.Node | None:
        m = self.m
        if isinstance(e, A.Name):
            key = scope.get(e.name)
            if key is not None:
                sym = self.ix.symbols.get(key)
                return sym.type_node if sym else None
            for table in (m.vars, m.data, m.options):
                if e.name in table:
                    return table[e.name].type
            return None
        if isinstance(e, A.Index):
            t = _strip(self.type_of(e.base, scope))
            if isinstance(t, A.MapType):
                return t.value
            if isinstance(t, A.ListType):
                return t.item
            return None
        if isinstance(e, A.Field):
            rec = self.record_of(e.base, scope)
            if rec is not None:
                return dict(self.m.records[rec].fields).get(e.name)
            return None
        if isinstance(e, A.RecordLit):
            return A.NamedType(e.span, e.record)
        if isinstance(e, A.Call) and e.func in m.defines:
            return m.defines[e.func].type
        return None

    def field_key(self, record: str | None, name: str) -> Key:
        if record is None:
            owners = [r for r, d in self.m.records.items() if name in dict(d.fields)]
            record = owners[0] if len(owners) == 1 else None
        if record is None:
            return self.symbol(("field", "*", name), name, "field", None, None, "a record field")
        rec = self.m.records.get(record)
        ftype = dict(rec.fields).get(name) if rec is not None else None
        return self.symbol(("field", record, name), name, "field", rec,
                           type_text(ftype) if ftype is not None else None, f"field of record {record}")

    # ------------------------------------------------------------ locals
    def local(self, tok: Token | None, name: str, kind: str, scope: dict[str, Key],
              type_node: A.Node | None = None, detail: str = "") -> None:
        if tok is None:
            return
        key = ("local", self.file, tok.line, tok.column)
        self.ix.symbols[key] = Symbol(key, name, kind, None, None,
                                      type_text(type_node) if type_node else None, detail, type_node)
        if self.decl_span is not None:
            self.ix.scopes.setdefault(self.file, []).append((self.decl_span, name, key, tok.line))
        self.occ(tok, key, True)
        scope[name] = key

    # ------------------------------------------------------------ expressions
    def expr(self, e: A.Node | None, scope: dict[str, Key]) -> None:
        if e is None:
            return
        if isinstance(e, A.Name):
            toks = self.tokens[self.file]
            tok = toks.at(e.span.line, e.span.column)
            self.occ(tok, scope.get(e.name) or self.global_key(e.name))
        elif isinstance(e, A.Call):
            toks = self.tokens[self.file]
            self.occ(toks.at(e.span.line, e.span.column), self.call_key(e.func))
            for a in e.args:
                self.expr(a, scope)
        elif isinstance(e, A.RecordLit):
            toks = self.tokens[self.file]
            self.occ(toks.at(e.span.line, e.span.column), self.global_key(e.record))
            after = (e.span.line, e.span.column + len(e.record))
            for fname, value in e.fields:
                tok = self.find(e.span, fname, after)
                self.occ(tok, self.field_key(e.record, fname))
                self.expr(value, scope)
                after = (value.span.end_line, value.span.end_column)
        elif isinstance(e, A.Field):
            self.expr(e.base, scope)
            tok = self.find(e.span, e.name, (e.base.span.end_line, e.base.span.end_column))
            self.occ(tok, self.field_key(self.record_of(e.base, scope), e.name))
        elif isinstance(e, A.Aggregate):
            self.expr(e.domain, scope)
            inner = dict(scope)
            self.local(self.nth_name(e.span, 1), e.var, "local", inner,
                       _item(self.type_of(e.domain, scope)), f"each item of {expr_text(e.domain)}")
            self.expr(e.where, inner)
            self.expr(e.body, inner)
        elif isinstance(e, A.LetExpr):  # a definition's `let` line: its name holds below it
            self.expr(e.value, scope)
            inner = dict(scope)
            self.local(self.nth_name(e.span, 1), e.name, "local", inner,
                       self.type_of(e.value, scope), f"let {e.name} = {expr_text(e.value)}")
            self.expr(e.body, inner)
        elif isinstance(e, A.Node):
            for child in _children(e):
                self.expr(child, scope)

    # ------------------------------------------------------------ statements
    def block(self, stmts: Iterable[A.Node], scope: dict[str, Key]) -> None:
        scope = dict(scope)
        for s in stmts:
            self.stmt(s, scope)

    def target(self, t: A.Target, scope: dict[str, Key]) -> None:
        toks = self.tokens[self.file]
        self.occ(toks.at(t.span.line, t.span.column), scope.get(t.root) or self.global_key(t.root))
        ty = self.m.vars[t.root].type if t.root in self.m.vars else None
        after = (t.span.line, t.span.column + len(t.root))
        for step in t.steps:
            ty = _strip(ty)
            if isinstance(step, str):
                rec = ty.name if isinstance(ty, A.NamedType) and ty.name in self.m.records else None
                tok = self.find(t.span, step, after)
                self.occ(tok, self.field_key(rec, step))
                if tok is not None:
                    after = (tok.line, tok.end_column)
                ty = dict(self.m.records[rec].fields).get(step) if rec else None
            else:
                self.expr(step, scope)
                after = (step.span.end_line, step.span.end_column)
                ty = ty.value if isinstance(ty, A.MapType) else ty.item if isinstance(ty, A.ListType) else None

    def stmt(self, s: A.Node, scope: dict[str, Key]) -> None:
        if isinstance(s, (A.SetStmt, A.AddStmt, A.RemoveStmt)):
            self.expr(s.value, scope)
            self.target(s.target, scope)
        elif isinstance(s, (A.ClearStmt, A.ShuffleStmt)):
            self.target(s.target, scope)
        elif isinstance(s, (A.MoveStmt, A.DrawStmt)):
            self.expr(s.item if isinstance(s, A.MoveStmt) else s.count, scope)
            self.target(s.source, scope)
            self.target(s.dest, scope)
        elif isinstance(s, A.LetStmt):
            self.expr(s.value, scope)
            self.local(self.nth_name(s.span, 1), s.name, "local", scope,
                       self.type_of(s.value, scope), f"let {s.name} = {expr_text(s.value)}")
        elif isinstance(s, A.FinishStmt):
            inner = dict(scope)
            if s.var:
                self.local(self.find(s.span, s.var, self._after_word(s.span, "ranking")), s.var,
                           "local", inner, None, "each player, for the ranking")
            for x in s.exprs:
                self.expr(x, inner)
        elif isinstance(s, A.DoStmt):
            self.occ(self.nth_name(s.span, 1), self.global_key(s.name))
            for a in s.args:
                self.expr(a, scope)
        elif isinstance(s, A.PlayStmt):
            after = None
            for name in s.actions:
                tok = self.find(s.span, name, after)
                self.occ(tok, self.global_key(name))
                if tok is not None:
                    after = (tok.line, tok.end_column)
            self.expr(s.by, scope)
            if s.otherwise is not None:
                self.block((s.otherwise,), scope)
        elif isinstance(s, A.ChooseStmt):
            self.expr(s.domain, scope)
            self.expr(s.by, scope)
            inner = dict(scope)
            self.local(self.nth_name(s.span, 1), s.name, "local", inner,
                       _item(self.type_of(s.domain, scope)), f"chosen from {expr_text(s.domain)}")
            self.expr(s.where, inner)
            scope.update(inner)
        elif isinstance(s, A.GotoStmt):
            self.occ(self.nth_name(s.span, 1), self.phase_key(s.phase))
        elif isinstance(s, A.IfStmt):
            for test, body in s.branches:
                self.expr(test, scope)
                self.block(body, scope)
            self.block(s.orelse, scope)
        elif isinstance(s, A.ForStmt):
            self.expr(s.domain, scope)
            inner = dict(scope)
            self.local(self.nth_name(s.span, 1), s.var, "local", inner,
                       _item(self.type_of(s.domain, scope)), f"each item of {expr_text(s.domain)}")
            self.block(s.body, inner)
        elif isinstance(s, (A.RepeatStmt, A.WhileStmt)):
            self.expr(s.times if isinstance(s, A.RepeatStmt) else s.test, scope)
            self.block(s.body, scope)
        elif isinstance(s, A.TurnStmt):
            self.expr(s.player, scope)
            self.block(s.body, scope)
        elif isinstance(s, A.SimultaneousStmt):
            self.expr(s.domain, scope)
            inner = dict(scope)
            self.local(self.nth_name(s.span, 2), s.var, "local", inner,
                       _item(self.type_of(s.domain, scope)), "each player's part")
            self.block(s.body, inner)
        elif isinstance(s, A.PhaseStmt):
            self.occ(self.nth_name(s.span, 1), self.phase_key(s.name), True)
            self.block(s.body, scope)
        elif isinstance(s, A.Node):
            for child in _children(s):
                self.expr(child, scope)

    def _after_word(self, span: A.Span, word: str) -> tuple[int, int] | None:
        tok = self.find(span, word)
        return (tok.line, tok.end_column) if tok is not None else None

    def phase_key(self, name: str) -> Key:
        node = self.m.phases.get(name)
        return self.symbol(("phase", name), name, "phase", node, None, "a phase of the flow")

    # ------------------------------------------------------------ declarations
    def params(self, params: tuple[A.Param, ...], scope: dict[str, Key]) -> None:
        toks = self.tokens[self.file]
        for p in params:
            if p.type is not None:
                self.type_node(p.type)
                detail = ""
            else:
                self.expr(p.domain, scope)
                detail = f"in {expr_text(p.domain)}"
            self.local(toks.at(p.span.line, p.span.column), p.name, "parameter", scope,
                       p.type or _item(self.type_of(p.domain, scope)), detail)

    def define(self, name: str, span: A.Span) -> None:
        self.occ(self.find(span, name), self.global_key(name), True)

    def decl(self, d: A.Node) -> None:
        toks = self.tokens[self.file]
        if isinstance(d, A.PlayersDecl):
            after = None
            for n in d.names:
                tok = self.find(d.span, n, after)
                self.occ(tok, self.global_key(n), True)
                after = (tok.line, tok.end_column) if tok else after
        elif isinstance(d, A.EnumDecl):
            self.define(d.name, d.span)
            after = self._after_word(d.span, d.name)
            for n in d.members:
                tok = self.find(d.span, n, after)
                self.occ(tok, self.global_key(n), True)
                after = (tok.line, tok.end_column) if tok else after
        elif isinstance(d, (A.GridDecl, A.GraphFileDecl)):
            self.define(d.name, d.span)
        elif isinstance(d, A.GraphDecl):
            self.define(d.name, d.span)
            after = self._after_word(d.span, d.name)
            for path in d.paths:
                for n in path:
                    tok = self.find(d.span, n, after)
                    key = self.global_key(n)
                    self.occ(tok, key, key is not None and self.ix.symbols[key].where is None)
                    after = (tok.line, tok.end_column) if tok else after
        elif isinstance(d, A.RecordDecl):
            self.define(d.name, d.span)
            after = self._after_word(d.span, d.name)
            for fname, ftype in d.fields:
                tok = self.find(d.span, fname, after)
                self.occ(tok, self.field_key(d.name, fname), True)
                self.type_node(ftype)
                after = (ftype.span.end_line, ftype.span.end_column)
        elif isinstance(d, A.DataDecl):
            self.define(d.name, d.span)
            self.type_node(d.type)
            self.expr(d.legend, {})
        elif isinstance(d, A.StateDecl):
            for v in d.vars:
                self.occ(toks.at(v.span.line, v.span.column), self.global_key(v.name), True)
                self.type_node(v.type)
                self.expr(v.default, {})
        elif isinstance(d, A.ConstDecl):
            self.define(d.name, d.span)
            self.expr(d.value, {})
        elif isinstance(d, A.OptionDecl):
            self.define(d.name, d.span)
            self.type_node(d.type)
            self.expr(d.default, {})
        elif isinstance(d, A.DefineDecl):
            self.define(d.name, d.span)
            scope: dict[str, Key] = {}
            self.params(d.params, scope)
            self.type_node(d.type)
            self.expr(d.value, scope)
        elif isinstance(d, (A.ActionDecl, A.ProcedureDecl)):
            self.define(d.name, d.span)
            scope = {}
            self.params(d.params, scope)
            self.block(d.body, scope)
        elif isinstance(d, A.DeviceDecl):
            self.define(d.name, d.span)
            scope = {}
            self.params(d.params, scope)
            self.type_node(d.type)
            self.block(d.roll, scope)
            inner = dict(scope)
            for builtin in ("outcome", "detail"):
                inner[builtin] = self.symbol(("device-local", d.name, builtin), builtin, "builtin",
                                             d, type_text(d.type) if builtin == "outcome" else None,
                                             f"the outcome of device {d.name}" if builtin == "outcome"
                                             else "what 'result ... with' passed on")
            for r in d.requires:
                self.expr(r.test, inner)
            self.block(d.settle, inner)
        elif isinstance(d, A.TriggerDecl):
            self.expr(d.test, {})
            self.block(d.body, {})
        elif isinstance(d, (A.HookDecl, A.FlowDecl)):
            self.block(d.body, {})
        elif isinstance(d, A.ScoringDecl):
            self.expr(d.value, {})
        elif isinstance(d, A.InvariantDecl):
            self.expr(d.test, {})
        elif isinstance(d, A.DisplayDecl):
            after = None
            for n in (d.board, *d.layers):
                tok = self.find(d.span, n, after)
                self.occ(tok, self.global_key(n))
                after = (tok.line, tok.end_column) if tok else after
        elif isinstance(d, A.ScenarioDecl):
            for st in d.steps:
                self.scenario_step(st)

    def scenario_step(self, st: A.ScenarioStep) -> None:
        toks = self.tokens[self.file]
        if st.call is not None:
            c = st.call
            self.occ(toks.at(c.span.line, c.span.column), self.global_key(c.name))
            for a in c.args:
                self.expr(a, {})
        if st.kind in ("given", "before_start"):
            self.block(st.body, {})
        elif st.kind == "start_phase":
            self.occ(self.find(st.span, st.value, self._after_word(st.span, "phase")),
                     self.phase_key(st.value))
        elif st.kind in ("option", "script"):
            name, value = st.value
            self.occ(self.nth_name(st.span, 1), self.call_key(name) if st.kind == "script"
                     else self.global_key(name))
            self.expr(value, {})
        elif isinstance(st.value, A.Node):
            self.expr(st.value, {})

    # ------------------------------------------------------------ whole
    def build(self, modules: list[A.Module]) -> Index:
        for name, ph in self.m.phases.items():
            self.symbol(("phase", name), name, "phase", ph, None, "a phase of the flow")
        for mod in modules:
            self.file = mod.path
            if mod.path not in self.tokens:
                continue
            for d in mod.decls:
                self.decl_span = d.span
                self.decl(d)
        for occs in self.ix.by_file.values():
            occs.sort(key=lambda o: (o.loc.line, o.loc.column))
        return self.ix


def _strip(t: A.Node | None) -> A.Node | None:
    while isinstance(t, A.OptionalType):
        t = t.inner
    return t


def _item(t: A.Node | None) -> A.Node | None:
    t = _strip(t)
    if isinstance(t, (A.ListType, A.SetType)):
        return t.item
    if isinstance(t, A.MapType):
        return t.key
    return None


def _children(node: A.Node):
    """Direct child nodes of a node, through tuples (the generic case of the walkers)."""
    for name in node.__dataclass_fields__:
        if name == "span":
            continue
        yield from _nodes_in(getattr(node, name))


def _nodes_in(value):
    if isinstance(value, A.Node):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from _nodes_in(v)


def build_index(modules: list[A.Module], model: Model, tokens: dict[str, Tokens]) -> Index:
    """Resolve every name in `modules` (each file's tokens in `tokens`, by path)."""
    return _Builder(model, tokens).build(modules)


def record_type_of(index: Index, model: Model, expr: A.Node, scope: dict[str, Key]) -> str | None:
    """The record type of an expression (for completing `x.`), when declarations tell it."""
    builder = _Builder(model, {})
    builder.ix = index
    return builder.record_of(expr, scope)
