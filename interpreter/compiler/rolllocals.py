"""The generator's state and the work counter in locals (`roll locals`): a pass over a device
roll's generated function (`DR_n`).

Why: a roll's draws in place (`codegen.draw`, `drawn in place`) read `G.rng` and write it back
at every draw, and each item a loop appends is charged to `G.work` with a subtraction and a
comparison: Shogun's tower makes about 3,200 draws and as many charges a game, each an
attribute read and write on the game. Inside the roll, between two calls that hand the game to
other code, nothing else reads or writes those fields, so they can live in the locals `_rg` and
`_wk`:

    _rg = G.rng                      # at the top
    _wk = G.work
    try:
        ...  _s = _rg ... _rg = _s ... _wk -= len(_l); if _wk < 0: ...
    except:                          # a failure leaves the game as the roll left it
        if _wk is not None:
            G.rng = _rg
            G.work = _wk
        raise

Each simple statement that hands the game to other code (a call with `G` as an argument or of
a method of `G`: the slow draw `c_bernoulli(G, ...)`, `G.out_of_work(...)`, `c_shuffled(G,
...)`) is written between

    G.rng = _rg; G.work = _wk; _wk = None     (the game's fields hold the values; the call may
    <the statement>                            change them, and a failure inside it leaves them
    _rg = G.rng; _wk = G.work                  as the call did: `_wk is None` says so)

and a `return` (or a `raise`, or the end of the function) writes them back first. So every
call sees the fields as before, the work budget runs out at the same charge (the counter's
values are the same, and `out_of_work` reads and resets `G.work`), the draws make the same
stream, and whatever stops the roll leaves the game's fields as they would have been. The
handler's bare `raise` keeps the failing line in the traceback (locate.py places failures by it).

Only where the analysis is simple: the function's statements are assignments, expression
statements, `if`, `for`, `while`, `break`, `continue`, `pass`, `return`, `raise`; no header of a
compound statement (an `if`'s test, a `for`'s iterable) calls with the game; `G` is used only
as `G.attr` or as a call's argument; no nested scope (comprehension, lambda) names `G`; and some
loop reads or writes `G.rng` or `G.work`. Anything else leaves the function as it is.
"""

from __future__ import annotations

import ast

from .pytree import located

FIELDS = {"rng": "_rg", "work": "_wk"}
WORK = {"work": "_lw"}  # `work local`: a listing's copy in a block keeps only the counter
_SCOPES = (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp,
           ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_SIMPLE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Break, ast.Continue, ast.Pass,
           ast.Return, ast.Raise)


class _Unsupported(Exception):
    """Code the pass does not model: the function is left as it is."""


def roll_locals(fn: ast.FunctionDef) -> bool:
    """The pass, in place over `fn`; whether it was made."""
    guarded = _guarded(fn.body, FIELDS)
    if guarded is None:
        return False
    fn.body = guarded
    return True


def work_local(body: list[ast.stmt]) -> list[ast.stmt] | None:
    """`work local`: the statements `body` (an action's listing copied into a block, whose
    loops charge each scan to `G.work`) with the work counter in the local `_lw` while they
    run, written back at their end, before each call that hands the game over and whatever
    stops them: the same as `roll_locals` for a function, the generator left as it is. None
    where the analysis does not apply, or a `break` or `continue` would leave the statements
    for a loop around them (past the write-back)."""
    try:
        _no_jump_out(body, 0)
    except _Unsupported:
        return None
    return _guarded(body, WORK)


def _guarded(stmts: list[ast.stmt], fields: dict[str, str]) -> list[ast.stmt] | None:
    """`stmts` with the game's `fields` in their locals (the pass), or None where it does not
    apply: the locals' names taken, code it does not model, no loop reading a field."""
    if any(n in set(fields.values()) for s in stmts for n in _names(s)):
        return None
    try:
        _check(stmts)
    except _Unsupported:
        return None
    if not any(isinstance(n, (ast.For, ast.While)) and _reads_fields(n, fields) for s in stmts for n in ast.walk(s)):
        return None
    body = _block(stmts, fields)
    if not (body and isinstance(body[-1], (ast.Return, ast.Raise))):
        body += _write_back(fields)
    head = [_assign(local, _attr(f)) for f, local in fields.items()]
    guard = next(iter(fields.values()))  # the last local set to None when a call holds the fields
    handler = ast.ExceptHandler(None, None, [  # a bare `except:` (no builtin's name in the namespace)
        ast.If(ast.Compare(ast.Name(fields.get("work", guard), ast.Load()), [ast.IsNot()], [ast.Constant(None)]),
               _write_back(fields), []),
        ast.Raise(None, None)])
    guarded = ast.Try(body, [handler], [], [])
    first = stmts[0]
    return [located(s, first) for s in (*head, guarded)]


def _no_jump_out(stmts: list[ast.stmt], loops: int) -> None:
    """Raise where a `break` or `continue` is outside every loop of `stmts`."""
    for s in stmts:
        if isinstance(s, (ast.Break, ast.Continue)) and not loops:
            raise _Unsupported
        if isinstance(s, (ast.For, ast.While)):
            _no_jump_out(s.body, loops + 1)
            _no_jump_out(s.orelse, loops)
        elif isinstance(s, ast.If):
            _no_jump_out(s.body, loops)
            _no_jump_out(s.orelse, loops)


# ------------------------------------------------------------------ what the pass accepts

def _check(stmts: list[ast.stmt]) -> None:
    for s in stmts:
        if isinstance(s, _SIMPLE):
            _check_expr(s)
        elif isinstance(s, ast.If):
            _header(s.test)
            _check(s.body)
            _check(s.orelse)
        elif isinstance(s, ast.For):
            if not isinstance(s.target, ast.Name):
                raise _Unsupported
            _header(s.iter)
            _check(s.body)
            _check(s.orelse)
        elif isinstance(s, ast.While):
            _header(s.test)
            _check(s.body)
            _check(s.orelse)
        else:
            raise _Unsupported


def _header(e: ast.expr) -> None:
    _check_expr(e)
    if _calls_game(e):
        raise _Unsupported


def _check_expr(node: ast.AST) -> None:
    """`G` only as `G.attr` or a call's argument, never in a nested scope, never bound."""
    for n in ast.walk(node):
        if isinstance(n, _SCOPES) and any(isinstance(m, ast.Name) and m.id == "G" for m in ast.walk(n)):
            raise _Unsupported
        if isinstance(n, ast.Name) and n.id == "G" and not isinstance(n.ctx, ast.Load):
            raise _Unsupported
    allowed = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
            allowed.add(id(n.value))
        elif isinstance(n, ast.Call):
            allowed.update(id(a) for a in n.args)
            allowed.update(id(k.value) for k in n.keywords)
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id == "G" and id(n) not in allowed:
            raise _Unsupported


def _calls_game(node: ast.AST) -> bool:
    """Whether `node` hands the game to other code: a call of a method of `G`, or with `G`
    itself as an argument (`type(G.rng)` hands over only the field's value)."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "G":
                return True
            if any(isinstance(a, ast.Name) and a.id == "G" for a in (*n.args, *(k.value for k in n.keywords))):
                return True
    return False


def _is_field(n: ast.AST, fields: dict[str, str]) -> bool:
    return (isinstance(n, ast.Attribute) and n.attr in fields and isinstance(n.value, ast.Name)
            and n.value.id == "G")


def _reads_fields(node: ast.AST, fields: dict[str, str]) -> bool:
    return any(_is_field(n, fields) for n in ast.walk(node))


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


# ------------------------------------------------------------------ the rewrite

def _block(stmts: list[ast.stmt], fields: dict[str, str]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    held = fields["work"]  # None while the game's fields hold the values (a call has them)
    for s in stmts:
        if isinstance(s, (ast.Return, ast.Raise)):
            done = _write_back(fields)
            if _calls_game(s):  # the fields are the game's from here on, whatever the call does
                done.append(_assign(held, ast.Constant(None)))
            else:
                s = _to_locals(s, fields)
            out += [located(w, s) for w in done] + [s]
        elif isinstance(s, _SIMPLE):
            if _calls_game(s):  # the fields handed to the call, and read back after it
                out += [located(w, s) for w in [*_write_back(fields), _assign(held, ast.Constant(None))]]
                out.append(s)
                out += [located(_assign(local, _attr(f)), s) for f, local in fields.items()]
            else:
                out.append(_to_locals(s, fields))
        else:  # if, for, while: their headers call nothing with the game (_check)
            for field in ("test", "iter"):
                if hasattr(s, field):
                    setattr(s, field, _to_locals(getattr(s, field), fields))
            s.body = _block(s.body, fields)
            s.orelse = _block(s.orelse, fields)
            out.append(s)
    return out


class _ToLocals(ast.NodeTransformer):
    def __init__(self, fields: dict[str, str]):
        self.fields = fields

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:  # noqa: N802 - the visitor's protocol
        if _is_field(node, self.fields):
            return ast.copy_location(ast.Name(self.fields[node.attr], node.ctx), node)
        return self.generic_visit(node)


def _to_locals(node: ast.AST, fields: dict[str, str]) -> ast.AST:
    """`node` (which calls nothing with the game) reading and writing the locals for the
    game's `fields` (`G.rng` and `G.work`), changed in place where it can be."""
    return _ToLocals(fields).visit(node)


def _attr(field: str, ctx: ast.expr_context | None = None) -> ast.Attribute:
    return ast.Attribute(ast.Name("G", ast.Load()), field, ctx or ast.Load())


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([ast.Name(name, ast.Store())], value)


def _write_back(fields: dict[str, str]) -> list[ast.stmt]:
    return [ast.Assign([_attr(f, ast.Store())], ast.Name(local, ast.Load())) for f, local in fields.items()]
