"""print_*: AST → canonical rules text. `regelwerk fmt` uses it; parse(print(ast)) == ast."""

from __future__ import annotations

from . import ast as A
from . import sugar

INDENT = "    "

# Binding strength of each expression form: higher binds tighter. Used to add parentheses
# exactly where the canonical text needs them.
_PREC = {"agg": 0, "cond": 0, "or": 1, "and": 2, "not": 3, "cmp": 4, "range": 4, "add": 5, "mul": 6, "neg": 7}


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _prec(e: A.Node) -> int:
    if isinstance(e, (A.Aggregate, A.CondExpr, A.CountOnePer)):
        return 0
    if isinstance(e, A.BoolOp):
        return _PREC[e.op]
    if isinstance(e, A.Not):
        return 3
    if isinstance(e, (A.Compare, A.Range)):
        return 4
    if isinstance(e, A.BinOp):
        return 5 if e.op in "+-" else 6
    if isinstance(e, A.Neg):
        return 7
    return 9


def _wrap(e: A.Node, min_prec: int) -> str:
    text = expr_text(e)
    return f"({text})" if _prec(e) < min_prec else text


def expr_text(e: A.Node) -> str:
    """The canonical source text of an expression."""
    if isinstance(e, A.IntLit):
        return str(e.value)
    if isinstance(e, A.StrLit):
        return _q(e.value)
    if isinstance(e, A.BoolLit):
        return "true" if e.value else "false"
    if isinstance(e, A.NoneLit):
        return "none"
    if isinstance(e, A.Name):
        return e.name
    if isinstance(e, A.ListLit):
        return "[" + ", ".join(expr_text(x) for x in e.items) + "]"
    if isinstance(e, A.SetLit):
        return "{" + ", ".join(expr_text(x) for x in e.items) + "}"
    if isinstance(e, A.MapLit):
        return "{" + ", ".join(f"{expr_text(k)}: {expr_text(v)}" for k, v in e.items) + "}"
    if isinstance(e, A.Index):
        return f"{_wrap(e.base, 9)}[{expr_text(e.key)}]"
    if isinstance(e, A.Field):
        return f"{_wrap(e.base, 9)}.{e.name}"
    if isinstance(e, A.RecordLit):
        return f"{e.record}(" + ", ".join(f"{n}: {expr_text(v)}" for n, v in e.fields) + ")"
    if isinstance(e, A.CountOnePer):
        return sugar.count_one_per_text(e, expr_text, _wrap)
    if isinstance(e, A.Call):
        return f"{e.func}(" + ", ".join(expr_text(a) for a in e.args) + ")"
    if isinstance(e, A.BinOp):
        p = _prec(e)
        return f"{_wrap(e.left, p)} {e.op} {_wrap(e.right, p + 1)}"
    if isinstance(e, A.Compare):
        return f"{_wrap(e.left, 5)} {e.op} {_wrap(e.right, 5)}"
    if isinstance(e, A.Range):
        return f"{_wrap(e.low, 5)}..{_wrap(e.high, 5)}"
    if isinstance(e, A.BoolOp):
        p = _PREC[e.op]
        return f" {e.op} ".join(_wrap(x, p + 1) for x in e.items)
    if isinstance(e, A.Not):
        return f"not {_wrap(e.operand, 3)}"
    if isinstance(e, A.Neg):
        return f"-{_wrap(e.operand, 7)}"
    if isinstance(e, A.CondExpr):
        return f"if {expr_text(e.test)} then {_wrap(e.then, 1)} else {expr_text(e.orelse)}"
    if isinstance(e, A.Aggregate):
        text = f"{e.kind} {e.var} in {_wrap(e.domain, 1)}"
        if e.where is not None:
            text += f" where {_wrap(e.where, 1)}"
        if e.body is not None:
            text += f": {expr_text(e.body)}"
        return text
    raise TypeError(f"not an expression: {type(e).__name__}")


def type_text(t: A.Node) -> str:
    """A written type as rules write it (`Square -> Player?`)."""
    return _type_text(t)


def _type_text(t: A.Node) -> str:
    if isinstance(t, A.NamedType):
        return t.name
    if isinstance(t, A.OptionalType):
        inner = _type_text(t.inner)
        return f"({inner})?" if isinstance(t.inner, A.MapType) else inner + "?"
    if isinstance(t, A.ListType):
        return "list " + _atom_type(t.item)
    if isinstance(t, A.SetType):
        return "set " + _atom_type(t.item)
    if isinstance(t, A.MapType):
        return f"{_atom_type(t.key)} -> {_type_text(t.value)}"
    raise TypeError(type(t).__name__)


def _atom_type(t: A.Node) -> str:
    text = _type_text(t)
    return f"({text})" if isinstance(t, A.MapType) else text


def _target(t: A.Target) -> str:
    out = t.root
    for s in t.steps:
        out += f".{s}" if isinstance(s, str) else f"[{expr_text(s)}]"
    return out


def _params(ps: tuple[A.Param, ...]) -> str:
    if not ps:
        return ""
    parts = [
        f"{p.name}: {_type_text(p.type)}" if p.type is not None else f"{p.name} in {expr_text(p.domain)}"
        for p in ps
    ]
    return "(" + ", ".join(parts) + ")"


def _prov(p: A.Provenance, ind: str) -> list[str]:
    out = []
    if p.quote:
        out.append(ind + _q(p.quote))
    if p.sources:
        out.append(ind + "source " + ", ".join(_q(s) for s in p.sources))
    if p.specs:
        out.append(ind + "spec " + ", ".join(p.specs))
    if p.note:
        out.append(ind + "note " + _q(p.note))
    return out


def _stmts(body: tuple, depth: int, cm: _Comments | None = None) -> list[str]:
    out: list[str] = []
    for s in body:
        if cm is not None:
            out.extend(cm.before(s.span.line, INDENT * depth))
        out.extend(_stmt(s, depth, cm))
    return out


def _stmt(s: A.Node, depth: int, cm: _Comments | None = None) -> list[str]:
    ind = INDENT * depth
    if isinstance(s, A.SetStmt):
        return [f"{ind}set {_target(s.target)} = {expr_text(s.value)}"]
    if isinstance(s, A.AddStmt):
        return [f"{ind}add {expr_text(s.value)} to {_target(s.target)}"]
    if isinstance(s, A.RemoveStmt):
        return [f"{ind}remove {expr_text(s.value)} from {_target(s.target)}"]
    if isinstance(s, A.ClearStmt):
        return [f"{ind}clear {_target(s.target)}"]
    if isinstance(s, A.LetStmt):
        return [f"{ind}let {s.name} = {expr_text(s.value)}"]
    if isinstance(s, A.MoveStmt):
        return [f"{ind}move {expr_text(s.item)} from {_target(s.source)} to {_target(s.dest)}"]
    if isinstance(s, A.DrawStmt):
        return [f"{ind}draw {expr_text(s.count)} from {_target(s.source)} to {_target(s.dest)}"]
    if isinstance(s, A.ShuffleStmt):
        return [f"{ind}shuffle {_target(s.target)}"]
    if isinstance(s, A.RequireStmt):
        tail = f" else {_q(s.message)}" if s.message is not None else ""
        return [f"{ind}require {expr_text(s.test)}{tail}"]
    if isinstance(s, A.FinishStmt):
        if s.kind == "draw":
            return [f"{ind}finish draw"]
        if s.kind == "winner":
            return [f"{ind}finish winner {expr_text(s.exprs[0])}"]
        return [f"{ind}finish ranking {s.var} by " + " then ".join(expr_text(x) for x in s.exprs)]
    if isinstance(s, A.DoStmt):
        args = "(" + ", ".join(expr_text(a) for a in s.args) + ")" if s.args else ""
        return [f"{ind}do {s.name}{args}"]
    if isinstance(s, A.PlayStmt):
        head = "play "
        if s.up_to > 1 or (s.optional and s.up_to != 1):
            head += f"up to {s.up_to} of "
        elif s.optional:
            head += "optional "
        tail = f" by {expr_text(s.by)}" if s.by is not None else ""
        return [ind + head + ", ".join(s.actions) + tail]
    if isinstance(s, A.ChooseStmt):
        text = f"{ind}choose {s.name} in {expr_text(s.domain)}"
        if s.where is not None:
            text += f" where {expr_text(s.where)}"
        if s.by is not None:
            text += f" by {expr_text(s.by)}"
        if s.prompt is not None:
            text += " " + _q(s.prompt)
        return [text]
    if isinstance(s, A.BreakStmt):
        return [ind + "break"]
    if isinstance(s, A.AbandonStmt):
        return [f"{ind}abandon {_q(s.reason)}"]
    if isinstance(s, A.ResultStmt):
        tail = f" with {expr_text(s.detail)}" if s.detail is not None else ""
        return [f"{ind}result {expr_text(s.value)}{tail}"]
    if isinstance(s, A.GotoStmt):
        return [f"{ind}goto {s.phase}"]
    if isinstance(s, A.RevealStmt):
        tail = f" to {expr_text(s.to)}" if s.to is not None else ""
        return [f"{ind}reveal {expr_text(s.value)}{tail}"]
    if isinstance(s, A.LogStmt):
        return [f"{ind}log {_q(s.message)}"]
    if isinstance(s, A.ChooseOnePer):
        n, var, items, slot, slots, fits, by, prompt, body = sugar.choose_one_per_parts(s)
        head = (f"{ind}choose {_wrap(n, 5)} of {var} in {_wrap(items, 1)} one per {slot} in "
                f"{_wrap(slots, 1)} where {_wrap(fits, 1)}")
        head += (f" by {expr_text(by)}" if by is not None else "") + (" " + _q(prompt) if prompt else "")
        return [head] + _stmts(body, depth + 1, cm)
    if isinstance(s, A.ForChosen):
        var, items, optional, by, prompt, body = sugar.for_chosen_parts(s)
        head = f"{ind}for {var} in {expr_text(items)} chosen" + (" optional" if optional else "")
        head += (f" by {expr_text(by)}" if by is not None else "") + (" " + _q(prompt) if prompt else "")
        return [head] + _stmts(body, depth + 1, cm)
    if isinstance(s, A.IfStmt):
        out = []
        branches = list(s.branches)
        if isinstance(s, A.IfLet):
            name, value, body, elifs, _orelse = sugar.if_let_parts(s)
            out.append(f"{ind}if let {name} = {expr_text(value)}")
            out.extend(_stmts(body, depth + 1, cm))
            branches = [None, *elifs]
        for i, branch in enumerate(branches):
            if branch is None:
                continue
            test, body = branch
            out.append(f"{ind}{'if' if i == 0 else 'elif'} {expr_text(test)}")
            out.extend(_stmts(body, depth + 1, cm))
        if s.orelse:
            out.append(ind + "else")
            out.extend(_stmts(s.orelse, depth + 1, cm))
        return out
    if isinstance(s, A.ForStmt):
        return [f"{ind}for {s.var} in {expr_text(s.domain)}"] + _stmts(s.body, depth + 1, cm)
    if isinstance(s, A.RepeatStmt):
        head = "repeat" if s.times is None else f"repeat {expr_text(s.times)} times"
        return [ind + head] + _stmts(s.body, depth + 1, cm)
    if isinstance(s, A.WhileStmt):
        return [f"{ind}while {expr_text(s.test)}"] + _stmts(s.body, depth + 1, cm)
    if isinstance(s, A.TurnStmt):
        head = "turn" if s.player is None else f"turn {expr_text(s.player)}"
        return [ind + head] + _prov(s.prov, ind + INDENT) + _stmts(s.body, depth + 1, cm)
    if isinstance(s, A.PhaseStmt):
        return [f"{ind}phase {s.name}"] + _prov(s.prov, ind + INDENT) + _stmts(s.body, depth + 1, cm)
    if isinstance(s, A.SimultaneousStmt):
        return ([f"{ind}simultaneously for {s.var} in {expr_text(s.domain)}"] + _prov(s.prov, ind + INDENT)
                + _stmts(s.body, depth + 1, cm))
    raise TypeError(f"not a statement: {type(s).__name__}")


def _call_text(c: A.ActionCall) -> str:
    if not c.args:
        return c.name
    return f"{c.name}(" + ", ".join(expr_text(a) for a in c.args) + ")"


def _scenario_step(st: A.ScenarioStep, cm: _Comments | None = None) -> list[str]:
    ind = INDENT
    k = st.kind
    if k == "players":
        return [f"{ind}players {st.value}"]
    if k == "seed":
        return [f"{ind}seed {st.value}"]
    if k == "option":
        name, value = st.value
        return [f"{ind}option {name} = {expr_text(value)}"]
    if k == "before_start":
        return [ind + "before start"] + _stmts(st.body, 2, cm)
    if k == "start_phase":
        return [f"{ind}start in phase {st.value}"]
    if k == "given":
        return [ind + "given"] + _stmts(st.body, 2, cm)
    by = f" by {expr_text(st.by)}" if st.by is not None else ""
    if k == "do":
        return [f"{ind}do {_call_text(st.call)}{by}"]
    if k == "script":
        name, value = st.value
        return [f"{ind}script {name} returns {expr_text(value)}"]
    if k == "expect":
        tail = f" else {_q(st.message)}" if st.message else ""
        return [f"{ind}expect {expr_text(st.value)}{tail}"]
    if k == "legal":
        tail = f" else {_q(st.message)}" if st.message else ""
        return [f"{ind}expect legal {_call_text(st.call)}{by}{tail}"]
    if k == "illegal":
        tail = f" because {_q(st.message)}" if st.message else ""
        tail += f" else {_q(st.value)}" if st.value else ""
        return [f"{ind}expect illegal {_call_text(st.call)}{by}{tail}"]
    if k == "winner":
        return [f"{ind}expect winner {expr_text(st.value)}"]
    if k == "draw":
        return [ind + "expect draw"]
    if k == "over":
        return [ind + "expect over"]
    if k == "decider":
        tail = f" else {_q(st.message)}" if st.message else ""
        return [f"{ind}expect decision by {expr_text(st.value)}{tail}"]
    if k == "not_over":
        return [ind + "expect not over"]
    raise TypeError(k)


def _decl(d: A.Node, cm: _Comments | None = None) -> list[str]:
    if isinstance(d, A.GameDecl):
        return [f"game {_q(d.title)}"] + _prov(d.prov, INDENT)
    if isinstance(d, A.PlayersDecl):
        if d.min_count == d.max_count == len(d.names):
            return ["players " + ", ".join(d.names)]
        return [f"players {d.min_count}..{d.max_count} from " + ", ".join(d.names)]
    if isinstance(d, A.EnumDecl):
        return [f"enum {d.name} = " + ", ".join(d.members)]
    if isinstance(d, A.GridDecl):
        if d.path is not None:
            return [f"board {d.name} = grid from {_q(d.path)}"]
        return [f"board {d.name} = grid {d.width} x {d.height}"]
    if isinstance(d, A.GraphDecl):
        return [f"board {d.name} = graph"] + [INDENT + " - ".join(p) for p in d.paths]
    if isinstance(d, A.GraphFileDecl):
        return [f"board {d.name} = graph from {_q(d.path)}"]
    if isinstance(d, A.DeviceDecl):
        out = [f"device {d.name}{_params(d.params)}: {_type_text(d.type)}"] + _prov(d.prov, INDENT)
        out += [INDENT + "roll"] + _stmts(d.roll, 2, cm)
        out += _stmts(d.requires, 1, cm)
        if d.settle:
            out += [INDENT + "settle"] + _stmts(d.settle, 2, cm)
        return out
    if isinstance(d, A.InvariantDecl):
        tail = f" else {_q(d.message)}" if d.message is not None else ""
        if d.conserve:
            items, *zones = d.test.args
            head = f"conserve {expr_text(items)} across {', '.join(z.name for z in zones)}"
            return [head + tail] + _prov(d.prov, INDENT)
        return [f"invariant {expr_text(d.test)}{tail}"] + _prov(d.prov, INDENT)
    if isinstance(d, A.DisplayDecl):
        return [f"display {d.board}: " + ", ".join(d.layers)]
    if isinstance(d, A.RecordDecl):
        return [f"record {d.name}(" + ", ".join(f"{n}: {_type_text(t)}" for n, t in d.fields) + ")"]
    if isinstance(d, A.DataDecl):
        tail = f" legend {expr_text(d.legend)}" if d.legend is not None else ""
        return [f"data {d.name}: {_type_text(d.type)} from {_q(d.path)}{tail}"]
    if isinstance(d, A.StateDecl):
        out = ["state"]
        for v in d.vars:
            if cm is not None:
                out.extend(cm.before(v.span.line, INDENT))
            line = f"{INDENT}{v.name}: {_type_text(v.type)}"
            if v.default is not None:
                line += f" = {expr_text(v.default)}"
            if v.hidden == "all":
                line += " hidden"
            elif v.hidden == "owner":
                line += " hidden except owner"
            out.append(line)
        return out
    if isinstance(d, A.ConstDecl):
        return [f"const {d.name} = {expr_text(d.value)}"]
    if isinstance(d, A.OptionDecl):
        tail = f" {_q(d.doc)}" if d.doc else ""
        return [f"option {d.name}: {_type_text(d.type)} = {expr_text(d.default)}{tail}"]
    if isinstance(d, A.DefineDecl):
        typ = f": {_type_text(d.type)}" if d.type is not None else ""
        head = f"define {d.name}{_params(d.params)}{typ} ="
        body = expr_text(d.value)
        if len(head) + 1 + len(body) <= 100:
            return [f"{head} {body}"]
        return [head, INDENT + body]
    if isinstance(d, A.ActionDecl):
        return [f"action {d.name}{_params(d.params)}"] + _prov(d.prov, INDENT) + _stmts(d.body, 1, cm)
    if isinstance(d, A.ProcedureDecl):
        return [f"procedure {d.name}{_params(d.params)}"] + _prov(d.prov, INDENT) + _stmts(d.body, 1, cm)
    if isinstance(d, A.TriggerDecl):
        return [f"when {expr_text(d.test)}"] + _prov(d.prov, INDENT) + _stmts(d.body, 1, cm)
    if isinstance(d, A.HookDecl):
        return [f"on {d.event}"] + _prov(d.prov, INDENT) + _stmts(d.body, 1, cm)
    if isinstance(d, A.FlowDecl):
        return ["flow"] + _prov(d.prov, INDENT) + _stmts(d.body, 1, cm)
    if isinstance(d, A.ScoringDecl):
        return [f"scoring {expr_text(d.value)}"]
    if isinstance(d, A.UmpireDecl):
        return [f"umpire {_q(d.reason)}"]
    if isinstance(d, A.IncludeDecl):
        return [f"include {_q(d.path)}" + (" without scenarios" if d.without_scenarios else "")]
    if isinstance(d, A.ScenarioDecl):
        out = [f"scenario {_q(d.name)}"] + _prov(d.prov, INDENT)
        for st in d.steps:
            if cm is not None:
                out.extend(cm.before(st.span.line, INDENT))
            out.extend(_scenario_step(st, cm))
        return out
    raise TypeError(f"not a declaration: {type(d).__name__}")


class _Comments:
    """The source's comments, handed out in line order so `fmt` keeps them.

    A comment on its own line stays above the next declaration or statement; a comment at
    the end of a line of code moves to its own line above that code."""

    def __init__(self, source: str):
        self.items: list[tuple[float, str]] = []
        for n, line in enumerate(source.splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith("#"):
                self.items.append((n - 0.5, stripped))
            else:
                at = _comment_start(line)
                if at is not None:
                    self.items.append((n - 0.25, line[at:].strip()))
        self.i = 0

    def before(self, line: int, indent: str) -> list[str]:
        out = []
        while self.i < len(self.items) and self.items[self.i][0] < line:
            out.append(indent + self.items[self.i][1])
            self.i += 1
        return out

    def rest(self) -> list[str]:
        out = [text for _, text in self.items[self.i:]]
        self.i = len(self.items)
        return out


def _comment_start(line: str) -> int | None:
    """Where a trailing `# comment` starts, outside any quoted text."""
    quoted = False
    escaped = False
    for i, ch in enumerate(line):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return i
    return None


def print_module(m: A.Module, source: str | None = None) -> str:
    """Canonical text of a module: one blank line between declarations. Given the source
    text, its comments are kept."""
    cm = _Comments(source) if source is not None else None
    chunks = []
    for d in m.decls:
        lead = cm.before(d.span.line, "") if cm is not None else []
        chunks.append("\n".join(lead + _decl(d, cm)))
    tail = cm.rest() if cm is not None else []
    if tail:
        chunks.append("\n".join(tail))
    return "\n\n".join(chunks) + "\n"
