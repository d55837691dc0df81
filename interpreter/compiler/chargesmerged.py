"""A run of straight-line charges taken at once (`charges merged`): a pass over every function of
a program.

Why: a definition that asks several quantifiers of one list charges the work budget its length
for each, each charge a read, a subtraction and a write of the counter and a test (Shogun's
`tally(xs)`, six colours counted as `xs.count(c)`, 120 calls a game):

    _d85 = p0
    G.work -= len(_d85)
    if G.work < 0:
        G.out_of_work(SPANS[55])
    _r84 = _d85.count('blue')
    _d87 = p0
    G.work -= len(_d87)
    if G.work < 0:
        G.out_of_work(SPANS[56])
    ...

Where two or more such charges (an amount `len(<name>)`, through an alias bound just before it,
or a literal) follow each other in one list of statements with only quiet statements between
them, the run is written twice:

    if G.work - 6 * len(p0) >= 0:
        G.work -= 6 * len(p0)
        _d85 = p0
        _r84 = _d85.count('blue')
        ...                                  # the run without its charges and tests
                                             # (an amount read k times: k times its length)
    else:
        ...                                  # as it was

Sound because the quiet statements between the charges read nothing of the counter, change
nothing the amounts measure and cannot fail: each binds a local (never one the amounts read) to
another local, a constant, or `<local>.count(<constant or local>)` (a list's or tuple's count,
what `count x in xs where x == v` becomes: codegen `counted`). So the amounts are what they
were, the counter only falls along the run, and when it covers their sum no test could have
found it below 0; the counter is charged the sum before the run rather than piece by piece,
which nothing in the run can see.
"""

from __future__ import annotations

import ast
import copy


def charges_merged(fn: ast.FunctionDef) -> bool:
    """The pass, in place over `fn`; True when a run was merged."""
    return _stmts(fn.body)


def _stmts(stmts: list[ast.stmt]) -> bool:
    done = False
    for s in stmts:
        for field in ("body", "orelse", "finalbody"):
            body = getattr(s, field, None)
            if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
                done = _stmts(body) or done
        for h in getattr(s, "handlers", ()):
            done = _stmts(h.body) or done
    i = 0
    while i < len(stmts):
        run = _run(stmts, i)
        if run is None:
            i += 1
            continue
        end, work, amounts = run
        stmts[i:end] = [_written_twice(stmts[i:end], work, amounts)]
        done = True
        i += 1
    return done


def _counter(e: ast.expr) -> str | None:
    """The counter a charge writes: `G.work` or a local `_wk` / `_lw`, as text."""
    if type(e) is ast.Attribute and type(e.value) is ast.Name and e.value.id == "G" and e.attr == "work":
        return "G.work"
    if type(e) is ast.Name and e.id in ("_wk", "_lw"):
        return e.id
    return None


def _charge(stmts: list[ast.stmt], i: int) -> tuple[int, str, ast.expr] | None:
    """A charge starting at `stmts[i]`: (statements it takes, its counter, its amount with an
    alias read through), else None."""
    alias: tuple[str, str] | None = None
    j = i
    s = stmts[j]
    if type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name and type(s.value) is ast.Name:
        alias = (s.targets[0].id, s.value.id)
        j += 1
    if j + 1 >= len(stmts):
        return None
    c, t = stmts[j], stmts[j + 1]
    if not (type(c) is ast.AugAssign and type(c.op) is ast.Sub):
        return None
    work = _counter(c.target)
    if work is None:
        return None
    amount = c.value
    if type(amount) is ast.Constant:
        if type(amount.value) is not int or amount.value < 0:
            return None
    elif type(amount) is ast.Call and type(amount.func) is ast.Name and amount.func.id == "len" \
            and len(amount.args) == 1 and not amount.keywords and type(amount.args[0]) is ast.Name:
        name = amount.args[0].id
        if alias is not None and name == alias[0]:
            name = alias[1]
        amount = ast.Call(ast.Name("len", ast.Load()), [ast.Name(name, ast.Load())], [])
    else:
        return None
    if not (type(t) is ast.If and not t.orelse and type(t.test) is ast.Compare and len(t.test.ops) == 1
            and type(t.test.ops[0]) is ast.Lt and _counter(t.test.left) == work
            and type(t.test.comparators[0]) is ast.Constant and t.test.comparators[0].value == 0):
        return None
    return j + 2 - i, work, amount


def _quiet(s: ast.stmt) -> str | None:
    """The local a quiet statement binds, else None: `x = y`, `x = <constant>`,
    `x = y.count(<constant or local>)`."""
    if not (type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name):
        return None
    target = s.targets[0].id
    if target == "G" or _counter(s.targets[0]) is not None:
        return None
    v = s.value
    if type(v) in (ast.Name, ast.Constant):
        return target if not (type(v) is ast.Name and v.id == "G") else None
    if type(v) is ast.Call and type(v.func) is ast.Attribute and v.func.attr == "count" \
            and type(v.func.value) is ast.Name and v.func.value.id != "G" and len(v.args) == 1 and not v.keywords \
            and (type(v.args[0]) is ast.Constant or type(v.args[0]) is ast.Name and v.args[0].id != "G"):
        return target
    return None


def _run(stmts: list[ast.stmt], i: int) -> tuple[int, str, list[ast.expr]] | None:
    """A run of two or more charges of one counter from `stmts[i]`, only quiet statements
    between them: (its end, the counter, the amounts), else None."""
    first = _charge(stmts, i)
    if first is None:
        return None
    taken, work, amount = first
    amounts = [amount]
    end = i + taken
    bound: set[str] = set()
    j = end
    while j < len(stmts):
        nxt = _charge(stmts, j)
        if nxt is not None and nxt[1] == work:
            amounts.append(nxt[2])
            j += nxt[0]
            end = j
            continue
        name = _quiet(stmts[j])
        if name is None:
            break
        j += 1
    if len(amounts) < 2:
        return None
    read = {a.args[0].id for a in amounts if type(a) is ast.Call}  # type: ignore[attr-defined]
    for s in stmts[i:end]:  # the amounts' names bound nowhere in the run (an alias is read through)
        if type(s) is ast.Assign:
            bound.update(t.id for t in s.targets if type(t) is ast.Name)
    if read & bound or any(type(a) is ast.Call and (a.args[0].id == "G" or _counter(a.args[0]) is not None)  # type: ignore[attr-defined]
                           for a in amounts):
        return None
    return end, work, amounts


def _store(work: str) -> ast.expr:
    if work == "G.work":
        return ast.Attribute(ast.Name("G", ast.Load()), "work", ast.Store())
    return ast.Name(work, ast.Store())


def _load(work: str) -> ast.expr:
    if work == "G.work":
        return ast.Attribute(ast.Name("G", ast.Load()), "work", ast.Load())
    return ast.Name(work, ast.Load())


def _written_twice(run: list[ast.stmt], work: str, amounts: list[ast.expr]) -> ast.If:
    lengths: dict[str, int] = {}  # `len(x)` read k times: `k * len(x)`
    fixed = 0
    for a in amounts:
        if type(a) is ast.Constant:
            fixed += a.value
        else:
            name = a.args[0].id  # type: ignore[attr-defined]
            lengths[name] = lengths.get(name, 0) + 1
    parts: list[ast.expr] = []
    for name, k in lengths.items():
        one = ast.Call(ast.Name("len", ast.Load()), [ast.Name(name, ast.Load())], [])
        parts.append(one if k == 1 else ast.BinOp(ast.Constant(k), ast.Mult(), one))
    if fixed or not parts:
        parts.append(ast.Constant(fixed))
    total = parts[0]
    for part in parts[1:]:
        total = ast.BinOp(total, ast.Add(), part)
    fast: list[ast.stmt] = [ast.AugAssign(_store(work), ast.Sub(), copy.deepcopy(total))]
    i = 0
    while i < len(run):
        c = _charge(run, i)
        if c is None:
            fast.append(copy.deepcopy(run[i]))
            i += 1
            continue
        if type(run[i]) is ast.Assign:  # its alias stays: what follows may read it
            fast.append(copy.deepcopy(run[i]))
        i += c[0]
    test = ast.Compare(ast.BinOp(_load(work), ast.Sub(), total), [ast.GtE()], [ast.Constant(0)])
    out = ast.If(test, fast, run)
    return ast.fix_missing_locations(ast.copy_location(out, run[0]))
