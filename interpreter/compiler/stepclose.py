"""Traced: the fused apply's step made where it closes (`step made at close`): a pass over a
traced fused `apply` (machine.py `fused_apply`) once the copies are in.

Why: a traced move's step is opened as a list and closed a few lines later by the copied
effect's close, which reads it back, sets its changes and extends the game's step list with it
(architecture §9, §17):

    G._step = [key, False, X, action, (), None, (), (), G.phase, _who]
    G._jmark = len(G.journal)
    ...                                   # the effect: writes, journal entries
    st = G._step
    G._step = None
    st[5] = range(G._jmark, len(G.journal))
    G._steps.extend(st)

Where nothing between reads the open step, the step is made once, at the close, from locals:

    _jm = len(G.journal); _ph = G.phase
    ...
    G._steps.extend((key, False, X, action, (), range(_jm, len(G.journal)), (), (), _ph, _who))
    _jm = None

The same items in the same order, the same step list. Everything that may read the open step
gets it first, as it was: before `G.finish(...)` (the end of the game notes its result in the
step, and the copied `return` after it closes it), in the effect's handler (a failure of the
move is noted in its step) and in the handlers around it (`_jm` still set: the close was not
reached); `G._step` is none between the open and the close, since the line before the open
closes any step left. Only where the effect calls nothing else that could read the game's step
or its journal mark: the library's pure functions (`b_*`, `_memo`), the runtime's helpers that
take no game, definitions (`D_*`), `len` and `range`, methods of anything but the game itself
and the game's `out_of_work`; a name it binds is not one of the locals the step is made of; it
does not return but after `G.finish`; and its own settings of the step's slots (`G._step[4] =
checks`, once each, in its top statement list) become locals the step is made with.
"""

from __future__ import annotations

import ast
import copy

from .pytree import located, statement_lists

# runtime helpers that take no game (interpreter/engine/runtime.py): they compute or fail
_PURE_CALLS = frozenset({"len", "range", "_memo", "_index", "_store", "_add", "_add_all", "_remove", "_cleared",
                         "_mul", "_div", "_mod", "_fz", "_hashable",
                         "_carry_note", "_carry_drop"})  # the carried values' write log (engine/carried.py)
_STEP_SLOTS = 10  # recording.py WIDTH: the step record's slots


def step_made_at_close(fn: ast.FunctionDef, finish_at_close: bool = False) -> bool:
    """The rewrite above, in place over the traced fused apply `fn`; True when it was made.
    `finish_at_close`: where the effect finishes the game, the step is kept there too (below)."""
    if any(type(n) is ast.Name and n.id in ("_jm", "_ph", "_je") for n in ast.walk(fn)):
        return False  # the locals' names are taken (the fused apply binds none of them)
    for lst in list(statement_lists(fn.body)):
        for i, s in enumerate(lst[:-2]):
            made = _opened(s)
            if made is None or not _is_mark(lst[i + 1]):
                continue
            outer = next((t for t in lst[i + 2:] if type(t) is ast.Try), None)
            if outer is None or not _rewritten(lst, i, outer, made, finish_at_close):
                continue
            return True
    return False


def _is_g_attr(e: ast.expr, attr: str) -> bool:
    return type(e) is ast.Attribute and e.attr == attr and type(e.value) is ast.Name and e.value.id == "G"


def _opened(s: ast.stmt) -> ast.List | None:
    """The list of `G._step = [...]` (ten slots, the last two `G.phase` and a name), else None."""
    if not (type(s) is ast.Assign and len(s.targets) == 1 and _is_g_attr(s.targets[0], "_step")
            and type(s.value) is ast.List and len(s.value.elts) == _STEP_SLOTS):
        return None
    e = s.value.elts
    if not (_is_g_attr(e[8], "phase") and type(e[9]) is ast.Name
            and all(type(x) in (ast.Name, ast.Constant, ast.Tuple) for x in e[:8])):
        return None
    return s.value


def _is_mark(s: ast.stmt) -> bool:
    """`G._jmark = len(G.journal)`."""
    return (type(s) is ast.Assign and len(s.targets) == 1 and _is_g_attr(s.targets[0], "_jmark")
            and ast.dump(s.value) == ast.dump(_len_journal()))


def _len_journal() -> ast.expr:
    return ast.Call(ast.Name("len", ast.Load()), [ast.Attribute(ast.Name("G", ast.Load()), "journal", ast.Load())], [])


def _close_at(body: list[ast.stmt]) -> int | None:
    """Where in `body` the four lines of the close stand, right after the effect's `try`."""
    if len(body) < 5 or type(body[0]) is not ast.Try:
        return None
    want = ["st = G._step", "G._step = None", "st[5] = range(G._jmark, len(G.journal))", "G._steps.extend(st)"]
    return 1 if [ast.unparse(s) for s in body[1:5]] == want else None


def _rewritten(lst: list[ast.stmt], i: int, outer: ast.Try, made: ast.List, finish_at_close: bool) -> bool:
    at = _close_at(outer.body)
    if at is None:
        return False
    effect = outer.body[0]
    assert isinstance(effect, ast.Try)
    if not any(type(h.type) is ast.Name and h.type.id == "_ANY_ERROR" for h in outer.handlers):
        return False  # a failure nothing catches would leave the step unmade
    names = {x.id for x in made.elts if type(x) is ast.Name}
    slots = _slots_set(effect.body, made, names)
    if slots is None:
        return False
    finishes = _finishes(effect.body, names, {id(s.targets[0].value) for s, _local in slots.values()})
    if finishes is None:
        return False
    between = lst[i + 2:lst.index(outer)]
    if any(not _plain_store(s) for s in between):
        return False

    def materialize() -> list[ast.stmt]:
        step = copy.deepcopy(made)
        step.elts[8] = ast.Name("_ph", ast.Load())
        return [ast.Assign([ast.Attribute(ast.Name("G", ast.Load()), "_step", ast.Store())], step),
                ast.Assign([ast.Attribute(ast.Name("G", ast.Load()), "_jmark", ast.Store())], ast.Name("_jm", ast.Load()))]

    def unmade(extra: ast.expr | None = None) -> ast.stmt:
        test: ast.expr = ast.Compare(ast.Attribute(ast.Name("G", ast.Load()), "_step", ast.Load()), [ast.Is()],
                                     [ast.Constant(None)])
        if extra is not None:
            test = ast.BoolOp(ast.And(), [extra, test])
        return ast.If(test, materialize(), [])

    opening = lst[i]
    # the open: the journal's mark and the phase kept in locals, and each slot the effect sets
    # (its checks' values) in one, at the step's value until it does
    heads = [ast.Assign([ast.Name("_jm", ast.Store())], _len_journal()),
             ast.Assign([ast.Name("_ph", ast.Store())], ast.Attribute(ast.Name("G", ast.Load()), "phase", ast.Load()))]
    for k, (s, local) in slots.items():
        heads.append(ast.Assign([ast.Name(local, ast.Store())], made.elts[k]))
        s.targets = [located(ast.Name(local, ast.Store()), s)]
        made.elts[k] = ast.Name(local, ast.Load())
    lst[i:i + 2] = [located(h, opening) for h in heads]
    # the close: the step made whole and kept
    closed = copy.deepcopy(made)
    closed.elts[5] = ast.Call(ast.Name("range", ast.Load()), [ast.Name("_jm", ast.Load()), _len_journal()], [])
    closed.elts[8] = ast.Name("_ph", ast.Load())
    keep = ast.Expr(ast.Call(ast.Attribute(ast.Attribute(ast.Name("G", ast.Load()), "_steps", ast.Load()), "extend", ast.Load()),
                             [ast.Tuple(closed.elts, ast.Load())], []))
    closing = outer.body[at]
    outer.body[at:at + 4] = [located(keep, closing),
                             located(ast.Assign([ast.Name("_jm", ast.Store())], ast.Constant(None)), closing)]
    # whatever may read the open step gets it first; the end of the game closes it itself
    whole = not any(type(n) is ast.Attribute and n.attr == "_jdict" for n in ast.walk(effect))
    for body, k in sorted(finishes, key=lambda f: -f[1]):
        closed_end = _ended_at_close(body[k + 1], closed) if whole and finish_at_close else None
        if closed_end is not None:
            body[k + 1:k + 2] = [located(s, body[k + 1]) for s in closed_end]
        else:
            body[k:k] = [located(s, body[k]) for s in materialize()]
    for h in effect.handlers:
        h.body[:0] = [located(unmade(), h.body[0])]
    for h in outer.handlers:
        h.body[:0] = [located(unmade(ast.Compare(ast.Name("_jm", ast.Load()), [ast.IsNot()], [ast.Constant(None)])),
                              h.body[0])]
    return True


def _slots_set(body: list[ast.stmt], made: ast.List, names: set[str]) -> dict[int, tuple[ast.Assign, str]] | None:
    """The effect's own statements `G._step[k] = value` (a constant slot, once each, in the
    effect's top statement list, a slot the step is made with a constant or tuple in), each with
    the local that takes its place; None where one stands anywhere else."""
    out: dict[int, tuple[ast.Assign, str]] = {}
    top = {id(s) for s in body}
    for s in (n for t in body for n in ast.walk(t)):
        if type(s) is not ast.Assign or not any(type(t) is ast.Subscript and _is_g_attr(t.value, "_step")
                                                  for t in s.targets):
            continue
        t = s.targets[0]
        if id(s) not in top or len(s.targets) != 1 or type(t) is not ast.Subscript or type(t.slice) is not ast.Constant:
            return None
        k = t.slice.value
        if type(k) is not int or not 0 <= k < _STEP_SLOTS or k in out or type(made.elts[k]) not in (ast.Constant, ast.Tuple):
            return None
        out[k] = (s, f"_sk{k}")
    return out


def _plain_store(s: ast.stmt) -> bool:
    """`G.x = <constant>`: what stands between the open and the effect (`G.abandon = None`)."""
    return type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Attribute \
        and type(s.value) is ast.Constant


def _finishes(body: list[ast.stmt], names: set[str], slot_sets: set[int]) -> list[tuple[list[ast.stmt], int]] | None:
    """Where the effect calls `G.finish(...)` (each followed by a `return`), or None where the
    effect may read the open step otherwise: a call other than those above, a read of
    `G._step` or `G._jmark`, a return not after `G.finish`, a binding of a name the step is
    made of."""
    found: list[tuple[list[ast.stmt], int]] = []
    allowed: set[int] = set()  # the finishing calls and the returns' own after them
    for lst in statement_lists(body):
        for k, s in enumerate(lst):
            if type(s) is ast.Return:
                if k == 0 or not _is_finish(lst[k - 1]):
                    return None
                if type(s.value) is ast.Call:
                    allowed.add(id(s.value))
            if _is_finish(s):
                if k + 1 >= len(lst) or type(lst[k + 1]) is not ast.Return:
                    return None
                found.append((lst, k))
                allowed.add(id(s.value))  # type: ignore[attr-defined]
    for node in (n for s in body for n in ast.walk(s)):
        kind = type(node)
        if kind is ast.Attribute and node.attr in ("_step", "_jmark") and id(node) not in slot_sets:
            return None
        if kind is ast.Name and type(node.ctx) is not ast.Load and node.id in names | {"_jm", "_ph"}:
            return None
        if kind in (ast.FunctionDef, ast.Lambda, ast.ClassDef, ast.AsyncFunctionDef):
            return None
        if kind is ast.Call and id(node) not in allowed and not _harmless(node):
            return None
    return found


def _is_finish(s: ast.stmt) -> bool:
    return type(s) is ast.Expr and type(s.value) is ast.Call and _is_g_attr(s.value.func, "finish")


def _harmless(call: ast.Call) -> bool:
    """A call that cannot read the game's open step: a pure library function, a definition,
    `len`/`range`, a method of something other than the game (a local list or dict, a field of
    the game such as its write log), or the game's `out_of_work` (which stops a move that ran
    too long by raising, and reads no step)."""
    f = call.func
    if type(f) is ast.Name:
        return f.id in _PURE_CALLS or f.id.startswith(("b_", "D_"))
    if type(f) is ast.Attribute:  # of the game itself only the work budget's check (it reads no step)
        return not (type(f.value) is ast.Name and f.value.id == "G") or f.attr == "out_of_work"
    return False


def _ended_at_close(ret: ast.stmt, closed: ast.List) -> list[ast.stmt] | None:
    """`finish at close`: after `G.finish(...)`, the return `return _after_traced_kept(G, True,
    F, k)` (the only return this pass meets: without `decision kept` the step is not made at
    close) closes the step the effect made and notes the result
    (game.py `after_traced`: `_close`, `_emit_result`). Written out here from the step's locals,
    with nothing made first: the frame's op set as `after_traced_kept` sets it, nobody asked,
    the step kept (a move's step is kept whatever it wrote: its changes the journal's range, or
    none where it wrote nothing, as `_close` has them; no map or record was written whole), then
    the result. None where the return is another."""
    if not (type(ret) is ast.Return and type(ret.value) is ast.Call and type(ret.value.func) is ast.Name):
        return None
    call, name = ret.value, ret.value.func.id
    text = [ast.unparse(a) for a in call.args]
    if not (name == "_after_traced_kept" and len(text) == 4 and text[:3] == ["G", "True", "F"]
            and type(call.args[3]) is ast.Constant and type(call.args[3].value) is int):
        return None
    k = call.args[3].value
    out = [f"if F[1] == {k}:", f"    F[1] = {k + 1}"]
    step = copy.deepcopy(closed)
    step.elts[5] = ast.parse("range(_jm, _je) if _je != _jm else ()", mode="eval").body
    out += ["G.pending = None", "G._jmark = _jm", "_je = len(G.journal)",
            f"G._steps.extend({ast.unparse(ast.Tuple(step.elts, ast.Load()))})",
            "G._steps.append({'result': G.result})", "return"]
    return ast.parse("\n".join(out)).body


def finished_at_close(fn: ast.FunctionDef) -> bool:
    """Whether `step_made_at_close` kept the step where the effect finishes the game."""
    return any(type(n) is ast.Name and n.id == "_je" for n in ast.walk(fn))
