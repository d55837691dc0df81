"""print_*: AST → canonical rules text. `regelwerk fmt` uses it; parse(print(ast)) == ast.

Each expression, statement and declaration class has its printer in a table (`_EXPR`, `_STMT`,
`_DECL`, dsl/dispatch.py); the sugar's classes have their own, which print the sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from . import ast as A
from . import sugar
from .dispatch import NodeTable

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


# One printer per expression class: expression -> its text.
_EXPR: NodeTable[Callable[[A.Node], str]] = NodeTable("an expression")


def expr_text(e: A.Node) -> str:
    """The canonical source text of an expression."""
    return _EXPR[type(e)](e)


@_EXPR.on(A.IntLit)
def _print_int(e: A.IntLit) -> str:
    return str(e.value)


@_EXPR.on(A.StrLit)
def _print_str(e: A.StrLit) -> str:
    return _q(e.value)


@_EXPR.on(A.BoolLit)
def _print_bool(e: A.BoolLit) -> str:
    return "true" if e.value else "false"


@_EXPR.on(A.NoneLit)
def _print_none(e: A.NoneLit) -> str:
    return "none"


@_EXPR.on(A.Name)
def _print_name(e: A.Name) -> str:
    return e.name


@_EXPR.on(A.ListLit)
def _print_list(e: A.ListLit) -> str:
    return "[" + ", ".join(expr_text(x) for x in e.items) + "]"


@_EXPR.on(A.SetLit)
def _print_set_lit(e: A.SetLit) -> str:
    return "{" + ", ".join(expr_text(x) for x in e.items) + "}"


@_EXPR.on(A.MapLit)
def _print_map(e: A.MapLit) -> str:
    return "{" + ", ".join(f"{expr_text(k)}: {expr_text(v)}" for k, v in e.items) + "}"


@_EXPR.on(A.Index)
def _print_index(e: A.Index) -> str:
    return f"{_wrap(e.base, 9)}[{expr_text(e.key)}]"


@_EXPR.on(A.Field)
def _print_field(e: A.Field) -> str:
    return f"{_wrap(e.base, 9)}.{e.name}"


@_EXPR.on(A.RecordLit)
def _print_record_lit(e: A.RecordLit) -> str:
    return f"{e.record}(" + ", ".join(f"{n}: {expr_text(v)}" for n, v in e.fields) + ")"


@_EXPR.on(A.CountOnePer)
def _print_count_one_per(e: A.CountOnePer) -> str:
    return sugar.count_one_per_text(e, expr_text, _wrap)


@_EXPR.on(A.Call)
def _print_call(e: A.Call) -> str:
    return f"{e.func}(" + ", ".join(expr_text(a) for a in e.args) + ")"


@_EXPR.on(A.BinOp)
def _print_binop(e: A.BinOp) -> str:
    p = _prec(e)
    return f"{_wrap(e.left, p)} {e.op} {_wrap(e.right, p + 1)}"


@_EXPR.on(A.Compare)
def _print_compare(e: A.Compare) -> str:
    return f"{_wrap(e.left, 5)} {e.op} {_wrap(e.right, 5)}"


@_EXPR.on(A.Range)
def _print_range(e: A.Range) -> str:
    return f"{_wrap(e.low, 5)}..{_wrap(e.high, 5)}"


@_EXPR.on(A.BoolOp)
def _print_boolop(e: A.BoolOp) -> str:
    p = _PREC[e.op]
    return f" {e.op} ".join(_wrap(x, p + 1) for x in e.items)


@_EXPR.on(A.Not)
def _print_not(e: A.Not) -> str:
    return f"not {_wrap(e.operand, 3)}"


@_EXPR.on(A.Neg)
def _print_neg(e: A.Neg) -> str:
    return f"-{_wrap(e.operand, 7)}"


@_EXPR.on(A.CondExpr)
def _print_cond(e: A.CondExpr) -> str:
    return f"if {expr_text(e.test)} then {_wrap(e.then, 1)} else {expr_text(e.orelse)}"


@_EXPR.on(A.Aggregate)
def _print_aggregate(e: A.Aggregate) -> str:
    text = f"{e.kind} {e.var} in {_wrap(e.domain, 1)}"
    if e.where is not None:
        text += f" where {_wrap(e.where, 1)}"
    if e.body is not None:
        text += f": {expr_text(e.body)}"
    return text


@_EXPR.on(A.LetExpr)
def _print_let_expr(e: A.LetExpr) -> str:
    """A definition's `let` lines on one line, for messages and hover texts only: `regelwerk
    fmt` writes them as lines (`_print_define`)."""
    return f"let {e.name} = {expr_text(e.value)}; {expr_text(e.body)}"


# ------------------------------------------------------------------ long lines
# `regelwerk fmt` keeps a line to WIDTH characters where the expression on it can break: a
# line that is longer is broken at the outermost form first (before `and`/`or`, before `else`
# of an if-expression, before `where` and after `:` of an aggregate, before an operator, after
# each comma of a call or a list), its continuation lines one level deeper. Line breaks count
# only inside brackets (docs/language.md §2), so a break that is not inside its own brackets
# (a call's, a list's) puts the expression in parentheses, which the parser reads back to the
# same syntax tree. What cannot break (a long name or text) stays long.
WIDTH = 100
_width = [WIDTH]  # the width in force: unbounded while a statement is written on one line

_UNBROKEN = 30  # an expression this short is left whole: its pieces would read worse than it
Part = str | tuple[A.Node, int]  # a text, or an expression and the precedence it needs


def fit(ind: str, head: str, e: A.Node, tail: str = "", deeper: bool = False) -> list[str]:
    """The lines of `ind + head + EXPR + tail`, the expression broken when it would end past
    the width. The tail (a `require`'s message, `to TARGET`) goes after its last line and is
    not broken: a long message makes a long line, which breaking the expression would not
    shorten. `deeper`: the line heads a block, so its continuation lines go one more level
    in, apart from the block's statements."""
    text = expr_text(e)
    if len(ind) + len(head) + len(text) <= _width[0]:
        return [ind + head + text + tail]
    base = ind + INDENT if deeper else ind
    lines = _layout(e, base, _width[0] - len(ind) - len(head), "", False)
    lines[0] = ind + head + lines[0]
    lines[-1] += tail
    return lines


def _breaks(e: A.Node) -> bool:
    """Whether an expression of this form can be written over several lines."""
    if isinstance(e, A.CountOnePer):  # the sugar's sentence is written whole
        return False
    if isinstance(e, A.Call):
        return bool(e.args)
    if isinstance(e, A.RecordLit):
        return bool(e.fields)
    if isinstance(e, (A.ListLit, A.SetLit, A.MapLit)):
        return bool(e.items)
    return isinstance(e, (A.BoolOp, A.CondExpr, A.Aggregate, A.BinOp, A.Compare, A.Not))


def _layout(e: A.Node, ind: str, room: int, tail: str, bracketed: bool) -> list[str]:
    """`e` + `tail` as lines: the first goes on after what its line holds (`room` characters
    are left there), the others are whole lines; `ind` is the indentation of the line it
    starts on. `bracketed`: inside brackets already, where a line may break anywhere."""
    text = expr_text(e)
    if len(text) + len(tail) <= room or not _breaks(e) or len(text) <= _UNBROKEN:
        return [text + tail]
    if isinstance(e, (A.Call, A.RecordLit, A.ListLit, A.SetLit, A.MapLit)):
        return _layout_items(e, ind, tail)
    if not bracketed:  # a line may break only inside brackets: put it in parentheses
        lines = _layout(e, ind, room - 1, ")" + tail, True)
        return ["(" + lines[0]] + lines[1:]
    return _layout_lines(_segments(e, room), ind, room, tail)


def _layout_items(e: A.Node, ind: str, tail: str) -> list[str]:
    """A call, record, list, set or map with one item a line, one level in; the closing
    bracket on a line of its own."""
    inner = ind + INDENT
    if isinstance(e, A.Call):
        opening, closing, items = f"{e.func}(", ")", [("", a) for a in e.args]
    elif isinstance(e, A.RecordLit):
        opening, closing, items = f"{e.record}(", ")", [(f"{n}: ", v) for n, v in e.fields]
    elif isinstance(e, A.ListLit):
        opening, closing, items = "[", "]", [("", x) for x in e.items]
    elif isinstance(e, A.SetLit):
        opening, closing, items = "{", "}", [("", x) for x in e.items]
    else:
        opening, closing, items = "{", "}", [(f"{expr_text(k)}: ", v) for k, v in e.items]
    out = [opening]
    for i, (head, x) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        lines = _layout(x, inner, _width[0] - len(inner) - len(head), comma, True)
        out.append(inner + head + lines[0])
        out.extend(lines[1:])
    out.append(ind + closing + tail)
    return out


def _segments(e: A.Node, room: int) -> list[list[Part]]:
    """Where `e` breaks: its parts, the first continuing the line it starts on and each other
    starting a line of its own. Within a part only the last expression may break further."""
    if isinstance(e, A.BoolOp):
        p = _PREC[e.op]
        return [[(e.items[0], p + 1)]] + [[f"{e.op} ", (x, p + 1)] for x in e.items[1:]]
    if isinstance(e, A.CondExpr):
        out: list[list[Part]] = []
        word = "if "
        node: A.Node = e
        while isinstance(node, A.CondExpr):  # `else if` goes on as one chain
            head = f"{word}{expr_text(node.test)} then {_wrap(node.then, 1)}"
            if len(head) <= room:
                out.append([word, (node.test, 0), " then ", (node.then, 1)])
            else:
                out += [[word, (node.test, 0)], ["then ", (node.then, 1)]]
            word, node = "else if ", node.orelse
        return out + [["else ", (node, 0)]]
    if isinstance(e, A.Aggregate):
        head: list[Part] = [f"{e.kind} {e.var} in ", (e.domain, 1)]
        where: list[Part] = ["where ", (e.where, 1)] if e.where is not None else []
        colon: list[Part] = [":"] if e.body is not None else []
        flat = f"{e.kind} {e.var} in {_wrap(e.domain, 1)}" + (f" where {_wrap(e.where, 1)}" if where else "")
        if len(flat) + 1 <= room:  # `KIND x in D where W:` on the first line, the body below
            first = [*head, *([" ", *where] if where else []), *colon]
            out = [first]
        else:
            out = [head + ([] if where else colon)] + ([where + colon] if where else [])
        return out + ([[(e.body, 0)]] if e.body is not None else [])
    if isinstance(e, A.BinOp):
        p = _prec(e)
        chain = [e]
        while isinstance(chain[-1].left, A.BinOp) and _prec(chain[-1].left) == p:
            chain.append(chain[-1].left)
        out = [[(chain[-1].left, p)]]
        for node in reversed(chain):
            out.append([f"{node.op} ", (node.right, p + 1)])
        return out
    if isinstance(e, A.Compare):
        return [[(e.left, 5)], [f"{e.op} ", (e.right, 5)]]
    if isinstance(e, A.Not):
        return [["not ", (e.operand, 3)]]
    raise TypeError(type(e).__name__)


def _layout_lines(segments: list[list[Part]], ind: str, room: int, tail: str) -> list[str]:
    """The segments of a broken expression as lines: the first after what its line holds,
    the others one level in."""
    inner = ind + INDENT
    out: list[str] = []
    for i, parts in enumerate(segments):
        last_seg = i == len(segments) - 1
        lead = "" if i == 0 else inner
        here = room if i == 0 else _width[0] - len(inner)
        k = max(j for j, p in enumerate(parts) if not isinstance(p, str))  # the part that may break
        text = "".join(p if isinstance(p, str) else _wrap(*p) for p in parts[:k])
        after = "".join(p for p in parts[k + 1:] if isinstance(p, str)) + (tail if last_seg else "")
        node, prec = parts[k]
        sub_ind = inner  # what a part breaks into goes one level deeper than its own line
        if _prec(node) < prec:
            lines = _layout(node, sub_ind, here - len(text) - 1, ")" + after, True)
            lines = ["(" + lines[0]] + lines[1:]
        else:
            lines = _layout(node, sub_ind, here - len(text), after, True)
        out.append(lead + text + lines[0])
        out.extend(lines[1:])
    return out


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


def _head(lead: str, ps: tuple[A.Param, ...], tail: str = "") -> list[str]:
    """A rule's or definition's head: `lead(params)tail` on one line, or, when that is longer
    than the width, its parameters filled onto lines after a comma, two levels in (apart
    from the body below)."""
    line = lead + _params(ps) + tail
    if len(line) <= _width[0] or len(ps) < 2:
        return [line]
    parts = [_params((p,))[1:-1] for p in ps]
    out, current = [], lead + "(" + parts[0]
    for part in parts[1:]:
        if len(current) + len(part) + 2 > _width[0]:
            out.append(current + ",")
            current = INDENT * 2 + part
        else:
            current += ", " + part
    return out + [current + ")" + tail]


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


# One printer per statement class: (statement, its indent, its depth, the comments) -> lines.
_STMT: NodeTable[Callable[..., list[str]]] = NodeTable("a statement")


def _stmt(s: A.Node, depth: int, cm: _Comments | None = None) -> list[str]:
    return _STMT[type(s)](s, INDENT * depth, depth, cm)


@_STMT.on(A.SetStmt)
def _print_set(s: A.SetStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return fit(ind, f"set {_target(s.target)} = ", s.value)


@_STMT.on(A.AddStmt)
def _print_add(s: A.AddStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return fit(ind, "add ", s.value, f" to {_target(s.target)}")


@_STMT.on(A.RemoveStmt)
def _print_remove(s: A.RemoveStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return fit(ind, "remove ", s.value, f" from {_target(s.target)}")


@_STMT.on(A.ClearStmt)
def _print_clear(s: A.ClearStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return [f"{ind}clear {_target(s.target)}"]


@_STMT.on(A.LetStmt)
def _print_let(s: A.LetStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return fit(ind, f"let {s.name} = ", s.value)


@_STMT.on(A.MoveStmt)
def _print_move(s: A.MoveStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return [f"{ind}move {expr_text(s.item)} from {_target(s.source)} to {_target(s.dest)}"]


@_STMT.on(A.DrawStmt)
def _print_draw(s: A.DrawStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return [f"{ind}draw {expr_text(s.count)} from {_target(s.source)} to {_target(s.dest)}"]


@_STMT.on(A.ShuffleStmt)
def _print_shuffle(s: A.ShuffleStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return [f"{ind}shuffle {_target(s.target)}"]


@_STMT.on(A.RequireStmt)
def _print_require(s: A.RequireStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    tail = f" else {_q(s.message)}" if s.message is not None else ""
    return fit(ind, "require ", s.test, tail)


@_STMT.on(A.FinishStmt)
def _print_finish(s: A.FinishStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    if s.kind == "draw":
        return [f"{ind}finish draw"]
    if s.kind == "winner":
        return fit(ind, "finish winner ", s.exprs[0])
    return [f"{ind}finish ranking {s.var} by " + " then ".join(expr_text(x) for x in s.exprs)]


@_STMT.on(A.DoStmt)
def _print_do(s: A.DoStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    args = "(" + ", ".join(expr_text(a) for a in s.args) + ")" if s.args else ""
    return [f"{ind}do {s.name}{args}"]


@_STMT.on(A.PlayStmt)
def _print_play(s: A.PlayStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    head = "play "
    if s.up_to > 1 or (s.optional and s.up_to != 1):
        head += f"up to {s.up_to} of "
    elif s.optional:
        head += "optional "
    tail = f" by {expr_text(s.by)}" if s.by is not None else ""
    if s.otherwise is not None:  # one simple statement, on the same line: never broken
        width, _width[0] = _width[0], 10**9
        try:
            tail += " else " + _stmt(s.otherwise, 0)[0].strip()
        finally:
            _width[0] = width
    return [ind + head + ", ".join(s.actions) + tail]


@_STMT.on(A.ChooseStmt)
def _print_choose(s: A.ChooseStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    tail = f" by {expr_text(s.by)}" if s.by is not None else ""
    if s.prompt is not None:
        tail += " " + _q(s.prompt)
    if s.where is not None:
        return fit(ind, f"choose {s.name} in {expr_text(s.domain)} where ", s.where, tail)
    return fit(ind, f"choose {s.name} in ", s.domain, tail)


@_STMT.on(A.BreakStmt)
def _print_break(s: A.BreakStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return [ind + "break"]


@_STMT.on(A.AbandonStmt)
def _print_abandon(s: A.AbandonStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return [f"{ind}abandon {_q(s.reason)}"]


@_STMT.on(A.ResultStmt)
def _print_result(s: A.ResultStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    tail = f" with {expr_text(s.detail)}" if s.detail is not None else ""
    return fit(ind, "result ", s.value, tail)


@_STMT.on(A.GotoStmt)
def _print_goto(s: A.GotoStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return [f"{ind}goto {s.phase}"]


@_STMT.on(A.RevealStmt)
def _print_reveal(s: A.RevealStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    tail = f" to {expr_text(s.to)}" if s.to is not None else ""
    return fit(ind, "reveal ", s.value, tail)


@_STMT.on(A.LogStmt)
def _print_log(s: A.LogStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return [f"{ind}log {_q(s.message)}"]


@_STMT.on(A.ChooseOnePer)
def _print_choose_one_per(s: A.ChooseOnePer, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    n, var, items, slot, slots, fits, by, prompt, body = sugar.choose_one_per_parts(s)
    head = (f"{ind}choose {_wrap(n, 5)} of {var} in {_wrap(items, 1)} one per {slot} in "
            f"{_wrap(slots, 1)} where {_wrap(fits, 1)}")
    head += (f" by {expr_text(by)}" if by is not None else "") + (" " + _q(prompt) if prompt else "")
    return [head] + _stmts(body, depth + 1, cm)


@_STMT.on(A.ForChosen)
def _print_for_chosen(s: A.ForChosen, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    var, items, optional, by, prompt, body = sugar.for_chosen_parts(s)
    head = f"{ind}for {var} in {expr_text(items)} chosen" + (" optional" if optional else "")
    head += (f" by {expr_text(by)}" if by is not None else "") + (" " + _q(prompt) if prompt else "")
    return [head] + _stmts(body, depth + 1, cm)


@_STMT.on(A.IfStmt)
def _print_if(s: A.IfStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return _print_branches(s.branches, "if", s.orelse, ind, depth, cm)


@_STMT.on(A.IfLet)
def _print_if_let(s: A.IfLet, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    name, value, body, elifs, _orelse = sugar.if_let_parts(s)
    out = fit(ind, f"if let {name} = ", value, deeper=True) + _stmts(body, depth + 1, cm)
    return out + _print_branches(elifs, "elif", s.orelse, ind, depth, cm)


def _print_branches(branches: Iterable[tuple[A.Node, tuple]], first: str, orelse: tuple, ind: str,
                    depth: int, cm: _Comments | None) -> list[str]:
    """The tested branches of an `if` (the first one led by `first`, the others by `elif`),
    then its `else`."""
    out = []
    for i, (test, body) in enumerate(branches):
        out.extend(fit(ind, f"{first if i == 0 else 'elif'} ", test, deeper=True))
        out.extend(_stmts(body, depth + 1, cm))
    if orelse:
        out.append(ind + "else")
        out.extend(_stmts(orelse, depth + 1, cm))
    return out


@_STMT.on(A.ForStmt)
def _print_for(s: A.ForStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return fit(ind, f"for {s.var} in ", s.domain, deeper=True) + _stmts(s.body, depth + 1, cm)


@_STMT.on(A.RepeatStmt)
def _print_repeat(s: A.RepeatStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    head = [ind + "repeat"] if s.times is None else fit(ind, "repeat ", s.times, " times", deeper=True)
    return head + _stmts(s.body, depth + 1, cm)


@_STMT.on(A.WhileStmt)
def _print_while(s: A.WhileStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return fit(ind, "while ", s.test, deeper=True) + _stmts(s.body, depth + 1, cm)


@_STMT.on(A.TurnStmt)
def _print_turn(s: A.TurnStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    head = "turn" if s.player is None else f"turn {expr_text(s.player)}"
    return [ind + head] + _prov(s.prov, ind + INDENT) + _stmts(s.body, depth + 1, cm)


@_STMT.on(A.PhaseStmt)
def _print_phase(s: A.PhaseStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return [f"{ind}phase {s.name}"] + _prov(s.prov, ind + INDENT) + _stmts(s.body, depth + 1, cm)


@_STMT.on(A.SimultaneousStmt)
def _print_simultaneous(s: A.SimultaneousStmt, ind: str, depth: int, cm: _Comments | None) -> list[str]:
    return ([f"{ind}simultaneously for {s.var} in {expr_text(s.domain)}"] + _prov(s.prov, ind + INDENT)
            + _stmts(s.body, depth + 1, cm))


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
        return fit(ind, f"script {name} returns ", value)
    if k == "expect":
        tail = f" else {_q(st.message)}" if st.message else ""
        return fit(ind, "expect ", st.value, tail)
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


# One printer per declaration class: (declaration, the comments) -> lines.
_DECL: NodeTable[Callable[..., list[str]]] = NodeTable("a declaration")


def _decl(d: A.Node, cm: _Comments | None = None) -> list[str]:
    return _DECL[type(d)](d, cm)


@_DECL.on(A.GameDecl)
def _print_game(d: A.GameDecl, cm: _Comments | None) -> list[str]:
    return [f"game {_q(d.title)}"] + _prov(d.prov, INDENT)


@_DECL.on(A.PlayersDecl)
def _print_players(d: A.PlayersDecl, cm: _Comments | None) -> list[str]:
    if d.min_count == d.max_count == len(d.names):
        return ["players " + ", ".join(d.names)]
    return [f"players {d.min_count}..{d.max_count} from " + ", ".join(d.names)]


@_DECL.on(A.EnumDecl)
def _print_enum(d: A.EnumDecl, cm: _Comments | None) -> list[str]:
    return [f"enum {d.name} = " + ", ".join(d.members)]


@_DECL.on(A.GridDecl)
def _print_grid(d: A.GridDecl, cm: _Comments | None) -> list[str]:
    if d.path is not None:
        return [f"board {d.name} = grid from {_q(d.path)}"]
    return [f"board {d.name} = grid {d.width} x {d.height}"]


@_DECL.on(A.GraphDecl)
def _print_graph(d: A.GraphDecl, cm: _Comments | None) -> list[str]:
    return [f"board {d.name} = graph"] + [INDENT + " - ".join(p) for p in d.paths]


@_DECL.on(A.GraphFileDecl)
def _print_graph_file(d: A.GraphFileDecl, cm: _Comments | None) -> list[str]:
    return [f"board {d.name} = graph from {_q(d.path)}"]


@_DECL.on(A.DeviceDecl)
def _print_device(d: A.DeviceDecl, cm: _Comments | None) -> list[str]:
    out = [f"device {d.name}{_params(d.params)}: {_type_text(d.type)}"] + _prov(d.prov, INDENT)
    out += [INDENT + "roll"] + _stmts(d.roll, 2, cm)
    out += _stmts(d.requires, 1, cm)
    if d.settle:
        out += [INDENT + "settle"] + _stmts(d.settle, 2, cm)
    return out


@_DECL.on(A.InvariantDecl)
def _print_invariant(d: A.InvariantDecl, cm: _Comments | None) -> list[str]:
    tail = f" else {_q(d.message)}" if d.message is not None else ""
    if d.conserve:
        items, *zones = d.test.args
        head = f"conserve {expr_text(items)} across {', '.join(z.name for z in zones)}"
        return [head + tail] + _prov(d.prov, INDENT)
    return fit("", "invariant ", d.test, tail) + _prov(d.prov, INDENT)


@_DECL.on(A.DisplayDecl)
def _print_display(d: A.DisplayDecl, cm: _Comments | None) -> list[str]:
    return [f"display {d.board}: " + ", ".join(d.layers)]


@_DECL.on(A.RecordDecl)
def _print_record(d: A.RecordDecl, cm: _Comments | None) -> list[str]:
    return [f"record {d.name}(" + ", ".join(f"{n}: {_type_text(t)}" for n, t in d.fields) + ")"]


@_DECL.on(A.DataDecl)
def _print_data(d: A.DataDecl, cm: _Comments | None) -> list[str]:
    tail = f" legend {expr_text(d.legend)}" if d.legend is not None else ""
    return [f"data {d.name}: {_type_text(d.type)} from {_q(d.path)}{tail}"]


@_DECL.on(A.StateDecl)
def _print_state(d: A.StateDecl, cm: _Comments | None) -> list[str]:
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


@_DECL.on(A.ConstDecl)
def _print_const(d: A.ConstDecl, cm: _Comments | None) -> list[str]:
    return fit("", f"const {d.name} = ", d.value)


@_DECL.on(A.OptionDecl)
def _print_option(d: A.OptionDecl, cm: _Comments | None) -> list[str]:
    tail = f" {_q(d.doc)}" if d.doc else ""
    return [f"option {d.name}: {_type_text(d.type)} = {expr_text(d.default)}{tail}"]


@_DECL.on(A.DefineDecl)
def _print_define(d: A.DefineDecl, cm: _Comments | None) -> list[str]:
    typ = f": {_type_text(d.type)}" if d.type is not None else ""
    heads = _head(f"define {d.name}", d.params, f"{typ} =")
    head = heads[-1]
    if isinstance(d.value, A.LetExpr):  # its `let` lines, then the value, each on its own line
        out = list(heads)
        value: A.Node = d.value
        while isinstance(value, A.LetExpr):
            if cm is not None:
                out.extend(cm.before(value.span.line, INDENT))
            out.extend(fit(INDENT, f"let {value.name} = ", value.value))
            value = value.body
        if cm is not None:
            out.extend(cm.before(value.span.line, INDENT))
        return out + fit(INDENT, "", value)
    body = expr_text(d.value)
    if len(head) + 1 + len(body) <= _width[0]:
        return heads[:-1] + [f"{head} {body}"]
    return heads + fit(INDENT, "", d.value)


@_DECL.on(A.ActionDecl)
def _print_action(d: A.ActionDecl, cm: _Comments | None) -> list[str]:
    return _head(f"action {d.name}", d.params) + _prov(d.prov, INDENT) + _stmts(d.body, 1, cm)


@_DECL.on(A.ProcedureDecl)
def _print_procedure(d: A.ProcedureDecl, cm: _Comments | None) -> list[str]:
    return _head(f"procedure {d.name}", d.params) + _prov(d.prov, INDENT) + _stmts(d.body, 1, cm)


@_DECL.on(A.TriggerDecl)
def _print_trigger(d: A.TriggerDecl, cm: _Comments | None) -> list[str]:
    return [f"when {expr_text(d.test)}"] + _prov(d.prov, INDENT) + _stmts(d.body, 1, cm)


@_DECL.on(A.HookDecl)
def _print_hook(d: A.HookDecl, cm: _Comments | None) -> list[str]:
    return [f"on {d.event}"] + _prov(d.prov, INDENT) + _stmts(d.body, 1, cm)


@_DECL.on(A.FlowDecl)
def _print_flow(d: A.FlowDecl, cm: _Comments | None) -> list[str]:
    return ["flow"] + _prov(d.prov, INDENT) + _stmts(d.body, 1, cm)


@_DECL.on(A.ScoringDecl)
def _print_scoring(d: A.ScoringDecl, cm: _Comments | None) -> list[str]:
    return fit("", "scoring ", d.value)


@_DECL.on(A.UmpireDecl)
def _print_umpire(d: A.UmpireDecl, cm: _Comments | None) -> list[str]:
    return [f"umpire {_q(d.reason)}"]


@_DECL.on(A.IncludeDecl)
def _print_include(d: A.IncludeDecl, cm: _Comments | None) -> list[str]:
    return [f"include {_q(d.path)}" + (" without scenarios" if d.without_scenarios else "")]


@_DECL.on(A.ScenarioDecl)
def _print_scenario(d: A.ScenarioDecl, cm: _Comments | None) -> list[str]:
    out = [f"scenario {_q(d.name)}"] + _prov(d.prov, INDENT)
    for st in d.steps:
        if cm is not None:
            out.extend(cm.before(st.span.line, INDENT))
        out.extend(_scenario_step(st, cm))
    return out


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


def scenario_step_text(st: A.ScenarioStep) -> list[str]:
    """One line of a scenario as `regelwerk fmt` writes it (a `given` with its block)."""
    return [line.strip("\n") for line in _scenario_step(st)]
