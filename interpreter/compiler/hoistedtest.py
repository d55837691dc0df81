"""`hoisted tests` (§5): a listing's part of a require worked out ahead of an inner loop
(Hoister.at_end) that is a call of a boolean definition the listing would otherwise call, written
in place as that definition's test, one statement a part, inside a `while True:` left by `break`.

Root's `take_move(from, to in links(from), n)` requires `rules(current, from) or rules(current,
to)`: the `to` half is tested in place (CodeGen.test splits `rules`' conditional and its `and`),
while the `from` half, hoisted ahead of the loop over `to`, was `_h = D_4(G, _cur, p0)`, a call
per clearing with warriors (some 460 a random game, in the Duchy's and the Marquise's move
listings), each binding six state maps again and handing the work counter over around it. The
flag is set false first and true after the last part: the same truth value as the call's (the
definition is of type bool, so its value is a bool), its parts evaluated in the same order, each
only where every part before it held, so the same errors, in the same places. Only where the
written test holds no loop (`looped`: an aggregate in place costs more than the call, whose code
the passes over definitions shape) and is left only by its failures (`straight`: no `return`,
handler or function of its own), and calls the definition nowhere; otherwise the call as before.
"""

from __future__ import annotations

import ast
import re
import textwrap

from ...dsl import ast as A
from ...dsl.types import BOOL
from .codegen import CodeGen

_MEMO = re.compile(r"\((_mz\d+)\[(\w+)\] if \2 in \1 else \1\.setdefault\(\2, .*\)\)")
FAIL = "break  # failed"  # a test's failure: leaves the one-round loop around it (`straight`)
_NEVER = (ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.Try, ast.With, ast.AsyncWith,
          ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def hoisted_test(g: CodeGen, node: A.Node, sc: dict, local: str, ind: str, depth: int) -> list[str] | None:
    """The lines that set `local` to the value of `node`, a call of a boolean definition that
    `g.ex` would write as a plain call (or, hoisted into the outermost loop, as the listing's
    memo keyed by that loop's variable, which `memo dropped` makes the plain call), by testing
    its body in place; None where that does not apply (the caller then writes `local = <call>`)."""
    if not g.HOISTED_TESTS or not isinstance(node, A.Call) or node.func not in g.m.defines \
            or g.m.define_types.get(node.func) != BOOL:
        return None
    body = g.m.defines[node.func].value
    if not (isinstance(body, A.BoolOp) and body.op == "and" or isinstance(body, A.CondExpr)):
        return None
    call = f"D_{g.define_ids[node.func]}("
    memo, choices = g.enum_memo, len(g.choices)  # what the probe or a test not taken adds, taken back
    tables = dict(memo) if memo is not None else None

    def undo() -> None:
        if memo is not None and tables is not None:
            memo.clear()
            memo.update(tables)
        del g.choices[choices:]
    code = g.ex(node, sc)
    undo()  # the call's memo table (`memo dropped` would drop it) is not made
    if not (code.startswith(call + "G") or depth == 0 and _MEMO.fullmatch(code) and call + "G" in code):
        return None
    inner = ind + "    "
    out: list[str] = []
    g.test(node, sc, out, inner, FAIL)
    if not out or any(call in line for line in out) or looped(out) or not straight(out):
        undo()  # the caller writes the call, as without the pass
        return None
    g.chose("hoisted test", node.func)
    return [f"{ind}{local} = False", f"{ind}while True:", *out, f"{inner}{local} = True", f"{inner}break"]


def straight(lines: list[str]) -> bool:
    """Whether a `while True:` written around the statements is left only by their failures
    (`FAIL`, outside any loop of theirs) or by running off their end: no `return`, `yield`,
    handler or function of their own, no `break` or `continue` of theirs outside their own loops
    (an aggregate's loop may hold its own), and no failure inside such a loop."""
    text = textwrap.dedent("\n".join(lines))
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return False
    rows = text.splitlines()

    def holds(node: ast.AST, in_loop: bool) -> bool:
        for field, value in ast.iter_fields(node):
            children = value if isinstance(value, list) else [value]
            looped = in_loop or isinstance(node, _LOOPS) and field == "body"  # `else:` is outside
            for child in children:
                if not isinstance(child, ast.AST):
                    continue
                if isinstance(child, _NEVER):
                    return False
                if isinstance(child, (ast.Break, ast.Continue)):
                    failed = isinstance(child, ast.Break) and rows[child.lineno - 1].rstrip().endswith(FAIL)
                    if failed == looped:
                        return False
                if not holds(child, looped):
                    return False
        return True
    return holds(tree, False)


def looped(lines: list[str]) -> bool:
    """Whether the statements hold a loop (an aggregate of the test written in place): then the
    definition's call, whose own code is shaped by the passes over definitions, is kept."""
    try:
        tree = ast.parse(textwrap.dedent("\n".join(lines)))
    except SyntaxError:
        return True
    return any(isinstance(n, _LOOPS) for n in ast.walk(tree))
