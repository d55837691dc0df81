"""A whole-number parameter walked only over the values its first require can let through
(issue 27).

Root's `take_move(from, to in links(from), n in 1..20)` tests `require warriors[current][from]
>= n` on all twenty values of `n` for every pair of clearings, and most fail: a bound that does
not read `n` cuts the range instead, `for n in range(1, min(20, warriors[current][from]) + 1)`.
The moves and their order are those of the range as written; only values that would fail the
require are not visited, so the listing does not test it again on the values walked (`walked
bound`, actiongen `walk_bound`; the check and the explanation of a move still do). The bound is worked out
on a line of its own marked as the require's (a failure in it is reported there), and only
when the range is not empty (where the loop as written would work it out at its first value).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...dsl import ast as A
from ...dsl.types import INT, Type
from .blocks import names_in

# `p OP E` -> which end of the range E bounds, and by how much (`p < E`: p <= E - 1)
_SIDES = {"<=": ("high", 0), "<": ("high", -1), ">=": ("low", 0), ">": ("low", 1)}
_FLIPPED = {"<=": ">=", "<": ">", ">=": "<=", ">": "<"}


@dataclass
class Narrowing:
    """Parameter `param` over `range`, bounded by `bound` at one end (`side`), plus `shift`."""

    param: A.Param
    range: A.Range
    bound: A.Node
    side: str  # "low" or "high"
    shift: int
    require: A.RequireStmt


def narrowing(p: A.Param, items: list, type_of: Callable[[A.Node], Type]) -> Narrowing | None:
    """The narrowing of `p`'s range by the first precondition at its depth (`items`), when that
    is `require p OP E` or `require E OP p` with OP one of < <= > >=, E an `int` (not `int?`)
    that does not read `p`. None otherwise."""
    if not isinstance(p.domain, A.Range) or not items or not isinstance(items[0], A.RequireStmt):
        return None
    test = items[0].test
    if not isinstance(test, A.Compare) or test.op not in _SIDES:
        return None
    op, bound = test.op, test.right
    if not _is_param(test.left, p):
        if not _is_param(test.right, p):
            return None
        op, bound = _FLIPPED[op], test.left
    if p.name in names_in(bound) or type_of(bound) != INT:
        return None
    side, shift = _SIDES[op]
    return Narrowing(p, p.domain, bound, side, shift, items[0])


def _is_param(e: A.Node, p: A.Param) -> bool:
    return isinstance(e, A.Name) and e.name == p.name


def range_code(n: Narrowing, low: str, high: str, bound: str) -> str:
    """The narrowed range as code, from the code of the range's ends and of the bound; empty
    (and the bound not worked out) when the range as written is."""
    b = bound if n.shift == 0 else f"{bound} {'+' if n.shift > 0 else '-'} {abs(n.shift)}"
    walked = f"range({low}, min({high}, {b}) + 1)" if n.side == "high" else f"range(max({low}, {b}), {high} + 1)"
    if isinstance(n.range.low, A.IntLit) and isinstance(n.range.high, A.IntLit):
        return walked if n.range.low.value <= n.range.high.value else "()"
    return f"({walked} if {low} <= {high} else ())"
